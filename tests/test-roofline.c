/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-roofline.c: the fraction of the floor (ks-roofline.c) from a
 * description declared here whose points move known bytes in known time,
 * against known triads; runs without a triad say so; several devices
 * share one plot with named points. */
#define G_LOG_DOMAIN "ks-test"

#include "ks-roofline.h"

#include <math.h>
#include <string.h>

static const KsParamSpec params[] = {
  { .name = "n", .label = "Elements", .help = "How many", .type = KS_PARAM_INT,
    .default_value = "1", .min = 1, .max = 1e12, .sweepable = TRUE },
};

static const KsColumnSpec columns[] = {
  { "time_ms", "time", "ms", "per pass", KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
};

/* n elements of 8 bytes, n / 4 operations: intensity 1/32. */
static gboolean
test_work (const KsRun      *run,
           const KsRunPoint *point,
           KsWork           *out)
{
  const double n = ks_run_point_get_number (run, point, "n");

  out->bytes = 8 * n;
  out->ops = n / 4;
  out->seconds = point->values[0] * 1e-3;
  return TRUE;
}

static const KsExperimentDesc roof_desc = {
  .id = "roof-test", .title = "Roof test", .paper = "999",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = G_N_ELEMENTS (columns),
  .work = test_work,
};

static const KsExperimentDesc no_work_desc = {
  .id = "no-work", .title = "No work", .paper = "999",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = G_N_ELEMENTS (columns),
};

static void
add_point (KsRun      *run,
           gint64      n,
           double      ms,
           const char *error)
{
  KsRunPoint *p = ks_run_point_new (run);

  p->params[0] = g_variant_ref_sink (g_variant_new_int64 (n));
  p->values[0] = ms;
  p->error = g_strdup (error);
  ks_run_add_point (run, p);
}

/* 1e9 elements (8 GB) in 2 s or 4 s on a device called name. */
static KsRun *
made_run (const KsExperimentDesc *desc,
          const char             *name,
          const char             *backend,
          double                  triad_gbs)
{
  KsRun *run = ks_run_new (desc);
  KsRunDevice *d = ks_run_device_new ();

  d->id = g_strdup (backend);
  d->name = g_strdup (name);
  d->backend = g_strdup (backend);
  if (!isnan (triad_gbs))
    ks_run_device_set_info (d, "triad_gbs", triad_gbs);
  g_ptr_array_add (run->devices, d);
  g_strfreev (run->axes);
  run->axes = g_strsplit ("n", " ", -1);
  add_point (run, 1000000000, 2000, NULL);
  add_point (run, 1000000000, 4000, NULL);
  add_point (run, 2000000000, NAN, "does not fit");
  return run;
}

/* 8 GB in 2 s is 4 GB/s: against a triad of 8 GB/s, half the floor. */
static void
test_roofline_fraction (void)
{
  g_autoptr(KsRun) run = made_run (&roof_desc, "Card", "opencl", 8);
  KsRoofPoint rp;
  g_autofree char *text = NULL;

  g_assert_true (ks_roofline_derive (run, run->points->pdata[0], 8, NAN, &rp));
  g_assert_cmpfloat_with_epsilon (rp.gbs, 4, 1e-12);
  g_assert_cmpfloat_with_epsilon (rp.gops, 0.125, 1e-12);
  g_assert_cmpfloat_with_epsilon (rp.intensity, 1.0 / 32, 1e-12);
  g_assert_cmpfloat_with_epsilon (rp.floor_fraction, 0.5, 1e-12);
  g_assert_cmpint (rp.bound, ==, KS_BOUND_MEMORY);
  text = ks_roofline_bound_text (&rp);
  g_assert_cmpstr (text, ==, "memory-bound, 50 % of triad");

  /* 4 s: a quarter.  A refused point has no place at all. */
  g_assert_true (ks_roofline_derive (run, run->points->pdata[1], 8, NAN, &rp));
  g_assert_cmpfloat_with_epsilon (rp.floor_fraction, 0.25, 1e-12);
  g_assert_false (ks_roofline_derive (run, run->points->pdata[2], 8, NAN, &rp));

  /* A peak of 0.1 Gop/s makes the 2.5e8 operations take 2.5 s at the
   * least, longer than the 1 s of the bytes: compute-bound, 2.5 of 4 s. */
  g_assert_true (ks_roofline_derive (run, run->points->pdata[1], 8, 0.1, &rp));
  g_assert_cmpint (rp.bound, ==, KS_BOUND_COMPUTE);
  g_assert_cmpfloat_with_epsilon (rp.floor_fraction, 2.5 / 4, 1e-12);
}

/* No triad measured: the point is drawn, its floor is unknown and said
 * so, and the device is listed for a probe. */
static void
test_roofline_no_triad (void)
{
  g_autoptr(KsRun) run = made_run (&roof_desc, "Card", "opencl", NAN);
  g_autoptr(KsRoofline) roofline = ks_roofline_new ();
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(GPtrArray) missing = NULL;
  g_autofree char *tip = NULL;
  KsRoofPoint rp;
  g_autofree char *text = NULL;

  g_assert_true (ks_roofline_derive (run, run->points->pdata[0], NAN, NAN, &rp));
  g_assert_cmpint (rp.bound, ==, KS_BOUND_UNKNOWN);
  g_assert_true (isnan (rp.floor_fraction));
  text = ks_roofline_bound_text (&rp);
  g_assert_nonnull (strstr (text, "no triad measured"));

  g_assert_true (ks_roofline_add_run (roofline, run, NULL));
  missing = ks_roofline_missing_triads (roofline);
  g_assert_cmpuint (missing->len, ==, 1);
  g_assert_cmpstr (((KsRunDevice *) missing->pdata[0])->name, ==, "Card");
  g_assert_cmpstr (((KsRunDevice *) missing->pdata[0])->backend, ==, "opencl");
  plot = ks_roofline_plot_new (roofline);
  /* The points, and no line without a triad. */
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 1);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 0), ==, 2);
  tip = ks_roofline_point_text (roofline, 0, 0);
  g_assert_nonnull (strstr (tip, "no triad measured"));

  /* A probe fills it in. */
  ks_roofline_set_triad (roofline, "Card", "opencl", 16);
  g_clear_pointer (&missing, g_ptr_array_unref);
  missing = ks_roofline_missing_triads (roofline);
  g_assert_cmpuint (missing->len, ==, 0);
}

