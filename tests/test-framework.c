/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-framework: the experiment framework through the test experiment
 * declared only in tests/ (ks-exp-test.c): parameter axes, the registry,
 * names for people, and the engine (values, refusals, conditions, limits,
 * failures, cancel, the main context).  Its files, the recorded Gauss runs
 * and the generic figure are test-framework-files'. */
#include "ks-engine.h"
#include "ks-exp-gauss.h"
#include "ks-exp-test.h"
#include "ks-registry.h"
#include "ks-run.h"
#include "ks-test-framework-util.h"

#include <math.h>
#include <string.h>

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
  /* Numbers beyond a gint64 are too large, with the limit, not "not a number". */
  assert_axis_error ("size", "2^70", "2^70 is too large: the most it takes is 1000000");
  assert_axis_error ("size", "18446744073709551616", "18446744073709551616 is too large: the most it takes is 1000000");
  assert_axis_error ("size", "1:18446744073709551616", "too large: the most it takes is 1000000");
  assert_axis_error ("size", "-18446744073709551616", "too small: the least it takes is 1");
  assert_axis_error ("scale", "1e999", "1e999 is too large: the most it takes is");
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
   * paper without any says what is coming), then the test's own, then
   * the benches ("bench" sorts after the digits: the sidebar's last). */
  g_assert_cmpuint (papers->len, ==, 7);
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
  g_assert_cmpstr (((KsPaperGroup *) papers->pdata[6])->id, ==, "bench");
  g_assert_cmpstr (((KsPaperGroup *) papers->pdata[6])->title, ==, "Benchmarks");
  g_assert_true (ks_registry_lookup ("bench-gauss") == ((KsPaperGroup *) papers->pdata[6])->experiments->pdata[0]);
  g_assert_true (ks_registry_lookup ("bench-launch") == ((KsPaperGroup *) papers->pdata[6])->experiments->pdata[2]);

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
  /* One letter, one meaning: -r is every run's --reps (micro-buffers once
   * made it --rows there), and two parameters cannot share one. */
  params[1] = ks_exp_test.params[1];
  params[0].short_name = 'r';
  g_assert_false (ks_registry_add (&bad, &error));
  g_assert_nonnull (strstr (error->message, "short option"));
  g_clear_error (&error);
  params[0].short_name = params[1].short_name = 'z';
  g_assert_false (ks_registry_add (&bad, &error));
  g_assert_nonnull (strstr (error->message, "short option"));
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

  g_assert_cmpint (ks_config_int (c, KS_EXP_TEST_P_SIZE), ==, 1);
  g_assert_cmpstr (ks_config_text (c, KS_EXP_TEST_P_SHAPE), ==, "square");
  g_assert_cmpint (ks_config_choice (c, KS_EXP_TEST_P_SHAPE), ==, KS_EXP_TEST_SQUARE);
  g_assert_cmpfloat (ks_config_real (c, KS_EXP_TEST_P_SCALE), ==, 1.5);
  g_assert_false (ks_config_bool (c, KS_EXP_TEST_P_FAST));
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

/* A device whose triad was measured before the run (the Devices page)
 * carries it in the run, for the roofline of any machine that loads the
 * file; one never measured records none. */
static void
test_engine_triad (void)
{
  const char *settings[] = { "size", "1", NULL };
  g_autoptr(KsEngine) measured = NULL, unmeasured = NULL;
  g_autoptr(GError) error = NULL;

  ks_device_set_bandwidth (host (), 12.5);
  measured = engine_with (settings, 0, 1);
  g_assert_true (ks_engine_run (measured, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (ks_run_device_get_info (ks_engine_get_run (measured)->devices->pdata[0], "triad_gbs"), ==, 12.5);
  /* The description's own numbers are still there. */
  g_assert_cmpfloat (ks_run_device_get_info (ks_engine_get_run (measured)->devices->pdata[0], "answer"), ==, 42);

  ks_device_set_bandwidth (host (), 0);
  unmeasured = engine_with (settings, 0, 1);
  g_assert_true (ks_engine_run (unmeasured, NULL, &error));
  g_assert_true (isnan (ks_run_device_get_info (ks_engine_get_run (unmeasured)->devices->pdata[0], "triad_gbs")));
}

/* Names for people: a parameter's or column's label with its unit (the
 * micro sign for "us"), a device-info number's label from the
 * description, else the name. */
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
    /* The files' "us", shown with the micro sign. */
    { "heat-hybrid", "iteration_us", "time per CG iteration, \302\265s" },
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
  /* About the user's own option: a warning, which -q does not hide. */
  g_assert_cmpstr (ks_engine_get_warnings (engine)[0], ==, notes[0]);
  g_assert_null (ks_engine_get_warnings (engine)[1]);
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

int
main (int    argc,
      char **argv)
{
  ks_test_framework_init (&argc, &argv);

  g_test_add_func ("/framework/axes", test_axes);
  g_test_add_func ("/framework/registry", test_registry);
  g_test_add_func ("/framework/config", test_config);
  g_test_add_func ("/framework/default-text", test_default_text);
  g_test_add_func ("/framework/engine/values", test_engine_values);
  g_test_add_func ("/framework/engine/late-baseline", test_engine_late_baseline);
  g_test_add_func ("/framework/engine/triad", test_engine_triad);
  g_test_add_func ("/framework/name-labels", test_name_labels);
  g_test_add_func ("/framework/engine/conditions", test_engine_conditions);
  g_test_add_func ("/framework/engine/notes", test_engine_notes);
  g_test_add_func ("/framework/engine/limits", test_engine_limits);
  g_test_add_func ("/framework/engine/failures", test_engine_failures);
  g_test_add_func ("/framework/engine/async-cancel", test_engine_async_cancel);

  return ks_test_framework_run ();
}
