/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-plot.c: how long the plot renderer takes where size matters.  Built
 * with the tests but not run by them (speed is measured, never asserted):
 *
 *   bench-plot labels N [spread]
 *                          one render of a time-vs-size curve of N points
 *                          whose N+1-prime points are highlighted and
 *                          labelled (what `kernelscope-cli plot` draws),
 *                          with min/max bars on every point if asked
 *   bench-plot series N    the same curve with min/max bars exported as PNG
 *                          (what `plot big.json -o big.png` draws) and
 *                          redrawn twice at a window's size
 *   bench-plot results N [FILE]
 *                          the whole of `kernelscope-cli plot big.json -o
 *                          big.png` for a gauss-size run of N points:
 *                          read, figure, PNG, a redraw (bench-plot-results.c;
 *                          FILE keeps the results file, for timing the CLI)
 *   bench-plot mesh        frames of a colour-mapped mesh of 10^4, 10^5 and
 *                          10^6 cells at 1200 x 800: the first (which lays
 *                          the mesh out) and the median of the next ones,
 *                          each with new cell values, as an animation has
 *   bench-plot examples DIR  every example of plot-examples.c as PNG, SVG
 *                          and PDF, to be looked at
 *   bench-plot clip        what a recorded frame of a 50,000-cell mesh at
 *                          800 x 640 costs (the heat page's clip): its
 *                          render, its PNG, and each animation format's
 *                          encoding, in CPU time */
#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-plot-results.h"
#include "ks-clip.h"
#include "ks-gif.h"
#include "ks-plot.h"
#include "ks-plot-private.h"
#include "ks-video.h"
#include "plot-examples.h"

/* CPU time of this process in microseconds: what a frame costs, whatever
 * else the machine runs meanwhile (the wall-clock figure grows with that). */
static gint64
cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static gboolean
is_prime (guint n)
{
  if (n < 2)
    return FALSE;
  for (guint d = 2; d * d <= n; d++)
    if (n % d == 0)
      return FALSE;
  return TRUE;
}

/* A time-vs-size curve of n_points whose N+1-prime points are highlighted
 * and labelled (what `kernelscope-cli plot` draws of gauss-size), with
 * min/max bars on every point if asked. */
static KsPlot *
labels_plot (guint     n_points,
             gboolean  spread,
             guint    *out_high)
{
  KsPlot *plot = ks_plot_new ();
  guint s = ks_plot_add_series (plot, "median");
  guint n_high = 0;

  ks_plot_set_title (plot, "Time vs size");
  ks_plot_set_axis_labels (plot, "N", "ms");
  ks_plot_set_highlight_legend (plot, "N+1 prime");
  for (guint i = 0; i < n_points; i++)
    {
      guint n = 100 + i;
      gboolean prime = is_prime (n + 1);
      g_autofree char *label = prime ? g_strdup_printf ("N+1 = %u", n + 1) : NULL;
      /* A cubic trend with a little noise, primes above it, as measured. */
      double y = 1e-6 * n * (double) n * n / 1e3 * (1.0 + 0.02 * sin (n * 0.7))
                 * (prime ? 1.8 : 1.0);

      ks_plot_add_point_full (plot, s, n, y, spread ? 0.98 * y : NAN, spread ? 1.03 * y : NAN,
                              prime ? KS_PLOT_POINT_HIGHLIGHT : KS_PLOT_POINT_NONE, label);
      n_high += prime;
    }
  *out_high = n_high;
  return plot;
}

static int
bench_labels (guint    n_points,
              gboolean spread)
{
  guint n_high;
  g_autoptr(KsPlot) plot = labels_plot (n_points, spread, &n_high);
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 t0, c0;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 750);
  cr = cairo_create (surface);
  t0 = g_get_monotonic_time ();
  c0 = cpu_time ();
  ks_plot_render (plot, cr, 1200, 750, NULL);
  g_print ("labels: %u points%s, %u highlighted: render %.3f s (%.3f s CPU)\n", n_points,
           spread ? " with min/max bars" : "", n_high,
           (g_get_monotonic_time () - t0) / 1e6, (cpu_time () - c0) / 1e6);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return 0;
}

/* What `plot big.json -o big.png` and the GUI's page do with a curve of
 * n_points (min/max bars, primes highlighted and labelled): a PNG export
 * at the CLI's 1200 x 750, then a first and a second redraw at the size of
 * a window (the second finds the layout cached, as a hover's redraw does). */
