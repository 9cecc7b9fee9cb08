/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot.c: the plot model, its renderer (checked on the pixels it
 * draws), hit-testing and export. */
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
/* Model                                                                    */

static void
test_model (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  char label[32] = "N+1 = 307";
  const KsPlotPoint *p;
  guint a, b;
  KsPlot *ref;

  g_assert_null (ks_plot_get_title (plot));
  ks_plot_set_title (plot, "Time vs size");
  g_assert_cmpstr (ks_plot_get_title (plot), ==, "Time vs size");
  ks_plot_set_title (plot, NULL);
  g_assert_null (ks_plot_get_title (plot));
  ks_plot_set_caption (plot, "dev · date");
  ks_plot_set_axis_labels (plot, "N", "ms");
  ks_plot_set_highlight_legend (plot, "N+1 prime");

  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 0);
  a = ks_plot_add_series (plot, "first");
  b = ks_plot_add_series (plot, NULL);
  g_assert_cmpuint (a, ==, 0);
  g_assert_cmpuint (b, ==, 1);
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 2);
  g_assert_cmpstr (ks_plot_series_get_name (plot, a), ==, "first");
  g_assert_null (ks_plot_series_get_name (plot, b));

  ks_plot_add_point (plot, a, 3, 30);
  ks_plot_add_point (plot, a, 1, 10);
  ks_plot_add_point_full (plot, a, 2, 20, 19, 21, KS_PLOT_POINT_HIGHLIGHT, label);
  label[0] = 'X';   /* the plot keeps its own copy */
  ks_plot_series_set_dashed (plot, b, TRUE);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, a), ==, 3);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, b), ==, 0);

  /* Stored in insertion order, not sorted: indices are stable. */
  p = ks_plot_series_get_point (plot, a, 0);
  g_assert_cmpfloat (p->x, ==, 3);
  g_assert_cmpfloat (p->y, ==, 30);
  g_assert_true (isnan (p->y_lo) && isnan (p->y_hi));
  g_assert_cmpint (p->flags, ==, KS_PLOT_POINT_NONE);
  g_assert_null (p->label);
  p = ks_plot_series_get_point (plot, a, 2);
  g_assert_cmpfloat (p->y_lo, ==, 19);
  g_assert_cmpfloat (p->y_hi, ==, 21);
  g_assert_cmpint (p->flags, ==, KS_PLOT_POINT_HIGHLIGHT);
  g_assert_cmpstr (p->label, ==, "N+1 = 307");

  g_assert_cmpuint (ks_plot_get_n_vlines (plot), ==, 0);
  ks_plot_add_vline (plot, 192, "predicted OGS = 192");
  ks_plot_add_vline (plot, 64, NULL);
  g_assert_cmpuint (ks_plot_get_n_vlines (plot), ==, 2);

  ks_plot_set_log_x (plot, TRUE);
  ks_plot_set_log_y (plot, TRUE);
  ks_plot_set_x_range (plot, NAN, 100);
  ks_plot_set_y_range (plot, 1, NAN);

  ref = ks_plot_ref (plot);
  g_assert_true (ref == plot);
  ks_plot_unref (ref);
  g_assert_cmpstr (ks_plot_series_get_name (plot, a), ==, "first");

  /* Bad indices are programmer errors, reported and ignored. */
  g_test_expect_message ("ks-plot", G_LOG_LEVEL_CRITICAL, "*series < plot->series->len*");
  ks_plot_add_point (plot, 7, 1, 1);
  g_test_assert_expected_messages ();
  g_test_expect_message ("ks-plot", G_LOG_LEVEL_CRITICAL, "*index < s->points->len*");
  g_assert_null (ks_plot_series_get_point (plot, a, 3));
  g_test_assert_expected_messages ();
}

