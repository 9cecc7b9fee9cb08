/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mesh-gen.h: meshes that need nothing installed, for the heat
 * experiment and its tests: a regular quadrilateral mesh, the same
 * triangulated, a mixed one (patches of quadrilaterals and triangles) and a
 * perturbed (irregular) one, on a square [-1, 1]^2 or a disc of radius 1
 * (an inner square of quadrilaterals and rings blending it into the circle),
 * with the cell count as the parameter (the mesh has about that many).
 *
 * A mesh is also named by a spec, as the CLI and the page take it:
 *   KIND[-DOMAIN]:CELLS   "quad:65536", "tri-disc:50000", "perturbed:10000"
 *   KIND:NXxNY            "quad:256x256" (a square of NX by NY quadrilaterals,
 *                          split in two triangles each for tri)
 *   a file                "domain.msh" (ks-msh.h), "domain.geo" (meshed by gmsh) */
#pragma once

#include <gio/gio.h>

#include "ks-mesh.h"

G_BEGIN_DECLS

typedef enum {
  KS_MESH_KIND_QUAD,
  KS_MESH_KIND_TRI,
  KS_MESH_KIND_MIXED,
  KS_MESH_KIND_PERTURBED,
} KsMeshKind;

typedef enum {
  KS_MESH_DOMAIN_SQUARE,
  KS_MESH_DOMAIN_DISC,
} KsMeshDomain;

/* The most cells a generated mesh may have (about 200 bytes each with
 * the heat solver's matrix: 20 GB). */
#define KS_MESH_MAX_GENERATED_CELLS 100000000u

gboolean    ks_mesh_kind_from_string   (const char   *s,
                                        KsMeshKind   *out);
gboolean    ks_mesh_domain_from_string (const char   *s,
                                        KsMeshDomain *out);

/* About cells cells (at least 2); seed moves the perturbed mesh's nodes. */
KsMesh     *ks_mesh_generate           (KsMeshKind    kind,
                                        KsMeshDomain  domain,
                                        guint         cells,
                                        guint32       seed,
                                        GError      **error);
/* A square of nx by ny quadrilaterals (kind applied to each). */
KsMesh     *ks_mesh_generate_grid      (KsMeshKind    kind,
                                        guint         nx,
                                        guint         ny,
                                        guint32       seed,
                                        GError      **error);
/* A spec as above; a file is read with ks_msh_read_file / ks_msh_mesh_geo
 * (cancellable stops gmsh), a .geo file that runs programs or touches
 * files refused. */
KsMesh     *ks_mesh_new_from_spec      (const char   *spec,
                                        GCancellable *cancellable,
                                        GError      **error);
/* The same; trust_geo: a .geo file may run programs and touch files. */
KsMesh     *ks_mesh_new_from_spec_full (const char   *spec,
                                        gboolean      trust_geo,
                                        GCancellable *cancellable,
                                        GError      **error);

G_END_DECLS
