/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-tridiag"

#include "ks-tridiag.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The kernels of kernels/tridiag.cl; thomas_staged serves both staged
 * Thomas methods and paracr_partial both partial PARACR ones: the layout is
 * a pair of strides, not another kernel. */
typedef enum {
  K_THOMAS_GLOBAL,
  K_THOMAS_STAGED,
  K_SERICR_GLOBAL,
  K_SERICR_LOCAL,
  K_PARACR_GLOBAL,
  K_PARACR_FULL,
  K_PARACR_PARTIAL,
  N_KERNELS
} Kernel;

static const char *kernel_names[N_KERNELS] = {
  "thomas_global", "thomas_staged", "sericr_global", "sericr_local",
  "paracr_global", "paracr_full", "paracr_partial",
};

static const Kernel method_kernel[KS_TRIDIAG_N_DEVICE_METHODS] = {
  K_THOMAS_GLOBAL, K_THOMAS_STAGED, K_THOMAS_STAGED,
  K_SERICR_GLOBAL, K_SERICR_LOCAL,
  K_PARACR_GLOBAL, K_PARACR_FULL, K_PARACR_PARTIAL, K_PARACR_PARTIAL,
};

/* Rows per staged chunk and systems per group of the one-item-per-system
 * kernels: 4 x 16 x 64 doubles is 32 KiB of local memory, within every
 * GPU's 48 KiB.  SERICR's chunk is even (odd rows reduced, even ones their
 * neighbours).  PARACR's groups: up to 256 items over a system's rows. */
#define THOMAS_CHUNK 16u
#define SYSTEMS_PER_GROUP 64u
#define SERICR_CHUNK 16u
#define SERICR_GROUP 32u
#define PARACR_GROUP 256u

struct _KsTridiagSolver
{
  KsDevice    *device;
  KsPrecision  precision;
  KsRuntime   *rt;
  KsProgram   *program;
  KsKernel    *kernels[N_KERNELS];

  /* What ks_tridiag_solver_load() set up. */
  gboolean        loaded;
  KsTridiagMethod method;
  guint           n;        /* the batch's */
  guint           stride;   /* n, or padded to 2^k - 1 */
  guint           systems;
  KsBuffer       *in[4];    /* a, b, c, d */
  KsBuffer       *work[4];  /* Thomas: c'; SERICR: a..d reduced; PARACR: two sets of four */
  KsBuffer       *x, *info;
};

static gboolean
method_interleaved (KsTridiagMethod method)
{
  return method == KS_TRIDIAG_THOMAS_INTERLEAVED || method == KS_TRIDIAG_PARACR_INTERLEAVED;
}

/* Work arrays as large as one diagonal: Thomas keeps c', SERICR reduces a
 * copy of a..d, PARACR swaps between two sets of four. */
static guint
work_arrays (KsTridiagMethod method)
{
  switch (method_kernel[method])
    {
    case K_THOMAS_GLOBAL:
    case K_THOMAS_STAGED:
      return 1;
    case K_SERICR_GLOBAL:
    case K_SERICR_LOCAL:
      return 4;
    default:
      return 8;
    }
}

/* The buffers they lie in: PARACR's set of four is one buffer (the kernel
 * finds b, c, d at 1, 2, 3 arrays in). */
static guint
work_buffers (KsTridiagMethod method)
{
  return work_arrays (method) == 8 ? 2 : work_arrays (method);
}

guint64
ks_tridiag_device_bytes (KsTridiagMethod method,
                         KsPrecision     precision,
                         guint           n,
                         guint           systems,
                         gboolean        pad)
{
  const guint stride = ks_tridiag_method_needs_2k1 (method) && pad ? ks_tridiag_padded_size (n) : n;

  g_return_val_if_fail (method < KS_TRIDIAG_N_DEVICE_METHODS, 0);
  /* Inputs, work arrays and x, then one status int per system. */
  return (guint64) stride * systems * ks_precision_size (precision) * (4 + work_arrays (method) + 1) +
         (guint64) systems * sizeof (gint32);
}

