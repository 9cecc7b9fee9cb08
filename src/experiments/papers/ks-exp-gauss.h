/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss.h: the experiments of paper 000 (Baranov & Vlatskaya 2013,
 * work-group size and the Gauss method in OpenCL) as descriptions. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

extern const KsExperimentDesc ks_exp_gauss_size;   /* "gauss-size": time vs matrix size, Fig. 2 */
extern const KsExperimentDesc ks_exp_gauss_wg;     /* "gauss-wg": time vs work-group size, Figs. 3-6 */

/* What one solve of n unknowns costs (the augmented matrix read and
 * written once, ~2/3 n^3 operations) and ms, the time it took: the Gauss
 * descriptions' work hook, and bench-gauss's. */
gboolean ks_exp_gauss_work_of (double   n,
                               gboolean fp64,
                               double   ms,
                               KsWork  *out);

/* ks-exp-gauss-words.c: the hooks of the descriptions. */
char   *ks_exp_gauss_describe_point (const KsRun            *run,
                                     const KsRunPoint       *point);
void    ks_exp_gauss_summarize      (const KsRun            *run,
                                     GString                *out);
/* ks-exp-gauss-upgrade.c: the old Gauss pages' saved forms as parameters. */
void    ks_exp_gauss_upgrade_values (const KsExperimentDesc *desc,
                                     GHashTable             *values);
/* ks-exp-gauss-verdict.c: the paper's claims judged from one run. */
KsVerdict *ks_exp_gauss_judge       (const KsRun            *run,
                                     guint                   device);

G_END_DECLS
