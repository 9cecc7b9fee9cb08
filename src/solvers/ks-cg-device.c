/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cg-device.c: conjugate gradients on an OpenCL or CUDA device through
 * the compute seam, with the kernels of kernels/heat-cg.cl (see there for
 * how the scalars stay on the device). */
#define G_LOG_DOMAIN "ks-cg"

#include "ks-cg.h"
#include "ks-cg-private.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"
#include "ks-solver-error.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* As in heat-cg.cl. */
enum { S_RHO, S_PQ, S_ALPHA, S_BETA, S_BB, S_TOL2, S_THRESH, N_SCALARS };
enum { ST_DONE, ST_ACTIVE, ST_ITERS, ST_BREAKDOWN, ST_COUNT, N_STATE };
enum { MODE_BB, MODE_INIT, MODE_ALPHA, MODE_BETA };

enum { K_SPMV, K_DOT, K_REDUCE, K_INIT, K_AXPY, K_XPAY, K_SPMV_DOT, K_UPDATE_R, K_UPDATE_XP,
       K_SPMV_DOT_ALPHA, K_UPDATE_R_BETA, N_KERNELS };
static const char * const kernel_names[N_KERNELS] = {
  "cg_spmv", "cg_dot", "cg_reduce", "cg_init", "cg_axpy", "cg_xpay",
  "cg_spmv_dot", "cg_update_r", "cg_update_xp", "cg_spmv_dot_alpha", "cg_update_r_beta",
};

/* How often the host looks at the state: every launch after convergence is
 * a no-op, so a few wasted iterations cost less than a read per iteration. */
#define CHECK_EVERY 8

struct _KsCgDevice {
  KsDevice    *device;
  KsPrecision  precision;
  KsCgVariant  variant;
  gsize        real_size;
  KsRuntime   *rt;
  KsProgram   *program;
  KsKernel    *k[N_KERNELS];
  gsize        local;       /* the reductions' group size */

  /* The matrix on the device; its pattern kept to see whether it changed. */
  guint        n;
  guint        nnz;
  guint       *row_ptr;
  guint       *col;
  double       mean_row;
  guint        groups;
  gboolean     last_group;  /* the fused dot products end in their launch */
  guint        hist_len;
  KsBuffer    *d_row_ptr, *d_col, *d_val;
  KsBuffer    *d_x, *d_b, *d_r, *d_p, *d_q;
  KsBuffer    *d_partial, *d_scalars, *d_state, *d_hist;
  void        *stage;       /* a host vector in the device's precision */
  const char  *options;     /* the programs' build options (ks_cg_program_options) */
  gboolean     use_graph;   /* CUDA: CHECK_EVERY iterations replayed from one graph */
  KsGraph     *graph;       /* recorded on first use; dropped when a buffer it names changes */
  GHashTable  *companions;  /* source name -> KsProgram built with options */
};

void
ks_cg_device_free (KsCgDevice *cg)
{
  KsBuffer **buffers[] = { &cg->d_row_ptr, &cg->d_col, &cg->d_val, &cg->d_x, &cg->d_b, &cg->d_r,
                           &cg->d_p, &cg->d_q, &cg->d_partial, &cg->d_scalars, &cg->d_state, &cg->d_hist };

  if (cg == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], ks_buffer_unref);
  for (guint i = 0; i < N_KERNELS; i++)
    g_clear_pointer (&cg->k[i], ks_kernel_unref);
  g_clear_pointer (&cg->program, ks_program_unref);
  g_clear_pointer (&cg->companions, g_hash_table_unref);
  g_clear_pointer (&cg->graph, ks_graph_free);
  g_clear_pointer (&cg->rt, ks_runtime_unref);
  g_clear_object (&cg->device);
  g_free (cg->row_ptr);
  g_free (cg->col);
  g_free (cg->stage);
  g_free (cg);
}

/* Whether a GPU-only way of the fused CG is taken on device: on GPUs,
 * unless the knob (an environment variable, 0|1) says otherwise, for an
 * A/B on a GPU and for the tests that run it on PoCL or Oclgrind. */
static gboolean
gpu_way (KsDevice *device, const char *knob)
{
  const char *env = g_getenv (knob);

  if (env != NULL && *env != '\0')
    return g_strcmp0 (env, "0") != 0;
  return ks_device_get_info (device)->type == KS_DEVICE_TYPE_GPU;
}

