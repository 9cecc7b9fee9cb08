/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sweep engine: points streamed as measured, prime flags, cancel and
 * device loss keep what was measured, refused group sizes spoil one point,
 * results round-trip through CSV and JSON, and draw as the paper's plots. */
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-eta.h"
#include "ks-experiment.h"
#include "ks-ogs.h"
#include "ks-results-plot.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static KsDeviceList *devices;

static KsDevice *
opencl_device (void)
{
  return ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
}

static void
test_parse_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) a = ks_parse_uint_list ("100:400:100", 1, 1000, &error);
  g_autoptr(GArray) b = ks_parse_uint_list (" 1, 32:128:32 ,64", 1, 1000, &error);
  g_autoptr(GArray) bad = NULL;
  const char *bad_inputs[] = { "", "abc", "10:5", "1:10:0", "1:2:3:4", "-5", "5,,6", "2000",
                               "18446744073709551616" };

  g_assert_no_error (error);
  g_assert_cmpuint (a->len, ==, 4);
  g_assert_cmpuint (g_array_index (a, guint, 3), ==, 400);
  /* Sorted, duplicates (64) removed. */
  g_assert_cmpuint (b->len, ==, 5);
  g_assert_cmpuint (g_array_index (b, guint, 0), ==, 1);
  g_assert_cmpuint (g_array_index (b, guint, 2), ==, 64);
  g_assert_cmpuint (g_array_index (b, guint, 4), ==, 128);

  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      bad = ks_parse_uint_list (bad_inputs[i], 1, 1000, &error);
      g_assert_null (bad);
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      /* An empty range or a zero step says so, not "not a number". */
      if (strcmp (bad_inputs[i], "10:5") == 0)
        g_assert_nonnull (strstr (error->message, "the range is empty"));
      if (strcmp (bad_inputs[i], "1:10:0") == 0)
        g_assert_nonnull (strstr (error->message, "the step must be at least 1"));
      /* 2^64 is a number too large, not "not a number". */
      if (strcmp (bad_inputs[i], "18446744073709551616") == 0)
        g_assert_nonnull (strstr (error->message, "values must lie between 1 and 1000"));
      g_clear_error (&error);
    }
}

static void
test_invalid_spec (void)
{
  KsDevice *host = ks_device_list_lookup (devices, "host", NULL);
  g_autoptr(GError) error = NULL;
  const guint sizes[] = { 10 };
  KsSweepSpec spec = { .kind = KS_EXPERIMENT_GAUSS_WG, .sizes = sizes, .n_sizes = 1, .reps = 1 };
  KsExperiment *e;

  e = ks_experiment_new (host, &spec, &error);   /* no group sizes */
  g_assert_null (e);
  g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID);
  g_clear_error (&error);

  spec.kind = KS_EXPERIMENT_GAUSS_SIZE;
  spec.reps = 0;
  e = ks_experiment_new (host, &spec, &error);
  g_assert_null (e);
  g_clear_error (&error);

  spec.reps = 1;
  spec.local = KS_LOCAL_EXPLICIT;   /* and no wg */
  e = ks_experiment_new (host, &spec, &error);
  g_assert_null (e);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
  g_clear_error (&error);

  /* A graph sweep where there are no graphs is refused before any point. */
  spec.local = KS_LOCAL_DRIVER;
  spec.launch = KS_LAUNCH_GRAPH;
  e = ks_experiment_new (host, &spec, &error);
  g_assert_null (e);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "CUDA Graphs need a CUDA device"));
  g_clear_error (&error);
  if (opencl_device ())
    {
      e = ks_experiment_new (opencl_device (), &spec, &error);
      g_assert_null (e);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "OpenCL has no graphs"));
    }
}

static void
count_point (KsExperiment *e, const KsPoint *p, guint done, guint total, guint *count)
{
  (*count)++;
  g_assert_cmpuint (done, ==, *count);
  g_assert_cmpuint (total, ==, ks_experiment_get_n_points_total (e));
  g_assert_nonnull (p);
}

