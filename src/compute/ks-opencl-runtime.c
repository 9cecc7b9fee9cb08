/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-opencl-runtime.c: the OpenCL backend of ks-runtime.h.  Every API
 * call's status is checked; the only ones whose failure is ignored are
 * releases, which have nothing left to report to. */
#define G_LOG_DOMAIN "ks-opencl"

#include "ks-opencl.h"
#include "ks-opencl-private.h"
#include "ks-pocl-cache.h"
#include "ks-compute-error.h"
#include "ks-runtime-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct {
  cl_context       context;
  /* The default queue has profiling on (timed launches) and a twin
   * without it, made on first untimed use; other queues profile. */
  cl_command_queue queue_untimed;
  cl_command_queue last;           /* the default queue's last command went there */
  guint            launches;
  guint            fail_after;     /* test hook: simulate losing the device */
} KsOpenclRuntime;

static KsOpenclRuntime *
ocl (KsRuntime *rt)
{
  return rt->backend_data;
}

static cl_device_id
device_of (KsRuntime *rt)
{
  return ks_device_get_backend_handle (rt->device);
}

static void
ocl_runtime_free (KsRuntime *rt)
{
  KsOpenclRuntime *o = ocl (rt);

  if (o->queue_untimed)
    clReleaseCommandQueue (o->queue_untimed);
  clReleaseContext (o->context);
  g_free (o);
}

static gboolean
ocl_queue_new (KsRuntime *rt,
               KsQueue   *queue,
               GError   **error)
{
  cl_int status = CL_SUCCESS;

  queue->handle = clCreateCommandQueue (ocl (rt)->context, device_of (rt), CL_QUEUE_PROFILING_ENABLE,
                                        &status);
  return ks_opencl_check (status, "Opening a command queue", error);
}

static void
ocl_queue_free (KsQueue *queue)
{
  if (queue->handle)
    clReleaseCommandQueue (queue->handle);
}

/* Untimed solves go to a queue without profiling: a driver may time every
 * command of a profiling queue whether or not anyone asks for its event,
 * and the untimed wall time must not carry that (CUDA's untimed launches
 * record nothing either).  The two are not ordered with respect to each
 * other, so switching waits for the other one to drain.  Other queues are
 * what they are. */
static cl_command_queue
cl_queue (KsQueue *queue,
          GError **error)
{
  KsRuntime *rt = queue->rt;
  KsOpenclRuntime *o = ocl (rt);
  cl_command_queue want = queue->handle;

  if (!queue->is_default)
    return want;
  if (rt->untimed)
    {
      if (o->queue_untimed == NULL)
        {
          cl_int status = CL_SUCCESS;

          o->queue_untimed = clCreateCommandQueue (o->context, device_of (rt), 0, &status);
          if (status != CL_SUCCESS)
            o->queue_untimed = NULL;   /* then the profiling queue serves */
        }
      if (o->queue_untimed != NULL)
        want = o->queue_untimed;
    }
  if (o->last != NULL && o->last != want &&
      !ks_opencl_check (clFinish (o->last), "Waiting for the device", error))
    return NULL;
  o->last = want;
  return want;
}

static char *
program_build_log (cl_program   program,
                   cl_device_id device)
{
  size_t size = 0;
  char *log;

  if (clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS ||
      size == 0)
    return g_strdup ("");
  log = g_malloc0 (size + 1);
  if (clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) != CL_SUCCESS)
    log[0] = '\0';
  return g_strstrip (log);
}

static gboolean
ocl_build_program (KsRuntime  *rt,
                   KsProgram  *program,
                   const char *source_name,
                   const char *source,
                   gsize       length,
                   const char *options,
                   GError    **error)
{
  cl_device_id device = device_of (rt);
  cl_int status = CL_SUCCESS;
  size_t len = length;
  cl_program handle;

  handle = clCreateProgramWithSource (ocl (rt)->context, 1, &source, &len, &status);
  if (!ks_opencl_check (status, "clCreateProgramWithSource", error))
    return FALSE;
  program->handle = handle;

  status = clBuildProgram (handle, 1, &device, options, NULL, NULL);
  program->build_log = program_build_log (handle, device);
  if (status != CL_SUCCESS)
    {
      const KsDeviceInfo *info = ks_device_get_info (rt->device);
      /* PoCL fails every build, with a log that does not say why, when
       * it cannot write its kernel cache (another user's). */
      g_autofree char *cache = ks_pocl_is_platform (info->platform_name, info->platform_aliases)
                                 ? ks_pocl_cache_problem () : NULL;

      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("the kernel compiler of %s refused the program (%s). Build log:\n%s%s%s"),
                   ks_device_get_name (rt->device), ks_opencl_error_name (status),
                   *program->build_log ? program->build_log : _("(the driver gave no log)"),
                   cache ? "\n" : "", cache ? cache : "");
      return FALSE;
    }
  return TRUE;
}

