/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gauss"

#include "ks-gauss.h"
#include "ks-gauss-blocked.h"
#include "ks-compute-error.h"
#include "ks-graph-cache.h"
#include "ks-host.h"
#include "ks-launch.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <string.h>

/* Must match the KS_INFO_* layout in kernels/gauss.cl. */
enum {
  INFO_FWD_LOCAL0,
  INFO_FWD_LOCAL1,
  INFO_FWD_GROUPS0,
  INFO_FWD_GROUPS1,
  INFO_PRE_LOCAL,
  INFO_PRE_GROUPS,
  INFO_BWD_LOCAL,
  INFO_BWD_GROUPS,
  INFO_BAD_PIVOT,
  INFO_SIZE = 16
};

/* How often a solve looks at its GCancellable and marks the queue
 * (ks_runtime_pace: at most two such stretches are queued ahead of the
 * host, so a Stop is felt after them, not after the whole solve: a quit in
 * an n = 3000 solve on PoCL took 31 s before): often enough that Stop is
 * felt within a fraction of a second, rarely enough to cost nothing. */
#define CANCEL_CHECK_STEPS 16

struct _KsGaussSolver
{
  KsDevice    *device;
  KsPrecision  precision;
  KsRuntime   *rt;
  KsProgram   *program;
  KsKernel    *kernels[KS_GAUSS_N_KERNELS];
  guint        enqueued;   /* launches enqueue_solve() issued: what counts an untimed stream */
  gboolean     untimed;    /* ks_gauss_solver_set_timing (FALSE) */
  gboolean     graph_kernel_timing;  /* ks_gauss_solver_set_graph_kernel_timing */

  /* Kept across solves, so that a solve times no allocation and a recorded
   * graph, which holds their addresses, stays valid.  They hold systems of
   * up to capacity unknowns; a smaller n uses their beginning (the kernels
   * address row i at i * (n + 1)). */
  KsBuffer    *a, *m, *x, *info;
  guint        capacity;

  /* GRAPH: the recorded sequences by what they were recorded for
   * (graph_key); the one the last solve used. */
  KsGraphCache *graphs;
  KsGraph      *graph;

  /* BLOCKED: its kernels, built on first use. */
  KsGaussBlocked *blocked;
};

/* What a recorded solve depends on: the pivot threshold is a launch
 * argument baked into the graph, so a system with another largest |a_ij|
 * records again; so does a change of graph kernel timing. */
typedef struct {
  guint         n;
  KsRangePolicy range;
  KsLocalPolicy local;
  guint         wg;       /* 0 under DRIVER */
  double        tiny;
  gboolean      kernel_timing;
} GraphKey;

static const char *kernel_names[KS_GAUSS_N_KERNELS] = {
  "gauss_fwd_pre", "gauss_fwd", "gauss_bwd_prepare", "gauss_bwd",
};

const char *
ks_gauss_kernel_name (KsGaussKernel kernel)
{
  g_return_val_if_fail (kernel < KS_GAUSS_N_KERNELS, NULL);
  return kernel_names[kernel];
}

const char *
ks_range_policy_to_string (KsRangePolicy range)
{
  return range == KS_RANGE_SHRINKING ? "shrinking" : "fixed";
}

gboolean
ks_range_policy_from_string (const char    *s,
                             KsRangePolicy *out)
{
  if (g_ascii_strcasecmp (s, "fixed") == 0)
    *out = KS_RANGE_FIXED;
  else if (g_ascii_strcasecmp (s, "shrinking") == 0)
    *out = KS_RANGE_SHRINKING;
  else
    return FALSE;
  return TRUE;
}

double
ks_gauss_tiny_pivot (KsPrecision precision,
                     double      max_abs)
{
  double eps = precision == KS_PRECISION_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
  return eps * (max_abs > 0.0 ? max_abs : 1.0);
}

