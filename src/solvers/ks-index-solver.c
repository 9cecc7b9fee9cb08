/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-solver.c: paper 003's kernels on a device, and the worked
 * example on the host (see the header). */
#define G_LOG_DOMAIN "ks-index"

#include "ks-index-solver.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-index-map-device.h"
#include "ks-runtime.h"
#ifdef KS_HAVE_CUDA
#include "ks-cublas.h"
#endif

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Device-filling grid of the stride loop: blocks per compute unit. */
#define STRIDE_BLOCKS_PER_CU 32

struct _KsIndexSolver {
  KsDevice    *device;
  KsPrecision  precision;
  KsRuntime   *rt;
  KsProgram   *program;
  KsKernel    *fill, *stride, *rows, *finish;
  KsProgram   *cub_program;    /* CUDA only, built on first use */
  KsKernel    *cub;
  /* The tuned kernels, built on first use: [0] as the device allows,
   * [1] with the local-memory tree asked for. */
  KsProgram   *tuned_program[4];
  KsKernel    *tuned[4], *tuned_finish[4];
  KsIndexTree  tuned_tree[4];
  guint64      tuned_resident[4];   /* kernel 1's segments a compute unit holds (0: not known) */
  KsBuffer    *v, *partial, *sums;
  KsBuffer    *path;           /* the tuned build's answer; kept (see ensure_buffer) */
  guint64      stride_block;
  guint64      occupancy_block;   /* the fill kernel's suggestion (the OCCUPANCY launch) */
  char        *occupancy_source;  /* how it was found, translated */
};

double
ks_index_row_sum (guint64 i,
                  guint64 w)
{
  return (double) w * ((double) w + 1) / 2 + (double) i * (double) w * (double) w;
}

void
ks_index_solver_free (KsIndexSolver *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->v, ks_buffer_unref);
  g_clear_pointer (&self->partial, ks_buffer_unref);
  g_clear_pointer (&self->sums, ks_buffer_unref);
  g_clear_pointer (&self->path, ks_buffer_unref);
  g_clear_pointer (&self->fill, ks_kernel_unref);
  g_clear_pointer (&self->stride, ks_kernel_unref);
  g_clear_pointer (&self->rows, ks_kernel_unref);
  g_clear_pointer (&self->finish, ks_kernel_unref);
  g_clear_pointer (&self->cub, ks_kernel_unref);
  g_clear_pointer (&self->cub_program, ks_program_unref);
  for (guint k = 0; k < G_N_ELEMENTS (self->tuned); k++)
    {
      g_clear_pointer (&self->tuned[k], ks_kernel_unref);
      g_clear_pointer (&self->tuned_finish[k], ks_kernel_unref);
      g_clear_pointer (&self->tuned_program[k], ks_program_unref);
    }
  g_clear_pointer (&self->program, ks_program_unref);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self->occupancy_source);
  g_free (self);
}

KsIndexSolver *
ks_index_solver_new (KsDevice    *device,
                     KsPrecision  precision,
                     GError     **error)
{
  g_autoptr(KsIndexSolver) self = g_new0 (KsIndexSolver, 1);
  KsIndexSuggestion s = { 0 };

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s has no double precision (cl_khr_fp64); choose float"), ks_device_get_name (device));
      return NULL;
    }
  self->device = g_object_ref (device);
  self->precision = precision;
  if (!(self->rt = ks_runtime_new (device, error)) ||
      !(self->program = ks_runtime_build_program (self->rt, "index.cl",
                                                  precision == KS_PRECISION_DOUBLE
                                                  ? "-DKS_REAL=double -DKS_FP64" : "-DKS_REAL=float", error)) ||
      !(self->fill = ks_program_create_kernel (self->program, "index_fill_mapped", error)) ||
      !(self->stride = ks_program_create_kernel (self->program, "index_fill_stride", error)) ||
      !(self->rows = ks_program_create_kernel (self->program, "index_sum_rows", error)) ||
      !(self->finish = ks_program_create_kernel (self->program, "index_sum_finish", error)))
    return NULL;
  /* The stride loop's block: the occupancy API's for the fill (CUDA), or
   * the kernel's limit in preferred multiples (OpenCL). */
  ks_index_suggest_for_kernel (device, self->fill, &s);
  self->stride_block = MIN (s.block, ks_kernel_get_max_work_group_size (self->stride));
  self->occupancy_block = s.block;
  self->occupancy_source = g_steal_pointer (&s.source);
  ks_index_suggestion_clear (&s);
  return g_steal_pointer (&self);
}

