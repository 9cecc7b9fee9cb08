/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-reference-plot.h: recorded runs drawn over a plot, dashed and labelled
 * "recorded: DEVICE (BACKEND)", for the CLI's --overlay and the GUI. */
#pragma once

#include "ks-plot.h"
#include "ks-results.h"

G_BEGIN_DECLS

/* Adds results as dashed curves named after ks_reference_label(): one curve
 * for a gauss-size run, one per matrix size for a gauss-wg run (groups
 * below min_wg left out). */
void ks_reference_plot_add (KsPlot          *plot,
                            const KsResults *results,
                            guint            min_wg);

G_END_DECLS
