/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-render.c: the plot renderer, checked on the pixels it draws
 * (the model, hit-testing and export are test-plot.c's). */
#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ks-plot.h"
#include "plot-test-util.h"

#define W 800
#define H 500

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

static void
test_render_linear (void)
{
  g_autoptr(KsPlot) plot = line_plot (NULL);
  const KsPlotTheme *theme = ks_plot_theme_light ();
  cairo_surface_t *img = render_image (plot, W, H, theme);
  Area a = plot_area (plot, W, H);
  KsPlotColor grid = blend (&theme->grid, &theme->background);
  guint rows, cols;

  g_assert_cmpuint (count_not_color (img, &theme->background), >, 3000);
  g_assert_true (pixel_is (img, 0, 0, &theme->background, 0));

  /* The line runs where device_to_data says its points are. */
  for (int x = 10; x <= 90; x += 20)
    {
      double px, py;

      data_to_device (plot, W, H, x, x, &px, &py);
      g_assert_true (color_near (img, px, py, 2, &theme->series[0], 40));
    }

  /* ~5-8 nice ticks on each axis, one grid line each. */
  rows = count_runs (img, TRUE, a.left + 3, a.top + 2, a.bottom - 2, &grid, 3);
  cols = count_runs (img, FALSE, a.top + 3, a.left + 2, a.right - 2, &grid, 3);
  g_test_message ("grid lines: %u horizontal, %u vertical", rows, cols);
  g_assert_cmpuint (rows, >=, 4);
  g_assert_cmpuint (rows, <=, 9);
  g_assert_cmpuint (cols, >=, 4);
  g_assert_cmpuint (cols, <=, 9);

  /* The grid lines sit on round values: 0 and 100 among them. */
  {
    double px, py;

    data_to_device (plot, W, H, 50, 100, &px, &py);
    g_assert_true (color_near (img, a.left + 3, py, 1, &grid, 3));
    data_to_device (plot, W, H, 0, 0, &px, &py);
    g_assert_true (color_near (img, px, a.top + 3, 1, &grid, 3));
  }

  cairo_surface_destroy (img);
}

static void
test_render_log (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "spans 1e-4..10");
  KsPlotColor grid;
  cairo_surface_t *img;
  g_autoptr(GArray) starts = NULL;
  Area a;
  double x1, x2, x3, y1, y2, y3;

  ks_plot_set_log_y (plot, TRUE);
  ks_plot_set_axis_labels (plot, "i", "seconds");
  for (int i = 0; i <= 50; i++)
    ks_plot_add_point (plot, s, i, 1e-4 * pow (10.0, 5.0 * i / 50));
  /* Non-positive values cannot go on a log axis; they are skipped. */
  ks_plot_add_point (plot, s, 51, 0.0);
  ks_plot_add_point (plot, s, 52, -3.0);

  img = render_image (plot, W, H, theme);
  a = plot_area (plot, W, H);
  grid = blend (&theme->grid, &theme->background);

  g_assert_cmpuint (count_not_color (img, &theme->background), >, 3000);

  /* Log y: equal pixel steps multiply y by the same factor, while x stays
   * linear. */
  g_assert_true (ks_plot_device_to_data (plot, W, H, a.left + 100, a.bottom - 50, &x1, &y1));
  g_assert_true (ks_plot_device_to_data (plot, W, H, a.left + 200, a.bottom - 150, &x2, &y2));
  g_assert_true (ks_plot_device_to_data (plot, W, H, a.left + 300, a.bottom - 250, &x3, &y3));
  g_assert_cmpfloat_with_epsilon (x2 - x1, x3 - x2, 1e-9 * fabs (x3));
  g_assert_cmpfloat_with_epsilon (y2 / y1, y3 / y2, 1e-9 * (y3 / y2));
  g_assert_cmpfloat (y2 / y1, >, 1.5);

  /* The auto range ignored 0 and -3 and covers 1e-4..10. */
  {
    double bottom, top;

    g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.bottom, NULL, &bottom));
    g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.top, NULL, &top));
    g_assert_cmpfloat (bottom, >, 1e-5);
    g_assert_cmpfloat (bottom, <, 1e-4);
    g_assert_cmpfloat (top, >, 10);
    g_assert_cmpfloat (top, <, 100);
  }

  /* Grid lines at the six decades, equally spaced... */
  starts = run_starts (img, a.left + 3, a.top + 2, a.bottom - 2, &grid, 3);
  g_assert_cmpuint (starts->len, ==, 6);
  for (guint i = 2; i < starts->len; i++)
    {
      int d1 = g_array_index (starts, int, i) - g_array_index (starts, int, i - 1);
      int d0 = g_array_index (starts, int, i - 1) - g_array_index (starts, int, i - 2);
      g_assert_cmpint (abs (d1 - d0), <=, 1);
    }
  /* ...and the decade line nearest 1e-2 is where 1e-2 maps. */
  {
    double px, py;

    data_to_device (plot, W, H, 10, 1e-2, &px, &py);
    g_assert_true (color_near (img, a.left + 3, py, 1, &grid, 3));
  }

  /* Minor ticks at 2..9 as well: many more tick marks than decades. */
  g_assert_cmpuint (count_runs (img, TRUE, a.left - 3, a.top, a.bottom, &theme->foreground, 80),
                    >, 20);

  /* Points at both ends of the range are drawn. */
  {
    double px, py;

    data_to_device (plot, W, H, 0, 1e-4, &px, &py);
    g_assert_true (color_near (img, px, py, 2, &theme->series[0], 40));
    data_to_device (plot, W, H, 50, 10, &px, &py);
    g_assert_true (color_near (img, px, py, 2, &theme->series[0], 40));
  }

  cairo_surface_destroy (img);
}

