/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-projector.c: what makes a plot readable on a projector, checked
 * on the layout the renderer draws from (geometry, not pixels of text, so
 * any fonts do): the legend outside the data when it is long or would hide
 * points, distinct legend texts, category names never hyphenated, value
 * labels that never overlap, a log axis for bars across orders of
 * magnitude. */
#include <glib.h>
#include <string.h>

#include "ks-plot-private.h"

#define W 800
#define H 500

/* A text style on a scratch surface, as hit-testing uses. */
typedef struct {
  cairo_surface_t *surface;
  cairo_t         *cr;
  TextStyle        ts;
} Style;

static void
style_init (Style *st)
{
  st->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
  st->cr = cairo_create (st->surface);
  st->ts.ctx = ks_plot_text_context_new (st->cr);
  st->ts.family = "Sans";
  st->ts.size = 10;
}

static void
style_clear (Style *st)
{
  g_object_unref (st->ts.ctx);
  cairo_destroy (st->cr);
  cairo_surface_destroy (st->surface);
}

static Rect
plot_rect (const Layout *lo)
{
  return (Rect) { lo->left, lo->top, lo->right - lo->left, lo->bottom - lo->top };
}

/* No drawn point (with its marker) lies under the legend's box. */
static void
assert_legend_hides_no_point (const Layout *lo)
{
  for (guint s = 0; s < lo->dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (lo->dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          Rect m = { d->x - MARKER_R, d->y - MARKER_R, 2 * MARKER_R, 2 * MARKER_R };

          if (d->ok)
            g_assert_false (rect_overlaps (&m, &lo->lg.box));
        }
    }
}

/* Twelve curves: the legend stands outside the plot area, the area gives
 * it room, and it stays on the canvas. */
static void
test_legend_many (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  Style st;
  Layout *lo;
  Rect area, canvas = { 0, 0, W, H };

  for (guint s = 0; s < 12; s++)
    {
      g_autofree char *name = g_strdup_printf ("method = number %u", s);
      guint k = ks_plot_add_series (plot, name);

      for (int i = 0; i <= 20; i++)
        ks_plot_add_point (plot, k, i, (i * (s + 3)) % 17 + s);
    }
  style_init (&st);
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  area = plot_rect (lo);
  g_assert_true (lo->has_legend);
  g_assert_cmpuint (lo->lg.entries->len, ==, 12);
  g_assert_cmpint (lo->lg.place, !=, LEGEND_INSIDE);
  g_assert_false (rect_overlaps (&lo->lg.box, &area));
  g_assert_true (rect_contains (&canvas, &lo->lg.box));
  assert_legend_hides_no_point (lo);
  ks_plot_layout_unref (lo);

  /* A narrow plot keeps its width: the legend goes below. */
  lo = ks_plot_layout_get (plot, &st.ts, 300, 700);
  area = plot_rect (lo);
  g_assert_cmpint (lo->lg.place, ==, LEGEND_BELOW);
  g_assert_false (rect_overlaps (&lo->lg.box, &area));
  g_assert_cmpfloat (lo->lg.box.y, >=, lo->bottom);
  ks_plot_layout_unref (lo);
  style_clear (&st);
}

/* Three curves filling the plot from corner to corner, with y fixed so no
 * headroom can be made: a legend in either corner would hide points, so it
 * goes outside. */
static void
test_legend_covering (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  Style st;
  Layout *lo;

  for (guint s = 0; s < 3; s++)
    {
      guint k = ks_plot_add_series (plot, s == 0 ? "first" : s == 1 ? "second" : "third");

      for (int i = 0; i <= 40; i++)
        ks_plot_add_point (plot, k, i, (i * 7 + s * 13) % 41 / 4.0);
    }
  ks_plot_set_y_range (plot, 0, 10);
  style_init (&st);
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  g_assert_cmpint (lo->lg.place, !=, LEGEND_INSIDE);
  assert_legend_hides_no_point (lo);
  ks_plot_layout_unref (lo);

  /* One short curve in a corner: the legend stays inside, in the other. */
  {
    g_autoptr(KsPlot) small = ks_plot_new ();
    guint k = ks_plot_add_series (small, "only");

    for (int i = 0; i <= 10; i++)
      ks_plot_add_point (small, k, i, i);
    lo = ks_plot_layout_get (small, &st.ts, W, H);
    g_assert_cmpint (lo->lg.place, ==, LEGEND_INSIDE);
    assert_legend_hides_no_point (lo);
    ks_plot_layout_unref (lo);
  }
  style_clear (&st);
}

/* Two runs of one name get distinct legend texts. */
static void
test_legend_distinct (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  Style st;
  Layout *lo;

  for (guint s = 0; s < 3; s++)
    {
      guint k = ks_plot_add_series (plot, s < 2 ? "recorded: NVIDIA H200" : "recorded: NVIDIA H200 (2)");

      ks_plot_add_point (plot, k, 1, s);
      ks_plot_add_point (plot, k, 2, s + 1);
    }
  style_init (&st);
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  g_assert_cmpuint (lo->lg.entries->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < i; j++)
      g_assert_cmpstr (g_array_index (lo->lg.entries, LegendEntry, i).text, !=,
                       g_array_index (lo->lg.entries, LegendEntry, j).text);
  g_assert_cmpstr (g_array_index (lo->lg.entries, LegendEntry, 0).text, ==, "recorded: NVIDIA H200");
  ks_plot_layout_unref (lo);
  style_clear (&st);
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot-projector/legend/many", test_legend_many);
  g_test_add_func ("/plot-projector/legend/covering", test_legend_covering);
  g_test_add_func ("/plot-projector/legend/distinct", test_legend_distinct);

  rc = g_test_run ();
  pango_cairo_font_map_set_default (NULL);
  return rc;
}
