/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-application.h: the GtkApplication: one device list and one settings
 * object for the process, app-wide actions (about, quit, dark style) and
 * keyboard shortcuts; a session file given on the command line opens. */
#pragma once

#include <gtk/gtk.h>
#include "ks-device-list.h"

G_BEGIN_DECLS

#define KS_TYPE_APPLICATION (ks_application_get_type ())
G_DECLARE_FINAL_TYPE (KsApplication, ks_application, KS, APPLICATION, GtkApplication)

KsApplication *ks_application_new              (void);
KsDeviceList  *ks_application_get_device_list  (KsApplication *self);

G_END_DECLS
