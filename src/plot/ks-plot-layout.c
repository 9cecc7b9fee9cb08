/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-layout.c: where everything goes: margins, ranges, ticks, data
 * positions and the legend.  Render, hit-testing and device_to_data all use
 * the same layout, so a click lands on the point that was drawn under it. */
#define G_LOG_DOMAIN "ks-plot-layout"

#include "ks-plot-private.h"

#include <string.h>

void
ks_plot_layout_clear (Layout *lo)
{
  g_clear_pointer (&lo->xticks, g_array_unref);
  g_clear_pointer (&lo->yticks, g_array_unref);
  g_clear_pointer (&lo->y2ticks, g_array_unref);
  g_clear_pointer (&lo->cbticks, g_array_unref);
  g_clear_pointer (&lo->dps, g_ptr_array_unref);
  g_clear_pointer (&lo->data_index, ks_plot_data_index_free);
  ks_plot_legend_clear (&lo->lg);
}

void
ks_plot_dps_foreach (GPtrArray    *dps,
                     KsPlotDpFunc  func,
                     gpointer      data)
{
  for (guint s = 0; s < dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          DevPoint *e = i + 1 < dp->len ? &g_array_index (dp, DevPoint, i + 1) : NULL;

          if (d->ok)
            func (d, e != NULL && e->ok ? e : NULL, data);
        }
    }
}



/* Categories sit at 0..n-1, labelled with their names; no grid lines,
 * which would run through the bars. */
static GArray *
category_ticks (KsPlot *plot)
{
  GArray *ticks = ks_plot_ticks_new ();

  for (guint i = 0; plot->categories[i] != NULL; i++)
    ks_plot_ticks_add (ticks, i, plot->categories[i], FALSE);
  return ticks;
}

static gboolean
has_bars (KsPlot   *plot,
          gboolean  right)
{
  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      if (ser->kind == KS_PLOT_SERIES_BARS && ser->y2 == right && ser->points->len > 0)
        return TRUE;
    }
  return FALSE;
}

static void
axis_range (KsPlot      *plot,
            Layout      *lo,
            char         which,
            KsPlotScale  scale,
            double       fixed_min,
            double       fixed_max,
            Axis        *ax)
{
  double mn, mx;
  gboolean found = ks_plot_data_extent (plot, lo, which, &mn, &mx);

  ax->log = scale;
  ks_plot_view_range (found, mn, mx, fixed_min, fixed_max, scale, &ax->f0, &ax->f1);

  /* Bars stand on zero: no padding below it when nothing is negative. */
  if (which != 'x' && found && mn == 0 && ax->f0 < 0 && scale == KS_PLOT_SCALE_LINEAR
      && !usable (fixed_min, scale) && has_bars (plot, which == '2'))
    ax->f0 = 0;
}

/* x and y at the same scale: the axis with room to spare gets a wider
 * range, centred on what it showed. */
static void
equal_aspect (Layout *lo)
{
  double w = lo->right - lo->left, h = lo->bottom - lo->top;
  double sx = (lo->x.f1 - lo->x.f0) / w, sy = (lo->y.f1 - lo->y.f0) / h;
  Axis *ax = sx > sy ? &lo->y : &lo->x;
  double want = sx > sy ? sx * h : sy * w;
  double extra = want - (ax->f1 - ax->f0);

  ax->f0 -= extra / 2;
  ax->f1 += extra / 2;
}

/* The width the right margin needs beyond the padding: the right axis's
 * ticks and label, or a mesh's colour bar with its ticks and label. */