KsTridiagSolver *
ks_tridiag_solver_new (KsDevice    *device,
                       KsPrecision  precision,
                       GError     **error)
{
  g_autoptr(KsTridiagSolver) self = NULL;
  const char *options;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("the tridiagonal kernels run on OpenCL and CUDA devices; on the host choose cpu-thomas, "
                     "cpu-sericr, omp-thomas or lapack-gtsv"));
      return NULL;
    }
  if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s has no double precision (cl_khr_fp64); choose float"), ks_device_get_name (device));
      return NULL;
    }

  self = g_new0 (KsTridiagSolver, 1);
  self->device = g_object_ref (device);
  self->precision = precision;
  options = precision == KS_PRECISION_DOUBLE ? "-DKS_REAL=double -DKS_FP64" : "-DKS_REAL=float";
  if (!(self->rt = ks_runtime_new (device, error)) ||
      !(self->program = ks_runtime_build_program (self->rt, "tridiag.cl", options, error)))
    return NULL;
  for (guint i = 0; i < N_KERNELS; i++)
    if (!(self->kernels[i] = ks_program_create_kernel (self->program, kernel_names[i], error)))
      return NULL;
  return g_steal_pointer (&self);
}

static void
unload (KsTridiagSolver *self)
{
  for (guint i = 0; i < 4; i++)
    {
      g_clear_pointer (&self->in[i], ks_buffer_unref);
      g_clear_pointer (&self->work[i], ks_buffer_unref);
    }
  g_clear_pointer (&self->x, ks_buffer_unref);
  g_clear_pointer (&self->info, ks_buffer_unref);
  self->loaded = FALSE;
}

void
ks_tridiag_solver_release (KsTridiagSolver *self)
{
  g_return_if_fail (self != NULL);
  unload (self);
}

void
ks_tridiag_solver_free (KsTridiagSolver *self)
{
  if (self == NULL)
    return;
  /* Buffers and kernels belong to the runtime's context: before it. */
  unload (self);
  for (guint i = 0; i < N_KERNELS; i++)
    g_clear_pointer (&self->kernels[i], ks_kernel_unref);
  g_clear_pointer (&self->program, ks_program_unref);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self);
}

/* Device memory, and on a CPU device (PoCL: the buffers are host memory)
 * the host's too, before anything is allocated. */
static gboolean
check_fits (KsTridiagSolver *self,
            KsTridiagMethod  method,
            guint            n,
            guint            systems,
            gboolean         pad,
            GError         **error)
{
  const KsDeviceInfo *info = ks_device_get_info (self->device);
  const guint64 need = ks_tridiag_device_bytes (method, self->precision, n, systems, pad);
  const guint stride = ks_tridiag_method_needs_2k1 (method) && pad ? ks_tridiag_padded_size (n) : n;
  const guint64 array = (guint64) stride * systems * ks_precision_size (self->precision);
  const guint64 largest = work_arrays (method) == 8 ? 4 * array : array;
  const char *source = NULL;
  guint64 available;

  if (info->global_mem && need > info->global_mem)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%s on %u systems of %u unknowns needs %.1f MiB of device memory; %s has %.1f MiB"),
                   ks_tridiag_method_to_string (method), systems, n, need / 1048576.0,
                   ks_device_get_name (self->device), info->global_mem / 1048576.0);
      return FALSE;
    }
  if (info->max_alloc && largest > info->max_alloc)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%s on %u systems of %u unknowns needs a buffer of %.1f MiB; %s allocates at most %.1f MiB "
                     "at once"),
                   ks_tridiag_method_to_string (method), systems, n, largest / 1048576.0,
                   ks_device_get_name (self->device), info->max_alloc / 1048576.0);
      return FALSE;
    }
  if (info->type == KS_DEVICE_TYPE_CPU && (available = ks_host_memory_available (&source)) &&
      need > available)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%s on %u systems of %u unknowns needs %.1f MiB of host memory for %s's buffers, but only "
                     "%.1f MiB is available (%s)"),
                   ks_tridiag_method_to_string (method), systems, n, need / 1048576.0,
                   ks_device_get_name (self->device), available / 1048576.0, source);
      return FALSE;
    }
  return TRUE;
}

/* One of the batch's diagonals in the device's precision and the method's
 * layout, each system padded to stride unknowns with pad_value. */
static gpointer
pack (const KsTridiagBatch *batch,
      const double         *src,
      guint                 stride,
      gboolean              interleaved,
      double                pad_value,
      gboolean              fp64)
{
  const gsize total = (gsize) stride * batch->systems;
  gpointer out = g_malloc (total * (fp64 ? sizeof (double) : sizeof (float)));

  for (guint s = 0; s < batch->systems; s++)
    for (guint i = 0; i < stride; i++)
      {
        const double v = i < batch->n ? src[(gsize) s * batch->n + i] : pad_value;
        const gsize k = interleaved ? (gsize) i * batch->systems + s : (gsize) s * stride + i;
        if (fp64)
          ((double *) out)[k] = v;
        else
          ((float *) out)[k] = (float) v;
      }
  return out;
}