KsPrecision
ks_index_solver_get_precision (KsIndexSolver *self)
{
  g_return_val_if_fail (self != NULL, KS_PRECISION_DOUBLE);
  return self->precision;
}

guint64
ks_index_solver_get_occupancy_block (KsIndexSolver *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->occupancy_block;
}

const char *
ks_index_solver_get_occupancy_source (KsIndexSolver *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->occupancy_source;
}

/* A buffer of at least bytes, kept across calls. */
static gboolean
ensure_buffer (KsIndexSolver *self,
               KsBuffer     **buffer,
               gsize          bytes,
               GError       **error)
{
  KsBuffer *fresh;

  if (*buffer != NULL && ks_buffer_get_size (*buffer) >= bytes)
    return TRUE;
  /* The new one before the old is freed: Oclgrind hands a freed buffer's
   * number to the next allocation and then takes what kernels write there
   * for uninitialized. */
  if (!(fresh = ks_runtime_alloc (self->rt, bytes, error)))
    return FALSE;
  g_clear_pointer (buffer, ks_buffer_unref);
  *buffer = fresh;
  return TRUE;
}

static double
kernel_ms (KsIndexSolver *self,
           KsKernel      *kernel)
{
  guint64 ns = 0;

  ks_runtime_get_timer (self->rt, ks_kernel_get_name (kernel), &ns, NULL);
  return ns / 1e6;
}

/* Reads n values back (in the solver's precision) as doubles. */
static double *
read_back (KsIndexSolver *self,
           KsBuffer      *buffer,
           guint64        n,
           GError       **error)
{
  gsize elem = ks_precision_size (self->precision);
  g_autofree void *raw = g_try_malloc (n * elem);
  g_autofree double *out = NULL;

  if (raw == NULL || !(out = g_try_new (double, n)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold the %llu values to check"), (unsigned long long) n);
      return NULL;
    }
  if (!ks_runtime_read (self->rt, buffer, 0, n * elem, raw, error))
    return NULL;
  for (guint64 k = 0; k < n; k++)
    out[k] = self->precision == KS_PRECISION_DOUBLE ? ((double *) raw)[k] : ((float *) raw)[k];
  return g_steal_pointer (&out);
}

/* What the fill should have written at g, rounded as the kernel rounds it. */
static double
expected_value (KsPrecision precision,
                guint64     g)
{
  return precision == KS_PRECISION_DOUBLE ? (double) (g + 1) : (double) (float) (g + 1);
}

static gboolean
mapped_launch (const KsIndexDomain *domain,
               const KsIndexMapping *m,
               KsLaunchConfig      *config,
               gint32              *layout,
               guint64             *sides,
               GError             **error)
{
  if (!m->mapped || (m->thread_side == 0 && domain->dims == 2))
    {
      if (!m->mapped)
        g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                     _("%s: no launch for this domain: %s"), ks_index_rule_label (m->rule), m->why);
      else
        g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                     _("%s: N1 gets the threads here, a layout the mapped kernel does not run"), m->why);
      return FALSE;
    }
  *layout = (gint32) ks_index_mapping_layout (domain, m, sides);
  memset (config, 0, sizeof *config);
  config->dims = m->grid_dims;
  for (guint d = 0; d < m->grid_dims; d++)
    {
      config->global[d] = m->grid[d] * (d == 0 ? m->block[0] : 1);
      config->local[d] = d == 0 ? m->block[0] : 1;
    }
  return TRUE;
}

