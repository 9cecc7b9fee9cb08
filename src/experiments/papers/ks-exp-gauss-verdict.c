/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss-verdict.c: paper 000's two claims judged from one run.
 * Fig. 2: with the driver choosing the work-group, sizes where N+1 is
 * prime are far slower than their neighbours.  Figs. 3-6: the best group
 * size is the one the paper's rule predicts from the device's cores. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-gauss-private.h"
#include "ks-run.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>

/* The paper's outliers were several times their neighbours; below 1.5x
 * noise and the parity of N+1 explain as much. */
#define PRIME_RATIO_HOLDS 1.5
/* The predicted group within 10 % of the best time counts as the best. */
#define OGS_RATIO_HOLDS 1.10

/* Odd composite N+1 against the even N+1 beside it (n +- 1): PoCL's
 * driver chooses by parity; 0 where the run has no such pair.  The page
 * judges a live run at every point, so each neighbour is looked up by n,
 * not searched for. */
static double
parity_ratio (const KsGaussSweep *r)
{
  g_autoptr(GHashTable) by_n = g_hash_table_new (NULL, NULL);
  double sum = 0.0;
  guint cnt = 0;

  for (guint i = 0; i < r->points->len; i++)
    {
      const KsGaussPoint *q = &g_array_index (r->points, KsGaussPoint, i);

      if (!q->error && q->time_ms > 0.0)
        g_hash_table_insert (by_n, GUINT_TO_POINTER (q->n), (gpointer) q);
    }
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsGaussPoint *p = &g_array_index (r->points, KsGaussPoint, i);
      const guint side[2] = { p->n - 1, p->n + 1 };

      if (p->error || p->n1_prime || (p->n + 1) % 2 == 0)
        continue;
      for (guint k = 0; k < 2; k++)
        {
          const KsGaussPoint *q = g_hash_table_lookup (by_n, GUINT_TO_POINTER (side[k]));

          if (q != NULL)
            {
              sum += p->time_ms / q->time_ms;
              cnt++;
            }
        }
    }
  return cnt ? sum / cnt : 0.0;
}

typedef struct {
  guint  measured, with_groups, primes, whole_row_primes;
  double ratio;   /* mean of the primes' neighbour ratios; 0: none */
} SizeFacts;

static SizeFacts
size_facts (const KsGaussSweep *r)
{
  SizeFacts f = { 0 };
  double sum = 0.0, ratio;
  guint n_ratio = 0;

  for (guint i = 0; i < r->points->len; i++)
    {
      const KsGaussPoint *p = &g_array_index (r->points, KsGaussPoint, i);

      if (p->error)
        continue;
      f.measured++;
      f.with_groups += p->fwd_local[0] > 0;
      if (!p->n1_prime)
        continue;
      f.primes++;
      f.whole_row_primes += p->fwd_local[0] == p->n + 1;
      if (ks_exp_gauss_neighbour_ratio (r, i, &ratio))
        {
          sum += ratio;
          n_ratio++;
        }
    }
  f.ratio = n_ratio ? sum / n_ratio : 0.0;
  return f;
}

static KsVerdict *
judge_size (const KsGaussSweep *r,
            gboolean            cpu)
{
  const SizeFacts f = size_facts (r);
  const double parity = parity_ratio (r);
  KsVerdict *v;

  if (r->launch == KS_LAUNCH_BLOCKED)
    {
      v = ks_verdict_new (KS_VERDICT_UNTESTED,
                          _("The blocked kernels choose their own work-groups (32 columns a launch), so "
                            "the driver's choice the paper blames for the outliers does not arise: run the "
                            "paper's launches to test it, and compare the times to see what launches cost."));
      ks_verdict_suggest (v, _("Run the paper's launches"), "blocked", "false", NULL);
      return v;
    }
  if (f.with_groups == 0)
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("The host runs plain loops with no work-groups, so there is no driver's "
                             "choice to test: run on an OpenCL device."));
  if (r->local != KS_LOCAL_DRIVER)
    {
      v = ks_verdict_new (KS_VERDICT_UNTESTED,
                          _("The paper's outliers come from the driver choosing the work-group size; "
                            "this run chose it itself."));
      ks_verdict_suggest (v, _("Let the driver choose"), "local", "driver", NULL);
      return v;
    }
  if (f.ratio == 0.0)
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("No size in this run has a prime N+1 with measured neighbours: sweep a "
                             "range of sizes."));
  v = ks_verdict_new (f.ratio >= PRIME_RATIO_HOLDS ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                      f.ratio >= PRIME_RATIO_HOLDS
                        ? _("On this device prime N+1 takes %.2fx the time of its neighbours: the "
                            "paper's claim holds here.")
                        : _("On this device prime N+1 takes %.2fx the time of its neighbours: the "
                            "paper's claim does not hold here."),
                      f.ratio);
  if (parity >= PRIME_RATIO_HOLDS)
    ks_verdict_append (v, _("Odd N+1 takes %.2fx the time of even N+1: this driver chooses by "
                            "parity, not primality."), parity);
  if (v->kind == KS_VERDICT_FAILS && cpu)
    ks_verdict_append (v, _("A CPU stands in for a GPU here; the recorded NVIDIA OpenCL runs show "
                            "the GPU's outliers."));
  else if (v->kind == KS_VERDICT_FAILS && f.whole_row_primes == f.primes)
    {
      ks_verdict_append (v, _("The driver ran every prime N+1 as whole rows, so nothing was split: "
                              "on a GPU the outliers appear once N+1 exceeds the largest work-group."));
      ks_verdict_suggest (v, _("Sweep N from 1000 to 1100"), "n", "1000:1100", NULL);
    }
  return v;
}

