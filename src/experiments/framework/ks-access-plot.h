/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-plot.h: the picture of one step of an access model
 * (ks-access.h), for "kernelscope-cli access --plot" and the pages'
 * "Inside the kernel" alike: memory as a strip of cache lines, each item
 * of one warp a mark where it touches, the lines touched shaded; for
 * index-fill the mapping's blocks over the domain, the idle threads
 * shaded. */
#pragma once

#include "ks-access.h"
#include "ks-experiment-desc.h"
#include "ks-plot.h"

G_BEGIN_DECLS

/* The transactions warp `w` (of `warp` items) costs in `step` with lines
 * of `line` bytes, summed over its accesses, and the ideal beside them. */
guint    ks_access_step_lines (const KsAccessModel *model,
                               guint                warp,
                               guint                w,
                               guint                step,
                               guint                line,
                               double              *ideal);
/* The picture's title for people (translated): the experiment, the
 * kernel, warp w's step and what it costs against the ideal. */
char    *ks_access_plot_title (const char          *experiment,
                               KsAccessKernel       kernel,
                               guint                w,
                               guint                step,
                               guint                lines,
                               guint                line,
                               double               ideal);
/* Draws that step into plot (no title: the caller words it); FALSE where
 * an index-fill launch cannot be drawn. */
gboolean ks_access_plot_step  (KsPlot              *plot,
                               const KsAccessModel *model,
                               const KsAccessPoint *point,
                               guint                warp,
                               guint                w,
                               guint                step,
                               guint                line,
                               GError             **error);

/* The first value of parameter name in values (as the access hook takes
 * them: a sweep's first), else its default's first; def where neither
 * parses. */
gint64      ks_experiment_desc_first_int  (const KsExperimentDesc *desc,
                                           GHashTable             *values,
                                           const char             *name,
                                           gint64                  def);
/* The same for a CHOICE parameter: the chosen KsChoice's id, def where none. */
int         ks_experiment_desc_first_choice (const KsExperimentDesc *desc,
                                             GHashTable             *values,
                                             const char             *name,
                                             int                     def);
/* Does every name=value of where (KsPaperValue.where's format) name a
 * value among the form's values of name (a sweep's any; the default where
 * the form has none)?  Names that are no parameter are passed over. */
gboolean    ks_experiment_desc_values_match (const KsExperimentDesc *desc,
                                             GHashTable             *values,
                                             const char             *where);

G_END_DECLS
