/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page-worker.c: the heat page's worker thread (see
 * ks-heat-page.c for the handshake): it owns the solver (KsHeat, its mesh,
 * the device's CG and the hybrid's split: a runtime is used by one thread
 * at a time), builds the problem the form asks for, steps it, and hands
 * frames to the window. */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-heat-page-private.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ks-balance.h"
#include "ks-bench-probes.h"
#include "ks-mesh-gen.h"

void
ks_heat_page_setup_free (Setup *s)
{
  if (s == NULL)
    return;
  g_free (s->spec);
  g_clear_pointer (&s->groups, g_hash_table_unref);
  g_clear_object (&s->device);
  g_clear_object (&s->cancellable);
  g_free (s);
}

void
ks_heat_page_frame_free (Frame *f)
{
  if (f == NULL)
    return;
  g_clear_pointer (&f->mesh, ks_mesh_unref);
  g_free (f->t);
  g_free (f->where);
  g_free (f->parts);
  g_free (f->balance);
  g_free (f->notes);
  g_free (f);
}

/* --- the worker ------------------------------------------------------------------- */

/* The start time at which the exact solution's front reaches a seventh of
 * the domain: the animation opens on a visible spot, not on one cell. */
static double
opening_time (const KsHeatParams *p, const KsMesh *mesh)
{
  const double target = MAX (mesh->xmax - mesh->xmin, mesh->ymax - mesh->ymin) / 14.0;
  double lo = -30, hi = 15;

  for (guint i = 0; i < 100; i++)
    {
      const double mid = 0.5 * (lo + hi);
      if (ks_heat_exact_front (p, exp (mid)) < target)
        lo = mid;
      else
        hi = mid;
    }
  return exp (hi);
}

/* What the worker holds between two requests. */
typedef struct {
  KsHeat          *heat;
  KsHybridCg      *hybrid;
  KsDevice        *device;     /* the problem's (NULL: the host) */
  KsPrecision      precision;
  KsDevice        *measured;   /* the device lambda_b was measured for (a pointer only) */
  KsHeatStepStats  last;
  char            *where;
  /* The measured best (Frame.best_lambda) and what it is of: the mesh's
   * spec and the device (a pointer only); another one starts it again. */
  double           best_lambda;
  double           best_iter_s;
  char            *best_spec;
  KsDevice        *best_device;
} Worker;

static Frame *
make_frame (const Worker *w, const KsHeatStepStats *st, gboolean new_mesh)
{
  KsHeat *heat = w->heat;
  const KsMesh *mesh = ks_heat_get_mesh (heat);
  Frame *f = g_new0 (Frame, 1);

  f->t = g_memdup2 (ks_heat_get_temperature (heat), sizeof (double) * mesh->n_cells);
  f->n_cells = mesh->n_cells;
  f->t_min = G_MAXDOUBLE;
  f->t_max = -G_MAXDOUBLE;
  for (guint c = 0; c < mesh->n_cells; c++)
    {
      f->t_min = MIN (f->t_min, f->t[c]);
      f->t_max = MAX (f->t_max, f->t[c]);
    }
  f->lambda_b = NAN;
  f->best_lambda = w->best_lambda;
  f->best_iter_s = w->best_iter_s;
  f->where = g_strdup (w->where);
  if (st != NULL)
    f->st = *st;
  else
    {
      f->st.time = ks_heat_get_time (heat);
      f->st.energy = ks_heat_total_energy (heat);
    }
  f->restart = st == NULL;
  f->e0 = ks_heat_get_initial_energy (heat);
  f->inflow = ks_heat_get_inflow (heat);
  if (new_mesh)
    {
      g_autoptr(GString) notes = g_string_new (NULL);

      f->mesh = ks_mesh_ref (ks_heat_get_mesh (heat));
      f->color_max = MAX (f->t_max, 0.0);
      /* What reading the mesh changed, said on the page (not only on
       * stderr): cells turned, the release point moved. */
      if (mesh->n_reoriented > 0)
        g_string_append (notes, mesh->description);
      if (ks_heat_get_note (heat) != NULL)
        g_string_append_printf (notes, "%s%s", notes->len > 0 ? "\n" : "", ks_heat_get_note (heat));
      f->notes = notes->len > 0 ? g_strdup (notes->str) : NULL;
    }
  return f;
}

/* Under the lock: the newest frame replaces an undrawn one, keeping the
 * mesh that one brought. */