KsGaussSolver *
ks_gauss_solver_new (KsDevice     *device,
                     KsPrecision   precision,
                     GError      **error)
{
  g_autoptr(KsGaussSolver) self = NULL;
  const char *options;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s has no double precision (cl_khr_fp64); choose float"),
                   ks_device_get_name (device));
      return NULL;
    }

  self = g_new0 (KsGaussSolver, 1);
  self->device = g_object_ref (device);
  self->precision = precision;

  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    return g_steal_pointer (&self);

  options = precision == KS_PRECISION_DOUBLE ? "-DKS_REAL=double -DKS_FP64" : "-DKS_REAL=float";
  if (!(self->rt = ks_runtime_new (device, error)) ||
      !(self->program = ks_runtime_build_program (self->rt, "gauss.cl", options, error)))
    return NULL;

  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    if (!(self->kernels[i] = ks_program_create_kernel (self->program, kernel_names[i], error)))
      return NULL;

  /* What the kernels report (their preferred multiple, their largest
   * group) stays theirs (ks_gauss_solver_get_preferred_multiple): the
   * device's own figure is the device list's probe, never a solver's. */
  return g_steal_pointer (&self);
}

void
ks_gauss_solver_set_timing (KsGaussSolver *self,
                            gboolean       timing)
{
  g_return_if_fail (self != NULL);
  self->untimed = !timing;
  if (self->rt)
    ks_runtime_set_timing (self->rt, timing);
}

void
ks_gauss_solver_set_graph_kernel_timing (KsGaussSolver *self,
                                         gboolean       timing)
{
  g_return_if_fail (self != NULL);
  self->graph_kernel_timing = timing;
}

static void
free_buffers (KsGaussSolver *self)
{
  /* The graphs hold the buffers' addresses: they go first. */
  self->graph = NULL;
  if (self->graphs)
    ks_graph_cache_forget (self->graphs, NULL);
  g_clear_pointer (&self->a, ks_buffer_free);
  g_clear_pointer (&self->m, ks_buffer_free);
  g_clear_pointer (&self->x, ks_buffer_free);
  g_clear_pointer (&self->info, ks_buffer_free);
  self->capacity = 0;
}

void
ks_gauss_solver_release_buffers (KsGaussSolver *self)
{
  g_return_if_fail (self != NULL);
  free_buffers (self);
}

void
ks_gauss_solver_free (KsGaussSolver *self)
{
  if (self == NULL)
    return;
  /* The graph and the buffers belong to the runtime's context: before it. */
  free_buffers (self);
  g_clear_pointer (&self->graphs, ks_graph_cache_free);
  g_clear_pointer (&self->blocked, ks_gauss_blocked_free);
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    g_clear_pointer (&self->kernels[i], ks_kernel_free);
  g_clear_pointer (&self->program, ks_program_free);
  g_clear_pointer (&self->rt, ks_runtime_free);
  g_clear_object (&self->device);
  g_free (self);
}

KsPrecision
ks_gauss_solver_get_precision (KsGaussSolver *self)
{
  g_return_val_if_fail (self != NULL, KS_PRECISION_FLOAT);
  return self->precision;
}

gsize
ks_gauss_solver_get_preferred_multiple (KsGaussSolver *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->kernels[KS_GAUSS_FWD] ? ks_kernel_get_preferred_multiple (self->kernels[KS_GAUSS_FWD]) : 0;
}

gsize
ks_gauss_solver_get_max_work_group_size (KsGaussSolver *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->kernels[KS_GAUSS_FWD] ? ks_kernel_get_max_work_group_size (self->kernels[KS_GAUSS_FWD]) : 0;
}

/* Launches kernel over count0 items along dimension 0 (and count1 rows
 * along dimension 1 when dims == 2) under the local-size policy (its plan
 * from ks-launch.h).  The kernel's first index along dimension 0 is the
 * argument base_arg (base0, plus each part's first index: SPLIT's remainder
 * starts past the main part); record_arg tells the first launch of a step
 * to report its work-group from inside the kernel. */
static gboolean
launch_policy (KsGaussSolver       *self,
               KsKernel            *kernel,
               const KsGaussParams *params,
               guint                dims,
               gsize                count0,
               gsize                count1,
               guint                base_arg,
               int                  base0,
               guint                record_arg,
               gboolean             record,
               GError             **error)
{
  const gsize global[2] = { count0, count1 };
  KsLaunchPlan plan;

  if (!ks_launch_plan (params->local, params->wg, dims, global, &plan, error))
    return FALSE;
  for (guint i = 0; i < plan.n_parts; i++)
    {
      int base = base0 + (int) plan.parts[i].first;
      int rec = record && i == 0 ? 1 : 0;

      if (!ks_kernel_set_arg (kernel, base_arg, sizeof base, &base, error) ||
          !ks_kernel_set_arg (kernel, record_arg, sizeof rec, &rec, error) ||
          !ks_queue_launch (ks_runtime_get_queue (self->rt), kernel, &plan.parts[i].config, error))
        return FALSE;
      self->enqueued++;
    }
  return TRUE;
}