static void
test_themes (void)
{
  const KsPlotTheme *light = ks_plot_theme_light ();
  const KsPlotTheme *dark = ks_plot_theme_dark ();

  g_assert_nonnull (light);
  g_assert_nonnull (dark);
  /* Light is light and dark is dark, and their text contrasts. */
  g_assert_cmpfloat (light->background.r + light->background.g + light->background.b, >, 2.5);
  g_assert_cmpfloat (light->foreground.r + light->foreground.g + light->foreground.b, <, 0.6);
  g_assert_cmpfloat (dark->background.r + dark->background.g + dark->background.b, <, 0.9);
  g_assert_cmpfloat (dark->foreground.r + dark->foreground.g + dark->foreground.b, >, 2.4);

  /* The palette's colours differ from one another and from the highlight. */
  for (const KsPlotTheme *t = light; t != NULL; t = t == light ? dark : NULL)
    for (int i = 0; i < 8; i++)
      {
        const KsPlotColor *c = &t->series[i];

        g_assert_cmpfloat (fabs (c->r - t->highlight.r) + fabs (c->g - t->highlight.g)
                           + fabs (c->b - t->highlight.b), >, 0.3);
        for (int j = 0; j < i; j++)
          {
            const KsPlotColor *d = &t->series[j];
            g_assert_cmpfloat (fabs (c->r - d->r) + fabs (c->g - d->g) + fabs (c->b - d->b), >, 0.3);
          }
      }
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

static KsPlot *
line_plot (const char *name)
{
  KsPlot *plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, name);

  ks_plot_set_title (plot, "A line");
  ks_plot_set_axis_labels (plot, "x", "y");
  ks_plot_set_caption (plot, "test device · 2026-01-01");
  for (int i = 0; i <= 100; i += 5)
    ks_plot_add_point (plot, s, i, i);
  return plot;
}

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

static KsPlot *
highlight_plot (gboolean highlight)
{
  KsPlot *plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, "time");
  guint o = ks_plot_add_series (plot, "other");

  ks_plot_set_highlight_legend (plot, "N+1 prime");
  for (int n = 100; n < 150; n++)
    {
      gboolean prime = n + 1 == 101 || n + 1 == 127 || n + 1 == 149;
      KsPlotPointFlags flags = prime && highlight ? KS_PLOT_POINT_HIGHLIGHT : KS_PLOT_POINT_NONE;
      g_autofree char *label = g_strdup_printf ("N+1 = %d", n + 1);

      ks_plot_add_point_full (plot, s, n, n * 0.1 * (prime ? 2.5 : 1.0), NAN, NAN,
                              flags, prime ? label : NULL);
      ks_plot_add_point_full (plot, o, n, n * 0.05 * (prime ? 2.5 : 1.0), NAN, NAN, flags, NULL);
    }
  return plot;
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

/* ------------------------------------------------------------------------ */
/* Hit-testing and device_to_data                                           */

static void
test_hit_test (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  guint a = ks_plot_add_series (plot, "squares");
  guint b = ks_plot_add_series (plot, "line");
  guint hs = 99, hi = 99;
  cairo_surface_t *img;
  double px, py;
  Area area;

  ks_plot_set_title (plot, "Hits");
  ks_plot_set_axis_labels (plot, "x", "y");
  /* Added in descending x: the index reported is the stored one. */
  for (int i = 9; i >= 0; i--)
    ks_plot_add_point (plot, a, i, i * i);
  for (int i = 0; i <= 9; i++)
    ks_plot_add_point (plot, b, i, 40 + i);

  img = render_image (plot, W, H, theme);
  data_to_device (plot, W, H, 4, 16, &px, &py);
  /* What hit-testing takes for the point is what render drew there. */
  g_assert_true (color_near (img, px, py, 1, &theme->series[0], 10));

  g_assert_true (ks_plot_hit_test (plot, W, H, px + 2, py - 1, 5, &hs, &hi));
  g_assert_cmpuint (hs, ==, a);
  g_assert_cmpuint (hi, ==, 5);   /* x = 4 was the sixth point added */
  g_assert_cmpfloat (ks_plot_series_get_point (plot, hs, hi)->x, ==, 4);

  data_to_device (plot, W, H, 7, 47, &px, &py);
  g_assert_true (ks_plot_hit_test (plot, W, H, px, py, 3, &hs, &hi));
  g_assert_cmpuint (hs, ==, b);
  g_assert_cmpuint (hi, ==, 7);

  /* Misses: too far away, outside the plot area, and a zero radius off
   * the point. */
  area = plot_area (plot, W, H);
  hs = hi = 99;
  g_assert_false (ks_plot_hit_test (plot, W, H, px + 30, py + 30, 5, &hs, &hi));
  g_assert_false (ks_plot_hit_test (plot, W, H, area.left + 5, area.top + 5, 8, &hs, &hi));
  g_assert_false (ks_plot_hit_test (plot, W, H, 2, 2, 8, &hs, &hi));
  g_assert_false (ks_plot_hit_test (plot, W, H, px + 1, py, 0, &hs, &hi));
  g_assert_cmpuint (hs, ==, 99);
  g_assert_cmpuint (hi, ==, 99);
  cairo_surface_destroy (img);

  /* A theme with a larger font moves the plot area; hit-testing follows
   * the most recent render. */
  {
    KsPlotTheme big = *theme;
    double qx, qy;

    big.font_size = 18;
    img = render_image (plot, W, H, &big);
    data_to_device (plot, W, H, 4, 16, &qx, &qy);
    g_assert_cmpfloat (fabs (qx - px) + fabs (qy - py), >, 3);
    g_assert_true (color_near (img, qx, qy, 1, &big.series[0], 10));
    g_assert_true (ks_plot_hit_test (plot, W, H, qx, qy, 3, &hs, &hi));
    g_assert_cmpuint (hs, ==, a);
    g_assert_cmpuint (hi, ==, 5);
    cairo_surface_destroy (img);
  }
}

