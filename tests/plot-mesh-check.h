/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plot-mesh-check.h: what test-plot-marks and test-plot-mesh-marks check of
 * example_mesh drawn on a W x H canvas: its cells' colours, the outline
 * between its parts and its cell edges. */
#pragma once

#include <math.h>

#include <glib.h>

#include "plot-examples.h"
#include "plot-test-util.h"

/* The canvas both tests draw on. */
#define W 800
#define H 500

/* example_mesh (nx, ny) spans 1 (the first cell) .. nx + ny - 0.75. */
static inline KsPlotColor
mesh_color_n (guint          nx,
              guint          ny,
              KsPlotColormap map,
              double         v)
{
  return ks_plot_colormap_color (map, (v - 1.0) / (nx + ny - 1.75));
}

static inline KsPlotColor
mesh_color (KsPlotColormap map,
            double         v)
{
  return mesh_color_n (12, 8, map, v);
}

/* Each data point of example_mesh (nx, ny) shows its cell's colour in img
 * (scale device pixels per unit). */
static inline void
check_mesh_points (KsPlot            *plot,
                   cairo_surface_t   *img,
                   int                scale,
                   KsPlotColormap     map,
                   guint              nx,
                   guint              ny,
                   const double     (*at)[2],
                   guint              n_at,
                   int                tol)
{
  for (guint k = 0; k < n_at; k++)
    {
      KsPlotColor c = mesh_color_n (nx, ny, map, example_mesh_value (nx, at[k][0], at[k][1]));
      double px, py;

      data_to_device (plot, W, H, at[k][0], at[k][1], &px, &py);
      if (!pixel_is (img, px * scale, py * scale, &c, tol))
        {
          int r, g, b;

          pixel_at (img, px * scale, py * scale, &r, &g, &b);
          g_error ("cell at (%g, %g): pixel %d,%d,%d, map %.0f,%.0f,%.0f", at[k][0], at[k][1],
                   r, g, b, c.r * 255, c.g * 255, c.b * 255);
        }
    }
}

static inline void
check_mesh_cells (KsPlot            *plot,
                  cairo_surface_t   *img,
                  int                scale,
                  KsPlotColormap     map)
{
  /* A quad, a lower and an upper triangle, the lowest and highest cell. */
  static const double at[][2] = {
    { 2.5, 3.5 }, { 8.8, 2.2 }, { 8.2, 2.8 }, { 0.5, 0.5 }, { 11.3, 7.7 },
  };

  check_mesh_points (plot, img, scale, map, 12, 8, at, G_N_ELEMENTS (at), 3);
}

/* The border between example_mesh (12, 8)'s two parts, at x = 6, is
 * outlined in the foreground colour; inside a part, at x = 4, nothing is. */
static inline void
check_mesh_outline (KsPlot            *plot,
                    cairo_surface_t   *img,
                    const KsPlotTheme *theme)
{
  double px, py;

  data_to_device (plot, W, H, 6, 4.5, &px, &py);
  g_assert_true (color_near (img, px, py, 1, &theme->foreground, 10));
  data_to_device (plot, W, H, 4, 4.5, &px, &py);
  g_assert_false (color_near (img, px, py, 1, &theme->foreground, 10));
}

/* Cell edges of example_mesh (12, 8) in the light theme: shown, the line on
 * x = 2 (at y = 3.5) is darker or lighter than the cells either side of
 * it; hidden, no pixel there is. */
static inline void
check_mesh_edge (KsPlot          *plot,
                 cairo_surface_t *img,
                 int              scale,
                 gboolean         shown)
{
  KsPlotColor l = mesh_color (KS_PLOT_COLORMAP_VIRIDIS, example_mesh_value (12, 1.5, 3.5));
  KsPlotColor r = mesh_color (KS_PLOT_COLORMAP_VIRIDIS, example_mesh_value (12, 2.5, 3.5));
  int cells = (int) lround (MIN (l.r + l.g + l.b, r.r + r.g + r.b) * 255);
  int cells_hi = (int) lround (MAX (l.r + l.g + l.b, r.r + r.g + r.b) * 255);
  int darkest = G_MAXINT, lightest = 0;
  double px, py;

  data_to_device (plot, W, H, 2, 3.5, &px, &py);
  for (int dx = -scale; dx <= scale; dx++)
    {
      int pr, pg, pb;

      pixel_at (img, (int) floor (px * scale) + dx, (int) floor (py * scale), &pr, &pg, &pb);
      darkest = MIN (darkest, pr + pg + pb);
      lightest = MAX (lightest, pr + pg + pb);
    }
  /* A line darker or lighter than both cells (lighter over dark ones). */
  if (shown)
    g_assert_true (darkest < cells - 20 || lightest > cells_hi + 20);
  else
    g_assert_cmpint (darkest, >=, cells - 6);
}