static double
right_extra (KsPlot          *plot,
             const TextStyle *ts,
             Layout          *lo)
{
  double extra = 0, tick_w = 0, label_h = 0;
  double length = MAX (lo->bottom - lo->top, 1.0);

  if (lo->has_y2)
    {
      lo->y2ticks = ks_plot_ticks_choose (ts, &lo->y2, length, FALSE, &tick_w, NULL);
      if (nonempty (plot->y2_label))
        ks_plot_text_measure (ts, plot->y2_label, SCALE_AXIS, FALSE, NULL, &label_h);
      extra = lo->tick_len + 4 + tick_w + (label_h > 0 ? lo->gap + label_h : 0);
    }
  if (plot->mesh != NULL && ks_plot_mesh_value_range (plot->mesh, &lo->cb.f0, &lo->cb.f1))
    {
      const char *label = ks_plot_mesh_get_label (plot->mesh);

      lo->cb.log = KS_PLOT_SCALE_LINEAR;
      lo->cbticks = ks_plot_ticks_choose (ts, &lo->cb, length, FALSE, &tick_w, NULL);
      label_h = 0;
      if (nonempty (label))
        ks_plot_text_measure (ts, label, SCALE_AXIS, FALSE, NULL, &label_h);
      lo->colorbar.w = round (lo->em * 1.2);
      lo->colorbar.x = lo->em + extra;   /* from the plot area's right edge, for now */
      extra += lo->em + lo->colorbar.w + lo->tick_len + 4 + tick_w
               + (label_h > 0 ? lo->gap + label_h : 0);
    }
  return extra;
}

/* The view ranges of every axis: categories at 0..n-1 with half a slot
 * either side, the data's extent padded, or what the user fixed; the top
 * of y raised to y_top (f-space) when the legend needs room. */
static void
layout_ranges (KsPlot *plot,
               Layout *lo,
               double  y_top)
{
  if (plot->categories != NULL)
    {
      double n = g_strv_length (plot->categories);

      lo->n_categories = (guint) n;
      lo->x.log = KS_PLOT_SCALE_LINEAR;
      ks_plot_view_range (n > 0, -0.5, MAX (n, 1.0) - 0.5, plot->x_min, plot->x_max,
                          KS_PLOT_SCALE_LINEAR, &lo->x.f0, &lo->x.f1);
      /* No padding beyond the half-slot at each end. */
      if (!usable (plot->x_min, KS_PLOT_SCALE_LINEAR) && n > 0)
        lo->x.f0 = -0.5;
      if (!usable (plot->x_max, KS_PLOT_SCALE_LINEAR) && n > 0)
        lo->x.f1 = n - 0.5;
    }
  else
    axis_range (plot, lo, 'x', plot->x_scale, plot->x_min, plot->x_max, &lo->x);
  lo->y.log = ks_plot_bars_y_scale (plot);
  axis_range (plot, lo, 'y', lo->y.log, plot->y_min, plot->y_max, &lo->y);
  if (isfinite (y_top) && y_top > lo->y.f0)
    lo->y.f1 = y_top;
  for (guint s = 0; s < plot->series->len && !lo->has_y2; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      lo->has_y2 = ser->y2 && ser->points->len > 0;
    }
  if (lo->has_y2)
    axis_range (plot, lo, '2', plot->y2_scale, plot->y2_min, plot->y2_max, &lo->y2);
}

/* Places the right edge and chooses the x ticks.  The outermost x labels
 * hang over the plot area by half their width; the margins widen until
 * they stay on the canvas.  The ticks depend on the width, so this takes a
 * pass or two. */
