/* SPDX-License-Identifier: GPL-3.0-or-later */
/* F1 and the page keys in the real window under Xvfb: every page of the
 * window has help (a generic page its description's controls and the
 * paper's paragraph); F1 opens it in a dialog that scrolls and fits
 * 1024 x 768, Escape closes it; Ctrl+Page Down and Up walk the sidebar's
 * pages, round at the ends, also from a focused spin button; Alt+1..5
 * show each paper's first page and Alt+0 the devices; no two actions share
 * a key.  Under LANGUAGE=ru (test-gui-help-ru) the help is Russian. */
#define G_LOG_DOMAIN "test-gui-help"

#include "test-gui-util.h"
#include "ks-experiment-page.h"
#include "ks-help-dialog.h"
#include "ks-page-help.h"
#include "ks-test-help-util.h"
#include "ks-sidebar.h"

#include <glib/gi18n.h>
#include <string.h>

/* The window's pages in sidebar order (the stack's, which the sidebar
 * follows). */
static GPtrArray *
page_names (void)
{
  GtkWidget *stack = gtk_widget_get_parent (GTK_WIDGET (ks_window_get_visible_page (window)));
  g_autoptr(GList) children = gtk_container_get_children (GTK_CONTAINER (stack));
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = children; l; l = l->next)
    {
      char *name = NULL;

      gtk_container_child_get (GTK_CONTAINER (stack), l->data, "name", &name, NULL);
      g_ptr_array_add (names, name);
    }
  g_assert_cmpuint (names->len, >, 5);
  return names;
}

static const char *
visible_name (void)
{
  GtkWidget *page = GTK_WIDGET (ks_window_get_visible_page (window));
  return gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_parent (page)));
}

static const char *expected_page;

static gboolean
expected_shown (void)
{
  return g_strcmp0 (visible_name (), expected_page) == 0;
}

/* A key to the window, and the page it should show: the X server and a
 * page's first showing take their time on a loaded machine. */
static void
press_expect (guint           keyval,
              GdkModifierType mods,
              const char     *page)
{
  press_key (keyval, mods);
  expected_page = page;
  if (!wait_for (expected_shown, 10))
    g_error ("%s%s shows %s, not %s", mods & GDK_CONTROL_MASK ? "Ctrl+" : mods & GDK_MOD1_MASK ? "Alt+" : "",
             gdk_keyval_name (keyval), visible_name (), page);
}

/* The first mapped, sensitive widget of type under widget. */
static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type) && gtk_widget_get_mapped (widget)
      && gtk_widget_is_sensitive (widget))
    return widget;
  if (GTK_IS_CONTAINER (widget))
    {
      g_autoptr(GList) children = gtk_container_get_children (GTK_CONTAINER (widget));

      for (GList *l = children; l; l = l->next)
        {
          GtkWidget *found = find_widget (l->data, type);
          if (found != NULL)
            return found;
        }
    }
  return NULL;
}

static KsHelpDialog *
help_dialog (void)
{
  GList *all = gtk_window_list_toplevels ();
  KsHelpDialog *found = NULL;

  for (GList *l = all; l && !found; l = l->next)
    if (KS_IS_HELP_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (all);
  return found;
}

static gboolean
help_shown (void)
{
  return help_dialog () != NULL;
}

static gboolean
help_gone (void)
{
  return help_dialog () == NULL;
}

/* --- every page has help ------------------------------------------------------ */

static void
test_every_page (void)
{
  g_autoptr(GPtrArray) names = page_names ();

  for (guint i = 0; i < names->len; i++)
    {
      KsPage *page = ks_window_get_page (window, names->pdata[i]);
      g_autofree char *markup = ks_help_dialog_page_markup (page, names->pdata[i]);
      g_autofree char *text = NULL;

      if (markup == NULL)
        g_error ("the page %s has no help", (char *) names->pdata[i]);
      g_assert_true (pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL));
      ks_test_assert_has (text, _("Controls"));
      if (KS_IS_EXPERIMENT_PAGE (page))
        {
          const KsExperimentDesc *desc = ks_experiment_page_get_desc (KS_EXPERIMENT_PAGE (page));

          for (guint p = 0; p < desc->n_params; p++)
            ks_test_assert_has (text, _(desc->params[p].label));
          ks_test_assert_has (text, ks_page_help_paper (desc->paper));
        }
    }
}

