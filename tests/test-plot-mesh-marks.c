/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plot-mesh-marks.c: the colour-mapped mesh, checked on the pixels
 * where a mistake would show: cells, outlines, edges, hatching, frames,
 * the cell under a pixel, and a plot handed between threads. */
#include <glib/gstdio.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "ks-plot-mesh-private.h"   /* the layout cache's and the mesh's counters */
#include "plot-mesh-check.h"

/* ------------------------------------------------------------------------ */
/* Mesh                                                                     */

/* The colour bar: the first column right of the plot area that is not
 * background, at mid-height. */
static int
colorbar_left (cairo_surface_t   *img,
               const Area        *a,
               const KsPlotTheme *theme)
{
  int y = (a->top + a->bottom) / 2;

  for (int x = a->right + 3; x < cairo_image_surface_get_width (img); x++)
    if (!pixel_is (img, x, y, &theme->background, 0))
      return x;
  return -1;
}

static void
test_mesh (void)
{
  const KsPlotColormap maps[] = {
    KS_PLOT_COLORMAP_VIRIDIS, KS_PLOT_COLORMAP_INFERNO, KS_PLOT_COLORMAP_DIVERGING,
  };

  for (guint m = 0; m < G_N_ELEMENTS (maps); m++)
    {
      g_autoptr(KsPlot) plot = example_mesh (12, 8, maps[m]);
      const KsPlotTheme *theme = m == 1 ? ks_plot_theme_dark () : ks_plot_theme_light ();
      cairo_surface_t *img = render_image (plot, W, H, theme);
      Area a = plot_area (plot, W, H);
      KsPlotColor lo = ks_plot_colormap_color (maps[m], 0), hi = ks_plot_colormap_color (maps[m], 1);
      int cb = colorbar_left (img, &a, theme);
      double x0, y0, x1, y1;

      check_mesh_cells (plot, img, 1, maps[m]);

      /* Equal aspect: a unit is as long in x as in y. */
      data_to_device (plot, W, H, 1, 1, &x0, &y0);
      data_to_device (plot, W, H, 5, 5, &x1, &y1);
      g_assert_cmpfloat (fabs (fabs (x1 - x0) - fabs (y1 - y0)), <, 0.5);

      check_mesh_outline (plot, img, theme);

      /* The colour bar: the map's low end at the bottom, high at the top. */
      g_assert_cmpint (cb, >, a.right);
      g_assert_true (pixel_is (img, cb + 4, a.bottom - 1, &lo, 12));
      g_assert_true (pixel_is (img, cb + 4, a.top + 1, &hi, 12));
      cairo_surface_destroy (img);
    }
}

static void
test_mesh_edges_hidpi (void)
{
  g_autoptr(KsPlot) plot = example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS);
  const KsPlotTheme *theme = ks_plot_theme_light ();
  KsPlotColor cell = mesh_color (KS_PLOT_COLORMAP_VIRIDIS, example_mesh_value (12, 2.5, 3.5));
  cairo_surface_t *img;
  cairo_t *cr;
  double px, py;

  /* Twice the pixels for the same size (a HiDPI screen): every cell still
   * where the plot says, at device resolution. */
  img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 2 * W, 2 * H);
  cairo_surface_set_device_scale (img, 2, 2);
  cr = cairo_create (img);
  ks_plot_render (plot, cr, W, H, theme);
  cairo_destroy (cr);
  cairo_surface_flush (img);
  check_mesh_cells (plot, img, 2, KS_PLOT_COLORMAP_VIRIDIS);
  /* A cell's edge falls on the device pixel its x says, not a whole
   * user unit off: one device pixel either side of x = 2 differ. */
  data_to_device (plot, W, H, 2, 3.5, &px, &py);
  g_assert_true (pixel_is (img, 2 * px + 2, 2 * py, &cell, 3));
  g_assert_false (pixel_is (img, 2 * px - 2, 2 * py, &cell, 3));
  check_mesh_edge (plot, img, 2, FALSE);
  cairo_surface_destroy (img);

  /* Cell edges: a line on x = 2, the cells' colour either side of it. */
  ks_plot_set_mesh_edges (plot, TRUE);
  img = render_image (plot, W, H, theme);
  data_to_device (plot, W, H, 2, 3.5, &px, &py);
  check_mesh_edge (plot, img, 1, TRUE);
  g_assert_true (pixel_is (img, px + 8, py, &cell, 3));
  cairo_surface_destroy (img);
}

