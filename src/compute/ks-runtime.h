/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime.h: what a solver needs from a device, whatever its backend.
 *
 * A runtime is an open context on one device with a default in-order queue
 * and as many more queues (CUDA streams) as a solver asks for; events order
 * work between queues.  Solvers build programs from kernels/ sources (which
 * may include a shared header from kernels/), allocate buffers (read/write
 * flags, host-pinned memory, views at an offset), copy, fill, map, and
 * launch kernels over 1-3 dimensions with an optional local size, a global
 * offset and local-memory arguments.  Launches, and transfers given a timer
 * name, are timed with device events (OpenCL profiling events, CUDA events)
 * into named timers that ks_runtime_collect_timings() fills.
 *
 * Lifetimes are reference counts: a queue, program or buffer keeps its
 * runtime alive, a kernel its program, a view its buffer, so g_autoptr
 * frees them in any order.  The old ks_*_free names unref.
 *
 * The host backend (plain C + OpenMP) has no runtime: ks_runtime_new()
 * says so with KS_COMPUTE_ERROR_UNSUPPORTED.  What one backend cannot do
 * (a graph on OpenCL, a global offset inside a CUDA graph capture) is
 * KS_COMPUTE_ERROR_UNSUPPORTED too, never a silent substitute.
 *
 * Threads: a runtime and everything made from it (queues, events, programs,
 * kernels, buffers, graphs) is used by one thread at a time: the sweep's
 * worker while it runs, another thread after it, never two at once.  There
 * is no lock around the kernels' arguments, the pending timings, the timers,
 * the capture state or the backends' own state (OpenCL's last-used queue,
 * CUDA's event pool), on purpose: a kernel's set_arg and launch must be one
 * step for the arguments to mean anything, which a lock per call cannot
 * give, and a mutex per launch would cost the launch-bound solves.  Moving
 * a runtime between threads is fine (the CUDA backend selects its device on
 * each call).  The reference counts are atomic and the list of queues has a
 * lock, so a last unref (of a queue, a buffer) may come from another thread
 * once its work is done, such as a GTask's result freed on the main loop. */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

typedef struct _KsRuntime KsRuntime;
typedef struct _KsQueue   KsQueue;
typedef struct _KsEvent   KsEvent;
typedef struct _KsProgram KsProgram;
typedef struct _KsKernel  KsKernel;
typedef struct _KsBuffer  KsBuffer;
typedef struct _KsGraph   KsGraph;

/* --- runtime --------------------------------------------------------------- */

KsRuntime  *ks_runtime_new                   (KsDevice   *device,
                                              GError    **error);
KsRuntime  *ks_runtime_ref                   (KsRuntime  *rt);
void        ks_runtime_unref                 (KsRuntime  *rt);
#define     ks_runtime_free                  ks_runtime_unref
KsDevice   *ks_runtime_get_device            (KsRuntime  *rt);
/* The most local memory one group may have: the device's local memory on
 * OpenCL, the opt-in maximum on CUDA (above the 48 KiB every kernel may
 * have; the launch opts in where a group asks for more). */
guint64     ks_runtime_get_local_mem_limit   (KsRuntime  *rt);

/* --- programs and kernels ---------------------------------------------------- */

/* source_name is a file of kernels/ (e.g. "gauss.cl"); its #include "x.h"
 * lines of other kernels/ files are expanded with #line marks, so the
 * compiler's messages name the real file and line on OpenCL and NVRTC
 * alike.  options are passed to the compiler.  A failed build is
 * KS_COMPUTE_ERROR_BUILD_FAILED and its message ends with the build log. */
KsProgram  *ks_runtime_build_program         (KsRuntime  *rt,
                                              const char *source_name,
                                              const char *options,
                                              GError    **error);
KsProgram  *ks_program_ref                   (KsProgram  *program);
void        ks_program_unref                 (KsProgram  *program);
#define     ks_program_free                  ks_program_unref

/* What the backend says about one kernel on this device; 0 where it cannot
 * say (OpenCL has no register count, CUDA no preferred multiple but the
 * warp). */
