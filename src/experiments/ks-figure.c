/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-figure.c: the generic figure of a description, in what ks-plot.h can
 * draw today: lines with error bars, highlighted and best points with
 * labels, vertical lines, log axes.  Bars for a categorical x wait for the
 * plot layer (drawn as points meanwhile). */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-figure.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static char *
axis_label (const KsExperimentDesc *desc,
            const char             *name)
{
  int c = ks_experiment_desc_find_column (desc, name);
  int p = ks_experiment_desc_find_param (desc, name);
  const char *label = c >= 0 ? desc->columns[c].label : p >= 0 ? desc->params[p].label : name;
  const char *unit = c >= 0 ? desc->columns[c].unit : p >= 0 ? desc->params[p].unit : NULL;

  return unit ? g_strdup_printf ("%s, %s", _(label), unit) : g_strdup (_(label));
}

/* The curve a point belongs to: its device and, where the figure draws one
 * curve per value of a parameter, that value. */
static char *
series_key (const KsRun        *run,
            const KsFigureSpec *figure,
            const KsRunPoint   *p)
{
  GVariant *v = figure->series_by ? ks_run_point_get_param (run, p, figure->series_by) : NULL;
  g_autofree char *value = v ? ks_param_value_to_string (v) : g_strdup ("");

  return g_strdup_printf ("%u\x1f%s", p->device, value);
}

