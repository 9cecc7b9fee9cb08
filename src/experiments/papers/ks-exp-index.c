/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-index.c: paper 003's experiments (Andrianov et al.) as
 * descriptions over the index solver (src/solvers/ks-index-solver.h):
 * index-fill, the paper's mapping against a grid-stride loop for the three
 * shapes of its rules, and index-reduce, the worked example's two-kernel
 * row sums against the host on one core and with OpenMP. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-index.h"
#include "ks-exp-index-private.h"
#include "ks-access-plot.h"
#include "ks-compute-error.h"
#include "ks-index-solver.h"
#include "ks-run.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define PAPER_003 \
  .paper = "003", \
  .paper_title = N_("Andrianov et al.: GPU programs from Norma specifications")

static const KsChoice precision_choices[] = {
  { "double", N_("double (the paper's)"), NULL, KS_PRECISION_DOUBLE },
  { "float", N_("float"), NULL, KS_PRECISION_FLOAT },
  { NULL }
};

enum { SHAPE_1D = KS_EXP_INDEX_SHAPE_1D, SHAPE_2D = KS_EXP_INDEX_SHAPE_2D, SHAPE_3D = KS_EXP_INDEX_SHAPE_3D };

static const KsChoice shape_choices[] = {
  { "1d", N_("D(v·w)"), N_("One side: blocks of 1024, the grid split in two past 65,535 blocks"), SHAPE_1D },
  { "2d", N_("D(v, w)"), N_("Two sides: w in threads when it fits a block, else in blocks of 1024 along the grid's y "
                            "(the worked example's dim3(v, 3))"), SHAPE_2D },
  { "3d", N_("D(v, w/n3, n3)"), N_("Three sides, n3 in a block rounded up to a power of two of threads"), SHAPE_3D },
  { NULL }
};

/* In the order of KsIndexFill: the choice's index is the solver's method. */
static const KsChoice method_choices[] = {
  { "mapped", N_("mapped (the paper's)"), N_("One thread per point, the launch the paper's rules give"),
    KS_INDEX_FILL_MAPPED },
  { "stride", N_("grid-stride loop"), N_("Today's idiom: a device-filling grid (32 blocks per compute unit of the "
                                          "suggested block size), each thread looping over the flat index"),
    KS_INDEX_FILL_STRIDE },
  { "today", N_("today's limits"), N_("One thread per point, the paper's layout under today's limits: gridDim.x "
                                       "up to 2^31 - 1, a side within a block rounded to the warp of 32"),
    KS_INDEX_FILL_TODAY },
  { "occupancy", N_("occupancy block"),
    N_("One thread per point of the flat index, in blocks of the size the device suggests: CUDA's occupancy "
       "calculation (cudaOccupancyMaxPotentialBlockSize's recipe), or on OpenCL, which has none, the kernel's "
       "largest work-group rounded down to its preferred multiple"), KS_INDEX_FILL_OCCUPANCY },
  { NULL }
};
G_STATIC_ASSERT (G_N_ELEMENTS (method_choices) == KS_INDEX_FILL_N + 1);

/* --- index-fill ---------------------------------------------------------------- */

enum { FP_SHAPE, FP_METHOD, FP_V, FP_W, FP_N3, FP_PRECISION, N_FILL_PARAMS };

/* index-reduce's, here for what both read (point_precision). */
enum { RP_V, RP_W, RP_METHOD, RP_THREADS, RP_PRECISION, N_REDUCE_PARAMS };

static const KsParamSpec fill_params[] = {
  [FP_SHAPE] = { .name = "shape", .label = N_("Shape"), .help = N_("Which of the paper's rules lays the domain out"),
    .type = KS_PARAM_CHOICE, .choices = shape_choices, .default_value = "1d,2d,3d", .sweepable = TRUE },
  [FP_METHOD] = { .name = "method", .label = N_("Method"),
    .help = N_("The paper's mapping, the same under today's limits, one flat launch in the device's suggested "
               "blocks, or a grid-stride loop (the launches \"kernelscope-cli map\" prints). The first two keep "
               "the paper's blocks of 1024: a device whose kernel allows fewer refuses those points, naming "
               "its limit"),
    .type = KS_PARAM_CHOICE, .choices = method_choices, .default_value = "mapped,today,occupancy,stride",
    .sweepable = TRUE },
  [FP_V] = { .name = "v", .label = N_("Rows v"), .help = N_("The slow side (the paper's v = 2000)"),
    .type = KS_PARAM_INT, .default_value = "2000", .min = 1, .max = 10000000 },
  [FP_W] = { .name = "w", .label = N_("Columns w"), .help = N_("The fast side (the paper's w = 3000)"),
    .type = KS_PARAM_INT, .default_value = "3000", .min = 1, .max = 100000000 },
  [FP_N3] = { .name = "n3", .label = N_("Third side n3"), .help = N_("D(v, w/n3, n3): must divide w"),
    .type = KS_PARAM_INT, .default_value = "10", .min = 1, .max = 1024, .when = { "shape", { "3d" } } },
  [FP_PRECISION] = { .name = "precision", .label = N_("Precision"), .help = N_("The values written"),
    .type = KS_PARAM_CHOICE, .choices = precision_choices, .default_value = "double" },
};
G_STATIC_ASSERT (G_N_ELEMENTS (fill_params) == N_FILL_PARAMS);

