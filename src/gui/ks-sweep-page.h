/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sweep-page.h: a page that runs a Gauss sweep (time vs size, or time vs
 * work-group size) and grows its plot and table point by point.
 *
 * Both sweeps share the form, the run, the runs overlaid in the plot and the
 * table; the subclasses only say which experiment they are, so the form
 * shows the rows that kind needs. */
#pragma once

#include "ks-page.h"

G_BEGIN_DECLS

#define KS_TYPE_SWEEP_PAGE (ks_sweep_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (KsSweepPage, ks_sweep_page, KS, SWEEP_PAGE, KsPage)

struct _KsSweepPageClass {
  KsPageClass      parent_class;
  KsExperimentKind kind;
  const char      *settings_prefix;   /* "size-" or "wg-" */
};

/* Adds a finished run read from a results JSON file (a recorded reference
 * run, say) to the plot, drawn dashed and labelled as recorded. */
gboolean   ks_sweep_page_add_recorded  (KsSweepPage *self,
                                        const char  *path,
                                        GError     **error);
guint      ks_sweep_page_get_n_runs    (KsSweepPage *self);
/* The form, for tests and sessions: "from", "to", "step", "wg", "reps"
 * (numbers), "sizes", "custom" (text), "precision", "range", "local",
 * "preset" (ids). */
void       ks_sweep_page_set_param     (KsSweepPage *self,
                                        const char  *name,
                                        const char  *value);

G_END_DECLS
