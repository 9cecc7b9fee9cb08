/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-series.c: the curves, their error bars and markers, and the
 * highlighted and best points with their labels. */
#define G_LOG_DOMAIN "ks-plot-series"

#include "ks-plot-private.h"

typedef struct {
  double x, y;
  guint  series;
  KsPlotPoint *p;
} Special;

static int
special_cmp (const void *a,
             const void *b)
{
  const Special *s = a, *t = b;
  gboolean sb = (s->p->flags & KS_PLOT_POINT_BEST) != 0;
  gboolean tb = (t->p->flags & KS_PLOT_POINT_BEST) != 0;

  /* Best points first: there is one per series and each matters; then the
   * highlights left to right, which spreads the labels that fit evenly. */
  if (sb != tb)
    return sb ? -1 : 1;
  if (s->x != t->x)
    return s->x < t->x ? -1 : 1;
  return s->y < t->y ? -1 : s->y > t->y;
}

/* The widest step between neighbouring points a line may bridge: ten times
 * the series' median step.  A sweep of two size ranges (n = 1000..1031 and
 * 2000..2012) then shows two curves, not a line across 1000 sizes nobody
 * measured; evenly or gradually spaced points (100, 200, 500, 1000, 2000)
 * stay joined.  Steps are taken in data space (log10 on a log axis), so
 * zooming does not change which points are joined. */
static double
series_gap_limit (Series      *ser,
                  GArray      *dp,
                  KsPlotScale  log_x)
{
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (double));
  double prev = NAN;

  for (guint i = 0; i < dp->len; i++)
    {
      DevPoint *d = &g_array_index (dp, DevPoint, i);
      double x;

      if (!d->ok)
        continue;
      x = g_array_index (ser->points, KsPlotPoint, d->index).x;
      x = fwd (x, log_x);
      if (!isnan (prev) && x > prev)
        {
          double gap = x - prev;
          g_array_append_val (gaps, gap);
        }
      prev = x;
    }
  if (gaps->len < 4)
    return INFINITY;
  g_array_sort (gaps, cmp_double);
  return 10.0 * g_array_index (gaps, double, gaps->len / 2);
}

/* Min/max bars under the line, with caps while the markers show. */
static void
draw_error_bars (cairo_t           *cr,
                 const Layout      *lo,
                 Series            *ser,
                 GArray            *dp,
                 const KsPlotColor *c,
                 const KsPlotColor *fg,
                 const Rect        *lines)
{
  const Axis *ay = series_axis (lo, ser);
  double floor_y = lines->y + lines->h;
  double cap = ser->kind == KS_PLOT_SERIES_BARS ? 4.0 : 2.5;
  gboolean merge = ks_plot_decimates (dp, lines) && !ks_plot_series_shows_markers (ser);
  KsPlotBarSpans spans;
  KsPlotBarSpan span;
  guint run = 0;

  cairo_set_dash (cr, NULL, 0, 0);
  cairo_set_line_width (cr, 1.0);
  ks_plot_bar_spans_init (&spans);
  /* Over a bar its own colour would vanish: the foreground instead. */
  if (ser->kind == KS_PLOT_SERIES_BARS)
    set_color (cr, fg, 0.8);
  else
    set_color (cr, c, 0.6);
  cairo_new_path (cr);
  for (guint i = 0; i < dp->len; i++)
    {
      DevPoint *d = &g_array_index (dp, DevPoint, i);
      KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);
      double y0, y1, x;

      if (!d->ok || d->x < lines->x + 15 || d->x > lines->x + lines->w - 15)
        continue;
      if (!isfinite (p->y_lo) || !isfinite (p->y_hi))
        continue;
      /* On a log axis a non-positive bound means "down to the floor". */
      y0 = usable (p->y_lo, ay->log) ? dev_y_on (lo, ay, p->y_lo) : floor_y;
      y1 = usable (p->y_hi, ay->log) ? dev_y_on (lo, ay, p->y_hi) : floor_y;
      y0 = CLAMP (y0, lines->y, floor_y);
      y1 = CLAMP (y1, lines->y, floor_y);
      x = d->x;
      /* Many bars to a pixel column: their union, in fewer strokes. */
      if (merge)
        {
          if (!ks_plot_bar_spans_add (&spans, x, y0, y1, &span))
            continue;
          x = span.x;
          y0 = span.top;
          y1 = span.bottom;
        }
      /* In runs, as the line below: 200,000 bars in one path took cairo
       * seconds. */
      if (++run >= 1024)
        {
          cairo_stroke (cr);
          run = 0;
        }
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y1);
      if (ks_plot_series_shows_markers (ser))
        {
          cairo_move_to (cr, x - cap, y0);
          cairo_line_to (cr, x + cap, y0);
          cairo_move_to (cr, x - cap, y1);
          cairo_line_to (cr, x + cap, y1);
        }
    }
  if (merge && ks_plot_bar_spans_finish (&spans, &span))
    {
      cairo_move_to (cr, span.x, span.top);
      cairo_line_to (cr, span.x, span.bottom);
    }
  cairo_stroke (cr);
}

