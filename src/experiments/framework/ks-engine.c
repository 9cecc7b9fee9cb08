/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine.c: runs any experiment description.  The plan (which points,
 * on which device) is in ks-engine-plan.c. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-engine-private.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (KsEngine, ks_engine, G_TYPE_OBJECT)

enum {
  POINT_MEASURED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
ks_engine_finalize (GObject *object)
{
  KsEngine *self = KS_ENGINE (object);

  for (guint i = 0; i < self->desc->n_params; i++)
    {
      g_clear_pointer (&self->given[i], g_ptr_array_unref);
      g_free (self->given_text[i]);
    }
  g_free (self->given);
  g_free (self->given_text);
  g_ptr_array_unref (self->devices);
  g_ptr_array_unref (self->plans);
  g_strfreev (self->notes);
  g_strfreev (self->warnings);
  g_free (self->command);
  g_clear_pointer (&self->run, ks_run_unref);
  g_clear_pointer (&self->work, ks_run_unref);
  g_clear_pointer (&self->eta, ks_eta_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->images, g_ptr_array_unref);
  g_clear_pointer (&self->extra_outputs, g_ptr_array_unref);
  g_clear_pointer (&self->extra_inputs, g_ptr_array_unref);

  G_OBJECT_CLASS (ks_engine_parent_class)->finalize (object);
}

static void
ks_engine_class_init (KsEngineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ks_engine_finalize;

  signals[POINT_MEASURED] =
    g_signal_new ("point-measured", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_POINTER, G_TYPE_UINT64, G_TYPE_UINT64);
}

static void
ks_engine_init (KsEngine *self)
{
  self->devices = g_ptr_array_new_with_free_func (g_object_unref);
  self->plans = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_engine_plan_free);
  self->warmup = 1;
  self->reps = 3;
  self->notes = g_new0 (char *, 1);
  self->warnings = g_new0 (char *, 1);
  self->images = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
}

KsEngine *
ks_engine_new (const KsExperimentDesc *desc)
{
  KsEngine *self;

  g_return_val_if_fail (desc != NULL, NULL);

  self = g_object_new (KS_TYPE_ENGINE, NULL);
  self->desc = desc;
  self->given = g_new0 (GPtrArray *, MAX (desc->n_params, 1));
  self->given_text = g_new0 (char *, MAX (desc->n_params, 1));
  self->run = ks_run_new (desc);
  return self;
}

const KsExperimentDesc *
ks_engine_get_desc (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);
  return self->desc;
}

static gboolean
unknown_param (KsEngine    *self,
               const char  *name,
               GError     **error)
{
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_UNKNOWN,
               _("%s has no parameter \"%s\""), self->desc->id, name);
  return FALSE;
}

/* Takes axis and text (how the user spelt it, for the run's settings). */
static void
put_given (KsEngine  *self,
           guint      param,
           GPtrArray *axis,
           char      *text)
{
  g_clear_pointer (&self->given[param], g_ptr_array_unref);
  g_free (self->given_text[param]);
  self->given[param] = axis;
  self->given_text[param] = text;
}

gboolean
ks_engine_set (KsEngine    *self,
               const char  *name,
               const char  *text,
               GError     **error)
{
  GPtrArray *axis;
  int i;

  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (name != NULL && text != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  if ((i = ks_experiment_desc_find_param (self->desc, name)) < 0)
    return unknown_param (self, name, error);
  if (!(axis = ks_param_parse_axis (&self->desc->params[i], text, error)))
    return FALSE;
  put_given (self, (guint) i, axis, g_strdup (text));
  return TRUE;
}

gboolean
ks_engine_set_axis (KsEngine    *self,
                    guint        param,
                    GPtrArray   *axis,
                    GError     **error)
{
  const KsParamSpec *spec;
  g_autoptr(GPtrArray) copy = NULL;

  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (param < self->desc->n_params, FALSE);
  g_return_val_if_fail (axis != NULL, FALSE);
  g_return_val_if_fail (!self->prepared, FALSE);

  spec = &self->desc->params[param];
  if (axis->len == 0 || (axis->len > 1 && !spec->sweepable) || axis->len > KS_MAX_AXIS_VALUES)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR,
                   axis->len > KS_MAX_AXIS_VALUES ? KS_EXPERIMENT_ERROR_TOO_LARGE : KS_EXPERIMENT_ERROR_INVALID,
                   axis->len == 0 ? _("--%s is empty") : axis->len > KS_MAX_AXIS_VALUES
                                 ? _("--%s has too many values") : _("--%s takes one value"),
                   ks_param_spec_option (spec));
      return FALSE;
    }
  copy = g_ptr_array_new_full (axis->len, (GDestroyNotify) g_variant_unref);
  for (guint k = 0; k < axis->len; k++)
    {
      if (!ks_param_check_value (spec, axis->pdata[k], error))
        return FALSE;
      g_ptr_array_add (copy, g_variant_ref (axis->pdata[k]));
    }
  put_given (self, param, g_steal_pointer (&copy), ks_param_axis_to_string (axis));
  return TRUE;
}

