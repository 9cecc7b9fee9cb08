/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-cuda"

#include "ks-cuda.h"
#include "ks-compute-error.h"
#include "ks-cores-table.h"
#include "ks-runtime-private.h"

#include <glib/gi18n-lib.h>
#include <cuda_runtime_api.h>
#include <string.h>

/* Kernel arguments are kept by value until launch; every argument of our
 * kernels is a pointer or a scalar of at most 8 bytes. */
#define KS_CUDA_MAX_ARGS     24
#define KS_CUDA_MAX_ARG_SIZE 16

typedef struct {
  int           ordinal;
  cudaStream_t  stream;
  GPtrArray    *timer_pool;  /* of KsCudaTimer: events are reused, creating them costs */
  guint         launches;
  guint         fail_after;  /* test hook, as in the OpenCL backend */
} KsCudaRuntime;

typedef struct {
  cudaEvent_t    start;
  cudaEvent_t    end;
  KsCudaRuntime *owner;
} KsCudaTimer;

typedef struct {
  cudaKernel_t fn;
  guint        n_args;
  void        *arg_ptrs[KS_CUDA_MAX_ARGS];
  union {
    guint64 u;
    double  d;
    char    bytes[KS_CUDA_MAX_ARG_SIZE];
  } args[KS_CUDA_MAX_ARGS];
} KsCudaKernel;

const char *
ks_cuda_error_name (int status)
{
  return cudaGetErrorName ((cudaError_t) status);
}

/* Errors after which the CUDA context is corrupt: every later call in this
 * process fails with the same status ("sticky" errors), so the only way
 * back is a new process. */
