/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-framework: the experiment framework through the test experiment
 * declared only in tests/ (ks-exp-test.c): parameter axes, the registry,
 * the engine (values, refusals, conditions, limits, failures, cancel, the
 * main context), the JSON and CSV files (round trips, wrong types, deep
 * nesting), the generic figure; and every recorded Gauss run in
 * data/reference/ read through the new path unchanged. */
#include "ks-device-list.h"
#include "ks-engine.h"
#include "ks-exp-gauss.h"
#include "ks-exp-test.h"
#include "ks-figure.h"
#include "ks-recorded.h"
#include "ks-registry.h"
#include "ks-results-plot.h"
#include "ks-run.h"

#include <math.h>
#include <string.h>

static KsDeviceList *devices;

static KsDevice *
host (void)
{
  KsDevice *device = ks_device_list_lookup (devices, "host", NULL);
  g_assert_nonnull (device);
  return device;
}

static const KsParamSpec *
test_param (const char *name)
{
  int i = ks_experiment_desc_find_param (&ks_exp_test, name);
  g_assert_cmpint (i, >=, 0);
  return &ks_exp_test.params[i];
}

/* The axis as text "1,2,4", or the error's message. */
static char *
axis (const char *param,
      const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) values = ks_param_parse_axis (test_param (param), text, &error);
  g_autoptr(GString) s = g_string_new (NULL);

  if (values == NULL)
    return g_strdup (error->message);
  for (guint i = 0; i < values->len; i++)
    {
      g_autofree char *v = ks_param_value_to_string (values->pdata[i]);
      g_string_append_printf (s, "%s%s", i ? "," : "", v);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

#define assert_axis(param, text, want) \
  G_STMT_START { g_autofree char *got_ = axis (param, text); g_assert_cmpstr (got_, ==, want); } G_STMT_END
#define assert_axis_error(param, text, phrase) \
  G_STMT_START { g_autofree char *got_ = axis (param, text); \
                 if (!strstr (got_, phrase)) g_error ("%s: \"%s\" lacks \"%s\"", text, got_, phrase); } G_STMT_END

static void
test_axes (void)
{
  assert_axis ("size", "5", "5");
  assert_axis ("size", "1:4", "1,2,3,4");
  assert_axis ("size", "10:40:10,5,20", "5,10,20,30,40");
  assert_axis ("size", "2^3:2^6", "8,16,32,64");
  assert_axis ("size", "2^4", "16");
  assert_axis ("shape", "wide,square,wide", "wide,square");
  assert_axis ("scale", "2.5", "2.5");
  assert_axis ("depth", "3", "3");
  assert_axis ("fast", "yes", "true");
  assert_axis_error ("size", "5:1", "range is empty");
  assert_axis_error ("size", "1:10:0", "step must be at least 1");
  assert_axis_error ("size", "0:3", "between 1 and 1000000");
  assert_axis_error ("size", "1:2000000", "at most 1000000");       /* counted before made */
  assert_axis_error ("size", "999999:1000001", "between 1 and 1000000");
  assert_axis_error ("size", "1:1000000,1:1000000", "at most 1000000");
  assert_axis_error ("size", "x", "not a number");
  assert_axis_error ("size", "1:2:3:4", "not a number");
  assert_axis_error ("size", "2^70", "not a number");
  assert_axis_error ("shape", "round", "must be one of square, tall, wide");
  assert_axis_error ("scale", "1,2", "not a number");     /* not sweepable: one value */
  assert_axis_error ("scale", "-1", "between 0 and");
  assert_axis_error ("scale", "nan", "not a number");
  assert_axis_error ("input", "/no/such/file", "no such file");
  assert_axis_error ("input", "/", "not a regular file");
}

static void
test_registry (void)
{
  g_autoptr(GPtrArray) papers = ks_registry_list_papers ();
  g_autoptr(GError) error = NULL;
  KsExperimentDesc bad = ks_exp_test;
  KsParamSpec params[2] = { ks_exp_test.params[0], ks_exp_test.params[0] };

  g_assert_true (ks_registry_lookup ("gauss-size") == &ks_exp_gauss_size);
  g_assert_true (ks_registry_lookup ("gauss-wg") == &ks_exp_gauss_wg);
  g_assert_true (ks_registry_lookup ("test-sweep") == &ks_exp_test);
  g_assert_null (ks_registry_lookup ("nothing"));
  /* The five papers of the course, with or without experiments yet (a
   * paper without any says what is coming), then the test's own. */
  g_assert_cmpuint (papers->len, ==, 6);
  for (guint i = 0; i < 5; i++)
    {
      const KsPaperGroup *group = papers->pdata[i];
      g_autofree char *id = g_strdup_printf ("00%u", i);

      g_assert_cmpstr (group->id, ==, id);
      g_assert_nonnull (group->title);
      g_assert_true ((group->coming != NULL) == (group->experiments->len == 0));
    }
  g_assert_cmpuint (((KsPaperGroup *) papers->pdata[0])->experiments->len, ==, 2);
  g_assert_true (((KsPaperGroup *) papers->pdata[0])->experiments->pdata[0] == &ks_exp_gauss_size);
  g_assert_cmpstr (((KsPaperGroup *) papers->pdata[5])->id, ==, "009");
  g_assert_cmpuint (((KsPaperGroup *) papers->pdata[5])->experiments->len, ==, 1);

  /* The same id twice, a name used twice, a reserved name, a figure of
   * nothing: refused with what is wrong. */
  g_assert_false (ks_registry_add (&ks_exp_test, &error));
  g_assert_nonnull (strstr (error->message, "id is taken"));
  g_clear_error (&error);
  bad.id = "bad";
  bad.params = params;
  bad.n_params = 2;
  g_assert_false (ks_registry_add (&bad, &error));
  g_assert_nonnull (strstr (error->message, "used twice"));
  g_clear_error (&error);
  params[1].name = "error";
  g_assert_false (ks_registry_add (&bad, &error));
  g_assert_nonnull (strstr (error->message, "not device, error or reps"));
  g_clear_error (&error);
  bad.params = ks_exp_test.params;
  bad.n_params = ks_exp_test.n_params;
  bad.figures = (const KsFigureSpec[]) { { .id = "f", .title = "f", .x = "size", .y = "size" } };
  bad.n_figures = 1;
  g_assert_false (ks_registry_add (&bad, &error));
  g_assert_nonnull (strstr (error->message, "a y (a column)"));
  g_assert_null (ks_registry_lookup ("bad"));
}

static void
test_config (void)
{
  g_autoptr(KsConfig) c = ks_config_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (ks_config_get_int (c, "size"), ==, 1);
  g_assert_cmpstr (ks_config_get_string (c, "shape"), ==, "square");
  g_assert_cmpfloat (ks_config_get_real (c, "scale"), ==, 1.5);
  g_assert_false (ks_config_get_bool (c, "fast"));
  g_assert_false (ks_config_applies (c, test_param ("depth"), KS_BACKEND_HOST));
  g_assert_true (ks_config_set_string (c, "shape", "tall", &error));
  g_assert_true (ks_config_applies (c, test_param ("depth"), KS_BACKEND_HOST));
  g_assert_false (ks_config_applies (c, test_param ("lanes"), KS_BACKEND_HOST));
  g_assert_true (ks_config_applies (c, test_param ("lanes"), KS_BACKEND_OPENCL));
  g_assert_false (ks_config_set (c, "size", g_variant_new_string ("3"), &error));
  g_assert_nonnull (strstr (error->message, "takes a int value"));
  g_clear_error (&error);
  g_assert_false (ks_config_set (c, "size", g_variant_new_int64 (0), &error));
  g_assert_nonnull (strstr (error->message, "between 1 and"));
  g_clear_error (&error);
  g_assert_false (ks_config_set_string (c, "nothing", "1", &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_UNKNOWN);
}

/* Defaults for a form: the description's, or the device's with its reason. */
static void
test_default_text (void)
{
  g_autoptr(KsConfig) base = ks_config_new (&ks_exp_gauss_size);
  const KsParamSpec *wg = &ks_exp_gauss_size.params[ks_experiment_desc_find_param (&ks_exp_gauss_size, "wg")];
  g_autofree char *size = NULL;
  g_autofree char *input = NULL;
  g_autofree char *text = NULL;
  g_autofree char *why = NULL;
  g_autofree char *none = NULL;
  g_autoptr(GError) error = NULL;

  size = ks_param_default_text (test_param ("size"), host (), NULL, &why, &error);
  g_assert_cmpstr (size, ==, "1:4");
  g_assert_null (why);
  input = ks_param_default_text (test_param ("input"), NULL, NULL, NULL, &error);
  g_assert_null (input);
  g_assert_no_error (error);
  /* gauss-size's group size: the paper's rule on the device, said. */
  none = ks_param_default_text (wg, NULL, base, &why, &error);
  g_assert_null (none);
  text = ks_param_default_text (wg, host (), base, &why, &error);
  g_assert_no_error (error);
  g_assert_nonnull (text);
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, "no --wg given"));
}

