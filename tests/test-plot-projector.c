/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-projector.c: what makes a plot readable on a projector, checked
 * on the layout the renderer draws from (geometry, not pixels of text, so
 * any fonts do): the legend outside the data when it is long or would hide
 * points, distinct legend texts, category names never hyphenated, value
 * labels that never overlap, a log axis for bars across orders of
 * magnitude, a long title on two lines. */
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
/* A long entry is cut short in the legend; its whole text is there for a
 * tooltip where it is drawn. */
static void
test_legend_tooltip (void)
{
  static const char *long_name = "recorded: NVIDIA H200 (CUDA) + NVIDIA H200 (NVIDIA OpenCL) + "
                                 "cpu-skylake-avx512-Intel(R) Xeon(R) Processor, method = thomas";
  g_autoptr(KsPlot) plot = ks_plot_new ();
  Layout *lo;

  for (guint s = 0; s < 8; s++)
    {
      g_autofree char *name = g_strdup_printf ("%s %u", long_name, s);
      guint k = ks_plot_add_series (plot, name);

      ks_plot_add_point (plot, k, 0, s);
      ks_plot_add_point (plot, k, 1, s + 1);
    }
  /* The layout hit-testing uses: the font of the latest render. */
  lo = ks_plot_layout_get (plot, NULL, W, H);
  g_assert_true (lo->has_legend);
  for (guint i = 0; i < lo->lg.entries->len; i++)
    {
      guint col = i / lo->lg.rows, row = i % lo->lg.rows;
      double x = lo->lg.box.x + lo->lg.inner + col * (lo->lg.col_w + lo->em) + lo->lg.col_w / 2;
      double y = lo->lg.box.y + lo->lg.inner + (row + 0.5) * lo->lg.row_h;
      g_autofree char *want = g_strdup_printf ("%s %u", long_name, i);
      g_autofree char *text = ks_plot_legend_text_at (plot, W, H, x, y);

      g_assert_cmpstr (text, ==, want);
    }
  /* ... which the legend had no room for: some 130 characters in less
   * than half the width. */
  g_assert_cmpfloat (lo->lg.text_max_w, <, 0.5 * W);
  g_assert_null (ks_plot_legend_text_at (plot, W, H, lo->left + 1, lo->bottom - 1));
  ks_plot_layout_unref (lo);
}

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

/* Every curve named "method = ..." (or "paper, method = ..."): the name
 * goes to the legend's title, once, and the entries keep only their values, so a narrow plot's legend
 * takes less of its width; the full names stay for the tooltips.  A curve
 * of another name (or a single curve) keeps every entry whole. */
