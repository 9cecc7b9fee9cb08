/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-tridiag"

#include "ks-tridiag.h"
#include "ks-compute-error.h"
#include "ks-tridiag-split.h"
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
  K_PARACR_STEP,
  K_PARACR_FINISH,
  K_THOMAS_COALESCED,
  K_TRANSPOSE,
  K_PARACR_TILE,
  N_KERNELS,
  K_SPLIT = N_KERNELS,   /* thomas-split: kernels/tridiag-split.cl (ks-tridiag-split.c) */
} Kernel;

static const char *kernel_names[N_KERNELS] = {
  "thomas_global", "thomas_staged", "sericr_global", "sericr_local",
  "paracr_global", "paracr_full", "paracr_partial", "paracr_step", "paracr_finish",
  "thomas_coalesced", "tridiag_transpose", "paracr_tile",
};

static const Kernel method_kernel[KS_TRIDIAG_N_DEVICE_METHODS] = {
  K_THOMAS_GLOBAL, K_THOMAS_STAGED, K_THOMAS_STAGED,
  K_SERICR_GLOBAL, K_SERICR_LOCAL,
  K_PARACR_GLOBAL, K_PARACR_FULL, K_PARACR_PARTIAL, K_PARACR_PARTIAL, K_PARACR_STEP,
  K_THOMAS_COALESCED, K_TRANSPOSE, K_PARACR_TILE, K_SPLIT,
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
/* thomas_coalesced: one item per system, in groups of 64 (40,000 systems
 * make 625 groups, a few per multiprocessor, evenly spread).  paracr_tile:
 * 256 items over a tile of up to 40 KiB (two sets of four coefficients),
 * within the 48 KiB every GPU (and NVIDIA's OpenCL) gives a group; PARACR
 * until each system left has about HYBRID_SUB_ROWS rows, or there are
 * HYBRID_MAX_SYSTEMS of them (2^24 unknowns: 32768 of 512). */
#define COALESCED_GROUP 64u
#define TILE_GROUP 256u
#define TILE_BYTES (40u * 1024u)
#define HYBRID_SUB_ROWS 512u
#define HYBRID_MAX_SYSTEMS 32768u

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
  KsBuffer       *work[8];  /* Thomas: c'; SERICR: a..d reduced; PARACR: two sets of four;
                             * thomas-transposed: a..d interleaved, c', x interleaved */
  KsBuffer       *x, *info;
  /* paracr-thomas's shape (ks_tridiag_solver_set_hybrid); 0: the default. */
  guint           tile_rows, sub_rows;
  KsTridiagSplit *split;    /* thomas-split's, built on its first solve */
  guint           split_rows;  /* its pieces' rows forced (ks_tridiag_solver_set_split); 0: chosen */
  int             split_stream;  /* ks_tridiag_solver_set_split_stream: -1 chosen */
  guint           split_groups;  /* its groups forced; 0: chosen */
};

static gboolean
method_interleaved (KsTridiagMethod method)
{
  return method == KS_TRIDIAG_THOMAS_INTERLEAVED || method == KS_TRIDIAG_PARACR_INTERLEAVED ||
         method == KS_TRIDIAG_THOMAS_COALESCED;
}

/* Work arrays as large as one diagonal: Thomas keeps c', SERICR reduces a
 * copy of a..d, PARACR swaps between two sets of four; thomas-transposed
 * holds the interleaved a..d, c' and x. */
static guint
work_arrays (KsTridiagMethod method)
{
  switch (method_kernel[method])
    {
    case K_THOMAS_GLOBAL:
    case K_THOMAS_STAGED:
    case K_THOMAS_COALESCED:
      return 1;
    case K_SERICR_GLOBAL:
    case K_SERICR_LOCAL:
      return 4;
    case K_TRANSPOSE:
      return 6;
    case K_SPLIT:
      return 0;
    default:
      return 8;
    }
}

/* Arrays per work buffer: the paper's PARACR kernels find a set of four
 * in one buffer (b, c, d at 1, 2, 3 arrays in); the others take one
 * array a buffer. */
static guint
work_buffer_arrays (KsTridiagMethod method)
{
  switch (method_kernel[method])
    {
    case K_PARACR_GLOBAL:
    case K_PARACR_FULL:
    case K_PARACR_PARTIAL:
    case K_PARACR_STEP:
      return 4;
    default:
      return 1;
    }
}

