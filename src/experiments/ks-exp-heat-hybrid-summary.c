/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat-hybrid-summary.c: the heat-hybrid run's summary, the
 * paper's Tables 2-3 on the devices measured: lambda_opt against
 * lambda_b, the gain over the GPU alone against the bound, and whether the
 * paper's claim holds there. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-heat-hybrid-private.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* How many GPUs a point ran on: --gpus in one process, --gpu-ranks under
 * mpirun (the other is 1; a file without gpu_ranks is from one process). */
static double
point_gpus (const KsRun *run, const KsRunPoint *p)
{
  const double gpus = ks_run_point_get_number (run, p, "gpus");
  const double ranks = ks_run_point_get_number (run, p, "gpu_ranks");

  return (isnan (gpus) ? 1 : gpus) * (isnan (ranks) || ranks < 1 ? 1 : ranks);
}

/* The best point (highest relative performance) of device d at a mesh
 * size and GPU count, or NULL. */
static const KsRunPoint *
best_of (const KsRun *run, guint d, double cells, double gpus)
{
  const KsRunPoint *best = NULL;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      if (p->device == d && p->error == NULL && ks_run_point_get_number (run, p, "cells") == cells &&
          point_gpus (run, p) == gpus &&
          (best == NULL || p->values[COL_REL] > best->values[COL_REL]))
        best = p;
    }
  return best;
}

/* One line of Tables 2-3: lambda_opt and the gain over the GPUs alone,
 * the loss at the point nearest lambda_b, and, beside a one-GPU run of the
 * same mesh, the hybrid's efficiency over the GPU count. */
static void
summarize_one (const KsRun *run, guint d, double cells, double gpus, GString *out)
{
  const KsRunDevice *dev = run->devices->pdata[d];
  const double lambda_b = ks_run_device_get_info (dev, "lambda_b");
  const KsRunPoint *best = best_of (run, d, cells, gpus), *one = best_of (run, d, cells, 1), *near = NULL;

  if (best == NULL)
    return;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const double lambda = p->values[COL_LAMBDA];
      if (p->device != d || p->error != NULL || ks_run_point_get_number (run, p, "cells") != cells ||
          point_gpus (run, p) != gpus || isnan (lambda_b) || !(lambda > 0))
        continue;
      if (near == NULL ||
          fabs (log (lambda / lambda_b)) < fabs (log (near->values[COL_LAMBDA] / lambda_b)))
        near = p;
    }
  g_string_append_printf (out, _("  %.0f cells, %.0f GPU(s): lambda_opt %.3g, relative %.3f (%+.1f %% over the "
                                 "GPUs alone; bound %+.1f %%)"),
                          best->values[COL_MESH_CELLS], gpus, best->values[COL_LAMBDA],
                          best->values[COL_REL], 100 * (best->values[COL_REL] - 1),
                          isnan (lambda_b) ? NAN : 100 / (gpus * lambda_b));
  if (near != NULL)
    g_string_append_printf (out, _("; at lambda %.3g, the nearest to lambda_b, %+.1f %% against lambda_opt"),
                            near->values[COL_LAMBDA],
                            100 * (near->values[COL_REL] - best->values[COL_REL]));
  if (gpus > 1 && one != NULL)
    g_string_append_printf (out, _("; efficiency %.0f %% of %.0f times one GPU's hybrid (the paper: 86 %% with 2, "
                                   "75 %% with 4 at 19 M cells)"),
                            100 * best->values[COL_PERF] / (gpus * one->values[COL_PERF]), gpus);
  if (ks_run_device_get_info (dev, "shared_memory") == 1)
    g_string_append (out, _("; not a test of the claim (one memory)\n"));
  else if (!(best->values[COL_GPU_CELLS] > 0))
    g_string_append (out, _("; no GPU part (--gpu-ranks 0): not a test of the claim\n"));
  else if (ks_run_point_get_number (run, best, "ranks_per_gpu") > 1)
    g_string_append (out, _("; GPU ranks share a GPU (--ranks-per-gpu): not a test of the claim\n"));
  else
    g_string_append (out, best->values[COL_REL] > 1.0
                          ? _("; the claim holds: the CPU adds to the GPU\n")
                          : _("; the claim does not hold here: the CPU part only slows the GPU down\n"));
}

/* Per device and mesh: lambda_opt (the best measured), the point nearest
 * lambda_b and what using it loses (Table 2), the best gain over the GPU
 * alone (Table 3), each beside the paper's and the bound. */
