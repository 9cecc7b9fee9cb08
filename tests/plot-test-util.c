/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plot-test-util.c: rendering a plot to pixels and reading them back, and
 * finding the plot area through the public API alone (see
 * plot-test-util.h). */
#include "plot-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

cairo_surface_t *
render_image (KsPlot            *plot,
              int                width,
              int                height,
              const KsPlotTheme *theme)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  ks_plot_render (plot, cr, width, height, theme);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* 0..255 channels of an opaque pixel (the plot paints its background, so
 * premultiplication does not matter). */
void
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y,
          int             *r,
          int             *g,
          int             *b)
{
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 v = *(guint32 *) (data + y * stride + 4 * x);

  *r = (v >> 16) & 0xff;
  *g = (v >> 8) & 0xff;
  *b = v & 0xff;
}

gboolean
pixel_is (cairo_surface_t   *surface,
          int                x,
          int                y,
          const KsPlotColor *c,
          int                tol)
{
  int r, g, b;

  if (x < 0 || y < 0 || x >= cairo_image_surface_get_width (surface)
      || y >= cairo_image_surface_get_height (surface))
    return FALSE;
  pixel_at (surface, x, y, &r, &g, &b);
  return abs (r - (int) lround (c->r * 255)) <= tol
      && abs (g - (int) lround (c->g * 255)) <= tol
      && abs (b - (int) lround (c->b * 255)) <= tol;
}

/* Is there a pixel of colour c within radius pixels of (x, y)? */
gboolean
color_near (cairo_surface_t   *surface,
            double             x,
            double             y,
            int                radius,
            const KsPlotColor *c,
            int                tol)
{
  for (int dy = -radius; dy <= radius; dy++)
    for (int dx = -radius; dx <= radius; dx++)
      if (pixel_is (surface, (int) floor (x) + dx, (int) floor (y) + dy, c, tol))
        return TRUE;
  return FALSE;
}

guint
count_color (cairo_surface_t   *surface,
             const KsPlotColor *c,
             int                tol)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (pixel_is (surface, x, y, c, tol))
        n++;
  return n;
}

guint
count_not_color (cairo_surface_t   *surface,
                 const KsPlotColor *c)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);

  return (guint) (w * h) - count_color (surface, c, 0);
}

/* grid over background, as the renderer blends it */
KsPlotColor
blend (const KsPlotColor *top,
       const KsPlotColor *under)
{
  KsPlotColor c = {
    top->r * top->a + under->r * (1 - top->a),
    top->g * top->a + under->g * (1 - top->a),
    top->b * top->a + under->b * (1 - top->a),
    1.0,
  };
  return c;
}

static gboolean
inside (KsPlot *plot,
        int     width,
        int     height,
        double  px,
        double  py)
{
  return ks_plot_device_to_data (plot, width, height, px, py, NULL, NULL);
}

/* Where the inside begins along a line from an outside point `out` towards
 * an inside point `in` (both integers on one row or column). */
static int
edge (KsPlot   *plot,
      int       width,
      int       height,
      gboolean  vertical,
      int       fixed,
      int       out,
      int       in)
{
  while (abs (in - out) > 1)
    {
      int mid = out + (in - out) / 2;
      gboolean m = vertical ? inside (plot, width, height, fixed, mid)
                            : inside (plot, width, height, mid, fixed);
      if (m)
        in = mid;
      else
        out = mid;
    }
  return in;
}

/* The plot area, found through device_to_data (TRUE exactly inside); the
 * centre of the canvas is inside, and the inside is one rectangle. */
Area
plot_area (KsPlot *plot,
           int     width,
           int     height)
{
  int cx = width / 2, cy = height / 2;
  Area a;

  g_assert_true (inside (plot, width, height, cx, cy));
  g_assert_false (inside (plot, width, height, 0, cy));
  g_assert_false (inside (plot, width, height, cx, 0));
  a.left = edge (plot, width, height, FALSE, cy, 0, cx);
  a.right = edge (plot, width, height, FALSE, cy, width, cx);
  a.top = edge (plot, width, height, TRUE, cx, 0, cy);
  a.bottom = edge (plot, width, height, TRUE, cx, height, cy);

  /* Edges really are edges, the corners are inside, and margins exist. */
  g_assert_false (inside (plot, width, height, a.left - 1, cy));
  g_assert_false (inside (plot, width, height, a.right + 1, cy));
  g_assert_false (inside (plot, width, height, cx, a.top - 1));
  g_assert_false (inside (plot, width, height, cx, a.bottom + 1));
  g_assert_true (inside (plot, width, height, a.left, a.top));
  g_assert_true (inside (plot, width, height, a.right, a.bottom));
  g_assert_cmpint (a.left, >, 0);
  g_assert_cmpint (a.right, <, width - 1);
  g_assert_cmpint (a.top, >, 0);
  g_assert_cmpint (a.bottom, <, height - 1);
  g_assert_cmpint (a.right - a.left, >, width / 2);
  g_assert_cmpint (a.bottom - a.top, >, height / 2);
  return a;
}

