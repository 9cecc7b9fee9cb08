/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat-hybrid.c: paper 004's Figs. 6-7 and Tables 2-3 on one GPU:
 * the heat problem's linear system solved by CG split between the GPU and
 * the CPU at the balancing coefficient lambda (src/solvers/ks-hybrid-cg.h),
 * its performance relative to the GPU alone (measured in the same run,
 * through the same code with the CPU part empty), against lambda for
 * several mesh sizes; the paper's estimate of the optimum, lambda_b =
 * BW_GPU / BW_CPUs, from the triad bandwidths of the two parts measured
 * here, drawn as a vertical line, and the GPU+CPU bound 1 + 1/lambda_b as
 * a horizontal one. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-heat.h"
#include "ks-exp-heat-hybrid-private.h"
#include "ks-balance.h"
#include "ks-bench-probes.h"
#include "ks-device-list.h"
#include "ks-heat.h"
#include "ks-host.h"
#include "ks-hybrid-cg.h"
#include "ks-mesh-gen.h"
#include "ks-part-file.h"
#include "ks-run.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* --- parameters (their indexes and ids: ks-exp-heat-hybrid-private.h) ------------ */

static const KsChoice kind_choices[] = {
  { "quad", N_("quadrilaterals"), N_("A regular mesh of quadrilaterals: 9 entries per row"), 0 },
  { "tri", N_("triangles"), N_("The same split along a diagonal: about 13 entries per row"), 1 },
  { NULL }
};

static const KsChoice cpu_choices[] = {
  { "host", N_("host (OpenMP)"), N_("The CPU part runs this program's own C code on every core"), CPU_HOST },
  { "device", N_("CPU device (PoCL)"),
    N_("The CPU part runs the GPU part's kernels on an OpenCL CPU device, as the paper's CPU processes run "
       "the same code"), CPU_DEVICE },
  { NULL }
};

static const KsChoice partition_choices[] = {
  { "geometric", N_("geometric"), N_("The paper's plain decomposition: the cells cut across the longer side"),
    PARTITION_GEOMETRIC },
  { "metis", N_("METIS"), N_("METIS k-way partitioning with target part weights: the least halo"), PARTITION_METIS },
  { "file", N_("from a file"),
    N_("Each cell's part read from --partition-file rather than split by lambda: under mpirun part r is rank "
       "r's, in one process parts 0 to G-1 are the G GPUs' and part G the CPU's"), PARTITION_FILE },
  { NULL }
};

static const KsChoice cg_choices[] = {
  { "classic", N_("classic"), N_("The CG the paper prints: two sums per iteration"), CG_CLASSIC },
  { "pipelined", N_("pipelined"),
    N_("Ghysels and Vanroose's pipelined CG: one sum per iteration, sent before the SpMV and awaited after it "
       "(MPI_Iallreduce); host parts only, so under mpirun with --gpu-ranks 0"), CG_PIPELINED },
  { NULL }
};

static const KsChoice precision_choices[] = {
  { "double", N_("double (the paper's)"), NULL, KS_PRECISION_DOUBLE },
  { "float", N_("float"), N_("The devices' vectors in float; the host part stays double"), KS_PRECISION_FLOAT },
  { NULL }
};

