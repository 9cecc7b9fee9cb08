/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro-builtins.c: paper 001's built-in functions (section 4.3,
 * Table 5) as the description "micro-builtins": the loop with mad_sat,
 * abs_diff and hadd against the same loop in plain expressions, one bar
 * each, beside the paper's NVIDIA and ATI columns; and "micro-native",
 * the math functions' native_ forms against the precise ones, their time
 * and their worst error against the host. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-micro.h"
#include "ks-micro.h"
#include "ks-run.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>
#include <math.h>

enum { VARIANT_PLAIN, VARIANT_BUILTINS };

/* The plain body first: the built-ins' ratio is taken against it. */
static const KsChoice variant_choices[] = {
  { "plain", N_("plain expressions"),
    N_("result * first + second; abs (result - third); (result + fourth) >> 1"), VARIANT_PLAIN },
  { "builtins", N_("built-in functions"),
    N_("mad_sat (result, first, second); abs_diff (result, third); hadd (result, fourth)"), VARIANT_BUILTINS },
  { NULL }
};

enum { P_VARIANT, P_ITEMS, P_ITERATIONS, N_PARAMS };

static const KsParamSpec params[] = {
  [P_VARIANT] = { .name = "variant", .short_name = 'v', .label = N_("Loop body"),
    .help = N_("plain (the expressions), builtins (mad_sat, abs_diff, hadd), or both: plain,builtins"),
    .type = KS_PARAM_CHOICE, .choices = variant_choices, .default_value = "plain,builtins", .sweepable = TRUE },
  [P_ITEMS] = { .name = "items", .label = N_("Work-items"),
    .help = N_("Work-items of every launch, one short each (the paper does not say; its other tables ran 256)"),
    .type = KS_PARAM_INT, .default_value = "256", .min = 1, .max = 1 << 24, .sweepable = TRUE },
  [P_ITERATIONS] = { .name = "iterations", .short_name = 'i', .label = N_("Iterations"),
    .help = N_("Times each work-item runs the loop of 16 bodies. The paper ran 2^20 = 1048576, which takes "
               "minutes on a CPU; its numbers are drawn beside a run of that many"),
    .type = KS_PARAM_INT, .default_value = "16384", .min = 1, .max = 1 << 30, .sweepable = TRUE,
    .advanced = TRUE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

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
  gboolean builtins = ks_config_choice (point, P_VARIANT) == VARIANT_BUILTINS;

  if (!ks_micro_loop_prepare_builtins (state, builtins, (guint64) ks_config_int (point, P_ITEMS),
                                       (guint) ks_config_int (point, P_ITERATIONS), error))
    return ks_exp_micro_refuse_point (error);
  return TRUE;
}

/* Table 5's "no difference" (852 vs 851 ms): within this of the plain loop. */
#define BUILTINS_SAME 0.05

/* Table 5: the built-ins take the plain loop's time, at the most
 * work-items both bodies were measured with. */
static KsVerdict *
builtins_judge (const KsRun *run,
                guint        device)
{
  const KsRunPoint *b = NULL, *plain = NULL;
  const double items = ks_exp_micro_pair (run, device, "variant", 1u << 1, 1u << 0, "items", COL_TIME, &b, &plain);
  double ratio;
  KsVerdict *v;

  /* The ratio needs a plain loop of the same iterations too. */
  if (isnan (items) || !(b->values[COL_RATIO] > 0))
    return ks_exp_micro_untested (_("This run has no plain and built-in loop of the same sizes to compare."),
                                  _("Time both loop bodies"), "variant", "plain,builtins");
  ratio = b->values[COL_RATIO];
  if (fabs (ratio - 1) <= BUILTINS_SAME)
    v = ks_verdict_new (KS_VERDICT_HOLDS,
                        _("On this device the built-in functions take %.2fx the time of the plain "
                          "expressions, no difference, as the paper found (Table 5: 851 vs 852 ms): the "
                          "paper's claim holds here."), ratio);
  else
    v = ks_verdict_new (KS_VERDICT_FAILS,
                        ratio < 1
                          ? _("On this device the built-in functions take %.2fx the time of the plain "
                              "expressions, faster, where the paper found no difference (Table 5: 851 vs "
                              "852 ms): the paper's claim does not hold here.")
                          : _("On this device the built-in functions take %.2fx the time of the plain "
                              "expressions, slower, where the paper found no difference (Table 5: 851 vs "
                              "852 ms): the paper's claim does not hold here."), ratio);
  if (ks_run_device_is_cpu (run, device))
    ks_verdict_append (v, _("A CPU stands in for the paper's GPUs here."));
  else if (g_strcmp0 (((KsRunDevice *) run->devices->pdata[device])->backend, "cuda") == 0)
    ks_verdict_append (v, _("CUDA has no such built-ins: here they are small functions of the program."));
  return v;
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
  .summarize = ks_exp_micro_summarize_time,
  .judge = builtins_judge,
};

/* --- native_ against precise math ---------------------------------------------------- */

/* In KsMicroFunction's order. */
static const KsChoice function_choices[] = {
  { "sin", "sin", N_("On -pi .. pi"), KS_MICRO_SIN },
  { "cos", "cos", N_("On -pi .. pi"), KS_MICRO_COS },
  { "exp", "exp", N_("On -10 .. 10"), KS_MICRO_EXP },
  { "log", "log", N_("On 2^-10 .. 2^10"), KS_MICRO_LOG },
  { "sqrt", "sqrt", N_("On 2^-10 .. 2^10"), KS_MICRO_SQRT },
  { "rsqrt", "rsqrt", N_("On 2^-10 .. 2^10"), KS_MICRO_RSQRT },
  { NULL }
};
G_STATIC_ASSERT (G_N_ELEMENTS (function_choices) == KS_MICRO_N_FUNCTIONS + 1);

enum { MATH_PRECISE, MATH_NATIVE };

static const KsChoice math_choices[] = {
  { "precise", N_("precise"), N_("sin, cos, ...: within the error bounds of the OpenCL specification"), MATH_PRECISE },
  { "native", N_("native_"), N_("native_sin, native_cos, ...: the hardware's own, accuracy not specified"),
    MATH_NATIVE },
  { NULL }
};

enum { NP_FUNCTION, NP_MATH, NP_ITEMS, NP_ITERATIONS, N_NATIVE_PARAMS };

static const KsParamSpec native_params[] = {
  [NP_FUNCTION] = { .name = "function", .short_name = 'f', .label = N_("Function"),
    .help = N_("The functions to compare, e.g. sin,exp"),
    .type = KS_PARAM_CHOICE, .choices = function_choices, .default_value = "sin,cos,exp,log,sqrt,rsqrt",
    .sweepable = TRUE },
  [NP_MATH] = { .name = "math", .label = N_("Form"),
    .help = N_("precise (sin, ...), native (native_sin, ...) or both: precise,native"),
    .type = KS_PARAM_CHOICE, .choices = math_choices, .default_value = "precise,native", .sweepable = TRUE },
  [NP_ITEMS] = { .name = "items", .label = N_("Work-items"),
    .help = N_("Work-items, one input each, spread over the function's domain (also the inputs the error is "
               "measured on)"),
    .type = KS_PARAM_INT, .default_value = "16384", .min = 1, .max = 1 << 26, .sweepable = TRUE },
  [NP_ITERATIONS] = { .name = "iterations", .short_name = 'i', .label = N_("Iterations"),
    .help = N_("Evaluations per work-item in the timed kernel"),
    .type = KS_PARAM_INT, .default_value = "64", .min = 1, .max = 1 << 20, .advanced = TRUE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (native_params) == N_NATIVE_PARAMS);

enum {
  NCOL_TIME, NCOL_WALL, NCOL_ULP, NCOL_ABS, NCOL_REL, NCOL_PER_EVAL, NCOL_SPEEDUP, N_NATIVE_COLUMNS
};

static double
derive_per_eval (const KsRun        *run,
                 const KsRunPoint   *point,
                 const KsColumnSpec *column)
{
  return point->values[NCOL_TIME] * 1e6 /
         (ks_run_point_get_number (run, point, "items") * ks_run_point_get_number (run, point, "iterations"));
}

/* The precise form's time / this one's, same function and sizes. */
static double
derive_speedup (const KsRun        *run,
                const KsRunPoint   *point,
                const KsColumnSpec *column)
{
  if (ks_run_point_get_number (run, point, "math") == 0)
    return 1.0;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];

      if (q->device == point->device && q->error == NULL && ks_run_point_get_number (run, q, "math") == 0 &&
          ks_run_point_get_number (run, q, "function") == ks_run_point_get_number (run, point, "function") &&
          ks_run_point_get_number (run, q, "items") == ks_run_point_get_number (run, point, "items"))
        return q->values[NCOL_TIME] / point->values[NCOL_TIME];
    }
  return NAN;
}

