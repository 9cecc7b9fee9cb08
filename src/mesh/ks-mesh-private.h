/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mesh-private.h: what ks-mesh.c (building, geometry) and ks-mesh-check.c
 * (the checks that look at more than one cell) share. */
#pragma once

#include "ks-mesh.h"

G_BEGIN_DECLS

/* How a cell is named in messages: its number in the file when there is one. */
static inline guint
ks_mesh_cell_name (const guint *names, guint c)
{
  return names != NULL ? names[c] : c + 1;
}

/* Twice the signed area of the triangle a, b, c (> 0: counter-clockwise). */
static inline double
ks_mesh_orient (double ax, double ay, double bx, double by, double cx, double cy)
{
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* Do segments p1-p2 and q1-q2 cross at a point inside both (not where they
 * touch or meet at an end)?  eps: the orientation below which a point
 * counts as on the line. */
gboolean ks_mesh_segments_cross    (const KsMesh *m,
                                    guint         p1,
                                    guint         p2,
                                    guint         q1,
                                    guint         q2,
                                    double        eps);
/* Two nodes at one point, both used by cells: refused (a crack). */
gboolean ks_mesh_check_duplicates  (const KsMesh *m,
                                    GError      **error);
/* After the edges (ks-mesh.c's find_edges) and the adjacency: cells
 * around each node turn once without covering each other, boundary edges
 * do not cross, and no part of the mesh lies on top of another. */
gboolean ks_mesh_check_overlaps    (const KsMesh *m,
                                    const guint  *names,
                                    double        eps,
                                    GError      **error);

G_END_DECLS
