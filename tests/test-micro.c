/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Paper 001's micro-benchmarks (ks-micro.h) on every OpenCL device here
 * (PoCL in CI), each checked against its host reference, alone and through
 * the engine with their descriptions; bad input refused with the limit. */
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-engine.h"
#include "ks-exp-micro.h"
#include "ks-image.h"
#include "ks-micro.h"
#include "ks-run.h"
#include "ks-test-run-util.h"
#include "ks-solver-error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static KsDeviceList *devices;

static KsDevice *
opencl_device (void)
{
  return ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
}

#define NEED_OPENCL(dev)                                     \
  KsDevice *dev = opencl_device ();                          \
  if (dev == NULL)                                           \
    {                                                        \
      g_test_skip ("no OpenCL device");                      \
      return;                                                \
    }

static void
test_hello_host_reference (void)
{
  const gint16 left[] = { 1, -5, 32000, -32000 };
  const gint16 right[] = { 2, 5, 700, -700 };
  gint16 out[4];

  ks_micro_hello_host (left, right, out, 4);
  g_assert_cmpint (out[0], ==, 3);
  g_assert_cmpint (out[1], ==, 0);
  g_assert_cmpint (out[2], ==, 32700);
  g_assert_cmpint (out[3], ==, -32700);
}

/* Every timing on the device: the sums equal the host's, times are real. */
static void
test_hello_device (void)
{
  NEED_OPENCL (dev);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroHello) hello = ks_micro_hello_new (dev, &error);
  /* Odd lengths, so the driver's group cannot divide them evenly. */
  const guint64 lengths[] = { 1, 1000, 4099 };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_assert_true (ks_micro_hello_set_length (hello, lengths[i], &error));
      g_assert_no_error (error);
      for (KsMicroHelloTiming t = KS_MICRO_HELLO_HOST; t <= KS_MICRO_HELLO_BUILD; t++)
        {
          KsMicroHelloResult r;

          g_assert_true (ks_micro_hello_run (hello, t, &r, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (r.wrong, ==, 0);
          g_assert_true (isfinite (r.ms) && r.ms >= 0);
          if (t == KS_MICRO_HELLO_HOST)
            g_assert_cmpuint (r.host_repeats, >=, 1);
          if (t == KS_MICRO_HELLO_TRANSFERS)
            /* The wall clock holds the device's own times. */
            g_assert_cmpfloat (r.upload_ms + r.kernel_ms + r.download_ms, <=, r.ms * 1.05 + 0.01);
        }
    }
}

static void
test_hello_bad_length (void)
{
  NEED_OPENCL (dev);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroHello) hello = ks_micro_hello_new (dev, &error);
  KsMicroHelloResult r;

  g_assert_no_error (error);
  g_assert_false (ks_micro_hello_set_length (hello, 0, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "4294967295"));
  g_clear_error (&error);
  g_assert_false (ks_micro_hello_set_length (hello, G_GUINT64_CONSTANT (1) << 33, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "8589934592"));
  g_clear_error (&error);
  /* Nothing was lost: the next length works. */
  g_assert_true (ks_micro_hello_set_length (hello, 100, &error));
  g_assert_true (ks_micro_hello_run (hello, KS_MICRO_HELLO_KERNEL, &r, &error));
  g_assert_cmpuint (r.wrong, ==, 0);
}

static KsRun *
run_engine (const KsExperimentDesc *desc,
            KsDevice               *dev,
            const char * const     *settings)
{
  g_autoptr(KsEngine) engine = ks_engine_new (desc);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; settings[i]; i += 2)
    {
      g_assert_true (ks_engine_set (engine, settings[i], settings[i + 1], &error));
      g_assert_no_error (error);
    }
  g_assert_true (ks_engine_set_repetitions (engine, 0, 1, &error));
  ks_engine_add_device (engine, dev);
  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);
  return ks_run_ref (ks_engine_get_run (engine));
}

/* host, kernel and transfers at each length, and one build point without
 * a length; the derived columns compare with the host point. */
