/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-device.c: paper 004's whole time step on the device (ks-heat.h,
 * KS_HEAT_OFFLOAD_WHOLE).  The geometry goes up once per mesh: the node
 * blocks of ks-heat.c regrouped per matrix entry (which node's block adds
 * what to it, in the host's order), the cells' masses and areas, the
 * boundary edges' weights per cell.  A step then runs the kernels of
 * kernels/heat-step.cl into the CG's own buffers (ks-cg-private.h), the CG
 * with x and b in place, and a reduction of the step's numbers; the host
 * reads four scalars per nonlinear iteration and T only when asked. */
#define G_LOG_DOMAIN "ks-heat"

#include "ks-heat-private.h"
#include "ks-cg-private.h"
#include "ks-runtime.h"
#include "ks-solver-error.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

enum { K_COEF, K_ASSEMBLE, K_STATS, K_FINAL, N_KERNELS };
static const char * const kernel_names[N_KERNELS] = {
  "heat_node_coef", "heat_assemble", "heat_stats", "heat_stats_final",
};

/* The step's numbers, as heat_stats_final writes them. */
enum { S_ENERGY, S_MAX, S_MIN, S_CHANGE, S_INFLOW, N_STATS };

struct _KsHeatDevice {
  KsCgDevice  *cg;         /* borrowed: the heat's */
  KsRuntime   *rt;         /* the CG's */
  KsPrecision  precision;
  gsize        real_size;
  KsKernel    *k[N_KERNELS];
  gsize        local;      /* the statistics' group size */
  guint        groups;
  KsBuffer    *node_off, *node_cells, *area, *contrib_off, *contrib_node, *contrib_k;
  KsBuffer    *mass, *bnd_off, *bnd_w, *bnd_tb, *coef;
  KsBuffer    *t_old, *t_nu, *partial, *stats;
  gboolean     t_valid;        /* t_old holds the heat's T */
  gboolean     matrix_ready;   /* n = 0: the CG's values are this problem's */
};

void
ks_heat_device_free (KsHeatDevice *dev)
{
  KsBuffer **buffers[] = { &dev->node_off, &dev->node_cells, &dev->area, &dev->contrib_off,
                           &dev->contrib_node, &dev->contrib_k, &dev->mass, &dev->bnd_off, &dev->bnd_w, &dev->bnd_tb,
                           &dev->coef, &dev->t_old, &dev->t_nu, &dev->partial, &dev->stats };

  if (dev == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], ks_buffer_unref);
  for (guint i = 0; i < N_KERNELS; i++)
    g_clear_pointer (&dev->k[i], ks_kernel_unref);
  g_free (dev);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsHeatDevice, ks_heat_device_free)

void
ks_heat_device_invalidate (KsHeatDevice *dev)
{
  g_return_if_fail (dev != NULL);
  dev->t_valid = FALSE;
}

static gboolean
upload (KsHeatDevice *dev, KsBuffer **buffer, const void *src, gsize size, GError **error)
{
  if (!(*buffer = ks_runtime_alloc (dev->rt, MAX (size, 4), error)))
    return FALSE;
  return size == 0 || ks_runtime_write (dev->rt, *buffer, 0, size, src, error);
}

