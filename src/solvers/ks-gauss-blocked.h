/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gauss-blocked.h: paper 000's elimination blocked (kernels/gauss-
 * blocked.cl): KS_GAUSS_BLOCK columns eliminated per launch, about 3 n /
 * KS_GAUSS_BLOCK launches a solve where the paper's method makes 4 n.  The
 * arithmetic is the paper's (no pivoting, the augmented matrix); only how
 * many launches carry it changes, which is what a class compares it for.
 * ks-gauss.c runs it as the launch mode KS_LAUNCH_BLOCKED. */
#pragma once

#include <gio/gio.h>

#include "ks-runtime.h"
#include "ks-types.h"

G_BEGIN_DECLS

/* Columns a launch eliminates: the kernels' KS_GB. */
#define KS_GAUSS_BLOCK 32

typedef struct _KsGaussBlocked KsGaussBlocked;

/* Builds the kernels on rt's device; refuses (KS_COMPUTE_ERROR_WORK_GROUP_SIZE)
 * a device whose kernels take fewer than the 256 items of the update's tile. */
KsGaussBlocked *ks_gauss_blocked_new     (KsRuntime      *rt,
                                          KsPrecision     precision,
                                          GError        **error);
void            ks_gauss_blocked_free    (KsGaussBlocked *blocked);

/* Enqueues the whole solve of the n x (n + 1) augmented matrix in a
 * (overwritten) on rt's queue: x receives the solution, info[8] 1 + the
 * first row whose pivot is at most tiny (as gauss.cl's info).  cancellable
 * is polled every few blocks. */
gboolean        ks_gauss_blocked_enqueue (KsGaussBlocked *blocked,
                                          int             n,
                                          KsBuffer       *a,
                                          KsBuffer       *x,
                                          KsBuffer       *info,
                                          double          tiny,
                                          GCancellable   *cancellable,
                                          GError        **error);
/* The last solve's launches, and their device time (0 when untimed). */
guint           ks_gauss_blocked_get_launches (KsGaussBlocked *blocked);
guint64         ks_gauss_blocked_get_time_ns  (KsGaussBlocked *blocked);
void            ks_gauss_blocked_reset_timing (KsGaussBlocked *blocked);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGaussBlocked, ks_gauss_blocked_free)

G_END_DECLS
