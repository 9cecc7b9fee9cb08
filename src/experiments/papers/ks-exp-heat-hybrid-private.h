/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat-hybrid-private.h: what the heat-hybrid experiment
 * (ks-exp-heat-hybrid.c) shares with its summary
 * (ks-exp-heat-hybrid-summary.c): the columns' indexes. */
#pragma once

#include "ks-run.h"

G_BEGIN_DECLS

/* The parameters' indexes, in params[] order, and the choices' ids. */
enum {
  P_CELLS, P_LAMBDA, P_KIND, P_CPU, P_PARTITION, P_PARTITION_FILE, P_SAVE_PARTITION, P_PRECISION, P_GPUS,
  P_GPU_RANKS, P_RANKS_PER_GPU, P_CG, P_TOL, N_PARAMS
};
enum { CPU_HOST, CPU_DEVICE };
enum { PARTITION_GEOMETRIC, PARTITION_METIS, PARTITION_FILE };
enum { CG_CLASSIC, CG_PIPELINED };

enum {
  COL_ITER_US, COL_REL, COL_PERF, COL_GPU_ONLY, COL_GPU_CELLS, COL_CPU_CELLS, COL_SHARE, COL_CUT,
  COL_ITERS, COL_BANDWIDTH, COL_MESH_CELLS, COL_EFFICIENCY, COL_LAMBDA, COL_GPU_ONLY_ITERS,
  COL_GPU_HALO_WAIT, COL_GPU_SUMS_WAIT, COL_CPU_HALO_WAIT, COL_CPU_SUMS_WAIT,
  COL_STEAL, N_COLUMNS
};

/* Tables 2-3 per device, mesh size and GPU count, beside the paper's. */
void ks_heat_hybrid_summarize (const KsRun *run,
                               GString     *out);

/* Table 3's claim, the CPU adds to the GPU, on the run's device-th
 * device at its largest mesh (ks-verdict.h). */
KsVerdict *ks_heat_hybrid_judge (const KsRun *run,
                                 guint        device);

G_END_DECLS