static gboolean
set_common_args (KsKernel  *kernel,
                 KsBuffer  *a,
                 KsBuffer  *v,
                 int        n,
                 GError   **error)
{
  return ks_kernel_set_arg_buffer (kernel, 0, a, error) &&
         ks_kernel_set_arg_buffer (kernel, 1, v, error) &&
         ks_kernel_set_arg (kernel, 2, sizeof n, &n, error);
}

/* Between stretches of CANCEL_CHECK_STEPS steps: the cancellable, then a
 * mark in the queue, waiting for the one before the last if the host is
 * that far ahead; the cancellable once more after a wait, which may have
 * been long. */
static gboolean
pace (KsGaussSolver *self,
      GCancellable  *cancellable,
      GError       **error)
{
  return !g_cancellable_set_error_if_cancelled (cancellable, error) &&
         ks_runtime_pace (self->rt, error) &&
         !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/* Enqueues the 2 (n - 1) forward and 2 n backward steps. */
static gboolean
enqueue_solve (KsGaussSolver       *self,
               const KsGaussParams *params,
               int                  n,
               KsBuffer            *a,
               KsBuffer            *m,
               KsBuffer            *x,
               KsBuffer            *info,
               double               tiny,
               GCancellable        *cancellable,
               GError             **error)
{
  KsKernel *pre = self->kernels[KS_GAUSS_FWD_PRE];
  KsKernel *fwd = self->kernels[KS_GAUSS_FWD];
  KsKernel *bprep = self->kernels[KS_GAUSS_BWD_PREPARE];
  KsKernel *bwd = self->kernels[KS_GAUSS_BWD];
  const gboolean fixed = params->range == KS_RANGE_FIXED;
  float tiny_f = (float) tiny;

  self->enqueued = 0;
  if (!set_common_args (pre, a, m, n, error) ||
      !ks_kernel_set_arg_buffer (pre, 5, info, error) ||
      !set_common_args (fwd, a, m, n, error) ||
      !ks_kernel_set_arg_buffer (fwd, 6, info, error) ||
      !set_common_args (bprep, a, x, n, error) ||
      !ks_kernel_set_arg_buffer (bprep, 4, info, error) ||
      !(self->precision == KS_PRECISION_DOUBLE
          ? ks_kernel_set_arg (bprep, 5, sizeof tiny, &tiny, error)
          : ks_kernel_set_arg (bprep, 5, sizeof tiny_f, &tiny_f, error)) ||
      !set_common_args (bwd, a, x, n, error) ||
      !ks_kernel_set_arg_buffer (bwd, 5, info, error))
    return FALSE;

  for (int k = 0; k <= n - 2; k++)
    {
      int row0 = fixed ? 0 : k + 1;

      if (k % CANCEL_CHECK_STEPS == 0 && !pace (self, cancellable, error))
        return FALSE;

      if (!ks_kernel_set_arg (pre, 3, sizeof k, &k, error) ||
          !launch_policy (self, pre, params, 1, fixed ? (gsize) n : (gsize) (n - k - 1), 1,
                          4, row0, 6, k == 0, error))
        return FALSE;

      if (!ks_kernel_set_arg (fwd, 3, sizeof k, &k, error) ||
          !ks_kernel_set_arg (fwd, 4, sizeof row0, &row0, error) ||
          !launch_policy (self, fwd, params, 2,
                          fixed ? (gsize) n + 1 : (gsize) (n + 1 - k),
                          fixed ? (gsize) n : (gsize) (n - k - 1),
                          5, fixed ? 0 : k, 7, k == 0, error))
        return FALSE;
    }

  for (int k = n - 1; k >= 0; k--)
    {
      gsize one = 1;

      if (k % CANCEL_CHECK_STEPS == 0 && !pace (self, cancellable, error))
        return FALSE;

      if (!ks_kernel_set_arg (bprep, 3, sizeof k, &k, error) ||
          !ks_runtime_launch (self->rt, bprep, 1, &one, &one, error))
        return FALSE;
      self->enqueued++;

      /* Under SHRINKING there is nothing above row 0 to update. */
      if (!fixed && k == 0)
        continue;
      if (!ks_kernel_set_arg (bwd, 3, sizeof k, &k, error) ||
          !launch_policy (self, bwd, params, 1, fixed ? (gsize) n : (gsize) k, 1,
                          4, 0, 6, k == n - 1, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
ks_gauss_check_launch (KsDevice      *device,
                       KsLaunchMode   launch,
                       GError       **error)
{
  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);

  if (launch == KS_LAUNCH_BLOCKED)
    {
      if (ks_device_get_backend (device) != KS_BACKEND_HOST)
        return TRUE;
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("The blocked kernels need an OpenCL or CUDA device; the host reference runs the "
                     "paper's method only"));
      return FALSE;
    }
  /* No silent fallback to the stream: a figure labelled "graph" must be one. */
  if (launch != KS_LAUNCH_GRAPH || ks_device_get_backend (device) == KS_BACKEND_CUDA)
    return TRUE;
  if (ks_device_get_backend (device) == KS_BACKEND_OPENCL)
    g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                 _("CUDA Graphs need a CUDA device; OpenCL has no graphs (%s is an OpenCL device)"),
                 ks_device_get_name (device));
  else
    g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                 _("CUDA Graphs need a CUDA device; the host reference launches no kernels to record"));
  return FALSE;
}

/* The host memory a solve of n unknowns needs at its peak, refused up front
 * with the numbers: a size the user typed must not make the process grow
 * until the machine swaps or the kernel kills it (n = 50000 on PoCL grew past
 * 8.8 GB while only the device buffers were checked).  with_system: the
 * system A, b in double is still to be built (a caller's check before
 * generating it); solve() has it already.  On a CPU OpenCL device (PoCL)
 * the device buffers are host memory too. */
static gboolean
check_host_memory (KsGaussSolver  *self,
                   guint           n,
                   gboolean        with_system,
                   GError        **error)
{
  const gsize rs = self->precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);
  const KsDeviceInfo *info = ks_device_get_info (self->device);
  const guint64 system = with_system ? ((guint64) n * n + n) * sizeof (double) : 0;
  const guint64 copy = (guint64) n * (n + 1) * rs;
  /* The solution in the solve's precision, in double, and the caller's x. */
  const guint64 solution = (guint64) n * (rs + 2 * sizeof (double));
  const gboolean buffers_on_host = self->rt != NULL && info->type == KS_DEVICE_TYPE_CPU &&
                                   n > self->capacity;
  const guint64 buffers = buffers_on_host ? ((guint64) n * (n + 1) + 2 * (guint64) n) * rs : 0;
  const guint64 need = system + copy + solution + buffers;
  const char *source = NULL;
  const guint64 available = ks_host_memory_available (&source);
  g_autoptr(GString) parts = g_string_new (NULL);

  if (available == 0 || need <= available)
    return TRUE;

  if (system)
    g_string_append_printf (parts, _("the system in double %.1f MiB, "), system / 1048576.0);
  g_string_append_printf (parts, _("its copy in %s %.1f MiB, the solution %.1f MiB"),
                          ks_precision_to_string (self->precision), copy / 1048576.0,
                          solution / 1048576.0);
  if (buffers)
    g_string_append_printf (parts, _(", %s's buffers %.1f MiB (a CPU device's memory is the host's)"),
                            info->name, buffers / 1048576.0);
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
               _("n = %u needs %.1f MiB of host memory (%s), but only %.1f MiB is available (%s)"),
               n, need / 1048576.0, parts->str, available / 1048576.0, source);
  return FALSE;
}

