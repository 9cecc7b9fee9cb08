/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat.c: the heat scheme of ks-heat.h: the node energies' matrices
 * (geometry only, computed once), the assembly at each nonlinear iteration,
 * Picard iterations over CG solves, and the diagnostics. */
#define G_LOG_DOMAIN "ks-heat"

#include "ks-heat.h"
#include "ks-heat-private.h"
#include "ks-compute-error.h"
#include "ks-solver-error.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* The weight of the stabilising term against the gradient's (both are
 * temperature squared times D): 1 keeps the checkerboard damped as fast as
 * a smooth mode of the same wavelength without visibly widening the front. */
#define STABILISATION 1.0

static const char * const boundary_names[] = { "insulated", "fixed" };
static const char * const offload_names[] = { "whole", "partial" };

const char *
ks_heat_offload_to_string (KsHeatOffload offload)
{
  g_return_val_if_fail ((guint) offload < G_N_ELEMENTS (offload_names), NULL);
  return offload_names[offload];
}

void
ks_heat_params_init (KsHeatParams *p)
{
  g_return_if_fail (p != NULL);
  *p = (KsHeatParams) {
    .n = 0, .d0 = 1, .density = 1, .cv = 1, .energy = 1, .tau = 1e-4, .t0 = 0,
    .boundary = KS_HEAT_BOUNDARY_INSULATED, .t_boundary = 0,
    .cg_tol = 1e-10, .cg_max_iter = 2000, .picard_max = 20, .picard_tol = 1e-6,
  };
}

static gboolean
check_range (const char *name, double v, double lo, double hi, gboolean open_lo, GError **error)
{
  if (isfinite (v) && (open_lo ? v > lo : v >= lo) && v <= hi)
    return TRUE;
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
               open_lo ? _("%s must lie in (%g, %g], not %g") : _("%s must lie in [%g, %g], not %g"),
               name, lo, hi, v);
  return FALSE;
}

gboolean
ks_heat_params_check (const KsHeatParams *p, GError **error)
{
  g_return_val_if_fail (p != NULL, FALSE);
  return check_range ("n", p->n, 0, 10, FALSE, error) &&
         check_range ("D0", p->d0, 0, 1e12, TRUE, error) &&
         check_range (_("density"), p->density, 0, 1e12, TRUE, error) &&
         check_range ("c_v", p->cv, 0, 1e12, TRUE, error) &&
         check_range (_("energy"), p->energy, 0, 1e12, TRUE, error) &&
         check_range (_("time step"), p->tau, 0, 1e6, TRUE, error) &&
         check_range ("t0", p->t0, 0, 1e6, FALSE, error) &&
         check_range (_("boundary temperature"), p->t_boundary, 0, 1e12, FALSE, error) &&
         check_range (_("CG tolerance"), p->cg_tol, 0, 0.5, TRUE, error) &&
         check_range (_("CG iterations"), p->cg_max_iter, 1, 1e7, FALSE, error) &&
         check_range (_("nonlinear iterations"), p->picard_max, 1, 1000, FALSE, error) &&
         check_range (_("nonlinear tolerance"), p->picard_tol, 0, 0.5, TRUE, error);
}

/* --- geometry, once ----------------------------------------------------------------- */

/* The pseudo-inverse of the symmetric 2 x 2 [[a, b], [b, c]] into out[4]. */
static void
pinv2 (double a, double b, double c, double out[4])
{
  const double half = 0.5 * (a + c);
  const double disc = sqrt (0.25 * (a - c) * (a - c) + b * b);
  const double l1 = half + disc, l2 = half - disc;

  memset (out, 0, 4 * sizeof (double));
  if (!(l1 > 0))
    return;
  if (l2 > 1e-9 * l1)
    {
      const double det = a * c - b * b;
      out[0] = c / det;
      out[1] = out[2] = -b / det;
      out[3] = a / det;
      return;
    }
  /* Rank one (the cells' centroids on a line, as along a straight
   * boundary): the gradient along that line only, none across. */
  {
    double ux = fabs (b) > 1e-300 ? l1 - c : (a >= c ? 1 : 0);
    double uy = fabs (b) > 1e-300 ? b : (a >= c ? 0 : 1);
    const double norm = hypot (ux, uy);
    ux /= norm;
    uy /= norm;
    out[0] = ux * ux / l1;
    out[1] = out[2] = ux * uy / l1;
    out[3] = uy * uy / l1;
  }
}

