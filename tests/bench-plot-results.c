/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-plot-results.c: `bench-plot results N [FILE]`, what
 * `kernelscope-cli plot big.json -o big.png` costs for a gauss-size run of
 * N points: the file written (a time-vs-size curve with min/max, N+1-prime
 * points slower, as measured), then read, made a figure, exported as PNG
 * at the CLI's size and redrawn at a window's, each step timed.  With
 * FILE the results file is kept there, for timing the CLI itself:
 *
 *   bench-plot results 150000 /tmp/big.json
 *   farm-bench -- kernelscope-cli plot /tmp/big.json -o /tmp/big.png */
#include "bench-plot-results.h"

#include "ks-exp-gauss.h"
#include "ks-figure.h"
#include "ks-run.h"

#include <cairo.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <time.h>

static gint64
cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Which of n..n+count-1 have n+1 prime: a sieve, as a million trial
 * divisions would take longer than what is measured. */
static guint8 *
prime_after (guint first,
             guint count)
{
  guint top = first + count + 1;
  g_autofree guint8 *composite = g_new0 (guint8, top + 1);
  guint8 *out = g_new0 (guint8, count);

  for (guint64 i = 2; i * i <= top; i++)
    if (!composite[i])
      for (guint64 j = i * i; j <= top; j += i)
        composite[j] = 1;
  for (guint i = 0; i < count; i++)
    out[i] = first + i + 1 >= 2 && !composite[first + i + 1];
  return out;
}

static void
set_param (KsRun      *run,
           KsRunPoint *p,
           const char *name,
           GVariant   *value)
{
  int i = ks_experiment_desc_find_param (run->desc, name);

  g_assert (i >= 0);
  p->params[i] = g_variant_ref_sink (value);
}

static void
set_column (KsRun      *run,
            KsRunPoint *p,
            const char *name,
            double      value)
{
  int i = ks_experiment_desc_find_column (run->desc, name);

  g_assert (i >= 0);
  p->values[i] = value;
}

/* A gauss-size run of n_points sizes from 100 on one device, every
 * column filled as a real run fills it. */
static KsRun *
big_run (guint n_points)
{
  KsRun *run = ks_run_new (&ks_exp_gauss_size);
  KsRunDevice *d = ks_run_device_new ();
  g_autofree guint8 *prime = prime_after (100, n_points);
  int time = ks_experiment_desc_find_column (run->desc, "time_ms");

  d->id = g_strdup ("opencl:0:0");
  d->name = g_strdup ("bench device");
  d->platform = g_strdup ("Portable Computing Language");
  d->backend = g_strdup ("opencl");
  g_ptr_array_add (run->devices, d);
  run->date = g_strdup ("2026-11-28T00:00:00Z");
  run->command = g_strdup_printf ("bench-plot results %u", n_points);
  run->reps = 3;
  run->complete = TRUE;
  run->n_planned = n_points;
  for (guint i = 0; i < n_points; i++)
    {
      KsRunPoint *p = ks_run_point_new (run);
      guint n = 100 + i;
      /* A cubic trend with a little noise, primes above it, as measured. */
      double t = 1e-9 * n * (double) n * n * (1.0 + 0.02 * sin (n * 0.7)) * (prime[i] ? 1.8 : 1.0);

      set_param (run, p, "n", g_variant_new_int64 (n));
      set_param (run, p, "precision", g_variant_new_string ("float"));
      set_param (run, p, "range", g_variant_new_string ("fixed"));
      set_param (run, p, "local", g_variant_new_string ("driver"));
      set_param (run, p, "seed", g_variant_new_int64 (1));
      p->values[time] = t;
      p->lo[time] = 0.98 * t;
      p->hi[time] = 1.03 * t;
      set_column (run, p, "kernels_ms", 0.6 * t);
      set_column (run, p, "gauss_fwd_pre_ms", 0.05 * t);
      set_column (run, p, "gauss_fwd_ms", 0.45 * t);
      set_column (run, p, "gauss_bwd_prepare_ms", 0.04 * t);
      set_column (run, p, "gauss_bwd_ms", 0.06 * t);
      set_column (run, p, "residual", 3.29e-7 + 1e-12 * i);
      set_column (run, p, "launches", 4.0 * n - 2);
      set_column (run, p, "fwd_local_x", prime[i] ? 1 : n + 1);
      set_column (run, p, "fwd_local_y", prime[i] ? n : 1);
      set_column (run, p, "fwd_groups_x", prime[i] ? n + 1 : 1);
      set_column (run, p, "fwd_groups_y", prime[i] ? 1 : n);
      set_column (run, p, "capture_ms", 0);
      set_column (run, p, "n_plus_1_prime", prime[i]);
      p->reps = 3;
      ks_run_add_point (run, p);
    }
  return run;
}

int
bench_results (guint       n_points,
               const char *keep)
{
  g_autoptr(KsRun) made = big_run (n_points);
  g_autofree char *dir = g_dir_make_tmp ("bench-plot-XXXXXX", NULL);
  g_autofree char *path = keep ? g_strdup (keep) : g_build_filename (dir, "big.json", NULL);
  g_autofree char *png = g_build_filename (dir, "big.png", NULL);
  g_autofree char *json = ks_run_to_json (made);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = NULL;
  g_autoptr(KsPlot) plot = NULL;
  cairo_surface_t *surface;
  KsFigureOptions options;
  gint64 t0, c0, t_read, c_read, t_fig, c_fig, t_png, c_png;
  cairo_t *cr;

  if (!g_file_set_contents (path, json, -1, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  t0 = g_get_monotonic_time (), c0 = cpu_us ();
  run = ks_run_load_json (path, &error);
  t_read = g_get_monotonic_time () - t0, c_read = cpu_us () - c0;
  if (run == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  t0 = g_get_monotonic_time (), c0 = cpu_us ();
  ks_figure_options_init (&options);
  plot = ks_figure_plot_new (NULL, &run, 1, &options);
  t_fig = g_get_monotonic_time () - t0, c_fig = cpu_us () - c0;
  t0 = g_get_monotonic_time (), c0 = cpu_us ();
  if (!ks_plot_export (plot, png, 1200, 750, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  t_png = g_get_monotonic_time () - t0, c_png = cpu_us () - c0;
  g_print ("results: %u points, %.0f MB: read %.3f s (%.3f CPU), figure %.3f s (%.3f), PNG %.3f s (%.3f); "
           "read + draw %.3f s (%.3f CPU)",
           n_points, strlen (json) / 1e6, t_read / 1e6, c_read / 1e6, t_fig / 1e6, c_fig / 1e6, t_png / 1e6,
           c_png / 1e6, (t_read + t_fig + t_png) / 1e6, (c_read + c_fig + c_png) / 1e6);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 640);
  cr = cairo_create (surface);
  t0 = g_get_monotonic_time (), c0 = cpu_us ();
  ks_plot_render (plot, cr, 1000, 640, NULL);
  g_print ("; a window's redraw %.3f s (%.3f CPU)\n", (g_get_monotonic_time () - t0) / 1e6, (cpu_us () - c0) / 1e6);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  if (keep == NULL)
    g_unlink (path);
  g_unlink (png);
  g_rmdir (dir);
  return 0;
}