/* The time at group size wg for size n; 0 where not measured. */
static double
time_at (const KsGaussSweep *r,
         guint               n,
         guint               wg)
{
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsGaussPoint *p = &g_array_index (r->points, KsGaussPoint, i);

      if (!p->error && p->n == n && p->wg == wg)
        return p->time_ms;
    }
  return 0.0;
}

static KsVerdict *
judge_wg (const KsRun        *run,
          const KsGaussSweep *r,
          gboolean            cpu)
{
  g_autoptr(GArray) sizes = ks_exp_gauss_sweep_sizes (r);
  g_autoptr(GString) bests = g_string_new (NULL);
  const guint ogs = (guint) r->ogs_usable;
  double sum = 0.0;
  guint cnt = 0;
  KsVerdict *v;

  for (guint i = 0; i < sizes->len; i++)
    {
      const guint n = g_array_index (sizes, guint, i);
      const KsGaussPoint *best = ks_exp_gauss_sweep_best (r, n);
      const double at_ogs = ogs ? time_at (r, n, ogs) : 0.0;

      if (best == NULL)
        continue;
      g_string_append_printf (bests, "%s%u (n = %u)", bests->len ? ", " : "", best->wg, n);
      if (at_ogs > 0.0 && best->time_ms > 0.0)
        {
          sum += at_ogs / best->time_ms;
          cnt++;
        }
    }
  if (ogs == 0)
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("The paper's rule needs the cores per compute unit, which this device "
                             "does not report, so it predicts nothing here; the measured best: %s."),
                           bests->str);
  if (cnt == 0)
    {
      const char *list = run->settings ? g_hash_table_lookup (run->settings, "wg") : NULL;
      g_autofree char *label = g_strdup_printf (_("Add %u to the group sizes"), ogs);
      g_autofree char *wider = g_strdup_printf ("%s%s%u", list ? list : "", list ? "," : "", ogs);

      v = ks_verdict_new (KS_VERDICT_UNTESTED,
                          _("The paper's rule predicts a group of %u, which this run did not "
                            "measure; the measured best: %s."), ogs, bests->str);
      ks_verdict_suggest (v, label, "wg", wider, NULL);
      return v;
    }
  v = ks_verdict_new (sum / cnt <= OGS_RATIO_HOLDS ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                      sum / cnt <= OGS_RATIO_HOLDS
                        ? _("The paper's rule predicts a group of %u; the measured best: %s. At the "
                            "predicted size a solve takes %.2fx the best time: the claim holds here.")
                        : _("The paper's rule predicts a group of %u; the measured best: %s. At the "
                            "predicted size a solve takes %.2fx the best time: the claim does not "
                            "hold here."),
                      ogs, bests->str, sum / cnt);
  if (cpu)
    ks_verdict_append (v, _("A CPU stands in for a GPU here: the rule counts a GPU's cores."));
  return v;
}

KsVerdict *
ks_exp_gauss_judge (const KsRun *run,
                    guint        device)
{
  g_auto(KsGaussSweep) r = { 0 };

  g_return_val_if_fail (run != NULL, NULL);

  if (!ks_exp_gauss_sweep_init (&r, run, device) || r.points->len == 0)
    return NULL;
  if (r.wg_sweep)
    return judge_wg (run, &r, ks_run_device_is_cpu (run, device));
  return judge_size (&r, ks_run_device_is_cpu (run, device));
}