static void
test_size_sweep (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsExperiment) e = NULL;
  g_autoptr(KsPlot) plot = NULL;
  guint sizes[11];
  KsSweepSpec spec = { .kind = KS_EXPERIMENT_GAUSS_SIZE, .sizes = sizes, .n_sizes = 11,
                       .reps = 2, .warmup = 0, .seed = 7 };
  const KsResults *r;
  guint count = 0, highlighted = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint i = 0; i < 11; i++)
    sizes[i] = 20 + i;

  e = ks_experiment_new (cl, &spec, &error);
  g_assert_no_error (error);
  g_signal_connect (e, "point-measured", G_CALLBACK (count_point), &count);
  g_assert_true (ks_experiment_run (e, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count, ==, 11);

  r = ks_experiment_get_results (e);
  g_assert_true (r->complete);
  g_assert_cmpuint (r->points->len, ==, 11);
  g_assert_cmpstr (r->device_id, ==, ks_device_get_id (cl));
  g_assert_nonnull (r->date);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (r->points, i);
      g_assert_cmpuint (p->n, ==, 20 + i);
      /* 23, 29 and 31 are prime. */
      g_assert_cmpint (p->n1_prime, ==, p->n == 22 || p->n == 28 || p->n == 30);
      g_assert_null (p->error);
      g_assert_cmpfloat (p->min_ms, <=, p->median_ms);
      g_assert_cmpfloat (p->median_ms, <=, p->max_ms);
      g_assert_cmpfloat (p->min_ms, >, 0.0);
      g_assert_cmpfloat (p->residual, <, 1e-4);
      g_assert_cmpuint (p->fwd_local[0] * p->fwd_groups[0], ==, p->n + 1);
    }

  plot = ks_results_plot_new (r, 0);
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 1);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 0), ==, 11);
  for (guint i = 0; i < 11; i++)
    {
      const KsPlotPoint *pp = ks_plot_series_get_point (plot, 0, i);
      if (pp->flags & KS_PLOT_POINT_HIGHLIGHT)
        {
          highlighted++;
          g_assert_nonnull (strstr (pp->label, "N+1 = "));
        }
    }
  g_assert_cmpuint (highlighted, ==, 3);
}

static void
test_wg_sweep (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsExperiment) e = NULL;
  g_autoptr(KsPlot) plot = NULL;
  const guint sizes[] = { 24, 40 };
  guint wgs[] = { 1, 4, 8, 0 };
  KsSweepSpec spec = { .kind = KS_EXPERIMENT_GAUSS_WG, .local = KS_LOCAL_EXPLICIT,
                       .sizes = sizes, .n_sizes = 2, .wgs = wgs, .n_wgs = 4, .reps = 1 };
  const KsResults *r;
  guint refused = 0, best = 0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  /* One size the device refuses: that point records why, the rest run. */
  wgs[3] = (guint) ks_device_get_info (cl)->max_work_group_size + 1;

  e = ks_experiment_new (cl, &spec, &error);
  g_assert_no_error (error);
  g_assert_true (ks_experiment_run (e, NULL, &error));
  g_assert_no_error (error);

  r = ks_experiment_get_results (e);
  g_assert_cmpuint (r->points->len, ==, 8);
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (r->points, i);
      if (p->wg == wgs[3])
        {
          g_assert_nonnull (p->error);
          g_assert_nonnull (strstr (p->error, "refuses"));
          refused++;
        }
      else
        {
          g_assert_null (p->error);
          g_assert_cmpuint (p->fwd_local[0], ==, p->wg);
        }
    }
  g_assert_cmpuint (refused, ==, 2);
  for (guint s = 0; s < 2; s++)
    {
      const KsPoint *b = ks_results_best_for_n (r, sizes[s]);
      g_assert_nonnull (b);
      g_assert_null (b->error);
    }

  /* The rule's inputs were recorded with the results. */
  g_assert_cmpuint (r->pwgsm, >=, 1);
  g_assert_cmpuint (r->compute_units, ==, ks_device_get_info (cl)->compute_units);

  plot = ks_results_plot_new (r, 2);   /* Fig. 4: without wg = 1 */
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 2);
  for (guint s = 0; s < 2; s++)
    {
      g_assert_cmpuint (ks_plot_series_get_n_points (plot, s), ==, 2);
      for (guint i = 0; i < 2; i++)
        best += (ks_plot_series_get_point (plot, s, i)->flags & KS_PLOT_POINT_BEST) != 0;
    }
  g_assert_cmpuint (best, <=, 2);
}

