/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui-sidebar"

#include "ks-sidebar.h"

#include <glib/gi18n.h>
#include <string.h>

struct _KsSidebar {
  GtkScrolledWindow parent_instance;

  GtkWidget  *list;
  GtkStack   *stack;
  GHashTable *collapsed;   /* group id -> itself, for the folded groups */
  gboolean    syncing;     /* the selection follows the stack, not the other way */
};

G_DEFINE_TYPE (KsSidebar, ks_sidebar, GTK_TYPE_SCROLLED_WINDOW)

/* Rows carry their group ("ks-group") and, for a page row, the stack
 * child's name ("ks-page"); a header row has no page. */
static const char *
row_group (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "ks-group");
}

static const char *
row_page (GtkListBoxRow *row)
{
  return g_object_get_data (G_OBJECT (row), "ks-page");
}

static gboolean
filter_func (GtkListBoxRow *row,
             gpointer       user_data)
{
  KsSidebar *self = user_data;
  const char *group = row_group (row);

  /* Headers always show; a page shows unless its group is folded. */
  if (row_page (row) == NULL || group == NULL)
    return TRUE;
  return !g_hash_table_contains (self->collapsed, group);
}

static GtkListBoxRow *
find_row (KsSidebar  *self,
          const char *page,
          const char *group)
{
  g_autoptr(GList) rows = gtk_container_get_children (GTK_CONTAINER (self->list));

  for (GList *l = rows; l != NULL; l = l->next)
    {
      GtkListBoxRow *row = l->data;

      if (page != NULL && g_strcmp0 (row_page (row), page) == 0)
        return row;
      if (page == NULL && row_page (row) == NULL && g_strcmp0 (row_group (row), group) == 0)
        return row;
    }
  return NULL;
}

static void
update_arrow (KsSidebar     *self,
              GtkListBoxRow *header)
{
  GtkWidget *arrow = g_object_get_data (G_OBJECT (header), "ks-arrow");
  gboolean folded = g_hash_table_contains (self->collapsed, row_group (header));

  if (arrow == NULL)
    return;
  gtk_image_set_from_icon_name (GTK_IMAGE (arrow), folded ? "pan-end-symbolic" : "pan-down-symbolic",
                                GTK_ICON_SIZE_BUTTON);
  /* Screen readers hear the state, as they would from an expander. */
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (header)),
                              folded ? _("Folded: activate to show its pages")
                                     : _("Unfolded: activate to hide its pages"));
}

void
ks_sidebar_set_expanded (KsSidebar  *self,
                         const char *group,
                         gboolean    expanded)
{
  GtkListBoxRow *header;

  g_return_if_fail (KS_IS_SIDEBAR (self));
  g_return_if_fail (group != NULL);

  if (expanded)
    g_hash_table_remove (self->collapsed, group);
  else
    g_hash_table_add (self->collapsed, g_strdup (group));
  header = find_row (self, NULL, group);
  if (header != NULL)
    update_arrow (self, header);
  gtk_list_box_invalidate_filter (GTK_LIST_BOX (self->list));
}

gboolean
ks_sidebar_get_expanded (KsSidebar  *self,
                         const char *group)
{
  g_return_val_if_fail (KS_IS_SIDEBAR (self), FALSE);
  return !g_hash_table_contains (self->collapsed, group);
}

GStrv
ks_sidebar_get_folded (KsSidebar *self)
{
  g_autoptr(GStrvBuilder) folded = g_strv_builder_new ();
  g_autoptr(GList) rows = NULL;

  g_return_val_if_fail (KS_IS_SIDEBAR (self), NULL);
  rows = gtk_container_get_children (GTK_CONTAINER (self->list));
  /* In the sidebar's order, so the settings read the same each time. */
  for (GList *l = rows; l != NULL; l = l->next)
    if (row_page (l->data) == NULL && g_hash_table_contains (self->collapsed, row_group (l->data)))
      g_strv_builder_add (folded, row_group (l->data));
  return g_strv_builder_end (folded);
}

void
ks_sidebar_set_folded (KsSidebar          *self,
                       const char * const *groups)
{
  g_autoptr(GList) rows = NULL;

  g_return_if_fail (KS_IS_SIDEBAR (self));
  rows = gtk_container_get_children (GTK_CONTAINER (self->list));
  for (GList *l = rows; l != NULL; l = l->next)
    if (row_page (l->data) == NULL && row_group (l->data) != NULL)
      ks_sidebar_set_expanded (self, row_group (l->data),
                               groups == NULL || !g_strv_contains (groups, row_group (l->data)));
}

const char *
ks_sidebar_get_page_group (KsSidebar  *self,
                           const char *name)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (KS_IS_SIDEBAR (self), NULL);
  row = find_row (self, name, NULL);
  return row != NULL ? row_group (row) : NULL;
}

gboolean
ks_sidebar_page_visible (KsSidebar  *self,
                         const char *name)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (KS_IS_SIDEBAR (self), FALSE);
  row = find_row (self, name, NULL);
  return row != NULL && gtk_widget_get_child_visible (GTK_WIDGET (row));
}

static void
row_activated_cb (KsSidebar     *self,
                  GtkListBoxRow *row)
{
  const char *group = row_group (row);

  if (row_page (row) == NULL && group != NULL)
    ks_sidebar_set_expanded (self, group, !ks_sidebar_get_expanded (self, group));
}

static void
row_selected_cb (KsSidebar     *self,
                 GtkListBoxRow *row)
{
  if (self->syncing || row == NULL || row_page (row) == NULL || self->stack == NULL)
    return;
  gtk_stack_set_visible_child_name (self->stack, row_page (row));
}

/* The stack changed page (a session opened, Alt+number, the tests): select
 * its row, unfolding its group so the user sees where they are. */
