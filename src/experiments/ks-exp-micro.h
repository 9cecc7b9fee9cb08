/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro.h: the experiments of paper 001 (Manushin 2012, OpenCL
 * micro-benchmarks) as descriptions, one file per family
 * (ks-exp-micro-FAMILY.c), over the solvers of ks-micro.h. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

#define KS_EXP_MICRO_PAPER \
  .paper = "001", \
  .paper_title = N_("Manushin (2012): what OpenCL costs and gains, in micro-benchmarks")

extern const KsExperimentDesc ks_exp_micro_hello;   /* "micro-hello": vector addition vs the host loop */
extern const KsExperimentDesc ks_exp_micro_simd;    /* "micro-simd": the loop on short .. short16, Tables 3-4 */
extern const KsExperimentDesc ks_exp_micro_builtins; /* "micro-builtins": mad_sat, abs_diff, hadd, Table 5 */

/* A point's error that only this point suffers (a length the device
 * cannot hold, a vector width its compiler refuses) as a refusal, so that
 * the sweep goes on; others unchanged.  Returns FALSE. */
gboolean ks_exp_micro_refuse_point (GError **error);

G_END_DECLS
