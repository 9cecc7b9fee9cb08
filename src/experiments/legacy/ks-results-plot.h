/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-results-plot.h: the plots of the paper, built from results.  The CLI,
 * the GUI and the tests call these, so every front end draws the same figure. */
#pragma once

#include "ks-plot.h"
#include "ks-results.h"

G_BEGIN_DECLS

/* Fig. 2: time vs matrix size; prime-(N+1) points highlighted and labelled.
 * series_name NULL = the local policy ("driver", "split wg=192"). */
void    ks_results_plot_add_size_series (KsPlot          *plot,
                                         const KsResults *results,
                                         const char      *series_name,
                                         gboolean         dashed);
/* Figs. 3-6: one curve per matrix size, the best of each marked, the
 * predicted optimum as a vertical line; wg < min_wg left out (Fig. 4 hides wg = 1). */
void    ks_results_plot_add_wg_series   (KsPlot          *plot,
                                         const KsResults *results,
                                         guint            min_wg,
                                         gboolean         dashed);
/* The same, with suffix appended to each curve's name ("n = 400 (recorded)",
 * "n = 400 (run 2)"); NULL for none.  The plain call above appends
 * " (recorded)" to dashed curves. */
void    ks_results_plot_add_wg_series_named (KsPlot          *plot,
                                             const KsResults *results,
                                             guint            min_wg,
                                             gboolean         dashed,
                                             const char      *suffix);
/* A complete plot with title, axes and caption for results. */
KsPlot *ks_results_plot_new             (const KsResults *results,
                                         guint            min_wg);
/* Several saved runs of one experiment in one plot (kernelscope-cli plot
 * a.json b.json): with more than one, every curve's name says which run it
 * is ("n = 1000 · NVIDIA H200 (CUDA)"), and the policy too where two runs
 * share a device, since "n = 1000" twice in a legend tells nothing.  The
 * caption, which describes one run, goes; the runs before the last (the
 * newest) are dashed. */
KsPlot *ks_results_plot_new_compare     (const KsResults * const *runs,
                                         guint            n_runs,
                                         guint            min_wg);

G_END_DECLS