typedef struct {
  GMainLoop    *loop;
  GCancellable *cancellable;
  guint         points;
  guint         cancel_after;
  gboolean      ok;
  GError       *error;
  GThread      *main_thread;
} AsyncState;

static void
on_async_point (KsExperiment *e, const KsPoint *p, guint done, guint total, AsyncState *s)
{
  /* Listeners hear points on the thread that started the run. */
  g_assert_true (g_thread_self () == s->main_thread);
  s->points++;
  if (s->cancel_after && s->points == s->cancel_after)
    g_cancellable_cancel (s->cancellable);
}

static void
on_async_done (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncState *s = data;
  s->ok = ks_experiment_run_finish (KS_EXPERIMENT (source), result, &s->error);
  g_main_loop_quit (s->loop);
}

static void
test_cancel_keeps_points (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsExperiment) e = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint sizes[40];
  KsSweepSpec spec = { .kind = KS_EXPERIMENT_GAUSS_SIZE, .sizes = sizes, .n_sizes = 40, .reps = 1 };
  AsyncState s = { loop, cancellable, 0, 3, FALSE, NULL, g_thread_self () };
  const KsResults *r;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  for (guint i = 0; i < 40; i++)
    sizes[i] = 100 + 5 * i;

  e = ks_experiment_new (cl, &spec, &error);
  g_assert_no_error (error);
  g_signal_connect (e, "point-measured", G_CALLBACK (on_async_point), &s);
  ks_experiment_run_async (e, cancellable, on_async_done, &s);
  g_main_loop_run (loop);

  g_assert_false (s.ok);
  g_assert_error (s.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&s.error);
  r = ks_experiment_get_results (e);
  g_assert_false (r->complete);
  g_assert_cmpuint (r->points->len, >=, 3);
  g_assert_cmpuint (r->points->len, <, 40);
  g_assert_cmpuint (s.points, ==, r->points->len);
  g_assert_nonnull (strstr (r->stop_reason, "cancelled"));
}

static void
test_device_lost_keeps_points (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsExperiment) e = NULL;
  const guint sizes[] = { 10, 11, 12, 13, 14, 15, 16, 17 };
  KsSweepSpec spec = { .kind = KS_EXPERIMENT_GAUSS_SIZE, .sizes = sizes, .n_sizes = 8, .reps = 1 };
  const KsResults *r;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  e = ks_experiment_new (cl, &spec, &error);
  g_assert_no_error (error);
  /* About three solves' worth of launches (4n each), then the device vanishes. */
  g_setenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS", "120", TRUE);
  g_assert_false (ks_experiment_run (e, NULL, &error));
  g_unsetenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS");
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_DEVICE_LOST);
  r = ks_experiment_get_results (e);
  g_assert_false (r->complete);
  g_assert_cmpuint (r->points->len, >, 0);
  g_assert_cmpuint (r->points->len, <, 8);
  g_assert_nonnull (strstr (r->stop_reason, "stopped after"));
}