gboolean
ks_index_solver_fill (KsIndexSolver       *self,
                      const KsIndexDomain *domain,
                      KsIndexFill          fill,
                      KsIndexFillResult   *out,
                      GError             **error)
{
  gsize elem;
  guint64 points;
  KsLaunchConfig config = { 0 };
  KsKernel *kernel;
  g_auto(KsIndexMapping) m = { 0 };
  g_autofree double *got = NULL;
  const guint8 zero[8] = { 0 };

  g_return_val_if_fail (self != NULL && domain != NULL && out != NULL, FALSE);
  g_return_val_if_fail (fill < KS_INDEX_FILL_N, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  elem = ks_precision_size (self->precision);
  points = ks_index_domain_points (domain);
  if (!ks_index_domain_check_device (domain, self->device, self->precision, error) ||
      !ensure_buffer (self, &self->v, points * elem, error))
    return FALSE;

  if (fill != KS_INDEX_FILL_STRIDE)
    {
      static const KsIndexRule rules[] = {
        [KS_INDEX_FILL_MAPPED] = KS_INDEX_RULE_PAPER,
        [KS_INDEX_FILL_TODAY] = KS_INDEX_RULE_TODAY,
        [KS_INDEX_FILL_OCCUPANCY] = KS_INDEX_RULE_OCCUPANCY,
      };
      gint32 layout;
      guint64 sides[3];

      ks_index_map (domain, rules[fill], self->occupancy_block, &m);
      if (!mapped_launch (domain, &m, &config, &layout, sides, error))
        return FALSE;
      kernel = self->fill;
      if (!ks_kernel_set_arg_buffer (kernel, 0, self->v, error) ||
          !ks_kernel_set_arg (kernel, 1, sizeof (guint64), &sides[0], error) ||
          !ks_kernel_set_arg (kernel, 2, sizeof (guint64), &sides[1], error) ||
          !ks_kernel_set_arg (kernel, 3, sizeof (guint64), &sides[2], error) ||
          !ks_kernel_set_arg (kernel, 4, sizeof (gint32), &layout, error))
        return FALSE;
      out->idle = m.idle;
    }
  else
    {
      guint64 cus = MAX (ks_device_get_info (self->device)->compute_units, 1);
      guint64 blocks = MIN ((points + self->stride_block - 1) / self->stride_block, cus * STRIDE_BLOCKS_PER_CU);

      kernel = self->stride;
      config.dims = 1;
      config.global[0] = blocks * self->stride_block;
      config.local[0] = self->stride_block;
      if (!ks_kernel_set_arg_buffer (kernel, 0, self->v, error) ||
          !ks_kernel_set_arg (kernel, 1, sizeof (guint64), &points, error))
        return FALSE;
    }
  out->grid_dims = config.dims;
  out->block = config.local[0];
  out->threads = 1;
  for (guint d = 0; d < config.dims; d++)
    {
      out->grid[d] = config.global[d] / config.local[d];
      out->threads *= config.global[d];
    }

  /* Zeros first, so a point the kernel misses shows. */
  ks_runtime_reset_timers (self->rt);
  if (!ks_queue_fill (ks_runtime_get_queue (self->rt), self->v, zero, elem, 0, points * elem, NULL, error) ||
      !ks_queue_launch (ks_runtime_get_queue (self->rt), kernel, &config, error) ||
      !ks_runtime_collect_timings (self->rt, error))
    return FALSE;
  out->kernel_ms = kernel_ms (self, kernel);

  if (!(got = read_back (self, self->v, points, error)))
    return FALSE;
  for (guint64 g = 0; g < points; g++)
    out->max_error = MAX (out->max_error, fabs (got[g] - expected_value (self->precision, g)));
  return TRUE;
}

static guint
pow2_at_most (guint64 n)
{
  guint p = 1;

  while ((guint64) p * 2 <= n)
    p *= 2;
  return p;
}

static double
max_rel_error (const double *sums,
               guint64       v,
               guint64       w)
{
  double worst = 0;

  for (guint64 i = 0; i < v; i++)
    {
      double want = ks_index_row_sum (i, w);
      double e = fabs (sums[i] - want) / want;

      worst = isnan (e) ? INFINITY : MAX (worst, e);
    }
  return worst;
}

/* Runs the launches back to back on the default queue and gives their
 * span: device time from before the first to after the last, what a caller
 * waits for on the device.  The paper's pair, the tuned pair and CUB's one
 * kernel are all timed so, like with like.  Two passes: one with each
 * launch timed (the kernel columns), then the span's own with no event
 * between the kernels, where an event would add its cost once per kernel
 * and keep a kernel that waits for its predecessor itself
 * (ks_kernel_set_waits_previous) from starting while that one ends. */
static gboolean
launch_spanned (KsIndexSolver        *self,
                KsKernel            **kernels,
                const KsLaunchConfig *configs,
                guint                 n,
                double               *span_ms,
                GError              **error)
{
  KsQueue *queue = ks_runtime_get_queue (self->rt);
  g_autoptr(KsEvent) from = NULL;
  g_autoptr(KsEvent) to = NULL;
  gboolean launched = TRUE;
  guint64 ns = 0;

  ks_runtime_reset_timers (self->rt);
  for (guint i = 0; i < n; i++)
    if (!ks_queue_launch (queue, kernels[i], &configs[i], error))
      return FALSE;
  if (!ks_runtime_collect_timings (self->rt, error) || !(from = ks_queue_record (queue, error)))
    return FALSE;
  ks_runtime_set_timing (self->rt, FALSE);
  for (guint i = 0; i < n && launched; i++)
    launched = ks_queue_launch (queue, kernels[i], &configs[i], error);
  ks_runtime_set_timing (self->rt, TRUE);
  if (!launched || !(to = ks_queue_record (queue, error)) || !ks_runtime_finish (self->rt, error) ||
      !ks_event_elapsed_ns (from, to, &ns, error))
    return FALSE;
  *span_ms = ns / 1e6;
  return TRUE;
}

gboolean
ks_index_solver_reduce (KsIndexSolver       *self,
                        guint64              v,
                        guint64              w,
                        KsIndexReduceResult *out,
                        GError             **error)
{
  gsize elem;
  guint64 nb;
  guint t1, t2;
  KsIndexDomain domain;
  gint64 sides[2] = { (gint64) v, (gint64) w };
  KsLaunchConfig c[2];
  guint32 nb32;
  g_autofree double *sums = NULL;
  const KsDeviceInfo *info;

  g_return_val_if_fail (self != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (v > G_MAXINT64 || w > G_MAXINT64 || !ks_index_domain_init (&domain, 2, sides, error) ||
      !ks_index_domain_check_device (&domain, self->device, self->precision, error))
    return FALSE;
  info = ks_device_get_info (self->device);
  elem = ks_precision_size (self->precision);
  /* The paper's 1024 threads, or what the kernels and the device's local
   * memory allow, as a power of two (the tree halves it). */
  t1 = pow2_at_most (MIN (MIN ((guint64) KS_INDEX_PAPER_THREADS, ks_kernel_get_max_work_group_size (self->rows)),
                          MIN (ks_kernel_get_max_work_group_size (self->finish), info->local_mem / elem / 2)));
  nb = (w + t1 - 1) / t1;
  if (nb > KS_INDEX_PAPER_GRID || v > G_MAXUINT32)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                   _("%llu partial sums per row (w / %u) or %llu rows do not fit the grid (at most 65535 and 2^32 - 1)"),
                   (unsigned long long) nb, t1, (unsigned long long) v);
      return FALSE;
    }
  t2 = (guint) MIN (ks_index_next_pow2 (nb), t1);
  nb32 = (guint32) nb;
  if (!ensure_buffer (self, &self->v, v * w * elem, error) ||
      !ensure_buffer (self, &self->partial, v * nb * elem, error) ||
      !ensure_buffer (self, &self->sums, v * elem, error))
    return FALSE;

  c[0] = (KsLaunchConfig) { 2, { v * t1, nb, 1 }, { t1, 1, 1 }, { 0 } };
  c[1] = (KsLaunchConfig) { 1, { v * t2, 1, 1 }, { t2, 1, 1 }, { 0 } };
  if (!ks_kernel_set_arg_buffer (self->rows, 0, self->v, error) ||
      !ks_kernel_set_arg_buffer (self->rows, 1, self->partial, error) ||
      !ks_kernel_set_arg (self->rows, 2, sizeof (guint64), &w, error) ||
      !ks_kernel_set_arg_local (self->rows, 3, t1 * elem, error) ||
      !ks_kernel_set_arg_buffer (self->finish, 0, self->partial, error) ||
      !ks_kernel_set_arg_buffer (self->finish, 1, self->sums, error) ||
      !ks_kernel_set_arg (self->finish, 2, sizeof (guint32), &nb32, error) ||
      !ks_kernel_set_arg_local (self->finish, 3, t2 * elem, error) ||
      !launch_spanned (self, (KsKernel *[]) { self->rows, self->finish }, c, 2, &out->total_ms, error))
    return FALSE;

  out->threads1 = t1;
  out->threads2 = t2;
  out->blocks_per_row = nb;
  out->kernel1_ms = kernel_ms (self, self->rows);
  out->kernel2_ms = kernel_ms (self, self->finish);
  if (!(sums = read_back (self, self->sums, v, error)))
    return FALSE;
  out->max_rel_error = max_rel_error (sums, v, w);
  return TRUE;
}