static const KsParamSpec params[] = {
  [P_CELLS] = { .name = "cells", .label = N_("Cells"), .help = N_("About how many cells the mesh has (one curve each)"),
    .type = KS_PARAM_INT, .default_value = "2^14,2^16", .min = 64, .max = KS_MESH_MAX_GENERATED_CELLS,
    .sweepable = TRUE, .cli_range = TRUE },
  [P_LAMBDA] = { .name = "lambda", .label = N_("Lambda"),
    .help = N_("The balancing coefficient: cells on the GPU over cells on the CPU (0: the CPU alone)"),
    .type = KS_PARAM_REAL, .default_value = "0.5,1,2,4,8,16,64", .min = 0, .max = 1e6,
    .sweepable = TRUE, .when = { "partition", { "geometric", "metis" } } },
  [P_KIND] = { .name = "kind", .label = N_("Cells' shape"), .help = N_("Quadrilaterals or triangles"),
    .type = KS_PARAM_CHOICE, .choices = kind_choices, .default_value = "quad" },
  [P_CPU] = { .name = "cpu", .label = N_("CPU part"), .help = N_("What runs the CPU's share of the cells"),
    .type = KS_PARAM_CHOICE, .choices = cpu_choices, .default_value = "host" },
  [P_PARTITION] = { .name = "partition", .label = N_("Partition"),
    .help = N_("How the cells are split between the parts"),
    .type = KS_PARAM_CHOICE, .choices = partition_choices, .default_value = "geometric", .advanced = TRUE },
  [P_PARTITION_FILE] = { .name = "partition_file", .label = N_("Partition file"),
    .help = N_("Each cell's part, one number per line, line i holding cell i's (METIS's .part format, as "
               "--save-partition writes it); it fits one mesh size and kind"),
    .type = KS_PARAM_FILE, .when = { "partition", { "file" } }, .advanced = TRUE },
  [P_SAVE_PARTITION] = { .name = "save_partition", .label = N_("Save the partition"),
    .help = N_("A file for the cells' parts of the last point, in the format --partition-file reads; empty: none"),
    .type = KS_PARAM_TEXT, .default_value = "", .advanced = TRUE, .output = KS_OUTPUT_FILE },
  [P_PRECISION] = { .name = "precision", .label = N_("Precision"),
    .help = N_("The devices' precision (the host part is double)"),
    .type = KS_PARAM_CHOICE, .choices = precision_choices, .default_value = "double", .advanced = TRUE },
  [P_GPUS] = { .name = "gpus", .label = N_("GPUs"),
    .help = N_("In one process: how many GPUs like the one chosen (cuda:0, cuda:1, ...) take a part each, "
               "beside the CPU part (the paper's 1, 2 and 4 GPUs; their halo goes through the host)"),
    .type = KS_PARAM_INT, .default_value = "1", .min = 1, .max = KS_HYBRID_MAX_GPUS, .sweepable = TRUE },
  [P_GPU_RANKS] = { .name = "gpu_ranks", .label = N_("GPU ranks"),
    .help = N_("Under mpirun: how many ranks, the first ones, run GPU parts (one GPU each); the others run CPU "
               "parts.  Without mpirun: 1, the GPU part beside one CPU part"),
    .type = KS_PARAM_INT, .default_value = "1", .min = 0, .max = 1024, .advanced = TRUE },
  [P_RANKS_PER_GPU] = { .name = "ranks_per_gpu", .label = N_("GPU ranks per GPU"),
    .help = N_("Under mpirun: 1, one GPU rank per GPU as the paper; more lets several GPU ranks share a GPU, "
               "to run the several-GPU code path on fewer GPUs (they share its memory, so their times say nothing "
               "about several GPUs)"),
    .type = KS_PARAM_INT, .default_value = "1", .min = 1, .max = 64, .advanced = TRUE },
  [P_CG] = { .name = "cg", .label = N_("CG"), .help = N_("The classic CG or the pipelined one the paper points to"),
    .type = KS_PARAM_CHOICE, .choices = cg_choices, .default_value = "classic", .advanced = TRUE },
  [P_TOL] = { .name = "tol", .label = N_("CG tolerance"), .help = N_("The CG stops at ||r|| <= tol ||b||"),
    .type = KS_PARAM_REAL, .default_value = "1e-8", .min = 1e-15, .max = 0.5, .advanced = TRUE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

/* --- columns (their indexes: ks-exp-heat-hybrid-private.h) ----------------------- */

/* Fig. 5: the GPUs alone's cells per second at this size over the best of
 * the run on this device with as many GPUs, in per cent: where a GPU is
 * used well. */
static double
derive_efficiency (const KsRun *run, const KsRunPoint *point, const KsColumnSpec *column)
{
  const double gpus = ks_run_point_get_number (run, point, "gpus");
  double best = 0;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];
      const double g = ks_run_point_get_number (run, q, "gpus");
      if (q->device == point->device && q->error == NULL && q->values[COL_GPU_ONLY] > 0 &&
          (g == gpus || (isnan (g) && isnan (gpus))))
        best = MAX (best, q->values[COL_MESH_CELLS] / q->values[COL_GPU_ONLY]);
    }
  return best > 0 && point->values[COL_GPU_ONLY] > 0
         ? 100 * point->values[COL_MESH_CELLS] / point->values[COL_GPU_ONLY] / best : NAN;
}

/* The lambda the point ran at: the one asked for, else (a partition file)
 * what its cells amount to over the GPU parts (gpus in one process,
 * gpu_ranks under mpirun; the other is 1). */
static double
derive_lambda (const KsRun *run, const KsRunPoint *point, const KsColumnSpec *column)
{
  const double asked = ks_run_point_get_number (run, point, "lambda");
  const double gpus = ks_run_point_get_number (run, point, "gpus");
  const double ranks = ks_run_point_get_number (run, point, "gpu_ranks");

  if (!isnan (asked))
    return asked;
  return ks_balance_lambda_of (point->values[COL_GPU_CELLS], (isnan (gpus) ? 1 : gpus) * (isnan (ranks) ? 1 : ranks),
                               point->values[COL_CPU_CELLS]);
}