static void
draw_line (cairo_t      *cr,
           const Layout *lo,
           Series       *ser,
           GArray       *dp,
           const Rect   *lines)
{
  gboolean pen = FALSE;
  double last_x = 0, last_y = 0;
  double gap_limit = series_gap_limit (ser, dp, lo->x.log);
  g_autoptr(GArray) decimated = NULL;
  guint run = 0;

  /* The decimated line breaks where the whole one would (points with ok
   * FALSE); its neighbours may lie further apart than gap_limit. */
  if (ks_plot_decimates (dp, lines))
    {
      dp = decimated = ks_plot_decimate_line (dp, ser->points, lo->x.log, gap_limit);
      gap_limit = INFINITY;
    }

  cairo_new_path (cr);
  for (guint i = 0; i + 1 < dp->len; i++)
    {
      DevPoint *a = &g_array_index (dp, DevPoint, i);
      DevPoint *b = &g_array_index (dp, DevPoint, i + 1);
      double x0 = a->x, y0 = a->y, x1 = b->x, y1 = b->y;
      double xa = g_array_index (ser->points, KsPlotPoint, a->index).x;
      double xb = g_array_index (ser->points, KsPlotPoint, b->index).x;
      double gap = fwd (xb, lo->x.log) - fwd (xa, lo->x.log);

      if (!a->ok || !b->ok || gap > gap_limit || !ks_plot_clip_segment (lines, &x0, &y0, &x1, &y1))
        {
          pen = FALSE;
          continue;
        }
      /* cairo's stroker slows down far more than linearly on one path of
       * 200,000 short, overlapping segments: stroke it in runs of 1024.  An
       * opaque line looks the same (a dashed one starts its pattern afresh
       * at each break). */
      if (++run >= 1024)
        {
          cairo_stroke (cr);
          run = 0;
          if (pen)
            cairo_move_to (cr, last_x, last_y);
        }
      if (!pen || x0 != last_x || y0 != last_y)
        cairo_move_to (cr, x0, y0);
      cairo_line_to (cr, x1, y1);
      pen = TRUE;
      last_x = x1;
      last_y = y1;
    }
  cairo_stroke (cr);
}

void
ks_plot_draw_series (cairo_t           *cr,
                     KsPlot            *plot,
                     const Layout      *lo,
                     GPtrArray         *dps,
                     const KsPlotTheme *theme)
{
  /* Lines may run a little past the area so their ends are not cut
   * square by the clip; the clip does the rest. */
  Rect area = { lo->left, lo->top, lo->right - lo->left, lo->bottom - lo->top };
  Rect lines = { area.x - 20, area.y - 20, area.w + 40, area.h + 40 };

  for (guint s = 0; s < dps->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (dps, s);
      const KsPlotColor *c = &theme->series[s % G_N_ELEMENTS (theme->series)];

      if (plot->error_bars)
        draw_error_bars (cr, lo, ser, dp, c, &theme->foreground, &lines);
      if (ser->kind == KS_PLOT_SERIES_BARS)
        continue;

      if (ser->kind != KS_PLOT_SERIES_POINTS)
        {
          ks_plot_set_series_line (cr, ser);
          set_color (cr, c, 1.0);
          draw_line (cr, lo, ser, dp, &lines);
          cairo_set_dash (cr, NULL, 0, 0);
        }

      if (ks_plot_series_shows_markers (ser))
        for (guint i = 0; i < dp->len; i++)
          {
            DevPoint *d = &g_array_index (dp, DevPoint, i);

            if (d->ok && d->x > area.x - 10 && d->x < area.x + area.w + 10
                && d->y > area.y - 10 && d->y < area.y + area.h + 10)
              ks_plot_draw_marker (cr, d->x, d->y, s, theme);
          }
    }
}

/* The highlighted and best points inside (or just outside) the area, best
 * first, then left to right. */
static GArray *
collect_specials (KsPlot       *plot,
                  const Layout *lo,
                  const Rect   *area)
{
  GArray *specials = g_array_new (FALSE, FALSE, sizeof (Special));

  for (guint s = 0; s < lo->dps->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (lo->dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);
          Special sp = { d->x, d->y, s, p };

          if (!d->ok || !(p->flags & (KS_PLOT_POINT_HIGHLIGHT | KS_PLOT_POINT_BEST)))
            continue;
          if (d->x < area->x - 10 || d->x > area->x + area->w + 10
              || d->y < area->y - 10 || d->y > area->y + area->h + 10)
            continue;
          g_array_append_val (specials, sp);
        }
    }
  if (specials->len > 1)   /* an empty GArray's data is NULL, which qsort must not get */
    qsort (specials->data, specials->len, sizeof (Special), special_cmp);
  return specials;
}

/* More markers than pixel columns: of those of one kind drawn on the same
 * pixel, the first hides the others, which need not be drawn nor labelled
 * (78,000 highlighted points of a million took seconds to place).  Sorted
 * by x, such markers need not be neighbours: a set of the pixels taken. */
