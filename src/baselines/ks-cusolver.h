/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cusolver.h: cuSOLVER's dense LU, what a user would reach for instead
 * of the paper's kernels.  A baseline, not compute: solvers and bench use
 * it, and it uses only compute (the CUDA device and its errors).  Built
 * only with the CUDA toolkit (KS_HAVE_CUDA). */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

/* Dense LU solve with cuSOLVER (getrf + getrs), the library baseline of
 * "bench gauss".  a is n x n row-major, b has n values, both in double;
 * the solve runs in float or double.  device_ms is the time of getrf +
 * getrs by CUDA events; wall_ms adds the uploads and the download (not the
 * conversion into the solve's precision, which comes before it).  The
 * device buffers and workspace are kept for the next solve of the same n,
 * precision and device, so wall_ms holds no allocation, as the kernel
 * solvers' does not; ks_cusolver_dense_release() frees them.  A singular matrix
 * (getrf's info > 0) is KS_SOLVER_ERROR_SINGULAR.  cuSOLVER is opened on
 * first use; when it cannot be, the error is KS_COMPUTE_ERROR_UNSUPPORTED
 * and says which library is missing. */
gboolean    ks_cusolver_dense_solve      (KsDevice     *device,
                                      gboolean      fp64,
                                      guint         n,
                                      const double *a,
                                      const double *b,
                                      double       *x,
                                      double       *device_ms,
                                      double       *wall_ms,
                                      GError      **error);
/* Whether cuSOLVER can be opened (KS_COMPUTE_ERROR_UNSUPPORTED naming the
 * missing library if not), without a device or a solve: so a benchmark can
 * list it as skipped up front. */
gboolean    ks_cusolver_dense_available  (GError      **error);
/* Frees what ks_cusolver_dense_solve() keeps on the device (the handle stays). */
void        ks_cusolver_dense_release    (void);

G_END_DECLS