/* --- the engine ------------------------------------------------------------------ */

typedef struct {
  guint      n;
  guint64    last_done;
  GThread   *thread;
  GCancellable *cancel_after;
  guint      cancel_at;
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
} Seen;

static void
on_point (KsEngine         *engine,
          const KsRunPoint *point,
          guint64           done,
          guint64           total,
          Seen             *seen)
{
  KsRun *run = ks_engine_get_run (engine);

  seen->n++;
  /* The caller's run holds the point (and its device's numbers) before
   * the signal: a page may read the whole run in its handler. */
  g_assert_cmpuint (run->points->len, ==, seen->n);
  g_assert_true (run->points->pdata[run->points->len - 1] == point);
  g_assert_cmpfloat (ks_run_device_get_info (run->devices->pdata[point->device], "answer"), ==, 42);
  g_assert_cmpuint (done, ==, seen->last_done + 1);
  g_assert_cmpuint (done, <=, total);
  seen->last_done = done;
  /* Emitted on the thread the run was started from. */
  g_assert_true (seen->thread == g_thread_self ());
  if (seen->cancel_after && seen->n == seen->cancel_at)
    g_cancellable_cancel (seen->cancel_after);
}

static KsEngine *
engine_with (const char *const *settings,
             guint               warmup,
             guint               reps)
{
  KsEngine *engine = ks_engine_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; settings && settings[i]; i += 2)
    g_assert_true (ks_engine_set (engine, settings[i], settings[i + 1], &error));
  g_assert_true (ks_engine_set_repetitions (engine, warmup, reps, &error));
  ks_engine_add_device (engine, host ());
  return engine;
}

