/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gauss-size-page.h: time vs matrix size (the paper's Fig. 2). */
#pragma once

#include "ks-sweep-page.h"

G_BEGIN_DECLS

#define KS_TYPE_GAUSS_SIZE_PAGE (ks_gauss_size_page_get_type ())
G_DECLARE_FINAL_TYPE (KsGaussSizePage, ks_gauss_size_page, KS, GAUSS_SIZE_PAGE, KsSweepPage)

G_END_DECLS
