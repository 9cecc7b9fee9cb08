/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime-graph.c: recording the default queue's launches into a graph
 * and replaying it (CUDA Graphs; other backends say UNSUPPORTED). */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-runtime-private.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>

void
ks_runtime_set_graph_kernel_timing (KsRuntime *rt,
                                    gboolean   timing)
{
  g_return_if_fail (rt != NULL);
  rt->graph_kernel_timing = timing;
}

struct _KsGraph {
  KsRuntime *rt;             /* owned */
  gpointer   handle;
  guint      launches;
  gpointer   event;          /* of the last timed replay, until collected */
  GArray    *kernel_events;  /* of KsPendingEvent: graph nodes, each kernel referenced; NULL without */
  GPtrArray *programs;       /* referenced: the code the replays run */
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
  rt->capture_launches = 0;
  if (rt->capture_events == NULL)
    rt->capture_events = g_array_new (FALSE, FALSE, sizeof (KsPendingEvent));
  ks_runtime_free_events (rt, rt->capture_events, TRUE);
  g_clear_pointer (&rt->capture_programs, g_ptr_array_unref);
  rt->capture_programs = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_program_unref);
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
      ks_runtime_free_events (rt, rt->capture_events, TRUE);
      g_clear_pointer (&rt->capture_programs, g_ptr_array_unref);
      return NULL;
    }
  graph = g_new0 (KsGraph, 1);
  graph->rt = ks_runtime_ref (rt);
  graph->handle = handle;
  graph->launches = rt->capture_launches;
  graph->programs = g_steal_pointer (&rt->capture_programs);
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
  ks_runtime_free_events (rt, rt->capture_events, TRUE);
  g_clear_pointer (&rt->capture_programs, g_ptr_array_unref);
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
  g_autofree guint64 *times = NULL;
  gboolean ok;

  g_return_val_if_fail (graph != NULL && out_ns != NULL, FALSE);

  *out_ns = 0;
  if (graph->event == NULL)
    return TRUE;
  ok = ks_runtime_finish (graph->rt, error) &&
       graph->rt->vtable->event_elapsed_ns (graph->rt, graph->event, out_ns, error);
  graph_drop_event (graph);
  if (!ok || graph->kernel_events == NULL)
    return ok;
  /* The event nodes were re-recorded by this replay: each launch's time,
   * all read before any is added, so a failure adds nothing. */
  times = g_new0 (guint64, graph->kernel_events->len);
  for (guint i = 0; i < graph->kernel_events->len; i++)
    if (!graph->rt->vtable->event_elapsed_ns (graph->rt,
                                              g_array_index (graph->kernel_events, KsPendingEvent, i).event,
                                              &times[i], error))
      {
        *out_ns = 0;
        return FALSE;
      }
  for (guint i = 0; i < graph->kernel_events->len; i++)
    {
      KsKernel *kernel = g_array_index (graph->kernel_events, KsPendingEvent, i).kernel;

      kernel->time_ns += times[i];
      kernel->launches++;
    }
  return TRUE;
}

guint
ks_graph_get_launches (KsGraph *graph)
{
  g_return_val_if_fail (graph != NULL, 0);
  return graph->launches;
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
      ks_runtime_free_events (graph->rt, graph->kernel_events, TRUE);
      g_array_unref (graph->kernel_events);
    }
  /* After the executable graph: it ran these programs' code. */
  g_clear_pointer (&graph->programs, g_ptr_array_unref);
  ks_runtime_unref (graph->rt);
  g_free (graph);
}