static void
thin_specials (GArray     *specials,
               const Rect *area)
{
  g_autoptr(GHashTable) taken = NULL;
  g_autofree gint64 *keys = NULL;
  guint kept = 0;

  if (specials->len <= 2 * MAX (area->w, 1.0))
    return;
  taken = g_hash_table_new (g_int64_hash, g_int64_equal);
  keys = g_new (gint64, specials->len);
  for (guint i = 0; i < specials->len; i++)
    {
      Special *sp = &g_array_index (specials, Special, i);
      /* The area is at most 10^4 pixels a side: 16 bits each. */
      gint64 px = (gint64) floor (sp->x - area->x + 16) & 0xffff;
      gint64 py = (gint64) floor (sp->y - area->y + 16) & 0xffff;

      keys[i] = ((gint64) sp->series << 40) | ((gint64) (sp->p->flags & 0xff) << 32) | (px << 16) | py;
      if (!g_hash_table_add (taken, &keys[i]))
        continue;
      g_array_index (specials, Special, kept++) = *sp;
    }
  g_array_set_size (specials, kept);
}

/* Markers first, and in the obstacle list, so no label covers one. */
static void
draw_special_markers (cairo_t           *cr,
                      GArray            *specials,
                      KsPlotObstacles   *taken,
                      const KsPlotTheme *theme)
{
  for (guint i = 0; i < specials->len; i++)
    {
      Special *sp = &g_array_index (specials, Special, i);

      if (sp->p->flags & KS_PLOT_POINT_HIGHLIGHT)
        ks_plot_draw_highlight_rim (cr, sp->x, sp->y, theme);
    }
  for (guint i = 0; i < specials->len; i++)
    {
      Special *sp = &g_array_index (specials, Special, i);
      double r = 0;

      if (sp->p->flags & KS_PLOT_POINT_BEST)
        {
          const KsPlotColor *c = &theme->series[sp->series % G_N_ELEMENTS (theme->series)];

          ks_plot_draw_marker (cr, sp->x, sp->y, sp->series, theme);
          cairo_new_path (cr);
          cairo_arc (cr, sp->x, sp->y, BEST_R, 0, 2 * G_PI);
          cairo_set_line_width (cr, 2.0);
          set_color (cr, c, 1.0);
          cairo_stroke (cr);
          r = BEST_R + 1;
        }
      if (sp->p->flags & KS_PLOT_POINT_HIGHLIGHT)
        {
          ks_plot_draw_highlight_fill (cr, sp->x, sp->y,
                                       &theme->series[sp->series % G_N_ELEMENTS (theme->series)]);
          r = MAX (r, HIGHLIGHT_R);
        }
      {
        Rect m = { sp->x - r, sp->y - r, 2 * r, 2 * r };
        ks_plot_obstacles_add (taken, &m);
      }
    }
}

/* The labels that fit. */
static void
draw_special_labels (cairo_t           *cr,
                     GArray            *specials,
                     const TextStyle   *ts,
                     const Layout      *lo,
                     const Rect        *area,
                     KsPlotObstacles   *taken,
                     const KsPlotTheme *theme)
{
  double min_h;

  ks_plot_text_measure (ts, "0", SCALE_POINT, FALSE, NULL, &min_h);
  min_h /= 2;
  for (guint i = 0; i < specials->len; i++)
    {
      Special *sp = &g_array_index (specials, Special, i);
      g_autoptr(PangoLayout) text = NULL;
      gboolean best = (sp->p->flags & KS_PLOT_POINT_BEST) != 0;
      double w, h, r = best ? BEST_R + 1 : HIGHLIGHT_R;
      Rect box;

      if (!nonempty (sp->p->label))
        continue;
      /* Where not even an empty label half a line high fits, no label does
       * (every place tried holds the smaller box inside the larger): skip
       * laying out the text, which was most of the time of a plot of
       * 14,000 labelled points of which a few hundred fit. */
      if (!best && !ks_plot_place_label (sp->x, sp->y, r, 4, min_h, area, taken, lo->data_index, FALSE, &box))
        continue;
      text = ks_plot_text_new (ts, sp->p->label, SCALE_POINT, FALSE);
      ks_plot_text_size (text, &w, &h);
      /* Labels go where they hide no data.  A best point's label may cover
       * a line if it must, as each series has only one; other labels that
       * do not fit are left out, as a crowd reads worse than a few. */
      if (!ks_plot_place_label (sp->x, sp->y, r, w + 4, h + 2, area, taken, lo->data_index, best, &box))
        continue;
      ks_plot_show_boxed_text (cr, text, &box,
                               best ? &theme->foreground
                               : &theme->series[sp->series % G_N_ELEMENTS (theme->series)], theme);
      ks_plot_obstacles_add (taken, &box);
    }
}

void
ks_plot_draw_specials (cairo_t           *cr,
                       KsPlot            *plot,
                       const TextStyle   *ts,
                       const Layout      *lo,
                       const Rect        *area,
                       KsPlotObstacles   *taken,
                       const KsPlotTheme *theme)
{
  g_autoptr(GArray) specials = collect_specials (plot, lo, area);

  thin_specials (specials, area);
  draw_special_markers (cr, specials, taken, theme);
  draw_special_labels (cr, specials, ts, lo, area, taken, theme);
}
