/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-memory.c: the CUDA backend's buffers: device and pinned memory,
 * views, transfers, fills and maps (ks-cuda-runtime.c has the rest). */
#define G_LOG_DOMAIN "ks-cuda"

#include "ks-cuda.h"
#include "ks-cuda-private.h"
#include "ks-compute-error.h"
#include "ks-runtime-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* A map of a buffer that is not pinned: a host copy. */
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
  if (buffer->flags & KS_BUFFER_HOST_PINNED)
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

void
ks_cuda_buffer_free (KsBuffer *buffer)
{
  if (buffer->parent != NULL)
    return;   /* a view owns no memory */
  cudaSetDevice (ks_cuda_rt (buffer->rt)->ordinal);
  if (buffer->host)
    cudaFreeHost (buffer->host);
  else
    cudaFree (buffer->handle);
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

gboolean
ks_cuda_fill (KsQueue    *queue,
              KsBuffer   *buffer,
              const void *pattern,
              gsize       pattern_size,
              gsize       offset,
              gsize       size,
              GError    **error)
{
  const guint8 *p = pattern;
  g_autofree guint8 *staged = NULL;
  gboolean one_byte = TRUE;

  for (gsize i = 1; i < pattern_size; i++)
    one_byte &= p[i] == p[0];
  if (!ks_cuda_use_device (queue->rt, error))
    return FALSE;
  if (one_byte)
    return ks_cuda_check (cudaMemsetAsync ((char *) buffer->handle + offset, p[0], size, ks_cuda_stream (queue)),
                          "Filling a buffer", error);
  /* The runtime API sets bytes only (cuMemsetD32 is the driver API's):
   * a wider pattern goes over from the host, waited for before the copy
   * is freed. */
  staged = g_malloc (size);
  for (gsize i = 0; i < size; i += pattern_size)
    memcpy (staged + i, pattern, pattern_size);
  return copy_on (queue, (char *) buffer->handle + offset, staged, size, TRUE, NULL, "Filling a buffer", error);
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
  if (buffer->host)
    m->host = (char *) buffer->host + offset;   /* pinned: the memory itself */
  else
    {
      m->host = g_malloc (size);
      if ((flags & KS_MAP_READ) &&
          !copy_on (queue, m->host, (const char *) buffer->handle + offset, size, TRUE, NULL,
                    "Mapping a buffer", error))
        {
          g_free (m->host);
          g_free (m);
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
  if (buffer->host == NULL)
    {
      if (m->flags & KS_MAP_WRITE)
        ok = copy_on (queue, (char *) buffer->handle + m->offset, m->host, m->size, TRUE, NULL,
                      "Unmapping a buffer", error);
      g_free (m->host);
    }
  g_free (m);
  return ok;
}
