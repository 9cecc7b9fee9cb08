/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-runtime-private.h"
#include "ks-compute-error.h"
#include "ks-kernel-source.h"

#include <glib/gi18n-lib.h>

KsRuntime *
ks_runtime_new (KsDevice  *device,
                GError   **error)
{
  g_autofree KsRuntime *rt = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  rt = g_new0 (KsRuntime, 1);
  rt->device = g_object_ref (device);
  rt->pending = g_array_new (FALSE, FALSE, sizeof (KsPendingEvent));

  switch (ks_device_get_backend (device))
    {
    case KS_BACKEND_OPENCL:
      if (ks_opencl_runtime_init (rt, error))
        return g_steal_pointer (&rt);
      break;
#ifdef KS_HAVE_CUDA
    case KS_BACKEND_CUDA:
      if (ks_cuda_runtime_init (rt, error))
        return g_steal_pointer (&rt);
      break;
#endif
    case KS_BACKEND_HOST:
    default:
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("The %s backend does not run kernels from kernels/"),
                   ks_backend_to_string (ks_device_get_backend (device)));
      break;
    }

  g_array_unref (rt->pending);
  g_object_unref (rt->device);
  return NULL;
}

static void
free_events (KsRuntime *rt,
             GArray    *events)
{
  for (guint i = 0; i < events->len; i++)
    rt->vtable->event_free (g_array_index (events, KsPendingEvent, i).event);
  g_array_set_size (events, 0);
}

void
ks_runtime_free (KsRuntime *rt)
{
  if (rt == NULL)
    return;
  ks_runtime_discard_timings (rt);
  if (rt->vtable)
    ks_runtime_pace_reset (rt);
  g_array_unref (rt->pending);
  if (rt->capture_events)
    {
      free_events (rt, rt->capture_events);
      g_array_unref (rt->capture_events);
    }
  if (rt->vtable)
    rt->vtable->runtime_free (rt);
  g_object_unref (rt->device);
  g_free (rt);
}

KsDevice *
ks_runtime_get_device (KsRuntime *rt)
{
  g_return_val_if_fail (rt != NULL, NULL);
  return rt->device;
}

KsProgram *
ks_runtime_build_program (KsRuntime  *rt,
                          const char *source_name,
                          const char *options,
                          GError    **error)
{
  g_autoptr(GBytes) source = NULL;
  g_autoptr(GError) local_error = NULL;
  KsProgram *program;
  gsize length = 0;
  const char *text;

  g_return_val_if_fail (rt != NULL, NULL);
  g_return_val_if_fail (source_name != NULL, NULL);

  source = ks_kernel_source_load (source_name, error);
  if (source == NULL)
    return NULL;

  text = g_bytes_get_data (source, &length);
  program = g_new0 (KsProgram, 1);
  program->rt = rt;
  if (!rt->vtable->build_program (rt, program, text, length, options ? options : "", &local_error))
    {
      /* The build log is the whole point of the message: keep it.  PoCL
       * compiles a copy in its cache (".../pocl-cache/tempfile_Ab12Cd.cl:1:46:");
       * name the user's file instead, whose lines are the same. */
      if (local_error->domain == KS_COMPUTE_ERROR && local_error->code == KS_COMPUTE_ERROR_BUILD_FAILED)
        {
          g_autoptr(GRegex) temp = g_regex_new ("[^\\s:'\"]*tempfile_[A-Za-z0-9_]+\\.cl", 0, 0, NULL);
          char *named = temp ? g_regex_replace_literal (temp, local_error->message, -1, 0,
                                                        source_name, 0, NULL)
                             : NULL;
          if (named != NULL)
            {
              g_free (local_error->message);
              local_error->message = named;
            }
        }
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", source_name);
      ks_program_free (program);
      return NULL;
    }
  return program;
}

void
ks_program_free (KsProgram *program)
{
  if (program == NULL)
    return;
  if (program->handle)
    program->rt->vtable->program_free (program);
  g_free (program->build_log);
  g_free (program);
}

const char *
ks_program_get_build_log (KsProgram *program)
{
  g_return_val_if_fail (program != NULL, NULL);
  return program->build_log ? program->build_log : "";
}

