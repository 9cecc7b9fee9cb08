/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page-private.h: the generic page's state, shared by its two
 * files: ks-experiment-page.c (the form, plot, table, runs, settings),
 * ks-experiment-page-recorded.c (the recorded runs) and
 * ks-experiment-page-run.c (running, the device's defaults, exporting,
 * sessions), ks-experiment-page-runs.c (the list of runs in the plot). */
#pragma once

#include "ks-engine.h"
#include "ks-experiment-page.h"
#include "ks-run-table.h"

G_BEGIN_DECLS

/* One run in the plot: the user's (live: a copy grown point by point on
 * the main thread, replaced by the engine's run when it ends), or one read
 * from a file or a session. */
typedef struct {
  KsRun    *run;
  gboolean  visible;
  gboolean  recorded;
  GPtrArray  *curves;    /* a recorded run's curves in the plot, by name (NULL: none yet) */
  GHashTable *hidden;    /* the names of those the user unticked (NULL: none) */
  gboolean    expanded;  /* its curves are listed under it in "Runs in the plot" */
} Run;

struct _KsExperimentPage {
  KsPage parent_instance;

  const KsExperimentDesc *desc;

  GtkWidget    *form_scroller, *claim_label, *form_box, *reps_spin, *warmup_spin;
  GtkWidget    *figure_label, *figure_combo, *min_x_label, *min_x_spin, *notes_label, *paper_box, *paper_grid;
  GtkWidget    *runs_list, *add_recorded_button, *clear_button, *reset_zoom_button, *zoom_recorded_button;
  GtkWidget    *plot_view, *table_view;
  GtkWidget    *image_strip;   /* the last point's pictures, where the description makes some */
  GtkWidget    *verdict_box;   /* whether the paper's claim holds, per device of the run shown */
  GtkWidget    *access_view;   /* "Inside the kernel", where the description has an access hook; else NULL */
  KsParamForm  *form;

  GPtrArray    *runs;        /* of Run, oldest first; NULL once disposed */
  Run          *live;
  KsRunTable   *table;
  const KsRun  *table_run;   /* the run the table lists */
  KsEngine     *engine;
  GCancellable *cancellable;
  KsDevice     *device;
  GHashTable   *device_map;  /* engine's device index + 1 -> live copy's index + 1 */
  GPtrArray    *recorded;    /* of KsRun: this experiment's in the reference folder; NULL: not looked */
  gboolean      looking;
  GMenu        *recorded_menu;     /* the recorded runs' section, then "Other File…" */
  GMenu        *recorded_section;
  GtkFileChooserNative *chooser;
  gboolean      applying_settings;
  gboolean      mnemonics_done;
  GCancellable *hints_cancellable;   /* the device defaults being worked out */
  GHashTable   *auto_filled; /* field name -> the device default put in it (follow_device_default) */
  GHashTable   *also_on;     /* ids of the devices ticked under "Also run on" */
  GtkWidget    *also_expander, *also_box;
};

Run                *ks_experiment_page_run_new        (KsRun            *run,
                                                      gboolean          recorded);
void                ks_experiment_page_run_free       (gpointer          data);
/* The figure chosen for the plot (NULL where the description has none). */
void                ks_experiment_page_get_figure_options (KsExperimentPage *self,
                                                           KsFigureOptions  *options);
const KsFigureSpec *ks_experiment_page_get_figure     (KsExperimentPage *self);
/* After the runs changed: the list, the table, the paper's numbers, the plot. */
void                ks_experiment_page_rebuild_all    (KsExperimentPage *self);
void                ks_experiment_page_rebuild_plot   (KsExperimentPage *self);
void                ks_experiment_page_save_settings  (KsExperimentPage *self);
/* Sets the form from an a{ss} of parameter -> text (settings, sessions). */
void                ks_experiment_page_apply_values   (KsExperimentPage *self,
                                                       GVariant         *values);

/* An a{ss} of parameter -> text from values of an older form (old name
 * -> text, changed in place), through the description's upgrade_values. */
GVariant           *ks_experiment_page_upgrade_values (KsExperimentPage *self,
                                                       GHashTable       *old);

void                ks_experiment_page_add_run        (KsExperimentPage *self,
                                                       KsRun            *run,
                                                       gboolean          recorded);

/* ks-experiment-page-runs.c: "Runs in the plot": a row per run, a
 * recorded run's curves under it, each one's tick box. */
void                ks_experiment_page_rebuild_runs_list (KsExperimentPage *self);
/* Draws a recorded run's curves over plot, but those the user hid, and
 * keeps their names for the list. */
void                ks_experiment_page_add_recorded_curves (Run                   *r,
                                                            const KsFigureSpec    *figure,
                                                            KsPlot                *plot,
                                                            const KsFigureOptions *options);

/* ks-experiment-page-verdict.c: the verdicts of the run shown under the
 * plot (the user's newest, else the newest recorded one, said so). */
void                ks_experiment_page_rebuild_verdict (KsExperimentPage *self);

/* ks-experiment-page-devices.c: "Also run on" */
void                ks_experiment_page_fill_devices   (KsExperimentPage *self);
/* The ticked devices that can run it, not the header bar's (not owned). */
GPtrArray          *ks_experiment_page_get_also_devices (KsExperimentPage *self);
/* "id,id" (sorted), as the settings keep it. */
char               *ks_experiment_page_get_also_on_text (KsExperimentPage *self);

/* ks-experiment-page-recorded.c */
void                ks_experiment_page_look_for_recorded (KsExperimentPage *self);
void                ks_experiment_page_add_file_activated (GSimpleAction *action,
                                                           GVariant      *param,
                                                           gpointer       user_data);
void                ks_experiment_page_add_recorded_activated (GSimpleAction *action,
                                                               GVariant      *param,
                                                               gpointer       user_data);

/* ks-experiment-page-run.c: the KsPage vfuncs it implements, and what an
 * empty field will take on the device (worked out on a worker). */
void                ks_experiment_page_update_hints   (KsExperimentPage *self);
gboolean            ks_experiment_page_start          (KsPage           *page,
                                                       KsDevice         *device,
                                                       GCancellable     *cancellable,
                                                       GError          **error);
gboolean            ks_experiment_page_has_data       (KsPage           *page);
gboolean            ks_experiment_page_write_data     (KsPage           *page,
                                                       const char       *path,
                                                       const char       *format,
                                                       GError          **error);
gboolean            ks_experiment_page_save_state     (KsPage           *page,
                                                       KsSessionPage    *state,
                                                       GError          **error);
void                ks_experiment_page_load_state     (KsPage           *page,
                                                       const KsSessionPage *state);

G_END_DECLS
