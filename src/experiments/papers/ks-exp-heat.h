/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat.h: paper 004's experiments (Anisov, Vaziev, Ushakov 2020,
 * the 2D heat equation with conjugate gradients) as descriptions. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

extern const KsExperimentDesc ks_exp_heat;   /* "heat": time per step, CG iterations and bytes per second vs cells */
extern const KsExperimentDesc ks_exp_heat_hybrid;   /* "heat-hybrid": the CG split between GPU and CPU by lambda (Figs. 6-7) */

G_END_DECLS