static const KsColumnSpec native_columns[] = {
  [NCOL_TIME] = { "time_ms", N_("time"), "ms",
                  N_("The timed kernel (device events), median of the repetitions; min and max beside it"),
                  KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [NCOL_WALL] = { "wall_ms", N_("launch and wait"), "ms", N_("Launch and wait, host clock, median"),
                  KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [NCOL_ULP] = { "max_ulp", N_("worst error"), "ulp",
                 N_("The largest error over the inputs, in units of the last place of the float nearest the "
                    "host's double-precision value"), KS_COLUMN_REAL, KS_REDUCE_MAX },
  [NCOL_ABS] = { "max_abs_error", N_("worst absolute error"), NULL, N_("The largest |device - host| over the inputs"),
                 KS_COLUMN_REAL, KS_REDUCE_MAX },
  [NCOL_REL] = { "max_rel_error", N_("worst relative error"), NULL,
                 N_("The largest |device - host| / |host| over the inputs"), KS_COLUMN_REAL, KS_REDUCE_MAX,
                 .hidden = TRUE },
  [NCOL_PER_EVAL] = { "ns_per_eval", N_("per evaluation"), "ns", N_("time / (work-items x iterations)"),
                      KS_COLUMN_REAL, .derive = derive_per_eval },
  [NCOL_SPEEDUP] = { "speedup", N_("vs precise"), "x",
                     N_("The precise form's time / this one's, same function and sizes"),
                     KS_COLUMN_REAL, .derive = derive_speedup },
};
G_STATIC_ASSERT (G_N_ELEMENTS (native_columns) == N_NATIVE_COLUMNS);

static gpointer
native_set_up (const KsExperimentDesc *desc,
               KsDevice               *device,
               const KsConfig         *base,
               GCancellable           *cancellable,
               GError                **error)
{
  return ks_micro_math_new (device, error);
}

static gboolean
native_prepare (gpointer        state,
                const KsConfig *point,
                GCancellable   *cancellable,
                GError        **error)
{
  if (!ks_micro_math_prepare (state, ks_config_choice (point, NP_FUNCTION),
                              ks_config_choice (point, NP_MATH) == MATH_NATIVE,
                              (guint64) ks_config_int (point, NP_ITEMS),
                              (guint) ks_config_int (point, NP_ITERATIONS), error))
    return ks_exp_micro_refuse_point (error);
  return TRUE;
}

static gboolean
native_measure (gpointer        state,
                const KsConfig *point,
                double         *values,
                GCancellable   *cancellable,
                GError        **error)
{
  KsMicroMathResult r;

  if (!ks_micro_math_run (state, &r, error))
    return FALSE;
  values[NCOL_TIME] = r.kernel_ms;
  values[NCOL_WALL] = r.wall_ms;
  values[NCOL_ULP] = r.max_ulp;
  values[NCOL_ABS] = r.max_abs;
  values[NCOL_REL] = r.max_rel;
  return TRUE;
}

static void
native_describe_device (gpointer        state,
                        const KsConfig *base,
                        KsRunDevice    *out)
{
  ks_exp_micro_describe_timer (ks_micro_math_get_device (state), out);
}

static void
native_tear_down (gpointer state)
{
  ks_micro_math_free (state);
}

/* native_ runs faster than precise by at least this (median of the functions). */
#define NATIVE_FASTER 1.10

/* Section 3.2.2.3: the hardware's own functions are faster; the native_
 * forms pay with their accuracy.  The median over the functions measured
 * in both forms, with the worst error of each form. */
static KsVerdict *
native_judge (const KsRun *run,
              guint        device)
{
  g_autoptr(GArray) speedups = g_array_new (FALSE, FALSE, sizeof (double));
  double native_ulp = 0, precise_ulp = 0, median;
  KsVerdict *v;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const gboolean native = ks_run_point_get_number (run, p, "math") == 1;

      if (p->device != device || p->error)
        continue;
      if (!native)
        precise_ulp = MAX (precise_ulp, p->values[NCOL_ULP]);
      else if (p->values[NCOL_SPEEDUP] > 0)
        {
          g_array_append_val (speedups, p->values[NCOL_SPEEDUP]);
          native_ulp = MAX (native_ulp, p->values[NCOL_ULP]);
        }
    }
  if (speedups->len == 0)
    return ks_exp_micro_untested (_("This run has no function measured in both forms, precise and native_."),
                                  _("Time both forms"), "math", "precise,native");
  median = ks_exp_micro_sort_median (speedups);
  v = ks_verdict_new (median >= NATIVE_FASTER ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                      median >= NATIVE_FASTER
                        ? _("On this device the native_ forms run %.2fx as fast as the precise ones (median "
                            "of %u functions), with a worst error of %.1f ulp against %.1f: the paper's "
                            "advice holds here.")
                        : _("On this device the native_ forms run %.2fx as fast as the precise ones (median "
                            "of %u functions), with a worst error of %.1f ulp against %.1f: they gain "
                            "nothing, and the paper's advice does not hold here."),
                      median, speedups->len, native_ulp, precise_ulp);
  if (ks_run_device_is_cpu (run, device))
    ks_verdict_append (v, _("A CPU stands in for a GPU here: it has no special-function unit."));
  return v;
}

static const KsFigureSpec native_figures[] = {
  { .id = "time-vs-function", .title = N_("Math functions: precise vs native_, time"),
    .x = "function", .y = "ns_per_eval", .series_by = "math", .categorical_x = TRUE },
  { .id = "error-vs-function", .title = N_("Math functions: precise vs native_, worst error"),
    .x = "function", .y = "max_ulp", .series_by = "math", .categorical_x = TRUE, .log_y = TRUE },
};

const KsExperimentDesc ks_exp_micro_native = {
  .id = "micro-native",
  .title = N_("Built-ins: native_ vs precise math"),
  KS_EXP_MICRO_PAPER,
  .summary = N_("sin, cos, exp, log, sqrt, rsqrt against their native_ forms: time and worst error"),
  .claim = N_("The paper recommends OpenCL's built-in functions because the hardware runs many of them "
              "directly, faster than the same arithmetic written out (section 3.2.2.3), and it gives no "
              "numbers for the math functions. OpenCL has each of them twice: sin, cos, exp, ... within "
              "the error bounds of the specification (a few ulp), and native_sin, native_cos, ... as the "
              "hardware computes them, with an accuracy the implementation decides.\n\n"
              "Both forms are timed (each work-item evaluates the function a number of times) and their "
              "worst error is measured against the host's double precision on inputs spread over each "
              "function's domain. On NVIDIA's hardware native_ maps to the special-function unit: faster, "
              "with an absolute error bound (CUDA documents 2^-21.41 for __sinf on -pi .. pi) that is many "
              "ulp where the value is small. On CUDA native_sin, native_cos, native_exp and native_log "
              "are __sinf, __cosf, __expf and __logf; sqrt and rsqrt have no faster form there."),
  .example = "--function sin,exp --plot native.png",
  .backends = KS_BACKENDS_GPU,
  .size_param = "items",
  .params = native_params, .n_params = G_N_ELEMENTS (native_params),
  .columns = native_columns, .n_columns = N_NATIVE_COLUMNS,
  .figures = native_figures, .n_figures = G_N_ELEMENTS (native_figures),
  .set_up = native_set_up,
  .prepare = native_prepare,
  .measure_one_rep = native_measure,
  .describe_device = native_describe_device,
  .tear_down = native_tear_down,
  .summarize = ks_exp_micro_summarize_time,
  .judge = native_judge,
};