static void
fit_x_ticks (KsPlot          *plot,
             const TextStyle *ts,
             double           width,
             double           right_margin,
             Layout          *lo)
{
  for (int pass = 0; pass < 4; pass++)
    {
      double length, over_l = 0, over_r = 0;
      gboolean changed = FALSE;

      lo->right = floor (width - right_margin);
      if (lo->right < lo->left + 1)
        lo->right = lo->left + 1;
      length = lo->right - lo->left;

      if (plot->equal_aspect && pass == 0)
        {
          equal_aspect (lo);
          g_clear_pointer (&lo->yticks, g_array_unref);
          lo->yticks = ks_plot_ticks_choose (ts, &lo->y, lo->bottom - lo->top, FALSE, NULL, NULL);
        }

      g_clear_pointer (&lo->xticks, g_array_unref);
      lo->xticks = plot->categories != NULL ? category_ticks (plot)
                   : ks_plot_ticks_choose (ts, &lo->x, length, TRUE, NULL, NULL);

      for (guint i = 0; i < lo->xticks->len; i++)
        {
          Tick *t = &g_array_index (lo->xticks, Tick, i);
          double w, pos;

          if (t->label == NULL)
            continue;
          ks_plot_text_measure (ts, t->label, SCALE_TICK, FALSE, &w, NULL);
          if (plot->categories != NULL)
            w = MIN (w, length / (lo->x.f1 - lo->x.f0));
          pos = lo->left + axis_frac (&lo->x, t->value) * length;
          over_l = MAX (over_l, lo->pad - (pos - w / 2));
          over_r = MAX (over_r, pos + w / 2 - (width - lo->pad));
        }
      if (over_l > 0.5)
        {
          lo->left += ceil (over_l);
          changed = TRUE;
        }
      if (over_r > 0.5)
        {
          right_margin += ceil (over_r);
          changed = TRUE;
        }
      if (!changed)
        break;
    }
}

/* The heights of the plot's texts and the caption's width; 0 for a text
 * it does not have. */
typedef struct {
  double title_h, xlabel_h, ylabel_h, caption_w, caption_h;
} TextSizes;

static void
measure_texts (KsPlot          *plot,
               const TextStyle *ts,
               Layout          *lo,
               TextSizes       *sz)
{
  ks_plot_text_measure (ts, "0123456789.e+-", SCALE_TICK, FALSE, NULL, &lo->tick_h);
  if (nonempty (plot->title))
    {
      g_autoptr(PangoLayout) title = ks_plot_text_new (ts, plot->title, SCALE_TITLE, TRUE);

      ks_plot_text_wrap (title, lo->title_w, 2);
      ks_plot_text_size (title, NULL, &sz->title_h);
    }
  if (nonempty (plot->x_label))
    ks_plot_text_measure (ts, plot->x_label, SCALE_AXIS, FALSE, NULL, &sz->xlabel_h);
  if (nonempty (plot->y_label))
    ks_plot_text_measure (ts, plot->y_label, SCALE_AXIS, FALSE, NULL, &sz->ylabel_h);
  if (nonempty (plot->caption))
    ks_plot_text_measure (ts, plot->caption, SCALE_CAPTION, FALSE, &sz->caption_w, &sz->caption_h);
}

/* A diagram, not a chart: no axes, the whole width. */
static void
layout_blocks (double  width,
               double  height,
               double  caption_h,
               Layout *lo)
{
  lo->left = lo->pad;
  lo->right = MAX (floor (width - lo->pad), lo->left + 1);
  lo->bottom = MAX (floor (height - lo->pad - (caption_h > 0 ? caption_h + lo->gap : 0)),
                    lo->top + 1);
  lo->xticks = ks_plot_ticks_new ();
  lo->yticks = ks_plot_ticks_new ();
  lo->caption_y = height - lo->pad - caption_h;
}

/* A chart: the axes' ticks and labels around the data area, the caption
 * below the x label or beside it (lo->caption_beside). */
