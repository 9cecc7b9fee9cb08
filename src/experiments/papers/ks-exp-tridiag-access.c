/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag-access.c: tridiag-batch's "Inside the kernel": the
 * access model (ks-access.h) of Thomas, one work-item per system, and of
 * one PARACR level, a work-group per system, each in the natural layout
 * (one system after another) and the interleaved one (element i of every
 * system together), at the form's sizes.  Each variant stands for the
 * method measured from global memory in that layout. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-tridiag.h"
#include "ks-access-plot.h"
#include "ks-types.h"

#include <glib/gi18n-lib.h>

/* PARACR's levels offered: h = 1 .. 2^(MAX_LEVELS - 1), fewer for small systems. */
#define MAX_LEVELS 6

gboolean
ks_exp_tridiag_access (GHashTable    *values,
                       guint          variant,
                       KsAccessPoint *out,
                       char         **label,
                       char         **where)
{
  const KsExperimentDesc *desc = &ks_exp_tridiag_batch;
  const gint64 n = ks_experiment_desc_first_int (desc, values, "n", 255);
  const gint64 systems = ks_experiment_desc_first_int (desc, values, "systems", 64);
  const gboolean dbl = ks_experiment_desc_first_choice (desc, values, "precision", KS_PRECISION_FLOAT) ==
                       KS_PRECISION_DOUBLE;
  const gboolean il = variant % 2 == 1;
  const guint level = variant / 2 - 1;
  const char *method;

  *out = (KsAccessPoint) { .group = 64, .groups = 1, .n = (guint) n, .systems = (guint) systems,
                           .elem = dbl ? 8 : 4 };
  if (variant < 2)
    {
      out->kernel = il ? KS_ACCESS_THOMAS_INTERLEAVED : KS_ACCESS_THOMAS_NATURAL;
      method = il ? "thomas-coalesced" : "thomas-global";
      *label = g_strdup (il ? _("Thomas, interleaved layout") : _("Thomas, natural layout"));
    }
  else if (level < MAX_LEVELS && (1 << level) < n)
    {
      out->kernel = il ? KS_ACCESS_PARACR_INTERLEAVED : KS_ACCESS_PARACR_NATURAL;
      out->level = level;
      method = il ? "paracr-interleaved" : "paracr-global";
      *label = g_strdup_printf (il ? _("PARACR level %u, interleaved layout") : _("PARACR level %u, natural layout"),
                                level);
    }
  else
    return FALSE;
  *where = g_strdup_printf ("method=%s n=%" G_GINT64_FORMAT " systems=%" G_GINT64_FORMAT " precision=%s", method,
                            n, systems, dbl ? "double" : "float");
  return TRUE;
}