/* The geometry block of node v: V_v G^T G + beta (I - P) (ks-heat.h). */
static void
node_block (const KsMesh *m, guint v, double *k)
{
  const guint first = m->node_offsets[v], cnt = m->node_offsets[v + 1] - first;
  const guint *cells = m->node_cells + first;
  double mx = 0, my = 0, vol = 0, cxx = 0, cxy = 0, cyy = 0, ci[4];
  double dx[KS_HEAT_MAX_NODE_CELLS], dy[KS_HEAT_MAX_NODE_CELLS], gx[KS_HEAT_MAX_NODE_CELLS], gy[KS_HEAT_MAX_NODE_CELLS];

  g_assert (cnt <= KS_HEAT_MAX_NODE_CELLS);
  for (guint i = 0; i < cnt; i++)
    {
      mx += m->cx[cells[i]] / cnt;
      my += m->cy[cells[i]] / cnt;
      vol += m->area[cells[i]] / ks_mesh_cell_size (m, cells[i]);
    }
  for (guint i = 0; i < cnt; i++)
    {
      dx[i] = m->cx[cells[i]] - mx;
      dy[i] = m->cy[cells[i]] - my;
      cxx += dx[i] * dx[i];
      cxy += dx[i] * dy[i];
      cyy += dy[i] * dy[i];
    }
  pinv2 (cxx, cxy, cyy, ci);
  /* G = C^+ Dx^T: column i is the gradient's weight of cell i. */
  for (guint i = 0; i < cnt; i++)
    {
      gx[i] = ci[0] * dx[i] + ci[1] * dy[i];
      gy[i] = ci[2] * dx[i] + ci[3] * dy[i];
    }
  for (guint i = 0; i < cnt; i++)
    for (guint j = 0; j < cnt; j++)
      {
        const double proj = 1.0 / cnt + dx[i] * gx[j] + dy[i] * gy[j];
        k[i * cnt + j] = vol * (gx[i] * gx[j] + gy[i] * gy[j]) + STABILISATION * ((i == j) - proj);
      }
}

/* The CSR pattern: each cell and its stencil, sorted. */
static KsCsr *
pattern (const KsMesh *m)
{
  guint *row_ptr = g_new (guint, m->n_cells + 1);
  guint *col = g_new (guint, m->stencil_offsets[m->n_cells] + m->n_cells);

  row_ptr[0] = 0;
  for (guint c = 0; c < m->n_cells; c++)
    {
      guint k = row_ptr[c];
      gboolean placed = FALSE;
      for (guint s = m->stencil_offsets[c]; s < m->stencil_offsets[c + 1]; s++)
        {
          if (!placed && m->stencil[s] > c)
            {
              col[k++] = c;
              placed = TRUE;
            }
          col[k++] = m->stencil[s];
        }
      if (!placed)
        col[k++] = c;
      row_ptr[c + 1] = k;
    }
  return ks_csr_new_take (m->n_cells, m->n_cells, row_ptr, col);
}

