/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-dist-cg.c: see ks-dist-cg.h.  The exchange of threads of one process
 * (the host part's CG is in ks-dist-cg-host.c, a device part's in
 * ks-dist-cg-device.c). */
#define G_LOG_DOMAIN "ks-dist-cg"

#include "ks-dist-cg.h"
#include "ks-dist-cg-private.h"

#include "ks-solver-error.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

void
ks_exchange_begin_iterations (KsExchange *ex)
{
  ex->iterate_wait_us = ex->wait_us;
  ex->iterate_halo_wait_us = ex->halo_wait_us;
}

gboolean
ks_exchange_start (KsExchange *ex,
                   double     *x,
                   GError    **error)
{
  g_return_val_if_fail (ex != NULL && x != NULL, FALSE);
  return ex->vtable->start (ex, x, error);
}

gboolean
ks_exchange_finish (KsExchange *ex,
                    double     *x,
                    GError    **error)
{
  const gint64 begin = g_get_monotonic_time ();
  gint64 spent;
  gboolean ok;

  g_return_val_if_fail (ex != NULL && x != NULL, FALSE);
  ok = ex->vtable->finish (ex, x, error);
  spent = g_get_monotonic_time () - begin;
  ex->wait_us += spent;
  ex->halo_wait_us += spent;
  return ok;
}

gboolean
ks_exchange_allreduce (KsExchange *ex,
                       double     *values,
                       guint       n,
                       GError    **error)
{
  const gint64 begin = g_get_monotonic_time ();
  gboolean ok;

  g_return_val_if_fail (ex != NULL && (values != NULL || n == 0), FALSE);
  ok = ex->vtable->allreduce (ex, values, n, error);
  ex->wait_us += g_get_monotonic_time () - begin;
  return ok;
}

gboolean
ks_exchange_iallreduce_start (KsExchange *ex,
                              double     *values,
                              guint       n,
                              GError    **error)
{
  g_return_val_if_fail (ex != NULL && (values != NULL || n == 0), FALSE);
  return ex->vtable->iallreduce_start == NULL || ex->vtable->iallreduce_start (ex, values, n, error);
}

gboolean
ks_exchange_iallreduce_finish (KsExchange *ex,
                               double     *values,
                               guint       n,
                               GError    **error)
{
  const gint64 begin = g_get_monotonic_time ();
  gboolean ok;

  g_return_val_if_fail (ex != NULL && (values != NULL || n == 0), FALSE);
  ok = ex->vtable->iallreduce_finish == NULL ? ex->vtable->allreduce (ex, values, n, error)
                                             : ex->vtable->iallreduce_finish (ex, values, n, error);
  ex->wait_us += g_get_monotonic_time () - begin;
  return ok;
}

void
ks_exchange_abort (KsExchange *ex)
{
  if (ex && ex->vtable->abort)
    ex->vtable->abort (ex);
}

void
ks_exchange_free (KsExchange *ex)
{
  if (ex && ex->vtable->free)
    ex->vtable->free (ex);
}

KsDistTune
ks_dist_tune_from_env (void)
{
  const char *env = g_getenv ("KS_HYBRID_TUNE");

  return env == NULL || *env == '\0' ? KS_DIST_TUNE_ALL : ks_dist_tune_parse (env);
}

KsDistTune
ks_dist_tune_parse (const char *env)
{
  static const struct { const char *name; KsDistTune flag; } words[] = {
    { "sums", KS_DIST_TUNE_SUMS }, { "overlap", KS_DIST_TUNE_OVERLAP },
    { "host", KS_DIST_TUNE_HOST }, { "pin", KS_DIST_TUNE_PIN }, { "pipelined", KS_DIST_TUNE_PIPELINED },
    { "xrows", KS_DIST_TUNE_XROWS }, { "spin", KS_DIST_TUNE_SPIN },
    { "all", KS_DIST_TUNE_ALL }, { "none", 0 },
  };
  g_auto(GStrv) list = NULL;
  KsDistTune tune = 0;

  if (env == NULL || *env == '\0')
    return 0;
  list = g_strsplit (env, ",", -1);
  for (guint i = 0; list[i] != NULL; i++)
    {
      const char *word = g_strstrip (list[i]);
      const gboolean minus = word[0] == '-';
      guint w = 0;

      if (minus && i == 0)
        tune = KS_DIST_TUNE_ALL;   /* "-pin": all but pin */
      while (w < G_N_ELEMENTS (words) && strcmp (words[w].name, word + minus) != 0)
        w++;
      if (w == G_N_ELEMENTS (words))
        {
          static gsize warned;
          if (g_once_init_enter (&warned))
            {
              g_warning ("KS_HYBRID_TUNE: \"%s\" is none of all, none, sums, overlap, host, pin, xrows, pipelined", word);
              g_once_init_leave (&warned, 1);
            }
          continue;
        }
      if (minus)
        tune &= ~words[w].flag;
      else if (words[w].flag == 0)
        tune = 0;
      else
        tune |= words[w].flag;
    }
  return tune;
}