KsKernel *
ks_program_create_kernel (KsProgram  *program,
                          const char *name,
                          GError    **error)
{
  KsKernel *kernel;

  g_return_val_if_fail (program != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  kernel = g_new0 (KsKernel, 1);
  kernel->program = program;
  kernel->name = g_strdup (name);
  if (!program->rt->vtable->create_kernel (program, kernel, error))
    {
      g_free (kernel->name);
      g_free (kernel);
      return NULL;
    }
  return kernel;
}

void
ks_kernel_free (KsKernel *kernel)
{
  GArray *pending;

  if (kernel == NULL)
    return;

  /* Never leave a dangling kernel pointer in the pending list. */
  pending = kernel->program->rt->pending;
  for (guint i = pending->len; i > 0; i--)
    {
      KsPendingEvent *pe = &g_array_index (pending, KsPendingEvent, i - 1);
      if (pe->kernel == kernel)
        {
          if (pe->event)
            kernel->program->rt->vtable->event_free (pe->event);
          g_array_remove_index (pending, i - 1);
        }
    }

  if (kernel->handle)
    kernel->program->rt->vtable->kernel_free (kernel);
  g_free (kernel->name);
  g_free (kernel);
}

const char *
ks_kernel_get_name (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  return kernel->name;
}

gsize
ks_kernel_get_max_work_group_size (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->max_work_group_size;
}

gsize
ks_kernel_get_preferred_multiple (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->preferred_multiple;
}

gsize
ks_kernel_get_suggested_local_size (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->suggested_local;
}

gboolean
ks_kernel_set_arg (KsKernel   *kernel,
                   guint       index,
                   gsize       size,
                   const void *value,
                   GError    **error)
{
  g_return_val_if_fail (kernel != NULL, FALSE);
  return kernel->program->rt->vtable->set_arg (kernel, index, size, value, error);
}

gboolean
ks_kernel_set_arg_buffer (KsKernel  *kernel,
                          guint      index,
                          KsBuffer  *buffer,
                          GError   **error)
{
  g_return_val_if_fail (kernel != NULL, FALSE);
  g_return_val_if_fail (buffer != NULL, FALSE);
  return kernel->program->rt->vtable->set_arg_buffer (kernel, index, buffer, error);
}

guint64
ks_kernel_get_time_ns (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->time_ns;
}

guint
ks_kernel_get_launches (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->launches;
}

void
ks_kernel_reset_timing (KsKernel *kernel)
{
  g_return_if_fail (kernel != NULL);
  kernel->time_ns = 0;
  kernel->launches = 0;
}

KsBuffer *
ks_runtime_alloc (KsRuntime  *rt,
                  gsize       size,
                  GError    **error)
{
  const KsDeviceInfo *info;
  KsBuffer *buffer;

  g_return_val_if_fail (rt != NULL, NULL);
  g_return_val_if_fail (size > 0, NULL);

  info = ks_device_get_info (rt->device);
  if (info->max_alloc && size > info->max_alloc)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("A buffer of %.1f MiB does not fit on %s: the largest allocation it allows is %.1f MiB"),
                   size / 1048576.0, info->name, info->max_alloc / 1048576.0);
      return NULL;
    }

  buffer = g_new0 (KsBuffer, 1);
  buffer->rt = rt;
  buffer->size = size;
  if (!rt->vtable->alloc (rt, buffer, error))
    {
      g_free (buffer);
      return NULL;
    }
  return buffer;
}

void
ks_buffer_free (KsBuffer *buffer)
{
  if (buffer == NULL)
    return;
  if (buffer->handle)
    buffer->rt->vtable->buffer_free (buffer);
  g_free (buffer);
}

gsize
ks_buffer_get_size (KsBuffer *buffer)
{
  g_return_val_if_fail (buffer != NULL, 0);
  return buffer->size;
}

gboolean
ks_runtime_write (KsRuntime  *rt,
                  KsBuffer   *buffer,
                  gsize       offset,
                  gsize       size,
                  const void *src,
                  GError    **error)
{
  g_return_val_if_fail (rt != NULL && buffer != NULL, FALSE);
  g_return_val_if_fail (offset + size <= buffer->size, FALSE);
  return rt->vtable->write (rt, buffer, offset, size, src, error);
}

gboolean
ks_runtime_read (KsRuntime *rt,
                 KsBuffer  *buffer,
                 gsize      offset,
                 gsize      size,
                 void      *dst,
                 GError   **error)
{
  g_return_val_if_fail (rt != NULL && buffer != NULL, FALSE);
  g_return_val_if_fail (offset + size <= buffer->size, FALSE);
  return rt->vtable->read (rt, buffer, offset, size, dst, error);
}

