/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-bars.c: bar series, grouped side by side within each category
 * (or x value), each bar's value written above it. */
#define G_LOG_DOMAIN "ks-plot-bars"

#include "ks-plot-private.h"

/* Of a category's slot, the bars of one group take this much; the rest is
 * the gap between groups. */
#define GROUP_FRACTION 0.8

/* The smallest step between the x values of bar series, as a fraction of
 * the view (which may be wider than a double: -1e308..1e308): on a numeric
 * axis, a group of bars may take no more than that. */
static double
numeric_slot (KsPlot       *plot,
              const Layout *lo)
{
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  double slot = INFINITY;

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      if (ser->kind != KS_PLOT_SERIES_BARS)
        continue;
      for (guint i = 0; i < ser->points->len; i++)
        {
          double x = g_array_index (ser->points, KsPlotPoint, i).x;

          if (usable (x, lo->x.log))
            {
              double f = axis_frac (&lo->x, x);
              g_array_append_val (xs, f);
            }
        }
    }
  g_array_sort (xs, cmp_double);
  for (guint i = 1; i < xs->len; i++)
    {
      double d = g_array_index (xs, double, i) - g_array_index (xs, double, i - 1);
      if (d > 0)
        slot = MIN (slot, d);
    }
  /* A single x: a tenth of the view. */
  return isfinite (slot) ? slot : 0.1;
}

void
ks_plot_bars_prepare (KsPlot *plot,
                      Layout *lo)
{
  lo->n_bar_series = 0;
  for (guint s = 0; s < plot->series->len; s++)
    if (((Series *) g_ptr_array_index (plot->series, s))->kind == KS_PLOT_SERIES_BARS)
      lo->n_bar_series++;
  if (lo->n_bar_series == 0)
    return;
  lo->bar_slot = plot->categories != NULL ? ks_plot_category_width (lo)
                 : numeric_slot (plot, lo) * (lo->right - lo->left);
}

double
ks_plot_category_width (const Layout *lo)
{
  return (lo->right - lo->left) / (lo->x.f1 - lo->x.f0);
}

static double
bar_width (const Layout *lo)
{
  /* A sliver of air between the bars of one group. */
  return lo->bar_slot * GROUP_FRACTION / lo->n_bar_series * 0.9;
}

double
ks_plot_bar_offset (KsPlot       *plot,
                    const Layout *lo,
                    guint         series)
{
  guint j = 0;

  if (((Series *) g_ptr_array_index (plot->series, series))->kind != KS_PLOT_SERIES_BARS)
    return 0;
  for (guint s = 0; s < series; s++)
    if (((Series *) g_ptr_array_index (plot->series, s))->kind == KS_PLOT_SERIES_BARS)
      j++;
  return lo->bar_slot * GROUP_FRACTION * ((j + 0.5) / lo->n_bar_series - 0.5);
}

/* Where bars start: zero on a linear axis (clamped into view), the bottom
 * of the plot on a log one. */
static double
baseline (const Layout *lo,
          const Axis   *ay)
{
  if (ay->log)
    return lo->bottom + 1;
  return CLAMP (dev_y_on (lo, ay, 0.0), lo->top - 1, lo->bottom + 1);
}

void
ks_plot_draw_bars (cairo_t           *cr,
                   KsPlot            *plot,
                   const Layout      *lo,
                   const KsPlotTheme *theme)
{
  double w = bar_width (lo);

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (lo->dps, s);
      double base = baseline (lo, series_axis (lo, ser));

      if (ser->kind != KS_PLOT_SERIES_BARS)
        continue;
      cairo_new_path (cr);
      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          double top = CLAMP (d->y, lo->top - 1, lo->bottom + 1);

          if (d->ok)
            cairo_rectangle (cr, d->x - w / 2, MIN (top, base), w, fabs (base - top));
        }
      set_color (cr, &theme->series[s % G_N_ELEMENTS (theme->series)], 0.85);
      cairo_fill (cr);
    }
}