static void
publish (KsHeatPage *self, Frame *f)
{
  if (self->frame != NULL && self->frame->mesh != NULL && f->mesh == NULL)
    {
      f->mesh = g_steal_pointer (&self->frame->mesh);
      f->color_max = self->frame->color_max;
      f->notes = g_steal_pointer (&self->frame->notes);
    }
  if (self->frame != NULL && self->frame->parts_changed && !f->parts_changed)
    {
      f->parts_changed = TRUE;
      f->parts = g_steal_pointer (&self->frame->parts);
    }
  if (self->frame != NULL && self->frame->balance != NULL && f->balance == NULL)
    {
      f->balance = g_steal_pointer (&self->frame->balance);
      f->lambda_b = self->frame->lambda_b;
    }
  if (f->restart)
    g_array_set_size (self->new_steps, 0);
  else if (f->st.step > 0 && !f->repeat)
    g_array_append_val (self->new_steps, f->st);
  f->restart |= self->frame != NULL && self->frame->restart;
  ks_heat_page_frame_free (self->frame);
  self->frame = f;
}

/* Paper 004's lambda_b from the triad bandwidths of the device and of the
 * host's cores, found as heat-hybrid's run finds them
 * (ks_bench_balance_bandwidths), with its arithmetic and the bound on
 * what the CPU can add. */
static char *
measure_balance (KsDevice *device, double *out_lambda_b)
{
  g_autoptr(GError) error = NULL;
  double gpu = 0, cpu = 0, lambda_b;

  *out_lambda_b = NAN;
  if (!ks_bench_balance_bandwidths (device, &gpu, &cpu, &error))
    return g_strdup_printf (_("The bandwidths behind lambda_b could not be measured: %s"), error->message);
  lambda_b = *out_lambda_b = ks_balance_lambda_b (gpu, cpu);
  return g_strdup_printf (_("lambda_b = BW_device / BW_CPU = %.1f / %.1f GB/s = %.2f (the paper: 3.2).  "
                            "The CPU can add at most %.1f %% to the device alone%s.  The same triads as "
                            "heat-hybrid's runs use, measured once per session."),
                          gpu, cpu, lambda_b, 100.0 / lambda_b,
                          ks_device_get_info (device)->type == KS_DEVICE_TYPE_CPU
                          ? _(", but here the device is this same processor: both parts share one memory, "
                              "and the split can only cost")
                          : "");
}

/* The hybrid for heat on device beside the host's cores, split at lambda. */
static KsHybridCg *
build_hybrid (KsDevice *device, double lambda, KsHeat *heat, KsPrecision precision, GError **error)
{
  KsHybridSetup setup = { device, NULL, precision, KS_PARTITION_GEOMETRIC };
  g_autoptr(KsHybridCg) hybrid = NULL;

  if (device == NULL || ks_device_get_backend (device) == KS_BACKEND_HOST)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The hybrid needs an OpenCL or CUDA device beside the host: choose one in the header bar"));
      return NULL;
    }
  if (!(hybrid = ks_hybrid_cg_new (&setup, error)) || !ks_heat_set_hybrid (heat, hybrid, lambda, error))
    return NULL;
  return g_steal_pointer (&hybrid);
}

/* Where the steps run, for the status. */
static char *
describe_where (KsDevice *device, KsPrecision precision, gboolean hybrid)
{
  g_autofree char *where = device != NULL && ks_device_get_backend (device) != KS_BACKEND_HOST
                           ? g_strdup_printf ("%s (%s, %s)", ks_device_get_name (device),
                                              ks_backend_to_string (ks_device_get_backend (device)),
                                              ks_precision_to_string (precision))
                           : g_strdup (_("the host (C + OpenMP, double)"));

  return hybrid ? g_strdup_printf (_("%s and the host's cores"), where) : g_steal_pointer (&where);
}

static KsHeat *
build (const Setup *s, KsPrecision *out_precision, KsHybridCg **out_hybrid, GError **error)
{
  g_autoptr(KsMesh) mesh = ks_mesh_new_from_spec (s->spec, s->cancellable, error);
  g_autoptr(KsHeat) heat = NULL;
  KsHeatParams p;
  KsPrecision precision = KS_PRECISION_DOUBLE;

  if (mesh == NULL)
    return NULL;
  ks_heat_params_init (&p);
  p.n = s->n;
  p.tau = s->tau;
  p.d0 = s->d0;
  p.energy = s->energy;
  p.t0 = opening_time (&p, mesh);
  p.cg_tol = s->tol;
  if (s->device != NULL && ks_device_get_backend (s->device) != KS_BACKEND_HOST &&
      !ks_device_get_info (s->device)->has_fp64)
    {
      precision = KS_PRECISION_FLOAT;
      p.cg_tol = MAX (s->tol, 1e-5);   /* what float can reach */
    }
  if (!(heat = ks_heat_new (mesh, &p, error)) ||
      !ks_heat_set_device (heat, s->device, precision, KS_CG_FUSED, error))
    return NULL;
  /* The groups this mesh has; a setting for another mesh's group waits. */
  for (guint g = 0; g < mesh->groups->len; g++)
    {
      const GroupSetting *gs = g_hash_table_lookup (s->groups, mesh->groups->pdata[g]);
      if (gs != NULL && !ks_heat_set_group_boundary (heat, mesh->groups->pdata[g], gs->kind, gs->t, error))
        return NULL;
    }
  if (s->hybrid && !(*out_hybrid = build_hybrid (s->device, s->lambda, heat, precision, error)))
    return NULL;
  *out_precision = precision;
  return g_steal_pointer (&heat);
}