/* --- F1 ------------------------------------------------------------------------- */

static void
press_on (GtkWidget      *toplevel,
          guint           keyval,
          GdkModifierType mods)
{
  GdkWindow *w = gtk_widget_get_window (toplevel);

  g_assert_true (gdk_test_simulate_key (w, -1, -1, keyval, mods, GDK_KEY_PRESS));
  g_assert_true (gdk_test_simulate_key (w, -1, -1, keyval, mods, GDK_KEY_RELEASE));
}

/* F1 on page name: the dialog, its text checked by check (longer than
 * the dialog where scrolls), closed by Escape. */
static void
f1_on (const char *name,
       gboolean    scrolls,
       void      (*check) (const char *text, KsPage *page))
{
  KsHelpDialog *dialog;
  GtkWidget *scroller;
  GtkAdjustment *adj;
  int w, h;

  ks_window_show_page (window, name);
  spin (100);
  press_key (GDK_KEY_F1, 0);
  g_assert_true (wait_for (help_shown, 10));
  dialog = help_dialog ();
  spin (200);
  check (ks_help_dialog_get_text (dialog), ks_window_get_page (window, name));
  /* A projector's screen holds it, and the text scrolls inside. */
  gtk_window_get_size (GTK_WINDOW (dialog), &w, &h);
  g_assert_cmpint (w, <=, 1024);
  g_assert_cmpint (h, <=, 768 - 80);
  scroller = find_widget (GTK_WIDGET (dialog), GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scroller);
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  if (scrolls)
    g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
  {
    g_autofree char *shot = g_strdup_printf ("help-%s", name);
    ks_test_shot (shot);
  }
  press_on (GTK_WIDGET (dialog), GDK_KEY_Escape, 0);
  g_assert_true (wait_for (help_gone, 10));
  /* Escape closed the help only: the page is still the one shown. */
  g_assert_cmpstr (visible_name (), ==, name);
}

static void
check_generic (const char *text,
               KsPage     *page)
{
  const KsExperimentDesc *desc = ks_experiment_page_get_desc (KS_EXPERIMENT_PAGE (page));

  g_assert_true (KS_IS_EXPERIMENT_PAGE (page));
  for (guint p = 0; p < desc->n_params; p++)
    {
      ks_test_assert_has (text, _(desc->params[p].label));
      if (desc->params[p].help)
        ks_test_assert_has (text, _(desc->params[p].help));
    }
  ks_test_assert_has (text, ks_page_help_paper (desc->paper));
  /* The figure's marks: the ring of the best and the predicted optimum. */
  ks_test_assert_has (text, _("predicted group size, usable"));
  ks_test_assert_has (text, _(desc->figures[0].title));
  ks_test_assert_has (text, _("Marks and colours"));
  if (ks_test_russian ())
    /* The help's own words are translated, not only the description's. */
    g_assert_cmpstr (_("Marks and colours"), !=, "Marks and colours");
}

static void
check_devices (const char *text,
               KsPage     *page)
{
  ks_test_assert_has (text, _("Devices"));
  ks_test_assert_has (text, _("What the page shows"));
}

static void
test_f1 (void)
{
  f1_on ("gauss-wg", TRUE, check_generic);
  f1_on ("devices", FALSE, check_devices);
}

/* --- keys ------------------------------------------------------------------------ */

static void
test_walk (void)
{
  g_autoptr(GPtrArray) names = page_names ();
  const char *last = names->pdata[names->len - 1];

  ks_window_show_page (window, names->pdata[0]);
  spin (100);
  press_expect (GDK_KEY_Page_Down, GDK_CONTROL_MASK, names->pdata[1]);
  press_expect (GDK_KEY_Page_Down, GDK_CONTROL_MASK, names->pdata[2]);
  press_expect (GDK_KEY_Page_Up, GDK_CONTROL_MASK, names->pdata[1]);
  press_expect (GDK_KEY_Page_Up, GDK_CONTROL_MASK, names->pdata[0]);
  /* Round at the ends. */
  press_expect (GDK_KEY_Page_Up, GDK_CONTROL_MASK, last);
  press_expect (GDK_KEY_Page_Down, GDK_CONTROL_MASK, names->pdata[0]);
}

