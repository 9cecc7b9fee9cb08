/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Paper 002's experiments through the engine, on PoCL and on the host:
 * every method measured and checked (residual, the derived speed-up
 * against the baseline of the same run, the padded size), SERICR's sizes
 * padded or refused while the sweep goes on, device methods refused on the
 * host device, the conclusions stated, and every figure drawn. */
#include "ks-device-list.h"
#include "ks-engine.h"
#include "ks-exp-tridiag.h"
#include "ks-figure.h"
#include "ks-run.h"

#include <math.h>
#include <string.h>

static KsDeviceList *devices;

static KsRun *
run_experiment (const KsExperimentDesc *desc,
                KsDevice               *device,
                const char * const     *settings)
{
  g_autoptr(KsEngine) engine = ks_engine_new (desc);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; settings[i]; i += 2)
    {
      ks_engine_set (engine, settings[i], settings[i + 1], &error);
      g_assert_no_error (error);
    }
  ks_engine_set_repetitions (engine, 0, 2, &error);
  g_assert_no_error (error);
  ks_engine_add_device (engine, device);
  ks_engine_run (engine, NULL, &error);
  g_assert_no_error (error);
  return ks_run_ref (ks_engine_get_run (engine));
}

static const char *
method_of (const KsRun      *run,
           const KsRunPoint *p)
{
  return g_variant_get_string (ks_run_point_get_param (run, p, "method"), NULL);
}

static const KsRunPoint *
point_of (const KsRun *run,
          const char  *method,
          double       systems)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      if (strcmp (method_of (run, p), method) == 0 && ks_run_point_get_number (run, p, "systems") == systems)
        return p;
    }
  g_error ("no point of %s at %g systems", method, systems);
}

static double
value (const KsRun      *run,
       const KsRunPoint *p,
       const char       *column)
{
  return ks_run_point_get_number (run, p, column);
}

/* Every method on PoCL at a size that is not 2^k - 1: all measured, the
 * solution right, SERICR padded to 31, the speed-ups derived from this
 * run's own baselines, and the conclusion stated. */
static void
test_batch_opencl (void)
{
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  const char *settings[] = {
    "n", "20", "systems", "8,40",
    "method", "cpu-thomas,cpu-sericr,omp-thomas,lapack-gtsv,thomas-global,thomas-local,thomas-interleaved,"
              "sericr-global,sericr-local,paracr-global,paracr-full,paracr-partial,paracr-interleaved",
    NULL
  };
  g_autoptr(KsRun) run = NULL;
  g_autoptr(GString) summary = g_string_new (NULL);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  run = run_experiment (&ks_exp_tridiag_batch, cl, settings);
  g_assert_cmpuint (run->points->len, ==, 26);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const char *m = method_of (run, p);
      const KsRunPoint *base;

      if (p->error && strcmp (m, "lapack-gtsv") == 0)
        continue;   /* built without LAPACKE: refused, saying so */
      if (p->error)
        g_error ("%s: %s", m, p->error);
      g_assert_cmpfloat (value (run, p, "time_ms"), >, 0.0);
      g_assert_cmpfloat (value (run, p, "residual"), <, 1e-4);
      g_assert_cmpfloat (value (run, p, "gbs"), >, 0.0);
      g_assert_cmpfloat (value (run, p, "solved_n"), ==, strstr (m, "sericr") ? 31 : 20);
      base = point_of (run, strstr (m, "thomas") || strstr (m, "gtsv") ? "cpu-thomas" : "cpu-sericr",
                       value (run, p, "systems"));
      g_assert_cmpfloat_with_epsilon (value (run, p, "speedup"),
                                      value (run, base, "time_ms") / value (run, p, "time_ms"), 1e-12);
    }
  ks_exp_tridiag_batch.summarize (run, summary);
  g_assert_nonnull (strstr (summary->str, "at systems = 40: the best thomas-*"));
  /* Whether the paper's conclusion holds is what the device measures, not
   * what a test may assert: the summary must say one or the other. */
  g_assert_true (strstr (summary->str, "holds here") != NULL || strstr (summary->str, "does not hold here") != NULL);
  g_assert_nonnull (strstr (summary->str, "the paper's pick, thomas-interleaved,"));

  /* Every figure draws, the bars with a bar of the paper's speed-ups. */
  for (guint f = 0; f < ks_exp_tridiag_batch.n_figures; f++)
    {
      g_autoptr(KsPlot) plot = ks_figure_plot_new (&ks_exp_tridiag_batch.figures[f], &run, 1, NULL);
      gboolean paper = FALSE;

      g_assert_nonnull (plot);
      g_assert_cmpuint (ks_plot_get_n_series (plot), >, 1);
      for (guint k = 0; k < ks_plot_get_n_series (plot); k++)
        paper |= g_str_has_prefix (ks_plot_series_get_name (plot, k), "paper");
      /* On the line figure the paper's numbers are reference lines, not series. */
      if (ks_exp_tridiag_batch.figures[f].categorical_x)
        g_assert_true (paper);
    }
}

/* pad = false: SERICR's points are refused with the size it needs, and
 * the sweep goes on to the others. */