gboolean
ks_engine_is_set (KsEngine   *self,
                  const char *name)
{
  int i;

  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);
  i = ks_experiment_desc_find_param (self->desc, name);
  return i >= 0 && self->given[i] != NULL;
}

void
ks_engine_add_device (KsEngine *self,
                      KsDevice *device)
{
  g_return_if_fail (KS_IS_ENGINE (self));
  g_return_if_fail (KS_IS_DEVICE (device));
  g_return_if_fail (!self->prepared);
  g_ptr_array_add (self->devices, g_object_ref (device));
}

gboolean
ks_engine_set_repetitions (KsEngine  *self,
                           guint      warmup,
                           guint      reps,
                           GError   **error)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);

  if (reps < 1 || reps > KS_MAX_REPS || warmup > KS_MAX_WARMUP)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, reps < 1 ? KS_EXPERIMENT_ERROR_INVALID : KS_EXPERIMENT_ERROR_TOO_LARGE,
                   _("--reps must lie between 1 and %d, --warmup between 0 and %d (each point is "
                     "run that often)"), KS_MAX_REPS, KS_MAX_WARMUP);
      return FALSE;
    }
  self->warmup = warmup;
  self->reps = reps;
  return TRUE;
}

void
ks_engine_set_command (KsEngine   *self,
                       const char *command)
{
  g_return_if_fail (KS_IS_ENGINE (self));
  g_free (self->command);
  self->command = g_strdup (command);
}

const char * const *
ks_engine_get_notes (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);
  return (const char * const *) self->notes;
}

const char * const *
ks_engine_get_warnings (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);
  return (const char * const *) self->warnings;
}

void
ks_engine_set_leave_out_foreign (KsEngine *self,
                                 gboolean  leave_out)
{
  g_return_if_fail (KS_IS_ENGINE (self));
  g_return_if_fail (!self->prepared);
  self->leave_out_foreign = leave_out;
}

const char * const *
ks_engine_get_left_out (KsEngine *self,
                        guint     index)
{
  KsEnginePlan *plan;

  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);
  g_return_val_if_fail (self->prepared, NULL);
  if (index >= self->plans->len)
    return NULL;
  plan = self->plans->pdata[index];
  return (const char * const *) plan->left_out->pdata;
}

KsDevice *
ks_engine_get_device (KsEngine *self,
                      guint     index)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);
  return index < self->devices->len ? self->devices->pdata[index] : NULL;
}

guint64
ks_engine_get_n_points (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), 0);
  return self->total;
}

KsRun *
ks_engine_get_run (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);
  return self->run;
}

double
ks_engine_get_seconds_left (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), -1);
  return self->eta ? ks_eta_get_seconds_left (self->eta) : -1;
}

double
ks_engine_get_fraction (KsEngine *self)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), 0);
  return self->eta ? ks_eta_get_fraction (self->eta) : 0;
}

/* --- one point ----------------------------------------------------------------- */

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Reduces the repetitions of one column (NANs, which the measuring
 * function left unset, skipped). */
