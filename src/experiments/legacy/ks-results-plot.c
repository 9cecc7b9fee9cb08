/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-results-plot.h"
#include "ks-reference.h"

#include <glib/gi18n-lib.h>

#include <math.h>

static char *
default_series_name (const KsResults *results)
{
  /* The policies' names are the description's choices, translated there. */
  if (results->local == KS_LOCAL_DRIVER)
    return g_strdup_printf (_("%s, driver's group size"), _(ks_range_policy_to_string (results->range)));
  /* TRANSLATORS: the range policy, the group policy and the group size: "fixed, explicit, group 64" */
  return g_strdup_printf (_("%s, %s, group %u"), _(ks_range_policy_to_string (results->range)),
                          _(ks_local_policy_to_string (results->local)), results->wg);
}

void
ks_results_plot_add_size_series (KsPlot          *plot,
                                 const KsResults *results,
                                 const char      *series_name,
                                 gboolean         dashed)
{
  g_autofree char *name = series_name ? g_strdup (series_name) : default_series_name (results);
  guint series;

  g_return_if_fail (plot != NULL && results != NULL);

  series = ks_plot_add_series (plot, name);
  ks_plot_series_set_dashed (plot, series, dashed);
  for (guint i = 0; i < results->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (results->points, i);
      g_autofree char *label = NULL;

      if (p->error != NULL)
        continue;
      if (p->n1_prime)
        label = g_strdup_printf (_("N+1 = %u"), p->n + 1);
      ks_plot_add_point_full (plot, series, p->n, p->median_ms, p->min_ms, p->max_ms,
                              p->n1_prime ? KS_PLOT_POINT_HIGHLIGHT : KS_PLOT_POINT_NONE, label);
    }
  ks_plot_set_highlight_legend (plot, _("N+1 prime"));
}

void
ks_results_plot_add_wg_series (KsPlot          *plot,
                               const KsResults *results,
                               guint            min_wg,
                               gboolean         dashed)
{
  ks_results_plot_add_wg_series_named (plot, results, min_wg, dashed,
                                       dashed ? _(" (recorded)") : NULL);
}

void
ks_results_plot_add_wg_series_named (KsPlot          *plot,
                                     const KsResults *results,
                                     guint            min_wg,
                                     gboolean         dashed,
                                     const char      *suffix)
{
  g_autoptr(GArray) sizes = NULL;
  guint max_wg = 0;

  g_return_if_fail (plot != NULL && results != NULL);

  sizes = ks_results_get_sizes (results);
  for (guint s = 0; s < sizes->len; s++)
    {
      guint n = g_array_index (sizes, guint, s);
      g_autofree char *name = g_strdup_printf ("n = %u%s", n, suffix ? suffix : "");
      const KsPoint *best = ks_results_best_for_n (results, n);
      guint series = ks_plot_add_series (plot, name);

      ks_plot_series_set_dashed (plot, series, dashed);
      for (guint i = 0; i < results->points->len; i++)
        {
          const KsPoint *p = g_ptr_array_index (results->points, i);
          g_autofree char *label = NULL;

          if (p->n != n || p->error != NULL || p->wg < min_wg)
            continue;
          max_wg = MAX (max_wg, p->wg);
          if (p == best)
            label = g_strdup_printf (_("best %u"), p->wg);
          ks_plot_add_point_full (plot, series, p->wg, p->median_ms, p->min_ms, p->max_ms,
                                  p == best ? KS_PLOT_POINT_BEST : KS_PLOT_POINT_NONE, label);
        }
    }

  if (results->ogs_usable > 0 && results->ogs_usable <= MAX (max_wg, 1))
    {
      g_autofree char *label = results->ogs_usable == results->ogs_predicted
        ? g_strdup_printf (_("predicted optimum %lu"), (unsigned long) results->ogs_predicted)
        : g_strdup_printf (_("rule gives %lu, device allows %lu"),
                           (unsigned long) results->ogs_predicted, (unsigned long) results->ogs_usable);
      ks_plot_add_vline (plot, results->ogs_usable, label);
    }
}