static char *
series_name (const KsRun        *run,
             const KsFigureSpec *figure,
             const KsRunPoint   *p,
             const char         *prefix)
{
  const KsRunDevice *d = run->devices->pdata[p->device];
  GVariant *v = figure->series_by ? ks_run_point_get_param (run, p, figure->series_by) : NULL;
  g_autofree char *value = v ? ks_param_value_to_string (v) : NULL;
  g_autofree char *device = g_strdup_printf ("%s", d->name ? d->name : d->id);
  g_autoptr(GString) s = g_string_new (prefix);

  if (s->len)
    g_string_append (s, ", ");
  if (value)
    g_string_append_printf (s, "%s = %s", figure->series_by, value);
  /* Several devices share the axes: each curve says whose it is. */
  if (value == NULL || run->devices->len > 1)
    g_string_append_printf (s, "%s%s", value ? " · " : "", device);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

typedef struct {
  char   *name;
  GArray *points;   /* of guint: indices into run->points */
  guint   best;     /* the lowest y, or G_MAXUINT */
} Curve;

static void
curve_free (Curve *c)
{
  g_free (c->name);
  g_array_unref (c->points);
  g_free (c);
}

/* The run's points that the figure draws, grouped into curves in order of
 * first appearance. */
static GPtrArray *
collect_curves (const KsRun           *run,
                const KsFigureSpec    *figure,
                const KsFigureOptions *options,
                const char            *prefix)
{
  GPtrArray *curves = g_ptr_array_new_with_free_func ((GDestroyNotify) curve_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int y = ks_experiment_desc_find_column (run->desc, figure->y);

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      double px = ks_run_point_get_number (run, p, figure->x);
      g_autofree char *key = NULL;
      Curve *c;

      if (p->error || isnan (px) || isnan (p->values[y]) || px < options->min_x ||
          p->device >= run->devices->len)
        continue;
      key = series_key (run, figure, p);
      if (!(c = g_hash_table_lookup (by_key, key)))
        {
          c = g_new0 (Curve, 1);
          c->name = series_name (run, figure, p, prefix);
          c->points = g_array_new (FALSE, FALSE, sizeof (guint));
          c->best = G_MAXUINT;
          g_ptr_array_add (curves, c);
          g_hash_table_insert (by_key, g_steal_pointer (&key), c);
        }
      g_array_append_val (c->points, i);
      if (c->best == G_MAXUINT || p->values[y] < ((KsRunPoint *) run->points->pdata[c->best])->values[y])
        c->best = i;
    }
  return curves;
}

static void
add_curves (KsPlot                *plot,
            const KsRun           *run,
            const KsFigureSpec    *figure,
            const KsFigureOptions *options,
            const char            *prefix,
            gboolean               dashed)
{
  g_autoptr(GPtrArray) curves = collect_curves (run, figure, options, prefix);
  int y = ks_experiment_desc_find_column (run->desc, figure->y);
  int h = figure->highlight ? ks_experiment_desc_find_column (run->desc, figure->highlight) : -1;

  for (guint c = 0; c < curves->len; c++)
    {
      const Curve *curve = curves->pdata[c];
      guint series = ks_plot_add_series (plot, curve->name);

      ks_plot_series_set_dashed (plot, series, dashed);
      for (guint k = 0; k < curve->points->len; k++)
        {
          guint i = g_array_index (curve->points, guint, k);
          const KsRunPoint *p = run->points->pdata[i];
          double px = ks_run_point_get_number (run, p, figure->x);
          KsPlotPointFlags flags = KS_PLOT_POINT_NONE;
          g_autofree char *label = NULL;

          if (h >= 0 && p->values[h] > 0)
            {
              flags |= KS_PLOT_POINT_HIGHLIGHT;
              if (figure->highlight_label)
                label = g_strdup_printf (_(figure->highlight_label), px);
            }
          if (figure->mark_best && i == curve->best && !dashed)
            {
              flags |= KS_PLOT_POINT_BEST;
              g_free (label);
              label = g_strdup_printf (_("best %g"), px);
            }
          ks_plot_add_point_full (plot, series, px, p->values[y], p->lo[y], p->hi[y], flags, label);
        }
    }
}

static void
add_vlines (KsPlot             *plot,
            const KsRun        *run,
            const KsFigureSpec *figure)
{
  for (guint d = 0; figure->vline_info && d < run->devices->len; d++)
    {
      double v = ks_run_device_get_info (run->devices->pdata[d], figure->vline_info);
      g_autofree char *label = NULL;

      if (isnan (v))
        continue;
      label = figure->vline_label ? g_strdup_printf (_(figure->vline_label), v) : NULL;
      ks_plot_add_vline (plot, v, label);
    }
}

KsPlot *
ks_figure_plot_new (const KsFigureSpec    *figure,
                    KsRun * const         *runs,
                    guint                  n_runs,
                    const KsFigureOptions *options)
{
  const KsExperimentDesc *desc;
  KsFigureOptions defaults;
  KsPlot *plot;
  g_autofree char *x_label = NULL;
  g_autofree char *y_label = NULL;

  g_return_val_if_fail (runs != NULL && n_runs > 0, NULL);

  desc = runs[0]->desc;
  if (options == NULL)
    {
      ks_figure_options_init (&defaults);
      options = &defaults;
    }
  if (figure == NULL && desc->n_figures == 0)
    {
      plot = ks_plot_new ();
      ks_plot_set_title (plot, _(desc->title));
      return plot;
    }
  if (figure == NULL)
    figure = &desc->figures[0];
  if (figure->plot_new)
    return figure->plot_new (desc, figure, runs, n_runs, options);

  plot = ks_plot_new ();
  ks_plot_set_title (plot, _(figure->title));
  x_label = axis_label (desc, figure->x);
  y_label = axis_label (desc, figure->y);
  ks_plot_set_axis_labels (plot, x_label, y_label);
  ks_plot_set_log_x (plot, figure->log_x);
  ks_plot_set_log_y (plot, figure->log_y || options->log_y);
  if (figure->highlight_legend)
    ks_plot_set_highlight_legend (plot, _(figure->highlight_legend));
  for (guint i = 0; i < n_runs; i++)
    {
      g_autofree char *name = n_runs > 1 ? ks_run_get_name (runs[i]) : NULL;

      add_curves (plot, runs[i], figure, options, name, FALSE);
      add_vlines (plot, runs[i], figure);
    }
  if (n_runs == 1)
    {
      g_autofree char *name = ks_run_get_name (runs[0]);
      g_autofree char *day = runs[0]->date ? g_strndup (runs[0]->date, 10) : NULL;
      g_autofree char *caption = g_strdup_printf ("%s · %s%s", name, day ? day : "",
                                                  runs[0]->complete ? "" : _(" · incomplete"));
      ks_plot_set_caption (plot, caption);
    }
  return plot;
}

void
ks_figure_add_recorded (const KsFigureSpec    *figure,
                        KsPlot                *plot,
                        const KsRun           *run,
                        const KsFigureOptions *options)
{
  KsFigureOptions defaults;
  g_autofree char *name = NULL;
  g_autofree char *prefix = NULL;

  g_return_if_fail (plot != NULL && run != NULL);

  if (options == NULL)
    {
      ks_figure_options_init (&defaults);
      options = &defaults;
    }
  if (figure == NULL && run->desc->n_figures == 0)
    return;
  if (figure == NULL)
    figure = &run->desc->figures[0];
  if (figure->add_recorded)
    {
      figure->add_recorded (run->desc, figure, plot, run, options);
      return;
    }
  name = ks_run_get_name (run);
  /* TRANSLATORS: a curve measured elsewhere, e.g. "recorded: NVIDIA H200 (CUDA)" */
  prefix = g_strdup_printf (_("recorded: %s"), name);
  add_curves (plot, run, figure, options, prefix, TRUE);
}
