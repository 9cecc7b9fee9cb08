/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-model.c: the plot model (series, points, reference lines, bands,
 * annotations, axis settings) and its accessors.  Plain data: nothing here
 * draws.  Every change bumps the plot's generation, which tells the layout
 * cache (ks-plot-layout.c) that what it holds is out of date. */
#define G_LOG_DOMAIN "ks-plot"

#include "ks-plot-mesh-private.h"

static void
point_clear (gpointer data)
{
  KsPlotPoint *p = data;

  g_clear_pointer (&p->label, g_free);
}

static void
ref_line_clear (gpointer data)
{
  RefLine *v = data;

  g_clear_pointer (&v->label, g_free);
}

static void
band_clear (gpointer data)
{
  Band *b = data;

  g_clear_pointer (&b->label, g_free);
}

static void
annotation_clear (gpointer data)
{
  Annotation *a = data;

  g_clear_pointer (&a->text, g_free);
}

static GArray *
array_new (gsize          size,
           GDestroyNotify clear)
{
  GArray *a = g_array_new (FALSE, TRUE, size);

  g_array_set_clear_func (a, clear);
  return a;
}

void
ks_plot_changed (KsPlot *plot)
{
  g_atomic_int_inc (&plot->generation);
}

static void
series_free (gpointer data)
{
  Series *s = data;

  g_free (s->name);
  g_free (s->group);
  g_array_unref (s->points);
  g_free (s);
}

KsPlot *
ks_plot_new (void)
{
  KsPlot *plot = g_atomic_rc_box_new0 (KsPlot);

  plot->x_min = plot->x_max = NAN;
  plot->y_min = plot->y_max = NAN;
  plot->y2_min = plot->y2_max = NAN;
  plot->error_bars = TRUE;
  plot->bars_auto_log = TRUE;
  plot->series = g_ptr_array_new_with_free_func (series_free);
  plot->vlines = array_new (sizeof (RefLine), ref_line_clear);
  plot->hlines = array_new (sizeof (RefLine), ref_line_clear);
  plot->bands = array_new (sizeof (Band), band_clear);
  plot->annotations = array_new (sizeof (Annotation), annotation_clear);
  g_mutex_init (&plot->font_lock);
  g_mutex_init (&plot->cache_lock);

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
  g_free (plot->y2_label);
  g_strfreev (plot->categories);
  g_ptr_array_unref (plot->series);
  g_array_unref (plot->vlines);
  g_array_unref (plot->hlines);
  g_array_unref (plot->bands);
  g_array_unref (plot->annotations);
  g_clear_pointer (&plot->mesh, ks_plot_mesh_free);
  g_clear_pointer (&plot->blocks, g_free);
  g_mutex_clear (&plot->font_lock);
  g_free (plot->font_family);
  g_clear_pointer (&plot->cache, ks_plot_layout_unref);
  g_mutex_clear (&plot->cache_lock);
}

void
ks_plot_unref (KsPlot *plot)
{
  g_return_if_fail (plot != NULL);

  g_atomic_rc_box_release_full (plot, plot_clear);
}

static void
replace_string (KsPlot      *plot,
                char       **field,
                const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
  ks_plot_changed (plot);
}

void
ks_plot_set_title (KsPlot     *plot,
                   const char *title)
{
  g_return_if_fail (plot != NULL);

  replace_string (plot, &plot->title, title);
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

  replace_string (plot, &plot->caption, caption);
}

void
ks_plot_set_axis_labels (KsPlot     *plot,
                         const char *x_label,
                         const char *y_label)
{
  g_return_if_fail (plot != NULL);

  replace_string (plot, &plot->x_label, x_label);
  replace_string (plot, &plot->y_label, y_label);
}

void
ks_plot_set_log_x (KsPlot   *plot,
                   gboolean  log_x)
{
  g_return_if_fail (plot != NULL);

  plot->x_scale = log_x ? KS_PLOT_SCALE_LOG10 : KS_PLOT_SCALE_LINEAR;
  ks_plot_changed (plot);
}

void
ks_plot_set_log_y (KsPlot   *plot,
                   gboolean  log_y)
{
  g_return_if_fail (plot != NULL);

  plot->y_scale = log_y ? KS_PLOT_SCALE_LOG10 : KS_PLOT_SCALE_LINEAR;
  ks_plot_changed (plot);
}

