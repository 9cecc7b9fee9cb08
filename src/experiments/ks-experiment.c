/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-experiment.h"
#include "ks-compute-error.h"
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
  GMutex        lock;        /* guards results->points while a worker appends */
  gboolean      running;
  GMainContext *context;     /* where "point-measured" is emitted during an async run */
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
        if (!g_ascii_string_to_unsigned (g_strstrip (range[j]), 10, 0, G_MAXUINT, &f[j], NULL))
          goto bad;
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
  g_clear_pointer (&self->context, g_main_context_unref);
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

KsDevice *
ks_experiment_get_device (KsExperiment *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT (self), NULL);
  return self->device;
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

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median_of (double *values,
           guint   n)
{
  qsort (values, n, sizeof (double), compare_double);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* Warm-up and repetitions of one point. */
static gboolean
measure_point (KsExperiment         *self,
               KsGaussSolver        *solver,
               const KsLinearSystem *sys,
               guint                 wg,
               GCancellable         *cancellable,
               KsPoint              *point,
               GError              **error)
{
  KsGaussParams params = { self->spec.range, self->spec.local, wg, self->spec.launch };
  g_autofree double *wall = g_new (double, self->spec.reps);
  g_autofree double *kernels = g_new (double, self->spec.reps);
  g_autofree double *per_kernel = g_new (double, (gsize) self->spec.reps * KS_GAUSS_N_KERNELS);
  KsGaussResult r;

  point->n = sys->n;
  point->wg = self->spec.local == KS_LOCAL_DRIVER ? 0 : wg;
  point->local = self->spec.local;
  point->n1_prime = ks_is_prime ((guint64) sys->n + 1);
  point->reps = self->spec.reps;
  point->residual = 0.0;

  point->capture_ms = 0.0;
  for (guint i = 0; i < self->spec.warmup; i++)
    {
      if (!ks_gauss_solver_solve (solver, sys, &params, cancellable, NULL, &r, error))
        return FALSE;
      point->capture_ms = MAX (point->capture_ms, r.capture_ms);
    }

  for (guint i = 0; i < self->spec.reps; i++)
    {
      if (!ks_gauss_solver_solve (solver, sys, &params, cancellable, NULL, &r, error))
        return FALSE;
      /* Under GRAPH a repetition that recorded the graph (no warm-up) keeps
       * the recording out of its time too: it is capture_ms. */
      point->capture_ms = MAX (point->capture_ms, r.capture_ms);
      wall[i] = r.wall_ms;
      kernels[i] = r.kernels_total_ms;
      for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
        per_kernel[k * self->spec.reps + i] = r.kernel_ms[k];
      point->residual = MAX (point->residual, r.residual);
      point->launches = r.launches;
      memcpy (point->fwd_local, r.fwd_local, sizeof point->fwd_local);
      memcpy (point->fwd_groups, r.fwd_groups, sizeof point->fwd_groups);
    }

  point->median_ms = median_of (wall, self->spec.reps);
  point->min_ms = wall[0];
  point->max_ms = wall[self->spec.reps - 1];
  point->kernels_ms = median_of (kernels, self->spec.reps);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    point->kernel_ms[k] = median_of (per_kernel + k * self->spec.reps, self->spec.reps);
  return TRUE;
}

typedef struct {
  KsExperiment *self;
  KsPoint      *point;
  guint         done;
  guint         total;
} EmitData;

static gboolean
emit_in_context (gpointer data)
{
  EmitData *e = data;

  g_signal_emit (e->self, signals[POINT_MEASURED], 0, e->point, e->done, e->total);
  g_object_unref (e->self);
  g_free (e);
  return G_SOURCE_REMOVE;
}

static void
publish_point (KsExperiment  *self,
               const KsPoint *point,
               guint          done,
               guint          total,
               gboolean       in_worker)
{
  EmitData *e = g_new0 (EmitData, 1);

  g_mutex_lock (&self->lock);
  ks_results_add_point (self->results, point);
  e->point = g_ptr_array_index (self->results->points, self->results->points->len - 1);
  g_mutex_unlock (&self->lock);

  e->self = g_object_ref (self);
  e->done = done;
  e->total = total;
  if (in_worker)
    {
      /* Not g_main_context_invoke: where the caller's context is the global
       * default, the worker could acquire it and emit on its own thread. */
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, emit_in_context, e, NULL);
      g_source_attach (source, self->context);
    }
  else
    emit_in_context (e);
}

