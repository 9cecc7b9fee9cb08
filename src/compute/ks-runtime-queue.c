/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime-queue.c: queues, events, transfers and launches: the checks
 * every backend would otherwise repeat, and the timing bookkeeping. */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-runtime-private.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>

/* --- queues -------------------------------------------------------------------- */

/* While a capture records the default queue, nothing on it may make the
 * host wait (a blocking transfer, a map, a finish) or go around the
 * recording (a fill staged from the host): CUDA would invalidate the
 * capture with an obscure status.  Said before the backend sees the call. */
static gboolean
refuse_in_capture (KsQueue    *queue,
                   const char *what,
                   GError    **error)
{
  if (!queue->rt->capturing || !queue->is_default)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("%s on the default queue while a graph is being recorded: only launches, "
                 "non-blocking transfers and copies can be recorded"), what);
  return FALSE;
}

KsQueue *
ks_runtime_get_queue (KsRuntime *rt)
{
  g_return_val_if_fail (rt != NULL, NULL);
  return rt->queue;
}

KsQueue *
ks_runtime_new_queue (KsRuntime  *rt,
                      GError    **error)
{
  KsQueue *queue;

  g_return_val_if_fail (rt != NULL, NULL);

  queue = g_new0 (KsQueue, 1);
  g_atomic_ref_count_init (&queue->ref);
  queue->rt = rt;
  if (!rt->vtable->queue_new (rt, queue, error))
    {
      g_free (queue);
      return NULL;
    }
  ks_runtime_ref (rt);
  g_mutex_lock (&rt->lock);
  g_ptr_array_add (rt->queues, queue);
  g_mutex_unlock (&rt->lock);
  return queue;
}

KsQueue *
ks_queue_ref (KsQueue *queue)
{
  g_return_val_if_fail (queue != NULL, NULL);
  /* The default queue lives as long as its runtime: a reference to it is
   * a reference to the runtime. */
  if (queue->is_default)
    ks_runtime_ref (queue->rt);
  else
    g_atomic_ref_count_inc (&queue->ref);
  return queue;
}

void
ks_queue_unref (KsQueue *queue)
{
  KsRuntime *rt;

  if (queue == NULL)
    return;
  rt = queue->rt;
  if (queue->is_default)
    {
      ks_runtime_unref (rt);
      return;
    }
  if (!g_atomic_ref_count_dec (&queue->ref))
    return;
  g_mutex_lock (&rt->lock);
  g_ptr_array_remove (rt->queues, queue);
  g_mutex_unlock (&rt->lock);
  rt->vtable->queue_free (queue);
  g_free (queue);
  ks_runtime_unref (rt);
}

KsRuntime *
ks_queue_get_runtime (KsQueue *queue)
{
  g_return_val_if_fail (queue != NULL, NULL);
  return queue->rt;
}

gboolean
ks_runtime_finish (KsRuntime  *rt,
                   GError    **error)
{
  g_autoptr(GPtrArray) queues = NULL;

  g_return_val_if_fail (rt != NULL, FALSE);

  if (!refuse_in_capture (rt->queue, _("Waiting for the queue"), error))
    return FALSE;
  g_mutex_lock (&rt->lock);
  queues = g_ptr_array_copy (rt->queues, NULL, NULL);
  g_mutex_unlock (&rt->lock);
  for (guint i = 0; i < queues->len; i++)
    if (!rt->vtable->finish (g_ptr_array_index (queues, i), error))
      return FALSE;
  return TRUE;
}

/* --- events -------------------------------------------------------------------- */

KsEvent *
ks_queue_record (KsQueue  *queue,
                 GError  **error)
{
  KsEvent *event;
  gpointer marker;

  g_return_val_if_fail (queue != NULL, NULL);

  if (!(marker = queue->rt->vtable->marker (queue, error)))
    return NULL;
  event = g_new0 (KsEvent, 1);
  g_atomic_ref_count_init (&event->ref);
  event->rt = ks_runtime_ref (queue->rt);
  event->marker = marker;
  event->timed = !queue->rt->untimed;
  return event;
}