/* How many pixels along a row of cell (cx, cy)'s middle, 10 either side,
 * are not the cell's own colour. */
static guint
off_color_pixels (KsPlot *plot, cairo_surface_t *img, double cx, double cy)
{
  KsPlotColor cell = mesh_color (KS_PLOT_COLORMAP_INFERNO, example_mesh_value (12, cx, cy));
  double px, py;
  guint n = 0;

  data_to_device (plot, W, H, cx, cy, &px, &py);
  for (int dx = -10; dx <= 10; dx++)
    n += !pixel_is (img, px + dx, py, &cell, 3);
  return n;
}

/* The split drawn so a class sees it (issue 28): part 1 hatched, part 0
 * plain, on inferno's black too; the border between them a foreground
 * line with a band of the background's colour beside it. */
static void
test_mesh_hatch (void)
{
  g_autoptr(KsPlot) plot = example_mesh (12, 8, KS_PLOT_COLORMAP_INFERNO);
  const KsPlotTheme *theme = ks_plot_theme_light ();
  cairo_surface_t *img;
  double px, py;

  img = render_image (plot, W, H, theme);
  g_assert_cmpuint (off_color_pixels (plot, img, 9.75, 0.25), ==, 0);
  cairo_surface_destroy (img);
  ks_plot_set_mesh_hatched_part (plot, 1);
  img = render_image (plot, W, H, theme);
  /* The darkest cells (inferno's black, bottom left of part 1) and the
   * lightest both show the stripes; part 0 has none. */
  g_assert_cmpuint (off_color_pixels (plot, img, 6.75, 0.25), >=, 4);
  g_assert_cmpuint (off_color_pixels (plot, img, 11.75, 7.25), >=, 4);
  g_assert_cmpuint (off_color_pixels (plot, img, 2.5, 3.5), ==, 0);
  /* The border at x = 6: the foreground on it, the background beside it. */
  check_mesh_outline (plot, img, theme);
  data_to_device (plot, W, H, 6, 4.5, &px, &py);
  g_assert_true (color_near (img, px, py, 2, &theme->background, 10));
  cairo_surface_destroy (img);

  /* Cell edges over inferno's near-black cells (bottom left) are lighter
   * than the cells: the theme's dark foreground vanished there. */
  ks_plot_set_mesh_edges (plot, TRUE);
  img = render_image (plot, W, H, theme);
  {
    KsPlotColor c = mesh_color (KS_PLOT_COLORMAP_INFERNO, example_mesh_value (12, 1.5, 0.5));
    int cells = (int) lround ((c.r + c.g + c.b) * 255), lightest = 0;

    data_to_device (plot, W, H, 1, 0.5, &px, &py);
    for (int dx = -1; dx <= 1; dx++)
      {
        int r, g, b;

        pixel_at (img, (int) floor (px) + dx, (int) floor (py), &r, &g, &b);
        lightest = MAX (lightest, r + g + b);
      }
    g_assert_cmpint (lightest, >, cells + 60);
  }
  cairo_surface_destroy (img);
}

/* New values, the next frame: the same pixels, new colours.  A NAN value
 * leaves its cell unpainted. */
static void
test_mesh_frames (void)
{
  g_autoptr(KsPlot) plot = example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS);
  const KsPlotTheme *theme = ks_plot_theme_light ();
  g_autofree double *values = g_new (double, 144);
  KsPlotColor grid = blend (&theme->grid, &theme->background);
  cairo_surface_t *img;
  double px, py;
  guint before;

  ks_plot_set_mesh_range (plot, 0, 10);
  img = render_image (plot, W, H, theme);
  cairo_surface_destroy (img);
  before = ks_plot_layout_n_computed ();
  for (guint c = 0; c < 144; c++)
    values[c] = 2.5;
  values[0] = NAN;   /* the quad at (0.5, 0.5) */
  ks_plot_set_mesh_values (plot, values);
  img = render_image (plot, W, H, theme);
  /* A fixed colour range: the frame kept the layout. */
  g_assert_cmpuint (ks_plot_layout_n_computed (), ==, before);
  data_to_device (plot, W, H, 3.5, 3.5, &px, &py);
  {
    KsPlotColor c = ks_plot_colormap_color (KS_PLOT_COLORMAP_VIRIDIS, 0.25);
    g_assert_true (pixel_is (img, px, py, &c, 3));
  }
  data_to_device (plot, W, H, 0.5, 0.5, &px, &py);
  g_assert_true (pixel_is (img, px, py, &theme->background, 0) || pixel_is (img, px, py, &grid, 2));
  cairo_surface_destroy (img);
}

