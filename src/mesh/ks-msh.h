/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh.h: Gmsh meshes.  Reads MSH 2.2 and 4.1 ASCII files: 3-node
 * triangles and 4-node quadrilaterals become cells, 2-node lines on the
 * boundary carry their physical group's name ($PhysicalNames) onto the
 * boundary edges, points and unknown sections are skipped.  Anything else
 * is a KsMeshError naming the line and, where there is one, the element: an
 * unknown element type, a node that does not exist, a truncated file, a
 * binary one, no cells at all, and whatever ks_mesh_new refuses (a
 * degenerate, inverted or overlapping cell, named by its element number). */
#pragma once

#include <gio/gio.h>

#include "ks-mesh.h"

G_BEGIN_DECLS

/* max_cells: a file with more cells is KS_MESH_ERROR_TOO_LARGE (0: no limit). */
KsMesh *ks_msh_read_data (const char   *data,
                          gsize         length,
                          const char   *name,
                          guint         max_cells,
                          GError      **error);
KsMesh *ks_msh_read_file (const char   *path,
                          guint         max_cells,
                          GError      **error);
/* Meshes a .geo file in 2D with the gmsh program (GSubprocess, MSH 4.1
 * into a temporary file) and reads the result; KS_MESH_ERROR_TOOL with a
 * message saying how to get it when gmsh is not installed, or with gmsh's
 * own last lines when it fails. */
KsMesh *ks_msh_mesh_geo  (const char   *path,
                          GCancellable *cancellable,
                          GError      **error);

G_END_DECLS
