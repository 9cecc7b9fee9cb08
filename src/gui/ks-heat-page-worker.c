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

static Frame *
make_frame (KsHeat *heat, const KsHeatStepStats *st, gboolean new_mesh, const char *where)
{
  const KsMesh *mesh = ks_heat_get_mesh (heat);
  Frame *f = g_new0 (Frame, 1);

  f->t = g_memdup2 (ks_heat_get_temperature (heat), sizeof (double) * mesh->n_cells);
  f->n_cells = mesh->n_cells;
  f->where = g_strdup (where);
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
      f->mesh = ks_mesh_ref (ks_heat_get_mesh (heat));
      for (guint c = 0; c < mesh->n_cells; c++)
        f->color_max = MAX (f->color_max, f->t[c]);
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
    }
  if (self->frame != NULL && self->frame->parts_changed && !f->parts_changed)
    {
      f->parts_changed = TRUE;
      f->parts = g_steal_pointer (&self->frame->parts);
    }
  if (self->frame != NULL && self->frame->balance != NULL && f->balance == NULL)
    f->balance = g_steal_pointer (&self->frame->balance);
  if (f->restart)
    g_array_set_size (self->new_steps, 0);
  else if (f->st.step > 0 && !f->repeat)
    g_array_append_val (self->new_steps, f->st);
  f->restart |= self->frame != NULL && self->frame->restart;
  ks_heat_page_frame_free (self->frame);
  self->frame = f;
}

/* Paper 004's lambda_b from the triad bandwidths of the device and of the
 * host's cores, measured now, with its arithmetic and the bound on what
 * the CPU can add. */
static char *
measure_balance (KsDevice *device)
{
  KsBandwidth gpu = { 0 }, cpu = { 0 };
  g_autoptr(GError) error = NULL;
  double lambda_b;

  if (!ks_bench_bandwidth (device, 0, 5, &gpu, &error) || !ks_bench_host_bandwidth (0, 5, &cpu, &error))
    return g_strdup_printf (_("The bandwidths behind lambda_b could not be measured: %s"), error->message);
  lambda_b = ks_balance_lambda_b (gpu.triad_gbs, cpu.triad_gbs);
  return g_strdup_printf (_("lambda_b = BW_device / BW_CPU = %.1f / %.1f GB/s = %.2f (the paper: 3.2).  "
                            "The CPU can add at most %.1f %% to the device alone%s."),
                          gpu.triad_gbs, cpu.triad_gbs, lambda_b, 100.0 / lambda_b,
                          ks_device_get_info (device)->type == KS_DEVICE_TYPE_CPU
                          ? _(", but here the device is this same processor: both parts share one memory, "
                              "and the split can only cost")
                          : "");
}

/* The hybrid for heat on s's device beside the host's cores. */
static KsHybridCg *
build_hybrid (const Setup *s, KsHeat *heat, KsPrecision precision, GError **error)
{
  KsHybridSetup setup = { s->device, NULL, precision, KS_PARTITION_GEOMETRIC };
  g_autoptr(KsHybridCg) hybrid = NULL;

  if (s->device == NULL || ks_device_get_backend (s->device) == KS_BACKEND_HOST)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The hybrid needs an OpenCL or CUDA device beside the host: choose one in the header bar"));
      return NULL;
    }
  if (!(hybrid = ks_hybrid_cg_new (&setup, error)) || !ks_heat_set_hybrid (heat, hybrid, s->lambda, error))
    return NULL;
  return g_steal_pointer (&hybrid);
}

static KsHeat *
build (const Setup *s, char **where, KsHybridCg **out_hybrid, GError **error)
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
  if (s->hybrid && !(*out_hybrid = build_hybrid (s, heat, precision, error)))
    return NULL;
  *where = s->device != NULL && ks_device_get_backend (s->device) != KS_BACKEND_HOST
           ? g_strdup_printf ("%s (%s, %s)", ks_device_get_name (s->device),
                              ks_backend_to_string (ks_device_get_backend (s->device)),
                              ks_precision_to_string (precision))
           : g_strdup (_("the host (C + OpenMP, double)"));
  if (s->hybrid)
    {
      char *both = g_strdup_printf (_("%s and the host's cores"), *where);
      g_free (*where);
      *where = both;
    }
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