static void
test_device_to_data (void)
{
  g_autoptr(KsPlot) plot = line_plot ("line");
  double prev_x = -INFINITY, prev_y = INFINITY;
  Area a = plot_area (plot, W, H);
  double x, y, px, py;

  /* Monotone: x grows to the right, y grows upwards. */
  for (int i = 0; i <= 20; i++)
    {
      double dx = a.left + (a.right - a.left) * i / 20.0;
      double dy = a.top + (a.bottom - a.top) * i / 20.0;

      g_assert_true (ks_plot_device_to_data (plot, W, H, dx, dy, &x, &y));
      g_assert_cmpfloat (x, >, prev_x);
      g_assert_cmpfloat (y, <, prev_y);
      prev_x = x;
      prev_y = y;
    }

  /* The auto range pads the data by about 5% each side. */
  g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.bottom, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, -5, 1e-6);
  g_assert_cmpfloat_with_epsilon (y, -5, 1e-6);

  /* Round trip through the bisected inverse. */
  data_to_device (plot, W, H, 37, 61, &px, &py);
  g_assert_true (ks_plot_device_to_data (plot, W, H, px, py, &x, &y));
  g_assert_cmpfloat_with_epsilon (x, 37, 1e-6);
  g_assert_cmpfloat_with_epsilon (y, 61, 1e-6);

  /* Outside the plot area: FALSE, outputs untouched. */
  x = y = 12345;
  g_assert_false (ks_plot_device_to_data (plot, W, H, a.left - 1, a.bottom - 5, &x, &y));
  g_assert_false (ks_plot_device_to_data (plot, W, H, a.left + 5, a.bottom + 1, &x, &y));
  g_assert_false (ks_plot_device_to_data (plot, W, H, a.right + 1, a.top + 5, &x, &y));
  g_assert_false (ks_plot_device_to_data (plot, W, H, a.left + 5, a.top - 1, &x, &y));
  g_assert_false (ks_plot_device_to_data (plot, W, H, -10, -10, &x, &y));
  g_assert_cmpfloat (x, ==, 12345);
  g_assert_cmpfloat (y, ==, 12345);
}

/* ------------------------------------------------------------------------ */
/* Export                                                                   */

static KsPlot *
export_plot (void)
{
  KsPlot *plot = highlight_plot (TRUE);

  ks_plot_set_title (plot, "Export test");
  ks_plot_set_caption (plot, "test device · 2026-01-01");
  ks_plot_set_axis_labels (plot, "Matrix size N", "Time (ms)");
  ks_plot_add_vline (plot, 128, "predicted OGS = 128");
  return plot;
}

