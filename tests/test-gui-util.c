/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "test-gui-util.h"
#include "ks-param-form.h"

#include <gdk/gdkx.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>

#include "ks-gui-paths.h"

KsApplication *app;
KsWindow      *window;
char          *tmpdir;

void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  while (g_get_monotonic_time () < end)
    {
      /* Bounded by the time too: a source whose work outlasts its interval
       * (the heat page's 30 ms tick while it renders a frame for a
       * recording, or on a loaded machine) is always ready again, and
       * "until nothing is ready" never came. */
      while (g_get_monotonic_time () < end && g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (2000);
    }
}

gboolean
wait_for (gboolean (*cond) (void),
          guint      timeout_s)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_s * G_USEC_PER_SEC;

  while (!cond ())
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  spin (50);
  return TRUE;
}

gboolean
not_running (void)
{
  return !ks_window_get_running (window);
}

void
press_key (guint           keyval,
           GdkModifierType mods)
{
  GdkWindow *w = gtk_widget_get_window (GTK_WIDGET (window));

  g_assert_true (gdk_test_simulate_key (w, -1, -1, keyval, mods, GDK_KEY_PRESS));
  g_assert_true (gdk_test_simulate_key (w, -1, -1, keyval, mods, GDK_KEY_RELEASE));
  spin (100);
}

void
screenshot (const char *name)
{
  const char *dir = g_getenv ("KERNELSCOPE_SCREENSHOT_DIR");
  GdkWindow *w = gtk_widget_get_window (GTK_WIDGET (window));
  g_autoptr(GdkPixbuf) shot = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int x, y;

  if (dir == NULL || *dir == '\0')
    return;
  /* The pointer off the window, so no tooltip hides part of the page. */
  gdk_device_warp (gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())),
                   gdk_screen_get_default (), gdk_window_get_width (gdk_get_default_root_window ()) - 1,
                   gdk_window_get_height (gdk_get_default_root_window ()) - 1);
  spin (400);
  /* The frame as the X server has it, decorations of the header bar included. */
  gdk_window_get_origin (w, &x, &y);
  shot = gdk_pixbuf_get_from_window (gdk_get_default_root_window (), x, y,
                                     gdk_window_get_width (w), gdk_window_get_height (w));
  g_assert_nonnull (shot);
  g_mkdir_with_parents (dir, 0755);
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_pixbuf_save (shot, path, "png", &error, NULL));
  g_test_message ("screenshot %s", path);
}

guint
total_points (KsPlot *plot)
{
  guint n = 0;
  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    n += ks_plot_series_get_n_points (plot, s);
  return n;
}

typedef struct {
  GHashTable *keys;     /* keyval -> label text */
  GString    *clashes;
} Mnemonics;

static void
collect_cb (GtkWidget *widget,
            gpointer   data)
{
  Mnemonics *m = data;

  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      guint key = gtk_label_get_mnemonic_keyval (GTK_LABEL (widget));
      const char *text = gtk_label_get_label (GTK_LABEL (widget));
      const char *other;

      if (key != GDK_KEY_VoidSymbol)
        {
          other = g_hash_table_lookup (m->keys, GUINT_TO_POINTER (key));
          if (other != NULL)
            g_string_append_printf (m->clashes, "“%s” and “%s” share Alt+%s; ", other, text,
                                    gdk_keyval_name (key));
          else
            g_hash_table_insert (m->keys, GUINT_TO_POINTER (key), (gpointer) text);
        }
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_cb, data);
}

void
collect_mnemonics (GtkWidget  *widget,
                   GHashTable *keys,
                   GString    *clashes)
{
  Mnemonics m = { keys, clashes };
  collect_cb (widget, &m);
}

gboolean
ks_test_gui_init (int    *argc,
                  char ***argv)
{
  g_autoptr(GError) error = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, ks_gui_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  gtk_test_init (argc, argv, NULL);
  /* gtk_test_init() puts the locale back to "C"; the "ru" run needs the real one. */
  setlocale (LC_ALL, "");

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_print ("1..0 # SKIP needs an X server (run through run-xvfb.sh)\n");
      return FALSE;
    }
  tmpdir = g_dir_make_tmp ("ks-gui-XXXXXX", &error);
  g_assert_no_error (error);
  /* The window's widths are measured in text: "Sans" is whatever sans
   * font fontconfig prefers on this machine (a fresh machine with one more
   * font package measured the Russian window 1082 pixels wide where DejaVu
   * Sans gives 1019).  The tests measure with the font ./setup.sh
   * installs (fonts-dejavu-core), by name, whatever else is installed. */
  g_object_set (gtk_settings_get_default (), "gtk-font-name", "DejaVu Sans 10", NULL);
  /* Revealers (the info bar) open at once: measured mid-slide, a page's
   * checks saw the bar's box squeezed, or not, by the machine's load. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  app = ks_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_application_activate (G_APPLICATION (app));
  window = KS_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  gtk_window_resize (GTK_WINDOW (window), 1200, 780);
  spin (800);
  return TRUE;
}

void
ks_test_gui_shutdown (void)
{
  if (window != NULL)
    gtk_widget_destroy (GTK_WIDGET (window));
  g_object_unref (app);
}

void
ks_test_shot (const char *name)
{
  const char *lang = g_getenv ("LANGUAGE");
  g_autofree char *file = g_strdup_printf ("%s%s.png", name, lang && g_str_has_prefix (lang, "ru") ? "-ru" : "");

  screenshot (file);
}

gpointer
child_of (gpointer    widget,
          GType       type,
          const char *name)
{
  GObject *w = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (w);
  return w;
}

gboolean
ks_test_has_gpu (void)
{
  KsDeviceList *list = ks_application_get_device_list (app);

  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      const KsDeviceInfo *info = ks_device_get_info (ks_device_list_get_device (list, i));
      if (info->backend == KS_BACKEND_CUDA || info->type == KS_DEVICE_TYPE_GPU)
        return TRUE;
    }
  return FALSE;
}

const char *
ks_test_pocl_id (void)
{
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL);

  return d ? ks_device_get_id (d) : NULL;
}

static KsExperimentPage *running_page;

static gboolean
page_done (void)
{
  return !ks_page_get_running (KS_PAGE (running_page));
}

void
ks_test_run_page (KsExperimentPage   *page,
                  const char * const *settings)
{
  KsParamForm *form = ks_experiment_page_get_form (page);
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_window_set_device_id (window, ks_test_pocl_id ()));
  for (guint i = 0; settings[i]; i += 2)
    g_assert_true (ks_param_form_set_text (form, settings[i], settings[i + 1]));
  ks_experiment_page_set_repetitions (page, 0, 1);
  g_assert_true (ks_page_start (KS_PAGE (page), ks_window_get_device (window), NULL, &error));
  g_assert_no_error (error);
  running_page = page;
  g_assert_true (wait_for (page_done, 180));
}

KsPlot *
ks_test_page_plot (KsExperimentPage *page)
{
  return ks_plot_view_get_plot (ks_page_get_plot_view (KS_PAGE (page)));
}

KsExperimentPage *
ks_test_sweep_page (void)
{
  return KS_EXPERIMENT_PAGE (ks_window_get_page (window, "test-sweep"));
}

KsParamForm *
ks_test_sweep_form (void)
{
  return ks_experiment_page_get_form (ks_test_sweep_page ());
}

void
ks_test_sweep_set_field (const char *name,
                         const char *text)
{
  g_assert_true (ks_param_form_set_text (ks_test_sweep_form (), name, text));
}