static void
reduce (KsReduction reduction,
        double     *v,
        guint       n,
        double     *out,
        double     *lo,
        double     *hi)
{
  guint m = 0;
  double last = NAN, sum = 0;

  for (guint i = 0; i < n; i++)
    if (!isnan (v[i]))
      {
        last = v[i];
        sum += v[i];
        v[m++] = v[i];
      }
  *out = *lo = *hi = NAN;
  if (m == 0)
    return;
  qsort (v, m, sizeof v[0], compare_double);
  switch (reduction)
    {
    case KS_REDUCE_MEDIAN_RANGE:
      *lo = v[0];
      *hi = v[m - 1];
      G_GNUC_FALLTHROUGH;
    case KS_REDUCE_MEDIAN:
      *out = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
      break;
    case KS_REDUCE_MIN:  *out = v[0]; break;
    case KS_REDUCE_MAX:  *out = v[m - 1]; break;
    case KS_REDUCE_MEAN: *out = sum / m; break;
    case KS_REDUCE_SUM:  *out = sum; break;
    case KS_REDUCE_LAST:
    default:             *out = last; break;
    }
}

static gboolean
is_refusal (const GError *error)
{
  return g_error_matches (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED) ||
         g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
}

/* Prepare, warm-up, repetitions and reduction of one point into p.  FALSE
 * with error when it failed; a refusal is the caller's to tell apart. */
static gboolean
measure_point (KsEngine       *self,
               gpointer        state,
               const KsConfig *config,
               KsRunPoint     *p,
               GCancellable   *cancellable,
               GError        **error)
{
  const KsExperimentDesc *desc = self->desc;
  const guint nc = MAX (desc->n_columns, 1);
  g_autofree double *rep = g_new (double, nc);
  g_autofree double *all = g_new (double, (gsize) nc * self->reps);

  if (desc->prepare && !desc->prepare (state, config, cancellable, error))
    return FALSE;
  for (guint i = 0; i < self->warmup; i++)
    {
      for (guint c = 0; c < nc; c++)
        rep[c] = NAN;
      if (!desc->measure_one_rep (state, config, rep, cancellable, error))
        return FALSE;
    }
  for (guint r = 0; r < self->reps; r++)
    {
      for (guint c = 0; c < nc; c++)
        rep[c] = NAN;
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !desc->measure_one_rep (state, config, rep, cancellable, error))
        return FALSE;
      for (guint c = 0; c < desc->n_columns; c++)
        all[(gsize) c * self->reps + r] = rep[c];
    }
  if (desc->commit && !desc->commit (state, config, error))
    return FALSE;
  for (guint c = 0; c < desc->n_columns; c++)
    if (desc->columns[c].derive == NULL)
      reduce (desc->columns[c].reduce, all + (gsize) c * self->reps, self->reps,
              &p->values[c], &p->lo[c], &p->hi[c]);
  p->reps = self->reps;
  return TRUE;
}

/* --- publishing -------------------------------------------------------------------- */

/* What the worker hands the caller's context: a point (a copy of the
 * worker's), or a device's numbers (point NULL). */
typedef struct {
  KsEngine   *self;
  KsRunPoint *point;
  GPtrArray  *images;   /* the point's pictures (the description's images hook), or NULL */
  guint       device;
  guint64     done;
  double      cost_ms;
} EmitData;

static gboolean
emit_in_context (gpointer data)
{
  EmitData *e = data;
  KsEngine *self = e->self;

  if (e->point == NULL)
    ks_run_device_copy_info (self->run->devices->pdata[e->device], self->work->devices->pdata[e->device]);
  else
    {
      ks_run_add_point (self->run, e->point);
      if (e->images)
        {
          if (self->images->len <= e->point->device)
            g_ptr_array_set_size (self->images, e->point->device + 1);
          g_clear_pointer (&self->images->pdata[e->point->device], g_ptr_array_unref);
          self->images->pdata[e->point->device] = g_steal_pointer (&e->images);
        }
      /* The estimate lives on the main context, next to its readers. */
      ks_eta_add_cost (self->eta, e->point->error != NULL, e->cost_ms,
                       (g_get_monotonic_time () - self->started) / 1e6);
      g_signal_emit (self, signals[POINT_MEASURED], 0, e->point, e->done, self->total);
    }
  g_clear_pointer (&e->images, g_ptr_array_unref);
  g_object_unref (self);
  g_free (e);
  return G_SOURCE_REMOVE;
}

static void
send (KsEngine *self,
      EmitData *e,
      gboolean  in_worker)
{
  e->self = g_object_ref (self);
  if (in_worker)
    {
      /* Not g_main_context_invoke: where the caller's context is the global
       * default, the worker could acquire it and emit on its own thread.
       * Sources of one priority are dispatched in the order attached. */
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, emit_in_context, e, NULL);
      g_source_attach (source, self->context);
    }
  else
    emit_in_context (e);
}

