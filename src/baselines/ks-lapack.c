/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-lapack"

#include "ks-lapack.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#ifdef KS_HAVE_LAPACKE
#include <lapacke.h>
#endif

gboolean
ks_lapack_available (GError **error)
{
#ifdef KS_HAVE_LAPACKE
  return TRUE;
#else
  g_set_error_literal (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                       "built without LAPACKE (install liblapacke-dev and libopenblas-dev)");
  return FALSE;
#endif
}

#ifdef KS_HAVE_LAPACKE
/* getrf + getrs through the _work entry points: LAPACKE's plain gesv in
 * row-major order allocates, transposes A and b into column-major order
 * and back, and scans them for NaNs, all inside the clock (n = 1000: 11.6-
 * 17.4 ms against 9.7 ms).  Our row-major A is A^T in column-major order,
 * so factorising it as it lies and solving with trans = 'T' solves A x = b
 * with no copy, as cuSOLVER's row does. */
#define LAPACK_SOLVE(T, getrf, getrs)                                          \
  static lapack_int                                                          \
  lapack_solve_##T (int n, T *a, int *ipiv, T *b, double *wall_ms)           \
  {                                                                          \
    gint64 t0 = g_get_monotonic_time ();                                     \
    lapack_int info = getrf (LAPACK_COL_MAJOR, n, n, a, n, ipiv);            \
    if (info == 0)                                                           \
      info = getrs (LAPACK_COL_MAJOR, 'T', n, 1, a, n, ipiv, b, n);          \
    *wall_ms = (g_get_monotonic_time () - t0) / 1000.0;                      \
    return info;                                                             \
  }
LAPACK_SOLVE (double, LAPACKE_dgetrf_work, LAPACKE_dgetrs_work)
LAPACK_SOLVE (float, LAPACKE_sgetrf_work, LAPACKE_sgetrs_work)
#endif

gboolean
ks_lapack_dense_solve (gboolean       fp64,
                       guint          n_unknowns,
                       const double  *a_in,
                       const double  *b_in,
                       double        *x,
                       double        *wall_ms,
                       GError       **error)
{
#ifdef KS_HAVE_LAPACKE
  const int n = (int) n_unknowns;
  const gsize nn = (gsize) n * n;
  g_autofree int *ipiv = NULL;
  const char *source = NULL;
  guint64 need, available;
  lapack_int info;

  g_return_val_if_fail (n_unknowns > 0 && n_unknowns <= G_MAXINT, FALSE);
  g_return_val_if_fail (a_in != NULL && b_in != NULL && x != NULL && wall_ms != NULL, FALSE);

  /* The copy getrf overwrites, checked before it is made: g_new aborts
   * or, overcommitted, swaps. */
  need = nn * (fp64 ? sizeof (double) : sizeof (float)) + (gsize) n * (sizeof (int) + sizeof (float));
  if ((available = ks_host_memory_available (&source)) && need > available)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("LAPACK's copy of a %u x %u system needs %.1f MiB of host memory, but only %.1f MiB "
                     "is available (%s)"),
                   n_unknowns, n_unknowns, need / 1048576.0, available / 1048576.0, source);
      return FALSE;
    }

  ipiv = g_new (int, n);
  /* The copy into the solver's precision (getrf overwrites it) is made
   * before the clock starts, as every other method's: the kernel solvers
   * and cuSOLVER convert before theirs too. */
  if (fp64)
    {
      g_autofree double *a = g_memdup2 (a_in, nn * sizeof (double));
      memcpy (x, b_in, n * sizeof (double));
      info = lapack_solve_double (n, a, ipiv, x, wall_ms);
    }
  else
    {
      g_autofree float *a = g_new (float, nn);
      g_autofree float *b = g_new (float, n);
      for (gsize i = 0; i < nn; i++)
        a[i] = (float) a_in[i];
      for (int i = 0; i < n; i++)
        b[i] = (float) b_in[i];
      info = lapack_solve_float (n, a, ipiv, b, wall_ms);
      for (int i = 0; i < n; i++)
        x[i] = b[i];
    }
  if (info > 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR,
                   _("LAPACK getrf: U(%d,%d) is exactly zero: the matrix is singular"), (int) info, (int) info);
      return FALSE;
    }
  if (info < 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("LAPACK getrf/getrs: parameter %d had an illegal value"), (int) -info);
      return FALSE;
    }
  return TRUE;
