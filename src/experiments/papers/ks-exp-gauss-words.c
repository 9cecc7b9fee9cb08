/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss-words.c: what paper 000's descriptions say about their
 * runs beyond the generic: a point's explanation (its tooltip) and the
 * words after the CLI's table. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-gauss-private.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* --- words ------------------------------------------------------------------------------- */

char *
ks_exp_gauss_describe_point (const KsRun      *run,
                             const KsRunPoint *q)
{
  KsGaussPoint p;
  g_autoptr(GString) s = g_string_new (NULL);
  guint local, groups;

  g_return_val_if_fail (run != NULL && q != NULL, NULL);

  ks_exp_gauss_read_point (run, q, &p);
  if (p.error)
    {
      g_string_append_printf (s, _("n = %u: not measured: %s"), p.n, p.error);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (p.fwd_local[0] == 0)
    return p.n1_prime ? g_strdup_printf (_("N+1 = %u is prime"), p.n + 1) : NULL;
  local = p.fwd_local[0] * MAX (p.fwd_local[1], 1);
  groups = p.fwd_groups[0] * MAX (p.fwd_groups[1], 1);
  /* The paper's explanation of its outliers, in this point's numbers. */
  if (p.n1_prime && p.local == KS_LOCAL_DRIVER)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                            "N+1 = %u is prime: no group size but 1 and N+1 divides it, "
                                            "and the driver ran %u group of size %u",
                                            "N+1 = %u is prime: no group size but 1 and N+1 divides it, "
                                            "and the driver ran %u groups of size %u", groups),
                            p.n + 1, groups, local);
  else
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "The update kernel ran %u group of size %u",
                                            "The update kernel ran %u groups of size %u", groups),
                            groups, local);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The update kernel's group in terms of the range it cut: "(N+1, 1)"
 * (a whole row per group), "(1, N)", "(1, 1)" (the paper's outliers)... */
static char *
classify_shape (const KsGaussPoint *p)
{
  const guint cols = p->fwd_local[0] * p->fwd_groups[0];
  const guint rows = p->fwd_local[1] * p->fwd_groups[1];
  const char *x = p->fwd_local[0] == cols && cols > 1 ? "whole row" : NULL;
  const char *y = p->fwd_local[1] == rows && rows > 1 ? "whole column" : NULL;

  if (p->fwd_local[0] == 1 && p->fwd_local[1] == 1)
    return g_strdup ("(1, 1): one item per group");
  return g_strdup_printf ("(%s, %s)",
                          x ? x : p->fwd_local[0] == 1 ? "1" : "part of a row",
                          y ? y : p->fwd_local[1] == 1 ? "1" : "part of a column");
}

/* What a teacher wants to read after Fig. 2: are the prime-(N+1) points
 * slower than their neighbours, and which group sizes did the driver pick. */
static void
summarize_size (const KsGaussSweep *r,
                GString            *out)
{
  g_autoptr(GHashTable) shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GList) keys = NULL;
  double ratio_sum = 0.0, ratio;
  guint n_ratio = 0, n_prime = 0;

  for (guint i = 0; i < r->points->len; i++)
    {
      const KsGaussPoint *p = &g_array_index (r->points, KsGaussPoint, i);
      g_autofree char *shape = NULL;

      if (p->error)
        continue;
      if (p->fwd_local[0] == 0)
        goto prime;   /* the host backend runs plain loops: no work-groups */
      shape = classify_shape (p);
      g_hash_table_insert (shapes, g_strdup (shape),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (shapes, shape)) + 1));
    prime:
      if (!p->n1_prime)
        continue;
      n_prime++;
      if (ks_exp_gauss_neighbour_ratio (r, i, &ratio))
        {
          ratio_sum += ratio;
          n_ratio++;
        }
    }

  g_string_append_printf (out, "\nSummary: %u points, %u with N+1 prime\n", r->points->len, n_prime);
  if (n_ratio > 0)
    g_string_append_printf (out, "  prime-(N+1) points take %.2fx the time of their neighbours on average\n",
                            ratio_sum / n_ratio);
  if (r->launch == KS_LAUNCH_BLOCKED)
    {
      g_string_append (out, "  blocked kernels: 32 columns a launch, their own work-groups (no driver's choice)\n");
      return;
    }
  if (g_hash_table_size (shapes) == 0)
    {
      g_string_append (out, "  no work-groups: the host backend runs plain loops\n");
      return;
    }
  g_string_append (out, "  work-groups the update kernel ran with (points):\n");
  keys = g_list_sort (g_hash_table_get_keys (shapes), (GCompareFunc) strcmp);
  for (GList *l = keys; l; l = l->next)
    g_string_append_printf (out, "    %-36s %u\n", (const char *) l->data,
                            GPOINTER_TO_UINT (g_hash_table_lookup (shapes, l->data)));
}

static void
summarize_wg (const KsGaussSweep *r,
              GString            *out)
{
  g_autoptr(GArray) sizes = ks_exp_gauss_sweep_sizes (r);

  g_string_append (out, "\nBest measured work-group size per matrix size:\n");
  for (guint i = 0; i < sizes->len; i++)
    {
      guint n = g_array_index (sizes, guint, i);
      const KsGaussPoint *best = ks_exp_gauss_sweep_best (r, n);
      if (best)
        g_string_append_printf (out, "  n = %-6u best wg %-5u %10.3f ms\n", n, best->wg, best->time_ms);
    }
  if (r->ogs_predicted)
    g_string_append_printf (out, "Predicted by the paper's rule (PWGSM %u, %u cores x %u units): %" G_GUINT64_FORMAT
                            "%s\n", r->pwgsm, r->cores_per_cu, r->compute_units, r->ogs_predicted,
                            r->ogs_usable != r->ogs_predicted ? " (above the device's limit)" : "");
  else
    g_string_append (out, "The paper's rule cannot predict an optimum here (cores per unit or preferred "
                          "multiple unknown)\n");
}

void
ks_exp_gauss_summarize (const KsRun *run,
                        GString     *out)
{
  g_return_if_fail (run != NULL && out != NULL);

  for (guint d = 0; d < run->devices->len; d++)
    {
      g_auto(KsGaussSweep) r = { 0 };
      const KsRunDevice *dev = run->devices->pdata[d];

      if (!ks_exp_gauss_sweep_init (&r, run, d) || r.points->len == 0)
        continue;
      if (run->devices->len > 1)
        g_string_append_printf (out, "\n%s (%s):", dev->name, dev->id);
      if (r.wg_sweep)
        summarize_wg (&r, out);
      else
        summarize_size (&r, out);
    }
}
