/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-memory.c: the CUDA backend's buffers: device and pinned memory,
 * views, transfers, fills and maps (ks-cuda-runtime.c has the rest). */
#define G_LOG_DOMAIN "ks-cuda"

#include "ks-cuda.h"
#include "ks-cuda-private.h"
#include "ks-compute-error.h"
#include "ks-runtime-private.h"

#include <cuda.h>
#include <glib/gi18n-lib.h>
#include <string.h>

/* A map of a buffer that is not ZERO_COPY: a host copy (HOST_PINNED: a
 * range of its page-locked twin, not ours to free). */
typedef struct {
  void      *host;
  gsize      offset;
  gsize      size;
  KsMapFlags flags;
} KsCudaMap;

gboolean
ks_cuda_alloc (KsRuntime *rt,
               KsBuffer  *buffer,
               GError   **error)
{
  void *ptr = NULL, *host = NULL;
  cudaError_t status;

  if (!ks_cuda_use_device (rt, error))
    return FALSE;
  if (buffer->flags & KS_BUFFER_ZERO_COPY)
    {
      /* Mapped: kernels reach it over the bus, and map() needs no copy. */
      status = cudaHostAlloc (&host, buffer->size, cudaHostAllocMapped | cudaHostAllocPortable);
      if (status == cudaSuccess)
        {
          status = cudaHostGetDevicePointer (&ptr, host, 0);
          if (status != cudaSuccess)
            cudaFreeHost (host);
        }
    }
  else
    {
      status = cudaMalloc (&ptr, buffer->size);
      /* HOST_PINNED: device memory, and a page-locked twin that maps go
       * through at DMA speed (what NVIDIA's OpenCL does for
       * CL_MEM_ALLOC_HOST_PTR). */
      if (status == cudaSuccess && (buffer->flags & KS_BUFFER_HOST_PINNED))
        {
          status = cudaHostAlloc (&host, buffer->size, cudaHostAllocPortable);
          if (status != cudaSuccess)
            cudaFree (ptr);
        }
    }
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
  buffer->host = host;
  return TRUE;
}

gboolean
ks_cuda_view (KsBuffer  *view,
              GError   **error)
{
  view->handle = (char *) view->parent->handle + view->offset;
  view->host = view->parent->host ? (char *) view->parent->host + view->offset : NULL;
  return TRUE;
}

static void
map_free (KsBuffer  *buffer,
          KsCudaMap *m)
{
  if (buffer->host == NULL)
    g_free (m->host);
  g_free (m);
}

void
ks_cuda_buffer_free (KsBuffer *buffer)
{
  /* Maps never unmapped (ks_buffer_unref warned): their records and copies. */
  while (buffer->maps != NULL)
    {
      map_free (buffer, buffer->maps->data);
      buffer->maps = g_slist_delete_link (buffer->maps, buffer->maps);
    }
  if (buffer->parent != NULL)
    return;   /* a view owns no memory */
  cudaSetDevice (ks_cuda_rt (buffer->rt)->ordinal);
  if (buffer->flags & KS_BUFFER_ZERO_COPY)
    cudaFreeHost (buffer->host);
  else
    {
      if (buffer->host)
        cudaFreeHost (buffer->host);
      cudaFree (buffer->handle);
    }
}

/* One asynchronous copy on the queue, between a timer pair when out_event
 * asks for one, waited for when blocking. */
static gboolean
copy_on (KsQueue     *queue,
         void        *dst,
         const void  *src,
         gsize        size,
         gboolean     blocking,
         gpointer    *out_event,
         const char  *what,
         GError     **error)
{
  KsCudaTimer *t = NULL;
  cudaStream_t s = ks_cuda_stream (queue);

  if (!ks_cuda_use_device (queue->rt, error))
    return FALSE;
  if (out_event && !(t = ks_cuda_timer_take (ks_cuda_rt (queue->rt), error)))
    return FALSE;
  if ((t && !ks_cuda_check (cudaEventRecord (t->start, s), what, error)) ||
      !ks_cuda_check (cudaMemcpyAsync (dst, src, size, cudaMemcpyDefault, s), what, error) ||
      (t && !ks_cuda_check (cudaEventRecord (t->end, s), what, error)) ||
      (blocking && !ks_cuda_check (cudaStreamSynchronize (s), what, error)))
    {
      ks_cuda_timer_give_back (t);
      return FALSE;
    }
  if (out_event)
    *out_event = t;
  return TRUE;
}