static void
stack_child_cb (KsSidebar *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);
  GtkListBoxRow *row = name ? find_row (self, name, NULL) : NULL;

  if (row == NULL)
    return;
  if (row_group (row) != NULL && !ks_sidebar_get_expanded (self, row_group (row)))
    ks_sidebar_set_expanded (self, row_group (row), TRUE);
  self->syncing = TRUE;
  gtk_list_box_select_row (GTK_LIST_BOX (self->list), row);
  self->syncing = FALSE;
}

void
ks_sidebar_set_stack (KsSidebar *self,
                      GtkStack  *stack)
{
  g_return_if_fail (KS_IS_SIDEBAR (self));
  g_return_if_fail (self->stack == NULL);

  self->stack = stack;
  g_signal_connect_object (stack, "notify::visible-child", G_CALLBACK (stack_child_cb), self,
                           G_CONNECT_SWAPPED);
}

static GtkWidget *
small_label (const char *text,
             const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_style_context_add_class (gtk_widget_get_style_context (label), style);
  return label;
}

void
ks_sidebar_add_group (KsSidebar  *self,
                      const char *id,
                      const char *title,
                      const char *note)
{
  GtkWidget *row, *box, *text, *heading, *arrow;
  const char *colon;
  g_autofree char *head = NULL;
  g_autofree char *tip = NULL;

  g_return_if_fail (KS_IS_SIDEBAR (self));
  g_return_if_fail (id != NULL && title != NULL);

  /* "Baranov & Vlatskaya (2013): work-group size and ..." shows as the
   * authors in bold and the subject under it, which reads in a narrow
   * column; the whole title is the tooltip. */
  colon = strstr (title, ": ");
  head = colon ? g_strdup_printf ("%s  %.*s", id, (int) (colon - title), title)
               : g_strdup_printf ("%s  %s", id, title);
  row = gtk_list_box_row_new ();
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 1);
  heading = gtk_label_new (head);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_ellipsize (GTK_LABEL (heading), PANGO_ELLIPSIZE_END);
  gtk_style_context_add_class (gtk_widget_get_style_context (heading), "sidebar-group-title");
  gtk_container_add (GTK_CONTAINER (text), heading);
  if (colon != NULL)
    gtk_container_add (GTK_CONTAINER (text), small_label (colon + 2, "sidebar-group-subject"));
  if (note != NULL)
    gtk_container_add (GTK_CONTAINER (text), small_label (note, "sidebar-group-note"));
  arrow = gtk_image_new ();
  gtk_widget_set_valign (arrow, GTK_ALIGN_START);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_container_add (GTK_CONTAINER (box), text);
  gtk_container_add (GTK_CONTAINER (box), arrow);
  gtk_container_add (GTK_CONTAINER (row), box);
  gtk_style_context_add_class (gtk_widget_get_style_context (row), "sidebar-group");
  tip = note ? g_strdup_printf ("%s\n%s", title, note) : g_strdup (title);
  gtk_widget_set_tooltip_text (row, tip);
  atk_object_set_name (gtk_widget_get_accessible (row), title);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  /* A paper with no page yet has nothing to fold: its header only says
   * what is coming. */
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), note == NULL);
  if (note != NULL)
    gtk_widget_hide (arrow);
  g_object_set_data_full (G_OBJECT (row), "ks-group", g_strdup (id), g_free);
  g_object_set_data (G_OBJECT (row), "ks-arrow", note == NULL ? arrow : NULL);
  gtk_widget_show_all (row);
  if (note != NULL)
    gtk_widget_hide (arrow);
  gtk_container_add (GTK_CONTAINER (self->list), row);
  update_arrow (self, GTK_LIST_BOX_ROW (row));
}

void
ks_sidebar_add_page (KsSidebar  *self,
                     const char *group,
                     const char *name,
                     const char *title)
{
  GtkWidget *row, *label;

  g_return_if_fail (KS_IS_SIDEBAR (self));
  g_return_if_fail (name != NULL && title != NULL);

  row = gtk_list_box_row_new ();
  label = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* A long title (in Russian, most are) takes a second line rather than
   * losing its end. */
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 22);
  gtk_widget_set_tooltip_text (row, title);
  gtk_container_add (GTK_CONTAINER (row), label);
  gtk_style_context_add_class (gtk_widget_get_style_context (row),
                               group != NULL ? "sidebar-page" : "sidebar-top-page");
  g_object_set_data_full (G_OBJECT (row), "ks-group", g_strdup (group), g_free);
  g_object_set_data_full (G_OBJECT (row), "ks-page", g_strdup (name), g_free);
  gtk_widget_show_all (row);
  gtk_container_add (GTK_CONTAINER (self->list), row);
  if (self->stack != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), name) == 0)
    stack_child_cb (self);
}

static void
ks_sidebar_finalize (GObject *object)
{
  KsSidebar *self = KS_SIDEBAR (object);

  g_clear_pointer (&self->collapsed, g_hash_table_unref);
  G_OBJECT_CLASS (ks_sidebar_parent_class)->finalize (object);
}

static void
ks_sidebar_class_init (KsSidebarClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ks_sidebar_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "kssidebar");
}

static void
ks_sidebar_init (KsSidebar *self)
{
  self->collapsed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_BROWSE);
  gtk_list_box_set_filter_func (GTK_LIST_BOX (self->list), filter_func, self, NULL);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->list), "sidebar");
  atk_object_set_name (gtk_widget_get_accessible (self->list), _("Experiments by paper"));
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  g_signal_connect_swapped (self->list, "row-selected", G_CALLBACK (row_selected_cb), self);
  gtk_widget_show (self->list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (self), self->list);
}