void
ks_heat_hybrid_summarize (const KsRun *run, GString *out)
{
  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunDevice *dev = run->devices->pdata[d];
      const double lambda_b = ks_run_device_get_info (dev, "lambda_b");
      const double bound = ks_run_device_get_info (dev, "bound");
      g_autofree double *sizes = g_new (double, 2 * run->points->len + 2);
      guint n_sizes = 0;

      if (!isnan (lambda_b))
        g_string_append_printf (out, _("%s: lambda_b = %.4g GB/s / %.4g GB/s = %.3g (the paper: 3.2); the GPU+CPU "
                                       "bound is %.3f times the GPU alone, a gain of at most %.1f %%\n"),
                                dev->name, ks_run_device_get_info (dev, "triad_gbs"),
                                ks_run_device_get_info (dev, "cpu_triad_gbs"), lambda_b, bound, 100 * (bound - 1));
      /* xgettext:no-c-format */
      g_string_append (out, _("The paper, 1 GPU: lambda_opt 3.0 to 3.1, +18.2 % over the GPU alone at 19 M cells "
                              "and +25.9 % at 78 M, 0 to 1 % lost at lambda_b\n"));
      if (ks_run_device_get_info (dev, "shared_memory") == 1)
        g_string_append_printf (out, _("%s is a CPU device: its part and the CPU part share one memory, so no "
                                       "gain is possible here; the curve shows what splitting costs\n"), dev->name);
      /* The (mesh size, GPU count) pairs this device measured, in the
       * order met: one line each. */
      for (guint i = 0; i < run->points->len; i++)
        {
          const KsRunPoint *p = run->points->pdata[i];
          const double c = ks_run_point_get_number (run, p, "cells"), g = point_gpus (run, p);
          guint k = 0;

          while (k < n_sizes && !(sizes[2 * k] == c && sizes[2 * k + 1] == g))
            k++;
          if (p->device == d && p->error == NULL && k == n_sizes)
            {
              sizes[2 * n_sizes] = c;
              sizes[2 * n_sizes++ + 1] = g;
            }
        }
      for (guint k = 0; k < n_sizes; k++)
        summarize_one (run, d, sizes[2 * k], sizes[2 * k + 1], out);
    }
}

/* The best point at the device's largest mesh, on its fewest GPUs. */
static const KsRunPoint *
judged_point (const KsRun *run, guint d)
{
  const KsRunPoint *last = NULL;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      double c, lc;

      if (p->device != d || p->error != NULL)
        continue;
      c = ks_run_point_get_number (run, p, "cells");
      lc = last ? ks_run_point_get_number (run, last, "cells") : 0;
      if (last == NULL || c > lc || (c == lc && point_gpus (run, p) < point_gpus (run, last)))
        last = p;
    }
  return last ? best_of (run, d, ks_run_point_get_number (run, last, "cells"), point_gpus (run, last)) : NULL;
}

/* The claim as summarize_one judges it, but a gain inside the spread of
 * the hybrid's repetitions ((max - min) / median of its time per
 * iteration) is no gain: +0.7 % against a 3 % spread tells nothing, and
 * where even the bound lies inside it the run cannot tell; a loss beyond
 * the spread fails whatever the bound. */
KsVerdict *
ks_heat_hybrid_judge (const KsRun *run, guint device)
{
  const KsRunDevice *dev = run->devices->pdata[device];
  const double lambda_b = ks_run_device_get_info (dev, "lambda_b");
  const KsRunPoint *best = judged_point (run, device);
  double gpus, gain, bound, spread, cells;
  KsVerdict *v;

  if (best == NULL)
    return NULL;
  if (ks_run_device_get_info (dev, "shared_memory") == 1)
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("This device shares one memory with the CPU part, so no gain is possible: run the "
                             "hybrid on a GPU with memory of its own."));
  if (!(best->values[COL_GPU_CELLS] > 0) || ks_run_point_get_number (run, best, "ranks_per_gpu") > 1)
    return ks_verdict_new (KS_VERDICT_UNTESTED,
                           _("This run has no GPU part of its own (no GPU ranks, or ranks sharing a GPU), so "
                             "it cannot test the claim."));
  gpus = point_gpus (run, best);
  cells = best->values[COL_MESH_CELLS];
  gain = 100 * (best->values[COL_REL] - 1);
  bound = isnan (lambda_b) ? NAN : 100 / (gpus * lambda_b);
  spread = 100 * (best->hi[COL_ITER_US] - best->lo[COL_ITER_US]) / best->values[COL_ITER_US];
  if (!(spread >= 0))
    spread = 0;
  if (gain > spread)
    v = ks_verdict_new (KS_VERDICT_HOLDS,
                        _("At %.0f cells with %.0f GPU(s) the hybrid's best is %+.1f %% over the GPU alone "
                          "(the bound: %+.1f %%; the repetitions spread %.1f %%), at lambda %.3g against "
                          "lambda_b %.3g: the paper's claim holds here (the paper: +18.2 %% to +25.9 %% with "
                          "one GPU)."),
                        cells, gpus, gain, bound, spread, best->values[COL_LAMBDA], lambda_b);
  else if (gain >= -spread && !(bound > spread))
    v = ks_verdict_new (KS_VERDICT_UNTESTED,
                        _("At %.0f cells with %.0f GPU(s) the hybrid's best is %+.1f %% over the GPU alone, "
                          "but the bound itself (%+.1f %%) lies within the repetitions' spread of %.1f %%: "
                          "this device's GPU is too fast beside its CPU for the run to tell."),
                        cells, gpus, gain, bound, spread);
  else
    v = ks_verdict_new (KS_VERDICT_FAILS,
                        _("At %.0f cells with %.0f GPU(s) the hybrid's best is %+.1f %% over the GPU alone "
                          "(the repetitions spread %.1f %%; the bound: %+.1f %%): the CPU adds nothing "
                          "measurable, and the paper's claim does not hold here."),
                        cells, gpus, gain, spread, bound);
  if (cells < 1e6)
    {
      ks_verdict_append (v, _("This run's mesh (%.0f cells) is far smaller than the paper's 19 M and 78 M: "
                              "exchanges weigh more on a small mesh."), cells);
      ks_verdict_suggest (v, _("Use a mesh of 4 M cells"), "cells", "2^22", NULL);
    }
  return v;
}
