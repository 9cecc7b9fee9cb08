/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag.h: the experiments of paper 002 (Pogorelskikh & Loganova:
 * Thomas and cyclic reduction on a GPU with several kinds of memory and
 * data layouts) as descriptions over the solvers of src/solvers/ks-tridiag.h. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

/* "tridiag-batch": time and speed-up vs the number of systems, one curve
 * per method, and the methods side by side against the paper's speed-ups. */
extern const KsExperimentDesc ks_exp_tridiag_batch;
/* "tridiag-large": one system of growing size: where PARACR overtakes Thomas. */
extern const KsExperimentDesc ks_exp_tridiag_large;
/* In the Benchmarks group: the same measuring against cuSPARSE and the triad. */
extern const KsExperimentDesc ks_exp_bench_tridiag;
/* tridiag-batch's "Inside the kernel" (KsExperimentDesc.access):
 * Thomas in both layouts, then PARACR's levels in both (ks-exp-tridiag-access.c). */
gboolean ks_exp_tridiag_access (GHashTable    *values,
                                guint          variant,
                                KsAccessPoint *out,
                                char         **label,
                                char         **where);

G_END_DECLS