static void
prepare_geometry (KsHeat *h)
{
  const KsMesh *m = h->mesh;

  h->a = pattern (m);
  h->block_off = g_new (gsize, m->n_nodes + 1);
  h->block_off[0] = 0;
  for (guint v = 0; v < m->n_nodes; v++)
    {
      const gsize cnt = m->node_offsets[v + 1] - m->node_offsets[v];
      h->block_off[v + 1] = h->block_off[v] + cnt * cnt;
    }
  h->block = g_new (double, MAX (h->block_off[m->n_nodes], 1));
  h->block_pos = g_new (guint, MAX (h->block_off[m->n_nodes], 1));
  for (guint v = 0; v < m->n_nodes; v++)
    {
      const guint first = m->node_offsets[v], cnt = m->node_offsets[v + 1] - first;
      node_block (m, v, h->block + h->block_off[v]);
      for (guint i = 0; i < cnt; i++)
        for (guint j = 0; j < cnt; j++)
          {
            const gssize pos = ks_csr_find (h->a, m->node_cells[first + i], m->node_cells[first + j]);
            g_assert (pos >= 0);  /* cells around one node share it: in each other's stencil */
            h->block_pos[h->block_off[v] + i * cnt + j] = (guint) pos;
          }
    }
  h->edge_w = g_new (double, MAX (m->n_boundary, 1));
  for (guint e = 0; e < m->n_boundary; e++)
    {
      const guint a = m->boundary_a[e], b = m->boundary_b[e], c = m->boundary_cell[e];
      const double len = hypot (m->x[b] - m->x[a], m->y[b] - m->y[a]);
      /* The distance from the centroid to the edge's line. */
      const double dist = fabs ((m->x[b] - m->x[a]) * (m->cy[c] - m->y[a]) -
                                (m->y[b] - m->y[a]) * (m->cx[c] - m->x[a])) / len;
      h->edge_w[e] = len / dist;
    }
}

/* The energy goes in at the origin, or, where the origin lies outside the
 * mesh (one drawn far from it), at the centroid of the cell nearest the
 * mesh's centre, said in h->note: else it would go, unsaid, into a corner
 * cell and barely spread. */
static void
place_release (KsHeat *h)
{
  const KsMesh *m = h->mesh;
  double sx = 0.0, sy = 0.0, area = 0.0;
  guint c;

  if (ks_mesh_locate_point (m, 0.0, 0.0) != G_MAXUINT)
    return;
  for (c = 0; c < m->n_cells; c++)
    {
      sx += m->area[c] * m->cx[c];
      sy += m->area[c] * m->cy[c];
      area += m->area[c];
    }
  c = ks_mesh_nearest_cell (m, sx / area, sy / area);
  h->release_x = m->cx[c];
  h->release_y = m->cy[c];
  h->note = g_strdup_printf (_("The origin (0, 0) lies outside the mesh (x from %g to %g, y from %g to %g): the energy "
                               "is released at the centre of cell %u, (%g, %g), the cell nearest the mesh's centre"),
                             m->xmin, m->xmax, m->ymin, m->ymax, c + 1, h->release_x, h->release_y);
}

static void
initial_state (KsHeat *h)
{
  const KsMesh *m = h->mesh;
  double total = 0.0;

  memset (h->t0, 0, sizeof (double) * m->n_cells);
  if (h->p.t0 > 0)
    {
      for (guint c = 0; c < m->n_cells; c++)
        {
          h->t0[c] = ks_heat_exact (&h->p, h->p.t0, hypot (m->cx[c] - h->release_x, m->cy[c] - h->release_y));
          total += h->mass[c] * h->t0[c];
        }
      /* Exactly the released energy on this mesh. */
      if (total > 0)
        for (guint c = 0; c < m->n_cells; c++)
          h->t0[c] *= h->p.energy / total;
    }
  if (total <= 0)
    {
      const guint c = ks_mesh_nearest_cell (m, h->release_x, h->release_y);
      h->t0[c] = h->p.energy / h->mass[c];
    }
  if (h->p.boundary == KS_HEAT_BOUNDARY_FIXED)
    for (guint c = 0; c < m->n_cells; c++)
      h->t0[c] += h->p.t_boundary;
}