/* KS_CG_BATCHED: the r update's batches (heat-cg.cl, CG_BATCH), on PoCL in
 * /heat/cg-batches. */
const char *
ks_cg_program_options (KsDevice *device, KsPrecision precision)
{
  const gboolean gpu = gpu_way (device, "KS_CG_BATCHED");

  if (precision == KS_PRECISION_DOUBLE)
    return gpu ? "-DKS_REAL=double -DKS_FP64 -DKS_GPU" : "-DKS_REAL=double -DKS_FP64";
  return gpu ? "-DKS_REAL=float -DKS_GPU" : "-DKS_REAL=float";
}

KsCgDevice *
ks_cg_device_new (KsDevice *device, KsPrecision precision, KsCgVariant variant, GError **error)
{
  g_autoptr(KsCgDevice) cg = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s has no double precision (cl_khr_fp64); choose float"), ks_device_get_name (device));
      return NULL;
    }
  cg = g_new0 (KsCgDevice, 1);
  cg->device = g_object_ref (device);
  cg->precision = precision;
  cg->variant = variant;
  cg->real_size = ks_precision_size (precision);
  cg->options = ks_cg_program_options (device, precision);
  if (!(cg->rt = ks_runtime_new (device, error)) ||
      !(cg->program = ks_runtime_build_program (cg->rt, "heat-cg.cl", cg->options, error)))
    return NULL;
  cg->local = 256;
  /* The fused dot products finished by the last group of their launch
   * (heat-cg.cl, group_partial_last) rather than in a launch of one group:
   * on GPUs, where a launch is the cost it saves; PoCL 3.1 runs that
   * kernel wrongly.  KS_CG_LAST_GROUP=1 in the Oclgrind test. */
  cg->last_group = gpu_way (device, "KS_CG_LAST_GROUP");
  for (guint i = 0; i < N_KERNELS; i++)
    {
      if (!(cg->k[i] = ks_program_create_kernel (cg->program, kernel_names[i], error)))
        return NULL;
      if (ks_kernel_get_max_work_group_size (cg->k[i]) > 0)
        cg->local = MIN (cg->local, ks_kernel_get_max_work_group_size (cg->k[i]));
    }
  /* The fused iteration's kernels wait for their predecessor in their
   * source (heat-cg.cl, CG_FOLLOW): on CUDA each may start while the one
   * before ends. */
  ks_kernel_set_waits_previous (cg->k[K_SPMV_DOT_ALPHA], TRUE);
  ks_kernel_set_waits_previous (cg->k[K_UPDATE_R_BETA], TRUE);
  ks_kernel_set_waits_previous (cg->k[K_UPDATE_XP], TRUE);
  /* No timing events: a CG iteration is a handful of short launches, and
   * the heat step is timed on the host as a whole. */
  ks_runtime_set_timing (cg->rt, FALSE);
  return g_steal_pointer (&cg);
}

/* src (n doubles) into the device's precision in cg->stage. */
static const void *
to_real (KsCgDevice *cg, const double *src, gsize n)
{
  if (cg->precision == KS_PRECISION_DOUBLE)
    return src;
  for (gsize i = 0; i < n; i++)
    ((float *) cg->stage)[i] = (float) src[i];
  return cg->stage;
}

static gboolean
alloc (KsCgDevice *cg, KsBuffer **buffer, gsize size, GError **error)
{
  g_clear_pointer (buffer, ks_buffer_unref);
  *buffer = ks_runtime_alloc (cg->rt, MAX (size, 4), error);
  return *buffer != NULL;
}

/* The grid of the kernels that stride over the rows and leave one partial
 * sum per group: on a GPU 1024 items per compute unit at most, half of
 * what an NVIDIA multiprocessor holds.  Measured on the H200 (bench cg, fp64,
 * 16.8 M rows, local 256): 4 or 5 groups a multiprocessor run the fused
 * CG at 0.95-1.0 ms an iteration, 6 to 8 at 1.9 ms, on CUDA and NVIDIA's
 * OpenCL alike; ncu says why: with the multiprocessor full, the lines of
 * col and val that its warps' rows are in the middle of overflow the L1
 * that the groups' local memory leaves (L1 hits 74 % -> 40 %, L2 reads
 * 2.4x).  Fewer groups also leave cg_reduce fewer partial sums.  At 1.05
 * and 4.2 M rows 1024 items a unit is the best too: 512, 768, 1536 and
 * 2048 ran the graph at 0.091, 0.080, 0.079 and 0.093 ms an iteration
 * against 0.076 at 1.05 M rows (data/reference/bench/h200-pdl-2026-11-29.txt,
 * tests/device/cg-groups-ab.sh). */
