/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-decimate.c: a curve of many more points than the plot has pixel
 * columns, cut down to what can show, as waveform viewers do.
 *
 * A line through n points in one pixel column covers, in that column, the
 * span from its lowest to its highest point, entering at the first point
 * and leaving at the last: those four points (in their order along the
 * line) draw the same pixels as all n.  So a spike of one point in 150,000
 * is still drawn, and cairo strokes at most four points a column instead
 * of every one (150,000 points took seconds).  Error bars in one column
 * are merged where they overlap, which leaves the union they cover. */
#define G_LOG_DOMAIN "ks-plot-decimate"

#include "ks-plot-private.h"

gboolean
ks_plot_decimates (GArray     *dp,
                   const Rect *area)
{
  return dp->len > 2 * MAX (area->w, 1.0);
}

typedef struct {
  GArray  *out;
  double   column;         /* floor of the device x; NAN: none open */
  guint    first, lo, hi, last;   /* indices into dp */
} Bucket;

/* The open column's points, once each, in their order along the line. */
static void
bucket_flush (Bucket *b,
              GArray *dp)
{
  guint idx[4] = { b->first, MIN (b->lo, b->hi), MAX (b->lo, b->hi), b->last };

  if (isnan (b->column))
    return;
  for (guint k = 0; k < 4; k++)
    if (k == 0 || idx[k] != idx[k - 1])
      g_array_append_val (b->out, g_array_index (dp, DevPoint, idx[k]));
  b->column = NAN;
}

/* A break in the line (an unusable point, or a gap wider than gap_limit in
 * data space): a point with ok FALSE, which draw_line never joins. */
static void
bucket_break (Bucket *b,
              GArray *dp)
{
  DevPoint gap = { 0, 0, 0, FALSE };

  bucket_flush (b, dp);
  if (b->out->len > 0 && g_array_index (b->out, DevPoint, b->out->len - 1).ok)
    g_array_append_val (b->out, gap);
}

GArray *
ks_plot_decimate_line (GArray       *dp,
                       GArray       *points,
                       KsPlotScale   log_x,
                       double        gap_limit)
{
  Bucket b = { g_array_new (FALSE, FALSE, sizeof (DevPoint)), NAN, 0, 0, 0, 0 };
  double prev_x = NAN;

  for (guint i = 0; i < dp->len; i++)
    {
      const DevPoint *d = &g_array_index (dp, DevPoint, i);
      double x, column;

      if (!d->ok)
        {
          bucket_break (&b, dp);
          prev_x = NAN;
          continue;
        }
      x = fwd (g_array_index (points, KsPlotPoint, d->index).x, log_x);
      if (!isnan (prev_x) && x - prev_x > gap_limit)
        bucket_break (&b, dp);
      prev_x = x;
      column = floor (d->x);
      if (column != b.column)
        {
          bucket_flush (&b, dp);
          b.column = column;
          b.first = b.lo = b.hi = i;
        }
      /* Device y grows downwards: lo is the lowest value drawn. */
      if (d->y > g_array_index (dp, DevPoint, b.lo).y)
        b.lo = i;
      if (d->y < g_array_index (dp, DevPoint, b.hi).y)
        b.hi = i;
      b.last = i;
    }
  bucket_flush (&b, dp);
  return b.out;
}

void
ks_plot_bar_spans_init (KsPlotBarSpans *s)
{
  s->column = NAN;
  s->n = 0;
}

/* Adds the bar from device y0 to y1 (either order) at device x; returns
 * TRUE with *out set when a span is complete and must be drawn now (a bar
 * in another column, or one that does not overlap the span). */
gboolean
ks_plot_bar_spans_add (KsPlotBarSpans *s,
                       double          x,
                       double          y0,
                       double          y1,
                       KsPlotBarSpan  *out)
{
  double top = MIN (y0, y1), bottom = MAX (y0, y1);
  double column = floor (x);

  if (s->n > 0 && column == s->column && top <= s->cur.bottom && bottom >= s->cur.top)
    {
      s->cur.top = MIN (s->cur.top, top);
      s->cur.bottom = MAX (s->cur.bottom, bottom);
      return FALSE;
    }
  *out = s->cur;
  /* Down the middle of its pixel column, which a 1-unit line then covers
   * whole, as the bars it stands for did together: off the middle it
   * would tint two columns lightly, a streak in a band of bars. */
  s->cur = (KsPlotBarSpan) { column + 0.5, top, bottom };
  s->column = column;
  return s->n++ > 0;
}

/* The last span, if any. */
gboolean
ks_plot_bar_spans_finish (KsPlotBarSpans *s,
                          KsPlotBarSpan  *out)
{
  *out = s->cur;
  return s->n > 0;
}