static void
test_export_formats (void)
{
  g_autoptr(KsPlot) plot = export_plot ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-plot-XXXXXX", &error);
  g_autofree char *png = NULL, *svg = NULL, *pdf = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *listing = NULL;
  gsize len;

  g_assert_no_error (error);
  png = g_build_filename (dir, "plot.PNG", NULL);   /* extensions are case-insensitive */
  svg = g_build_filename (dir, "plot.svg", NULL);
  pdf = g_build_filename (dir, "plot.Pdf", NULL);

  /* PNG: the signature, the requested size, and not blank. */
  g_assert_true (ks_plot_export (plot, png, 640, 400, NULL, &error));
  g_assert_no_error (error);
  contents = read_file (png, &len);
  g_assert_cmpuint (len, >, 8);
  g_assert_cmpmem (contents, 8, "\x89PNG\r\n\x1a\n", 8);
  g_clear_pointer (&contents, g_free);
  {
    cairo_surface_t *img = cairo_image_surface_create_from_png (png);
    const KsPlotTheme *theme = ks_plot_theme_light ();

    g_assert_cmpint (cairo_surface_status (img), ==, CAIRO_STATUS_SUCCESS);
    g_assert_cmpint (cairo_image_surface_get_width (img), ==, 640);
    g_assert_cmpint (cairo_image_surface_get_height (img), ==, 400);
    g_assert_true (pixel_is (img, 1, 1, &theme->background, 0));
    g_assert_cmpuint (count_not_color (img, &theme->background), >, 2000);
    g_assert_cmpuint (count_color (img, &theme->series[0], 10), >, 100);
    cairo_surface_destroy (img);
  }

  /* Dark PNG: the dark background. */
  g_assert_true (ks_plot_export (plot, png, 320, 200, ks_plot_theme_dark (), &error));
  g_assert_no_error (error);
  {
    cairo_surface_t *img = cairo_image_surface_create_from_png (png);

    g_assert_cmpint (cairo_image_surface_get_width (img), ==, 320);
    g_assert_true (pixel_is (img, 1, 1, &ks_plot_theme_dark ()->background, 0));
    cairo_surface_destroy (img);
  }

  /* SVG: an <svg> element of the requested size, in points. */
  g_assert_true (ks_plot_export (plot, svg, 640, 400, NULL, &error));
  g_assert_no_error (error);
  contents = read_file (svg, &len);
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_nonnull (strstr (contents, "width=\"640pt\""));
  g_assert_nonnull (strstr (contents, "height=\"400pt\""));
  g_assert_nonnull (strstr (contents, "</svg>"));
  g_clear_pointer (&contents, g_free);

  /* PDF: the header and a complete trailer. */
  g_assert_true (ks_plot_export (plot, pdf, 640, 400, NULL, &error));
  g_assert_no_error (error);
  contents = read_file (pdf, &len);
  g_assert_cmpuint (len, >, 1000);
  g_assert_cmpmem (contents, 5, "%PDF-", 5);
  g_assert_true (mem_contains (contents + len - 32, 32, "%%EOF"));
  g_assert_true (mem_contains (contents, len, "/MediaBox [ 0 0 640 400 ]"));
  g_clear_pointer (&contents, g_free);

  /* Nothing else was left in the directory. */
  listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "plot.PNG plot.Pdf plot.svg");

  remove_dir (dir);
}