/* The values V = g + 1 in self->v (points of them, the buffer already
 * that large) by the stride kernel, finished before anything is timed:
 * for the methods that only read them. */
static gboolean
fill_untimed (KsIndexSolver *self,
              guint64        points,
              GError       **error)
{
  const guint64 block = self->stride_block;
  KsLaunchConfig fill = { 1, { MIN ((points + block - 1) / block, 65535) * block, 1, 1 }, { block, 1, 1 }, { 0 } };

  return ks_kernel_set_arg_buffer (self->stride, 0, self->v, error) &&
         ks_kernel_set_arg (self->stride, 1, sizeof (guint64), &points, error) &&
         ks_queue_launch (ks_runtime_get_queue (self->rt), self->stride, &fill, error) &&
         ks_runtime_finish (self->rt, error);
}

/* CUB's block reduction: threads per block (a power of two). */
#define CUB_THREADS 256

static gboolean
ensure_cub (KsIndexSolver *self,
            GError       **error)
{
  g_autofree char *root = NULL, *options = NULL;

  if (self->cub)
    return TRUE;
  if (ks_device_get_backend (self->device) != KS_BACKEND_CUDA)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("CUB runs on CUDA devices only, not on %s"), ks_device_get_name (self->device));
      return FALSE;
    }
#ifdef KS_CUDA_LIBDIR
  root = g_path_get_dirname (KS_CUDA_LIBDIR);
