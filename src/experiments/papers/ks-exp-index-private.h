/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-index-private.h: what ks-exp-index.c shares with
 * ks-exp-index-predict.c (the index-fill verdict's prediction). */
#pragma once

#include "ks-index-map.h"
#include "ks-run.h"
#include "ks-verdict.h"

G_BEGIN_DECLS

/* index-fill's shapes, in the order of its shape choices. */
enum { KS_EXP_INDEX_SHAPE_1D, KS_EXP_INDEX_SHAPE_2D, KS_EXP_INDEX_SHAPE_3D };

/* The domain of a shape of v x w (D(v, w/n3, n3) for the third). */
gboolean ks_exp_index_fill_domain (int            shape,
                                   gint64         v,
                                   gint64         w,
                                   gint64         n3,
                                   KsIndexDomain *out,
                                   GError       **error);

/* The point of shape and method ("3d", "mapped") on device; NULL where
 * not measured. */
const KsRunPoint *ks_exp_index_find_point (const KsRun *run,
                                           guint        device,
                                           const char  *shape,
                                           const char  *method);

/* The 128-byte lines warps of 32 write when index_fill_mapped runs the
 * rule's launch over the whole domain (ks-access.h), elem bytes a value;
 * block is the occupancy launch's.  NAN where the model has no launch. */
double   ks_exp_index_predicted_lines (const KsIndexDomain *domain,
                                       KsIndexRule          rule,
                                       guint64              block,
                                       guint                elem);

/* Issue 31's "predict, then measure": each launch the model covers against
 * the paper's mapping, the counted lines' ratio beside the times'. */
void     ks_exp_index_append_prediction (KsVerdict   *verdict,
                                         const KsRun *run,
                                         guint        device);

G_END_DECLS