gboolean
ks_tridiag_solver_load (KsTridiagSolver      *self,
                        const KsTridiagBatch *batch,
                        KsTridiagMethod       method,
                        gboolean              pad,
                        GError              **error)
{
  const gboolean fp64 = self->precision == KS_PRECISION_DOUBLE;
  const double *diagonals[4];
  const double pad_values[4] = { 0.0, 1.0, 0.0, 0.0 };
  guint stride;
  gsize array;

  g_return_val_if_fail (self != NULL && batch != NULL, FALSE);
  g_return_val_if_fail (method < KS_TRIDIAG_N_DEVICE_METHODS, FALSE);

  unload (self);
  stride = batch->n;
  if (ks_tridiag_method_needs_2k1 (method) && ks_tridiag_padded_size (batch->n) != batch->n)
    {
      if (!pad)
        {
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                       _("%s needs systems of 2^k - 1 unknowns; %u is not (the next is %u: let it pad, or "
                         "choose Thomas or PARACR)"),
                       ks_tridiag_method_to_string (method), batch->n, ks_tridiag_padded_size (batch->n));
          return FALSE;
        }
      stride = ks_tridiag_padded_size (batch->n);
    }
  if (!check_fits (self, method, batch->n, batch->systems, pad, error))
    return FALSE;

  array = (gsize) stride * batch->systems * ks_precision_size (self->precision);
  diagonals[0] = batch->a;
  diagonals[1] = batch->b;
  diagonals[2] = batch->c;
  diagonals[3] = batch->d;
  for (guint i = 0; i < 4; i++)
    {
      g_autofree gpointer host = pack (batch, diagonals[i], stride, method_interleaved (method), pad_values[i], fp64);
      if (!(self->in[i] = ks_runtime_alloc_full (self->rt, array, KS_BUFFER_READ_ONLY, error)) ||
          !ks_runtime_write (self->rt, self->in[i], 0, array, host, error))
        return FALSE;
    }
  for (guint i = 0; i < work_buffers (method); i++)
    if (!(self->work[i] = ks_runtime_alloc (self->rt, work_arrays (method) == 8 ? 4 * array : array, error)))
      return FALSE;
  if (!(self->x = ks_runtime_alloc_full (self->rt, array, KS_BUFFER_WRITE_ONLY, error)) ||
      !(self->info = ks_runtime_alloc (self->rt, (gsize) batch->systems * sizeof (gint32), error)))
    return FALSE;

  self->method = method;
  self->n = batch->n;
  self->stride = stride;
  self->systems = batch->systems;
  self->loaded = TRUE;
  return TRUE;
}

static gsize
round_up (gsize v,
          gsize to)
{
  return (v + to - 1) / to * to;
}

/* Sets the arguments of the loaded method's kernel and its launch shape. */
static gboolean
set_args (KsTridiagSolver *self,
          KsKernel        *kernel,
          KsLaunchConfig  *config,
          GError         **error)
{
  const Kernel which = method_kernel[self->method];
  const gboolean interleaved = method_interleaved (self->method);
  const guint64 sys_stride = interleaved ? 1 : self->stride;
  const guint64 row_stride = interleaved ? self->systems : 1;
  const gsize real = ks_precision_size (self->precision);
  const gsize max_wg = ks_kernel_get_max_work_group_size (kernel);
  guint arg = 0, chunk;
  gsize g;

  for (guint i = 0; i < 4; i++)
    if (!ks_kernel_set_arg_buffer (kernel, arg++, self->in[i], error))
      return FALSE;
  for (guint i = 0; i < work_buffers (self->method); i++)
    if (!ks_kernel_set_arg_buffer (kernel, arg++, self->work[i], error))
      return FALSE;
  if (!ks_kernel_set_arg_buffer (kernel, arg++, self->x, error) ||
      !ks_kernel_set_arg_buffer (kernel, arg++, self->info, error) ||
      !ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &self->stride, error) ||
      !ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &self->systems, error) ||
      !ks_kernel_set_arg (kernel, arg++, sizeof sys_stride, &sys_stride, error) ||
      !ks_kernel_set_arg (kernel, arg++, sizeof row_stride, &row_stride, error))
    return FALSE;

  memset (config, 0, sizeof *config);
  config->dims = 1;
  switch (which)
    {
    case K_THOMAS_GLOBAL:
    case K_SERICR_GLOBAL:
      g = MIN (SYSTEMS_PER_GROUP, max_wg);
      config->global[0] = round_up (self->systems, g);
      break;
    case K_THOMAS_STAGED:
    case K_SERICR_LOCAL:
      g = MIN (which == K_THOMAS_STAGED ? SYSTEMS_PER_GROUP : SERICR_GROUP, max_wg);
      chunk = which == K_THOMAS_STAGED ? THOMAS_CHUNK : SERICR_CHUNK;
      if (!ks_kernel_set_arg (kernel, arg++, sizeof chunk, &chunk, error))
        return FALSE;
      /* SERICR stages chunk + 1 rows: the reduced ones and their neighbours. */
      for (guint i = 0; i < 4; i++)
        if (!ks_kernel_set_arg_local (kernel, arg++, (chunk + (which == K_SERICR_LOCAL)) * g * real, error))
          return FALSE;
      config->global[0] = round_up (self->systems, g);
      break;
    default:
      /* A group per system; no more items than rows (in whole warps). */
      g = MIN (MIN (PARACR_GROUP, max_wg), round_up (self->stride, 32));
      /* Room for three windows of g rows, four coefficients each. */
      if (!ks_kernel_set_arg_local (kernel, arg++, which == K_PARACR_GLOBAL ? real : 12 * g * real, error))
        return FALSE;
      config->global[0] = (gsize) self->systems * g;
      break;
    }
  config->local[0] = g;
  return TRUE;
}

