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

struct _KsPlotMesh {
  double         *xy;        /* 2 per node */
  guint           n_nodes;
  guint32        *cells;     /* 4 per cell */
  guint           n_cells;
  double          bx0, bx1, by0, by1;   /* bounding box of the nodes */

  /* What a frame changes, under the lock (a render may be running on an
   * export thread while the GUI sets the next frame). */
  GMutex          lock;
  double         *values;    /* per cell; NAN: not drawn */
  guint32        *parts;     /* per cell, or NULL */
  guint           parts_generation;
  KsPlotColormap  map;
  double          vmin, vmax;   /* NAN: automatic */
  gboolean        edges;
  char           *label;

  Raster         *raster;    /* the pixel map of the last view, or NULL */
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
 * image at twice its resolution.  Called with the mesh locked. */
void ks_plot_raster_draw  (cairo_t           *cr,
                           KsPlotMesh        *mesh,
                           const Layout      *lo,
                           gboolean           vector_target,
                           const KsPlotTheme *theme);
void ks_plot_raster_clear (KsPlotMesh        *mesh);

G_END_DECLS
