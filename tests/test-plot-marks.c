/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-marks.c: the layout cache and the marks beyond lines and
 * points (bars, reference lines, bands, annotations, log2 and right axes,
 * error bars, the block diagram), each checked on the pixels where a
 * mistake would show, and every mark (the mesh too) exported as PNG, SVG and
 * PDF.  The colour-mapped mesh is test-plot-mesh-marks.c's. */
#include <glib/gstdio.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ks-plot-mesh-private.h"   /* the layout cache's and the mesh's counters */
#include "plot-mesh-check.h"

/* ------------------------------------------------------------------------ */
/* Layout cache                                                             */

static void
test_cache (void)
{
  g_autoptr(KsPlot) plot = example_annotations ();
  cairo_surface_t *img = render_image (plot, W, H, NULL);
  guint before = ks_plot_layout_n_computed ();
  guint s, i;
  double px, py, x, y;

  /* Hovering, the keyboard cursor and a zoom's bisection: no new layout. */
  for (int k = 0; k < 50; k++)
    {
      ks_plot_hit_test (plot, W, H, 300 + k, 200, 8, NULL, NULL);
      ks_plot_device_to_data (plot, W, H, 300 + k, 200, NULL, NULL);
    }
  g_assert_true (ks_plot_data_to_device (plot, W, H, 20, 45, &px, &py));
  g_assert_cmpuint (ks_plot_layout_n_computed (), ==, before);

  /* What the cache answers is what was drawn. */
  g_assert_true (color_near (img, px, py, 2, &ks_plot_theme_light ()->series[0], 40));
  g_assert_true (ks_plot_hit_test (plot, W, H, px, py, 3, &s, &i));
  g_assert_cmpuint (i, ==, 20);
  cairo_surface_destroy (img);

  /* A change to the model is seen at once: a point far above the others
   * widens the range, so the same pixel means a larger value. */
  g_assert_true (ks_plot_device_to_data (plot, W, H, px, py, &x, &y));
  ks_plot_add_point (plot, 0, 41, 1000);
  g_assert_true (ks_plot_device_to_data (plot, W, H, px, py, NULL, &y));
  g_assert_cmpuint (ks_plot_layout_n_computed (), ==, before + 1);
  g_assert_cmpfloat (y, >, 100);
  /* ...and so is another size. */
  g_assert_true (ks_plot_device_to_data (plot, W / 2, H / 2, 100, 100, NULL, NULL));
  g_assert_cmpuint (ks_plot_layout_n_computed (), ==, before + 2);
}

/* ------------------------------------------------------------------------ */
/* Bars                                                                     */

/* The topmost row of colour c in a column, scanning up from y0. */
static int
run_top (cairo_surface_t   *img,
         int                x,
         int                y0,
         const KsPlotColor *c)
{
  int y = y0;

  while (y > 0 && pixel_is (img, x, y - 1, c, 6))
    y--;
  return y;
}

