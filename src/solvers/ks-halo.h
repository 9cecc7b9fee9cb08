/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-halo.h: each part's cells numbered as paper 004's Fig. 2 numbers
 * them, and what the parts exchange.
 *
 * Given the cells' graph (CSR: the cells each row of the matrix couples)
 * and a part for every cell (ks_partition_cells), part p's local numbering
 * is
 *   [0, n_interior)                      interior: every neighbour is p's own
 *   [n_interior, n_owned)                exchange: p's own, with a neighbour elsewhere
 *   [n_owned, n_owned + n_virtual)       virtual: other parts' cells p's rows read,
 *                                        grouped by owner, each group in global order
 * so the interior rows' SpMV can run while the virtual values travel (the
 * paper hides the exchange behind it), and a receive from part q lands in
 * one contiguous range.  What p sends to q is the list of its own cells q
 * holds as virtual, in the same global order: the two sides agree without
 * saying more.
 *
 * Plain data, no MPI: the hybrid solver of one process (a GPU part and a
 * CPU part) and the MPI ranks use the same numbering. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_HALO_ERROR (ks_halo_error_quark ())
GQuark ks_halo_error_quark (void);

typedef enum {
  KS_HALO_ERROR_INVALID,   /* a part or a neighbour out of range, a row that is not symmetric */
} KsHaloError;

typedef struct {
  guint  part;        /* the other part */
  guint  n_send;
  guint *send;        /* local indices (owned) of what this part sends it, in global order */
  guint  recv_first;  /* its cells in this part's virtual range: [recv_first, recv_first + n_recv) */
  guint  n_recv;
} KsHaloNeighbour;

typedef struct {
  guint            n_interior;
  guint            n_owned;      /* interior + exchange */
  guint            n_virtual;
  guint           *global;       /* n_owned + n_virtual: the global index of each local cell */
  guint            n_neighbours;
  KsHaloNeighbour *neighbours;   /* by ascending part */
} KsHaloPart;

typedef struct _KsHalo KsHalo;

/* The numbering of every part.  The graph must be symmetric (a cell is
 * its neighbours' neighbour: the heat matrix is); its diagonal may be
 * there or not.  A part without cells has nothing. */
KsHalo           *ks_halo_new        (guint          n,
                                      const guint   *row_ptr,
                                      const guint   *col,
                                      const guint   *part,
                                      guint          n_parts,
                                      GError       **error);
void              ks_halo_free       (KsHalo        *halo);
guint             ks_halo_get_n_parts (const KsHalo *halo);
const KsHaloPart *ks_halo_get_part   (const KsHalo  *halo,
                                      guint          part);
/* The local index of global cell g in part p (owned or virtual), or -1. */
gint64            ks_halo_local      (const KsHalo  *halo,
                                      guint          part,
                                      guint          g);
/* Part p's rows of a CSR matrix over the global cells, renumbered: rows in
 * local order (interior, then exchange), columns local (virtual ones at
 * n_owned and above), sorted within each row.  New arrays (g_free them):
 * *out_row_ptr (n_owned + 1), *out_col and *out_val (val may be NULL:
 * the pattern only). */
void              ks_halo_local_rows (const KsHalo  *halo,
                                      guint          part,
                                      const guint   *row_ptr,
                                      const guint   *col,
                                      const double  *val,
                                      guint        **out_row_ptr,
                                      guint        **out_col,
                                      double       **out_val);

/* Part p's numbering appended to out, as ks_halo_new_received reads it:
 * what rank 0 sends a rank that never sees the whole matrix. */
void              ks_halo_pack_part  (const KsHalo  *halo,
                                      guint          part,
                                      GByteArray    *out);
/* A halo of n_parts parts over n cells of which only part is known (read
 * from bytes at *pos, which it advances): all an exchange of that part
 * needs.  ks_halo_local and ks_halo_local_rows are not for it; the other
 * parts have no cells.  Errors: the bytes end early or disagree. */
KsHalo           *ks_halo_new_received (guint        n,
                                        guint        n_parts,
                                        guint        part,
                                        const guint8 *bytes,
                                        gsize        size,
                                        gsize       *pos,
                                        GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsHalo, ks_halo_free)

G_END_DECLS
