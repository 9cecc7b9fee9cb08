/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-tridiag.h: batched tridiagonal solvers after Pogorelskikh & Loganova:
 * Thomas (прогонка), serial and parallel cyclic reduction (SERICR,
 * PARACR) in the memory layouts the paper compares, on any OpenCL or CUDA
 * device (kernels/tridiag.cl), and the host baselines: sequential Thomas and
 * SERICR (the paper's CPU versions), Thomas over the systems with OpenMP,
 * and LAPACK's gtsv.  Nothing pivots but gtsv (and cuSPARSE's LU). */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"
#include "ks-solver-error.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef enum {
  /* On a device (kernels/tridiag.cl). */
  KS_TRIDIAG_THOMAS_GLOBAL,       /* one item per system, global memory only */
  KS_TRIDIAG_THOMAS_LOCAL,        /* the same, staged portion-wise in local memory */
  KS_TRIDIAG_THOMAS_INTERLEAVED,  /* staged, coefficients interleaved by index */
  KS_TRIDIAG_SERICR_GLOBAL,       /* serial cyclic reduction, one item per system */
  KS_TRIDIAG_SERICR_LOCAL,        /* the same, each level staged portion-wise */
  KS_TRIDIAG_PARACR_GLOBAL,       /* parallel cyclic reduction, one group per system */
  KS_TRIDIAG_PARACR_FULL,         /* every value staged in local memory */
  KS_TRIDIAG_PARACR_PARTIAL,      /* only what is reused staged */
  KS_TRIDIAG_PARACR_INTERLEAVED,  /* partial staging, interleaved by index */
  KS_TRIDIAG_PARACR_STEPS,        /* one launch per step over every row: one large system
                                   * on the whole device (not one of the paper's) */
  /* Not the paper's: what today's GPUs want (kernels/tridiag.cl says why). */
  KS_TRIDIAG_THOMAS_COALESCED,    /* one item per system, interleaved, straight from global
                                   * memory, loads a block ahead: the batch arrives interleaved */
  KS_TRIDIAG_THOMAS_TRANSPOSED,   /* the same from the natural layout: the device transposes
                                   * a, b, c, d in and x out, timed apart (layout_ms) */
  KS_TRIDIAG_PARACR_THOMAS,       /* PARACR several steps a launch in local memory until
                                   * thousands of independent systems, then coalesced Thomas */
  KS_TRIDIAG_THOMAS_SPLIT,        /* a small batch: each system split among a work-group's
                                   * items, Thomas per piece, then the pieces' reduced system
                                   * by PARACR in local memory; one system larger than a
                                   * group, the same partition level by level (issue 30) */
  /* On the host. */
  KS_TRIDIAG_CPU_THOMAS,          /* sequential, the paper's CPU baseline for Thomas */
  KS_TRIDIAG_CPU_SERICR,          /* sequential, the paper's CPU baseline for cyclic reduction */
  KS_TRIDIAG_OMP_THOMAS,          /* OpenMP over the systems: today's multi-core baseline */
  KS_TRIDIAG_LAPACK_GTSV,         /* LAPACKE ?gtsv per system (LU with partial pivoting) */
  /* cuSPARSE, on CUDA devices only (src/baselines/ks-cusparse.h). */
  KS_TRIDIAG_CUSPARSE_STRIDED,    /* gtsv2StridedBatch */
  KS_TRIDIAG_CUSPARSE_THOMAS,     /* gtsvInterleavedBatch, algorithm 0 (Thomas) */
  KS_TRIDIAG_CUSPARSE_LU,         /* gtsvInterleavedBatch, algorithm 1 (LU with pivoting) */
  KS_TRIDIAG_CUSPARSE_NOPIVOT,    /* gtsv2_nopivot, one system */
  KS_TRIDIAG_N_METHODS
} KsTridiagMethod;

#define KS_TRIDIAG_N_DEVICE_METHODS (KS_TRIDIAG_THOMAS_SPLIT + 1)

/* "thomas-global", ... "lapack-gtsv": the CLI's and the files' spelling. */
const char *ks_tridiag_method_to_string   (KsTridiagMethod  method);
gboolean    ks_tridiag_method_from_string (const char      *s,
                                           KsTridiagMethod *out);
gboolean    ks_tridiag_method_is_host     (KsTridiagMethod  method);
gboolean    ks_tridiag_method_is_cusparse (KsTridiagMethod  method);
/* LU with partial pivoting (lapack-gtsv, cusparse-lu): stable on a matrix
 * that is not diagonally dominant, where the others may not be. */