enum { FILL_TIME = 0, FILL_RATE, FILL_THREADS, FILL_IDLE, FILL_BLOCK, N_FILL_COLUMNS };

/* v x w points (or values) per second, in billions, from the time in
 * column 0 (time_ms in both descriptions). */
static double
derive_rate (const KsRun        *run,
             const KsRunPoint   *point,
             const KsColumnSpec *column)
{
  double points = ks_run_point_get_number (run, point, "v") * ks_run_point_get_number (run, point, "w");

  return points / (point->values[0] * 1e-3) / 1e9;
}

/* The roofline's count, from the time in column 0: each of the v x w
 * values written once (8 bytes in double, 4 in float), the only traffic
 * either kernel must make; one operation to make a value (g + 1), and in
 * the row sums one more to add it. */
static gboolean
index_work (const KsRun      *run,
            const KsRunPoint *point,
            KsWork           *out)
{
  const double values = ks_run_point_get_number (run, point, "v") * ks_run_point_get_number (run, point, "w");
  const gboolean fill = run->desc == &ks_exp_index_fill;
  const int precision = ks_run_point_choice (run, point, fill ? FP_PRECISION : RP_PRECISION);

  out->bytes = values * (precision == KS_PRECISION_FLOAT ? 4 : 8);
  out->ops = values * (fill ? 1 : 2);
  out->seconds = point->values[0] * 1e-3;
  return TRUE;
}

static const KsColumnSpec fill_columns[] = {
  [FILL_TIME] = { "time_ms", N_("kernel time"), "ms", N_("The fill kernel's device time"), KS_COLUMN_REAL,
                  KS_REDUCE_MEDIAN_RANGE },
  [FILL_RATE] = { "gpoints_s", N_("points per second"), "G/s", N_("Points written per second, in billions"),
                  KS_COLUMN_REAL, .derive = derive_rate },
  [FILL_THREADS] = { "threads", N_("threads launched"), NULL, N_("Grid times block"), KS_COLUMN_INT,
                     KS_REDUCE_LAST },
  [FILL_IDLE] = { "idle_pct", N_("idle threads"), "%", N_("Launched threads with no point: the rounding of the "
                                                          "paper's rules (0 for the stride loop)"),
                  KS_COLUMN_REAL, KS_REDUCE_LAST },
  [FILL_BLOCK] = { "block", N_("block"), NULL, N_("Threads per block"), KS_COLUMN_INT, KS_REDUCE_LAST },
};

static const KsFigureSpec fill_figures[] = {
  { .id = "time-vs-shape", .title = N_("Index fill: the paper's mapping vs a grid-stride loop"),
    .x = "shape", .y = "time_ms", .series_by = "method", .categorical_x = TRUE },
  { .id = "idle-vs-shape", .title = N_("Idle threads of each launch"),
    .x = "shape", .y = "idle_pct", .series_by = "method", .categorical_x = TRUE },
};

typedef struct {
  KsDevice      *device;
  KsIndexSolver *solver;
  KsIndexDomain  domain;
  guint64        v, w;
} IndexState;

/* Both experiments have a precision, each in its place. */
static KsPrecision
point_precision (const KsConfig *config)
{
  return ks_config_choice (config, ks_config_get_desc (config) == &ks_exp_index_fill ? FP_PRECISION : RP_PRECISION);
}

static gboolean
index_check (const KsExperimentDesc *desc,
             KsDevice               *device,
             const KsConfig         *base,
             GError                **error)
{
  if (point_precision (base) == KS_PRECISION_DOUBLE &&
      ks_device_get_backend (device) != KS_BACKEND_HOST && !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("%s has no double precision: run with --precision float"), ks_device_get_name (device));
      return FALSE;
    }
  return TRUE;
}

static gpointer
index_set_up (const KsExperimentDesc *desc,
              KsDevice               *device,
              const KsConfig         *base,
              GCancellable           *cancellable,
              GError                **error)
{
  IndexState *s = g_new0 (IndexState, 1);

  s->device = g_object_ref (device);
  return s;
}

static void
index_tear_down (gpointer state)
{
  IndexState *s = state;

  g_clear_pointer (&s->solver, ks_index_solver_free);
  g_clear_object (&s->device);
  g_free (s);
}

/* The solver for the point's precision, built on first use. */
static gboolean
ensure_solver (IndexState     *s,
               const KsConfig *point,
               GError        **error)
{
  const KsPrecision precision = point_precision (point);

  if (s->solver && ks_index_solver_get_precision (s->solver) != precision)
    g_clear_pointer (&s->solver, ks_index_solver_free);
  if (!s->solver && !(s->solver = ks_index_solver_new (s->device, precision, error)))
    return FALSE;
  return TRUE;
}

