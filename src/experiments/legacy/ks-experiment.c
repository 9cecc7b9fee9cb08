/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-experiment.h"
#include "ks-compute-error.h"
#include "ks-engine.h"
#include "ks-exp-gauss.h"
#include "ks-ogs.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct _KsExperiment
{
  GObject       parent_instance;
  KsDevice     *device;
  KsSweepSpec   spec;        /* lists and command owned */
  KsResults    *results;
  GMutex        lock;        /* guards results->points */
  gboolean      running;
};

G_DEFINE_FINAL_TYPE (KsExperiment, ks_experiment, G_TYPE_OBJECT)

enum {
  POINT_MEASURED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static int
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return (x > y) - (x < y);
}

GArray *
ks_parse_uint_list (const char *text,
                    guint       min,
                    guint       max,
                    GError    **error)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (guint));
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i]; i++)
    {
      g_auto(GStrv) range = g_strsplit (g_strstrip (parts[i]), ":", -1);
      guint n_fields = g_strv_length (range);
      guint64 f[3] = { 0, 0, 1 };

      if (n_fields < 1 || n_fields > 3)
        goto bad;
      for (guint j = 0; j < n_fields; j++)
        {
          g_autoptr(GError) local = NULL;

          if (g_ascii_string_to_unsigned (g_strstrip (range[j]), 10, 0, G_MAXUINT, &f[j], &local))
            continue;
          /* 2^64 is a number, too large: said with the limits below. */
          if (!g_error_matches (local, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
            goto bad;
          f[j] = (guint64) G_MAXUINT + 1;   /* beyond any max, and a step that cannot wrap */
        }
      if (n_fields == 1)
        f[1] = f[0];
      if (f[2] == 0 || f[1] < f[0])
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       f[2] == 0 ? _("\"%s\": the step must be at least 1")
                                 : _("\"%s\": the range is empty (it starts above its end)"), parts[i]);
          return NULL;
        }
      if (f[0] < min || f[1] > max)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("\"%s\": values must lie between %u and %u"), parts[i], min, max);
          return NULL;
        }
      if ((f[1] - f[0]) / f[2] > 1000000)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("\"%s\" has more than a million values"), parts[i]);
          return NULL;
        }
      for (guint64 v = f[0]; v <= f[1]; v += f[2])
        {
          guint u = (guint) v;
          g_array_append_val (values, u);
        }
      continue;

    bad:
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("\"%s\" is not a number, a list (100,200) or a range from:to[:step] (100:1000:10)"),
                   parts[i]);
      return NULL;
    }

  if (values->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("The list \"%s\" is empty"), text);
      return NULL;
    }

  /* Ascending, no duplicates: the plots draw in x order. */
  g_array_sort (values, compare_uint);
  for (guint i = 1; i < values->len;)
    {
      if (g_array_index (values, guint, i) == g_array_index (values, guint, i - 1))
        g_array_remove_index (values, i);
      else
        i++;
    }
  return g_steal_pointer (&values);
}

static void
ks_experiment_finalize (GObject *object)
{
  KsExperiment *self = KS_EXPERIMENT (object);

  g_clear_object (&self->device);
  g_free ((gpointer) self->spec.sizes);
  g_free ((gpointer) self->spec.wgs);
  g_free ((gpointer) self->spec.command);
  g_clear_pointer (&self->results, ks_results_free);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (ks_experiment_parent_class)->finalize (object);
}

static void
ks_experiment_class_init (KsExperimentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ks_experiment_finalize;

  /* (const KsPoint *point, guint done, guint total).  The point belongs to
   * the experiment's results and stays valid as long as the experiment. */
  signals[POINT_MEASURED] =
    g_signal_new ("point-measured", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_POINTER, G_TYPE_UINT, G_TYPE_UINT);
}

static void
ks_experiment_init (KsExperiment *self)
{
  g_mutex_init (&self->lock);
}

