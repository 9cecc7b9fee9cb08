/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime-private.h: the seam between ks-runtime.c and the backends. */
#pragma once

#include "ks-runtime.h"

G_BEGIN_DECLS

typedef struct {
  void     (*runtime_free)    (KsRuntime *rt);
  gboolean (*build_program)   (KsRuntime *rt, KsProgram *program, const char *source,
                               gsize length, const char *options, GError **error);
  void     (*program_free)    (KsProgram *program);
  gboolean (*create_kernel)   (KsProgram *program, KsKernel *kernel, GError **error);
  void     (*kernel_free)     (KsKernel *kernel);
  gboolean (*set_arg)         (KsKernel *kernel, guint index, gsize size, const void *value,
                               GError **error);
  gboolean (*set_arg_buffer)  (KsKernel *kernel, guint index, KsBuffer *buffer, GError **error);
  gboolean (*alloc)           (KsRuntime *rt, KsBuffer *buffer, GError **error);
  void     (*buffer_free)     (KsBuffer *buffer);
  gboolean (*write)           (KsRuntime *rt, KsBuffer *buffer, gsize offset, gsize size,
                               const void *src, GError **error);
  gboolean (*read)            (KsRuntime *rt, KsBuffer *buffer, gsize offset, gsize size,
                               void *dst, GError **error);
  /* Returns a backend event (may be NULL) that event_elapsed_ns can read
   * later: when timing is on and no capture runs, or while capturing with
   * graph_kernel_timing (then the event pair is recorded as graph nodes,
   * re-recorded by every replay). */
  gboolean (*launch)          (KsRuntime *rt, KsKernel *kernel, guint dims, const gsize *global,
                               const gsize *local, gpointer *out_event, GError **error);
  gboolean (*finish)          (KsRuntime *rt, GError **error);
  gboolean (*event_elapsed_ns)(KsRuntime *rt, gpointer event, guint64 *out_ns, GError **error);
  void     (*event_free)      (gpointer event);
  /* A point in the queue (no timing) that mark_wait can block on, freed by
   * mark_free; optional (NULL: no pacing). */
  gpointer (*mark)            (KsRuntime *rt, GError **error);
  gboolean (*mark_wait)       (KsRuntime *rt, gpointer mark, GError **error);
  void     (*mark_free)       (gpointer mark);
  /* Optional (NULL: KS_COMPUTE_ERROR_UNSUPPORTED): record launches into a
   * graph instead of running them, and replay the graph. */
  gboolean (*capture_begin)   (KsRuntime *rt, GError **error);
  gpointer (*capture_end)     (KsRuntime *rt, GError **error);
  void     (*capture_abort)   (KsRuntime *rt);
  /* out_event NULL: untimed; else a backend event around the replay, read
   * with event_elapsed_ns like a launch's. */
  gboolean (*graph_launch)    (KsRuntime *rt, gpointer graph, gpointer *out_event, GError **error);
  void     (*graph_free)      (gpointer graph);
} KsRuntimeVTable;

typedef struct {
  KsKernel *kernel;
  gpointer  event;
} KsPendingEvent;

struct _KsRuntime {
  const KsRuntimeVTable *vtable;
  KsDevice              *device;
  gpointer               backend_data;
  GArray                *pending;   /* of KsPendingEvent */
  gboolean               untimed;   /* launches record no events (ks_runtime_set_timing) */
  gboolean               capturing; /* between capture_begin and capture_end */
  /* Captures record an event pair around each launch, as nodes of the
   * graph (ks_runtime_set_graph_kernel_timing); the pairs are collected in
   * capture_events while recording and belong to the graph after. */
  gboolean               graph_kernel_timing;
  GArray                *capture_events;   /* of KsPendingEvent */
  gpointer               marks[2];         /* ks_runtime_pace: older, newer */
};

struct _KsProgram {
  KsRuntime *rt;
  gpointer   handle;
  char      *build_log;
};

struct _KsKernel {
  KsProgram *program;
  char      *name;
  gpointer   handle;
  gsize      max_work_group_size;
  gsize      preferred_multiple;
  guint64    time_ns;
  guint      launches;
  guint      pending;   /* launches whose events are not collected yet */
  gsize      suggested_local;  /* CUDA: the occupancy API's block size; 0 elsewhere */
};

struct _KsBuffer {
  KsRuntime *rt;
  gsize      size;
  gpointer   handle;
};

/* Backend constructors: fill rt->vtable and rt->backend_data. */
gboolean ks_opencl_runtime_init (KsRuntime *rt, GError **error);
#ifdef KS_HAVE_CUDA
gboolean ks_cuda_runtime_init   (KsRuntime *rt, GError **error);
#endif

G_END_DECLS