KsPlot *
ks_results_plot_new (const KsResults *results,
                     guint            min_wg)
{
  KsPlot *plot = ks_plot_new ();
  g_autofree char *caption = NULL;
  g_autofree char *day = results->date ? g_strndup (results->date, 10) : NULL;

  caption = g_strdup_printf ("%s · %s %s · %s · %s%s", results->device_name,
                             results->platform ? results->platform : "",
                             results->driver ? results->driver : "",
                             ks_precision_to_string (results->precision),
                             day ? day : "",
                             results->complete ? "" : _(" · incomplete"));
  ks_plot_set_caption (plot, caption);

  if (results->kind == KS_EXPERIMENT_GAUSS_WG)
    {
      ks_plot_set_title (plot, _("Gauss elimination: time vs work-group size"));
      ks_plot_set_axis_labels (plot, _("work-group size"), _("time per solve, ms"));
      ks_plot_set_log_y (plot, TRUE);
      ks_results_plot_add_wg_series (plot, results, min_wg, FALSE);
    }
  else
    {
      ks_plot_set_title (plot, _("Gauss elimination: time vs matrix size"));
      ks_plot_set_axis_labels (plot, _("matrix size n"), _("time per solve, ms"));
      ks_results_plot_add_size_series (plot, results, NULL, FALSE);
    }
  return plot;
}

static char *
run_policy (const KsResults *r)
{
  if (r->kind == KS_EXPERIMENT_GAUSS_SIZE)
    return default_series_name (r);
  return g_strdup_printf ("%s, %s", _(ks_range_policy_to_string (r->range)), _(ks_local_policy_to_string (r->local)));
}

KsPlot *
ks_results_plot_new_compare (const KsResults * const *runs,
                             guint                    n_runs,
                             guint                    min_wg)
{
  KsPlot *plot;
  g_autofree guint *first = NULL;
  g_auto(GStrv) names = NULL;

  g_return_val_if_fail (runs != NULL && n_runs > 0, NULL);

  plot = ks_results_plot_new (runs[0], min_wg);
  if (n_runs == 1)
    return plot;

  /* Which curves belong to which run: each run adds its own after the last. */
  first = g_new0 (guint, n_runs + 1);
  names = g_new0 (char *, n_runs + 1);
  first[1] = ks_plot_get_n_series (plot);
  for (guint i = 1; i < n_runs; i++)
    {
      if (runs[i]->kind == KS_EXPERIMENT_GAUSS_WG)
        ks_results_plot_add_wg_series (plot, runs[i], min_wg, FALSE);
      else
        ks_results_plot_add_size_series (plot, runs[i], NULL, FALSE);
      first[i + 1] = ks_plot_get_n_series (plot);
    }
  for (guint i = 0; i < n_runs; i++)
    names[i] = ks_reference_run_name (runs[i]);
  for (guint i = 0; i < n_runs; i++)
    {
      gboolean shared = FALSE;
      g_autofree char *policy = run_policy (runs[i]);

      for (guint j = 0; j < n_runs; j++)
        shared |= j != i && g_strcmp0 (names[i], names[j]) == 0;
      for (guint s = first[i]; s < first[i + 1]; s++)
        {
          const char *base = ks_plot_series_get_name (plot, s);
          g_autofree char *name = NULL;

          /* A size run's own name is already its policy. */
          if (shared && runs[i]->kind != KS_EXPERIMENT_GAUSS_SIZE)
            name = g_strdup_printf ("%s · %s · %s", base, names[i], policy);
          else
            name = g_strdup_printf ("%s · %s", base, names[i]);
          ks_plot_series_set_name (plot, s, name);
          /* Earlier runs stay beside the newest (the last), dashed. */
          if (i + 1 < n_runs)
            ks_plot_series_set_dashed (plot, s, TRUE);
        }
    }
  ks_plot_set_caption (plot, NULL);
  return plot;
}
