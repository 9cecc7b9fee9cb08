/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-ranges.c: view ranges and ticks at the edges of the doubles:
 * equal ends, ranges a few ULPs wide (a temperature that has settled),
 * subnormal, huge (-1e308..1e308), infinite and not-a-number.  Each must
 * give a bounded number of distinct ticks and draw its data; a tick loop
 * that cannot end shows as the test's meson timeout.  Also the texts a
 * rendering draws (ks_plot_get_drawn_texts), ticks and legend included. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "ks-plot-mesh-private.h"   /* the layout's ticks and the tick choice */
#include "plot-test-util.h"

#define W 640
#define H 400

static const double edges[] = {
  0.0, 1.0, -1.0, 1111111111.11, 1e-310, DBL_TRUE_MIN, DBL_MIN, 1e308, -1e308,
  DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN,
};

/* Labelled ticks read differently from one another. */
static guint
assert_distinct_labels (GArray *ticks)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = 0;

  for (guint i = 0; i < ticks->len; i++)
    {
      Tick *t = &g_array_index (ticks, Tick, i);

      if (t->label == NULL)
        continue;
      g_assert_false (g_hash_table_contains (seen, t->label));
      g_hash_table_add (seen, t->label);
      n++;
    }
  return n;
}

/* Any axis at all, as ks_plot_ticks_choose might be handed it: a bounded
 * number of ticks, each a number, and labels that differ. */
static void
test_ticks_any_axis (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  TextStyle ts = { ks_plot_text_context_new (cr), "Sans", 10 };
  const KsPlotScale scales[] = { KS_PLOT_SCALE_LINEAR, KS_PLOT_SCALE_LOG10, KS_PLOT_SCALE_LOG2 };
  const double lengths[] = { 1, 300, 20000 };

  for (guint s = 0; s < G_N_ELEMENTS (scales); s++)
    for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
      for (guint j = 0; j < G_N_ELEMENTS (edges); j++)
        for (guint k = 0; k < G_N_ELEMENTS (lengths); k++)
          {
            /* Also the next double up: a range of one ULP. */
            double b = i == j ? nextafter (edges[i], INFINITY) : edges[j];
            Axis ax = { scales[s], edges[i], b };
            g_autoptr(GArray) ticks = ks_plot_ticks_choose (&ts, &ax, lengths[k], k % 2 == 0,
                                                            NULL, NULL);

            g_assert_cmpuint (ticks->len, <=, KS_PLOT_TICKS_MAX);
            for (guint t = 0; t < ticks->len; t++)
              g_assert_false (isnan (g_array_index (ticks, Tick, t).value));
            assert_distinct_labels (ticks);
          }

  g_object_unref (ts.ctx);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* What the layout makes of data (or a fixed range) from lo to hi: a finite
 * view holding both, with at least two labelled ticks. */
static void
test_view_ranges (void)
{
  const double pairs[][2] = {
    { 1111111111.11, 1111111111.11 + 2.5e-7 },   /* the hang of issue 25 */
    { 1.0, 1.0 + 4 * DBL_EPSILON },
    { 0.0, DBL_TRUE_MIN },
    { 1e-310, 1e-310 + 3 * DBL_TRUE_MIN },
    { 1e-310, 3e-310 },
    { -1e308, 1e308 },
    { -DBL_MAX, DBL_MAX },
    { DBL_MAX, DBL_MAX },
    { 5.0, 5.0 },
    { 0.0, 0.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    for (int fixed = 0; fixed < 2; fixed++)
      {
        g_autoptr(KsPlot) plot = ks_plot_new ();
        guint s = ks_plot_add_series (plot, "s");
        double lo = pairs[i][0], hi = pairs[i][1], top, bottom, px, py;
        Layout *layout;
        Area a;

        ks_plot_add_point (plot, s, 0, lo);
        ks_plot_add_point (plot, s, 1, hi);
        if (fixed)
          ks_plot_set_y_range (plot, lo, hi);
        cairo_surface_destroy (render_image (plot, W, H, NULL));

        a = plot_area (plot, W, H);
        g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.top, NULL, &top));
        g_assert_true (ks_plot_device_to_data (plot, W, H, a.left, a.bottom, NULL, &bottom));
        g_assert_true (isfinite (top) && isfinite (bottom));
        g_assert_cmpfloat (bottom, <=, lo);
        g_assert_cmpfloat (top, >=, hi);
        /* Both points inside the plot area, not lost off its edges. */
        g_assert_true (ks_plot_data_to_device (plot, W, H, 1, hi, &px, &py));
        g_assert_true (ks_plot_data_to_device (plot, W, H, 0, lo, &px, &py));

        layout = ks_plot_layout_get (plot, NULL, W, H);
        g_assert_cmpuint (assert_distinct_labels (layout->yticks), >=, 2);
        ks_plot_layout_unref (layout);
      }
}

/* Points at -1e308 and 1e308 (and at the largest x) are drawn, on a y axis
 * that reaches them, rather than vanishing on 0..1. */
static void
test_huge_points (void)
{
  const KsPlotTheme *theme = ks_plot_theme_light ();
  g_autoptr(KsPlot) plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, "huge");
  const double xs[] = { -DBL_MAX, 0, DBL_MAX }, ys[] = { -1e308, 0, 1e308 };
  cairo_surface_t *img;

  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    ks_plot_add_point (plot, s, xs[i], ys[i]);
  img = render_image (plot, W, H, theme);
  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    {
      double px, py;

      g_assert_true (ks_plot_data_to_device (plot, W, H, xs[i], ys[i], &px, &py));
      g_assert_true (color_near (img, px, py, 3, &theme->series[0], 40));
    }
  cairo_surface_destroy (img);
}

