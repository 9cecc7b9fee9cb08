/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-linear-system.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-solver-error.h"
#include "ks-mtx.h"

#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>

KsLinearSystem *
ks_linear_system_new_random (guint    n,
                             guint32  seed,
                             GError **error)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(KsLinearSystem) sys = NULL;
  const char *source = NULL;
  guint64 need, available;

  g_return_val_if_fail (n > 0, NULL);

  /* Refused before it is allocated: g_try_new succeeds far beyond what
   * the machine holds (the pages come as they are written), and writing
   * them would swap or end in the OOM killer. */
  need = ((guint64) n * n + n) * sizeof (double);
  available = ks_host_memory_available (&source);
  if (available && need > available)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("A %u x %u system in double needs %.1f MiB of host memory, but only %.1f MiB "
                     "is available (%s)"),
                   n, n, need / 1048576.0, available / 1048576.0, source);
      return NULL;
    }

  sys = g_new0 (KsLinearSystem, 1);
  sys->n = n;
  /* A size the user typed must never abort the program. */
  sys->a = g_try_new (double, (gsize) n * n);
  sys->b = g_try_new (double, n);
  if (sys->a == NULL || sys->b == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("Not enough host memory for a %u x %u system (%.1f MiB)"),
                   n, n, (double) n * n * sizeof (double) / 1048576.0);
      return NULL;
    }

  for (guint i = 0; i < n; i++)
    {
      double row_sum = 0.0;

      for (guint j = 0; j < n; j++)
        {
          double v = g_rand_double_range (rand, -1.0, 1.0);
          sys->a[(gsize) i * n + j] = v;
          if (j != i)
            row_sum += fabs (v);
        }
      /* Strict dominance keeps every pivot of elimination without
       * pivoting away from zero. */
      sys->a[(gsize) i * n + i] = row_sum + 1.0;
      sys->b[i] = g_rand_double_range (rand, -10.0, 10.0);
    }
  return g_steal_pointer (&sys);
}

KsLinearSystem *
ks_linear_system_new_from_mtx (const char  *matrix_path,
                               const char  *rhs_path,
                               guint        max_n,
                               GError     **error)
{
  g_autofree double *a = NULL;
  g_autofree double *b = NULL;
  guint rows = 0, cols = 0, b_rows = 0, b_cols = 0;
  guint64 limit = max_n ? (guint64) max_n * max_n : 0;
  KsLinearSystem *sys;

  g_return_val_if_fail (matrix_path != NULL, NULL);
  g_return_val_if_fail (rhs_path != NULL, NULL);

  if (!ks_mtx_read_dense (matrix_path, limit, &rows, &cols, &a, error))
    return NULL;
  if (rows != cols)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_SQUARE,
                   _("%s is %u x %u: the Gauss method needs a square matrix"),
                   matrix_path, rows, cols);
      return NULL;
    }
  if (!ks_mtx_read_dense (rhs_path, max_n ? max_n : 0, &b_rows, &b_cols, &b, error))
    return NULL;
  if (!((b_rows == rows && b_cols == 1) || (b_rows == 1 && b_cols == rows)))
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SIZE_MISMATCH,
                   _("%s is %u x %u, but the matrix has %u rows: the right-hand side "
                   "must be a %u x 1 vector"),
                   rhs_path, b_rows, b_cols, rows, rows);
      return NULL;
    }

  sys = g_new0 (KsLinearSystem, 1);
  sys->n = rows;
  sys->a = g_steal_pointer (&a);
  sys->b = g_steal_pointer (&b);
  return sys;
}

/* Names entry (i, j) of [A | b] the way a user reads the system: A(i, j)
 * or b(i), counted from 1 as in a Matrix Market file. */
static char *
entry_name (guint i,
            guint j,
            guint n)
{
  return j < n ? g_strdup_printf ("A(%u, %u)", i + 1, j + 1) : g_strdup_printf ("b(%u)", i + 1);
}

/* Whether v can enter a solve in the given precision.  NaN and infinity
 * never can; in float, a value beyond FLT_MAX would become infinity and a
 * non-zero one below the smallest subnormal would become 0, and either
 * used to come out as a "tiny pivot", a "singular" matrix or a NaN
 * residual with exit status 0, which named the wrong cause. */