static guint
reduction_groups (const KsCgDevice *cg, gsize n)
{
  const guint64 cus = MAX (ks_device_get_info (cg->device)->compute_units, 1);
  /* KS_CG_ITEMS_PER_CU overrides the 1024 (an A/B). */
  const char *env = g_getenv ("KS_CG_ITEMS_PER_CU");
  const guint64 items = env ? g_ascii_strtoull (env, NULL, 10) : 1024;
  /* Fewer items than a group a unit make fewer groups (one at least). */
  const guint64 groups = MAX (cus * items / cg->local, 1);

  /* A CPU (PoCL) runs one group a core at a time: there many groups
   * balance the cores (16-core Xeon, 1 M rows: fused 1.89 ms an iteration
   * with 1024 groups, 3.72 with 64), unless the knob says otherwise (the
   * tests' way to give each item many rows on a small matrix). */
  const gboolean cpu = ks_device_get_info (cg->device)->type == KS_DEVICE_TYPE_CPU;
  const guint64 most = cpu && env == NULL ? 1024 : groups;

  return (guint) MAX (MIN ((n + cg->local - 1) / cg->local, most), 1);
}

gboolean
ks_cg_device_set_pattern (KsCgDevice *cg, const KsCsr *a, GError **error)
{
  g_return_val_if_fail (cg != NULL && a != NULL, FALSE);
  g_return_val_if_fail (a->n_rows == a->n_cols, FALSE);

  if (a->nnz > G_MAXINT32 || a->n_rows == 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The device CG takes 1 to %d rows and non-zeros (32-bit indices); this matrix has %u rows and %u non-zeros"),
                   G_MAXINT32, a->n_rows, a->nnz);
      return FALSE;
    }
  if (a->n_rows != cg->n || a->nnz != cg->nnz ||
      memcmp (a->row_ptr, cg->row_ptr, sizeof (guint) * (a->n_rows + 1)) != 0 ||
      memcmp (a->col, cg->col, sizeof (guint) * a->nnz) != 0)
    {
      const gsize n = a->n_rows, rs = cg->real_size;

      cg->n = 0;  /* invalid until every upload succeeded */
      g_clear_pointer (&cg->graph, ks_graph_free);
      g_clear_pointer (&cg->row_ptr, g_free);
      g_clear_pointer (&cg->col, g_free);
      g_free (cg->stage);
      cg->stage = g_malloc (MAX (MAX (n, a->nnz), N_SCALARS) * rs);
      cg->groups = reduction_groups (cg, n);
      if (!alloc (cg, &cg->d_row_ptr, sizeof (guint) * (n + 1), error) ||
          !alloc (cg, &cg->d_col, sizeof (guint) * a->nnz, error) ||
          !alloc (cg, &cg->d_val, rs * a->nnz, error) ||
          !alloc (cg, &cg->d_x, rs * n, error) || !alloc (cg, &cg->d_b, rs * n, error) ||
          !alloc (cg, &cg->d_r, rs * n, error) || !alloc (cg, &cg->d_p, rs * n, error) ||
          !alloc (cg, &cg->d_q, rs * n, error) ||
          !alloc (cg, &cg->d_partial, rs * cg->groups, error) ||
          !alloc (cg, &cg->d_scalars, rs * N_SCALARS, error) ||
          !alloc (cg, &cg->d_state, sizeof (gint32) * N_STATE, error) ||
          !ks_runtime_write (cg->rt, cg->d_row_ptr, 0, sizeof (guint) * (n + 1), a->row_ptr, error) ||
          !ks_runtime_write (cg->rt, cg->d_col, 0, sizeof (guint) * a->nnz, a->col, error))
        return FALSE;
      cg->row_ptr = g_memdup2 (a->row_ptr, sizeof (guint) * (n + 1));
      cg->col = g_memdup2 (a->col, sizeof (guint) * MAX (a->nnz, 1));
      cg->n = a->n_rows;
      cg->nnz = a->nnz;
      cg->mean_row = ks_csr_mean_row (a);
    }
  return TRUE;
}