static gboolean
is_sticky (cudaError_t status)
{
  switch (status)
    {
    case cudaErrorLaunchTimeout:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Maps a CUDA runtime status to the error a user can act on. */
static gboolean
check_cuda (cudaError_t  status,
            const char  *what,
            GError     **error)
{
  KsComputeError code;
  const char *consequence = "";

  if (status == cudaSuccess)
    return TRUE;

  switch (status)
    {
    case cudaErrorMemoryAllocation:
      code = KS_COMPUTE_ERROR_OUT_OF_MEMORY;
      break;
    case cudaErrorInvalidConfiguration:
    case cudaErrorLaunchOutOfResources:
      code = KS_COMPUTE_ERROR_WORK_GROUP_SIZE;
      break;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorDevicesUnavailable:
      code = KS_COMPUTE_ERROR_DEVICE_LOST;
      break;
    case cudaErrorUnsupportedPtxVersion:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidPtx:
      code = KS_COMPUTE_ERROR_BUILD_FAILED;
      break;
    default:
      code = is_sticky (status) ? KS_COMPUTE_ERROR_DEVICE_LOST : KS_COMPUTE_ERROR_FAILED;
      break;
    }
  if (is_sticky (status))
    consequence = _(": the CUDA context is unusable until the app restarts (every later CUDA call in "
                    "this process fails the same way); the points measured before are kept");
  else if (code == KS_COMPUTE_ERROR_DEVICE_LOST)
    consequence = _(": the device was lost or stopped answering; the points measured before are kept");

  /* Clear the "last error" so one failed launch does not poison the next
   * query (a sticky error cannot be cleared: it is said so above). */
  (void) cudaGetLastError ();
  g_set_error (error, KS_COMPUTE_ERROR, code, _("%s failed: %s (%d: %s)%s"), what,
               cudaGetErrorName (status), (int) status, cudaGetErrorString (status), consequence);
  return FALSE;
}

/* --- enumeration ----------------------------------------------------------- */

int
ks_cuda_device_ordinal (KsDevice *device)
{
  g_return_val_if_fail (ks_device_get_backend (device) == KS_BACKEND_CUDA, 0);
  /* The handle is ordinal + 1 so that device 0 is not a NULL handle. */
  return GPOINTER_TO_INT (ks_device_get_backend_handle (device)) - 1;
}

static char *
version_string (int v)
{
  return g_strdup_printf ("%d.%d", v / 1000, (v % 1000) / 10);
}

static KsDevice *
make_device (int                    ordinal,
             const struct cudaDeviceProp *prop,
             int                    driver_version,
             int                    runtime_version)
{
  KsDeviceInfo info = { 0 };
  g_autofree char *driver = version_string (driver_version);
  g_autofree char *runtime = version_string (runtime_version);
  int mem_clock_khz = 0;

  info.backend = KS_BACKEND_CUDA;
  info.type = KS_DEVICE_TYPE_GPU;
  info.id = g_strdup_printf ("cuda:%d", ordinal);
  info.name = g_strdup (prop->name);
  info.vendor = g_strdup ("NVIDIA Corporation");
  info.platform_name = g_strdup ("CUDA");
  /* "CUDA 13.0" wherever platform and driver are printed together. */
  info.driver_version = g_strdup (driver);
  info.version = g_strdup_printf ("CUDA runtime %s, NVRTC", runtime);
  info.compute_units = prop->multiProcessorCount;
  info.max_work_group_size = prop->maxThreadsPerBlock;
  for (guint d = 0; d < 3; d++)
    info.max_work_item_sizes[d] = prop->maxThreadsDim[d];
  info.preferred_multiple = prop->warpSize;
  info.warp_size = prop->warpSize;
  info.local_mem = prop->sharedMemPerBlock;
  info.global_mem = prop->totalGlobalMem;
  info.max_alloc = prop->totalGlobalMem;
  info.has_fp64 = TRUE;
  info.cc_major = prop->major;
  info.cc_minor = prop->minor;
  info.memory_bus_bits = prop->memoryBusWidth;
  /* Double data rate: two transfers per clock over the whole bus. */
  if (cudaDeviceGetAttribute (&mem_clock_khz, cudaDevAttrMemoryClockRate, ordinal) == cudaSuccess)
    info.peak_bandwidth_gbs = 2.0 * mem_clock_khz * 1e3 * (prop->memoryBusWidth / 8.0) / 1e9;
  info.table_cores_per_cu = ks_cores_per_sm_for_compute_capability (prop->major, prop->minor);
  info.table_cores_source = info.table_cores_per_cu ? "NVIDIA compute capability table"
                                                    : "unknown NVIDIA compute capability";

  return ks_device_new (&info, GINT_TO_POINTER (ordinal + 1), NULL);
}

void
ks_cuda_enumerate (GPtrArray *devices,
                   GPtrArray *notes)
{
  int count = 0, driver_version = 0, runtime_version = 0;
  cudaError_t status;

  g_return_if_fail (devices != NULL && notes != NULL);

  cudaRuntimeGetVersion (&runtime_version);
  status = cudaGetDeviceCount (&count);
  if (status == cudaErrorInsufficientDriver || status == cudaErrorStubLibrary)
    {
      /* The toolkit is here, the driver (libcuda.so.1) is not: CI, a laptop. */
      g_autofree char *rt = version_string (runtime_version);
      (void) cudaGetLastError ();
      cudaDriverGetVersion (&driver_version);
      g_ptr_array_add (notes, driver_version == 0
                       ? g_strdup_printf (_("CUDA: no CUDA driver (libcuda.so.1 not found; runtime %s is built in)"), rt)
                       : g_strdup_printf (_("CUDA: the CUDA driver is older than runtime %s (%s)"), rt,
                                          cudaGetErrorString (status)));
      return;
    }
  if (status == cudaErrorNoDevice || (status == cudaSuccess && count == 0))
    {
      (void) cudaGetLastError ();
      g_ptr_array_add (notes, g_strdup (_("CUDA: driver present, but no CUDA device")));
      return;
    }
  if (status != cudaSuccess)
    {
      (void) cudaGetLastError ();
      g_ptr_array_add (notes, g_strdup_printf ("CUDA: %s (%s)", cudaGetErrorString (status),
                                               cudaGetErrorName (status)));
      return;
    }

  cudaDriverGetVersion (&driver_version);
  for (int i = 0; i < count; i++)
    {
      struct cudaDeviceProp prop;

      if (cudaGetDeviceProperties (&prop, i) != cudaSuccess)
        {
          (void) cudaGetLastError ();
          g_ptr_array_add (notes, g_strdup_printf (_("CUDA: device %d does not answer"), i));
          continue;
        }
      g_ptr_array_add (devices, make_device (i, &prop, driver_version, runtime_version));
    }
  {
    g_autofree char *drv = version_string (driver_version);
    g_autofree char *rt = version_string (runtime_version);
    g_ptr_array_add (notes, g_strdup_printf (_("CUDA: %d device(s), driver %s, runtime %s"), count, drv, rt));
  }
}

/* --- runtime --------------------------------------------------------------- */

static KsCudaRuntime *
cu (KsRuntime *rt)
{
  return rt->backend_data;
}

/* The runtime API's current device is per thread, and the sweep engine runs
 * in a worker thread: say which device before each call that needs it. */
static gboolean
use_device (KsCudaRuntime *c,
            GError       **error)
{
  return check_cuda (cudaSetDevice (c->ordinal), "Selecting the CUDA device", error);
}

static void
timer_free (gpointer data)
{
  KsCudaTimer *t = data;

  cudaEventDestroy (t->start);
  cudaEventDestroy (t->end);
  g_free (t);
}

static void
cuda_runtime_free (KsRuntime *rt)
{
  KsCudaRuntime *c = cu (rt);

  if (c == NULL)
    return;
  cudaSetDevice (c->ordinal);
  cudaStreamSynchronize (c->stream);
  g_ptr_array_unref (c->timer_pool);
  cudaStreamDestroy (c->stream);
  g_free (c);
}

static gboolean
cuda_build_program (KsRuntime  *rt,
                    KsProgram  *program,
                    const char *source,
                    gsize       length,
                    const char *options,
                    GError    **error)
{
  const KsDeviceInfo *info = ks_device_get_info (rt->device);
  g_autoptr(GBytes) cubin = NULL;
  cudaLibrary_t library = NULL;

  if (!use_device (cu (rt), error) ||
      !(cubin = ks_cuda_compile (source, length, options, info->cc_major, info->cc_minor,
                                 &program->build_log, error)))
    return FALSE;
  if (!check_cuda (cudaLibraryLoadData (&library, g_bytes_get_data (cubin, NULL), NULL, NULL, 0,
                                        NULL, NULL, 0),
                   "Loading the compiled kernels", error))
    return FALSE;
  program->handle = library;
  return TRUE;
}

static void
cuda_program_free (KsProgram *program)
{
  cudaLibraryUnload (program->handle);
}

/* What cudaOccupancyMaxPotentialBlockSize (a C++ template, out of reach of
 * C) computes: the block size, in whole warps, that keeps the most threads
 * resident per SM; on a tie the larger block wins, as in the template. */
static gsize
occupancy_block_size (cudaKernel_t fn,
                      int          max_threads,
                      int          warp)
{
  int best = 0, best_occupancy = 0;

  for (int block = max_threads / warp * warp; block >= warp; block -= warp)
    {
      int blocks = 0;

      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&blocks, (const void *) fn, block, 0) != cudaSuccess)
        {
          (void) cudaGetLastError ();
          continue;
        }
      if (blocks * block > best_occupancy)
        {
          best_occupancy = blocks * block;
          best = block;
        }
    }
  return (gsize) best;
}

