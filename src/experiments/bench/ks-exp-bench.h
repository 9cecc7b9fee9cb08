/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-bench.h: the benches as experiment descriptions (issue 29), in
 * the sidebar's "Benchmarks" group and behind "kernelscope-cli bench X"
 * (an alias of "run bench-X"): the measuring code is the benches' own
 * (ks-bench-probes.h), the table, files, figures, page and sessions the
 * framework's. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

/* The group every bench is in: the sidebar's "Benchmarks", after the papers. */
#define KS_EXP_BENCH_GROUP .paper = "bench"

extern const KsExperimentDesc ks_exp_bench_bandwidth;
extern const KsExperimentDesc ks_exp_bench_launch;
extern const KsExperimentDesc ks_exp_bench_cg;
extern const KsExperimentDesc ks_exp_bench_gauss;

/* A failure that means "this point cannot run here" (no memory for it, no
 * such backend or library) made a refusal, so that the sweep goes on and
 * the table says why; any other is left as it is.  FALSE, for measuring
 * functions to return. */
gboolean ks_exp_bench_refuse_point (GError **error);

/* A bench's methods by device (its device_default): the default_value's
 * choices that run on the device (KsChoice.backends), so that a default
 * run on a laptop's CPU refuses nothing and shows no warning; on CUDA
 * every one.  The others stay a choice, refused there with the reason. */
char    *ks_exp_bench_default_methods (const KsParamSpec *spec,
                                       KsDevice          *device,
                                       const KsConfig    *base,
                                       char             **why,
                                       GError           **error);

/* A set_up whose state is the device itself (a reference; tear_down
 * g_object_unref): for benches whose probes set up and free each point. */
gpointer ks_exp_bench_device_set_up (const KsExperimentDesc *desc,
                                     KsDevice               *device,
                                     const KsConfig         *base,
                                     GCancellable           *cancellable,
                                     GError                **error);

G_END_DECLS