gboolean
ks_cg_device_set_matrix (KsCgDevice *cg, const KsCsr *a, GError **error)
{
  g_return_val_if_fail (cg != NULL && a != NULL, FALSE);
  return ks_cg_device_set_pattern (cg, a, error) &&
         ks_runtime_write (cg->rt, cg->d_val, 0, cg->real_size * a->nnz, to_real (cg, a->val, a->nnz), error);
}

KsRuntime *
ks_cg_device_get_runtime (KsCgDevice *cg)
{
  g_return_val_if_fail (cg != NULL, NULL);
  return cg->rt;
}

KsPrecision
ks_cg_device_get_precision (KsCgDevice *cg)
{
  g_return_val_if_fail (cg != NULL, KS_PRECISION_DOUBLE);
  return cg->precision;
}

KsBuffer *
ks_cg_device_get_buffer (KsCgDevice *cg, KsCgBuffer which)
{
  g_return_val_if_fail (cg != NULL && cg->n > 0, NULL);
  switch (which)
    {
    case KS_CG_BUFFER_ROW_PTR: return cg->d_row_ptr;
    case KS_CG_BUFFER_COL: return cg->d_col;
    case KS_CG_BUFFER_VAL: return cg->d_val;
    case KS_CG_BUFFER_B: return cg->d_b;
    case KS_CG_BUFFER_X: return cg->d_x;
    default: g_return_val_if_reached (NULL);
    }
}

KsProgram *
ks_cg_device_get_program (KsCgDevice *cg, const char *source, GError **error)
{
  KsProgram *program;

  g_return_val_if_fail (cg != NULL && source != NULL, NULL);
  if (cg->companions == NULL)
    cg->companions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ks_program_unref);
  if ((program = g_hash_table_lookup (cg->companions, source)) != NULL)
    return program;
  if (!(program = ks_runtime_build_program (cg->rt, source, cg->options, error)))
    return NULL;
  g_hash_table_insert (cg->companions, g_strdup (source), program);
  return program;
}

/* --- launches ------------------------------------------------------------------ */

/* One item per row, the driver's group size. */
static gboolean
launch_rows (KsCgDevice *cg, guint kernel, GError **error)
{
  const gsize global = cg->n;
  return ks_runtime_launch (cg->rt, cg->k[kernel], 1, &global, NULL, error);
}

/* The reductions' grid: groups x local, or one group. */
static gboolean
launch_groups (KsCgDevice *cg, guint kernel, guint groups, GError **error)
{
  const gsize global = (gsize) groups * cg->local;
  return ks_runtime_launch (cg->rt, cg->k[kernel], 1, &global, &cg->local, error);
}

static gboolean
reduce (KsCgDevice *cg, int mode, GError **error)
{
  return ks_kernel_set_args (cg->k[K_REDUCE], error, KS_ARG_INT, (int) cg->groups,
                             KS_ARG_BUFFER, cg->d_partial, KS_ARG_BUFFER, cg->d_scalars,
                             KS_ARG_BUFFER, cg->d_state, KS_ARG_BUFFER, cg->d_hist, KS_ARG_INT, mode,
                             KS_ARG_LOCAL, cg->local * cg->real_size, KS_ARG_END) &&
         launch_groups (cg, K_REDUCE, 1, error);
}

static gboolean
dot (KsCgDevice *cg, KsBuffer *a, KsBuffer *b, GError **error)
{
  return ks_kernel_set_args (cg->k[K_DOT], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, a,
                             KS_ARG_BUFFER, b, KS_ARG_BUFFER, cg->d_partial,
                             KS_ARG_LOCAL, cg->local * cg->real_size, KS_ARG_END) &&
         launch_groups (cg, K_DOT, cg->groups, error);
}

static gboolean
spmv (KsCgDevice *cg, KsBuffer *in, KsBuffer *out, GError **error)
{
  return ks_kernel_set_args (cg->k[K_SPMV], error, KS_ARG_INT, (int) cg->n, KS_ARG_INT, 0,
                             KS_ARG_BUFFER, cg->d_row_ptr, KS_ARG_BUFFER, cg->d_col,
                             KS_ARG_BUFFER, cg->d_val, KS_ARG_BUFFER, in, KS_ARG_BUFFER, out,
                             KS_ARG_BUFFER, cg->d_state, KS_ARG_END) &&
         launch_rows (cg, K_SPMV, error);
}

