/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag-predict.h: issue 31's "predict, then measure" for
 * tridiag-batch: the natural/interleaved ratio of the staged Thomas kernel
 * from counted transactions, beside the measured one. */
#pragma once

#include "ks-experiment-desc.h"
#include "ks-verdict.h"

G_BEGIN_DECLS

/* Transactions of thomas_staged natural over interleaved for one group of
 * 64 systems of n unknowns (elem bytes), warps of 32, 128-byte lines;
 * NAN where the model refuses the point. */
double ks_exp_tridiag_predicted_ratio (guint n,
                                       guint systems,
                                       guint elem);

/* Appends to v, where the run has thomas-local and thomas-interleaved at
 * the same sizes on device, the predicted ratio beside the measured one
 * (times in column time_col). */
void   ks_exp_tridiag_append_prediction (KsVerdict   *v,
                                         const KsRun *run,
                                         guint        device,
                                         guint        time_col);

G_END_DECLS
