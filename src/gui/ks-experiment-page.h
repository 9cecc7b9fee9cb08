/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page.h: the one page every described experiment gets.
 *
 * Built entirely from a KsExperimentDesc: the paper's claim, the form
 * (ks-param-form.h), repetitions and warm-up, the table whose columns come
 * from the description (ks-run-table.h), the figure drawn by
 * ks_figure_plot_new in a KsPlotView, the paper's own numbers beside the
 * run's, the runs overlaid (older ones dashed, recorded ones labelled),
 * the recorded runs of data/reference/ ("what an H200 shows", drawn before
 * anything is measured on a machine without a GPU), saved settings per
 * experiment (one GSettings key for all of them), sessions, and run, stop,
 * progress and export through the window's actions like every KsPage. */
#pragma once

#include "ks-page.h"
#include "ks-param-form.h"
#include "ks-run.h"

G_BEGIN_DECLS

#define KS_TYPE_EXPERIMENT_PAGE (ks_experiment_page_get_type ())
G_DECLARE_FINAL_TYPE (KsExperimentPage, ks_experiment_page, KS, EXPERIMENT_PAGE, KsPage)

GtkWidget              *ks_experiment_page_new        (const KsExperimentDesc *desc);
const KsExperimentDesc *ks_experiment_page_get_desc   (KsExperimentPage *self);
KsParamForm            *ks_experiment_page_get_form   (KsExperimentPage *self);
/* Repetitions and warm-up, which every experiment has. */
void                    ks_experiment_page_set_repetitions (KsExperimentPage *self,
                                                            guint             warmup,
                                                            guint             reps);
/* The devices the run measures on too, after the header bar's (ids; each
 * a series of the same figure); NULL or empty: none.  Ids of devices the
 * machine lacks are kept (a session from elsewhere) but not used. */
void                    ks_experiment_page_set_also_on (KsExperimentPage  *self,
                                                        const char * const *ids);
/* The runs in the plot, oldest first (recorded ones included). */
guint                   ks_experiment_page_get_n_runs (KsExperimentPage *self);
KsRun                  *ks_experiment_page_get_run    (KsExperimentPage *self,
                                                       guint             index);
gboolean                ks_experiment_page_run_is_recorded (KsExperimentPage *self,
                                                            guint             index);
/* The newest run, the one the table lists and the data export writes:
 * the user's own, else a recorded one; NULL when there is none. */
KsRun                  *ks_experiment_page_get_newest (KsExperimentPage *self);
/* Adds a finished run read from a results file, drawn dashed and
 * labelled as recorded; refuses a run of another experiment. */
gboolean                ks_experiment_page_add_recorded (KsExperimentPage *self,
                                                         const char       *path,
                                                         GError          **error);
/* The recorded runs of this experiment in the reference folder, once they
 * have been looked for (the page does so when first shown); NULL before. */
GPtrArray              *ks_experiment_page_get_recorded_paths (KsExperimentPage *self);
/* Looks for them now, in this thread (tests; the page itself uses a
 * worker thread). */
void                    ks_experiment_page_find_recorded (KsExperimentPage *self);
/* The engine's words about what it picked for the user ("" when none). */
const char             *ks_experiment_page_get_notes  (KsExperimentPage *self);
/* The verdicts under the plot, one line per device ("Holds here. On this
 * device ..."), "" when none is shown. */
char                   *ks_experiment_page_get_verdict_text (KsExperimentPage *self);
/* The table's model (its rows are the newest run's points). */
GtkTreeModel           *ks_experiment_page_get_table  (KsExperimentPage *self);

G_END_DECLS
