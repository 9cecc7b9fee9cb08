/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window.h: the main window: header bar (device, Run/Stop, export,
 * menu), the sidebar of experiment pages, the error bar and the progress
 * bar.  The public calls below are what the actions do, and what the tests
 * under Xvfb drive. */
#pragma once

#include <gtk/gtk.h>
#include "ks-device-list.h"
#include "ks-page.h"

G_BEGIN_DECLS

#define KS_TYPE_WINDOW (ks_window_get_type ())
G_DECLARE_FINAL_TYPE (KsWindow, ks_window, KS, WINDOW, GtkApplicationWindow)

KsWindow  *ks_window_new              (GtkApplication *app,
                                       KsDeviceList   *devices,
                                       GSettings      *settings);
KsDevice  *ks_window_get_device       (KsWindow       *self);
gboolean   ks_window_set_device_id    (KsWindow       *self,
                                       const char     *id);
KsPage    *ks_window_get_page         (KsWindow       *self,
                                       const char     *name);
void       ks_window_show_page        (KsWindow       *self,
                                       const char     *name);
KsPage    *ks_window_get_visible_page (KsWindow       *self);
gboolean   ks_window_get_running      (KsWindow       *self);
/* Shows err in the window's error bar: its first line as the message, the
 * rest (a kernel build log, say) under Details. */
void       ks_window_show_error       (KsWindow       *self,
                                       const char     *title,
                                       const GError   *error);
/* A confirmation ("saved to …") in the same bar; it hides itself. */
void       ks_window_show_notice      (KsWindow       *self,
                                       const char     *text);
/* The text of the error bar, "" when hidden. */
const char *ks_window_get_error_text  (KsWindow       *self);
gboolean   ks_window_export_plot      (KsWindow       *self,
                                       const char     *path,
                                       GError        **error);
gboolean   ks_window_export_data      (KsWindow       *self,
                                       const char     *path,
                                       GError        **error);
gboolean   ks_window_save_session     (KsWindow       *self,
                                       const char     *path,
                                       GError        **error);
/* On failure the open session is left exactly as it was. */
gboolean   ks_window_load_session     (KsWindow       *self,
                                       const char     *path,
                                       GError        **error);

G_END_DECLS