#else
  return ks_lapack_available (error);
#endif
}

#ifdef KS_HAVE_LAPACKE
/* The _work entry point: no NaN scan, no allocation; gtsv overwrites its
 * three diagonals, so each system's copy is in dl, dd, du (made before the
 * clock, like every other method's conversion). */
#define LAPACK_GTSV(T, gtsv)                                                          \
  static lapack_int                                                                  \
  lapack_gtsv_##T (int n, guint systems, const double *a, const double *b,           \
                   const double *c, const double *d, double *x, guint *bad_system,   \
                   double *wall_ms)                                                  \
  {                                                                                  \
    const gsize total = (gsize) n * systems;                                         \
    g_autofree T *dl = g_new (T, total), *dd = g_new (T, total);                     \
    g_autofree T *du = g_new (T, total), *rhs = g_new (T, total);                    \
    lapack_int info = 0;                                                             \
    gint64 t0;                                                                       \
    for (gsize k = 0; k < total; k++)                                                \
      {                                                                              \
        dl[k] = (T) a[k];                                                            \
        dd[k] = (T) b[k];                                                            \
        du[k] = (T) c[k];                                                            \
        rhs[k] = (T) d[k];                                                           \
      }                                                                              \
    t0 = g_get_monotonic_time ();                                                    \
    for (guint s = 0; s < systems && info == 0; s++)                                 \
      {                                                                              \
        const gsize o = (gsize) s * n;                                               \
        /* dl is the subdiagonal from row 1: a[o + 1 ..]. */                         \
        info = gtsv (LAPACK_COL_MAJOR, n, 1, dl + o + 1, dd + o, du + o, rhs + o, n);\
        *bad_system = s;                                                             \
      }                                                                              \
    *wall_ms = (g_get_monotonic_time () - t0) / 1000.0;                              \
    for (gsize k = 0; k < total; k++)                                                \
      x[k] = rhs[k];                                                                 \
    return info;                                                                     \
  }
LAPACK_GTSV (double, LAPACKE_dgtsv_work)
LAPACK_GTSV (float, LAPACKE_sgtsv_work)
#endif

gboolean
ks_lapack_gtsv_batch (gboolean       fp64,
                      guint          n,
                      guint          systems,
                      const double  *a,
                      const double  *b,
                      const double  *c,
                      const double  *d,
                      double        *x,
                      double        *wall_ms,
                      GError       **error)
{
#ifdef KS_HAVE_LAPACKE
  const char *source = NULL;
  guint64 need, available;
  guint bad_system = 0;
  lapack_int info;

  g_return_val_if_fail (n > 0 && n <= G_MAXINT && systems > 0, FALSE);
  g_return_val_if_fail (a && b && c && d && x && wall_ms, FALSE);

  need = (guint64) n * systems * 4 * (fp64 ? sizeof (double) : sizeof (float));
  if ((available = ks_host_memory_available (&source)) && need > available)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("LAPACK's copy of %u tridiagonal systems of %u unknowns needs %.1f MiB of host memory, "
                     "but only %.1f MiB is available (%s)"),
                   systems, n, need / 1048576.0, available / 1048576.0, source);
      return FALSE;
    }
  info = fp64 ? lapack_gtsv_double ((int) n, systems, a, b, c, d, x, &bad_system, wall_ms)
              : lapack_gtsv_float ((int) n, systems, a, b, c, d, x, &bad_system, wall_ms);
  if (info > 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR,
                   _("LAPACK gtsv: U(%d,%d) of system %u is exactly zero: the system is singular"),
                   (int) info, (int) info, bad_system);
      return FALSE;
    }
  if (info < 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("LAPACK gtsv: parameter %d had an illegal value"), (int) -info);
      return FALSE;
    }
  return TRUE;
#else
  return ks_lapack_available (error);
#endif
}
