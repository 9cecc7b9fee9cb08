/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-private.h: shared by the CUDA device list and runtime. */
#pragma once

#include <glib.h>
#include <cuda.h>
#include <cuda_runtime_api.h>

#include "ks-runtime.h"

G_BEGIN_DECLS

/* Maps a CUDA runtime status to the error a user can act on: TRUE for
 * cudaSuccess; else a KS_COMPUTE_ERROR saying what failed, and whether the
 * context is lost for good (a sticky error). */
gboolean ks_cuda_check (cudaError_t  status,
                        const char  *what,
                        GError     **error);

/* The CUDA runtime's state, shared by ks-cuda-runtime.c and ks-cuda-memory.c. */
typedef struct {
  int           ordinal;
  GPtrArray    *timer_pool;  /* of KsCudaTimer: events are reused, creating them costs */
  guint         launches;
  guint         fail_after;  /* test hook, as in the OpenCL backend */
  /* Bumped when the device's copy of the programs' launch geometry may
   * differ from what the host last wrote: a capture recorded the writes
   * without running them, a replay ran them. */
  guint         geometry_epoch;
  /* Kernels marked ks_kernel_set_waits_previous start early here
   * (compute capability 9.0 and up, KS_PDL not 0), outside a graph's
   * recording (KS_PDL=graph: inside too). */
  gboolean      early_launch;
  gboolean      early_in_graph;
} KsCudaRuntime;

typedef struct {
  cudaEvent_t    start;
  cudaEvent_t    end;
  KsCudaRuntime *owner;
} KsCudaTimer;

KsCudaRuntime *ks_cuda_rt              (KsRuntime  *rt);
/* ks-cuda-kernel-info.c: the block size, in whole warps, that keeps the
 * most threads of fn resident per SM (what cudaOccupancyMaxPotentialBlockSize
 * computes); and kernel->n_params and ->param_sizes from the driver, FALSE
 * where it cannot say. */
gsize          ks_cuda_occupancy_block_size (cudaKernel_t fn,
                                             int          max_threads,
                                             int          warp);
gboolean       ks_cuda_read_params     (cudaKernel_t  fn,
                                        KsKernel     *kernel);
cudaStream_t   ks_cuda_stream          (KsQueue    *queue);
/* The runtime API's current device is per thread: set before each call. */
gboolean       ks_cuda_use_device      (KsRuntime  *rt,
                                        GError    **error);
/* A start/end event pair from the runtime's pool, and back. */
KsCudaTimer   *ks_cuda_timer_take      (KsCudaRuntime *c,
                                        GError       **error);
void           ks_cuda_timer_give_back (KsCudaTimer   *t);

/* The driver API's cuMemsetD32Async through the runtime's entry point (the
 * program links no libcuda); NULL where the driver lacks it. */
typedef CUresult (*KsCudaMemsetD32Fn) (CUdeviceptr dst, unsigned int value, size_t n, CUstream stream);
KsCudaMemsetD32Fn ks_cuda_memset_d32 (void);

/* ks-cuda-memory.c: the buffer half of the vtable. */
gboolean ks_cuda_alloc       (KsRuntime *rt, KsBuffer *buffer, GError **error);
gboolean ks_cuda_view        (KsBuffer *view, GError **error);
void     ks_cuda_buffer_free (KsBuffer *buffer);
gboolean ks_cuda_write       (KsQueue *queue, KsBuffer *buffer, gsize offset, gsize size,
                              const void *src, gboolean blocking, gpointer *out_event, GError **error);
gboolean ks_cuda_read        (KsQueue *queue, KsBuffer *buffer, gsize offset, gsize size,
                              void *dst, gboolean blocking, gpointer *out_event, GError **error);
gboolean ks_cuda_copy        (KsQueue *queue, KsBuffer *src, gsize src_offset, KsBuffer *dst,
                              gsize dst_offset, gsize size, gpointer *out_event, GError **error);
gboolean ks_cuda_fill        (KsQueue *queue, KsBuffer *buffer, const void *pattern,
                              gsize pattern_size, gsize offset, gsize size, gpointer *out_event,
                              GError **error);
void    *ks_cuda_map         (KsQueue *queue, KsBuffer *buffer, gsize offset, gsize size,
                              KsMapFlags flags, GError **error);
gboolean ks_cuda_unmap       (KsQueue *queue, KsBuffer *buffer, void *mapped, GError **error);

G_END_DECLS