/* A derived column whose baseline is measured after the points that need
 * it (square, given last): derived again when the run ends. */
static void
test_engine_late_baseline (void)
{
  const char *settings[] = { "size", "1:3", "shape", "tall,square", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 1);
  g_autoptr(GError) error = NULL;
  KsRun *run;
  guint checked = 0;

  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);
  run = ks_engine_get_run (engine);
  g_assert_cmpuint (run->points->len, ==, 6);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      gint64 size = (gint64) ks_run_point_get_number (run, p, "size");
      const char *shape = g_variant_get_string (ks_run_point_get_param (run, p, "shape"), NULL);
      double expected = ks_exp_test_value (size, shape, 1.5, FALSE, 0)
                        / ks_exp_test_value (size, "square", 1.5, FALSE, 0);

      g_assert_null (p->error);
      g_assert_cmpfloat_with_epsilon (ks_run_point_get_number (run, p, "vs_square"), expected, 1e-12);
      checked += g_strcmp0 (shape, "tall") == 0;
    }
  /* Every tall point came before its square one. */
  g_assert_cmpuint (checked, ==, 3);
  g_assert_cmpstr (g_variant_get_string (ks_run_point_get_param (run, run->points->pdata[0], "shape"), NULL),
                   ==, "tall");
}

/* Names for people: a parameter's or column's label with its unit, a
 * device-info number's label from the description, else the name. */
static void
test_name_labels (void)
{
  const char *cases[][3] = {
    { "gauss-size", "time_ms", "time per solve, ms" },
    { "gauss-size", "residual", "residual" },
    { "gauss-size", "n", "Matrix size n" },
    { "gauss-wg", "ogs_predicted", "predicted optimal group size" },
    { "gauss-wg", "pwgsm", "preferred multiple" },
    { "gauss-wg", "no_such_name", "no_such_name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *label = ks_experiment_desc_name_label (ks_registry_lookup (cases[i][0]), cases[i][1]);
      g_assert_cmpstr (label, ==, cases[i][2]);
    }
}

static void
test_engine_values (void)
{
  const char *settings[] = { "size", "1:4", "shape", "square,wide", "scale", "2", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 3);
  g_autoptr(GError) error = NULL;
  Seen seen = { .thread = g_thread_self () };
  KsRun *run;

  g_signal_connect (engine, "point-measured", G_CALLBACK (on_point), &seen);
  g_assert_true (ks_engine_prepare (engine, &error));
  g_assert_cmpuint (ks_engine_get_n_points (engine), ==, 8);
  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (seen.n, ==, 8);
  g_assert_cmpfloat (ks_engine_get_fraction (engine), ==, 1.0);

  run = ks_engine_get_run (engine);
  g_assert_true (run->complete);
  g_assert_null (run->stop_reason);
  g_assert_cmpuint (run->points->len, ==, 8);
  g_assert_cmpuint (ks_run_count_measured (run), ==, 7);
  g_assert_cmpstr (run->axes[0], ==, "size");
  g_assert_cmpstr (run->axes[1], ==, "shape");
  g_assert_null (run->axes[2]);
  g_assert_cmpstr (g_hash_table_lookup (run->settings, "size"), ==, "1:4");
  g_assert_cmpstr (g_hash_table_lookup (run->settings, "label"), ==, "none");
  g_assert_cmpfloat (ks_run_device_get_info (run->devices->pdata[0], "answer"), ==, 42);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      gint64 size = 1 + i / 2;
      const char *shape = i % 2 ? "wide" : "square";
      double base = ks_exp_test_value (size, shape, 2, FALSE, 0);

      /* The first parameter outermost, in the order given. */
      g_assert_cmpfloat (ks_run_point_get_number (run, p, "size"), ==, size);
      g_assert_cmpstr (g_variant_get_string (ks_run_point_get_param (run, p, "shape"), NULL), ==, shape);
      g_assert_null (ks_run_point_get_param (run, p, "depth"));    /* only for tall */
      g_assert_null (ks_run_point_get_param (run, p, "lanes"));    /* not on the host */
      g_assert_null (ks_run_point_get_param (run, p, "input"));    /* only with --source file */
      if (size == 3 && i % 2)
        {
          g_assert_cmpstr (p->error, ==, "wide 3 does not fit");
          g_assert_true (isnan (ks_run_point_get_number (run, p, "value_ms")));
          continue;
        }
      g_assert_null (p->error);
      g_assert_cmpuint (p->reps, ==, 3);
      /* Median, min and max of base + 0, 1, 2; the last repetition's count. */
      g_assert_cmpfloat (ks_run_point_get_number (run, p, "value_ms"), ==, base + 1);
      g_assert_cmpfloat (p->lo[0], ==, base);
      g_assert_cmpfloat (p->hi[0], ==, base + 2);
      g_assert_cmpfloat (ks_run_point_get_number (run, p, "count"), ==, 3);
      g_assert_true (isnan (ks_run_point_get_number (run, p, "lanes_seen")));
      g_assert_cmpfloat (ks_run_point_get_number (run, p, "big"), ==, size > 2);
      g_assert_cmpfloat_with_epsilon (ks_run_point_get_number (run, p, "ratio"),
                                      (base + 1) / (ks_exp_test_value (1, shape, 2, FALSE, 0) + 1), 1e-12);
    }
}

