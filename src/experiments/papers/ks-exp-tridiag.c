/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag.c: paper 002's experiments as descriptions, and their
 * measuring functions over the tridiagonal solvers (src/solvers/ks-tridiag.h).
 *
 * The paper's speed-ups are against a sequential CPU version measured on
 * the same machine, so the host methods (cpu-thomas, cpu-sericr, and the
 * OpenMP and LAPACK baselines) are methods of the same sweep: they run on
 * this computer's CPU whatever the device, and each device method's
 * speed-up is derived from its baseline's point at the same size. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-tridiag.h"
#include "ks-exp-tridiag-defaults.h"
#include "ks-exp-tridiag-predict.h"
#include "ks-bench-probes.h"
#include "ks-compute-error.h"
#include "ks-cusparse.h"
#include "ks-run.h"
#include "ks-verdict.h"
#include "ks-tridiag.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* Systems whose residual is checked at each point: spread through the batch. */
#define RESIDUAL_SAMPLE 16
/* A fixed seed: the same systems on every machine, for every method. */
#define BATCH_SEED 2002

/* --- parameters ------------------------------------------------------------------ */

static const KsChoice method_choices[] = {
  { "cpu-thomas", N_("Thomas, CPU"), N_("Sequential Thomas on this computer's CPU: the paper's baseline for Thomas"),
    KS_TRIDIAG_CPU_THOMAS },
  { "cpu-sericr", N_("SERICR, CPU"),
    N_("Sequential cyclic reduction on the CPU: the paper's baseline for both cyclic reductions"),
    KS_TRIDIAG_CPU_SERICR },
  { "omp-thomas", N_("Thomas, OpenMP"), N_("Thomas over the systems on every CPU core: today's honest CPU baseline"),
    KS_TRIDIAG_OMP_THOMAS },
  { "lapack-gtsv", N_("LAPACK gtsv"), N_("LAPACK's ?gtsv per system (LU with partial pivoting), on the CPU"),
    KS_TRIDIAG_LAPACK_GTSV },
  { "thomas-global", N_("Thomas, global"), N_("One work-item per system, global memory only (paper: 1.26)"),
    KS_TRIDIAG_THOMAS_GLOBAL },
  { "thomas-local", N_("Thomas, local"),
    N_("Portion-wise staging of every coefficient in local (shared) memory (paper: 1.86)"), KS_TRIDIAG_THOMAS_LOCAL },
  { "thomas-interleaved", N_("Thomas, interleaved"),
    N_("Staged, coefficients stored interleaved by index: element 0 of every system, then element 1, ... "
       "(paper: 5.05, the best for many systems)"), KS_TRIDIAG_THOMAS_INTERLEAVED },
  { "sericr-global", N_("SERICR, global"), N_("Serial cyclic reduction, one work-item per system (paper: 0.18)"),
    KS_TRIDIAG_SERICR_GLOBAL },
  { "sericr-local", N_("SERICR, local"), N_("The same, each level staged in local memory (paper: 0.27)"),
    KS_TRIDIAG_SERICR_LOCAL },
  { "paracr-global", N_("PARACR, global"),
    N_("Parallel cyclic reduction, a work-group per system, global memory (paper: 1.97 against SERICR on the CPU)"),
    KS_TRIDIAG_PARACR_GLOBAL },
  { "paracr-full", N_("PARACR, full staging"), N_("Every value staged in local memory, used once or not (paper: 1.20)"),
    KS_TRIDIAG_PARACR_FULL },
  { "paracr-partial", N_("PARACR, partial staging"),
    N_("Only the coefficients read several times staged (paper: 2.01, its best PARACR)"), KS_TRIDIAG_PARACR_PARTIAL },
  { "paracr-interleaved", N_("PARACR, interleaved"),
    N_("Partial staging with the interleaved layout: neighbours lie far apart (paper: 1.81)"),
    KS_TRIDIAG_PARACR_INTERLEAVED },
  { "paracr-steps", N_("PARACR, step by step"),
    N_("One launch per step over every row: one large system on the whole device (not one of the paper's: "
       "its PARACR runs a system in one work-group)"), KS_TRIDIAG_PARACR_STEPS },
  { "thomas-coalesced", N_("Thomas, coalesced"),
    N_("Not the paper's: one work-item per system on the interleaved layout straight from global memory, "
       "each item loading a block of rows ahead; the batch arrives interleaved"), KS_TRIDIAG_THOMAS_COALESCED },
  { "thomas-transposed", N_("Thomas, transposed on the device"),
    N_("Not the paper's: the batch arrives one system after another; the device transposes it, solves as "
       "thomas-coalesced and transposes x back, all in the time (the transposes' share in layout_ms)"),
    KS_TRIDIAG_THOMAS_TRANSPOSED },
  { "paracr-thomas", N_("PARACR, then Thomas"),
    N_("Not the paper's: several PARACR steps a launch in local memory until thousands of independent "
       "systems remain, then coalesced Thomas on each (as cuSPARSE's gtsv2 does); for one large system"),
    KS_TRIDIAG_PARACR_THOMAS },
  { "thomas-split", N_("Thomas, split among a group"),
    N_("Not the paper's: for a batch too small to fill the device, each system split among the items of one "
       "work-group, Thomas on each item's piece, then the pieces' reduced system by PARACR in local memory "
       "(systems a work-group holds: a few thousand unknowns)"), KS_TRIDIAG_THOMAS_SPLIT },
  { "cusparse-strided", N_("cuSPARSE gtsv2StridedBatch"), N_("cuSPARSE's batched solver, systems one after another (CUDA only)"),
    KS_TRIDIAG_CUSPARSE_STRIDED },
  { "cusparse-thomas", N_("cuSPARSE interleaved, Thomas"),
    N_("cuSPARSE gtsvInterleavedBatch, algorithm 0: Thomas on interleaved systems (CUDA only)"),
    KS_TRIDIAG_CUSPARSE_THOMAS },
  { "cusparse-lu", N_("cuSPARSE interleaved, LU"),
    N_("cuSPARSE gtsvInterleavedBatch, algorithm 1: LU with partial pivoting (CUDA only)"), KS_TRIDIAG_CUSPARSE_LU },
  { "cusparse-nopivot", N_("cuSPARSE gtsv2_nopivot"), N_("cuSPARSE's solver for one system without pivoting (CUDA only)"),
    KS_TRIDIAG_CUSPARSE_NOPIVOT },
  { NULL }
};

