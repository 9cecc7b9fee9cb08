/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss.c: paper 000's experiments declared as descriptions, and
 * their measuring functions over the Gauss solver (src/solvers/ks-gauss.h).
 * Their words (a point's tooltip, the lines after the table) are in
 * ks-exp-gauss-words.c, their verdicts in ks-exp-gauss-verdict.c. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-gauss.h"
#include "ks-compute-error.h"
#include "ks-gauss.h"
#include "ks-ogs.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* --- parameters ----------------------------------------------------------------- */

/* Only n (and the group size of gauss-wg) are swept: a Gauss figure is
 * one policy per run, compared with another run (plot a.json b.json). */

/* Both sweeps share their first parameters, so one solver reads either;
 * what follows the graph switch differs (gauss_seed). */
enum { P_N, P_PRECISION, P_RANGE, P_LOCAL, P_WG, P_GRAPH, P_BLOCKED, P_SEED, N_SIZE_PARAMS };
enum { P_WG_SEED = P_GRAPH + 1, N_WG_PARAMS };

static const KsChoice precision_choices[] = {
  { "float", N_("float (the paper's)"), NULL, KS_PRECISION_FLOAT },
  { "double", N_("double (needs fp64)"), NULL, KS_PRECISION_DOUBLE },
  { NULL }
};

static const KsChoice range_choices[] = {
  { "fixed", N_("fixed"), N_("The whole matrix at every step, as in the paper's runs"), KS_RANGE_FIXED },
  { "shrinking", N_("shrinking"), N_("The range shrinks with the step k"), KS_RANGE_SHRINKING },
  { NULL }
};

static const KsChoice local_choices[] = {
  { "driver", N_("driver"), N_("A NULL local size: the driver chooses the group"), KS_LOCAL_DRIVER },
  { "explicit", N_("explicit"), N_("The given group size, the range padded up to a multiple of it"),
    KS_LOCAL_EXPLICIT },
  { "split", N_("split"), N_("A multiple of the group size, plus a second launch for the remainder"), KS_LOCAL_SPLIT },
  { NULL }
};

/* A work-group sweep sets the group size itself: no driver policy there. */
static const KsChoice local_sweep_choices[] = {
  { "explicit", N_("explicit"), N_("The given group size, the range padded up to a multiple of it"),
    KS_LOCAL_EXPLICIT },
  { "split", N_("split"), N_("A multiple of the group size, plus a second launch for the remainder"), KS_LOCAL_SPLIT },
  { NULL }
};

/* The group-size sweeps the form offers (the old page's presets): "" is
 * the device's default, 1 and the multiples of the kernel's preferred
 * multiple up to its limit. */
static const KsChoice wg_presets[] = {
  { "", N_("1 and multiples of the preferred multiple"),
    N_("1, then every multiple of the kernel's preferred multiple up to the kernel's limit (at most 1024), "
       "as the paper sweeps") },
  { "2^0:2^8", N_("1 and powers of two up to 256"), N_("1, 2, 4, … 256: groups every kernel here allows") },
  { "1,32:256:32", N_("1 and 32 to 256 in steps of 32"), NULL },
  { "1,32:1024:32", N_("1 and 32 to 1024 in steps of 32 (the paper's)"),
    N_("The paper's Fig. 3; groups above the kernel's limit are refused, each with its reason") },
  { NULL }
};

/* --wg not given: the paper's rule on this device, said out loud. */
static char *
default_wg (const KsParamSpec *spec,
            KsDevice          *device,
            const KsConfig    *base,
            char             **why,
            GError           **error)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  KsOgsPrediction p;

  if (ks_ogs_predict (info->preferred_multiple, ks_device_get_cores_per_cu (device),
                      info->compute_units, info->max_work_group_size, &p))
    {
      *why = g_strdup (_("the paper's predicted optimum for this device (no --wg given)"));
      return g_strdup_printf ("%" G_GUINT64_FORMAT, p.usable);
    }
  *why = g_strdup (_("the preferred multiple (no --wg given, and the optimum cannot be predicted here)"));
  return g_strdup_printf ("%" G_GSIZE_FORMAT, MAX (info->preferred_multiple, 1));
}