static void
test_hello_engine (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "timing", "host,kernel,transfers,build", "length", "1000,4096", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_hello, dev, settings);
  int wrong = ks_experiment_desc_find_column (run->desc, "wrong");
  int faster = ks_experiment_desc_find_column (run->desc, "faster_than_host");
  int speedup = ks_experiment_desc_find_column (run->desc, "speedup");
  int time = ks_experiment_desc_find_column (run->desc, "time_ms");
  guint builds = 0;

  g_assert_cmpuint (run->points->len, ==, 7);
  g_assert_true (run->complete);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      double timing = ks_run_point_get_number (run, p, "timing");

      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[wrong], ==, 0);
      g_assert_true (isfinite (p->values[time]));
      if (timing == KS_MICRO_HELLO_BUILD)
        {
          builds++;
          g_assert_null (ks_run_point_get_param (run, p, "length"));
          g_assert_true (isnan (p->values[faster]));
        }
      else if (timing == KS_MICRO_HELLO_HOST)
        {
          g_assert_true (isnan (p->values[faster]));
          g_assert_cmpfloat_with_epsilon (p->values[speedup], 1.0, 1e-12);
        }
      else
        g_assert_true (p->values[faster] == 0 || p->values[faster] == 1);
    }
  g_assert_cmpuint (builds, ==, 1);
  g_assert_false (isnan (ks_run_device_get_info (run->devices->pdata[0], "timer_resolution_ns")));
}

/* The lengths the description takes, refused with the limit before anything runs. */
static void
test_hello_bad_settings (void)
{
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_micro_hello);
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_engine_set (engine, "length", "0", &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (ks_engine_set (engine, "length", "2^31", &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "268435456"));
  g_clear_error (&error);
  g_assert_false (ks_engine_set (engine, "timing", "host,quantum", &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID);
}

static void
test_simd_host_reference (void)
{
  /* One iteration by hand: ((10 * 5 + 2) / 7) - 4 = 3; ((-50 + 2) / 7) - 4 = -10 (C's division truncates). */
  g_assert_cmpint (ks_micro_simd_host (10, 0), ==, 0);
  g_assert_cmpint (ks_micro_simd_host (10, 1), ==, 3);
  g_assert_cmpint (ks_micro_simd_host (-10, 1), ==, -10);
  /* It settles near input - 6 and stays there. */
  g_assert_cmpint (ks_micro_simd_host (1000, 100), ==, ks_micro_simd_host (1000, 101));
  g_assert_cmpint (abs (ks_micro_simd_host (1000, 100) - 994), <=, 2);
  g_assert_cmpint (ks_micro_simd_width_index (16), ==, 4);
  g_assert_cmpint (ks_micro_simd_width_index (3), ==, -1);
}

/* Every width on the device equals the host on the checked elements. */
static void
test_simd_device (void)
{
  NEED_OPENCL (dev);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroLoop) simd = ks_micro_loop_new (dev, &error);

  g_assert_no_error (error);
  for (guint width = 1; width <= 16; width *= 2)
    {
      KsMicroLoopResult r;

      /* 37 items: no driver group divides them evenly. */
      g_assert_true (ks_micro_loop_prepare_simd (simd, width, 37, 1000, &error));
      g_assert_no_error (error);
      g_assert_true (ks_micro_loop_run (simd, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (r.checked, ==, MIN (37 * width, KS_MICRO_LOOP_CHECKED));
      g_assert_cmpuint (r.wrong, ==, 0);
      g_assert_true (isfinite (r.kernel_ms) && r.kernel_ms >= 0);
    }
  g_assert_false (ks_micro_loop_prepare_simd (simd, 3, 37, 10, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "short3"));
  g_clear_error (&error);
  g_assert_false (ks_micro_loop_prepare_simd (simd, 4, 0, 10, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
}

static void
test_simd_engine (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "items", "33", "iterations", "2000", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_simd, dev, settings);
  int wrong = ks_experiment_desc_find_column (run->desc, "wrong");
  int gain = ks_experiment_desc_find_column (run->desc, "gain");
  int shorts = ks_experiment_desc_find_column (run->desc, "shorts");
  int preferred = ks_experiment_desc_find_column (run->desc, "preferred_width");

  g_assert_cmpuint (run->points->len, ==, 5);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[wrong], ==, 0);
      g_assert_cmpfloat (p->values[shorts], ==, 33 << i);
      g_assert_true (isfinite (p->values[gain]) && p->values[gain] > 0);
      g_assert_cmpfloat (p->values[preferred], ==,
                         ks_device_get_info (dev)->vector_width_preferred[KS_VECTOR_SHORT]);
    }
  g_assert_cmpfloat (((KsRunPoint *) run->points->pdata[0])->values[gain], ==, 1.0);
  g_assert_false (isnan (ks_run_device_get_info (run->devices->pdata[0], "native_width_short")));
}

/* The default is 2^16 iterations (the run must take seconds through PoCL),
 * the paper's 2^20 one option away; the paper's times per element are its
 * Table 3 divided by 256 work-items x width x 2^20, to three digits, so
 * that they stand beside a run of any size. */
static void
test_simd_paper_per_element (void)
{
  const KsExperimentDesc *desc = &ks_exp_micro_simd;
  const KsParamSpec *iterations = &desc->params[ks_experiment_desc_find_param (desc, "iterations")];
  guint per_element = 0;

  g_assert_cmpstr (iterations->default_value, ==, "65536");
  g_assert_cmpfloat (iterations->max, >=, 1048576);
  for (guint i = 0; i < desc->n_paper_values; i++)
    {
      const KsPaperValue *ns = &desc->paper_values[i];
      g_autofree char *width = NULL;
      guint lanes;
      gboolean found = FALSE;

      if (g_strcmp0 (ns->column, "ns_per_element_iteration") != 0)
        continue;
      per_element++;
      width = g_strndup (ns->where + strlen ("width="), strcspn (ns->where + strlen ("width="), " "));
      lanes = strcmp (width, "short") == 0 ? 1 : (guint) atoi (width + strlen ("short"));
      g_assert_cmpint (ks_micro_simd_width_index (lanes), >=, 0);
      for (guint j = 0; j < desc->n_paper_values; j++)
        {
          const KsPaperValue *ms = &desc->paper_values[j];
          g_autofree char *prefix = g_strdup_printf ("width=%s ", width);

          if (g_strcmp0 (ms->column, "time_ms") != 0 || g_strcmp0 (ms->label, ns->label) != 0 ||
              !g_str_has_prefix (ms->where, prefix))
            continue;
          g_assert_nonnull (strstr (ms->where, "items=256 iterations=1048576"));
          g_assert_cmpfloat_with_epsilon (ns->value, ms->value * 1e6 / (256.0 * lanes * 1048576.0), ns->value * 0.005);
          found = TRUE;
        }
      g_assert_true (found);
    }
  g_assert_cmpuint (per_element, ==, 9);
}

/* The same elements at every width: a count short16 cannot divide refuses
 * that point alone, saying why. */
static void
test_simd_elements (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "scaling", "elements", "elements", "36", "width", "short,short4,short16",
                             "iterations", "100", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_simd, dev, settings);
  int items = ks_experiment_desc_find_column (run->desc, "work_items");
  const KsRunPoint *p;

  g_assert_cmpuint (run->points->len, ==, 3);
  p = run->points->pdata[1];
  g_assert_null (p->error);
  g_assert_cmpfloat (p->values[items], ==, 9);
  p = run->points->pdata[2];
  g_assert_nonnull (p->error);
  g_assert_nonnull (strstr (p->error, "multiple of 16"));
}