static const KsChoice precision_choices[] = {
  { "float", N_("float"), NULL, KS_PRECISION_FLOAT },
  { "double", N_("double (needs fp64)"), NULL, KS_PRECISION_DOUBLE },
  { NULL }
};

/* What both experiments take beside their sizes. */
#define PRECISION_PARAM                                                                                \
  { .name = "precision", .label = N_("Precision"), .type = KS_PARAM_CHOICE, .choices = precision_choices, \
    .default_value = "float", .help = N_("The precision of the solve (the paper's: float)") }
#define PAD_PARAM                                                                                      \
  { .name = "pad", .label = N_("Pad for SERICR"), .type = KS_PARAM_BOOL, .default_value = "true",      \
    .help = N_("Pad systems whose size is not 2^k - 1 with identity rows for SERICR (false: refuse "   \
               "those points)") }
#define METHOD_PARAM(methods)                                                                          \
  { .name = "method", .label = N_("Method"), .type = KS_PARAM_CHOICE, .choices = method_choices,       \
    .sweepable = TRUE, .default_value = methods, .device_default = ks_exp_tridiag_default_methods,                    \
    .help = N_("The methods to compare.  Host methods run on this computer's CPU whatever the device; " \
               "put cpu-thomas and cpu-sericr first: the speed-ups are against them, measured in the " \
               "same run") }

/* The method last, turning fastest: each size's baselines come before the
 * methods whose speed-up they give. */
enum { BATCH_N, BATCH_PRECISION, BATCH_PAD, BATCH_SYSTEMS, BATCH_METHOD, N_BATCH_PARAMS };

static const KsParamSpec batch_params[] = {
  [BATCH_N] = { .name = "n", .label = N_("Unknowns per system"), .type = KS_PARAM_INT, .default_value = "255",
    .min = 1, .max = 1 << 24,
    .help = N_("The size of each system (the paper's: 4095).  SERICR needs 2^k - 1: other sizes are padded "
               "or refused (see --pad)") },
  [BATCH_PRECISION] = PRECISION_PARAM,
  [BATCH_PAD] = PAD_PARAM,
  [BATCH_SYSTEMS] = { .name = "systems", .label = N_("Systems"), .type = KS_PARAM_INT, .default_value = "64,256,1024",
    .min = 1, .max = 1 << 24, .sweepable = TRUE, .cli_range = TRUE,
    .help = N_("How many systems are solved at once (the paper's: 5000:40000:5000)") },
  [BATCH_METHOD] = METHOD_PARAM ("cpu-thomas,cpu-sericr,omp-thomas,thomas-global,thomas-local,thomas-interleaved,"
                                 "sericr-global,sericr-local,paracr-global,paracr-full,paracr-partial,"
                                 "paracr-interleaved,thomas-coalesced,thomas-transposed"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (batch_params) == N_BATCH_PARAMS);

enum { LARGE_PRECISION, LARGE_PAD, LARGE_N, LARGE_METHOD, N_LARGE_PARAMS };

static const KsParamSpec large_params[] = {
  [LARGE_PRECISION] = PRECISION_PARAM,
  [LARGE_PAD] = PAD_PARAM,
  [LARGE_N] = { .name = "n", .label = N_("Unknowns"), .type = KS_PARAM_INT, .default_value = "1023,4095,16383,65535",
    .min = 1, .max = 1 << 26, .sweepable = TRUE, .cli_range = TRUE,
    .help = N_("The size of the one system (2^k - 1 for SERICR, or padded)") },
  [LARGE_METHOD] = METHOD_PARAM ("cpu-thomas,cpu-sericr,thomas-global,sericr-global,paracr-global,paracr-partial,"
                                 "paracr-steps,paracr-thomas"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (large_params) == N_LARGE_PARAMS);

enum { BENCH_PRECISION, BENCH_PAD, BENCH_N, BENCH_SYSTEMS, BENCH_TRIAD, BENCH_METHOD, N_BENCH_PARAMS };

/* Where each experiment keeps what a point's solve reads (the orders
 * differ: the method last, turning fastest); -1 where it has none. */
typedef struct {
  int n, precision, pad, systems, method;
} TridiagLayout;

static const TridiagLayout batch_layout = { BATCH_N, BATCH_PRECISION, BATCH_PAD, BATCH_SYSTEMS, BATCH_METHOD };
static const TridiagLayout large_layout = { LARGE_N, LARGE_PRECISION, LARGE_PAD, -1, LARGE_METHOD };
static const TridiagLayout bench_layout = { BENCH_N, BENCH_PRECISION, BENCH_PAD, BENCH_SYSTEMS, BENCH_METHOD };

static const TridiagLayout *
layout_of (const KsExperimentDesc *desc)
{
  return desc == &ks_exp_tridiag_batch ? &batch_layout : desc == &ks_exp_tridiag_large ? &large_layout : &bench_layout;
}

/* --- columns ---------------------------------------------------------------------- */

enum { COL_TIME, COL_SPEEDUP, COL_GBS, COL_RESIDUAL, COL_SOLVED_N, COL_LOCAL, COL_LAYOUT, N_COLUMNS };

static const char *
point_method (const KsRun      *run,
              const KsRunPoint *p)
{
  GVariant *v = ks_run_point_get_param (run, p, "method");
  return v ? g_variant_get_string (v, NULL) : NULL;
}

/* Whether q has p's values of every other axis (n, systems, precision, pad). */
static gboolean
same_size (const KsRun      *run,
           const KsRunPoint *p,
           const KsRunPoint *q)
{
  static const char *names[] = { "n", "systems", "precision", "pad" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const double a = ks_run_point_get_number (run, p, names[i]);
      const double b = ks_run_point_get_number (run, q, names[i]);
      if (!(a == b || (isnan (a) && isnan (b))))
        return FALSE;
    }
  return TRUE;
}

/* The point of method at p's size on p's device, measured earlier; NULL
 * when there is none. */
static const KsRunPoint *
find_method (const KsRun      *run,
             const KsRunPoint *p,
             const char       *method)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];
      if (q != p && q->device == p->device && q->error == NULL &&
          g_strcmp0 (point_method (run, q), method) == 0 && same_size (run, p, q))
        return q;
    }
  return NULL;
}