static void
check_bars (const KsPlotTheme *theme)
{
  g_autoptr(KsPlot) plot = example_bars ();
  cairo_surface_t *img = render_image (plot, W, H, theme);
  KsPlotColor paper = blend (&(KsPlotColor) { theme->series[0].r, theme->series[0].g,
                                              theme->series[0].b, 0.85 }, &theme->background);
  KsPlotColor measured = blend (&(KsPlotColor) { theme->series[1].r, theme->series[1].g,
                                                 theme->series[1].b, 0.85 }, &theme->background);
  static const double heights[][2] = { { 12.0, 10.4 }, { 18.5, 21.0 }, { 7.2, 6.1 } };
  Area a = plot_area (plot, W, H);
  double floor_y;

  /* The bars stand on the bottom edge: the axis starts at zero, unpadded. */
  g_assert_true (ks_plot_device_to_data (plot, W, H, a.left + 5, a.bottom, NULL, &floor_y));
  g_assert_cmpfloat (fabs (floor_y), <, 0.05);

  for (int i = 0; i < 3; i++)
    {
      double px, py, zx, zy, tx, ty;

      /* Two bars per category, either side of its centre: "paper" left. */
      data_to_device (plot, W, H, i - 0.2, 0, &zx, &zy);
      data_to_device (plot, W, H, i - 0.2, heights[i][0], &px, &py);
      g_assert_true (pixel_is (img, px, (zy + py) / 2, &paper, 6));
      /* Its top is at its value, its bottom at zero. */
      g_assert_cmpint (abs (run_top (img, px, (zy + py) / 2, &paper) - (int) round (py)), <=, 1);
      g_assert_true (pixel_is (img, px, zy - 2, &paper, 6));
      g_assert_false (pixel_is (img, px, zy + 3, &paper, 6));
      /* 0.36 of a category wide (0.8 for the group, 0.9 of a half each). */
      {
        double ex, ey;

        data_to_device (plot, W, H, i - 0.2 - 0.16, heights[i][0] / 2, &ex, &ey);
        g_assert_true (pixel_is (img, ex, ey, &paper, 6));
        data_to_device (plot, W, H, i - 0.2 - 0.2, heights[i][0] / 2, &ex, &ey);
        g_assert_false (pixel_is (img, ex, ey, &paper, 6));
        data_to_device (plot, W, H, i - 0.2 + 0.16, heights[i][0] / 2, &ex, &ey);
        g_assert_true (pixel_is (img, ex, ey, &paper, 6));
        data_to_device (plot, W, H, i - 0.2 + 0.2, heights[i][0] / 2, &ex, &ey);
        g_assert_false (pixel_is (img, ex, ey, &paper, 6));
      }

      data_to_device (plot, W, H, i + 0.2, heights[i][1], &tx, &ty);
      /* The bar's own place, for the keyboard cursor. */
      {
        double qx, qy;

        g_assert_true (ks_plot_point_to_device (plot, W, H, 1, i, &qx, &qy));
        g_assert_cmpfloat (fabs (qx - tx), <, 0.5);
        g_assert_cmpfloat (fabs (qy - ty), <, 0.5);
      }
      g_assert_true (pixel_is (img, tx, (zy + ty) / 2, &measured, 6));
      /* Not at the other series' height. */
      g_assert_false (pixel_is (img, px, py - 4, &paper, 6));

      /* The value written above the bar, in the foreground colour. */
      {
        gboolean text = FALSE;

        for (int y = (int) py - 16; y < (int) py - 2 && !text; y++)
          for (int x = (int) px - 10; x <= (int) px + 10 && !text; x++)
            text = pixel_is (img, x, y, &theme->foreground, 90);
        g_assert_true (text);
      }
    }
  cairo_surface_destroy (img);
}

static void
test_bars (void)
{
  check_bars (ks_plot_theme_light ());
  check_bars (ks_plot_theme_dark ());
}

/* ------------------------------------------------------------------------ */
/* Reference lines, bands, annotations                                      */

static void
test_bands (void)
{
  g_autoptr(KsPlot) plot = example_bands ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  cairo_surface_t *img = render_image (plot, W, H, theme);
  KsPlotColor between = blend (&(KsPlotColor) { theme->series[0].r, theme->series[0].g,
                                                theme->series[0].b, BAND_ALPHA },
                               &theme->background);
  KsPlotColor xband = blend (&(KsPlotColor) { theme->marker.r, theme->marker.g,
                                              theme->marker.b, BAND_ALPHA },
                             &theme->background);
  double px, py;

  /* Between the bounds at λ = 0.3 (58..88; Perf passes at 81). */
  data_to_device (plot, W, H, 0.3, 65, &px, &py);
  g_assert_true (pixel_is (img, px + 3, py, &between, 4));
  /* Below the lower bound and above the upper: no shade. */
  data_to_device (plot, W, H, 0.3, 50, &px, &py);
  g_assert_false (pixel_is (img, px + 3, py, &between, 4));
  data_to_device (plot, W, H, 0.3, 95, &px, &py);
  g_assert_false (pixel_is (img, px + 3, py, &between, 4));

  /* The band between two values, 0.6..0.8, across the whole height. */
  data_to_device (plot, W, H, 0.63, 45, &px, &py);
  g_assert_true (pixel_is (img, px, py, &xband, 4));
  data_to_device (plot, W, H, 0.57, 45, &px, &py);
  g_assert_false (pixel_is (img, px, py, &xband, 4));

  /* The reference lines: y = 100 across, x = 0.7 down (dashed). */
  data_to_device (plot, W, H, 0.25, 100, &px, &py);
  g_assert_true (color_near (img, px, py, 5, &theme->marker, 10));
  data_to_device (plot, W, H, 0.7, 50, &px, &py);
  g_assert_true (color_near (img, px, py, 5, &theme->marker, 10));
  data_to_device (plot, W, H, 0.25, 110, &px, &py);
  g_assert_false (color_near (img, px, py, 3, &theme->marker, 10));
  cairo_surface_destroy (img);
}