static gboolean
cuda_create_kernel (KsProgram  *program,
                    KsKernel   *kernel,
                    GError    **error)
{
  const KsDeviceInfo *info = ks_device_get_info (program->rt->device);
  g_autofree KsCudaKernel *k = g_new0 (KsCudaKernel, 1);
  struct cudaFuncAttributes attr;
  cudaError_t status;

  /* The attributes and the occupancy are per device, and the current
   * device is per thread: a sweep's worker thread may not be on ours. */
  if (!use_device (cu (program->rt), error))
    return FALSE;
  status = cudaLibraryGetKernel (&k->fn, program->handle, kernel->name);
  if (status != cudaSuccess)
    {
      (void) cudaGetLastError ();
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("The program has no usable kernel %s (%s)"), kernel->name, cudaGetErrorName (status));
      return FALSE;
    }
  if (!check_cuda (cudaFuncGetAttributes (&attr, (const void *) k->fn), "Reading a kernel's limits", error))
    return FALSE;

  for (guint i = 0; i < KS_CUDA_MAX_ARGS; i++)
    k->arg_ptrs[i] = &k->args[i];
  kernel->max_work_group_size = attr.maxThreadsPerBlock;
  kernel->preferred_multiple = info->warp_size ? info->warp_size : 32;
  kernel->suggested_local = occupancy_block_size (k->fn, attr.maxThreadsPerBlock,
                                                  (int) kernel->preferred_multiple);
  kernel->handle = g_steal_pointer (&k);
  return TRUE;
}

static void
cuda_kernel_free (KsKernel *kernel)
{
  g_free (kernel->handle);
}

static gboolean
cuda_set_arg (KsKernel   *kernel,
              guint       index,
              gsize       size,
              const void *value,
              GError    **error)
{
  KsCudaKernel *k = kernel->handle;

  if (index >= KS_CUDA_MAX_ARGS || size > KS_CUDA_MAX_ARG_SIZE || value == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   "Argument %u of %s (%" G_GSIZE_FORMAT " bytes) is not one the CUDA backend can pass",
                   index, kernel->name, size);
      return FALSE;
    }
  memset (&k->args[index], 0, sizeof k->args[index]);
  memcpy (&k->args[index], value, size);
  k->n_args = MAX (k->n_args, index + 1);
  return TRUE;
}