/* The paper's speed-up: its baseline's time (sequential Thomas for Thomas,
 * sequential SERICR for both cyclic reductions) over this method's. */
static double
derive_speedup (const KsRun        *run,
                const KsRunPoint   *point,
                const KsColumnSpec *column)
{
  KsTridiagMethod method, baseline;
  const KsRunPoint *base;

  if (!ks_tridiag_method_from_string (point_method (run, point), &method))
    return NAN;
  baseline = ks_tridiag_method_baseline (method);
  if (baseline == method)
    return 1.0;
  base = find_method (run, point, ks_tridiag_method_to_string (baseline));
  return base ? base->values[COL_TIME] / point->values[COL_TIME] : NAN;
}

/* The unknowns of the whole batch. */
static double
batch_unknowns (const KsRun      *run,
                const KsRunPoint *point)
{
  const double systems = ks_run_point_get_number (run, point, "systems");

  return ks_run_point_get_number (run, point, "n") * (isnan (systems) ? 1.0 : systems);
}

/* Reading a, b, c, d once and writing x once, per unknown: 20 bytes in
 * float, 40 in double; the floor of any method's traffic. */
static double
batch_bytes (const KsRun      *run,
             const KsRunPoint *point)
{
  const int precision = ks_run_point_choice (run, point, layout_of (run->desc)->precision);
  const double bytes = 5.0 * (precision == KS_PRECISION_DOUBLE ? 8 : 4);

  return bytes * batch_unknowns (run, point);
}

static double
derive_gbs (const KsRun        *run,
            const KsRunPoint   *point,
            const KsColumnSpec *column)
{
  return batch_bytes (run, point) / (point->values[COL_TIME] * 1e6);
}

/* The roofline's count: those bytes, and Thomas's 8 operations per
 * unknown (forward: a multiply-subtract for the pivot, a division, a
 * multiply-subtract and a division; back: a multiply-subtract), the
 * fewest any method does (cyclic reduction does about twice as many).
 * The CPU methods run on the host whatever the device, so the device's
 * floor says nothing about them: not counted. */
static gboolean
tridiag_work (const KsRun      *run,
              const KsRunPoint *point,
              KsWork           *out)
{
  KsTridiagMethod method;

  if (!ks_tridiag_method_from_string (point_method (run, point), &method) || ks_tridiag_method_is_host (method))
    return FALSE;
  out->bytes = batch_bytes (run, point);
  out->ops = 8 * batch_unknowns (run, point);
  out->seconds = point->values[COL_TIME] * 1e-3;
  return TRUE;
}

/* The columns of every tridiagonal description; bench-tridiag adds its
 * own after them (a macro: clang takes no array element as a constant
 * initializer). */
#define TRIDIAG_COLUMNS \
  [COL_TIME] = { "time_ms", N_("time"), "ms", \
                 N_("One solve of the whole batch: the kernel's device time (events) on a device, the host " \
                    "clock for the CPU methods; uploads and downloads not included"), \
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE }, \
  [COL_SPEEDUP] = { "speedup", N_("speed-up"), NULL, \
                    N_("The paper's speed-up: the time of its CPU baseline at this size (cpu-thomas for Thomas, " \
                       "cpu-sericr for SERICR and PARACR), measured in this run, over this method's time"), \
                    KS_COLUMN_REAL, .derive = derive_speedup }, \
  [COL_GBS] = { "gbs", N_("effective bandwidth"), "GB/s", \
                N_("a, b, c, d read once and x written once (20 bytes per unknown in float) over the time: " \
                   "what a method that touched each value once would move"), \
                KS_COLUMN_REAL, .derive = derive_gbs }, \
  [COL_RESIDUAL] = { "residual", N_("residual"), NULL, \
                     N_("max |A x - d| over 16 systems spread through the batch, in double"), \
                     KS_COLUMN_REAL, KS_REDUCE_MAX }, \
  [COL_SOLVED_N] = { "solved_n", N_("solved size"), NULL, \
                     N_("The size each system was solved at: n, or n padded to 2^k - 1 for SERICR"), \
                     KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE }, \
  [COL_LOCAL] = { "local_size", N_("work-group"), NULL, N_("The work-group size the kernel ran with; 0 on the CPU"), \
                  KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE }, \
  [COL_LAYOUT] = { "layout_ms", N_("layout change"), "ms", \
                   N_("Of the time, what the device spent changing the batch's layout (thomas-transposed's " \
                      "transposes in and out); 0 for the other methods"), \
                   KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE, .hidden = TRUE },