static KsPlot *
two_cell_mesh (double v0,
               double v1)
{
  static const double xy[] = { 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1 };
  static const guint32 cells[] = { 0, 1, 4, 3, 1, 2, 5, 4 };
  const double values[] = { v0, v1 };
  KsPlot *plot = ks_plot_new ();

  g_assert_true (ks_plot_set_mesh (plot, xy, 6, cells, 2, NULL));
  ks_plot_set_mesh_values (plot, values);
  return plot;
}

/* A colour bar over values a few ULPs apart (a frame of run heat whose
 * temperature has settled) gets a few distinct ticks around them, and the
 * cells its middle colour; one over -1e308..1e308 its two ends. */
static void
test_mesh_colour_bar (void)
{
  const double pairs[][2] = {
    { 1111111111.11, 1111111111.11 + 2.5e-7 },
    { 1.0, 1.0 + 2 * DBL_EPSILON },
    { 0.0, DBL_TRUE_MIN },
    { 300.0, 300.0 },
  };
  KsPlotColor mid = ks_plot_colormap_color (KS_PLOT_COLORMAP_VIRIDIS, 0.5);

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr(KsPlot) plot = two_cell_mesh (pairs[i][0], pairs[i][1]);
      cairo_surface_t *img = render_image (plot, W, H, NULL);
      Layout *layout = ks_plot_layout_get (plot, NULL, W, H);
      double px, py;

      g_assert_nonnull (layout->cbticks);
      g_assert_cmpuint (layout->cbticks->len, <=, 20);
      g_assert_cmpuint (assert_distinct_labels (layout->cbticks), >=, 2);
      g_assert_cmpfloat (layout->cb.f0, <=, pairs[i][0]);
      g_assert_cmpfloat (layout->cb.f1, >=, pairs[i][1]);
      ks_plot_layout_unref (layout);
      g_assert_true (ks_plot_data_to_device (plot, W, H, 0.5, 0.5, &px, &py));
      g_assert_true (pixel_is (img, px, py, &mid, 8));
      cairo_surface_destroy (img);
    }

  {
    g_autoptr(KsPlot) plot = two_cell_mesh (-1e308, 1e308);
    cairo_surface_t *img = render_image (plot, W, H, NULL);
    KsPlotColor c0 = ks_plot_colormap_color (KS_PLOT_COLORMAP_VIRIDIS, 0.0);
    KsPlotColor c1 = ks_plot_colormap_color (KS_PLOT_COLORMAP_VIRIDIS, 1.0);
    double px, py;

    g_assert_true (ks_plot_data_to_device (plot, W, H, 0.5, 0.5, &px, &py));
    g_assert_true (pixel_is (img, px, py, &c0, 8));
    g_assert_true (ks_plot_data_to_device (plot, W, H, 1.5, 0.5, &px, &py));
    g_assert_true (pixel_is (img, px, py, &c1, 8));
    cairo_surface_destroy (img);
  }
}

/* A recorded run far from the user's (N = 1000..1100 against 20..60) is
 * drawn over it without setting the axes: the user's points span the
 * plot; "fit recorded" lets the overlay set them too. */
