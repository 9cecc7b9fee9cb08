/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cublas.h: cuBLAS gemv with a vector of ones, what a user would reach
 * for instead of paper 003's two-kernel row sums: y = A^T 1 over the
 * row-major v x w values (a column-major w x v matrix to cuBLAS).  Opened
 * with dlopen on first use like cuSOLVER (ks-cusolver.c).  Built only with
 * the CUDA toolkit (KS_HAVE_CUDA). */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

/* Row sums of vals (v x w row-major, in float or double as fp64 says,
 * given in the solve's precision) into sums (v doubles).  The values are
 * uploaded on the first call for a (device, v, w, precision) and kept;
 * device_ms is gemv alone, by CUDA events.  cuBLAS that cannot be opened
 * is KS_COMPUTE_ERROR_UNSUPPORTED naming the library. */
gboolean ks_cublas_row_sums       (KsDevice    *device,
                                   gboolean     fp64,
                                   guint64      v,
                                   guint64      w,
                                   const void  *vals,
                                   double      *sums,
                                   double      *device_ms,
                                   GError     **error);
/* Whether cuBLAS can be opened, without a device. */
gboolean ks_cublas_available      (GError     **error);

G_END_DECLS
