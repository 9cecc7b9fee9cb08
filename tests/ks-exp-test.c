/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-test.c: the test experiment "test-sweep" (see ks-exp-test.h).
 * Its label parameter steers the failures the tests need:
 *   fail-at-N    size N stops the run with an error that is no refusal
 *   setup-null   set_up fails without saying why
 *   refuse-all   every point is refused
 *   block-at-N   size N waits (up to 10 s) until the run is cancelled
 * and "wide" at size 3 is refused (the sweep goes on). */
#define G_LOG_DOMAIN "ks-test"

#include "ks-exp-test.h"
#include "ks-registry.h"
#include "ks-run.h"

#include <math.h>
#include <string.h>

/* The ids out of the choices' order, so that a test tells an id from an
 * index. */
static const KsChoice shape_choices[] = {
  { "square", "square", "factor 1", KS_EXP_TEST_SQUARE },
  { "tall", "tall", "factor 2", KS_EXP_TEST_TALL },
  { "wide", "wide", "factor 3; size 3 is refused", KS_EXP_TEST_WIDE },
  { NULL }
};

static const KsChoice source_choices[] = {
  { "generated", "generated", NULL, 0 },
  { "file", "file", "read --input", 1 },
  { NULL }
};

static const KsParamSpec params[] = {
  [KS_EXP_TEST_P_SIZE] = { .name = "size", .label = "Size", .help = "The size the value grows with",
    .type = KS_PARAM_INT,
    .default_value = "1:4", .min = 1, .max = 1000000, .sweepable = TRUE, .cli_range = TRUE },
  [KS_EXP_TEST_P_SHAPE] = { .name = "shape", .label = "Shape", .help = "Which factor", .type = KS_PARAM_CHOICE,
    .choices = shape_choices, .default_value = "square", .sweepable = TRUE },
  [KS_EXP_TEST_P_DEPTH] = { .name = "depth", .label = "Depth", .help = "Only for tall shapes (not swept elsewhere)",
    .type = KS_PARAM_INT,
    .default_value = "1", .min = 1, .max = 100, .sweepable = TRUE, .when = { "shape", { "tall" } } },
  [KS_EXP_TEST_P_SCALE] = { .name = "scale", .label = "Scale", .unit = "x", .help = "Multiplies the value",
    .type = KS_PARAM_REAL,
    .default_value = "1.5", .min = 0, .max = 1e6 },
  [KS_EXP_TEST_P_FAST] = { .name = "fast", .label = "Quick", .help = "Doubles the value", .type = KS_PARAM_BOOL,
    .default_value = "false" },
  [KS_EXP_TEST_P_LABEL] = { .name = "label", .label = "Label", .help = "Steers the failures", .type = KS_PARAM_TEXT,
    .default_value = "none", .advanced = TRUE },
  [KS_EXP_TEST_P_SOURCE] = { .name = "source", .label = "Source", .help = "Where the input comes from",
    .type = KS_PARAM_CHOICE,
    .choices = source_choices, .default_value = "generated" },
  [KS_EXP_TEST_P_INPUT] = { .name = "input", .label = "Input", .help = "A file, checked before anything runs",
    .type = KS_PARAM_FILE,
    .when = { "source", { "file" } } },
  [KS_EXP_TEST_P_LANES] = { .name = "lanes", .label = "GPU lanes", .help = "A GPU-only number", .type = KS_PARAM_INT,
    .default_value = "4", .min = 1, .max = 64, .backends = KS_BACKENDS_GPU },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == KS_EXP_TEST_N_PARAMS);

enum { COL_VALUE, COL_COUNT, COL_LANES, COL_BIG, COL_RATIO, COL_VS_SQUARE, N_COLUMNS };

static double
derive_big (const KsRun        *run,
            const KsRunPoint   *point,
            const KsColumnSpec *column)
{
  return ks_run_point_get_number (run, point, "size") > 2;
}

/* value / the value of size 1 with the same shape on the same device: a
 * baseline from an earlier point of the run (or the point itself). */
static double
derive_ratio (const KsRun        *run,
              const KsRunPoint   *point,
              const KsColumnSpec *column)
{
  GVariant *shape = ks_run_point_get_param (run, point, "shape");

  if (ks_run_point_get_number (run, point, "size") == 1)
    return 1.0;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];

      if (q->device == point->device && q->error == NULL && ks_run_point_get_number (run, q, "size") == 1 &&
          g_variant_equal (shape, ks_run_point_get_param (run, q, "shape")))
        return point->values[COL_VALUE] / q->values[COL_VALUE];
    }
  return NAN;
}

/* value / the square shape's value at the same size on the same device:
 * a baseline that may come later in the run (--shape tall,square), so it
 * is known only when the run ends (the engine derives again then). */
static double
derive_vs_square (const KsRun        *run,
                  const KsRunPoint   *point,
                  const KsColumnSpec *column)
{
  double size = ks_run_point_get_number (run, point, "size");

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];

      if (q->device == point->device && q->error == NULL && ks_run_point_get_number (run, q, "size") == size
          && g_strcmp0 (g_variant_get_string (ks_run_point_get_param (run, q, "shape"), NULL), "square") == 0)
        return point->values[COL_VALUE] / q->values[COL_VALUE];
    }
  return NAN;
}

