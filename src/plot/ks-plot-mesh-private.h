/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-mesh-private.h: the mesh model, shared by ks-plot-mesh.c (model,
 * colour maps, vector drawing, colour bar) and ks-plot-raster.c (the map
 * from pixels to cells and each frame's colours). */
#pragma once

#include "ks-plot-private.h"

G_BEGIN_DECLS

/* Entries of a colour map's lookup table: finer than 8-bit colour shows. */
#define MESH_LUT_SIZE 1024

/* In the pixel map: no cell under this pixel. */
#define MESH_NO_CELL  G_MAXUINT32
/* In the pixel map: this pixel borders another cell (drawn as an edge). */
#define MESH_EDGE_BIT 0x80000000u

typedef struct _Raster Raster;

/* A KsPlot, its mesh included, is used from one thread at a time (see
 * ks-plot.h): the GUI sets values and renders on its main thread, the CLI
 * on its own, so nothing here is locked.  A lock on the mesh alone could
 * not make a render on another thread safe anyway: ks_plot_set_mesh frees
 * the whole mesh, and the series, the labels and the layout a render reads
 * are plain fields of the KsPlot. */
struct _KsPlotMesh {
  double         *xy;        /* 2 per node */
  guint           n_nodes;
  guint32        *cells;     /* 4 per cell */
  guint           n_cells;
  double          bx0, bx1, by0, by1;   /* bounding box of the nodes */

  /* What a frame changes. */
  double         *values;    /* per cell; NAN: not drawn */
  guint32        *parts;     /* per cell, or NULL */
  guint           parts_generation;
  guint32         hatched;   /* the part drawn hatched; G_MAXUINT32: none */
  KsPlotColormap  map;
  double          vmin, vmax;   /* NAN: automatic */
  gboolean        edges;
  char           *label;

  /* The pixel maps of the last view on the screen and of the last export,
   * kept apart so an export at another size leaves the screen's map (a
   * full scan conversion, ~0.1 s at 10^6 cells) in place for its next
   * frame; NULL until drawn. */
  Raster         *raster;
  Raster         *export_raster;

  /* For ks_plot_mesh_cell_at: a uniform grid over the bounding box, each
   * bucket listing (in cell order) the cells whose bounding box meets it.
   * Made on the first lookup (the geometry never changes afterwards);
   * grid_start NULL until then, grid_nx 0 when the mesh is not indexed
   * (it would take too many entries) and lookups walk every cell. */
  guint           grid_nx, grid_ny;
  double          grid_sx, grid_sy;   /* buckets per unit of x and y */
  gsize          *grid_start;         /* grid_nx * grid_ny + 1 offsets */
  guint32        *grid_cells;
};

/* Which diagonal a quadrilateral a b c d is cut along into two triangles:
 * a-c when b and d lie on either side of it, as in any convex cell; b-d
 * when they do not (a dart whose reflex corner is b or d, where a-c runs
 * outside the cell). */
static inline gboolean
quad_cut_bd (double ax, double ay, double bx, double by,
             double cx, double cy, double dx, double dy)
{
  double sb = (cx - ax) * (by - ay) - (cy - ay) * (bx - ax);
  double sd = (cx - ax) * (dy - ay) - (cy - ay) * (dx - ax);

  return sb * sd > 0;
}

void ks_plot_colormap_lut (KsPlotColormap     map,
                           guint32            lut[MESH_LUT_SIZE]);

/* Draws the field through the pixel map of this view (made when the view
 * changed): on the screen at device resolution, into a vector file as an
 * image at twice its resolution.  An export (export TRUE) uses and keeps
 * mesh->export_raster, everything else mesh->raster. */
void ks_plot_raster_draw  (cairo_t           *cr,
                           KsPlotMesh        *mesh,
                           const Layout      *lo,
                           gboolean           vector_target,
                           gboolean           export,
                           const KsPlotTheme *theme);
/* Frees both pixel maps. */
void ks_plot_raster_clear (KsPlotMesh        *mesh);
/* How many pixel maps have been made in this process (for tests: an
 * export must not make the screen's next frame build one again). */
guint ks_plot_raster_n_built (void);

/* The first cell (in cell order) containing (x, y) in data units, through
 * the grid (made on the first call): what ks_plot_mesh_cell_at answers. */
gboolean ks_plot_mesh_cell_find (KsPlotMesh *mesh,
                                 double      x,
                                 double      y,
                                 guint      *out_cell);
/* The same by walking every cell: what the grid must agree with (tests). */
gboolean ks_plot_mesh_cell_walk (KsPlotMesh *mesh,
                                 double      x,
                                 double      y,
                                 guint      *out_cell);

G_END_DECLS
