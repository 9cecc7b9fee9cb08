/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat-hybrid-summary.c: the heat-hybrid run's summary, the
 * paper's Tables 2-3 on the devices measured: lambda_opt against
 * lambda_b, the gain over the GPU alone against the bound, and whether the
 * paper's claim holds there. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-heat-hybrid-private.h"
#include "ks-recorded.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* How many MPI ranks made the run ("mpirun -np N" in its command; 1
 * without mpirun): one- and several-GPU runs compare only on one host. */
static long
run_world (const KsRun *run)
{
  const char *np = run->command ? strstr (run->command, "mpirun -np ") : NULL;

  return np ? strtol (np + strlen ("mpirun -np "), NULL, 10) : 1;
}

/* The best one-GPU point beside a several-GPU run's mesh: in the run
 * itself, else in a recorded run of the same GPU model, mesh and rank
 * count, since under mpirun G = 1 and G = 2 are two calls and two files
 * (tests/device/hybrid-gpus.sh).  *from holds the run it came from. */
static const KsRunPoint *
one_gpu_best (const KsRun *run, guint d, double cells, KsRun **from)
{
  const KsRunDevice *dev = run->devices->pdata[d];
  const KsRunPoint *one = best_of (run, d, cells, 1);
  g_autoptr(GPtrArray) recorded = NULL;

  *from = NULL;
  if (one != NULL)
    {
      *from = ks_run_ref ((KsRun *) run);
      return one;
    }
  recorded = ks_recorded_list (run->desc);
  for (guint i = 0; i < recorded->len && one == NULL; i++)
    {
      KsRun *other = ((KsRecorded *) recorded->pdata[i])->run;

      if (other == run || run_world (other) != run_world (run))
        continue;
      for (guint e = 0; e < other->devices->len && one == NULL; e++)
        if (g_strcmp0 (((KsRunDevice *) other->devices->pdata[e])->name, dev->name) == 0 &&
            (one = best_of (other, e, cells, 1)) != NULL)
          *from = ks_run_ref (other);
    }
  return one;
}

/* Two GPUs against one at the same mesh (Table 3): the GPUs alone, then
 * the hybrid's efficiency, best against best. */
static void
append_gpu_scaling (const KsRun *run, guint d, const KsRunPoint *best, double gpus, GString *out)
{
  g_autoptr(KsRun) from = NULL;
  const KsRunPoint *one;

  if (gpus <= 1 || (one = one_gpu_best (run, d, best->values[COL_MESH_CELLS], &from)) == NULL)
    return;
  g_string_append_printf (out, _("; %.0f GPUs alone %.2fx one GPU alone, the hybrid's efficiency %.0f %% of %.0f "
                                 "times one GPU's hybrid (the paper: 86 %% with 2, 75 %% with 4 at 19 M cells)"),
                          gpus, one->values[COL_GPU_ONLY] / best->values[COL_GPU_ONLY],
                          100 * best->values[COL_PERF] / (gpus * one->values[COL_PERF]), gpus);
  if (from != run)
    g_string_append (out, _(" (one GPU: the recorded run with the same GPU model and ranks)"));
}

/* The spread of the best point's repetitions, (max - min) / median of its
 * time per iteration, in percent: a gain inside it is no gain. */
static double
spread_of (const KsRunPoint *p)
{
  const double spread = 100 * (p->hi[COL_ITER_US] - p->lo[COL_ITER_US]) / p->values[COL_ITER_US];

  return spread >= 0 ? spread : 0;
}

/* Whether the claim holds at this point, in the verdict's terms. */
static const char *
claim_words (const KsRun *run, const KsRunDevice *dev, const KsRunPoint *best)
{
  const double gain = 100 * (best->values[COL_REL] - 1), spread = spread_of (best);

  if (ks_run_device_get_info (dev, "shared_memory") == 1)
    return _("; not a test of the claim (one memory)\n");
  if (!(best->values[COL_GPU_CELLS] > 0))
    return _("; no GPU part (--gpu-ranks 0): not a test of the claim\n");
  if (ks_run_point_get_number (run, best, "ranks_per_gpu") > 1)
    return _("; GPU ranks share a GPU (--ranks-per-gpu): not a test of the claim\n");
  if (gain > spread)
    return _("; the claim holds: the CPU adds to the GPU\n");
  if (gain >= -spread)
    return _("; within the repetitions' spread: no measurable gain\n");
  return _("; the claim does not hold here: the CPU part only slows the GPU down\n");
}

/* One line of Tables 2-3: lambda_opt and the gain over the GPUs alone,
 * the loss at the point nearest lambda_b, and, beside a one-GPU run of the
 * same mesh, the hybrid's efficiency over the GPU count. */
static void
summarize_one (const KsRun *run, guint d, double cells, double gpus, GString *out)
{
  const KsRunDevice *dev = run->devices->pdata[d];
  const double lambda_b = ks_run_device_get_info (dev, "lambda_b");
  const KsRunPoint *best = best_of (run, d, cells, gpus), *near = NULL;

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
                                 "GPUs alone; bound %+.1f %%; spread %.1f %%)"),
                          best->values[COL_MESH_CELLS], gpus, best->values[COL_LAMBDA],
                          best->values[COL_REL], 100 * (best->values[COL_REL] - 1),
                          isnan (lambda_b) ? NAN : 100 / (gpus * lambda_b), spread_of (best));
  if (near != NULL)
    g_string_append_printf (out, _("; at lambda %.3g, the nearest to lambda_b, %+.1f %% against lambda_opt"),
                            near->values[COL_LAMBDA],
                            100 * (near->values[COL_REL] - best->values[COL_REL]));
  append_gpu_scaling (run, d, best, gpus, out);
  g_string_append (out, claim_words (run, dev, best));
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
  spread = spread_of (best);
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
  if (gpus > 1)
    {
      g_autoptr(KsRun) from = NULL;
      const KsRunPoint *one = one_gpu_best (run, device, cells, &from);

      if (one != NULL)
        ks_verdict_append (v, _("Beside one GPU of the same model with as many ranks, %.0f GPUs alone run %.2f times as fast, and the "
                                "hybrid keeps %.0f %% of %.0f times one GPU's hybrid (the paper: 86 %% with 2 "
                                "GPUs)."),
                           gpus, one->values[COL_GPU_ONLY] / best->values[COL_GPU_ONLY],
                           100 * best->values[COL_PERF] / (gpus * one->values[COL_PERF]), gpus);
    }
  if (cells < 1e6)
    {
      ks_verdict_append (v, _("This run's mesh (%.0f cells) is far smaller than the paper's 19 M and 78 M: "
                              "exchanges weigh more on a small mesh."), cells);
      ks_verdict_suggest (v, _("Use a mesh of 4 M cells"), "cells", "2^22", NULL);
    }
  return v;
}
