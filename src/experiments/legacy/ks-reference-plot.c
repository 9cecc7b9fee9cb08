/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-reference-plot.h"
#include "ks-reference.h"
#include "ks-results-plot.h"

#include <glib/gi18n-lib.h>

void
ks_reference_plot_add (KsPlot          *plot,
                       const KsResults *results,
                       guint            min_wg)
{
  g_autofree char *label = NULL;
  g_autoptr(GArray) sizes = NULL;

  g_return_if_fail (plot != NULL && results != NULL);

  label = ks_reference_label (results);
  if (results->kind == KS_EXPERIMENT_GAUSS_SIZE)
    {
      /* The policy's name is the description's choice, translated there. */
      g_autofree char *name = results->local == KS_LOCAL_DRIVER
        ? g_strdup_printf ("%s, %s", label, _(ks_local_policy_to_string (results->local)))
        : g_strdup_printf (_("%s, %s, group %u"), label, _(ks_local_policy_to_string (results->local)),
                           results->wg);
      ks_results_plot_add_size_series (plot, results, name, TRUE);
      return;
    }

  /* Work-group sweeps: the curves say which run they come from, not only
   * "(recorded)", since several recorded devices may share the axes. */
  sizes = ks_results_get_sizes (results);
  for (guint s = 0; s < sizes->len; s++)
    {
      const guint n = g_array_index (sizes, guint, s);
      g_autofree char *name = g_strdup_printf ("%s, n = %u", label, n);
      const guint series = ks_plot_add_series (plot, name);

      ks_plot_series_set_dashed (plot, series, TRUE);
      for (guint i = 0; i < results->points->len; i++)
        {
          const KsPoint *p = g_ptr_array_index (results->points, i);
          if (p->n == n && p->error == NULL && p->wg >= min_wg)
            ks_plot_add_point_full (plot, series, p->wg, p->median_ms, p->min_ms, p->max_ms,
                                    KS_PLOT_POINT_NONE, NULL);
        }
    }
}