static gboolean
cuda_set_arg_buffer (KsKernel  *kernel,
                     guint      index,
                     KsBuffer  *buffer,
                     GError   **error)
{
  void *ptr = buffer->handle;
  return cuda_set_arg (kernel, index, sizeof ptr, &ptr, error);
}

static gboolean
cuda_alloc (KsRuntime *rt,
            KsBuffer  *buffer,
            GError   **error)
{
  void *ptr = NULL;
  cudaError_t status;

  if (!use_device (cu (rt), error))
    return FALSE;
  status = cudaMalloc (&ptr, buffer->size);
  if (status != cudaSuccess)
    {
      (void) cudaGetLastError ();
      g_set_error (error, KS_COMPUTE_ERROR,
                   status == cudaErrorMemoryAllocation ? KS_COMPUTE_ERROR_OUT_OF_MEMORY : KS_COMPUTE_ERROR_FAILED,
                   _("Cannot allocate %.1f MiB on %s: %s"), buffer->size / 1048576.0,
                   ks_device_get_name (rt->device), cudaGetErrorName (status));
      return FALSE;
    }
  buffer->handle = ptr;
  return TRUE;
}

static void
cuda_buffer_free (KsBuffer *buffer)
{
  cudaSetDevice (cu (buffer->rt)->ordinal);
  cudaFree (buffer->handle);
}

/* Blocking, like the OpenCL backend's: the solvers rely on the data having
 * arrived when the call returns. */
static gboolean
cuda_write (KsRuntime  *rt,
            KsBuffer   *buffer,
            gsize       offset,
            gsize       size,
            const void *src,
            GError    **error)
{
  KsCudaRuntime *c = cu (rt);

  return use_device (c, error) &&
         check_cuda (cudaMemcpyAsync ((char *) buffer->handle + offset, src, size,
                                      cudaMemcpyHostToDevice, c->stream),
                     "Copying data to the device", error) &&
         check_cuda (cudaStreamSynchronize (c->stream), "Copying data to the device", error);
}

static gboolean
cuda_read (KsRuntime *rt,
           KsBuffer  *buffer,
           gsize      offset,
           gsize      size,
           void      *dst,
           GError   **error)
{
  KsCudaRuntime *c = cu (rt);

  return use_device (c, error) &&
         check_cuda (cudaMemcpyAsync (dst, (const char *) buffer->handle + offset, size,
                                      cudaMemcpyDeviceToHost, c->stream),
                     "Copying results from the device", error) &&
         check_cuda (cudaStreamSynchronize (c->stream), "Copying results from the device", error);
}

static KsCudaTimer *
timer_take (KsCudaRuntime *c,
            GError       **error)
{
  KsCudaTimer *t;

  if (c->timer_pool->len > 0)
    return g_ptr_array_steal_index_fast (c->timer_pool, c->timer_pool->len - 1);

  t = g_new0 (KsCudaTimer, 1);
  t->owner = c;
  if (!check_cuda (cudaEventCreate (&t->start), "Creating a timing event", error))
    {
      g_free (t);
      return NULL;
    }
  if (!check_cuda (cudaEventCreate (&t->end), "Creating a timing event", error))
    {
      cudaEventDestroy (t->start);
      g_free (t);
      return NULL;
    }
  return t;
}

/* CUDA's grid is counted in blocks, OpenCL's range in items: round up, and
 * let the kernels' bounds tests drop the padding.  local == NULL is the
 * DRIVER policy; CUDA has no driver choice, so it takes the occupancy API's
 * block size, capped at the range rounded up to a warp (a 1024-thread block
 * for a 102-column row would leave 90% of it idle), in dimension 0. */
