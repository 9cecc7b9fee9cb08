/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-opencl"

#include "ks-opencl.h"
#include "ks-compute-error.h"
#include "ks-cores-table.h"
#include "ks-device.h"
#include "ks-runtime-private.h"

#include <glib/gi18n-lib.h>
#include <CL/cl.h>
#include <dlfcn.h>
#include <string.h>

/* From cl_ext.h (cl_nv_device_attribute_query); spelled out so we do not
 * depend on a vendor header being present. */
#define KS_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define KS_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define KS_CL_PLATFORM_NOT_FOUND_KHR (-1001)

typedef struct {
  cl_context       context;
  cl_command_queue queue;          /* profiling on: timed launches */
  cl_command_queue queue_untimed;  /* profiling off, made on first use */
  cl_command_queue last;           /* the queue of the last command */
  guint            launches;
  guint            fail_after;  /* test hook: simulate losing the device */
} KsOpenclRuntime;

const char *
ks_opencl_error_name (int status)
{
  switch (status)
    {
#define CASE(x) case x: return #x
      CASE (CL_SUCCESS);
      CASE (CL_DEVICE_NOT_FOUND);
      CASE (CL_DEVICE_NOT_AVAILABLE);
      CASE (CL_COMPILER_NOT_AVAILABLE);
      CASE (CL_MEM_OBJECT_ALLOCATION_FAILURE);
      CASE (CL_OUT_OF_RESOURCES);
      CASE (CL_OUT_OF_HOST_MEMORY);
      CASE (CL_PROFILING_INFO_NOT_AVAILABLE);
      CASE (CL_BUILD_PROGRAM_FAILURE);
      CASE (CL_INVALID_VALUE);
      CASE (CL_INVALID_DEVICE);
      CASE (CL_INVALID_CONTEXT);
      CASE (CL_INVALID_COMMAND_QUEUE);
      CASE (CL_INVALID_MEM_OBJECT);
      CASE (CL_INVALID_BUILD_OPTIONS);
      CASE (CL_INVALID_PROGRAM);
      CASE (CL_INVALID_PROGRAM_EXECUTABLE);
      CASE (CL_INVALID_KERNEL_NAME);
      CASE (CL_INVALID_KERNEL);
      CASE (CL_INVALID_ARG_INDEX);
      CASE (CL_INVALID_ARG_VALUE);
      CASE (CL_INVALID_ARG_SIZE);
      CASE (CL_INVALID_KERNEL_ARGS);
      CASE (CL_INVALID_WORK_DIMENSION);
      CASE (CL_INVALID_WORK_GROUP_SIZE);
      CASE (CL_INVALID_WORK_ITEM_SIZE);
      CASE (CL_INVALID_GLOBAL_OFFSET);
      CASE (CL_INVALID_EVENT);
      CASE (CL_INVALID_OPERATION);
      CASE (CL_INVALID_BUFFER_SIZE);
      CASE (CL_INVALID_GLOBAL_WORK_SIZE);
      CASE (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
#undef CASE
    case KS_CL_PLATFORM_NOT_FOUND_KHR:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "unknown OpenCL error";
    }
}

/* Maps an OpenCL status to the error a user can act on. */
static gboolean
check_cl (cl_int      status,
          const char *what,
          GError    **error)
{
  KsComputeError code;

  if (status == CL_SUCCESS)
    return TRUE;

  switch (status)
    {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_INVALID_BUFFER_SIZE:
      code = KS_COMPUTE_ERROR_OUT_OF_MEMORY;
      break;
    case CL_INVALID_WORK_GROUP_SIZE:
    case CL_INVALID_WORK_ITEM_SIZE:
      code = KS_COMPUTE_ERROR_WORK_GROUP_SIZE;
      break;
    case CL_DEVICE_NOT_AVAILABLE:
    case CL_DEVICE_NOT_FOUND:
    case CL_INVALID_DEVICE:
    case CL_INVALID_CONTEXT:
    case CL_INVALID_COMMAND_QUEUE:
      code = KS_COMPUTE_ERROR_DEVICE_LOST;
      break;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILER_NOT_AVAILABLE:
      code = KS_COMPUTE_ERROR_BUILD_FAILED;
      break;
    default:
      code = KS_COMPUTE_ERROR_FAILED;
      break;
    }

  g_set_error (error, KS_COMPUTE_ERROR, code, _("%s failed: %s (%d)%s"),
               what, ks_opencl_error_name (status), status,
               code == KS_COMPUTE_ERROR_DEVICE_LOST
                 ? _(": the device was lost or stopped answering; the points measured before are kept") : "");
  return FALSE;
}

static char *
device_string (cl_device_id   device,
               cl_device_info param)
{
  size_t size = 0;
  char *value;

  if (clGetDeviceInfo (device, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("");
  value = g_malloc0 (size + 1);
  if (clGetDeviceInfo (device, param, size, value, NULL) != CL_SUCCESS)
    value[0] = '\0';
  return g_strstrip (value);
}

static char *
platform_string (cl_platform_id   platform,
                 cl_platform_info param)
{
  size_t size = 0;
  char *value;

  if (clGetPlatformInfo (platform, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("");
  value = g_malloc0 (size + 1);
  if (clGetPlatformInfo (platform, param, size, value, NULL) != CL_SUCCESS)
    value[0] = '\0';
  return g_strstrip (value);
}

#define DEVICE_SCALAR(dev, param, var) \
  (clGetDeviceInfo ((dev), (param), sizeof (var), &(var), NULL) == CL_SUCCESS)

static KsDevice *
make_device (cl_platform_id platform,
             cl_device_id   device,
             guint          platform_index,
             guint          device_index)
{
  KsDeviceInfo info = { 0 };
  cl_device_type type = 0;
  cl_uint cu = 0;
  size_t max_wg = 0;
  size_t item_sizes[3] = { 0, 0, 0 };
  cl_ulong local_mem = 0, global_mem = 0, max_alloc = 0;
  cl_device_fp_config fp64 = 0;
  g_autofree char *extensions = device_string (device, CL_DEVICE_EXTENSIONS);

  info.backend = KS_BACKEND_OPENCL;
  info.id = g_strdup_printf ("opencl:%u:%u", platform_index, device_index);
  info.name = device_string (device, CL_DEVICE_NAME);
  info.vendor = device_string (device, CL_DEVICE_VENDOR);
  info.driver_version = device_string (device, CL_DRIVER_VERSION);
  info.version = device_string (device, CL_DEVICE_VERSION);
  info.platform_name = platform_string (platform, CL_PLATFORM_NAME);

  (void) DEVICE_SCALAR (device, CL_DEVICE_TYPE, type);
  if (type & CL_DEVICE_TYPE_GPU)
    info.type = KS_DEVICE_TYPE_GPU;
  else if (type & CL_DEVICE_TYPE_CPU)
    info.type = KS_DEVICE_TYPE_CPU;
  else if (type & CL_DEVICE_TYPE_ACCELERATOR)
    info.type = KS_DEVICE_TYPE_ACCELERATOR;
  else
    info.type = KS_DEVICE_TYPE_OTHER;

  (void) DEVICE_SCALAR (device, CL_DEVICE_MAX_COMPUTE_UNITS, cu);
  (void) DEVICE_SCALAR (device, CL_DEVICE_MAX_WORK_GROUP_SIZE, max_wg);
  clGetDeviceInfo (device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_sizes, item_sizes, NULL);
  (void) DEVICE_SCALAR (device, CL_DEVICE_LOCAL_MEM_SIZE, local_mem);
  (void) DEVICE_SCALAR (device, CL_DEVICE_GLOBAL_MEM_SIZE, global_mem);
  (void) DEVICE_SCALAR (device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc);
  (void) DEVICE_SCALAR (device, CL_DEVICE_DOUBLE_FP_CONFIG, fp64);

  info.compute_units = cu;
  info.max_work_group_size = max_wg;
  for (guint d = 0; d < 3; d++)
    info.max_work_item_sizes[d] = item_sizes[d];
  info.local_mem = local_mem;
  info.global_mem = global_mem;
  info.max_alloc = max_alloc;
  info.has_fp64 = fp64 != 0 || (extensions && strstr (extensions, "cl_khr_fp64"));

  info.cc_major = info.cc_minor = -1;
  if (extensions && strstr (extensions, "cl_nv_device_attribute_query"))
    {
      cl_uint major = 0, minor = 0;
      if (DEVICE_SCALAR (device, KS_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, major) &&
          DEVICE_SCALAR (device, KS_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, minor))
        {
          info.cc_major = major;
          info.cc_minor = minor;
        }
    }

  info.table_cores_per_cu = ks_cores_per_cu_lookup (info.vendor, info.name,
                                                    info.type == KS_DEVICE_TYPE_CPU,
                                                    info.type == KS_DEVICE_TYPE_GPU,
                                                    info.cc_major, info.cc_minor,
                                                    &info.table_cores_source);

  return ks_device_new (&info, device, platform);
}

/* Whether an ICD file in the loader's folder (OCL_ICD_VENDORS when it is a
 * folder, as ocl-icd reads it, else /etc/OpenCL/vendors) names NVIDIA's
 * library. */
static gboolean
icd_names_nvidia (void)
{
  const char *env = g_getenv ("OCL_ICD_VENDORS");
  const char *dir_path = env && g_file_test (env, G_FILE_TEST_IS_DIR) ? env : "/etc/OpenCL/vendors";
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *text = NULL;

      if (g_str_has_suffix (name, ".icd") && g_file_get_contents (path, &text, NULL, NULL) &&
          strstr (text, "nvidia") != NULL)
        return TRUE;
    }
  return FALSE;
}

/* NVIDIA's driver may be installed with its OpenCL library but without the
 * ICD file that tells the loader about it (seen on a GPU server whose
 * /etc/OpenCL/vendors held pocl.icd alone): CUDA then lists the GPU and
 * OpenCL silently does not.  Say so, and how to fix it. */
static char *
unregistered_nvidia_note (GPtrArray *devices,
                          guint      first)
{
  const char *lib = g_getenv ("KERNELSCOPE_TEST_NVIDIA_OPENCL_LIB");   /* test hook */
  void *handle;

  for (guint i = first; i < devices->len; i++)
    {
      const KsDeviceInfo *info = ks_device_get_info (g_ptr_array_index (devices, i));
      if (info->vendor && strstr (info->vendor, "NVIDIA"))
        return NULL;
    }
  if (lib == NULL || *lib == '\0')
    lib = "libnvidia-opencl.so.1";
  if (icd_names_nvidia ())
    return NULL;   /* registered: its platform failed for another reason */
  if (!(handle = dlopen (lib, RTLD_LAZY | RTLD_LOCAL)))
    return NULL;
  dlclose (handle);
  return g_strdup_printf (_("NVIDIA's OpenCL library (%s) is installed, but no ICD file names it, so "
                            "OpenCL cannot see the NVIDIA GPU: add /etc/OpenCL/vendors/nvidia.icd "
                            "containing \"libnvidia-opencl.so.1\" (or point OCL_ICD_VENDORS at a folder "
                            "with one)"), lib);
}

gboolean
ks_opencl_enumerate (GPtrArray  *devices,
                     char      **out_note,
                     GError    **error)
{
  cl_uint n_platforms = 0;
  g_autofree cl_platform_id *platforms = NULL;
  g_autofree char *nvidia = NULL;
  const guint first = devices->len;
  cl_int status;

  g_return_val_if_fail (devices != NULL, FALSE);

  status = clGetPlatformIDs (0, NULL, &n_platforms);
  if (status == KS_CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && n_platforms == 0))
    {
      nvidia = unregistered_nvidia_note (devices, first);
      if (out_note)
        *out_note = nvidia
          ? g_strdup_printf ("%s; %s", _("no OpenCL platform installed (install pocl-opencl-icd for the CPU device)"), nvidia)
          : g_strdup (_("no OpenCL platform installed (install pocl-opencl-icd for the CPU device)"));
      return TRUE;
    }
  if (!check_cl (status, "clGetPlatformIDs", error))
    return FALSE;

  platforms = g_new0 (cl_platform_id, n_platforms);
  if (!check_cl (clGetPlatformIDs (n_platforms, platforms, NULL), "clGetPlatformIDs", error))
    return FALSE;

  for (cl_uint p = 0; p < n_platforms; p++)
    {
      cl_uint n_devices = 0;
      g_autofree cl_device_id *ids = NULL;

      /* A platform whose driver is broken or has no device must not hide the others. */
      if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_devices) != CL_SUCCESS ||
          n_devices == 0)
        continue;
      ids = g_new0 (cl_device_id, n_devices);
      if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, n_devices, ids, NULL) != CL_SUCCESS)
        continue;
      for (cl_uint d = 0; d < n_devices; d++)
        g_ptr_array_add (devices, make_device (platforms[p], ids[d], p, d));
    }

  nvidia = unregistered_nvidia_note (devices, first);
  if (out_note)
    {
      g_autofree char *count = g_strdup_printf (_("%u OpenCL platform(s)"), n_platforms);
      *out_note = nvidia ? g_strdup_printf ("%s; %s", count, nvidia) : g_steal_pointer (&count);
    }
  return TRUE;
}