void
ks_plot_set_x_range (KsPlot *plot,
                     double  min,
                     double  max)
{
  g_return_if_fail (plot != NULL);

  plot->x_min = min;
  plot->x_max = max;
  ks_plot_changed (plot);
}

void
ks_plot_set_y_range (KsPlot *plot,
                     double  min,
                     double  max)
{
  g_return_if_fail (plot != NULL);

  plot->y_min = min;
  plot->y_max = max;
  ks_plot_changed (plot);
}

void
ks_plot_set_highlight_legend (KsPlot     *plot,
                              const char *text)
{
  g_return_if_fail (plot != NULL);

  replace_string (plot, &plot->highlight_legend, text);
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
  ks_plot_changed (plot);

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
  ks_plot_changed (plot);
}

void
ks_plot_series_set_overlay (KsPlot   *plot,
                            guint     series,
                            gboolean  overlay)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  ((Series *) g_ptr_array_index (plot->series, series))->overlay = !!overlay;
  ks_plot_changed (plot);
}

void
ks_plot_series_set_group (KsPlot     *plot,
                          guint       series,
                          const char *group)
{
  Series *ser;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  ser = g_ptr_array_index (plot->series, series);
  g_free (ser->group);
  ser->group = g_strdup (group);
  ks_plot_changed (plot);
}

void
ks_plot_set_fit_overlays (KsPlot   *plot,
                          gboolean  fit)
{
  g_return_if_fail (plot != NULL);

  plot->fit_overlays = !!fit;
  ks_plot_changed (plot);
}

gboolean
ks_plot_get_fit_overlays (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, FALSE);

  return plot->fit_overlays;
}

gboolean
ks_plot_has_overlays_beside_data (KsPlot *plot)
{
  gboolean overlay = FALSE, data = FALSE;

  g_return_val_if_fail (plot != NULL, FALSE);

  for (guint s = 0; s < plot->series->len; s++)
    {
      const Series *ser = g_ptr_array_index (plot->series, s);

      if (ser->points->len == 0)
        continue;
      overlay |= ser->overlay;
      data |= !ser->overlay;
    }
  return overlay && data;
}

gboolean
ks_plot_series_get_dashed (KsPlot *plot,
                           guint   series)
{
  g_return_val_if_fail (plot != NULL, FALSE);
  g_return_val_if_fail (series < plot->series->len, FALSE);

  return ((Series *) g_ptr_array_index (plot->series, series))->dashed;
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
  KsPlotPoint p = { x, y, y_lo, y_hi, flags, NULL };

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  p.label = g_strdup (label);
  s = g_ptr_array_index (plot->series, series);
  g_array_append_val (s->points, p);
  ks_plot_changed (plot);
}

void
ks_plot_series_clear_points (KsPlot *plot,
                             guint   series)
{
  Series *s;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  s = g_ptr_array_index (plot->series, series);
  g_array_set_size (s->points, 0);
  ks_plot_changed (plot);
}

void
ks_plot_add_vline (KsPlot     *plot,
                   double      x,
                   const char *label)
{
  RefLine v = { x, NULL };

  g_return_if_fail (plot != NULL);

  v.label = g_strdup (label);
  g_array_append_val (plot->vlines, v);
  ks_plot_changed (plot);
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

guint
ks_plot_get_n_hlines (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0);

  return plot->hlines->len;
}

const char * const *
ks_plot_get_x_categories (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, NULL);

  return (const char * const *) plot->categories;
}

gboolean
ks_plot_series_get_y2 (KsPlot *plot,
                       guint   series)
{
  g_return_val_if_fail (plot != NULL && series < plot->series->len, FALSE);

  return ((Series *) g_ptr_array_index (plot->series, series))->y2;
}

KsPlotSeriesKind
ks_plot_series_get_kind (KsPlot *plot,
                         guint   series)
{
  g_return_val_if_fail (plot != NULL && series < plot->series->len, KS_PLOT_SERIES_LINE);

  return ((Series *) g_ptr_array_index (plot->series, series))->kind;
}

gboolean
ks_plot_has_data (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, FALSE);

  return ks_plot_model_has_points (plot);
}