/* The checks of ks_gauss_solver_check; with_system as for check_host_memory. */
static gboolean
check_solve (KsGaussSolver        *self,
             guint                 n,
             const KsGaussParams  *params,
             gboolean              with_system,
             GError              **error)
{
  const KsDeviceInfo *info = ks_device_get_info (self->device);
  gsize real_size = self->precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);
  guint64 need;

  if (n < 2)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("n = %u: the method needs at least 2 unknowns"), n);
      return FALSE;
    }
  if (n > G_MAXINT / 2)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID, _("n = %u is too large"), n);
      return FALSE;
    }
  if (params->launch != KS_LAUNCH_STREAM && params->launch != KS_LAUNCH_GRAPH &&
      params->launch != KS_LAUNCH_BLOCKED)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID, _("Unknown launch mode %d"), params->launch);
      return FALSE;
    }
  if (!ks_gauss_check_launch (self->device, params->launch, error))
    return FALSE;
  if (self->rt == NULL)
    return check_host_memory (self, n, with_system, error);
  /* The update kernel puts the rows along dimension 1 (one row per block
   * there: local[1] is 1), and a CUDA grid has at most 65535 blocks along y;
   * OpenCL has no such limit, and the kernels are one source for both. */
  if (ks_device_get_backend (self->device) == KS_BACKEND_CUDA && n > KS_GAUSS_CUDA_MAX_N)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("n = %u is too large for the CUDA backend: the update kernel runs one row per "
                   "block along the grid's y dimension, which CUDA limits to %u blocks "
                   "(n <= %u; the OpenCL backend has no such limit)"),
                   n, KS_GAUSS_CUDA_MAX_N, KS_GAUSS_CUDA_MAX_N);
      return FALSE;
    }
  if (params->local != KS_LOCAL_DRIVER)
    {
      gsize max = ks_gauss_solver_get_max_work_group_size (self);

      if (params->wg == 0)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       _("The %s policy needs a work-group size of at least 1"),
                       ks_local_policy_to_string (params->local));
          return FALSE;
        }
      if (max && params->wg > max)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       _("%s refuses work-groups of %u: the Gauss kernels run at most "
                         "%lu items per group on it"),
                       info->name, params->wg, (unsigned long) max);
          return FALSE;
        }
    }

  need = ((guint64) n * (n + 1) + 2 * (guint64) n) * real_size + INFO_SIZE * sizeof (int);
  if (info->global_mem && need > info->global_mem)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("n = %u needs %.1f MiB, but %s has %.1f MiB of memory"),
                   n, need / 1048576.0, info->name, info->global_mem / 1048576.0);
      return FALSE;
    }
  return check_host_memory (self, n, with_system, error);
}

