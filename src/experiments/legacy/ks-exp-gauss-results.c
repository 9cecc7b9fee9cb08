/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss-results.c: what paper 000's descriptions say about their
 * runs beyond the generic: the figures (drawn by ks-results-plot.c, so the
 * prime-(N+1) highlight, the best-per-curve rings and the predicted optimum
 * stay as they were), the words after the CLI's table, a point's
 * explanation, and the bridge to KsResults (the format-1 files in
 * data/reference/ and the GUI's Gauss pages). */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-gauss.h"
#include "ks-ogs.h"
#include "ks-reference.h"
#include "ks-reference-plot.h"
#include "ks-results-plot.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* --- KsRun <-> KsResults ---------------------------------------------------------- */

static const char *const kernel_columns[KS_GAUSS_N_KERNELS] = {
  "gauss_fwd_pre_ms", "gauss_fwd_ms", "gauss_bwd_prepare_ms", "gauss_bwd_ms"
};

static const char *
point_string (const KsRun      *run,
              const KsRunPoint *p,
              const char       *name)
{
  GVariant *v = ks_run_point_get_param (run, p, name);
  return v ? g_variant_get_string (v, NULL) : NULL;
}

static guint
as_uint (double v)
{
  return isfinite (v) && v > 0 ? (guint) MIN (v, (double) G_MAXUINT) : 0;
}

/* Where a Gauss point keeps what a KsPoint has: indices looked up by name
 * once per description (by name at every point, reading a run of 10^6
 * points took seconds of strcmp). */
typedef struct {
  int n, wg, local;   /* parameters */
  int time, kernels, kernel[KS_GAUSS_N_KERNELS], residual, launches;
  int fwd_local[2], fwd_groups[2], capture, prime;
} GaussIndex;

static const GaussIndex *
gauss_index (const KsExperimentDesc *desc)
{
  static GaussIndex index[2];
  static gsize done[2];
  guint w = desc == &ks_exp_gauss_wg;

  if (g_once_init_enter (&done[w]))
    {
      GaussIndex *x = &index[w];

      x->n = ks_experiment_desc_find_param (desc, "n");
      x->wg = ks_experiment_desc_find_param (desc, "wg");
      x->local = ks_experiment_desc_find_param (desc, "local");
      x->time = ks_experiment_desc_find_column (desc, "time_ms");
      x->kernels = ks_experiment_desc_find_column (desc, "kernels_ms");
      for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
        x->kernel[k] = ks_experiment_desc_find_column (desc, kernel_columns[k]);
      x->residual = ks_experiment_desc_find_column (desc, "residual");
      x->launches = ks_experiment_desc_find_column (desc, "launches");
      x->fwd_local[0] = ks_experiment_desc_find_column (desc, "fwd_local_x");
      x->fwd_local[1] = ks_experiment_desc_find_column (desc, "fwd_local_y");
      x->fwd_groups[0] = ks_experiment_desc_find_column (desc, "fwd_groups_x");
      x->fwd_groups[1] = ks_experiment_desc_find_column (desc, "fwd_groups_y");
      x->capture = ks_experiment_desc_find_column (desc, "capture_ms");
      x->prime = ks_experiment_desc_find_column (desc, "n_plus_1_prime");
      g_once_init_leave (&done[w], 1);
    }
  return &index[w];
}

/* A whole-number parameter, 0 where it does not apply. */
static guint
param_uint (const KsRunPoint *q,
            int               i)
{
  GVariant *v = i >= 0 ? q->params[i] : NULL;

  return v && g_variant_is_of_type (v, G_VARIANT_TYPE_INT64) ? as_uint ((double) g_variant_get_int64 (v)) : 0;
}

static double
column (const KsRunPoint *q,
        int               i)
{
  return i >= 0 ? q->values[i] : NAN;
}

void
ks_exp_gauss_fill_point (const KsRun      *run,
                         const KsRunPoint *q,
                         KsPoint          *p)
{
  const GaussIndex *x;
  GVariant *local;

  g_return_if_fail (run != NULL && (run->desc == &ks_exp_gauss_size || run->desc == &ks_exp_gauss_wg));
  x = gauss_index (run->desc);
  local = x->local >= 0 ? q->params[x->local] : NULL;
  p->n = param_uint (q, x->n);
  p->wg = param_uint (q, x->wg);
  p->local = KS_LOCAL_DRIVER;
  if (local && g_variant_is_of_type (local, G_VARIANT_TYPE_STRING))
    ks_local_policy_from_string (g_variant_get_string (local, NULL), &p->local);
  p->reps = q->reps;
  /* A refused point measured nothing: zeros, as KsPoint always had. */
  if (q->error)
    {
      p->n1_prime = ks_is_prime ((guint64) p->n + 1);
      p->error = g_strdup (q->error);
      return;
    }
  p->n1_prime = column (q, x->prime) > 0;
  p->median_ms = column (q, x->time);
  p->min_ms = x->time >= 0 ? q->lo[x->time] : NAN;
  p->max_ms = x->time >= 0 ? q->hi[x->time] : NAN;
  p->kernels_ms = column (q, x->kernels);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    p->kernel_ms[k] = column (q, x->kernel[k]);
  p->residual = column (q, x->residual);
  p->launches = as_uint (column (q, x->launches));
  for (guint k = 0; k < 2; k++)
    {
      p->fwd_local[k] = as_uint (column (q, x->fwd_local[k]));
      p->fwd_groups[k] = as_uint (column (q, x->fwd_groups[k]));
    }
  p->capture_ms = column (q, x->capture);
  if (isnan (p->capture_ms))
    p->capture_ms = 0;
  p->error = g_strdup (q->error);
}

/* The run-wide settings a KsResults has, from the device's first point. */
static void
fill_settings (const KsRun      *run,
               const KsRunPoint *first,
               KsResults        *r)
{
  const char *s;
  GVariant *graph, *blocked;

  if (first == NULL)
    return;
  if ((s = point_string (run, first, "precision")))
    ks_precision_from_string (s, &r->precision);
  if ((s = point_string (run, first, "range")))
    ks_range_policy_from_string (s, &r->range);
  if ((s = point_string (run, first, "local")))
    ks_local_policy_from_string (s, &r->local);
  /* A group-size sweep has no one group size. */
  r->wg = run->desc == &ks_exp_gauss_wg ? 0 : as_uint (ks_run_point_get_number (run, first, "wg"));
  graph = ks_run_point_get_param (run, first, "graph");
  blocked = ks_experiment_desc_find_param (run->desc, "blocked") >= 0
    ? ks_run_point_get_param (run, first, "blocked") : NULL;
  r->launch = graph && g_variant_get_boolean (graph) ? KS_LAUNCH_GRAPH
            : blocked && g_variant_get_boolean (blocked) ? KS_LAUNCH_BLOCKED : KS_LAUNCH_STREAM;
  r->seed = as_uint (ks_run_point_get_number (run, first, "seed"));
}

/* A KsResults of the device's settings and no points: what names a run. */
static KsResults *
results_header (const KsRun *run,
                guint        device)
{
  g_autoptr(KsResults) r = NULL;
  const KsRunDevice *d;

  if ((run->desc != &ks_exp_gauss_size && run->desc != &ks_exp_gauss_wg) || device >= run->devices->len)
    return NULL;

  r = ks_results_new (run->desc == &ks_exp_gauss_wg ? KS_EXPERIMENT_GAUSS_WG : KS_EXPERIMENT_GAUSS_SIZE);
  d = run->devices->pdata[device];
  r->device_id = g_strdup (d->id);
  r->device_name = g_strdup (d->name);
  r->platform = g_strdup (d->platform);
  r->driver = g_strdup (d->driver);
  r->date = g_strdup (run->date);
  r->command = g_strdup (run->command);
  r->warmup = run->warmup;
  r->reps = run->reps;
  r->complete = run->complete;
  r->stop_reason = g_strdup (run->stop_reason);
  r->pwgsm = as_uint (ks_run_device_get_info (d, "pwgsm"));
  r->cores_per_cu = as_uint (ks_run_device_get_info (d, "cores_per_cu"));
  r->compute_units = as_uint (ks_run_device_get_info (d, "compute_units"));
  r->ogs_predicted = as_uint (ks_run_device_get_info (d, "ogs_predicted"));
  r->ogs_usable = as_uint (ks_run_device_get_info (d, "ogs_usable"));
  for (guint i = 0; i < run->points->len; i++)
    if (((const KsRunPoint *) run->points->pdata[i])->device == device)
      {
        fill_settings (run, run->points->pdata[i], r);
        break;
      }
  return g_steal_pointer (&r);
}

KsResults *
ks_exp_gauss_to_results (const KsRun *run,
                         guint        device)
{
  KsResults *r;

  g_return_val_if_fail (run != NULL, NULL);
  if (!(r = results_header (run, device)))
    return NULL;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];
      KsPoint *p;

      if (q->device != device)
        continue;
      /* Filled in place: ks_results_add_point's copy cost a tenth of
       * drawing a run of 10^6 points. */
      p = ks_point_new ();
      ks_exp_gauss_fill_point (run, q, p);
      g_ptr_array_add (r->points, p);
    }
  return r;
}