/* --- runtime --------------------------------------------------------------- */

static KsOpenclRuntime *
ocl (KsRuntime *rt)
{
  return rt->backend_data;
}

static void
ocl_runtime_free (KsRuntime *rt)
{
  KsOpenclRuntime *o = ocl (rt);

  if (o == NULL)
    return;
  if (o->queue)
    clReleaseCommandQueue (o->queue);
  if (o->queue_untimed)
    clReleaseCommandQueue (o->queue_untimed);
  if (o->context)
    clReleaseContext (o->context);
  g_free (o);
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
  clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL);
  return g_strstrip (log);
}

static gboolean
ocl_build_program (KsRuntime  *rt,
                   KsProgram  *program,
                   const char *source,
                   gsize       length,
                   const char *options,
                   GError    **error)
{
  cl_device_id device = ks_device_get_backend_handle (rt->device);
  cl_int status = CL_SUCCESS;
  size_t len = length;
  cl_program handle;

  handle = clCreateProgramWithSource (ocl (rt)->context, 1, &source, &len, &status);
  if (!check_cl (status, "clCreateProgramWithSource", error))
    return FALSE;
  program->handle = handle;

  status = clBuildProgram (handle, 1, &device, options, NULL, NULL);
  program->build_log = program_build_log (handle, device);
  if (status != CL_SUCCESS)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("the kernel compiler of %s refused the program (%s). Build log:\n%s"),
                   ks_device_get_name (rt->device), ks_opencl_error_name (status),
                   *program->build_log ? program->build_log : _("(the driver gave no log)"));
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
ocl_create_kernel (KsProgram  *program,
                   KsKernel   *kernel,
                   GError    **error)
{
  cl_device_id device = ks_device_get_backend_handle (program->rt->device);
  cl_int status = CL_SUCCESS;
  cl_kernel handle;
  size_t wg = 0, multiple = 0;

  handle = clCreateKernel (program->handle, kernel->name, &status);
  if (status != CL_SUCCESS)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("The program has no usable kernel %s (%s)"), kernel->name,
                   ks_opencl_error_name (status));
      return FALSE;
    }
  kernel->handle = handle;

  clGetKernelWorkGroupInfo (handle, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
  clGetKernelWorkGroupInfo (handle, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                            sizeof multiple, &multiple, NULL);
  kernel->max_work_group_size = wg;
  kernel->preferred_multiple = multiple;
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
  return check_cl (clSetKernelArg (kernel->handle, index, size, value), what, error);
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

static gboolean
ocl_alloc (KsRuntime *rt,
           KsBuffer  *buffer,
           GError   **error)
{
  cl_int status = CL_SUCCESS;
  cl_mem mem;

  mem = clCreateBuffer (ocl (rt)->context, CL_MEM_READ_WRITE, buffer->size, NULL, &status);
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

static void
ocl_buffer_free (KsBuffer *buffer)
{
  clReleaseMemObject (buffer->handle);
}

/* Untimed solves go to a queue without profiling: a driver may time every
 * command of a profiling queue whether or not anyone asks for its event,
 * and the untimed wall time must not carry that (CUDA's untimed launches
 * record nothing either).  The two queues are not ordered with respect to
 * each other, so switching waits for the other one to drain. */
static cl_command_queue
ocl_queue (KsRuntime *rt)
{
  KsOpenclRuntime *o = ocl (rt);
  cl_command_queue want = o->queue;

  if (rt->untimed)
    {
      if (o->queue_untimed == NULL)
        {
          cl_int status = CL_SUCCESS;
          cl_device_id device = ks_device_get_backend_handle (rt->device);

          o->queue_untimed = clCreateCommandQueue (o->context, device, 0, &status);
          if (status != CL_SUCCESS)
            o->queue_untimed = NULL;   /* then the profiling queue serves */
        }
      if (o->queue_untimed != NULL)
        want = o->queue_untimed;
    }
  if (o->last != NULL && o->last != want)
    clFinish (o->last);
  o->last = want;
  return want;
}

/* Buffers are allocated lazily by most drivers: the first transfer is where
 * a too-large problem really fails, so name memory in the message. */
static gboolean
ocl_write (KsRuntime  *rt,
           KsBuffer   *buffer,
           gsize       offset,
           gsize       size,
           const void *src,
           GError    **error)
{
  return check_cl (clEnqueueWriteBuffer (ocl_queue (rt), buffer->handle, CL_TRUE,
                                         offset, size, src, 0, NULL, NULL),
                   "Copying data to the device", error);
}

static gboolean
ocl_read (KsRuntime *rt,
          KsBuffer  *buffer,
          gsize      offset,
          gsize      size,
          void      *dst,
          GError   **error)
{
  return check_cl (clEnqueueReadBuffer (ocl_queue (rt), buffer->handle, CL_TRUE,
                                        offset, size, dst, 0, NULL, NULL),
                   "Copying results from the device", error);
}

static gboolean
ocl_launch (KsRuntime   *rt,
            KsKernel    *kernel,
            guint        dims,
            const gsize *global,
            const gsize *local,
            gpointer    *out_event,
            GError     **error)
{
  KsOpenclRuntime *o = ocl (rt);
  cl_event event = NULL;
  size_t g[3] = { 1, 1, 1 }, l[3] = { 1, 1, 1 };
  cl_int status;

  for (guint d = 0; d < dims; d++)
    {
      g[d] = global[d];
      if (local)
        l[d] = local[d];
    }

  if (o->fail_after && ++o->launches > o->fail_after)
    status = CL_DEVICE_NOT_AVAILABLE;
  else
    /* Untimed: no event object at all, so its cost stays out of the wall time. */
    status = clEnqueueNDRangeKernel (ocl_queue (rt), kernel->handle, dims, NULL, g,
                                     local ? l : NULL, 0, NULL, rt->untimed ? NULL : &event);
  if (status != CL_SUCCESS)
    {
      g_autofree char *what = g_strdup_printf ("Launching %s", kernel->name);
      return check_cl (status, what, error);
    }
  *out_event = event;
  return TRUE;
}

static gboolean
ocl_finish (KsRuntime *rt,
            GError   **error)
{
  KsOpenclRuntime *o = ocl (rt);

  /* Both queues: whichever the last commands went to. */
  if (o->queue_untimed != NULL && !check_cl (clFinish (o->queue_untimed), "Waiting for the device", error))
    return FALSE;
  return check_cl (clFinish (o->queue), "Waiting for the device", error);
}

static gpointer
ocl_mark (KsRuntime *rt,
          GError   **error)
{
  cl_event event = NULL;

  if (!check_cl (clEnqueueMarkerWithWaitList (ocl_queue (rt), 0, NULL, &event), "Marking the queue", error))
    return NULL;
  /* Without a flush the marker may sit in the host's batch and the wait
   * below would wait for nothing to start. */
  clFlush (ocl_queue (rt));
  return event;
}

static gboolean
ocl_mark_wait (KsRuntime *rt,
               gpointer   mark,
               GError   **error)
{
  cl_event event = mark;
  return check_cl (clWaitForEvents (1, &event), "Waiting for the device", error);
}

static void
ocl_mark_free (gpointer mark)
{
  clReleaseEvent (mark);
}

static gboolean
ocl_event_elapsed_ns (KsRuntime *rt,
                      gpointer   event,
                      guint64   *out_ns,
                      GError   **error)
{
  cl_ulong start = 0, end = 0;

  if (!check_cl (clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL),
                 "Reading a kernel's start time", error) ||
      !check_cl (clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL),
                 "Reading a kernel's end time", error))
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
  .build_program = ocl_build_program,
  .program_free = ocl_program_free,
  .create_kernel = ocl_create_kernel,
  .kernel_free = ocl_kernel_free,
  .set_arg = ocl_set_arg,
  .set_arg_buffer = ocl_set_arg_buffer,
  .alloc = ocl_alloc,
  .buffer_free = ocl_buffer_free,
  .write = ocl_write,
  .read = ocl_read,
  .launch = ocl_launch,
  .finish = ocl_finish,
  .event_elapsed_ns = ocl_event_elapsed_ns,
  .event_free = ocl_event_free,
  .mark = ocl_mark,
  .mark_wait = ocl_mark_wait,
  .mark_free = ocl_mark_free,
};

gboolean
ks_opencl_runtime_init (KsRuntime *rt,
                        GError   **error)
{
  g_autofree KsOpenclRuntime *o = g_new0 (KsOpenclRuntime, 1);
  cl_device_id device = ks_device_get_backend_handle (rt->device);
  cl_platform_id platform = ks_device_get_platform_handle (rt->device);
  cl_context_properties props[] = { CL_CONTEXT_PLATFORM, (cl_context_properties) platform, 0 };
  const char *fail_after;
  cl_int status = CL_SUCCESS;

  o->context = clCreateContext (props, 1, &device, NULL, NULL, &status);
  if (!check_cl (status, "Opening the device (clCreateContext)", error))
    return FALSE;

  o->queue = clCreateCommandQueue (o->context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  if (!check_cl (status, "Opening a command queue", error))
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
