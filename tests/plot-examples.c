/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plot-examples.c: one plot of each mark (see plot-examples.h). */
#include "plot-examples.h"

#include <math.h>

KsPlot *
example_bars (void)
{
  static const char *const methods[] = { "Jacobi", "CG", "Multigrid", NULL };
  static const double paper[] = { 12.0, 18.5, 7.2 };
  static const double measured[] = { 10.4, 21.0, 6.1 };
  KsPlot *plot = ks_plot_new ();
  guint p = ks_plot_add_series (plot, "paper");
  guint m = ks_plot_add_series (plot, "measured");

  ks_plot_set_title (plot, "Speed-up over one CPU core");
  ks_plot_set_axis_labels (plot, NULL, "speed-up");
  ks_plot_set_x_categories (plot, methods);
  ks_plot_series_set_kind (plot, p, KS_PLOT_SERIES_BARS);
  ks_plot_series_set_kind (plot, m, KS_PLOT_SERIES_BARS);
  for (guint i = 0; i < 3; i++)
    {
      ks_plot_add_point (plot, p, i, paper[i]);
      ks_plot_add_point_full (plot, m, i, measured[i], measured[i] * 0.92, measured[i] * 1.05,
                              KS_PLOT_POINT_NONE, NULL);
    }
  return plot;
}

KsPlot *
example_bands (void)
{
  KsPlot *plot = ks_plot_new ();
  guint lo = ks_plot_add_series (plot, "GPU only");
  guint hi = ks_plot_add_series (plot, "GPU + CPU");
  guint perf = ks_plot_add_series (plot, "Perf(λ)");

  ks_plot_set_title (plot, "Hybrid split");
  ks_plot_set_axis_labels (plot, "λ (share of cells on the GPU)", "GFLOP/s");
  ks_plot_series_set_dashed (plot, lo, TRUE);
  ks_plot_series_set_dashed (plot, hi, TRUE);
  for (int i = 0; i <= 20; i++)
    {
      double l = i / 20.0;

      ks_plot_add_point (plot, lo, l, 40 + 60 * l);
      ks_plot_add_point (plot, hi, l, 70 + 60 * l);
      ks_plot_add_point (plot, perf, l, 55 + 60 * l + 8 * sin (6 * l));
    }
  ks_plot_add_series_band (plot, lo, hi, "bounds");
  ks_plot_add_x_band (plot, 0.6, 0.8, "best split");
  ks_plot_add_hline (plot, 100, "CPU alone = 100");
  ks_plot_add_vline (plot, 0.7, "predicted λ = 0.7");
  return plot;
}

KsPlot *
example_annotations (void)
{
  KsPlot *plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, "time");

  ks_plot_set_title (plot, "Annotated points");
  ks_plot_set_axis_labels (plot, "n", "ms");
  for (int n = 0; n <= 40; n++)
    ks_plot_add_point (plot, s, n, 5 + 0.1 * n * n);
  ks_plot_add_annotation (plot, 10, 15, "cache fits");
  ks_plot_add_annotation (plot, 30, 95, "past L2");
  return plot;
}

KsPlot *
example_log2_y2 (void)
{
  KsPlot *plot = ks_plot_new ();
  guint t = ks_plot_add_series (plot, "time");
  guint bw = ks_plot_add_series (plot, "bandwidth");

  ks_plot_set_title (plot, "Time and bandwidth vs group size");
  ks_plot_set_axis_labels (plot, "work-group size", "time (ms)");
  ks_plot_set_y2_label (plot, "GB/s");
  ks_plot_set_x_scale (plot, KS_PLOT_SCALE_LOG2);
  ks_plot_series_set_y2 (plot, bw, TRUE);
  for (int k = 0; k <= 10; k++)
    {
      double wg = exp2 (k);

      ks_plot_add_point (plot, t, wg, 40.0 / (1 + k) + 2);
      ks_plot_add_point (plot, bw, wg, 300 + 50 * k);
    }
  return plot;
}

double
example_mesh_value (guint  nx,
                    double x,
                    double y)
{
  double i = floor (x), j = floor (y);
  double v = i + j + 1.0;   /* at the cell's centre */

  /* Right half: two triangles per square on its rising diagonal; the one
   * above the diagonal a quarter higher. */
  if (i >= nx / 2 && y - j > x - i)
    v += 0.25;
  return v;
}

KsPlot *
example_mesh (guint          nx,
              guint          ny,
              KsPlotColormap map)
{
  KsPlot *plot = ks_plot_new ();
  g_autofree double *xy = g_new (double, 2 * (gsize) (nx + 1) * (ny + 1));
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GError) error = NULL;

  for (guint j = 0; j <= ny; j++)
    for (guint i = 0; i <= nx; i++)
      {
        xy[2 * ((gsize) j * (nx + 1) + i)] = i;
        xy[2 * ((gsize) j * (nx + 1) + i) + 1] = j;
      }
  for (guint j = 0; j < ny; j++)
    for (guint i = 0; i < nx; i++)
      {
        guint32 a = j * (nx + 1) + i, b = a + 1, c = b + nx + 1, d = a + nx + 1;
        guint32 part = i < nx / 2 ? 0 : 1;

        if (i < nx / 2)
          {
            guint32 q[4] = { a, b, c, d };
            double v = example_mesh_value (nx, i + 0.5, j + 0.5);

            g_array_append_vals (cells, q, 4);
            g_array_append_val (values, v);
            g_array_append_val (parts, part);
          }
        else
          {
            guint32 lower[4] = { a, b, c, KS_PLOT_MESH_TRIANGLE };
            guint32 upper[4] = { a, c, d, KS_PLOT_MESH_TRIANGLE };
            double vl = example_mesh_value (nx, i + 0.75, j + 0.25);
            double vu = example_mesh_value (nx, i + 0.25, j + 0.75);

            g_array_append_vals (cells, lower, 4);
            g_array_append_val (values, vl);
            g_array_append_val (parts, part);
            g_array_append_vals (cells, upper, 4);
            g_array_append_val (values, vu);
            g_array_append_val (parts, part);
          }
      }

  ks_plot_set_title (plot, "Temperature");
  ks_plot_set_axis_labels (plot, "x (m)", "y (m)");
  if (!ks_plot_set_mesh (plot, xy, (nx + 1) * (ny + 1), (guint32 *) cells->data,
                         values->len, &error))
    g_error ("%s", error->message);
  ks_plot_set_mesh_values (plot, (double *) values->data);
  ks_plot_set_mesh_parts (plot, (guint32 *) parts->data);
  ks_plot_set_mesh_colormap (plot, map);
  ks_plot_set_mesh_label (plot, "T (K)");
  return plot;
}

KsPlot *
example_blocks (void)
{
  KsPlot *plot = ks_plot_new ();

  ks_plot_set_title (plot, "50 × 40 threads in blocks of 16 × 16");
  ks_plot_set_blocks (plot, 50, 40, 16, 16);
  return plot;
}
