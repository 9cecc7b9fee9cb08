/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-bench-gauss.c: "bench-gauss": paper 000's Gauss kernels (as
 * printed, replayed from a CUDA graph, blocked 32 columns a launch) against
 * the libraries a user would call instead: cuSOLVER's getrf + getrs on a
 * CUDA device, LAPACK's (OpenBLAS) on the host, on the same systems. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-bench.h"
#include "ks-exp-gauss.h"
#include "ks-bench-probes.h"
#include "ks-gauss.h"
#include "ks-lapack.h"
#include "ks-run.h"

#ifdef KS_HAVE_CUDA
#include "ks-cusolver.h"
#endif

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The systems are the same for every method: one seed. */
#define SEED 1

enum { METHOD_KERNELS, METHOD_GRAPH, METHOD_BLOCKED, METHOD_CUSOLVER, METHOD_LAPACK };

static const KsChoice method_choices[] = {
  { "kernels", N_("paper's kernels"),
    N_("The paper's four kernels launched one by one, ~4n launches a solve"), METHOD_KERNELS },
  { "graph", N_("kernels, CUDA graph"),
    N_("The same launches recorded once into a CUDA graph and replayed (CUDA only)"), METHOD_GRAPH,
    KS_BACKENDS_CUDA },
  { "blocked", N_("blocked"),
    N_("The fused, blocked kernels: 32 columns a launch, so ~n/8 launches"), METHOD_BLOCKED },
  { "cusolver", N_("cuSOLVER"), N_("cuSOLVER's getrf + getrs on the device (CUDA only)"), METHOD_CUSOLVER,
    KS_BACKENDS_CUDA },
  { "lapack", N_("LAPACK (host)"), N_("LAPACK's getrf + getrs (OpenBLAS) on the host's cores"), METHOD_LAPACK },
  { NULL }
};

static const KsChoice precision_choices[] = {
  { "float", N_("float"), NULL, KS_PRECISION_FLOAT },
  { "double", N_("double"), NULL, KS_PRECISION_DOUBLE },
  { NULL }
};

enum { P_PRECISION, P_TRIAD, P_N, P_METHOD, N_PARAMS };

static const KsParamSpec params[] = {
  [P_PRECISION] = { .name = "precision", .label = N_("Precision"), .type = KS_PARAM_CHOICE,
    .choices = precision_choices, .default_value = "float", .help = N_("The precision of the solve") },
  [P_TRIAD] = { .name = "triad", .label = N_("Measure the triad"), .type = KS_PARAM_BOOL, .default_value = "false",
    .help = N_("Measure each device's triad bandwidth before its points (the of_triad column)") },
  [P_N] = { .name = "n", .cli_name = "sizes", .short_name = 's', .label = N_("Unknowns"),
    .help = N_("The sizes of the systems solved"), .type = KS_PARAM_INT, .default_value = "100,300",
    .min = 2, .max = 65535, .sweepable = TRUE },
  [P_METHOD] = { .name = "method", .label = N_("Method"), .type = KS_PARAM_CHOICE, .choices = method_choices,
    .default_value = "kernels,graph,blocked,cusolver,lapack", .sweepable = TRUE, .device_default = ks_exp_bench_default_methods,
    .help = N_("The methods to compare (the graph and cuSOLVER by default on a CUDA device only; asked for "
               "elsewhere, each point is refused saying why)") },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

enum { COL_WALL, COL_DEVICE, COL_FWD, COL_RESIDUAL, COL_X_LIBRARY, COL_FWD_GBS, COL_OF_TRIAD, N_COLUMNS };

/* The point's values, read in one place (by index). */
typedef struct {
  int         method;
  guint       n;
  KsPrecision precision;
} Point;

static Point
read_point (const KsConfig *config)
{
  return (Point) { ks_config_choice (config, P_METHOD), (guint) ks_config_int (config, P_N),
                   ks_config_choice (config, P_PRECISION) };
}

/* The library this device would call at this n: cuSOLVER where it ran,
 * else LAPACK; NULL when neither did. */
static const KsRunPoint *
library_point (const KsRun      *run,
               const KsRunPoint *point)
{
  const double n = ks_run_point_get_number (run, point, "n");
  const KsRunPoint *lapack = NULL;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];
      int m;

      if (q->device != point->device || q->error != NULL || ks_run_point_get_number (run, q, "n") != n)
        continue;
      m = ks_run_point_choice (run, q, P_METHOD);
      if (m == METHOD_CUSOLVER)
        return q;
      if (m == METHOD_LAPACK)
        lapack = q;
    }
  return lapack;
}