static const KsColumnSpec columns[] = {
  TRIDIAG_COLUMNS
};

/* --- measuring ---------------------------------------------------------------------- */

typedef struct {
  KsDevice        *device;
  const TridiagLayout *layout;
  KsTridiagSolver *solvers[2];   /* by KsPrecision, made when first needed */
  KsTridiagBatch  *batch;
  double          *x;
  /* The point being measured. */
  KsTridiagMethod  method;
  KsPrecision      precision;
  gboolean         pad;
  double           residual;     /* NAN until the point's first repetition checked it */
} TridiagState;

static gpointer
tridiag_set_up (const KsExperimentDesc *desc,
                KsDevice               *device,
                const KsConfig         *base,
                GCancellable           *cancellable,
                GError                **error)
{
  TridiagState *s = g_new0 (TridiagState, 1);

  s->device = g_object_ref (device);
  s->layout = layout_of (desc);
  return s;
}

static void
tridiag_tear_down (gpointer state)
{
  TridiagState *s = state;

  for (guint i = 0; i < G_N_ELEMENTS (s->solvers); i++)
    g_clear_pointer (&s->solvers[i], ks_tridiag_solver_free);
  g_clear_pointer (&s->batch, ks_tridiag_batch_free);
  g_free (s->x);
  g_clear_object (&s->device);
  g_free (s);
}

/* An error that concerns this point only (a size SERICR cannot take, a
 * batch that does not fit, a method this device cannot run) becomes a
 * refusal: the sweep goes on to the next. */
static gboolean
refuse (GError **error)
{
  if (*error && ((*error)->domain == KS_SOLVER_ERROR ||
                 g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY) ||
                 g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED)))
    {
      (*error)->domain = KS_EXPERIMENT_ERROR;
      (*error)->code = KS_EXPERIMENT_ERROR_REFUSED;
    }
  return FALSE;
}

static gboolean
tridiag_prepare (gpointer        state,
                 const KsConfig *point,
                 GCancellable   *cancellable,
                 GError        **error)
{
  TridiagState *s = state;
  const TridiagLayout *l = s->layout;
  const guint n = (guint) ks_config_int (point, l->n);
  const guint systems = l->systems >= 0 ? (guint) ks_config_int (point, l->systems) : 1;

  s->method = ks_config_choice (point, l->method);
  s->precision = ks_config_choice (point, l->precision);
  s->pad = ks_config_bool (point, l->pad);
  s->residual = NAN;

  if (s->batch == NULL || s->batch->n != n || s->batch->systems != systems)
    {
      g_clear_pointer (&s->batch, ks_tridiag_batch_free);
      g_clear_pointer (&s->x, g_free);
      if (!(s->batch = ks_tridiag_batch_new (n, systems, error)))
        return refuse (error);
      ks_tridiag_batch_fill_random (s->batch, BATCH_SEED);
      s->x = g_new0 (double, (gsize) n * systems);
    }
  /* The library and the kernels never hold a batch on the device at once:
   * the other's buffers go first, as large batches need the memory. */
  if (ks_tridiag_method_is_cusparse (s->method))
    {
      for (guint i = 0; i < G_N_ELEMENTS (s->solvers); i++)
        if (s->solvers[i] != NULL)
          ks_tridiag_solver_release (s->solvers[i]);
      return TRUE;
    }
  ks_cusparse_release ();
  if (ks_tridiag_method_is_host (s->method))
    return TRUE;
  if (s->solvers[s->precision] == NULL &&
      !(s->solvers[s->precision] = ks_tridiag_solver_new (s->device, s->precision, error)))
    return refuse (error);
  if (!ks_tridiag_solver_load (s->solvers[s->precision], s->batch, s->method, s->pad, error))
    return refuse (error);
  return TRUE;
}

