/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cusparse.h: cuSPARSE's tridiagonal solvers, what a user would reach
 * for instead of paper 002's kernels.  Opened with dlopen on first use,
 * like cuSOLVER (ks-cusolver.c); built only with the CUDA toolkit
 * (KS_HAVE_CUDA): without it every call is KS_COMPUTE_ERROR_UNSUPPORTED. */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

typedef enum {
  KS_CUSPARSE_GTSV2_STRIDED,        /* gtsv2StridedBatch: systems one after another */
  KS_CUSPARSE_INTERLEAVED_THOMAS,   /* gtsvInterleavedBatch, algorithm 0 (Thomas) */
  KS_CUSPARSE_INTERLEAVED_LU,       /* gtsvInterleavedBatch, algorithm 1 (LU with pivoting) */
  KS_CUSPARSE_GTSV2_NOPIVOT,        /* gtsv2_nopivot: one system (systems must be 1) */
} KsCusparseTridiag;

/* Whether cuSPARSE can be opened; KS_COMPUTE_ERROR_UNSUPPORTED naming the
 * missing library (or the missing toolkit at build time) if not. */
gboolean ks_cusparse_available     (GError            **error);

/* Solves `systems` tridiagonal systems of n unknowns laid out as
 * KsTridiagBatch (a[0] = 0 and c[n - 1] = 0 in each system) with the
 * algorithm, in float or double.  The conversion, the layout (interleaved
 * for the interleaved algorithm) and the upload come before the clock:
 * device_ms is the library call alone, by CUDA events, as the kernels'
 * times are.  Device buffers are kept for the next call of the same shape
 * (ks_cusparse_release frees them).  x: n * systems values. */
gboolean ks_cusparse_tridiag_solve (KsDevice           *device,
                                    KsCusparseTridiag   algorithm,
                                    gboolean            fp64,
                                    guint               n,
                                    guint               systems,
                                    const double       *a,
                                    const double       *b,
                                    const double       *c,
                                    const double       *d,
                                    double             *x,
                                    double             *device_ms,
                                    GError            **error);
void     ks_cusparse_release       (void);

G_END_DECLS
