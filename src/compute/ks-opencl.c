/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-opencl"

/* ks-opencl.c: the OpenCL devices and the statuses' meaning; the runtime is
 * ks-opencl-runtime.c. */
#include "ks-opencl.h"
#include "ks-opencl-private.h"
#include "ks-compute-error.h"
#include "ks-cores-table.h"
#include "ks-device.h"
#include "ks-pocl-cache.h"

#include <glib/gi18n-lib.h>
#include <dlfcn.h>
#include <string.h>

/* From cl_ext.h (cl_nv_device_attribute_query); spelled out so we do not
 * depend on a vendor header being present. */
#define KS_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define KS_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define KS_CL_PLATFORM_NOT_FOUND_KHR (-1001)
/* cl_khr_icd: the suffix the loader knows a platform by ("POCL", "NV"). */
#define KS_CL_PLATFORM_ICD_SUFFIX_KHR 0x0920

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
      CASE (CL_MISALIGNED_SUB_BUFFER_OFFSET);
      CASE (CL_MAP_FAILURE);
      CASE (CL_INVALID_HOST_PTR);
      CASE (CL_INVALID_EVENT_WAIT_LIST);
      CASE (CL_INVALID_PROPERTY);
#undef CASE
    case KS_CL_PLATFORM_NOT_FOUND_KHR:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "unknown OpenCL error";
    }
}

/* Maps an OpenCL status to the error a user can act on. */
gboolean
ks_opencl_check (cl_int      status,
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
    case CL_MISALIGNED_SUB_BUFFER_OFFSET:
    case CL_PROFILING_INFO_NOT_AVAILABLE:
      code = KS_COMPUTE_ERROR_UNSUPPORTED;
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

/* CL_DEVICE_PREFERRED_ and CL_DEVICE_NATIVE_VECTOR_WIDTH_<type>, in
 * KsVectorType order; 0 where the driver does not answer. */
static void
vector_widths (cl_device_id  device,
               KsDeviceInfo *info)
{
  static const cl_device_info preferred[KS_VECTOR_N_TYPES] = {
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
  };
  static const cl_device_info native[KS_VECTOR_N_TYPES] = {
    CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
    CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
  };

  for (guint t = 0; t < KS_VECTOR_N_TYPES; t++)
    {
      cl_uint p = 0, n = 0;

      info->vector_width_preferred[t] = DEVICE_SCALAR (device, preferred[t], p) ? p : 0;
      info->vector_width_native[t] = DEVICE_SCALAR (device, native[t], n) ? n : 0;
    }
}

static KsDeviceType
device_kind (cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_GPU)
    return KS_DEVICE_TYPE_GPU;
  if (type & CL_DEVICE_TYPE_CPU)
    return KS_DEVICE_TYPE_CPU;
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return KS_DEVICE_TYPE_ACCELERATOR;
  return KS_DEVICE_TYPE_OTHER;
}

