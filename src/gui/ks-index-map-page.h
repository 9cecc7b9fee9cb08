/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-map-page.h: paper 003's calculator as a page: the user types an
 * index domain and sees it laid onto blocks and threads under the paper's
 * rules (as its text means them and as its formulas print them), today's
 * limits and the occupancy API's block, with the idle threads counted and
 * the chosen rule's grid drawn.  Run asks the chosen device for its block. */
#pragma once

#include "ks-page.h"

G_BEGIN_DECLS

#define KS_TYPE_INDEX_MAP_PAGE (ks_index_map_page_get_type ())
G_DECLARE_FINAL_TYPE (KsIndexMapPage, ks_index_map_page, KS, INDEX_MAP_PAGE, KsPage)

void ks_index_map_page_set_domain (KsIndexMapPage *self,
                                   const char     *domain);
/* The text of the page's line for one rule (index of KsIndexRule), for tests. */
const char *ks_index_map_page_get_mapping_text (KsIndexMapPage *self,
                                                guint           rule);

G_END_DECLS
