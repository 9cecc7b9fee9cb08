/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-marks.c: what is drawn against the axes besides the series:
 * vertical and horizontal reference lines with their labels, shaded bands
 * (between two values, or between two curves) and annotations anchored to
 * data points. */
#define G_LOG_DOMAIN "ks-plot-marks"

#include "ks-plot-private.h"

/* ------------------------------------------------------------------------ */
/* Reference lines                                                          */

/* Device position of a vertical (x) or horizontal line; FALSE when it is
 * not in view. */
static gboolean
ref_line_pos (const Layout *lo,
              gboolean      vertical,
              double        value,
              double       *pos)
{
  const Axis *ax = vertical ? &lo->x : &lo->y;

  if (!usable (value, ax->log))
    return FALSE;
  *pos = vertical ? dev_x (lo, value) : dev_y (lo, value);
  return vertical ? *pos >= lo->left && *pos <= lo->right
                  : *pos >= lo->top && *pos <= lo->bottom;
}

void
ks_plot_draw_ref_lines (cairo_t           *cr,
                        KsPlot            *plot,
                        const Layout      *lo,
                        const KsPlotTheme *theme)
{
  static const double dash[] = { 5.0, 4.0 };

  /* Two device units on a pixel boundary: crisp on raster surfaces. */
  cairo_set_line_width (cr, 2.0);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  set_color (cr, &theme->marker, 1.0);
  cairo_new_path (cr);
  for (int vertical = 1; vertical >= 0; vertical--)
    {
      GArray *lines = vertical ? plot->vlines : plot->hlines;

      for (guint i = 0; i < lines->len; i++)
        {
          double pos;

          if (!ref_line_pos (lo, vertical, g_array_index (lines, RefLine, i).value, &pos))
            continue;
          pos = round (pos);
          cairo_move_to (cr, vertical ? pos : lo->left, vertical ? lo->top : pos);
          cairo_line_to (cr, vertical ? pos : lo->right, vertical ? lo->bottom : pos);
        }
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/* The first free box along the line: a vertical line's label at the top
 * beside it, else further down (below a legend or an earlier label); a
 * horizontal line's at the right end above it, else further left. */
static gboolean
ref_label_box (const Layout    *lo,
               gboolean         vertical,
               double           pos,
               double           w,
               double           h,
               const Rect      *area,
               KsPlotObstacles *taken,
               Rect            *out)
{
  if (vertical)
    for (double y = lo->top + 4; y + h <= lo->bottom - 2; y += 2)
      {
        Rect right = { pos + 4, y, w, h }, left = { pos - 4 - w, y, w, h };

        if (rect_contains (area, &right) && ks_plot_obstacles_free_of (taken, &right))
          return *out = right, TRUE;
        if (rect_contains (area, &left) && ks_plot_obstacles_free_of (taken, &left))
          return *out = left, TRUE;
      }
  else
    for (double x = lo->right - 4 - w; x >= lo->left + 2; x -= 2)
      {
        Rect above = { x, pos - 3 - h, w, h }, below = { x, pos + 3, w, h };

        if (rect_contains (area, &above) && ks_plot_obstacles_free_of (taken, &above))
          return *out = above, TRUE;
        if (rect_contains (area, &below) && ks_plot_obstacles_free_of (taken, &below))
          return *out = below, TRUE;
      }
  return FALSE;
}

void
ks_plot_draw_ref_labels (cairo_t           *cr,
                         KsPlot            *plot,
                         const TextStyle   *ts,
                         const Layout      *lo,
                         const Rect        *area,
                         KsPlotObstacles   *taken,
                         const KsPlotTheme *theme)
{
  for (int vertical = 1; vertical >= 0; vertical--)
    {
      GArray *lines = vertical ? plot->vlines : plot->hlines;

      for (guint i = 0; i < lines->len; i++)
        {
          RefLine *v = &g_array_index (lines, RefLine, i);
          g_autoptr(PangoLayout) text = NULL;
          double pos, w, h;
          Rect r;

          if (!nonempty (v->label) || !ref_line_pos (lo, vertical, v->value, &pos))
            continue;
          text = ks_plot_text_new (ts, v->label, SCALE_LEGEND, FALSE);
          ks_plot_text_size (text, &w, &h);
          if (!ref_label_box (lo, vertical, pos, w + 4, h + 2, area, taken, &r))
            continue;
          ks_plot_show_boxed_text (cr, text, &r, &theme->marker, theme);
          ks_plot_obstacles_add (taken, &r);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Bands                                                                    */

/* A value band's colour: the marker colour; a band between curves takes
 * its lower curve's. */
const KsPlotColor *
ks_plot_band_color (KsPlot            *plot,
                    guint              band,
                    const KsPlotTheme *theme)
{
  Band *b = &g_array_index (plot->bands, Band, band);

  if (b->kind == BAND_SERIES)
    return &theme->series[(guint) b->a % G_N_ELEMENTS (theme->series)];
  return &theme->marker;
}

/* Device x range of a series' drawable points. */
static gboolean
series_x_span (GArray *dp,
               double *x0,
               double *x1)
{
  *x0 = INFINITY;
  *x1 = -INFINITY;
  for (guint i = 0; i < dp->len; i++)
    {
      DevPoint *d = &g_array_index (dp, DevPoint, i);

      if (d->ok)
        {
          *x0 = MIN (*x0, d->x);
          *x1 = MAX (*x1, d->x);
        }
    }
  return *x0 <= *x1;
}

/* One side of the polygon between two curves: the points of dp within
 * [x0, x1], forwards or backwards.  Far-away points of a zoomed plot are
 * clamped into cairo's range; the clip does the rest. */
static void
band_side (cairo_t      *cr,
           const Layout *lo,
           GArray       *dp,
           double        x0,
           double        x1,
           gboolean      backwards)
{
  for (guint k = 0; k < dp->len; k++)
    {
      DevPoint *d = &g_array_index (dp, DevPoint, backwards ? dp->len - 1 - k : k);

      if (d->ok && d->x >= x0 && d->x <= x1)
        cairo_line_to (cr, CLAMP (d->x, lo->left - 1e4, lo->right + 1e4),
                       CLAMP (d->y, lo->top - 1e4, lo->bottom + 1e4));
    }
}

void
ks_plot_draw_bands (cairo_t           *cr,
                    KsPlot            *plot,
                    const Layout      *lo,
                    const KsPlotTheme *theme)
{
  for (guint i = 0; i < plot->bands->len; i++)
    {
      Band *b = &g_array_index (plot->bands, Band, i);

      cairo_new_path (cr);
      if (b->kind == BAND_SERIES)
        {
          GArray *lo_dp = g_ptr_array_index (lo->dps, (guint) b->a);
          GArray *hi_dp = g_ptr_array_index (lo->dps, (guint) b->b);
          double a0, a1, b0, b1;

          if (!series_x_span (lo_dp, &a0, &a1) || !series_x_span (hi_dp, &b0, &b1))
            continue;
          /* Over the x range both curves cover. */
          band_side (cr, lo, lo_dp, MAX (a0, b0), MIN (a1, b1), FALSE);
          band_side (cr, lo, hi_dp, MAX (a0, b0), MIN (a1, b1), TRUE);
          cairo_close_path (cr);
        }
      else
        {
          double fa, fb, p0, p1;

          if (!usable (b->a, lo->x.log) || !usable (b->b, lo->x.log))
            continue;
          /* Clamped to just outside the area, so cairo never sees a band
           * reaching millions of units past a zoomed view. */
          fa = CLAMP (axis_frac (&lo->x, b->a), -0.01, 1.01);
          fb = CLAMP (axis_frac (&lo->x, b->b), -0.01, 1.01);
          p0 = lo->left + fa * (lo->right - lo->left);
          p1 = lo->left + fb * (lo->right - lo->left);
          cairo_rectangle (cr, p0, lo->top, p1 - p0, lo->bottom - lo->top);
        }
      set_color (cr, ks_plot_band_color (plot, i, theme), BAND_ALPHA);
      cairo_fill (cr);
    }
}

/* ------------------------------------------------------------------------ */
/* Annotations                                                              */

#define ANNOTATION_R 3.0

void
ks_plot_draw_annotations (cairo_t           *cr,
                          KsPlot            *plot,
                          const TextStyle   *ts,
                          const Layout      *lo,
                          const Rect        *area,
                          KsPlotObstacles   *taken,
                          const KsPlotTheme *theme)
{
  for (guint i = 0; i < plot->annotations->len; i++)
    {
      Annotation *a = &g_array_index (plot->annotations, Annotation, i);
      g_autoptr(PangoLayout) text = NULL;
      double x, y, w, h;
      Rect box;

      if (!usable (a->x, lo->x.log) || !usable (a->y, lo->y.log))
        continue;
      x = dev_x (lo, a->x);
      y = dev_y (lo, a->y);
      if (x < area->x || x > area->x + area->w || y < area->y || y > area->y + area->h)
        continue;

      cairo_new_path (cr);
      cairo_arc (cr, x, y, ANNOTATION_R, 0, 2 * G_PI);
      set_color (cr, &theme->foreground, 1.0);
      cairo_fill (cr);

      text = ks_plot_text_new (ts, a->text, SCALE_POINT, FALSE);
      ks_plot_text_size (text, &w, &h);
      /* An annotation was asked for by name, so it is drawn even where it
       * must cover some data: where it covers the least. */
      if (!ks_plot_place_label (x, y, ANNOTATION_R + 2, w + 4, h + 2, area, taken,
                                lo->data_index, TRUE, &box))
        {
          /* Crowded all round: above the point, kept inside the area. */
          box = (Rect) { x - (w + 4) / 2, y - ANNOTATION_R - 4 - (h + 2), w + 4, h + 2 };
          box.x = CLAMP (box.x, area->x, MAX (area->x, area->x + area->w - box.w));
          box.y = CLAMP (box.y, area->y, MAX (area->y, area->y + area->h - box.h));
        }
      ks_plot_show_boxed_text (cr, text, &box, &theme->foreground, theme);
      ks_plot_obstacles_add (taken, &box);
    }
}