/* NVIDIA's compute capability where the driver answers it; -1 else. */
static void
nv_compute_capability (cl_device_id  device,
                       const char   *extensions,
                       KsDeviceInfo *info)
{
  cl_uint major = 0, minor = 0;

  info->cc_major = info->cc_minor = -1;
  if (extensions && strstr (extensions, "cl_nv_device_attribute_query") &&
      DEVICE_SCALAR (device, KS_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, major) &&
      DEVICE_SCALAR (device, KS_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, minor))
    {
      info->cc_major = major;
      info->cc_minor = minor;
    }
}

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
  cl_ulong local_mem = 0, global_mem = 0, max_alloc = 0, cache = 0;
  cl_device_fp_config fp64 = 0;
  cl_uint align_bits = 0, line = 0;
  size_t timer_resolution = 0;
  g_autofree char *extensions = device_string (device, CL_DEVICE_EXTENSIONS);

  info.backend = KS_BACKEND_OPENCL;
  info.id = g_strdup_printf ("opencl:%u:%u", platform_index, device_index);
  info.name = device_string (device, CL_DEVICE_NAME);
  info.vendor = device_string (device, CL_DEVICE_VENDOR);
  info.driver_version = device_string (device, CL_DRIVER_VERSION);
  info.version = device_string (device, CL_DEVICE_VERSION);
  info.platform_name = platform_string (platform, CL_PLATFORM_NAME);
  {
    g_autofree char *vendor = platform_string (platform, CL_PLATFORM_VENDOR);
    /* The suffix the ICD loader knows the platform by ("POCL", "NV"). */
    g_autofree char *suffix = platform_string (platform, KS_CL_PLATFORM_ICD_SUFFIX_KHR);
    info.platform_aliases = g_strjoin (" ", vendor, suffix, NULL);
  }

  (void) DEVICE_SCALAR (device, CL_DEVICE_TYPE, type);
  info.type = device_kind (type);

  (void) DEVICE_SCALAR (device, CL_DEVICE_MAX_COMPUTE_UNITS, cu);
  (void) DEVICE_SCALAR (device, CL_DEVICE_MAX_WORK_GROUP_SIZE, max_wg);
  if (clGetDeviceInfo (device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof item_sizes, item_sizes, NULL) != CL_SUCCESS)
    item_sizes[0] = item_sizes[1] = item_sizes[2] = 0;   /* unknown: the launch does not pre-check */
  (void) DEVICE_SCALAR (device, CL_DEVICE_LOCAL_MEM_SIZE, local_mem);
  (void) DEVICE_SCALAR (device, CL_DEVICE_GLOBAL_MEM_SIZE, global_mem);
  (void) DEVICE_SCALAR (device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, max_alloc);
  (void) DEVICE_SCALAR (device, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cache);
  (void) DEVICE_SCALAR (device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, line);
  (void) DEVICE_SCALAR (device, CL_DEVICE_DOUBLE_FP_CONFIG, fp64);
  (void) DEVICE_SCALAR (device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, align_bits);
  (void) DEVICE_SCALAR (device, CL_DEVICE_PROFILING_TIMER_RESOLUTION, timer_resolution);
  vector_widths (device, &info);

  info.compute_units = cu;
  info.max_work_group_size = max_wg;
  for (guint d = 0; d < 3; d++)
    info.max_work_item_sizes[d] = item_sizes[d];
  info.local_mem = local_mem;
  info.global_mem = global_mem;
  info.max_alloc = max_alloc;
  info.cache_bytes = cache;
  info.cache_line = line;
  info.has_fp64 = fp64 != 0 || (extensions && strstr (extensions, "cl_khr_fp64"));
  info.has_fp16 = extensions && strstr (extensions, "cl_khr_fp16");
  info.mem_base_addr_align = MAX (align_bits / 8, 1);
  info.timer_resolution_ns = timer_resolution;

  nv_compute_capability (device, extensions, &info);

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

/* Why platform shows no device.  PoCL gives up on all its devices when it
 * cannot create its kernel cache, and says so only under POCL_DEBUG. */
static void
no_device_note (GString        *notes,
                cl_platform_id  platform,
                cl_int          status)
{
  g_autofree char *name = platform_string (platform, CL_PLATFORM_NAME);
  g_autofree char *vendor = platform_string (platform, CL_PLATFORM_VENDOR);
  g_autofree char *suffix = platform_string (platform, KS_CL_PLATFORM_ICD_SUFFIX_KHR);
  g_autofree char *aliases = g_strjoin (" ", vendor, suffix, NULL);
  g_autofree char *cache = ks_pocl_is_platform (name, aliases) ? ks_pocl_cache_problem () : NULL;

  g_string_append_printf (notes, _("; platform \"%s\" shows no device (%s)"), name,
                          status == CL_SUCCESS ? "0 devices" : ks_opencl_error_name (status));
  if (cache)
    g_string_append_printf (notes, ": %s", cache);
}

gboolean
ks_opencl_enumerate (GPtrArray  *devices,
                     char      **out_note,
                     GError    **error)
{
  cl_uint n_platforms = 0;
  g_autofree cl_platform_id *platforms = NULL;
  g_autofree char *nvidia = NULL;
  g_autoptr(GString) notes = NULL;
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
  if (!ks_opencl_check (status, "clGetPlatformIDs", error))
    return FALSE;

  platforms = g_new0 (cl_platform_id, n_platforms);
  if (!ks_opencl_check (clGetPlatformIDs (n_platforms, platforms, NULL), "clGetPlatformIDs", error))
    return FALSE;

  notes = g_string_new (NULL);
  g_string_printf (notes, _("%u OpenCL platform(s)"), n_platforms);
  for (cl_uint p = 0; p < n_platforms; p++)
    {
      cl_uint n_devices = 0;
      g_autofree cl_device_id *ids = NULL;

      /* A platform whose driver is broken or has no device must not hide
       * the others, nor go unmentioned. */
      status = clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_devices);
      if (status != CL_SUCCESS || n_devices == 0)
        {
          no_device_note (notes, platforms[p], status);
          continue;
        }
      ids = g_new0 (cl_device_id, n_devices);
      if ((status = clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, n_devices, ids, NULL)) != CL_SUCCESS)
        {
          no_device_note (notes, platforms[p], status);
          continue;
        }
      for (cl_uint d = 0; d < n_devices; d++)
        g_ptr_array_add (devices, make_device (platforms[p], ids[d], p, d));
    }

  nvidia = unregistered_nvidia_note (devices, first);
  if (nvidia)
    g_string_append_printf (notes, "; %s", nvidia);
  if (out_note)
    *out_note = g_string_free (g_steal_pointer (&notes), FALSE);
  return TRUE;
}