/* Tooltips: the cell under a pixel and its value. */
static void
test_mesh_cell_at (void)
{
  g_autoptr(KsPlot) plot = example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS);
  g_autoptr(KsPlot) none = example_bars ();
  static const double at[][2] = { { 2.5, 3.5 }, { 8.8, 2.2 }, { 8.2, 2.8 }, { 11.9, 7.5 } };
  double px, py, v = 0;
  guint cell = 0, previous = G_MAXUINT;

  for (guint k = 0; k < G_N_ELEMENTS (at); k++)
    {
      data_to_device (plot, W, H, at[k][0], at[k][1], &px, &py);
      g_assert_true (ks_plot_mesh_cell_at (plot, W, H, px, py, &cell, &v));
      g_assert_cmpfloat (v, ==, example_mesh_value (12, at[k][0], at[k][1]));
      g_assert_cmpuint (cell, !=, previous);
      previous = cell;
    }
  /* Outside the mesh (x = -0.5 is in view, left of it), and no mesh. */
  data_to_device (plot, W, H, -0.5, 3, &px, &py);
  g_assert_false (ks_plot_mesh_cell_at (plot, W, H, px, py, &cell, &v));
  g_assert_false (ks_plot_mesh_cell_at (none, W, H, W / 2, H / 2, &cell, &v));
}

/* A dart: a quadrilateral whose corner b points inwards, so the diagonal
 * a-c runs outside it.  The notch under b stays unpainted, and is no cell
 * for tooltips; the body is the cell's colour. */
static void
test_mesh_dart (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const KsPlotTheme *theme = ks_plot_theme_light ();
  const double xy[] = { 0, 0, 1, 0.5, 2, 0, 1, 2 };
  const guint32 dart[] = { 0, 1, 2, 3 };
  const double value = 1.0;
  KsPlotColor c;
  cairo_surface_t *img;
  double px, py;

  g_assert_true (ks_plot_set_mesh (plot, xy, 4, dart, 1, NULL));
  ks_plot_set_mesh_values (plot, &value);
  ks_plot_set_mesh_range (plot, 0, 2);
  c = ks_plot_colormap_color (KS_PLOT_COLORMAP_VIRIDIS, 0.5);
  img = render_image (plot, W, H, theme);

  data_to_device (plot, W, H, 1, 0.2, &px, &py);
  g_assert_false (pixel_is (img, px, py, &c, 3));
  g_assert_false (ks_plot_mesh_cell_at (plot, W, H, px, py, NULL, NULL));
  data_to_device (plot, W, H, 1, 1, &px, &py);
  g_assert_true (pixel_is (img, px, py, &c, 3));
  g_assert_true (ks_plot_mesh_cell_at (plot, W, H, px, py, NULL, NULL));
  cairo_surface_destroy (img);
}

/* The grid that answers tooltips finds the cell the walk over every cell
 * finds (the first in cell order where two share a point), on a mesh of
 * jittered quadrilaterals and triangles: at random points in and around
 * it, at every node and at every edge's midpoint (where cells meet), and
 * through ks_plot_mesh_cell_at at random device positions. */
