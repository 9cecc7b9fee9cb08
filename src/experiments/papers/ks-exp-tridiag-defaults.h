/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag-defaults.h: the tridiagonal experiments' default methods
 * by device (KsParamSpec.device_default). */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

/* tridiag-batch and tridiag-large: the paper's methods, cuSPARSE's
 * joining on a CUDA device. */
char *ks_exp_tridiag_default_methods       (const KsParamSpec *spec,
                                            KsDevice          *device,
                                            const KsConfig    *base,
                                            char             **why,
                                            GError           **error);
/* bench-tridiag: its default, cuSPARSE's only on CUDA, gtsv2_nopivot
 * only for one system. */
char *ks_exp_tridiag_bench_default_methods (const KsParamSpec *spec,
                                            KsDevice          *device,
                                            const KsConfig    *base,
                                            char             **why,
                                            GError           **error);

G_END_DECLS
