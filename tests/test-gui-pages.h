/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui-pages.h: the checks test-gui-pages makes of each page as the
 * window shows it (test-gui-pages-check.c). */
#pragma once

#include <gtk/gtk.h>

#include "ks-plot-view.h"

G_BEGIN_DECLS

/* Appends a line to problems for each mapped widget under top that lies
 * outside area (the window as the screen shows it), is cut by what holds it (a scrolled window may cut
 * it at the top or bottom, never at the side), is given less than its
 * least size, or is a label cut short with no tooltip to read it whole. */
/* Resizes the window to what a screen_w x screen_h screen offers, the
 * header bar included; area: the window's visible part then. */
void ks_test_pages_fit_screen    (int                 screen_w,
                                  int                 screen_h,
                                  GdkRectangle       *area);
void ks_test_pages_check_layout  (GtkWidget          *top,
                                  const GdkRectangle *area,
                                  GString            *problems);
/* Appends to problems the tree of the shown widgets under top that need
 * 150 pixels of width or more, each with its least width: what to narrow
 * when the window is too wide. */
void ks_test_pages_log_wide      (GtkWidget          *top,
                                  GString            *problems);
/* Appends a line to problems for each English word found in the texts
 * shown under top (labels, buttons, entries, the tables' headers and
 * cells) and drawn by plot (NULL: none), once names (devices' and their
 * platforms', which no translation changes) are taken out. */
void ks_test_pages_check_russian (GtkWidget          *top,
                                  KsPlotView         *plot,
                                  const char * const *names,
                                  GString            *problems);
/* The English words among text's (exposed for the test of the check). */
char *ks_test_pages_english_words (const char *text);

G_END_DECLS
