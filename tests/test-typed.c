/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-typed.c: values travel typed.  A point reads its values by index
 * and a choice as its enum (KsChoice.id), in the test experiment and in
 * every registered description; an axis made elsewhere than from text
 * reaches the engine as it is (ks_engine_set_axis), checked as text would
 * be, and the run records it in a text that parses back to it. */
#define G_LOG_DOMAIN "test-typed"

#include "ks-engine.h"
#include "ks-exp-test.h"
#include "ks-registry.h"
#include "ks-run.h"
#include "ks-test-framework-util.h"

#include <math.h>
#include <string.h>

static GPtrArray *
new_axis (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
}

static void
add_value (GPtrArray *axis,
           GVariant  *value)
{
  g_ptr_array_add (axis, g_variant_ref_sink (value));
}

/* The test experiment's enum names its parameters in params[] order, and
 * a choice reads as its id, which is not its place among the choices. */
static void
test_index_reads (void)
{
  static const char *const names[KS_EXP_TEST_N_PARAMS] = {
    [KS_EXP_TEST_P_SIZE] = "size", [KS_EXP_TEST_P_SHAPE] = "shape", [KS_EXP_TEST_P_DEPTH] = "depth",
    [KS_EXP_TEST_P_SCALE] = "scale", [KS_EXP_TEST_P_FAST] = "fast", [KS_EXP_TEST_P_LABEL] = "label",
    [KS_EXP_TEST_P_SOURCE] = "source", [KS_EXP_TEST_P_INPUT] = "input", [KS_EXP_TEST_P_LANES] = "lanes",
  };
  g_autoptr(KsConfig) c = ks_config_new (&ks_exp_test);

  g_assert_cmpuint (ks_exp_test.n_params, ==, KS_EXP_TEST_N_PARAMS);
  for (guint i = 0; i < KS_EXP_TEST_N_PARAMS; i++)
    g_assert_cmpstr (ks_exp_test.params[i].name, ==, names[i]);

  g_assert_cmpint (ks_config_choice (c, KS_EXP_TEST_P_SHAPE), ==, KS_EXP_TEST_SQUARE);
  g_assert_true (ks_config_set_string (c, "shape", "tall", NULL));
  g_assert_cmpint (ks_config_choice (c, KS_EXP_TEST_P_SHAPE), ==, KS_EXP_TEST_TALL);
  g_assert_cmpstr (ks_config_text (c, KS_EXP_TEST_P_SHAPE), ==, "tall");
  g_assert_true (ks_config_value (c, KS_EXP_TEST_P_SHAPE) == ks_config_get (c, "shape"));
  g_assert_true (ks_config_set (c, "shape", NULL, NULL));
  g_assert_cmpint (ks_config_choice (c, KS_EXP_TEST_P_SHAPE), ==, -1);

  /* A read of another type is the measuring function's mistake. */
  g_test_expect_message ("ks-experiments", G_LOG_LEVEL_CRITICAL, "*\"size\" is a int, not a real*");
  g_assert_cmpfloat (ks_config_real (c, KS_EXP_TEST_P_SIZE), ==, 0);
  g_test_assert_expected_messages ();
  g_test_expect_message ("ks-experiments", G_LOG_LEVEL_CRITICAL, "*has no parameter 9*");
  g_assert_cmpint (ks_config_int (c, KS_EXP_TEST_N_PARAMS), ==, 0);
  g_test_assert_expected_messages ();
}

/* wide's id reaches the measuring function: size 3 of it is refused. */
static void
test_choice_reaches_measure (void)
{
  const char *settings[] = { "size", "2:3", "shape", "wide", NULL };
  g_autoptr(KsEngine) engine = engine_with (settings, 0, 1);
  g_autoptr(GError) error = NULL;
  KsRun *run;

  g_assert_true (ks_engine_run (engine, NULL, &error));
  run = ks_engine_get_run (engine);
  g_assert_cmpuint (run->points->len, ==, 2);
  g_assert_null (((KsRunPoint *) run->points->pdata[0])->error);
  g_assert_nonnull (strstr (((KsRunPoint *) run->points->pdata[1])->error, "does not fit"));
  /* The run's points read back as ids too. */
  g_assert_cmpint (ks_run_point_choice (run, run->points->pdata[0], KS_EXP_TEST_P_SHAPE), ==, KS_EXP_TEST_WIDE);
  g_assert_cmpint (ks_run_point_choice (run, run->points->pdata[0], KS_EXP_TEST_P_SOURCE), ==, 0);
}