typedef struct {
  gsize   max_work_group_size;   /* CL_KERNEL_WORK_GROUP_SIZE; CUDA maxThreadsPerBlock */
  gsize   preferred_multiple;    /* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE; the warp on CUDA */
  guint64 local_mem_bytes;       /* CL_KERNEL_LOCAL_MEM_SIZE; CUDA static shared bytes */
  guint64 private_mem_bytes;     /* CL_KERNEL_PRIVATE_MEM_SIZE; CUDA local (spill) bytes per thread */
  guint   registers;             /* CUDA registers per thread */
  gsize   suggested_local;       /* CUDA: the occupancy API's block size; 0 on OpenCL */
} KsKernelInfo;

KsKernel   *ks_program_create_kernel         (KsProgram  *program,
                                              const char *name,
                                              GError    **error);
KsKernel   *ks_kernel_ref                    (KsKernel   *kernel);
void        ks_kernel_unref                  (KsKernel   *kernel);
#define     ks_kernel_free                   ks_kernel_unref
const char *ks_kernel_get_name               (KsKernel   *kernel);
const KsKernelInfo *ks_kernel_get_info       (KsKernel   *kernel);
/* Shortcuts into ks_kernel_get_info(). */
gsize       ks_kernel_get_max_work_group_size (KsKernel  *kernel);
gsize       ks_kernel_get_preferred_multiple (KsKernel   *kernel);
/* CUDA: the block size a launch without a local size uses there, CUDA
 * having no driver choice; 0 on OpenCL, where the driver chooses. */
gsize       ks_kernel_get_suggested_local_size (KsKernel *kernel);
/* Groups of local_size items, each with local_bytes of local memory, that
 * one compute unit runs at once (its registers, local memory and item
 * limits together): CUDA's occupancy calculator; 0 where the backend
 * cannot say (OpenCL).  For a kernel that loops over its work with as
 * many groups as the device holds. */
guint       ks_kernel_get_resident_groups    (KsKernel   *kernel,
                                              gsize       local_size,
                                              gsize       local_bytes);

/* The kernel's source calls ks_grid_wait_previous () (ks-common.h) before
 * it touches any memory an earlier launch on its queue writes or reads:
 * the CUDA backend may then start its blocks while that launch finishes
 * (programmatic dependent launch, compute capability 9.0 and up), hiding
 * the launch's cost between two kernels of one queue; not in a graph's
 * recording (ks-cuda-runtime.c says why).  A kernel that does not wait
 * must not be marked: it would race with its predecessor.  Other backends
 * and older devices run it as any launch.  KS_PDL=0 turns it off, and
 * KS_PDL=graph on in graphs too (an A/B). */
void        ks_kernel_set_waits_previous     (KsKernel   *kernel,
                                              gboolean    waits);

/* A value argument of any size (a struct too).  The value is copied. */
gboolean    ks_kernel_set_arg                (KsKernel   *kernel,
                                              guint       index,
                                              gsize       size,
                                              const void *value,
                                              GError    **error);
gboolean    ks_kernel_set_arg_buffer         (KsKernel   *kernel,
                                              guint       index,
                                              KsBuffer   *buffer,
                                              GError    **error);
/* size bytes of local (CUDA: shared) memory per group for a __local
 * argument.  Kernels declare it with KS_LOCAL_PARAM and bind it with
 * KS_LOCAL_BIND (kernels/ks-common.h): on CUDA each such argument is an
 * offset into the launch's dynamic shared memory, which the backend lays
 * out (16-byte aligned) and sizes at launch.  One argument larger than the
 * device's local memory is KS_COMPUTE_ERROR_OUT_OF_MEMORY here; the sum of
 * all of them with the kernel's own is checked at launch (ks_queue_launch). */
gboolean    ks_kernel_set_arg_local          (KsKernel   *kernel,
                                              guint       index,
                                              gsize       size,
                                              GError    **error);
/* Every argument at once, in order from index 0, each a tag and its value,
 * the list ended by KS_ARG_END:
 *   ks_kernel_set_args (k, error, KS_ARG_INT, n, KS_ARG_BUFFER, x,
 *                       KS_ARG_LOCAL, 256 * sizeof (float), KS_ARG_END);
 * INT and UINT are 32-bit, LONG 64-bit (gint64), FLOAT a double passed as a
 * float, DOUBLE a double, LOCAL a size in bytes (gsize), BUFFER a KsBuffer
 * *.  Stops at the first argument the kernel refuses. */