/* This point's time over the library's: 1 for the library, above 1 slower. */
static double
derive_x_library (const KsRun        *run,
                  const KsRunPoint   *point,
                  const KsColumnSpec *column)
{
  const KsRunPoint *lib = library_point (run, point);

  return lib != NULL && lib->values[COL_WALL] > 0 ? point->values[COL_WALL] / lib->values[COL_WALL] : NAN;
}

/* What the update kernel moved (ks_bench_gauss_fwd_bytes) per second. */
static double
derive_fwd_gbs (const KsRun        *run,
                const KsRunPoint   *point,
                const KsColumnSpec *column)
{
  const double n = ks_run_point_get_number (run, point, "n");
  const KsPrecision precision = ks_run_point_choice (run, point, P_PRECISION);
  const double fwd = point->values[COL_FWD];

  return fwd > 0 ? ks_bench_gauss_fwd_bytes ((guint) n, precision) / (fwd * 1e6) : NAN;
}

static double
derive_of_triad (const KsRun        *run,
                 const KsRunPoint   *point,
                 const KsColumnSpec *column)
{
  const double triad = ks_run_device_get_info (run->devices->pdata[point->device], "triad_gbs");

  return triad > 0 ? point->values[COL_FWD_GBS] / triad : NAN;
}

static const KsColumnSpec columns[] = {
  [COL_WALL] = { "wall_ms", N_("wall"), "ms",
                 N_("Upload, solve and download of one solve, host clock, no events: median, min and max beside it"),
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_DEVICE] = { "device_ms", N_("device"), "ms",
                   N_("The solve's device time (events; cuSOLVER: its own), median; none on the host"),
                   KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_FWD] = { "fwd_ms", N_("gauss_fwd"), "ms", N_("The update kernel's device time, median; kernels only"),
                KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_RESIDUAL] = { "residual", N_("residual"), NULL, N_("||Ax - b|| / ||b||, the worst repetition"),
                     KS_COLUMN_REAL, KS_REDUCE_MAX },
  [COL_X_LIBRARY] = { "x_library", N_("× library"), NULL,
                      N_("This wall time over the library's at this n on this device (cuSOLVER on CUDA, "
                         "else LAPACK): above 1, slower than the library"),
                      KS_COLUMN_REAL, .derive = derive_x_library },
  [COL_FWD_GBS] = { "fwd_gbs", N_("gauss_fwd bandwidth"), "GB/s",
                    N_("The bytes the update kernel moves / its time"), KS_COLUMN_REAL, .derive = derive_fwd_gbs },
  [COL_OF_TRIAD] = { "of_triad", N_("of triad"), NULL,
                     N_("gauss_fwd's bandwidth over the triad measured in this run: the fraction of the floor"),
                     KS_COLUMN_REAL, .derive = derive_of_triad },
};
G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

static const KsColumnSpec device_info[] = {
  { "triad_gbs", N_("triad bandwidth"), "GB/s", N_("a = b + s * c over arrays beyond the caches, measured in this run") },
};

typedef struct {
  KsDevice       *device;
  KsGaussSolver  *solver;   /* made at the first kernel point */
  KsLinearSystem *sys;      /* the point's system */
  double         *x;
} GaussState;

static gpointer
gauss_set_up (const KsExperimentDesc *desc,
              KsDevice               *device,
              const KsConfig         *base,
              GCancellable           *cancellable,
              GError                **error)
{
  GaussState *s = g_new0 (GaussState, 1);

  s->device = g_object_ref (device);
  return s;
}