static void
fill_header (KsExperiment  *self,
             KsGaussSolver *solver)
{
  KsResults *r = self->results;
  const KsDeviceInfo *info = ks_device_get_info (self->device);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  KsOgsPrediction prediction;
  gsize pwgsm = ks_gauss_solver_get_preferred_multiple (solver);

  g_free (r->device_id); r->device_id = g_strdup (info->id);
  g_free (r->device_name); r->device_name = g_strdup (info->name);
  g_free (r->platform); r->platform = g_strdup (info->platform_name);
  g_free (r->driver); r->driver = g_strdup (info->driver_version);
  g_free (r->date); r->date = g_date_time_format_iso8601 (now);
  g_free (r->command); r->command = g_strdup (self->spec.command);
  r->precision = self->spec.precision;
  r->range = self->spec.range;
  r->local = self->spec.local;
  r->wg = self->spec.wg;
  r->launch = self->spec.launch;
  r->warmup = self->spec.warmup;
  r->reps = self->spec.reps;
  r->seed = self->spec.seed;
  r->pwgsm = pwgsm;
  r->cores_per_cu = ks_device_get_cores_per_cu (self->device);
  r->compute_units = info->compute_units;
  if (ks_ogs_predict (pwgsm, r->cores_per_cu, info->compute_units,
                      ks_gauss_solver_get_max_work_group_size (solver), &prediction))
    {
      r->ogs_predicted = prediction.ogs;
      r->ogs_usable = prediction.usable;
    }
}

static gboolean
run_sweep (KsExperiment  *self,
           GCancellable  *cancellable,
           gboolean       in_worker,
           GError       **error)
{
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(GError) local_error = NULL;
  const guint total = ks_experiment_get_n_points_total (self);
  const gboolean wg_sweep = self->spec.kind == KS_EXPERIMENT_GAUSS_WG;
  guint done = 0;

  self->results->complete = FALSE;
  g_clear_pointer (&self->results->stop_reason, g_free);

  /* error may be NULL (a caller that does not want the reason): the
   * results keep it all the same. */
  solver = ks_gauss_solver_new (self->device, self->spec.precision, &local_error);
  if (solver == NULL)
    {
      self->results->stop_reason = g_strdup (local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  fill_header (self, solver);

  for (guint i = 0; i < self->spec.n_sizes; i++)
    {
      /* Each size has its own system, the same on every run and machine. */
      g_autoptr(KsLinearSystem) sys = NULL;
      guint n_wg = wg_sweep ? self->spec.n_wgs : 1;
      KsGaussParams check = { self->spec.range, KS_LOCAL_DRIVER, 0 };

      /* Refuse a size that cannot fit before building its matrix. */
      if (!ks_gauss_solver_check (solver, self->spec.sizes[i], &check, &local_error) ||
          !(sys = ks_linear_system_new_random (self->spec.sizes[i],
                                               self->spec.seed + self->spec.sizes[i], &local_error)))
        {
          self->results->stop_reason =
            g_strdup_printf ("stopped after %u of %u points: %s", done, total, local_error->message);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }

      for (guint j = 0; j < n_wg; j++)
        {
          guint wg = wg_sweep ? self->spec.wgs[j] : self->spec.wg;
          KsPoint point = { 0 };

          if (!measure_point (self, solver, sys, wg, cancellable, &point, &local_error))
            {
              /* A refused group size spoils one point, not the sweep. */
              if (g_error_matches (local_error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE))
                {
                  point.error = g_strdup (local_error->message);
                  g_clear_error (&local_error);
                  publish_point (self, &point, ++done, total, in_worker);
                  g_free (point.error);
                  continue;
                }

              if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                self->results->stop_reason =
                  g_strdup_printf ("cancelled after %u of %u points", done, total);
              else
                self->results->stop_reason =
                  g_strdup_printf ("stopped after %u of %u points: %s", done, total, local_error->message);
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          publish_point (self, &point, ++done, total, in_worker);
        }
    }

  self->results->complete = TRUE;
  return TRUE;
}

gboolean
ks_experiment_run (KsExperiment  *self,
                   GCancellable  *cancellable,
                   GError       **error)
{
  gboolean ok;

  g_return_val_if_fail (KS_IS_EXPERIMENT (self), FALSE);
  g_return_val_if_fail (!self->running, FALSE);

  self->running = TRUE;
  ok = run_sweep (self, cancellable, FALSE, error);
  self->running = FALSE;
  return ok;
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  KsExperiment *self = source_object;
  g_autoptr(GError) error = NULL;

  if (run_sweep (self, cancellable, TRUE, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

void
ks_experiment_run_async (KsExperiment        *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KS_IS_EXPERIMENT (self));
  g_return_if_fail (!self->running);

  self->running = TRUE;
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, ks_experiment_run_async);
  /* The sweep itself polls the cancellable and returns what it measured. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, run_thread);
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
