/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-plot.c: see ks-heat-plot.h. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-heat-plot.h"

gboolean
ks_heat_plot_set_mesh (KsPlot *plot, const KsMesh *mesh, GError **error)
{
  g_autofree double *xy = NULL;
  g_autofree guint32 *cells = NULL;

  g_return_val_if_fail (plot != NULL && mesh != NULL, FALSE);
  xy = g_new (double, 2 * (gsize) mesh->n_nodes);
  cells = g_new (guint32, 4 * (gsize) mesh->n_cells);
  for (guint v = 0; v < mesh->n_nodes; v++)
    {
      xy[2 * v] = mesh->x[v];
      xy[2 * v + 1] = mesh->y[v];
    }
  for (guint c = 0; c < mesh->n_cells; c++)
    for (guint k = 0; k < 4; k++)
      cells[4 * c + k] = k < ks_mesh_cell_size (mesh, c) ? mesh->cell_nodes[mesh->cell_offsets[c] + k]
                                                         : KS_PLOT_MESH_TRIANGLE;
  if (!ks_plot_set_mesh (plot, xy, mesh->n_nodes, cells, mesh->n_cells, error))
    return FALSE;
  ks_plot_set_mesh_colormap (plot, KS_PLOT_COLORMAP_INFERNO);
  ks_plot_set_mesh_label (plot, "T");
  /* Edges of more cells than this would be a grey fog over the colours. */
  ks_plot_set_mesh_edges (plot, mesh->n_cells <= 5000);
  return TRUE;
}