static void
gauss_tear_down (gpointer state)
{
  GaussState *s = state;

  g_clear_pointer (&s->solver, ks_gauss_solver_free);
  g_clear_pointer (&s->sys, ks_linear_system_free);
  g_free (s->x);
  g_clear_object (&s->device);
  g_free (s);
}

static gboolean
refuse (GError    **error,
        const char *what,
        KsDevice   *device)
{
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, _("%s runs on CUDA devices; %s is %s"),
               what, ks_device_get_id (device), ks_backend_to_string (ks_device_get_backend (device)));
  return FALSE;
}

/* Whether the method can run on this device, or the reason it cannot. */
static gboolean
check_method (GaussState *s,
              int         method,
              GError    **error)
{
  const gboolean cuda = ks_device_get_backend (s->device) == KS_BACKEND_CUDA;

  if (method == METHOD_GRAPH && !cuda)
    return refuse (error, _("A CUDA graph"), s->device);
  if (method == METHOD_CUSOLVER)
    {
#ifdef KS_HAVE_CUDA
      if (!cuda)
        return refuse (error, _("cuSOLVER"), s->device);
      return ks_cusolver_dense_available (error) || ks_exp_bench_refuse_point (error);
#else
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED,
                   _("cuSOLVER needs CUDA, which is not built into this binary (meson option cuda)"));
      return FALSE;
#endif
    }
  if (method == METHOD_LAPACK)
    return ks_lapack_available (error) || ks_exp_bench_refuse_point (error);
  return TRUE;
}

static gboolean
gauss_prepare (gpointer        state,
               const KsConfig *config,
               GCancellable   *cancellable,
               GError        **error)
{
  GaussState *s = state;
  const Point p = read_point (config);

  if (!check_method (s, p.method, error))
    return FALSE;
  if (s->sys == NULL || s->sys->n != p.n)
    {
      g_clear_pointer (&s->sys, ks_linear_system_free);
      g_free (s->x);
      if (!(s->sys = ks_linear_system_new_random (p.n, SEED, error)))
        return FALSE;
      s->x = g_new0 (double, p.n);
    }
  if (p.method >= METHOD_CUSOLVER)
    return TRUE;
  if (s->solver != NULL && ks_gauss_solver_get_precision (s->solver) != p.precision)
    g_clear_pointer (&s->solver, ks_gauss_solver_free);
  if (s->solver == NULL && !(s->solver = ks_gauss_solver_new (s->device, p.precision, error)))
    return ks_exp_bench_refuse_point (error);
  return TRUE;
}

/* A kernel method's repetition: one solve untimed (its wall time: events
 * cost ~1-2 us a launch, ~4n launches), then one timed by events. */
static gboolean
measure_kernels (GaussState *s,
                 const Point *p,
                 double      *values,
                 GError     **error)
{
  const KsLaunchMode mode = p->method == METHOD_GRAPH ? KS_LAUNCH_GRAPH
                          : p->method == METHOD_BLOCKED ? KS_LAUNCH_BLOCKED : KS_LAUNCH_STREAM;
  const KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, mode };
  KsGaussResult res;

  ks_gauss_solver_set_timing (s->solver, FALSE);
  if (!ks_gauss_solver_solve (s->solver, s->sys, &params, NULL, s->x, &res, error))
    return ks_exp_bench_refuse_point (error);
  values[COL_WALL] = res.wall_ms;
  ks_gauss_solver_set_timing (s->solver, TRUE);
  if (!ks_gauss_solver_solve (s->solver, s->sys, &params, NULL, s->x, &res, error))
    return ks_exp_bench_refuse_point (error);
  values[COL_DEVICE] = res.kernels_total_ms;
  if (mode == KS_LAUNCH_STREAM)   /* the blocked kernels have no gauss_fwd of their own */
    values[COL_FWD] = res.kernel_ms[KS_GAUSS_FWD];
  return TRUE;
}