KsHeat *
ks_heat_new (KsMesh *mesh, const KsHeatParams *params, GError **error)
{
  g_autoptr(KsHeat) h = NULL;

  g_return_val_if_fail (mesh != NULL && params != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!ks_heat_params_check (params, error))
    return NULL;
  for (guint v = 0; v < mesh->n_nodes; v++)
    if (mesh->node_offsets[v + 1] - mesh->node_offsets[v] > KS_HEAT_MAX_NODE_CELLS)
      {
        g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                     _("Node %u is shared by %u cells; the heat scheme takes at most %u around a node"),
                     v + 1, mesh->node_offsets[v + 1] - mesh->node_offsets[v], KS_HEAT_MAX_NODE_CELLS);
        return NULL;
      }

  h = g_new0 (KsHeat, 1);
  h->mesh = ks_mesh_ref (mesh);
  place_release (h);
  h->p = *params;
  h->t = g_new (double, mesh->n_cells);
  h->t0 = g_new (double, mesh->n_cells);
  h->mass = g_new (double, mesh->n_cells);
  for (guint c = 0; c < mesh->n_cells; c++)
    h->mass[c] = params->density * mesh->area[c] * params->cv;
  prepare_geometry (h);
  h->group_kind = g_new (KsHeatBoundary, mesh->groups->len);
  h->group_tb = g_new (double, mesh->groups->len);
  for (guint g = 0; g < mesh->groups->len; g++)
    {
      h->group_kind[g] = params->boundary;
      h->group_tb[g] = params->t_boundary;
    }
  initial_state (h);
  ks_heat_reset (h);
  return g_steal_pointer (&h);
}

void
ks_heat_free (KsHeat *h)
{
  if (h == NULL)
    return;
  ks_heat_set_cg (h, NULL);
  g_clear_pointer (&h->dev, ks_heat_device_free);
  g_clear_pointer (&h->mesh, ks_mesh_unref);
  g_clear_pointer (&h->a, ks_csr_free);
  g_free (h->t);
  g_free (h->t0);
  g_free (h->mass);
  g_free (h->note);
  g_free (h->block_off);
  g_free (h->block);
  g_free (h->block_pos);
  g_free (h->edge_w);
  g_free (h->group_kind);
  g_free (h->group_tb);
  g_free (h);
}

void
ks_heat_reset (KsHeat *h)
{
  g_return_if_fail (h != NULL);
  memcpy (h->t, h->t0, sizeof (double) * h->mesh->n_cells);
  h->host_stale = FALSE;
  if (h->dev != NULL)
    ks_heat_device_invalidate (h->dev);
  h->e0 = 0;
  for (guint c = 0; c < h->mesh->n_cells; c++)
    h->e0 += h->mass[c] * h->t0[c];
  h->inflow = 0;
  h->step = 0;
  h->time = h->p.t0;
}

gboolean
ks_heat_set_device (KsHeat *h, KsDevice *device, KsPrecision precision, KsCgVariant variant, GError **error)
{
  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (device == NULL || KS_IS_DEVICE (device), FALSE);

  ks_heat_set_cg (h, NULL);
  if (device == NULL || ks_device_get_backend (device) == KS_BACKEND_HOST)
    return TRUE;
  h->cg = ks_cg_device_new (device, precision, variant, error);
  h->own_cg = TRUE;
  return h->cg != NULL;
}

void
ks_heat_set_cg (KsHeat *h, KsCgDevice *cg)
{
  g_return_if_fail (h != NULL);
  if (h->host_stale)
    {
      g_autoptr(GError) error = NULL;
      /* T lives on the old CG's device: bring it back before letting go. */
      if (!ks_heat_sync (h, &error))
        g_warning ("The temperature could not be read back from the device: %s", error->message);
    }
  g_clear_pointer (&h->dev, ks_heat_device_free);
  if (h->own_cg)
    g_clear_pointer (&h->cg, ks_cg_device_free);
  h->cg = cg;
  h->own_cg = FALSE;
  /* Another CG may hold another matrix (or this one's, from another mesh). */
  h->uploaded = FALSE;
}

/* --- the step ----------------------------------------------------------------------- */