static gboolean
tridiag_measure (gpointer        state,
                 const KsConfig *point,
                 double         *values,
                 GCancellable   *cancellable,
                 GError        **error)
{
  TridiagState *s = state;
  KsTridiagSolver *solver = s->solvers[s->precision];
  gboolean check = isnan (s->residual);

  if (ks_tridiag_method_is_host (s->method))
    {
      const gint64 start = g_get_monotonic_time ();
      guint n = 0;

      /* A few small systems are solved within the clock's microsecond: solve
       * again until a millisecond has passed and take the mean, so a
       * speed-up never divides by zero. */
      do
        {
          if (!ks_tridiag_host_solve (s->batch, s->method, s->precision, s->pad, s->x, &values[COL_TIME], error))
            return refuse (error);
          n++;
        }
      while (g_get_monotonic_time () - start < 1000 && n < 100000);
      if (n > 1)
        values[COL_TIME] = (g_get_monotonic_time () - start) / 1000.0 / n;
      values[COL_LOCAL] = 0;
      values[COL_LAYOUT] = 0;
      values[COL_SOLVED_N] = ks_tridiag_method_needs_2k1 (s->method) && s->pad ? ks_tridiag_padded_size (s->batch->n)
                                                                                : s->batch->n;
    }
  else if (ks_tridiag_method_is_cusparse (s->method))
    {
      /* Uploaded at every repetition (outside its clock): the library
       * overwrites its inputs. */
      if (!ks_tridiag_cusparse_solve (s->device, s->batch, s->method, s->precision, s->x, &values[COL_TIME], error))
        return refuse (error);
      values[COL_LOCAL] = 0;
      values[COL_LAYOUT] = 0;
      values[COL_SOLVED_N] = s->batch->n;
    }
  else
    {
      KsTridiagResult result;

      if (!ks_tridiag_solver_run (solver, &result, error))
        return refuse (error);
      if (check && !ks_tridiag_solver_read (solver, s->x, error))
        return FALSE;
      values[COL_TIME] = result.kernel_ms;
      values[COL_LOCAL] = result.local_size;
      values[COL_LAYOUT] = result.layout_ms;
      values[COL_SOLVED_N] = result.n;
    }
  /* The solution is the same at every repetition: checked once a point. */
  if (check)
    s->residual = ks_tridiag_batch_residual (s->batch, s->x, RESIDUAL_SAMPLE);
  values[COL_RESIDUAL] = s->residual;
  return TRUE;
}

/* --- words -------------------------------------------------------------------------- */

static char *
tridiag_describe_point (const KsRun      *run,
                        const KsRunPoint *point)
{
  const double solved = point->values[COL_SOLVED_N];
  const double n = ks_run_point_get_number (run, point, "n");

  if (point->error || isnan (solved))
    return NULL;
  if (solved != n)
    return g_strdup_printf (_("padded from %g to %g unknowns (2^k - 1) for cyclic reduction"), n, solved);
  if (point->values[COL_LOCAL] > 0)
    return g_strdup_printf (_("work-groups of %g"), point->values[COL_LOCAL]);
  return NULL;
}

/* The fastest measured point among the methods whose names start with
 * prefix, at the largest value of axis, on device; NULL when none. */
static const KsRunPoint *
fastest (const KsRun *run,
         guint        device,
         const char  *prefix,
         const char  *axis)
{
  const KsRunPoint *best = NULL;
  double largest = -INFINITY;

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < run->points->len; i++)
      {
        const KsRunPoint *p = run->points->pdata[i];
        const double v = ks_run_point_get_number (run, p, axis);
        if (p->device != device || p->error || !g_str_has_prefix (point_method (run, p), prefix))
          continue;
        if (pass == 0)
          largest = MAX (largest, v);
        else if (v == largest && (best == NULL || p->values[COL_TIME] < best->values[COL_TIME]))
          best = p;
      }
  return best;
}

/* The paper's conclusion, checked: at the largest size of axis, is
 * `winner` (methods starting so) faster than `loser` by about `paper`? */
static void
check_conclusion (const KsRun *run,
                  guint        device,
                  const char  *axis,
                  const char  *winner,
                  const char  *loser,
                  double       paper,
                  GString     *out)
{
  const KsRunPoint *w = fastest (run, device, winner, axis);
  const KsRunPoint *l = fastest (run, device, loser, axis);
  double ratio;

  if (w == NULL || l == NULL)
    {
      g_string_append_printf (out, _("  not checked: the run has no %s* and %s* device methods to compare\n"),
                              winner, loser);
      return;
    }
  ratio = l->values[COL_TIME] / w->values[COL_TIME];
  g_string_append_printf (out,
                          _("  at %s = %g: the best %s* (%s, %.3g ms) against the best %s* (%s, %.3g ms): %.2fx "
                            "(paper: %gx) -- %s\n"),
                          axis, ks_run_point_get_number (run, w, axis), winner, point_method (run, w),
                          w->values[COL_TIME], loser, point_method (run, l), l->values[COL_TIME], ratio, paper,
                          ratio > 1.0 ? _("holds here") : _("does not hold here"));
}

/* The parameter's label as the form shows it ("Systems"), for texts a
 * window shows in the user's language. */
static const char *
axis_label (const KsRun *run,
            const char  *axis)
{
  int i = ks_experiment_desc_find_param (run->desc, axis);

  return i >= 0 && run->desc->params[i].label ? _(run->desc->params[i].label) : axis;
}

/* The paper's conclusion as a verdict: at the largest `axis`, the best
 * winner* device method against the best loser*. */
static KsVerdict *
judge_conclusion (const KsRun *run,
                  guint        device,
                  const char  *axis,
                  const char  *winner,
                  const char  *loser,
                  double       paper)
{
  const KsRunPoint *w = fastest (run, device, winner, axis);
  const KsRunPoint *l = fastest (run, device, loser, axis);
  double ratio;
  KsVerdict *v;

  if (w == NULL || l == NULL)
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("This run has no %s* and %s* device methods to compare: choose both "
                             "under Method."), winner, loser);
  ratio = l->values[COL_TIME] / w->values[COL_TIME];
  v = ks_verdict_new (ratio > 1.0 ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                      ratio > 1.0
                        ? _("At %s = %.0f on this device the best %s* (%s) runs %.2fx faster than the "
                            "best %s* (%s): the paper's conclusion holds here (the paper: %gx).")
                        : _("At %s = %.0f on this device the best %s* (%s) takes %.2fx the time of the "
                            "best %s* (%s): the paper's conclusion does not hold here (the paper: "
                            "%gx faster)."),
                      axis_label (run, axis), ks_run_point_get_number (run, w, axis), winner, point_method (run, w),
                      ratio > 1.0 ? ratio : 1.0 / ratio, loser, point_method (run, l), paper);
  if (ks_run_device_is_cpu (run, device))
    ks_verdict_append (v, _("A CPU stands in for a GPU here: the device methods share its cores."));
  return v;
}