static gboolean
gauss_measure (gpointer        state,
               const KsConfig *config,
               double         *values,
               GCancellable   *cancellable,
               GError        **error)
{
  GaussState *s = state;
  const Point p = read_point (config);
  const gboolean fp64 = p.precision == KS_PRECISION_DOUBLE;
  const KsLinearSystem *sys = s->sys;
  gboolean ok;

  if (p.method == METHOD_LAPACK)
    ok = ks_lapack_dense_solve (fp64, sys->n, sys->a, sys->b, s->x, &values[COL_WALL], error);
#ifdef KS_HAVE_CUDA
  else if (p.method == METHOD_CUSOLVER)
    ok = ks_cusolver_dense_solve (s->device, fp64, sys->n, sys->a, sys->b, s->x, &values[COL_DEVICE],
                                  &values[COL_WALL], error) || ks_exp_bench_refuse_point (error);
#endif
  else
    ok = measure_kernels (s, &p, values, error);
  if (ok)
    values[COL_RESIDUAL] = ks_linear_system_residual (sys, s->x);
  return ok;
}

static void
gauss_describe_device (gpointer        state,
                       const KsConfig *base,
                       KsRunDevice    *out)
{
  GaussState *s = state;
  double triad;

  if (ks_config_bool (base, P_TRIAD) && (triad = ks_bench_triad_gbs (s->device, ks_device_get_id (s->device))) > 0)
    ks_run_device_set_info (out, "triad_gbs", triad);
}

/* The Gauss descriptions' bytes and operations of one solve, in its wall time. */
static gboolean
gauss_work (const KsRun      *run,
            const KsRunPoint *point,
            KsWork           *out)
{
  return ks_exp_gauss_work_of (ks_run_point_get_number (run, point, "n"),
                               ks_run_point_choice (run, point, P_PRECISION) == KS_PRECISION_DOUBLE,
                               point->values[COL_WALL], out);
}

static const KsFigureSpec figures[] = {
  { .id = "time", .title = N_("Time of one solve by method and size"), .x = "n", .y = "wall_ms",
    .series_by = "method", .log_x = TRUE, .log_y = TRUE },
  { .id = "x-library", .title = N_("Time over the library's by method and size"), .x = "n", .y = "x_library",
    .series_by = "method", .log_x = TRUE, .log_y = TRUE },
};

const KsExperimentDesc ks_exp_bench_gauss = {
  .id = "bench-gauss",
  .title = N_("Gauss against the libraries"),
  KS_EXP_BENCH_GROUP,
  .summary = N_("Paper 000's Gauss kernels, graph and blocked, against cuSOLVER and LAPACK"),
  .claim = N_("The same random systems solved by paper 000's kernels (launched one by one, ~4n launches a "
              "solve), by the same kernels replayed from a CUDA graph, by the blocked kernels (32 columns a "
              "launch), and by the libraries a user would call instead: cuSOLVER's getrf + getrs on a CUDA "
              "device, LAPACK's on the host. × library is each time over the library's at the same size on "
              "the same device (cuSOLVER where it ran, else LAPACK): the paper's method is many times slower, "
              "held back by its launches and its one column a step. Off CUDA the graph and cuSOLVER are "
              "refused, saying why, and the others still run. The paper prints its times as charts only (a "
              "GeForce GT 555M, n up to 10,000): no numbers to set beside these; its one number, the group "
              "of 192 its rule predicts, is on the time-vs-group-size page."),
  .recorded_demo = "h200-gauss-vs-libraries.json",
  .example = "--sizes 1000,2000,4000 --precision float --plot bench-gauss.png",
  .size_param = "n", .size_exponent = 3,
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .device_info = device_info, .n_device_info = G_N_ELEMENTS (device_info),
  .set_up = gauss_set_up,
  .prepare = gauss_prepare,
  .measure_one_rep = gauss_measure,
  .describe_device = gauss_describe_device,
  .tear_down = gauss_tear_down,
  .work = gauss_work,
};
