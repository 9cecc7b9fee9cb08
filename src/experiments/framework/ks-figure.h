/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-figure.h: a description's figure drawn from runs, through the plot
 * layer's ks-plot.h.  The generic figure says x, y, one curve per value of a
 * parameter (or per device), highlighted points, the best of each curve,
 * log axes, reference lines from device information, so the CLI, the GUI
 * and the tests all draw the same figure from the same call. */
#pragma once

#include "ks-plot.h"
#include "ks-run.h"

G_BEGIN_DECLS

/* A complete plot (title, axis labels with units, caption) of runs of one
 * experiment; with more than one run every curve's name says which run it
 * is, and the runs before the last (the newest) are dashed.  figure NULL:
 * the description's first. */
KsPlot *ks_figure_plot_new     (const KsFigureSpec    *figure,
                                KsRun * const         *runs,
                                guint                  n_runs,
                                const KsFigureOptions *options);
/* Draws run over plot dashed, its curves named "recorded: DEVICE (BACKEND)";
 * for --overlay and the GUI's recorded runs. */
void    ks_figure_add_recorded (const KsFigureSpec    *figure,
                                KsPlot                *plot,
                                const KsRun           *run,
                                const KsFigureOptions *options);

G_END_DECLS
