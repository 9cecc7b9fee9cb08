/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-hit.c: from device positions to data and back, for tooltips,
 * clicks and drag-to-zoom. */
#define G_LOG_DOMAIN "ks-plot-hit"

#include "ks-plot-private.h"

gboolean
ks_plot_hit_test (KsPlot *plot,
                  double  width,
                  double  height,
                  double  px,
                  double  py,
                  double  radius,
                  guint  *out_series,
                  guint  *out_index)
{
  Layout *lo;
  GPtrArray *dps;
  double best = radius * radius;
  gboolean hit = FALSE;
  guint hit_s = 0, hit_i = 0;

  g_return_val_if_fail (plot != NULL, FALSE);

  if (!(width > 0 && height > 0 && radius >= 0))
    return FALSE;

  lo = ks_plot_layout_get (plot, NULL, width, height);
  dps = lo->dps;

  for (guint s = 0; s < dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          double d2;

          /* Points outside the view are clipped away, so not clickable. */
          if (!d->ok || d->x < lo->left - 0.5 || d->x > lo->right + 0.5
              || d->y < lo->top - 0.5 || d->y > lo->bottom + 0.5)
            continue;
          d2 = (d->x - px) * (d->x - px) + (d->y - py) * (d->y - py);
          /* <= so that of coinciding points the one drawn on top wins. */
          if (d2 <= best)
            {
              best = d2;
              hit = TRUE;
              hit_s = s;
              hit_i = d->index;
            }
        }
    }

  ks_plot_layout_unref (lo);

  if (hit)
    {
      if (out_series != NULL)
        *out_series = hit_s;
      if (out_index != NULL)
        *out_index = hit_i;
    }
  return hit;
}

gboolean
ks_plot_device_to_data (KsPlot *plot,
                        double  width,
                        double  height,
                        double  px,
                        double  py,
                        double *out_x,
                        double *out_y)
{
  Layout *lo;
  gboolean inside;

  g_return_val_if_fail (plot != NULL, FALSE);

  if (!(width > 0 && height > 0))
    return FALSE;

  lo = ks_plot_layout_get (plot, NULL, width, height);
  inside = px >= lo->left && px <= lo->right && py >= lo->top && py <= lo->bottom;
  if (inside)
    {
      double fx = range_at (lo->x.f0, lo->x.f1, (px - lo->left) / (lo->right - lo->left));
      double fy = range_at (lo->y.f0, lo->y.f1, (lo->bottom - py) / (lo->bottom - lo->top));

      if (out_x != NULL)
        *out_x = inv (fx, lo->x.log);
      if (out_y != NULL)
        *out_y = inv (fy, lo->y.log);
    }
  ks_plot_layout_unref (lo);

  return inside;
}

gboolean
ks_plot_data_to_device (KsPlot *plot,
                        double  width,
                        double  height,
                        double  x,
                        double  y,
                        double *out_px,
                        double *out_py)
{
  Layout *lo;
  gboolean inside;
  double fx, fy, px, py;

  g_return_val_if_fail (plot != NULL, FALSE);

  if (!(width > 0 && height > 0) || !usable (x, plot->x_scale) || !usable (y, plot->y_scale))
    return FALSE;

  lo = ks_plot_layout_get (plot, NULL, width, height);
  fx = fwd (x, lo->x.log);
  fy = fwd (y, lo->y.log);
  px = lo->left + range_frac (lo->x.f0, lo->x.f1, fx) * (lo->right - lo->left);
  py = lo->bottom - range_frac (lo->y.f0, lo->y.f1, fy) * (lo->bottom - lo->top);
  inside = px >= lo->left && px <= lo->right && py >= lo->top && py <= lo->bottom;
  if (out_px != NULL)
    *out_px = px;
  if (out_py != NULL)
    *out_py = py;
  ks_plot_layout_unref (lo);

  return inside;
}

gboolean
ks_plot_point_to_device (KsPlot *plot,
                         double  width,
                         double  height,
                         guint   series,
                         guint   index,
                         double *out_px,
                         double *out_py)
{
  Layout *lo;
  GArray *dp;
  gboolean drawn = FALSE, inside = FALSE;

  g_return_val_if_fail (plot != NULL, FALSE);
  g_return_val_if_fail (series < plot->series->len, FALSE);

  if (!(width > 0 && height > 0))
    return FALSE;

  lo = ks_plot_layout_get (plot, NULL, width, height);
  dp = g_ptr_array_index (lo->dps, series);
  /* The points are in x order there, not in the order they were added. */
  for (guint i = 0; i < dp->len && !drawn; i++)
    {
      DevPoint *d = &g_array_index (dp, DevPoint, i);

      if (d->index != index || !d->ok)
        continue;
      drawn = TRUE;
      inside = d->x >= lo->left && d->x <= lo->right && d->y >= lo->top && d->y <= lo->bottom;
      if (out_px != NULL)
        *out_px = d->x;
      if (out_py != NULL)
        *out_py = d->y;
    }
  ks_plot_layout_unref (lo);

  return drawn && inside;
}