/* A parameter that does not apply at a point is not swept there. */
static void
test_engine_conditions (void)
{
  const char *settings[] = { "size", "1,2", "shape", "square,tall", "depth", "1,2", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 1, 1);
  g_autoptr(GError) error = NULL;
  KsRun *run;
  const char *want[] = { "1 square -", "1 tall 1", "1 tall 2", "2 square -", "2 tall 1", "2 tall 2" };

  g_assert_true (ks_engine_run (engine, NULL, &error));
  run = ks_engine_get_run (engine);
  g_assert_cmpuint (ks_engine_get_n_points (engine), ==, 6);
  g_assert_cmpuint (run->points->len, ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      GVariant *depth = ks_run_point_get_param (run, p, "depth");
      g_autofree char *depth_text = depth ? ks_param_value_to_string (depth) : g_strdup ("-");
      g_autofree char *got = g_strdup_printf ("%g %s %s", ks_run_point_get_number (run, p, "size"),
                                              g_variant_get_string (ks_run_point_get_param (run, p, "shape"), NULL),
                                              depth_text);
      g_assert_cmpstr (got, ==, want[i]);
      /* One warm-up, then one repetition: k = 1. */
      g_assert_cmpfloat (ks_run_point_get_number (run, p, "count"), ==, 2);
    }
}

static void
test_engine_notes (void)
{
  const char *settings[] = { "size", "1", "depth", "3", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 1);
  g_autoptr(GError) error = NULL;
  const char * const *notes;

  g_assert_true (ks_engine_prepare (engine, &error));
  notes = ks_engine_get_notes (engine);
  g_assert_nonnull (notes[0]);
  g_assert_cmpstr (notes[0], ==, "--depth is not used: it applies only when --shape is tall");
}

