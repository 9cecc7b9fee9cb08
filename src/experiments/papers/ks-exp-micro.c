/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro.c: what paper 001's descriptions share: refusing one
 * point, the measuring functions of the loop experiments (micro-simd,
 * micro-builtins) over KsMicroLoop, whose first columns are the same, and
 * the summary line comparing OpenCL with CUDA on one GPU. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-micro.h"
#include "ks-compute-error.h"
#include "ks-micro.h"
#include "ks-run.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

gboolean
ks_exp_micro_refuse_point (GError **error)
{
  if (error && *error && (g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY) ||
                          g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED) ||
                          g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED)))
    {
      (*error)->domain = KS_EXPERIMENT_ERROR;
      (*error)->code = KS_EXPERIMENT_ERROR_REFUSED;
    }
  return FALSE;
}

gpointer
ks_exp_micro_loop_set_up (const KsExperimentDesc *desc,
                          KsDevice               *device,
                          const KsConfig         *base,
                          GCancellable           *cancellable,
                          GError                **error)
{
  return ks_micro_loop_new (device, error);
}

gboolean
ks_exp_micro_loop_measure (gpointer        state,
                           const KsConfig *point,
                           double         *values,
                           GCancellable   *cancellable,
                           GError        **error)
{
  KsMicroLoopResult r;

  if (!ks_micro_loop_run (state, &r, error))
    return FALSE;
  values[KS_EXP_MICRO_COL_TIME] = r.kernel_ms;
  values[KS_EXP_MICRO_COL_WALL] = r.wall_ms;
  values[KS_EXP_MICRO_COL_CHECKED] = r.checked;
  values[KS_EXP_MICRO_COL_WRONG] = r.wrong;
  return TRUE;
}

/* The clock's tick: a kernel shorter than it measures nothing (NVIDIA's
 * OpenCL: 1 us). */
void
ks_exp_micro_describe_timer (KsDevice    *device,
                             KsRunDevice *out)
{
  ks_run_device_set_info (out, "timer_resolution_ns", ks_device_get_info (device)->timer_resolution_ns);
}

void
ks_exp_micro_loop_describe_device (gpointer        state,
                                   const KsConfig *base,
                                   KsRunDevice    *out)
{
  ks_exp_micro_describe_timer (ks_micro_loop_get_device (state), out);
}

void
ks_exp_micro_loop_tear_down (gpointer state)
{
  ks_micro_loop_free (state);
}

/* --- OpenCL against CUDA ----------------------------------------------------------- */

/* The CUDA device of the run that is the same GPU as OpenCL device d:
 * the one of the same name, else the only CUDA device where d's platform
 * is NVIDIA's; -1 where none. */
static int
cuda_partner (const KsRun *run,
              guint        d)
{
  const KsRunDevice *ocl = run->devices->pdata[d];
  int only = -1;
  guint n_cuda = 0;

  for (guint c = 0; c < run->devices->len; c++)
    {
      const KsRunDevice *dev = run->devices->pdata[c];

      if (g_strcmp0 (dev->backend, "cuda") != 0)
        continue;
      if (g_strcmp0 (dev->name, ocl->name) == 0)
        return (int) c;
      only = (int) c;
      n_cuda++;
    }
  return n_cuda == 1 && ocl->platform && strstr (ocl->platform, "NVIDIA") ? only : -1;
}