static KsVerdict *
judge_batch (const KsRun *run,
             guint        device)
{
  KsVerdict *v = judge_conclusion (run, device, "systems", "thomas-", "paracr-", 15.0);
  const KsRunPoint *w = fastest (run, device, "thomas-", "systems");
  double systems, n;

  if (w == NULL || v->kind == KS_VERDICT_UNTESTED)
    return v;
  ks_exp_tridiag_append_prediction (v, run, device, COL_TIME);
  /* Like with like: the paper's batches were 5,000 to 40,000 of 4095. */
  systems = ks_run_point_get_number (run, w, "systems");
  n = ks_run_point_get_number (run, w, "n");
  if (systems < 5000 || n < 4095)
    {
      ks_verdict_append (v, _("This run is smaller than the paper's (%.0f systems of %.0f unknowns against "
                              "5,000 to 40,000 of 4095): the ratio may change at the paper's sizes."),
                         systems, n);
      if (!ks_run_device_is_cpu (run, device))
        ks_verdict_suggest (v, _("Use the paper's sizes"), "n", "4095", "systems", "5000:40000:5000", NULL);
    }
  return v;
}

static KsVerdict *
judge_large (const KsRun *run,
             guint        device)
{
  return judge_conclusion (run, device, "n", "paracr-", "thomas-", 7.0);
}

static void
summarize_batch (const KsRun *run,
                 GString     *out)
{
  static const char *device_families[] = { "thomas-", "sericr-", "paracr-" };

  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunPoint *best = NULL;

      g_string_append (out, _("Many systems (paper: Thomas with local memory and the interleaved layout wins, "
                              "15x faster than PARACR):\n"));
      for (guint f = 0; f < G_N_ELEMENTS (device_families); f++)
        {
          const KsRunPoint *p = fastest (run, d, device_families[f], "systems");
          if (p && (best == NULL || p->values[COL_TIME] < best->values[COL_TIME]))
            best = p;
        }
      if (best)
        g_string_append_printf (out, _("  the fastest device method at the most systems: %s (%.3g ms); the paper's "
                                       "pick, thomas-interleaved, %s\n"),
                                point_method (run, best), best->values[COL_TIME],
                                ks_run_point_choice (run, best, layout_of (run->desc)->method)
                                  == KS_TRIDIAG_THOMAS_INTERLEAVED
                                  ? _("wins here") : _("does not win here"));
      check_conclusion (run, d, "systems", "thomas-", "paracr-", 15.0, out);
    }
}

static void
summarize_large (const KsRun *run,
                 GString     *out)
{
  for (guint d = 0; d < run->devices->len; d++)
    {
      g_string_append_printf (out, _("One large system (paper: PARACR wins, about 7x faster than Thomas):\n"));
      check_conclusion (run, d, "n", "paracr-", "thomas-", 7.0, out);
    }
}

/* --- the descriptions ------------------------------------------------------------------ */

static const KsFigureSpec batch_figures[] = {
  { .id = "time-vs-systems", .title = N_("Time vs number of systems"),
    .x = "systems", .y = "time_ms", .series_by = "method", .log2_x = TRUE, .log_y = TRUE },
  { .id = "speedup-vs-systems", .title = N_("Speed-up vs number of systems"),
    .x = "systems", .y = "speedup", .series_by = "method", .log2_x = TRUE, .log_y = TRUE },
  { .id = "speedup-bars", .title = N_("Speed-up by method, the paper's beside"),
    .x = "method", .y = "speedup", .series_by = "systems", .categorical_x = TRUE, .show_paper = TRUE },
};

static const KsFigureSpec large_figures[] = {
  { .id = "time-vs-n", .title = N_("One system: time vs size"),
    .x = "n", .y = "time_ms", .series_by = "method", .log_x = TRUE, .log_y = TRUE },
};

#define PAPER_NOTE N_("mean over 5,000 to 40,000 systems of 4095 unknowns, float, CUDA on the Sergey Korolev supercomputer")

static const KsPaperValue batch_paper_values[] = {
  { "method=thomas-global", "speedup", 1.26, NULL, N_("text"), PAPER_NOTE },
  { "method=thomas-local", "speedup", 1.86, NULL, N_("text"), PAPER_NOTE },
  { "method=thomas-interleaved", "speedup", 5.05, NULL, N_("text"), PAPER_NOTE },
  { "method=sericr-global", "speedup", 0.18, NULL, N_("text"), PAPER_NOTE },
  { "method=sericr-local", "speedup", 0.27, NULL, N_("text"), PAPER_NOTE },
  { "method=paracr-global", "speedup", 1.97, NULL, N_("text"), PAPER_NOTE },
  { "method=paracr-full", "speedup", 1.20, NULL, N_("text"), PAPER_NOTE },
  { "method=paracr-partial", "speedup", 2.01, NULL, N_("text"), PAPER_NOTE },
  { "method=paracr-interleaved", "speedup", 1.81, NULL, N_("text"), PAPER_NOTE },
};