static void
assemble_into (KsHeat *h, const double *t_nu, const double *t_old, double *rhs, gboolean matrix)
{
  const KsMesh *m = h->mesh;
  KsCsr *a = h->a;
  const double tau = h->p.tau;

  for (guint c = 0; c < m->n_cells; c++)
    rhs[c] = h->mass[c] * t_old[c];
  if (matrix)
    {
      memset (a->val, 0, sizeof (double) * a->nnz);
      for (guint c = 0; c < m->n_cells; c++)
        a->val[ks_csr_find (a, c, c)] += h->mass[c];
      for (guint v = 0; v < m->n_nodes; v++)
        {
          const guint first = m->node_offsets[v], cnt = m->node_offsets[v + 1] - first;
          const double *k = h->block + h->block_off[v];
          const guint *pos = h->block_pos + h->block_off[v];
          double d = h->p.d0;
          if (cnt < 2)
            continue;
          if (h->p.n != 0)
            {
              double tv = 0, w = 0;
              for (guint i = 0; i < cnt; i++)
                {
                  const guint c = m->node_cells[first + i];
                  tv += m->area[c] * MAX (t_nu[c], 0.0);
                  w += m->area[c];
                }
              d *= pow (tv / w, h->p.n);
            }
          for (guint i = 0; i < cnt * cnt; i++)
            a->val[pos[i]] += tau * d * k[i];
        }
    }
  for (guint e = 0; e < m->n_boundary; e++)
    if (h->group_kind[m->boundary_group[e]] == KS_HEAT_BOUNDARY_FIXED)
      {
        const guint c = m->boundary_cell[e];
        const double g = ks_heat_edge_coef (h, e, t_nu[c]);
        if (matrix)
          a->val[ks_csr_find (a, c, c)] += g;
        rhs[c] += g * h->group_tb[m->boundary_group[e]];
      }
}

double
ks_heat_edge_coef (const KsHeat *h, guint e, double t)
{
  const double tb = h->group_tb[h->mesh->boundary_group[e]];
  const double d = h->p.d0 * (h->p.n != 0 ? pow (0.5 * (MAX (t, 0.0) + tb), h->p.n) : 1.0);

  return h->p.tau * d * h->edge_w[e];
}

/* The energy in through the fixed walls in a step from t_nu (the
 * conductivity's temperatures) to x. */
static double
inflow (const KsHeat *h, const double *t_nu, const double *x)
{
  const KsMesh *m = h->mesh;
  double in = 0;

  for (guint e = 0; e < m->n_boundary; e++)
    if (h->group_kind[m->boundary_group[e]] == KS_HEAT_BOUNDARY_FIXED)
      {
        const guint c = m->boundary_cell[e];
        in += ks_heat_edge_coef (h, e, t_nu[c]) * (h->group_tb[m->boundary_group[e]] - x[c]);
      }
  return in;
}

gboolean
ks_heat_set_group_boundary (KsHeat *h, const char *group, KsHeatBoundary boundary, double t_boundary, GError **error)
{
  const KsMesh *m;
  g_autoptr(GString) names = NULL;

  g_return_val_if_fail (h != NULL && group != NULL, FALSE);
  g_return_val_if_fail ((guint) boundary < G_N_ELEMENTS (boundary_names), FALSE);
  m = h->mesh;
  if (!check_range (_("boundary temperature"), t_boundary, 0, 1e12, FALSE, error))
    return FALSE;
  for (guint g = 0; g < m->groups->len; g++)
    if (g_str_equal (m->groups->pdata[g], group))
      {
        /* The device holds the old conditions in its geometry: T comes
         * back, the geometry goes up again at the next step. */
        if (!ks_heat_sync (h, error))
          return FALSE;
        g_clear_pointer (&h->dev, ks_heat_device_free);
        h->group_kind[g] = boundary;
        h->group_tb[g] = t_boundary;
        h->matrix_ready = FALSE;
        h->uploaded = FALSE;
        return TRUE;
      }
  names = g_string_new (NULL);
  for (guint g = 0; g < m->groups->len; g++)
    g_string_append_printf (names, "%s%s", g > 0 ? ", " : "", (const char *) m->groups->pdata[g]);
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
               _("The mesh has no physical group \"%s\"; its groups: %s"), group, names->str);
  return FALSE;
}