/* --- threads of one process ------------------------------------------------------- */

/* The most values one allreduce sums (CG needs two). */
#define MAX_SUMS 8

typedef struct {
  KsExchange       base;
  KsExchangeGroup *group;
  guint            index;
  gint             n_halos;   /* this part's exchanges (split phase) and sums so far */
  gint             n_sums;
} LocalExchange;

struct _KsExchangeGroup {
  const KsHalo  *halo;
  guint          n_parts;
  LocalExchange *parts;
  double       **published;   /* each part's vector, between start and finish */
  double        *partials;    /* n_parts x MAX_SUMS */
  GMutex         lock;
  GCond          cond;
  guint          arrived;
  gint           generation;  /* read without the lock while spinning: atomic */
  gint           aborted;     /* a part failed: every wait ends (atomic, as generation) */
  /* Split phase (KS_DIST_TUNE_SUMS): counts that only grow, so exchange
   * or sum k is complete once n_parts (k + 1) parts have come; the
   * published vectors and the partial sums alternate between two sets
   * by k's parity (a part cannot be two ahead of another). */
  gboolean       split;
  gint           halos_started;
  gint           halos_read;
  gint           sums_arrived;
  gint           sleepers;    /* parts asleep on cond */
};

/* How long a part spins before it sleeps on the condition: the parts meet
 * five or six times per iteration, and waking a sleeping thread costs tens
 * of microseconds, more than a GPU part's whole iteration on a small mesh
 * (stop 13 on the H200: 140 us per iteration lost at lambda 256).  A part
 * waiting here has nothing else to do; past this it stops burning a core. */
#define SPIN_US 200

/* Every part waits here until all have come; FALSE with an error once a
 * part has failed, so the others do not wait for it forever. */
static gboolean
barrier (KsExchangeGroup *g,
         GError         **error)
{
  gint generation;
  gboolean aborted;

  g_mutex_lock (&g->lock);
  generation = g_atomic_int_get (&g->generation);
  if (!g->aborted && ++g->arrived == g->n_parts)
    {
      g->arrived = 0;
      g_atomic_int_inc (&g->generation);
      g_cond_broadcast (&g->cond);
    }
  else if (!g->aborted)
    {
      const gint64 until = g_get_monotonic_time () + SPIN_US;

      g_mutex_unlock (&g->lock);
      /* Yielding, so a spinning part never keeps the host part's OpenMP
       * threads off a core. */
      for (guint i = 1; g_atomic_int_get (&g->generation) == generation && !g_atomic_int_get (&g->aborted); i++)
        {
          g_thread_yield ();
          if (i % 16 == 0 && g_get_monotonic_time () > until)
            break;
        }
      g_mutex_lock (&g->lock);
      while (!g->aborted && generation == g_atomic_int_get (&g->generation))
        g_cond_wait (&g->cond, &g->lock);
    }
  /* A barrier every part passed counts as passed, even if one of them
   * failed right after (it may fail on what they all just agreed). */
  aborted = g->aborted && generation == g_atomic_int_get (&g->generation);
  g_mutex_unlock (&g->lock);
  if (aborted)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Another part of the solve failed"));
  return !aborted;
}

static void
local_abort (KsExchange *self)
{
  KsExchangeGroup *g = ((LocalExchange *) self)->group;

  g_mutex_lock (&g->lock);
  g_atomic_int_set (&g->aborted, TRUE);
  g_cond_broadcast (&g->cond);
  g_mutex_unlock (&g->lock);
}

static gboolean
local_start (KsExchange *self,
             double     *x,
             GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;

  /* Once all have published, every owned value is final. */
  ex->group->published[ex->index] = x;
  return barrier (ex->group, error);
}