static const KsColumnSpec columns[] = {
  [COL_ITER_US] = { "iteration_us", N_("time per CG iteration"), "us",
                    N_("Both parts' iterations at once, exchanges and sums included, over their count"),
                    KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_REL] = { "relative", N_("performance relative to the GPU alone"), NULL,
                N_("The GPU alone's time per iteration (measured in this run on this mesh) over the hybrid's: "
                   "above 1 the CPU helps (the paper's Figs. 6-7)"),
                KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_PERF] = { "mcells_per_s", N_("cells per second"), "M/s",
                 N_("Cell updates per second: cells times CG iterations over the time (the paper's Perf)"),
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_GPU_ONLY] = { "gpu_only_us", N_("GPU alone, per iteration"), "us",
                     N_("The same solve with every cell on the GPU: the lower bound of Figs. 6-7"),
                     KS_COLUMN_REAL, KS_REDUCE_LAST },
  [COL_GPU_CELLS] = { "gpu_cells", N_("cells on the GPU"), NULL, N_("Formula (5)'s N_GPU"),
                      KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_CPU_CELLS] = { "cpu_cells", N_("cells on the CPU"), NULL, N_("Formula (5)'s N_CPU"),
                      KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_SHARE] = { "gpu_share", N_("GPUs' share of the cells"), "%", N_("n lambda / (n lambda + 1) with n GPUs"),
                  KS_COLUMN_REAL, KS_REDUCE_LAST, .hidden = TRUE },
  [COL_CUT] = { "halo_entries", N_("matrix entries between the parts"), NULL,
                N_("The couplings the halo exchange carries every iteration"), KS_COLUMN_INT, KS_REDUCE_LAST,
                .hidden = TRUE },
  [COL_ITERS] = { "iterations", N_("CG iterations"), NULL, NULL, KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_GPU_ONLY_ITERS] = { "gpu_only_iterations", N_("GPU alone's CG iterations"), NULL,
                           N_("The GPU-alone run's iterations: the same system, so the same count as the hybrid's "
                              "to round-off"),
                           KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE },
  [COL_BANDWIDTH] = { "bandwidth_gbs", N_("CG bytes per second"), "GB/s",
                      N_("Table 1's bytes of both parts' iterations over their time"),
                      KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_MESH_CELLS] = { "mesh_cells", N_("mesh cells"), NULL, N_("The cells the generated mesh has"),
                       KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_EFFICIENCY] = { "gpu_efficiency", N_("GPU efficiency"), "%",
                       N_("The GPU alone's cells per second at this size over the best size of the run (the paper's "
                          "Fig. 5: a V100 peaks at 19 M cells)"),
                       KS_COLUMN_REAL, .derive = derive_efficiency },
  [COL_LAMBDA] = { "split_lambda", N_("lambda"), NULL,
                   N_("The lambda asked for, or, split by a partition file, what the file amounts to: a GPU part's "
                      "cells over all the CPU parts'"),
                   KS_COLUMN_REAL, .derive = derive_lambda, .hidden = TRUE },
  /* Where an iteration's time goes beside the parts' own work: the time
   * a part of each kind stood waiting for the other, at the halo and at
   * the sums (the most any part of the kind waited), over the iterations.
   * A GPU part waiting at the sums is held up by the CPU part or by the
   * coupling itself (issue 28, item 7). */
  [COL_GPU_HALO_WAIT] = { "gpu_halo_wait_us", N_("GPU part's wait for the halo, per iteration"), "us",
                          N_("Time the GPU part stood waiting for the CPU part's halo values"),
                          KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_GPU_SUMS_WAIT] = { "gpu_sums_wait_us", N_("GPU part's wait at the sums, per iteration"), "us",
                          N_("Time the GPU part stood waiting for the CPU part's partial sums"),
                          KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_CPU_HALO_WAIT] = { "cpu_halo_wait_us", N_("CPU part's wait for the halo, per iteration"), "us",
                          N_("Time the CPU part stood waiting for the GPU part's halo values"),
                          KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_CPU_SUMS_WAIT] = { "cpu_sums_wait_us", N_("CPU part's wait at the sums, per iteration"), "us",
                          N_("Time the CPU part stood waiting for the GPU part's partial sums"),
                          KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  /* On a virtual machine another guest can take the host's cores: a
   * spinning, pinned CPU part then runs many times slower than its
   * physics, which looks like the method's fault (issue 28: six of twelve
   * runs on the H200 host one afternoon). */
  [COL_STEAL] = { "cpu_steal_pct", N_("CPU time taken by the hypervisor"), "%",
                  N_("The share of the host's CPU time that the hypervisor gave to other guests during the "
                     "point (Linux's steal time; empty elsewhere, or for a point shorter than the clock's tick): "
                     "high, and the CPU part's times say little"),
                  KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
};

G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

static const KsColumnSpec device_info[] = {
  { "triad_gbs", N_("GPU part's triad bandwidth"), "GB/s", N_("STREAM triad on the GPU part's device, measured here") },
  { "cpu_triad_gbs", N_("CPU part's triad bandwidth"), "GB/s",
    N_("STREAM triad on the CPU part (the host's cores, or the CPU device), measured here: BW_CPUs") },
  { "lambda_b", N_("lambda_b = BW_GPU / BW_CPUs"), NULL, N_("The paper's estimate of the best lambda") },
  { "bound", N_("GPU+CPU bound"), NULL,
    N_("1 + 1/(n_GPU lambda_b) with n_GPU GPUs: the relative performance if both parts ran at their bandwidth "
       "with nothing lost") },
  { "gain_bound_pct", N_("bound on the hybrid gain"), "%",
    /* xgettext:no-c-format */
    N_("BW_CPUs / (BW_CPUs + BW_GPU): the share of the time the CPU can take at best (the paper: 3.8 % with "
       "8 GPUs)") },
  { "gpu_only", N_("GPU alone"), NULL, N_("The lower bound of Figs. 6-7: 1 by definition") },
  { "shared_memory", N_("parts share one memory"), NULL,
    N_("1 where the \"GPU\" is itself a CPU device: both parts then draw on the same memory, and no gain is "
       "possible") },
};

static const KsFigureSpec figures[] = {
  { .id = "relative-vs-lambda", .title = N_("Hybrid CG: performance relative to the GPU alone vs lambda"),
    .x = "split_lambda", .x_param = "lambda", .y = "relative", .series_by = "cells", .log_x = TRUE,
    .vline_info = "lambda_b", .vline_label = N_("lambda_b %.3g"),
    .hline_info = "bound", .hline_label = N_("GPU+CPU bound %.3g"),
    .hline2_info = "gpu_only", .hline2_label = N_("GPU alone") },
  { .id = "efficiency-vs-cells", .title = N_("GPU efficiency vs cells (the paper's Fig. 5)"), .x = "cells",
    .y = "gpu_efficiency", .log2_x = TRUE },
  { .id = "time-vs-lambda", .title = N_("Hybrid CG: time per iteration vs lambda"), .x = "split_lambda",
    .x_param = "lambda", .y = "iteration_us", .series_by = "cells", .log_x = TRUE, .log_y = TRUE,
    .vline_info = "lambda_b", .vline_label = N_("lambda_b %.3g") },
};

/* The paper's one-GPU numbers: two Xeon Gold 6240 and a V100 (lambda_b 3.2). */
static const KsPaperValue paper_values[] = {
  { "", "lambda_b", 3.2, NULL, N_("Table 2"), N_("V100 against two 18-core Xeon Gold 6240") },
  { "cells=19000000", "lambda_opt", 3.0, NULL, N_("Table 2"),
    /* xgettext:no-c-format */
    N_("1 GPU, 19 M cells (Delta P -1.0 %)") },
  { "cells=78000000", "lambda_opt", 3.1, NULL, N_("Table 2"),
    /* xgettext:no-c-format */
    N_("1 GPU, 78 M cells (Delta P -0.9 %)") },
  { "cells=19000000", "relative", 1.182, NULL, N_("Table 3"),
    /* xgettext:no-c-format */
    N_("1 GPU, 19 M cells: +18.2 % over the GPU alone") },
  { "cells=78000000", "relative", 1.259, NULL, N_("Table 3"),
    /* xgettext:no-c-format */
    N_("1 GPU, 78 M cells: +25.9 % over the GPU alone") },
  { "cells=19000000", "gpu_efficiency", 100, "%", N_("Fig. 5"), N_("A V100's efficiency peaks at 19 M cells per GPU") },
};

/* --- measuring ------------------------------------------------------------------ */

typedef struct {
  KsDevice      *device;
  KsDevice      *cpu_device;    /* NULL: the host part */
  KsHybridSetup  setup;         /* what every hybrid of the run shares */
  /* By GPU count: the solver, the mesh it is split for, and the GPUs
   * alone's time per iteration on that mesh. */
  KsHybridCg    *hybrids[KS_HYBRID_MAX_GPUS + 1];
  char          *split_for[KS_HYBRID_MAX_GPUS + 1];
  double         gpu_only_us[KS_HYBRID_MAX_GPUS + 1];
  double         gpu_only_iters[KS_HYBRID_MAX_GPUS + 1];
  KsHybridCg    *hybrid;        /* the point's */
  char          *mesh_key;      /* what a, b, x0 and centres were built for */
  double        *centres;
  KsCsr         *a;
  double        *b, *x0;
  guint64        n_cells;       /* the mesh's, on every rank (a, b, x0 and centres: rank 0's alone under mpirun) */
  double         triad_gbs, cpu_triad_gbs;
  guint         *given;         /* --partition file: each cell's part, as read */
  guint          n_given;
  char          *given_name;
} HybridState;

static void
hybrid_tear_down (gpointer state)
{
  HybridState *s = state;

  for (guint g = 0; g <= KS_HYBRID_MAX_GPUS; g++)
    {
      g_clear_pointer (&s->hybrids[g], ks_hybrid_cg_free);
      g_free (s->split_for[g]);
    }
  g_clear_pointer (&s->a, ks_csr_free);
  g_free (s->mesh_key);
  g_free (s->centres);
  g_free (s->b);
  g_free (s->x0);
  g_free (s->given);
  g_free (s->given_name);
  g_clear_object (&s->cpu_device);
  g_clear_object (&s->setup.gpu);
  g_clear_object (&s->device);
  g_free (s);
}

/* The first OpenCL CPU device (PoCL's); on a machine without a GPU the
 * GPU part may be that same device, through a queue of its own. */
static KsDevice *
find_cpu_device (GError **error)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();

  for (guint d = 0; d < ks_device_list_get_n_devices (list); d++)
    {
      KsDevice *device = ks_device_list_get_device (list, d);
      if (ks_device_get_backend (device) == KS_BACKEND_OPENCL &&
          ks_device_get_info (device)->type == KS_DEVICE_TYPE_CPU)
        return g_object_ref (device);
    }
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
               _("No OpenCL CPU device is installed for the CPU part (PoCL: Debian pocl-opencl-icd); "
                 "give --cpu host"));
  return NULL;
}