static gboolean
axpy (KsCgDevice *cg, KsBuffer *y, KsBuffer *v, int sign, GError **error)
{
  return ks_kernel_set_args (cg->k[K_AXPY], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, y,
                             KS_ARG_BUFFER, v, KS_ARG_INT, sign, KS_ARG_BUFFER, cg->d_scalars,
                             KS_ARG_BUFFER, cg->d_state, KS_ARG_END) &&
         launch_rows (cg, K_AXPY, error);
}

/* r = b - A x, p = r, rho = r.r, the threshold. */
static gboolean
start (KsCgDevice *cg, GError **error)
{
  return spmv (cg, cg->d_x, cg->d_q, error) &&
         dot (cg, cg->d_b, cg->d_b, error) &&
         reduce (cg, MODE_BB, error) &&
         ks_kernel_set_args (cg->k[K_INIT], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, cg->d_b,
                             KS_ARG_BUFFER, cg->d_q, KS_ARG_BUFFER, cg->d_r, KS_ARG_BUFFER, cg->d_p,
                             KS_ARG_BUFFER, cg->d_partial, KS_ARG_LOCAL, cg->local * cg->real_size,
                             KS_ARG_END) &&
         launch_groups (cg, K_INIT, cg->groups, error) &&
         reduce (cg, MODE_INIT, error);
}

static gboolean
iteration_base (KsCgDevice *cg, GError **error)
{
  return spmv (cg, cg->d_p, cg->d_q, error) &&
         dot (cg, cg->d_p, cg->d_q, error) &&
         reduce (cg, MODE_ALPHA, error) &&
         axpy (cg, cg->d_x, cg->d_p, 1, error) &&
         axpy (cg, cg->d_r, cg->d_q, -1, error) &&
         dot (cg, cg->d_r, cg->d_r, error) &&
         reduce (cg, MODE_BETA, error) &&
         ks_kernel_set_args (cg->k[K_XPAY], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, cg->d_p,
                             KS_ARG_BUFFER, cg->d_r, KS_ARG_BUFFER, cg->d_scalars,
                             KS_ARG_BUFFER, cg->d_state, KS_ARG_END) &&
         launch_rows (cg, K_XPAY, error);
}

static gboolean
iteration_fused_reduce (KsCgDevice *cg, GError **error)
{
  return ks_kernel_set_args (cg->k[K_SPMV_DOT], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, cg->d_row_ptr,
                             KS_ARG_BUFFER, cg->d_col, KS_ARG_BUFFER, cg->d_val, KS_ARG_BUFFER, cg->d_p,
                             KS_ARG_BUFFER, cg->d_q, KS_ARG_BUFFER, cg->d_partial,
                             KS_ARG_BUFFER, cg->d_state,
                             KS_ARG_LOCAL, cg->local * cg->real_size, KS_ARG_END) &&
         launch_groups (cg, K_SPMV_DOT, cg->groups, error) &&
         reduce (cg, MODE_ALPHA, error) &&
         ks_kernel_set_args (cg->k[K_UPDATE_R], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, cg->d_r,
                             KS_ARG_BUFFER, cg->d_q, KS_ARG_BUFFER, cg->d_partial,
                             KS_ARG_BUFFER, cg->d_scalars, KS_ARG_BUFFER, cg->d_state,
                             KS_ARG_LOCAL, cg->local * cg->real_size, KS_ARG_END) &&
         launch_groups (cg, K_UPDATE_R, cg->groups, error) &&
         reduce (cg, MODE_BETA, error);
}

/* The dot products finished by the last group of their launch (three
 * launches an iteration, not five). */
