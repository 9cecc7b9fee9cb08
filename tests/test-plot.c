/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot.c: the plot model, hit-testing and export (its renderer, checked
 * on the pixels it draws, is test-plot-render.c's). */
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