KsExperiment *
ks_experiment_new (KsDevice          *device,
                   const KsSweepSpec *spec,
                   GError           **error)
{
  KsExperiment *self;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);
  g_return_val_if_fail (spec != NULL, NULL);

  if (spec->n_sizes == 0 || spec->sizes == NULL)
    {
      g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID, _("The sweep has no matrix size"));
      return NULL;
    }
  if (spec->reps == 0)
    {
      g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID, _("At least one repetition is needed"));
      return NULL;
    }
  for (guint i = 0; i < spec->n_sizes; i++)
    if (spec->sizes[i] < 2)
      {
        g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID,
                     _("n = %u: the method needs at least 2 unknowns"), spec->sizes[i]);
        return NULL;
      }
  if (!ks_gauss_check_launch (device, spec->launch, error))
    return NULL;
  /* In 64 bits: n_sizes * n_wgs wraps a guint (a heap overflow in ks_eta_new). */
  if ((guint64) spec->n_sizes * (spec->kind == KS_EXPERIMENT_GAUSS_WG ? MAX (spec->n_wgs, 1) : 1) > 1000000 ||
      spec->reps > 10000 || spec->warmup > 1000)
    {
      g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID,
                   _("The sweep is too large: at most 1000000 points, 10000 repetitions and 1000 warm-ups"));
      return NULL;
    }
  if (spec->kind == KS_EXPERIMENT_GAUSS_WG)
    {
      if (spec->n_wgs == 0 || spec->wgs == NULL)
        {
          g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID,
                       _("The work-group sweep has no group size"));
          return NULL;
        }
      if (ks_device_get_backend (device) == KS_BACKEND_HOST)
        {
          g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID,
                       _("The host backend runs plain C loops and has no work-groups to sweep; "
                       "choose an OpenCL or CUDA device"));
          return NULL;
        }
      if (spec->local == KS_LOCAL_DRIVER)
        {
          g_set_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_INVALID,
                       _("A work-group sweep sets the group size itself: use the explicit or split policy"));
          return NULL;
        }
    }
  else if (spec->local != KS_LOCAL_DRIVER && spec->wg == 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                   _("The %s policy needs a work-group size"), ks_local_policy_to_string (spec->local));
      return NULL;
    }

  self = g_object_new (KS_TYPE_EXPERIMENT, NULL);
  self->device = g_object_ref (device);
  self->spec = *spec;
  self->spec.sizes = g_memdup2 (spec->sizes, spec->n_sizes * sizeof (guint));
  self->spec.wgs = spec->n_wgs ? g_memdup2 (spec->wgs, spec->n_wgs * sizeof (guint)) : NULL;
  self->spec.command = g_strdup (spec->command);
  self->results = ks_results_new (spec->kind);
  return self;
}

guint
ks_experiment_get_n_points_total (KsExperiment *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT (self), 0);
  return self->spec.n_sizes * (self->spec.kind == KS_EXPERIMENT_GAUSS_WG ? self->spec.n_wgs : 1);
}

const KsResults *
ks_experiment_get_results (KsExperiment *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT (self), NULL);
  return self->results;
}

/* --- the sweep, through the generic engine ------------------------------------ */

/* The spec as the Gauss description's parameters.  range, local and wg
 * mean nothing on the host (its solver ignores them), so they are not set
 * there, where the engine would refuse them. */
static gboolean
set_engine (KsExperiment  *self,
            KsEngine      *engine,
            GError       **error)
{
  const KsSweepSpec *spec = &self->spec;
  const gboolean gpu = ks_device_get_backend (self->device) != KS_BACKEND_HOST;
  g_autoptr(GString) sizes = g_string_new (NULL);
  g_autoptr(GString) wgs = g_string_new (NULL);
  g_autofree char *seed = g_strdup_printf ("%u", spec->seed);
  g_autofree char *wg = g_strdup_printf ("%u", spec->wg);

  for (guint i = 0; i < spec->n_sizes; i++)
    g_string_append_printf (sizes, "%s%u", i ? "," : "", spec->sizes[i]);
  for (guint i = 0; i < spec->n_wgs; i++)
    g_string_append_printf (wgs, "%s%u", i ? "," : "", spec->wgs[i]);

  ks_engine_add_device (engine, self->device);
  ks_engine_set_command (engine, spec->command);
  if (!ks_engine_set (engine, "n", sizes->str, error) ||
      !ks_engine_set (engine, "precision", ks_precision_to_string (spec->precision), error) ||
      /* graph means something only on CUDA: given elsewhere it is refused. */
      (spec->launch == KS_LAUNCH_GRAPH && !ks_engine_set (engine, "graph", "true", error)) ||
      !ks_engine_set (engine, "seed", seed, error) ||
      !ks_engine_set_repetitions (engine, spec->warmup, spec->reps, error))
    return FALSE;
  if (!gpu)
    return TRUE;
  if (!ks_engine_set (engine, "range", ks_range_policy_to_string (spec->range), error) ||
      !ks_engine_set (engine, "local", ks_local_policy_to_string (spec->local), error))
    return FALSE;
  if (spec->kind == KS_EXPERIMENT_GAUSS_WG)
    return ks_engine_set (engine, "wg", wgs->str, error);
  return spec->local == KS_LOCAL_DRIVER || ks_engine_set (engine, "wg", wg, error);
}

/* The header the results had: the device, the settings, the paper's rule
 * (from the engine's run, once its device is described). */