gboolean
ks_queue_wait (KsQueue  *queue,
               KsEvent  *event,
               GError  **error)
{
  g_return_val_if_fail (queue != NULL && event != NULL, FALSE);
  g_return_val_if_fail (event->rt == queue->rt, FALSE);
  return queue->rt->vtable->queue_wait (queue, event->marker, error);
}

void
ks_event_unref (KsEvent *event)
{
  if (event == NULL || !g_atomic_ref_count_dec (&event->ref))
    return;
  event->rt->vtable->marker_free (event->marker);
  ks_runtime_unref (event->rt);
  g_free (event);
}

gboolean
ks_event_wait (KsEvent  *event,
               GError  **error)
{
  g_return_val_if_fail (event != NULL, FALSE);
  return event->rt->vtable->marker_wait (event->rt, event->marker, error);
}

gboolean
ks_event_elapsed_ns (KsEvent  *from,
                     KsEvent  *to,
                     guint64  *out_ns,
                     GError  **error)
{
  g_return_val_if_fail (from != NULL && to != NULL && out_ns != NULL, FALSE);
  g_return_val_if_fail (from->rt == to->rt, FALSE);
  *out_ns = 0;
  if (!from->timed || !to->timed)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("These events were recorded with timing off (ks_runtime_set_timing): "
                     "they order work but hold no device time"));
      return FALSE;
    }
  return from->rt->vtable->marker_elapsed_ns (from->rt, from->marker, to->marker, out_ns, error);
}

/* --- transfers ------------------------------------------------------------------- */

static gboolean
in_range (KsBuffer *buffer,
          gsize     offset,
          gsize     size)
{
  return offset <= buffer->size && size <= buffer->size - offset;
}

/* The event a timed operation asks its backend for: none when timing is
 * off or nobody will read it. */
static gpointer *
want_event (KsQueue    *queue,
            const char *timer,
            gpointer   *slot)
{
  *slot = NULL;
  return timer != NULL && !queue->rt->untimed && !queue->rt->capturing ? slot : NULL;
}

static void
keep_event (KsQueue    *queue,
            const char *timer,
            gpointer    event)
{
  if (event != NULL)
    ks_runtime_add_pending (queue->rt, NULL, timer, event);
}

/* A write (to_device) or a read, checked once for both. */
static gboolean
transfer (KsQueue        *queue,
          KsBuffer       *buffer,
          gsize           offset,
          gsize           size,
          void           *host,
          gboolean        to_device,
          KsTransferFlags flags,
          const char     *timer,
          GError        **error)
{
  const KsRuntimeVTable *vt = queue->rt->vtable;
  const gboolean blocking = !(flags & KS_TRANSFER_NON_BLOCKING);
  gpointer event, *want = want_event (queue, timer, &event);

  g_return_val_if_fail (buffer->rt == queue->rt, FALSE);
  g_return_val_if_fail (in_range (buffer, offset, size), FALSE);

  if (size == 0)
    return TRUE;
  if (blocking && !refuse_in_capture (queue, _("A blocking transfer"), error))
    return FALSE;
  if (!(to_device ? vt->write (queue, buffer, offset, size, host, blocking, want, error)
                  : vt->read (queue, buffer, offset, size, host, blocking, want, error)))
    return FALSE;
  keep_event (queue, timer, event);
  return TRUE;
}

gboolean
ks_queue_write (KsQueue        *queue,
                KsBuffer       *buffer,
                gsize           offset,
                gsize           size,
                const void     *src,
                KsTransferFlags flags,
                const char     *timer,
                GError        **error)
{
  g_return_val_if_fail (queue != NULL && buffer != NULL && src != NULL, FALSE);
  return transfer (queue, buffer, offset, size, (void *) src, TRUE, flags, timer, error);
}

gboolean
ks_queue_read (KsQueue        *queue,
               KsBuffer       *buffer,
               gsize           offset,
               gsize           size,
               void           *dst,
               KsTransferFlags flags,
               const char     *timer,
               GError        **error)
{
  g_return_val_if_fail (queue != NULL && buffer != NULL && dst != NULL, FALSE);
  return transfer (queue, buffer, offset, size, dst, FALSE, flags, timer, error);
}