static guint
work_buffers (KsTridiagMethod method)
{
  return work_arrays (method) / work_buffer_arrays (method);
}

/* The status: one int per system, and one more where paracr-thomas puts
 * the batch's row it met a zero pivot in. */
static gsize
info_bytes (guint systems)
{
  return ((gsize) systems + 1) * sizeof (gint32);
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
  /* Inputs, work arrays and x, then the status. */
  return (guint64) stride * systems * ks_precision_size (precision) * (4 + work_arrays (method) + 1) +
         info_bytes (systems);
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
  /* KS_TRIDIAG_SPLIT_ROWS=8|16: thomas-split's pieces forced, to time both
   * builds on a GPU (tests/device/kernels-bench.sh SPLIT_ROWS). */
  if (g_getenv ("KS_TRIDIAG_SPLIT_ROWS"))
    self->split_rows = (guint) g_ascii_strtoull (g_getenv ("KS_TRIDIAG_SPLIT_ROWS"), NULL, 10);
  /* KS_TRIDIAG_SPLIT_STREAM=0|1: streamed or not, to time both (SPLIT_STREAM). */
  self->split_stream = g_getenv ("KS_TRIDIAG_SPLIT_STREAM")
                       ? (int) g_ascii_strtoll (g_getenv ("KS_TRIDIAG_SPLIT_STREAM"), NULL, 10) : -1;
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
  for (guint i = 0; i < G_N_ELEMENTS (self->in); i++)
    g_clear_pointer (&self->in[i], ks_buffer_unref);
  /* All of them: PARACR's methods use eight (two sets of four). */
  for (guint i = 0; i < G_N_ELEMENTS (self->work); i++)
    g_clear_pointer (&self->work[i], ks_buffer_unref);
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
  g_clear_pointer (&self->split, ks_tridiag_split_free);
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
  const guint64 largest = work_buffer_arrays (method) * array;
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

  /* On every core: 40,000 systems of 4095 are 164 M values an array, a
   * second or more on one core, and a benchmark loads them once a method. */
  _Pragma ("omp parallel for schedule(static) if (total > 65536)")
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

/* Refuses a batch the method cannot take at all (whatever the memory),
 * saying which method would. */
static gboolean
check_method_takes (KsTridiagSolver      *self,
                    const KsTridiagBatch *batch,
                    KsTridiagMethod       method,
                    GError              **error)
{
  /* Its systems go along a grid dimension CUDA caps at 65535 blocks. */
  if (method == KS_TRIDIAG_PARACR_STEPS && batch->systems > 65535)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("paracr-steps spreads one system (or a few: at most 65535) over the device; for %u systems "
                     "choose paracr-partial"), batch->systems);
      return FALSE;
    }
  /* thomas_coalesced and paracr_tile index the whole batch in 32 bits. */
  if ((method_kernel[method] == K_THOMAS_COALESCED || method_kernel[method] == K_TRANSPOSE ||
       method_kernel[method] == K_PARACR_TILE) && (guint64) batch->n * batch->systems > G_MAXUINT32)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s indexes a batch in 32 bits: %u systems of %u unknowns are %.0f in all, over %u; "
                     "solve it in parts"),
                   ks_tridiag_method_to_string (method), batch->systems, batch->n,
                   (double) batch->n * batch->systems, G_MAXUINT32);
      return FALSE;
    }
  return method != KS_TRIDIAG_THOMAS_SPLIT ||
         ks_tridiag_split_check (self->device, self->precision, batch->n, batch->systems, error);
}

/* The unknowns each system takes on the device: n, or for a method that
 * needs 2^k - 1 the next such size when pad allows it. */
static gboolean
choose_stride (const KsTridiagBatch *batch,
               KsTridiagMethod       method,
               gboolean              pad,
               guint                *stride,
               GError              **error)
{
  *stride = batch->n;
  if (!ks_tridiag_method_needs_2k1 (method) || ks_tridiag_padded_size (batch->n) == batch->n)
    return TRUE;
  if (!pad)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("%s needs systems of 2^k - 1 unknowns; %u is not (the next is %u: let it pad, or "
                     "choose Thomas or PARACR)"),
                   ks_tridiag_method_to_string (method), batch->n, ks_tridiag_padded_size (batch->n));
      return FALSE;
    }
  *stride = ks_tridiag_padded_size (batch->n);
  return TRUE;
}

