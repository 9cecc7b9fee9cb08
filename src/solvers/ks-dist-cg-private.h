/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-dist-cg-private.h: what the host and device parts of the distributed
 * CG share: the words of their two failures. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void ks_dist_cg_set_not_converged (GError **error,
                                   guint    iterations,
                                   double   relative,
                                   double   tol);
void ks_dist_cg_set_breakdown     (GError **error,
                                   guint    iteration,
                                   double   pq);

G_END_DECLS