gboolean
ks_cuda_write (KsQueue    *queue,
               KsBuffer   *buffer,
               gsize       offset,
               gsize       size,
               const void *src,
               gboolean    blocking,
               gpointer   *out_event,
               GError    **error)
{
  return copy_on (queue, (char *) buffer->handle + offset, src, size, blocking, out_event,
                  "Copying data to the device", error);
}

gboolean
ks_cuda_read (KsQueue   *queue,
              KsBuffer  *buffer,
              gsize      offset,
              gsize      size,
              void      *dst,
              gboolean   blocking,
              gpointer  *out_event,
              GError   **error)
{
  return copy_on (queue, dst, (const char *) buffer->handle + offset, size, blocking, out_event,
                  "Copying results from the device", error);
}

gboolean
ks_cuda_copy (KsQueue   *queue,
              KsBuffer  *src,
              gsize      src_offset,
              KsBuffer  *dst,
              gsize      dst_offset,
              gsize      size,
              gpointer  *out_event,
              GError   **error)
{
  return copy_on (queue, (char *) dst->handle + dst_offset, (const char *) src->handle + src_offset, size,
                  FALSE, out_event, "Copying between buffers", error);
}

/* The driver API's 16- and 32-bit memsets, through the runtime's entry
 * point (the program links no libcuda); NULL where the driver lacks them. */
typedef CUresult (*MemsetD16Fn) (CUdeviceptr dst, unsigned short value, size_t n, CUstream stream);

static void *
driver_entry (const char *name)
{
  enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  void *ptr = NULL;

  if (cudaGetDriverEntryPointByVersion (name, &ptr, 12000, cudaEnableDefault, &found) == cudaSuccess &&
      found == cudaDriverEntryPointSuccess)
    return ptr;
  (void) cudaGetLastError ();
  return NULL;
}

static MemsetD16Fn d16;
static KsCudaMemsetD32Fn d32;
static gsize looked_up;

static void
look_up_memsets (void)
{
  if (g_once_init_enter (&looked_up))
    {
      d16 = (MemsetD16Fn) driver_entry ("cuMemsetD16Async");
      d32 = (KsCudaMemsetD32Fn) driver_entry ("cuMemsetD32Async");
      g_once_init_leave (&looked_up, 1);
    }
}

KsCudaMemsetD32Fn
ks_cuda_memset_d32 (void)
{
  look_up_memsets ();
  return d32;
}

/* The shortest period (1, 2 or 4 bytes) the pattern repeats with; 0: none. */
static gsize
pattern_period (const guint8 *p,
                gsize         size)
{
  for (gsize period = 1; period <= MIN (size, 4); period *= 2)
    {
      gboolean repeats = TRUE;

      for (gsize i = period; i < size && repeats; i++)
        repeats = p[i] == p[i % period];
      if (repeats)
        return period;
    }
  return 0;
}

/* Everything stream-ordered, the host never waiting: a byte, 16- or 32-bit
 * pattern is one memset; a wider one (a double, a struct) is copied once
 * from the host and then doubled by device-to-device copies (log2 of the
 * count of them). */
