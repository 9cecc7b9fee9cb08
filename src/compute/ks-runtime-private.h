/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime-private.h: the seam between ks-runtime*.c and the backends.
 *
 * ks-runtime*.c check arguments, keep reference counts, the pending timing
 * events and the timers; a backend only talks to its API.  An "event" of
 * the vtable is a backend object that event_elapsed_ns can read (an OpenCL
 * profiling event, a CUDA start/end pair); a "marker" is a point in a
 * queue that the host or another queue can wait for, and whose time
 * marker_elapsed_ns can compare. */
#pragma once

#include "ks-runtime.h"

G_BEGIN_DECLS

typedef struct {
  void     (*runtime_free)    (KsRuntime *rt);
  gboolean (*queue_new)       (KsRuntime *rt, KsQueue *queue, GError **error);
  void     (*queue_free)      (KsQueue *queue);
  /* source is already expanded (its includes inlined with #line marks). */
  gboolean (*build_program)   (KsRuntime *rt, KsProgram *program, const char *source_name,
                               const char *source, gsize length, const char *options,
                               GError **error);
  void     (*program_free)    (KsProgram *program);
  /* Fills kernel->handle, kernel->info and kernel->n_params (and
   * kernel->param_sizes where the API says them). */
  gboolean (*create_kernel)   (KsProgram *program, KsKernel *kernel, GError **error);
  void     (*kernel_free)     (KsKernel *kernel);
  gboolean (*set_arg)         (KsKernel *kernel, guint index, gsize size, const void *value,
                               GError **error);
  gboolean (*set_arg_local)   (KsKernel *kernel, guint index, gsize size, GError **error);
  gboolean (*set_arg_buffer)  (KsKernel *kernel, guint index, KsBuffer *buffer, GError **error);
  /* buffer->size and ->flags are set; fills ->handle (and ->host for
   * ZERO_COPY memory, or HOST_PINNED memory's page-locked twin, where the
   * backend has one). */
  gboolean (*alloc)           (KsRuntime *rt, KsBuffer *buffer, GError **error);
  /* view->parent (the root buffer), ->offset and ->size are set. */
  gboolean (*view)            (KsBuffer *view, GError **error);
  void     (*buffer_free)     (KsBuffer *buffer);
  /* out_event NULL: untimed.  blocking: returns once the data has arrived. */
  gboolean (*write)           (KsQueue *queue, KsBuffer *buffer, gsize offset, gsize size,
                               const void *src, gboolean blocking, gpointer *out_event,
                               GError **error);
  gboolean (*read)            (KsQueue *queue, KsBuffer *buffer, gsize offset, gsize size,
                               void *dst, gboolean blocking, gpointer *out_event, GError **error);
  gboolean (*copy)            (KsQueue *queue, KsBuffer *src, gsize src_offset, KsBuffer *dst,
                               gsize dst_offset, gsize size, gpointer *out_event, GError **error);
  gboolean (*fill)            (KsQueue *queue, KsBuffer *buffer, const void *pattern,
                               gsize pattern_size, gsize offset, gsize size, gpointer *out_event,
                               GError **error);
  /* Blocking: returns host memory holding the range (for a ZERO_COPY buffer
   * the buffer itself, else a copy the backend tracks until unmap).
   * buffer_free drops the records of maps never unmapped. */
  void    *(*map)             (KsQueue *queue, KsBuffer *buffer, gsize offset, gsize size,
                               KsMapFlags flags, GError **error);
  gboolean (*unmap)           (KsQueue *queue, KsBuffer *buffer, void *mapped, GError **error);
  /* Returns a backend event (may be NULL) that event_elapsed_ns can read
   * later: when timing is on and no capture runs, or while capturing with
   * graph_kernel_timing (then the event pair is recorded as graph nodes,
   * re-recorded by every replay). */
  gboolean (*launch)          (KsQueue *queue, KsKernel *kernel, const KsLaunchConfig *config,
                               gpointer *out_event, GError **error);
  gboolean (*finish)          (KsQueue *queue, GError **error);
  gboolean (*event_elapsed_ns)(KsRuntime *rt, gpointer event, guint64 *out_ns, GError **error);
  void     (*event_free)      (gpointer event);
  /* Markers: a point in a queue (timed when the queue is). */
  gpointer (*marker)          (KsQueue *queue, GError **error);
  gboolean (*marker_wait)     (KsRuntime *rt, gpointer marker, GError **error);
  gboolean (*queue_wait)      (KsQueue *queue, gpointer marker, GError **error);
  gboolean (*marker_elapsed_ns)(KsRuntime *rt, gpointer from, gpointer to, guint64 *out_ns,
                                GError **error);
  void     (*marker_free)     (gpointer marker);
  /* Optional (NULL: KS_COMPUTE_ERROR_UNSUPPORTED): record launches into a
   * graph instead of running them, and replay the graph. */
  gboolean (*capture_begin)   (KsRuntime *rt, GError **error);
  gpointer (*capture_end)     (KsRuntime *rt, GError **error);
  void     (*capture_abort)   (KsRuntime *rt);
  /* out_event NULL: untimed; else a backend event around the replay, read
   * with event_elapsed_ns like a launch's. */
  gboolean (*graph_launch)    (KsRuntime *rt, gpointer graph, gpointer *out_event, GError **error);
  void     (*graph_free)      (gpointer graph);
  /* Optional (NULL: 0, unknown): groups of local_size items with
   * local_bytes of local memory each that one compute unit holds at once. */
  guint    (*resident_groups) (KsKernel *kernel, gsize local_size, gsize local_bytes);
} KsRuntimeVTable;