static void
set_number (KsRun      *run,
            KsRunPoint *p,
            const char *column,
            double      value)
{
  int i = ks_experiment_desc_find_column (run->desc, column);
  g_assert (i >= 0);
  p->values[i] = value;
}

static KsRunPoint *
point_from (KsRun           *run,
            const KsResults *r,
            const KsPoint   *q)
{
  KsRunPoint *p = ks_run_point_new (run);
  const KsExperimentDesc *desc = run->desc;
  int time = ks_experiment_desc_find_column (desc, "time_ms");
  GVariant *values[] = {
    g_variant_new_int64 (q->n),
    g_variant_new_string (ks_precision_to_string (r->precision)),
    g_variant_new_string (ks_range_policy_to_string (r->range)),
    g_variant_new_string (ks_local_policy_to_string (q->local)),
    q->local == KS_LOCAL_DRIVER ? NULL : g_variant_new_int64 (q->wg),
    g_variant_new_boolean (r->launch == KS_LAUNCH_GRAPH),
    g_variant_new_int64 (r->seed),
    g_variant_new_boolean (r->launch == KS_LAUNCH_BLOCKED),
  };
  const char *names[] = { "n", "precision", "range", "local", "wg", "graph", "seed", "blocked" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      int k = ks_experiment_desc_find_param (desc, names[i]);

      /* Only the size sweep has the blocked switch. */
      g_assert (k >= 0 || g_str_equal (names[i], "blocked"));
      if (k >= 0)
        p->params[k] = values[i] ? g_variant_ref_sink (values[i]) : NULL;
      else
        g_variant_unref (g_variant_ref_sink (values[i]));
    }
  /* A driver policy in a gauss-wg file is not one of its choices. */
  if (desc == &ks_exp_gauss_wg && q->local == KS_LOCAL_DRIVER)
    g_clear_pointer (&p->params[ks_experiment_desc_find_param (desc, "local")], g_variant_unref);
  p->reps = q->reps;
  p->error = g_strdup (q->error);
  if (q->error)
    return p;
  set_number (run, p, "time_ms", q->median_ms);
  p->lo[time] = q->min_ms;
  p->hi[time] = q->max_ms;
  set_number (run, p, "kernels_ms", q->kernels_ms);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    set_number (run, p, kernel_columns[k], q->kernel_ms[k]);
  set_number (run, p, "residual", q->residual);
  set_number (run, p, "launches", q->launches);
  set_number (run, p, "fwd_local_x", q->fwd_local[0]);
  set_number (run, p, "fwd_local_y", q->fwd_local[1]);
  set_number (run, p, "fwd_groups_x", q->fwd_groups[0]);
  set_number (run, p, "fwd_groups_y", q->fwd_groups[1]);
  set_number (run, p, "capture_ms", q->capture_ms);
  ks_run_derive (run, p);
  return p;
}

