/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat.h: paper 004's experiments (Anisov, Vaziev, Ushakov 2020,
 * the 2D heat equation with conjugate gradients) as descriptions. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

extern const KsExperimentDesc ks_exp_heat;   /* "heat": time per step, CG iterations and bytes per second vs cells */

G_END_DECLS