/* The frame carries the split (or its absence) to the view. */
static void
set_frame_parts (Frame *f, KsHybridCg *hybrid)
{
  f->parts_changed = TRUE;
  if (hybrid == NULL)
    return;
  f->parts = g_memdup2 (ks_hybrid_cg_get_parts (hybrid), sizeof (guint32) * f->n_cells);
  for (guint k = 0; k < KS_HYBRID_N_PARTS; k++)
    f->cells[k] = ks_hybrid_cg_get_cells (hybrid, k);
}

/* lambda_b for a hybrid on device, once per device. */
static char *
balance_once (Worker *w, KsDevice *device, double *lambda_b)
{
  if (device == w->measured)
    return NULL;
  w->measured = device;
  return measure_balance (device, lambda_b);
}

/* The measured best starts again for another mesh or device. */
static void
best_for (Worker *w, const char *spec, KsDevice *device)
{
  if (g_strcmp0 (w->best_spec, spec) == 0 && w->best_device == device)
    return;
  g_free (w->best_spec);
  w->best_spec = g_strdup (spec);
  w->best_device = device;
  w->best_lambda = w->best_iter_s = NAN;
}

/* A step of the split: its time per CG iteration against the best. */
static void
note_best (Worker *w, const KsHeatStepStats *st)
{
  double per;

  if (w->hybrid == NULL || st->cg_iterations == 0 || !(st->iterate_s > 0))
    return;
  per = st->iterate_s / st->cg_iterations;
  if (isnan (w->best_iter_s) || per < w->best_iter_s)
    {
      w->best_iter_s = per;
      w->best_lambda = ks_hybrid_cg_get_lambda (w->hybrid);
    }
}

/* Under the lock, which it drops while it builds: the problem s asks for,
 * in place of the one shown. */
static void
take_setup (KsHeatPage *self, Worker *w, Setup *s)
{
  g_autoptr(GError) error = NULL;
  KsHybridCg *hybrid = NULL;
  KsPrecision precision = KS_PRECISION_DOUBLE;
  char *balance = NULL;
  double lambda_b = NAN;
  KsHeat *fresh;
  Frame *f;

  g_mutex_unlock (&self->lock);
  fresh = build (s, &precision, &hybrid, &error);
  if (fresh != NULL && hybrid != NULL)
    balance = balance_once (w, s->device, &lambda_b);
  g_mutex_lock (&self->lock);
  /* A mesh that cannot be read leaves the problem shown as it was; one
   * given up for a newer problem says nothing. */
  if (fresh == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&self->error);
          g_propagate_error (&self->error, g_steal_pointer (&error));
        }
      g_clear_pointer (&hybrid, ks_hybrid_cg_free);
      ks_heat_page_setup_free (s);
      return;
    }
  g_clear_pointer (&w->heat, ks_heat_free);
  g_clear_pointer (&w->hybrid, ks_hybrid_cg_free);
  g_set_object (&w->device, s->device);
  w->heat = fresh;
  w->hybrid = hybrid;
  w->precision = precision;
  w->last = (KsHeatStepStats) { 0 };
  g_free (w->where);
  w->where = describe_where (s->device, precision, hybrid != NULL);
  best_for (w, s->spec, s->device);
  f = make_frame (w, NULL, TRUE);
  set_frame_parts (f, w->hybrid);
  f->balance = balance;
  f->lambda_b = lambda_b;
  publish (self, f);
  ks_heat_page_setup_free (s);
}

/* A frame of the step shown with the split as it is now (not a new step:
 * the series and a recording go on). */
static void
publish_split (KsHeatPage *self, Worker *w, char *balance, double lambda_b)
{
  Frame *f = make_frame (w, NULL, FALSE);

  f->restart = FALSE;
  f->repeat = TRUE;
  if (w->last.step > 0)
    f->st = w->last;
  set_frame_parts (f, w->hybrid);
  f->balance = balance;
  f->lambda_b = lambda_b;
  publish (self, f);
}