/* A log axis zoomed into less than a decade (Fig. 6 of the paper: the
 * group-size curves between 0.6 and 4.4 ms) still gets labels enough to
 * read the curve: more grid lines than 1 and 2 alone would give. */
static void
test_render_log_narrow (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "0.6..4.4");
  KsPlotColor grid;
  cairo_surface_t *img;
  Area a;
  guint rows;

  ks_plot_set_log_y (plot, TRUE);
  for (int i = 0; i <= 20; i++)
    ks_plot_add_point (plot, s, i, 0.6 * pow (4.4 / 0.6, i / 20.0));
  img = render_image (plot, W, H, theme);
  a = plot_area (plot, W, H);
  grid = blend (&theme->grid, &theme->background);
  rows = count_runs (img, TRUE, a.left + 3, a.top + 2, a.bottom - 2, &grid, 3);
  g_test_message ("grid lines on a log axis over 0.6..4.4: %u", rows);
  g_assert_cmpuint (rows, >=, 3);
  g_assert_cmpuint (rows, <=, 9);
  cairo_surface_destroy (img);
}

/* Two size ranges in one run (n = 1000..1031 and 2000..2012, as a recorded
 * H200 run has them): two curves, no line across the thousand sizes
 * between that nobody measured; the steps within each range stay joined. */
static void
test_render_gap (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "two ranges");
  cairo_surface_t *img;
  double px, py;

  for (int n = 1000; n <= 1031; n++)
    ks_plot_add_point (plot, s, n, 50);
  for (int n = 2000; n <= 2012; n++)
    ks_plot_add_point (plot, s, n, 50);
  ks_plot_set_y_range (plot, 0, 100);
  img = render_image (plot, W, H, theme);
  /* Within a range: the line is there. */
  data_to_device (plot, W, H, 1015.5, 50, &px, &py);
  g_assert_true (color_near (img, px, py, 1, &theme->series[0], 40));
  /* Halfway across the gap: nothing but the background (and the grid). */
  data_to_device (plot, W, H, 1500, 50, &px, &py);
  g_assert_false (color_near (img, px, py, 1, &theme->series[0], 40));
  cairo_surface_destroy (img);

  /* Gradually spaced sizes (100, 200, 500, 1000, 2000, 4000) stay one curve. */
  {
    g_autoptr(KsPlot) spread = ks_plot_new ();
    const int sizes[] = { 100, 200, 500, 1000, 2000, 4000 };
    guint t = ks_plot_add_series (spread, "spread");

    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
      ks_plot_add_point (spread, t, sizes[i], 50);
    ks_plot_set_y_range (spread, 0, 100);
    img = render_image (spread, W, H, theme);
    data_to_device (spread, W, H, 3000, 50, &px, &py);
    g_assert_true (color_near (img, px, py, 1, &theme->series[0], 40));
    cairo_surface_destroy (img);
  }
}

/* A scatter (the roofline's points): each point's marker and no line
 * between them, however many there are. */