static void
test_mesh_lookup (void)
{
  const guint nx = 70, ny = 45;
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261124);
  g_autofree double *xy = g_new (double, 2 * (nx + 1) * (ny + 1));
  g_autoptr(GArray) cells = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree double *values = NULL;
  KsPlotMesh *mesh;
  guint found = 0, on_edges = 0;

  for (guint j = 0; j <= ny; j++)
    for (guint i = 0; i <= nx; i++)
      {
        gboolean inner = i > 0 && i < nx && j > 0 && j < ny;

        xy[2 * (j * (nx + 1) + i)] = i + (inner ? g_rand_double_range (rand, -0.3, 0.3) : 0);
        xy[2 * (j * (nx + 1) + i) + 1] = 0.7 * j + (inner ? g_rand_double_range (rand, -0.2, 0.2) : 0);
      }
  for (guint j = 0; j < ny; j++)
    for (guint i = 0; i < nx; i++)
      {
        guint32 a = j * (nx + 1) + i, b = a + 1, c = b + nx + 1, d = a + nx + 1;

        if ((i + j) % 3 != 0)
          {
            guint32 q[4] = { a, b, c, d };
            g_array_append_vals (cells, q, 4);
          }
        else
          {
            guint32 t[8] = { a, b, d, KS_PLOT_MESH_TRIANGLE, b, c, d, KS_PLOT_MESH_TRIANGLE };
            g_array_append_vals (cells, t, 8);
          }
      }
  g_assert_true (ks_plot_set_mesh (plot, xy, (nx + 1) * (ny + 1), (guint32 *) cells->data,
                                   cells->len / 4, NULL));
  values = g_new (double, cells->len / 4);
  for (guint c = 0; c < cells->len / 4; c++)
    values[c] = c * 0.5;
  ks_plot_set_mesh_values (plot, values);
  mesh = plot->mesh;

  for (guint k = 0; k < 20000; k++)
    {
      double x = g_rand_double_range (rand, -1, nx + 1), y = g_rand_double_range (rand, -1, 0.7 * ny + 1);
      guint a = G_MAXUINT, b = G_MAXUINT;
      gboolean fa = ks_plot_mesh_cell_find (mesh, x, y, &a), fb = ks_plot_mesh_cell_walk (mesh, x, y, &b);

      g_assert_cmpint (fa, ==, fb);
      g_assert_cmpuint (a, ==, b);
      found += fa;
    }
  g_assert_cmpuint (found, >, 15000);   /* most fall on the mesh: the lookup was tried */

  for (guint k = 0; k < cells->len; k++)
    {
      const guint32 *n = &g_array_index (cells, guint32, k - k % 4);
      guint side = n[3] == KS_PLOT_MESH_TRIANGLE ? 3 : 4;
      guint32 u, v;
      double pts[2][2];

      if (k % 4 >= side)
        continue;
      u = n[k % 4];
      v = n[(k % 4 + 1) % side];
      pts[0][0] = xy[2 * u];
      pts[0][1] = xy[2 * u + 1];
      pts[1][0] = (xy[2 * u] + xy[2 * v]) / 2;
      pts[1][1] = (xy[2 * u + 1] + xy[2 * v + 1]) / 2;
      for (int p = 0; p < 2; p++)
        {
          guint a = G_MAXUINT, b = G_MAXUINT;

          g_assert_true (ks_plot_mesh_cell_find (mesh, pts[p][0], pts[p][1], &a));
          g_assert_true (ks_plot_mesh_cell_walk (mesh, pts[p][0], pts[p][1], &b));
          g_assert_cmpuint (a, ==, b);
          on_edges++;
        }
    }
  g_test_message ("%u random points on the mesh, %u nodes and edge midpoints", found, on_edges);

  for (guint k = 0; k < 2000; k++)
    {
      double px = g_rand_double_range (rand, 0, W), py = g_rand_double_range (rand, 0, H), x, y, v;
      guint a = G_MAXUINT, b = G_MAXUINT;
      gboolean fa = ks_plot_mesh_cell_at (plot, W, H, px, py, &a, &v), fb;

      fb = ks_plot_device_to_data (plot, W, H, px, py, &x, &y)
           && ks_plot_mesh_cell_walk (mesh, x, y, &b);
      g_assert_cmpint (fa, ==, fb);
      if (fa)
        {
          g_assert_cmpuint (a, ==, b);
          g_assert_cmpfloat (v, ==, values[a]);
        }
    }
}

/* An export at another size between two screen frames leaves the screen's
 * pixel map as it was: the next frame builds none. */