static void
test_batch_refused (void)
{
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  const char *settings[] = {
    "n", "100", "systems", "3", "pad", "false", "precision", "double",
    "method", "cpu-sericr,sericr-global,paracr-partial", NULL
  };
  g_autoptr(KsRun) run = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  run = run_experiment (&ks_exp_tridiag_batch, cl, settings);
  g_assert_cmpuint (run->points->len, ==, 3);
  for (guint i = 0; i < 2; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      g_assert_nonnull (p->error);
      g_assert_nonnull (strstr (p->error, "2^k - 1"));
      g_assert_nonnull (strstr (p->error, "127"));
    }
  g_assert_null (((KsRunPoint *) run->points->pdata[2])->error);
  g_assert_cmpfloat (value (run, run->points->pdata[2], "residual"), <, 1e-12);
  /* Its baseline was refused: no speed-up rather than a made-up one. */
  g_assert_true (isnan (value (run, run->points->pdata[2], "speedup")));
}

/* On the host device the kernels are refused, saying where they run; the
 * CPU methods are measured. */
static void
test_batch_host (void)
{
  KsDevice *host = ks_device_list_lookup (devices, "host", NULL);
  const char *settings[] = { "n", "15", "systems", "4", "method", "cpu-thomas,omp-thomas,thomas-global", NULL };
  g_autoptr(KsRun) run = run_experiment (&ks_exp_tridiag_batch, host, settings);

  g_assert_cmpuint (run->points->len, ==, 3);
  g_assert_null (((KsRunPoint *) run->points->pdata[0])->error);
  g_assert_null (((KsRunPoint *) run->points->pdata[1])->error);
  g_assert_nonnull (strstr (((KsRunPoint *) run->points->pdata[2])->error, "OpenCL and CUDA"));
}

/* One system of growing size, with the crossover stated. */
static void
test_large (void)
{
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  const char *settings[] = { "n", "7,100", "method", "cpu-thomas,cpu-sericr,thomas-global,sericr-local,paracr-full",
                             NULL };
  g_autoptr(KsRun) run = NULL;
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(KsPlot) plot = NULL;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  run = run_experiment (&ks_exp_tridiag_large, cl, settings);
  g_assert_cmpuint (run->points->len, ==, 10);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      g_assert_null (p->error);
      g_assert_cmpfloat (value (run, p, "residual"), <, 1e-4);
    }
  ks_exp_tridiag_large.summarize (run, summary);
  g_assert_nonnull (strstr (summary->str, "at n = 100: the best paracr-* (paracr-full"));
  plot = ks_figure_plot_new (&ks_exp_tridiag_large.figures[0], &run, 1, NULL);
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 5);
}

/* bench-tridiag's default methods by device (no device is asked
 * anything: a stand-in for a CUDA device does): cuSPARSE's only on CUDA,
 * gtsv2_nopivot only for one system, thomas-split everywhere. */
static void
test_bench_defaults (void)
{
  const KsExperimentDesc *desc = &ks_exp_bench_tridiag;
  const KsParamSpec *spec = &desc->params[ks_experiment_desc_find_param (desc, "method")];
  KsDeviceInfo info = { .backend = KS_BACKEND_CUDA, .type = KS_DEVICE_TYPE_GPU };
  g_autoptr(KsDevice) cuda = NULL, host = NULL;
  g_autoptr(KsConfig) base = ks_config_new (desc);
  g_autoptr(GError) error = NULL;
  struct { gboolean cuda; const char *systems; gboolean strided, nopivot; } cases[] = {
    { TRUE, "64", TRUE, FALSE }, { TRUE, "1", TRUE, TRUE }, { FALSE, "64", FALSE, FALSE }, { FALSE, "1", FALSE, FALSE },
  };

  info.id = g_strdup ("cuda:9");
  info.name = g_strdup ("a CUDA device standing in");
  cuda = ks_device_new (&info, NULL, NULL);
  host = g_object_ref (ks_device_list_find_backend (devices, KS_BACKEND_HOST));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *why = NULL, *text = NULL;
      g_auto(GStrv) methods = NULL;

      g_assert_true (ks_config_set_string (base, "systems", cases[i].systems, &error));
      g_assert_no_error (error);
      text = ks_param_default_text (spec, cases[i].cuda ? cuda : host, base, &why, &error);
      g_assert_no_error (error);
      methods = g_strsplit (text, ",", -1);
      g_assert_true (g_strv_contains ((const char * const *) methods, "thomas-split"));
      g_assert_true (g_strv_contains ((const char * const *) methods, "cpu-thomas"));
      if (g_strv_contains ((const char * const *) methods, "cusparse-strided") != cases[i].strided ||
          g_strv_contains ((const char * const *) methods, "cusparse-nopivot") != cases[i].nopivot)
        g_error ("case %u (%s, --systems %s): %s (%s)", i, cases[i].cuda ? "CUDA" : "host", cases[i].systems,
                 text, why);
      g_assert_nonnull (why);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/exp-tridiag/batch-opencl", test_batch_opencl);
  g_test_add_func ("/exp-tridiag/batch-refused", test_batch_refused);
  g_test_add_func ("/exp-tridiag/batch-host", test_batch_host);
  g_test_add_func ("/exp-tridiag/large", test_large);
  g_test_add_func ("/exp-tridiag/bench-defaults", test_bench_defaults);
  status = g_test_run ();
  g_object_unref (devices);
  return status;
}
