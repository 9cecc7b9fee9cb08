/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-page-help.h: the words F1 shows for a page of the window.
 *
 * A page built from a description gets its help from that description:
 * what the paper claims, what to look for (a paragraph written for each
 * paper), every parameter's label and help as the form shows them, and
 * what each mark of each figure means (highlighted points, the best
 * point's ring, reference lines, the paper's own numbers, dashed earlier
 * and recorded runs).  The hand-made pages (the devices, the single Gauss
 * solve, your tridiagonal systems, the heat animation, the index map) have
 * their own text here, so every page's help is plain text from this layer,
 * tested without a display.
 *
 * Every result is Pango markup (bold headings, the rest escaped),
 * translated into the current language, newly allocated. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

/* The help of the generic page of desc. */
char       *ks_page_help_for_desc  (const KsExperimentDesc *desc);
/* The help of the hand-made page called name ("devices", "gauss-solve",
 * "tridiag-solve", "heat-live", "index-map"); NULL for any other name. */
char       *ks_page_help_for_page  (const char             *name);
/* What to look for in paper ("000".."004"), translated plain text (not
 * markup); NULL for a paper without one. */
const char *ks_page_help_paper     (const char             *paper);

G_END_DECLS
