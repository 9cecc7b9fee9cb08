/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-pages.h: which pages the window has, and where in the sidebar.
 *
 * The pages come from the experiment registry, grouped by paper: every
 * description gets the generic KsExperimentPage (a hand-made page may
 * still stand for one, by its id).  Hand-made pages with no description
 * (the devices, the single solve) are listed here.  A new description therefore appears in
 * the sidebar with nothing added in src/gui. */
#pragma once

#include "ks-page.h"
#include "ks-sidebar.h"

G_BEGIN_DECLS

/* Creates every page, adds it to stack (named by its experiment id) and to
 * sidebar under its paper; returns the names in sidebar order. */
GPtrArray *ks_window_pages_build (GtkStack  *stack,
                                  KsSidebar *sidebar);

/* The page delta pages away from current in names (sidebar order), going
 * round from the last page to the first and back; current itself where
 * names has no other page, NULL where it lacks current. */
const char *ks_window_pages_step     (GPtrArray  *names,
                                      const char *current,
                                      int         delta);
/* The first page of paper's group ("000") in names, or NULL. */
const char *ks_window_pages_first_of (GPtrArray  *names,
                                      KsSidebar  *sidebar,
                                      const char *paper);

G_END_DECLS