#define PAPER_002                                                                                   \
  .paper = "002",                                                                                   \
  .paper_title = N_("Pogorelskikh & Loganova: Thomas and cyclic reduction on a GPU, memory and layouts")

#define TRIDIAG_FUNCTIONS                                                                   \
  .columns = columns, .n_columns = N_COLUMNS,                                               \
  .set_up = tridiag_set_up, .prepare = tridiag_prepare, .measure_one_rep = tridiag_measure, \
  .tear_down = tridiag_tear_down, .describe_point = tridiag_describe_point, .work = tridiag_work

const KsExperimentDesc ks_exp_tridiag_batch = {
  .id = "tridiag-batch",
  .title = N_("Tridiagonal: many systems"),
  PAPER_002,
  .summary = N_("Batched Thomas, SERICR and PARACR vs the number of systems, speed-ups against the CPU"),
  .claim = N_("Solves many tridiagonal systems at once with each method and draws the time and the speed-up "
              "against the sequential CPU version, measured in the same run: Thomas against cpu-thomas, "
              "both cyclic reductions against cpu-sericr, as the paper does.\n\n"
              "The paper (5,000 to 40,000 systems of 4095): Thomas gains 1.26 from global memory alone, 1.86 "
              "with portion-wise staging in shared memory, and 5.05 when the coefficients are also stored "
              "interleaved by index, growing with the number of systems; SERICR is slower than the CPU "
              "(0.18, 0.27); PARACR gains 1.97, 1.20 fully staged, 2.01 partly staged, 1.81 interleaved. "
              "Its conclusion: for many systems, Thomas with shared memory and the interleaved layout wins, "
              "15 times faster than PARACR. The summary under the table says whether that holds here.\n\n"
              "The bars put the paper's speed-ups beside the measured ones. The CPU methods run on this "
              "computer's processor whatever the device; on a CPU device (PoCL) the 'GPU' kernels share it."),
  .example = "--n 4095 --systems 5000:40000:5000 --plot speedup.png",
  .size_param = "systems",
  .params = batch_params, .n_params = G_N_ELEMENTS (batch_params),
  .figures = batch_figures, .n_figures = G_N_ELEMENTS (batch_figures),
  .paper_values = batch_paper_values, .n_paper_values = G_N_ELEMENTS (batch_paper_values),
  .summarize = summarize_batch, .judge = judge_batch, .access = ks_exp_tridiag_access,
  TRIDIAG_FUNCTIONS,
};

const KsExperimentDesc ks_exp_tridiag_large = {
  .id = "tridiag-large",
  .title = N_("Tridiagonal: one large system"),
  PAPER_002,
  .summary = N_("One tridiagonal system of growing size: where PARACR overtakes Thomas"),
  .claim = N_("Solves one system of growing size with each method. Thomas is sequential within a system, "
              "so on a device it runs on one work-item; parallel cyclic reduction spreads a system over a "
              "work-group. The paper: for one large system PARACR wins, about 7 times faster than Thomas. "
              "Look for the size where its curve crosses Thomas's; the summary says whether the paper's "
              "conclusion holds here."),
  .example = "--n 1023,16383,262143 --method cpu-thomas,thomas-global,paracr-partial --plot large.png",
  .size_param = "n",
  .params = large_params, .n_params = G_N_ELEMENTS (large_params),
  .figures = large_figures, .n_figures = G_N_ELEMENTS (large_figures),
  .summarize = summarize_large, .judge = judge_large,
  TRIDIAG_FUNCTIONS,
};

/* --- bench-tridiag: the same measuring, against the library and the triad ---------------- */

/* The bench's columns: the tridiag ones in their order (the measuring
 * functions fill them by index), then the two comparisons. */
enum { BENCH_COL_VS_LIBRARY = N_COLUMNS, BENCH_COL_OF_TRIAD, BENCH_N_COLUMNS };

/* This point's time over cuSPARSE's at the same size on the same device:
 * gtsv2StridedBatch where it ran, else gtsv2_nopivot (one system). */
static double
derive_vs_library (const KsRun        *run,
                   const KsRunPoint   *point,
                   const KsColumnSpec *column)
{
  const KsRunPoint *lib = find_method (run, point, "cusparse-strided");

  if (lib == NULL)
    lib = find_method (run, point, "cusparse-nopivot");
  if (lib == NULL && g_str_has_prefix (point_method (run, point), "cusparse-"))
    return 1.0;
  return lib ? point->values[COL_TIME] / lib->values[COL_TIME] : NAN;
}

/* The effective bandwidth over the device's triad, measured in the run;
 * none for the host's methods, which do not run on the device. */
static double
derive_of_triad (const KsRun        *run,
                 const KsRunPoint   *point,
                 const KsColumnSpec *column)
{
  const double triad = ks_run_device_get_info (run->devices->pdata[point->device], "triad_gbs");
  KsTridiagMethod method;

  if (!ks_tridiag_method_from_string (point_method (run, point), &method) || ks_tridiag_method_is_host (method))
    return NAN;
  return triad > 0 ? point->values[COL_GBS] / triad : NAN;
}