static void
test_annotations (void)
{
  g_autoptr(KsPlot) plot = example_annotations ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  cairo_surface_t *img = render_image (plot, W, H, theme);
  double px, py;
  guint text = 0;

  /* A dot on the point, and its text beside it. */
  data_to_device (plot, W, H, 30, 95, &px, &py);
  g_assert_true (pixel_is (img, px, py, &theme->foreground, 40));
  for (int y = (int) py - 30; y <= (int) py + 30; y++)
    for (int x = (int) px - 80; x <= (int) px + 80; x++)
      if ((x - px) * (x - px) + (y - py) * (y - py) > 25 && pixel_is (img, x, y, &theme->foreground, 90))
        text++;
  g_assert_cmpuint (text, >, 30);
  cairo_surface_destroy (img);
}

/* ------------------------------------------------------------------------ */
/* Axes                                                                     */

static void
test_log2_y2 (void)
{
  g_autoptr(KsPlot) plot = example_log2_y2 ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  KsPlotColor grid = blend (&theme->grid, &theme->background);
  cairo_surface_t *img;
  double x2, x4, x8, x1024, py;
  Area a;

  ks_plot_set_y2_range (plot, 0, 1000);
  img = render_image (plot, W, H, theme);
  a = plot_area (plot, W, H);

  /* log2: 4 halfway between 2 and 8, a grid line at each power of two. */
  data_to_device (plot, W, H, 2, 10, &x2, &py);
  data_to_device (plot, W, H, 4, 10, &x4, &py);
  data_to_device (plot, W, H, 8, 10, &x8, &py);
  data_to_device (plot, W, H, 1024, 10, &x1024, &py);
  g_assert_cmpfloat (fabs ((x4 - x2) - (x8 - x4)), <, 0.01);
  g_assert_true (color_near (img, x8, a.top + 3, 1, &grid, 3));
  g_assert_true (color_near (img, x1024, a.top + 3, 1, &grid, 3));
  g_assert_cmpuint (count_runs (img, FALSE, a.top + 3, a.left + 2, a.right - 2, &grid, 3), ==, 11);

  /* The right axis: tick marks outside the right edge, and the bandwidth
   * curve drawn on its 0..1000 scale: 450 GB/s at wg = 8 sits 45% up. */
  g_assert_cmpuint (count_runs (img, TRUE, a.right + 3, a.top, a.bottom, &theme->foreground, 80),
                    >=, 5);
  g_assert_true (color_near (img, x8, a.bottom - 0.45 * (a.bottom - a.top), 2,
                             &theme->series[1], 40));
  /* Where the point is drawn, for the keyboard cursor: on its own axis. */
  {
    double qx, qy;

    g_assert_true (ks_plot_point_to_device (plot, W, H, 1, 3, &qx, &qy));
    g_assert_cmpfloat (fabs (qx - x8), <, 0.01);
    g_assert_cmpfloat (fabs (qy - (a.bottom - 0.45 * (a.bottom - a.top))), <, 1.0);
  }
  cairo_surface_destroy (img);
}

/* A pixel near (x, y) tinted blue: series[0] of the light theme, drawn
 * thin and antialiased (so lighter than the colour itself). */
static gboolean
blue_near (cairo_surface_t *img,
           double           x,
           double           y)
{
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        int r, g, b;

        pixel_at (img, (int) x + dx, (int) y + dy, &r, &g, &b);
        if (b - r > 30)
          return TRUE;
      }
  return FALSE;
}

static void
test_error_bars (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "spread");
  cairo_surface_t *img;
  double px, py;

  for (int i = 0; i <= 10; i++)
    ks_plot_add_point_full (plot, s, i, 50, 30, 70, KS_PLOT_POINT_NONE, NULL);
  ks_plot_set_y_range (plot, 0, 100);
  data_to_device (plot, W, H, 5, 62, &px, &py);

  img = render_image (plot, W, H, theme);
  g_assert_true (blue_near (img, px, py));
  cairo_surface_destroy (img);

  ks_plot_set_error_bars (plot, FALSE);
  img = render_image (plot, W, H, theme);
  g_assert_false (blue_near (img, px, py));
  cairo_surface_destroy (img);
}