/* Inverse of device_to_data by bisection; the mapping is monotone and
 * separable (x only from px, y only from py). */
void
data_to_device (KsPlot *plot,
                int     width,
                int     height,
                double  x,
                double  y,
                double *out_px,
                double *out_py)
{
  Area a = plot_area (plot, width, height);
  double lo = a.left, hi = a.right;
  double cy = (a.top + a.bottom) / 2.0, cx = (a.left + a.right) / 2.0;

  for (int i = 0; i < 60; i++)
    {
      double mid = (lo + hi) / 2, dx;

      g_assert_true (ks_plot_device_to_data (plot, width, height, mid, cy, &dx, NULL));
      if (dx < x)
        lo = mid;
      else
        hi = mid;
    }
  *out_px = (lo + hi) / 2;

  lo = a.top;
  hi = a.bottom;
  for (int i = 0; i < 60; i++)
    {
      double mid = (lo + hi) / 2, dy;

      g_assert_true (ks_plot_device_to_data (plot, width, height, cx, mid, NULL, &dy));
      if (dy > y)   /* y grows upwards */
        lo = mid;
      else
        hi = mid;
    }
  *out_py = (lo + hi) / 2;
}

/* Runs of pixels of colour c along a column (vertical) or row. */
guint
count_runs (cairo_surface_t   *surface,
            gboolean           vertical,
            int                fixed,
            int                from,
            int                to,
            const KsPlotColor *c,
            int                tol)
{
  guint runs = 0;
  gboolean in = FALSE;

  for (int i = from; i <= to; i++)
    {
      gboolean m = vertical ? pixel_is (surface, fixed, i, c, tol)
                            : pixel_is (surface, i, fixed, c, tol);
      if (m && !in)
        runs++;
      in = m;
    }
  return runs;
}

/* Positions of the runs' first pixels. */
GArray *
run_starts (cairo_surface_t   *surface,
            int                column,
            int                from,
            int                to,
            const KsPlotColor *c,
            int                tol)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (int));
  gboolean in = FALSE;

  for (int i = from; i <= to; i++)
    {
      gboolean m = pixel_is (surface, column, i, c, tol);
      if (m && !in)
        g_array_append_val (starts, i);
      in = m;
    }
  return starts;
}


/* strstr for binary data (PDF streams hold NUL bytes). */
gboolean
mem_contains (const char *data,
              gsize       len,
              const char *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= len; i++)
    if (memcmp (data + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

char *
read_file (const char *path,
           gsize      *len)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, len, &error));
  g_assert_no_error (error);
  return contents;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Lists what is in dir, for checking that no temporary file was left. */
char *
dir_listing (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* ------------------------------------------------------------------------ */
/* Plots that test-plot and test-plot-render both draw                      */

KsPlot *
line_plot (const char *name)
{
  KsPlot *plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, name);

  ks_plot_set_title (plot, "A line");
  ks_plot_set_axis_labels (plot, "x", "y");
  ks_plot_set_caption (plot, "test device · 2026-01-01");
  for (int i = 0; i <= 100; i += 5)
    ks_plot_add_point (plot, s, i, i);
  return plot;
}

KsPlot *
highlight_plot (gboolean highlight)
{
  KsPlot *plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, "time");
  guint o = ks_plot_add_series (plot, "other");

  ks_plot_set_highlight_legend (plot, "N+1 prime");
  for (int n = 100; n < 150; n++)
    {
      gboolean prime = n + 1 == 101 || n + 1 == 127 || n + 1 == 149;
      KsPlotPointFlags flags = prime && highlight ? KS_PLOT_POINT_HIGHLIGHT : KS_PLOT_POINT_NONE;
      g_autofree char *label = g_strdup_printf ("N+1 = %d", n + 1);

      ks_plot_add_point_full (plot, s, n, n * 0.1 * (prime ? 2.5 : 1.0), NAN, NAN,
                              flags, prime ? label : NULL);
      ks_plot_add_point_full (plot, o, n, n * 0.05 * (prime ? 2.5 : 1.0), NAN, NAN, flags, NULL);
    }
  return plot;
}
