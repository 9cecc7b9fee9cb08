/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-plot.h: a mesh of the mesh layer drawn through the plot layer's
 * colour-mapped mesh, for the heat page's frames and the heat experiment's
 * frame files alike. */
#pragma once

#include "ks-mesh.h"
#include "ks-plot.h"

G_BEGIN_DECLS

/* Sets mesh on plot (the inferno colour map, the colour bar labelled T,
 * cell edges where there are few enough cells to see them). */
gboolean ks_heat_plot_set_mesh (KsPlot        *plot,
                                const KsMesh  *mesh,
                                GError       **error);

G_END_DECLS
