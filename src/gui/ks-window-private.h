/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-private.h: the window's state and what its two files share:
 * ks-window.c (pages, devices, running, errors, view, the object) and
 * ks-window-files.c (export, copy, sessions). */
#pragma once

#include "ks-window.h"

G_BEGIN_DECLS

struct _KsWindow {
  GtkApplicationWindow parent_instance;

  GtkWidget     *run_button;
  GtkWidget     *stop_button;
  GtkWidget     *export_menu_button;
  GtkWidget     *primary_menu_button;
  GtkWidget     *device_combo;
  GtkWidget     *info_bar;
  GtkWidget     *info_title;
  GtkWidget     *info_message;
  GtkWidget     *info_details_expander;
  GtkWidget     *info_details;
  GtkWidget     *stack;
  GtkWidget     *sidebar;
  GPtrArray     *page_names;   /* every page's name, in sidebar order */
  GtkWidget     *sidebar_separator;
  GtkWidget     *progress_revealer;
  GtkWidget     *progress_bar;
  GtkWidget     *progress_label;

  KsDeviceList  *devices;
  GSettings     *settings;
  GCancellable  *cancellable;
  KsPage        *running_page;
  gint64         run_started;
  guint          run_done;
  char          *error_text;
  KsPage        *error_page;       /* the page whose banner is shown, or NULL: the window's */
  guint          notice_timeout;   /* hides a confirmation after a while */
  gboolean       filling_devices;  /* the device list is being filled at start */
  GtkFileChooserNative *chooser;   /* the open file dialog, if any */
};

/* ks-window.c */
/* Run, Stop, Export and Copy follow the page and what it holds. */
void  ks_window_update_actions      (KsWindow   *self);
void  ks_window_hide_error          (KsWindow   *self);
/* The page's title in the sidebar (newly allocated; name where none). */
char *ks_window_page_title          (KsWindow   *self,
                                     const char *name);
/* title in the error bar, naming the missing device and those here. */
void  ks_window_show_device_missing (KsWindow   *self,
                                     const char *title,
                                     const char *missing_id);

/* ks-window-files.c: the actions */
void  ks_window_export_plot_activated  (GSimpleAction *action,
                                        GVariant      *param,
                                        gpointer       user_data);
void  ks_window_export_data_activated  (GSimpleAction *action,
                                        GVariant      *param,
                                        gpointer       user_data);
void  ks_window_copy_plot_activated    (GSimpleAction *action,
                                        GVariant      *param,
                                        gpointer       user_data);
void  ks_window_save_session_activated (GSimpleAction *action,
                                        GVariant      *param,
                                        gpointer       user_data);
void  ks_window_open_session_activated (GSimpleAction *action,
                                        GVariant      *param,
                                        gpointer       user_data);

G_END_DECLS
