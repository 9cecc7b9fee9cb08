/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-csr.c: the CSR matrix of ks-csr.h. */
#define G_LOG_DOMAIN "ks-csr"

#include "ks-csr.h"

#include <math.h>
#include <string.h>

KsCsr *
ks_csr_new_take (guint n_rows, guint n_cols, guint *row_ptr, guint *col)
{
  KsCsr *a;

  g_return_val_if_fail (row_ptr != NULL, NULL);
  g_return_val_if_fail (col != NULL || row_ptr[n_rows] == 0, NULL);
  a = g_new0 (KsCsr, 1);
  a->n_rows = n_rows;
  a->n_cols = n_cols;
  a->row_ptr = row_ptr;
  a->col = col;
  a->nnz = row_ptr[n_rows];
  a->val = g_new0 (double, MAX (a->nnz, 1));
  return a;
}

KsCsr *
ks_csr_new_grid9 (guint nx, guint ny, double shift)
{
  const guint64 n = (guint64) nx * ny;
  guint *row_ptr, *col;
  KsCsr *a;
  guint k = 0;

  g_return_val_if_fail (nx > 0 && ny > 0, NULL);
  if (n * 9 > G_MAXINT32)
    return NULL;
  row_ptr = g_new (guint, n + 1);
  col = g_new (guint, n * 9);
  row_ptr[0] = 0;
  for (guint j = 0; j < ny; j++)
    for (guint i = 0; i < nx; i++)
      {
        for (int dj = -1; dj <= 1; dj++)
          for (int di = -1; di <= 1; di++)
            if ((gint64) i + di >= 0 && i + di < nx && (gint64) j + dj >= 0 && j + dj < ny)
              col[k++] = (j + dj) * nx + i + di;
        row_ptr[j * nx + i + 1] = k;
      }
  a = ks_csr_new_take ((guint) n, (guint) n, row_ptr, col);
  for (guint r = 0; r < a->n_rows; r++)
    for (guint e = a->row_ptr[r]; e < a->row_ptr[r + 1]; e++)
      a->val[e] = a->col[e] == r ? (a->row_ptr[r + 1] - a->row_ptr[r] - 1) + shift : -1.0;
  return a;
}

KsCsr *
ks_csr_copy (const KsCsr *a)
{
  KsCsr *b;

  g_return_val_if_fail (a != NULL, NULL);
  b = g_new0 (KsCsr, 1);
  *b = *a;
  b->row_ptr = g_memdup2 (a->row_ptr, sizeof (guint) * ((gsize) a->n_rows + 1));
  b->col = g_memdup2 (a->col, sizeof (guint) * MAX (a->nnz, 1));
  b->val = g_memdup2 (a->val, sizeof (double) * MAX (a->nnz, 1));
  return b;
}

void
ks_csr_free (KsCsr *a)
{
  if (a == NULL)
    return;
  g_free (a->row_ptr);
  g_free (a->col);
  g_free (a->val);
  g_free (a);
}

gssize
ks_csr_find (const KsCsr *a, guint row, guint col)
{
  guint lo, hi;

  g_return_val_if_fail (a != NULL && row < a->n_rows, -1);
  lo = a->row_ptr[row];
  hi = a->row_ptr[row + 1];
  while (lo < hi)
    {
      const guint mid = lo + (hi - lo) / 2;
      if (a->col[mid] == col)
        return mid;
      if (a->col[mid] < col)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

void
ks_csr_spmv (const KsCsr *a, const double *x, double *y)
{
  g_return_if_fail (a != NULL && x != NULL && y != NULL);
#pragma omp parallel for schedule(static)
  for (guint i = 0; i < a->n_rows; i++)
    {
      double s = 0.0;
      for (guint k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
        s += a->val[k] * x[a->col[k]];
      y[i] = s;
    }
}

gboolean
ks_csr_is_symmetric (const KsCsr *a, double rel_tol, guint *out_row, guint *out_col)
{
  g_return_val_if_fail (a != NULL, FALSE);
  for (guint i = 0; i < a->n_rows; i++)
    for (guint k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
      {
        const guint j = a->col[k];
        const gssize t = j < a->n_rows ? ks_csr_find (a, j, i) : -1;
        const gssize di = ks_csr_find (a, i, i), dj = j < a->n_rows ? ks_csr_find (a, j, j) : -1;
        /* Relative to the diagonals: an entry that cancels to round-off on
         * one side and to exactly zero on the other is still symmetric. */
        const double scale = di >= 0 && dj >= 0 ? sqrt (fabs (a->val[di] * a->val[dj])) : 0.0;
        if (t < 0 || fabs (a->val[k] - a->val[t]) > rel_tol * MAX (scale, MAX (fabs (a->val[k]), fabs (a->val[t]))))
          {
            if (out_row != NULL)
              *out_row = i;
            if (out_col != NULL)
              *out_col = j;
            return FALSE;
          }
      }
  return TRUE;
}

double
ks_csr_mean_row (const KsCsr *a)
{
  g_return_val_if_fail (a != NULL && a->n_rows > 0, 0.0);
  return (double) a->nnz / a->n_rows;
}