static const KsColumnSpec columns[] = {
  [COL_VALUE] = { "value_ms", "value", "ms", "size x scale x factor + k", KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_COUNT] = { "count", "repetitions seen", NULL, "k + 1 of the last repetition", KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_LANES] = { "lanes_seen", "lanes", NULL, "The lanes, where they apply", KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_BIG] = { "big", "big", NULL, "size > 2", KS_COLUMN_BOOL, .derive = derive_big },
  [COL_RATIO] = { "ratio", "ratio to size 1", NULL, "value / value at size 1", KS_COLUMN_REAL,
                  .derive = derive_ratio },
  [COL_VS_SQUARE] = { "vs_square", "ratio to square", NULL, "value / the square shape's value at this size",
                      KS_COLUMN_REAL, .derive = derive_vs_square },
};

static const KsFigureSpec figures[] = {
  { .id = "value-vs-size", .title = "Value vs size", .x = "size", .y = "value_ms", .series_by = "shape",
    .highlight = "big", .highlight_legend = "big", .highlight_label = "size %g", .mark_best = TRUE,
    .min_x_option = "min-size", .min_x_help = "Leave out sizes below X" },
  { .id = "ratio-vs-size", .title = "Ratio vs size", .x = "size", .y = "ratio", .log_y = TRUE },
};

static const KsPaperValue paper_values[] = {
  { "size=2 shape=square", "value_ms", 3.0, "ms", "test table 1", "what size 2 measures at scale 1.5" },
};

typedef struct {
  guint k;
} TestState;

double
ks_exp_test_value (gint64      size,
                   const char *shape,
                   double      scale,
                   gboolean    fast,
                   guint       k)
{
  double factor = g_strcmp0 (shape, "tall") == 0 ? 2 : g_strcmp0 (shape, "wide") == 0 ? 3 : 1;
  return size * scale * factor * (fast ? 2 : 1) + k;
}

/* A careless set-up when the label says so: it fails without an error. */
static gpointer
test_set_up (const KsExperimentDesc *desc,
             KsDevice               *device,
             const KsConfig         *base,
             GCancellable           *cancellable,
             GError                **error)
{
  if (g_strcmp0 (ks_config_text (base, KS_EXP_TEST_P_LABEL), "setup-null") == 0)
    return NULL;
  return g_new0 (TestState, 1);
}

static gboolean
test_prepare (gpointer        state,
              const KsConfig *point,
              GCancellable   *cancellable,
              GError        **error)
{
  ((TestState *) state)->k = 0;
  return TRUE;
}

static gboolean
test_measure (gpointer        state,
              const KsConfig *point,
              double         *values,
              GCancellable   *cancellable,
              GError        **error)
{
  TestState *s = state;
  gint64 size = ks_config_int (point, KS_EXP_TEST_P_SIZE);
  const char *shape = ks_config_text (point, KS_EXP_TEST_P_SHAPE);
  const KsExpTestShape id = ks_config_choice (point, KS_EXP_TEST_P_SHAPE);
  const char *label = ks_config_text (point, KS_EXP_TEST_P_LABEL);

  if (g_strcmp0 (label, "refuse-all") == 0 || (id == KS_EXP_TEST_WIDE && size == 3))
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, "%s %" G_GINT64_FORMAT " does not fit",
                   shape, size);
      return FALSE;
    }
  if (label && g_str_has_prefix (label, "fail-at-") && size == g_ascii_strtoll (label + 8, NULL, 10))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the device fell over at size %" G_GINT64_FORMAT, size);
      return FALSE;
    }
  if (label && g_str_has_prefix (label, "block-at-") && size == g_ascii_strtoll (label + 9, NULL, 10))
    {
      gint64 end = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

      while (!g_cancellable_is_cancelled (cancellable) && g_get_monotonic_time () < end)
        g_usleep (1000);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
  values[COL_VALUE] = ks_exp_test_value (size, shape, ks_config_real (point, KS_EXP_TEST_P_SCALE),
                                         ks_config_bool (point, KS_EXP_TEST_P_FAST), s->k);
  values[COL_COUNT] = ++s->k;
  if (ks_config_value (point, KS_EXP_TEST_P_LANES))
    values[COL_LANES] = ks_config_int (point, KS_EXP_TEST_P_LANES);
  return TRUE;
}

static void
test_describe_device (gpointer        state,
                      const KsConfig *base,
                      KsRunDevice    *out)
{
  ks_run_device_set_info (out, "answer", 42);
}

/* The point's tooltip (the GUI's table and plot). */
static char *
test_describe_point (const KsRun      *run,
                     const KsRunPoint *point)
{
  return g_strdup_printf ("measured %u times", point->reps);
}

static void
test_tear_down (gpointer state)
{
  g_free (state);
}

const KsExperimentDesc ks_exp_test = {
  .id = "test-sweep",
  .title = "Test: value vs size",
  .paper = "009",
  .paper_title = "A test paper (tests/ only)",
  .summary = "Arithmetic, to test the framework",
  .claim = "The value grows with the size; wide shapes of size 3 are refused.",
  .example = "--from 1 --to 8 --shape square,tall --csv t.csv",
  .size_param = "size",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .paper_values = paper_values, .n_paper_values = G_N_ELEMENTS (paper_values),
  .set_up = test_set_up,
  .prepare = test_prepare,
  .measure_one_rep = test_measure,
  .describe_device = test_describe_device,
  .tear_down = test_tear_down,
  .describe_point = test_describe_point,
};

void
ks_exp_test_register (void)
{
  g_autoptr(GError) error = NULL;

  if (ks_registry_lookup (ks_exp_test.id))
    return;
  if (!ks_registry_add (&ks_exp_test, &error))
    g_error ("%s", error->message);
}