gpointer
ks_heat_page_worker_main (gpointer data)
{
  KsHeatPage *self = data;
  KsHeat *heat = NULL;
  KsHybridCg *hybrid = NULL;
  KsDevice *measured = NULL;   /* the device lambda_b was measured for */
  KsHeatStepStats last = { 0 };
  g_autofree char *where = NULL;

  g_mutex_lock (&self->lock);
  while (!self->quit)
    {
      if (self->want_setup != NULL)
        {
          Setup *s = g_steal_pointer (&self->want_setup);
          g_autoptr(GError) error = NULL;
          KsHeat *fresh;
          KsHybridCg *fresh_hybrid = NULL;
          char *fresh_where = NULL;
          char *balance = NULL;

          g_mutex_unlock (&self->lock);
          fresh = build (s, &fresh_where, &fresh_hybrid, &error);
          if (fresh != NULL && fresh_hybrid != NULL && s->device != measured)
            {
              balance = measure_balance (s->device);
              measured = s->device;
            }
          ks_heat_page_setup_free (s);
          g_mutex_lock (&self->lock);
          /* A mesh that cannot be read leaves the problem shown as it was;
           * one given up for a newer problem says nothing. */
          if (fresh == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_clear_pointer (&fresh_hybrid, ks_hybrid_cg_free);
          else if (fresh == NULL)
            {
              g_clear_error (&self->error);
              g_propagate_error (&self->error, g_steal_pointer (&error));
              g_clear_pointer (&fresh_hybrid, ks_hybrid_cg_free);
            }
          else
            {
              Frame *f;

              g_clear_pointer (&heat, ks_heat_free);
              g_clear_pointer (&hybrid, ks_hybrid_cg_free);
              heat = fresh;
              hybrid = fresh_hybrid;
              last = (KsHeatStepStats) { 0 };
              g_free (where);
              where = fresh_where;
              f = make_frame (heat, NULL, TRUE, where);
              set_frame_parts (f, hybrid);
              f->balance = balance;
              balance = NULL;
              publish (self, f);
            }
          g_free (balance);
          continue;
        }
      if (!isnan (self->want_lambda) && hybrid != NULL)
        {
          g_autoptr(GError) error = NULL;
          const double lambda = self->want_lambda;
          gboolean ok;
          Frame *f;

          self->want_lambda = NAN;
          g_mutex_unlock (&self->lock);
          ok = ks_hybrid_cg_set_lambda (hybrid, lambda, &error);
          g_mutex_lock (&self->lock);
          if (!ok)
            {
              g_clear_error (&self->error);
              g_propagate_error (&self->error, g_steal_pointer (&error));
              continue;
            }
          f = make_frame (heat, NULL, FALSE, where);
          f->restart = FALSE;
          f->repeat = TRUE;
          if (last.step > 0)
            f->st = last;
          set_frame_parts (f, hybrid);
          publish (self, f);
          continue;
        }
      self->want_lambda = NAN;
      if (self->want_reset && heat != NULL)
        {
          self->want_reset = FALSE;
          ks_heat_reset (heat);
          last = (KsHeatStepStats) { 0 };
          publish (self, make_frame (heat, NULL, FALSE, where));
          continue;
        }
      if (heat != NULL && (self->playing || self->steps_wanted > 0))
        {
          g_autoptr(GError) error = NULL;
          KsHeatStepStats st;
          gboolean ok;

          if (self->steps_wanted > 0)
            self->steps_wanted--;
          g_mutex_unlock (&self->lock);
          ok = ks_heat_step (heat, &st, &error);
          g_mutex_lock (&self->lock);
          if (ok)
            {
              Frame *f = make_frame (heat, &st, FALSE, where);
              last = st;
              if (hybrid != NULL)
                for (guint k = 0; k < KS_HYBRID_N_PARTS; k++)
                  f->cells[k] = ks_hybrid_cg_get_cells (hybrid, k);
              publish (self, f);
            }
          else
            {
              /* The step is not taken: stop and say why. */
              self->playing = FALSE;
              self->steps_wanted = 0;
              g_clear_error (&self->error);
              g_propagate_error (&self->error, g_steal_pointer (&error));
            }
          continue;
        }
      self->want_reset = FALSE;
      g_cond_wait (&self->cond, &self->lock);
    }
  g_mutex_unlock (&self->lock);
  g_clear_pointer (&heat, ks_heat_free);
  g_clear_pointer (&hybrid, ks_hybrid_cg_free);
  return NULL;
}

