/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-tridiag-io.c: a batch of tridiagonal systems from Matrix Market files,
 * read entry by entry (a batch of 40,000 systems of 4095 is far too large
 * to hold densely), every entry checked against the band and against the
 * independence of the systems as it comes. */
#define G_LOG_DOMAIN "ks-tridiag"

#include "ks-tridiag.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-mtx.h"

#include <glib/gi18n-lib.h>
#include <math.h>

typedef struct {
  GArray  *diag[3];   /* a (below), b, c (above), by row, grown as rows come */
  guint    systems;
} Reader;

/* Room for row i in the three diagonals, checked against the host's
 * memory first: a file may name row 4,000,000,000 on its second line. */
static gboolean
grow (Reader  *r,
      guint64  i,
      GError **error)
{
  const char *source = NULL;
  guint64 available;

  if (i < r->diag[0]->len)
    return TRUE;
  if ((available = ks_host_memory_available (&source)) && (i + 1) * 3 * 2 * sizeof (double) > available)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("row %llu of the matrix needs %.1f MiB of host memory, but only %.1f MiB is available (%s)"),
                   (unsigned long long) i + 1, (i + 1) * 3.0 * 2 * sizeof (double) / 1048576.0, available / 1048576.0, source);
      return FALSE;
    }
  for (guint k = 0; k < 3; k++)
    g_array_set_size (r->diag[k], MAX ((guint) i + 1, MIN (2 * r->diag[k]->len, G_MAXUINT / 2)));
  return TRUE;
}

static gboolean
take_entry (guint64   i,
            guint64   j,
            double    v,
            guint64   line,
            gpointer  user_data,
            GError  **error)
{
  Reader *r = user_data;

  /* Zeros outside the band (an array file has them all) are no coupling. */
  if ((i > j + 1 || j > i + 1) && v == 0.0)
    return TRUE;
  if (i > j + 1 || j > i + 1)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   /* Numbers as wide as a file's indices, without a format macro
                    * gettext could not see through. */
                   _("the matrix is not tridiagonal: entry (%llu, %llu) = %g on line %llu lies outside the three "
                     "diagonals"),
                   (unsigned long long) i + 1, (unsigned long long) j + 1, v, (unsigned long long) line);
      return FALSE;
    }
  if (!grow (r, i, error))
    return FALSE;
  /* Duplicates are summed, as the dense reader does. */
  g_array_index (r->diag[j + 1 - i], double, i) += v;
  return TRUE;
}

/* With systems of n unknowns, no entry may join the last row of one
 * system to the first of the next. */
static gboolean
check_couplings (Reader  *r,
                 guint    n,
                 GError **error)
{
  const double *a = (const double *) r->diag[0]->data, *c = (const double *) r->diag[2]->data;

  for (guint s = 1; s < r->systems; s++)
    {
      const gsize first = (gsize) s * n;
      if (a[first] != 0.0 || c[first - 1] != 0.0)
        {
          const gboolean below = a[first] != 0.0;
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                       _("entry (%llu, %llu) = %g couples system %u to system %u, but the %u systems "
                         "of %u unknowns must be independent"),
                       (unsigned long long) (below ? first + 1 : first), (unsigned long long) (below ? first : first + 1), below ? a[first] : c[first - 1],
                       s, s + 1, r->systems, n);
          return FALSE;
        }
    }
  return TRUE;
}

KsTridiagBatch *
ks_tridiag_batch_load (const char *matrix,
                       const char *rhs,
                       guint       systems,
                       GError    **error)
{
  Reader r = { { NULL }, systems };
  g_autoptr(KsTridiagBatch) batch = NULL;
  g_autofree double *d = NULL;
  guint rows = 0, cols = 0, brows = 0, bcols = 0, n;
  gboolean ok;

  g_return_val_if_fail (matrix != NULL && rhs != NULL && systems >= 1, NULL);

  for (guint k = 0; k < 3; k++)
    r.diag[k] = g_array_new (FALSE, TRUE, sizeof (double));
  ok = ks_mtx_read_entries (matrix, take_entry, &r, &rows, &cols, error);
  if (ok && rows != cols)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_SQUARE,
                   _("the matrix is %u x %u: a tridiagonal system is square"), rows, cols);
      ok = FALSE;
    }
  if (ok && rows % systems != 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SIZE_MISMATCH,
                   _("%u systems do not divide the matrix's %u rows into systems of equal size"), systems, rows);
      ok = FALSE;
    }
  n = ok ? rows / systems : 0;
  if (ok)
    for (guint k = 0; k < 3; k++)
      g_array_set_size (r.diag[k], rows);
  ok = ok && check_couplings (&r, n, error);
  /* b is a dense vector: one value per row of A, no more. */
  ok = ok && ks_mtx_read_dense (rhs, (guint64) rows + 1, &brows, &bcols, &d, error);
  if (ok && (MIN (brows, bcols) != 1 || MAX (brows, bcols) != rows))
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SIZE_MISMATCH,
                   _("the right-hand side is %u x %u; the matrix has %u rows, so it must be %u x 1"), brows, bcols,
                   rows, rows);
      ok = FALSE;
    }
  if (ok)
    {
      /* The arrays read are the batch's: systems one after another. */
      batch = g_new0 (KsTridiagBatch, 1);
      batch->n = n;
      batch->systems = systems;
      batch->a = (double *) g_array_free (g_steal_pointer (&r.diag[0]), FALSE);
      batch->b = (double *) g_array_free (g_steal_pointer (&r.diag[1]), FALSE);
      batch->c = (double *) g_array_free (g_steal_pointer (&r.diag[2]), FALSE);
      batch->d = g_steal_pointer (&d);
    }
  for (guint k = 0; k < 3; k++)
    if (r.diag[k])
      g_array_unref (r.diag[k]);
  return ok ? g_steal_pointer (&batch) : NULL;
}