static void
test_legend_shared_name (void)
{
  static const char *methods[] = { "Thomas", "PARACR", "SERICR, interleaved", "CR" };
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autoptr(KsPlot) whole = ks_plot_new ();
  g_auto(GStrv) drawn = NULL;
  Style st;
  Layout *lo, *wlo;

  for (guint s = 0; s < G_N_ELEMENTS (methods); s++)
    for (guint p = 0; p < 2; p++)
      {
        KsPlot *to = p == 0 ? plot : whole;
        g_autofree char *name = g_strdup_printf ("method = %s", methods[s]);
        guint k = ks_plot_add_series (to, name);

        for (int i = 0; i <= 8; i++)
          ks_plot_add_point (to, k, i, (i * (s + 3)) % 7 + s);
      }
  /* The paper's values beside them name the method after "paper, ". */
  {
    guint k = ks_plot_add_series (plot, "paper, method = Thomas");

    ks_plot_add_point (plot, k, 0, 1);
    ks_plot_add_point (plot, k, 8, 2);
  }
  /* "whole" has one curve of another name: no shared name there. */
  {
    guint k = ks_plot_add_series (whole, "paper");

    ks_plot_add_point (whole, k, 0, 1);
    ks_plot_add_point (whole, k, 8, 2);
  }
  style_init (&st);
  lo = ks_plot_layout_get (plot, &st.ts, 320, 600);
  g_assert_true (lo->has_legend);
  g_assert_cmpstr (lo->lg.title, ==, "method");
  g_assert_cmpfloat (lo->lg.title_h, >, 0);
  g_assert_cmpuint (lo->lg.entries->len, ==, G_N_ELEMENTS (methods) + 1);
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      const LegendEntry *e = &g_array_index (lo->lg.entries, LegendEntry, i);

      g_assert_cmpstr (e->shown, ==, methods[i]);
      g_assert_true (g_str_has_prefix (e->text, "method = "));
    }
  g_assert_cmpstr (g_array_index (lo->lg.entries, LegendEntry, G_N_ELEMENTS (methods)).shown, ==, "paper, Thomas");
  /* The title and each value are drawn, "method = " nowhere. */
  drawn = ks_plot_get_drawn_texts (plot, 320, 600);
  g_assert_true (g_strv_contains ((const char * const *) drawn, "method"));
  g_assert_true (g_strv_contains ((const char * const *) drawn, "PARACR"));
  for (guint i = 0; drawn[i] != NULL; i++)
    g_assert_null (strstr (drawn[i], "method = "));
  /* Hovering an entry still reads its whole name; the title row, none. */
  {
    double x = lo->lg.box.x + lo->lg.inner + lo->lg.col_w / 2;
    double y = lo->lg.box.y + lo->lg.inner + lo->lg.title_h + 1.5 * lo->lg.row_h;
    g_autofree char *text = ks_plot_legend_text_at (plot, 320, 600, x, y);
    g_autofree char *title = ks_plot_legend_text_at (plot, 320, 600, x, lo->lg.box.y + lo->lg.inner + 1);

    g_assert_cmpstr (text, ==, "method = PARACR");
    g_assert_null (title);
  }
  wlo = ks_plot_layout_get (whole, &st.ts, 320, 600);
  g_assert_null (wlo->lg.title);
  g_assert_cmpfloat (wlo->lg.title_h, ==, 0);
  g_assert_null (g_array_index (wlo->lg.entries, LegendEntry, 0).shown);
  g_assert_cmpstr (g_array_index (wlo->lg.entries, LegendEntry, 0).text, ==, "method = Thomas");
  /* Narrower for it: the entries' widest text lost "method = ". */
  g_assert_cmpfloat (lo->lg.text_max_w, <, wlo->lg.text_max_w);
  ks_plot_layout_unref (wlo);
  ks_plot_layout_unref (lo);
  style_clear (&st);
}

/* A low curve whose last point's error bar reaches the top right corner:
 * the legend keeps clear of the whisker too, not only of the points (the
 * gallery's built-ins bars had the legend over the top of one). */
static void
test_legend_clear_of_whiskers (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  guint k = ks_plot_add_series (plot, "time");
  Style st;
  Layout *lo;
  double top, bottom, x;
  Rect whisker;

  for (int i = 0; i < 10; i++)
    ks_plot_add_point (plot, k, i, 1);
  ks_plot_add_point_full (plot, k, 9.7, 5, 1, 99, KS_PLOT_POINT_NONE, NULL);
  ks_plot_set_error_bars (plot, TRUE);
  ks_plot_set_x_range (plot, 0, 10);
  ks_plot_set_y_range (plot, 0, 100);
  style_init (&st);
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  g_assert_true (lo->has_legend);
  g_assert_cmpint (lo->lg.place, ==, LEGEND_INSIDE);
  x = dev_x (lo, 9.7);
  top = dev_y (lo, 99);
  bottom = dev_y (lo, 1);
  whisker = (Rect) { x - 1, top, 2, bottom - top };
  g_assert_false (rect_overlaps (&whisker, &lo->lg.box));
  assert_legend_hides_no_point (lo);
  ks_plot_layout_unref (lo);
  style_clear (&st);
}

/* Bars from 0.1 to 400: a log value axis, so the small ones are not flat;
 * the model's own choice stands when auto-log is off. */