static gint
compare_guint64 (gconstpointer a,
                 gconstpointer b)
{
  const guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/* --wg-list not given: 1, the kernel's preferred multiple, then about
 * sixteen multiples of it up to what the kernel allows (at most 1024), as
 * the paper's Fig. 3 steps by 64, and the paper's predicted optimum where
 * the kernel can run it: a sweep that shows the curve and tests the rule
 * in seconds on a CPU (every group size is a kernel of its own to PoCL). */
static char *
default_wg_list (const KsParamSpec *spec,
                 KsDevice          *device,
                 const KsConfig    *base,
                 char             **why,
                 GError           **error)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  KsPrecision precision = KS_PRECISION_FLOAT;
  g_autoptr(KsGaussSolver) probe = NULL;
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GString) text = g_string_new (NULL);
  KsOgsPrediction p;
  guint64 mult, limit, step, v;

  precision = ks_config_choice (base, P_PRECISION);
  /* The kernel's own limit (registers) can be below the device's: 256 for
   * gauss_fwd on an H200 whose groups may hold 1024. */
  if (!(probe = ks_gauss_solver_new (device, precision, error)))
    return NULL;
  mult = MAX (info->preferred_multiple, 1);
  limit = MAX (MIN (MAX (ks_gauss_solver_get_max_work_group_size (probe), 1), 1024) / mult * mult, mult);
  step = MAX ((limit / 16 + mult - 1) / mult * mult, mult);
  v = 1;
  g_array_append_val (sizes, v);
  g_array_append_val (sizes, mult);
  for (v = step; v <= limit; v += step)
    g_array_append_val (sizes, v);
  if (ks_ogs_predict (info->preferred_multiple, ks_device_get_cores_per_cu (device), info->compute_units,
                      info->max_work_group_size, &p) && p.usable <= limit)
    g_array_append_val (sizes, p.usable);
  g_array_sort (sizes, compare_guint64);
  for (guint i = 0; i < sizes->len; i++)
    if (i == 0 || g_array_index (sizes, guint64, i) != g_array_index (sizes, guint64, i - 1))
      g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, text->len ? "," : "", g_array_index (sizes, guint64, i));
  *why = g_strdup (_("1, the preferred multiple, about sixteen steps up to the kernel's limit and the paper's "
                     "predicted optimum (no --wg-list given)"));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

#define PARAM_N(default_text, range)                                                      \
  { .name = "n", .short_name = 's', .cli_name = "sizes", .cli_range = range,              \
    .label = N_("Matrix size n"),                                                         \
    .help = N_("Matrix sizes as a list and/or ranges, e.g. 100:900:100 or 128,256,1000"), \
    .type = KS_PARAM_INT, .default_value = default_text, .min = 2, .max = 1000000,         \
    .sweepable = TRUE }
#define PARAM_PRECISION                                                                   \
  { .name = "precision", .short_name = 'p', .label = N_("Precision"),                     \
    .help = N_("float (the paper's) or double (needs fp64)"),                             \
    .type = KS_PARAM_CHOICE, .choices = precision_choices, .default_value = "float" }
#define PARAM_RANGE                                                                       \
  { .name = "range", .label = N_("Global range"),                                         \
    .help = N_("fixed: the whole matrix every step (the paper's runs); shrinking: a range that shrinks with k"), \
    .type = KS_PARAM_CHOICE, .choices = range_choices, .default_value = "fixed",         \
    .backends = KS_BACKENDS_GPU }
#define PARAM_GRAPH                                                                       \
  { .name = "graph", .label = N_("CUDA graph"),                                           \
    .help = N_("CUDA devices only: record each point's launches into a CUDA graph on its first solve and time " \
               "replays of it (the recording is kept apart, as capture ms; per-kernel times are unknown inside " \
               "a graph). OpenCL and the host refuse it"),                                \
    .type = KS_PARAM_BOOL, .default_value = "false", .backends = KS_BACKENDS_CUDA, .names_run = TRUE }