/* One iteration of 16 bodies from 1000 by hand: 1000 -> 2499 -> 6247 ->
 * 15617 -> 16382 (mad_sat saturates at 32767, abs_diff gives 32760, hadd
 * halves with the 4), where the built-ins stay. */
static void
test_builtins_host_reference (void)
{
  g_assert_cmpint (ks_micro_builtins_host (1000, TRUE, 1), ==, 16382);
  g_assert_cmpint (ks_micro_builtins_host (1000, TRUE, 5), ==, 16382);
  /* The plain product wraps instead: 78087 becomes 12551, and it goes on elsewhere. */
  g_assert_cmpint (ks_micro_builtins_host (1000, FALSE, 1), !=, 16382);
  g_assert_cmpint (ks_micro_builtins_host (-3, FALSE, 0), ==, -3);
}

static void
test_builtins_device (void)
{
  NEED_OPENCL (dev);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroLoop) loop = ks_micro_loop_new (dev, &error);

  g_assert_no_error (error);
  for (int builtins = 0; builtins <= 1; builtins++)
    {
      KsMicroLoopResult r;

      g_assert_true (ks_micro_loop_prepare_builtins (loop, builtins, 37, 300, &error));
      g_assert_no_error (error);
      g_assert_true (ks_micro_loop_run (loop, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (r.checked, ==, 37);
      g_assert_cmpuint (r.wrong, ==, 0);
    }
}

static void
test_builtins_engine (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "items", "40", "iterations", "100", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_builtins, dev, settings);
  int wrong = ks_experiment_desc_find_column (run->desc, "wrong");
  int ratio = ks_experiment_desc_find_column (run->desc, "vs_plain");

  g_assert_cmpuint (run->points->len, ==, 2);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[wrong], ==, 0);
      g_assert_true (isfinite (p->values[ratio]) && p->values[ratio] > 0);
    }
  g_assert_cmpfloat (((KsRunPoint *) run->points->pdata[0])->values[ratio], ==, 1.0);
}