static void
publish (KsEngine   *self,
         KsRunPoint *point,
         GPtrArray  *images,
         guint64     done,
         double      cost_ms,
         gboolean    in_worker)
{
  EmitData *e = g_new0 (EmitData, 1);

  ks_run_add_point (self->work, point);
  e->point = ks_run_point_copy (point);
  e->images = images;
  e->done = done;
  e->cost_ms = cost_ms;
  send (self, e, in_worker);
}

static void
publish_device (KsEngine *self,
                guint     device,
                gboolean  in_worker)
{
  EmitData *e = g_new0 (EmitData, 1);

  e->device = device;
  send (self, e, in_worker);
}

/* --- the run --------------------------------------------------------------------- */

/* The reason is kept in the files: English, like the rest of their keys. */
static void
stop (KsEngine     *self,
      guint64       done,
      const GError *error)
{
  g_free (self->work->stop_reason);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    self->work->stop_reason = g_strdup_printf ("cancelled after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                              " points", done, self->total);
  else
    self->work->stop_reason = g_strdup_printf ("stopped after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                              " points: %s", done, self->total, error->message);
}

/* One device's points.  FALSE: the run stops (error set, stop_reason too). */
static gboolean
run_device (KsEngine      *self,
            guint          index,
            guint64       *done,
            GCancellable  *cancellable,
            gboolean       in_worker,
            GError       **error)
{
  const KsExperimentDesc *desc = self->desc;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(KsEngineCursor) cursor = NULL;
  KsEnginePlan *plan = self->plans->pdata[index];
  gpointer state;

  if (!(state = desc->set_up (desc, plan->device, plan->base, cancellable, &local_error)))
    {
      /* A set-up that failed without saying why must not crash the run. */
      if (local_error == NULL)
        g_set_error (&local_error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     _("%s could not be set up on %s"), desc->id, ks_device_get_name (plan->device));
      stop (self, *done, local_error);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (desc->describe_device)
    desc->describe_device (state, plan->base, self->work->devices->pdata[index]);
  /* The roofline's floor (ks-roofline.h): the device's triad where it was
   * measured before the run (the Devices page, another run's probe), so
   * the file carries it to any machine. */
  if (isnan (ks_run_device_get_info (self->work->devices->pdata[index], "triad_gbs")) &&
      ks_device_get_bandwidth (plan->device) > 0)
    ks_run_device_set_info (self->work->devices->pdata[index], "triad_gbs", ks_device_get_bandwidth (plan->device));
  if (desc->describe_device || ks_device_get_bandwidth (plan->device) > 0)
    publish_device (self, index, in_worker);

  cursor = ks_engine_cursor_new (plan);
  while (ks_engine_cursor_next (cursor))
    {
      const KsConfig *config = ks_engine_cursor_get (cursor);
      KsRunPoint *p = ks_run_point_new (self->work);
      gint64 t0 = g_get_monotonic_time ();
      GPtrArray *images = NULL;

      p->device = index;
      for (guint i = 0; i < desc->n_params; i++)
        p->params[i] = ks_config_value (config, i) ? g_variant_ref (ks_config_value (config, i)) : NULL;
      if (!measure_point (self, state, config, p, cancellable, &local_error))
        {
          if (!is_refusal (local_error) || g_cancellable_is_cancelled (cancellable))
            {
              ks_run_point_free (p);
              stop (self, *done, local_error);
              g_propagate_error (error, g_steal_pointer (&local_error));
              desc->tear_down (state);
              return FALSE;
            }
          p->error = g_strdup (local_error->message);
          g_clear_error (&local_error);
          for (guint c = 0; c < desc->n_columns; c++)
            p->values[c] = p->lo[c] = p->hi[c] = NAN;
        }
      else
        {
          ks_run_derive (self->work, p);
          /* Now, while state still holds this point. */
          if (desc->images)
            images = desc->images (state, config);
        }
      publish (self, p, images, ++*done, (g_get_monotonic_time () - t0) / 1e3, in_worker);
    }
  desc->tear_down (state);
  return TRUE;
}

/* On the worker's run; finish () hands the outcome to the caller's. */
static gboolean
run_all (KsEngine      *self,
         GCancellable  *cancellable,
         gboolean       in_worker,
         GError       **error)
{
  guint64 done = 0;

  for (guint d = 0; d < self->plans->len; d++)
    if (!run_device (self, d, &done, cancellable, in_worker, error))
      return FALSE;

  if (ks_run_count_measured (self->work) == 0)
    {
      const KsRunPoint *first = self->work->points->len ? self->work->points->pdata[0] : NULL;
      g_autoptr(GError) nothing = g_error_new (KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_NOTHING,
                                               _("No point could be measured (%s)"),
                                               first && first->error ? first->error : _("no points"));

      /* error may be NULL: the reason is kept with the run all the same. */
      self->work->stop_reason = g_strdup (nothing->message);
      g_propagate_error (error, g_steal_pointer (&nothing));
      return FALSE;
    }
  self->work->complete = TRUE;
  return TRUE;
}

/* On the caller's context, after every point arrived there. */
static void
finish (KsEngine *self)
{
  self->running = FALSE;
  /* Every point is here now: a derived column whose baseline came later
   * (a speed-up against the last choice of an axis) gets its value. */
  ks_run_derive_all (self->run);
  self->run->complete = self->work->complete;
  g_free (self->run->stop_reason);
  self->run->stop_reason = g_strdup (self->work->stop_reason);
}

static gboolean
start (KsEngine  *self,
       GError   **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  if (self->running)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, _("The experiment is running already"));
      return FALSE;
    }
  if (self->work != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("An engine runs once; make a new one"));
      return FALSE;
    }
  if (!self->prepared && !ks_engine_prepare (self, error))
    return FALSE;

  /* Both copies know every device and the settings from the start. */
  self->work = ks_run_new (self->desc);
  g_hash_table_unref (self->work->settings);
  self->work->settings = g_hash_table_ref (self->run->settings);
  g_strfreev (self->work->axes);
  self->work->axes = g_strdupv (self->run->axes);
  self->run->date = g_date_time_format_iso8601 (now);
  self->work->date = g_strdup (self->run->date);
  self->run->complete = FALSE;
  for (guint d = 0; d < self->plans->len; d++)
    {
      KsEnginePlan *plan = self->plans->pdata[d];
      ks_run_add_device (self->run, plan->device);
      ks_run_add_device (self->work, plan->device);
    }
  self->running = TRUE;
  self->started = g_get_monotonic_time ();
  return TRUE;
}

