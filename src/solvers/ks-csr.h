/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-csr.h: a sparse matrix in compressed sparse rows, as paper 004 stores
 * its heat matrix: 32-bit row offsets and column indices (what the device
 * kernels read), double values, the columns of each row sorted.  Plain data;
 * the host operations use OpenMP. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint   n_rows;
  guint   n_cols;
  guint   nnz;
  guint  *row_ptr;   /* n_rows + 1 */
  guint  *col;       /* nnz, sorted within each row */
  double *val;       /* nnz */
} KsCsr;

/* A matrix with the given pattern and zero values; takes row_ptr and col over. */
KsCsr   *ks_csr_new_take     (guint         n_rows,
                              guint         n_cols,
                              guint        *row_ptr,
                              guint        *col);
KsCsr   *ks_csr_copy         (const KsCsr  *a);
/* The 9-point graph Laplacian of an nx x ny grid (each point coupled by -1
 * to its up to 8 neighbours, the diagonal their count) plus shift on the
 * diagonal: symmetric positive definite for shift > 0, with 9 entries in
 * an inner row, as paper 004's heat matrix on a quadrilateral mesh (the
 * CG benchmark's matrix, made in a moment at 16.8 M rows).  NULL when
 * nx * ny * 9 does not fit 32-bit indices. */
KsCsr   *ks_csr_new_grid9    (guint         nx,
                              guint         ny,
                              double        shift);
void     ks_csr_free         (KsCsr        *a);
/* The index of (row, col) in col/val, or -1 where the pattern has no such entry. */
gssize   ks_csr_find         (const KsCsr  *a,
                              guint         row,
                              guint         col);
/* y = A x (OpenMP over rows). */
void     ks_csr_spmv         (const KsCsr  *a,
                              const double *x,
                              double       *y);
/* TRUE if the pattern is symmetric and |a_ij - a_ji| <= rel_tol times the
 * largest of |a_ij|, |a_ji| and sqrt |a_ii a_jj| for every entry; else FALSE
 * with the first offending (row, col). */
gboolean ks_csr_is_symmetric (const KsCsr  *a,
                              double        rel_tol,
                              guint        *out_row,
                              guint        *out_col);
/* Mean entries per row (paper 004's L). */
double   ks_csr_mean_row     (const KsCsr  *a);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsCsr, ks_csr_free)

G_END_DECLS
