/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mesh.h: a 2D mesh of mixed triangles and quadrilaterals, as paper 004
 * (Anisov, Vaziev, Ushakov 2020) computes on: nodes, cells (3 or 4 nodes,
 * counter-clockwise), each cell's stencil (the cells that share at least
 * one node with it: 8 around a quad of a regular mesh, about 12 around a
 * triangle), the boundary edges with the physical group that names them,
 * and the geometry a finite-volume scheme needs (areas, centroids, edge
 * lengths and outward normals).
 *
 * A mesh is built once (ks_mesh_new, the generators of ks-mesh-gen.h, the
 * Gmsh reader of ks-msh.h), checked as it is built (every bad cell is a
 * KsMeshError naming it), and immutable afterwards: it is reference counted
 * and may be read from several threads at once (the heat page's worker and
 * its drawing).
 *
 * Cell numbering.  Cells are numbered as given; paper 004's hybrid and MPI
 * runs (issue 16) renumber each part's cells interior, exchange, virtual,
 * which a later ks_mesh_partition will do on top of this type: nothing here
 * assumes a numbering. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_MESH_ERROR (ks_mesh_error_quark ())
GQuark ks_mesh_error_quark (void);

typedef enum {
  KS_MESH_ERROR_EMPTY,        /* no nodes or no cells */
  KS_MESH_ERROR_BAD_NODE,     /* a cell names a node that does not exist, or one twice */
  KS_MESH_ERROR_DEGENERATE,   /* zero area, a non-convex quadrilateral */
  KS_MESH_ERROR_INVERTED,     /* no longer raised (clockwise cells are turned); kept for the numbering */
  KS_MESH_ERROR_OVERLAP,      /* two cells cover the same ground */
  KS_MESH_ERROR_TOO_LARGE,    /* beyond the limit a caller gave */
  KS_MESH_ERROR_INVALID,      /* a parameter out of its range (generators) */
  KS_MESH_ERROR_IO,           /* a file cannot be read */
  KS_MESH_ERROR_PARSE,        /* a malformed or truncated file (the message names the line) */
  KS_MESH_ERROR_UNSUPPORTED,  /* a valid file of a kind we cannot use (binary, an element type) */
  KS_MESH_ERROR_TOOL,         /* gmsh is missing or failed on a .geo file */
  KS_MESH_ERROR_UNSAFE,       /* a .geo file runs programs or touches files, not trusted */
} KsMeshError;

/* At most this many nodes per cell. */
#define KS_MESH_MAX_CELL_NODES 4
/* At most this many cells around a node (the heat scheme's limit too). */
#define KS_MESH_MAX_NODE_CELLS 64u
/* The cells' typical size (the extent over the square root of the cell
 * count) lies between these: outside them the heat scheme's areas,
 * temperatures near 1/area and their squares leave double precision. */
#define KS_MESH_MIN_CELL_SIZE 1e-12
#define KS_MESH_MAX_CELL_SIZE 1e12

typedef struct {
  /* Nodes. */
  guint         n_nodes;
  double       *x;
  double       *y;

  /* Cells: cell c has nodes cell_nodes[cell_offsets[c] .. cell_offsets[c + 1]),
   * 3 or 4 of them, counter-clockwise. */
  guint         n_cells;
  guint        *cell_offsets;
  guint        *cell_nodes;

  /* Geometry per cell. */
  double       *area;
  double       *cx;             /* centroid */
  double       *cy;

  /* The stencil: the cells sharing a node with cell c (c itself left out,
   * sorted) are stencil[stencil_offsets[c] .. stencil_offsets[c + 1]). */
  guint        *stencil_offsets;
  guint        *stencil;

  /* The cells around each node, node_cells[node_offsets[v] .. node_offsets[v + 1]). */
  guint        *node_offsets;
  guint        *node_cells;
  gboolean     *boundary_node;  /* TRUE for a node on a boundary edge */

  /* Boundary edges (those of one cell only): nodes a -> b with the cell on
   * the left, so (b - a) turned clockwise is the outward normal. */
  guint         n_boundary;
  guint        *boundary_a;
  guint        *boundary_b;
  guint        *boundary_cell;
  guint        *boundary_group;  /* index into groups */

  /* Physical group names (Gmsh's $PhysicalNames, "boundary" for a
   * generated mesh); group 0 always exists. */
  GPtrArray    *groups;

  /* Extent. */
  double        xmin, xmax, ymin, ymax;
  /* A free-form description: "quad 64x64 square", "disc.msh", with a
   * note in brackets on what was changed on reading (cells turned). */
  char         *description;
  /* Cells given clockwise among counter-clockwise ones (or the other way
   * round), turned counter-clockwise; 0 when all turned one way. */
  guint         n_reoriented;

  /*< private >*/
  gint          ref_count;
} KsMesh;