gboolean
ks_gauss_solver_check (KsGaussSolver        *self,
                       guint                 n,
                       const KsGaussParams  *params,
                       GError              **error)
{
  g_return_val_if_fail (self != NULL && params != NULL, FALSE);
  return check_solve (self, n, params, TRUE, error);
}

/* Makes the kept buffers hold a system of n unknowns.  Growing frees the
 * old ones first (two large matrices at once might not fit), and drops the
 * graph, which holds their addresses. */
static gboolean
ensure_buffers (KsGaussSolver  *self,
                guint           n,
                GError        **error)
{
  const gsize rs = self->precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);

  if (n <= self->capacity)
    return TRUE;

  free_buffers (self);

  if (!(self->a = ks_runtime_alloc (self->rt, (gsize) n * ((gsize) n + 1) * rs, error)) ||
      !(self->m = ks_runtime_alloc (self->rt, (gsize) n * rs, error)) ||
      !(self->x = ks_runtime_alloc (self->rt, (gsize) n * rs, error)) ||
      !(self->info = ks_runtime_alloc (self->rt, INFO_SIZE * sizeof (int), error)))
    {
      g_clear_pointer (&self->a, ks_buffer_free);
      g_clear_pointer (&self->m, ks_buffer_free);
      g_clear_pointer (&self->x, ks_buffer_free);
      return FALSE;
    }
  self->capacity = n;
  return TRUE;
}

static GBytes *
graph_key (KsGaussSolver       *self,
           guint                n,
           const KsGaussParams *params,
           double               tiny)
{
  GraphKey key;

  /* Padding too: the cache compares keys byte by byte. */
  memset (&key, 0, sizeof key);
  key.n = n;
  key.range = params->range;
  key.local = params->local;
  key.wg = params->local == KS_LOCAL_DRIVER ? 0 : params->wg;
  key.tiny = tiny;
  key.kernel_timing = self->graph_kernel_timing;
  return g_bytes_new (&key, sizeof key);
}

typedef struct {
  KsGaussSolver       *self;
  const KsGaussParams *params;
  guint                n;
  double               tiny;
} RecordData;

static gboolean
record_solve (gpointer       data,
              GCancellable  *cancellable,
              GError       **error)
{
  RecordData *r = data;
  KsGaussSolver *self = r->self;

  return enqueue_solve (self, r->params, (int) r->n, self->a, self->m, self->x, self->info, r->tiny,
                        cancellable, error);
}

/* The graph of this solve's shape: the cache's, or recorded now (the whole
 * launch sequence, instantiated and on the device, ready to replay). */