static KsResults *
sample_results (void)
{
  KsResults *r = ks_results_new (KS_EXPERIMENT_GAUSS_WG);
  KsPoint p = { 0 };

  r->device_id = g_strdup ("opencl:0:0");
  r->device_name = g_strdup ("Test \"device\", with comma");
  r->platform = g_strdup ("PoCL");
  r->driver = g_strdup ("3.1");
  r->date = g_strdup ("2026-11-22T10:00:00Z");
  r->command = g_strdup ("kernelscope-cli run gauss-wg");
  r->local = KS_LOCAL_SPLIT;
  r->range = KS_RANGE_SHRINKING;
  r->precision = KS_PRECISION_DOUBLE;
  r->wg = 0;
  r->reps = 3;
  r->seed = 9;
  r->pwgsm = 32;
  r->cores_per_cu = 48;
  r->compute_units = 3;
  r->ogs_predicted = 192;
  r->ogs_usable = 192;
  r->complete = FALSE;
  r->stop_reason = g_strdup ("cancelled after 2 of 4 points");
  for (guint i = 0; i < 2; i++)
    {
      p.n = 100;
      p.wg = 64 * (i + 1);
      p.local = KS_LOCAL_SPLIT;
      p.n1_prime = TRUE;
      p.reps = 3;
      p.median_ms = 1.25 + i;
      p.min_ms = 1.0;
      p.max_ms = 3.5;
      p.kernels_ms = 0.75;
      p.kernel_ms[KS_GAUSS_FWD] = 0.5;
      p.launches = 400;
      p.residual = 1e-7;
      p.fwd_local[0] = p.wg;
      p.fwd_local[1] = 1;
      p.fwd_groups[0] = 2;
      p.fwd_groups[1] = 99;
      ks_results_add_point (r, &p);
    }
  p.error = (char *) "device refuses, \"badly\"";
  ks_results_add_point (r, &p);
  return r;
}

static void
test_results_json_roundtrip (void)
{
  g_autoptr(KsResults) r = sample_results ();
  g_autoptr(KsResults) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = ks_results_to_json (r);

  back = ks_results_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->kind, ==, KS_EXPERIMENT_GAUSS_WG);
  g_assert_cmpstr (back->device_name, ==, r->device_name);
  g_assert_cmpstr (back->stop_reason, ==, r->stop_reason);
  g_assert_cmpint (back->range, ==, KS_RANGE_SHRINKING);
  g_assert_cmpint (back->precision, ==, KS_PRECISION_DOUBLE);
  g_assert_cmpuint (back->ogs_predicted, ==, 192);
  g_assert_cmpint (back->launch, ==, KS_LAUNCH_STREAM);
  g_assert_false (back->complete);
  g_assert_cmpuint (back->points->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const KsPoint *a = g_ptr_array_index (r->points, i);
      const KsPoint *b = g_ptr_array_index (back->points, i);
      g_assert_cmpuint (a->n, ==, b->n);
      g_assert_cmpuint (a->wg, ==, b->wg);
      g_assert_cmpstr (a->error, ==, b->error);
      if (a->error == NULL)
        {
          g_assert_cmpfloat (a->median_ms, ==, b->median_ms);
          g_assert_cmpfloat (a->residual, ==, b->residual);
          g_assert_cmpuint (a->fwd_groups[1], ==, b->fwd_groups[1]);
          g_assert_cmpfloat (a->kernel_ms[KS_GAUSS_FWD], ==, b->kernel_ms[KS_GAUSS_FWD]);
        }
    }
}

/* Numbers JsonGenerator cannot write so that they read back (1e+308.0)
 * and the infinities survive a save and a reload exactly. */