#else
  root = g_strdup ("/usr/local/cuda");
#endif
  /* CUB lives in the toolkit's include/cccl since CUDA 13, in include before. */
  options = g_strdup_printf ("-I%s/include/cccl -I%s/include -std=c++17 -DKS_REAL=%s -DKS_CUB_THREADS=%d",
                             root, root, self->precision == KS_PRECISION_DOUBLE ? "double" : "float", CUB_THREADS);
  if (!(self->cub_program = ks_runtime_build_program (self->rt, "index-cub.cu", options, error)) ||
      !(self->cub = ks_program_create_kernel (self->cub_program, "index_sum_cub", error)))
    {
      g_clear_pointer (&self->cub_program, ks_program_unref);
  for (guint k = 0; k < G_N_ELEMENTS (self->tuned); k++)
    {
      g_clear_pointer (&self->tuned[k], ks_kernel_unref);
      g_clear_pointer (&self->tuned_finish[k], ks_kernel_unref);
      g_clear_pointer (&self->tuned_program[k], ks_program_unref);
    }
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_index_solver_reduce_cub (KsIndexSolver       *self,
                            guint64              v,
                            guint64              w,
                            KsIndexReduceResult *out,
                            GError             **error)
{
  gsize elem;
  guint64 points;
  KsIndexDomain domain;
  gint64 sides[2] = { (gint64) v, (gint64) w };
  KsLaunchConfig c = { 0 };
  g_autofree double *sums = NULL;

  g_return_val_if_fail (self != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!ensure_cub (self, error) ||
      v > G_MAXINT64 || w > G_MAXINT64 || !ks_index_domain_init (&domain, 2, sides, error) ||
      !ks_index_domain_check_device (&domain, self->device, self->precision, error))
    return FALSE;
  elem = ks_precision_size (self->precision);
  points = v * w;
  if (!ensure_buffer (self, &self->v, points * elem, error) || !ensure_buffer (self, &self->sums, v * elem, error))
    return FALSE;
  c = (KsLaunchConfig) { 1, { v * CUB_THREADS, 1, 1 }, { CUB_THREADS, 1, 1 }, { 0 } };
  /* The values first (untimed): CUB only reads them. */
  if (!fill_untimed (self, points, error) ||
      !ks_kernel_set_arg_buffer (self->cub, 0, self->v, error) ||
      !ks_kernel_set_arg_buffer (self->cub, 1, self->sums, error) ||
      !ks_kernel_set_arg (self->cub, 2, sizeof (guint64), &w, error))
    return FALSE;
  if (!launch_spanned (self, &self->cub, &c, 1, &out->total_ms, error))
    return FALSE;
  out->threads1 = CUB_THREADS;
  if (!(sums = read_back (self, self->sums, v, error)))
    return FALSE;
  out->max_rel_error = max_rel_error (sums, v, w);
  return TRUE;
}

/* The tuned kernels: items per group (a multiple of the 32 of a segment),
 * and the values a segment's chunk holds at least (32 items x 4 loads of
 * a vector of 2 doubles or 4 floats: 256 doubles or 512 floats), so that
 * a machine-filling cut does not leave chunks too short to stream. */
#define TUNED_GROUP    256
#define TUNED_MIN_LOADS 4
/* Segments of 32 items a compute unit holds at once: 2048 resident threads
 * (a multiprocessor of compute capability 7.0 up to 9.x) / 32. */
#define TUNED_SEGMENTS_PER_CU 64

/* Kernel 1's items a group: TUNED_GROUP or what the build allows, whole
 * segments of 32 (0: not one). */
static guint64
tuned_items (KsIndexSolver *self,
             guint          k)
{
  return MIN ((guint64) TUNED_GROUP, ks_kernel_get_max_work_group_size (self->tuned[k])) / 32 * 32;
}

/* Builds the tuned kernels (k & 1: the local tree asked for; k & 2: rows
 * loaded as vectors, built apart because PoCL's CPU device aborted
 * compiling a choice between the two loops before the tree's barriers)
 * and asks the build which tree it compiled. */
static gboolean
ensure_tuned (KsIndexSolver *self,
              guint          k,
              GError       **error)
{
  g_autofree char *options = NULL;
  g_autoptr(KsKernel) path_kernel = NULL;
  KsLaunchConfig one = { 1, { 1, 1, 1 }, { 1, 1, 1 }, { 0 } };
  gint32 tree = 0;
  guint64 items;

  if (self->tuned[k])
    return TRUE;
  options = g_strdup_printf ("%s%s%s", self->precision == KS_PRECISION_DOUBLE ? "-DKS_REAL=double -DKS_FP64"
                                                                             : "-DKS_REAL=float",
                             k & 1 ? " -DKS_INDEX_TREE" : "", k & 2 ? " -DKS_INDEX_VEC" : "");
  if (!(self->tuned_program[k] = ks_runtime_build_program (self->rt, "index.cl", options, error)) ||
      !(self->tuned[k] = ks_program_create_kernel (self->tuned_program[k], "index_sum_tuned", error)) ||
      !(self->tuned_finish[k] = ks_program_create_kernel (self->tuned_program[k], "index_sum_tuned_finish", error)) ||
      !(path_kernel = ks_program_create_kernel (self->tuned_program[k], "index_tuned_path", error)) ||
      !ensure_buffer (self, &self->path, sizeof tree, error) ||
      !ks_kernel_set_arg_buffer (path_kernel, 0, self->path, error) ||
      !ks_queue_launch (ks_runtime_get_queue (self->rt), path_kernel, &one, error) ||
      !ks_runtime_read (self->rt, self->path, 0, sizeof tree, &tree, error))
    {
      g_clear_pointer (&self->tuned[k], ks_kernel_unref);
      g_clear_pointer (&self->tuned_finish[k], ks_kernel_unref);
      g_clear_pointer (&self->tuned_program[k], ks_program_unref);
      return FALSE;
    }
  /* Kernel 2 waits for kernel 1 in its source: on CUDA it may start while
   * kernel 1's last groups run, the launch between them hidden. */
  ks_kernel_set_waits_previous (self->tuned_finish[k], TRUE);
  self->tuned_tree[k] = tree == 2 ? KS_INDEX_TREE_SHUFFLE : tree == 1 ? KS_INDEX_TREE_SUBGROUP : KS_INDEX_TREE_LOCAL;
  /* Asked once per build (a CUDA call), for the groups every launch
   * takes: tuned_items' items with a real of local memory each. */
  items = tuned_items (self, k);
  self->tuned_resident[k] = items ? ks_kernel_get_resident_groups (self->tuned[k], items,
                                                                   items * ks_precision_size (self->precision)) *
                                    (items / 32)
                                  : 0;
  return TRUE;
}

/* Chunks per row: v x nb segments, one each for as many as the machine
 * holds at once (rounded down: one wave), no chunk shorter than 32 items'
 * TUNED_MIN_LOADS vectors; *cw, the values of a chunk, a multiple of the
 * vector (vw) so aligned rows stay aligned.  The segments resident on a
 * compute unit come from the backend's occupancy (CUDA), else
 * TUNED_SEGMENTS_PER_CU.  On an H200, 2000 x 3000 doubles: 34 registers
 * an item hold a unit to 6 groups of 8 segments, 6,336 at once, 3 chunks
 * a row; kernel 1 took 16.2-16.7 us and the pair 17.2-18.6 against CUB's
 * 16.6-17.0, where 5 chunks a row (10,000 segments, 64 assumed a unit: a
 * wave and a half) took 17.1-18.1 and 20.3-21.0
 * (data/reference/bench/h200-rowsums-wave-2026-11-29.txt).
 * KS_INDEX_SEGMENTS_PER_CU overrides the count (an A/B). */
static guint32
tuned_chunks (KsIndexSolver *self,
              guint          k,
              guint64        v,
              guint64        w,
              guint          vw,
              guint64       *cw)
{
  const guint64 cus = MAX (ks_device_get_info (self->device)->compute_units, 1);
  const guint64 shortest = 32 * vw * TUNED_MIN_LOADS;
  const char *env = g_getenv ("KS_INDEX_SEGMENTS_PER_CU");
  const guint64 per_cu = env ? MAX (g_ascii_strtoull (env, NULL, 10), 1)
                         : self->tuned_resident[k] ? self->tuned_resident[k] : TUNED_SEGMENTS_PER_CU;
  guint64 nb = cus * per_cu / v;

  nb = MAX (MIN (nb, w / shortest), 1);
  *cw = ((w + nb - 1) / nb + vw - 1) / vw * vw;
  return (guint32) ((w + *cw - 1) / *cw);
}

gboolean
ks_index_solver_reduce_tuned (KsIndexSolver       *self,
                              guint64              v,
                              guint64              w,
                              gboolean             local_tree,
                              KsIndexReduceResult *out,
                              GError             **error)
{
  const gsize elem = ks_precision_size (self->precision);
  const guint vw = self->precision == KS_PRECISION_DOUBLE ? 2 : 4;
  const gint32 vec = w % vw == 0;
  const guint k = (local_tree ? 1 : 0) | (vec ? 2 : 0);
  KsIndexDomain domain;
  gint64 sides[2] = { (gint64) v, (gint64) w };
  guint64 cw, groups, cus, l1, l2;
  guint32 nb;
  KsLaunchConfig c[2];
  g_autofree double *sums = NULL;

  g_return_val_if_fail (self != NULL && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (v > G_MAXINT64 || w > G_MAXINT64 || !ks_index_domain_init (&domain, 2, sides, error) ||
      !ks_index_domain_check_device (&domain, self->device, self->precision, error) || !ensure_tuned (self, k, error))
    return FALSE;
  l1 = tuned_items (self, k);
  l2 = MIN ((guint64) TUNED_GROUP, ks_kernel_get_max_work_group_size (self->tuned_finish[k]));
  if (l1 == 0 || l2 == 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                   _("The tuned row sums need groups of at least 32 items; %s allows fewer"),
                   ks_device_get_name (self->device));
      return FALSE;
    }
  nb = tuned_chunks (self, k, v, w, vw, &cw);
  cus = MAX (ks_device_get_info (self->device)->compute_units, 1);
  /* One group per l1 / 32 segments; past 256 groups per compute unit the
   * groups loop over the rest, except in the local tree's build, which
   * runs one round (kernels/index.cl says why). */
  groups = (v * nb + l1 / 32 - 1) / (l1 / 32);
  if (self->tuned_tree[k] != KS_INDEX_TREE_LOCAL)
    groups = MIN (groups, cus * 256);
  c[0] = (KsLaunchConfig) { 1, { groups * l1, 1, 1 }, { l1, 1, 1 }, { 0 } };
  c[1] = (KsLaunchConfig) { 1, { (v + l2 - 1) / l2 * l2, 1, 1 }, { l2, 1, 1 }, { 0 } };
  if (!ensure_buffer (self, &self->v, v * w * elem, error) ||
      !ensure_buffer (self, &self->partial, v * nb * elem, error) ||
      !ensure_buffer (self, &self->sums, v * elem, error) || !fill_untimed (self, v * w, error))
    return FALSE;
  if (!ks_kernel_set_arg_buffer (self->tuned[k], 0, self->v, error) ||
      !ks_kernel_set_arg_buffer (self->tuned[k], 1, self->partial, error) ||
      !ks_kernel_set_arg (self->tuned[k], 2, sizeof (guint64), &v, error) ||
      !ks_kernel_set_arg (self->tuned[k], 3, sizeof (guint64), &w, error) ||
      !ks_kernel_set_arg (self->tuned[k], 4, sizeof (guint32), &nb, error) ||
      !ks_kernel_set_arg (self->tuned[k], 5, sizeof (guint64), &cw, error) ||
      !ks_kernel_set_arg (self->tuned[k], 6, sizeof (gint32), &vec, error) ||
      !ks_kernel_set_arg_local (self->tuned[k], 7, l1 * elem, error) ||
      !ks_kernel_set_arg_buffer (self->tuned_finish[k], 0, self->partial, error) ||
      !ks_kernel_set_arg_buffer (self->tuned_finish[k], 1, self->sums, error) ||
      !ks_kernel_set_arg (self->tuned_finish[k], 2, sizeof (guint64), &v, error) ||
      !ks_kernel_set_arg (self->tuned_finish[k], 3, sizeof (guint32), &nb, error) ||
      !launch_spanned (self, (KsKernel *[]) { self->tuned[k], self->tuned_finish[k] }, c, 2,
                       &out->total_ms, error))
    return FALSE;
  out->threads1 = (guint) l1;
  out->threads2 = (guint) l2;
  out->blocks_per_row = nb;
  out->tree = self->tuned_tree[k];
  out->kernel1_ms = kernel_ms (self, self->tuned[k]);
  out->kernel2_ms = kernel_ms (self, self->tuned_finish[k]);
  if (!(sums = read_back (self, self->sums, v, error)))
    return FALSE;
  out->max_rel_error = max_rel_error (sums, v, w);
  return TRUE;
}

/* The host's fill and row sums, one body per precision. */
#define DEFINE_HOST_REDUCE(real)                                               \
static void                                                                    \
host_reduce_##real (real *vals, double *sums, guint64 v, guint64 w,            \
                    int threads)                                               \
{                                                                              \
  _Pragma ("omp parallel for schedule(static) num_threads(threads)")           \
  for (gint64 i = 0; i < (gint64) v; i++)                                      \
    {                                                                          \
      real *row = vals + (guint64) i * w;                                      \
      real s = 0;                                                              \
      for (guint64 j = 0; j < w; j++)                                          \
        row[j] = (real) (j + 1 + (guint64) i * w);                             \
      for (guint64 j = 0; j < w; j++)                                          \
        s += row[j];                                                           \
      sums[i] = s;                                                             \
    }                                                                          \
}