static int
bench_series (guint n_points)
{
  guint n_high;
  g_autoptr(KsPlot) plot = labels_plot (n_points, TRUE, &n_high);
  g_autofree char *dir = g_dir_make_tmp ("bench-plot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "series.png", NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 640);
  g_autoptr(GError) error = NULL;
  gint64 t0 = g_get_monotonic_time (), c0 = cpu_time ();

  if (!ks_plot_export (plot, png, 1200, 750, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  g_print ("series: %u points, %u highlighted: PNG export %.3f s (%.3f s CPU)", n_points, n_high,
           (g_get_monotonic_time () - t0) / 1e6, (cpu_time () - c0) / 1e6);
  g_unlink (png);
  g_rmdir (dir);
  for (int pass = 0; pass < 2; pass++)
    {
      cairo_t *cr = cairo_create (surface);

      t0 = g_get_monotonic_time ();
      c0 = cpu_time ();
      ks_plot_render (plot, cr, 1000, 640, NULL);
      g_print ("; %s redraw %.3f s (%.3f s CPU)", pass == 0 ? "first" : "second",
               (g_get_monotonic_time () - t0) / 1e6, (cpu_time () - c0) / 1e6);
      cairo_destroy (cr);
    }
  g_print ("\n");
  cairo_surface_destroy (surface);
  return 0;
}

static int
cmp_gint64 (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The median of `frames` renders, each after new values are set, as an
 * animation does: first with the colour range fixed (what an animation
 * does, so colours mean the same in every frame), then automatic. */
static void
bench_mesh_size (guint nx,
                 guint ny,
                 guint frames)
{
  g_autoptr(KsPlot) plot = example_mesh (nx, ny, KS_PLOT_COLORMAP_VIRIDIS);
  guint n_cells = ny * (nx / 2) + 2 * ny * (nx - nx / 2);
  g_autofree double *values = g_new (double, n_cells);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 800);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 t0, first;

  ks_plot_set_mesh_range (plot, 0, nx + ny);
  t0 = g_get_monotonic_time ();
  {
    cairo_t *cr = cairo_create (surface);
    ks_plot_render (plot, cr, 1200, 800, NULL);
    cairo_destroy (cr);
  }
  first = g_get_monotonic_time () - t0;

  for (int pass = 0; pass < 2; pass++)
    {
      g_array_set_size (times, 0);
      g_array_set_size (cpu, 0);
      if (pass == 1)
        ks_plot_set_mesh_range (plot, NAN, NAN);
      for (guint f = 0; f < frames; f++)
        {
          cairo_t *cr;
          gint64 c0;

          for (guint c = 0; c < n_cells; c++)
            values[c] = (c % 977) * 0.5 + f;
          t0 = g_get_monotonic_time ();
          c0 = cpu_time ();
          ks_plot_set_mesh_values (plot, values);
          cr = cairo_create (surface);
          ks_plot_render (plot, cr, 1200, 800, NULL);
          cairo_destroy (cr);
          c0 = cpu_time () - c0;
          t0 = g_get_monotonic_time () - t0;
          g_array_append_val (times, t0);
          g_array_append_val (cpu, c0);
        }
      g_array_sort (times, cmp_gint64);
      g_array_sort (cpu, cmp_gint64);
      if (pass == 0)
        g_print ("mesh: %8u cells at 1200 x 800: first frame %6.1f ms; a frame (median of %u): "
                 "%5.2f ms (%5.2f ms CPU) with a fixed colour range",
                 n_cells, first / 1e3, frames, g_array_index (times, gint64, frames / 2) / 1e3,
                 g_array_index (cpu, gint64, frames / 2) / 1e3);
      else
        g_print (", %5.2f ms (%5.2f ms CPU) automatic\n",
                 g_array_index (times, gint64, frames / 2) / 1e3,
                 g_array_index (cpu, gint64, frames / 2) / 1e3);
    }

  /* A tooltip's lookup: the first indexes the mesh, then the median of
   * lookups at positions spread over the plot, as a pointer moves. */
  {
    g_autoptr(GArray) lookups = g_array_new (FALSE, FALSE, sizeof (gint64));
    GRand *rand = g_rand_new_with_seed (7);
    gint64 index_us, all_us;
    guint hits = 0;

    t0 = g_get_monotonic_time ();
    ks_plot_mesh_cell_at (plot, 1200, 800, 1050, 120, NULL, NULL);
    index_us = g_get_monotonic_time () - t0;
    all_us = g_get_monotonic_time ();
    for (guint k = 0; k < 1000; k++)
      {
        double px = g_rand_double_range (rand, 0, 1200), py = g_rand_double_range (rand, 0, 800);

        t0 = g_get_monotonic_time ();
        hits += ks_plot_mesh_cell_at (plot, 1200, 800, px, py, NULL, NULL);
        t0 = g_get_monotonic_time () - t0;
        g_array_append_val (lookups, t0);
      }
    all_us = g_get_monotonic_time () - all_us;
    g_array_sort (lookups, cmp_gint64);
    g_print ("      the cell under the pointer: first %.2f ms (indexes the mesh), then "
             "%.2f us on average, slowest %.0f us, of 1000 (%u on a cell)\n",
             index_us / 1e3, all_us / 1e3, (double) g_array_index (lookups, gint64, 999), hits);
    g_rand_free (rand);
  }

  /* An export at another size between two screen frames: the screen's
   * pixel map stays, so the next frame costs what any frame does. */
  {
    g_autofree char *dir = g_dir_make_tmp ("bench-plot-XXXXXX", NULL);
    g_autofree char *png = g_build_filename (dir, "export.png", NULL);
    cairo_t *cr;

    g_assert_true (ks_plot_export (plot, png, 640, 400, NULL, NULL));
    g_unlink (png);
    g_rmdir (dir);
    t0 = g_get_monotonic_time ();
    cr = cairo_create (surface);
    ks_plot_render (plot, cr, 1200, 800, NULL);
    cairo_destroy (cr);
    g_print ("      the screen frame after a 640 x 400 export: %.2f ms\n",
             (g_get_monotonic_time () - t0) / 1e3);
  }
  cairo_surface_destroy (surface);
}

static int
bench_mesh (void)
{
  bench_mesh_size (100, 67, 50);     /* 10,050 cells */
  bench_mesh_size (316, 211, 50);    /* 100,014 */
  bench_mesh_size (1000, 667, 30);   /* 1,000,500 */
  return 0;
}

static int
write_examples (const char *dir)
{
  struct {
    const char *name;
    KsPlot     *plot;
    gboolean    dark;
  } ex[] = {
    { "bars", example_bars (), FALSE },
    { "bars-dark", example_bars (), TRUE },
    { "bands", example_bands (), FALSE },
    { "annotations", example_annotations (), FALSE },
    { "log2-y2", example_log2_y2 (), FALSE },
    { "mesh-viridis", example_mesh (12, 8, KS_PLOT_COLORMAP_VIRIDIS), FALSE },
    { "mesh-inferno-edges", example_mesh (12, 8, KS_PLOT_COLORMAP_INFERNO), TRUE },
    { "mesh-diverging-large", example_mesh (400, 300, KS_PLOT_COLORMAP_DIVERGING), FALSE },
    { "blocks", example_blocks (), FALSE },
  };
  static const char *const formats[] = { "png", "svg", "pdf" };
  int rc = 0;

  g_mkdir_with_parents (dir, 0755);
  ks_plot_set_mesh_edges (ex[6].plot, TRUE);
  ks_plot_set_blocks (ex[8].plot, 50, 40, 16, 16);
  for (guint i = 0; i < G_N_ELEMENTS (ex); i++)
    {
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          g_autofree char *name = g_strdup_printf ("%s/%s.%s", dir, ex[i].name, formats[f]);
          g_autoptr(GError) error = NULL;

          if (!ks_plot_export (ex[i].plot, name, 800, 500,
                               ex[i].dark ? ks_plot_theme_dark () : NULL, &error))
            {
              g_printerr ("%s\n", error->message);
              rc = 1;
            }
          else
            g_print ("%s\n", name);
        }
      ks_plot_unref (ex[i].plot);
    }
  return rc;
}

/* The median CPU time of frames calls of one stage of a recorded frame. */
typedef gboolean (*ClipStage) (gpointer data, KsPlot *plot, cairo_surface_t *surface, guint f);

static gboolean
stage_render (gpointer data, KsPlot *plot, cairo_surface_t *surface, guint f)
{
  cairo_t *cr = cairo_create (surface);

  ks_plot_render (plot, cr, 800, 640, NULL);
  cairo_destroy (cr);
  return TRUE;
}

static gboolean
stage_png (gpointer data, KsPlot *plot, cairo_surface_t *surface, guint f)
{
  g_autofree char *path = g_strdup_printf ("%s/frame-%06u.png", (const char *) data, f);

  return cairo_surface_write_to_png (surface, path) == CAIRO_STATUS_SUCCESS;
}

static gboolean
stage_png_fast (gpointer data, KsPlot *plot, cairo_surface_t *surface, guint f)
{
  g_autofree char *path = g_strdup_printf ("%s/frame-%06u.png", (const char *) data, f);

  return ks_plot_write_frame_png (surface, path, NULL);
}

static gboolean
stage_gif (gpointer data, KsPlot *plot, cairo_surface_t *surface, guint f)
{
  return ks_gif_writer_add_surface (data, surface, NULL);
}

static gboolean
stage_video (gpointer data, KsPlot *plot, cairo_surface_t *surface, guint f)
{
  /* The writer keeps the surface until it is encoded: a copy of it. */
  cairo_surface_t *copy = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 640);
  cairo_t *cr = cairo_create (copy);
  gboolean ok;

  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  ok = ks_video_writer_add_surface (data, copy, NULL);
  cairo_surface_destroy (copy);
  return ok;
}

static void
bench_stage (const char *name, ClipStage stage, gpointer data, KsPlot *plot, cairo_surface_t *surface)
{
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  const guint frames = 21;

  for (guint f = 0; f < frames; f++)
    {
      const gint64 c0 = cpu_time ();

      if (!stage (data, plot, surface, f))
        {
          g_print ("  %-28s failed\n", name);
          return;
        }
      g_array_append_vals (cpu, &(gint64) { cpu_time () - c0 }, 1);
    }
  g_array_sort (cpu, cmp_gint64);
  g_print ("  %-28s %6.1f ms CPU a frame (median of %u)\n", name, g_array_index (cpu, gint64, frames / 2) / 1e3,
           frames);
}

static int
bench_clip (void)
{
  g_autoptr(KsPlot) plot = example_mesh (274, 122, KS_PLOT_COLORMAP_INFERNO);   /* 50,004 cells */
  g_autofree char *dir = g_dir_make_tmp ("bench-clip-XXXXXX", NULL);
  g_autofree char *gif_path = g_build_filename (dir, "clip.gif", NULL);
  g_autoptr(KsGifWriter) gif = ks_gif_writer_new (gif_path, 800, 640, 10, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 640);

  g_print ("a recorded frame of 50,004 cells at 800 x 640:\n");
  bench_stage ("render (the window's thread)", stage_render, NULL, plot, surface);
  bench_stage ("PNG frame (cairo)", stage_png, dir, plot, surface);
  bench_stage ("PNG frame (the clip's)", stage_png_fast, dir, plot, surface);
  if (gif != NULL)
    bench_stage ("GIF (giflib)", stage_gif, gif, plot, surface);
  for (KsVideoFormat v = KS_VIDEO_WEBM; v <= KS_VIDEO_MP4; v++)
    {
      g_autofree char *path = g_build_filename (dir, v == KS_VIDEO_WEBM ? "clip.webm" : "clip.mp4", NULL);
      g_autoptr(KsVideoWriter) video = ks_video_writer_new (path, v, 800, 640, 10, NULL);
      const gint64 c0 = cpu_time ();

      if (video == NULL)
        continue;
      bench_stage (v == KS_VIDEO_WEBM ? "WebM: handing over" : "MP4: handing over", stage_video, video, plot,
                   surface);
      /* The encoder's own threads: all of it, over the clip. */
      ks_video_writer_finish (video, NULL);
      g_print ("  %-28s %6.1f ms CPU a frame (encoder included)\n", v == KS_VIDEO_WEBM ? "WebM" : "MP4",
               (cpu_time () - c0) / 1e3 / 21);
      g_unlink (path);
    }
  cairo_surface_destroy (surface);
  for (guint f = 0; f < 21; f++)
    {
      g_autofree char *png = g_strdup_printf ("%s/frame-%06u.png", dir, f);
      g_unlink (png);
    }
  g_clear_pointer (&gif, ks_gif_writer_free);
  g_rmdir (dir);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc >= 2 && strcmp (argv[1], "clip") == 0)
    return bench_clip ();
  if (argc >= 2 && strcmp (argv[1], "mesh") == 0)
    return bench_mesh ();
  if (argc >= 3 && strcmp (argv[1], "examples") == 0)
    return write_examples (argv[2]);
  if (argc >= 3 && strcmp (argv[1], "results") == 0)
    return bench_results ((guint) g_ascii_strtoull (argv[2], NULL, 10), argc >= 4 ? argv[3] : NULL);
  if (argc >= 3 && strcmp (argv[1], "series") == 0)
    return bench_series ((guint) g_ascii_strtoull (argv[2], NULL, 10));
  if (argc >= 3 && strcmp (argv[1], "labels") == 0)
    return bench_labels ((guint) g_ascii_strtoull (argv[2], NULL, 10),
                         argc >= 4 && strcmp (argv[3], "spread") == 0);

  g_printerr ("usage: %s results N [FILE] | series N | labels N [spread] | mesh | clip | examples DIR\n", argv[0]);
  return 2;
}
