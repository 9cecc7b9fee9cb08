/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gauss-solve-page.h: one Gauss solve, taken apart: residual, wall time,
 * the device time of each of the four kernels, and the work-groups the
 * update kernel actually ran with. */
#pragma once

#include "ks-page.h"
#include "ks-gauss.h"

G_BEGIN_DECLS

#define KS_TYPE_GAUSS_SOLVE_PAGE (ks_gauss_solve_page_get_type ())
G_DECLARE_FINAL_TYPE (KsGaussSolvePage, ks_gauss_solve_page, KS, GAUSS_SOLVE_PAGE, KsPage)

/* The last solve's result; NULL before the first. */
const KsGaussResult *ks_gauss_solve_page_get_result (KsGaussSolvePage *self);

void                 ks_gauss_solve_page_set_size   (KsGaussSolvePage *self,
                                                     guint             n);

G_END_DECLS