gboolean
ks_tridiag_solver_run (KsTridiagSolver *self,
                       KsTridiagResult *result,
                       GError         **error)
{
  KsKernel *kernel;
  KsLaunchConfig config;
  KsQueue *queue;
  const gint32 zero = 0;
  g_autofree gint32 *info = NULL;
  gint64 t0;
  double wall_ms;

  g_return_val_if_fail (self != NULL && result != NULL, FALSE);
  g_return_val_if_fail (self->loaded, FALSE);

  kernel = self->kernels[method_kernel[self->method]];
  queue = ks_runtime_get_queue (self->rt);
  if (!set_args (self, kernel, &config, error) ||
      !ks_queue_fill (queue, self->info, &zero, sizeof zero, 0, (gsize) self->systems * sizeof zero, NULL, error) ||
      !ks_runtime_finish (self->rt, error))
    return FALSE;

  ks_kernel_reset_timing (kernel);
  t0 = g_get_monotonic_time ();
  if (!ks_queue_launch (queue, kernel, &config, error) ||
      !ks_runtime_finish (self->rt, error))
    {
      ks_runtime_discard_timings (self->rt);
      return FALSE;
    }
  wall_ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (!ks_runtime_collect_timings (self->rt, error))
    return FALSE;

  memset (result, 0, sizeof *result);
  result->wall_ms = wall_ms;
  result->kernel_ms = ks_kernel_get_time_ns (kernel) / 1e6;
  result->n = self->stride;
  result->local_size = (guint) config.local[0];

  /* The status the kernels wrote, after the clock. */
  info = g_new (gint32, self->systems);
  if (!ks_runtime_read (self->rt, self->info, 0, (gsize) self->systems * sizeof (gint32), info, error))
    return FALSE;
  for (guint s = 0; s < self->systems; s++)
    if (info[s] != 0)
      {
        g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT,
                     _("%s met a zero pivot in system %u at row %u (it does not pivot: the system may be "
                       "singular or far from diagonally dominant)"),
                     ks_tridiag_method_to_string (self->method), s, (guint) (info[s] - 1));
        return FALSE;
      }
  return TRUE;
}

gboolean
ks_tridiag_solver_read (KsTridiagSolver *self,
                        double          *x,
                        GError         **error)
{
  const gboolean fp64 = self->precision == KS_PRECISION_DOUBLE;
  const gboolean interleaved = method_interleaved (self->method);
  const gsize total = (gsize) self->stride * self->systems;
  g_autofree gpointer host = NULL;

  g_return_val_if_fail (self != NULL && x != NULL, FALSE);
  g_return_val_if_fail (self->loaded, FALSE);

  host = g_malloc (total * ks_precision_size (self->precision));
  if (!ks_runtime_read (self->rt, self->x, 0, total * ks_precision_size (self->precision), host, error))
    return FALSE;
  for (guint s = 0; s < self->systems; s++)
    for (guint i = 0; i < self->n; i++)
      {
        const gsize k = interleaved ? (gsize) i * self->systems + s : (gsize) s * self->stride + i;
        x[(gsize) s * self->n + i] = fp64 ? ((double *) host)[k] : ((float *) host)[k];
      }
  return TRUE;
}