gboolean    ks_tridiag_method_pivots      (KsTridiagMethod  method);
/* SERICR (host and device) needs n = 2^k - 1. */
gboolean    ks_tridiag_method_needs_2k1   (KsTridiagMethod  method);
/* The paper's baseline for the method's speed-up: sequential Thomas on the
 * CPU for Thomas, sequential SERICR for both cyclic reductions; for a
 * host method itself. */
KsTridiagMethod ks_tridiag_method_baseline (KsTridiagMethod method);

/* --- a batch of systems ------------------------------------------------------- */

/* systems systems of n unknowns each, one after another, in double: row i of
 * system s is a[s n + i] x_{i-1} + b[s n + i] x_i + c[s n + i] x_{i+1} =
 * d[s n + i], with a = 0 on each system's first row and c = 0 on its last. */
typedef struct {
  guint   n;
  guint   systems;
  double *a, *b, *c, *d;
} KsTridiagBatch;

/* Checks the host memory first (KS_COMPUTE_ERROR_OUT_OF_MEMORY with the
 * numbers; n and systems > 0 else KS_SOLVER_ERROR_INVALID); zeros. */
KsTridiagBatch *ks_tridiag_batch_new     (guint                  n,
                                          guint                  systems,
                                          GError               **error);
void            ks_tridiag_batch_free    (KsTridiagBatch        *batch);
/* Random diagonally dominant systems (|b| > |a| + |c|, what the pivot-free
 * methods need), the same for the same seed on every machine. */
void            ks_tridiag_batch_fill_random (KsTridiagBatch    *batch,
                                              guint32            seed);
/* max |A x - d| over `sample` systems spread evenly through the batch
 * (all of them when sample is 0 or at least systems), in double. */
double          ks_tridiag_batch_residual (const KsTridiagBatch *batch,
                                           const double         *x,
                                           guint                 sample);
/* FALSE when some row has |b| < |a| + |c|, with the first such system and
 * row (may be NULL): the pivot-free methods may then be unstable. */
gboolean        ks_tridiag_batch_is_dominant (const KsTridiagBatch *batch,
                                              guint                *system,
                                              guint                *row);

/* A batch from Matrix Market files: matrix, a tridiagonal matrix of
 * systems x n rows in coordinate (or array) form, block-diagonal: no entry
 * couples one system to the next; rhs, a dense vector of as many values.
 * An entry outside the band is KS_SOLVER_ERROR_INVALID naming it and its
 * line; so is a coupling between systems, naming the entry; sizes that do
 * not fit (not square, systems not dividing the rows, b of another length)
 * are NOT_SQUARE / SIZE_MISMATCH with the sizes; the files' own errors are
 * KS_MTX_ERROR's. */
KsTridiagBatch *ks_tridiag_batch_load   (const char           *matrix,
                                         const char           *rhs,
                                         guint                 systems,
                                         GError              **error);

/* The smallest 2^k - 1 >= n: the size cyclic reduction pads to. */
guint           ks_tridiag_padded_size   (guint n);

/* --- on the host ----------------------------------------------------------------- */

/* Solves on the host in precision (the batch converted first, outside the
 * clock); wall_ms (may be NULL) is the solve alone.  A zero pivot is
 * KS_SOLVER_ERROR_ZERO_PIVOT naming the system and row; SERICR with n not
 * 2^k - 1 is padded when pad is TRUE, else KS_SOLVER_ERROR_INVALID saying
 * the size it needs.  x: n * systems values. */
gboolean ks_tridiag_host_solve (const KsTridiagBatch *batch,
                                KsTridiagMethod       method,
                                KsPrecision           precision,
                                gboolean              pad,
                                double               *x,
                                double               *wall_ms,
                                GError              **error);

/* --- cuSPARSE ------------------------------------------------------------------- */

/* Solves batch with a cuSPARSE method on a CUDA device (converted,
 * laid out and uploaded outside the clock); device_ms is the library call
 * by CUDA events.  Another device, or a build or machine without cuSPARSE,
 * is KS_COMPUTE_ERROR_UNSUPPORTED saying why. */
gboolean ks_tridiag_cusparse_solve (KsDevice             *device,
                                    const KsTridiagBatch *batch,
                                    KsTridiagMethod       method,
                                    KsPrecision           precision,
                                    double               *x,
                                    double               *device_ms,
                                    GError              **error);

/* --- on a device ------------------------------------------------------------------ */

typedef struct _KsTridiagSolver KsTridiagSolver;

typedef struct {
  double kernel_ms;    /* the launches' device time (events), every kernel of the solve */
  double layout_ms;    /* of which the device's own layout changes (thomas-transposed's
                        * transposes); 0 for the other methods */
  double wall_ms;      /* launch to finish on the host clock */
  guint  n;            /* the size the device solved: n, or n padded to 2^k - 1 */
  guint  local_size;   /* the work-group size it ran with */
} KsTridiagResult;

