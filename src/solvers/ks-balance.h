/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-balance.h: paper 004's balance between GPU and CPU processes.
 *
 * N cells over K nodes, each node running R_GPU processes on GPUs and
 * R_CPU processes on its CPU cores.  The balancing coefficient
 *   lambda = N_GPU / (R_CPU N_CPU)
 * is a GPU process's share against all CPU processes of its node, and the
 * paper's formulas (5) give the sub-domain sizes:
 *   N_GPU = N/K * lambda / (lambda R_GPU + 1)
 *   N_CPU = N/K * 1/R_CPU * 1 / (lambda R_GPU + 1).
 * Conjugate gradients are bound by memory bandwidth, so the paper
 * estimates the optimum as lambda_b = BW_GPU / BW_CPUs from measured
 * bandwidths (one GPU's against the whole node's CPU memory), and bounds
 * what adding the CPUs can gain by BW_CPUs / (BW_CPUs + n_GPU BW_GPU). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_BALANCE_ERROR (ks_balance_error_quark ())
GQuark ks_balance_error_quark (void);

typedef enum {
  KS_BALANCE_ERROR_INVALID,   /* no processes, a negative or NaN lambda, fewer cells than processes */
} KsBalanceError;

/* Formula (5) for one node's n_cells, rounded so that the processes'
 * counts add up to n_cells exactly (the largest remainders get the spare
 * cells): counts[0 .. r_gpu-1] for the GPU processes, counts[r_gpu ..
 * r_gpu+r_cpu-1] for the CPU ones.  lambda 0 puts everything on the CPU
 * processes, INFINITY everything on the GPUs; with no CPU process (or no
 * GPU process) lambda does not matter.  Every process with a share gets at
 * least one cell: a sub-domain of none would have nothing to exchange. */
gboolean ks_balance_split          (guint64  n_cells,
                                    guint    r_gpu,
                                    guint    r_cpu,
                                    double   lambda,
                                    guint64 *counts,
                                    GError **error);
/* The lambda a split amounts to, formula (5) read backwards: the GPU
 * processes' cells on average over all the CPU processes' cells (0 with
 * no cells on the GPUs, INFINITY with none on the CPUs; NAN where a count
 * is NAN).  What a partition file's split is reported as. */
double   ks_balance_lambda_of      (double   gpu_cells,
                                    double   r_gpu,
                                    double   cpu_cells);
/* lambda_b = BW_GPU / BW_CPUs; NAN unless both are positive. */
double   ks_balance_lambda_b       (double   bw_gpu_gbs,
                                    double   bw_cpus_gbs);
/* The paper's bound on the hybrid gain, BW_CPUs / (BW_CPUs + n_gpu BW_GPU)
 * = 1 / (1 + n_gpu lambda_b): the share of the node's bandwidth the CPUs
 * add (3.8 % with 8 GPUs and lambda_b = 3.2, the paper's example).  NAN
 * unless the bandwidths are positive and n_gpu > 0. */
double   ks_balance_gain_bound     (double   bw_gpu_gbs,
                                    double   bw_cpus_gbs,
                                    guint    n_gpu);

G_END_DECLS