#define PARAM_BLOCKED                                                                     \
  { .name = "blocked", .label = N_("Blocked kernels"),                                    \
    .help = N_("The same elimination with 32 columns per launch (a blocked update, ~3n/32 launches) " \
               "instead of the paper's one step per launch (4n): what the launches cost"), \
    .type = KS_PARAM_BOOL, .default_value = "false", .backends = KS_BACKENDS_GPU }
#define PARAM_SEED                                                                        \
  { .name = "seed", .label = N_("Seed"),                                                  \
    .help = N_("Seed of the generated systems (the same seed gives the same matrices everywhere)"), \
    .type = KS_PARAM_INT, .default_value = "1", .min = 0, .max = G_MAXUINT32, .advanced = TRUE }

static const KsParamSpec size_params[] = {
  [P_N] = PARAM_N ("300:340", TRUE),
  [P_PRECISION] = PARAM_PRECISION,
  [P_RANGE] = PARAM_RANGE,
  [P_LOCAL] = { .name = "local", .short_name = 'l', .label = N_("Group size policy"),
    .help = N_("driver (NULL local size, the driver chooses), explicit (--wg, range padded up to a multiple "
               "of it) or split (a multiple of --wg plus a remainder launch)"),
    .type = KS_PARAM_CHOICE, .choices = local_choices, .default_value = "driver",
    .backends = KS_BACKENDS_GPU },
  [P_WG] = { .name = "wg", .short_name = 'w', .label = N_("Work-group size"),
    .help = N_("Work-group size for explicit and split. Default: the paper's predicted optimum for the device"),
    .type = KS_PARAM_INT, .min = 1, .max = 1 << 20,
    .when = { "local", { "explicit", "split" } }, .backends = KS_BACKENDS_GPU,
    .device_default = default_wg },
  [P_GRAPH] = PARAM_GRAPH,
  [P_BLOCKED] = PARAM_BLOCKED,
  [P_SEED] = PARAM_SEED,
};
G_STATIC_ASSERT (G_N_ELEMENTS (size_params) == N_SIZE_PARAMS);

static const KsParamSpec wg_params[] = {
  [P_N] = PARAM_N ("100:400:100", FALSE),
  [P_PRECISION] = PARAM_PRECISION,
  [P_RANGE] = PARAM_RANGE,
  [P_LOCAL] = { .name = "local", .short_name = 'l', .label = N_("Group size policy"),
    .help = N_("explicit (the range padded up to a multiple of the group size) or split (a multiple of it "
               "plus a remainder launch)"),
    .type = KS_PARAM_CHOICE, .choices = local_sweep_choices, .default_value = "explicit",
    .backends = KS_BACKENDS_GPU },
  [P_WG] = { .name = "wg", .short_name = 'W', .cli_name = "wg-list", .label = N_("Work-group sizes"),
    .help = N_("Work-group sizes, e.g. 1,32:1024:32 (the paper's) or 1,2,4,8,16,32,64,128. Default: 1, then "
               "multiples of the preferred multiple up to the device's limit (at most 1024)"),
    .type = KS_PARAM_INT, .min = 1, .max = 1 << 20, .sweepable = TRUE,
    .backends = KS_BACKENDS_GPU, .device_default = default_wg_list, .presets = wg_presets },
  [P_GRAPH] = PARAM_GRAPH,
  [P_WG_SEED] = PARAM_SEED,
};
G_STATIC_ASSERT (G_N_ELEMENTS (wg_params) == N_WG_PARAMS);

/* --- columns -------------------------------------------------------------------- */

static double
derive_n1_prime (const KsRun        *run,
                 const KsRunPoint   *point,
                 const KsColumnSpec *column)
{
  double n = ks_run_point_get_number (run, point, "n");
  return isnan (n) ? NAN : ks_is_prime ((guint64) n + 1);
}

/* The columns' order is the index measure_one_rep fills. */
enum {
  COL_TIME, COL_KERNELS, COL_K0, COL_K1, COL_K2, COL_K3, COL_RESIDUAL, COL_LAUNCHES,
  COL_LOCAL_X, COL_LOCAL_Y, COL_GROUPS_X, COL_GROUPS_Y, COL_CAPTURE, COL_PRIME, N_COLUMNS
};