static void
test_engine_limits (void)
{
  const char *too_many[] = { "size", "1:1000000", "shape", "square,tall", NULL };
  const char *gpu_only[] = { "lanes", "8", NULL };
  const char *no_input[] = { "source", "file", NULL };
  g_autoptr(KsEngine) many = engine_with (too_many, 0, 1);
  g_autoptr(KsEngine) gpu = engine_with (gpu_only, 0, 1);
  g_autoptr(KsEngine) input = engine_with (no_input, 0, 1);
  g_autoptr(KsEngine) reps = ks_engine_new (&ks_exp_test);
  g_autoptr(KsEngine) empty = ks_engine_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;

  /* 2 million points: counted, refused before one is made. */
  g_assert_false (ks_engine_prepare (many, &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "size 1000000 × shape 2"));
  g_clear_error (&error);
  g_assert_cmpuint (ks_engine_get_run (many)->points->len, ==, 0);

  g_assert_false (ks_engine_prepare (gpu, &error));
  g_assert_nonnull (strstr (error->message, "--lanes applies only on opencl or cuda devices"));
  g_clear_error (&error);
  g_assert_false (ks_engine_prepare (input, &error));
  g_assert_nonnull (strstr (error->message, "test-sweep needs --input"));
  g_clear_error (&error);

  g_assert_false (ks_engine_set_repetitions (reps, 0, G_MAXINT, &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_TOO_LARGE);
  g_clear_error (&error);
  g_assert_false (ks_engine_set_repetitions (reps, 1001, 1, &error));
  g_clear_error (&error);
  g_assert_false (ks_engine_set_repetitions (reps, 0, 0, &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (ks_engine_set (reps, "nothing", "1", &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_UNKNOWN);
  g_clear_error (&error);

  /* No device. */
  g_assert_false (ks_engine_run (empty, NULL, &error));
  g_assert_nonnull (strstr (error->message, "No device"));
}

static void
test_engine_failures (void)
{
  const char *refuse[] = { "label", "refuse-all", NULL };
  const char *fail[] = { "label", "fail-at-3", NULL };
  const char *setup[] = { "label", "setup-null", NULL };
  g_autoptr(KsEngine) nothing = engine_with (refuse, 0, 1);
  g_autoptr(KsEngine) stops = engine_with (fail, 0, 1);
  g_autoptr(KsEngine) careless = engine_with (setup, 0, 1);
  g_autoptr(KsEngine) no_error = engine_with (refuse, 0, 1);
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_engine_run (nothing, NULL, &error));
  g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_NOTHING);
  g_assert_false (ks_engine_get_run (nothing)->complete);
  g_assert_cmpuint (ks_engine_get_run (nothing)->points->len, ==, 4);
  g_clear_error (&error);

  /* No error asked for: the reason is still kept with the run. */
  g_assert_false (ks_engine_run (no_error, NULL, NULL));
  g_assert_nonnull (strstr (ks_engine_get_run (no_error)->stop_reason, "No point could be measured"));

  g_assert_false (ks_engine_run (stops, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_cmpuint (ks_engine_get_run (stops)->points->len, ==, 2);
  g_assert_cmpstr (ks_engine_get_run (stops)->stop_reason, ==,
                   "stopped after 2 of 4 points: the device fell over at size 3");
  g_clear_error (&error);

  g_assert_false (ks_engine_run (careless, NULL, &error));
  g_assert_nonnull (strstr (error->message, "could not be set up"));
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Seen *seen = user_data;

  seen->ok = ks_engine_run_finish (KS_ENGINE (source), result, &seen->error);
  g_main_loop_quit (seen->loop);
}

/* Async: points arrive on the caller's main context, in order, all before
 * the end; cancel keeps every point measured. */
static void
test_engine_async_cancel (void)
{
  /* Size 4 waits for the cancel that the third point's signal sends. */
  const char *settings[] = { "size", "1:200", "label", "block-at-4", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 1);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Seen seen = { .thread = g_thread_self (), .cancel_after = cancellable, .cancel_at = 3, .loop = loop };
  KsRun *run;

  g_signal_connect (engine, "point-measured", G_CALLBACK (on_point), &seen);
  ks_engine_run_async (engine, cancellable, on_done, &seen);
  g_main_loop_run (loop);
  g_assert_false (seen.ok);
  g_assert_error (seen.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&seen.error);
  run = ks_engine_get_run (engine);
  g_assert_false (run->complete);
  g_assert_cmpuint (run->points->len, ==, 3);
  g_assert_cmpuint (seen.n, ==, run->points->len);
  g_assert_cmpuint (ks_run_count_measured (run), ==, run->points->len);
  g_assert_nonnull (strstr (run->stop_reason, "cancelled after"));
}

/* Where two texts part, for a message a reader can act on. */
static char *
first_difference (const char *a,
                  const char *b)
{
  g_auto(GStrv) x = g_strsplit (a, "\n", -1);
  g_auto(GStrv) y = g_strsplit (b, "\n", -1);
  guint i = 0;

  while (x[i] && y[i] && strcmp (x[i], y[i]) == 0)
    i++;
  return g_strdup_printf ("line %u: \"%s\" / \"%s\"", i + 1, x[i] ? x[i] : "(end)", y[i] ? y[i] : "(end)");
}

/* --- files ------------------------------------------------------------------------ */

static KsRun *
measured_run (void)
{
  const char *settings[] = { "size", "1:3", "shape", "square,wide", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 2);

  ks_engine_set_command (engine, "kernelscope-cli run test-sweep --size 1:3");
  g_assert_true (ks_engine_run (engine, NULL, NULL));
  return ks_run_ref (ks_engine_get_run (engine));
}

static void
test_json_round_trip (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autoptr(KsRun) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *again = NULL;
  KsRunPoint *p = run->points->pdata[0];
  const double odd[] = { 1e308, -INFINITY, NAN, 0.1, 4.9e-324, -0.0 };

  /* Numbers a JsonGenerator would write so that they cannot be read back. */
  p->values[0] = odd[0];
  p->lo[0] = odd[1];
  p->hi[0] = odd[2];
  ((KsRunPoint *) run->points->pdata[1])->values[0] = odd[3];
  ((KsRunPoint *) run->points->pdata[2])->values[0] = odd[4];
  ((KsRunPoint *) run->points->pdata[3])->values[0] = odd[5];
  json = ks_run_to_json (run);
  back = ks_run_from_json (json, -1, &error);
  g_assert_no_error (error);
  again = ks_run_to_json (back);
  if (strcmp (json, again) != 0)
    g_error ("written, read and written again, the file differs: %s", first_difference (json, again));
  g_assert_true (back->desc == &ks_exp_test);
  g_assert_cmpstr (back->command, ==, "kernelscope-cli run test-sweep --size 1:3");
  g_assert_cmpfloat (((KsRunPoint *) back->points->pdata[0])->values[0], ==, 1e308);
  g_assert_true (isinf (((KsRunPoint *) back->points->pdata[0])->lo[0]));
  g_assert_true (isnan (((KsRunPoint *) back->points->pdata[0])->hi[0]));
  g_assert_cmpfloat (((KsRunPoint *) back->points->pdata[1])->values[0], ==, 0.1);
  g_assert_cmpfloat (((KsRunPoint *) back->points->pdata[2])->values[0], ==, 4.9e-324);
  g_assert_nonnull (strstr (json, "\"value_ms\": 1e+308,"));
  g_assert_nonnull (strstr (json, "\"value_ms_min\": \"-inf\""));
  g_assert_cmpuint (back->points->len, ==, run->points->len);
  g_assert_cmpstr (((KsRunPoint *) back->points->pdata[5])->error, ==, "wide 3 does not fit");
}

/* One field of every point (of the top level for experiment) replaced:
 * the error names it. */
static void
assert_bad_point (const char *json,
                  const char *field,
                  const char *value,
                  const char *phrase)
{
  g_autofree char *pattern = strcmp (field, "experiment") == 0 ? g_strdup ("(\"experiment\": )[^,]*")
                             : strcmp (field, "device") == 0 ? g_strdup ("(\\{\"device\": )[0-9]+")
                             : g_strdup_printf ("(\\{\"device\": [0-9]+,[^\n]*?\"%s\": )[^,}]*", field);
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  g_autofree char *bad = NULL;
  g_autofree char *replacement = g_strdup_printf ("\\g<1>%s", value);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = NULL;

  bad = g_regex_replace (regex, json, -1, 0, replacement, G_REGEX_MATCH_NOTEMPTY, NULL);
  g_assert_cmpstr (bad, !=, json);
  run = ks_run_from_json (bad, -1, &error);
  g_assert_null (run);
  g_assert_true (error->domain == KS_RUN_ERROR);
  if (!strstr (error->message, phrase))
    g_error ("%s = %s: \"%s\" lacks \"%s\"", field, value, error->message, phrase);
}

static void
test_json_refused (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autofree char *json = ks_run_to_json (run);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  assert_bad_point (json, "size", "\"a\"", "\"size\" must be a whole number");
  assert_bad_point (json, "size", "1.5", "\"size\" must be a whole number");
  assert_bad_point (json, "shape", "\"round\"", "\"shape\" has an unknown value \"round\"");
  assert_bad_point (json, "shape", "[1, 2]", "\"shape\" must be a string");
  assert_bad_point (json, "value_ms", "[1, 2]", "\"value_ms\" must be a number");
  assert_bad_point (json, "value_ms", "\"fast\"", "\"value_ms\" must be a number");
  assert_bad_point (json, "device", "7", "\"device\" = 7 is out of range");
  assert_bad_point (json, "fast", "0", "\"fast\" must be true or false");
  assert_bad_point (json, "reps", "null", "has no \"reps\"");
  assert_bad_point (json, "experiment", "\"nothing\"", "Unknown experiment");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_null (ks_run_from_json (deep->str, deep->len, &error));
  g_assert_nonnull (strstr (error->message, "nested more than 64 deep"));
  g_clear_error (&error);
  g_assert_null (ks_run_from_json ("{\"format\": 3, \"experiment\": \"test-sweep\"}", -1, &error));
  g_assert_nonnull (strstr (error->message, "format 3"));
}

static void
test_csv (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;

  g_free (((KsRunPoint *) run->points->pdata[5])->error);
  ((KsRunPoint *) run->points->pdata[5])->error = g_strdup ("a reason, \"quoted\"");
  csv = ks_run_to_csv (run);
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "device,size,shape,depth,scale,fast,label,source,input,lanes,value_ms,value_ms_min,"
                                 "value_ms_max,count,lanes_seen,big,ratio,vs_square,error");
  g_assert_cmpstr (lines[1], ==, "host,1,square,,1.5,false,none,generated,,,2,1.5,2.5,2,,0,1,1,");
  g_assert_cmpstr (lines[6], ==, "host,3,wide,,1.5,false,none,generated,,,,,,,,,,,\"a reason, \"\"quoted\"\"\"");
  g_assert_cmpstr (lines[7], ==, "");
  g_assert_null (lines[8]);
}

/* The paper's numbers beside the run's: a column at the point of its
 * where, or a number about the device. */
static void
test_paper_values (void)
{
  g_autoptr(KsRun) run = measured_run ();
  const KsPaperValue info = { "", "answer", 42, NULL, "a source", NULL };
  const KsPaperValue missing = { "size=9", "value_ms", 1, "ms", "a source", NULL };
  const KsPaperValue wrong = { "size=2 shape=round", "value_ms", 1, "ms", "a source", NULL };

  g_assert_true (ks_run_point_matches (run, run->points->pdata[2], "size=2 shape=square"));
  g_assert_true (ks_run_point_matches (run, run->points->pdata[2], ""));
  g_assert_false (ks_run_point_matches (run, run->points->pdata[2], "size=2 shape=wide"));
  g_assert_false (ks_run_point_matches (run, run->points->pdata[2], "depth=1"));   /* does not apply */
  /* size 2, square, scale 1.5: 3 + k for k = 0, 1: the median 3.5. */
  g_assert_cmpfloat (ks_run_measured_for (run, &ks_exp_test.paper_values[0], 0), ==, 3.5);
  g_assert_cmpfloat (ks_run_measured_for (run, &info, 0), ==, 42);
  g_assert_true (isnan (ks_run_measured_for (run, &missing, 0)));
  g_assert_true (isnan (ks_run_measured_for (run, &wrong, 0)));
  g_assert_true (isnan (ks_run_measured_for (run, &info, 1)));
}

/* --- the recorded Gauss runs ------------------------------------------------------------ */

static void
assert_same_plot (KsPlot *a,
                  KsPlot *b)
{
  g_assert_cmpuint (ks_plot_get_n_series (a), ==, ks_plot_get_n_series (b));
  g_assert_cmpuint (ks_plot_get_n_vlines (a), ==, ks_plot_get_n_vlines (b));
  g_assert_cmpstr (ks_plot_get_title (a), ==, ks_plot_get_title (b));
  for (guint s = 0; s < ks_plot_get_n_series (a); s++)
    {
      g_assert_cmpstr (ks_plot_series_get_name (a, s), ==, ks_plot_series_get_name (b, s));
      g_assert_cmpuint (ks_plot_series_get_n_points (a, s), ==, ks_plot_series_get_n_points (b, s));
      for (guint i = 0; i < ks_plot_series_get_n_points (a, s); i++)
        {
          const KsPlotPoint *p = ks_plot_series_get_point (a, s, i), *q = ks_plot_series_get_point (b, s, i);
          g_assert_cmpfloat (p->x, ==, q->x);
          g_assert_cmpfloat (p->y, ==, q->y);
          g_assert_cmpint (p->flags, ==, q->flags);
          g_assert_cmpstr (p->label, ==, q->label);
        }
    }
}

/* Every recorded run loads through the new path.  A format-1 Gauss run as
 * KsResults again is the very file (same JSON), its figure is the old
 * figure, and written as format 2 and read back it is the same again; a
 * format-2 run round-trips and draws. */
static void
test_reference_runs (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsResults) old = NULL;
      g_autoptr(KsRun) run = NULL;
      g_autoptr(KsRun) again = NULL;
      g_autoptr(KsResults) back = NULL;
      g_autoptr(KsResults) back2 = NULL;
      g_autofree char *old_json = NULL, *back_json = NULL, *json2 = NULL, *back2_json = NULL;
      g_autoptr(KsPlot) old_plot = NULL;
      g_autoptr(KsPlot) new_plot = NULL;
      KsFigureOptions options;

      if (!g_str_has_suffix (name, ".json") || strstr (name, "-bench-") || g_str_has_suffix (name, "-devices.json"))
        continue;
      g_test_message ("%s", name);
      run = ks_run_load_json (path, &error);
      g_assert_no_error (error);
      if (!(old = ks_results_load_json (path, NULL)))
        {
          /* A format-2 run of any experiment (the papers' H200 runs): it
           * writes and reads back to the very same text, and its first
           * figure draws something. */
          g_autofree char *text = ks_run_to_json (run);
          g_autoptr(KsRun) read = ks_run_from_json (text, -1, &error);
          g_autofree char *text2 = NULL;
          g_autoptr(KsPlot) plot = NULL;

          g_assert_no_error (error);
          text2 = ks_run_to_json (read);
          g_assert_cmpstr (text, ==, text2);
          g_assert_cmpuint (ks_run_count_measured (run), >, 0);
          ks_figure_options_init (&options);
          plot = ks_figure_plot_new (NULL, &run, 1, &options);
          g_assert_cmpuint (ks_plot_get_n_series (plot), >, 0);
          continue;
        }
      back = ks_exp_gauss_to_results (run, 0);
      old_json = ks_results_to_json (old);
      back_json = ks_results_to_json (back);
      if (g_strcmp0 (old_json, back_json) != 0)
        g_error ("%s: read through the new path, it is not the same file: %s", name,
                 first_difference (old_json, back_json));

      ks_figure_options_init (&options);
      options.min_x = 32;
      old_plot = ks_results_plot_new (old, 32);
      new_plot = ks_figure_plot_new (NULL, &run, 1, &options);
      assert_same_plot (old_plot, new_plot);

      json2 = ks_run_to_json (run);
      again = ks_run_from_json (json2, -1, &error);
      g_assert_no_error (error);
      back2 = ks_exp_gauss_to_results (again, 0);
      back2_json = ks_results_to_json (back2);
      if (g_strcmp0 (old_json, back2_json) != 0)
        g_error ("%s: written as format 2 and read back, it is not the same file: %s", name,
                 first_difference (old_json, back2_json));
      n++;
    }
  g_assert_cmpuint (n, >=, 19);
}

/* The shipped runs by experiment, named as the figures name them. */
static void
test_recorded (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autoptr(GPtrArray) size = NULL;
  g_autoptr(GPtrArray) wg = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) test = NULL;
  gboolean graph = FALSE;

  g_setenv ("KERNELSCOPE_REFERENCE_DIR", dir, TRUE);
  size = ks_recorded_list (&ks_exp_gauss_size);
  wg = ks_recorded_list (&ks_exp_gauss_wg);
  all = ks_recorded_list (NULL);
  test = ks_recorded_list (&ks_exp_test);
  g_unsetenv ("KERNELSCOPE_REFERENCE_DIR");

  /* Paper 000's H200 runs, the first nine and ten of them in format 1;
   * every top-level JSON is a recorded run of some experiment. */
  g_assert_cmpuint (size->len, >=, 9);
  g_assert_cmpuint (wg->len, >=, 10);
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    guint files = 0;

    while (d && (name = g_dir_read_name (d)))
      files += g_str_has_suffix (name, ".json");
    g_assert_cmpuint (all->len, ==, files);
  }
  g_assert_cmpuint (test->len, ==, 0);
  for (guint i = 0; i < size->len; i++)
    {
      const KsRecorded *r = size->pdata[i];

      g_assert_true (r->run->desc == &ks_exp_gauss_size);
      g_assert_true (g_str_has_prefix (r->label, "recorded: NVIDIA H200 ("));
      if (strstr (r->path, "fig2-graph"))
        {
          g_assert_cmpstr (r->label, ==, "recorded: NVIDIA H200 (CUDA graph)");
          graph = TRUE;
        }
      if (i > 0)
        g_assert_cmpint (strcmp (((KsRecorded *) size->pdata[i - 1])->path, r->path), <, 0);
    }
  g_assert_true (graph);
}