static gboolean
check_value (double       v,
             guint        i,
             guint        j,
             guint        n,
             gboolean     as_double,
             GError     **error)
{
  g_autofree char *name = NULL;

  if (G_LIKELY (isfinite (v) && (as_double || (fabs (v) <= FLT_MAX && (v == 0.0 || (float) v != 0.0f)))))
    return TRUE;

  name = entry_name (i, j, n);
  if (!isfinite (v))
    g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_FINITE,
                 _("%s is %s: a system to solve must hold finite numbers"),
                 name, isnan (v) ? "NaN" : (v > 0 ? "+infinity" : "-infinity"));
  else if (fabs (v) > FLT_MAX)
    g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_OVERFLOW,
                 _("%s = %g overflows float, whose largest value is %g: use double (-p double)"),
                 name, v, (double) FLT_MAX);
  else
    g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_UNDERFLOW,
                 _("%s = %g underflows to 0 in float, whose smallest non-zero value is %g: "
                   "use double (-p double)"),
                 name, v, (double) FLT_TRUE_MIN);
  return FALSE;
}

gpointer
ks_linear_system_to_augmented (const KsLinearSystem *sys,
                               gboolean              as_double,
                               GError              **error)
{
  const guint n = sys->n;
  const gsize w = (gsize) n + 1;
  const gsize rs = as_double ? sizeof (double) : sizeof (float);
  g_autofree gpointer aug = NULL;

  g_return_val_if_fail (sys != NULL, NULL);

  aug = g_try_malloc ((gsize) n * w * rs);
  if (aug == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("Not enough host memory for a %u x %u system (%.1f MiB)"),
                   n, n, (double) n * w * rs / 1048576.0);
      return NULL;
    }
  /* Checked while converted: one pass over a matrix that may be large. */
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j <= n; j++)
      {
        double v = j < n ? sys->a[(gsize) i * n + j] : sys->b[i];

        if (!check_value (v, i, j, n, as_double, error))
          return NULL;
        if (as_double)
          ((double *) aug)[i * w + j] = v;
        else
          ((float *) aug)[i * w + j] = (float) v;
      }
  return g_steal_pointer (&aug);
}

gboolean
ks_linear_system_check_solution (const double  *x,
                                 guint          n,
                                 gboolean       as_double,
                                 GError       **error)
{
  g_return_val_if_fail (x != NULL || n == 0, FALSE);

  for (guint i = 0; i < n; i++)
    if (!isfinite (x[i]))
      {
        if (as_double)
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_OVERFLOW,
                       _("x(%u) is %g: the elimination overflowed double"), i + 1, x[i]);
        else
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_OVERFLOW,
                       _("x(%u) is %g: the elimination overflowed float, though every input fits "
                         "it: use double (-p double)"), i + 1, x[i]);
        return FALSE;
      }
  return TRUE;
}

void
ks_linear_system_free (KsLinearSystem *sys)
{
  if (sys == NULL)
    return;
  g_free (sys->a);
  g_free (sys->b);
  g_free (sys);
}

double
ks_linear_system_residual (const KsLinearSystem *sys,
                           const double         *x)
{
  double r2 = 0.0, b2 = 0.0;
  const guint n = sys->n;

  g_return_val_if_fail (sys != NULL && x != NULL, NAN);

#pragma omp parallel for reduction(+:r2,b2) schedule(static)
  for (guint i = 0; i < n; i++)
    {
      double s = 0.0;
      for (guint j = 0; j < n; j++)
        s += sys->a[(gsize) i * n + j] * x[j];
      s -= sys->b[i];
      r2 += s * s;
      b2 += sys->b[i] * sys->b[i];
    }
  return b2 > 0.0 ? sqrt (r2 / b2) : sqrt (r2);
}

double
ks_linear_system_max_abs (const KsLinearSystem *sys)
{
  double m = 0.0;

  g_return_val_if_fail (sys != NULL, NAN);
  for (gsize i = 0; i < (gsize) sys->n * sys->n; i++)
    m = MAX (m, fabs (sys->a[i]));
  return m;
}