static cudaError_t
fill_on (cudaStream_t  s,
         guint8       *dst,
         const guint8 *p,
         gsize         pattern_size,
         gsize         size)
{
  const gsize period = pattern_period (p, pattern_size);

  look_up_memsets ();
  cudaError_t status;

  if (period == 1)
    return cudaMemsetAsync (dst, p[0], size, s);
  /* A driver status is no runtime one: a failure is reported as such. */
  if (period == 2 && d16 && (guintptr) dst % 2 == 0)
    {
      guint16 v;

      memcpy (&v, p, 2);
      return d16 ((CUdeviceptr) (guintptr) dst, v, size / 2, (CUstream) s) == CUDA_SUCCESS
               ? cudaSuccess : cudaErrorInvalidValue;
    }
  if (period == 4 && d32 && (guintptr) dst % 4 == 0)
    {
      guint32 v;

      memcpy (&v, p, 4);
      return d32 ((CUdeviceptr) (guintptr) dst, v, size / 4, (CUstream) s) == CUDA_SUCCESS
               ? cudaSuccess : cudaErrorInvalidValue;
    }
  /* From pageable memory the runtime stages the pattern before it returns,
   * so the caller's pattern may go away at once. */
  if ((status = cudaMemcpyAsync (dst, p, pattern_size, cudaMemcpyHostToDevice, s)) != cudaSuccess)
    return status;
  for (gsize done = pattern_size; done < size;)
    {
      const gsize n = MIN (done, size - done);

      if ((status = cudaMemcpyAsync (dst + done, dst, n, cudaMemcpyDeviceToDevice, s)) != cudaSuccess)
        return status;
      done += n;
    }
  return cudaSuccess;
}

gboolean
ks_cuda_fill (KsQueue    *queue,
              KsBuffer   *buffer,
              const void *pattern,
              gsize       pattern_size,
              gsize       offset,
              gsize       size,
              gpointer   *out_event,
              GError    **error)
{
  cudaStream_t s = ks_cuda_stream (queue);
  KsCudaTimer *t = NULL;

  if (!ks_cuda_use_device (queue->rt, error))
    return FALSE;
  if (out_event && !(t = ks_cuda_timer_take (ks_cuda_rt (queue->rt), error)))
    return FALSE;
  if ((t && !ks_cuda_check (cudaEventRecord (t->start, s), "Filling a buffer", error)) ||
      !ks_cuda_check (fill_on (s, (guint8 *) buffer->handle + offset, pattern, pattern_size, size),
                      "Filling a buffer", error) ||
      (t && !ks_cuda_check (cudaEventRecord (t->end, s), "Filling a buffer", error)))
    {
      ks_cuda_timer_give_back (t);
      return FALSE;
    }
  if (out_event)
    *out_event = t;
  return TRUE;
}

void *
ks_cuda_map (KsQueue    *queue,
             KsBuffer   *buffer,
             gsize       offset,
             gsize       size,
             KsMapFlags  flags,
             GError    **error)
{
  KsCudaMap *m;

  if (!ks_cuda_use_device (queue->rt, error) ||
      !ks_cuda_check (cudaStreamSynchronize (ks_cuda_stream (queue)), "Mapping a buffer", error))
    return NULL;
  m = g_new0 (KsCudaMap, 1);
  m->offset = offset;
  m->size = size;
  m->flags = flags;
  if (buffer->flags & KS_BUFFER_ZERO_COPY)
    m->host = (char *) buffer->host + offset;   /* the memory itself */
  else
    {
      /* HOST_PINNED: the page-locked twin, copied by DMA; else pageable. */
      m->host = buffer->host ? (char *) buffer->host + offset : g_malloc (size);
      if ((flags & KS_MAP_READ) &&
          !copy_on (queue, m->host, (const char *) buffer->handle + offset, size, TRUE, NULL,
                    "Mapping a buffer", error))
        {
          map_free (buffer, m);
          return NULL;
        }
    }
  buffer->maps = g_slist_prepend (buffer->maps, m);
  return m->host;
}

gboolean
ks_cuda_unmap (KsQueue   *queue,
               KsBuffer  *buffer,
               void      *mapped,
               GError   **error)
{
  KsCudaMap *m = NULL;
  gboolean ok = TRUE;

  for (GSList *l = buffer->maps; l != NULL && m == NULL; l = l->next)
    if (((KsCudaMap *) l->data)->host == mapped)
      m = l->data;
  if (m == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   "Unmapping %p, which is no mapping of this buffer", mapped);
      return FALSE;
    }
  buffer->maps = g_slist_remove (buffer->maps, m);
  if (!(buffer->flags & KS_BUFFER_ZERO_COPY) && (m->flags & KS_MAP_WRITE))
    ok = copy_on (queue, (char *) buffer->handle + m->offset, m->host, m->size, TRUE, NULL,
                  "Unmapping a buffer", error);
  map_free (buffer, m);
  return ok;
}