static void
ocl_program_free (KsProgram *program)
{
  clReleaseProgram (program->handle);
}

static gboolean
kernel_info (cl_kernel                 handle,
             cl_device_id              device,
             cl_kernel_work_group_info param,
             gsize                     size,
             void                     *value,
             GError                  **error)
{
  return ks_opencl_check (clGetKernelWorkGroupInfo (handle, device, param, size, value, NULL),
                          "Reading a kernel's limits (clGetKernelWorkGroupInfo)", error);
}

static gboolean
ocl_create_kernel (KsProgram  *program,
                   KsKernel   *kernel,
                   GError    **error)
{
  cl_device_id device = device_of (program->rt);
  cl_int status = CL_SUCCESS;
  cl_kernel handle;
  size_t wg = 0, multiple = 0;
  cl_ulong local_mem = 0, private_mem = 0;
  cl_uint n_args = 0;

  handle = clCreateKernel (program->handle, kernel->name, &status);
  if (status != CL_SUCCESS)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("The program has no usable kernel %s (%s)"), kernel->name,
                   ks_opencl_error_name (status));
      return FALSE;
    }
  /* Set before the queries: ks_program_create_kernel releases it if one fails. */
  kernel->handle = handle;
  if (!ks_opencl_check (clGetKernelInfo (handle, CL_KERNEL_NUM_ARGS, sizeof n_args, &n_args, NULL),
                        "Reading a kernel's arguments (clGetKernelInfo)", error))
    return FALSE;
  kernel->n_params = n_args;

  if (!kernel_info (handle, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, error) ||
      !kernel_info (handle, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                    sizeof multiple, &multiple, error) ||
      !kernel_info (handle, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, error) ||
      !kernel_info (handle, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_mem, &private_mem, error))
    return FALSE;
  kernel->info.max_work_group_size = wg;
  kernel->info.preferred_multiple = multiple;
  kernel->info.local_mem_bytes = local_mem;
  kernel->info.private_mem_bytes = private_mem;
  return TRUE;
}

static void
ocl_kernel_free (KsKernel *kernel)
{
  clReleaseKernel (kernel->handle);
}

static gboolean
ocl_set_arg (KsKernel   *kernel,
             guint       index,
             gsize       size,
             const void *value,
             GError    **error)
{
  g_autofree char *what = g_strdup_printf ("clSetKernelArg(%s, %u)", kernel->name, index);
  return ks_opencl_check (clSetKernelArg (kernel->handle, index, size, value), what, error);
}

static gboolean
ocl_set_arg_local (KsKernel  *kernel,
                   guint      index,
                   gsize      size,
                   GError   **error)
{
  /* A NULL value with a size is OpenCL's local-memory argument. */
  return ocl_set_arg (kernel, index, size, NULL, error);
}

static gboolean
ocl_set_arg_buffer (KsKernel  *kernel,
                    guint      index,
                    KsBuffer  *buffer,
                    GError   **error)
{
  cl_mem mem = buffer->handle;
  return ocl_set_arg (kernel, index, sizeof mem, &mem, error);
}

/* HOST_PINNED and ZERO_COPY both ask for host-allocated memory; what the
 * driver makes of it differs by device, so ocl_alloc refuses ZERO_COPY
 * where it would not be the host memory itself. */
static cl_mem_flags
mem_flags (KsBufferFlags flags)
{
  cl_mem_flags f = flags & KS_BUFFER_READ_ONLY ? CL_MEM_READ_ONLY
                 : flags & KS_BUFFER_WRITE_ONLY ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
  return flags & (KS_BUFFER_HOST_PINNED | KS_BUFFER_ZERO_COPY) ? f | CL_MEM_ALLOC_HOST_PTR : f;
}

/* A discrete GPU's driver keeps a CL_MEM_ALLOC_HOST_PTR buffer in device
 * memory (NVIDIA: with a pinned staging copy): kernels would not read the
 * host's memory, which is what ZERO_COPY promises. */
