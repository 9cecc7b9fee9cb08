/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gauss-wg-page.h: time vs work-group size, one curve per matrix size,
 * with the paper's predicted optimum (Figs. 3-6). */
#pragma once

#include "ks-sweep-page.h"

G_BEGIN_DECLS

#define KS_TYPE_GAUSS_WG_PAGE (ks_gauss_wg_page_get_type ())
G_DECLARE_FINAL_TYPE (KsGaussWgPage, ks_gauss_wg_page, KS, GAUSS_WG_PAGE, KsSweepPage)

G_END_DECLS