double
ks_heat_get_initial_energy (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->e0;
}

double
ks_heat_get_inflow (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->inflow;
}

KsCsr *
ks_heat_assemble (KsHeat *h, const double *t_nu, const double *t_old, double *rhs)
{
  g_return_val_if_fail (h != NULL && t_nu != NULL && t_old != NULL && rhs != NULL, NULL);
  assemble_into (h, t_nu, t_old, rhs, TRUE);
  h->matrix_ready = FALSE;
  h->uploaded = FALSE;
  return ks_csr_copy (h->a);
}

void
ks_heat_set_offload (KsHeat *h, KsHeatOffload offload)
{
  g_return_if_fail (h != NULL);
  g_return_if_fail ((guint) offload < G_N_ELEMENTS (offload_names));
  h->offload = offload;
}

gboolean
ks_heat_sync (KsHeat *h, GError **error)
{
  g_return_val_if_fail (h != NULL, FALSE);
  if (!h->host_stale)
    return TRUE;
  if (!ks_heat_device_download (h, error))
    return FALSE;
  h->host_stale = FALSE;
  return TRUE;
}

/* T on the host for the readers that cannot say an error. */
static const double *
host_t (KsHeat *h)
{
  g_autoptr(GError) error = NULL;

  if (!ks_heat_sync (h, &error))
    g_warning ("The temperature could not be read back from the device: %s", error->message);
  return h->t;
}

static gboolean
solve (KsHeat *h, const double *rhs, double *x, KsCgResult *res, gboolean new_matrix, GError **error)
{
  const KsCgOptions options = { h->p.cg_tol, h->p.cg_max_iter };

  if (h->hybrid != NULL)
    {
      KsHybridResult hr;

      if (!ks_hybrid_cg_solve (h->hybrid, h->a, rhs, x, &options, &hr, error))
        return FALSE;
      *res = (KsCgResult) { hr.iterations, hr.residual, hr.bytes, hr.iterate_s };
      for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
        {
          h->part_busy_s[q] += hr.busy_s[q];
          h->part_iterate_s[q] += hr.part_s[q];
          h->part_halo_s[q] += hr.halo_s[q];
          h->part_sums_s[q] += hr.sums_s[q];
        }
      return TRUE;
    }
  if (h->cg == NULL)
    return ks_cg_solve_host (h->a, rhs, x, &options, res, error);
  if (new_matrix || !h->uploaded)
    {
      /* The device's step, if any ran, must assemble its values again. */
      g_clear_pointer (&h->dev, ks_heat_device_free);
      if (!ks_cg_device_set_matrix (h->cg, h->a, error))
        return FALSE;
      h->uploaded = TRUE;
    }
  return ks_cg_device_solve (h->cg, rhs, x, &options, res, error);
}

void
ks_heat_set_picard_error (KsHeat *h, GError **error, double change, double tmax)
{
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED,
               _("Step %u: the nonlinear iterations did not converge in %u: the last changed T by %.3g, "
                 "%.3g of its maximum (tolerance %.3g); take a smaller time step"),
               h->step + 1, h->p.picard_max, change, tmax > 0 ? change / tmax : 0.0, h->p.picard_tol);
}

gboolean
ks_heat_set_hybrid (KsHeat *h, KsHybridCg *hybrid, double lambda, GError **error)
{
  const KsMesh *m;
  g_autofree double *centres = NULL;

  g_return_val_if_fail (h != NULL, FALSE);

  /* The temperature lives on the host while the hybrid runs; the whole
   * step on the device takes it up again afterwards. */
  if (!ks_heat_sync (h, error))
    return FALSE;
  if (h->dev != NULL)
    ks_heat_device_invalidate (h->dev);
  h->hybrid = NULL;
  if (hybrid == NULL)
    return TRUE;
  m = h->mesh;
  centres = g_new (double, 2 * (gsize) m->n_cells);
  for (guint c = 0; c < m->n_cells; c++)
    {
      centres[2 * c] = m->cx[c];
      centres[2 * c + 1] = m->cy[c];
    }
  if (!ks_hybrid_cg_set_pattern (hybrid, h->a, centres, lambda, error))
    return FALSE;
  h->hybrid = hybrid;
  return TRUE;
}

