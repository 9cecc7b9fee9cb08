/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-index.h: the experiments of paper 003 (Andrianov et al., GPU
 * programs from Norma specifications): the index-domain mapping on the
 * device, and the worked example's two-kernel row sums. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

extern const KsExperimentDesc ks_exp_index_fill;     /* "index-fill": mapped vs grid-stride, three shapes */
extern const KsExperimentDesc ks_exp_index_reduce;   /* "index-reduce": V summed per row, kernels vs host */

G_END_DECLS