KsRun *
ks_exp_gauss_from_results (const KsResults *r)
{
  KsRun *run;
  KsRunDevice *d;
  g_autoptr(GStrvBuilder) axes = g_strv_builder_new ();

  g_return_val_if_fail (r != NULL, NULL);

  run = ks_run_new (r->kind == KS_EXPERIMENT_GAUSS_WG ? &ks_exp_gauss_wg : &ks_exp_gauss_size);
  d = ks_run_device_new ();
  d->id = g_strdup (r->device_id);
  d->name = g_strdup (r->device_name);
  d->platform = g_strdup (r->platform);
  d->driver = g_strdup (r->driver);
  d->backend = g_strdup (r->device_id && g_str_has_prefix (r->device_id, "cuda:") ? "cuda"
                         : g_strcmp0 (r->device_id, "host") == 0 ? "host" : "opencl");
  ks_run_device_set_info (d, "pwgsm", r->pwgsm);
  ks_run_device_set_info (d, "cores_per_cu", r->cores_per_cu);
  ks_run_device_set_info (d, "compute_units", r->compute_units);
  if (r->ogs_predicted)
    {
      ks_run_device_set_info (d, "ogs_predicted", r->ogs_predicted);
      ks_run_device_set_info (d, "ogs_usable", r->ogs_usable);
    }
  g_ptr_array_add (run->devices, d);
  run->date = g_strdup (r->date);
  run->command = g_strdup (r->command);
  run->warmup = r->warmup;
  run->reps = r->reps;
  run->complete = r->complete;
  run->stop_reason = g_strdup (r->stop_reason);
  run->n_planned = r->points->len;
  for (guint i = 0; i < r->points->len; i++)
    ks_run_add_point (run, point_from (run, r, r->points->pdata[i]));

  g_strv_builder_add (axes, "n");
  if (r->kind == KS_EXPERIMENT_GAUSS_WG)
    g_strv_builder_add (axes, "wg");
  g_strfreev (run->axes);
  run->axes = g_strv_builder_end (axes);
  g_hash_table_replace (run->settings, g_strdup ("precision"), g_strdup (ks_precision_to_string (r->precision)));
  g_hash_table_replace (run->settings, g_strdup ("range"), g_strdup (ks_range_policy_to_string (r->range)));
  g_hash_table_replace (run->settings, g_strdup ("local"), g_strdup (ks_local_policy_to_string (r->local)));
  g_hash_table_replace (run->settings, g_strdup ("seed"), g_strdup_printf ("%u", r->seed));
  g_hash_table_replace (run->settings, g_strdup ("graph"),
                        g_strdup (r->launch == KS_LAUNCH_GRAPH ? "true" : "false"));
  if (ks_experiment_desc_find_param (run->desc, "blocked") >= 0)
    g_hash_table_replace (run->settings, g_strdup ("blocked"),
                          g_strdup (r->launch == KS_LAUNCH_BLOCKED ? "true" : "false"));
  return run;
}