typedef enum {
  KS_ARG_END = 0,
  KS_ARG_BUFFER,
  KS_ARG_INT,
  KS_ARG_UINT,
  KS_ARG_LONG,
  KS_ARG_FLOAT,
  KS_ARG_DOUBLE,
  KS_ARG_LOCAL,
} KsArgKind;

gboolean    ks_kernel_set_args               (KsKernel   *kernel,
                                              GError    **error,
                                              ...);
/* Sum of the device time of this kernel's launches since the last reset,
 * as collected by ks_runtime_collect_timings(). */
guint64     ks_kernel_get_time_ns            (KsKernel   *kernel);
guint       ks_kernel_get_launches           (KsKernel   *kernel);
void        ks_kernel_reset_timing           (KsKernel   *kernel);

/* --- buffers --------------------------------------------------------------- */

typedef enum {
  KS_BUFFER_READ_WRITE  = 0,
  KS_BUFFER_READ_ONLY   = 1 << 0,  /* kernels only read it (CL_MEM_READ_ONLY) */
  KS_BUFFER_WRITE_ONLY  = 1 << 1,  /* kernels only write it (CL_MEM_WRITE_ONLY) */
  /* Device memory with a page-locked host twin: kernels read device
   * memory; ks_queue_map gives the twin, filled and written back by DMA
   * (fast, unlike a pageable copy).  CL_MEM_ALLOC_HOST_PTR on OpenCL (what
   * NVIDIA's driver does with it; on a CPU device the two are one),
   * cudaMalloc plus a cudaHostAlloc twin on CUDA.  Paper 001's "pinned"
   * transfer strategy. */
  KS_BUFFER_HOST_PINNED = 1 << 2,
  /* Page-locked host memory that kernels read and write directly, across
   * the bus: no device copy at all, and ks_queue_map is in place.  CUDA:
   * cudaHostAllocMapped.  OpenCL: CL_MEM_ALLOC_HOST_PTR on a device that
   * shares the host's memory (CL_DEVICE_HOST_UNIFIED_MEMORY: a CPU, an
   * integrated GPU); elsewhere OpenCL has no such buffer and it is
   * KS_COMPUTE_ERROR_UNSUPPORTED.  Paper 001's "zero-copy" strategy. */
  KS_BUFFER_ZERO_COPY   = 1 << 3,
} KsBufferFlags;

/* Allocation is checked against the device's limits first, so a problem too
 * big for the device is KS_COMPUTE_ERROR_OUT_OF_MEMORY with the numbers. */
KsBuffer   *ks_runtime_alloc                 (KsRuntime  *rt,
                                              gsize       size,
                                              GError    **error);
KsBuffer   *ks_runtime_alloc_full            (KsRuntime     *rt,
                                              gsize          size,
                                              KsBufferFlags  flags,
                                              GError       **error);
/* A view of size bytes of buffer at offset: kernels and transfers on it see
 * that range only (CUDA's halo vectors, a block of a matrix).  It keeps
 * buffer alive.  OpenCL needs offset to be a multiple of the device's
 * mem_base_addr_align (KsDeviceInfo); another offset is
 * KS_COMPUTE_ERROR_UNSUPPORTED, saying the alignment. */
KsBuffer   *ks_buffer_new_view               (KsBuffer   *buffer,
                                              gsize       offset,
                                              gsize       size,
                                              GError    **error);
KsBuffer   *ks_buffer_ref                    (KsBuffer   *buffer);
void        ks_buffer_unref                  (KsBuffer   *buffer);
#define     ks_buffer_free                   ks_buffer_unref
gsize       ks_buffer_get_size               (KsBuffer   *buffer);
KsBufferFlags ks_buffer_get_flags            (KsBuffer   *buffer);

/* --- queues and events ----------------------------------------------------- */

/* The queue every ks_runtime_* call without a queue uses; borrowed. */
KsQueue    *ks_runtime_get_queue             (KsRuntime  *rt);
/* Another in-order queue (a CUDA stream) on the same device and context:
 * work on two queues may overlap, unless an event orders it. */