static gboolean
zero_copy_possible (KsRuntime  *rt,
                    GError    **error)
{
  cl_bool unified = CL_FALSE;
  cl_device_type type = 0;

  clGetDeviceInfo (device_of (rt), CL_DEVICE_TYPE, sizeof type, &type, NULL);
  if ((type & CL_DEVICE_TYPE_CPU) ||
      (clGetDeviceInfo (device_of (rt), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) ==
         CL_SUCCESS && unified))
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("%s keeps OpenCL buffers in its own memory: OpenCL has no zero-copy buffer there "
                 "(use KS_BUFFER_HOST_PINNED, or the CUDA backend)"),
               ks_device_get_name (rt->device));
  return FALSE;
}

static gboolean
ocl_alloc (KsRuntime *rt,
           KsBuffer  *buffer,
           GError   **error)
{
  cl_int status = CL_SUCCESS;
  cl_mem mem;

  if ((buffer->flags & KS_BUFFER_ZERO_COPY) && !zero_copy_possible (rt, error))
    return FALSE;
  mem = clCreateBuffer (ocl (rt)->context, mem_flags (buffer->flags), buffer->size, NULL, &status);
  if (status != CL_SUCCESS)
    {
      g_set_error (error, KS_COMPUTE_ERROR,
                   status == CL_INVALID_BUFFER_SIZE || status == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
                   status == CL_OUT_OF_HOST_MEMORY || status == CL_OUT_OF_RESOURCES
                     ? KS_COMPUTE_ERROR_OUT_OF_MEMORY : KS_COMPUTE_ERROR_FAILED,
                   _("Cannot allocate %.1f MiB on %s: %s"),
                   buffer->size / 1048576.0, ks_device_get_name (rt->device),
                   ks_opencl_error_name (status));
      return FALSE;
    }
  buffer->handle = mem;
  return TRUE;
}

static gboolean
ocl_view (KsBuffer  *view,
          GError   **error)
{
  cl_buffer_region region = { view->offset, view->size };
  cl_int status = CL_SUCCESS;
  cl_mem mem;

  /* Flags 0: the view inherits its buffer's. */
  mem = clCreateSubBuffer (view->parent->handle, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  if (!ks_opencl_check (status, "Making a view of a buffer (clCreateSubBuffer)", error))
    return FALSE;
  view->handle = mem;
  return TRUE;
}

static void
ocl_buffer_free (KsBuffer *buffer)
{
  /* Still mapped (ks_buffer_unref warned): the driver drops the mapping
   * with the object; only the records are ours. */
  g_clear_pointer (&buffer->maps, g_slist_free);
  clReleaseMemObject (buffer->handle);
}

/* Buffers are allocated lazily by most drivers: the first transfer is where
 * a too-large problem really fails, so name memory in the message. */
static gboolean
ocl_write (KsQueue    *queue,
           KsBuffer   *buffer,
           gsize       offset,
           gsize       size,
           const void *src,
           gboolean    blocking,
           gpointer   *out_event,
           GError    **error)
{
  cl_command_queue q = cl_queue (queue, error);

  return q != NULL &&
         ks_opencl_check (clEnqueueWriteBuffer (q, buffer->handle, blocking ? CL_TRUE : CL_FALSE,
                                                offset, size, src, 0, NULL, (cl_event *) out_event),
                          "Copying data to the device", error);
}

static gboolean
ocl_read (KsQueue   *queue,
          KsBuffer  *buffer,
          gsize      offset,
          gsize      size,
          void      *dst,
          gboolean   blocking,
          gpointer  *out_event,
          GError   **error)
{
  cl_command_queue q = cl_queue (queue, error);

  return q != NULL &&
         ks_opencl_check (clEnqueueReadBuffer (q, buffer->handle, blocking ? CL_TRUE : CL_FALSE,
                                               offset, size, dst, 0, NULL, (cl_event *) out_event),
                          "Copying results from the device", error);
}

static gboolean
ocl_copy (KsQueue   *queue,
          KsBuffer  *src,
          gsize      src_offset,
          KsBuffer  *dst,
          gsize      dst_offset,
          gsize      size,
          gpointer  *out_event,
          GError   **error)
{
  cl_command_queue q = cl_queue (queue, error);

  return q != NULL &&
         ks_opencl_check (clEnqueueCopyBuffer (q, src->handle, dst->handle, src_offset, dst_offset, size,
                                               0, NULL, (cl_event *) out_event),
                          "Copying between buffers", error);
}

static gboolean
ocl_fill (KsQueue    *queue,
          KsBuffer   *buffer,
          const void *pattern,
          gsize       pattern_size,
          gsize       offset,
          gsize       size,
          gpointer   *out_event,
          GError    **error)
{
  cl_command_queue q = cl_queue (queue, error);

  return q != NULL &&
         ks_opencl_check (clEnqueueFillBuffer (q, buffer->handle, pattern, pattern_size, offset, size,
                                               0, NULL, (cl_event *) out_event),
                          "Filling a buffer", error);
}

static void *
ocl_map (KsQueue    *queue,
         KsBuffer   *buffer,
         gsize       offset,
         gsize       size,
         KsMapFlags  flags,
         GError    **error)
{
  cl_command_queue q = cl_queue (queue, error);
  cl_map_flags f = (flags & KS_MAP_READ ? CL_MAP_READ : 0) | (flags & KS_MAP_WRITE ? CL_MAP_WRITE : 0);
  cl_int status = CL_SUCCESS;
  void *ptr;

  if (q == NULL)
    return NULL;
  ptr = clEnqueueMapBuffer (q, buffer->handle, CL_TRUE, f, offset, size, 0, NULL, NULL, &status);
  if (!ks_opencl_check (status, "Mapping a buffer", error))
    return NULL;
  buffer->maps = g_slist_prepend (buffer->maps, ptr);
  return ptr;
}

static gboolean
ocl_unmap (KsQueue   *queue,
           KsBuffer  *buffer,
           void      *mapped,
           GError   **error)
{
  cl_command_queue q;

  if (g_slist_find (buffer->maps, mapped) == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   "Unmapping %p, which is no mapping of this buffer", mapped);
      return FALSE;
    }
  if (!(q = cl_queue (queue, error)) ||
      !ks_opencl_check (clEnqueueUnmapMemObject (q, buffer->handle, mapped, 0, NULL, NULL),
                        "Unmapping a buffer", error))
    return FALSE;
  buffer->maps = g_slist_remove (buffer->maps, mapped);
  return TRUE;
}