gboolean
ks_queue_copy (KsQueue    *queue,
               KsBuffer   *src,
               gsize       src_offset,
               KsBuffer   *dst,
               gsize       dst_offset,
               gsize       size,
               const char *timer,
               GError    **error)
{
  gpointer event;

  g_return_val_if_fail (queue != NULL && src != NULL && dst != NULL, FALSE);
  g_return_val_if_fail (src->rt == queue->rt && dst->rt == queue->rt, FALSE);
  g_return_val_if_fail (in_range (src, src_offset, size) && in_range (dst, dst_offset, size), FALSE);

  if (size == 0)
    return TRUE;
  if (!queue->rt->vtable->copy (queue, src, src_offset, dst, dst_offset, size,
                                want_event (queue, timer, &event), error))
    return FALSE;
  keep_event (queue, timer, event);
  return TRUE;
}

gboolean
ks_queue_fill (KsQueue    *queue,
               KsBuffer   *buffer,
               const void *pattern,
               gsize       pattern_size,
               gsize       offset,
               gsize       size,
               const char *timer,
               GError    **error)
{
  gpointer event;

  g_return_val_if_fail (queue != NULL && buffer != NULL && pattern != NULL, FALSE);
  g_return_val_if_fail (buffer->rt == queue->rt, FALSE);
  /* OpenCL's rules (clEnqueueFillBuffer), kept on every backend so a
   * solver written on one runs on the other. */
  g_return_val_if_fail (pattern_size > 0 && pattern_size <= 128 &&
                        (pattern_size & (pattern_size - 1)) == 0, FALSE);
  g_return_val_if_fail (offset % pattern_size == 0 && size % pattern_size == 0, FALSE);
  g_return_val_if_fail (in_range (buffer, offset, size), FALSE);

  if (size == 0)
    return TRUE;
  if (!refuse_in_capture (queue, _("A fill"), error) ||
      !queue->rt->vtable->fill (queue, buffer, pattern, pattern_size, offset, size,
                                want_event (queue, timer, &event), error))
    return FALSE;
  keep_event (queue, timer, event);
  return TRUE;
}

void *
ks_queue_map (KsQueue    *queue,
              KsBuffer   *buffer,
              gsize       offset,
              gsize       size,
              KsMapFlags  flags,
              GError    **error)
{
  g_return_val_if_fail (queue != NULL && buffer != NULL, NULL);
  g_return_val_if_fail (buffer->rt == queue->rt, NULL);
  g_return_val_if_fail (size > 0 && in_range (buffer, offset, size), NULL);
  g_return_val_if_fail ((flags & (KS_MAP_READ | KS_MAP_WRITE)) != 0, NULL);

  if (!refuse_in_capture (queue, _("A map"), error))
    return NULL;
  return queue->rt->vtable->map (queue, buffer, offset, size, flags, error);
}

gboolean
ks_queue_unmap (KsQueue   *queue,
                KsBuffer  *buffer,
                void      *mapped,
                GError   **error)
{
  g_return_val_if_fail (queue != NULL && buffer != NULL && mapped != NULL, FALSE);
  g_return_val_if_fail (buffer->rt == queue->rt, FALSE);
  return queue->rt->vtable->unmap (queue, buffer, mapped, error);
}

gboolean
ks_runtime_write (KsRuntime  *rt,
                  KsBuffer   *buffer,
                  gsize       offset,
                  gsize       size,
                  const void *src,
                  GError    **error)
{
  g_return_val_if_fail (rt != NULL, FALSE);
  return ks_queue_write (rt->queue, buffer, offset, size, src, KS_TRANSFER_BLOCKING, NULL, error);
}

gboolean
ks_runtime_read (KsRuntime *rt,
                 KsBuffer  *buffer,
                 gsize      offset,
                 gsize      size,
                 void      *dst,
                 GError   **error)
{
  g_return_val_if_fail (rt != NULL, FALSE);
  return ks_queue_read (rt->queue, buffer, offset, size, dst, KS_TRANSFER_BLOCKING, NULL, error);
}

/* --- launches ------------------------------------------------------------------- */

/* The device's and the kernel's own limits, checked before the backend
 * sees the launch, so the message names the limit instead of an API
 * status. */