DEFINE_HOST_REDUCE (float)
DEFINE_HOST_REDUCE (double)

gboolean
ks_index_host_reduce (guint64              v,
                      guint64              w,
                      KsPrecision          precision,
                      guint                threads,
                      KsIndexReduceResult *out,
                      GError             **error)
{
  gsize elem = ks_precision_size (precision);
  guint64 bytes, avail;
  g_autofree void *vals = NULL;
  g_autofree double *sums = NULL;
  gint64 t0;
  int n_threads = 1;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
#ifdef _OPENMP
  n_threads = threads == 0 ? omp_get_max_threads () : (int) threads;
#endif
  avail = ks_host_memory_available (NULL);
  if (v == 0 || w == 0 || !g_uint64_checked_mul (&bytes, v, w) || !g_uint64_checked_mul (&bytes, bytes, elem) ||
      (avail && bytes > avail / 2) || !(vals = g_try_malloc (bytes)) || !(sums = g_try_new (double, v)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%llu × %llu values of %u bytes do not fit in the host's free memory"),
                   (unsigned long long) v, (unsigned long long) w, (guint) elem);
      return FALSE;
    }
  t0 = g_get_monotonic_time ();
  if (precision == KS_PRECISION_DOUBLE)
    host_reduce_double (vals, sums, v, w, n_threads);
  else
    host_reduce_float (vals, sums, v, w, n_threads);
  out->total_ms = (g_get_monotonic_time () - t0) / 1000.0;
  out->threads1 = (guint) n_threads;
  out->max_rel_error = max_rel_error (sums, v, w);
  return TRUE;
}