static void
test_results_json_extreme (void)
{
  g_autoptr(KsResults) r = sample_results ();
  g_autoptr(KsResults) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  KsPoint *p = g_ptr_array_index (r->points, 0);
  const KsPoint *q;

  p->median_ms = 1e308;
  p->min_ms = 1e-300;
  p->max_ms = INFINITY;
  p->residual = -INFINITY;
  p->kernels_ms = 2e20;
  json = ks_results_to_json (r);
  back = ks_results_from_json (json, -1, &error);
  g_assert_no_error (error);
  q = g_ptr_array_index (back->points, 0);
  g_assert_cmpfloat (q->median_ms, ==, 1e308);
  g_assert_cmpfloat (q->min_ms, ==, 1e-300);
  g_assert_cmpfloat (q->max_ms, ==, INFINITY);
  g_assert_cmpfloat (q->residual, ==, -INFINITY);
  g_assert_cmpfloat (q->kernels_ms, ==, 2e20);
  g_assert_null (strstr (json, "e+308.0"));
}

/* A graph run keeps its mode and each point's capture time; a file from
 * before graph mode (no "launch") reads as a stream run. */
static void
test_results_json_launch (void)
{
  g_autoptr(KsResults) r = sample_results ();
  g_autoptr(KsResults) back = NULL;
  g_autoptr(KsResults) old = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *stream_json = ks_results_to_json (r);
  g_autoptr(GString) old_json = g_string_new (stream_json);
  const KsPoint *p;

  r->launch = KS_LAUNCH_GRAPH;
  ((KsPoint *) g_ptr_array_index (r->points, 0))->capture_ms = 12.5;
  json = ks_results_to_json (r);
  g_assert_nonnull (strstr (json, "\"launch\" : \"graph\""));
  back = ks_results_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (back->launch, ==, KS_LAUNCH_GRAPH);
  p = g_ptr_array_index (back->points, 0);
  g_assert_cmpfloat (p->capture_ms, ==, 12.5);

  g_assert_cmpuint (g_string_replace (old_json, "\"launch\" : \"stream\",", "", 0), ==, 1);
  old = ks_results_from_json (old_json->str, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (old->launch, ==, KS_LAUNCH_STREAM);
  g_assert_cmpuint (old->points->len, ==, 3);

  /* An unknown mode is an error, not a silent stream. */
  g_string_replace (old_json, "\"wg\" : 0,", "\"wg\" : 0, \"launch\" : \"warp\",", 1);
  g_clear_pointer (&old, ks_results_free);
  old = ks_results_from_json (old_json->str, -1, &error);
  g_assert_null (old);
  g_assert_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "launch"));
}

/* A damaged or foreign file is a clear error, never a half-read result. */
static void
test_results_json_damaged (void)
{
  g_autoptr(KsResults) r = sample_results ();
  g_autofree char *json = ks_results_to_json (r);
  const char *broken[] = {
    "",
    "[1, 2, 3]",
    "{\"format\": 1}",
    "{\"format\": 99, \"experiment\": \"gauss-wg\"}",
    "{\"format\": 1, \"experiment\": \"heat\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsResults) back = ks_results_from_json (broken[i], -1, &error);
      g_assert_null (back);
      g_assert_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE);
    }

  /* Truncated anywhere: always an error. */
  for (gsize cut = 1; cut < strlen (json); cut += 97)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsResults) back = ks_results_from_json (json, cut, &error);
      g_assert_null (back);
      g_assert_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE);
    }

  /* A wrong type in a point. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KsResults) back = NULL;
    g_autoptr(GString) s = g_string_new (json);
    g_string_replace (s, "\"median_ms\" : 1.25", "\"median_ms\" : \"fast\"", 1);
    back = ks_results_from_json (s->str, -1, &error);
    g_assert_null (back);
    g_assert_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE);
    g_assert_nonnull (strstr (error->message, "median_ms"));
  }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KsResults) back = ks_results_load_json ("/nonexistent/r.json", &error);
    g_assert_null (back);
    g_assert_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_IO);
  }
}

static void
test_results_csv (void)
{
  g_autoptr(KsResults) r = sample_results ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-csv-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "r.csv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint data_lines = 0;

  g_assert_true (ks_results_write_csv (r, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (g_str_has_prefix (lines[i], "#") || *lines[i] == '\0')
        continue;
      if (g_str_has_prefix (lines[i], "n,"))
        continue;
      data_lines++;
      /* Every row has the header's 21 columns (the quoted error has a comma). */
      if (strchr (lines[i], '"') == NULL)
        {
          g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
          g_assert_cmpuint (g_strv_length (cells), ==, 21);
        }
    }
  g_assert_cmpuint (data_lines, ==, 3);
  g_assert_nonnull (strstr (text, "100,1,split,64,1.25,1,3.5,"));
  g_assert_nonnull (strstr (text, "\"device refuses, \"\"badly\"\"\""));
  /* The header first, no comment lines (the context is in the JSON). */
  g_assert_true (g_str_has_prefix (text, "n,n_plus_1_prime,local_policy,"));
  g_assert_null (strchr (text, '#'));
  g_assert_nonnull (strstr (text, ",launch,capture_ms,error\n"));

  g_assert_false (ks_results_write_csv (r, "/nonexistent/dir/r.csv", &error));
  g_assert_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_IO);
  g_unlink (path);
  g_rmdir (dir);
}

