/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-cache.c: the most recent layout of a plot, kept while nothing
 * changes.  Laying out measures text and places every point (and for a
 * large curve indexes its samples), so a hover, a key press, the bisection
 * the GUI does for a zoom or a new frame of a mesh with a fixed colour range
 * reuse it; any change to the model bumps its generation and the next
 * caller lays out again.  Layouts are reference-counted and immutable once
 * made, so a caller may keep one while the plot lays out anew. */
#define G_LOG_DOMAIN "ks-plot-cache"

#include "ks-plot-private.h"

static guint n_computed;

guint
ks_plot_layout_n_computed (void)
{
  return (guint) g_atomic_int_get (&n_computed);
}

static void
layout_free_contents (gpointer data)
{
  Layout *lo = data;

  ks_plot_layout_clear (lo);
  g_free (lo->family);
}

void
ks_plot_layout_unref (Layout *lo)
{
  g_atomic_rc_box_release_full (lo, layout_free_contents);
}

static gboolean
layout_matches (const Layout *lo,
                gint          generation,
                const char   *family,
                double        size,
                double        width,
                double        height)
{
  return lo->generation == generation && lo->width == width && lo->height == height
         && lo->font_size == size && g_strcmp0 (lo->family, family) == 0;
}

static Layout *
layout_new (KsPlot          *plot,
            const TextStyle *ts,
            gint             generation,
            double           width,
            double           height)
{
  Layout *lo = g_atomic_rc_box_new0 (Layout);

  ks_plot_layout_compute (plot, ts, width, height, lo);
  lo->generation = generation;
  lo->family = g_strdup (ts->family);
  lo->font_size = ts->size;
  g_atomic_int_inc (&n_computed);
  return lo;
}

/* Text measured on a scratch surface: with unhinted metrics it measures as
 * on the screen (see ks_plot_text_context_new). */
static Layout *
layout_new_detached (KsPlot     *plot,
                     const char *family,
                     double      size,
                     gint        generation,
                     double      width,
                     double      height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  TextStyle ts = { ks_plot_text_context_new (cr), family, size };
  Layout *lo = layout_new (plot, &ts, generation, width, height);

  g_object_unref (ts.ctx);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return lo;
}

Layout *
ks_plot_layout_get (KsPlot          *plot,
                    const TextStyle *ts,
                    double           width,
                    double           height)
{
  gint generation = g_atomic_int_get (&plot->generation);
  g_autofree char *family = NULL;
  double size;
  Layout *lo = NULL;

  if (ts != NULL)
    {
      family = g_strdup (ts->family);
      size = ts->size;
    }
  else
    {
      g_mutex_lock (&plot->font_lock);
      family = g_strdup (plot->font_family != NULL ? plot->font_family : "Sans");
      size = plot->font_size > 0 ? plot->font_size : 10.0;
      g_mutex_unlock (&plot->font_lock);
    }

  g_mutex_lock (&plot->cache_lock);
  if (plot->cache != NULL
      && layout_matches (plot->cache, generation, family, size, width, height))
    lo = g_atomic_rc_box_acquire (plot->cache);
  g_mutex_unlock (&plot->cache_lock);
  if (lo != NULL)
    return lo;

  /* Computed outside the lock: another thread may do the same meanwhile,
   * which costs time, never correctness. */
  lo = ts != NULL ? layout_new (plot, ts, generation, width, height)
                  : layout_new_detached (plot, family, size, generation, width, height);

  g_mutex_lock (&plot->cache_lock);
  g_clear_pointer (&plot->cache, ks_plot_layout_unref);
  plot->cache = g_atomic_rc_box_acquire (lo);
  g_mutex_unlock (&plot->cache_lock);
  return lo;
}
