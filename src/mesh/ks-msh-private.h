/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh-private.h: what the MSH reader's text half (ks-msh.c) and binary
 * half (ks-msh-binary.c) share: the reader's state and the steps that
 * turn a node or an element, however it was read, into the mesh. */
#pragma once

#include "ks-msh.h"

G_BEGIN_DECLS

/* Element types (Gmsh's numbering). */
#define KS_MSH_LINE   1
#define KS_MSH_TRI    2
#define KS_MSH_QUAD   3
#define KS_MSH_POINT 15

typedef struct {
  const char *name;
  char      **lines;     /* text: in place, NUL-terminated */
  guint       n_lines;
  guint       at;        /* text: the next line */
  gboolean    binary;
  gsize       byte;      /* binary: where the item being read starts */
  guint       max_cells;
  double      version;

  GHashTable *node_index;  /* tag -> index + 1 */
  GArray     *xy;
  GArray     *z;
  GArray     *node_tags;  /* index -> tag, for messages */
  char       *shown;      /* the last line quoted, escaped (shown ()) */
  char       *note;       /* said after the name in the mesh's description */
  GArray     *offsets;
  GArray     *cells;
  GArray     *cell_tags;
  GArray     *edges;       /* KsMeshEdgeTag with the physical tag as group, mapped later */
  GHashTable *phys_names;  /* "dim:tag" -> name */
  GHashTable *curve_phys;  /* 4.1: curve entity tag -> physical tag + 1 */
} KsMshReader;

/* Where the reader is, for a message: "name:line" or "name, byte N". */
char     *ks_msh_where          (const KsMshReader *r);
void      ks_msh_fail           (KsMshReader       *r,
                                 GError           **error,
                                 const char        *format,
                                 ...) G_GNUC_PRINTF (3, 4);
gboolean  ks_msh_add_node       (KsMshReader       *r,
                                 guint              tag,
                                 double             x,
                                 double             y,
                                 double             z,
                                 GError           **error);
/* The nodes an element of this type has, 0 for a type not read. */
guint     ks_msh_type_nodes     (guint              type);
/* Refuses an element type that is not read (a 3D one said as such). */
gboolean  ks_msh_check_type     (KsMshReader       *r,
                                 guint              tag,
                                 guint              type,
                                 GError           **error);
/* An element of a type read, with its ks_msh_type_nodes (type) node tags. */
gboolean  ks_msh_add_element    (KsMshReader       *r,
                                 guint              tag,
                                 guint              type,
                                 guint              phys,
                                 const guint       *nodes,
                                 GError           **error);
/* One line of $PhysicalNames: 'dimension tag "name"'. */
gboolean  ks_msh_physical_name  (KsMshReader       *r,
                                 const char        *line,
                                 GError           **error);
/* A binary file from its start: all its sections. */
gboolean  ks_msh_read_binary    (KsMshReader       *r,
                                 const guchar      *data,
                                 gsize              length,
                                 GError           **error);
/* Nodes with z not constant: turned into their plane, or refused when
 * they are not planar. */
gboolean  ks_msh_flatten        (KsMshReader       *r,
                                 GError           **error);
/* Is data a binary MSH file (file-type 1 on $MeshFormat's line)? */
gboolean  ks_msh_is_binary      (const char        *data,
                                 gsize              length);

G_END_DECLS