/* The batch's diagonals packed for method, its work buffers and x
 * zeroed, and room for the systems' info, all on the device. */
static gboolean
upload (KsTridiagSolver      *self,
        const KsTridiagBatch *batch,
        KsTridiagMethod       method,
        guint                 stride,
        GError              **error)
{
  const gboolean fp64 = self->precision == KS_PRECISION_DOUBLE;
  const double *diagonals[4] = { batch->a, batch->b, batch->c, batch->d };
  const double pad_values[4] = { 0.0, 1.0, 0.0, 0.0 };
  const gsize array = (gsize) stride * batch->systems * ks_precision_size (self->precision);
  const gint32 zero = 0;

  for (guint i = 0; i < 4; i++)
    {
      g_autofree gpointer host = pack (batch, diagonals[i], stride, method_interleaved (method), pad_values[i], fp64);
      if (!(self->in[i] = ks_runtime_alloc_full (self->rt, array, KS_BUFFER_READ_ONLY, error)) ||
          !ks_runtime_write (self->rt, self->in[i], 0, array, host, error))
        return FALSE;
    }
  /* Zeroed, outside the clock: a kernel may load a value it then does not
   * use (x_{i+h} past a system's end, selected away), which Oclgrind
   * reports as uninitialised when nothing was ever written there. */
  for (guint i = 0; i < work_buffers (method); i++)
    if (!(self->work[i] = ks_runtime_alloc (self->rt, work_buffer_arrays (method) * array, error)) ||
        !ks_queue_fill (ks_runtime_get_queue (self->rt), self->work[i], &zero, sizeof zero, 0,
                        work_buffer_arrays (method) * array, NULL, error))
      return FALSE;
  /* Read and written: the Thomas kernels keep d' in x until it becomes x. */
  return (self->x = ks_runtime_alloc (self->rt, array, error)) &&
         ks_queue_fill (ks_runtime_get_queue (self->rt), self->x, &zero, sizeof zero, 0, array, NULL, error) &&
         (self->info = ks_runtime_alloc (self->rt, info_bytes (batch->systems), error)) &&
         ks_runtime_finish (self->rt, error);
}

