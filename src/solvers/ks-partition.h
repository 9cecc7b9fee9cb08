/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-partition.h: a mesh's cells split into sub-domains, one per process
 * (paper 004's MPI ranks, or the GPU and CPU parts of one process).
 *
 * The cells are a graph: xadj/adjncy in CSR form (the cells each cell
 * exchanges with: the stencil's neighbours), and each part gets the number
 * of cells the balance asked for (ks_balance_split).  Two ways:
 *   METIS        k-way partitioning (METIS_PartGraphKway) with target
 *                part weights: the least cut edges, so the least halo;
 *                then cells moved across the parts' borders until each has
 *                exactly its count (METIS's 3 % tolerance on a large part
 *                is more than a small part's whole share: it left them
 *                empty at lambda 32).
 *   GEOMETRIC    the paper's plain geometric decomposition: recursive
 *                coordinate bisection of the cell centres across the
 *                longer side, cut at the exact counts. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_PARTITION_ERROR (ks_partition_error_quark ())
GQuark ks_partition_error_quark (void);

typedef enum {
  KS_PARTITION_ERROR_INVALID,      /* sizes that do not add up, a neighbour out of range */
  KS_PARTITION_ERROR_UNSUPPORTED,  /* METIS asked for in a build without it */
  KS_PARTITION_ERROR_FAILED,       /* METIS said no */
} KsPartitionError;

typedef enum {
  KS_PARTITION_METIS,
  KS_PARTITION_GEOMETRIC,
} KsPartitionMethod;

/* Whether this build has METIS. */
gboolean ks_partition_have_metis (void);

/* Splits n cells into n_parts parts of counts[] cells (adding up to n;
 * a part of 0 cells stays empty), writing each cell's part to part[].
 * centres (2 n doubles: x, y of each cell) are needed by GEOMETRIC only;
 * xadj (n + 1) and adjncy by METIS, and by both for *edge_cut (may be
 * NULL), the neighbour pairs in different parts: what the halo exchange
 * sends. */
gboolean ks_partition_cells (KsPartitionMethod method,
                             guint             n,
                             const guint      *xadj,
                             const guint      *adjncy,
                             const double     *centres,
                             guint             n_parts,
                             const guint64    *counts,
                             guint            *part,
                             guint64          *edge_cut,
                             GError          **error);

/* The neighbour pairs (xadj/adjncy as above) whose cells part[] puts in
 * different parts: what the halo exchange sends. */
guint64  ks_partition_edge_cut (guint          n,
                                const guint   *xadj,
                                const guint   *adjncy,
                                const guint   *part);

G_END_DECLS