static void
test_export_errors (void)
{
  g_autoptr(KsPlot) plot = export_plot ();
  g_autoptr(KsPlot) empty = ks_plot_new ();
  g_autoptr(KsPlot) no_points = ks_plot_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-plot-XXXXXX", &error);
  g_autofree char *jpg = NULL, *png = NULL, *missing_dir = NULL, *missing = NULL;
  g_autofree char *listing = NULL;
  KsPlotFormat format = 99;

  g_assert_no_error (error);
  ks_plot_add_series (no_points, "nothing yet");

  /* Formats from names. */
  g_assert_true (ks_plot_format_from_filename ("a.Svg", &format, &error));
  g_assert_cmpint (format, ==, KS_PLOT_FORMAT_SVG);
  g_assert_true (ks_plot_format_from_filename ("/x/y.tar.pdf", &format, &error));
  g_assert_cmpint (format, ==, KS_PLOT_FORMAT_PDF);
  g_assert_true (ks_plot_format_from_filename ("p.png", NULL, &error));
  g_assert_no_error (error);
  g_assert_false (ks_plot_format_from_filename ("plot.png.txt", &format, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT);
  g_clear_error (&error);
  g_assert_false (ks_plot_format_from_filename ("png", &format, NULL));

  /* An unknown extension: the message names the supported ones. */
  jpg = g_build_filename (dir, "plot.jpg", NULL);
  g_assert_false (ks_plot_export (plot, jpg, 640, 400, NULL, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, ".png"));
  g_assert_nonnull (strstr (error->message, ".svg"));
  g_assert_nonnull (strstr (error->message, ".pdf"));
  g_clear_error (&error);
  g_assert_false (g_file_test (jpg, G_FILE_TEST_EXISTS));

  /* Nothing to draw. */
  png = g_build_filename (dir, "plot.png", NULL);
  g_assert_false (ks_plot_export (empty, png, 640, 400, NULL, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY);
  g_clear_error (&error);
  g_assert_false (ks_plot_export (no_points, png, 640, 400, NULL, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY);
  g_clear_error (&error);
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));

  /* A directory that does not exist: a write error, and no file. */
  missing_dir = g_build_filename (dir, "no-such-dir", NULL);
  missing = g_build_filename (missing_dir, "plot.pdf", NULL);
  g_assert_false (ks_plot_export (plot, missing, 640, 400, NULL, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "plot.pdf"));
  g_clear_error (&error);
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (missing_dir, G_FILE_TEST_EXISTS));

  /* A size beyond the limit (cairo refuses images this wide; an SVG of
   * 10^7 points failed an assertion inside cairo and left its temporary
   * file) is refused before anything is written: an existing file stays as
   * it was and no temporary file is left behind. */
  g_assert_true (g_file_set_contents (png, "previous", -1, &error));
  g_assert_false (ks_plot_export (plot, png, 40000, 10, NULL, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
  g_assert_nonnull (strstr (error->message, "14400"));
  g_clear_error (&error);
  {
    g_autofree char *contents = read_file (png, NULL);
    g_assert_cmpstr (contents, ==, "previous");
  }
  {
    g_autofree char *svg = g_build_filename (dir, "huge.svg", NULL);
    g_autofree char *pdf = g_build_filename (dir, "huge.pdf", NULL);

    g_assert_false (ks_plot_export (plot, svg, 1e7, 1e7 * 5 / 8, NULL, &error));
    g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
    g_clear_error (&error);
    g_assert_false (ks_plot_export (plot, pdf, 640, INFINITY, NULL, &error));
    g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
    g_clear_error (&error);
    /* What 500000000 * 5 / 8 gives in int, and NAN: refused the same way,
     * no longer a critical without an error. */
    g_assert_false (ks_plot_export (plot, pdf, 500000000, -1794967296.0 / 8, NULL, &error));
    g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
    g_clear_error (&error);
    g_assert_false (ks_plot_export (plot, svg, NAN, 100, NULL, &error));
    g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
    g_clear_error (&error);
    g_assert_false (g_file_test (pdf, G_FILE_TEST_EXISTS));
    /* The limit itself is allowed (a vector file that size is small). */
    g_assert_true (ks_plot_export (plot, svg, KS_PLOT_EXPORT_MAX_SIZE, 100, NULL, &error));
    g_assert_no_error (error);
    g_unlink (svg);
  }

  /* A successful one replaces it. */
  g_assert_true (ks_plot_export (plot, png, 64, 40, NULL, &error));
  g_assert_no_error (error);
  {
    gsize len;
    g_autofree char *contents = read_file (png, &len);
    g_assert_cmpmem (contents, 4, "\x89PNG", 4);
  }

  listing = dir_listing (dir);
  g_assert_cmpstr (listing, ==, "plot.png");

  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot/model", test_model);
  g_test_add_func ("/plot/themes", test_themes);
  g_test_add_func ("/plot/render/linear", test_render_linear);
  g_test_add_func ("/plot/render/log", test_render_log);
  g_test_add_func ("/plot/render/log-narrow", test_render_log_narrow);
  g_test_add_func ("/plot/render/gap", test_render_gap);
  g_test_add_func ("/plot/render/highlight", test_render_highlight);
  g_test_add_func ("/plot/render/legend-corner", test_render_legend_corner);
  g_test_add_func ("/plot/render/zoom", test_render_zoom);
  g_test_add_func ("/plot/render/degenerate", test_render_degenerate);
  g_test_add_func ("/plot/render/many-labels", test_render_many_labels);
  g_test_add_func ("/plot/hit-test", test_hit_test);
  g_test_add_func ("/plot/device-to-data", test_device_to_data);
  g_test_add_func ("/plot/export/formats", test_export_formats);
  g_test_add_func ("/plot/export/errors", test_export_errors);

  rc = g_test_run ();

  /* Drop pango's font caches so that valgrind's leak report shows what the
   * plot code leaks rather than fonts held for the life of the process. */
  pango_cairo_font_map_set_default (NULL);

  return rc;
}