/* Two devices on one plot: each point named, its bound in its tooltip;
 * a device's triad recorded by another run of it (of any experiment) is
 * used, one of the same name through another backend is not. */
static void
test_roofline_devices (void)
{
  g_autoptr(KsRun) gpu = made_run (&roof_desc, "Card", "cuda", NAN);
  g_autoptr(KsRun) gpu_other = made_run (&no_work_desc, "Card", "cuda", 8);
  g_autoptr(KsRun) cl = made_run (&roof_desc, "Card", "opencl", NAN);
  g_autoptr(KsRun) cpu = made_run (&roof_desc, "Cores", "host", 2);
  g_autoptr(KsRoofline) roofline = ks_roofline_new ();
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(GPtrArray) missing = NULL;
  g_autofree char *tip = NULL, *cpu_tip = NULL, *cl_tip = NULL;

  g_assert_true (ks_roofline_add_run (roofline, gpu, "recorded"));
  /* Not on the roofline, but it tells the CUDA card's triad. */
  g_assert_false (ks_roofline_add_run (roofline, gpu_other, NULL));
  g_assert_true (ks_roofline_add_run (roofline, cl, NULL));
  g_assert_true (ks_roofline_add_run (roofline, cpu, NULL));
  g_assert_cmpuint (ks_roofline_count_points (roofline), ==, 6);
  missing = ks_roofline_missing_triads (roofline);
  g_assert_cmpuint (missing->len, ==, 1);
  g_assert_cmpstr (((KsRunDevice *) missing->pdata[0])->backend, ==, "opencl");

  plot = ks_roofline_plot_new (roofline);
  /* Three series of points, then the lines of the two devices with a triad. */
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 5);
  g_assert_cmpstr (ks_plot_series_get_name (plot, 0), ==, "Roof test, Card (CUDA), recorded");
  g_assert_cmpint (ks_plot_series_get_kind (plot, 0), ==, KS_PLOT_SERIES_POINTS);
  g_assert_true (g_str_has_prefix (ks_plot_series_get_name (plot, 3), "Card (CUDA): triad 8.0 GB/s, peak unknown"));
  g_assert_true (g_str_has_prefix (ks_plot_series_get_name (plot, 4), "Cores (host): triad 2.0 GB/s"));
  g_assert_true (ks_plot_series_get_dashed (plot, 3));
  /* The line passes through triad x intensity. */
  {
    const KsPlotPoint *a = ks_plot_series_get_point (plot, 3, 0);
    g_assert_cmpfloat_with_epsilon (a->y, 8 * a->x, 1e-9);
  }
  tip = ks_roofline_point_text (roofline, 0, 0);
  g_assert_true (g_str_has_prefix (tip, "Roof test: Elements = 1000000000\nCard (CUDA), recorded\n"));
  g_assert_nonnull (strstr (tip, "memory-bound, 50 % of triad"));
  cpu_tip = ks_roofline_point_text (roofline, 2, 1);
  /* 2 GB/s over a triad of 2: on the floor. */
  g_assert_nonnull (strstr (cpu_tip, "memory-bound, 100 % of triad"));
  cl_tip = ks_roofline_point_text (roofline, 1, 0);
  g_assert_nonnull (strstr (cl_tip, "no triad measured"));
  g_assert_null (ks_roofline_point_text (roofline, 3, 0));
}

int
main (int    argc,
      char **argv)
{
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/roofline/fraction", test_roofline_fraction);
  g_test_add_func ("/roofline/no-triad", test_roofline_no_triad);
  g_test_add_func ("/roofline/devices", test_roofline_devices);
  return g_test_run ();
}