static void
test_render_points (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "scatter");
  cairo_surface_t *img;
  double px, py;

  ks_plot_series_set_kind (plot, s, KS_PLOT_SERIES_POINTS);
  g_assert_cmpint (ks_plot_series_get_kind (plot, s), ==, KS_PLOT_SERIES_POINTS);
  ks_plot_add_point (plot, s, 0, 50);
  ks_plot_add_point (plot, s, 50, 50);
  /* More points than a line shows markers for, all at x = 100. */
  for (int i = 0; i < 500; i++)
    ks_plot_add_point (plot, s, 100, 50);
  ks_plot_set_x_range (plot, -10, 110);
  ks_plot_set_y_range (plot, 0, 100);
  img = render_image (plot, W, H, theme);
  data_to_device (plot, W, H, 50, 50, &px, &py);
  g_assert_true (color_near (img, px, py, 1, &theme->series[0], 40));
  data_to_device (plot, W, H, 100, 50, &px, &py);
  g_assert_true (color_near (img, px, py, 1, &theme->series[0], 40));
  /* Halfway between two points: no line. */
  data_to_device (plot, W, H, 25, 50, &px, &py);
  g_assert_false (color_near (img, px, py, 1, &theme->series[0], 40));
  data_to_device (plot, W, H, 75, 50, &px, &py);
  g_assert_false (color_near (img, px, py, 1, &theme->series[0], 40));
  cairo_surface_destroy (img);
}

/* A highlighted point's diamond, wider than a plain marker (MARKER_R 2.8):
 * colour c on both sides of the point, 4 px out, where the near-vertical
 * lines to its neighbours are not. */
static gboolean
diamond_at (cairo_surface_t   *img,
            KsPlot            *plot,
            double             x,
            double             y,
            const KsPlotColor *c)
{
  double px, py;

  data_to_device (plot, W, H, x, y, &px, &py);
  return color_near (img, px - 4, py, 0, c, 30) && color_near (img, px + 4, py, 0, c, 30);
}

static void
test_render_highlight (void)
{
  const KsPlotTheme *themes[] = { ks_plot_theme_light (), ks_plot_theme_dark () };

  for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
    {
      const KsPlotTheme *theme = themes[t];
      g_autoptr(KsPlot) with = highlight_plot (TRUE);
      g_autoptr(KsPlot) without = highlight_plot (FALSE);
      cairo_surface_t *img_with = render_image (with, W, H, theme);
      cairo_surface_t *img_without = render_image (without, W, H, theme);

      g_assert_true (pixel_is (img_with, 2, 2, &theme->background, 0));
      /* Each curve's diamonds take its colour, not one red for all. */
      g_assert_cmpuint (count_color (img_with, &theme->highlight, 10), <, 10);
      g_assert_true (diamond_at (img_with, with, 126, 12.6 * 2.5, &theme->series[0]));
      g_assert_true (diamond_at (img_with, with, 126, 6.3 * 2.5, &theme->series[1]));
      g_assert_false (diamond_at (img_without, without, 126, 12.6 * 2.5, &theme->series[0]));
      g_assert_false (diamond_at (img_without, without, 126, 6.3 * 2.5, &theme->series[1]));

      cairo_surface_destroy (img_with);
      cairo_surface_destroy (img_without);
    }
}

/* The legend goes to the corner where it hides no data. */
static void
test_render_legend_corner (void)
{
  const KsPlotTheme *theme = ks_plot_theme_light ();

  for (int rising = 0; rising <= 1; rising++)
    {
      g_autoptr(KsPlot) plot = ks_plot_new ();
      guint s = ks_plot_add_series (plot, "a series with a long name");
      cairo_surface_t *img;
      double px, py;

      for (int i = 0; i <= 10; i++)
        ks_plot_add_point (plot, s, i, rising ? i : 10 - i);
      img = render_image (plot, W, H, theme);

      /* The top end of the line, at either corner, is visible. */
      data_to_device (plot, W, H, rising ? 10 : 0, 10, &px, &py);
      g_assert_true (color_near (img, px, py, 2, &theme->series[0], 40));
      data_to_device (plot, W, H, rising ? 9.5 : 0.5, 9.5, &px, &py);
      g_assert_true (color_near (img, px, py, 2, &theme->series[0], 40));
      cairo_surface_destroy (img);
    }
}

