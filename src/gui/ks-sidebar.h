/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-sidebar.h: the window's list of pages, grouped by paper.
 *
 * A GtkStackSidebar lists a flat stack; with five papers and some twenty
 * pages a projector of 1024 x 768 needs groups that fold away.  The sidebar
 * is one GtkListBox in a scrolled window (so Up and Down walk every row):
 * a group's header row folds and unfolds its pages, a page row shows its
 * page in the stack, and the stack's visible page is the selected row.  A
 * group may carry a dim line under its title (what is coming to a paper
 * that has no experiment yet). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_SIDEBAR (ks_sidebar_get_type ())
G_DECLARE_FINAL_TYPE (KsSidebar, ks_sidebar, KS, SIDEBAR, GtkScrolledWindow)

void       ks_sidebar_set_stack      (KsSidebar  *self,
                                      GtkStack   *stack);
/* A group header: id ("000"), its title (shown as given: translate first),
 * and a dim note under it, or NULL. */
void       ks_sidebar_add_group      (KsSidebar  *self,
                                      const char *id,
                                      const char *title,
                                      const char *note);
/* A row for the stack's child called name, under group (NULL: above every
 * group), labelled title. */
void       ks_sidebar_add_page       (KsSidebar  *self,
                                      const char *group,
                                      const char *name,
                                      const char *title);
void       ks_sidebar_set_expanded   (KsSidebar  *self,
                                      const char *group,
                                      gboolean    expanded);
gboolean   ks_sidebar_get_expanded   (KsSidebar  *self,
                                      const char *group);
/* The folded groups, for the settings (free with g_strfreev), and
 * setting them (every other group unfolded). */
GStrv      ks_sidebar_get_folded     (KsSidebar  *self);
void       ks_sidebar_set_folded     (KsSidebar  *self,
                                      const char * const *groups);
/* Is the row of page name shown (its group unfolded)? */
gboolean   ks_sidebar_page_visible   (KsSidebar  *self,
                                      const char *name);
/* The group a page is in, or NULL. */
const char *ks_sidebar_get_page_group (KsSidebar *self,
                                       const char *name);

G_END_DECLS