/* The devices of device's backend and kind, in the list's order (cuda:0,
 * cuda:1, ...): the GPUs of one node, which a rank or a part can have. */
static GPtrArray *
like_devices (KsDevice *device)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  GPtrArray *like = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint d = 0; d < ks_device_list_get_n_devices (list); d++)
    {
      KsDevice *other = ks_device_list_get_device (list, d);
      if (ks_device_get_backend (other) == ks_device_get_backend (device) &&
          ks_device_get_info (other)->type == ks_device_get_info (device)->type)
        g_ptr_array_add (like, g_object_ref (other));
    }
  return like;
}

/* Under mpirun, GPU rank r takes the r-th device like the one asked for;
 * in one process, the one asked for. */
static KsDevice *
rank_device (KsDevice *device, guint ranks_per_gpu)
{
  const KsHybridWorld *world = ks_hybrid_world_get ();
  g_autoptr(GPtrArray) like = NULL;
  guint index;

  if (world == NULL || world->rank == 0)
    return g_object_ref (device);
  like = like_devices (device);
  index = world->rank / ranks_per_gpu;
  return g_object_ref (index < like->len ? like->pdata[index] : device);
}

static gboolean
hybrid_check (const KsExperimentDesc *desc, KsDevice *device, const KsConfig *base, GError **error)
{
  const KsPrecision precision = ks_config_choice (base, P_PRECISION);
  const KsHybridWorld *world = ks_hybrid_world_get ();
  const guint gpu_ranks = (guint) ks_config_int (base, P_GPU_RANKS);
  const guint ranks_per_gpu = (guint) ks_config_int (base, P_RANKS_PER_GPU);

  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("The hybrid needs an OpenCL or CUDA device for its GPU part; the host runs the CPU part"));
      return FALSE;
    }
  if (ks_config_choice (base, P_PARTITION) == PARTITION_METIS && !ks_partition_have_metis ())
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("This build has no METIS (Debian libmetis-dev); give --partition geometric"));
      return FALSE;
    }
  if (world == NULL && gpu_ranks != 1)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--gpu-ranks %u needs a run under mpirun (mpirun -np R kernelscope-cli run heat-hybrid ...); "
                     "one process has one GPU part"), gpu_ranks);
      return FALSE;
    }
  if (world != NULL && gpu_ranks > world->n_ranks)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--gpu-ranks %u: the run has only %u ranks"), gpu_ranks, world->n_ranks);
      return FALSE;
    }
  if (world != NULL && gpu_ranks > 0)
    {
      g_autoptr(GPtrArray) like = like_devices (device);
      if (gpu_ranks > like->len * ranks_per_gpu)
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--gpu-ranks %u, but this computer has %u %s device(s) like %s: one GPU rank per GPU "
                         "(--ranks-per-gpu %u)"),
                       gpu_ranks, like->len, ks_backend_to_string (ks_device_get_backend (device)),
                       ks_device_get_name (device), ranks_per_gpu);
          return FALSE;
        }
    }
  if (ks_config_choice (base, P_CG) == CG_PIPELINED && (world == NULL || gpu_ranks > 0))
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("The pipelined CG runs on host parts only: start it under mpirun with --gpu-ranks 0, each rank "
                     "a CPU part"));
      return FALSE;
    }
  if (precision == KS_PRECISION_FLOAT && ks_config_real (base, P_TOL) < 1e-6)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("A float CG cannot reach a relative residual of %g (about 1e-6 at best): "
                     "give --tol 1e-5 or more, or --precision double"), ks_config_real (base, P_TOL));
      return FALSE;
    }
  return TRUE;
}