static void
layout_chart (KsPlot          *plot,
              const TextStyle *ts,
              double           width,
              double           height,
              const TextSizes *sz,
              Layout          *lo)
{
  double bottom_margin, ytick_w = 0, right_margin;

  /* Category names may take two lines ("Thomas, / interleaved"). */
  bottom_margin = lo->pad + lo->tick_len + 3 + lo->tick_h * (plot->categories ? 2 : 1);
  if (sz->xlabel_h > 0)
    bottom_margin += lo->gap + sz->xlabel_h;
  if (sz->caption_h > 0 && !lo->caption_beside)
    bottom_margin += lo->gap * 0.5 + sz->caption_h;
  lo->bottom = floor (height - bottom_margin);
  if (lo->bottom < lo->top + 1)
    lo->bottom = lo->top + 1;

  lo->yticks = ks_plot_ticks_choose (ts, &lo->y, lo->bottom - lo->top, FALSE, &ytick_w, NULL);

  lo->left = ceil (lo->pad + (sz->ylabel_h > 0 ? sz->ylabel_h + lo->gap : 0)
                   + ytick_w + 4 + lo->tick_len);
  right_margin = lo->pad + lo->em;
  {
    double extra = right_extra (plot, ts, lo);

    if (extra > 0)
      right_margin = lo->pad + extra;
  }

  fit_x_ticks (plot, ts, width, right_margin, lo);

  if (lo->colorbar.w > 0)
    {
      lo->colorbar.x = lo->right + lo->colorbar.x;
      lo->colorbar.y = lo->top;
      lo->colorbar.h = lo->bottom - lo->top;
    }

  lo->xlabel_y = lo->bottom + 1 + lo->tick_len + 3 + lo->tick_h * (plot->categories ? 2 : 1) + lo->gap;
  if (lo->caption_beside)
    lo->caption_y = lo->xlabel_y + sz->xlabel_h - sz->caption_h;
  else
    lo->caption_y = height - lo->pad - sz->caption_h;
}

static void
layout_compute_once (KsPlot          *plot,
                     const TextStyle *ts,
                     double           width,
                     double           height,
                     gboolean         caption_beside,
                     double           y_top,
                     Layout          *lo)
{
  TextSizes sz = { 0 };

  lo->width = width;
  lo->height = height;
  lo->em = ts->size * TEXT_DPI / 72.0;
  lo->pad = round (lo->em * 0.8);
  lo->gap = round (lo->em * 0.5);
  lo->title_w = width - 2 * lo->pad;
  lo->tick_len = 5.0;
  lo->has_data = ks_plot_model_has_points (plot);
  lo->blocks = plot->blocks != NULL;

  layout_ranges (plot, lo, y_top);
  measure_texts (plot, ts, lo, &sz);

  /* Nothing to sit beside without an x label. */
  if (sz.xlabel_h == 0 || lo->blocks)
    caption_beside = FALSE;
  lo->caption_beside = caption_beside;

  /* Top: title, then room for half of the topmost y tick label. */
  lo->title_y = lo->pad;
  lo->top = ceil (lo->pad + (sz.title_h > 0 ? sz.title_h + lo->gap : 0) + lo->tick_h / 2);
  lo->caption_x = width - lo->pad - sz.caption_w;

  if (lo->blocks)
    layout_blocks (width, height, sz.caption_h, lo);
  else
    layout_chart (plot, ts, width, height, &sz, lo);
}

static int
devpoint_cmp_x (const void *a,
                const void *b)
{
  const DevPoint *p = a, *q = b;

  if (p->ok != q->ok)
    return p->ok ? -1 : 1;
  if (p->x < q->x)
    return -1;
  if (p->x > q->x)
    return 1;
  return p->index < q->index ? -1 : p->index > q->index;
}

/* One array per series, sorted by x so lines join points in x order;
 * unusable points (NaN, or <= 0 on a log axis) go last with ok = FALSE. */
static GPtrArray *
dev_points_compute (KsPlot       *plot,
                    const Layout *lo)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      const Axis *ay = series_axis (lo, ser);
      GArray *dp = g_array_sized_new (FALSE, FALSE, sizeof (DevPoint), ser->points->len);

      for (guint i = 0; i < ser->points->len; i++)
        {
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, i);
          DevPoint d = { 0, 0, i, FALSE };

          if (!lo->blocks && usable (p->x, lo->x.log) && usable (p->y, ay->log))
            {
              d.x = dev_x (lo, p->x) + ks_plot_bar_offset (plot, lo, s);
              d.y = dev_y_on (lo, ay, p->y);
              d.ok = isfinite (d.x) && isfinite (d.y);
            }
          g_array_append_val (dp, d);
        }
      /* qsort's array must not be NULL, even empty: an empty GArray's is. */
      if (dp->len > 1)
        qsort (dp->data, dp->len, sizeof (DevPoint), devpoint_cmp_x);
      g_ptr_array_add (all, dp);
    }

  return all;
}