static void
test_bars_log (void)
{
  static const char *categories[] = { "a", "b", "c", NULL };
  g_autoptr(KsPlot) plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, "time");
  Style st;
  Layout *lo;

  ks_plot_set_x_categories (plot, categories);
  ks_plot_series_set_kind (plot, s, KS_PLOT_SERIES_BARS);
  ks_plot_add_point (plot, s, 0, 0.1);
  ks_plot_add_point (plot, s, 1, 3);
  ks_plot_add_point (plot, s, 2, 400);
  style_init (&st);
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  g_assert_cmpint (lo->y.log, ==, KS_PLOT_SCALE_LOG10);
  ks_plot_layout_unref (lo);

  ks_plot_set_bars_auto_log (plot, FALSE);
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  g_assert_cmpint (lo->y.log, ==, KS_PLOT_SCALE_LINEAR);
  ks_plot_layout_unref (lo);

  /* 10 to 400 is less than 100x: linear. */
  {
    g_autoptr(KsPlot) narrow = ks_plot_new ();
    guint n = ks_plot_add_series (narrow, "time");

    ks_plot_set_x_categories (narrow, categories);
    ks_plot_series_set_kind (narrow, n, KS_PLOT_SERIES_BARS);
    ks_plot_add_point (narrow, n, 0, 10);
    ks_plot_add_point (narrow, n, 2, 400);
    lo = ks_plot_layout_get (narrow, &st.ts, W, H);
    g_assert_cmpint (lo->y.log, ==, KS_PLOT_SCALE_LINEAR);
    ks_plot_layout_unref (lo);
  }
  style_clear (&st);
}

/* Long category names wrap at spaces: no line carries a hyphen that the
 * name did not have, no line starts inside a word (pango draws the
 * hyphens it inserts without putting them in the text), and none runs
 * out of its slot, in slots from narrower than a word to wide. */
static void
test_category_no_hyphen (void)
{
  static const char *names[] = { "Thomas, natural layout", "SERICR, interleaved storage", NULL };
  Style st;

  style_init (&st);
  for (guint k = 0; names[k] != NULL; k++)
    {
      double word_w;

      ks_plot_text_measure (&st.ts, "Thomas,", SCALE_TICK, FALSE, &word_w, NULL);
      for (double f = 0.5; f <= 3.0; f += 0.25)
        {
          g_autoptr(PangoLayout) text = ks_plot_category_label_new (&st.ts, names[k], word_w * f + 4);
          const char *all = pango_layout_get_text (text);

          for (GSList *l = pango_layout_get_lines_readonly (text); l != NULL; l = l->next)
            {
              PangoLayoutLine *line = l->data;
              g_autofree char *piece = g_strndup (all + line->start_index, line->length);

              PangoRectangle logical;

              pango_layout_line_get_extents (line, NULL, &logical);
              g_test_message ("%s at %.2f: \"%s\"", names[k], f, piece);
              /* Within its slot: a wide word is ellipsized, not let run. */
              g_assert_cmpfloat ((double) logical.width / PANGO_SCALE, <=, word_w * f + 0.5);
              g_assert_null (strchr (piece, '-'));
              if (line->start_index > 0)
                g_assert_true (all[line->start_index - 1] == ' ' || all[line->start_index - 1] == '\n');
            }
          g_assert_cmpint (pango_layout_get_line_count (text), <=, 2);
        }
    }
  style_clear (&st);
}

/* Many bars of near values in a small plot: the value labels drawn never
 * meet one another. */
static void
test_bar_values_apart (void)
{
  static const char *categories[] = { "one", "two", "three", "four", NULL };
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GPtrArray) drawn = g_ptr_array_new ();
  KsPlotObstacles *taken;
  Style st;
  Layout *lo;
  Rect area;

  ks_plot_set_x_categories (plot, categories);
  for (guint s = 0; s < 5; s++)
    {
      g_autofree char *name = g_strdup_printf ("run %u", s);
      guint k = ks_plot_add_series (plot, name);

      ks_plot_series_set_kind (plot, k, KS_PLOT_SERIES_BARS);
      for (guint c = 0; c < 4; c++)
        ks_plot_add_point (plot, k, c, 0.134 - 0.005 * s + 0.001 * c);
    }
  style_init (&st);
  for (int width = 200; width <= 1000; width += 200)
    {
      lo = ks_plot_layout_get (plot, &st.ts, width, 300);
      area = plot_rect (lo);
      taken = ks_plot_obstacles_new (&area);
      boxes = ks_plot_bar_value_boxes (plot, &st.ts, lo, taken);
      g_ptr_array_set_size (drawn, 0);
      for (guint s = 0; s < boxes->len; s++)
        {
          GPtrArray *b = g_ptr_array_index (boxes, s);

          for (guint i = 0; i < b->len; i++)
            if (g_ptr_array_index (b, i) != NULL)
              g_ptr_array_add (drawn, g_ptr_array_index (b, i));
        }
      g_test_message ("width %d: %u value labels", width, drawn->len);
      for (guint i = 0; i < drawn->len; i++)
        for (guint j = 0; j < i; j++)
          g_assert_false (rect_overlaps (drawn->pdata[i], drawn->pdata[j]));
      g_clear_pointer (&boxes, g_ptr_array_unref);
      ks_plot_obstacles_free (taken);
      ks_plot_layout_unref (lo);
    }
  style_clear (&st);
}

