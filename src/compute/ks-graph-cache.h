/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-graph-cache.h: record once, replay many times, for any solver.
 *
 * A solver in graph mode records its whole launch sequence the first time
 * it meets a shape (n, policy, the launch arguments baked into the graph)
 * and replays the graph afterwards.  The cache keeps the last few graphs by
 * a key the solver builds from everything a recorded launch holds; a graph
 * holds buffer addresses too, so a solver that reallocates clears it. */
#pragma once

#include <gio/gio.h>

#include "ks-runtime.h"

G_BEGIN_DECLS

typedef struct _KsGraphCache KsGraphCache;

/* Enqueues the sequence to record on the runtime's default queue. */
typedef gboolean (*KsGraphRecordFunc) (gpointer      user_data,
                                       GCancellable *cancellable,
                                       GError      **error);

/* capacity: how many graphs to keep (the least recently used goes first);
 * at least 1. */
KsGraphCache *ks_graph_cache_new    (KsRuntime         *rt,
                                     guint              capacity);
void          ks_graph_cache_free   (KsGraphCache      *cache);

/* The graph recorded for key, or NULL; a hit makes it the most recent. */
KsGraph      *ks_graph_cache_lookup (KsGraphCache      *cache,
                                     GBytes            *key);

/* Records record_func's launches into a graph for key (replacing one of the
 * same key), with the runtime's graph kernel timing as it is set.  A
 * capture that fails or is cancelled is aborted, never instantiated.  The
 * graph belongs to the cache; *out_capture_ms (may be NULL) is the time
 * capture + instantiate + upload took. */
KsGraph      *ks_graph_cache_record (KsGraphCache      *cache,
                                     GBytes            *key,
                                     KsGraphRecordFunc  record_func,
                                     gpointer           user_data,
                                     GCancellable      *cancellable,
                                     double            *out_capture_ms,
                                     GError           **error);

/* Drops key's graph (a replay that failed), or every graph (key NULL:
 * the buffers they point into are going). */
void          ks_graph_cache_forget (KsGraphCache      *cache,
                                     GBytes            *key);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGraphCache, ks_graph_cache_free)

G_END_DECLS