/* The fill builds its kernels at once (precision is one value for the
 * whole run), so that the device's suggested block is known before the
 * first point and recorded with the device. */
static gpointer
fill_set_up (const KsExperimentDesc *desc,
             KsDevice               *device,
             const KsConfig         *base,
             GCancellable           *cancellable,
             GError                **error)
{
  IndexState *s = index_set_up (desc, device, base, cancellable, error);

  if (!ensure_solver (s, base, error))
    {
      index_tear_down (s);
      return NULL;
    }
  return s;
}

static void
fill_describe_device (gpointer        state,
                      const KsConfig *base,
                      KsRunDevice    *out)
{
  IndexState *s = state;

  ks_run_device_set_info (out, "occupancy_block", (double) ks_index_solver_get_occupancy_block (s->solver));
}

/* The domain of a shape of v x w (D(v, w/n3, n3) for the third). */
gboolean
ks_exp_index_fill_domain (int            shape,
                          gint64         v,
                          gint64         w,
                          gint64         n3,
                          KsIndexDomain *out,
                          GError       **error)
{
  gint64 sides[3] = { v, w, 1 };
  guint dims = 2;

  if (shape == SHAPE_1D)
    {
      dims = 1;
      sides[0] = v * w;
    }
  else if (shape == SHAPE_3D)
    {
      if (n3 < 1 || w % n3 != 0)
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED,
                       _("n3 = %lld does not divide w = %lld: D(v, w/n3, n3) would drop points"),
                       (long long) n3, (long long) w);
          return FALSE;
        }
      dims = 3;
      sides[1] = w / n3;
      sides[2] = n3;
    }
  return ks_index_domain_init (out, dims, sides, error);
}

static gboolean
fill_prepare (gpointer        state,
              const KsConfig *point,
              GCancellable   *cancellable,
              GError        **error)
{
  IndexState *s = state;

  return ks_exp_index_fill_domain (ks_config_choice (point, FP_SHAPE), ks_config_int (point, FP_V),
                                   ks_config_int (point, FP_W), ks_config_int (point, FP_N3), &s->domain, error) &&
         ensure_solver (s, point, error);
}

static gboolean
fill_measure (gpointer        state,
              const KsConfig *point,
              double         *values,
              GCancellable   *cancellable,
              GError        **error)
{
  IndexState *s = state;
  const KsIndexFill fill = ks_config_choice (point, FP_METHOD);
  KsIndexFillResult r;

  if (!ks_index_solver_fill (s->solver, &s->domain, fill, &r, error))
    return FALSE;
  /* A wrong answer stops the run: its times would mean nothing. */
  if (r.max_error != 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("The fill wrote wrong values on %s (off by up to %g from the host's)"),
                   ks_device_get_name (s->device), r.max_error);
      return FALSE;
    }
  values[FILL_TIME] = r.kernel_ms;
  values[FILL_THREADS] = (double) r.threads;
  values[FILL_IDLE] = 100.0 * (double) r.idle / (double) r.threads;
  values[FILL_BLOCK] = (double) r.block;
  return TRUE;
}

static const KsColumnSpec fill_device_info[] = {
  { "occupancy_block", N_("suggested block"), NULL,
    N_("The fill kernel's block as the device suggests it: CUDA's occupancy calculation, or on OpenCL (no "
       "occupancy API) the kernel's largest work-group rounded down to its preferred multiple") },
};

/* The median time of method at shape on device d; NAN where not measured. */
static double
fill_time (const KsRun *run,
           guint        d,
           const char  *shape,
           const char  *method)
{
  const KsRunPoint *p = ks_exp_index_find_point (run, d, shape, method);

  return p ? p->values[FILL_TIME] : NAN;
}

/* Per device: the suggested block and where it came from, then each
 * shape's launches against the paper's mapping. */
static void
fill_summarize (const KsRun *run,
                GString     *out)
{
  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunDevice *dev = run->devices->pdata[d];
      double block = ks_run_device_get_info (dev, "occupancy_block");

      g_string_append_printf (out, "%s:\n", dev->name ? dev->name : dev->id);
      if (!isnan (block))
        g_string_append_printf (out,
                                g_strcmp0 (dev->backend, "cuda") == 0
                                ? _("  occupancy block %.0f: CUDA's occupancy calculation (the recipe of "
                                    "cudaOccupancyMaxPotentialBlockSize)\n")
                                : _("  occupancy block %.0f: OpenCL has no occupancy API, so the fill kernel's "
                                    "largest work-group rounded down to its preferred multiple\n"), block);
      for (guint sh = 0; shape_choices[sh].value; sh++)
        {
          double mapped = fill_time (run, d, shape_choices[sh].value, "mapped");
          gboolean any = FALSE;

          /* In the order of the default sweep: the paper's, then today's ways. */
          static const KsIndexFill order[] = { KS_INDEX_FILL_MAPPED, KS_INDEX_FILL_TODAY,
                                               KS_INDEX_FILL_OCCUPANCY, KS_INDEX_FILL_STRIDE };

          for (guint o = 0; o < G_N_ELEMENTS (order); o++)
            {
              const KsIndexFill m = order[o];
              double t = fill_time (run, d, shape_choices[sh].value, method_choices[m].value);

              if (isnan (t))
                continue;
              if (!any)
                g_string_append_printf (out, "  %s:", _(shape_choices[sh].label));
              any = TRUE;
              g_string_append_printf (out, " %s %.4g ms", method_choices[m].value, t);
              if (m != KS_INDEX_FILL_MAPPED && !isnan (mapped) && t > 0)
                /* TRANSLATORS: a launch's time against the paper's mapping: "(x1.8 of mapped)" */
                g_string_append_printf (out, _(" (%.2fx the mapped time)"), t / mapped);
            }
          if (any)
            g_string_append_c (out, '\n');
        }
    }
}