KsRun *
ks_exp_gauss_load_legacy (const KsExperimentDesc *desc,
                          const char             *data,
                          gssize                  length,
                          GError                **error)
{
  g_autoptr(KsResults) r = ks_results_from_json (data, length, error);

  return r ? ks_exp_gauss_from_results (r) : NULL;
}

/* The old Gauss pages' fields (their GSettings keys without the "size-" or
 * "wg-" prefix, and their sessions' "params") as the descriptions'
 * parameters: from, to and step become the axis of n; the work-group
 * preset becomes the axis of wg (multiples: the device's default); the
 * launch mode the graph switch; "hide wg = 1" the plot's lower limit. */
void
ks_exp_gauss_upgrade_values (const KsExperimentDesc *desc,
                             GHashTable             *values)
{
  g_autoptr(GHashTable) out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *same[] = { "precision", "range", "local" };
  const char *launch = g_hash_table_lookup (values, "launch");
  const char *reps = g_hash_table_lookup (values, "reps");
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (desc != NULL && values != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    if (g_hash_table_contains (values, same[i]))
      g_hash_table_insert (out, g_strdup (same[i]), g_strdup (g_hash_table_lookup (values, same[i])));
  if (reps != NULL)
    g_hash_table_insert (out, g_strdup ("@reps"), g_strdup (reps));
  if (launch != NULL)
    g_hash_table_insert (out, g_strdup ("graph"), g_strdup (g_strcmp0 (launch, "graph") == 0 ? "true" : "false"));
  if (launch != NULL && ks_experiment_desc_find_param (desc, "blocked") >= 0)
    g_hash_table_insert (out, g_strdup ("blocked"), g_strdup (g_strcmp0 (launch, "blocked") == 0 ? "true" : "false"));
  if (desc == &ks_exp_gauss_wg)
    {
      const char *preset = g_hash_table_lookup (values, "preset");
      const char *hide_one = g_hash_table_lookup (values, "hide-one");

      if (g_hash_table_contains (values, "sizes"))
        g_hash_table_insert (out, g_strdup ("n"), g_strdup (g_hash_table_lookup (values, "sizes")));
      if (g_strcmp0 (preset, "multiples") == 0)
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup (""));
      else if (g_strcmp0 (preset, "powers") == 0)
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup ("2^0:2^8"));
      else if (g_strcmp0 (preset, "custom") == 0 && g_hash_table_contains (values, "custom"))
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup (g_hash_table_lookup (values, "custom")));
      if (hide_one != NULL)
        g_hash_table_insert (out, g_strdup ("@min_x"), g_strdup (g_strcmp0 (hide_one, "true") == 0 ? "2" : "0"));
    }
  else
    {
      const char *from = g_hash_table_lookup (values, "from");
      const char *to = g_hash_table_lookup (values, "to");
      const char *step = g_hash_table_lookup (values, "step");

      if (from != NULL && to != NULL)
        g_hash_table_insert (out, g_strdup ("n"),
                             step == NULL || g_strcmp0 (step, "1") == 0 ? g_strdup_printf ("%s:%s", from, to)
                                                                        : g_strdup_printf ("%s:%s:%s", from, to, step));
      if (g_hash_table_contains (values, "wg"))
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup (g_hash_table_lookup (values, "wg")));
    }
  g_hash_table_remove_all (values);
  g_hash_table_iter_init (&iter, out);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (values, g_strdup (key), g_strdup (value));
}