/* The roofline's count for one solve of size n: the least bytes any
 * method moves (the augmented n x (n + 1) matrix read once, x written
 * once) and the operations of elimination and back-substitution, 2/3 n^3
 * + 3/2 n^2 to leading order (a multiply-add counted as two), over the
 * device time of the launches where it was measured (the wall time
 * otherwise: the host, or a run whose events were not read). */
static gboolean
gauss_work (const KsRun      *run,
            const KsRunPoint *point,
            KsWork           *out)
{
  const double n = ks_run_point_get_number (run, point, "n");
  const gboolean dbl = ks_run_point_choice (run, point, P_PRECISION) == KS_PRECISION_DOUBLE;
  const double kernels = point->values[COL_KERNELS], wall = point->values[COL_TIME];

  return ks_exp_gauss_work_of (n, dbl, kernels > 0 ? kernels : wall, out);
}

gboolean
ks_exp_gauss_work_of (double   n,
                      gboolean fp64,
                      double   ms,
                      KsWork  *out)
{
  if (isnan (n) || n < 1)
    return FALSE;
  out->bytes = (fp64 ? 8 : 4) * (n * (n + 1) + n);
  out->ops = 2.0 / 3.0 * n * n * n + 1.5 * n * n;
  out->seconds = ms * 1e-3;
  return out->seconds > 0;
}

static const KsColumnSpec columns[] = {
  [COL_TIME] = { "time_ms", N_("time per solve"), "ms",
                 N_("Wall time of one solve: upload, every launch, download (median of the repetitions; "
                    "min and max beside it)"), KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_KERNELS] = { "kernels_ms", N_("device time"), "ms",
                    N_("Device time summed over the launches (events), median"), KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_K0] = { "gauss_fwd_pre_ms", N_("gauss_fwd_pre"), "ms", N_("The multipliers kernel, median"),
               KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_K1] = { "gauss_fwd_ms", N_("gauss_fwd"), "ms", N_("The update kernel, median"),
               KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_K2] = { "gauss_bwd_prepare_ms", N_("gauss_bwd_prepare"), "ms", N_("x_k = b_k / a_kk, median"),
               KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_K3] = { "gauss_bwd_ms", N_("gauss_bwd"), "ms", N_("The back-substitution kernel, median"),
               KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_RESIDUAL] = { "residual", N_("residual"), NULL, N_("||Ax-b|| / ||b||, the worst of the repetitions"),
                     KS_COLUMN_REAL, KS_REDUCE_MAX },
  [COL_LAUNCHES] = { "launches", N_("launches"), NULL, N_("Kernel launches of one solve"),
                     KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE },
  [COL_LOCAL_X] = { "fwd_local_x", N_("group x"), NULL,
                    N_("The update kernel's work-group at step 0, as it reported from inside (x)"),
                    KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_LOCAL_Y] = { "fwd_local_y", N_("group y"), NULL, N_("The update kernel's work-group at step 0 (y)"),
                    KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_GROUPS_X] = { "fwd_groups_x", N_("groups x"), NULL, N_("The update kernel's number of groups at step 0 (x)"),
                     KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE },
  [COL_GROUPS_Y] = { "fwd_groups_y", N_("groups y"), NULL, N_("The update kernel's number of groups at step 0 (y)"),
                     KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE },
  [COL_CAPTURE] = { "capture_ms", N_("graph recording"), "ms",
                    N_("CUDA graph only: capture + instantiate, once per point, kept out of the times"),
                    KS_COLUMN_REAL, KS_REDUCE_MAX, .hidden = TRUE },
  [COL_PRIME] = { "n_plus_1_prime", N_("N+1 prime"), NULL,
                  N_("N+1 is prime: the driver can only cut the update kernel's N+1 columns into groups of 1"),
                  KS_COLUMN_BOOL, .derive = derive_n1_prime },
};

G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);
G_STATIC_ASSERT (KS_GAUSS_N_KERNELS == 4);

/* --- measuring ------------------------------------------------------------------ */

typedef struct {
  KsDevice       *device;
  KsGaussSolver  *solver;
  KsLinearSystem *sys;
  guint64         sys_seed;
  KsGaussParams   params;
  double          capture_ms;   /* the point's graph recording, from whichever solve did it */
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

  g_clear_pointer (&s->sys, ks_linear_system_free);
  g_clear_pointer (&s->solver, ks_gauss_solver_free);
  g_clear_object (&s->device);
  g_free (s);
}