static gboolean
iteration_fused_last (KsCgDevice *cg, GError **error)
{
  return ks_kernel_set_args (cg->k[K_SPMV_DOT_ALPHA], error, KS_ARG_INT, (int) cg->n,
                             KS_ARG_BUFFER, cg->d_row_ptr, KS_ARG_BUFFER, cg->d_col,
                             KS_ARG_BUFFER, cg->d_val, KS_ARG_BUFFER, cg->d_p,
                             KS_ARG_BUFFER, cg->d_q, KS_ARG_BUFFER, cg->d_partial,
                             KS_ARG_BUFFER, cg->d_scalars, KS_ARG_BUFFER, cg->d_state,
                             KS_ARG_BUFFER, cg->d_hist,
                             KS_ARG_LOCAL, (cg->local + 1) * cg->real_size, KS_ARG_END) &&
         launch_groups (cg, K_SPMV_DOT_ALPHA, cg->groups, error) &&
         ks_kernel_set_args (cg->k[K_UPDATE_R_BETA], error, KS_ARG_INT, (int) cg->n,
                             KS_ARG_BUFFER, cg->d_r, KS_ARG_BUFFER, cg->d_q,
                             KS_ARG_BUFFER, cg->d_partial, KS_ARG_BUFFER, cg->d_scalars,
                             KS_ARG_BUFFER, cg->d_state, KS_ARG_BUFFER, cg->d_hist,
                             KS_ARG_LOCAL, (cg->local + 1) * cg->real_size, KS_ARG_END) &&
         launch_groups (cg, K_UPDATE_R_BETA, cg->groups, error);
}

static gboolean
iteration_fused (KsCgDevice *cg, GError **error)
{
  return (cg->last_group ? iteration_fused_last : iteration_fused_reduce) (cg, error) &&
         ks_kernel_set_args (cg->k[K_UPDATE_XP], error, KS_ARG_INT, (int) cg->n, KS_ARG_BUFFER, cg->d_x,
                             KS_ARG_BUFFER, cg->d_p, KS_ARG_BUFFER, cg->d_r, KS_ARG_BUFFER, cg->d_scalars,
                             KS_ARG_BUFFER, cg->d_state, KS_ARG_END) &&
         launch_rows (cg, K_UPDATE_XP, error);
}

static gboolean
iteration (KsCgDevice *cg, GError **error)
{
  return (cg->variant == KS_CG_FUSED ? iteration_fused : iteration_base) (cg, error);
}

/* CHECK_EVERY iterations from the graph, recorded on first use: the
 * launches' arguments never change between iterations (the scalars are
 * read on the device), so one recording serves every solve on these
 * buffers, and the host issues one call where it issued 30 to 70. */
static gboolean
replay (KsCgDevice *cg, GError **error)
{
  if (cg->graph == NULL)
    {
      if (!ks_runtime_capture_begin (cg->rt, error))
        return FALSE;
      for (guint k = 0; k < CHECK_EVERY; k++)
        if (!iteration (cg, error))
          {
            ks_runtime_capture_abort (cg->rt);
            return FALSE;
          }
      if (!(cg->graph = ks_runtime_capture_end (cg->rt, error)))
        return FALSE;
    }
  return ks_graph_launch (cg->graph, error);
}

gboolean
ks_cg_device_set_graph (KsCgDevice *cg, gboolean graph, GError **error)
{
  g_return_val_if_fail (cg != NULL, FALSE);
  if (graph && ks_device_get_backend (cg->device) != KS_BACKEND_CUDA)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("A CG replayed from a CUDA graph needs a CUDA device; %s is not one"),
                   ks_device_get_name (cg->device));
      return FALSE;
    }
  cg->use_graph = graph;
  return TRUE;
}

/* Reads n reals of buffer into dst as doubles. */
static gboolean
read_real (KsCgDevice *cg, KsBuffer *buffer, gsize n, double *dst, GError **error)
{
  if (cg->precision == KS_PRECISION_DOUBLE)
    return ks_runtime_read (cg->rt, buffer, 0, n * sizeof (double), dst, error);
  {
    g_autofree float *f = g_new (float, MAX (n, 1));
    if (!ks_runtime_read (cg->rt, buffer, 0, n * sizeof (float), f, error))
      return FALSE;
    for (gsize i = 0; i < n; i++)
      dst[i] = f[i];
  }
  return TRUE;
}

/* Room for options' residual history, the tolerance and a cleared state
 * on the device, and the first residual: all before the clock starts. */
static gboolean
prepare_resident (KsCgDevice *cg, const KsCgOptions *options, GError **error)
{
  double scalars[N_SCALARS] = { 0 };
  const gint32 state[N_STATE] = { 0 };

  if (cg->hist_len < options->max_iter + 1)
    {
      g_clear_pointer (&cg->graph, ks_graph_free);
      if (!alloc (cg, &cg->d_hist, cg->real_size * (options->max_iter + 1), error))
        return FALSE;
      cg->hist_len = options->max_iter + 1;
    }
  scalars[S_TOL2] = options->tol * options->tol;
  return ks_runtime_write (cg->rt, cg->d_scalars, 0, cg->real_size * N_SCALARS,
                           to_real (cg, scalars, N_SCALARS), error) &&
         ks_runtime_write (cg->rt, cg->d_state, 0, sizeof state, state, error) &&
         start (cg, error) &&
         ks_runtime_finish (cg->rt, error);
}