/* ------------------------------------------------------------------------ */
/* Block diagram                                                            */

static void
check_blocks (guint  dx,
              guint  dy,
              guint  bx,
              guint  by)
{
  g_autoptr(KsPlot) plot = example_blocks ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  KsPlotColor active = blend (&(KsPlotColor) { theme->series[0].r, theme->series[0].g,
                                               theme->series[0].b, 0.55 }, &theme->background);
  KsPlotColor idle = blend (&(KsPlotColor) { theme->foreground.r, theme->foreground.g,
                                             theme->foreground.b, 0.18 }, &theme->background);
  guint64 gx = (dx + bx - 1) / bx, gy = (dy + by - 1) / by;
  double want = (double) dx * dy / (gx * bx * gy * by);
  cairo_surface_t *img;
  guint n_active, n_idle;
  int max_active_x = -1, max_idle_x = -1;

  ks_plot_set_blocks (plot, dx, dy, bx, by);
  img = render_image (plot, W, H, theme);
  n_active = count_color (img, &active, 4);
  n_idle = count_color (img, &idle, 4);
  g_test_message ("%u x %u in %u x %u: %u active, %u idle pixels (%.3f, want %.3f)",
                  dx, dy, bx, by, n_active, n_idle, (double) n_active / (n_active + n_idle), want);
  /* Idle threads are shaded, in their share of the grid. */
  g_assert_cmpuint (n_idle, >, 100);
  g_assert_cmpfloat (fabs ((double) n_active / (n_active + n_idle) - want), <, 0.03);
  /* The idle ones lie past the domain's right edge. */
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        if (pixel_is (img, x, y, &active, 4))
          max_active_x = MAX (max_active_x, x);
        if (pixel_is (img, x, y, &idle, 4))
          max_idle_x = MAX (max_idle_x, x);
      }
  g_assert_cmpint (max_idle_x, >, max_active_x);
  cairo_surface_destroy (img);
}

static void
test_blocks (void)
{
  check_blocks (50, 40, 16, 16);
  check_blocks (1000, 1, 256, 1);
  check_blocks (33, 7, 8, 4);
}

/* Tiny canvases, log axes under a mesh, a mesh without values, bars with
 * nothing but zeros and NAN: drawn without a complaint (and, in the
 * -ubsan build, without undefined behaviour). */
