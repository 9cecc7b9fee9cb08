/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui.h: what test-gui's three files share.  test-gui.c holds main,
 * the helpers below and the window's own tests (devices, the single solve,
 * dialogs, export, mnemonics, presenting, the dark theme, translations);
 * test-gui-size.c the time-vs-size page; test-gui-wg.c the time-vs-group
 * size page and the sessions and settings of both.  One program, so the
 * tests run in one window in the order main gives. */
#pragma once

#include "ks-experiment-page.h"
#include "ks-window.h"

G_BEGIN_DECLS

extern GtkWidget *spare_window;   /* a second window, destroyed at the end */

KsExperimentPage *sweep_page          (const char       *name);
/* A form field, as the CLI would take it. */
void              set_param           (KsExperimentPage *page,
                                       const char       *name,
                                       const char       *text);
char             *get_param           (KsExperimentPage *page,
                                       const char       *name);
/* n's range through the From / To / Step of its range button. */
void              set_sizes           (KsExperimentPage *page,
                                       const char       *from,
                                       const char       *to,
                                       const char       *step);
/* Repetitions, with one warm-up as the old pages had. */
void              set_reps            (KsExperimentPage *page,
                                       guint             reps);
/* The runs the user measured (recorded ones left out). */
guint             own_runs            (KsExperimentPage *page);
/* The points of the user's curves, and how many curves. */
guint             own_points          (KsPlot           *plot,
                                       guint            *n_series);
/* The user's newest curve: the last one not named "recorded". */
guint             own_series          (KsPlot           *plot);
KsPlot           *page_plot           (const char       *name);
const char       *pocl_id             (void);
/* TRUE where PoCL is here; else the test is skipped, saying why. */
gboolean          need_pocl           (void);
/* n = 20..60 with the driver's groups, one repetition, on the size page. */
void              prepare_short_sweep (KsExperimentPage *page);
gboolean          running             (void);
gboolean          action_enabled      (const char       *name);

/* test-gui-size.c */
void test_size_sweep           (void);
void test_stop_keeps_points    (void);
void test_recorded_overlay     (void);
void test_typed_value_then_run (void);
void test_actions_follow_plot  (void);
void test_device_lost          (void);
void test_close_mid_run        (void);

/* test-gui-wg.c */
void test_session              (void);
void test_old_session          (void);
void test_old_settings         (void);
void test_wg_sweep             (void);
void test_refused_group        (void);
void test_wg_live              (void);

G_END_DECLS
