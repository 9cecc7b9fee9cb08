/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-application.h"

#include <glib/gi18n.h>
#include "ks-gui-paths.h"
#include "ks-window.h"
#include "ks-gui-resources.h"

struct _KsApplication {
  GtkApplication parent_instance;

  KsDeviceList  *devices;
  GSettings     *settings;
};

G_DEFINE_TYPE (KsApplication, ks_application, GTK_TYPE_APPLICATION)

static KsWindow *
get_window (KsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (ks_window_new (GTK_APPLICATION (self), self->devices, self->settings));
    }
  return KS_WINDOW (window);
}

static void
ks_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (get_window (KS_APPLICATION (app))));
}

static void
ks_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  KsWindow *window = get_window (KS_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      g_autoptr(GError) error = NULL;

      if (path == NULL || !ks_window_load_session (window, path, &error))
        ks_window_show_error (window, _("Could not open the session"), error);
    }
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  KsApplication *self = user_data;
  const char *authors[] = { "The Kernelscope team", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (GTK_APPLICATION (self)),
                         "program-name", _("Kernelscope"),
                         "logo-icon-name", "org.kernelscope.Kernelscope",
                         "version", PACKAGE_VERSION,
                         "comments", _("See how GPU programs behave: the experiments of five "
                                       "papers on GPU computing, live on your own devices."),
                         "website", "https://kernelscope.org",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         /* TRANSLATORS: your name(s), one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (user_data));

  /* Through delete-event, so the window saves its size and stops a run. */
  for (GList *l = windows; l; l = l->next)
    gtk_window_close (l->data);
}

static void
dark_style_changed (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  KsApplication *self = user_data;
  gboolean dark = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "dark-style", dark);
}

static const GActionEntry app_actions[] = {
  { "about", about_activated },
  { "quit", quit_activated },
  { "dark-style", NULL, NULL, "false", dark_style_changed },
};

static void
ks_application_startup (GApplication *app)
{
  KsApplication *self = KS_APPLICATION (app);
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();
  const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit",            { "<Control>q", NULL } },
    { "win.run",             { "<Control>r", "F5", NULL } },
    { "win.stop",            { "Escape", NULL } },
    { "win.export",          { "<Control>e", NULL } },
    { "win.copy-plot",       { "<Control><Shift>c", NULL } },
    { "win.open-session",    { "<Control>o", NULL } },
    { "win.save-session",    { "<Control>s", NULL } },
    { "win.help",            { "F1", NULL } },
    { "win.primary-menu",    { "F10", NULL } },
    { "win.show-controls",   { "F9", NULL } },
    { "win.fullscreen",      { "F11", NULL } },
    { "win.page-previous",   { "<Control>Page_Up", "<Control>KP_Page_Up", NULL } },
    { "win.page-next",       { "<Control>Page_Down", "<Control>KP_Page_Down", NULL } },
    /* Alt+1..5: each paper's first page; the devices, above the papers, 0. */
    { "win.show-page::devices", { "<Alt>0", NULL } },
    { "win.show-paper::000", { "<Alt>1", NULL } },
    { "win.show-paper::001", { "<Alt>2", NULL } },
    { "win.show-paper::002", { "<Alt>3", NULL } },
    { "win.show-paper::003", { "<Alt>4", NULL } },
    { "win.show-paper::004", { "<Alt>5", NULL } },
  };

  ks_gui_register_resource ();
  G_APPLICATION_CLASS (ks_application_parent_class)->startup (app);

  g_set_application_name (_("Kernelscope"));
  gtk_window_set_default_icon_name ("org.kernelscope.Kernelscope");
  gtk_css_provider_load_from_resource (css, "/org/kernelscope/Kernelscope/style.css");
  gtk_style_context_add_provider_for_screen (gdk_screen_get_default (), GTK_STYLE_PROVIDER (css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  /* The app icon ships in the resource bundle too, for the About dialog of
   * an uninstalled build. */
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_default (), "/org/kernelscope/Kernelscope/icons");

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  self->settings = ks_gui_settings_new ();
  if (self->settings != NULL && g_settings_get_boolean (self->settings, "dark-style"))
    g_action_change_state (g_action_map_lookup_action (G_ACTION_MAP (app), "dark-style"),
                           g_variant_new_boolean (TRUE));
  /* Enumerating probes each OpenCL device with a tiny kernel; done once. */
  self->devices = ks_device_list_new ();
}

static void
ks_application_dispose (GObject *object)
{
  KsApplication *self = KS_APPLICATION (object);

  g_clear_object (&self->devices);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (ks_application_parent_class)->dispose (object);
}

static void
ks_application_class_init (KsApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = ks_application_dispose;
  app_class->startup = ks_application_startup;
  app_class->activate = ks_application_activate;
  app_class->open = ks_application_open;
}

static void
ks_application_init (KsApplication *self)
{
}

KsApplication *
ks_application_new (void)
{
  return g_object_new (KS_TYPE_APPLICATION,
                       "application-id", "org.kernelscope.Kernelscope",
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/org/kernelscope/Kernelscope",
                       NULL);
}

KsDeviceList *
ks_application_get_device_list (KsApplication *self)
{
  return self->devices;
}
