/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag-predict.c: the page's Thomas, local (natural layout) and
 * Thomas, interleaved both run thomas_staged; the access model counts the
 * cache lines each layout's warps touch, and their ratio is what the
 * memory traffic alone predicts for the times. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-tridiag-predict.h"
#include "ks-access.h"
#include "ks-run.h"
#include "ks-types.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* One group's rows, capped: 4095 rows would be 2.4 million modelled
 * accesses (2 s).  The cap keeps n modulo 32 (a 128-byte line's floats,
 * twice its doubles), so the systems start at the same offsets within a
 * line as at n and the last chunk is as short: the lines a row costs stay
 * those of n (4095 floats: 2.94x, capped at 287 rows, uncapped alike). */
#define MAX_ROWS 256u

static double
staged_lines (KsAccessKernel kernel,
              guint          n,
              guint          systems,
              guint          elem)
{
  KsAccessPoint p = { .kernel = kernel, .group = 64, .groups = 1, .n = n <= MAX_ROWS + 32 ? n : MAX_ROWS + n % 32,
                      .systems = systems, .elem = elem };
  g_auto(KsAccessModel) m = { 0 };
  guint64 lines;
  double ideal;

  if (!ks_access_model_build (&p, &m, NULL))
    return NAN;
  ks_access_count_total (&m, 32, 128, &lines, &ideal);
  return (double) lines;
}

double
ks_exp_tridiag_predicted_ratio (guint n,
                                guint systems,
                                guint elem)
{
  const double nat = staged_lines (KS_ACCESS_THOMAS_STAGED_NATURAL, n, systems, elem);
  const double il = staged_lines (KS_ACCESS_THOMAS_STAGED_INTERLEAVED, n, systems, elem);

  return il > 0 ? nat / il : NAN;
}

static gboolean
point_is (const KsRun      *run,
          const KsRunPoint *p,
          guint             device,
          const char       *method)
{
  GVariant *v = ks_run_point_get_param (run, p, "method");

  return p->device == device && !p->error && v != NULL && strcmp (g_variant_get_string (v, NULL), method) == 0;
}

static gboolean
same_size (const KsRun      *run,
           const KsRunPoint *p,
           const KsRunPoint *q)
{
  static const char *names[] = { "n", "systems", "precision" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (ks_run_point_get_number (run, p, names[i]) != ks_run_point_get_number (run, q, names[i]))
      return FALSE;
  return TRUE;
}

void
ks_exp_tridiag_append_prediction (KsVerdict   *v,
                                  const KsRun *run,
                                  guint        device,
                                  guint        time_col)
{
  const KsRunPoint *nat = NULL, *il = NULL;
  double systems = -INFINITY, n, ratio;
  guint elem;

  for (guint i = 0; i < run->points->len; i++)
    for (guint j = 0; j < run->points->len; j++)
      {
        const KsRunPoint *p = run->points->pdata[i], *q = run->points->pdata[j];

        if (point_is (run, p, device, "thomas-local") && point_is (run, q, device, "thomas-interleaved") &&
            same_size (run, p, q) && ks_run_point_get_number (run, p, "systems") > systems)
          nat = p, il = q, systems = ks_run_point_get_number (run, p, "systems");
      }
  if (nat == NULL || il->values[time_col] <= 0)
    return;
  n = ks_run_point_get_number (run, nat, "n");
  elem = ks_run_point_get_number (run, nat, "precision") == KS_PRECISION_DOUBLE ? 8 : 4;
  ratio = ks_exp_tridiag_predicted_ratio ((guint) n, (guint) systems, elem);
  if (!isfinite (ratio))
    return;
  ks_verdict_append (v, _("Predict, then measure: counted on a GPU's warps of 32 and 128-byte cache lines "
                          "(kernelscope-cli access tridiag-batch --method thomas-staged), the staged Thomas "
                          "kernel touches %.2fx as many lines in the natural layout as in the interleaved "
                          "one, so the interleaved layout should run %.2fx as fast; at %.0f systems the "
                          "times measured %.2fx."),
                     ratio, ratio, systems, nat->values[time_col] / il->values[time_col]);
}
