/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss.h: the experiments of paper 000 (Baranov & Vlatskaya 2013,
 * work-group size and the Gauss method in OpenCL) as descriptions, and the
 * bridge between their runs and the older KsResults that the Gauss plots,
 * the recorded runs and the GUI's Gauss pages still take. */
#pragma once

#include "ks-experiment-desc.h"
#include "ks-results.h"

G_BEGIN_DECLS

extern const KsExperimentDesc ks_exp_gauss_size;   /* "gauss-size": time vs matrix size, Fig. 2 */
extern const KsExperimentDesc ks_exp_gauss_wg;     /* "gauss-wg": time vs work-group size, Figs. 3-6 */

/* The points of one device of a Gauss run as KsResults (for the Gauss
 * plots and the GUI's pages); NULL when run is not a Gauss run. */
KsResults *ks_exp_gauss_to_results   (const KsRun     *run,
                                      guint            device);
/* One point of a Gauss run as a KsPoint (p->error newly allocated). */
void       ks_exp_gauss_fill_point   (const KsRun      *run,
                                      const KsRunPoint *point,
                                      KsPoint          *p);
/* A KsResults (a format-1 file, a GUI page's run) as a run of the
 * matching description. */
KsRun     *ks_exp_gauss_from_results (const KsResults *results);

/* ks-exp-gauss-results.c: the hooks of the descriptions. */
KsRun  *ks_exp_gauss_load_legacy    (const KsExperimentDesc *desc,
                                     const char             *data,
                                     gssize                  length,
                                     GError                **error);
char   *ks_exp_gauss_describe_point (const KsRun            *run,
                                     const KsRunPoint       *point);
void    ks_exp_gauss_summarize      (const KsRun            *run,
                                     GString                *out);
/* ks-exp-gauss-verdict.c: the paper's claims judged from one run. */
KsVerdict *ks_exp_gauss_judge       (const KsRun            *run,
                                     guint                   device);
/* How much slower point i (N+1 prime) is than the nearest measured points
 * on either side whose N+1 is not prime; FALSE where there are none. */
gboolean ks_exp_gauss_neighbour_ratio (const KsResults      *results,
                                       guint                 i,
                                       double               *ratio);
char   *ks_exp_gauss_name_run       (const KsRun            *run);
void    ks_exp_gauss_upgrade_values (const KsExperimentDesc *desc,
                                     GHashTable             *values);
KsPlot *ks_exp_gauss_plot_new       (const KsExperimentDesc *desc,
                                     const KsFigureSpec     *figure,
                                     KsRun * const          *runs,
                                     guint                   n_runs,
                                     const KsFigureOptions  *options);
void    ks_exp_gauss_add_recorded   (const KsExperimentDesc *desc,
                                     const KsFigureSpec     *figure,
                                     KsPlot                 *plot,
                                     const KsRun            *run,
                                     const KsFigureOptions  *options);

G_END_DECLS
