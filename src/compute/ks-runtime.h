/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime.h: what a solver needs from a device, whatever its backend.
 *
 * A runtime is an open context and in-order queue on one device.  Solvers
 * build programs from kernels/ sources, allocate buffers, set arguments by
 * index and launch with a global size and an optional local size (NULL: the
 * driver chooses).  Every launch is timed with device events (OpenCL
 * profiling events; CUDA events in the CUDA backend); the times are summed
 * per kernel by ks_runtime_collect_timings().  The CUDA backend plugs in by
 * providing its own KsRuntimeVTable (ks-runtime-private.h). */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

typedef struct _KsRuntime KsRuntime;
typedef struct _KsProgram KsProgram;
typedef struct _KsKernel  KsKernel;
typedef struct _KsBuffer  KsBuffer;
typedef struct _KsGraph   KsGraph;

KsRuntime  *ks_runtime_new                   (KsDevice   *device,
                                              GError    **error);
void        ks_runtime_free                  (KsRuntime  *rt);
KsDevice   *ks_runtime_get_device            (KsRuntime  *rt);

/* source_name is a file of kernels/ (e.g. "gauss.cl"); options are passed
 * to the compiler.  A failed build is KS_COMPUTE_ERROR_BUILD_FAILED and its
 * message ends with the compiler's build log. */
KsProgram  *ks_runtime_build_program         (KsRuntime  *rt,
                                              const char *source_name,
                                              const char *options,
                                              GError    **error);
void        ks_program_free                  (KsProgram  *program);
const char *ks_program_get_build_log         (KsProgram  *program);

KsKernel   *ks_program_create_kernel         (KsProgram  *program,
                                              const char *name,
                                              GError    **error);
void        ks_kernel_free                   (KsKernel   *kernel);
const char *ks_kernel_get_name               (KsKernel   *kernel);
/* CL_KERNEL_WORK_GROUP_SIZE: the largest group this kernel can run with. */
gsize       ks_kernel_get_max_work_group_size (KsKernel  *kernel);
/* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE (the warp size on NVIDIA). */
gsize       ks_kernel_get_preferred_multiple (KsKernel   *kernel);
/* CUDA: the block size the occupancy API suggests for this kernel (what a
 * launch with local == NULL uses there, CUDA having no driver choice); 0 on
 * OpenCL, where the driver chooses per launch. */
gsize       ks_kernel_get_suggested_local_size (KsKernel *kernel);

gboolean    ks_kernel_set_arg                (KsKernel   *kernel,
                                              guint       index,
                                              gsize       size,
                                              const void *value,
                                              GError    **error);
gboolean    ks_kernel_set_arg_buffer         (KsKernel   *kernel,
                                              guint       index,
                                              KsBuffer   *buffer,
                                              GError    **error);
/* Sum of the device time of this kernel's launches since the last reset,
 * as collected by ks_runtime_collect_timings(). */
guint64     ks_kernel_get_time_ns            (KsKernel   *kernel);
guint       ks_kernel_get_launches           (KsKernel   *kernel);
void        ks_kernel_reset_timing           (KsKernel   *kernel);

/* Allocation is checked against the device's limits first, so a problem too
 * big for the device is KS_COMPUTE_ERROR_OUT_OF_MEMORY with the numbers. */
KsBuffer   *ks_runtime_alloc                 (KsRuntime  *rt,
                                              gsize       size,
                                              GError    **error);
void        ks_buffer_free                   (KsBuffer   *buffer);
gsize       ks_buffer_get_size               (KsBuffer   *buffer);

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

/* Enqueues kernel over dims (1..3) dimensions.  local == NULL lets the
 * driver choose the work-group size.  A group size the device refuses is
 * KS_COMPUTE_ERROR_WORK_GROUP_SIZE. */
gboolean    ks_runtime_launch                (KsRuntime   *rt,
                                              KsKernel    *kernel,
                                              guint        dims,
                                              const gsize *global,
                                              const gsize *local,
                                              GError     **error);
/* Waits for everything enqueued. */
gboolean    ks_runtime_finish                (KsRuntime   *rt,
                                              GError     **error);
/* Waits, then adds each launch's device time to its kernel's total. */
gboolean    ks_runtime_collect_timings       (KsRuntime   *rt,
                                              GError     **error);
/* Drops pending timing events without reading them (after a failure or a cancel). */
void        ks_runtime_discard_timings       (KsRuntime   *rt);
/* FALSE: launches record no device events (kernel times stay 0), so a
 * launch costs only what the backend itself costs; TRUE by default. */
void        ks_runtime_set_timing            (KsRuntime   *rt,
                                              gboolean     timing);

/* Pacing: a long solve enqueues thousands of launches in milliseconds and
 * then waits seconds for them, so a cancel seen while enqueueing came too
 * late.  ks_runtime_pace() marks the queue; once two marks are
 * outstanding it waits for the older, so at most two stretches of work are
 * ever queued ahead of the host.  The device never starves (the newer
 * stretch is still queued while the host waits), and when the host is the
 * slower one (a launch-bound GPU) the older mark is already done and
 * nothing waits.  A no-op while capturing a graph or on a backend without
 * marks. */
gboolean    ks_runtime_pace                  (KsRuntime   *rt,
                                              GError     **error);
/* Forgets outstanding marks (at the end of a solve, or after a failure). */
void        ks_runtime_pace_reset            (KsRuntime   *rt);

/* TRUE: captures record an event pair around each launch as nodes of the
 * graph, so a timed replay also gives each kernel's device time, with no
 * host between the kernels (a stream launched one by one is timed with the
 * launch gap inside each pair whenever the host is slower than the GPU).
 * The event nodes cost the replay some time: a graph recorded this way is
 * for per-kernel figures, not for the replay's own time.  FALSE by default;
 * it applies to captures that begin after the call. */
void        ks_runtime_set_graph_kernel_timing (KsRuntime *rt,
                                                gboolean   timing);

/* Graph mode: between capture_begin and capture_end the launches are
 * recorded, not run (untimed); the graph replays all of them with one call,
 * the same kernels with the arguments they had when recorded.  CUDA Graphs
 * on the CUDA backend; elsewhere KS_COMPUTE_ERROR_UNSUPPORTED. */
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
void        ks_graph_free                    (KsGraph     *graph);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRuntime, ks_runtime_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsProgram, ks_program_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsKernel, ks_kernel_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsBuffer, ks_buffer_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGraph, ks_graph_free)

G_END_DECLS