/* The launch mode a configuration asks for: the graph switch, or the
 * blocked one where the description has it (the size sweep). */
static gboolean
has_blocked (const KsConfig *config)
{
  return ks_config_get_desc (config)->params == size_params;
}

static KsLaunchMode
config_launch (const KsConfig *config)
{
  if (ks_config_bool (config, P_GRAPH))
    return KS_LAUNCH_GRAPH;
  if (has_blocked (config) && ks_config_bool (config, P_BLOCKED))
    return KS_LAUNCH_BLOCKED;
  return KS_LAUNCH_STREAM;
}

/* The seed's index: after the blocked switch where the sweep has one. */
static guint
gauss_seed (const KsConfig *config)
{
  return has_blocked (config) ? P_SEED : P_WG_SEED;
}

static gboolean
gauss_check (const KsExperimentDesc *desc,
             KsDevice               *device,
             const KsConfig         *base,
             GError                **error)
{
  if (config_launch (base) == KS_LAUNCH_GRAPH && has_blocked (base) && ks_config_bool (base, P_BLOCKED))
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("A CUDA graph and the blocked kernels are two ways to launch: choose one"));
      return FALSE;
    }
  if (!ks_gauss_check_launch (device, config_launch (base), error))
    return FALSE;
  /* gauss-wg on the host (no work-groups to sweep) is refused by its
   * backends before this is called. */
  return TRUE;
}

/* The solver for the point's precision (built on first use: the kernels),
 * and the point's system (the same on every run and machine for a seed). */
static gboolean
gauss_prepare (gpointer        state,
               const KsConfig *point,
               GCancellable   *cancellable,
               GError        **error)
{
  GaussState *s = state;
  const KsPrecision precision = ks_config_choice (point, P_PRECISION);
  guint n = (guint) ks_config_int (point, P_N);
  guint64 seed = (guint64) ks_config_int (point, gauss_seed (point)) + n;
  KsGaussParams check;
  const int local = ks_config_choice (point, P_LOCAL);
  const int range = ks_config_choice (point, P_RANGE);

  /* Range and policy apply only on GPUs: the host has neither. */
  s->params.range = range >= 0 ? (KsRangePolicy) range : KS_RANGE_FIXED;
  s->params.local = local >= 0 ? (KsLocalPolicy) local : KS_LOCAL_DRIVER;
  s->params.wg = (guint) ks_config_int (point, P_WG);
  s->params.launch = config_launch (point);
  s->capture_ms = 0;

  if (s->solver && ks_gauss_solver_get_precision (s->solver) != precision)
    {
      g_clear_pointer (&s->solver, ks_gauss_solver_free);
      g_clear_pointer (&s->sys, ks_linear_system_free);
    }
  if (!s->solver && !(s->solver = ks_gauss_solver_new (s->device, precision, error)))
    return FALSE;

  /* Refuse a size that cannot fit before building its matrix. */
  check = (KsGaussParams) { s->params.range, KS_LOCAL_DRIVER, 0, KS_LAUNCH_STREAM };
  if (!ks_gauss_solver_check (s->solver, n, &check, error))
    return FALSE;
  if (s->sys == NULL || s->sys->n != n || s->sys_seed != seed)
    {
      g_clear_pointer (&s->sys, ks_linear_system_free);
      if (!(s->sys = ks_linear_system_new_random (n, (guint32) seed, error)))
        return FALSE;
      s->sys_seed = seed;
    }
  return TRUE;
}