/* A graph run is some 3x faster than the same kernels launched one by
 * one: the names must tell them apart (ks_reference_run_name does). */
char *
ks_exp_gauss_name_run (const KsRun *run)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (run != NULL, NULL);
  for (guint d = 0; d < run->devices->len; d++)
    {
      g_autoptr(KsResults) r = results_header (run, d);
      g_autofree char *name = r ? ks_reference_run_name (r) : NULL;

      g_string_append_printf (s, "%s%s", d ? " + " : "", name ? name : "?");
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* --- figures ------------------------------------------------------------------------ */

static guint
min_wg_of (const KsFigureOptions *options)
{
  if (options == NULL || !(options->min_x > 0))
    return 0;
  return (guint) MIN (options->min_x, (double) G_MAXUINT);
}

/* Every device of every run, as the Gauss plots take them. */
static GPtrArray *
all_results (KsRun * const *runs,
             guint          n_runs)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_results_free);

  for (guint i = 0; i < n_runs; i++)
    for (guint d = 0; d < runs[i]->devices->len; d++)
      {
        KsResults *r = ks_exp_gauss_to_results (runs[i], d);
        if (r)
          g_ptr_array_add (all, r);
      }
  return all;
}

KsPlot *
ks_exp_gauss_plot_new (const KsExperimentDesc *desc,
                       const KsFigureSpec     *figure,
                       KsRun * const          *runs,
                       guint                   n_runs,
                       const KsFigureOptions  *options)
{
  g_autoptr(GPtrArray) all = all_results (runs, n_runs);
  KsPlot *plot;

  if (all->len == 0)
    {
      plot = ks_plot_new ();
      ks_plot_set_title (plot, _(figure->title));
    }
  else
    plot = ks_results_plot_new_compare ((const KsResults * const *) all->pdata, all->len, min_wg_of (options));
  if (options && options->log_y)
    ks_plot_set_log_y (plot, TRUE);
  return plot;
}

void
ks_exp_gauss_add_recorded (const KsExperimentDesc *desc,
                           const KsFigureSpec     *figure,
                           KsPlot                 *plot,
                           const KsRun            *run,
                           const KsFigureOptions  *options)
{
  KsRun *one = (KsRun *) run;
  g_autoptr(GPtrArray) all = all_results (&one, 1);

  for (guint i = 0; i < all->len; i++)
    ks_reference_plot_add (plot, all->pdata[i], min_wg_of (options));
}

/* --- words ------------------------------------------------------------------------------- */

char *
ks_exp_gauss_describe_point (const KsRun      *run,
                             const KsRunPoint *q)
{
  KsPoint p = { 0 };
  g_autoptr(GString) s = g_string_new (NULL);
  guint local, groups;

  g_return_val_if_fail (run != NULL && q != NULL, NULL);

  ks_exp_gauss_fill_point (run, q, &p);
  if (p.error)
    {
      g_string_append_printf (s, _("n = %u: not measured: %s"), p.n, p.error);
      g_free (p.error);
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
classify_shape (const KsPoint *p)
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
summarize_size (const KsResults *r,
                GString         *out)
{
  g_autoptr(GHashTable) shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GList) keys = NULL;
  double ratio_sum = 0.0, ratio;
  guint n_ratio = 0, n_prime = 0;

  for (guint i = 0; i < r->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (r->points, i);
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
summarize_wg (const KsResults *r,
              GString         *out)
{
  g_autoptr(GArray) sizes = ks_results_get_sizes (r);

  g_string_append (out, "\nBest measured work-group size per matrix size:\n");
  for (guint i = 0; i < sizes->len; i++)
    {
      guint n = g_array_index (sizes, guint, i);
      const KsPoint *best = ks_results_best_for_n (r, n);
      if (best)
        g_string_append_printf (out, "  n = %-6u best wg %-5u %10.3f ms\n", n, best->wg, best->median_ms);
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
      g_autoptr(KsResults) r = ks_exp_gauss_to_results (run, d);

      if (r == NULL || r->points->len == 0)
        continue;
      if (run->devices->len > 1)
        g_string_append_printf (out, "\n%s (%s):", r->device_name, r->device_id);
      if (r->kind == KS_EXPERIMENT_GAUSS_WG)
        summarize_wg (r, out);
      else
        summarize_size (r, out);
    }
}