gboolean
ks_engine_run (KsEngine      *self,
               GCancellable  *cancellable,
               GError       **error)
{
  gboolean ok;

  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);

  if (!start (self, error))
    return FALSE;
  ok = run_all (self, cancellable, FALSE, error);
  finish (self);
  return ok;
}

static void
run_in_thread (GTask        *task,
               gpointer      source,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KsEngine *self = source;
  GError *error = NULL;

  if (run_all (self, cancellable, TRUE, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
run_done (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *outer = user_data;
  KsEngine *self = KS_ENGINE (source);
  GError *error = NULL;

  finish (self);
  if (g_task_propagate_boolean (G_TASK (result), &error))
    g_task_return_boolean (outer, TRUE);
  else
    g_task_return_error (outer, error);
  g_object_unref (outer);
}

void
ks_engine_run_async (KsEngine            *self,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) inner = NULL;
  GError *error = NULL;

  g_return_if_fail (KS_IS_ENGINE (self));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, ks_engine_run_async);
  if (!start (self, &error))
    {
      g_task_return_error (outer, error);
      return;
    }
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  /* The inner task's callback runs after every "point-measured" queued on
   * this context, so the caller hears of the last point before the end. */
  inner = g_task_new (self, cancellable, run_done, g_steal_pointer (&outer));
  g_task_set_return_on_cancel (inner, FALSE);
  g_task_run_in_thread (inner, run_in_thread);
}

gboolean
ks_engine_run_finish (KsEngine      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

GPtrArray *
ks_engine_get_images (KsEngine *self,
                      guint     device)
{
  g_return_val_if_fail (KS_IS_ENGINE (self), NULL);

  return device < self->images->len ? self->images->pdata[device] : NULL;
}
