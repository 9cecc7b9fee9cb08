/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cg-host.c: conjugate gradients on the host (OpenMP, double): the
 * reference every device solve is checked against, and the "host" device of
 * the heat experiment.  Also what both sides share: variant names, the
 * paper's byte counts, the not-converged message. */
#define G_LOG_DOMAIN "ks-cg"

#include "ks-cg.h"
#include "ks-cg-private.h"
#include "ks-solver-error.h"

#include <math.h>

#include <glib/gi18n-lib.h>

static const char * const variant_names[] = { "base", "fused" };

const char *
ks_cg_variant_to_string (KsCgVariant variant)
{
  g_return_val_if_fail ((guint) variant < G_N_ELEMENTS (variant_names), NULL);
  return variant_names[variant];
}

gboolean
ks_cg_variant_from_string (const char *s, KsCgVariant *out)
{
  g_return_val_if_fail (s != NULL && out != NULL, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (variant_names); i++)
    if (g_str_equal (s, variant_names[i]))
      {
        *out = (KsCgVariant) i;
        return TRUE;
      }
  return FALSE;
}

double
ks_cg_bytes_per_row (KsCgVariant variant, KsPrecision precision, double entries_per_row)
{
  /* Table 1 counts 8-byte values and 4-byte indices: 12 bytes per entry of
   * A (value and column) plus 8 of p read through it make 20 L; the rest are
   * whole-vector passes of 8 bytes.  With float values, every 8 is a 4 but
   * the column index's. */
  const double value = precision == KS_PRECISION_FLOAT ? 4.0 : 8.0;
  const double per_entry = 4.0 + 2.0 * value;
  const double rest = variant == KS_CG_FUSED ? 84.0 : 108.0;

  return per_entry * entries_per_row + rest / 8.0 * value;
}

gboolean
ks_cg_check_options (const KsCgOptions *options, GError **error)
{
  if (!(options->tol > 0.0 && options->tol < 1.0) || options->max_iter == 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The CG tolerance must lie in (0, 1) and the iteration limit be at least 1, not %g and %u"),
                   options->tol, options->max_iter);
      return FALSE;
    }
  return TRUE;
}

void
ks_cg_set_not_converged (GError **error, const KsCgOptions *options, const double *history, guint n)
{
  g_autoptr(GString) h = g_string_new (NULL);

  /* Up to eight points of the history, first and last included. */
  for (guint k = 0; k < 8 && n > 0; k++)
    {
      const guint it = (guint) ((guint64) k * (n - 1) / 7);
      if (k > 0 && it == (guint) ((guint64) (k - 1) * (n - 1) / 7))
        continue;
      g_string_append_printf (h, "%s%u: %.3g", h->len > 0 ? ", " : "", it, history[it]);
    }
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED,
               _("CG did not converge in %u iterations: the relative residual is %.3g, the tolerance %.3g "
                 "(residual by iteration: %s)"),
               options->max_iter, n > 0 ? history[n - 1] : NAN, options->tol, h->str);
}

static double
dot (const double *a, const double *b, guint n)
{
  double s = 0.0;

#pragma omp parallel for reduction(+:s) schedule(static)
  for (guint i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

gboolean
ks_cg_solve_host (const KsCsr       *a,
                  const double      *b,
                  double            *x,
                  const KsCgOptions *options,
                  KsCgResult        *out,
                  GError           **error)
{
  const guint n = a != NULL ? a->n_rows : 0;
  g_autofree double *r = NULL;
  g_autofree double *p = NULL;
  g_autofree double *q = NULL;
  g_autofree double *history = NULL;
  double bb, rho, thresh;
  guint it = 0;
  gint64 begin;

  g_return_val_if_fail (a != NULL && b != NULL && x != NULL && options != NULL, FALSE);
  g_return_val_if_fail (a->n_rows == a->n_cols, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (!ks_cg_check_options (options, error))
    return FALSE;

  r = g_new (double, n);
  p = g_new (double, n);
  q = g_new (double, n);
  history = g_new (double, options->max_iter + 1);
  ks_csr_spmv (a, x, q);
#pragma omp parallel for schedule(static)
  for (guint i = 0; i < n; i++)
    p[i] = r[i] = b[i] - q[i];
  bb = dot (b, b, n);
  rho = dot (r, r, n);
  thresh = options->tol * options->tol * bb;
  history[0] = bb > 0 ? sqrt (rho / bb) : 0.0;
  begin = g_get_monotonic_time ();
  while (rho > thresh)
    {
      double pq, alpha, rho_new, beta;

      if (it == options->max_iter)
        {
          ks_cg_set_not_converged (error, options, history, it + 1);
          return FALSE;
        }
      ks_csr_spmv (a, p, q);
      pq = dot (p, q, n);
      if (!(pq > 0.0))
        {
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_BREAKDOWN,
                       _("CG broke down at iteration %u: p.Ap = %g, so the matrix is not positive definite"),
                       it + 1, pq);
          return FALSE;
        }
      alpha = rho / pq;
#pragma omp parallel for schedule(static)
      for (guint i = 0; i < n; i++)
        {
          x[i] += alpha * p[i];
          r[i] -= alpha * q[i];
        }
      rho_new = dot (r, r, n);
      beta = rho_new / rho;
#pragma omp parallel for schedule(static)
      for (guint i = 0; i < n; i++)
        p[i] = r[i] + beta * p[i];
      rho = rho_new;
      it++;
      history[it] = sqrt (rho / bb);
    }
  if (out != NULL)
    {
      out->iterations = it;
      out->residual = bb > 0 ? sqrt (rho / bb) : 0.0;
      out->bytes = ks_cg_bytes_per_row (KS_CG_BASE, KS_PRECISION_DOUBLE, ks_csr_mean_row (a)) * n * it;
      out->iterate_s = (g_get_monotonic_time () - begin) / 1e6;
    }
  return TRUE;
}