static void
test_overlay_follows_data (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  guint own = ks_plot_add_series (plot, "this run");
  guint rec = ks_plot_add_series (plot, "recorded");
  double px, py, left, right;

  for (guint n = 20; n <= 60; n++)
    ks_plot_add_point (plot, own, n, 0.001 * n * n);
  for (guint n = 1000; n <= 1100; n += 10)
    ks_plot_add_point (plot, rec, n, 30.0);
  ks_plot_series_set_overlay (plot, rec, TRUE);
  g_assert_true (ks_plot_has_overlays_beside_data (plot));

  /* The user's ends lie near the plot's edges; the overlay is out of view. */
  g_assert_true (ks_plot_data_to_device (plot, W, H, 20, 0.4, &left, &py));
  g_assert_true (ks_plot_data_to_device (plot, W, H, 60, 3.6, &right, &py));
  g_assert_cmpfloat (right - left, >, 0.6 * W);
  g_assert_false (ks_plot_data_to_device (plot, W, H, 1050, 30.0, &px, &py));

  /* Fitted: everything shows, the user's run squeezed to the left. */
  ks_plot_set_fit_overlays (plot, TRUE);
  g_assert_true (ks_plot_get_fit_overlays (plot));
  g_assert_true (ks_plot_data_to_device (plot, W, H, 1050, 30.0, &px, &py));
  g_assert_true (ks_plot_data_to_device (plot, W, H, 20, 0.4, &left, &py));
  g_assert_true (ks_plot_data_to_device (plot, W, H, 60, 3.6, &right, &py));
  g_assert_cmpfloat (right - left, <, 0.1 * W);

  /* A group of overlay curves is one legend entry, its name. */
  {
    guint more = ks_plot_add_series (plot, "recorded: b");
    g_autofree char *entry = NULL;
    guint hits = 0;

    ks_plot_add_point (plot, more, 1060, 20.0);
    ks_plot_series_set_overlay (plot, more, TRUE);
    ks_plot_series_set_group (plot, rec, "recorded: X, 2 curves");
    ks_plot_series_set_group (plot, more, "recorded: X, 2 curves");
    for (double y = 0; y < H; y += 2)
      for (double x = 0; x < W; x += 4)
        {
          g_autofree char *t = ks_plot_legend_text_at (plot, W, H, x, y);

          if (t == NULL)
            continue;
          g_assert_cmpstr (t, !=, "recorded");
          g_assert_cmpstr (t, !=, "recorded: b");
          if (g_strcmp0 (t, "recorded: X, 2 curves") == 0)
            hits++;
        }
    g_assert_cmpuint (hits, >, 0);
  }

  /* Alone (no run of the user's yet), the overlay sets the axes. */
  {
    g_autoptr(KsPlot) alone = ks_plot_new ();
    guint s = ks_plot_add_series (alone, "recorded");

    for (guint n = 1000; n <= 1100; n += 10)
      ks_plot_add_point (alone, s, n, 30.0);
    ks_plot_series_set_overlay (alone, s, TRUE);
    g_assert_false (ks_plot_has_overlays_beside_data (alone));
    g_assert_true (ks_plot_data_to_device (alone, W, H, 1050, 30.0, &px, &py));
  }
}

/* What a translated window's test reads: every text drawn, the title,
 * axis labels, tick labels and legend entries among them, and no other. */
static void
test_drawn_texts (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_auto(GStrv) drawn = NULL;
  guint s = ks_plot_add_series (plot, "первый ряд");
  gboolean tick = FALSE;

  ks_plot_set_title (plot, "Заголовок");
  ks_plot_set_axis_labels (plot, "размер, мс", "время, мкс");
  ks_plot_add_point (plot, s, 1, 2);
  ks_plot_add_point (plot, s, 3, 4);
  ks_plot_add_series (plot, "второй ряд");
  ks_plot_add_point (plot, 1, 2, 3);
  drawn = ks_plot_get_drawn_texts (plot, W, H);
  g_assert_true (g_strv_contains ((const char * const *) drawn, "Заголовок"));
  g_assert_true (g_strv_contains ((const char * const *) drawn, "размер, мс"));
  g_assert_true (g_strv_contains ((const char * const *) drawn, "время, мкс"));
  g_assert_true (g_strv_contains ((const char * const *) drawn, "первый ряд"));
  g_assert_true (g_strv_contains ((const char * const *) drawn, "второй ряд"));
  for (guint i = 0; drawn[i] != NULL; i++)
    tick |= g_ascii_isdigit (drawn[i][0]);
  g_assert_true (tick);
  g_assert_false (g_strv_contains ((const char * const *) drawn, "driver"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot/ranges/ticks-any-axis", test_ticks_any_axis);
  g_test_add_func ("/plot/ranges/view", test_view_ranges);
  g_test_add_func ("/plot/ranges/huge-points", test_huge_points);
  g_test_add_func ("/plot/ranges/mesh-colour-bar", test_mesh_colour_bar);
  g_test_add_func ("/plot/ranges/overlay-follows-data", test_overlay_follows_data);
  g_test_add_func ("/plot/ranges/drawn-texts", test_drawn_texts);

  return g_test_run ();
}
