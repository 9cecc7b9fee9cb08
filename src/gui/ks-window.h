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
/* What "Export Plot as PNG…" / "Export Data as CSV…" do with the name
 * the user typed: what is "plot" or "data", format "png", "svg", "pdf",
 * "csv" or "json"; the file written is path with ".format" added unless it
 * already ends so (out_path, when not NULL, gets that name). */
gboolean   ks_window_export_as        (KsWindow       *self,
                                       const char     *what,
                                       const char     *format,
                                       const char     *path,
                                       char          **out_path,
                                       GError        **error);
char      *ks_window_export_file_name (const char     *path,
                                       const char     *format);
/* What the Save dialog of "Export …" does with the name it returns: writes
 * it (ks_window_export_as) and says where in the window, or first asks
 * whether to replace a file that only the added ending makes it hit. */
void       ks_window_export_chosen    (KsWindow       *self,
                                       const char     *what,
                                       const char     *format,
                                       const char     *path);
gboolean   ks_window_save_session     (KsWindow       *self,
                                       const char     *path,
                                       GError        **error);
/* On failure the open session is left exactly as it was. */
gboolean   ks_window_load_session     (KsWindow       *self,
                                       const char     *path,
                                       GError        **error);

G_END_DECLS
