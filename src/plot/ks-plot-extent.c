/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-extent.c: what the data spans along each axis, which the
 * automatic view ranges are made from: points with their error bars, bars
 * down to zero, reference lines, bands, annotations and a mesh. */
#define G_LOG_DOMAIN "ks-plot-extent"

#include "ks-plot-private.h"

typedef struct {
  KsPlotScale scale;
  double      mn, mx;
} Span;

static void
span_add (Span   *sp,
          double  v)
{
  if (usable (v, sp->scale))
    {
      sp->mn = MIN (sp->mn, v);
      sp->mx = MAX (sp->mx, v);
    }
}

static gboolean
in_x_view (const Layout *lo,
           double        x)
{
  double fx;

  if (!usable (x, lo->x.log))
    return FALSE;
  fx = fwd (x, lo->x.log);
  return fx >= lo->x.f0 && fx <= lo->x.f1;
}

/* Overlays (recorded runs) follow the user's data unless told to fit. */
static gboolean
skip_overlay (KsPlot       *plot,
              const Series *ser)
{
  return ser->overlay && !plot->fit_overlays && plot->categories == NULL
         && ks_plot_has_overlays_beside_data (plot);
}

static void
extent_x (KsPlot *plot,
          Span   *sp)
{
  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      if (skip_overlay (plot, ser))
        continue;
      for (guint i = 0; i < ser->points->len; i++)
        span_add (sp, g_array_index (ser->points, KsPlotPoint, i).x);
    }

  /* Keep marker lines, bands and annotations in view even when they lie
   * beyond the data. */
  for (guint i = 0; i < plot->vlines->len; i++)
    span_add (sp, g_array_index (plot->vlines, RefLine, i).value);
  for (guint i = 0; i < plot->bands->len; i++)
    {
      Band *b = &g_array_index (plot->bands, Band, i);

      if (b->kind == BAND_X)
        {
          span_add (sp, b->a);
          span_add (sp, b->b);
        }
    }
  for (guint i = 0; i < plot->annotations->len; i++)
    span_add (sp, g_array_index (plot->annotations, Annotation, i).x);

  if (plot->mesh != NULL)
    {
      double x0, x1, y0, y1;

      if (ks_plot_mesh_bounds (plot->mesh, &x0, &x1, &y0, &y1))
        {
          span_add (sp, x0);
          span_add (sp, x1);
        }
    }
}

/* With the x range zoomed, y fits what is in view. */
static void
extent_y (KsPlot       *plot,
          const Layout *lo,
          gboolean      right,
          Span         *sp)
{
  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      if (ser->y2 != right || skip_overlay (plot, ser))
        continue;
      for (guint i = 0; i < ser->points->len; i++)
        {
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, i);

          if (!in_x_view (lo, p->x))
            continue;
          span_add (sp, p->y);
          if (plot->error_bars)
            {
              span_add (sp, p->y_lo);
              span_add (sp, p->y_hi);
            }
          /* A bar starts at zero, which must show. */
          if (ser->kind == KS_PLOT_SERIES_BARS && usable (p->y, sp->scale))
            span_add (sp, 0.0);
        }
    }
  if (right)
    return;

  for (guint i = 0; i < plot->hlines->len; i++)
    span_add (sp, g_array_index (plot->hlines, RefLine, i).value);
  for (guint i = 0; i < plot->annotations->len; i++)
    {
      Annotation *a = &g_array_index (plot->annotations, Annotation, i);

      if (in_x_view (lo, a->x))
        span_add (sp, a->y);
    }

  if (plot->mesh != NULL)
    {
      double x0, x1, y0, y1;

      if (ks_plot_mesh_bounds (plot->mesh, &x0, &x1, &y0, &y1))
        {
          span_add (sp, y0);
          span_add (sp, y1);
        }
    }
}

gboolean
ks_plot_data_extent (KsPlot       *plot,
                     const Layout *lo,
                     char          which,
                     double       *out_lo,
                     double       *out_hi)
{
  Span sp = { KS_PLOT_SCALE_LINEAR, INFINITY, -INFINITY };

  switch (which)
    {
    case 'x':
      sp.scale = plot->x_scale;
      extent_x (plot, &sp);
      break;
    case 'y':
      sp.scale = lo->y.log;   /* the model's, or log for bars: layout_ranges */
      extent_y (plot, lo, FALSE, &sp);
      break;
    case '2':
      sp.scale = plot->y2_scale;
      extent_y (plot, lo, TRUE, &sp);
      break;
    default:
      g_assert_not_reached ();
    }

  *out_lo = sp.mn;
  *out_hi = sp.mx;
  return sp.mn <= sp.mx;
}