static gboolean
launch_shape (KsRuntime   *rt,
              KsKernel    *kernel,
              guint        dims,
              const gsize *global,
              const gsize *local,
              dim3        *grid,
              dim3        *block,
              GError     **error)
{
  const gsize warp = MAX (kernel->preferred_multiple, 1);
  gsize b[3] = { 1, 1, 1 }, g[3] = { 1, 1, 1 };
  static const gsize grid_limit[3] = { G_MAXINT32, 65535, 65535 };

  for (guint d = 0; d < dims; d++)
    {
      if (local)
        b[d] = local[d];
      else if (d == 0)
        b[d] = MIN (kernel->suggested_local ? kernel->suggested_local : warp,
                    (global[0] + warp - 1) / warp * warp);
      g[d] = (global[d] + b[d] - 1) / b[d];
      if (g[d] > grid_limit[d])
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       _("%s: %lu blocks in dimension %u, CUDA allows %lu"),
                       kernel->name, (unsigned long) g[d], d, (unsigned long) grid_limit[d]);
          return FALSE;
        }
    }
  *grid = (dim3) { (unsigned) g[0], (unsigned) g[1], (unsigned) g[2] };
  *block = (dim3) { (unsigned) b[0], (unsigned) b[1], (unsigned) b[2] };
  return TRUE;
}

static gboolean
cuda_launch (KsRuntime   *rt,
             KsKernel    *kernel,
             guint        dims,
             const gsize *global,
             const gsize *local,
             gpointer    *out_event,
             GError     **error)
{
  KsCudaRuntime *c = cu (rt);
  KsCudaKernel *k = kernel->handle;
  KsCudaTimer *t = NULL;
  /* In a capture with graph kernel timing the pair becomes two event
   * record nodes of the graph (external, so a replay records them). */
  gboolean in_graph = rt->capturing && rt->graph_kernel_timing;
  gboolean timed = (!rt->untimed && !rt->capturing) || in_graph;
  const unsigned flags = in_graph ? cudaEventRecordExternal : cudaEventRecordDefault;
  dim3 grid, block;
  cudaError_t status;

  if (!launch_shape (rt, kernel, dims, global, local, &grid, &block, error) ||
      !use_device (c, error))
    return FALSE;

  if (timed && !(t = timer_take (c, error)))
    return FALSE;
  if (t)
    cudaEventRecordWithFlags (t->start, c->stream, flags);

  if (c->fail_after && ++c->launches > c->fail_after)
    status = cudaErrorDevicesUnavailable;
  else
    status = cudaLaunchKernel ((const void *) k->fn, grid, block, k->arg_ptrs, 0, c->stream);
  if (status != cudaSuccess)
    {
      g_autofree char *what = g_strdup_printf ("Launching %s with %u x %u x %u blocks of %u x %u x %u",
                                               kernel->name, grid.x, grid.y, grid.z,
                                               block.x, block.y, block.z);
      if (t)
        g_ptr_array_add (c->timer_pool, t);
      return check_cuda (status, what, error);
    }
  if (t)
    cudaEventRecordWithFlags (t->end, c->stream, flags);
  *out_event = t;
  return TRUE;
}

static gboolean
cuda_finish (KsRuntime *rt,
             GError   **error)
{
  KsCudaRuntime *c = cu (rt);

  return use_device (c, error) &&
         check_cuda (cudaStreamSynchronize (c->stream), "Waiting for the device", error);
}

static gpointer
cuda_mark (KsRuntime *rt,
           GError   **error)
{
  KsCudaRuntime *c = cu (rt);
  cudaEvent_t event = NULL;

  if (!use_device (c, error) ||
      !check_cuda (cudaEventCreateWithFlags (&event, cudaEventDisableTiming), "Marking the stream", error))
    return NULL;
  if (!check_cuda (cudaEventRecord (event, c->stream), "Marking the stream", error))
    {
      cudaEventDestroy (event);
      return NULL;
    }
  return event;
}

static gboolean
cuda_mark_wait (KsRuntime *rt,
                gpointer   mark,
                GError   **error)
{
  return check_cuda (cudaEventSynchronize (mark), "Waiting for the device", error);
}

static void
cuda_mark_free (gpointer mark)
{
  cudaEventDestroy (mark);
}

static gboolean
cuda_event_elapsed_ns (KsRuntime *rt,
                       gpointer   event,
                       guint64   *out_ns,
                       GError   **error)
{
  KsCudaTimer *t = event;
  float ms = 0.0f;

  if (!check_cuda (cudaEventElapsedTime (&ms, t->start, t->end), "Reading a kernel's time", error))
    return FALSE;
  *out_ns = ms > 0.0f ? (guint64) (ms * 1e6) : 0;
  return TRUE;
}

static void
cuda_event_free (gpointer event)
{
  KsCudaTimer *t = event;
  g_ptr_array_add (t->owner->timer_pool, t);
}

static gboolean
cuda_capture_begin (KsRuntime *rt,
                    GError   **error)
{
  KsCudaRuntime *c = cu (rt);

  /* Thread-local: another thread's unrelated CUDA call must not break the capture. */
  return use_device (c, error) &&
         check_cuda (cudaStreamBeginCapture (c->stream, cudaStreamCaptureModeThreadLocal),
                     "Starting to record a CUDA graph", error);
}