/* Like with like: a domain under a tenth of the paper's 2000 × 3000 is
 * said to be smaller, with the paper's sides to set. */
static void
note_small_domain (KsVerdict *v,
                   double     rows,
                   double     columns)
{
  if (!(rows * columns < 600000))
    return;
  ks_verdict_append (v, _("This run's domain (%.0f × %.0f) is far smaller than the paper's 2000 × 3000."),
                     rows, columns);
  ks_verdict_suggest (v, _("Use the paper's 2000 × 3000"), "v", "2000", "w", "3000", NULL);
}

/* The paper's mapping launches as well as today's idiom: within this of
 * the grid-stride loop on every shape. */
#define FILL_MAPPED_SLOWER 1.25

/* What index-fill can show of the paper's scheme: one thread per point,
 * launched by its rules, against the grid-stride loop a programmer would
 * write today, on each shape both ran. */
static KsVerdict *
fill_judge (const KsRun *run,
            guint        device)
{
  double best = NAN, worst = NAN;
  const char *worst_shape = NULL;
  guint shapes = 0;
  KsVerdict *v;

  for (guint sh = 0; shape_choices[sh].value; sh++)
    {
      const double mapped = fill_time (run, device, shape_choices[sh].value, "mapped");
      const double stride = fill_time (run, device, shape_choices[sh].value, "stride");
      const double ratio = mapped / stride;

      if (!(ratio > 0))
        continue;
      shapes++;
      best = isnan (best) ? ratio : MIN (best, ratio);
      if (isnan (worst) || ratio > worst)
        {
          worst = ratio;
          worst_shape = _(shape_choices[sh].label);
        }
    }
  if (shapes == 0)
    {
      v = ks_verdict_new (KS_VERDICT_UNTESTED,
                          _("This run has no shape launched both by the paper's mapping and by a grid-stride "
                            "loop."));
      ks_verdict_suggest (v, _("Compare the paper's mapping with a grid-stride loop"),
                          "method", "mapped,stride", NULL);
      return v;
    }
  if (shapes == 1)
    v = ks_verdict_new (worst <= FILL_MAPPED_SLOWER ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                        worst <= FILL_MAPPED_SLOWER
                          ? _("On this device the paper's mapping takes %.2fx the time of a grid-stride loop on "
                              "%s: one thread per point launches as well as today's idiom, and the paper's "
                              "scheme holds here.")
                          : _("On this device the paper's mapping takes %.2fx the time of a grid-stride loop on "
                              "%s: its launches cost time here, and the paper's scheme does not hold as it "
                              "stands."),
                        worst, worst_shape);
  else
    v = ks_verdict_new (worst <= FILL_MAPPED_SLOWER ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                        worst <= FILL_MAPPED_SLOWER
                          ? _("On this device the paper's mapping takes %.2fx to %.2fx the time of a "
                              "grid-stride loop over %u shapes: one thread per point launches as well as "
                              "today's idiom, and the paper's scheme holds here.")
                          : _("On this device the paper's mapping takes %.2fx to %.2fx the time of a "
                              "grid-stride loop over %u shapes: its launches cost time here, and the paper's "
                              "scheme does not hold as it stands."),
                        best, worst, shapes);
  if (worst > FILL_MAPPED_SLOWER && shapes > 1)
    ks_verdict_append (v, _("The worst shape is %s: look at its idle threads."), worst_shape);
  ks_exp_index_append_prediction (v, run, device);
  if (ks_run_device_is_cpu (run, device))
    ks_verdict_append (v, _("A CPU stands in for a GPU here: its work-items are loops, not threads."));
  for (guint i = 0; i < run->points->len; i++)
    if (((const KsRunPoint *) run->points->pdata[i])->device == device)
      {
        note_small_domain (v, ks_run_point_get_number (run, run->points->pdata[i], "v"),
                           ks_run_point_get_number (run, run->points->pdata[i], "w"));
        break;
      }
  return v;
}

/* "Inside the kernel": the paper's mapping and the same under today's
 * limits, on each shape at the form's sides (ks-access.h: index_fill_mapped). */