typedef struct {
  double x0, x1, top;
} TopBetween;

static void
top_between_visit (const DevPoint *d,
                   const DevPoint *e,
                   gpointer        data)
{
  TopBetween *tb = data;

  if (d->x >= tb->x0 && d->x <= tb->x1)
    tb->top = MIN (tb->top, d->y);
  /* A segment crossing the span without a point inside it. */
  if (e != NULL && e->x > d->x && d->x < tb->x1 && e->x > tb->x0)
    {
      double xa = MAX (tb->x0, d->x), xb = MIN (tb->x1, e->x);
      double ya = d->y + (e->y - d->y) * (xa - d->x) / (e->x - d->x);
      double yb = d->y + (e->y - d->y) * (xb - d->x) / (e->x - d->x);
      tb->top = MIN (tb->top, MIN (ya, yb));
    }
}

/* Topmost device y of the data within [x0, x1], lines included. */
static double
data_top_between (GPtrArray *dps,
                  double     x0,
                  double     x1)
{
  TopBetween tb = { x0, x1, INFINITY };

  ks_plot_dps_foreach (dps, top_between_visit, &tb);
  return tb.top;
}

/* When the legend would hide data in both corners, raising the top of an
 * automatic y range makes room for it.  Returns the new top in f-space, or
 * NAN when no change is needed or it would squash the data too much. */
static double
legend_headroom (const Layout *lo)
{
  double h = lo->bottom - lo->top;
  double span = lo->y.f1 - lo->y.f0;
  double best = INFINITY;

  if (!lo->has_legend || lo->lg.covered[0] == 0 || lo->lg.covered[1] == 0)
    return NAN;

  for (int c = 0; c < 2; c++)
    {
      const Rect *r = &lo->lg.corner[c];
      double top = data_top_between (lo->dps, r->x - 4, r->x + r->w + 4);
      double target = r->y + r->h + 6;
      double fd;

      if (!isfinite (top) || top >= target)
        return NAN;   /* should not happen with covered > 0; be safe */
      if (lo->bottom - target < h * 0.4)
        continue;
      fd = lo->y.f0 + (lo->bottom - top) / h * span;
      best = MIN (best, lo->y.f0 + (fd - lo->y.f0) * h / (lo->bottom - target));
    }

  /* Squeezing the data into less than ~60% of the height costs more than
   * a partly hidden curve. */
  if (!isfinite (best) || best - lo->y.f0 > span * 1.7)
    return NAN;
  return best;
}

static void
layout_compute_frame (KsPlot          *plot,
                      const TextStyle *ts,
                      double           width,
                      double           height,
                      double           y_top,
                      Layout          *lo)
{
  double xlabel_w = 0, caption_w = 0;

  memset (lo, 0, sizeof *lo);
  layout_compute_once (plot, ts, width, height, TRUE, y_top, lo);
  if (!lo->caption_beside)
    return;

  /* The caption shares the x-label row only if the two keep apart. */
  ks_plot_text_measure (ts, plot->caption, SCALE_CAPTION, FALSE, &caption_w, NULL);
  ks_plot_text_measure (ts, plot->x_label, SCALE_AXIS, FALSE, &xlabel_w, NULL);
  if (nonempty (plot->caption)
      && (lo->left + lo->right) / 2 + xlabel_w / 2 + 2 * lo->em > lo->caption_x)
    {
      ks_plot_layout_clear (lo);
      memset (lo, 0, sizeof *lo);
      layout_compute_once (plot, ts, width, height, FALSE, y_top, lo);
    }
}

