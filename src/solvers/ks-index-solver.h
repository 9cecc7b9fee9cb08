/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-solver.h: paper 003 on a device: an index domain filled one
 * thread per point as the paper maps it (or by a grid-stride loop), and the
 * worked example, V[i][j] = j + (i - 1) w summed over each row of a v x w
 * domain by two kernels (kernels/index.cl).  Every answer is checked: the
 * fill against g + 1 at every point, the sums against the closed form
 * w (w + 1) / 2 + i w^2 (0-based i).  The host backend runs the same
 * reduction as plain C on one core or with OpenMP. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"
#include "ks-index-map.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef struct _KsIndexSolver KsIndexSolver;

typedef enum {
  KS_INDEX_FILL_MAPPED,   /* one thread per point, launched as the paper's rules say */
  KS_INDEX_FILL_STRIDE,   /* a grid-stride loop over the flat index, a device-filling grid */
  KS_INDEX_FILL_TODAY,    /* one thread per point, the paper's layout under today's limits
                           * (KS_INDEX_RULE_TODAY: gridDim.x up to 2^31 - 1, warp rounding) */
  KS_INDEX_FILL_OCCUPANCY,/* one thread per point of the flat index, in blocks of the
                           * occupancy suggestion (KS_INDEX_RULE_OCCUPANCY) */
  KS_INDEX_FILL_N
} KsIndexFill;

typedef struct {
  double  kernel_ms;      /* device time of the launch */
  guint   grid_dims;
  guint64 grid[3];
  guint64 block;
  guint64 threads;        /* launched */
  guint64 idle;           /* launched threads with no point (mapped); 0 for the stride loop */
  double  max_error;      /* max |V - (g + 1)| over the domain: 0 when right */
} KsIndexFillResult;

/* How the tuned kernel 1 sums a segment's 32 items (kernels/index.cl). */
typedef enum {
  KS_INDEX_TREE_NONE,      /* not the tuned kernels */
  KS_INDEX_TREE_LOCAL,     /* a segmented tree in local memory, with barriers */
  KS_INDEX_TREE_SUBGROUP,  /* sub_group_reduce_add (cl_khr_subgroups) */
  KS_INDEX_TREE_SHUFFLE,   /* warp shuffles (__shfl_down_sync, CUDA) */
} KsIndexTree;

typedef struct {
  double  kernel1_ms;     /* the partial sums (the paper's SummaK1) */
  double  kernel2_ms;     /* finishing them (SummaK1Red) */
  double  total_ms;       /* device time from before kernel 1 to after kernel 2 (one
                           * span, gap included); on the host the loops' wall time */
  guint   threads1;       /* kernel 1's group: a power of two up to 1024 */
  guint   threads2;       /* kernel 2's: the next power of two of blocks_per_row */
  guint64 blocks_per_row; /* ceil(w / threads1): partial sums per row */
  double  max_rel_error;  /* against the closed form, over every row */
  KsIndexTree tree;       /* the tuned kernels' segment sum; NONE for the others */
} KsIndexReduceResult;

/* Builds the kernels on device (OpenCL or CUDA); the host device has no
 * runtime: use ks_index_host_reduce.  Double needs fp64. */
KsIndexSolver *ks_index_solver_new     (KsDevice          *device,
                                        KsPrecision        precision,
                                        GError           **error);
void           ks_index_solver_free    (KsIndexSolver     *self);
KsPrecision    ks_index_solver_get_precision (KsIndexSolver *self);
/* The fill kernel's suggested block on this device (ks_index_suggest_for_kernel:
 * CUDA's occupancy calculation, or on OpenCL the kernel's largest work-group
 * in preferred multiples) and, translated, how it was found. */
guint64        ks_index_solver_get_occupancy_block  (KsIndexSolver *self);
const char    *ks_index_solver_get_occupancy_source (KsIndexSolver *self);

/* Fills the domain once and checks it.  MAPPED, TODAY and OCCUPANCY
 * launch the calculator's mapping of that rule (ks_index_map: the same
 * grid and block "kernelscope-cli map" prints, OCCUPANCY with
 * ks_index_solver_get_occupancy_block): a domain the rule gives no launch
 * for, or one whose threads lie along N1 (no kernel layout here), is
 * KS_COMPUTE_ERROR_WORK_GROUP_SIZE saying why (an experiment refuses that
 * point and goes on).  STRIDE launches blocks of the kernel's suggested
 * size, at most 32 per compute unit.  A domain past the device's memory
 * is KS_INDEX_MAP_ERROR_MEMORY. */
gboolean       ks_index_solver_fill    (KsIndexSolver       *self,
                                        const KsIndexDomain *domain,
                                        KsIndexFill          fill,
                                        KsIndexFillResult   *out,
                                        GError             **error);
/* The worked example on a v x w domain: both kernels once, checked. */
gboolean       ks_index_solver_reduce  (KsIndexSolver       *self,
                                        guint64              v,
                                        guint64              w,
                                        KsIndexReduceResult *out,
                                        GError             **error);

/* The same on the host: V filled and each row summed in plain C, threads
 * 1 (one core, the paper's sequential column) or 0 (OpenMP, every core);
 * timed by the host clock, checked alike.  Refused past the host's memory. */
gboolean       ks_index_host_reduce    (guint64              v,
                                        guint64              w,
                                        KsPrecision          precision,
                                        guint                threads,
                                        KsIndexReduceResult *out,
                                        GError             **error);

/* The same row sums by cuBLAS gemv with a ones vector (the library
 * baseline, CUDA devices only): out->total_ms is gemv's device time; the
 * values are made on the host and uploaded once per shape.  Without the
 * CUDA toolkit, or where cuBLAS cannot be opened,
 * KS_COMPUTE_ERROR_UNSUPPORTED saying so. */
gboolean       ks_index_gemv_reduce    (KsDevice            *device,
                                        KsPrecision          precision,
                                        guint64              v,
                                        guint64              w,
                                        KsIndexReduceResult *out,
                                        GError             **error);

/* The same row sums by CUB's block reduction (kernels/index-cub.cu, built
 * by NVRTC with the toolkit's CUB headers), one block of 256 threads per
 * row as cub::DeviceSegmentedReduce runs a segment: the values are filled
 * by the stride kernel first, untimed; total_ms is the CUB kernel's device
 * time.  CUDA devices only, else KS_COMPUTE_ERROR_UNSUPPORTED. */
gboolean       ks_index_solver_reduce_cub (KsIndexSolver       *self,
                                           guint64              v,
                                           guint64              w,
                                           KsIndexReduceResult *out,
                                           GError             **error);

/* The same row sums by the tuned two kernels (kernels/index.cl,
 * index_sum_tuned): the values filled first, untimed, and only read, as CUB
 * reads them; kernel 1 leaves blocks_per_row partial sums per row, chosen
 * so that v x blocks_per_row segments of 32 items fill the device's compute
 * units; kernel 2 adds them, one item per row.  local_tree: the local-memory
 * tree even where sub-groups or warp shuffles are there (what a device
 * without them runs; the tests run both).  OpenCL and CUDA. */
gboolean       ks_index_solver_reduce_tuned (KsIndexSolver       *self,
                                             guint64              v,
                                             guint64              w,
                                             gboolean             local_tree,
                                             KsIndexReduceResult *out,
                                             GError             **error);

/* sum_{j=1..w} (j + i w) for the 0-based row i, in double. */
double         ks_index_row_sum        (guint64              i,
                                        guint64              w);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsIndexSolver, ks_index_solver_free)

G_END_DECLS