/* A point as the experiment would publish it, costing cost_ms in all
 * (warm-up included: the estimator counts warm-up + reps solves). */
static KsPoint
eta_point (guint  n,
           guint  wg,
           double cost_ms,
           guint  solves)
{
  KsPoint p = { 0 };

  p.n = n;
  p.wg = wg;
  p.median_ms = cost_ms / solves;
  return p;
}

/* Feeds the first `measured` points of sizes x groups with costs from
 * cost(n, group), on a clock that starts with startup_s of kernel
 * building, and returns the estimator's fraction; *truth gets the true
 * share of the time done. */
static double
eta_run (const guint *sizes, guint n_sizes, const guint *wgs, guint n_wgs,
         double (*cost) (guint n, guint wg), guint measured, double startup_s, double *truth)
{
  KsSweepSpec spec = { 0 };
  g_autoptr(KsEta) eta = NULL;
  double done = 0, all = 0, left_s = -1;
  guint k = 0;

  spec.kind = n_wgs ? KS_EXPERIMENT_GAUSS_WG : KS_EXPERIMENT_GAUSS_SIZE;
  spec.sizes = sizes;
  spec.n_sizes = n_sizes;
  spec.wgs = wgs;
  spec.n_wgs = n_wgs;
  spec.warmup = 1;
  spec.reps = 3;
  eta = ks_eta_new (&spec);
  g_assert_cmpfloat (ks_eta_get_fraction (eta), ==, 0);
  g_assert_cmpfloat (ks_eta_get_remaining_ms (eta), <, 0);
  for (guint i = 0; i < n_sizes; i++)
    for (guint j = 0; j < MAX (n_wgs, 1); j++, k++)
      {
        guint wg = n_wgs ? wgs[j] : 0;
        double c = cost (sizes[i], wg);

        all += c;
        if (k < measured)
          {
            KsPoint p = eta_point (sizes[i], wg, c, 4);
            done += c;
            ks_eta_add_point (eta, &p, startup_s + done / 1000);
          }
      }
  *truth = (startup_s + done / 1000) / (startup_s + all / 1000);
  /* Where the fraction is exact, so are the seconds left: the remaining
   * cost, whatever the startup took. */
  left_s = ks_eta_get_seconds_left (eta);
  if (fabs (ks_eta_get_fraction (eta) - *truth) < 1e-9)
    g_assert_cmpfloat_with_epsilon (left_s, (all - done) / 1000, 1e-9 * all);
  return ks_eta_get_fraction (eta);
}

static double cost_cubic (guint n, guint wg)   { return 1e-6 * n * n * n; }
static double cost_linear (guint n, guint wg)  { return 0.04 * n; }
/* Groups of one item cost 100 times the others, at every size. */
static double cost_wg_one (guint n, guint wg)  { return (wg == 1 ? 100.0 : 1.0) * 1e-6 * n * n * n; }
/* Linear, but n = 1030 (N+1 = 1031, prime) costs 13 times its neighbours,
 * as NVIDIA's OpenCL runs it in groups of one item on an H200. */