static gboolean
find_graph (KsGaussSolver       *self,
            const KsGaussParams *params,
            guint                n,
            double               tiny,
            GCancellable        *cancellable,
            KsGaussResult       *result,
            GError             **error)
{
  g_autoptr(GBytes) key = graph_key (self, n, params, tiny);
  RecordData data = { self, params, n, tiny };

  /* One graph at a time, as before the cache: each holds ~4n launches. */
  if (self->graphs == NULL)
    self->graphs = ks_graph_cache_new (self->rt, 1);
  if ((self->graph = ks_graph_cache_lookup (self->graphs, key)))
    {
      result->graph_replay = TRUE;
      return TRUE;
    }
  ks_runtime_set_graph_kernel_timing (self->rt, self->graph_kernel_timing);
  self->graph = ks_graph_cache_record (self->graphs, key, record_solve, &data, cancellable,
                                       &result->capture_ms, error);
  return self->graph != NULL;
}

/* A replay that failed: its graph is not trusted again. */
static void
drop_graph (KsGaussSolver *self)
{
  self->graph = NULL;
  if (self->graphs)
    ks_graph_cache_forget (self->graphs, NULL);
}

/* The device times and launch counts of the solve just run into result. */
static gboolean
collect_times (KsGaussSolver       *self,
               const KsGaussParams *params,
               KsGaussResult       *result,
               GError             **error)
{
  if (params->launch == KS_LAUNCH_GRAPH)
    {
      guint64 ns = 0;

      if (!ks_graph_collect_time (self->graph, &ns, error))
        {
          drop_graph (self);
          return FALSE;
        }
      result->kernels_total_ms = ns / 1e6;
      result->launches = ks_graph_get_launches (self->graph);
      /* Recorded with event pairs: each kernel's time from this replay. */
      if (!self->untimed && ks_graph_has_kernel_times (self->graph))
        for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
          result->kernel_ms[i] = ks_kernel_get_time_ns (self->kernels[i]) / 1e6;
      return TRUE;
    }
  if (!ks_runtime_collect_timings (self->rt, error))
    return FALSE;
  if (params->launch == KS_LAUNCH_BLOCKED)
    {
      /* Its kernels are none of the paper's four: the total alone. */
      result->kernels_total_ms = ks_gauss_blocked_get_time_ns (self->blocked) / 1e6;
      result->launches = ks_gauss_blocked_get_launches (self->blocked);
      return TRUE;
    }
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    {
      result->kernel_ms[i] = ks_kernel_get_time_ns (self->kernels[i]) / 1e6;
      result->kernels_total_ms += result->kernel_ms[i];
      result->launches += ks_kernel_get_launches (self->kernels[i]);
    }
  /* Untimed launches leave no event to count them by. */
  if (self->untimed)
    result->launches = self->enqueued;
  return TRUE;
}

/* Everything from the upload to the download of one solve, by the launch
 * mode asked for; info_host receives the kernels' reports. */
static gboolean
run_solve (KsGaussSolver       *self,
           const KsGaussParams *params,
           guint                n,
           const void          *host_a,
           void                *host_x,
           int                 *info_host,
           double               tiny,
           GCancellable        *cancellable,
           GError             **error)
{
  const gsize rs = self->precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);
  gboolean ok;

  if (!ks_runtime_write (self->rt, self->a, 0, (gsize) n * (n + 1) * rs, host_a, error) ||
      !ks_runtime_write (self->rt, self->info, 0, INFO_SIZE * sizeof (int), info_host, error))
    {
      ks_runtime_discard_timings (self->rt);
      return FALSE;
    }
  switch (params->launch)
    {
    case KS_LAUNCH_GRAPH:
      ok = !g_cancellable_set_error_if_cancelled (cancellable, error) &&
           (self->untimed ? ks_graph_launch (self->graph, error) : ks_graph_launch_timed (self->graph, error));
      break;
    case KS_LAUNCH_BLOCKED:
      ok = ks_gauss_blocked_enqueue (self->blocked, (int) n, self->a, self->x, self->info, tiny, cancellable,
                                     error);
      break;
    case KS_LAUNCH_STREAM:
    default:
      ok = enqueue_solve (self, params, (int) n, self->a, self->m, self->x, self->info, tiny, cancellable, error);
      break;
    }
  if (!ok || !ks_runtime_read (self->rt, self->x, 0, (gsize) n * rs, host_x, error) ||
      !ks_runtime_read (self->rt, self->info, 0, INFO_SIZE * sizeof (int), info_host, error))
    {
      /* Drain the queue so the next solve does not write under running kernels. */
      ks_runtime_finish (self->rt, NULL);
      ks_runtime_discard_timings (self->rt);
      ks_runtime_pace_reset (self->rt);
      if (params->launch == KS_LAUNCH_GRAPH)
        drop_graph (self);
      return FALSE;
    }
  ks_runtime_pace_reset (self->rt);
  return TRUE;
}