gboolean
ks_index_gemv_reduce (KsDevice            *device,
                      KsPrecision          precision,
                      guint64              v,
                      guint64              w,
                      KsIndexReduceResult *out,
                      GError             **error)
{
#ifdef KS_HAVE_CUDA
  gsize elem = ks_precision_size (precision);
  g_autofree void *vals = NULL;
  g_autofree double *sums = NULL;
  guint64 bytes;

  g_return_val_if_fail (KS_IS_DEVICE (device) && out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (ks_device_get_backend (device) != KS_BACKEND_CUDA)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("cuBLAS runs on CUDA devices only, not on %s"), ks_device_get_name (device));
      return FALSE;
    }
  if (v == 0 || w == 0 || !g_uint64_checked_mul (&bytes, v, w) || !g_uint64_checked_mul (&bytes, bytes, elem) ||
      !(vals = g_try_malloc (bytes)) || !(sums = g_try_new (double, v)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%llu × %llu values of %u bytes do not fit in the host's free memory"),
                   (unsigned long long) v, (unsigned long long) w, (guint) elem);
      return FALSE;
    }
  for (guint64 g = 0; g < v * w; g++)
    precision == KS_PRECISION_DOUBLE ? (((double *) vals)[g] = (double) (g + 1))
                                     : (((float *) vals)[g] = (float) (g + 1));
  if (!ks_cublas_row_sums (device, precision == KS_PRECISION_DOUBLE, v, w, vals, sums, &out->total_ms, error))
    return FALSE;
  out->max_rel_error = max_rel_error (sums, v, w);
  return TRUE;
#else
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("This build has no CUDA toolkit, so no cuBLAS"));
  return FALSE;
#endif
}
