/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The host reference: the paper's method (no pivoting, forward elimination
 * of the augmented matrix, then back substitution) in plain C with OpenMP,
 * in the same precision the device runs, so both answers can be compared. */
#define G_LOG_DOMAIN "ks-gauss"

#include "ks-gauss.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define CANCEL_CHECK_STEPS 16

/* One body, two precisions. Returns 0 on success, 1 + the bad row, or -1 if cancelled. */
#define DEFINE_ELIMINATE(real)                                                        \
static int                                                                            \
eliminate_##real (real *aug, int n, double tiny, GCancellable *cancellable,           \
                  double *fwd_ms, double *bwd_ms, real *x)                            \
{                                                                                     \
  const size_t w = (size_t) n + 1;                                                    \
  gint64 t0 = g_get_monotonic_time (), t1;                                            \
                                                                                      \
  for (int k = 0; k < n - 1; k++)                                                     \
    {                                                                                 \
      const real pivot = aug[(size_t) k * w + k];                                     \
      if (!(fabs ((double) pivot) > tiny))                                            \
        return k + 1;                                                                 \
      if (k % CANCEL_CHECK_STEPS == 0 && g_cancellable_is_cancelled (cancellable))    \
        return -1;                                                                    \
      _Pragma ("omp parallel for schedule(static) if (n - k > 64)")                   \
      for (int i = k + 1; i < n; i++)                                                 \
        {                                                                             \
          const real mult = aug[(size_t) i * w + k] / pivot;                          \
          for (size_t j = k; j < w; j++)                                              \
            aug[(size_t) i * w + j] -= mult * aug[(size_t) k * w + j];                \
        }                                                                             \
    }                                                                                 \
  t1 = g_get_monotonic_time ();                                                       \
  *fwd_ms = (t1 - t0) / 1000.0;                                                       \
                                                                                      \
  for (int k = n - 1; k >= 0; k--)                                                    \
    {                                                                                 \
      const real pivot = aug[(size_t) k * w + k];                                     \
      if (!(fabs ((double) pivot) > tiny))                                            \
        return k + 1;                                                                 \
      x[k] = aug[(size_t) k * w + n] / pivot;                                         \
      for (int i = 0; i < k; i++)                                                     \
        aug[(size_t) i * w + n] -= x[k] * aug[(size_t) i * w + k];                    \
    }                                                                                 \
  *bwd_ms = (g_get_monotonic_time () - t1) / 1000.0;                                  \
  return 0;                                                                           \
}

DEFINE_ELIMINATE (float)
DEFINE_ELIMINATE (double)

gboolean
ks_gauss_host_solve (const KsLinearSystem *sys,
                     KsPrecision           precision,
                     GCancellable         *cancellable,
                     double               *x_out,
                     KsGaussResult        *result,
                     GError              **error)
{
  const gboolean dbl = precision == KS_PRECISION_DOUBLE;
  const gsize rs = dbl ? sizeof (double) : sizeof (float);
  const guint n = sys->n;
  g_autofree void *aug = NULL;
  g_autofree void *x = NULL;
  g_autofree double *xd = NULL;
  double tiny, fwd_ms = 0, bwd_ms = 0;
  gint64 t0;
  int status;

  g_return_val_if_fail (sys != NULL && result != NULL, FALSE);

  memset (result, 0, sizeof *result);
  result->n = n;
  if (n < 2)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("n = %u: the method needs at least 2 unknowns"), n);
      return FALSE;
    }

  if (!(aug = ks_linear_system_to_augmented (sys, dbl, error)))
    return FALSE;
  x = g_malloc ((gsize) n * rs);

  tiny = ks_gauss_tiny_pivot (precision, ks_linear_system_max_abs (sys));
  t0 = g_get_monotonic_time ();
  status = dbl ? eliminate_double (aug, (int) n, tiny, cancellable, &fwd_ms, &bwd_ms, x)
               : eliminate_float (aug, (int) n, tiny, cancellable, &fwd_ms, &bwd_ms, x);
  result->wall_ms = (g_get_monotonic_time () - t0) / 1000.0;

  if (status < 0)
    return !g_cancellable_set_error_if_cancelled (cancellable, error);
  if (status > 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR,
                   _("The pivot of row %d is zero or too small (|a_kk| <= %.3g) after elimination: "
                   "the matrix is singular or needs row exchanges, which this method "
                   "(Gauss without pivoting, as in the paper) does not do"),
                   status, tiny);
      return FALSE;
    }

  result->kernel_ms[KS_GAUSS_FWD] = fwd_ms;
  result->kernel_ms[KS_GAUSS_BWD] = bwd_ms;
  result->kernels_total_ms = fwd_ms + bwd_ms;

  xd = g_new (double, n);
  for (guint i = 0; i < n; i++)
    xd[i] = dbl ? ((double *) x)[i] : ((float *) x)[i];
  if (!ks_linear_system_check_solution (xd, n, dbl, error))
    return FALSE;
  result->residual = ks_linear_system_residual (sys, xd);
  if (x_out)
    memcpy (x_out, xd, n * sizeof (double));
  return TRUE;
}