/* The whole step on the device, assembly and solve, from begin. */
static gboolean
step_on_device (KsHeat *h, gint64 begin, KsHeatStepStats *out, GError **error)
{
  KsHeatStepStats st = { 0 };

  if (!ks_heat_device_step (h, &st, error))
    return FALSE;
  h->inflow += st.inflow;
  h->step++;
  h->time += h->p.tau;
  if (out != NULL)
    {
      st.step = h->step;
      st.time = h->time;
      st.step_s = (g_get_monotonic_time () - begin) / 1e6;
      *out = st;
    }
  return TRUE;
}

/* Nonlinear iteration nu: assembles at t_nu and solves into x (starting
 * from t_nu), adding the times and CG's work to st. */
static gboolean
picard_solve (KsHeat *h, guint nu, const double *t_nu, double *rhs, double *x, KsHeatStepStats *st, GError **error)
{
  const gboolean linear = h->p.n == 0;
  const gboolean new_matrix = !linear || !h->matrix_ready;
  const gint64 t1 = g_get_monotonic_time ();
  KsCgResult res = { 0 };
  gint64 t2;

  assemble_into (h, t_nu, h->t, rhs, new_matrix);
  h->matrix_ready = linear;
  t2 = g_get_monotonic_time ();
  memcpy (x, t_nu, sizeof (double) * h->mesh->n_cells);
  if (!solve (h, rhs, x, &res, new_matrix, error))
    {
      g_prefix_error (error, _("Step %u, nonlinear iteration %u: "), h->step + 1, nu + 1);
      return FALSE;
    }
  st->assemble_s += (t2 - t1) / 1e6;
  st->solve_s += (g_get_monotonic_time () - t2) / 1e6;
  st->cg_iterations += res.iterations;
  st->cg_residual = res.residual;
  st->cg_bytes += res.bytes;
  st->iterate_s += res.iterate_s;
  return TRUE;
}

/* The new temperature into t_nu (the old one at first) by nonlinear
 * iterations until T changes by less than the tolerance; st as it went. */
static gboolean
picard_iterate (KsHeat *h, double *t_nu, KsHeatStepStats *st, GError **error)
{
  const guint n = h->mesh->n_cells;
  g_autofree double *rhs = g_new (double, n);
  g_autofree double *x = g_new (double, n);
  gboolean converged = FALSE;
  double change = 0.0, tmax = 0.0;

  for (guint nu = 0; nu < h->p.picard_max && !converged; nu++)
    {
      if (!picard_solve (h, nu, t_nu, rhs, x, st, error))
        return FALSE;
      st->picard = nu + 1;
      st->inflow = inflow (h, t_nu, x);
      change = tmax = 0.0;
      for (guint c = 0; c < n; c++)
        {
          change = MAX (change, fabs (x[c] - t_nu[c]));
          tmax = MAX (tmax, fabs (x[c]));
        }
      memcpy (t_nu, x, sizeof (double) * n);
      converged = h->p.n == 0 || change <= h->p.picard_tol * tmax;
    }
  if (!converged)
    ks_heat_set_picard_error (h, error, change, tmax);
  return converged;
}