/* A boundary edge's group before the mesh exists (the .msh reader): nodes
 * a, b (any order) and the group index. */
typedef struct {
  guint a;
  guint b;
  guint group;
} KsMeshEdgeTag;

/* Builds and checks a mesh.  xy: 2 * n_nodes coordinates; cells in
 * cell_offsets / cell_nodes as in KsMesh, of either orientation: clockwise
 * cells are turned counter-clockwise (a Gmsh surface whose normal points
 * down); where both kinds were given, n_reoriented counts those turned and
 * the description says it.  A mesh that folds over itself is still refused
 * (KS_MESH_ERROR_OVERLAP).  cell_names (may be
 * NULL): the number each cell has in its file, for messages ("element 17").
 * tags (may be NULL): boundary edges named by group; groups (may be NULL):
 * their names, group 0 being the default for an untagged boundary edge
 * (named "boundary" if groups is NULL or empty).  Takes nothing over: the
 * arrays are copied. */
KsMesh       *ks_mesh_new               (guint                n_nodes,
                                         const double        *xy,
                                         guint                n_cells,
                                         const guint         *cell_offsets,
                                         const guint         *cell_nodes,
                                         const guint         *cell_names,
                                         const KsMeshEdgeTag *tags,
                                         guint                n_tags,
                                         const char * const  *groups,
                                         const char          *description,
                                         GError             **error);
KsMesh       *ks_mesh_ref               (KsMesh  *mesh);
void          ks_mesh_unref             (KsMesh  *mesh);

static inline guint
ks_mesh_cell_size (const KsMesh *mesh, guint c)
{
  return mesh->cell_offsets[c + 1] - mesh->cell_offsets[c];
}

/* The index of the cell whose centroid is nearest to (x, y). */
guint         ks_mesh_nearest_cell      (const KsMesh *mesh,
                                         double        x,
                                         double        y);
/* The cell that holds (x, y), on its edges included, or G_MAXUINT when
 * the point lies outside the mesh. */
guint         ks_mesh_locate_point      (const KsMesh *mesh,
                                         double        x,
                                         double        y);
/* Sum of the cell areas. */
double        ks_mesh_total_area        (const KsMesh *mesh);
/* Sum of the boundary edge lengths. */
double        ks_mesh_boundary_length   (const KsMesh *mesh);
/* How many triangles and quadrilaterals. */
void          ks_mesh_count_kinds       (const KsMesh *mesh,
                                         guint        *out_triangles,
                                         guint        *out_quads);
/* Mean stencil size (neighbours per cell, the cell itself left out). */
double        ks_mesh_mean_stencil      (const KsMesh *mesh);

/* Text from a file, fit to quote in a message: at most max_chars
 * characters (then "..."), every control character and every byte that
 * is not UTF-8 written as \xNN (an escape sequence in a file must not
 * reach the terminal).  length -1: up to the NUL. */
char         *ks_mesh_escape_text       (const char   *text,
                                         gssize        length,
                                         gsize         max_chars);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMesh, ks_mesh_unref)

G_END_DECLS