/* Lines the title takes when laid in the width the layout gives it, and
 * whether it had to be cut. */
static int
title_lines (const Style  *st,
             const Layout *lo,
             const char   *title,
             gboolean     *cut)
{
  g_autoptr(PangoLayout) text = ks_plot_text_new (&st->ts, title, SCALE_TITLE, TRUE);

  ks_plot_text_wrap (text, lo->title_w, 2);
  *cut = pango_layout_is_ellipsized (text);
  return pango_layout_get_line_count (text);
}

/* A title longer than the canvas is wide (a Russian one on a narrow
 * pane) goes on two lines, whole, and the plot area starts below both;
 * a short one keeps one line; one longer than two lines is cut after the
 * second, never let run past the canvas. */
static void
test_title_two_lines (void)
{
  static const char *const longer = "Гибридный CG: скорость относительно одного GPU в зависимости от lambda";
  g_autoptr(KsPlot) plot = ks_plot_new ();
  guint k = ks_plot_add_series (plot, "cells = 16384");
  double one_w, one_h;
  gboolean cut;
  Style st;
  Layout *lo;

  for (int i = 0; i <= 6; i++)
    ks_plot_add_point (plot, k, i + 1, 1.0 + 0.1 * i);
  style_init (&st);
  ks_plot_text_measure (&st.ts, longer, SCALE_TITLE, TRUE, &one_w, &one_h);

  ks_plot_set_title (plot, "Hybrid CG");
  lo = ks_plot_layout_get (plot, &st.ts, W, H);
  g_assert_cmpint (title_lines (&st, lo, "Hybrid CG", &cut), ==, 1);
  g_assert_false (cut);
  g_assert_cmpfloat (lo->top, <, lo->pad + 2 * one_h);
  ks_plot_layout_unref (lo);

  /* Two thirds of the title's width: two lines hold it. */
  ks_plot_set_title (plot, longer);
  lo = ks_plot_layout_get (plot, &st.ts, one_w * 2 / 3, H);
  g_assert_cmpfloat (lo->title_w, <, one_w);
  g_assert_cmpint (title_lines (&st, lo, longer, &cut), ==, 2);
  g_assert_false (cut);
  g_assert_cmpfloat (lo->top, >=, lo->title_y + 2 * one_h);
  ks_plot_layout_unref (lo);

  /* A quarter: two lines, the second ellipsized. */
  lo = ks_plot_layout_get (plot, &st.ts, one_w / 4, H);
  g_assert_cmpint (title_lines (&st, lo, longer, &cut), ==, 2);
  g_assert_true (cut);
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
  g_test_add_func ("/plot-projector/legend/tooltip", test_legend_tooltip);
  g_test_add_func ("/plot-projector/legend/shared-name", test_legend_shared_name);
  g_test_add_func ("/plot-projector/legend/clear-of-whiskers", test_legend_clear_of_whiskers);
  g_test_add_func ("/plot-projector/bars/log", test_bars_log);
  g_test_add_func ("/plot-projector/bars/category-no-hyphen", test_category_no_hyphen);
  g_test_add_func ("/plot-projector/bars/values-apart", test_bar_values_apart);
  g_test_add_func ("/plot-projector/title/two-lines", test_title_two_lines);

  rc = g_test_run ();
  pango_cairo_font_map_set_default (NULL);
  return rc;
}
