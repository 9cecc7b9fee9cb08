/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hybrid-cg.h: paper 004's hybrid in one process: the cells of a matrix
 * split between a GPU part and a CPU part by the balancing coefficient
 * lambda (ks-balance.h, formula (5) with one process of each kind:
 * lambda = N_GPU / N_CPU), both parts running the distributed CG of
 * ks-dist-cg.h at once, one host thread each, exchanging their halo every
 * iteration behind the interior SpMV.
 *
 * The GPU part runs on any OpenCL or CUDA device; the CPU part on the
 * host's OpenMP code or on a CPU device (PoCL running the same kernels):
 * the user picks.  The pattern is partitioned once (ks-partition.h) and
 * numbered as the paper's Fig. 2 (ks-halo.h); each solve gathers the
 * parts' values from the whole matrix, so a matrix whose values change
 * every step (the heat problem's) costs a gather, not a new partition.
 *
 * A part of no cells is left out: lambda 0 is the CPU alone, INFINITY the
 * GPU alone, through the same code and its exchanges (which then have no
 * one to talk to), so the GPU-only figure a Perf(lambda) curve is measured
 * against comes from the same loop. */
#pragma once

#include <glib.h>

#include "ks-cg.h"
#include "ks-csr.h"
#include "ks-device.h"
#include "ks-dist-cg.h"
#include "ks-partition.h"

G_BEGIN_DECLS

typedef enum {
  KS_HYBRID_GPU,   /* a part on a GPU */
  KS_HYBRID_CPU,   /* the part on the CPU */
  KS_HYBRID_N_PARTS
} KsHybridPart;

/* The most GPUs one process drives (one part and one host thread each). */
#define KS_HYBRID_MAX_GPUS 8

typedef struct {
  KsDevice          *gpu;        /* the GPU part's device (any OpenCL or CUDA one); under a
                                  * world, NULL on a rank that runs a CPU part */
  KsDevice          *cpu;        /* the CPU part's device; NULL: the host's OpenMP code */
  KsPrecision        precision;  /* the devices' (the host part is double) */
  KsPartitionMethod  method;
  /* Under a world (below): how many of its ranks, the first ones, run GPU
   * parts; the rest run CPU parts.  Ignored in one process. */
  guint              gpu_ranks;
  /* In one process: more GPUs beside gpu, each a part of its own (the
   * paper's several GPUs of one node; their halo goes through the host).
   * Formula (5) with R_GPU = 1 + n_more_gpus and one CPU part. */
  KsDevice         **more_gpus;
  guint              n_more_gpus;
  /* The pipelined CG (ks-dist-cg.h), on host and device parts alike. */
  gboolean           pipelined;
  /* Under a world: this process's own solver, as in one process (the
   * world is ignored); the GPU alone that the paper compares the hybrid
   * with, timed on rank 0 while the other ranks wait. */
  gboolean           alone;
  /* Under a world: the world to split over instead of the process's (the
   * GPU ranks' own, KsHybridWorld.gpus_world, for the GPU-alone run of
   * several GPU ranks); NULL: the process's. */
  const struct _KsHybridWorld *world;
} KsHybridSetup;

/* Processes that run one part each, the paper's MPI ranks (libksmpi's
 * ks_mpi_world_install sets one): the cells are split into n_ranks parts
 * by formula (5) with R_GPU = gpu_ranks and R_CPU = n_ranks - gpu_ranks,
 * and this process solves part `rank`.  A rank does not know what the
 * others run (the paper's design); each one calls the same functions with
 * the same arguments, in the same order. */
typedef struct _KsHybridWorld KsHybridWorld;
struct _KsHybridWorld {
  guint        n_ranks;
  guint        rank;
  KsExchange *(*exchange_new) (gpointer      data,
                               const KsHalo *halo,
                               guint         part);
  /* values[0..n) summed over the ranks, in place, the same on every rank. */
  gboolean    (*sum)          (gpointer      data,
                               double       *values,
                               gsize         n,
                               GError      **error);
  double      (*max)          (gpointer      data,
                               double        value);
  /* A failure of this rank alone (its device lost): the others would wait
   * for it forever, so the whole run ends here, saying which rank failed
   * and why.  Does not return. */
  void        (*abort)        (gpointer      data,
                               const GError *error);
  /* Optional (NULL: every rank builds what it needs itself): bytes at
   * buffer copied from rank 0 to every rank, a collective like sum.  The
   * experiment builds the system once, on rank 0, and sends it: sixteen
   * ranks each building a 16.8 M-cell mesh ran a 128 GiB machine out of
   * memory. */
  gboolean    (*broadcast)    (gpointer      data,
                               gpointer      buffer,
                               gsize         bytes,
                               GError      **error);
  /* Optional (NULL: none): the world of ranks 0 to first - 1 alone, a
   * collective every rank calls; those ranks get it (kept by the world),
   * the others NULL.  Several GPU ranks' GPU-alone run is their own world,
   * as the paper's GPU-only run has no CPU ranks to join its sums. */
  const KsHybridWorld *(*gpus_world) (gpointer      data,
                                      guint         first,
                                      GError      **error);
  /* Optional (NULL: every rank holds the whole system): bytes from this
   * rank to rank `to`, where recv takes them (a new buffer, g_free it; its
   * size in *bytes).  Rank 0 sends each rank its part of the system alone
   * (ks_hybrid_cg_set_system), so no other rank holds the whole. */
  gboolean    (*send)         (gpointer      data,
                               guint         to,
                               gconstpointer buffer,
                               gsize         bytes,
                               GError      **error);
  gpointer    (*recv)         (gpointer      data,
                               guint         from,
                               gsize        *bytes,
                               GError      **error);
  gpointer     data;
};

/* The process's world, or NULL (one process: the default).  Set once,
 * before any KsHybridCg is made; the world must outlive them. */
void                 ks_hybrid_world_set (const KsHybridWorld *world);
const KsHybridWorld *ks_hybrid_world_get (void);

typedef struct {
  guint   iterations;
  double  residual;
  double  iterate_s;                      /* the slower part's */
  double  bytes;                          /* Table 1's bytes of both parts' iterations */
  double  part_s[KS_HYBRID_N_PARTS];      /* the slowest part of each kind, NAN where none has cells */
  /* Each part's whole solve (its set-up and uploads included) less its
   * time in the halo's finish and the sums: its own work, which tells
   * which part the other waits for (part_s are alike, the parts meeting
   * at every sum). */
  double  busy_s[KS_HYBRID_N_PARTS];
  /* What busy_s leaves out, apart: each kind's time in the halo's finish
   * and in the sums (the most any part of the kind spent; NAN where none
   * has cells).  Which of the two coupling costs a split pays. */
  double  halo_s[KS_HYBRID_N_PARTS];
  double  sums_s[KS_HYBRID_N_PARTS];
  /* The same two waits in the iterations alone (iterate_s's span), not
   * the set-up's: per iteration, what the coupling costs each kind. */
  double  iterate_halo_s[KS_HYBRID_N_PARTS];
  double  iterate_sums_s[KS_HYBRID_N_PARTS];
} KsHybridResult;

typedef struct _KsHybridCg KsHybridCg;

/* Builds the device parts' kernels (errors: a device without double
 * precision, a kernel that does not build). */
KsHybridCg   *ks_hybrid_cg_new          (const KsHybridSetup *setup,
                                         GError             **error);
void          ks_hybrid_cg_free         (KsHybridCg          *hybrid);
/* The matrix's pattern (its values are not read) and the cells' centres
 * (2 n: x, y; for the geometric partition), split at lambda in [0,
 * INFINITY].  Kept until the next call; the solve's matrix must have
 * this pattern. */
gboolean      ks_hybrid_cg_set_pattern  (KsHybridCg          *hybrid,
                                         const KsCsr         *a,
                                         const double        *centres,
                                         double               lambda,
                                         GError             **error);
/* The same pattern split again at another lambda (the GUI's slider). */
gboolean      ks_hybrid_cg_set_lambda   (KsHybridCg          *hybrid,
                                         double               lambda,
                                         GError             **error);
/* The same pattern split as parts[] (n: the pattern's cells) says rather
 * than by lambda: a partition read from a file (ks-part-file.h).  Part r
 * is rank r's under a world; in one process parts 0 .. n_more_gpus are the
 * GPUs', part n_more_gpus + 1 the CPU's.  A part may have no cells.  The
 * lambda it amounts to (a GPU part's cells on average over all the CPU
 * parts') is then what get_lambda says; set_lambda splits by lambda again. */
gboolean      ks_hybrid_cg_set_parts    (KsHybridCg          *hybrid,
                                         const guint         *parts,
                                         guint                n,
                                         GError             **error);
double        ks_hybrid_cg_get_lambda   (KsHybridCg          *hybrid);
/* Each cell's part, numbered as set_parts takes them (what a partition
 * file of this split holds); NULL before a pattern. */
const guint  *ks_hybrid_cg_get_part_of  (KsHybridCg          *hybrid);
/* Each cell's kind of part (KS_HYBRID_GPU or KS_HYBRID_CPU); NULL before a pattern. */
const guint  *ks_hybrid_cg_get_parts    (KsHybridCg          *hybrid);
/* The cells on all parts of a kind. */
guint64       ks_hybrid_cg_get_cells    (KsHybridCg          *hybrid,
                                         KsHybridPart         part);
/* The parts the cells are split into (two in one process, one per rank
 * under a world; a part may have no cells), and this process's one. */
guint         ks_hybrid_cg_get_n_parts  (KsHybridCg          *hybrid);
/* The matrix entries that couple the parts: what the halo carries. */
guint64       ks_hybrid_cg_get_edge_cut (KsHybridCg          *hybrid);
/* The system a x = b and its guess x0, split at lambda as set_pattern
 * splits a, for ks_hybrid_cg_solve_system.  Under a world that can send
 * (KsHybridWorld.send), rank 0 alone passes the system and the others
 * NULL: rank 0 splits it and sends each rank its part's rows, b and x0,
 * so no other rank ever holds the whole (32 ranks each receiving a 16.8
 * M-cell system held 70 GB of the host's memory, and the broadcast bound
 * the mesh's size before the GPUs did).  set_lambda and set_parts then
 * split it on rank 0 and send the parts again.  Elsewhere every caller
 * passes the system.  Borrowed: it must outlive the hybrid's use. */
gboolean      ks_hybrid_cg_set_system   (KsHybridCg          *hybrid,
                                         const KsCsr         *a,
                                         const double        *b,
                                         const double        *x0,
                                         const double        *centres,
                                         double               lambda,
                                         GError             **error);
/* Solves set_system's system from its x0.  x: NULL on every rank (the
 * solution is not wanted: nothing is gathered), or given on every rank:
 * then the whole solution lands in rank 0's (n values; the other ranks'
 * are not written) or, in one process, in x. */
gboolean      ks_hybrid_cg_solve_system (KsHybridCg          *hybrid,
                                         const KsCgOptions   *options,
                                         double              *x,
                                         KsHybridResult      *out,
                                         GError             **error);
/* Solves a x = b; x holds the guess on entry.  Both parts' failures alike:
 * not converged, breakdown, a device error (the other part is stopped and
 * the first part's error told). */
gboolean      ks_hybrid_cg_solve        (KsHybridCg          *hybrid,
                                         const KsCsr         *a,
                                         const double        *b,
                                         double              *x,
                                         const KsCgOptions   *options,
                                         KsHybridResult      *out,
                                         GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsHybridCg, ks_hybrid_cg_free)

G_END_DECLS
