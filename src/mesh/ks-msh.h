/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh.h: Gmsh meshes.  Reads MSH 2.2 and 4.1 files, ASCII or binary
 * (either byte order): 3-node triangles and 4-node quadrilaterals become
 * cells (clockwise ones turned, KsMesh.n_reoriented), 2-node lines on the
 * boundary carry their physical group's name ($PhysicalNames) onto the
 * boundary edges, points and unknown sections are skipped.  Anything else
 * is a KsMeshError naming the line (the byte in a binary file) and, where
 * there is one, the element: an unknown element type (a volume element: a
 * 3D mesh), a node that does not exist, a truncated file, MSH 1.0, a
 * surface that is not planar, no cells at all, and whatever ks_mesh_new
 * refuses (a degenerate or overlapping cell, named by its element
 * number). */
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
/* gmsh's time limit on one .geo file, in seconds, unless the environment
 * variable KS_GMSH_TIMEOUT gives another (a whole number of seconds). */
#define KS_MSH_GMSH_TIMEOUT 60

/* Meshes a .geo file in 2D with the gmsh program (MSH 4.1 into an
 * anonymous memory file) and reads the result.  Unless trusted, the file
 * is first refused (KS_MESH_ERROR_UNSAFE, naming the line) if it runs a
 * program or touches a file (ks_msh_check_geo).  gmsh is killed with
 * everything it started when cancellable is cancelled (G_IO_ERROR_CANCELLED)
 * or after the time limit (KS_MESH_ERROR_TOOL); KS_MESH_ERROR_TOOL too,
 * with a message saying how to get it, when gmsh is not installed, or with
 * gmsh's own last lines (escaped) when it fails. */
KsMesh  *ks_msh_mesh_geo  (const char   *path,
                           gboolean      trusted,
                           GCancellable *cancellable,
                           GError      **error);
/* Refuses .geo text with a statement that runs a program (System,
 * SystemCall, OnelabRun...), writes a file (Save, Print, Printf > FILE...)
 * or reads one that would not be checked (Include, Merge...); name: the
 * file, for the message. */
gboolean ks_msh_check_geo (const char   *text,
                           gsize         length,
                           const char   *name,
                           GError      **error);

G_END_DECLS