gboolean
ks_runtime_launch (KsRuntime   *rt,
                   KsKernel    *kernel,
                   guint        dims,
                   const gsize *global,
                   const gsize *local,
                   GError     **error)
{
  gpointer event = NULL;

  g_return_val_if_fail (rt != NULL && kernel != NULL, FALSE);
  g_return_val_if_fail (dims >= 1 && dims <= 3, FALSE);
  g_return_val_if_fail (global != NULL, FALSE);

  if (local != NULL)
    {
      const KsDeviceInfo *info = ks_device_get_info (rt->device);
      gsize total = 1;

      for (guint d = 0; d < dims; d++)
        {
          if (local[d] == 0 || (info->max_work_item_sizes[d] && local[d] > info->max_work_item_sizes[d]))
            {
              g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                           /* %lu, not G_GSIZE_FORMAT: xgettext cannot see through macros. */
                           _("%s refuses a work-group of %lu in dimension %u: it allows 1 to %lu"),
                           info->name, (unsigned long) local[d], d,
                           (unsigned long) info->max_work_item_sizes[d]);
              return FALSE;
            }
          total *= local[d];
        }
      if (kernel->max_work_group_size && total > kernel->max_work_group_size)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       _("%s refuses a work-group of %lu items for kernel %s: "
                         "the largest it can run is %lu"),
                       info->name, (unsigned long) total, kernel->name,
                       (unsigned long) kernel->max_work_group_size);
          return FALSE;
        }
    }

  if (!rt->vtable->launch (rt, kernel, dims, global, local, &event, error))
    return FALSE;

  if (event != NULL && rt->capturing && rt->graph_kernel_timing)
    {
      KsPendingEvent pe = { kernel, event };
      g_array_append_val (rt->capture_events, pe);
    }
  else if (event != NULL && (rt->untimed || rt->capturing))
    rt->vtable->event_free (event);
  else if (event != NULL)
    {
      KsPendingEvent pe = { kernel, event };
      g_array_append_val (rt->pending, pe);
      kernel->pending++;
    }
  return TRUE;
}

gboolean
ks_runtime_finish (KsRuntime  *rt,
                   GError    **error)
{
  g_return_val_if_fail (rt != NULL, FALSE);
  return rt->vtable->finish (rt, error);
}

gboolean
ks_runtime_collect_timings (KsRuntime  *rt,
                            GError    **error)
{
  g_return_val_if_fail (rt != NULL, FALSE);

  if (!ks_runtime_finish (rt, error))
    {
      ks_runtime_discard_timings (rt);
      return FALSE;
    }

  for (guint i = 0; i < rt->pending->len; i++)
    {
      KsPendingEvent *pe = &g_array_index (rt->pending, KsPendingEvent, i);
      guint64 ns = 0;

      if (!rt->vtable->event_elapsed_ns (rt, pe->event, &ns, error))
        {
          ks_runtime_discard_timings (rt);
          return FALSE;
        }
      pe->kernel->time_ns += ns;
      pe->kernel->launches++;
    }
  ks_runtime_discard_timings (rt);
  return TRUE;
}

void
ks_runtime_discard_timings (KsRuntime *rt)
{
  g_return_if_fail (rt != NULL);

  for (guint i = 0; i < rt->pending->len; i++)
    {
      KsPendingEvent *pe = &g_array_index (rt->pending, KsPendingEvent, i);
      if (pe->event)
        rt->vtable->event_free (pe->event);
      pe->kernel->pending = 0;
    }
  g_array_set_size (rt->pending, 0);
}

void
ks_runtime_set_timing (KsRuntime *rt,
                       gboolean   timing)
{
  g_return_if_fail (rt != NULL);
  rt->untimed = !timing;
}

gboolean
ks_runtime_pace (KsRuntime  *rt,
                 GError    **error)
{
  gpointer mark;

  g_return_val_if_fail (rt != NULL, FALSE);
  if (rt->capturing || rt->vtable->mark == NULL)
    return TRUE;
  if (rt->marks[0] != NULL)
    {
      gpointer older = g_steal_pointer (&rt->marks[0]);
      gboolean ok = rt->vtable->mark_wait (rt, older, error);

      rt->vtable->mark_free (older);
      if (!ok)
        return FALSE;
    }
  if (!(mark = rt->vtable->mark (rt, error)))
    return FALSE;
  rt->marks[0] = rt->marks[1];
  rt->marks[1] = mark;
  return TRUE;
}

void
ks_runtime_pace_reset (KsRuntime *rt)
{
  g_return_if_fail (rt != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (rt->marks); i++)
    if (rt->marks[i] != NULL)
      rt->vtable->mark_free (g_steal_pointer (&rt->marks[i]));
}

void
ks_runtime_set_graph_kernel_timing (KsRuntime *rt,
                                    gboolean   timing)
{
  g_return_if_fail (rt != NULL);
  rt->graph_kernel_timing = timing;
}

