/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-solver-error.h: what goes wrong with the mathematics rather than with
 * the device, whichever solver or library baseline met it: a singular
 * matrix is the same news from the Gauss kernels, cuSOLVER or LAPACK.  It
 * lives in compute, the lowest layer, so that baselines and solvers (which
 * may not include each other's headers) share one domain. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_SOLVER_ERROR (ks_solver_error_quark ())
GQuark ks_solver_error_quark (void);

typedef enum {
  KS_SOLVER_ERROR_SINGULAR,        /* a zero or tiny pivot / exactly singular factor */
  KS_SOLVER_ERROR_NOT_SQUARE,
  KS_SOLVER_ERROR_SIZE_MISMATCH,   /* b does not match A */
  KS_SOLVER_ERROR_INVALID,         /* parameters that make no sense (n = 0, wg = 0 with EXPLICIT) */
  KS_SOLVER_ERROR_ZERO_PIVOT,      /* a method without pivoting met a zero pivot (tridiagonal sweeps) */
  KS_SOLVER_ERROR_NOT_CONVERGED,   /* an iterative method ran out of iterations (CG) */
  KS_SOLVER_ERROR_BREAKDOWN,       /* an iterative method divided by zero (p^T A p = 0) */
  KS_SOLVER_ERROR_OVERFLOW,        /* a value beyond the range of the solve's precision */
  KS_SOLVER_ERROR_UNDERFLOW,       /* a non-zero value that becomes 0 in the solve's precision */
  KS_SOLVER_ERROR_NOT_FINITE,      /* NaN or infinity in the input */
} KsSolverError;

G_END_DECLS