static const KsColumnSpec bench_columns[] = {
  TRIDIAG_COLUMNS
  [BENCH_COL_VS_LIBRARY] = { "vs_cusparse", N_("vs cuSPARSE"), NULL,
                             N_("The time over cuSPARSE's at the same size on the same device "
                                "(gtsv2StridedBatch, else gtsv2_nopivot): below 1 the method beats the library"),
                             KS_COLUMN_REAL, .derive = derive_vs_library },
  [BENCH_COL_OF_TRIAD] = { "of_triad", N_("of triad"), NULL,
                           N_("The effective bandwidth over the device's triad bandwidth measured in this run: "
                              "1 is a method that moves each value once as fast as the memory allows"),
                           KS_COLUMN_REAL, .derive = derive_of_triad },
};
G_STATIC_ASSERT (G_N_ELEMENTS (bench_columns) == BENCH_N_COLUMNS);

static const KsParamSpec bench_params[] = {
  [BENCH_PRECISION] = PRECISION_PARAM,
  [BENCH_PAD] = PAD_PARAM,
  [BENCH_N] = { .name = "n", .label = N_("Unknowns per system"), .type = KS_PARAM_INT, .default_value = "255",
    .min = 1, .max = 1 << 26, .sweepable = TRUE,
    .help = N_("The size of each system (the paper's: 4095; one large system: 2^24 - 1 with --systems 1)") },
  [BENCH_SYSTEMS] = { .name = "systems", .label = N_("Systems"), .type = KS_PARAM_INT, .default_value = "64,1024",
    .min = 1, .max = 1 << 24, .sweepable = TRUE,
    .help = N_("How many systems are solved at once; 1 for one large system") },
  [BENCH_TRIAD] = { .name = "triad", .label = N_("Measure the triad"), .type = KS_PARAM_BOOL, .default_value = "true",
    .help = N_("Measure each device's triad bandwidth before its points (the of_triad column); false: "
               "leave the column empty and save the probe's seconds") },
  [BENCH_METHOD] = { .name = "method", .label = N_("Method"), .type = KS_PARAM_CHOICE, .choices = method_choices,
    .sweepable = TRUE, .device_default = ks_exp_tridiag_bench_default_methods,
    .default_value = "cpu-thomas,cpu-sericr,omp-thomas,lapack-gtsv,thomas-interleaved,thomas-coalesced,"
                     "thomas-transposed,paracr-partial,paracr-thomas,thomas-split,cusparse-strided,cusparse-nopivot",
    .help = N_("The methods to compare (cuSPARSE's by default on a CUDA device only; asked for elsewhere, "
               "each point is refused saying why)") },
};
G_STATIC_ASSERT (G_N_ELEMENTS (bench_params) == N_BENCH_PARAMS);

static void
bench_describe_device (gpointer        state,
                       const KsConfig *base,
                       KsRunDevice    *out)
{
  TridiagState *s = state;
  double triad;

  if (!ks_config_bool (base, BENCH_TRIAD) || ks_device_get_backend (s->device) == KS_BACKEND_HOST)
    return;
  if ((triad = ks_bench_triad_gbs (s->device, ks_device_get_id (s->device))) > 0)
    ks_run_device_set_info (out, "triad_gbs", triad);
}

static const KsColumnSpec bench_device_info[] = {
  { "triad_gbs", N_("triad bandwidth"), "GB/s", N_("a = b + s * c over arrays beyond the caches, measured in this run") },
};

static const KsFigureSpec bench_figures[] = {
  { .id = "time", .title = N_("Time by method and size"), .x = "systems", .y = "time_ms", .series_by = "method",
    .log2_x = TRUE, .log_y = TRUE },
  { .id = "of-triad", .title = N_("Fraction of the triad by method"), .x = "method", .y = "of_triad",
    .series_by = "systems", .categorical_x = TRUE },
  { .id = "vs-library", .title = N_("Time over cuSPARSE's by method"), .x = "method", .y = "vs_cusparse",
    .series_by = "systems", .categorical_x = TRUE },
};

const KsExperimentDesc ks_exp_bench_tridiag = {
  .id = "bench-tridiag",
  .title = N_("Tridiagonal solvers against cuSPARSE"),
  .paper = "bench",
  .summary = N_("Paper 002's kernels and the host's methods against cuSPARSE and the triad bound"),
  .claim = N_("The same batches solved by paper 002's kernels, today's variants of them (coalesced and "
              "transposed Thomas, PARACR then Thomas), the host's methods and cuSPARSE's gtsv2 on a CUDA "
              "device, each against the library (vs cuSPARSE: below 1 beats it) and against the memory's "
              "limit (of triad: reading a, b, c, d and writing x once over the triad bandwidth measured in "
              "the same run). cuSPARSE is refused, saying why, on a device that is not CUDA. One large "
              "system is --systems 1 with a large --n."),
  .example = "--n 4095 --systems 5000,40000 --plot bench-tridiag.png",
  .recorded_demo = "h200-cuda-tridiag-vs-library-2026-11-29.json",
  .size_param = "systems",
  .params = bench_params, .n_params = G_N_ELEMENTS (bench_params),
  .columns = bench_columns, .n_columns = BENCH_N_COLUMNS,
  .figures = bench_figures, .n_figures = G_N_ELEMENTS (bench_figures),
  .paper_values = batch_paper_values, .n_paper_values = G_N_ELEMENTS (batch_paper_values),
  .device_info = bench_device_info, .n_device_info = G_N_ELEMENTS (bench_device_info),
  .set_up = tridiag_set_up, .prepare = tridiag_prepare, .measure_one_rep = tridiag_measure,
  .describe_device = bench_describe_device, .tear_down = tridiag_tear_down,
  .describe_point = tridiag_describe_point,
};