struct _KsGraph {
  KsRuntime *rt;
  gpointer   handle;
  gpointer   event;          /* of the last timed replay, until collected */
  GArray    *kernel_events;  /* of KsPendingEvent: graph nodes; NULL without */
};

static gboolean
graph_supported (KsRuntime  *rt,
                 GError    **error)
{
  if (rt->vtable->capture_begin != NULL)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("The %s backend cannot record launches into a graph (CUDA Graphs need the CUDA backend)"),
               ks_backend_to_string (ks_device_get_backend (rt->device)));
  return FALSE;
}

gboolean
ks_runtime_capture_begin (KsRuntime  *rt,
                          GError    **error)
{
  g_return_val_if_fail (rt != NULL, FALSE);
  g_return_val_if_fail (!rt->capturing, FALSE);

  if (!graph_supported (rt, error) || !rt->vtable->capture_begin (rt, error))
    return FALSE;
  rt->capturing = TRUE;
  if (rt->capture_events == NULL)
    rt->capture_events = g_array_new (FALSE, FALSE, sizeof (KsPendingEvent));
  free_events (rt, rt->capture_events);
  return TRUE;
}

KsGraph *
ks_runtime_capture_end (KsRuntime  *rt,
                        GError    **error)
{
  KsGraph *graph;
  gpointer handle;

  g_return_val_if_fail (rt != NULL, NULL);
  g_return_val_if_fail (rt->capturing, NULL);

  rt->capturing = FALSE;
  if (!(handle = rt->vtable->capture_end (rt, error)))
    {
      free_events (rt, rt->capture_events);
      return NULL;
    }
  graph = g_new0 (KsGraph, 1);
  graph->rt = rt;
  graph->handle = handle;
  if (rt->capture_events->len > 0)
    {
      graph->kernel_events = g_steal_pointer (&rt->capture_events);
      rt->capture_events = g_array_new (FALSE, FALSE, sizeof (KsPendingEvent));
    }
  return graph;
}

void
ks_runtime_capture_abort (KsRuntime *rt)
{
  g_return_if_fail (rt != NULL);
  g_return_if_fail (rt->capturing);

  rt->capturing = FALSE;
  rt->vtable->capture_abort (rt);
  free_events (rt, rt->capture_events);
}

gboolean
ks_graph_launch (KsGraph  *graph,
                 GError  **error)
{
  g_return_val_if_fail (graph != NULL, FALSE);
  return graph->rt->vtable->graph_launch (graph->rt, graph->handle, NULL, error);
}

static void
graph_drop_event (KsGraph *graph)
{
  if (graph->event)
    graph->rt->vtable->event_free (g_steal_pointer (&graph->event));
}

gboolean
ks_graph_launch_timed (KsGraph  *graph,
                       GError  **error)
{
  g_return_val_if_fail (graph != NULL, FALSE);

  graph_drop_event (graph);
  return graph->rt->vtable->graph_launch (graph->rt, graph->handle, &graph->event, error);
}

gboolean
ks_graph_collect_time (KsGraph  *graph,
                       guint64  *out_ns,
                       GError  **error)
{
  gboolean ok;

  g_return_val_if_fail (graph != NULL && out_ns != NULL, FALSE);

  *out_ns = 0;
  if (graph->event == NULL)
    return TRUE;
  ok = ks_runtime_finish (graph->rt, error) &&
       graph->rt->vtable->event_elapsed_ns (graph->rt, graph->event, out_ns, error);
  graph_drop_event (graph);
  /* The event nodes were re-recorded by this replay: each launch's time. */
  for (guint i = 0; ok && graph->kernel_events && i < graph->kernel_events->len; i++)
    {
      KsPendingEvent *pe = &g_array_index (graph->kernel_events, KsPendingEvent, i);
      guint64 ns = 0;

      ok = graph->rt->vtable->event_elapsed_ns (graph->rt, pe->event, &ns, error);
      pe->kernel->time_ns += ns;
      pe->kernel->launches++;
    }
  return ok;
}

gboolean
ks_graph_has_kernel_times (KsGraph *graph)
{
  g_return_val_if_fail (graph != NULL, FALSE);
  return graph->kernel_events != NULL;
}

void
ks_graph_free (KsGraph *graph)
{
  if (graph == NULL)
    return;
  graph_drop_event (graph);
  /* The graph's event nodes go with it, before their events. */
  graph->rt->vtable->graph_free (graph->handle);
  if (graph->kernel_events)
    {
      free_events (graph->rt, graph->kernel_events);
      g_array_unref (graph->kernel_events);
    }
  g_free (graph);
}
