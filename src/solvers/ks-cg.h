/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cg.h: conjugate gradients for a symmetric positive definite CSR
 * matrix, as paper 004 prints it (section 3):
 *
 *   r = b - A x0; p = r; rho = r.r
 *   loop: q = A p; alpha = rho / p.q; x += alpha p; r -= alpha q;
 *         rho' = r.r; p = (rho' / rho) p + r        until ||r|| <= tol ||b||
 *
 * on the host (plain C + OpenMP, double: the reference) and on any device
 * through the compute seam (kernels/heat-cg.cl, OpenCL C shared with CUDA,
 * float or double).  On a device two variants: BASE, one kernel per line
 * above, and FUSED, the paper's "modified" version (q = A p with p.q in one
 * pass, the r update with r.r, the x and p updates together: 20L + 84 bytes
 * per row instead of 20L + 108).  Dot products are two-stage reductions
 * (partial sums per group, then one group), and the scalars (rho, alpha,
 * beta) never leave the device: the host reads a small state word every few
 * iterations to see whether it has converged.
 *
 * For paper 004's hybrid and MPI runs (issue 16), the vector kernels work
 * on a range of rows (row0, rows) and the SpMV may read columns past its
 * rows (the virtual cells), so a part's vectors are slices of one buffer.
 *
 * A solve that does not reach the tolerance is KS_SOLVER_ERROR_NOT_CONVERGED
 * with its iteration count and residual history in the message; p.q <= 0
 * (a matrix that is not positive definite) is KS_SOLVER_ERROR_BREAKDOWN. */
#pragma once

#include <glib.h>

#include "ks-csr.h"
#include "ks-device.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef enum {
  KS_CG_BASE,    /* one kernel per operation, as printed */
  KS_CG_FUSED,   /* the paper's modified CG: three passes per iteration */
} KsCgVariant;

const char *ks_cg_variant_to_string   (KsCgVariant  variant);
gboolean    ks_cg_variant_from_string (const char  *s,
                                       KsCgVariant *out);

typedef struct {
  double tol;        /* relative residual: ||r|| <= tol ||b|| */
  guint  max_iter;
} KsCgOptions;

typedef struct {
  guint  iterations;
  double residual;   /* ||r|| / ||b|| at the end (the recurrence's r) */
  /* Bytes the iterations moved by paper 004's Table 1 (20L + 108 per row
   * for BASE and the host, 20L + 84 for FUSED; for float, the values' 8
   * bytes count 4) times the iterations. */
  double bytes;
  /* Wall seconds of the iterations alone: on a device from the moment the
   * uploads and r = b - A x0 are done to the state read that saw it
   * converge (no transfer of the vectors inside); on the host the loop. */
  double iterate_s;
} KsCgResult;

/* Bytes per row and iteration by the paper's Table 1, for L entries per row. */
double      ks_cg_bytes_per_row       (KsCgVariant  variant,
                                       KsPrecision  precision,
                                       double       entries_per_row);

/* x: the initial guess on entry, the solution on return. */
gboolean    ks_cg_solve_host          (const KsCsr       *a,
                                       const double      *b,
                                       double            *x,
                                       const KsCgOptions *options,
                                       KsCgResult        *out,
                                       GError           **error);

typedef struct _KsCgDevice KsCgDevice;

/* Builds the kernels on device (OpenCL or CUDA; the host backend has its
 * own solver above, and is KS_COMPUTE_ERROR_UNSUPPORTED here). */
KsCgDevice *ks_cg_device_new          (KsDevice     *device,
                                       KsPrecision   precision,
                                       KsCgVariant   variant,
                                       GError      **error);
void        ks_cg_device_free         (KsCgDevice   *cg);
/* Uploads a (the pattern only when it differs from the last one's). */
gboolean    ks_cg_device_set_matrix   (KsCgDevice   *cg,
                                       const KsCsr  *a,
                                       GError      **error);
gboolean    ks_cg_device_solve        (KsCgDevice        *cg,
                                       const double      *b,
                                       double            *x,
                                       const KsCgOptions *options,
                                       KsCgResult        *out,
                                       GError           **error);
/* CUDA: replay the iterations from a CUDA graph, 8 at a time (between two
 * reads of the state), instead of launching each kernel from the host;
 * FALSE by default.  Elsewhere KS_COMPUTE_ERROR_UNSUPPORTED. */
gboolean    ks_cg_device_set_graph    (KsCgDevice   *cg,
                                       gboolean      graph,
                                       GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCgDevice, ks_cg_device_free)

G_END_DECLS
