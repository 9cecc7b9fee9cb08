/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-graph-cache.h"

typedef struct {
  GBytes  *key;
  KsGraph *graph;
} Entry;

struct _KsGraphCache {
  KsRuntime *rt;        /* owned */
  guint      capacity;
  GQueue     entries;   /* of Entry, the most recent first */
};

static void
entry_free (gpointer data)
{
  Entry *e = data;

  /* The graph first: it may hold event nodes of the runtime. */
  ks_graph_free (e->graph);
  g_bytes_unref (e->key);
  g_free (e);
}

KsGraphCache *
ks_graph_cache_new (KsRuntime *rt,
                    guint      capacity)
{
  KsGraphCache *cache;

  g_return_val_if_fail (rt != NULL, NULL);
  g_return_val_if_fail (capacity >= 1, NULL);

  cache = g_new0 (KsGraphCache, 1);
  cache->rt = ks_runtime_ref (rt);
  cache->capacity = capacity;
  g_queue_init (&cache->entries);
  return cache;
}

void
ks_graph_cache_free (KsGraphCache *cache)
{
  if (cache == NULL)
    return;
  g_queue_clear_full (&cache->entries, entry_free);
  ks_runtime_unref (cache->rt);
  g_free (cache);
}

static GList *
find (KsGraphCache *cache,
      GBytes       *key)
{
  for (GList *l = cache->entries.head; l != NULL; l = l->next)
    if (g_bytes_equal (((Entry *) l->data)->key, key))
      return l;
  return NULL;
}

KsGraph *
ks_graph_cache_lookup (KsGraphCache *cache,
                       GBytes       *key)
{
  GList *link;

  g_return_val_if_fail (cache != NULL && key != NULL, NULL);

  if (!(link = find (cache, key)))
    return NULL;
  g_queue_unlink (&cache->entries, link);
  g_queue_push_head_link (&cache->entries, link);
  return ((Entry *) link->data)->graph;
}

void
ks_graph_cache_forget (KsGraphCache *cache,
                       GBytes       *key)
{
  GList *link;

  g_return_if_fail (cache != NULL);

  if (key == NULL)
    {
      g_queue_clear_full (&cache->entries, entry_free);
      g_queue_init (&cache->entries);
      return;
    }
  if ((link = find (cache, key)))
    {
      entry_free (link->data);
      g_queue_delete_link (&cache->entries, link);
    }
}

KsGraph *
ks_graph_cache_record (KsGraphCache      *cache,
                       GBytes            *key,
                       KsGraphRecordFunc  record_func,
                       gpointer           user_data,
                       GCancellable      *cancellable,
                       double            *out_capture_ms,
                       GError           **error)
{
  gint64 t0 = g_get_monotonic_time ();
  KsGraph *graph;
  Entry *e;

  g_return_val_if_fail (cache != NULL && key != NULL && record_func != NULL, NULL);

  /* An older graph of the same key goes first, and the least recent when
   * full: each may hold a device's worth of instantiated launches. */
  ks_graph_cache_forget (cache, key);
  while (cache->entries.length >= cache->capacity)
    entry_free (g_queue_pop_tail (&cache->entries));

  if (!ks_runtime_capture_begin (cache->rt, error))
    return NULL;
  if (!record_func (user_data, cancellable, error))
    {
      /* Capture must end whatever happened, or the stream stays in it. */
      ks_runtime_capture_abort (cache->rt);
      return NULL;
    }
  if (!(graph = ks_runtime_capture_end (cache->rt, error)))
    return NULL;
  if (out_capture_ms)
    *out_capture_ms = (g_get_monotonic_time () - t0) / 1000.0;

  e = g_new0 (Entry, 1);
  e->key = g_bytes_ref (key);
  e->graph = graph;
  g_queue_push_head (&cache->entries, e);
  return graph;
}