/* A zoomed view: the data beyond it must not spill over the margins. */
static void
test_render_zoom (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, NULL);
  cairo_surface_t *img;
  guint inside = 0, outside = 0;
  double top;
  Area a;

  for (int i = -1000; i <= 2000; i += 10)
    ks_plot_add_point (plot, s, i, i);
  ks_plot_add_point_full (plot, s, 405, 405, 300, 600, KS_PLOT_POINT_BEST, "best");
  ks_plot_add_point_full (plot, s, 2000, 2000, NAN, NAN, KS_PLOT_POINT_HIGHLIGHT, "far away");
  ks_plot_add_vline (plot, -500, "out of view");
  ks_plot_add_vline (plot, 450, "in view");

  /* x zoomed only: y fits what is in view. */
  ks_plot_set_x_range (plot, 400, 500);
  a = plot_area (plot, W, H);
  g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.top, NULL, &top));
  g_assert_cmpfloat (top, >, 500);
  g_assert_cmpfloat (top, <, 700);

  ks_plot_set_y_range (plot, 400, 500);
  img = render_image (plot, W, H, theme);
  a = plot_area (plot, W, H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      if (pixel_is (img, x, y, &theme->series[0], 60))
        {
          if (x >= a.left && x <= a.right && y >= a.top && y <= a.bottom)
            inside++;
          else
            outside++;
        }
  g_test_message ("series pixels: %u inside, %u outside", inside, outside);
  g_assert_cmpuint (inside, >, 300);
  g_assert_cmpuint (outside, ==, 0);
  g_assert_cmpuint (count_color (img, &theme->highlight, 10), ==, 0);
  g_assert_cmpuint (count_color (img, &theme->marker, 10), >, 50);

  /* Both bounds fixed: the view is exactly that. */
  {
    double x0, y0, x1, y1;

    g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.bottom, &x0, &y0));
    g_assert_true (ks_plot_device_to_data (plot, W, H, a.right, a.top, &x1, &y1));
    g_assert_cmpfloat_with_epsilon (x0, 400, 1e-9);
    g_assert_cmpfloat_with_epsilon (x1, 500, 1e-9);
    g_assert_cmpfloat_with_epsilon (y0, 400, 1e-9);
    g_assert_cmpfloat_with_epsilon (y1, 500, 1e-9);
  }

  cairo_surface_destroy (img);
}

static void
test_render_degenerate (void)
{
  const KsPlotTheme *theme = ks_plot_theme_light ();

  /* All y equal: a flat line in the middle of a sensible range. */
  {
    g_autoptr(KsPlot) plot = ks_plot_new ();
    guint s = ks_plot_add_series (plot, "flat");
    cairo_surface_t *img;
    double px, py, lo, hi;
    Area a;

    for (int i = 0; i < 10; i++)
      ks_plot_add_point (plot, s, i, 5.0);
    img = render_image (plot, W, H, theme);
    a = plot_area (plot, W, H);
    g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.bottom, NULL, &lo));
    g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.top, NULL, &hi));
    g_assert_cmpfloat (lo, <, 5);
    g_assert_cmpfloat (hi, >, 5);
    g_assert_cmpfloat (hi - lo, <, 10);
    data_to_device (plot, W, H, 4.5, 5.0, &px, &py);
    g_assert_cmpfloat (fabs (py - (a.top + a.bottom) / 2.0), <, 2);
    g_assert_true (color_near (img, px, py, 2, &theme->series[0], 40));
    cairo_surface_destroy (img);
  }

  /* One point, NaNs, an empty series, log axes with nothing positive, an
   * empty plot and tiny canvases: drawn without a complaint. */
  {
    g_autoptr(KsPlot) plot = ks_plot_new ();
    g_autoptr(KsPlot) empty = ks_plot_new ();
    guint s = ks_plot_add_series (plot, "one");
    cairo_surface_t *img;

    ks_plot_add_series (plot, "none");
    ks_plot_add_point (plot, s, 3, 4);
    ks_plot_add_point (plot, s, NAN, 4);
    ks_plot_add_point (plot, s, 5, INFINITY);
    img = render_image (plot, W, H, theme);
    g_assert_cmpuint (count_color (img, &theme->series[0], 10), >, 10);
    cairo_surface_destroy (img);

    ks_plot_set_log_x (plot, TRUE);
    ks_plot_set_log_y (plot, TRUE);
    ks_plot_set_y_range (plot, -1, -2);
    ks_plot_add_point (plot, s, -3, -4);
    img = render_image (plot, W, H, theme);
    cairo_surface_destroy (img);

    img = render_image (empty, W, H, ks_plot_theme_dark ());
    g_assert_true (pixel_is (img, 0, 0, &ks_plot_theme_dark ()->background, 0));
    cairo_surface_destroy (img);

    for (int size = 1; size <= 64; size *= 4)
      {
        img = render_image (plot, size, size, theme);
        cairo_surface_destroy (img);
      }
  }
}