/* The precise forms within the OpenCL 1.2 full profile's bounds against
 * the host's double precision (sin, cos 4 ulp; exp, log, sqrt 3; rsqrt
 * 2); the native_ forms only finite, their accuracy being the device's. */
static void
test_native_device (void)
{
  NEED_OPENCL (dev);
  const double bounds[KS_MICRO_N_FUNCTIONS] = { 4, 4, 3, 3, 3, 2 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroMath) math = ks_micro_math_new (dev, &error);

  g_assert_no_error (error);
  for (KsMicroFunction fn = 0; fn < KS_MICRO_N_FUNCTIONS; fn++)
    for (int native = 0; native <= 1; native++)
      {
        KsMicroMathResult r;

        g_assert_true (ks_micro_math_prepare (math, fn, native, 999, 3, &error));
        g_assert_no_error (error);
        g_assert_true (ks_micro_math_run (math, &r, &error));
        g_assert_no_error (error);
        g_test_message ("%s%s: %.3g ulp", native ? "native_" : "", ks_micro_function_name (fn), r.max_ulp);
        g_assert_true (isfinite (r.max_ulp) && isfinite (r.max_abs) && isfinite (r.kernel_ms));
        if (!native)
          g_assert_cmpfloat (r.max_ulp, <=, bounds[fn]);
      }
  g_assert_cmpfloat (ks_micro_function_host (KS_MICRO_RSQRT, 4.0), ==, 0.5);
  g_assert_false (ks_micro_math_prepare (math, KS_MICRO_SIN, FALSE, 0, 3, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
}

static void
test_native_engine (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "function", "sin,sqrt", "items", "512", "iterations", "4", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_native, dev, settings);
  int ulp = ks_experiment_desc_find_column (run->desc, "max_ulp");
  int speedup = ks_experiment_desc_find_column (run->desc, "speedup");

  g_assert_cmpuint (run->points->len, ==, 4);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      g_assert_null (p->error);
      g_assert_true (isfinite (p->values[ulp]));
      g_assert_true (isfinite (p->values[speedup]) && p->values[speedup] > 0);
    }
}

static void
test_filter_host_reference (void)
{
  guint8 flat[12], out[12];
  guint8 step[12] = { 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255 };

  /* The taps sum to 256: a flat row stays flat, to the byte. */
  memset (flat, 77, sizeof flat);
  ks_micro_filter_host_row (flat, out, 12);
  for (guint j = 0; j < 12; j++)
    g_assert_cmpint (out[j], ==, 77);
  /* A step: the ends repeat (clamped), the middle is the binomial's sums:
   * (255 * (70 + 56 + 28 + 8 + 1) + 128) >> 8 = 162 right of the edge. */
  ks_micro_filter_host_row (step, out, 12);
  g_assert_cmpint (out[0], ==, 0);
  g_assert_cmpint (out[11], ==, 255);
  g_assert_cmpint (out[6], ==, (255 * 163 + 128) >> 8);
  g_assert_cmpint (out[5], ==, (255 * 93 + 128) >> 8);
}