/* What the legend must keep clear of: the drawn points and lines, and each
 * error bar as a segment from its low end to its high one (a legend over
 * a whisker hides how far a value spread).  Past 4096 points the bars are
 * left out: they are then a blur around the line itself. */
static GPtrArray *
data_with_whiskers (KsPlot       *plot,
                    const Layout *lo)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint n = 0;

  for (guint s = 0; s < lo->dps->len; s++)
    {
      g_ptr_array_add (all, g_array_ref (g_ptr_array_index (lo->dps, s)));
      n += ((GArray *) g_ptr_array_index (lo->dps, s))->len;
    }
  for (guint s = 0; plot->error_bars && n <= 4096 && s < lo->dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (lo->dps, s);
      const Series *ser = g_ptr_array_index (plot->series, s);
      const Axis *ay = series_axis (lo, ser);

      for (guint i = 0; i < dp->len; i++)
        {
          const DevPoint *d = &g_array_index (dp, DevPoint, i);
          const KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);
          DevPoint ends[2] = { *d, *d };
          GArray *whisker;

          if (!d->ok || !usable (p->y_lo, ay->log) || !usable (p->y_hi, ay->log))
            continue;
          ends[0].y = dev_y_on (lo, ay, p->y_lo);
          ends[1].y = dev_y_on (lo, ay, p->y_hi);
          whisker = g_array_sized_new (FALSE, FALSE, sizeof (DevPoint), 2);
          g_array_append_vals (whisker, ends, 2);
          g_ptr_array_add (all, whisker);
        }
    }
  return all;
}

/* One layout with the legend at place: an outside legend takes its room
 * off the canvas before the frame is laid out. */
static void
layout_compute_pass (KsPlot          *plot,
                     const TextStyle *ts,
                     double           width,
                     double           height,
                     double           y_top,
                     LegendPlace      place,
                     Layout          *lo)
{
  double rw = 0, rh = 0;

  if (place != LEGEND_INSIDE)
    place = ks_plot_legend_reserve (plot, ts, width, height, &rw, &rh);
  layout_compute_frame (plot, ts, width - rw, height - rh, y_top, lo);
  lo->width = width;
  lo->height = height;
  ks_plot_bars_prepare (plot, lo);
  lo->dps = dev_points_compute (plot, lo);
  {
    Rect area = { lo->left, lo->top, lo->right - lo->left, lo->bottom - lo->top };
    g_autoptr(GPtrArray) data = data_with_whiskers (plot, lo);

    lo->data_index = ks_plot_data_index_new (data, &area);
  }
  lo->has_legend = ks_plot_legend_build (plot, ts, lo, place, &lo->lg);
}

/* Margins, ranges, ticks, data positions and the legend: everything that
 * render draws and hit-testing must agree with.  lo is zeroed.  The legend
 * stays in a corner of the plot area while it is short and hides no data
 * there, after raising the top of the y range if that is what it takes;
 * else it goes outside, where a projector's audience can read both. */
void
ks_plot_layout_compute (KsPlot          *plot,
                        const TextStyle *ts,
                        double           width,
                        double           height,
                        Layout          *lo)
{
  LegendPlace place = LEGEND_INSIDE;
  double y_top = NAN;

  for (int pass = 0; pass < 3; pass++)
    {
      gboolean short_legend;

      layout_compute_pass (plot, ts, width, height, y_top, place, lo);
      if (!lo->has_legend || place != LEGEND_INSIDE)
        break;
      short_legend = lo->lg.entries->len <= LEGEND_MAX_INSIDE;
      if (short_legend && MIN (lo->lg.covered[0], lo->lg.covered[1]) == 0)
        break;
      if (short_legend && isnan (y_top) && !usable (plot->y_max, plot->y_scale))
        y_top = legend_headroom (lo);
      if (!short_legend || isnan (y_top) || pass > 0)
        {
          place = LEGEND_RIGHT;   /* or below: ks_plot_legend_reserve chooses */
          y_top = NAN;
        }
      ks_plot_layout_clear (lo);
    }
}