static void
fill_header (KsExperiment *self,
             const KsRun  *run)
{
  KsResults *r = self->results;
  const KsDeviceInfo *info = ks_device_get_info (self->device);
  const KsRunDevice *d = run->devices->len ? run->devices->pdata[0] : NULL;
  const char *numbers[] = { "pwgsm", "cores_per_cu", "compute_units" };
  guint *fields[] = { &r->pwgsm, &r->cores_per_cu, &r->compute_units };

  g_free (r->device_id); r->device_id = g_strdup (info->id);
  g_free (r->device_name); r->device_name = g_strdup (info->name);
  g_free (r->platform); r->platform = g_strdup (info->platform_name);
  g_free (r->driver); r->driver = g_strdup (info->driver_version);
  g_free (r->date); r->date = g_strdup (run->date);
  g_free (r->command); r->command = g_strdup (self->spec.command);
  r->precision = self->spec.precision;
  r->range = self->spec.range;
  r->local = self->spec.local;
  r->wg = self->spec.wg;
  r->launch = self->spec.launch;
  r->warmup = self->spec.warmup;
  r->reps = self->spec.reps;
  r->seed = self->spec.seed;
  for (guint i = 0; d && i < G_N_ELEMENTS (numbers); i++)
    {
      double v = ks_run_device_get_info (d, numbers[i]);
      *fields[i] = isfinite (v) ? (guint) v : 0;
    }
  if (d && isfinite (ks_run_device_get_info (d, "ogs_predicted")))
    {
      r->ogs_predicted = (guint64) ks_run_device_get_info (d, "ogs_predicted");
      r->ogs_usable = (guint64) ks_run_device_get_info (d, "ogs_usable");
    }
}

/* The engine's point as a KsPoint, kept and passed on. */
static void
on_engine_point (KsEngine         *engine,
                 const KsRunPoint *q,
                 guint64           done,
                 guint64           total,
                 KsExperiment     *self)
{
  KsRun *run = ks_engine_get_run (engine);
  KsPoint p = { 0 };
  KsPoint *kept;

  fill_header (self, run);
  ks_exp_gauss_fill_point (run, q, &p);
  g_mutex_lock (&self->lock);
  ks_results_add_point (self->results, &p);
  kept = g_ptr_array_index (self->results->points, self->results->points->len - 1);
  g_mutex_unlock (&self->lock);
  g_free (p.error);
  g_signal_emit (self, signals[POINT_MEASURED], 0, kept, (guint) done, (guint) total);
}

static KsEngine *
start (KsExperiment  *self,
       GError       **error)
{
  g_autoptr(KsEngine) engine = ks_engine_new (self->spec.kind == KS_EXPERIMENT_GAUSS_WG ? &ks_exp_gauss_wg
                                                                                        : &ks_exp_gauss_size);

  self->results->complete = FALSE;
  g_clear_pointer (&self->results->stop_reason, g_free);
  if (!set_engine (self, engine, error))
    return NULL;
  g_signal_connect (engine, "point-measured", G_CALLBACK (on_engine_point), self);
  return g_steal_pointer (&engine);
}

/* The outcome: a run whose every point was refused is complete here, as
 * it always was for the pages (they show each refusal). */
static gboolean
finish (KsExperiment  *self,
        KsEngine      *engine,
        gboolean       ok,
        GError       **error)
{
  KsRun *run = ks_engine_get_run (engine);
  g_autoptr(GError) local_error = error && *error ? g_error_copy (*error) : NULL;

  fill_header (self, run);
  if (!ok && g_error_matches (local_error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_NOTHING) &&
      run->points->len > 0)
    {
      g_clear_error (error);
      ok = TRUE;
    }
  self->results->complete = ok;
  g_free (self->results->stop_reason);
  self->results->stop_reason = ok ? NULL : g_strdup (run->stop_reason);
  self->running = FALSE;
  return ok;
}

gboolean
ks_experiment_run (KsExperiment  *self,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autoptr(KsEngine) engine = NULL;
  g_autoptr(GError) local_error = NULL;
  gboolean ok;

  g_return_val_if_fail (KS_IS_EXPERIMENT (self), FALSE);
  g_return_val_if_fail (!self->running, FALSE);

  self->running = TRUE;
  if (!(engine = start (self, &local_error)))
    {
      self->running = FALSE;
      self->results->stop_reason = g_strdup (local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  ok = ks_engine_run (engine, cancellable, &local_error);
  ok = finish (self, engine, ok, &local_error);
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}

static void
run_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *task = user_data;
  KsExperiment *self = g_task_get_source_object (task);
  GError *error = NULL;
  gboolean ok = ks_engine_run_finish (KS_ENGINE (source), result, &error);

  if (finish (self, KS_ENGINE (source), ok, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

void
ks_experiment_run_async (KsExperiment        *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(KsEngine) engine = NULL;
  GError *error = NULL;

  g_return_if_fail (KS_IS_EXPERIMENT (self));
  g_return_if_fail (!self->running);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ks_experiment_run_async);
  self->running = TRUE;
  if (!(engine = start (self, &error)))
    {
      self->running = FALSE;
      self->results->stop_reason = g_strdup (error->message);
      g_task_return_error (task, error);
      return;
    }
  /* The engine keeps itself alive while it runs. */
  ks_engine_run_async (engine, cancellable, run_done, g_steal_pointer (&task));
}

gboolean
ks_experiment_run_finish (KsExperiment  *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  self->running = FALSE;
  return g_task_propagate_boolean (G_TASK (result), error);
}