static gboolean
local_finish (KsExchange *self,
              double     *x,
              GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;
  const KsHaloPart *me = self->part;

  for (guint j = 0; j < me->n_neighbours; j++)
    {
      const KsHaloNeighbour *from = &me->neighbours[j];
      const KsHaloPart *them = ks_halo_get_part (ex->group->halo, from->part);
      const double *src = ex->group->published[from->part];

      for (guint k = 0; k < them->n_neighbours; k++)
        if (them->neighbours[k].part == ex->index)
          for (guint i = 0; i < from->n_recv; i++)
            x[from->recv_first + i] = src[them->neighbours[k].send[i]];
    }
  /* No part changes its vector before every other has read it. */
  return barrier (ex->group, error);
}

static gboolean
local_allreduce (KsExchange *self,
                 double     *values,
                 guint       n,
                 GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;
  KsExchangeGroup *g = ex->group;
  /* One barrier a sum, not two: consecutive sums use alternate halves, and
   * a part can only write this half again after the next sum's barrier,
   * which every part reaches after reading this one. */
  double *partials = g->partials + (ex->n_sums++ % 2) * g->n_parts * MAX_SUMS;

  g_return_val_if_fail (n <= MAX_SUMS, FALSE);

  for (guint k = 0; k < n; k++)
    partials[ex->index * MAX_SUMS + k] = values[k];
  if (!barrier (g, error))
    return FALSE;
  /* In part order: the same bits on every part and every run. */
  for (guint k = 0; k < n; k++)
    {
      double sum = 0;

      for (guint p = 0; p < g->n_parts; p++)
        sum += partials[p * MAX_SUMS + k];
      values[k] = sum;
    }
  return TRUE;
}

static const KsExchangeVTable local_vtable = {
  local_start, local_finish, local_allreduce, local_abort, NULL,
};

/* --- threads of one process, split phase ---------------------------------------- */

/* One more part has come: wakes the sleepers, if any.  The count goes
 * up before the sleepers are read, and a sleeper counts itself before it
 * reads the count (both sequentially consistent), so no wake is lost. */
static void
split_arrive (KsExchangeGroup *g,
              gint            *count)
{
  g_atomic_int_inc (count);
  if (g_atomic_int_get (&g->sleepers) > 0)
    {
      g_mutex_lock (&g->lock);
      g_cond_broadcast (&g->cond);
      g_mutex_unlock (&g->lock);
    }
}

static gboolean
split_reached (KsExchangeGroup *g,
               gint            *count,
               gint             target,
               gint             read_target)
{
  return g_atomic_int_get (count) >= target && g_atomic_int_get (&g->halos_read) >= read_target;
}

/* Waits until count reaches target and every part has read every
 * exchange this one gave (read_target): spinning first, as barrier(). */
static gboolean
split_wait (KsExchangeGroup *g,
            gint            *count,
            gint             target,
            gint             read_target,
            GError         **error)
{
  const gint64 until = g_get_monotonic_time () + SPIN_US;

  for (guint i = 1; !split_reached (g, count, target, read_target) && !g_atomic_int_get (&g->aborted); i++)
    {
      g_thread_yield ();
      if (i % 16 == 0 && g_get_monotonic_time () > until)
        break;
    }
  if (!split_reached (g, count, target, read_target) && !g_atomic_int_get (&g->aborted))
    {
      g_mutex_lock (&g->lock);
      g_atomic_int_inc (&g->sleepers);
      while (!split_reached (g, count, target, read_target) && !g_atomic_int_get (&g->aborted))
        g_cond_wait (&g->cond, &g->lock);
      g_atomic_int_add (&g->sleepers, -1);
      g_mutex_unlock (&g->lock);
    }
  if (split_reached (g, count, target, read_target))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Another part of the solve failed"));
  return FALSE;
}

static gboolean
split_start (KsExchange *self,
             double     *x,
             GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;
  KsExchangeGroup *g = ex->group;

  g->published[(ex->n_halos & 1) * g->n_parts + ex->index] = x;
  split_arrive (g, &g->halos_started);
  return TRUE;
}

static gboolean
split_finish (KsExchange *self,
              double     *x,
              GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;
  KsExchangeGroup *g = ex->group;
  const KsHaloPart *me = self->part;
  double **published = g->published + (ex->n_halos & 1) * g->n_parts;

  ex->n_halos++;
  if (!split_wait (g, &g->halos_started, (gint) g->n_parts * ex->n_halos, 0, error))
    return FALSE;
  for (guint j = 0; j < me->n_neighbours; j++)
    {
      const KsHaloNeighbour *from = &me->neighbours[j];
      const KsHaloPart *them = ks_halo_get_part (g->halo, from->part);
      const double *src = published[from->part];

      for (guint k = 0; k < them->n_neighbours; k++)
        if (them->neighbours[k].part == ex->index)
          for (guint i = 0; i < from->n_recv; i++)
            x[from->recv_first + i] = src[them->neighbours[k].send[i]];
    }
  /* No wait: a part changes what it published only after a later sum,
   * and a sum waits for every part's reading (split_wait's read_target). */
  split_arrive (g, &g->halos_read);
  return TRUE;
}

