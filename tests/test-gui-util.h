/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui-util.h: what the GUI tests share: the application and its
 * window started as a user starts them (under Xvfb, see run-xvfb.sh), a
 * main loop turned by hand, keys sent through the X server, screenshots
 * into $KERNELSCOPE_SCREENSHOT_DIR, and the mnemonic check. */
#pragma once

#include <gtk/gtk.h>

#include "ks-application.h"
#include "ks-experiment-page.h"
#include "ks-window.h"

G_BEGIN_DECLS

extern KsApplication *app;
extern KsWindow      *window;
extern char          *tmpdir;

/* Locale, translations, GTK and the X server: FALSE (after printing a TAP
 * skip line) where there is no X server.  Then the app and its window. */
gboolean ks_test_gui_init     (int    *argc,
                               char ***argv);
void     ks_test_gui_shutdown (void);

/* Turns the main loop for ms milliseconds. */
void     spin                 (guint ms);
/* Turns the main loop until cond holds or timeout_s passes. */
gboolean wait_for             (gboolean (*cond) (void),
                               guint      timeout_s);
gboolean not_running          (void);
/* A key press and release sent through the X server to the window. */
void     press_key            (guint           keyval,
                               GdkModifierType mods);
/* The window as the X server shows it, into $KERNELSCOPE_SCREENSHOT_DIR/name. */
void     screenshot           (const char *name);
/* Every point of every curve of plot. */
guint    total_points         (KsPlot     *plot);
/* Mnemonics of mapped labels under widget, keyval -> label: a clash (two
 * labels with one key) is described in clashes. */
void     collect_mnemonics    (GtkWidget  *widget,
                               GHashTable *keys,
                               GString    *clashes);

/* A template child of widget's class type, asserted to exist. */
gpointer          child_of          (gpointer    widget,
                                     GType       type,
                                     const char *name);
/* Whether the app's device list has a GPU (CUDA, or an OpenCL GPU). */
gboolean          ks_test_has_gpu   (void);
/* screenshot (name.png), or name-ru.png under LANGUAGE=ru (the Russian run). */
void              ks_test_shot      (const char *name);
/* The first OpenCL device's id (PoCL here), NULL where there is none. */
const char       *ks_test_pocl_id   (void);
/* Runs a generated page on PoCL with its form's fields set to settings
 * (name, text, ..., NULL), no warm-up and one timed repetition, and waits
 * for the run to end. */
void              ks_test_run_page  (KsExperimentPage   *page,
                                     const char * const *settings);
KsPlot           *ks_test_page_plot (KsExperimentPage   *page);
/* The test experiment's page (tests/ks-exp-test.c, registered before the
 * window exists), its form, and one of its fields set as a user types it. */
KsExperimentPage *ks_test_sweep_page      (void);
KsParamForm      *ks_test_sweep_form      (void);
void              ks_test_sweep_set_field (const char *name,
                                           const char *text);

G_END_DECLS