/* Every registered description: each index is the parameter of that
 * name, and each choice set reads back as its id. */
static void
test_every_description (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  guint choices = 0;

  g_assert_cmpuint (all->len, >, 10);
  for (guint d = 0; d < all->len; d++)
    {
      const KsExperimentDesc *desc = all->pdata[d];
      g_autoptr(KsConfig) c = ks_config_new (desc);

      for (guint i = 0; i < desc->n_params; i++)
        {
          const KsParamSpec *spec = &desc->params[i];

          g_assert_cmpint (ks_experiment_desc_find_param (desc, spec->name), ==, (int) i);
          if (spec->type != KS_PARAM_CHOICE)
            continue;
          for (const KsChoice *ch = spec->choices; ch->value; ch++, choices++)
            {
              g_assert_true (ks_config_set_string (c, spec->name, ch->value, NULL));
              g_assert_cmpint (ks_config_choice (c, i), ==, ch->id);
              g_assert_true (ks_param_find_choice (spec, ch->value) == ch);
            }
        }
    }
  g_assert_cmpuint (choices, >, 50);
}

/* A parameter list with a hole (an enum value without its entry) and
 * choices whose ids were left alike are refused at registration. */
static void
test_validate_layout (void)
{
  static const KsChoice alike[] = { { "square", "square", NULL, 0 }, { "tall", "tall", NULL, 0 }, { NULL } };
  KsParamSpec params[KS_EXP_TEST_N_PARAMS + 1] = { 0 };
  KsExperimentDesc bad = ks_exp_test;
  g_autoptr(GError) error = NULL;

  memcpy (params, ks_exp_test.params, sizeof (KsParamSpec) * KS_EXP_TEST_N_PARAMS);
  bad.params = params;
  bad.n_params = G_N_ELEMENTS (params);
  g_assert_false (ks_experiment_desc_validate (&bad, &error));
  g_assert_nonnull (strstr (error->message, "needs a name"));
  g_clear_error (&error);

  bad.n_params = KS_EXP_TEST_N_PARAMS;
  params[KS_EXP_TEST_P_SHAPE].choices = alike;
  g_assert_false (ks_experiment_desc_validate (&bad, &error));
  g_assert_nonnull (strstr (error->message, "need an id each"));
}

/* An axis made as values (the CLI's --from/--to/--step, a form's spin
 * button) is swept as it is, each value checked as text would be; the
 * run's settings hold a text that parses back to the very values. */
static void
test_engine_set_axis (void)
{
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_test);
  g_autoptr(GPtrArray) sizes = new_axis ();
  g_autoptr(GPtrArray) scale = new_axis ();
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  const double third = 1.0 / 3;
  KsRun *run;

  for (gint64 v = 1; v <= 7; v += 3)
    add_value (sizes, g_variant_new_int64 (v));
  add_value (scale, g_variant_new_double (third));
  g_assert_true (ks_engine_set_axis (engine, KS_EXP_TEST_P_SIZE, sizes, &error));
  g_assert_true (ks_engine_set_axis (engine, KS_EXP_TEST_P_SCALE, scale, &error));
  g_assert_true (ks_engine_set_repetitions (engine, 0, 1, &error));
  ks_engine_add_device (engine, host ());
  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);

  run = ks_engine_get_run (engine);
  g_assert_cmpuint (run->points->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      g_assert_cmpint (g_variant_get_int64 (ks_run_point_get_param (run, p, "size")), ==, 1 + 3 * (gint64) i);
      g_assert_true (g_variant_get_double (ks_run_point_get_param (run, p, "scale")) == third);
    }
  g_assert_cmpstr (g_hash_table_lookup (run->settings, "size"), ==, "1:7:3");
  again = ks_param_parse_axis (&ks_exp_test.params[KS_EXP_TEST_P_SCALE],
                               g_hash_table_lookup (run->settings, "scale"), &error);
  g_assert_true (g_variant_get_double (again->pdata[0]) == third);
}