/* A spin button with the focus takes Page Up and Down (its own steps), but
 * not with Ctrl: that still walks the pages, and its value stays. */
static void
test_walk_from_spin (void)
{
  g_autoptr(GPtrArray) names = page_names ();
  guint i;
  GtkWidget *spin_button;
  double value;

  g_assert_true (g_ptr_array_find_with_equal_func (names, "gauss-wg", g_str_equal, &i));
  g_assert_cmpuint (i + 1, <, names->len);
  ks_window_show_page (window, "gauss-wg");
  spin (200);
  spin_button = find_widget (GTK_WIDGET (ks_window_get_page (window, "gauss-wg")), GTK_TYPE_SPIN_BUTTON);
  g_assert_nonnull (spin_button);
  gtk_widget_grab_focus (spin_button);
  spin (100);
  g_assert_true (gtk_widget_has_focus (spin_button));
  value = gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin_button));
  press_expect (GDK_KEY_Page_Down, GDK_CONTROL_MASK, names->pdata[i + 1]);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin_button)), ==, value);

  ks_window_show_page (window, "gauss-wg");
  spin (100);
  gtk_widget_grab_focus (spin_button);
  spin (100);
  press_expect (GDK_KEY_Page_Up, GDK_CONTROL_MASK, names->pdata[i - 1]);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin_button)), ==, value);
}

static void
test_papers (void)
{
  g_autoptr(GPtrArray) names = page_names ();
  KsSidebar *sidebar = KS_SIDEBAR (find_widget (GTK_WIDGET (window), KS_TYPE_SIDEBAR));
  const char *papers[] = { "000", "001", "002", "003", "004" };

  g_assert_nonnull (sidebar);
  for (guint p = 0; p < G_N_ELEMENTS (papers); p++)
    {
      const char *first = NULL;

      for (guint i = 0; i < names->len && first == NULL; i++)
        if (g_strcmp0 (ks_sidebar_get_page_group (sidebar, names->pdata[i]), papers[p]) == 0)
          first = names->pdata[i];
      g_assert_nonnull (first);
      /* From a page of another paper. */
      ks_window_show_page (window, "devices");
      press_expect (GDK_KEY_1 + p, GDK_MOD1_MASK, first);
    }
  /* The single solve is paper 000's first page, as the sidebar shows. */
  press_expect (GDK_KEY_1, GDK_MOD1_MASK, "gauss-solve");
  press_expect (GDK_KEY_0, GDK_MOD1_MASK, "devices");
}

/* Every accelerator still there, and none taken by two actions. */
static void
test_accels_unique (void)
{
  g_auto(GStrv) actions = gtk_application_list_action_descriptions (GTK_APPLICATION (app));
  const char *kept[] = { "win.run", "win.stop", "win.help", "app.quit", "win.export", "win.copy-plot",
                         "win.open-session", "win.save-session", "win.primary-menu", "win.show-controls",
                         "win.fullscreen", "win.page-next", "win.page-previous" };

  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    g_assert_true (g_strv_contains ((const char * const *) actions, kept[i]));
  for (guint i = 0; actions[i]; i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), actions[i]);

      for (guint a = 0; accels[a]; a++)
        {
          g_auto(GStrv) users = gtk_application_get_actions_for_accel (GTK_APPLICATION (app), accels[a]);

          if (g_strv_length (users) != 1)
            g_error ("%s is taken by %u actions", accels[a], g_strv_length (users));
        }
    }
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;
  g_test_add_func ("/gui-help/every-page", test_every_page);
  g_test_add_func ("/gui-help/f1", test_f1);
  g_test_add_func ("/gui-help/walk", test_walk);
  g_test_add_func ("/gui-help/walk-from-spin", test_walk_from_spin);
  g_test_add_func ("/gui-help/papers", test_papers);
  g_test_add_func ("/gui-help/accels-unique", test_accels_unique);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