static gboolean
ocl_launch (KsQueue              *queue,
            KsKernel             *kernel,
            const KsLaunchConfig *config,
            gpointer             *out_event,
            GError              **error)
{
  KsRuntime *rt = queue->rt;
  KsOpenclRuntime *o = ocl (rt);
  cl_event event = NULL;
  size_t g[3] = { 1, 1, 1 }, l[3] = { 1, 1, 1 }, off[3] = { 0, 0, 0 };
  gboolean has_local = FALSE, has_offset = FALSE;
  cl_command_queue q;
  cl_int status;

  for (guint d = 0; d < config->dims; d++)
    {
      g[d] = config->global[d];
      l[d] = config->local[d];
      off[d] = config->offset[d];
      has_local |= l[d] != 0;
      has_offset |= off[d] != 0;
    }

  if (!(q = cl_queue (queue, error)))
    return FALSE;
  if (o->fail_after && ++o->launches > o->fail_after)
    status = CL_DEVICE_NOT_AVAILABLE;
  else
    /* Untimed: no event object at all, so its cost stays out of the wall time. */
    status = clEnqueueNDRangeKernel (q, kernel->handle, config->dims, has_offset ? off : NULL, g,
                                     has_local ? l : NULL, 0, NULL, rt->untimed ? NULL : &event);
  if (status != CL_SUCCESS)
    {
      g_autofree char *what = g_strdup_printf ("Launching %s", kernel->name);
      return ks_opencl_check (status, what, error);
    }
  *out_event = event;
  return TRUE;
}

static gboolean
ocl_finish (KsQueue *queue,
            GError **error)
{
  KsOpenclRuntime *o = ocl (queue->rt);

  /* The default queue's twin too: whichever the last commands went to. */
  if (queue->is_default && o->queue_untimed != NULL &&
      !ks_opencl_check (clFinish (o->queue_untimed), "Waiting for the device", error))
    return FALSE;
  return ks_opencl_check (clFinish (queue->handle), "Waiting for the device", error);
}

static gpointer
ocl_marker (KsQueue *queue,
            GError **error)
{
  cl_command_queue q = cl_queue (queue, error);
  cl_event event = NULL;

  if (q == NULL ||
      !ks_opencl_check (clEnqueueMarkerWithWaitList (q, 0, NULL, &event), "Marking the queue", error))
    return NULL;
  /* Without a flush the marker may sit in the host's batch, and a wait for
   * it (by the host or another queue) would wait for nothing to start. */
  if (!ks_opencl_check (clFlush (q), "Marking the queue", error))
    {
      clReleaseEvent (event);
      return NULL;
    }
  return event;
}