static void
test_degenerate (void)
{
  KsPlot *plots[] = {
    example_bars (), example_bands (), example_annotations (), example_log2_y2 (),
    example_mesh (3, 2, KS_PLOT_COLORMAP_DIVERGING), example_blocks (), ks_plot_new (),
  };
  const double xy[] = { 0, 0, 1, 0, 1, 1 };
  const guint32 tri[] = { 0, 1, 2, KS_PLOT_MESH_TRIANGLE };
  const double nan_value = NAN;
  guint z;

  ks_plot_set_mesh (plots[6], xy, 3, tri, 1, NULL);
  ks_plot_set_mesh_values (plots[6], &nan_value);
  z = ks_plot_add_series (plots[0], "zeros");
  ks_plot_series_set_kind (plots[0], z, KS_PLOT_SERIES_BARS);
  ks_plot_add_point (plots[0], z, 0, 0);
  ks_plot_add_point (plots[0], z, 1, NAN);
  ks_plot_set_blocks (plots[5], 1, 1, 1024, 1);

  for (guint i = 0; i < G_N_ELEMENTS (plots); i++)
    {
      for (int size = 1; size <= 64; size *= 4)
        cairo_surface_destroy (render_image (plots[i], size, size, NULL));
      ks_plot_set_x_scale (plots[i], KS_PLOT_SCALE_LOG2);
      ks_plot_set_y_scale (plots[i], KS_PLOT_SCALE_LOG10);
      cairo_surface_destroy (render_image (plots[i], W, H, ks_plot_theme_dark ()));
      ks_plot_unref (plots[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Every mark in every format                                               */

static gboolean
svg_parses (const char *path)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  const char *argv[] = { python, "-c",
                         "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])",
                         path, NULL };
  int status = -1;

  if (python == NULL)
    return FALSE;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                               NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return TRUE;
}

/* What a vector file looks like: pdftoppm (the PDF) or rsvg-convert (the
 * SVG) renders it at 72 dpi, a point a pixel as the PNG export has it; NULL
 * when the tool is not installed. */
static cairo_surface_t *
render_vector (const char *path,
               const char *dir)
{
  gboolean pdf = g_str_has_suffix (path, ".pdf");
  g_autofree char *tool = g_find_program_in_path (pdf ? "pdftoppm" : "rsvg-convert");
  g_autofree char *prefix = g_build_filename (dir, "page", NULL);
  g_autofree char *png = g_strconcat (prefix, ".png", NULL);
  const char *pdf_argv[] = { tool, "-png", "-singlefile", "-r", "72", path, prefix, NULL };
  const char *svg_argv[] = { tool, "--dpi-x", "72", "--dpi-y", "72", "-o", png, path, NULL };
  int status = -1;
  cairo_surface_t *img;

  if (tool == NULL)
    return NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) (pdf ? pdf_argv : svg_argv), NULL,
                               G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  img = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (img), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (abs (cairo_image_surface_get_width (img) - W), <=, 1);
  g_assert_cmpint (abs (cairo_image_surface_get_height (img) - H), <=, 1);
  g_unlink (png);
  return img;
}

/* Pixels of b that no pixel of a within one pixel matches (each channel
 * within tol): what one renderer drew and the other did not, beyond the
 * half-pixel shifts and the text hinting in which rasterisers differ. */
static guint
count_unmatched (cairo_surface_t *a,
                 cairo_surface_t *b,
                 int              tol)
{
  int w = MIN (cairo_image_surface_get_width (a), cairo_image_surface_get_width (b));
  int h = MIN (cairo_image_surface_get_height (a), cairo_image_surface_get_height (b));
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        int r, g, bl;
        KsPlotColor c;

        pixel_at (b, x, y, &r, &g, &bl);
        c = (KsPlotColor) { r / 255.0, g / 255.0, bl / 255.0, 1.0 };
        n += !color_near (a, x, y, 1, &c, tol);
      }
  return n;
}

/* A vector page shows what the PNG shows: every mark of the one is in
 * the other, both ways.  The rasterisers differ in text hinting, hatching
 * and antialiasing: 300 to 5,000 pixels of 400,000 on these examples
 * (poppler 22, librsvg 2.54); a lost bar, band, legend or mesh is more
 * than the 8,000 allowed. */
static void
check_same_marks (const char      *name,
                  const char      *format,
                  cairo_surface_t *png,
                  cairo_surface_t *page)
{
  guint missing = count_unmatched (page, png, 40), extra = count_unmatched (png, page, 40);

  g_test_message ("%s: %s against PNG: %u pixels of the PNG unmatched, %u of the %s",
                  name, format, missing, extra, format);
  g_assert_cmpuint (missing, <, 8000);
  g_assert_cmpuint (extra, <, 8000);
}

/* The marks of an exported page, on its pixels: not blank, and for the
 * meshes each cell's colour at known data points, the border between the
 * parts and the cell edges where they are shown (in SVG and PDF the small
 * meshes are polygons, the large one an image: both are checked). */
static void
check_export (const char      *name,
              KsPlot          *plot,
              cairo_surface_t *img)
{
  const KsPlotTheme *theme = ks_plot_theme_light ();

  g_assert_cmpuint (count_not_color (img, &theme->background), >, 2000);
  if (strcmp (name, "mesh") == 0 || strcmp (name, "mesh-edges") == 0)
    {
      check_mesh_cells (plot, img, 1, KS_PLOT_COLORMAP_VIRIDIS);
      check_mesh_outline (plot, img, theme);
      check_mesh_edge (plot, img, 1, strcmp (name, "mesh-edges") == 0);
    }
  else if (strcmp (name, "mesh-large") == 0)
    {
      /* Cells of three points each side: their middles, away from the
       * border between the parts at x = 100; a lower and an upper
       * triangle on the right. */
      static const double at[][2] = {
        { 20.5, 30.5 }, { 60.5, 120.5 }, { 2.5, 2.5 }, { 150.75, 40.25 }, { 180.25, 140.75 },
      };

      check_mesh_points (plot, img, 1, KS_PLOT_COLORMAP_INFERNO, 200, 150,
                         at, G_N_ELEMENTS (at), 4);
    }
}

static void
test_export_marks (void)
{
  struct {
    const char *name;
    KsPlot     *plot;
  } ex[] = {
    { "bars", example_bars () },
    { "bands", example_bands () },
    { "annotations", example_annotations () },
    { "log2-y2", example_log2_y2 () },
    { "mesh", example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS) },
    { "mesh-edges", example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS) },
    { "mesh-large", example_mesh (200, 150, KS_PLOT_COLORMAP_INFERNO) },
    { "blocks", example_blocks () },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-plot-marks-XXXXXX", &error);
  gboolean parsed = TRUE, rendered_svg = TRUE, rendered_pdf = TRUE;

  g_assert_no_error (error);
  ks_plot_set_mesh_edges (ex[5].plot, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (ex); i++)
    {
      g_autofree char *png = g_strdup_printf ("%s/%s.png", dir, ex[i].name);
      g_autofree char *svg = g_strdup_printf ("%s/%s.svg", dir, ex[i].name);
      g_autofree char *pdf = g_strdup_printf ("%s/%s.pdf", dir, ex[i].name);
      g_autofree char *contents = NULL;
      cairo_surface_t *img, *raster;
      gsize len;

      g_assert_true (ks_plot_export (ex[i].plot, png, W, H, NULL, &error));
      g_assert_no_error (error);
      raster = cairo_image_surface_create_from_png (png);
      g_assert_cmpint (cairo_image_surface_get_width (raster), ==, W);
      check_export (ex[i].name, ex[i].plot, raster);

      g_assert_true (ks_plot_export (ex[i].plot, svg, W, H, NULL, &error));
      g_assert_no_error (error);
      parsed = svg_parses (svg) && parsed;
      contents = read_file (svg, &len);
      if (g_str_has_prefix (ex[i].name, "mesh"))
        {
          /* 60,000 cells go in as one image under vector axes, and the
           * file stays small; 144 stay polygons. */
          gboolean large = strcmp (ex[i].name, "mesh-large") == 0;

          g_assert_true ((strstr (contents, "<image") != NULL) == large);
          g_assert_cmpuint (len, <, 1024 * 1024);
          g_test_message ("%s.svg: %zu bytes", ex[i].name, len);
        }
      g_clear_pointer (&contents, g_free);
      img = render_vector (svg, dir);
      if (img != NULL)
        {
          check_export (ex[i].name, ex[i].plot, img);
          check_same_marks (ex[i].name, "SVG", raster, img);
          cairo_surface_destroy (img);
        }
      rendered_svg = img != NULL && rendered_svg;

      g_assert_true (ks_plot_export (ex[i].plot, pdf, W, H, NULL, &error));
      g_assert_no_error (error);
      contents = read_file (pdf, &len);
      g_assert_cmpmem (contents, 5, "%PDF-", 5);
      g_assert_true (mem_contains (contents + len - 32, 32, "%%EOF"));
      if (strcmp (ex[i].name, "mesh-large") == 0)
        {
          g_assert_true (mem_contains (contents, len, "/Subtype /Image"));
          g_assert_cmpuint (len, <, 1024 * 1024);
        }
      img = render_vector (pdf, dir);
      if (img != NULL)
        {
          check_export (ex[i].name, ex[i].plot, img);
          check_same_marks (ex[i].name, "PDF", raster, img);
          cairo_surface_destroy (img);
        }
      rendered_pdf = img != NULL && rendered_pdf;
      cairo_surface_destroy (raster);
      ks_plot_unref (ex[i].plot);
    }
  remove_dir (dir);

  if (!parsed)
    g_test_skip ("python3 is not installed: the SVG files were not parsed");
  else if (!rendered_svg)
    g_test_skip ("rsvg-convert (librsvg2-bin) is not installed: the SVG files were "
                 "parsed but not rendered");
  else if (!rendered_pdf)
    g_test_skip ("pdftoppm (poppler-utils) is not installed: the PDF files were checked "
                 "for a header and trailer but not rendered");
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot-marks/cache", test_cache);
  g_test_add_func ("/plot-marks/bars", test_bars);
  g_test_add_func ("/plot-marks/bands", test_bands);
  g_test_add_func ("/plot-marks/annotations", test_annotations);
  g_test_add_func ("/plot-marks/log2-y2", test_log2_y2);
  g_test_add_func ("/plot-marks/error-bars", test_error_bars);
  g_test_add_func ("/plot-marks/blocks", test_blocks);
  g_test_add_func ("/plot-marks/degenerate", test_degenerate);
  g_test_add_func ("/plot-marks/export", test_export_marks);

  rc = g_test_run ();
  pango_cairo_font_map_set_default (NULL);
  return rc;
}