static gboolean
same_params (const KsRunPoint *a,
             const KsRunPoint *b)
{
  for (guint i = 0; i < a->n_params; i++)
    if ((a->params[i] == NULL) != (b->params[i] == NULL) ||
        (a->params[i] && !g_variant_equal (a->params[i], b->params[i])))
      return FALSE;
  return TRUE;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
ks_exp_micro_sort_median (GArray *values)
{
  const double *v = (const double *) values->data;
  const guint n = values->len;

  if (n == 0)
    return NAN;
  qsort (values->data, n, sizeof (double), compare_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A point with a positive value of column c, included. */
static gboolean
usable (const KsRun      *run,
        const KsRunPoint *p,
        int               c,
        gboolean        (*include) (const KsRun *, const KsRunPoint *))
{
  return p->error == NULL && isfinite (p->values[c]) && p->values[c] > 0 && (include == NULL || include (run, p));
}

void
ks_exp_micro_summarize_backends (const KsRun *run,
                                 const char  *column,
                                 gboolean   (*include) (const KsRun      *run,
                                                        const KsRunPoint *point),
                                 GString     *out)
{
  int c;

  g_return_if_fail (run != NULL && column != NULL && out != NULL);
  if ((c = ks_experiment_desc_find_column (run->desc, column)) < 0)
    g_return_if_reached ();

  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunDevice *ocl = run->devices->pdata[d];
      g_autoptr(GArray) ratios = NULL;
      guint within = 0;
      double *r, median;
      int cuda;

      if (g_strcmp0 (ocl->backend, "opencl") != 0 || (cuda = cuda_partner (run, d)) < 0)
        continue;
      ratios = g_array_new (FALSE, FALSE, sizeof (double));
      for (guint i = 0; i < run->points->len; i++)
        {
          const KsRunPoint *p = run->points->pdata[i];

          if (p->device != d || !usable (run, p, c, include))
            continue;
          for (guint j = 0; j < run->points->len; j++)
            {
              const KsRunPoint *q = run->points->pdata[j];

              if (q->device == (guint) cuda && usable (run, q, c, include) && same_params (p, q))
                {
                  double ratio = p->values[c] / q->values[c];

                  g_array_append_val (ratios, ratio);
                  within += fabs (ratio - 1) <= KS_EXP_MICRO_BACKEND_TOLERANCE;
                  break;
                }
            }
        }
      if (ratios->len == 0)
        continue;
      median = ks_exp_micro_sort_median (ratios);
      r = (double *) ratios->data;
      /* TRANSLATORS: "NVIDIA H200: OpenCL / CUDA time over 5 points: median 1.03 (0.97 .. 1.10); 5 of 5 within
       * 15 % of CUDA" */
      g_string_append_printf (out, _("%s: OpenCL / CUDA %s over %u points: median %.2f (%.2f .. %.2f); "
                                     "%u of %u within %.0f %% of CUDA\n"),
                              ocl->name ? ocl->name : ocl->id, _(run->desc->columns[c].label), ratios->len,
                              median,
                              r[0], r[ratios->len - 1], within, ratios->len, 100 * KS_EXP_MICRO_BACKEND_TOLERANCE);
    }
}

void
ks_exp_micro_summarize_time (const KsRun *run,
                             GString     *out)
{
  ks_exp_micro_summarize_backends (run, "time_ms", NULL, out);
}

/* --- for the judges ------------------------------------------------------------- */

static gboolean
in_mask (const KsRun      *run,
         const KsRunPoint *p,
         const char       *param,
         guint             mask)
{
  const double k = ks_run_point_get_number (run, p, param);

  return !isnan (k) && k < 32 && (mask & (1u << (guint) k)) != 0;
}

const KsRunPoint *
ks_exp_micro_fastest (const KsRun *run,
                      guint        device,
                      const char  *param,
                      guint        mask,
                      const char  *size_param,
                      double       size,
                      guint        column)
{
  const KsRunPoint *best = NULL;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      if (p->device != device || p->error || !in_mask (run, p, param, mask) || !(p->values[column] > 0) ||
          (!isnan (size) && ks_run_point_get_number (run, p, size_param) != size))
        continue;
      if (best == NULL || p->values[column] < best->values[column])
        best = p;
    }
  return best;
}

double
ks_exp_micro_pair (const KsRun       *run,
                   guint              device,
                   const char        *param,
                   guint              mask_a,
                   guint              mask_b,
                   const char        *size_param,
                   guint              column,
                   const KsRunPoint **a,
                   const KsRunPoint **b)
{
  double largest = NAN;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const double size = ks_run_point_get_number (run, p, size_param);

      if (p->device == device && !p->error && in_mask (run, p, param, mask_a) &&
          (isnan (largest) || size > largest) &&
          ks_exp_micro_fastest (run, device, param, mask_b, size_param, size, column) != NULL)
        largest = size;
    }
  if (!isnan (largest))
    {
      *a = ks_exp_micro_fastest (run, device, param, mask_a, size_param, largest, column);
      *b = ks_exp_micro_fastest (run, device, param, mask_b, size_param, largest, column);
    }
  return largest;
}

KsVerdict *
ks_exp_micro_untested (const char *text,
                       const char *label,
                       const char *param,
                       const char *value)
{
  KsVerdict *v = ks_verdict_new (KS_VERDICT_UNTESTED, "%s", text);

  ks_verdict_suggest (v, label, param, value, NULL);
  return v;
}

gboolean
ks_exp_micro_clearly_below (const KsRunPoint *a,
                            const KsRunPoint *b,
                            guint             column,
                            double            margin)
{
  return a->values[column] < (1 - margin) * b->values[column] &&
         (isnan (a->hi[column]) || isnan (b->lo[column]) || a->hi[column] < b->lo[column]);
}