KsQueue    *ks_runtime_new_queue             (KsRuntime  *rt,
                                              GError    **error);
KsQueue    *ks_queue_ref                     (KsQueue    *queue);
void        ks_queue_unref                   (KsQueue    *queue);
KsRuntime  *ks_queue_get_runtime             (KsQueue    *queue);

/* A point in the queue after everything enqueued so far. */
KsEvent    *ks_queue_record                  (KsQueue    *queue,
                                              GError    **error);
/* Work enqueued on queue after this call starts only once event is done
 * (the event may come from another queue of the same runtime). */
gboolean    ks_queue_wait                    (KsQueue    *queue,
                                              KsEvent    *event,
                                              GError    **error);
void        ks_event_unref                   (KsEvent    *event);
/* The host waits for the event. */
gboolean    ks_event_wait                    (KsEvent    *event,
                                              GError    **error);
/* Device time from event from to event to (both done; recorded on a timed
 * queue: with timing off there is no clock to read, and that is
 * KS_COMPUTE_ERROR_UNSUPPORTED). */
gboolean    ks_event_elapsed_ns              (KsEvent    *from,
                                              KsEvent    *to,
                                              guint64    *out_ns,
                                              GError    **error);

/* --- transfers --------------------------------------------------------------- */

typedef enum {
  KS_TRANSFER_BLOCKING     = 0,
  /* Returns once enqueued: the host memory must stay untouched until the
   * queue is finished or an event recorded after it is done. */
  KS_TRANSFER_NON_BLOCKING = 1 << 0,
} KsTransferFlags;

/* timer (may be NULL): the name the transfer's device time is added to
 * ("upload", "download", "halo"), read after ks_runtime_collect_timings()
 * with ks_runtime_get_timer(). */
gboolean    ks_queue_write                   (KsQueue        *queue,
                                              KsBuffer       *buffer,
                                              gsize           offset,
                                              gsize           size,
                                              const void     *src,
                                              KsTransferFlags flags,
                                              const char     *timer,
                                              GError        **error);
gboolean    ks_queue_read                    (KsQueue        *queue,
                                              KsBuffer       *buffer,
                                              gsize           offset,
                                              gsize           size,
                                              void           *dst,
                                              KsTransferFlags flags,
                                              const char     *timer,
                                              GError        **error);
/* Device to device, on the queue. */
gboolean    ks_queue_copy                    (KsQueue    *queue,
                                              KsBuffer   *src,
                                              gsize       src_offset,
                                              KsBuffer   *dst,
                                              gsize       dst_offset,
                                              gsize       size,
                                              const char *timer,
                                              GError    **error);
/* Repeats pattern (1, 2, 4, ..., 128 bytes) over size bytes at offset;
 * offset and size are multiples of pattern_size.  Stream-ordered on every
 * backend: the host never waits for it.  timer as for ks_queue_write. */
gboolean    ks_queue_fill                    (KsQueue    *queue,
                                              KsBuffer   *buffer,
                                              const void *pattern,
                                              gsize       pattern_size,
                                              gsize       offset,
                                              gsize       size,
                                              const char *timer,
                                              GError    **error);

typedef enum {
  KS_MAP_READ  = 1 << 0,   /* the host reads what the device wrote */
  KS_MAP_WRITE = 1 << 1,   /* the host writes what the device will read */
} KsMapFlags;

/* Waits for the queue, then gives the host size bytes of buffer at offset.
 * A ZERO_COPY buffer is mapped in place (no copy); a HOST_PINNED one through
 * its page-locked twin, another one through a pageable host copy; both read
 * in (KS_MAP_READ) and written back by unmap (KS_MAP_WRITE).  Until
 * ks_queue_unmap, kernels must not use the range.  Refused
 * (KS_COMPUTE_ERROR_UNSUPPORTED) on the default queue while a graph is
 * being recorded, like a blocking transfer or a fill there. */
void       *ks_queue_map                     (KsQueue    *queue,
                                              KsBuffer   *buffer,
                                              gsize       offset,
                                              gsize       size,
                                              KsMapFlags  flags,
                                              GError    **error);