/* n doubles, in the device's precision. */
static gboolean
upload_real (KsHeatDevice *dev, KsBuffer **buffer, const double *src, gsize n, GError **error)
{
  g_autofree float *f = NULL;

  if (dev->precision == KS_PRECISION_DOUBLE)
    return upload (dev, buffer, src, n * sizeof (double), error);
  f = g_new (float, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    f[i] = (float) src[i];
  return upload (dev, buffer, f, n * sizeof (float), error);
}

static gboolean
write_real (KsHeatDevice *dev, KsBuffer *buffer, const double *src, gsize n, GError **error)
{
  g_autofree float *f = NULL;

  if (dev->precision == KS_PRECISION_DOUBLE)
    return ks_runtime_write (dev->rt, buffer, 0, n * sizeof (double), src, error);
  f = g_new (float, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    f[i] = (float) src[i];
  return ks_runtime_write (dev->rt, buffer, 0, n * sizeof (float), f, error);
}

static gboolean
read_real (KsHeatDevice *dev, KsBuffer *buffer, double *dst, gsize n, GError **error)
{
  g_autofree float *f = NULL;

  if (dev->precision == KS_PRECISION_DOUBLE)
    return ks_runtime_read (dev->rt, buffer, 0, n * sizeof (double), dst, error);
  f = g_new (float, MAX (n, 1));
  if (!ks_runtime_read (dev->rt, buffer, 0, n * sizeof (float), f, error))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    dst[i] = f[i];
  return TRUE;
}

/* Per matrix entry, the node blocks that add to it, in the order the host
 * assembly adds them (node by node): offsets (nnz + 1), nodes and values. */
static gboolean
upload_contributions (KsHeatDevice *dev, const KsHeat *h, GError **error)
{
  const KsMesh *m = h->mesh;
  const guint nnz = h->a->nnz;
  g_autofree guint *off = g_new0 (guint, nnz + 1);
  g_autofree guint *fill = NULL;
  g_autofree guint *node = NULL;
  g_autofree double *k = NULL;

  for (guint v = 0; v < m->n_nodes; v++)
    {
      const gsize cnt = m->node_offsets[v + 1] - m->node_offsets[v];
      if (cnt < 2)
        continue;
      for (gsize i = 0; i < cnt * cnt; i++)
        off[h->block_pos[h->block_off[v] + i] + 1]++;
    }
  for (guint p = 0; p < nnz; p++)
    off[p + 1] += off[p];
  fill = g_memdup2 (off, sizeof (guint) * nnz);
  node = g_new (guint, MAX (off[nnz], 1));
  k = g_new (double, MAX (off[nnz], 1));
  for (guint v = 0; v < m->n_nodes; v++)
    {
      const gsize cnt = m->node_offsets[v + 1] - m->node_offsets[v];
      if (cnt < 2)
        continue;
      for (gsize i = 0; i < cnt * cnt; i++)
        {
          const guint p = h->block_pos[h->block_off[v] + i];
          node[fill[p]] = v;
          k[fill[p]++] = h->block[h->block_off[v] + i];
        }
    }
  return upload (dev, &dev->contrib_off, off, sizeof (guint) * (nnz + 1), error) &&
         upload (dev, &dev->contrib_node, node, sizeof (guint) * off[nnz], error) &&
         upload_real (dev, &dev->contrib_k, k, off[nnz], error);
}

/* Per cell its fixed-temperature boundary edges' weights and temperatures,
 * in edge order (the insulated ones add nothing). */
static gboolean
upload_boundary (KsHeatDevice *dev, const KsHeat *h, GError **error)
{
  const KsMesh *m = h->mesh;
  g_autofree guint *off = g_new0 (guint, m->n_cells + 1);
  g_autofree guint *fill = NULL;
  g_autofree double *w = g_new (double, MAX (m->n_boundary, 1));
  g_autofree double *tb = g_new (double, MAX (m->n_boundary, 1));

  for (guint e = 0; e < m->n_boundary; e++)
    if (h->group_kind[m->boundary_group[e]] == KS_HEAT_BOUNDARY_FIXED)
      off[m->boundary_cell[e] + 1]++;
  for (guint c = 0; c < m->n_cells; c++)
    off[c + 1] += off[c];
  fill = g_memdup2 (off, sizeof (guint) * m->n_cells);
  for (guint e = 0; e < m->n_boundary; e++)
    if (h->group_kind[m->boundary_group[e]] == KS_HEAT_BOUNDARY_FIXED)
      {
        const guint k = fill[m->boundary_cell[e]]++;
        w[k] = h->edge_w[e];
        tb[k] = h->group_tb[m->boundary_group[e]];
      }
  return upload (dev, &dev->bnd_off, off, sizeof (guint) * (m->n_cells + 1), error) &&
         upload_real (dev, &dev->bnd_w, w, off[m->n_cells], error) &&
         upload_real (dev, &dev->bnd_tb, tb, off[m->n_cells], error);
}

static KsHeatDevice *
device_new (KsHeat *h, GError **error)
{
  const KsMesh *m = h->mesh;
  g_autoptr(KsHeatDevice) dev = g_new0 (KsHeatDevice, 1);
  KsProgram *program;

  dev->cg = h->cg;
  dev->rt = ks_cg_device_get_runtime (h->cg);
  dev->precision = ks_cg_device_get_precision (h->cg);
  dev->real_size = ks_precision_size (dev->precision);
  if (!(program = ks_cg_device_get_program (h->cg, "heat-step.cl", error)))
    return NULL;
  dev->local = 256;
  for (guint i = 0; i < N_KERNELS; i++)
    {
      if (!(dev->k[i] = ks_program_create_kernel (program, kernel_names[i], error)))
        return NULL;
      if (ks_kernel_get_max_work_group_size (dev->k[i]) > 0)
        dev->local = MIN (dev->local, ks_kernel_get_max_work_group_size (dev->k[i]));
    }
  dev->groups = (guint) MIN ((m->n_cells + dev->local - 1) / dev->local, 1024);
  /* The pattern, uploaded once: from here the values are the kernels'. */
  if (!ks_cg_device_set_pattern (h->cg, h->a, error) ||
      !upload (dev, &dev->node_off, m->node_offsets, sizeof (guint) * (m->n_nodes + 1), error) ||
      !upload (dev, &dev->node_cells, m->node_cells, sizeof (guint) * m->node_offsets[m->n_nodes], error) ||
      !upload_real (dev, &dev->area, m->area, m->n_cells, error) ||
      !upload_real (dev, &dev->mass, h->mass, m->n_cells, error) ||
      !upload_contributions (dev, h, error) ||
      !upload_boundary (dev, h, error) ||
      !(dev->coef = ks_runtime_alloc (dev->rt, dev->real_size * MAX (m->n_nodes, 1), error)) ||
      !(dev->t_old = ks_runtime_alloc (dev->rt, dev->real_size * m->n_cells, error)) ||
      !(dev->t_nu = ks_runtime_alloc (dev->rt, dev->real_size * m->n_cells, error)) ||
      !(dev->partial = ks_runtime_alloc (dev->rt, dev->real_size * N_STATS * dev->groups, error)) ||
      !(dev->stats = ks_runtime_alloc (dev->rt, dev->real_size * N_STATS, error)))
    return NULL;
  return g_steal_pointer (&dev);
}

/* A real scalar argument in the device's precision. */
#define REAL_ARG(dev) ((dev)->precision == KS_PRECISION_DOUBLE ? KS_ARG_DOUBLE : KS_ARG_FLOAT)

/* The values (when matrix) and the right-hand side from t_nu and t_old
 * into the CG's buffers. */
static gboolean
assemble (KsHeat *h, KsBuffer *t_nu, KsBuffer *t_old, gboolean matrix, GError **error)
{
  KsHeatDevice *dev = h->dev;
  const KsMesh *m = h->mesh;
  const gsize nodes = m->n_nodes, rows = m->n_cells;

  if (matrix &&
      !(ks_kernel_set_args (dev->k[K_COEF], error, KS_ARG_INT, (int) m->n_nodes, KS_ARG_BUFFER, dev->node_off,
                            KS_ARG_BUFFER, dev->node_cells, KS_ARG_BUFFER, dev->area, KS_ARG_BUFFER, t_nu,
                            REAL_ARG (dev), h->p.n, REAL_ARG (dev), h->p.d0, REAL_ARG (dev), h->p.tau,
                            KS_ARG_BUFFER, dev->coef, KS_ARG_END) &&
        ks_runtime_launch (dev->rt, dev->k[K_COEF], 1, &nodes, NULL, error)))
    return FALSE;
  return ks_kernel_set_args (dev->k[K_ASSEMBLE], error, KS_ARG_INT, (int) m->n_cells,
                             KS_ARG_BUFFER, ks_cg_device_get_buffer (dev->cg, KS_CG_BUFFER_ROW_PTR),
                             KS_ARG_BUFFER, ks_cg_device_get_buffer (dev->cg, KS_CG_BUFFER_COL),
                             KS_ARG_BUFFER, dev->contrib_off, KS_ARG_BUFFER, dev->contrib_node,
                             KS_ARG_BUFFER, dev->contrib_k, KS_ARG_BUFFER, dev->coef, KS_ARG_BUFFER, dev->mass,
                             KS_ARG_BUFFER, dev->bnd_off, KS_ARG_BUFFER, dev->bnd_w, KS_ARG_BUFFER, dev->bnd_tb,
                             KS_ARG_BUFFER, t_nu, KS_ARG_BUFFER, t_old, KS_ARG_INT, (int) matrix,
                             REAL_ARG (dev), h->p.n, REAL_ARG (dev), h->p.d0, REAL_ARG (dev), h->p.tau,
                             KS_ARG_BUFFER, ks_cg_device_get_buffer (dev->cg, KS_CG_BUFFER_VAL),
                             KS_ARG_BUFFER, ks_cg_device_get_buffer (dev->cg, KS_CG_BUFFER_B), KS_ARG_END) &&
         ks_runtime_launch (dev->rt, dev->k[K_ASSEMBLE], 1, &rows, NULL, error);
}

/* Energy, max, min of t, max |t - t_prev| and the inflow through the fixed
 * walls, read back into out. */
static gboolean
stats (KsHeat *h, KsBuffer *t, KsBuffer *t_prev, double out[N_STATS], GError **error)
{
  KsHeatDevice *dev = h->dev;
  const gsize global = (gsize) dev->groups * dev->local, one = 1;

  return ks_kernel_set_args (dev->k[K_STATS], error, KS_ARG_INT, (int) h->mesh->n_cells, KS_ARG_BUFFER, t,
                             KS_ARG_BUFFER, t_prev, KS_ARG_BUFFER, dev->mass, KS_ARG_BUFFER, dev->bnd_off,
                             KS_ARG_BUFFER, dev->bnd_w, KS_ARG_BUFFER, dev->bnd_tb, REAL_ARG (dev), h->p.n,
                             REAL_ARG (dev), h->p.d0, REAL_ARG (dev), h->p.tau, KS_ARG_BUFFER, dev->partial,
                             KS_ARG_LOCAL, N_STATS * dev->local * dev->real_size, KS_ARG_END) &&
         ks_runtime_launch (dev->rt, dev->k[K_STATS], 1, &global, &dev->local, error) &&
         ks_kernel_set_args (dev->k[K_FINAL], error, KS_ARG_INT, (int) dev->groups,
                             KS_ARG_BUFFER, dev->partial, KS_ARG_BUFFER, dev->stats, KS_ARG_END) &&
         ks_runtime_launch (dev->rt, dev->k[K_FINAL], 1, &one, &one, error) &&
         read_real (dev, dev->stats, out, N_STATS, error);
}

static gboolean
ensure_device (KsHeat *h, GError **error)
{
  if (h->dev == NULL && !(h->dev = device_new (h, error)))
    return FALSE;
  /* The CG's values are the kernels' from now on. */
  h->uploaded = FALSE;
  if (!h->dev->t_valid)
    {
      if (!write_real (h->dev, h->dev->t_old, h->t, h->mesh->n_cells, error))
        return FALSE;
      h->dev->t_valid = TRUE;
    }
  return TRUE;
}

/* The step's nonlinear iterations from T^n (dev->t_old) into the CG's x,
 * st's numbers added up, s the last iteration's statistics. */
static gboolean
picard (KsHeat *h, KsHeatStepStats *st, double s[N_STATS], GError **error)
{
  const KsCgOptions options = { h->p.cg_tol, h->p.cg_max_iter };
  const gsize bytes = ks_precision_size (ks_cg_device_get_precision (h->cg)) * h->mesh->n_cells;
  const gboolean linear = h->p.n == 0;
  KsBuffer *x = ks_cg_device_get_buffer (h->cg, KS_CG_BUFFER_X);
  KsQueue *queue = ks_runtime_get_queue (h->dev->rt);
  gboolean converged = FALSE;
  double change = 0.0, tmax = 0.0;

  /* T^{nu = 0} = T^n, the CG's first guess too. */
  if (!ks_queue_copy (queue, h->dev->t_old, 0, x, 0, bytes, NULL, error))
    return FALSE;
  for (guint nu = 0; nu < h->p.picard_max && !converged; nu++)
    {
      const gboolean new_matrix = !linear || !h->dev->matrix_ready;
      KsCgResult res = { 0 };
      gint64 t1, t2, t3;

      t1 = g_get_monotonic_time ();
      h->dev->matrix_ready = FALSE;
      if (!ks_queue_copy (queue, x, 0, h->dev->t_nu, 0, bytes, NULL, error) ||
          !assemble (h, h->dev->t_nu, h->dev->t_old, new_matrix, error) ||
          !ks_runtime_finish (h->dev->rt, error))
        return FALSE;
      h->dev->matrix_ready = linear;
      t2 = g_get_monotonic_time ();
      if (!ks_cg_device_solve_resident (h->cg, &options, &res, error))
        {
          g_prefix_error (error, _("Step %u, nonlinear iteration %u: "), h->step + 1, nu + 1);
          return FALSE;
        }
      t3 = g_get_monotonic_time ();
      if (!stats (h, x, h->dev->t_nu, s, error))
        return FALSE;
      st->assemble_s += (t2 - t1) / 1e6;
      st->solve_s += (t3 - t2) / 1e6;
      st->cg_iterations += res.iterations;
      st->cg_residual = res.residual;
      st->cg_bytes += res.bytes;
      st->iterate_s += res.iterate_s;
      st->picard = nu + 1;
      change = s[S_CHANGE];
      tmax = MAX (fabs (s[S_MAX]), fabs (s[S_MIN]));
      converged = linear || change <= h->p.picard_tol * tmax;
    }
  if (!converged)
    {
      ks_heat_set_picard_error (h, error, change, tmax);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_heat_device_step (KsHeat *h, KsHeatStepStats *out, GError **error)
{
  KsHeatStepStats st = { 0 };
  double s[N_STATS] = { 0 };
  gint64 setup_begin;
  gsize bytes;

  g_return_val_if_fail (h != NULL && h->cg != NULL, FALSE);
  setup_begin = g_get_monotonic_time ();
  if (h->dev == NULL)
    {
      KsHeatStepStats warm = { 0 };

      /* The first step on this device: the kernels built and the mesh
       * uploaded, then the step's iterations once unmeasured and thrown
       * away (T^n stays), since a runtime may compile a kernel at its
       * first launch (PoCL: 2.5 s of a 2.9 s first step).  All of it is
       * setup_s; the step's own numbers come from the run after it. */
      if (!ensure_device (h, error) || !picard (h, &warm, s, error))
        return FALSE;
      st.setup_s = (g_get_monotonic_time () - setup_begin) / 1e6;
    }
  else if (!ensure_device (h, error))
    return FALSE;
  if (!picard (h, &st, s, error))
    return FALSE;
  bytes = ks_precision_size (ks_cg_device_get_precision (h->cg)) * h->mesh->n_cells;
  if (!ks_queue_copy (ks_runtime_get_queue (h->dev->rt), ks_cg_device_get_buffer (h->cg, KS_CG_BUFFER_X), 0,
                      h->dev->t_old, 0, bytes, NULL, error))
    return FALSE;
  h->host_stale = TRUE;
  st.energy = s[S_ENERGY];
  st.inflow = s[S_INFLOW];
  st.t_max = s[S_MAX];
  st.t_min = s[S_MIN];
  *out = st;
  return TRUE;
}

gboolean
ks_heat_device_download (KsHeat *h, GError **error)
{
  g_return_val_if_fail (h != NULL && h->dev != NULL, FALSE);
  return read_real (h->dev, h->dev->t_old, h->t, h->mesh->n_cells, error);
}

KsCsr *
ks_heat_assemble_device (KsHeat *h, const double *t_nu, const double *t_old, double *rhs, GError **error)
{
  g_autoptr(KsCsr) a = NULL;

  g_return_val_if_fail (h != NULL && t_nu != NULL && t_old != NULL && rhs != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (h->cg == NULL)
    {
      g_set_error_literal (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                           _("The device assembly needs a device: this heat problem solves on the host"));
      return NULL;
    }
  if (!ks_heat_sync (h, error) || !ensure_device (h, error))
    return NULL;
  /* Its own T goes up again at the next step. */
  h->dev->t_valid = FALSE;
  h->dev->matrix_ready = FALSE;
  a = ks_csr_copy (h->a);
  if (!write_real (h->dev, h->dev->t_nu, t_nu, h->mesh->n_cells, error) ||
      !write_real (h->dev, h->dev->t_old, t_old, h->mesh->n_cells, error) ||
      !assemble (h, h->dev->t_nu, h->dev->t_old, TRUE, error) ||
      !read_real (h->dev, ks_cg_device_get_buffer (h->cg, KS_CG_BUFFER_VAL), a->val, a->nnz, error) ||
      !read_real (h->dev, ks_cg_device_get_buffer (h->cg, KS_CG_BUFFER_B), rhs, h->mesh->n_cells, error))
    return NULL;
  return g_steal_pointer (&a);
}
