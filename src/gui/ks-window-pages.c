/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-window-pages.h"

#include <glib/gi18n.h>

#include "ks-devices-page.h"
#include "ks-experiment-page.h"
#include "ks-gauss-solve-page.h"
#include "ks-index-map-page.h"
#include "ks-heat-page.h"
#include "ks-roofline-page.h"
#include "ks-tridiag-solve-page.h"
#include "ks-registry.h"
#include "ks-session.h"

/* The widget of each hand-made page; which pages there are, their titles
 * and groups come from the session's table (ks_session_hand_made_pages),
 * which a session reads them by.  A name the registry also has would
 * stand in for that description's generic page (none does: the Gauss
 * sweeps moved onto it). */
static const struct {
  const char *name;
  GType     (*get_type) (void);
} page_types[] = {
  { "devices",       ks_devices_page_get_type },
  { "roofline",      ks_roofline_page_get_type },
  { "gauss-solve",   ks_gauss_solve_page_get_type },
  { "index-map",     ks_index_map_page_get_type },
  { "heat-live",     ks_heat_page_get_type },
  { "tridiag-solve", ks_tridiag_solve_page_get_type },
};

static int
find_hand_made (const char *name)
{
  guint n;
  const KsHandMadePage *pages = ks_session_hand_made_pages (&n);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (pages[i].id, name) == 0)
      return i;
  return -1;
}

static GType
page_type (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (page_types); i++)
    if (g_strcmp0 (page_types[i].name, name) == 0)
      return page_types[i].get_type ();
  /* A page in the table without a widget is a programming error caught
   * by every GUI test at start-up. */
  g_error ("hand-made page %s has no widget type in page_types[]", name);
}

static void
add_page (GtkStack   *stack,
          KsSidebar  *sidebar,
          GPtrArray  *names,
          GtkWidget  *page,
          const char *group,
          const char *name,
          const char *title)
{
  gtk_widget_show (page);
  gtk_stack_add_titled (stack, page, name, title);
  ks_sidebar_add_page (sidebar, group, name, title);
  g_ptr_array_add (names, g_strdup (name));
}

static void
add_hand_made (GtkStack  *stack,
               KsSidebar *sidebar,
               GPtrArray *names,
               guint      i)
{
  guint n;
  const KsHandMadePage *page = &ks_session_hand_made_pages (&n)[i];

  add_page (stack, sidebar, names, g_object_new (page_type (page->id), NULL), page->paper, page->id,
            _(page->title));
}

/* The paper's pages: its hand-made pages without a description first (the
 * single solve before the sweeps), then every description in registry
 * order, hand-made where one stands for it. */
static void
add_group_pages (GtkStack           *stack,
                 KsSidebar          *sidebar,
                 GPtrArray          *names,
                 const char         *paper,
                 const KsPaperGroup *group)
{
  guint n;
  const KsHandMadePage *pages = ks_session_hand_made_pages (&n);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (pages[i].paper, paper) == 0
        && (group == NULL || !g_ptr_array_find_with_equal_func (names, pages[i].id, g_str_equal, NULL)))
      {
        gboolean described = FALSE;

        for (guint e = 0; group != NULL && e < group->experiments->len; e++)
          described |= g_strcmp0 (((const KsExperimentDesc *) group->experiments->pdata[e])->id,
                                  pages[i].id) == 0;
        if (!described)
          add_hand_made (stack, sidebar, names, i);
      }
  for (guint e = 0; group != NULL && e < group->experiments->len; e++)
    {
      const KsExperimentDesc *desc = group->experiments->pdata[e];
      int h = find_hand_made (desc->id);

      if (h >= 0)
        add_hand_made (stack, sidebar, names, h);
      else
        add_page (stack, sidebar, names, ks_experiment_page_new (desc), paper, desc->id, _(desc->title));
    }
}

GPtrArray *
ks_window_pages_build (GtkStack  *stack,
                       KsSidebar *sidebar)
{
  g_autoptr(GPtrArray) groups = ks_registry_list_papers ();
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint n;
  const KsHandMadePage *pages = ks_session_hand_made_pages (&n);

  g_return_val_if_fail (GTK_IS_STACK (stack), NULL);
  g_return_val_if_fail (KS_IS_SIDEBAR (sidebar), NULL);

  for (guint i = 0; i < n; i++)
    if (pages[i].paper == NULL)
      add_hand_made (stack, sidebar, names, i);
  /* Every paper of the course, one without experiments yet saying what
   * is coming, and any other a description names (a test's). */
  for (guint g = 0; g < groups->len; g++)
    {
      const KsPaperGroup *group = groups->pdata[g];
      gboolean empty = group->experiments->len == 0 && group->coming != NULL;

      /* A paper with a hand-made page but no description yet is not empty. */
      for (guint i = 0; i < n; i++)
        empty &= g_strcmp0 (pages[i].paper, group->id) != 0;
      ks_sidebar_add_group (sidebar, group->id, group->title ? _(group->title) : group->id,
                            empty ? _(group->coming) : NULL);
      add_group_pages (stack, sidebar, names, group->id, group);
    }
  return names;
}

const char *
ks_window_pages_step (GPtrArray  *names,
                      const char *current,
                      int         delta)
{
  guint i;

  g_return_val_if_fail (names != NULL, NULL);

  if (current == NULL || !g_ptr_array_find_with_equal_func (names, current, g_str_equal, &i))
    return NULL;
  /* Round, so a class can be shown every page with one key. */
  delta %= (int) names->len;
  return names->pdata[(i + names->len + delta) % names->len];
}

const char *
ks_window_pages_first_of (GPtrArray  *names,
                          KsSidebar  *sidebar,
                          const char *paper)
{
  g_return_val_if_fail (names != NULL, NULL);
  g_return_val_if_fail (KS_IS_SIDEBAR (sidebar), NULL);

  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (ks_sidebar_get_page_group (sidebar, names->pdata[i]), paper) == 0)
      return names->pdata[i];
  return NULL;
}