gboolean    ks_queue_unmap                   (KsQueue    *queue,
                                              KsBuffer   *buffer,
                                              void       *mapped,
                                              GError    **error);

/* The same on the default queue, blocking and untimed, as solvers used them
 * before queues existed. */
gboolean    ks_runtime_write                 (KsRuntime  *rt,
                                              KsBuffer   *buffer,
                                              gsize       offset,
                                              gsize       size,
                                              const void *src,
                                              GError    **error);
gboolean    ks_runtime_read                  (KsRuntime  *rt,
                                              KsBuffer   *buffer,
                                              gsize       offset,
                                              gsize       size,
                                              void       *dst,
                                              GError    **error);

/* --- launches ---------------------------------------------------------------- */

/* dims 1 to 3; local all 0: the driver chooses (CUDA: the occupancy API's
 * block along dimension 0, the grid padded to whole blocks); offset:
 * OpenCL's global work offset, which get_global_id() includes.  CUDA has no
 * such thing: there a program that takes offsets is built with the option
 * -DKS_GLOBAL_OFFSET (harmless on OpenCL), which makes the prelude read the
 * offset and the true global size (get_global_size, ks_global_linear_id)
 * from constant memory (a load in every get_global_id, so not by default);
 * without it a nonzero offset on CUDA is KS_COMPUTE_ERROR_UNSUPPORTED,
 * saying so, and get_global_size() is the padded size.  A launch of such a
 * program whose offset or size differs from the last one's writes them on
 * its stream first (a few cuMemsetD32Async, recordable into a graph) while
 * the runtime has one queue; with more queues open it waits for all of them
 * (another may be running the program) and is refused while capturing. */
typedef struct {
  guint dims;
  gsize global[3];
  gsize local[3];
  gsize offset[3];
} KsLaunchConfig;

/* A group size the device or the kernel refuses is
 * KS_COMPUTE_ERROR_WORK_GROUP_SIZE, saying which limit; so is a global size
 * that is no multiple of the local size (OpenCL 1.2 has no partial groups;
 * CUDA would pad silently), on both backends: ks_launch_plan pads or splits.
 * Every argument of the kernel must be set (on CUDA, a value the size of its
 * parameter where the driver says it, CUDA 12.4+), else
 * KS_COMPUTE_ERROR_FAILED naming it; the local memory of the kernel and its
 * local arguments together beyond the device's is
 * KS_COMPUTE_ERROR_OUT_OF_MEMORY.  On CUDA that limit is the opt-in maximum
 * (sharedMemPerBlockOptin, ~227 KiB on an H200): a launch that needs more
 * than sharedMemPerBlock (48 KiB) raises the kernel's
 * cudaFuncAttributeMaxDynamicSharedMemorySize itself. */
gboolean    ks_queue_launch                  (KsQueue              *queue,
                                              KsKernel             *kernel,
                                              const KsLaunchConfig *config,
                                              GError              **error);
/* On the default queue, no offset; local == NULL lets the driver choose. */
gboolean    ks_runtime_launch                (KsRuntime   *rt,
                                              KsKernel    *kernel,
                                              guint        dims,
                                              const gsize *global,
                                              const gsize *local,
                                              GError     **error);

/* --- waiting and timing -------------------------------------------------------- */

/* Waits for everything enqueued on every queue. */
gboolean    ks_runtime_finish                (KsRuntime   *rt,
                                              GError     **error);
/* Waits, then adds each launch's device time to its kernel's total and to
 * the timer named after the kernel, and each timed transfer's to its timer. */
gboolean    ks_runtime_collect_timings       (KsRuntime   *rt,
                                              GError     **error);
/* Drops pending timing events without reading them (after a failure or a cancel). */
void        ks_runtime_discard_timings       (KsRuntime   *rt);
/* FALSE: launches and transfers record no device events (times stay 0), so
 * a launch costs only what the backend itself costs; TRUE by default. */
void        ks_runtime_set_timing            (KsRuntime   *rt,
                                              gboolean     timing);
/* The named timer's device time and how many operations it holds, since
 * the last reset; FALSE (and zeros) if nothing was timed under that name. */
gboolean    ks_runtime_get_timer             (KsRuntime   *rt,
                                              const char  *name,
                                              guint64     *out_ns,
                                              guint       *out_count);