static gboolean
check_local (KsRuntime            *rt,
             KsKernel             *kernel,
             const KsLaunchConfig *config,
             GError              **error)
{
  const KsDeviceInfo *info = ks_device_get_info (rt->device);
  gsize total = 1;

  for (guint d = 0; d < config->dims; d++)
    {
      if (config->local[d] == 0 ||
          (info->max_work_item_sizes[d] && config->local[d] > info->max_work_item_sizes[d]))
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       /* %lu, not G_GSIZE_FORMAT: xgettext cannot see through macros. */
                       _("%s refuses a work-group of %lu in dimension %u: it allows 1 to %lu"),
                       info->name, (unsigned long) config->local[d], config->dims > 1 ? d : 0,
                       (unsigned long) info->max_work_item_sizes[d]);
          return FALSE;
        }
      /* OpenCL 1.2 has no partial groups (CL_INVALID_WORK_GROUP_SIZE) and
       * CUDA would pad silently: refused on both, so a launch means the same
       * everywhere.  ks_launch_plan pads or splits on purpose. */
      if (config->global[d] % config->local[d] != 0)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       _("A range of %lu in dimension %u is no multiple of the work-group of %lu: "
                         "pad the range (the kernel testing its bounds) or split it"),
                       (unsigned long) config->global[d], d, (unsigned long) config->local[d]);
          return FALSE;
        }
      total *= config->local[d];
    }
  if (kernel->info.max_work_group_size && total > kernel->info.max_work_group_size)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                   _("%s refuses a work-group of %lu items for kernel %s: "
                     "the largest it can run is %lu"),
                   info->name, (unsigned long) total, kernel->name,
                   (unsigned long) kernel->info.max_work_group_size);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_queue_launch (KsQueue              *queue,
                 KsKernel             *kernel,
                 const KsLaunchConfig *config,
                 GError              **error)
{
  KsRuntime *rt;
  gpointer event = NULL;
  gboolean has_local = FALSE;

  g_return_val_if_fail (queue != NULL && kernel != NULL && config != NULL, FALSE);
  g_return_val_if_fail (config->dims >= 1 && config->dims <= 3, FALSE);
  g_return_val_if_fail (kernel->program->rt == queue->rt, FALSE);

  rt = queue->rt;
  for (guint d = 0; d < config->dims; d++)
    {
      g_return_val_if_fail (config->global[d] > 0, FALSE);
      has_local |= config->local[d] != 0;
    }
  if ((has_local && !check_local (rt, kernel, config, error)) ||
      !ks_kernel_check_args (kernel, error))
    return FALSE;

  if (!rt->vtable->launch (queue, kernel, config, &event, error))
    return FALSE;
  /* Only the default queue is recorded: the graph keeps the program its
   * launches run (a replay runs its code after the caller let it go). */
  if (rt->capturing && queue->is_default)
    {
      rt->capture_launches++;
      if (!g_ptr_array_find (rt->capture_programs, kernel->program, NULL))
        g_ptr_array_add (rt->capture_programs, ks_program_ref (kernel->program));
    }

  if (event != NULL && rt->capturing && rt->graph_kernel_timing)
    {
      /* The event pair is read at every timed replay: the kernel it adds
       * to must outlive the graph's events. */
      KsPendingEvent pe = { ks_kernel_ref (kernel), kernel->name, event };
      g_array_append_val (rt->capture_events, pe);
    }
  else if (event != NULL && (rt->untimed || rt->capturing))
    rt->vtable->event_free (event);
  else if (event != NULL)
    ks_runtime_add_pending (rt, kernel, kernel->name, event);
  return TRUE;
}

gboolean
ks_runtime_launch (KsRuntime   *rt,
                   KsKernel    *kernel,
                   guint        dims,
                   const gsize *global,
                   const gsize *local,
                   GError     **error)
{
  KsLaunchConfig config = { .dims = dims };

  g_return_val_if_fail (rt != NULL, FALSE);
  g_return_val_if_fail (dims >= 1 && dims <= 3 && global != NULL, FALSE);

  for (guint d = 0; d < dims; d++)
    {
      config.global[d] = global[d];
      config.local[d] = local ? local[d] : 0;
    }
  /* local[d] == 0 in a given local is a refused group, not "driver". */
  if (local != NULL)
    for (guint d = 0; d < dims; d++)
      if (local[d] == 0)
        return check_local (rt, kernel, &config, error);
  return ks_queue_launch (rt->queue, kernel, &config, error);
}