/* A curve of 200,000 points whose N+1-prime points (18,000 of them) are
 * highlighted and labelled, as `kernelscope-cli plot` draws a long sweep:
 * the label search looked at every label placed so far and every point for
 * each candidate box, and this took minutes (bench-plot labels 200000 says
 * how long it takes now; the test's timeout is the only clock here).  The
 * highlights are drawn, and labels too, none over another. */
static gboolean
is_prime (guint n)
{
  for (guint d = 2; d * d <= n; d++)
    if (n % d == 0)
      return FALSE;
  return n >= 2;
}

static void
test_render_many_labels (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "median");
  cairo_surface_t *img;

  ks_plot_set_highlight_legend (plot, "N+1 prime");
  for (guint n = 100; n < 200100; n++)
    {
      gboolean prime = is_prime (n + 1);
      g_autofree char *label = prime ? g_strdup_printf ("N+1 = %u", n + 1) : NULL;

      ks_plot_add_point_full (plot, s, n, 1e-9 * n * (double) n * (prime ? 1.8 : 1.0), NAN, NAN,
                              prime ? KS_PLOT_POINT_HIGHLIGHT : KS_PLOT_POINT_NONE, label);
    }
  img = render_image (plot, 1200, 750, theme);
  g_assert_cmpuint (count_color (img, &theme->series[0], 10), >, 5000);
  cairo_surface_destroy (img);
}

/* 150,000 points to 800 pixels are drawn decimated to each pixel column's
 * first, lowest, highest and last points: a one-point spike up and one
 * down must still be drawn, at full height, and the flat line beside. */
static void
test_render_decimated_spike (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint s = ks_plot_add_series (plot, "flat");
  const guint n = 150000, up = 74321, down = 100003;
  cairo_surface_t *img;
  double px, py;

  for (guint i = 0; i < n; i++)
    ks_plot_add_point (plot, s, i, i == up ? 1.0 : i == down ? -1.0 : 0.0);
  ks_plot_set_y_range (plot, -1.5, 1.5);
  img = render_image (plot, W, H, theme);

  /* The spikes, near their tips and half way up. */
  for (double y = 0.5; y <= 0.9; y += 0.4)
    {
      data_to_device (plot, W, H, up, y, &px, &py);
      g_assert_true (color_near (img, px, py, 1, &theme->series[0], 60));
      data_to_device (plot, W, H, down, -y, &px, &py);
      g_assert_true (color_near (img, px, py, 1, &theme->series[0], 60));
    }
  /* Nothing drawn where no point is, and the line at 0. */
  data_to_device (plot, W, H, n / 4, 0.5, &px, &py);
  g_assert_false (color_near (img, px, py, 2, &theme->series[0], 60));
  data_to_device (plot, W, H, n / 4, 0.0, &px, &py);
  g_assert_true (color_near (img, px, py, 1, &theme->series[0], 60));
  cairo_surface_destroy (img);
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot/render/linear", test_render_linear);
  g_test_add_func ("/plot/render/log", test_render_log);
  g_test_add_func ("/plot/render/log-narrow", test_render_log_narrow);
  g_test_add_func ("/plot/render/gap", test_render_gap);
  g_test_add_func ("/plot/render/points", test_render_points);
  g_test_add_func ("/plot/render/highlight", test_render_highlight);
  g_test_add_func ("/plot/render/decimated-spike", test_render_decimated_spike);
  g_test_add_func ("/plot/render/legend-corner", test_render_legend_corner);
  g_test_add_func ("/plot/render/zoom", test_render_zoom);
  g_test_add_func ("/plot/render/degenerate", test_render_degenerate);
  g_test_add_func ("/plot/render/many-labels", test_render_many_labels);

  rc = g_test_run ();

  /* Drop pango's font caches so that valgrind's leak report shows what the
   * plot code leaks rather than fonts held for the life of the process. */
  pango_cairo_font_map_set_default (NULL);

  return rc;
}