static gboolean
fill_access (GHashTable    *values,
             guint          variant,
             KsAccessPoint *out,
             char         **label,
             char         **where)
{
  const KsExperimentDesc *desc = &ks_exp_index_fill;
  const gint64 v = ks_experiment_desc_first_int (desc, values, "v", 2000);
  const gint64 w = ks_experiment_desc_first_int (desc, values, "w", 3000);
  const gint64 n3 = ks_experiment_desc_first_int (desc, values, "n3", 10);
  const gboolean dbl = ks_experiment_desc_first_choice (desc, values, "precision", KS_PRECISION_DOUBLE) ==
                       KS_PRECISION_DOUBLE;
  const guint shape = variant / 2;
  const gboolean today = variant % 2 == 1;
  g_autofree char *third = shape == SHAPE_3D ? g_strdup_printf (" n3=%" G_GINT64_FORMAT, n3) : g_strdup ("");

  if (shape >= G_N_ELEMENTS (shape_choices) - 1)
    return FALSE;
  *out = (KsAccessPoint) { .kernel = KS_ACCESS_INDEX_MAPPED, .group = 64, .groups = 1, .elem = dbl ? 8 : 4,
                           .rule = today ? KS_INDEX_RULE_TODAY : KS_INDEX_RULE_PAPER };
  /* A shape the sides cannot make (n3 not dividing w) keeps an empty
   * domain (dims 0), which the view refuses before the model sees it. */
  if (!ks_exp_index_fill_domain ((int) shape, v, w, n3, &out->domain, NULL))
    memset (&out->domain, 0, sizeof out->domain);
  *label = g_strdup_printf ("%s, %s", _(shape_choices[shape].label),
                            _(method_choices[today ? KS_INDEX_FILL_TODAY : KS_INDEX_FILL_MAPPED].label));
  *where = g_strdup_printf ("shape=%s method=%s v=%" G_GINT64_FORMAT " w=%" G_GINT64_FORMAT " precision=%s%s",
                            shape_choices[shape].value, today ? "today" : "mapped", v, w,
                            dbl ? "double" : "float", third);
  return TRUE;
}

const KsExperimentDesc ks_exp_index_fill = {
  .id = "index-fill",
  .title = N_("Index domain: mapped vs grid-stride"),
  PAPER_003,
  .summary = N_("One thread per point as the paper maps D(N), D(N1,N2), D(N1,N2,N3), against a grid-stride loop"),
  .claim = N_("The paper gives each point of an index domain its own thread: 1024 threads per block, a side "
              "that fits a block in a power of two of threads, the rest in blocks. Every point of the domain "
              "gets V = j + (i - 1) w and is checked on the host.\n\n"
              "Compare its launches on the three shapes with what a programmer would launch today: the same "
              "layout under today's limits (gridDim.x up to 2^31 - 1, a side within a block rounded to the "
              "warp, not to a power of two), one flat launch in the block the device suggests (CUDA's "
              "occupancy calculation; on OpenCL, which has none, the kernel's largest work-group in its "
              "preferred multiples), and a grid-stride loop. These are the launches \"kernelscope-cli map\" "
              "prints. Look at the idle threads the paper's rounding costs: D(v, w/n3, n3) with n3 = 10 runs "
              "blocks of 16 threads, 6 of them idle."),
  .example = "--shape 1d,2d,3d --method mapped,today,occupancy,stride --plot fill.png",
  .backends = KS_BACKENDS_GPU,
  .params = fill_params, .n_params = G_N_ELEMENTS (fill_params),
  .columns = fill_columns, .n_columns = N_FILL_COLUMNS,
  .figures = fill_figures, .n_figures = G_N_ELEMENTS (fill_figures),
  .check = index_check, .set_up = fill_set_up, .prepare = fill_prepare,
  .measure_one_rep = fill_measure, .describe_device = fill_describe_device, .tear_down = index_tear_down,
  .summarize = fill_summarize, .judge = fill_judge, .work = index_work,
  .device_info = fill_device_info, .n_device_info = G_N_ELEMENTS (fill_device_info),
  .access = fill_access,
};

/* --- index-reduce -------------------------------------------------------------- */

enum { REDUCE_KERNELS, REDUCE_TUNED, REDUCE_CUB, REDUCE_GEMV };

static const KsChoice reduce_method_choices[] = {
  { "kernels", N_("the paper's two kernels"), N_("Kernel 1's partial sums in shared memory, kernel 2 finishing them"),
    REDUCE_KERNELS },
  { "tuned", N_("tuned two kernels"),
    N_("Two kernels like the paper's, tuned: each row cut into as many chunks as fill the compute units, "
       "32 items to a chunk reading 2 doubles or 4 floats per load (one at a time where w is no multiple "
       "of that), four loads in flight, summed by warp shuffles on CUDA, sub_group_reduce_add where "
       "OpenCL has cl_khr_subgroups, else a tree in local memory (NVIDIA's OpenCL has no sub-groups); "
       "kernel 2 adds a row's few partial sums with one item. The paper's pair instead gives each group "
       "of 1024 threads one value per thread, sums it by a tree of ten barriers, and fills the values as "
       "it goes; this one, like CUB and gemv, reads values filled beforehand (untimed)"), REDUCE_TUNED },
  { "cub", N_("CUB block reduce"), N_("One block per row reduced by cub::BlockReduce, as cub::DeviceSegmentedReduce "
                                      "runs a segment (built by NVRTC with the toolkit's CUB)"), REDUCE_CUB },
  { "gemv", N_("cuBLAS gemv"), N_("cuBLAS gemv of the values with a vector of ones: what a user would reach for "
                                  "(it reads the values; the kernels also write them)"), REDUCE_GEMV },
  { NULL }
};