static gpointer
hybrid_set_up (const KsExperimentDesc *desc, KsDevice *device, const KsConfig *base,
               GCancellable *cancellable, GError **error)
{
  HybridState *s = g_new0 (HybridState, 1);
  const KsHybridWorld *world = ks_hybrid_world_get ();
  const guint gpu_ranks = (guint) ks_config_int (base, P_GPU_RANKS);
  g_autoptr(KsDevice) mine = rank_device (device, (guint) ks_config_int (base, P_RANKS_PER_GPU));
  KsHybridSetup setup = { mine, NULL, KS_PRECISION_DOUBLE, KS_PARTITION_GEOMETRIC, gpu_ranks };
  KsBandwidth bw = { 0 };
  g_autoptr(GError) local = NULL;

  s->device = g_object_ref (device);
  /* A rank that runs a CPU part opens no device part. */
  if (world != NULL && world->rank >= gpu_ranks)
    setup.gpu = NULL;
  setup.precision = ks_config_choice (base, P_PRECISION);
  if (ks_config_choice (base, P_PARTITION) == PARTITION_METIS)
    setup.method = KS_PARTITION_METIS;
  /* Every rank reads the file itself (it is small beside the mesh), so a
   * malformed one stops every rank alike, before anything is measured. */
  if (ks_config_choice (base, P_PARTITION) == PARTITION_FILE)
    {
      const char *path = ks_config_text (base, P_PARTITION_FILE);
      if (!ks_part_file_read (path, 2 * KS_MESH_MAX_GENERATED_CELLS, &s->given, &s->n_given, error))
        {
          hybrid_tear_down (s);
          return NULL;
        }
      s->given_name = g_filename_display_basename (path);
    }
  if (ks_config_choice (base, P_CPU) == CPU_DEVICE &&
      !(s->cpu_device = find_cpu_device (error)))
    {
      hybrid_tear_down (s);
      return NULL;
    }
  setup.cpu = s->cpu_device;
  setup.pipelined = ks_config_choice (base, P_CG) == CG_PIPELINED;
  s->setup = setup;
  s->setup.gpu = setup.gpu ? g_object_ref (setup.gpu) : NULL;
  /* The paper's lambda_b from both parts' bandwidths, measured now.  Under
   * mpirun the CPU parts are ranks of one core or a few each (mpirun -x
   * OMP_NUM_THREADS): they probe at once and their triads add up to the
   * CPU side's bandwidth; rank 0 probes its GPU after them, alone. */
  if (world == NULL && s->cpu_device == NULL)
    {
      /* One process, the host's cores as the CPU part: the same figures
       * as the live heat page's (ks_bench_balance_bandwidths). */
      if (!ks_bench_balance_bandwidths (device, &s->triad_gbs, &s->cpu_triad_gbs, &local))
        g_debug ("no triad bandwidth for lambda_b: %s", local->message);
      g_clear_error (&local);
      return s;
    }
  if (world == NULL || world->rank >= gpu_ranks)
    {
      if (s->cpu_device != NULL)
        {
          if (ks_bench_bandwidth (s->cpu_device, 0, 5, &bw, &local))
            s->cpu_triad_gbs = bw.triad_gbs;
        }
      else if (ks_bench_host_bandwidth (0, 5, &bw, &local))
        s->cpu_triad_gbs = bw.triad_gbs;
      if (local != NULL)
        g_debug ("no triad bandwidth for the CPU part: %s", local->message);
      g_clear_error (&local);
    }
  if (world != NULL && !world->sum (world->data, &s->cpu_triad_gbs, 1, error))
    {
      hybrid_tear_down (s);
      return NULL;
    }
  if (world != NULL && world->rank > 0)
    return s;
  s->triad_gbs = ks_device_get_bandwidth (device);
  if (!(s->triad_gbs > 0) && ks_bench_bandwidth (device, 0, 5, &bw, &local))
    s->triad_gbs = bw.triad_gbs;
  return s;
}