/* Every strategy on the device: the rows equal the host's. */
static void
test_filter_device (void)
{
  NEED_OPENCL (dev);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroFilter) filter = ks_micro_filter_new (dev, &error);

  g_assert_no_error (error);
  for (KsMicroBuffers s = 0; s < KS_MICRO_N_BUFFERS; s++)
    {
      KsMicroFilterResult r;

      if (!ks_micro_filter_prepare (filter, s, 37, 100, &error))
        {
          /* Zero-copy where the device has none: said, not faked. */
          g_assert_cmpint (s, ==, KS_MICRO_BUFFERS_ZERO_COPY);
          g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
          g_clear_error (&error);
          continue;
        }
      g_assert_true (ks_micro_filter_run (filter, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (r.checked, ==, 37);
      g_assert_cmpuint (r.wrong, ==, 0);
      g_assert_cmpfloat (r.alloc_ms + r.upload_ms + r.launch_ms + r.download_ms, <=, r.ms * 1.01 + 0.01);
    }
  g_assert_false (ks_micro_filter_prepare (filter, KS_MICRO_BUFFERS_REUSE, 0, 100, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
}

static void
test_filter_engine (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "rows", "16,33", "width", "64", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_buffers, dev, settings);
  int wrong = ks_experiment_desc_find_column (run->desc, "wrong");
  guint measured = 0;

  g_assert_cmpuint (run->points->len, ==, 8);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      if (p->error)
        {
          g_assert_cmpfloat (ks_run_point_get_number (run, p, "strategy"), ==, KS_MICRO_BUFFERS_ZERO_COPY);
          continue;
        }
      measured++;
      g_assert_cmpfloat (p->values[wrong], ==, 0);
    }
  g_assert_cmpuint (measured, >=, 6);
}

/* The host's downscale of a flat image is flat; of a 10 x 10 ramp, by hand
 * at a corner (clamped: the first byte repeats). */
static void
test_scale_host_reference (void)
{
  guint8 image[10 * 10], result[5 * 5];

  memset (image, 200, sizeof image);
  ks_micro_scale_host (image, 10, 10, result);
  for (guint i = 0; i < 25; i++)
    g_assert_cmpint (result[i], ==, 200);
  for (guint y = 0; y < 10; y++)
    for (guint x = 0; x < 10; x++)
      image[y * 10 + x] = (guint8) (x * 10);
  ks_micro_scale_host (image, 10, 10, result);
  /* Row 0, output 0 (centre x = 0): taps over x = -4..4 clamped to 0..4:
   * (0 * (1 + 8 + 28 + 56 + 70) + 10 * 56 + 20 * 28 + 30 * 8 + 40 * 1 + 128) >> 8 = 6;
   * the column pass of a constant column keeps it. */
  g_assert_cmpint (result[0], ==, (560 + 560 + 240 + 40 + 128) >> 8);
  g_assert_cmpint (result[5], ==, result[0]);
}

/* Every scheme on the device equals the host, byte for byte, on a size
 * that no driver group divides; odd and tiny sizes are refused. */
static void
test_scale_device (void)
{
  NEED_OPENCL (dev);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMicroScale) scale = ks_micro_scale_new (dev, &error);

  g_assert_no_error (error);
  for (int mapping = KS_MICRO_DIRECT; mapping <= KS_MICRO_GROUPED; mapping++)
    for (KsMicroEdges edges = 0; edges < KS_MICRO_N_EDGES; edges++)
      {
        KsMicroScaleResult r;

        g_assert_true (ks_micro_scale_prepare (scale, mapping, edges, 62, 34, &error));
        g_assert_no_error (error);
        g_assert_true (ks_micro_scale_run (scale, &r, &error));
        g_assert_no_error (error);
        g_assert_cmpuint (r.wrong, ==, 0);
      }
  g_assert_false (ks_micro_scale_prepare (scale, KS_MICRO_DIRECT, KS_MICRO_EDGE_CLAMPING, 1919, 1080, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "1919 x 1080"));
  g_clear_error (&error);
  g_assert_false (ks_micro_scale_prepare (scale, KS_MICRO_GROUPED, KS_MICRO_EDGE_PADDING, 8, 8, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
}

static void
test_scale_engine (void)
{
  NEED_OPENCL (dev);
  const char *settings[] = { "height", "20,21", "width", "40", NULL };
  g_autoptr(KsRun) run = run_engine (&ks_exp_micro_access, dev, settings);
  int wrong = ks_experiment_desc_find_column (run->desc, "wrong");

  /* Three schemes at two heights; the odd one refused, saying why. */
  g_assert_cmpuint (run->points->len, ==, 6);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      if (ks_run_point_get_number (run, p, "height") == 21)
        {
          g_assert_nonnull (p->error);
          g_assert_nonnull (strstr (p->error, "even"));
          continue;
        }
      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[wrong], ==, 0);
    }
}

/* Each point's pictures reach "point-measured": the input of that point's
 * size and the device's result, which equals the host's downscale of that
 * very input; a refused point leaves the last measured one's in place. */