typedef struct {
  KsKernel   *kernel;   /* NULL for a transfer; referenced in capture events only */
  const char *timer;    /* interned; NULL: none */
  gpointer    event;
} KsPendingEvent;

typedef struct {
  guint64 ns;
  guint   count;
} KsTimer;

struct _KsRuntime {
  gatomicrefcount        ref;
  const KsRuntimeVTable *vtable;
  KsDevice              *device;
  gpointer               backend_data;
  KsQueue               *queue;     /* the default queue, owned */
  GPtrArray             *queues;    /* every live queue, the default first; not owned */
  /* The queue list only: a queue's last unref may come from another
   * thread (ks-runtime.h, Threads); everything else is one thread's. */
  GMutex                 lock;
  GArray                *pending;   /* of KsPendingEvent */
  GHashTable            *timers;    /* interned name -> KsTimer */
  gboolean               untimed;   /* ks_runtime_set_timing (FALSE) */
  gboolean               capturing; /* between capture_begin and capture_end */
  guint                  capture_launches;
  /* Captures record an event pair around each launch, as nodes of the
   * graph (ks_runtime_set_graph_kernel_timing); the pairs are collected in
   * capture_events while recording and belong to the graph after. */
  gboolean               graph_kernel_timing;
  GArray                *capture_events;   /* of KsPendingEvent */
  gpointer               marks[2];         /* ks_runtime_pace: older, newer */
  /* The programs a capture launched, referenced until the graph owns them. */
  GPtrArray             *capture_programs;
  /* The most local memory one group may have: the device's local memory on
   * OpenCL, the opt-in maximum (sharedMemPerBlockOptin) on CUDA. */
  guint64                local_mem_limit;
};

struct _KsQueue {
  gatomicrefcount  ref;
  KsRuntime       *rt;          /* owned, except by the default queue (rt owns it) */
  gboolean         is_default;
  gpointer         handle;
};

struct _KsEvent {
  gatomicrefcount  ref;
  KsRuntime       *rt;          /* owned */
  gpointer         marker;
  gboolean         timed;       /* recorded while the runtime timed: a clock to read */
};

struct _KsProgram {
  gatomicrefcount  ref;
  KsRuntime       *rt;          /* owned */
  gpointer         handle;
  char            *build_log;
};

/* What ks-runtime.c knows of one argument: whether it was set, and the
 * bytes a local-memory argument asks for. */
typedef struct {
  gboolean set;
  gsize    local;
} KsArgState;

struct _KsKernel {
  gatomicrefcount  ref;
  KsProgram       *program;     /* owned */
  char            *name;        /* interned: also the kernel's timer */
  gpointer         handle;
  KsKernelInfo     info;
  /* The kernel's parameters as the backend read them (CL_KERNEL_NUM_ARGS,
   * cuFuncGetParamInfo); 0 where it could not say.  param_sizes: each
   * parameter's size, NULL where the API does not say (OpenCL checks sizes
   * itself). */
  guint            n_params;
  gsize           *param_sizes;
  GArray          *args;        /* of KsArgState, by index */
  guint64          time_ns;
  guint            launches;
  gboolean         waits_previous; /* ks_kernel_set_waits_previous */
};

struct _KsBuffer {
  gatomicrefcount  ref;
  KsRuntime       *rt;          /* owned */
  KsBuffer        *parent;      /* a view's root buffer, owned; NULL otherwise */
  gsize            offset;      /* in parent */
  gsize            size;
  KsBufferFlags    flags;
  gpointer         handle;
  gpointer         host;        /* ZERO_COPY memory's host address, or HOST_PINNED's twin */
  GSList          *maps;        /* backend's mapping records */
};

/* Backend constructors: fill rt->vtable, rt->backend_data and the default
 * queue's handle. */
gboolean ks_opencl_runtime_init (KsRuntime *rt, GError **error);
#ifdef KS_HAVE_CUDA
gboolean ks_cuda_runtime_init   (KsRuntime *rt, GError **error);
#endif

/* ks-runtime.c, for ks-runtime-queue.c: queues a timing event. */
void     ks_runtime_add_pending (KsRuntime *rt, KsKernel *kernel, const char *timer, gpointer event);
/* Frees the events of an array of KsPendingEvent and empties it;
 * with owns_kernels, unrefs their kernels too (capture and graph events). */
void     ks_runtime_free_events (KsRuntime *rt, GArray *events, gboolean owns_kernels);
/* ks-runtime.c, for ks-runtime-queue.c: the arguments all set and the
 * local memory within the limit, else an error saying which. */
gboolean ks_kernel_check_args   (KsKernel *kernel, GError **error);

G_END_DECLS