static void
hybrid_describe_device (gpointer state, const KsConfig *base, KsRunDevice *out)
{
  HybridState *s = state;
  const double lambda_b = ks_balance_lambda_b (s->triad_gbs, s->cpu_triad_gbs);
  /* Under mpirun the GPU ranks' GPUs together against the CPU ranks:
   * 1 + 1 / (n_GPU lambda_b), BW_CPUs / (BW_CPUs + n_GPU BW_GPU). */
  const guint n_gpu = ks_hybrid_world_get () != NULL ? MAX (s->setup.gpu_ranks, 1) : 1;

  if (s->triad_gbs > 0)
    ks_run_device_set_info (out, "triad_gbs", s->triad_gbs);
  if (s->cpu_triad_gbs > 0)
    ks_run_device_set_info (out, "cpu_triad_gbs", s->cpu_triad_gbs);
  if (!isnan (lambda_b))
    {
      ks_run_device_set_info (out, "lambda_b", lambda_b);
      ks_run_device_set_info (out, "bound", 1 + 1 / (n_gpu * lambda_b));
      ks_run_device_set_info (out, "gain_bound_pct",
                              100 * ks_balance_gain_bound (s->triad_gbs, s->cpu_triad_gbs, n_gpu));
    }
  ks_run_device_set_info (out, "gpu_only", 1.0);
  ks_run_device_set_info (out, "shared_memory", ks_device_get_info (s->device)->type == KS_DEVICE_TYPE_CPU);
}

/* One solve from the same start; its time per iteration in us. */
static gboolean
solve_with (HybridState *s, KsHybridCg *hybrid, const KsConfig *point, KsHybridResult *res, GError **error)
{
  const KsCgOptions options = { ks_config_real (point, P_TOL), 100000 };
  g_autoptr(GError) local = NULL;

  if (ks_hybrid_cg_solve_system (hybrid, &options, NULL, res, &local))
    return TRUE;
  /* Not converging says something about this mesh and tolerance, not
   * about the device: the sweep goes on. */
  if (local->domain == KS_SOLVER_ERROR)
    g_set_error_literal (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, local->message);
  else
    g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* The mesh of key and the first time step's system on it, built here. */
static gboolean
build_here (HybridState *s, const char *key, GCancellable *cancellable, GError **error)
{
  g_autoptr(KsMesh) mesh = NULL;
  g_autoptr(KsHeat) heat = NULL;
  KsHeatParams p;

  if (!(mesh = ks_mesh_new_from_spec (key, cancellable, error)))
    return FALSE;
  ks_heat_params_init (&p);
  if (!(heat = ks_heat_new (mesh, &p, error)))
    return FALSE;
  s->b = g_new (double, mesh->n_cells);
  s->x0 = g_memdup2 (ks_heat_get_temperature (heat), sizeof (double) * mesh->n_cells);
  s->a = ks_heat_assemble (heat, s->x0, s->x0, s->b);
  s->centres = g_new (double, 2 * (gsize) mesh->n_cells);
  for (guint c = 0; c < mesh->n_cells; c++)
    {
      s->centres[2 * c] = mesh->cx[c];
      s->centres[2 * c + 1] = mesh->cy[c];
    }
  return TRUE;
}

/* Under mpirun: rank 0 alone builds the system (the solver sends each
 * rank its part: ks_hybrid_cg_set_system); the others learn its size.  A
 * failure on rank 0 reaches every rank as this point's error. */
static gboolean
build_on_rank0 (HybridState *s, const KsHybridWorld *w, const char *key, GCancellable *cancellable,
                GError **error)
{
  guint64 rows = 0;   /* 0: rank 0 failed */
  g_autoptr(GError) local = NULL;

  if (w->rank == 0 && build_here (s, key, cancellable, &local))
    rows = s->a->n_rows;
  if (!w->broadcast (w->data, &rows, sizeof rows, error))
    return FALSE;
  if (rows == 0)
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED,
                     _("Rank 0 could not build the mesh %s (it says why)"), key);
      return FALSE;
    }
  s->n_cells = rows;
  return TRUE;
}

/* The mesh and the first time step's system on it, once per mesh. */
static gboolean
build_system (HybridState *s, const KsConfig *point, GCancellable *cancellable, GError **error)
{
  g_autofree char *key = g_strdup_printf ("%s-square:%" G_GINT64_FORMAT, ks_config_text (point, P_KIND),
                                          ks_config_int (point, P_CELLS));
  const KsHybridWorld *world = ks_hybrid_world_get ();
  gboolean ok;

  if (g_strcmp0 (key, s->mesh_key) == 0)
    return TRUE;
  g_clear_pointer (&s->mesh_key, g_free);
  g_clear_pointer (&s->a, ks_csr_free);
  g_clear_pointer (&s->b, g_free);
  g_clear_pointer (&s->x0, g_free);
  g_clear_pointer (&s->centres, g_free);
  if (world != NULL && world->n_ranks > 1 && world->broadcast != NULL && world->send != NULL)
    ok = build_on_rank0 (s, world, key, cancellable, error);
  else if ((ok = build_here (s, key, cancellable, error)))
    s->n_cells = s->a->n_rows;
  if (ok)
    s->mesh_key = g_steal_pointer (&key);
  return ok;
}

static gboolean
solve_once (HybridState *s, const KsConfig *point, KsHybridResult *res, GError **error)
{
  return solve_with (s, s->hybrid, point, res, error);
}

/* The median time per iteration of three solves on hybrid after a
 * warm-up (the engine warms up every point, but the first launches on a
 * new size pay for compiling and first touches), and their iterations. */
static gboolean
time_solves (HybridState *s, KsHybridCg *hybrid, const KsConfig *point, double us_iters[2], GError **error)
{
  double times[3];

  for (guint r = 0; r <= G_N_ELEMENTS (times); r++)
    {
      KsHybridResult res;

      if (!solve_with (s, hybrid, point, &res, error))
        return FALSE;
      if (r > 0)
        times[r - 1] = res.iterations > 0 ? 1e6 * res.iterate_s / res.iterations : NAN;
      us_iters[1] = res.iterations;
    }
  us_iters[0] = ks_bench_median (times, G_N_ELEMENTS (times));
  return TRUE;
}