/* The names of every timer with something in it, sorted; free with g_strfreev. */
char      **ks_runtime_list_timers           (KsRuntime   *rt);
void        ks_runtime_reset_timers          (KsRuntime   *rt);

/* Pacing: a long solve enqueues thousands of launches in milliseconds and
 * then waits seconds for them, so a cancel seen while enqueueing came too
 * late.  ks_runtime_pace() marks the default queue; once two marks are
 * outstanding it waits for the older, so at most two stretches of work are
 * ever queued ahead of the host.  The device never starves (the newer
 * stretch is still queued while the host waits), and when the host is the
 * slower one (a launch-bound GPU) the older mark is already done and
 * nothing waits.  A no-op while capturing a graph. */
gboolean    ks_runtime_pace                  (KsRuntime   *rt,
                                              GError     **error);
/* Forgets outstanding marks (at the end of a solve, or after a failure). */
void        ks_runtime_pace_reset            (KsRuntime   *rt);

/* --- graphs (CUDA) ------------------------------------------------------------ */

/* TRUE: captures record an event pair around each launch as nodes of the
 * graph, so a timed replay also gives each kernel's device time, with no
 * host between the kernels (a stream launched one by one is timed with the
 * launch gap inside each pair whenever the host is slower than the GPU).
 * The event nodes cost the replay some time: a graph recorded this way is
 * for per-kernel figures, not for the replay's own time.  FALSE by default;
 * it applies to captures that begin after the call. */
void        ks_runtime_set_graph_kernel_timing (KsRuntime *rt,
                                                gboolean   timing);

/* Graph mode: between capture_begin and capture_end the launches on the
 * default queue are recorded, not run (untimed); the graph replays all of
 * them with one call, the same kernels with the arguments they had when
 * recorded.  The graph holds a reference to each program it launched (and,
 * with graph kernel timing, to each kernel), so the caller may let them go
 * before the replays.  While recording, a blocking transfer, a fill or a map
 * on the default queue, and ks_runtime_finish, are
 * KS_COMPUTE_ERROR_UNSUPPORTED.  CUDA Graphs on the CUDA backend; elsewhere
 * KS_COMPUTE_ERROR_UNSUPPORTED.  KsGraphCache (ks-graph-cache.h) keeps
 * recorded graphs by the shape they were recorded for. */
gboolean    ks_runtime_capture_begin         (KsRuntime   *rt,
                                              GError     **error);
KsGraph    *ks_runtime_capture_end           (KsRuntime   *rt,
                                              GError     **error);
/* Ends a capture that must not become a graph (a launch failed or the solve
 * was cancelled while recording): the stream leaves capture mode and what
 * was recorded is dropped, never instantiated. */
void        ks_runtime_capture_abort         (KsRuntime   *rt);
/* Enqueues one replay; ks_runtime_finish() waits for it. */
gboolean    ks_graph_launch                  (KsGraph     *graph,
                                              GError     **error);
/* The same between two device events: the replay is timed as a whole, from
 * the moment the device starts it to its last kernel's end.  After the
 * replay has finished (ks_runtime_finish() or a blocking read),
 * ks_graph_collect_time() gives that time and forgets the events; for a
 * graph recorded with graph kernel timing it also adds each recorded
 * launch's time to its kernel (ks_kernel_get_time_ns), as
 * ks_runtime_collect_timings() does for a stream. */
gboolean    ks_graph_launch_timed            (KsGraph     *graph,
                                              GError     **error);
gboolean    ks_graph_collect_time            (KsGraph     *graph,
                                              guint64     *out_ns,
                                              GError     **error);
/* Whether the graph was recorded with an event pair around each launch. */
gboolean    ks_graph_has_kernel_times        (KsGraph     *graph);
/* How many launches the capture recorded. */
guint       ks_graph_get_launches            (KsGraph     *graph);
void        ks_graph_free                    (KsGraph     *graph);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRuntime, ks_runtime_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsQueue, ks_queue_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsEvent, ks_event_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsProgram, ks_program_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsKernel, ks_kernel_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsBuffer, ks_buffer_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGraph, ks_graph_free)

G_END_DECLS