/* Under the lock, dropped while it works: the split made at lambda (on)
 * or dropped, from the temperature now; the step and the series stay. */
static void
take_hybrid (KsHeatPage *self, Worker *w, gboolean on, double lambda)
{
  g_autoptr(GError) error = NULL;
  KsHybridCg *hybrid = NULL;
  char *balance = NULL;
  double lambda_b = NAN;
  gboolean ok;

  if (on == (w->hybrid != NULL))
    {
      /* Already so (a problem built since took it): lambda alone. */
      if (on)
        self->want_lambda = lambda;
      return;
    }
  g_mutex_unlock (&self->lock);
  if (on)
    {
      ok = (hybrid = build_hybrid (w->device, lambda, w->heat, w->precision, &error)) != NULL;
      if (ok)
        balance = balance_once (w, w->device, &lambda_b);
    }
  else
    ok = ks_heat_set_hybrid (w->heat, NULL, 0, &error);
  g_mutex_lock (&self->lock);
  if (!ok)
    {
      g_clear_error (&self->error);
      g_propagate_error (&self->error, g_steal_pointer (&error));
      return;
    }
  if (!on)
    g_clear_pointer (&w->hybrid, ks_hybrid_cg_free);
  else
    w->hybrid = hybrid;
  g_free (w->where);
  w->where = describe_where (w->device, w->precision, on);
  publish_split (self, w, balance, lambda_b);
}

/* Under the lock, dropped while it works: the split moved to lambda. */
static void
take_lambda (KsHeatPage *self, Worker *w, double lambda)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_mutex_unlock (&self->lock);
  ok = ks_hybrid_cg_set_lambda (w->hybrid, lambda, &error);
  g_mutex_lock (&self->lock);
  if (!ok)
    {
      g_clear_error (&self->error);
      g_propagate_error (&self->error, g_steal_pointer (&error));
      return;
    }
  publish_split (self, w, NULL, NAN);
}

/* Under the lock, dropped while it steps: one time step, or stop and say
 * why not. */
static void
take_step (KsHeatPage *self, Worker *w)
{
  g_autoptr(GError) error = NULL;
  KsHeatStepStats st;
  gboolean ok;

  if (self->steps_wanted > 0)
    self->steps_wanted--;
  g_mutex_unlock (&self->lock);
  ok = ks_heat_step (w->heat, &st, &error);
  g_mutex_lock (&self->lock);
  if (ok)
    {
      Frame *f;

      note_best (w, &st);
      f = make_frame (w, &st, FALSE);
      w->last = st;
      if (w->hybrid != NULL)
        for (guint k = 0; k < KS_HYBRID_N_PARTS; k++)
          f->cells[k] = ks_hybrid_cg_get_cells (w->hybrid, k);
      publish (self, f);
      return;
    }
  self->playing = FALSE;
  self->steps_wanted = 0;
  g_clear_error (&self->error);
  g_propagate_error (&self->error, g_steal_pointer (&error));
}

gpointer
ks_heat_page_worker_main (gpointer data)
{
  KsHeatPage *self = data;
  Worker w = { .best_lambda = NAN, .best_iter_s = NAN };

  g_mutex_lock (&self->lock);
  while (!self->quit)
    {
      if (self->want_setup != NULL)
        take_setup (self, &w, g_steal_pointer (&self->want_setup));
      else if (self->want_hybrid >= 0 && w.heat != NULL)
        {
          const gboolean on = self->want_hybrid;

          self->want_hybrid = -1;
          take_hybrid (self, &w, on, self->want_hybrid_lambda);
        }
      else if (!isnan (self->want_lambda) && w.hybrid != NULL)
        {
          const double lambda = self->want_lambda;

          self->want_lambda = NAN;
          take_lambda (self, &w, lambda);
        }
      else if (self->want_reset && w.heat != NULL)
        {
          self->want_reset = FALSE;
          ks_heat_reset (w.heat);
          w.last = (KsHeatStepStats) { 0 };
          publish (self, make_frame (&w, NULL, FALSE));
        }
      /* Recording: each step waits for the last one to be drawn, so
       * every step is in the clip. */
      else if (w.heat != NULL && (self->playing || self->steps_wanted > 0) &&
               !(self->lockstep && self->frame != NULL))
        take_step (self, &w);
      else
        {
          self->want_lambda = NAN;
          self->want_hybrid = -1;
          self->want_reset = FALSE;
          g_cond_wait (&self->cond, &self->lock);
        }
    }
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&w.heat, ks_heat_free);
  g_clear_pointer (&w.hybrid, ks_hybrid_cg_free);
  g_clear_object (&w.device);
  g_free (w.where);
  g_free (w.best_spec);
  return NULL;
}