/* Under mpirun: the GPUs alone, as the paper's GPU-only run, which has no
 * CPU ranks.  One GPU rank: rank 0's own solver in no world; several: the
 * GPU ranks' own world (MPI_Comm_split), all cells on them.  Timed with the
 * CPU ranks joining every sum at lambda inf, it would carry their
 * allreduces (389.7 against 322 us an iteration at 4 M cells, one GPU rank
 * beside 15 CPU ranks on the H200).  The other ranks wait for rank 0's
 * time and iterations at the broadcast; NAN there is a failure, this
 * point's error on every rank. */
static gboolean
time_gpu_alone (HybridState *s, const KsHybridWorld *w, const KsConfig *point, double us_iters[2], GError **error)
{
  const guint g = s->setup.gpu_ranks;
  const KsHybridWorld *gpus = NULL;
  g_autoptr(GError) local = NULL;

  us_iters[0] = us_iters[1] = NAN;
  if (g > 1 && (gpus = w->gpus_world (w->data, g, &local)) == NULL && w->rank < g)
    w->abort (w->data, local);
  if (w->rank < g)
    {
      KsHybridSetup setup = s->setup;
      KsHybridCg *alone;

      setup.alone = g == 1;
      setup.world = gpus;
      setup.cpu = NULL;
      if ((alone = ks_hybrid_cg_new (&setup, &local)) != NULL &&
          ks_hybrid_cg_set_system (alone, s->a, s->b, s->x0, s->centres, INFINITY, &local))
        time_solves (s, alone, point, us_iters, &local);
      g_clear_pointer (&alone, ks_hybrid_cg_free);
      /* A GPU rank failing alone would leave the others in a sum. */
      if (local != NULL && gpus != NULL && local->domain != KS_SOLVER_ERROR)
        gpus->abort (gpus->data, local);
    }
  if (!w->broadcast (w->data, us_iters, 2 * sizeof *us_iters, error))
    return FALSE;
  if (isnan (us_iters[0]))
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error_literal (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED,
                             _("Rank 0 could not time its GPU alone (it says why)"));
      return FALSE;
    }
  return TRUE;
}

/* The solver over gpus GPUs, split for this mesh, with the GPUs alone's
 * time per iteration on it. */
static gboolean
use_gpus (HybridState *s, const KsConfig *point, guint gpus, GError **error)
{
  const KsHybridWorld *world = ks_hybrid_world_get ();
  double us_iters[2];
  gboolean separate;

  if (s->hybrids[gpus] == NULL)
    {
      KsHybridSetup setup = s->setup;
      g_autoptr(GPtrArray) others = like_devices (s->device);
      KsDevice *more[KS_HYBRID_MAX_GPUS] = { NULL };
      guint g = 0;

      /* The chosen device first, then the others like it. */
      for (guint i = 0; i < others->len && g + 1 < gpus; i++)
        if (g_strcmp0 (ks_device_get_id (others->pdata[i]), ks_device_get_id (s->device)) != 0)
          more[g++] = others->pdata[i];
      if (g + 1 < gpus)
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED,
                       _("%u GPUs asked for; this computer has %u like %s"), gpus, g + 1,
                       ks_device_get_name (s->device));
          return FALSE;
        }
      setup.more_gpus = more;
      setup.n_more_gpus = gpus - 1;
      if (!(s->hybrids[gpus] = ks_hybrid_cg_new (&setup, error)))
        return FALSE;
    }
  s->hybrid = s->hybrids[gpus];
  if (g_strcmp0 (s->split_for[gpus], s->mesh_key) == 0)
    return TRUE;
  g_clear_pointer (&s->split_for[gpus], g_free);
  /* Under mpirun the GPUs alone are timed by a solver of their own, so
   * this one is split at the point's lambda at once: split at inf first,
   * rank 0 would split and send every part twice (a minute at 33.6 M cells). */
  separate = world != NULL && world->n_ranks > 1 && world->broadcast != NULL && s->setup.gpu_ranks >= 1 &&
             (s->setup.gpu_ranks == 1 || world->gpus_world != NULL);
  if (!ks_hybrid_cg_set_system (s->hybrid, s->a, s->b, s->x0, s->centres,
                                separate && s->given == NULL ? ks_config_real (point, P_LAMBDA) : INFINITY,
                                error))
    return FALSE;
  if (separate)
    {
      if (!time_gpu_alone (s, world, point, us_iters, error))
        return FALSE;
    }
  else if (!time_solves (s, s->hybrid, point, us_iters, error))
    return FALSE;
  s->gpu_only_us[gpus] = us_iters[0];
  s->gpu_only_iters[gpus] = us_iters[1];
  s->split_for[gpus] = g_strdup (s->mesh_key);
  return TRUE;
}

/* The split the partition file gives, checked against this point's mesh
 * and parts: a file made for another size refuses this point only. */
static gboolean
split_as_given (HybridState *s, guint gpus, GError **error)
{
  const KsHybridWorld *world = ks_hybrid_world_get ();
  const guint n_parts = world ? world->n_ranks : gpus + 1;
  g_autoptr(GError) local = NULL;

  if (!ks_part_file_check (s->given, s->n_given, s->given_name, s->n_cells, n_parts, &local))
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, "%s (%s)", local->message,
                   world ? _("under mpirun part r is rank r's")
                         : _("in one process parts 0 to G-1 are the G GPUs' and part G the CPU's"));
      return FALSE;
    }
  return ks_hybrid_cg_set_parts (s->hybrid, s->given, s->n_given, error);
}

/* --save-partition: the split just made, as --partition-file reads it;
 * under mpirun rank 0 writes it (every rank has the whole split). */
static gboolean
save_partition (HybridState *s, const char *path, GError **error)
{
  const KsHybridWorld *world = ks_hybrid_world_get ();
  g_autoptr(GError) local = NULL;

  if (path == NULL || *path == '\0' || (world != NULL && world->rank != 0))
    return TRUE;
  if (ks_part_file_write (path, ks_hybrid_cg_get_part_of (s->hybrid), s->n_cells, &local))
    return TRUE;
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, _("The partition was not saved: %s"),
               local->message);
  return FALSE;
}