static gboolean
gauss_measure (gpointer        state,
               const KsConfig *point,
               double         *values,
               GCancellable   *cancellable,
               GError        **error)
{
  GaussState *s = state;
  KsGaussResult r;

  if (!ks_gauss_solver_solve (s->solver, s->sys, &s->params, cancellable, NULL, &r, error))
    return FALSE;
  /* A warm-up may have recorded the graph: the point keeps that time. */
  s->capture_ms = MAX (s->capture_ms, r.capture_ms);
  values[COL_TIME] = r.wall_ms;
  values[COL_KERNELS] = r.kernels_total_ms;
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    values[COL_K0 + k] = r.kernel_ms[k];
  values[COL_RESIDUAL] = r.residual;
  values[COL_LAUNCHES] = r.launches;
  values[COL_LOCAL_X] = r.fwd_local[0];
  values[COL_LOCAL_Y] = r.fwd_local[1];
  values[COL_GROUPS_X] = r.fwd_groups[0];
  values[COL_GROUPS_Y] = r.fwd_groups[1];
  values[COL_CAPTURE] = s->capture_ms;
  return TRUE;
}

/* The paper's rule on this device, for the figures' predicted optimum. */
static void
gauss_describe_device (gpointer        state,
                       const KsConfig *base,
                       KsRunDevice    *out)
{
  GaussState *s = state;
  const KsDeviceInfo *info = ks_device_get_info (s->device);
  const KsPrecision precision = ks_config_choice (base, P_PRECISION);
  g_autoptr(KsGaussSolver) probe = NULL;
  KsOgsPrediction prediction;
  gsize pwgsm;

  /* The preferred multiple is the kernel's: it needs the kernels built.
   * Where they do not build, the first point says why. */
  if (!(probe = ks_gauss_solver_new (s->device, precision, NULL)))
    return;
  pwgsm = ks_gauss_solver_get_preferred_multiple (probe);
  ks_run_device_set_info (out, "pwgsm", pwgsm);
  ks_run_device_set_info (out, "cores_per_cu", ks_device_get_cores_per_cu (s->device));
  ks_run_device_set_info (out, "compute_units", info->compute_units);
  ks_run_device_set_info (out, "max_work_group_size", ks_gauss_solver_get_max_work_group_size (probe));
  if (ks_ogs_predict (pwgsm, ks_device_get_cores_per_cu (s->device), info->compute_units,
                      ks_gauss_solver_get_max_work_group_size (probe), &prediction))
    {
      ks_run_device_set_info (out, "ogs_predicted", prediction.ogs);
      ks_run_device_set_info (out, "ogs_usable", prediction.usable);
    }
  /* Keep the built kernels for the points. */
  if (s->solver == NULL && precision == ks_gauss_solver_get_precision (probe))
    s->solver = g_steal_pointer (&probe);
}

/* --- figures and the paper's numbers --------------------------------------------------- */

static const KsFigureSpec size_figures[] = {
  { .id = "time-vs-size", .title = N_("Gauss elimination: time vs matrix size"),
    .x = "n", .y = "time_ms", .highlight = "n_plus_1_prime", .highlight_legend = N_("N+1 prime"),
    .highlight_label = N_("n = %g") },
};

static const KsFigureSpec wg_figures[] = {
  { .id = "time-vs-wg", .title = N_("Gauss elimination: time vs work-group size"),
    .x = "wg", .y = "time_ms", .series_by = "n", .mark_best = TRUE, .log_y = TRUE,
    .vline_info = "ogs_usable", .vline_label = N_("predicted optimum %g"), .vline_within = TRUE,
    .min_x_option = "min-wg",
    .min_x_help = N_("Leave out groups smaller than N from the plot (the paper's Fig. 4 hides wg = 1)") },
};

static const KsPaperValue wg_paper_values[] = {
  { "", "ogs_predicted", 192, NULL, N_("the paper's rule"),
    N_("GeForce GT 555M: 144 cores on 3 units (48 each), preferred multiple 32: LCM(32, 48) = 96, and the "
       "first multiple of 96 above 144 is 192, the measured optimum") },
};

/* What describe_device records, named for the page's "paper" table. */
static const KsColumnSpec device_info[] = {
  { "pwgsm", N_("preferred multiple"), NULL,
    N_("The update kernel's preferred work-group size multiple, as the device reports it") },
  { "cores_per_cu", N_("cores per compute unit"), NULL,
    N_("From the table of known devices, or as set on the Devices page") },
  { "compute_units", N_("compute units"), NULL, NULL },
  { "max_work_group_size", N_("largest group of the kernel"), NULL,
    N_("The most work-items the update kernel's groups may hold on this device") },
  { "ogs_predicted", N_("predicted optimal group size"), NULL,
    N_("The paper's rule: the least multiple of LCM(preferred multiple, cores per compute unit) that covers "
       "every core of the device") },
  { "ogs_usable", N_("predicted group size, usable"), NULL,
    N_("The predicted optimum, or the largest multiple of the LCM the kernel allows where it is larger") },
};