static gboolean
ocl_marker_wait (KsRuntime *rt,
                 gpointer   marker,
                 GError   **error)
{
  cl_event event = marker;
  return ks_opencl_check (clWaitForEvents (1, &event), "Waiting for the device", error);
}

static gboolean
ocl_queue_wait (KsQueue  *queue,
                gpointer  marker,
                GError  **error)
{
  cl_command_queue q = cl_queue (queue, error);
  cl_event event = marker;

  return q != NULL &&
         ks_opencl_check (clEnqueueBarrierWithWaitList (q, 1, &event, NULL),
                          "Ordering a queue after another", error);
}

static gboolean
profiling (cl_event           event,
           cl_profiling_info  param,
           cl_ulong          *value,
           GError           **error)
{
  return ks_opencl_check (clGetEventProfilingInfo (event, param, sizeof *value, value, NULL),
                          "Reading a device time", error);
}

static gboolean
ocl_marker_elapsed_ns (KsRuntime *rt,
                       gpointer   from,
                       gpointer   to,
                       guint64   *out_ns,
                       GError   **error)
{
  cl_ulong a = 0, b = 0;

  /* A marker ends when everything before it has: end to end. */
  if (!profiling (from, CL_PROFILING_COMMAND_END, &a, error) ||
      !profiling (to, CL_PROFILING_COMMAND_END, &b, error))
    return FALSE;
  *out_ns = b > a ? b - a : 0;
  return TRUE;
}

static gboolean
ocl_event_elapsed_ns (KsRuntime *rt,
                      gpointer   event,
                      guint64   *out_ns,
                      GError   **error)
{
  cl_ulong start = 0, end = 0;

  if (!profiling (event, CL_PROFILING_COMMAND_START, &start, error) ||
      !profiling (event, CL_PROFILING_COMMAND_END, &end, error))
    return FALSE;
  *out_ns = end > start ? end - start : 0;
  return TRUE;
}

static void
ocl_event_free (gpointer event)
{
  clReleaseEvent (event);
}

static const KsRuntimeVTable opencl_vtable = {
  .runtime_free = ocl_runtime_free,
  .queue_new = ocl_queue_new,
  .queue_free = ocl_queue_free,
  .build_program = ocl_build_program,
  .program_free = ocl_program_free,
  .create_kernel = ocl_create_kernel,
  .kernel_free = ocl_kernel_free,
  .set_arg = ocl_set_arg,
  .set_arg_local = ocl_set_arg_local,
  .set_arg_buffer = ocl_set_arg_buffer,
  .alloc = ocl_alloc,
  .view = ocl_view,
  .buffer_free = ocl_buffer_free,
  .write = ocl_write,
  .read = ocl_read,
  .copy = ocl_copy,
  .fill = ocl_fill,
  .map = ocl_map,
  .unmap = ocl_unmap,
  .launch = ocl_launch,
  .finish = ocl_finish,
  .event_elapsed_ns = ocl_event_elapsed_ns,
  .event_free = ocl_event_free,
  .marker = ocl_marker,
  .marker_wait = ocl_marker_wait,
  .queue_wait = ocl_queue_wait,
  .marker_elapsed_ns = ocl_marker_elapsed_ns,
  .marker_free = ocl_event_free,
};

gboolean
ks_opencl_runtime_init (KsRuntime *rt,
                        GError   **error)
{
  g_autofree KsOpenclRuntime *o = g_new0 (KsOpenclRuntime, 1);
  cl_device_id device = device_of (rt);
  cl_platform_id platform = ks_device_get_platform_handle (rt->device);
  cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties) platform, 0 };
  const char *fail_after;
  cl_int status = CL_SUCCESS;

  o->context = clCreateContext (props, 1, &device, NULL, NULL, &status);
  if (!ks_opencl_check (status, "Opening the device (clCreateContext)", error))
    return FALSE;

  rt->queue->handle = clCreateCommandQueue (o->context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  if (!ks_opencl_check (status, "Opening a command queue", error))
    {
      clReleaseContext (o->context);
      return FALSE;
    }

  /* Test hook: after N launches every launch fails as if the device had
   * gone away, so the "device disappears mid-run" path can be tested. */
  fail_after = g_getenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS");
  if (fail_after)
    o->fail_after = (guint) g_ascii_strtoull (fail_after, NULL, 10);

  rt->vtable = &opencl_vtable;
  rt->backend_data = g_steal_pointer (&o);
  return TRUE;
}