static void
test_mesh_export_keeps_screen (void)
{
  g_autoptr(KsPlot) plot = example_mesh (200, 150, KS_PLOT_COLORMAP_VIRIDIS);
  const KsPlotTheme *theme = ks_plot_theme_light ();
  static const double at[][2] = { { 20.5, 30.5 }, { 150.75, 40.25 } };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-plot-marks-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "small.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "large.svg", NULL);
  cairo_surface_t *img;
  Raster *screen;
  guint built;

  g_assert_no_error (error);
  img = render_image (plot, W, H, theme);
  cairo_surface_destroy (img);
  screen = plot->mesh->raster;
  g_assert_nonnull (screen);
  built = ks_plot_raster_n_built ();

  /* A PNG at half the size, then an SVG (60,000 cells: an image at twice
   * the resolution): each makes a map of its own, the screen's stays. */
  g_assert_true (ks_plot_export (plot, png, W / 2, H / 2, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (plot->mesh->raster == screen);
  g_assert_cmpuint (ks_plot_raster_n_built (), ==, built + 1);
  g_assert_nonnull (plot->mesh->export_raster);
  g_assert_true (ks_plot_export (plot, svg, W, H, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (plot->mesh->raster == screen);
  g_assert_cmpuint (ks_plot_raster_n_built (), ==, built + 2);

  img = render_image (plot, W, H, theme);
  g_assert_cmpuint (ks_plot_raster_n_built (), ==, built + 2);
  g_assert_true (plot->mesh->raster == screen);
  check_mesh_points (plot, img, 1, KS_PLOT_COLORMAP_VIRIDIS, 200, 150, at, G_N_ELEMENTS (at), 3);
  cairo_surface_destroy (img);

  /* The same export again reuses its own map. */
  g_assert_true (ks_plot_export (plot, svg, W, H, NULL, &error));
  g_assert_cmpuint (ks_plot_raster_n_built (), ==, built + 2);
  remove_dir (dir);
}

typedef struct {
  KsPlot *plot;
  char   *path;
} ExportJob;

static gpointer
export_thread (gpointer data)
{
  ExportJob *job = data;

  return GINT_TO_POINTER (ks_plot_export (job->plot, job->path, W, H, NULL, NULL));
}

/* The thread contract of ks-plot.h: a plot is used from one thread at a
 * time, and may be handed to another (an export on a worker thread) while
 * its owner leaves it alone.  The export made there shows the cells, and
 * the owner renders and sets new values afterwards. */
static void
test_mesh_handed_over (void)
{
  g_autoptr(KsPlot) plot = example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-plot-marks-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "thread.png", NULL);
  ExportJob job = { plot, path };
  cairo_surface_t *img;
  GThread *thread;

  g_assert_no_error (error);
  img = render_image (plot, W, H, ks_plot_theme_light ());
  cairo_surface_destroy (img);
  thread = g_thread_new ("export", export_thread, &job);
  g_assert_true (GPOINTER_TO_INT (g_thread_join (thread)));
  img = cairo_image_surface_create_from_png (path);
  check_mesh_cells (plot, img, 1, KS_PLOT_COLORMAP_VIRIDIS);
  cairo_surface_destroy (img);

  ks_plot_set_mesh_label (plot, "T (°C)");
  img = render_image (plot, W, H, ks_plot_theme_light ());
  check_mesh_cells (plot, img, 1, KS_PLOT_COLORMAP_VIRIDIS);
  cairo_surface_destroy (img);
  remove_dir (dir);
}

static void
test_mesh_errors (void)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autoptr(GError) error = NULL;
  const double xy[] = { 0, 0, 1, 0, 1, 1 };
  const guint32 bad[] = { 0, 1, 3, KS_PLOT_MESH_TRIANGLE };
  const guint32 quad_of_three[] = { 0, 1, 2, 2 };

  g_assert_false (ks_plot_set_mesh (plot, xy, 3, bad, 1, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_MESH);
  g_assert_nonnull (strstr (error->message, "3"));
  g_clear_error (&error);
  /* A degenerate quad is allowed (it draws as a triangle). */
  g_assert_true (ks_plot_set_mesh (plot, xy, 3, quad_of_three, 1, &error));
  g_assert_no_error (error);
}

int
main (int   argc,
      char *argv[])
{
  int rc;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot-marks/mesh", test_mesh);
  g_test_add_func ("/plot-marks/mesh-edges-hidpi", test_mesh_edges_hidpi);
  g_test_add_func ("/plot-marks/mesh-frames", test_mesh_frames);
  g_test_add_func ("/plot-marks/mesh-hatch", test_mesh_hatch);
  g_test_add_func ("/plot-marks/mesh-cell-at", test_mesh_cell_at);
  g_test_add_func ("/plot-marks/mesh-dart", test_mesh_dart);
  g_test_add_func ("/plot-marks/mesh-lookup", test_mesh_lookup);
  g_test_add_func ("/plot-marks/mesh-export-keeps-screen", test_mesh_export_keeps_screen);
  g_test_add_func ("/plot-marks/mesh-handed-over", test_mesh_handed_over);
  g_test_add_func ("/plot-marks/mesh-errors", test_mesh_errors);

  rc = g_test_run ();
  pango_cairo_font_map_set_default (NULL);
  return rc;
}