#define PAPER_000 \
  .paper = "000", \
  .paper_title = N_("Baranov & Vlatskaya (2013): work-group size and the Gauss method in OpenCL")

#define GAUSS_FUNCTIONS                                                          \
  .size_param = "n", .size_exponent = 3,                                         \
  .columns = columns, .n_columns = N_COLUMNS,                                    \
  .check = gauss_check, .set_up = gauss_set_up, .prepare = gauss_prepare,        \
  .measure_one_rep = gauss_measure, .describe_device = gauss_describe_device,    \
  .tear_down = gauss_tear_down, .describe_point = ks_exp_gauss_describe_point,   \
  .summarize = ks_exp_gauss_summarize, .judge = ks_exp_gauss_judge,              \
  .device_info = device_info, .n_device_info = G_N_ELEMENTS (device_info),       \
  .upgrade_values = ks_exp_gauss_upgrade_values, .work = gauss_work

const KsExperimentDesc ks_exp_gauss_size = {
  .id = "gauss-size",
  .title = N_("Gauss: time vs size"),
  PAPER_000,
  .summary = N_("Time vs matrix size (the paper's Fig. 2): outliers where N+1 is prime"),
  .claim = N_("Measures the time of one solve for every matrix size in the range (the paper's Fig. 2).\n\n"
              "The update kernel runs on an (N+1) × N range. When the local size is left to the "
              "driver, it must pick a group size that divides N+1. If N+1 is prime, only 1 and N+1 "
              "do, and a driver that cannot use N+1 falls back to groups of one work-item: those "
              "sizes are far slower than their neighbours. They are drawn in their own colour; "
              "hover over a point to see what the driver ran.\n\n"
              "Run again with the split policy to compare: earlier runs stay in the plot, dashed."),
  .example = "--from 100 --to 400 --plot fig2.png",
  /* NVIDIA's OpenCL across N+1 = 1024, where primes cost 12-45x; its CUDA
   * runs take whole rows below 1024 and show nothing. */
  .recorded_demo = "h200-opencl-gauss-size-1000-1100-driver.json",
  .legacy_prefix = "size-",
  .params = size_params, .n_params = G_N_ELEMENTS (size_params),
  .figures = size_figures, .n_figures = G_N_ELEMENTS (size_figures),
  GAUSS_FUNCTIONS,
};

const KsExperimentDesc ks_exp_gauss_wg = {
  .id = "gauss-wg",
  .title = N_("Gauss: time vs group size"),
  PAPER_000,
  .summary = N_("Time vs work-group size, one curve per size (Figs. 3-6)"),
  .claim = N_("Measures the time of one solve for each work-group size, one curve per matrix "
              "size (the paper's Figs. 3 to 6).\n\n"
              "The vertical line is the paper's prediction: the least multiple of "
              "LCM(preferred multiple, cores per compute unit) that covers every core of the "
              "device. The ring on each curve marks the measured best.\n\n"
              "Groups of one work-item are very slow; hide them to see the rest (Fig. 4). "
              "Drag across the plot to zoom into a range of group sizes (Fig. 6); "
              "double-click or press 0 to see everything again."),
  .example = "--sizes 100:900:100 --wg-list 1,32:1024:32 --plot fig3.svg",
  .recorded_demo = "h200-opencl-gauss-wg-1000-4000.json",
  .legacy_prefix = "wg-",
  .backends = KS_BACKENDS_GPU,
  .params = wg_params, .n_params = G_N_ELEMENTS (wg_params),
  .figures = wg_figures, .n_figures = G_N_ELEMENTS (wg_figures),
  .paper_values = wg_paper_values, .n_paper_values = G_N_ELEMENTS (wg_paper_values),
  GAUSS_FUNCTIONS,
};
