/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-msh-check.h: what a mesh the Gmsh reader accepted must hold, for
 * fuzz-msh and fuzz-msh-gen: positive areas, stencils of existing cells,
 * boundary edges whose outward normals sum to zero (a closed boundary). */
#pragma once

#include <math.h>

#include <glib.h>

#include "ks-mesh.h"

static inline void
ks_fuzz_check_mesh (const KsMesh *m)
{
  double nx = 0.0, ny = 0.0, scale = 0.0;

  g_assert (m->n_cells > 0);
  for (guint c = 0; c < m->n_cells; c++)
    {
      g_assert (m->area[c] > 0.0);
      for (guint i = m->stencil_offsets[c]; i < m->stencil_offsets[c + 1]; i++)
        g_assert (m->stencil[i] < m->n_cells && m->stencil[i] != c);
    }
  for (guint e = 0; e < m->n_boundary; e++)
    {
      const guint a = m->boundary_a[e], b = m->boundary_b[e];
      g_assert (a < m->n_nodes && b < m->n_nodes && m->boundary_cell[e] < m->n_cells);
      g_assert (m->boundary_group[e] < m->groups->len);
      nx += m->y[b] - m->y[a];
      ny += m->x[a] - m->x[b];
      scale += fabs (m->x[b] - m->x[a]) + fabs (m->y[b] - m->y[a]);
    }
  g_assert (fabs (nx) <= 1e-9 * scale + 1e-300 && fabs (ny) <= 1e-9 * scale + 1e-300);
}