static gboolean
hybrid_prepare (gpointer state, const KsConfig *point, GCancellable *cancellable, GError **error)
{
  HybridState *s = state;
  const guint gpus = (guint) ks_config_int (point, P_GPUS);

  if (ks_hybrid_world_get () != NULL && gpus != 1)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("Under mpirun each GPU is a rank of its own: give --gpu-ranks, not --gpus"));
      return FALSE;
    }
  if (!build_system (s, point, cancellable, error) || !use_gpus (s, point, gpus, error))
    return FALSE;
  if (s->given != NULL ? !split_as_given (s, gpus, error)
                       : !ks_hybrid_cg_set_lambda (s->hybrid, ks_config_real (point, P_LAMBDA), error))
    return FALSE;
  return save_partition (s, ks_config_text (point, P_SAVE_PARTITION), error);
}

/* Seconds of a solve as microseconds an iteration (NAN: no such part). */
static double
per_iteration (double seconds, guint iterations)
{
  return iterations > 0 ? 1e6 * seconds / iterations : NAN;
}

static gboolean
hybrid_measure (gpointer state, const KsConfig *point, double *values, GCancellable *cancellable, GError **error)
{
  HybridState *s = state;
  const guint gpus = (guint) ks_config_int (point, P_GPUS);
  KsHybridResult res;
  guint64 total0 = 0, steal0 = 0, total1 = 0, steal1 = 0;
  gboolean have_steal;
  double us;

  have_steal = ks_host_cpu_ticks (&total0, &steal0);
  if (!solve_once (s, point, &res, error))
    return FALSE;
  have_steal = have_steal && ks_host_cpu_ticks (&total1, &steal1) && total1 > total0;
  values[COL_STEAL] = have_steal ? 100.0 * (double) (steal1 - steal0) / (double) (total1 - total0) : NAN;
  us = res.iterations > 0 ? 1e6 * res.iterate_s / res.iterations : NAN;
  values[COL_ITER_US] = us;
  values[COL_REL] = s->gpu_only_us[gpus] / us;
  values[COL_PERF] = s->n_cells / us;
  values[COL_GPU_ONLY] = s->gpu_only_us[gpus];
  values[COL_GPU_ONLY_ITERS] = s->gpu_only_iters[gpus];
  values[COL_GPU_CELLS] = ks_hybrid_cg_get_cells (s->hybrid, KS_HYBRID_GPU);
  values[COL_CPU_CELLS] = ks_hybrid_cg_get_cells (s->hybrid, KS_HYBRID_CPU);
  values[COL_SHARE] = 100.0 * ks_hybrid_cg_get_cells (s->hybrid, KS_HYBRID_GPU) / s->n_cells;
  values[COL_CUT] = ks_hybrid_cg_get_edge_cut (s->hybrid);
  values[COL_ITERS] = res.iterations;
  values[COL_BANDWIDTH] = res.iterate_s > 0 ? res.bytes / res.iterate_s / 1e9 : NAN;
  values[COL_MESH_CELLS] = s->n_cells;
  values[COL_GPU_HALO_WAIT] = per_iteration (res.iterate_halo_s[KS_HYBRID_GPU], res.iterations);
  values[COL_GPU_SUMS_WAIT] = per_iteration (res.iterate_sums_s[KS_HYBRID_GPU], res.iterations);
  values[COL_CPU_HALO_WAIT] = per_iteration (res.iterate_halo_s[KS_HYBRID_CPU], res.iterations);
  values[COL_CPU_SUMS_WAIT] = per_iteration (res.iterate_sums_s[KS_HYBRID_CPU], res.iterations);
  return TRUE;
}

const KsExperimentDesc ks_exp_heat_hybrid = {
  .id = "heat-hybrid",
  .title = N_("Heat: hybrid CPU+GPU CG vs lambda"),
  .paper = "004",
  .paper_title = N_("Anisov, Vaziev & Ushakov (2020): 2D heat equation, CG on CPU+GPU"),
  .summary = N_("The CG split between the GPU and the CPU by lambda: performance relative to the GPU alone "
                "(Figs. 6-7, Tables 2-3)"),
  /* xgettext:no-c-format */
  .claim = N_("The CG is memory-bound, so the best split gives each part cells in proportion to its "
              "memory bandwidth: lambda_b = BW_GPU / BW_CPUs (the paper: 3.2 for a V100 against two Xeon Gold "
              "6240, within 10 % of the measured optimum), and the CPU can add at most BW_CPUs / BW_GPU to the "
              "GPU's performance (the paper measured +18 to +26 % with one GPU).  Today's GPUs have 20 to 50 "
              "times their host's bandwidth: look at how little is left to gain, and whether the exchange and "
              "the sums every iteration eat it."),
  .example = "--cells 2^16,2^18 --lambda 1,2,4,8,16,32,64 --plot hybrid.png",
  .size_param = "cells", .size_exponent = 1.5,   /* CG's iterations grow as the square root */
  .backends = KS_BACKENDS_GPU,
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .paper_values = paper_values, .n_paper_values = G_N_ELEMENTS (paper_values),
  .device_info = device_info, .n_device_info = G_N_ELEMENTS (device_info),
  .check = hybrid_check,
  .set_up = hybrid_set_up,
  .prepare = hybrid_prepare,
  .measure_one_rep = hybrid_measure,
  .describe_device = hybrid_describe_device,
  .tear_down = hybrid_tear_down,
  .summarize = ks_heat_hybrid_summarize, .judge = ks_heat_hybrid_judge,
};
