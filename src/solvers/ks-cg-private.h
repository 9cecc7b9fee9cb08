/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cg-private.h: what the host and device CG share. */
#pragma once

#include "ks-cg.h"

G_BEGIN_DECLS

gboolean ks_cg_check_options     (const KsCgOptions *options,
                                  GError           **error);
/* KS_SOLVER_ERROR_NOT_CONVERGED with a sample of the history (relative
 * residuals, n of them from iteration 0). */
void     ks_cg_set_not_converged (GError           **error,
                                  const KsCgOptions *options,
                                  const double      *history,
                                  guint              n);

G_END_DECLS