gboolean
ks_tridiag_solver_load (KsTridiagSolver      *self,
                        const KsTridiagBatch *batch,
                        KsTridiagMethod       method,
                        gboolean              pad,
                        GError              **error)
{
  guint stride;

  g_return_val_if_fail (self != NULL && batch != NULL, FALSE);
  g_return_val_if_fail (method < KS_TRIDIAG_N_DEVICE_METHODS, FALSE);

  unload (self);
  if (!check_method_takes (self, batch, method, error) ||
      !choose_stride (batch, method, pad, &stride, error) ||
      !check_fits (self, method, batch->n, batch->systems, pad, error) ||
      !upload (self, batch, method, stride, error))
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

/* PARACR step by step: ceil (log2 n) launches of paracr_step over every
 * row, swapping the work sets, then paracr_finish; 256 rows a group. */
static gboolean
launch_steps (KsTridiagSolver *self,
              KsQueue         *queue,
              guint           *local_size,
              GError         **error)
{
  KsKernel *step = self->kernels[K_PARACR_STEP], *finish = self->kernels[K_PARACR_FINISH];
  const guint64 sys_stride = self->stride, row_stride = 1;
  KsLaunchConfig config = { 2 };
  gint32 steps = 0, first = 1;
  guint from = 0;

  config.local[0] = MIN (PARACR_GROUP, ks_kernel_get_max_work_group_size (step));
  config.local[1] = 1;
  config.global[0] = round_up (self->stride, config.local[0]);
  config.global[1] = self->systems;
  *local_size = (guint) config.local[0];
  for (guint k = 0; k < 2; k++)
    {
      KsKernel *kernel = k ? finish : step;
      if (!ks_kernel_set_arg_buffer (kernel, 0, self->in[0], error) ||
          !ks_kernel_set_arg_buffer (kernel, 1, self->in[1], error) ||
          !ks_kernel_set_arg_buffer (kernel, 2, self->in[2], error) ||
          !ks_kernel_set_arg_buffer (kernel, 3, self->in[3], error) ||
          !ks_kernel_set_arg_buffer (kernel, 6, self->info, error) ||
          !ks_kernel_set_arg (kernel, 7, sizeof (guint32), &self->stride, error) ||
          !ks_kernel_set_arg (kernel, 8, sizeof (guint32), &self->systems, error) ||
          !ks_kernel_set_arg (kernel, 9, sizeof sys_stride, &sys_stride, error) ||
          !ks_kernel_set_arg (kernel, 10, sizeof row_stride, &row_stride, error))
        return FALSE;
    }
  for (guint32 h = 1; h < self->stride; h *= 2, steps++, first = 0, from ^= 1)
    if (!ks_kernel_set_arg_buffer (step, 4, self->work[from], error) ||
        !ks_kernel_set_arg_buffer (step, 5, self->work[from ^ 1], error) ||
        !ks_kernel_set_arg (step, 11, sizeof h, &h, error) ||
        !ks_kernel_set_arg (step, 12, sizeof first, &first, error) ||
        !ks_queue_launch (queue, step, &config, error))
      return FALSE;
  /* After the last step the newest set is work[from]. */
  return ks_kernel_set_arg_buffer (finish, 4, self->work[from], error) &&
         ks_kernel_set_arg_buffer (finish, 5, self->x, error) &&
         ks_kernel_set_arg (finish, 11, sizeof steps, &steps, error) &&
         ks_queue_launch (queue, finish, &config, error);
}

/* thomas_coalesced over `systems` interleaved systems from a..d: `step`
 * systems, element k of system s at s + k step, q + (s < rem) elements
 * each; sub: they are paracr-thomas's pieces of the batch. */
static gboolean
launch_coalesced (KsTridiagSolver *self,
                  KsQueue         *queue,
                  KsBuffer *const *in,
                  KsBuffer        *cp,
                  KsBuffer        *x,
                  guint32          step,
                  guint32          q,
                  guint32          rem,
                  gint32           sub,
                  guint           *local_size,
                  GError         **error)
{
  KsKernel *kernel = self->kernels[K_THOMAS_COALESCED];
  KsLaunchConfig config = { 1 };
  guint arg = 0;

  config.local[0] = MIN (COALESCED_GROUP, ks_kernel_get_max_work_group_size (kernel));
  config.global[0] = round_up (step, config.local[0]);
  *local_size = (guint) config.local[0];
  for (guint i = 0; i < 4; i++)
    if (!ks_kernel_set_arg_buffer (kernel, arg++, in[i], error))
      return FALSE;
  return ks_kernel_set_arg_buffer (kernel, arg++, cp, error) &&
         ks_kernel_set_arg_buffer (kernel, arg++, x, error) &&
         ks_kernel_set_arg_buffer (kernel, arg++, self->info, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof step, &step, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof q, &q, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof rem, &rem, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &self->systems, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof sub, &sub, error) &&
         ks_queue_launch (queue, kernel, &config, error);
}

/* dst (cols x rows) = src (rows x cols) transposed, in tiles of 32. */
static gboolean
launch_transpose (KsTridiagSolver *self,
                  KsQueue         *queue,
                  KsBuffer        *src,
                  KsBuffer        *dst,
                  guint32          rows,
                  guint32          cols,
                  GError         **error)
{
  KsKernel *kernel = self->kernels[K_TRANSPOSE];
  KsLaunchConfig config = { 2 };

  config.local[0] = 32;
  config.local[1] = MAX (1, MIN (8, ks_kernel_get_max_work_group_size (kernel) / 32));
  config.global[0] = round_up (cols, 32);
  config.global[1] = round_up (rows, 32) / 32 * config.local[1];
  return ks_kernel_set_arg_buffer (kernel, 0, src, error) &&
         ks_kernel_set_arg_buffer (kernel, 1, dst, error) &&
         ks_kernel_set_arg (kernel, 2, sizeof rows, &rows, error) &&
         ks_kernel_set_arg (kernel, 3, sizeof cols, &cols, error) &&
         ks_kernel_set_arg_local (kernel, 4, 32 * 33 * ks_precision_size (self->precision), error) &&
         ks_queue_launch (queue, kernel, &config, error);
}

/* thomas-transposed: the batch arrived one system after another; the
 * device interleaves a..d (work 0..3), solves into work 5 (c' in 4), and
 * turns x back. */
static gboolean
launch_transposed (KsTridiagSolver *self,
                   KsQueue         *queue,
                   guint           *local_size,
                   GError         **error)
{
  for (guint i = 0; i < 4; i++)
    if (!launch_transpose (self, queue, self->in[i], self->work[i], self->systems, self->stride, error))
      return FALSE;
  return launch_coalesced (self, queue, self->work, self->work[4], self->work[5], self->systems, self->stride, 0,
                           FALSE, local_size, error) &&
         launch_transpose (self, queue, self->work[5], self->x, self->stride, self->systems, error);
}

static guint
log2_exact (guint v)
{
  return (guint) g_bit_nth_msf (v, -1);
}

/* paracr-thomas: the batch as one block-diagonal system of n systems rows
 * (its couplings between systems are zero and stay so under reduction).
 * paracr_tile launches, each J steps of PARACR in local memory, until
 * its rows fall into H independent systems of about sub_rows rows (rows
 * r, r + H, ...: interleaved, as thomas_coalesced wants them); then one
 * item per system solves them into x, in the natural layout. */
static gboolean
launch_hybrid (KsTridiagSolver *self,
               KsQueue         *queue,
               guint           *local_size,
               GError         **error)
{
  KsKernel *tile = self->kernels[K_PARACR_TILE];
  const gsize real = ks_precision_size (self->precision);
  const KsDeviceInfo *info = ks_device_get_info (self->device);
  const guint32 total = self->stride * self->systems;
  const guint sub_rows = self->sub_rows ? self->sub_rows : HYBRID_SUB_ROWS;
  const guint64 budget = info->local_mem ? MIN (TILE_BYTES, info->local_mem) : TILE_BYTES;
  /* Rows a tile holds (two sets of four), a multiple of the widest G. */
  const guint tile_rows = self->tile_rows ? self->tile_rows : (guint) (budget / (8 * real)) / 8 * 8;
  guint target = 1, h = 1;
  KsBuffer *const *src = self->in;
  KsBuffer **dst = self->work;

  while (target < HYBRID_MAX_SYSTEMS && (guint64) target * sub_rows < total)
    target *= 2;
  *local_size = 0;
  while (h < target)
    {
      KsLaunchConfig config = { 1 };
      const guint32 g = MIN (8, h), e = tile_rows / g;
      const guint32 g_log2 = log2_exact (g), rb_log2 = log2_exact (h / g);
      guint32 steps = 1, r;
      guint64 groups;
      guint arg = 0;

      /* As many steps as keep the halo, read twice, under a sixth of the
       * tile (and no more than are left). */
      while (6 * ((2u << steps) - 1) <= e && (h << (steps + 1)) <= target)
        steps++;
      r = e - 2 * ((1u << steps) - 1);
      groups = (guint64) (h / g) * (((total + h - 1) / h + r - 1) / r);
      config.local[0] = MIN (TILE_GROUP, ks_kernel_get_max_work_group_size (tile));
      config.global[0] = groups * config.local[0];
      *local_size = (guint) config.local[0];
      for (guint i = 0; i < 4; i++)
        if (!ks_kernel_set_arg_buffer (tile, arg++, src[i], error))
          return FALSE;
      for (guint i = 0; i < 4; i++)
        if (!ks_kernel_set_arg_buffer (tile, arg++, dst[i], error))
          return FALSE;
      if (!ks_kernel_set_arg_buffer (tile, arg++, self->info, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof total, &total, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof (guint32), &self->systems, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof h, &h, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof g_log2, &g_log2, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof rb_log2, &rb_log2, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof e, &e, error) ||
          !ks_kernel_set_arg (tile, arg++, sizeof steps, &steps, error) ||
          !ks_kernel_set_arg_local (tile, arg++, 8 * (gsize) e * g * real, error) ||
          !ks_queue_launch (queue, tile, &config, error))
        return FALSE;
      h <<= steps;
      src = dst;
      dst = dst == self->work ? self->work + 4 : self->work;
    }
  {
    guint coalesced_size;
    /* c' in the set not read now. */
    if (!launch_coalesced (self, queue, src, dst[0], self->x, h, total / h, total % h, TRUE, &coalesced_size, error))
      return FALSE;
    if (*local_size == 0)
      *local_size = coalesced_size;
  }
  return TRUE;
}

void
ks_tridiag_solver_set_hybrid (KsTridiagSolver *self,
                              guint            tile_rows,
                              guint            sub_rows)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (tile_rows == 0 || (tile_rows >= 48 && tile_rows % 8 == 0));

  self->tile_rows = tile_rows;
  self->sub_rows = sub_rows;
}

