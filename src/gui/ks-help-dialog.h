/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-help-dialog.h: F1's help for the visible page.
 *
 * The words come from ks-page-help.h (a generic page's description, or a
 * hand-made page's own text); the dialog shows them as wrapped markup in
 * a scrolled area that fits a 1024 x 768 projector, with a Close button
 * (Escape closes it too). */
#pragma once

#include <gtk/gtk.h>

#include "ks-page.h"

G_BEGIN_DECLS

#define KS_TYPE_HELP_DIALOG (ks_help_dialog_get_type ())
G_DECLARE_FINAL_TYPE (KsHelpDialog, ks_help_dialog, KS, HELP_DIALOG, GtkDialog)

/* The help of page, called name in the window's stack: its description's
 * for a generic page, else the hand-made page's; NULL where there is none. */
char       *ks_help_dialog_page_markup (KsPage       *page,
                                        const char   *name);
/* A dialog over parent titled title showing markup (NULL: a line saying
 * that the page has no help), destroyed when closed. */
GtkWidget  *ks_help_dialog_new         (GtkWindow    *parent,
                                        const char   *title,
                                        const char   *markup);
/* The text the dialog shows, without the markup (for the tests). */
const char *ks_help_dialog_get_text    (KsHelpDialog *self);

G_END_DECLS
