/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hybrid-cg-private.h: the hybrid solver's state, shared by the split
 * and solve (ks-hybrid-cg.c) and the sending of each rank its part
 * (ks-hybrid-scatter.c). */
#pragma once

#include "ks-halo.h"
#include "ks-hybrid-cg.h"

G_BEGIN_DECLS

typedef struct {
  guint           index;      /* the part's index in the halo */
  KsHybridPart    kind;
  KsDistCgDevice *device;     /* borrowed from the hybrid; NULL: the host */
  KsPrecision     precision;
  guint          *row_ptr;    /* the part's rows, local columns (ks_halo_local_rows) */
  guint          *col;
  gsize          *from;       /* each local entry's index in the whole matrix's val */
  double         *val;
  double         *b;
  double         *x;          /* owned + virtual */
  double         *x0;         /* a part rank 0 sent (from NULL): the guess, owned */
} Part;

struct _KsHybridCg {
  KsHybridSetup   setup;
  KsDistCgDevice *gpus[KS_HYBRID_MAX_GPUS];   /* this process's GPU parts' */
  guint           n_gpus;
  KsDistCgDevice *cpu;        /* NULL: the host's code */
  /* The pattern and its split. */
  guint           n, nnz;
  guint          *row_ptr;    /* a copy: the pattern solves are checked against */
  guint          *col;
  double         *centres;
  double          lambda;
  guint          *kind;       /* each cell's KsHybridPart */
  guint          *part_of;    /* each cell's part, numbered as ks_hybrid_cg_set_parts takes them */
  gboolean        given;      /* split by ks_hybrid_cg_set_parts, not by lambda */
  guint64         cells[KS_HYBRID_N_PARTS];
  guint64         edge_cut;
  KsHalo         *halo;
  guint           n_parts;    /* in the halo */
  /* The parts this process runs: both (those with cells) in one process,
   * its rank's under a world. */
  const KsHybridWorld *world;
  guint           n_local;
  Part            parts[KS_HYBRID_MAX_GPUS + 1];
  /* set_system's system, borrowed; when scattered, rank 0 alone holds it
   * (and the pattern above) and the other ranks their parts alone. */
  gboolean        scattered;
  const KsCsr    *sys_a;
  const double   *sys_b, *sys_x0;
};

/* Splits the pattern at lambda, or as given[] says, and builds this
 * process's parts (rank 0's alone when scattered). */
gboolean ks_hybrid_split           (KsHybridCg    *h,
                                    double         lambda,
                                    const guint   *given,
                                    GError       **error);
void     ks_hybrid_clear_split     (KsHybridCg    *h);
/* Keeps a copy of a's pattern and the centres, without splitting. */
void     ks_hybrid_keep_pattern    (KsHybridCg    *h,
                                    const KsCsr   *a,
                                    const double  *centres);
/* The solve from x_in into x_out (either may be NULL where the parts hold
 * them: scattered). */
gboolean ks_hybrid_solve_parts     (KsHybridCg        *h,
                                    const KsCsr       *a,
                                    const double      *b,
                                    const double      *x_in,
                                    double            *x_out,
                                    const KsCgOptions *options,
                                    KsHybridResult    *out,
                                    GError           **error);
/* ks-hybrid-scatter.c: scattered, the split made on rank 0 and each
 * rank's part sent to it (a collective); the solution's owned values
 * gathered into rank 0's x. */
gboolean ks_hybrid_scatter_split   (KsHybridCg    *h,
                                    double         lambda,
                                    const guint   *given,
                                    GError       **error);
gboolean ks_hybrid_gather_solution (KsHybridCg    *h,
                                    double        *x,
                                    GError       **error);

G_END_DECLS