/* Every method the device runs: CUB and cuBLAS only on CUDA. */
static char *
reduce_default_methods (const KsParamSpec *spec,
                        KsDevice          *device,
                        const KsConfig    *base,
                        char             **why,
                        GError           **error)
{
  if (ks_device_get_backend (device) == KS_BACKEND_CUDA)
    {
      *why = g_strdup (_("the paper's and the tuned kernels beside CUB and cuBLAS"));
      return g_strdup (spec->default_value);
    }
  *why = g_strdup (_("the paper's and the tuned kernels: CUB and cuBLAS run on CUDA devices only"));
  return g_strdup ("kernels,tuned");
}

static const KsParamSpec reduce_params[] = {
  [RP_V] = { .name = "v", .label = N_("Rows v"), .help = N_("Rows of the domain, one sum each (the paper's v = 2000)"),
    .type = KS_PARAM_INT, .default_value = "2000", .min = 1, .max = 10000000, .sweepable = TRUE },
  [RP_W] = { .name = "w", .label = N_("Columns w"), .help = N_("Values summed per row (the paper's w = 3000)"),
    .type = KS_PARAM_INT, .default_value = "3000", .min = 1, .max = 67107840, .sweepable = TRUE,
    .cli_range = TRUE },
  [RP_METHOD] = { .name = "method", .label = N_("Method"),
    .help = N_("The paper's kernels, the tuned pair or, on CUDA, CUB's block reduction or cuBLAS gemv"),
    .type = KS_PARAM_CHOICE, .choices = reduce_method_choices, .default_value = "kernels,tuned,cub,gemv",
    .sweepable = TRUE, .backends = KS_BACKENDS_GPU, .device_default = reduce_default_methods },
  [RP_THREADS] = { .name = "threads", .label = N_("Host threads"),
    .help = N_("1: one core, the paper's sequential column; 0: every core through OpenMP"),
    .type = KS_PARAM_INT, .default_value = "1,0", .min = 0, .max = 1024, .sweepable = TRUE,
    .backends = KS_BACKENDS_HOST },
  [RP_PRECISION] = { .name = "precision", .label = N_("Precision"), .help = N_("The values summed"),
    .type = KS_PARAM_CHOICE, .choices = precision_choices, .default_value = "double" },
};
G_STATIC_ASSERT (G_N_ELEMENTS (reduce_params) == N_REDUCE_PARAMS);

enum { RED_TIME = 0, RED_K1, RED_K2, RED_BLOCKS, RED_T1, RED_T2, RED_ERROR, RED_RATE, N_RED_COLUMNS };