/* A format-1 file with a field of the wrong type names it. */
static void
test_legacy_refused (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                 "h200-cuda-fig3-wg.json", NULL);
  g_autofree char *data = NULL;
  const char *bad[] = { "[\"a\", \"b\"]", "[1.5, 2.7]", "[null, null]" };

  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GRegex) regex = g_regex_new ("(\"fwd_local\" : )\\[[^]]*\\]", 0, 0, NULL);
      g_autofree char *replacement = g_strdup_printf ("\\g<1>%s", bad[i]);
      g_autofree char *broken = g_regex_replace (regex, data, -1, 0, replacement, 0, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsRun) run = NULL;

      g_assert_cmpstr (broken, !=, data);
      run = ks_run_from_json (broken, -1, &error);
      g_assert_null (run);
      g_assert_nonnull (strstr (error->message, "\"fwd_local\" must have 2 whole numbers"));
    }
}

/* --- figures --------------------------------------------------------------------------- */

static void
test_figure (void)
{
  g_autoptr(KsRun) run = measured_run ();
  g_autoptr(KsRun) other = measured_run ();
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(KsPlot) ratio = NULL;
  g_autoptr(KsPlot) both = NULL;
  KsRun *runs[] = { run, other };
  KsFigureOptions options;
  const KsPlotPoint *p;

  ks_figure_options_init (&options);
  plot = ks_figure_plot_new (NULL, &run, 1, &options);
  g_assert_cmpstr (ks_plot_get_title (plot), ==, "Value vs size");
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 2);
  g_assert_cmpstr (ks_plot_series_get_name (plot, 0), ==, "shape = square");
  g_assert_cmpstr (ks_plot_series_get_name (plot, 1), ==, "shape = wide");
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 0), ==, 3);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 1), ==, 2);   /* wide 3 refused */
  p = ks_plot_series_get_point (plot, 0, 0);
  g_assert_cmpfloat (p->y, ==, 2.0);     /* the median of 1.5 and 2.5 */
  g_assert_cmpfloat (p->y_lo, ==, 1.5);
  g_assert_cmpfloat (p->y_hi, ==, 2.5);
  g_assert_cmpint (p->flags, ==, KS_PLOT_POINT_BEST);
  g_assert_cmpstr (p->label, ==, "best 1");
  p = ks_plot_series_get_point (plot, 0, 2);
  g_assert_cmpint (p->flags, ==, KS_PLOT_POINT_HIGHLIGHT);
  g_assert_cmpstr (p->label, ==, "size 3");

  options.min_x = 2;
  ratio = ks_figure_plot_new (&ks_exp_test.figures[1], &run, 1, &options);
  /* No series_by, but shape is swept: a curve per shape all the same
   * (one curve through both would zig-zag): square 2, 3 and wide 2 (wide
   * 3 was refused). */
  g_assert_cmpuint (ks_plot_get_n_series (ratio), ==, 2);
  g_assert_cmpstr (ks_plot_series_get_name (ratio, 0), ==, "shape = square");
  g_assert_cmpuint (ks_plot_series_get_n_points (ratio, 0), ==, 2);
  g_assert_cmpuint (ks_plot_series_get_n_points (ratio, 1), ==, 1);

  /* Two runs: each curve says whose it is; a recorded one is dashed. */
  ks_figure_options_init (&options);
  both = ks_figure_plot_new (NULL, runs, 2, &options);
  g_assert_cmpuint (ks_plot_get_n_series (both), ==, 4);
  g_assert_nonnull (strstr (ks_plot_series_get_name (both, 2), "(host), shape = square"));
  ks_figure_add_recorded (NULL, both, run, &options);
  g_assert_cmpuint (ks_plot_get_n_series (both), ==, 6);
  g_assert_true (g_str_has_prefix (ks_plot_series_get_name (both, 4), "recorded: "));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  ks_exp_test_register ();
  devices = ks_device_list_new ();

  g_test_add_func ("/framework/axes", test_axes);
  g_test_add_func ("/framework/registry", test_registry);
  g_test_add_func ("/framework/config", test_config);
  g_test_add_func ("/framework/default-text", test_default_text);
  g_test_add_func ("/framework/engine/values", test_engine_values);
  g_test_add_func ("/framework/engine/late-baseline", test_engine_late_baseline);
  g_test_add_func ("/framework/name-labels", test_name_labels);
  g_test_add_func ("/framework/engine/conditions", test_engine_conditions);
  g_test_add_func ("/framework/engine/notes", test_engine_notes);
  g_test_add_func ("/framework/engine/limits", test_engine_limits);
  g_test_add_func ("/framework/engine/failures", test_engine_failures);
  g_test_add_func ("/framework/engine/async-cancel", test_engine_async_cancel);
  g_test_add_func ("/framework/json/round-trip", test_json_round_trip);
  g_test_add_func ("/framework/json/refused", test_json_refused);
  g_test_add_func ("/framework/csv", test_csv);
  g_test_add_func ("/framework/paper-values", test_paper_values);
  g_test_add_func ("/framework/reference-runs", test_reference_runs);
  g_test_add_func ("/framework/legacy-refused", test_legacy_refused);
  g_test_add_func ("/framework/recorded", test_recorded);
  g_test_add_func ("/framework/figure", test_figure);

  {
    int status = g_test_run ();
    g_object_unref (devices);
    return status;
  }
}
