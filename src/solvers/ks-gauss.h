/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gauss.h: the Gauss method of Baranov & Vlatskaya (2013): elimination
 * without pivoting in four kernels (kernels/gauss.cl), with the paper's two
 * global-range policies and three local-size policies, on any device of the
 * compute layer; on the host device, the same method in plain C + OpenMP. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"
#include "ks-linear-system.h"
#include "ks-solver-error.h"
#include "ks-types.h"   /* KsPrecision, KsLocalPolicy, KsLaunchMode: moved down to compute */

G_BEGIN_DECLS

/* The Gauss method's errors are the solvers' (ks-solver-error.h); the old
 * names stay for the callers above. */
#define KS_GAUSS_ERROR                KS_SOLVER_ERROR
#define ks_gauss_error_quark          ks_solver_error_quark
#define KS_GAUSS_ERROR_SINGULAR       KS_SOLVER_ERROR_SINGULAR
#define KS_GAUSS_ERROR_NOT_SQUARE     KS_SOLVER_ERROR_NOT_SQUARE
#define KS_GAUSS_ERROR_SIZE_MISMATCH  KS_SOLVER_ERROR_SIZE_MISMATCH
#define KS_GAUSS_ERROR_INVALID        KS_SOLVER_ERROR_INVALID
typedef KsSolverError KsGaussError;

typedef enum {
  KS_RANGE_FIXED,      /* the whole matrix at every step; items outside exit (the paper's runs) */
  KS_RANGE_SHRINKING,  /* the range shrinks with k */
} KsRangePolicy;

typedef enum {
  KS_GAUSS_FWD_PRE,
  KS_GAUSS_FWD,
  KS_GAUSS_BWD_PREPARE,
  KS_GAUSS_BWD,
  KS_GAUSS_N_KERNELS
} KsGaussKernel;

const char *ks_range_policy_to_string (KsRangePolicy  range);
const char *ks_gauss_kernel_name      (KsGaussKernel  kernel);
gboolean    ks_range_policy_from_string (const char *s, KsRangePolicy *out);

typedef struct {
  KsRangePolicy range;
  KsLocalPolicy local;
  guint         wg;    /* group size for EXPLICIT and SPLIT */
  KsLaunchMode  launch;  /* last, so { range, local, wg } initialisers mean STREAM */
} KsGaussParams;

typedef struct {
  guint   n;
  /* Upload + every launch (or the replay) + download, host clock.  Buffers
   * are kept across solves, so no allocation is in it, and under GRAPH no
   * capture either: that is capture_ms.  Includes what the timing events
   * cost (one pair per launch in a stream) unless the solver is untimed
   * (ks_gauss_solver_set_timing). */
  double  wall_ms;
  /* Device time summed over launches (events).  Under GRAPH
   * kernels_total_ms is the replay's launch-to-completion time (events
   * around the graph launch), and kernel_ms stays 0 (unknown) unless the
   * graph was recorded with an event pair around each launch
   * (ks_gauss_solver_set_graph_kernel_timing): then kernel_ms holds each
   * kernel's time from those, with no host gap between the launches, and
   * the replay itself is slower by the event nodes.  All 0 on an untimed
   * solver. */
  double  kernel_ms[KS_GAUSS_N_KERNELS];
  double  kernels_total_ms;
  guint   launches;                       /* under GRAPH: the launches recorded in the graph */
  KsLaunchMode launch;
  /* GRAPH only: TRUE when this solve replayed a graph recorded by an
   * earlier one; FALSE when it recorded the graph itself, which took
   * capture_ms (capture + instantiate + upload to the device, once) before
   * the replay that wall_ms times. */
  gboolean graph_replay;
  double  capture_ms;
  double  residual;                       /* ||Ax - b|| / ||b||, on the host in double */
  /* The work-group the update kernel gauss_fwd ran with at step 0, as
   * reported from inside the kernel (get_local_size / get_num_groups);
   * 0 on the host backend. */
  guint   fwd_local[2];
  guint   fwd_groups[2];
  guint   pre_local;
  guint   bwd_local;
} KsGaussResult;

typedef struct _KsGaussSolver KsGaussSolver;

/* The largest n the CUDA backend solves: the update kernel's rows go along
 * the grid's y dimension, one per block, and CUDA allows 65535 blocks there. */