static void
images_point_cb (KsEngine         *engine,
                 const KsRunPoint *point,
                 guint64           done,
                 guint64           total,
                 guint            *checked)
{
  const KsRun *run = ks_engine_get_run (engine);
  GPtrArray *images = ks_engine_get_images (engine, point->device);
  guint h = (guint) ks_run_point_get_number (run, point, "height");
  const KsImage *in, *out;
  g_autofree guint8 *expected = NULL;

  if (point->error)
    {
      /* 21 rows: refused; the pictures are still the 20 rows'. */
      g_assert_cmpuint (h, ==, 21);
      g_assert_nonnull (images);
      g_assert_cmpuint (((const KsImage *) images->pdata[0])->full_height, ==, 20);
      return;
    }
  g_assert_nonnull (images);
  g_assert_cmpuint (images->len, ==, 2);
  in = images->pdata[0];
  out = images->pdata[1];
  g_assert_cmpstr (in->name, ==, "input");
  g_assert_cmpstr (out->name, ==, "result");
  g_assert_cmpuint (in->format, ==, KS_IMAGE_GREY);
  g_assert_cmpuint (in->width, ==, 40);
  g_assert_cmpuint (in->height, ==, h);
  g_assert_cmpuint (in->step, ==, 1);
  g_assert_cmpuint (out->width, ==, 20);
  g_assert_cmpuint (out->height, ==, h / 2);
  g_assert_nonnull (strstr (in->label, "40 x"));
  expected = g_malloc ((gsize) 20 * (h / 2));
  ks_micro_scale_host (g_bytes_get_data (in->pixels, NULL), 40, h, expected);
  g_assert_cmpmem (g_bytes_get_data (out->pixels, NULL), g_bytes_get_size (out->pixels),
                   expected, (gsize) 20 * (h / 2));
  /* Not a blank picture compared with a blank reference. */
  g_assert_cmpuint (expected[0], !=, expected[(gsize) 20 * (h / 2) - 1]);
  ++*checked;
}

static void
test_scale_images (void)
{
  NEED_OPENCL (dev);
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_micro_access);
  g_autoptr(GError) error = NULL;
  guint checked = 0;

  g_assert_null (ks_engine_get_images (engine, 0));
  g_assert_true (ks_engine_set (engine, "scheme", "grouped-clamping,direct-padding", &error));
  g_assert_true (ks_engine_set (engine, "height", "20,21,30", &error));
  g_assert_true (ks_engine_set (engine, "width", "40", &error));
  g_assert_true (ks_engine_set_repetitions (engine, 0, 1, &error));
  g_assert_no_error (error);
  ks_engine_add_device (engine, dev);
  g_signal_connect (engine, "point-measured", G_CALLBACK (images_point_cb), &checked);
  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (checked, ==, 4);
  /* After the run: the last point's (30 rows). */
  g_assert_cmpuint (((const KsImage *) ks_engine_get_images (engine, 0)->pdata[0])->full_height, ==, 30);
  g_assert_null (ks_engine_get_images (engine, 1));
}

/* --- OpenCL against CUDA --------------------------------------------------------- */

/* A micro-simd point at 2^16 iterations. */
static void
add_simd_point (KsRun      *run,
                guint       device,
                const char *width,
                gint64      items,
                double      ms,
                const char *error)
{
  const KsExperimentDesc *desc = run->desc;
  KsRunPoint *p = ks_run_point_new (run);

  p->device = device;
  p->params[ks_experiment_desc_find_param (desc, "width")] = g_variant_ref_sink (g_variant_new_string (width));
  p->params[ks_experiment_desc_find_param (desc, "scaling")] = g_variant_ref_sink (g_variant_new_string ("items"));
  p->params[ks_experiment_desc_find_param (desc, "items")] = g_variant_ref_sink (g_variant_new_int64 (items));
  p->params[ks_experiment_desc_find_param (desc, "iterations")] = g_variant_ref_sink (g_variant_new_int64 (65536));
  p->values[ks_experiment_desc_find_column (desc, "time_ms")] = error ? NAN : ms;
  p->error = g_strdup (error);
  ks_run_add_point (run, p);
}