static gboolean
split_sum_start (KsExchange *self,
                 double     *values,
                 guint       n,
                 GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;
  KsExchangeGroup *g = ex->group;
  double *mine = g->partials + ((ex->n_sums & 1) * g->n_parts + ex->index) * MAX_SUMS;

  g_return_val_if_fail (n <= MAX_SUMS, FALSE);
  memcpy (mine, values, sizeof (double) * n);
  split_arrive (g, &g->sums_arrived);
  return TRUE;
}

static gboolean
split_sum_finish (KsExchange *self,
                  double     *values,
                  guint       n,
                  GError    **error)
{
  LocalExchange *ex = (LocalExchange *) self;
  KsExchangeGroup *g = ex->group;
  const double *all = g->partials + (ex->n_sums & 1) * g->n_parts * MAX_SUMS;

  ex->n_sums++;
  if (!split_wait (g, &g->sums_arrived, (gint) g->n_parts * ex->n_sums, (gint) g->n_parts * ex->n_halos, error))
    return FALSE;
  /* In part order: the same bits on every part and every run. */
  for (guint k = 0; k < n; k++)
    {
      double sum = 0;

      for (guint p = 0; p < g->n_parts; p++)
        sum += all[p * MAX_SUMS + k];
      values[k] = sum;
    }
  return TRUE;
}

static gboolean
split_allreduce (KsExchange *self,
                 double     *values,
                 guint       n,
                 GError    **error)
{
  return split_sum_start (self, values, n, error) && split_sum_finish (self, values, n, error);
}

static const KsExchangeVTable split_vtable = {
  split_start, split_finish, split_allreduce, local_abort, NULL, split_sum_start, split_sum_finish,
};

void
ks_exchange_group_set_tune (KsExchangeGroup *group,
                            KsDistTune       tune)
{
  g_return_if_fail (group != NULL);

  group->split = (tune & KS_DIST_TUNE_SUMS) != 0;
  for (guint p = 0; p < group->n_parts; p++)
    group->parts[p].base.vtable = group->split ? &split_vtable : &local_vtable;
}

KsExchangeGroup *
ks_exchange_group_new (const KsHalo *halo)
{
  KsExchangeGroup *g;

  g_return_val_if_fail (halo != NULL, NULL);

  g = g_new0 (KsExchangeGroup, 1);
  g->halo = halo;
  g->n_parts = ks_halo_get_n_parts (halo);
  g->parts = g_new0 (LocalExchange, g->n_parts);
  g->published = g_new0 (double *, 2 * g->n_parts);
  g->partials = g_new0 (double, 2 * g->n_parts * MAX_SUMS);
  g_mutex_init (&g->lock);
  g_cond_init (&g->cond);
  for (guint p = 0; p < g->n_parts; p++)
    {
      g->parts[p].base.vtable = &local_vtable;
      g->parts[p].base.part = ks_halo_get_part (halo, p);
      g->parts[p].group = g;
      g->parts[p].index = p;
    }
  return g;
}

KsExchange *
ks_exchange_group_get (KsExchangeGroup *group,
                       guint            part)
{
  g_return_val_if_fail (group != NULL && part < group->n_parts, NULL);
  return &group->parts[part].base;
}

void
ks_exchange_group_free (KsExchangeGroup *group)
{
  if (group == NULL)
    return;
  g_mutex_clear (&group->lock);
  g_cond_clear (&group->cond);
  g_free (group->parts);
  g_free (group->published);
  g_free (group->partials);
  g_free (group);
}

void
ks_dist_cg_set_not_converged (GError **error,
                              guint    iterations,
                              double   relative,
                              double   tol)
{
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED,
               _("Conjugate gradients did not converge in %u iterations: the residual is %.3g of the right-hand side's, %.3g was asked"),
               iterations, relative, tol);
}

void
ks_dist_cg_set_breakdown (GError **error,
                          guint    iteration,
                          double   pq)
{
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_BREAKDOWN,
               _("Conjugate gradients broke down at iteration %u: p·Ap = %g, so the matrix is not positive definite"),
               iteration, pq);
}