/* Iterates until the device says it is done or options' limit, looking
 * every CHECK_EVERY iterations; the final state into state. */
static gboolean
iterate_resident (KsCgDevice *cg, const KsCgOptions *options, gint32 *state, GError **error)
{
  for (guint it = 0; it < options->max_iter;)
    {
      if (cg->use_graph && options->max_iter - it >= CHECK_EVERY)
        {
          if (!replay (cg, error))
            return FALSE;
          it += CHECK_EVERY;
        }
      else
        {
          if (!iteration (cg, error))
            return FALSE;
          it++;
        }
      if (it % CHECK_EVERY == 0 || it == options->max_iter)
        {
          if (!ks_runtime_read (cg->rt, cg->d_state, 0, sizeof (gint32) * N_STATE, state, error))
            return FALSE;
          if (state[ST_DONE])
            break;
        }
    }
  return ks_runtime_read (cg->rt, cg->d_state, 0, sizeof (gint32) * N_STATE, state, error);
}

/* The error of a solve that broke down or did not converge (with its
 * residual history), or TRUE. */
static gboolean
check_outcome (KsCgDevice        *cg,
               const KsCgOptions *options,
               const gint32      *state,
               const double      *scalars,
               GError           **error)
{
  const double bb = scalars[S_BB];
  const guint n = (guint) state[ST_ITERS] + 1;
  g_autofree double *hist = NULL;

  if (state[ST_BREAKDOWN])
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_BREAKDOWN,
                   _("CG broke down at iteration %d: p.Ap = %g, so the matrix is not positive definite"),
                   state[ST_ITERS] + 1, scalars[S_PQ]);
      return FALSE;
    }
  if (state[ST_DONE])
    return TRUE;
  hist = g_new (double, n);
  if (!read_real (cg, cg->d_hist, n, hist, error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    hist[i] = bb > 0 ? sqrt (hist[i] / bb) : 0.0;
  ks_cg_set_not_converged (error, options, hist, n);
  return FALSE;
}

gboolean
ks_cg_device_solve_resident (KsCgDevice        *cg,
                             const KsCgOptions *options,
                             KsCgResult        *out,
                             GError           **error)
{
  double scalars[N_SCALARS] = { 0 };
  gint32 state[N_STATE] = { 0 };
  gint64 begin, end;

  g_return_val_if_fail (cg != NULL && options != NULL, FALSE);
  g_return_val_if_fail (cg->n > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!ks_cg_check_options (options, error) || !prepare_resident (cg, options, error))
    return FALSE;
  begin = g_get_monotonic_time ();
  if (!iterate_resident (cg, options, state, error))
    return FALSE;
  end = g_get_monotonic_time ();
  if (!read_real (cg, cg->d_scalars, N_SCALARS, scalars, error) ||
      !check_outcome (cg, options, state, scalars, error))
    return FALSE;
  if (out != NULL)
    {
      const double bb = scalars[S_BB];

      out->iterations = (guint) state[ST_ITERS];
      out->residual = bb > 0 ? sqrt (scalars[S_RHO] / bb) : 0.0;
      out->bytes = ks_cg_bytes_per_row (cg->variant, cg->precision, cg->mean_row) * cg->n * out->iterations;
      out->iterate_s = (end - begin) / 1e6;
    }
  return TRUE;
}

gboolean
ks_cg_device_solve (KsCgDevice        *cg,
                    const double      *b,
                    double            *x,
                    const KsCgOptions *options,
                    KsCgResult        *out,
                    GError           **error)
{
  g_return_val_if_fail (cg != NULL && b != NULL && x != NULL && options != NULL, FALSE);
  g_return_val_if_fail (cg->n > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return ks_runtime_write (cg->rt, cg->d_b, 0, cg->real_size * cg->n, to_real (cg, b, cg->n), error) &&
         ks_runtime_write (cg->rt, cg->d_x, 0, cg->real_size * cg->n, to_real (cg, x, cg->n), error) &&
         ks_cg_device_solve_resident (cg, options, out, error) &&
         read_real (cg, cg->d_x, cg->n, x, error);
}