gboolean
ks_heat_step (KsHeat *h, KsHeatStepStats *out, GError **error)
{
  const guint n = h != NULL ? h->mesh->n_cells : 0;
  const gint64 begin = g_get_monotonic_time ();
  g_autofree double *t_nu = NULL;
  KsHeatStepStats st = { 0 };

  g_return_val_if_fail (h != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The hybrid's parts assemble nothing: it solves what the host built. */
  if (h->cg != NULL && h->offload == KS_HEAT_OFFLOAD_WHOLE && h->hybrid == NULL)
    return step_on_device (h, begin, out, error);
  /* T may still be on the device, from whole steps before. */
  if (!ks_heat_sync (h, error))
    return FALSE;
  t_nu = g_memdup2 (h->t, sizeof (double) * n);
  memset (h->part_busy_s, 0, sizeof h->part_busy_s);
  memset (h->part_iterate_s, 0, sizeof h->part_iterate_s);
  memset (h->part_halo_s, 0, sizeof h->part_halo_s);
  memset (h->part_sums_s, 0, sizeof h->part_sums_s);
  if (!picard_iterate (h, t_nu, &st, error))
    return FALSE;
  memcpy (h->t, t_nu, sizeof (double) * n);
  h->inflow += st.inflow;
  h->step++;
  h->time += h->p.tau;
  if (out != NULL)
    {
      st.step = h->step;
      st.time = h->time;
      st.energy = ks_heat_total_energy (h);
      st.t_max = -G_MAXDOUBLE;
      st.t_min = G_MAXDOUBLE;
      for (guint c = 0; c < n; c++)
        {
          st.t_max = MAX (st.t_max, h->t[c]);
          st.t_min = MIN (st.t_min, h->t[c]);
        }
      st.step_s = (g_get_monotonic_time () - begin) / 1e6;
      memcpy (st.part_busy_s, h->part_busy_s, sizeof st.part_busy_s);
      memcpy (st.part_iterate_s, h->part_iterate_s, sizeof st.part_iterate_s);
      memcpy (st.part_halo_s, h->part_halo_s, sizeof st.part_halo_s);
      memcpy (st.part_sums_s, h->part_sums_s, sizeof st.part_sums_s);
      *out = st;
    }
  return TRUE;
}

/* --- accessors and diagnostics ----------------------------------------------------------- */

KsMesh *
ks_heat_get_mesh (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return h->mesh;
}

const double *
ks_heat_get_temperature (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return host_t (h);
}

double
ks_heat_get_time (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, 0.0);
  return h->time;
}

const char *
ks_heat_get_note (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return h->note;
}

void
ks_heat_get_release (KsHeat *h, double *x, double *y)
{
  g_return_if_fail (h != NULL);
  *x = h->release_x;
  *y = h->release_y;
}

guint
ks_heat_get_step (KsHeat *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->step;
}

double
ks_heat_total_energy (KsHeat *h)
{
  const double *t;
  double s = 0.0;

  g_return_val_if_fail (h != NULL, 0.0);
  t = host_t (h);
  for (guint c = 0; c < h->mesh->n_cells; c++)
    s += h->mass[c] * t[c];
  return s;
}

double
ks_heat_front_radius (KsHeat *h, double fraction)
{
  const KsMesh *m;
  double tmax = 0.0, r = 0.0;

  g_return_val_if_fail (h != NULL, 0.0);
  m = h->mesh;
  host_t (h);
  for (guint c = 0; c < m->n_cells; c++)
    tmax = MAX (tmax, h->t[c] - h->p.t_boundary);
  for (guint c = 0; c < m->n_cells; c++)
    if (h->t[c] - h->p.t_boundary > fraction * tmax)
      r = MAX (r, hypot (m->cx[c] - h->release_x, m->cy[c] - h->release_y));
  return r;
}

double
ks_heat_second_moment (KsHeat *h)
{
  const KsMesh *m;
  double s = 0.0, w = 0.0;

  g_return_val_if_fail (h != NULL, 0.0);
  m = h->mesh;
  host_t (h);
  for (guint c = 0; c < m->n_cells; c++)
    {
      const double e = h->mass[c] * (h->t[c] - h->p.t_boundary);
      s += e * ((m->cx[c] - h->release_x) * (m->cx[c] - h->release_x) +
                (m->cy[c] - h->release_y) * (m->cy[c] - h->release_y));
      w += e;
    }
  return w > 0 ? s / w : 0.0;
}
