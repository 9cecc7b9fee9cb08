/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-model.c: the plot model (series, points, marker lines, axis
 * settings) and its accessors.  Plain data: nothing here draws. */
#define G_LOG_DOMAIN "ks-plot"

#include "ks-plot-private.h"

static void
point_clear (gpointer data)
{
  KsPlotPoint *p = data;

  g_clear_pointer (&p->label, g_free);
}

static void
vline_clear (gpointer data)
{
  VLine *v = data;

  g_clear_pointer (&v->label, g_free);
}

static void
series_free (gpointer data)
{
  Series *s = data;

  g_free (s->name);
  g_array_unref (s->points);
  g_free (s);
}

KsPlot *
ks_plot_new (void)
{
  KsPlot *plot = g_atomic_rc_box_new0 (KsPlot);

  plot->x_min = plot->x_max = NAN;
  plot->y_min = plot->y_max = NAN;
  plot->series = g_ptr_array_new_with_free_func (series_free);
  plot->vlines = g_array_new (FALSE, TRUE, sizeof (VLine));
  g_array_set_clear_func (plot->vlines, vline_clear);
  g_mutex_init (&plot->font_lock);

  return plot;
}

KsPlot *
ks_plot_ref (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, NULL);

  return g_atomic_rc_box_acquire (plot);
}

static void
plot_clear (gpointer data)
{
  KsPlot *plot = data;

  g_free (plot->title);
  g_free (plot->caption);
  g_free (plot->x_label);
  g_free (plot->y_label);
  g_free (plot->highlight_legend);
  g_ptr_array_unref (plot->series);
  g_array_unref (plot->vlines);
  g_mutex_clear (&plot->font_lock);
  g_free (plot->font_family);
}

void
ks_plot_unref (KsPlot *plot)
{
  g_return_if_fail (plot != NULL);

  g_atomic_rc_box_release_full (plot, plot_clear);
}

static void
replace_string (char       **field,
                const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

void
ks_plot_set_title (KsPlot     *plot,
                   const char *title)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->title, title);
}

const char *
ks_plot_get_title (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, NULL);

  return plot->title;
}

void
ks_plot_set_caption (KsPlot     *plot,
                     const char *caption)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->caption, caption);
}

void
ks_plot_set_axis_labels (KsPlot     *plot,
                         const char *x_label,
                         const char *y_label)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->x_label, x_label);
  replace_string (&plot->y_label, y_label);
}

void
ks_plot_set_log_x (KsPlot   *plot,
                   gboolean  log_x)
{
  g_return_if_fail (plot != NULL);

  plot->log_x = !!log_x;
}

void
ks_plot_set_log_y (KsPlot   *plot,
                   gboolean  log_y)
{
  g_return_if_fail (plot != NULL);

  plot->log_y = !!log_y;
}

void
ks_plot_set_x_range (KsPlot *plot,
                     double  min,
                     double  max)
{
  g_return_if_fail (plot != NULL);

  plot->x_min = min;
  plot->x_max = max;
}

void
ks_plot_set_y_range (KsPlot *plot,
                     double  min,
                     double  max)
{
  g_return_if_fail (plot != NULL);

  plot->y_min = min;
  plot->y_max = max;
}

void
ks_plot_set_highlight_legend (KsPlot     *plot,
                              const char *text)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->highlight_legend, text);
}

guint
ks_plot_add_series (KsPlot     *plot,
                    const char *name)
{
  Series *s;

  g_return_val_if_fail (plot != NULL, 0);

  s = g_new0 (Series, 1);
  s->name = g_strdup (name);
  s->points = g_array_new (FALSE, TRUE, sizeof (KsPlotPoint));
  g_array_set_clear_func (s->points, point_clear);
  g_ptr_array_add (plot->series, s);

  return plot->series->len - 1;
}

void
ks_plot_series_set_dashed (KsPlot   *plot,
                           guint     series,
                           gboolean  dashed)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  ((Series *) g_ptr_array_index (plot->series, series))->dashed = !!dashed;
}

void
ks_plot_series_set_name (KsPlot     *plot,
                         guint       series,
                         const char *name)
{
  Series *ser;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  ser = g_ptr_array_index (plot->series, series);
  g_free (ser->name);
  ser->name = g_strdup (name);
}

void
ks_plot_add_point (KsPlot *plot,
                   guint   series,
                   double  x,
                   double  y)
{
  ks_plot_add_point_full (plot, series, x, y, NAN, NAN, KS_PLOT_POINT_NONE, NULL);
}

void
ks_plot_add_point_full (KsPlot           *plot,
                        guint             series,
                        double            x,
                        double            y,
                        double            y_lo,
                        double            y_hi,
                        KsPlotPointFlags  flags,
                        const char       *label)
{
  Series *s;
  KsPlotPoint p = { x, y, y_lo, y_hi, flags, g_strdup (label) };

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  s = g_ptr_array_index (plot->series, series);
  g_array_append_val (s->points, p);
}

void
ks_plot_add_vline (KsPlot     *plot,
                   double      x,
                   const char *label)
{
  VLine v = { x, g_strdup (label) };

  g_return_if_fail (plot != NULL);

  g_array_append_val (plot->vlines, v);
}

guint
ks_plot_get_n_series (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0);

  return plot->series->len;
}

const char *
ks_plot_series_get_name (KsPlot *plot,
                         guint   series)
{
  g_return_val_if_fail (plot != NULL, NULL);
  g_return_val_if_fail (series < plot->series->len, NULL);

  return ((Series *) g_ptr_array_index (plot->series, series))->name;
}

guint
ks_plot_series_get_n_points (KsPlot *plot,
                             guint   series)
{
  g_return_val_if_fail (plot != NULL, 0);
  g_return_val_if_fail (series < plot->series->len, 0);

  return ((Series *) g_ptr_array_index (plot->series, series))->points->len;
}

const KsPlotPoint *
ks_plot_series_get_point (KsPlot *plot,
                          guint   series,
                          guint   index)
{
  Series *s;

  g_return_val_if_fail (plot != NULL, NULL);
  g_return_val_if_fail (series < plot->series->len, NULL);

  s = g_ptr_array_index (plot->series, series);
  g_return_val_if_fail (index < s->points->len, NULL);

  return &g_array_index (s->points, KsPlotPoint, index);
}

guint
ks_plot_get_n_vlines (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0);

  return plot->vlines->len;
}

gboolean
ks_plot_model_has_points (KsPlot *plot)
{
  for (guint i = 0; i < plot->series->len; i++)
    if (((Series *) g_ptr_array_index (plot->series, i))->points->len > 0)
      return TRUE;
  return FALSE;
}