/* Builds kernels/tridiag.cl for device and precision.  Double on a device
 * without fp64 and the host device are KS_COMPUTE_ERROR_UNSUPPORTED. */
KsTridiagSolver *ks_tridiag_solver_new  (KsDevice         *device,
                                         KsPrecision       precision,
                                         GError          **error);
void             ks_tridiag_solver_free (KsTridiagSolver  *solver);

/* The device memory a method needs for the batch (inputs, work sets,
 * solution, status), in bytes; n padded where it must be. */
guint64          ks_tridiag_device_bytes (KsTridiagMethod  method,
                                          KsPrecision      precision,
                                          guint            n,
                                          guint            systems,
                                          gboolean         pad);

/* Uploads batch for method (in its layout, padded for SERICR when pad,
 * else refused), allocating what the method needs; refused before any
 * allocation (KS_COMPUTE_ERROR_OUT_OF_MEMORY, with the numbers) when it
 * does not fit the device.  Conversion and transfer are not timed. */
gboolean ks_tridiag_solver_load  (KsTridiagSolver      *solver,
                                  const KsTridiagBatch *batch,
                                  KsTridiagMethod       method,
                                  gboolean              pad,
                                  GError              **error);
/* One solve of what was loaded; then checks the status the kernels
 * report: a zero pivot is KS_SOLVER_ERROR_ZERO_PIVOT naming the first
 * system and the row. */
gboolean ks_tridiag_solver_run   (KsTridiagSolver      *solver,
                                  KsTridiagResult      *result,
                                  GError              **error);
/* paracr-thomas's shape: local-memory tiles of tile_rows rows (at least
 * 48; 0: as many as 40 KiB holds), and PARACR steps until each independent
 * system has about sub_rows rows (at least 1; 0: 512) or there are 32768
 * of them.  For tuning on a device, and for tests to cross every launch
 * shape at small sizes.  Takes effect at the next run. */
void     ks_tridiag_solver_set_hybrid (KsTridiagSolver *solver,
                                       guint            tile_rows,
                                       guint            sub_rows);
/* thomas-split's pieces: at most rows rows each, 8 or 16 (0: the smallest
 * the kernel's work-group allows, the default).  For tests to run both
 * builds at small sizes on any device.  Takes effect at the next run. */
void     ks_tridiag_solver_set_split  (KsTridiagSolver *solver,
                                       guint            rows);
/* thomas-split streamed (1: a group solves several systems, staging the
 * next while it solves one), not (0), or as the device suits (-1, the
 * default: streamed on CUDA); groups forces the grid's groups (0: chosen).
 * For tests to run every build and the loop over systems on any device.
 * Takes effect at the next run. */
void     ks_tridiag_solver_set_split_stream (KsTridiagSolver *solver,
                                             int              stream,
                                             guint            groups);
/* Frees what load() put on the device; the next load allocates again. */
void     ks_tridiag_solver_release (KsTridiagSolver    *solver);
/* The last solution, n * systems values, systems one after another. */
gboolean ks_tridiag_solver_read  (KsTridiagSolver      *solver,
                                  double               *x,
                                  GError              **error);

/* --- one solve, any method ------------------------------------------------------- */

/* A batch is small, for thomas-split, below this many systems per compute
 * unit (ks-tridiag.c says where the figure comes from). */
#define KS_TRIDIAG_SMALL_BATCH_PER_CU 224

/* What a user's batch is solved with when no method is named: OpenMP
 * Thomas on the host device; thomas-split for a small batch (fewer systems
 * than KS_TRIDIAG_SMALL_BATCH_PER_CU x compute units) of systems a
 * work-group holds, and for one system of any size (partitioned); else
 * thomas-coalesced for many systems, paracr-thomas for one a device's
 * groups are too small to partition. */
KsTridiagMethod ks_tridiag_default_method (KsDevice      *device,
                                           KsPrecision    precision,
                                           guint          n,
                                           guint          systems);
/* batch solved once by method (host, cuSPARSE or a kernel on device, a
 * solver built for it); ms: the host clock, or device time without the
 * uploads.  The errors of the functions above. */
gboolean        ks_tridiag_solve          (KsDevice             *device,
                                           const KsTridiagBatch *batch,
                                           KsTridiagMethod       method,
                                           KsPrecision           precision,
                                           gboolean              pad,
                                           double               *x,
                                           double               *ms,
                                           GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsTridiagBatch, ks_tridiag_batch_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsTridiagSolver, ks_tridiag_solver_free)

G_END_DECLS
