/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plot-examples.h: one plot of each mark, as the coming papers will draw
 * them; test-plot checks their pixels and bench-plot writes them out
 * (bench-plot examples DIR) to be looked at. */
#pragma once

#include "ks-plot.h"

G_BEGIN_DECLS

/* Paper 002's speed-ups: "paper" beside "measured" for three methods, with
 * min/max error bars on the measured ones. */
KsPlot *example_bars        (void);
/* Paper 004's Perf(lambda) between its GPU-only and GPU+CPU bounds (a band
 * between two curves), a band between two values and reference lines. */
KsPlot *example_bands       (void);
/* Annotations anchored to points of a curve. */
KsPlot *example_annotations (void);
/* Group sizes on a log2 x axis, time on the left, bandwidth on the right. */
KsPlot *example_log2_y2     (void);
/* A structured mesh of the unit square [0, nx] x [0, ny] in cells of 1 x 1,
 * quads in the left half and pairs of triangles in the right, value x + y
 * per cell (at its centre), two parts (x < nx / 2 and the rest). */
KsPlot *example_mesh        (guint          nx,
                             guint          ny,
                             KsPlotColormap map);
/* The value example_mesh gives the cell under (x, y). */
double  example_mesh_value  (guint          nx,
                             double         x,
                             double         y);
/* A 2D domain of 50 x 40 threads in blocks of 16 x 16. */
KsPlot *example_blocks      (void);

G_END_DECLS
