/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-balance.c: see ks-balance.h. */
#define G_LOG_DOMAIN "ks-balance"

#include "ks-balance.h"

#include <glib/gi18n-lib.h>
#include <math.h>

G_DEFINE_QUARK (ks-balance-error-quark, ks_balance_error)

gboolean
ks_balance_split (guint64  n_cells,
                  guint    r_gpu,
                  guint    r_cpu,
                  double   lambda,
                  guint64 *counts,
                  GError **error)
{
  guint n = r_gpu + r_cpu;
  double gpu_share, cpu_share;
  g_autofree double *exact = NULL;
  guint64 given = 0;
  guint holders = 0;

  g_return_val_if_fail (counts != NULL, FALSE);

  if (n == 0 || isnan (lambda) || lambda < 0)
    {
      g_set_error (error, KS_BALANCE_ERROR, KS_BALANCE_ERROR_INVALID,
                   _("The balance needs at least one process and a balancing coefficient λ ≥ 0 (got %u GPU, %u CPU processes, λ = %g)"),
                   r_gpu, r_cpu, lambda);
      return FALSE;
    }
  /* Formula (5), as fractions of the node's cells. */
  if (r_cpu == 0 || (r_gpu > 0 && isinf (lambda)))
    gpu_share = 1.0 / MAX (r_gpu, 1), cpu_share = 0;
  else if (r_gpu == 0)
    gpu_share = 0, cpu_share = 1.0 / r_cpu;
  else
    {
      gpu_share = lambda / (lambda * r_gpu + 1);
      cpu_share = 1.0 / r_cpu / (lambda * r_gpu + 1);
    }
  exact = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      exact[i] = (double) n_cells * (i < r_gpu ? gpu_share : cpu_share);
      counts[i] = (guint64) floor (exact[i]);
      given += counts[i];
      holders += exact[i] > 0;
    }
  if (n_cells < holders)
    {
      g_set_error (error, KS_BALANCE_ERROR, KS_BALANCE_ERROR_INVALID,
                   _("%llu cells cannot be shared among %u processes: each needs at least one"),
                   (unsigned long long) n_cells, holders);
      return FALSE;
    }
  /* The spare cells to the largest remainders, first come first served
   * among equals, so the GPU processes (listed first) win ties. */
  while (given < n_cells)
    {
      guint best = 0;
      double best_rest = -1;

      for (guint i = 0; i < n; i++)
        if (exact[i] > 0 && exact[i] - counts[i] > best_rest)
          best = i, best_rest = exact[i] - counts[i];
      counts[best]++;
      exact[best] = counts[best];   /* its remainder is spent */
      given++;
    }
  /* A share too small to round up to a cell still gets one, from the
   * largest sub-domain. */
  for (guint i = 0; i < n; i++)
    if (exact[i] > 0 && counts[i] == 0)
      {
        guint big = 0;

        for (guint j = 1; j < n; j++)
          if (counts[j] > counts[big])
            big = j;
        counts[big]--;
        counts[i]++;
      }
  return TRUE;
}

double
ks_balance_lambda_of (double gpu_cells,
                      double r_gpu,
                      double cpu_cells)
{
  if (isnan (gpu_cells) || isnan (cpu_cells))
    return NAN;
  if (gpu_cells == 0)
    return 0;
  return cpu_cells == 0 ? INFINITY : gpu_cells / MAX (r_gpu, 1) / cpu_cells;
}

double
ks_balance_lambda_b (double bw_gpu_gbs,
                     double bw_cpus_gbs)
{
  if (!(bw_gpu_gbs > 0) || !(bw_cpus_gbs > 0))
    return NAN;
  return bw_gpu_gbs / bw_cpus_gbs;
}

double
ks_balance_gain_bound (double bw_gpu_gbs,
                       double bw_cpus_gbs,
                       guint  n_gpu)
{
  if (!(bw_gpu_gbs > 0) || !(bw_cpus_gbs > 0) || n_gpu == 0)
    return NAN;
  return bw_cpus_gbs / (bw_cpus_gbs + n_gpu * bw_gpu_gbs);
}
