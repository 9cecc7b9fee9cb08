/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-cuda"

/* ks-cuda.c: the CUDA devices and the statuses' meaning; the runtime is
 * ks-cuda-runtime.c. */
#include "ks-cuda.h"
#include "ks-cuda-private.h"
#include "ks-compute-error.h"
#include "ks-cores-table.h"

#include <glib/gi18n-lib.h>
#include <string.h>

gboolean
ks_cuda_check_status (int          status,
                      const char  *what,
                      GError     **error)
{
  return ks_cuda_check ((cudaError_t) status, what, error);
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
gboolean
ks_cuda_check (cudaError_t  status,
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
  /* No attribute says it: every NVIDIA GPU since Fermi caches global
   * memory in 128-byte lines (of 32-byte sectors). */
  info.cache_line = 128;
  info.local_mem = prop->sharedMemPerBlock;
  info.global_mem = prop->totalGlobalMem;
  info.max_alloc = prop->totalGlobalMem;
  info.has_fp64 = TRUE;
  info.has_fp16 = prop->major > 5 || (prop->major == 5 && prop->minor >= 3);
  /* cudaEventElapsedTime: "a resolution of around 0.5 microseconds". */
  info.timer_resolution_ns = 500;
  info.mem_base_addr_align = 1;
  /* A scalar instruction set: every type is one lane wide, half too where
   * the device has it. */
  for (guint t = 0; t < KS_VECTOR_N_TYPES; t++)
    info.vector_width_preferred[t] = info.vector_width_native[t] =
      t == KS_VECTOR_HALF && !info.has_fp16 ? 0 : 1;
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