static gpointer
cuda_capture_end (KsRuntime *rt,
                  GError   **error)
{
  KsCudaRuntime *c = cu (rt);
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  gboolean ok;

  if (!check_cuda (cudaStreamEndCapture (c->stream, &graph), "Recording a CUDA graph", error))
    return NULL;
  ok = check_cuda (cudaGraphInstantiate (&exec, graph, 0), "Instantiating the CUDA graph", error);
  cudaGraphDestroy (graph);
  /* Without the upload here, the first replay would pay it: a one-off cost
   * that belongs with the capture, not with a replay's time. */
  if (ok && !(check_cuda (cudaGraphUpload (exec, c->stream), "Uploading the CUDA graph", error) &&
              check_cuda (cudaStreamSynchronize (c->stream), "Uploading the CUDA graph", error)))
    {
      cudaGraphExecDestroy (exec);
      return NULL;
    }
  return ok ? exec : NULL;
}

/* A capture that failed or was cancelled half-way: leave capture mode
 * (the stream is unusable in it) and drop what was recorded, without the
 * instantiation and upload a graph that will never run would cost. */
static void
cuda_capture_abort (KsRuntime *rt)
{
  KsCudaRuntime *c = cu (rt);
  cudaGraph_t graph = NULL;

  cudaSetDevice (c->ordinal);
  if (cudaStreamEndCapture (c->stream, &graph) != cudaSuccess)
    (void) cudaGetLastError ();
  if (graph)
    cudaGraphDestroy (graph);
}

static gboolean
cuda_graph_launch (KsRuntime *rt,
                   gpointer   graph,
                   gpointer  *out_event,
                   GError   **error)
{
  KsCudaRuntime *c = cu (rt);
  KsCudaTimer *t = NULL;

  if (!use_device (c, error))
    return FALSE;
  if (out_event && !(t = timer_take (c, error)))
    return FALSE;
  if (t)
    cudaEventRecord (t->start, c->stream);
  if (!check_cuda (cudaGraphLaunch (graph, c->stream), "Replaying the CUDA graph", error))
    {
      if (t)
        g_ptr_array_add (c->timer_pool, t);
      return FALSE;
    }
  if (t)
    {
      cudaEventRecord (t->end, c->stream);
      *out_event = t;
    }
  return TRUE;
}

static void
cuda_graph_free (gpointer graph)
{
  cudaGraphExecDestroy (graph);
}

static const KsRuntimeVTable cuda_vtable = {
  .runtime_free = cuda_runtime_free,
  .build_program = cuda_build_program,
  .program_free = cuda_program_free,
  .create_kernel = cuda_create_kernel,
  .kernel_free = cuda_kernel_free,
  .set_arg = cuda_set_arg,
  .set_arg_buffer = cuda_set_arg_buffer,
  .alloc = cuda_alloc,
  .buffer_free = cuda_buffer_free,
  .write = cuda_write,
  .read = cuda_read,
  .launch = cuda_launch,
  .finish = cuda_finish,
  .event_elapsed_ns = cuda_event_elapsed_ns,
  .event_free = cuda_event_free,
  .mark = cuda_mark,
  .mark_wait = cuda_mark_wait,
  .mark_free = cuda_mark_free,
  .capture_begin = cuda_capture_begin,
  .capture_end = cuda_capture_end,
  .capture_abort = cuda_capture_abort,
  .graph_launch = cuda_graph_launch,
  .graph_free = cuda_graph_free,
};

gboolean
ks_cuda_runtime_init (KsRuntime *rt,
                      GError   **error)
{
  g_autofree KsCudaRuntime *c = g_new0 (KsCudaRuntime, 1);
  const char *fail_after;

  c->ordinal = ks_cuda_device_ordinal (rt->device);
  if (!use_device (c, error) ||
      !check_cuda (cudaStreamCreateWithFlags (&c->stream, cudaStreamNonBlocking),
                   "Opening a CUDA stream", error))
    return FALSE;
  c->timer_pool = g_ptr_array_new_with_free_func (timer_free);

  fail_after = g_getenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS");
  if (fail_after)
    c->fail_after = (guint) g_ascii_strtoull (fail_after, NULL, 10);

  rt->vtable = &cuda_vtable;
  rt->backend_data = g_steal_pointer (&c);
  return TRUE;
}
