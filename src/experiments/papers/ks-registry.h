/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-registry.h: every experiment the program knows, grouped by paper.
 *
 * Each family file (ks-exp-gauss.c) exports its descriptions; ks-registry.c
 * lists them, one line each: adding an experiment adds one line there and
 * nothing in gui/ or cli/.  Tests (and plug-ins, one day) add their own
 * with ks_registry_add ().  The registry is filled on first use and never
 * shrinks, so a description it returns lives as long as the program. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

typedef struct {
  const char *id;      /* "000" */
  const char *title;   /* N_(): the paper's authors, year and title */
  GPtrArray  *experiments;  /* of const KsExperimentDesc *, in registration order; may be empty */
  const char *coming;  /* N_(): for a paper without experiments yet, what is coming; or NULL */
} KsPaperGroup;

/* Every description, in registration order (papers in order). */
GPtrArray              *ks_registry_list        (void);
/* Grouped by paper, papers in id order: the five papers of the course
 * (000 .. 004, a group without experiments yet too), and any other paper a
 * description names (a test's); free with g_ptr_array_unref. */
GPtrArray              *ks_registry_list_papers (void);
const KsExperimentDesc *ks_registry_lookup      (const char *id);
/* Validates desc (ks_experiment_desc_validate) and refuses a second
 * description with the same id. */
gboolean                ks_registry_add         (const KsExperimentDesc *desc,
                                                 GError                **error);

G_END_DECLS