/* What text refuses, an axis of values refuses too, with the same words. */
static void
test_engine_set_axis_refuses (void)
{
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_test);
  g_autoptr(GPtrArray) empty = new_axis ();
  g_autoptr(GPtrArray) zero = new_axis ();
  g_autoptr(GPtrArray) text = new_axis ();
  g_autoptr(GPtrArray) round = new_axis ();
  g_autoptr(GPtrArray) two = new_axis ();
  g_autoptr(GPtrArray) inf = new_axis ();
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_engine_set_axis (engine, KS_EXP_TEST_P_SIZE, empty, &error));
  g_assert_nonnull (strstr (error->message, "--size is empty"));
  g_clear_error (&error);
  add_value (zero, g_variant_new_int64 (0));
  g_assert_false (ks_engine_set_axis (engine, KS_EXP_TEST_P_SIZE, zero, &error));
  g_assert_nonnull (strstr (error->message, "between 1 and"));
  g_clear_error (&error);
  add_value (text, g_variant_new_string ("3"));
  g_assert_false (ks_engine_set_axis (engine, KS_EXP_TEST_P_SIZE, text, &error));
  g_assert_nonnull (strstr (error->message, "takes a int value"));
  g_clear_error (&error);
  add_value (round, g_variant_new_string ("round"));
  g_assert_false (ks_engine_set_axis (engine, KS_EXP_TEST_P_SHAPE, round, &error));
  g_assert_nonnull (strstr (error->message, "must be one of square, tall, wide"));
  g_clear_error (&error);
  add_value (two, g_variant_new_double (1));
  add_value (two, g_variant_new_double (2));
  g_assert_false (ks_engine_set_axis (engine, KS_EXP_TEST_P_SCALE, two, &error));
  g_assert_nonnull (strstr (error->message, "--scale takes one value"));
  g_clear_error (&error);
  add_value (inf, g_variant_new_double (INFINITY));
  g_assert_false (ks_engine_set_axis (engine, KS_EXP_TEST_P_SCALE, inf, &error));
  g_assert_nonnull (strstr (error->message, "\"inf\" is not a number"));
  g_assert_false (ks_engine_is_set (engine, "size"));
}

/* An axis written as the CLI takes it reads back to the same values. */
static void
test_axis_to_string (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "1,32:1024:32", "1,32:1024:32" },
    { "2^0:2^4", "1,2,4,8,16" },
    { "1:3", "1:3" },
    { "5", "5" },
    { "1,2,4", "1,2,4" },
    { "7,1:5:2", "1:7:2" },
  };
  const KsParamSpec *size = &ks_exp_test.params[KS_EXP_TEST_P_SIZE];
  KsParamSpec real = { .name = "x", .label = "x", .type = KS_PARAM_REAL, .sweepable = TRUE };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) axis = ks_param_parse_axis (size, cases[i].in, NULL);
      g_autofree char *text = ks_param_axis_to_string (axis);

      g_assert_cmpstr (text, ==, cases[i].out);
    }
  {
    g_autoptr(GPtrArray) axis = ks_param_parse_axis (&real, "0:0.3:0.1", NULL);
    g_autofree char *text = ks_param_axis_to_string (axis);
    g_autoptr(GPtrArray) back = ks_param_parse_axis (&real, text, NULL);

    g_assert_cmpuint (back->len, ==, axis->len);
    for (guint i = 0; i < axis->len; i++)
      g_assert_true (g_variant_get_double (back->pdata[i]) == g_variant_get_double (axis->pdata[i]));
  }
}

int
main (int    argc,
      char **argv)
{
  ks_test_framework_init (&argc, &argv);
  g_test_add_func ("/typed/index-reads", test_index_reads);
  g_test_add_func ("/typed/choice-reaches-measure", test_choice_reaches_measure);
  g_test_add_func ("/typed/every-description", test_every_description);
  g_test_add_func ("/typed/validate-layout", test_validate_layout);
  g_test_add_func ("/typed/engine-set-axis", test_engine_set_axis);
  g_test_add_func ("/typed/engine-set-axis-refuses", test_engine_set_axis_refuses);
  g_test_add_func ("/typed/axis-to-string", test_axis_to_string);
  return ks_test_framework_run ();
}
