/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro-builtins.c: paper 001's built-in functions (section 4.3,
 * Table 5) as the description "micro-builtins": the loop with mad_sat,
 * abs_diff and hadd against the same loop in plain expressions, one bar
 * each, beside the paper's NVIDIA and ATI columns. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-micro.h"
#include "ks-micro.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* The plain body first: the built-ins' ratio is taken against it. */
static const KsChoice variant_choices[] = {
  { "plain", N_("plain expressions"),
    N_("result * first + second; abs (result - third); (result + fourth) >> 1") },
  { "builtins", N_("built-in functions"),
    N_("mad_sat (result, first, second); abs_diff (result, third); hadd (result, fourth)") },
  { NULL }
};

static const KsParamSpec params[] = {
  { .name = "variant", .short_name = 'v', .label = N_("Loop body"),
    .help = N_("plain (the expressions), builtins (mad_sat, abs_diff, hadd), or both: plain,builtins"),
    .type = KS_PARAM_CHOICE, .choices = variant_choices, .default_value = "plain,builtins", .sweepable = TRUE },
  { .name = "items", .label = N_("Work-items"),
    .help = N_("Work-items of every launch, one short each (the paper does not say; its other tables ran 256)"),
    .type = KS_PARAM_INT, .default_value = "256", .min = 1, .max = 1 << 24, .sweepable = TRUE },
  { .name = "iterations", .short_name = 'i', .label = N_("Iterations"),
    .help = N_("Times each work-item runs the loop of 16 bodies. The paper ran 2^20 = 1048576, which takes "
               "minutes on a CPU; its numbers are drawn beside a run of that many"),
    .type = KS_PARAM_INT, .default_value = "16384", .min = 1, .max = 1 << 30, .sweepable = TRUE,
    .advanced = TRUE },
};

enum { COL_TIME = KS_EXP_MICRO_COL_TIME, COL_PER_BODY = KS_EXP_MICRO_N_LOOP_COLUMNS, COL_RATIO, N_COLUMNS };

static double
derive_per_body (const KsRun        *run,
                 const KsRunPoint   *point,
                 const KsColumnSpec *column)
{
  return point->values[COL_TIME] * 1e6 /
         (ks_run_point_get_number (run, point, "items") * ks_run_point_get_number (run, point, "iterations") * 16);
}

/* This time / the plain loop's with the same sizes on the same device. */
static double
derive_ratio (const KsRun        *run,
              const KsRunPoint   *point,
              const KsColumnSpec *column)
{
  if (ks_run_point_get_number (run, point, "variant") == 0)
    return 1.0;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];

      if (q->device == point->device && q->error == NULL && ks_run_point_get_number (run, q, "variant") == 0 &&
          ks_run_point_get_number (run, q, "items") == ks_run_point_get_number (run, point, "items") &&
          ks_run_point_get_number (run, q, "iterations") == ks_run_point_get_number (run, point, "iterations"))
        return point->values[COL_TIME] / q->values[COL_TIME];
    }
  return NAN;
}

static const KsColumnSpec columns[] = {
  KS_EXP_MICRO_LOOP_COLUMNS,
  [COL_PER_BODY] = { "ns_per_body", N_("per body"), "ns",
                     N_("time / (work-items x iterations x 16): one body of three operations on one item"),
                     KS_COLUMN_REAL, .derive = derive_per_body },
  [COL_RATIO] = { "vs_plain", N_("vs plain"), "x",
                  N_("This time / the plain loop's with the same sizes: below 1 the built-ins are faster"),
                  KS_COLUMN_REAL, .derive = derive_ratio },
};
G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

static gboolean
builtins_prepare (gpointer        state,
                  const KsConfig *point,
                  GCancellable   *cancellable,
                  GError        **error)
{
  gboolean builtins = g_strcmp0 (ks_config_get_string (point, "variant"), "builtins") == 0;

  if (!ks_micro_loop_prepare_builtins (state, builtins, (guint64) ks_config_get_int (point, "items"),
                                       (guint) ks_config_get_int (point, "iterations"), error))
    return ks_exp_micro_refuse_point (error);
  return TRUE;
}

static const KsFigureSpec figures[] = {
  { .id = "time-vs-body", .title = N_("Built-in functions vs plain expressions"),
    .x = "variant", .y = "time_ms", .categorical_x = TRUE, .show_paper = TRUE },
};

/* Table 5: the same hardware as Tables 3-4; the number of work-items is
 * not given, so the where names only what it does give. */
#define TABLE_5(variant, ms, ...) /* ...: the note and the label */                   \
  { "variant=" variant " iterations=1048576", "time_ms", ms, "ms", N_("Table 5"), __VA_ARGS__ }
#define GTS_450 N_("GPU: NVIDIA GTS 450"), N_("GTS 450")
#define ATI     N_("GPU: ATI Radeon 5700"), N_("ATI 5700")
static const KsPaperValue paper_values[] = {
  TABLE_5 ("plain", 852, GTS_450), TABLE_5 ("builtins", 851, GTS_450),
  TABLE_5 ("plain", 3494, ATI), TABLE_5 ("builtins", 3510, ATI),
};

const KsExperimentDesc ks_exp_micro_builtins = {
  .id = "micro-builtins",
  .title = N_("Built-ins: mad_sat, abs_diff, hadd"),
  KS_EXP_MICRO_PAPER,
  .summary = N_("mad_sat, abs_diff and hadd against the plain expressions, the body repeated 16 times (Table 5)"),
  .claim = N_("OpenCL has built-in functions for what graphics code does often: mad_sat (a * b + c, "
              "saturated), abs_diff (|a - b|) and hadd ((a + b) / 2 without overflow). The paper timed a "
              "loop of 2^20 iterations whose body, repeated 16 times, uses them, against the same body in "
              "plain expressions, and found no difference: 851 vs 852 ms on an NVIDIA GTS 450, 3510 vs 3494 "
              "ms on an ATI Radeon 5700 (section 4.3, Table 5), perhaps because the compiler folds the plain "
              "expressions into the same instructions.\n\n"
              "The two bodies do not compute the same numbers (mad_sat saturates where the plain product "
              "wraps); each is checked against a host loop of its own. On CUDA the three built-ins do not "
              "exist and are small functions of this program. Times are device events (NVIDIA's OpenCL: "
              "1 us ticks); the paper does not say how many work-items it ran, so its numbers are drawn "
              "beside any run of 2^20 iterations (--iterations 1048576; the default is 16384, which a CPU "
              "runs in seconds)."),
  .example = "--iterations 1048576 --plot builtins.png",
  .backends = KS_BACKENDS_GPU,
  .size_param = "items",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .paper_values = paper_values, .n_paper_values = G_N_ELEMENTS (paper_values),
  .set_up = ks_exp_micro_loop_set_up,
  .prepare = builtins_prepare,
  .measure_one_rep = ks_exp_micro_loop_measure,
  .describe_device = ks_exp_micro_loop_describe_device,
  .tear_down = ks_exp_micro_loop_tear_down,
};