/* What the solve needs before its clock starts: the kernels' timers
 * cleared, the buffers, and the blocked kernels or the graph. */
static gboolean
prepare_solve (KsGaussSolver       *self,
               const KsGaussParams *params,
               guint                n,
               double               tiny,
               GCancellable        *cancellable,
               KsGaussResult       *result,
               GError             **error)
{
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    ks_kernel_reset_timing (self->kernels[i]);
  if (!ensure_buffers (self, n, error))
    return FALSE;
  if (params->launch == KS_LAUNCH_BLOCKED)
    {
      if (self->blocked == NULL && !(self->blocked = ks_gauss_blocked_new (self->rt, self->precision, error)))
        return FALSE;
      ks_gauss_blocked_reset_timing (self->blocked);
    }
  return params->launch != KS_LAUNCH_GRAPH || find_graph (self, params, n, tiny, cancellable, result, error);
}

gboolean
ks_gauss_solver_solve (KsGaussSolver        *self,
                       const KsLinearSystem *sys,
                       const KsGaussParams  *params,
                       GCancellable         *cancellable,
                       double               *x_out,
                       KsGaussResult        *result,
                       GError              **error)
{
  g_autofree void *host_a = NULL;
  g_autofree void *host_x = NULL;
  g_autofree double *xd = NULL;
  const gboolean dbl = self->precision == KS_PRECISION_DOUBLE;
  const guint n = sys->n;
  int info_host[INFO_SIZE] = { 0 };
  gint64 t0;
  double tiny;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (sys != NULL, FALSE);
  g_return_val_if_fail (params != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);

  memset (result, 0, sizeof *result);
  result->n = n;
  result->launch = params->launch;

  /* The system exists: only what the solve adds to it is checked. */
  if (!check_solve (self, n, params, FALSE, error))
    return FALSE;
  if (self->rt == NULL)
    return ks_gauss_host_solve (sys, self->precision, cancellable, x_out, result, error);

  if (!(host_a = ks_linear_system_to_augmented (sys, dbl, error)))
    return FALSE;
  host_x = g_malloc ((gsize) n * (dbl ? sizeof (double) : sizeof (float)));
  tiny = ks_gauss_tiny_pivot (self->precision, ks_linear_system_max_abs (sys));
  if (!prepare_solve (self, params, n, tiny, cancellable, result, error))
    return FALSE;

  t0 = g_get_monotonic_time ();
  if (!run_solve (self, params, n, host_a, host_x, info_host, tiny, cancellable, error))
    return FALSE;
  result->wall_ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (!collect_times (self, params, result, error))
    return FALSE;
  result->fwd_local[0] = info_host[INFO_FWD_LOCAL0];
  result->fwd_local[1] = info_host[INFO_FWD_LOCAL1];
  result->fwd_groups[0] = info_host[INFO_FWD_GROUPS0];
  result->fwd_groups[1] = info_host[INFO_FWD_GROUPS1];
  result->pre_local = info_host[INFO_PRE_LOCAL];
  result->bwd_local = info_host[INFO_BWD_LOCAL];

  if (info_host[INFO_BAD_PIVOT] > 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR,
                   _("The pivot of row %d is zero or too small (|a_kk| <= %.3g) after elimination: "
                   "the matrix is singular or needs row exchanges, which this method "
                   "(Gauss without pivoting, as in the paper) does not do"),
                   info_host[INFO_BAD_PIVOT], tiny);
      return FALSE;
    }

  xd = g_new (double, n);
  for (guint i = 0; i < n; i++)
    xd[i] = dbl ? ((double *) host_x)[i] : ((float *) host_x)[i];
  if (!ks_linear_system_check_solution (xd, n, dbl, error))
    return FALSE;
  result->residual = ks_linear_system_residual (sys, xd);
  if (x_out)
    memcpy (x_out, xd, n * sizeof (double));
  return TRUE;
}
