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

/* Each bar's value (or its point's label) centred above it, or inside its
 * top where there is no room above. */
void
ks_plot_draw_bar_values (cairo_t           *cr,
                         KsPlot            *plot,
                         const TextStyle   *ts,
                         const Layout      *lo,
                         KsPlotObstacles   *taken,
                         const KsPlotTheme *theme)
{
  if (!plot->bar_values)
    return;

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (lo->dps, s);
      const Axis *ay = series_axis (lo, ser);
      double base = baseline (lo, ay);

      if (ser->kind != KS_PLOT_SERIES_BARS)
        continue;
      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];
          g_autoptr(PangoLayout) text = NULL;
          double tw, th, top;
          Rect r;

          if (!d->ok || d->y < lo->top || d->y > lo->bottom)
            continue;
          text = ks_plot_text_new (ts, nonempty (p->label) ? p->label
                                   : g_ascii_formatd (buf, sizeof buf, "%.3g", p->y),
                                   SCALE_POINT, FALSE);
          ks_plot_text_size (text, &tw, &th);
          top = d->y;
          /* Above the error bar too, not through it. */
          if (plot->error_bars && usable (p->y_hi, ay->log) && isfinite (p->y_lo))
            top = MIN (top, dev_y_on (lo, ay, p->y_hi) - 1);
          r = (Rect) { d->x - tw / 2, d->y < base ? top - th - 2 : d->y + 2, tw, th };
          if (r.y < lo->top)
            r.y = d->y + 2;
          /* Too narrow a bar, or a neighbour's label in the way: leave it out
           * rather than write over it. */
          if (tw > lo->bar_slot * GROUP_FRACTION / lo->n_bar_series * 1.6
              || !ks_plot_obstacles_free_of (taken, &r))
            continue;
          set_color (cr, &theme->foreground, 1.0);
          ks_plot_show_text (cr, text, r.x, r.y);
          ks_plot_obstacles_add (taken, &r);
        }
    }
}
