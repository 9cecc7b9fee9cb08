/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cusparse-cg.h: the conjugate gradients a user would write with the
 * CUDA libraries instead of paper 004's kernels: cuSPARSE's generic SpMV
 * (cusparseSpMV on a CSR matrix, 32-bit indices) and cuBLAS's dot, axpy
 * and scal, as NVIDIA's conjugateGradient sample does, the dot products'
 * results read by the host (cuBLAS's host pointer mode: alpha = rho / p.q
 * is a division no library call does on the device).  Both libraries are
 * opened with dlopen on first use, as cuSOLVER is (ks-cusolver.c); built
 * without the CUDA toolkit, every call is KS_COMPUTE_ERROR_UNSUPPORTED. */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

typedef struct _KsCusparseCg KsCusparseCg;

/* Opens cuSPARSE and cuBLAS on device (a CUDA one), in double (fp64) or
 * float.  KS_COMPUTE_ERROR_UNSUPPORTED naming what is missing. */
KsCusparseCg *ks_cusparse_cg_new        (KsDevice       *device,
                                         gboolean        fp64,
                                         GError        **error);
void          ks_cusparse_cg_free       (KsCusparseCg   *cg);
/* Uploads the n x n CSR matrix (values given in double, converted). */
gboolean      ks_cusparse_cg_set_matrix (KsCusparseCg   *cg,
                                         guint           n,
                                         guint           nnz,
                                         const guint    *row_ptr,
                                         const guint    *col,
                                         const double   *val,
                                         GError        **error);
/* x: the initial guess in, the solution out; until ||r|| <= tol ||b|| or
 * max_iter iterations.  *iterations, *residual (||r|| / ||b||) and
 * *iterate_s (the loop's wall time, after the uploads and r = b - A x0, to
 * the host's last read) are set on return, converged or not; FALSE with
 * error only when a call fails.  The caller says what not converging means. */
gboolean      ks_cusparse_cg_solve      (KsCusparseCg   *cg,
                                         const double   *b,
                                         double         *x,
                                         double          tol,
                                         guint           max_iter,
                                         guint          *iterations,
                                         double         *residual,
                                         double         *iterate_s,
                                         GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCusparseCg, ks_cusparse_cg_free)

G_END_DECLS
