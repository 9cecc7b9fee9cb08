/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-linear-system.h: a dense system A x = b kept on the host in double, so
 * every solver's answer can be checked against the same numbers. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint   n;
  double *a;   /* n x n, row-major */
  double *b;   /* n */
} KsLinearSystem;

/* A strictly diagonally dominant system (no pivoting needed) from a seed:
 * the same (n, seed) gives the same system on every machine. */
KsLinearSystem *ks_linear_system_new_random   (guint        n,
                                               guint32      seed,
                                               GError     **error);
/* A from a square Matrix Market file, b from another (n x 1 or 1 x n).
 * max_n guards memory (0 = none). */
KsLinearSystem *ks_linear_system_new_from_mtx (const char  *matrix_path,
                                               const char  *rhs_path,
                                               guint        max_n,
                                               GError     **error);
/* The augmented matrix [A | b], n rows of n + 1, row-major, in float or
 * double: what both the kernels and the host reference work on, refused
 * (naming the entry) when one is NaN or infinite (KS_SOLVER_ERROR_NOT_FINITE)
 * or, in float, beyond FLT_MAX (KS_SOLVER_ERROR_OVERFLOW) or non-zero but
 * held as 0 (KS_SOLVER_ERROR_UNDERFLOW).  Free
 * with g_free. */
gpointer        ks_linear_system_to_augmented (const KsLinearSystem *sys,
                                               gboolean              as_double,
                                               GError              **error);
/* KS_SOLVER_ERROR_OVERFLOW naming the first x(i) that is not finite: an
 * elimination that overflowed although its input fitted the precision. */
gboolean        ks_linear_system_check_solution (const double *x,
                                                 guint         n,
                                                 gboolean      as_double,
                                                 GError      **error);
void            ks_linear_system_free         (KsLinearSystem *sys);
/* ||A x - b||_2 / ||b||_2, accumulated in double. */
double          ks_linear_system_residual     (const KsLinearSystem *sys,
                                               const double         *x);
/* max |a_ij|: the scale a "tiny pivot" is measured against. */
double          ks_linear_system_max_abs      (const KsLinearSystem *sys);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsLinearSystem, ks_linear_system_free)

G_END_DECLS