static const KsColumnSpec reduce_columns[] = {
  [RED_TIME] = { "time_ms", N_("time"), "ms", N_("Both kernels' device time; on the host the loops' wall time"),
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [RED_K1] = { "kernel1_ms", N_("kernel 1"), "ms", N_("Fill and partial sums (the paper's SummaK1)"),
               KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [RED_K2] = { "kernel2_ms", N_("kernel 2"), "ms", N_("Finishing the partial sums (SummaK1Red)"),
               KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [RED_BLOCKS] = { "blocks_per_row", N_("partial sums per row"), NULL,
                   N_("ceil(w / threads of kernel 1); the tuned kernels: chunks per row"),
                   KS_COLUMN_INT, KS_REDUCE_LAST },
  [RED_T1] = { "threads1", N_("threads, kernel 1"), NULL, N_("Kernel 1's group (the host: its threads)"),
               KS_COLUMN_INT, KS_REDUCE_LAST },
  [RED_T2] = { "threads2", N_("threads, kernel 2"), NULL, N_("Kernel 2's group: the next power of two of the "
                                                              "partial sums (the paper's 4 for 3)"),
               KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE },
  [RED_ERROR] = { "rel_error", N_("relative error"), NULL, N_("Worst row against the closed form "
                                                               "w(w+1)/2 + i w²"),
                  KS_COLUMN_REAL, KS_REDUCE_MAX },
  [RED_RATE] = { "gvalues_s", N_("values per second"), "G/s", N_("Values filled and summed per second, in billions"),
                 KS_COLUMN_REAL, .derive = derive_rate },
};

static const KsFigureSpec reduce_figures[] = {
  { .id = "time-vs-w", .title = N_("Row sums of the worked example: time vs w"),
    .x = "w", .y = "time_ms", .log_y = TRUE },
};

/* Table 1 is for the paper's gas-dynamics program, not this reduction: the
 * ratios are what compares. */
static const KsPaperValue reduce_paper_values[] = {
  { "threads=1", "time_ms", 44500, "ms", N_("Table 1"),
    N_("the gas-dynamics program, sequential, one core of a Xeon X5670 (not this reduction: compare ratios)") },
  { "threads=0", "time_ms", 4620, "ms", N_("Table 1"),
    N_("the gas-dynamics program, OpenMP on 11 cores of a Xeon X5670 (not this reduction: compare ratios)") },
  /* Beside the paper's kernels on CUDA (an empty where would set it
   * beside the host's loops too). */
  { "method=kernels", "time_ms", 1350, "ms", N_("Table 1"),
    N_("the gas-dynamics program, CUDA on a Fermi C2050: 33 times the one core, 3.4 times the 11 cores") },
};

static gboolean
reduce_prepare (gpointer        state,
                const KsConfig *point,
                GCancellable   *cancellable,
                GError        **error)
{
  IndexState *s = state;

  s->v = (guint64) ks_config_int (point, RP_V);
  s->w = (guint64) ks_config_int (point, RP_W);
  if (ks_device_get_backend (s->device) == KS_BACKEND_HOST)
    return TRUE;
  return ensure_solver (s, point, error);
}

static gboolean
reduce_measure (gpointer        state,
                const KsConfig *point,
                double         *values,
                GCancellable   *cancellable,
                GError        **error)
{
  IndexState *s = state;
  KsIndexReduceResult r;
  const KsPrecision precision = ks_config_choice (point, RP_PRECISION);
  const int method = ks_config_choice (point, RP_METHOD);
  g_autoptr(GError) local = NULL;
  gboolean ok;

  if (ks_device_get_backend (s->device) == KS_BACKEND_HOST)
    ok = ks_index_host_reduce (s->v, s->w, precision, (guint) ks_config_int (point, RP_THREADS), &r, error);
  else if (method == REDUCE_GEMV)
    ok = ks_index_gemv_reduce (s->device, precision, s->v, s->w, &r, &local);
  else if (method == REDUCE_CUB)
    ok = ks_index_solver_reduce_cub (s->solver, s->v, s->w, &r, &local);
  else if (method == REDUCE_TUNED)
    ok = ks_index_solver_reduce_tuned (s->solver, s->v, s->w, FALSE, &r, &local);
  else
    ok = ks_index_solver_reduce (s->solver, s->v, s->w, &r, &local);
  /* A library the device lacks refuses this point; the others go on. */
  if (!ok && g_error_matches (local, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
    {
      g_set_error_literal (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, local->message);
      return FALSE;
    }
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* Summed in float, 10^-3 of a row's sum is what rounding can reach. */
  if (!(r.max_rel_error < (precision == KS_PRECISION_DOUBLE ? 1e-9 : 1e-3)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("The row sums on %s are wrong: a relative error of %g against the closed form"),
                   ks_device_get_name (s->device), r.max_rel_error);
      return FALSE;
    }
  values[RED_TIME] = r.total_ms;
  if (r.threads1 > 0)
    values[RED_T1] = r.threads1;
  values[RED_ERROR] = r.max_rel_error;
  /* The host runs loops, cuBLAS and CUB their own kernels: no kernels 1
   * and 2, no partial sums (left unmeasured). */
  if (ks_device_get_backend (s->device) != KS_BACKEND_HOST && r.blocks_per_row > 0)
    {
      values[RED_K1] = r.kernel1_ms;
      values[RED_K2] = r.kernel2_ms;
      values[RED_BLOCKS] = (double) r.blocks_per_row;
      values[RED_T2] = r.threads2;
    }
  return TRUE;
}

/* The time of device's points with threads = threads (NAN: a device's,
 * whose points have none) at v x w; NAN where not measured. */
static double
reduce_time (const KsRun *run,
             guint        device,
             double       threads,
             double       v,
             double       w)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const double t = ks_run_point_get_number (run, p, "threads");
      const double m = ks_run_point_get_number (run, p, "method");

      if (p->device == device && !p->error && (t == threads || (isnan (t) && isnan (threads))) &&
          (isnan (m) || m == 0) && ks_run_point_get_number (run, p, "v") == v &&
          ks_run_point_get_number (run, p, "w") == w)
        return p->values[RED_TIME];
    }
  return NAN;
}

/* The host device of the run that measured one core and OpenMP at v x w,
 * into one and omp; FALSE where none did. */
static gboolean
host_times (const KsRun *run,
            double       v,
            double       w,
            double      *one,
            double      *omp)
{
  for (guint d = 0; d < run->devices->len; d++)
    {
      if (g_strcmp0 (((KsRunDevice *) run->devices->pdata[d])->backend, "host") != 0)
        continue;
      *one = reduce_time (run, d, 1, v, w);
      *omp = reduce_time (run, d, 0, v, w);
      if (*one > 0 && *omp > 0)
        return TRUE;
    }
  return FALSE;
}

/* Table 1's order, CUDA < OpenMP < one core (1.35, 4.62, 44.5 s), for
 * the worked example's sums: on a device, its two kernels against the
 * host's loops of the same run at the largest v x w both measured; on
 * the host, OpenMP against one core. */
static KsVerdict *
reduce_judge (const KsRun *run,
              guint        device)
{
  const gboolean host = g_strcmp0 (((KsRunDevice *) run->devices->pdata[device])->backend, "host") == 0;
  double v = NAN, w = NAN, one = NAN, omp = NAN, gpu = NAN;
  KsVerdict *verdict;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const double pv = ks_run_point_get_number (run, p, "v"), pw = ks_run_point_get_number (run, p, "w");
      double o = NAN, m = NAN, g = NAN;

      if (p->device != device || p->error || pv * pw <= v * w)
        continue;
      if (host ? (o = reduce_time (run, device, 1, pv, pw)) > 0 && (m = reduce_time (run, device, 0, pv, pw)) > 0
               : (g = reduce_time (run, device, NAN, pv, pw)) > 0 && host_times (run, pv, pw, &o, &m))
        v = pv, w = pw, one = o, omp = m, gpu = g;
    }
  if (isnan (v) && host)
    {
      verdict = ks_verdict_new (KS_VERDICT_UNTESTED,
                                _("This run has no sums on one core and on every core of the same size to "
                                  "compare."));
      ks_verdict_suggest (verdict, _("Run on one core and on every core"), "threads", "1,0", NULL);
      return verdict;
    }
  if (isnan (v))
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("This run has no host loops of the same size beside this device's kernels: add "
                             "the host to the devices to set the paper's three columns side by side."));
  if (host)
    verdict = ks_verdict_new (omp < one ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                              omp < one
                                ? _("At %.0f × %.0f the host sums in %.4g ms on every core (OpenMP) and %.4g "
                                    "ms on one core: OpenMP is faster, as in the paper's Table 1 (4.62 against "
                                    "44.5 s), and the claim holds here.")
                                : _("At %.0f × %.0f the host sums in %.4g ms on every core (OpenMP) and %.4g "
                                    "ms on one core: OpenMP is not faster, unlike the paper's Table 1 (4.62 "
                                    "against 44.5 s), and the claim does not hold here."),
                              v, w, omp, one);
  else
    verdict = ks_verdict_new (gpu < omp && omp < one ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                              gpu < omp && omp < one
                                ? _("At %.0f × %.0f the two kernels take %.4g ms, the host %.4g ms on every "
                                    "core (OpenMP) and %.4g ms on one core: the order of the paper's Table 1 "
                                    "(GPU, then OpenMP, then one core) holds here.")
                                : _("At %.0f × %.0f the two kernels take %.4g ms, the host %.4g ms on every "
                                    "core (OpenMP) and %.4g ms on one core: the order of the paper's Table 1 "
                                    "(GPU, then OpenMP, then one core) does not hold here."),
                              v, w, gpu, omp, one);
  ks_verdict_append (verdict, _("Table 1 times the paper's gas-dynamics program, not these sums: compare the "
                                "order, not the times."));
  if (!host && ks_run_device_is_cpu (run, device))
    ks_verdict_append (verdict, _("A CPU stands in for a GPU here: the kernels share the host's cores."));
  note_small_domain (verdict, v, w);
  return verdict;
}

const KsExperimentDesc ks_exp_index_reduce = {
  .id = "index-reduce",
  .title = N_("Worked example: row sums in two kernels"),
  PAPER_003,
  .summary = N_("V[i][j] = j + (i-1)w on v × w, summed per row by two kernels, against one core and OpenMP"),
  .claim = N_("The paper's worked example: V[i][j] = j + (i - 1) w on a v × w domain (2000 × 3000), then "
              "the sum of each row. Kernel 1 runs dim3(v, ceil(w / 1024)) blocks of 1024 threads, fills its "
              "part of a row and sums it in shared memory (a tree), leaving ceil(w / 1024) partial sums per "
              "row; kernel 2 finishes them with a group of the next power of two (4 for 3). Every row is "
              "checked against the closed form w(w + 1)/2 + i w².\n\n"
              "On the host the same sums run on one core and on every core (OpenMP): the paper's Table 1 "
              "compares a sequential, an OpenMP and a CUDA version of its gas-dynamics program "
              "(44.5 s, 4.62 s, 1.35 s)."),
  .example = "--v 2000 --w 1000:8000:1000 -d host -d opencl:0:0 --plot sums.png",
  .size_param = "w",
  .params = reduce_params, .n_params = G_N_ELEMENTS (reduce_params),
  .columns = reduce_columns, .n_columns = N_RED_COLUMNS,
  .figures = reduce_figures, .n_figures = G_N_ELEMENTS (reduce_figures),
  .paper_values = reduce_paper_values, .n_paper_values = G_N_ELEMENTS (reduce_paper_values),
  .check = index_check, .set_up = index_set_up, .prepare = reduce_prepare,
  .measure_one_rep = reduce_measure, .tear_down = index_tear_down,
  .judge = reduce_judge, .work = index_work,
};