/* One H200 through CUDA and through NVIDIA's OpenCL, and PoCL beside
 * them: one line, for the NVIDIA OpenCL device, over the points measured
 * on both with the same parameters (short8 refused on OpenCL, short16 and
 * 1024 items only on CUDA, 512 items on both): ratios 1.05, 1.05, 1.5 and
 * 0.9, median 1.05, three of four within 15 %.  PoCL has no CUDA twin: no
 * line. */
static void
test_backend_ratio (void)
{
  g_autoptr(KsRun) run = ks_run_new (&ks_exp_micro_simd);
  g_autoptr(KsRun) alone = ks_run_new (&ks_exp_micro_access);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) none = g_string_new (NULL);
  const char *widths[] = { "short", "short2", "short4", "short8", "short16" };
  const double cuda[] = { 10, 20, 40, 80, 160 };
  const double ocl[] = { 10.5, 21, 60 };

  ks_test_run_add_device (run, "NVIDIA H200", "cuda", "NVIDIA CUDA");
  ks_test_run_add_device (run, "NVIDIA H200", "opencl", "NVIDIA CUDA");
  ks_test_run_add_device (run, "pthread-haswell-AMD EPYC", "opencl", "Portable Computing Language");
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      add_simd_point (run, 0, widths[w], 256, cuda[w], NULL);
      add_simd_point (run, 2, widths[w], 256, 3 * cuda[w], NULL);
      if (w < G_N_ELEMENTS (ocl))
        add_simd_point (run, 1, widths[w], 256, ocl[w], NULL);
    }
  add_simd_point (run, 1, "short8", 256, 0, "short8 does not build");
  add_simd_point (run, 1, "short", 512, 9, NULL);
  add_simd_point (run, 0, "short", 512, 10, NULL);
  add_simd_point (run, 0, "short", 1024, 10, NULL);

  ks_exp_micro_summarize_backends (run, "time_ms", NULL, out);
  g_test_message ("%s", out->str);
  g_assert_cmpstr (out->str, ==,
                   "NVIDIA H200: OpenCL / CUDA time over 4 points: median 1.05 (0.90 .. 1.50); "
                   "3 of 4 within 15 % of CUDA\n");
  /* The simd summary carries it after its own lines. */
  g_string_truncate (out, 0);
  run->desc->summarize (run, out);
  g_assert_true (g_str_has_suffix (out->str, "3 of 4 within 15 % of CUDA\n"));

  /* No CUDA device: nothing. */
  ks_test_run_add_device (alone, "NVIDIA H200", "opencl", "NVIDIA CUDA");
  ks_exp_micro_summarize_time (alone, none);
  g_assert_cmpstr (none->str, ==, "");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();

  g_test_add_func ("/micro/hello/host-reference", test_hello_host_reference);
  g_test_add_func ("/micro/hello/device", test_hello_device);
  g_test_add_func ("/micro/hello/bad-length", test_hello_bad_length);
  g_test_add_func ("/micro/hello/engine", test_hello_engine);
  g_test_add_func ("/micro/hello/bad-settings", test_hello_bad_settings);
  g_test_add_func ("/micro/simd/host-reference", test_simd_host_reference);
  g_test_add_func ("/micro/simd/device", test_simd_device);
  g_test_add_func ("/micro/simd/engine", test_simd_engine);
  g_test_add_func ("/micro/simd/paper-per-element", test_simd_paper_per_element);
  g_test_add_func ("/micro/simd/elements", test_simd_elements);
  g_test_add_func ("/micro/builtins/host-reference", test_builtins_host_reference);
  g_test_add_func ("/micro/builtins/device", test_builtins_device);
  g_test_add_func ("/micro/builtins/engine", test_builtins_engine);
  g_test_add_func ("/micro/native/device", test_native_device);
  g_test_add_func ("/micro/native/engine", test_native_engine);
  g_test_add_func ("/micro/buffers/host-reference", test_filter_host_reference);
  g_test_add_func ("/micro/buffers/device", test_filter_device);
  g_test_add_func ("/micro/buffers/engine", test_filter_engine);
  g_test_add_func ("/micro/access/host-reference", test_scale_host_reference);
  g_test_add_func ("/micro/access/device", test_scale_device);
  g_test_add_func ("/micro/access/engine", test_scale_engine);
  g_test_add_func ("/micro/access/images", test_scale_images);
  g_test_add_func ("/micro/backend-ratio", test_backend_ratio);

  status = g_test_run ();
  g_clear_object (&devices);
  return status;
}