void
ks_tridiag_solver_set_split (KsTridiagSolver *self,
                             guint            rows)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (rows == 0 || rows == 8 || rows == 16);

  self->split_rows = rows;
}

void
ks_tridiag_solver_set_split_stream (KsTridiagSolver *self,
                                    int              stream,
                                    guint            groups)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (stream >= -1 && stream <= 1);

  self->split_stream = stream;
  self->split_groups = groups;
}

/* The methods of more than one launch, or another shape than set_args'. */
static gboolean
launch_multi (KsTridiagSolver *self,
              KsQueue         *queue,
              guint           *local_size,
              GError         **error)
{
  switch (method_kernel[self->method])
    {
    case K_PARACR_STEP:
      return launch_steps (self, queue, local_size, error);
    case K_THOMAS_COALESCED:
      return launch_coalesced (self, queue, self->in, self->work[0], self->x, self->systems, self->stride, 0, FALSE,
                               local_size, error);
    case K_TRANSPOSE:
      return launch_transposed (self, queue, local_size, error);
    case K_PARACR_TILE:
      return launch_hybrid (self, queue, local_size, error);
    case K_SPLIT:
      if (self->split == NULL)
        self->split = ks_tridiag_split_new (self->rt, self->precision);
      ks_tridiag_split_set_rows (self->split, self->split_rows);
      ks_tridiag_split_set_stream (self->split, self->split_stream, self->split_groups);
      return ks_tridiag_split_launch (self->split, queue, self->in, self->x, self->info, self->stride, self->systems,
                                      local_size, error);
    default:
      g_return_val_if_reached (FALSE);
    }
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

  const Kernel which = method_kernel[self->method];
  const gboolean multi = which == K_PARACR_STEP || which == K_THOMAS_COALESCED || which == K_TRANSPOSE ||
                         which == K_PARACR_TILE || which == K_SPLIT;
  guint local_size = 0;
  guint64 ns = 0;

  kernel = multi ? NULL : self->kernels[which];
  queue = ks_runtime_get_queue (self->rt);
  if ((!multi && !set_args (self, kernel, &config, error)) ||
      !ks_queue_fill (queue, self->info, &zero, sizeof zero, 0, info_bytes (self->systems), NULL, error) ||
      !ks_runtime_finish (self->rt, error))
    return FALSE;

  for (guint i = 0; i < N_KERNELS; i++)
    ks_kernel_reset_timing (self->kernels[i]);
  if (self->split)
    ks_tridiag_split_reset_timing (self->split);
  t0 = g_get_monotonic_time ();
  if ((multi ? !launch_multi (self, queue, &local_size, error) : !ks_queue_launch (queue, kernel, &config, error)) ||
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
  /* Every kernel the solve launched (the others were reset to 0). */
  for (guint i = 0; i < N_KERNELS; i++)
    ns += ks_kernel_get_time_ns (self->kernels[i]);
  ns += self->split ? ks_tridiag_split_time_ns (self->split) : 0;
  result->kernel_ms = ns / 1e6;
  result->layout_ms = ks_kernel_get_time_ns (self->kernels[K_TRANSPOSE]) / 1e6;
  result->n = self->stride;
  result->local_size = multi ? local_size : (guint) config.local[0];

  /* The status the kernels wrote, after the clock. */
  info = g_new (gint32, self->systems + 1);
  if (!ks_runtime_read (self->rt, self->info, 0, info_bytes (self->systems), info, error))
    return FALSE;
  /* paracr-thomas's: a row of the batch as one system, + 1. */
  if (info[self->systems] != 0)
    {
      const guint32 row = (guint32) info[self->systems] - 1;
      info[row / self->stride] = (gint32) (row % self->stride) + 1;
    }
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
  _Pragma ("omp parallel for schedule(static) if (total > 65536)")
  for (guint s = 0; s < self->systems; s++)
    for (guint i = 0; i < self->n; i++)
      {
        const gsize k = interleaved ? (gsize) i * self->systems + s : (gsize) s * self->stride + i;
        x[(gsize) s * self->n + i] = fp64 ? ((double *) host)[k] : ((float *) host)[k];
      }
  return TRUE;
}
