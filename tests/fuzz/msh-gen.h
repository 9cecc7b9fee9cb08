/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msh-gen.h: large structured meshes written as MSH 2.2 text, for the
 * fuzz target fuzz-msh-gen (a few bytes choose one) and test-mesh-hostile:
 * what a 4 KB fuzz input cannot hold (a fan of 20,000 triangles, a strip
 * of thin cells), each turned, tilted out of z = 0, bent, scaled, moved or
 * listed clockwise. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  KS_GEN_FAN,       /* count triangles around node 1 at the origin, radius 1 */
  KS_GEN_STRIP,     /* count quadrilaterals 1 wide, 1/count high, stacked */
  KS_GEN_GRID,      /* about count quadrilaterals on the unit square */
  KS_GEN_NESTED,    /* a grid and a small square lying on it: overlap */
  KS_GEN_BOWTIE,    /* a grid whose last quadrilateral is twisted */
  KS_GEN_CRACK,     /* a grid cut along x = 0.5 by doubled nodes */
  KS_GEN_N_KINDS
} KsGenKind;

typedef struct {
  KsGenKind kind;
  guint     count;
  double    scale;      /* every coordinate times this */
  double    angle;      /* turned in the plane, radians */
  double    tilt;       /* the plane turned about the x axis, radians */
  gboolean  bend;       /* z = xy + x^2: not flat */
  gboolean  clockwise;  /* every cell listed the other way */
  double    shift;      /* moved this far along x (after scaling) */
} KsGenParams;

/* The MSH 2.2 text. */
GString  *ks_gen_msh        (const KsGenParams *p);
/* Whether ks_msh_read_data must accept it (the scale within the mesh's
 * limits, a fan of at most KS_MESH_MAX_NODE_CELLS, flat, no overlap); and
 * its area when it does. */
gboolean  ks_gen_is_valid   (const KsGenParams *p);
double    ks_gen_area       (const KsGenParams *p);

G_END_DECLS