static double cost_outlier (guint n, guint wg) { return (n == 1030 ? 13.0 : 1.0) * 0.05 * n; }

static void
test_eta (void)
{
  const guint sizes[] = { 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000 };
  const guint two[] = { 1000, 2000 };
  const guint wgs[] = { 1, 32, 64, 128, 256 };
  double truth, f;

  /* Cost as n^3 (the arithmetic) or as n (launch-bound, a GPU below
   * n = 1000): the exponent is fitted, and the share done is exact. */
  f = eta_run (sizes, 10, NULL, 0, cost_cubic, 4, 0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  f = eta_run (sizes, 10, NULL, 0, cost_linear, 4, 0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  /* Two seconds of kernel building before the first point: the clock
   * after it says how long a ms of cost takes, so the time left is not
   * inflated by the slow start. */
  f = eta_run (sizes, 10, NULL, 0, cost_cubic, 4, 2.0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  g_assert_cmpfloat (truth, >, 0.15);   /* weights of n^3 would have said 0.03 */

  /* Group-size sweep: wg = 1 first, 100 times dearer.  Once the first size
   * is measured every group has its own cost, and the second size is
   * predicted exactly (the exponent is still the default 3 here, which is
   * right for this cost). */
  f = eta_run (two, 2, wgs, 5, cost_wg_one, 5, 0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  /* After wg = 1 alone the rest of the first size is predicted at its cost:
   * pessimistic, never claiming more than is done. */
  f = eta_run (two, 2, wgs, 5, cost_wg_one, 1, 0, &truth);
  g_assert_cmpfloat (f, <=, truth);
  g_assert_cmpfloat (f, >, 0);

  /* Right after a 13x outlier the rest is still predicted from its
   * neighbours: the newest point alone would have predicted every other
   * point at 13 times its cost and said 0.10 done where 0.60 is.  (What
   * error is left comes from the exponent: sizes this close together are
   * no basis for a fit, so it stays at 3.) */
  {
    guint around[30];

    for (guint i = 0; i < 30; i++)
      around[i] = 1018 + i;
    f = eta_run (around, 30, NULL, 0, cost_outlier, 13, 0, &truth);
    g_assert_cmpfloat (fabs (f - truth), <, 0.01);
    f = eta_run (around, 30, NULL, 0, cost_outlier, 15, 0, &truth);
    g_assert_cmpfloat (fabs (f - truth), <, 0.01);
  }

  /* A group the device refused costs nothing now and is not predicted to
   * cost anything at the next size either. */
  {
    KsSweepSpec spec = { .kind = KS_EXPERIMENT_GAUSS_WG, .sizes = two, .n_sizes = 2,
                         .wgs = wgs, .n_wgs = 2, .warmup = 0, .reps = 1 };
    g_autoptr(KsEta) eta = ks_eta_new (&spec);
    KsPoint ok = eta_point (1000, 1, 50, 1), refused = eta_point (1000, 32, 0, 1);

    refused.error = (char *) "refused";
    ks_eta_add_point (eta, &ok, 0.05);
    ks_eta_add_point (eta, &refused, 0.05);
    /* Left: wg = 1 at n = 2000, 8 x 50 ms; the refused group adds nothing. */
    g_assert_cmpfloat_with_epsilon (ks_eta_get_remaining_ms (eta), 400, 1e-9);
    ks_eta_add_point (eta, &ok, 0.45);
    ks_eta_add_point (eta, &refused, 0.45);
    g_assert_cmpfloat (ks_eta_get_fraction (eta), ==, 1);
    g_assert_cmpfloat (ks_eta_get_remaining_ms (eta), ==, 0);
  }
}

static KsResults *
load_reference (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", name, NULL);
  g_autoptr(GError) error = NULL;
  KsResults *r = ks_results_load_json (path, &error);

  g_assert_no_error (error);
  return r;
}

/* kernelscope-cli plot a.json b.json: with two runs every curve says which
 * run it is, so "n = 500" appears once per run, not twice unexplained. */
static void
test_plot_compare (void)
{
  g_autoptr(KsResults) ocl = load_reference ("h200-opencl-fig3-wg.json");
  g_autoptr(KsResults) cuda = load_reference ("h200-cuda-fig3-wg.json");
  g_autoptr(KsResults) driver = load_reference ("h200-cuda-fig2-driver.json");
  g_autoptr(KsResults) split = load_reference ("h200-cuda-fig2-split256.json");
  const KsResults *wg_runs[] = { ocl, cuda };
  const KsResults *size_runs[] = { driver, split };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(KsPlot) one = ks_results_plot_new_compare (wg_runs, 1, 0);
  g_autoptr(KsPlot) wg = ks_results_plot_new_compare (wg_runs, 2, 0);
  g_autoptr(KsPlot) size = ks_results_plot_new_compare (size_runs, 2, 0);
  guint n_ocl = 0, n_cuda = 0;

  /* One run: its own names, as ks_results_plot_new gives them. */
  g_assert_cmpstr (ks_plot_series_get_name (one, 0), ==, "n = 100");
  g_assert_cmpuint (ks_plot_get_n_series (wg), ==, 2 * ks_plot_get_n_series (one));
  for (guint s = 0; s < ks_plot_get_n_series (wg); s++)
    {
      const char *name = ks_plot_series_get_name (wg, s);

      g_assert_true (g_hash_table_add (seen, (gpointer) name));   /* no name twice */
      n_ocl += strstr (name, "NVIDIA H200 (NVIDIA OpenCL)") != NULL;
      n_cuda += strstr (name, "NVIDIA H200 (CUDA)") != NULL;
      /* The earlier run (OpenCL) dashed beside the newest. */
      g_assert_cmpint (ks_plot_series_get_dashed (wg, s), ==,
                       strstr (name, "NVIDIA H200 (NVIDIA OpenCL)") != NULL);
    }
  g_assert_cmpuint (n_ocl, ==, ks_plot_get_n_series (one));
  g_assert_cmpuint (n_cuda, ==, ks_plot_get_n_series (one));
  /* Two size runs on one device: the policy tells them apart. */
  g_assert_cmpuint (ks_plot_get_n_series (size), ==, 2);
  g_assert_cmpstr (ks_plot_series_get_name (size, 0), !=, ks_plot_series_get_name (size, 1));
  g_assert_nonnull (strstr (ks_plot_series_get_name (size, 1), "split"));
  g_assert_true (ks_plot_series_get_dashed (size, 0));
  g_assert_false (ks_plot_series_get_dashed (size, 1));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/experiment/parse-list", test_parse_list);
  g_test_add_func ("/experiment/eta", test_eta);
  g_test_add_func ("/experiment/plot-compare", test_plot_compare);
  g_test_add_func ("/experiment/invalid-spec", test_invalid_spec);
  g_test_add_func ("/experiment/size-sweep", test_size_sweep);
  g_test_add_func ("/experiment/wg-sweep", test_wg_sweep);
  g_test_add_func ("/experiment/cancel-keeps-points", test_cancel_keeps_points);
  g_test_add_func ("/experiment/device-lost-keeps-points", test_device_lost_keeps_points);
  g_test_add_func ("/results/json-roundtrip", test_results_json_roundtrip);
  g_test_add_func ("/results/json-launch", test_results_json_launch);
  g_test_add_func ("/results/json-extreme", test_results_json_extreme);
  g_test_add_func ("/results/json-damaged", test_results_json_damaged);
  g_test_add_func ("/results/csv", test_results_csv);
  status = g_test_run ();
  g_clear_object (&devices);
  return status;
}
