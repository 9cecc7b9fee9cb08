/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-msh.c: libFuzzer target for the Gmsh reader (src/mesh/ks-msh.c).
 *
 * Every input is read from memory.  A failure must be a KsMeshError with a
 * message; a mesh that is accepted must hold what ks_mesh_new promises:
 * positive areas, stencils of existing cells that name each other, boundary
 * edges whose outward normals sum to zero (a closed boundary).  Built with
 * clang by tests/fuzz/run-fuzz.sh (target msh), which CI runs for a minute. */
#define G_LOG_DOMAIN "fuzz-msh"

#include <math.h>
#include <stdint.h>

#include <glib.h>

#include "ks-msh.h"

/* Small limits keep each run fast: the fuzzer is after parsing bugs. */
#define FUZZ_MAX_CELLS 4096

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data ((const char *) data, size, "fuzz.msh", FUZZ_MAX_CELLS, &error);
  double nx = 0.0, ny = 0.0, scale = 0.0;

  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == KS_MESH_ERROR && error->message != NULL);
      return 0;
    }
  g_assert (error == NULL && m->n_cells > 0 && m->n_cells <= FUZZ_MAX_CELLS);
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
  return 0;
}