KsPlotScale
ks_plot_bars_y_scale (KsPlot *plot)
{
  double mn = INFINITY, mx = -INFINITY;

  if (plot->y_scale != KS_PLOT_SCALE_LINEAR || !plot->bars_auto_log
      || isfinite (plot->y_min) || isfinite (plot->y_max))
    return plot->y_scale;
  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      if (ser->kind != KS_PLOT_SERIES_BARS || ser->y2)
        continue;
      for (guint i = 0; i < ser->points->len; i++)
        {
          double y = g_array_index (ser->points, KsPlotPoint, i).y;

          if (!isfinite (y))
            continue;
          if (y <= 0)
            return plot->y_scale;   /* a log axis could not show it */
          mn = MIN (mn, y);
          mx = MAX (mx, y);
        }
    }
  return mn > 0 && mx > 100 * mn ? KS_PLOT_SCALE_LOG10 : plot->y_scale;
}

static char *
bar_value_text (const KsPlotPoint *p)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (nonempty (p->label) ? p->label : g_ascii_formatd (buf, sizeof buf, "%.3g", p->y));
}

/* Centred above the bar (above its error bar too), or inside its top
 * where there is no room above; NULL where it would be wider than its bar
 * allows or meet a label placed before it: left out rather than written
 * over. */
static Rect *
bar_value_box (KsPlot            *plot,
               const TextStyle   *ts,
               const Layout      *lo,
               const Axis        *ay,
               const DevPoint    *d,
               const KsPlotPoint *p,
               KsPlotObstacles   *taken)
{
  g_autofree char *str = bar_value_text (p);
  double base = baseline (lo, ay), tw, th, top = d->y;
  Rect r;

  if (!d->ok || d->y < lo->top || d->y > lo->bottom)
    return NULL;
  ks_plot_text_measure (ts, str, SCALE_POINT, FALSE, &tw, &th);
  if (plot->error_bars && usable (p->y_hi, ay->log) && isfinite (p->y_lo))
    top = MIN (top, dev_y_on (lo, ay, p->y_hi) - 1);
  r = (Rect) { d->x - tw / 2, d->y < base ? top - th - 2 : d->y + 2, tw, th };
  if (r.y < lo->top)
    r.y = d->y + 2;
  if (tw > lo->bar_slot * GROUP_FRACTION / lo->n_bar_series * 1.6
      || !ks_plot_obstacles_free_of (taken, &r))
    return NULL;
  ks_plot_obstacles_add (taken, &r);
  return g_memdup2 (&r, sizeof r);
}

GPtrArray *
ks_plot_bar_value_boxes (KsPlot          *plot,
                         const TextStyle *ts,
                         const Layout    *lo,
                         KsPlotObstacles *taken)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (lo->dps, s);
      GPtrArray *boxes = g_ptr_array_new_with_free_func (g_free);

      g_ptr_array_add (all, boxes);
      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);

          g_ptr_array_add (boxes, ser->kind != KS_PLOT_SERIES_BARS ? NULL
                           : bar_value_box (plot, ts, lo, series_axis (lo, ser), d, p, taken));
        }
    }
  return all;
}

/* Each bar's value (or its point's label), where ks_plot_bar_value_boxes
 * found room for it. */
void
ks_plot_draw_bar_values (cairo_t           *cr,
                         KsPlot            *plot,
                         const TextStyle   *ts,
                         const Layout      *lo,
                         KsPlotObstacles   *taken,
                         const KsPlotTheme *theme)
{
  g_autoptr(GPtrArray) all = ks_plot_bar_value_boxes (plot, ts, lo, taken);

  set_color (cr, &theme->foreground, 1.0);
  for (guint s = 0; s < all->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (lo->dps, s);
      GPtrArray *boxes = g_ptr_array_index (all, s);

      for (guint i = 0; i < boxes->len; i++)
        {
          const Rect *r = g_ptr_array_index (boxes, i);
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          g_autofree char *str = NULL;
          g_autoptr(PangoLayout) text = NULL;

          if (r == NULL)
            continue;
          str = bar_value_text (&g_array_index (ser->points, KsPlotPoint, d->index));
          text = ks_plot_text_new (ts, str, SCALE_POINT, FALSE);
          ks_plot_show_text (cr, text, r->x, r->y);
        }
    }
}