gboolean
ks_plot_model_has_points (KsPlot *plot)
{
  if (plot->blocks != NULL || (plot->mesh != NULL && plot->mesh->n_cells > 0))
    return TRUE;
  for (guint i = 0; i < plot->series->len; i++)
    if (((Series *) g_ptr_array_index (plot->series, i))->points->len > 0)
      return TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Axes                                                                     */

void
ks_plot_set_x_scale (KsPlot      *plot,
                     KsPlotScale  scale)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (scale <= KS_PLOT_SCALE_LOG2);

  plot->x_scale = scale;
  ks_plot_changed (plot);
}

void
ks_plot_set_y_scale (KsPlot      *plot,
                     KsPlotScale  scale)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (scale <= KS_PLOT_SCALE_LOG2);

  plot->y_scale = scale;
  ks_plot_changed (plot);
}

void
ks_plot_set_y2_label (KsPlot     *plot,
                      const char *label)
{
  g_return_if_fail (plot != NULL);

  replace_string (plot, &plot->y2_label, label);
}

void
ks_plot_set_y2_range (KsPlot *plot,
                      double  min,
                      double  max)
{
  g_return_if_fail (plot != NULL);

  plot->y2_min = min;
  plot->y2_max = max;
  ks_plot_changed (plot);
}

static Series *
series_at (KsPlot *plot,
           guint   series)
{
  return g_ptr_array_index (plot->series, series);
}

void
ks_plot_series_set_y2 (KsPlot   *plot,
                       guint     series,
                       gboolean  right)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  series_at (plot, series)->y2 = !!right;
  ks_plot_changed (plot);
}

void
ks_plot_set_error_bars (KsPlot   *plot,
                        gboolean  show)
{
  g_return_if_fail (plot != NULL);

  plot->error_bars = !!show;
  ks_plot_changed (plot);
}

/* ------------------------------------------------------------------------ */
/* Bars                                                                     */

void
ks_plot_set_x_categories (KsPlot             *plot,
                          const char * const *names)
{
  g_return_if_fail (plot != NULL);

  g_strfreev (plot->categories);
  plot->categories = g_strdupv ((char **) names);
  ks_plot_changed (plot);
}

void
ks_plot_series_set_kind (KsPlot           *plot,
                         guint             series,
                         KsPlotSeriesKind  kind)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);
  g_return_if_fail (kind <= KS_PLOT_SERIES_POINTS);

  series_at (plot, series)->kind = kind;
  ks_plot_changed (plot);
}

void
ks_plot_set_bars_auto_log (KsPlot   *plot,
                           gboolean  auto_log)
{
  g_return_if_fail (plot != NULL);

  plot->bars_auto_log = !!auto_log;
  ks_plot_changed (plot);
}

/* ------------------------------------------------------------------------ */
/* Reference lines, bands, annotations                                      */

void
ks_plot_add_hline (KsPlot     *plot,
                   double      y,
                   const char *label)
{
  RefLine h = { y, NULL };

  g_return_if_fail (plot != NULL);

  h.label = g_strdup (label);
  g_array_append_val (plot->hlines, h);
  ks_plot_changed (plot);
}

static void
add_band (KsPlot     *plot,
          BandKind    kind,
          double      a,
          double      b,
          const char *label)
{
  Band band = { kind, MIN (a, b), MAX (a, b), g_strdup (label) };

  g_array_append_val (plot->bands, band);
  ks_plot_changed (plot);
}

void
ks_plot_add_x_band (KsPlot     *plot,
                    double      x0,
                    double      x1,
                    const char *label)
{
  g_return_if_fail (plot != NULL);

  add_band (plot, BAND_X, x0, x1, label);
}

void
ks_plot_add_series_band (KsPlot     *plot,
                         guint       series_lo,
                         guint       series_hi,
                         const char *label)
{
  Band band = { BAND_SERIES, 0, 0, NULL };

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series_lo < plot->series->len);
  g_return_if_fail (series_hi < plot->series->len);

  /* Kept as indices: the curves may still grow while a run goes on. */
  band.a = series_lo;
  band.b = series_hi;
  band.label = g_strdup (label);
  g_array_append_val (plot->bands, band);
  ks_plot_changed (plot);
}

void
ks_plot_add_annotation (KsPlot     *plot,
                        double      x,
                        double      y,
                        const char *text)
{
  Annotation a = { x, y, NULL };

  g_return_if_fail (plot != NULL);
  g_return_if_fail (text != NULL);

  a.text = g_strdup (text);
  g_array_append_val (plot->annotations, a);
  ks_plot_changed (plot);
}