#define KS_GAUSS_CUDA_MAX_N 65535u

/* Builds the program for device and precision once; solves reuse it, and
 * its device buffers too (re-allocated only when a larger n comes), and
 * under GRAPH the last recorded graph.  Double precision on a device
 * without fp64 is KS_COMPUTE_ERROR_UNSUPPORTED. */
KsGaussSolver *ks_gauss_solver_new       (KsDevice       *device,
                                          KsPrecision     precision,
                                          GError        **error);
void           ks_gauss_solver_free      (KsGaussSolver  *solver);
KsPrecision    ks_gauss_solver_get_precision (KsGaussSolver *solver);
/* CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE and CL_KERNEL_WORK_GROUP_SIZE
 * of gauss_fwd; 0 on the host. */
gsize          ks_gauss_solver_get_preferred_multiple (KsGaussSolver *solver);
gsize          ks_gauss_solver_get_max_work_group_size (KsGaussSolver *solver);

/* FALSE: solves record no device events, so wall_ms holds only what the
 * launches themselves cost (a CUDA event pair per launch is ~1-2 us of it);
 * kernel_ms and kernels_total_ms are then 0 (unknown).  TRUE by default. */
void           ks_gauss_solver_set_timing (KsGaussSolver *solver,
                                           gboolean       timing);
/* TRUE: graphs are recorded with an event pair around each launch, so a
 * timed replay gives kernel_ms too (see KsGaussResult); a graph recorded
 * the other way is recorded again.  FALSE by default: the event nodes
 * slow the replay, whose own time is the figure graph mode is for. */
void           ks_gauss_solver_set_graph_kernel_timing (KsGaussSolver *solver,
                                                        gboolean       timing);
/* Frees the device buffers kept across solves (and the recorded graph,
 * which holds their addresses); the next solve allocates them again.  For
 * callers that run several solvers on one device one after the other. */
void           ks_gauss_solver_release_buffers (KsGaussSolver *solver);

/* Whether a system of size n fits this device and params are allowed (GRAPH
 * only on CUDA: KS_COMPUTE_ERROR_UNSUPPORTED elsewhere; n above
 * KS_GAUSS_CUDA_MAX_N on CUDA: KS_COMPUTE_ERROR_UNSUPPORTED), and whether
 * the host has the memory for it (KS_COMPUTE_ERROR_OUT_OF_MEMORY with the
 * numbers): the system in double, its copy in the solve's precision, the
 * solution, and on a CPU OpenCL device (PoCL) the device buffers, against
 * ks_host_memory_available().  The same checks solve() makes (which counts
 * all but the system, already built), for callers who want them before
 * they build a large system. */
gboolean       ks_gauss_solver_check     (KsGaussSolver        *solver,
                                          guint                 n,
                                          const KsGaussParams  *params,
                                          GError              **error);

/* GRAPH on a device that is not CUDA, BLOCKED on the host:
 * KS_COMPUTE_ERROR_UNSUPPORTED, saying why.  For callers (a sweep) that want to refuse before building anything. */
gboolean       ks_gauss_check_launch     (KsDevice             *device,
                                          KsLaunchMode          launch,
                                          GError              **error);

/* Solves sys; x (n values, may be NULL) receives the solution.  Checks that
 * the problem fits in device memory, that the group size is allowed, and
 * the pivots; cancellable is polled between steps. */
gboolean       ks_gauss_solver_solve     (KsGaussSolver        *solver,
                                          const KsLinearSystem *sys,
                                          const KsGaussParams  *params,
                                          GCancellable         *cancellable,
                                          double               *x,
                                          KsGaussResult        *result,
                                          GError              **error);

/* The host reference (plain C + OpenMP, the same method in double or float). */
gboolean       ks_gauss_host_solve       (const KsLinearSystem *sys,
                                          KsPrecision           precision,
                                          GCancellable         *cancellable,
                                          double               *x,
                                          KsGaussResult        *result,
                                          GError              **error);

/* The threshold below which |pivot| counts as zero: machine epsilon of the
 * precision times the largest |a_ij|. */
double         ks_gauss_tiny_pivot       (KsPrecision precision,
                                          double      max_abs);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGaussSolver, ks_gauss_solver_free)

G_END_DECLS
