/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-window-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ks-devices-page.h"
#include "ks-help-dialog.h"
#include "ks-sidebar.h"
#include "ks-window-pages.h"

G_DEFINE_TYPE (KsWindow, ks_window, GTK_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_DEVICES, PROP_SETTINGS, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
set_action_enabled (KsWindow   *self,
                    const char *name,
                    gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

KsPage *
ks_window_get_visible_page (KsWindow *self)
{
  GtkWidget *child = gtk_stack_get_visible_child (GTK_STACK (self->stack));
  return child != NULL ? KS_PAGE (child) : NULL;
}

void
ks_window_update_actions (KsWindow *self)
{
  KsPage *page = ks_window_get_visible_page (self);
  gboolean running = self->running_page != NULL;
  KsPlotView *view = page ? ks_page_get_plot_view (page) : NULL;
  gboolean has_plot = view != NULL && ks_plot_view_has_data (view);

  KsDevicesPage *devices = KS_DEVICES_PAGE (ks_window_get_page (self, "devices"));
  gboolean measuring = devices != NULL && ks_devices_page_get_measuring (devices);

  /* One experiment on the devices at a time: a bandwidth probe and a sweep
   * side by side would skew each other's timings. */
  if (devices != NULL)
    ks_devices_page_set_run_active (devices, running);
  set_action_enabled (self, "run", !running && !measuring && page != NULL && ks_page_can_run (page)
                      && ks_window_get_device (self) != NULL);
  set_action_enabled (self, "stop", running);
  set_action_enabled (self, "export-plot", has_plot);
  set_action_enabled (self, "copy-plot", has_plot);
  set_action_enabled (self, "export-data", page != NULL && ks_page_has_data (page));
  set_action_enabled (self, "open-session", !running);
  gtk_widget_set_sensitive (self->device_combo, !running);
  gtk_widget_set_visible (self->stop_button, running);
  gtk_widget_set_visible (self->run_button, !running);
}

/* --- errors ------------------------------------------------------------ */

static void
show_message (KsWindow       *self,
              GtkMessageType  type,
              const char     *title,
              const char     *msg)
{
  const char *nl = strchr (msg, '\n');
  g_autofree char *first = nl ? g_strndup (msg, nl - msg) : g_strdup (msg);
  g_autofree char *details = nl ? g_strstrip (g_strdup (nl + 1)) : NULL;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->info_details));

  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  gtk_widget_set_visible (self->info_message, TRUE);
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->info_bar), type);
  gtk_label_set_text (GTK_LABEL (self->info_title), title);
  gtk_label_set_text (GTK_LABEL (self->info_message), first);
  /* A kernel build log or a list of causes goes under Details, where it can
   * be read and copied without pushing the plot off the screen. */
  gtk_text_buffer_set_text (buffer, details ? details : "", -1);
  gtk_widget_set_visible (self->info_details_expander, nl != NULL && nl[1] != '\0');
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), TRUE);

  g_free (self->error_text);
  self->error_text = g_strdup_printf ("%s\n%s", title, msg);
  self->error_page = NULL;
}

void
ks_window_show_error (KsWindow     *self,
                      const char   *title,
                      const GError *error)
{
  const char *msg = error ? error->message : "";
  gboolean cancelled = error && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  show_message (self, cancelled ? GTK_MESSAGE_INFO : GTK_MESSAGE_ERROR, title, msg);
  if (!cancelled)
    g_message ("%s: %s", title, msg);
}

static gboolean
notice_timeout_cb (gpointer data)
{
  KsWindow *self = data;

  self->notice_timeout = 0;
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), FALSE);
  return G_SOURCE_REMOVE;
}

void
ks_window_show_notice (KsWindow   *self,
                       const char *text)
{
  /* A quiet confirmation ("saved to …") in the same bar as the errors, so
   * the user sees where a file went; it goes away by itself, unlike an
   * error, which stays until it is read and closed. */
  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->info_bar), GTK_MESSAGE_INFO);
  gtk_label_set_text (GTK_LABEL (self->info_title), text);
  gtk_label_set_text (GTK_LABEL (self->info_message), "");
  gtk_widget_set_visible (self->info_message, FALSE);
  gtk_widget_set_visible (self->info_details_expander, FALSE);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), TRUE);
  g_free (self->error_text);
  self->error_text = g_strdup (text);
  self->error_page = NULL;
  self->notice_timeout = g_timeout_add_seconds (8, notice_timeout_cb, self);
}

const char *
ks_window_get_error_text (KsWindow *self)
{
  return gtk_info_bar_get_revealed (GTK_INFO_BAR (self->info_bar)) && self->error_text
    ? self->error_text : "";
}

void
ks_window_hide_error (KsWindow *self)
{
  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), FALSE);
}

static void
info_bar_response_cb (KsWindow *self,
                      int       response)
{
  ks_window_hide_error (self);
}

/* --- devices ------------------------------------------------------------ */

KsDevice *
ks_window_get_device (KsWindow *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->device_combo));
  return id ? ks_device_list_lookup (self->devices, id, NULL) : NULL;
}

gboolean
ks_window_set_device_id (KsWindow   *self,
                         const char *id)
{
  return gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->device_combo), id);
}

static void
device_combo_changed_cb (KsWindow *self)
{
  KsDevice *device = ks_window_get_device (self);

  if (device == NULL)
    return;
  {
    g_autofree char *name = gtk_combo_box_text_get_active_text (GTK_COMBO_BOX_TEXT (self->device_combo));
    g_autofree char *tip = g_strdup_printf (_("The device the experiments run on: %s"), name);
    gtk_widget_set_tooltip_text (self->device_combo, tip);
  }
  /* Only the user's choice is remembered: the first fill may fall back to
   * the default because the saved device is missing today (unplugged, a
   * driver not loaded), and must not make the app forget it for good. */
  if (self->settings != NULL && !self->filling_devices)
    g_settings_set_string (self->settings, "device", ks_device_get_id (device));
  for (guint i = 0; i < self->page_names->len; i++)
    ks_page_device_changed (ks_window_get_page (self, self->page_names->pdata[i]), device);
  ks_window_update_actions (self);
}

static void
devices_page_activated_cb (KsWindow *self,
                           KsDevice *device)
{
  if (self->running_page == NULL)
    ks_window_set_device_id (self, ks_device_get_id (device));
}

/* Says which device was asked for and which one the experiments use now,
 * instead of switching devices behind the user's back. */
void
ks_window_show_device_missing (KsWindow   *self,
                               const char *title,
                               const char *missing_id)
{
  KsDevice *used = ks_window_get_device (self);
  g_autofree char *text = used != NULL
    ? g_strdup_printf (_("“%s” was not found, so the experiments run on %s (%s) instead."),
                       missing_id, ks_device_get_name (used), ks_device_get_id (used))
    : g_strdup_printf (_("“%s” was not found."), missing_id);

  show_message (self, GTK_MESSAGE_INFO, title, text);
}

static void
fill_device_combo (KsWindow *self)
{
  g_autofree char *saved = self->settings ? g_settings_get_string (self->settings, "device") : NULL;
  guint n = ks_device_list_get_n_devices (self->devices);
  g_autoptr(GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (self->device_combo));

  /* A device's name is the driver's (PoCL's holds the CPU's whole model
   * name: 70 characters on a Xeon): ellipsized in the middle, the backend
   * at the end kept, so the header bar is as wide on every machine; the
   * tooltip has the whole name. */
  for (GList *l = cells; l != NULL; l = l->next)
    if (GTK_IS_CELL_RENDERER_TEXT (l->data))
      g_object_set (l->data, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, "width-chars", 32, "max-width-chars", 32, NULL);

  for (guint i = 0; i < n; i++)
    {
      KsDevice *d = ks_device_list_get_device (self->devices, i);
      const KsDeviceInfo *info = ks_device_get_info (d);
      g_autofree char *text = g_strdup_printf ("%s · %s", info->name,
                                               info->backend == KS_BACKEND_HOST
                                               ? _("host") : info->platform_name);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->device_combo), info->id, text);
    }
  /* The device used last time if it is still there; otherwise the list's
   * default: the first GPU, else the first OpenCL device (PoCL), else host. */
  self->filling_devices = TRUE;
  if (saved == NULL || *saved == '\0' || !ks_window_set_device_id (self, saved))
    {
      KsDevice *d = ks_device_list_get_default (self->devices, NULL);
      if (d != NULL)
        ks_window_set_device_id (self, ks_device_get_id (d));
      if (saved != NULL && *saved != '\0')
        ks_window_show_device_missing (self, _("The device used last time is not on this computer"), saved);
    }
  self->filling_devices = FALSE;
}

/* --- running ------------------------------------------------------------ */

gboolean
ks_window_get_running (KsWindow *self)
{
  return self->running_page != NULL;
}

static char *
format_duration (double seconds)
{
  if (seconds < 60)
    return g_strdup_printf (_("%.0f s"), MAX (seconds, 1));
  if (seconds < 3600)
    return g_strdup_printf (_("%.0f min %.0f s"), floor (seconds / 60), fmod (seconds, 60));
  return g_strdup_printf (_("%.0f h %.0f min"), floor (seconds / 3600), fmod (seconds, 3600) / 60);
}

static void
page_progress_cb (KsPage   *page,
                  guint     done,
                  guint     total,
                  double    work,
                  KsWindow *self)
{
  double elapsed = (g_get_monotonic_time () - self->run_started) / 1e6;
  g_autofree char *text = NULL;

  if (page != self->running_page)
    return;
  self->run_done = done;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), CLAMP (work, 0, 1));
  if (done > 0 && work > 0.005 && work < 1)
    {
      g_autofree char *left = format_duration (elapsed * (1 - work) / work);
      /* TRANSLATORS: "12 of 101 points · about 3 min 5 s left" */
      text = g_strdup_printf (_("%u of %u points · about %s left"), done, total, left);
    }
  else
    text = g_strdup_printf (_("%u of %u points"), done, total);
  gtk_label_set_text (GTK_LABEL (self->progress_label), text);
  ks_window_update_actions (self);
}

static void
page_finished_cb (KsPage       *page,
                  const GError *error,
                  KsWindow     *self)
{
  if (page != self->running_page)
    return;
  self->running_page = NULL;
  g_clear_object (&self->cancellable);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->progress_revealer), FALSE);

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GError) kept = NULL;

      if (self->run_done == 0)
        kept = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                    _("Stopped before the first point was finished, so nothing new was measured."));
      else
        kept = g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                            g_dngettext (GETTEXT_PACKAGE,
                                         "The %u point measured before the stop is kept.",
                                         "The %u points measured before the stop are kept.",
                                         self->run_done),
                            self->run_done);
      ks_window_show_error (self, _("Stopped"), kept);
    }
  else if (error != NULL)
    ks_window_show_error (self, _("The run stopped with an error"), error);
  if (error != NULL)
    self->error_page = page;
  ks_window_update_actions (self);
}

static void
run_activated (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  KsWindow *self = user_data;
  KsPage *page = ks_window_get_visible_page (self);
  KsDevice *device = ks_window_get_device (self);
  g_autoptr(GError) error = NULL;

  if (self->running_page != NULL || page == NULL || device == NULL)
    return;
  ks_window_hide_error (self);
  self->cancellable = g_cancellable_new ();
  self->running_page = page;
  self->run_started = g_get_monotonic_time ();
  self->run_done = 0;
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0);
  /* The first point of a GPU run waits for the kernels to compile; the
   * host has nothing to build. */
  gtk_label_set_text (GTK_LABEL (self->progress_label),
                      ks_device_get_backend (device) == KS_BACKEND_HOST
                      ? _("Starting…") : _("Building the kernels…"));
  if (!ks_page_start (page, device, self->cancellable, &error))
    {
      self->running_page = NULL;
      g_clear_object (&self->cancellable);
      if (error != NULL)
        {
          ks_window_show_error (self, _("Cannot start the run"), error);
          self->error_page = page;
        }
      ks_window_update_actions (self);
      return;
    }
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->progress_revealer), TRUE);
  /* Quitting mid-run cancels; the page holds the application until its
   * task is over, so the process waits for the solve in flight to return
   * from the device instead of exiting under it, and then exits. */
  ks_window_update_actions (self);
}

static void
stop_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  KsWindow *self = user_data;

  if (self->cancellable != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->progress_label), _("Stopping after this solve…"));
      g_cancellable_cancel (self->cancellable);
    }
}

/* --- pages -------------------------------------------------------------- */

KsPage *
ks_window_get_page (KsWindow   *self,
                    const char *name)
{
  GtkWidget *child = gtk_stack_get_child_by_name (GTK_STACK (self->stack), name);
  return child ? KS_PAGE (child) : NULL;
}

void
ks_window_show_page (KsWindow   *self,
                     const char *name)
{
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), name);
}

static void
stack_visible_child_cb (KsWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));

  if (self->settings != NULL && name != NULL)
    g_settings_set_string (self->settings, "page", name);
  /* A page's banner ("2 of 4 points could not be measured") is about that
   * page: another page shown, it goes (the table still says why). */
  if (self->error_page != NULL && self->error_page != ks_window_get_visible_page (self))
    {
      ks_window_hide_error (self);
      self->error_page = NULL;
    }
  ks_window_update_actions (self);
}

static void
page_plot_changed_cb (KsWindow *self)
{
  ks_window_update_actions (self);
}

static void
show_page_activated (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  ks_window_show_page (user_data, g_variant_get_string (param, NULL));
}

/* Alt+1..5: the first page of paper 000..004. */
static void
show_paper_activated (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  KsWindow *self = user_data;
  const char *name = ks_window_pages_first_of (self->page_names, KS_SIDEBAR (self->sidebar),
                                               g_variant_get_string (param, NULL));

  if (name != NULL)
    ks_window_show_page (self, name);
}

/* Ctrl+Page Up and Down: the sidebar's previous and next page. */
static void
step_page (KsWindow *self,
           int       delta)
{
  const char *name = ks_window_pages_step (self->page_names,
                                           gtk_stack_get_visible_child_name (GTK_STACK (self->stack)), delta);

  if (name != NULL)
    ks_window_show_page (self, name);
}

static void
page_previous_activated (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  step_page (user_data, -1);
}

static void
page_next_activated (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  step_page (user_data, +1);
}

static void
page_error_cb (KsPage       *page,
               const char   *title,
               const GError *error,
               KsWindow     *self)
{
  ks_window_show_error (self, title, error);
  self->error_page = page;
}

static void
add_pages (KsWindow *self)
{
  self->page_names = ks_window_pages_build (GTK_STACK (self->stack), KS_SIDEBAR (self->sidebar));
  for (guint i = 0; i < self->page_names->len; i++)
    {
      KsPage *page = ks_window_get_page (self, self->page_names->pdata[i]);

      ks_page_set_settings (page, self->settings);
      if (KS_IS_DEVICES_PAGE (page))
        {
          ks_devices_page_set_device_list (KS_DEVICES_PAGE (page), self->devices);
          g_signal_connect_swapped (page, "device-activated",
                                    G_CALLBACK (devices_page_activated_cb), self);
          g_signal_connect_swapped (page, "notify::measuring",
                                    G_CALLBACK (page_plot_changed_cb), self);
        }
      g_signal_connect (page, "progress", G_CALLBACK (page_progress_cb), self);
      g_signal_connect (page, "finished", G_CALLBACK (page_finished_cb), self);
      g_signal_connect (page, "error", G_CALLBACK (page_error_cb), self);
      g_signal_connect_swapped (page, "notify::running", G_CALLBACK (page_plot_changed_cb), self);
      g_signal_connect_swapped (page, "contents-changed", G_CALLBACK (page_plot_changed_cb), self);
    }
}

/* The page's title as the sidebar shows it (translated). */
char *
ks_window_page_title (KsWindow   *self,
                      const char *name)
{
  GtkWidget *page = gtk_stack_get_child_by_name (GTK_STACK (self->stack), name);
  char *title = NULL;

  if (page != NULL)
    gtk_container_child_get (GTK_CONTAINER (self->stack), page, "title", &title, NULL);
  return title ? title : g_strdup (name);
}

/* --- help --------------------------------------------------------------- */

static void
help_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  KsWindow *self = user_data;
  KsPage *page = ks_window_get_visible_page (self);
  const char *name = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
  g_autofree char *title = name ? ks_window_page_title (self, name) : NULL;
  g_autofree char *markup = page ? ks_help_dialog_page_markup (page, name) : NULL;

  gtk_widget_show (ks_help_dialog_new (GTK_WINDOW (self), title, markup));
}

static void
export_activated (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  KsWindow *self = user_data;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->export_menu_button), TRUE);
}

static void
primary_menu_activated (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  KsWindow *self = user_data;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->primary_menu_button), TRUE);
}

/* --- view -------------------------------------------------------------- */

/* Presenting to a class (F9): the sidebar and the pages' forms step aside,
 * so the plot fills a 1024 x 768 projector; the header bar keeps Run, Stop
 * and the device, and F9 brings everything back. */
static void
show_controls_changed (GSimpleAction *action,
                       GVariant      *state,
                       gpointer       user_data)
{
  KsWindow *self = user_data;
  gboolean visible = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  gtk_widget_set_visible (self->sidebar, visible);
  gtk_widget_set_visible (self->sidebar_separator, visible);
  for (guint i = 0; i < self->page_names->len; i++)
    ks_page_set_controls_visible (ks_window_get_page (self, self->page_names->pdata[i]), visible);
}

static void
fullscreen_changed (GSimpleAction *action,
                    GVariant      *state,
                    gpointer       user_data)
{
  /* The state follows the window manager (window_state_event below); this
   * only asks for the change. */
  if (g_variant_get_boolean (state))
    gtk_window_fullscreen (GTK_WINDOW (user_data));
  else
    gtk_window_unfullscreen (GTK_WINDOW (user_data));
}

static gboolean
ks_window_window_state_event (GtkWidget           *widget,
                              GdkEventWindowState *event)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (widget), "fullscreen");

  if (action != NULL && (event->changed_mask & GDK_WINDOW_STATE_FULLSCREEN))
    g_simple_action_set_state (G_SIMPLE_ACTION (action),
                               g_variant_new_boolean ((event->new_window_state
                                                       & GDK_WINDOW_STATE_FULLSCREEN) != 0));
  return GTK_WIDGET_CLASS (ks_window_parent_class)->window_state_event (widget, event);
}

/* --- object ------------------------------------------------------------- */

static const GActionEntry win_actions[] = {
  { "show-controls", NULL, NULL, "true", show_controls_changed },
  { "fullscreen",    NULL, NULL, "false", fullscreen_changed },
  { "run",          run_activated },
  { "stop",         stop_activated },
  { "export-plot",  ks_window_export_plot_activated, "s" },
  { "copy-plot",    ks_window_copy_plot_activated },
  { "export-data",  ks_window_export_data_activated, "s" },
  { "save-session", ks_window_save_session_activated },
  { "open-session", ks_window_open_session_activated },
  { "show-page",    show_page_activated, "s" },
  { "show-paper",   show_paper_activated, "s" },
  { "page-previous", page_previous_activated },
  { "page-next",    page_next_activated },
  { "help",         help_activated },
  { "export",       export_activated },
  { "primary-menu", primary_menu_activated },
};

/* A classroom projector is often 1024 x 768 and many laptops 1366 x 768:
 * the default (or a size remembered on a larger screen) must not put the
 * progress bar below the bottom of the screen.  The default size is the
 * content's; GTK adds the header bar (about 50 px) and, without a window
 * manager's decorations, nothing else, hence the margin. */
static void
fit_default_size_to_screen (KsWindow *self)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (self));
  GdkMonitor *monitor = display ? gdk_display_get_primary_monitor (display) : NULL;
  GdkRectangle area;
  int w, h;

  if (monitor == NULL && display != NULL && gdk_display_get_n_monitors (display) > 0)
    monitor = gdk_display_get_monitor (display, 0);
  if (monitor == NULL)
    return;
  gdk_monitor_get_workarea (monitor, &area);
  gtk_window_get_default_size (GTK_WINDOW (self), &w, &h);
  if (w > area.width || h > area.height - 64)
    gtk_window_set_default_size (GTK_WINDOW (self), MIN (w, area.width),
                                 MIN (h, MAX (area.height - 64, 400)));
}

static void
ks_window_constructed (GObject *object)
{
  KsWindow *self = KS_WINDOW (object);
  g_autofree char *page = NULL;

  G_OBJECT_CLASS (ks_window_parent_class)->constructed (object);

  add_pages (self);
  if (self->settings != NULL)
    {
      g_auto(GStrv) folded = g_settings_get_strv (self->settings, "sidebar-folded");
      ks_sidebar_set_folded (KS_SIDEBAR (self->sidebar), (const char * const *) folded);
    }
  fill_device_combo (self);
  page = self->settings ? g_settings_get_string (self->settings, "page") : NULL;
  if (page != NULL && ks_window_get_page (self, page) != NULL)
    ks_window_show_page (self, page);
  else
    ks_window_show_page (self, "gauss-size");

  if (self->settings != NULL)
    {
      int w = g_settings_get_int (self->settings, "window-width");
      int h = g_settings_get_int (self->settings, "window-height");

      if (w > 0 && h > 0)
        gtk_window_set_default_size (GTK_WINDOW (self), w, h);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }
  fit_default_size_to_screen (self);
  ks_window_update_actions (self);
}

static gboolean
ks_window_delete_event (GtkWidget   *widget,
                        GdkEventAny *event)
{
  KsWindow *self = KS_WINDOW (widget);

  if (self->settings != NULL)
    {
      int w, h;
      gboolean maximized = gtk_window_is_maximized (GTK_WINDOW (self));
      g_auto(GStrv) folded = ks_sidebar_get_folded (KS_SIDEBAR (self->sidebar));

      g_settings_set_strv (self->settings, "sidebar-folded", (const char * const *) folded);
      gtk_window_get_size (GTK_WINDOW (self), &w, &h);
      g_settings_set_boolean (self->settings, "window-maximized", maximized);
      if (!maximized)
        {
          g_settings_set_int (self->settings, "window-width", w);
          g_settings_set_int (self->settings, "window-height", h);
        }
    }
  /* Closing mid-run stops the run; the engine returns after this solve. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return GTK_WIDGET_CLASS (ks_window_parent_class)->delete_event
    ? GTK_WIDGET_CLASS (ks_window_parent_class)->delete_event (widget, event) : FALSE;
}

static void
ks_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  KsWindow *self = KS_WINDOW (object);

  switch (prop_id)
    {
    case PROP_DEVICES:
      self->devices = g_value_dup_object (value);
      break;
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_window_dispose (GObject *object)
{
  KsWindow *self = KS_WINDOW (object);

  /* A page outlives the window while its run's task is in flight; whatever
   * it emits after this ("finished", "progress") must not reach a window
   * that is gone. */
  if (self->stack != NULL && self->page_names != NULL)
    for (guint i = 0; i < self->page_names->len; i++)
      {
        KsPage *page = ks_window_get_page (self, self->page_names->pdata[i]);
        if (page != NULL)
          g_signal_handlers_disconnect_by_data (page, self);
      }
  self->running_page = NULL;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  g_clear_object (&self->devices);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->error_text, g_free);
  g_clear_pointer (&self->page_names, g_ptr_array_unref);
  G_OBJECT_CLASS (ks_window_parent_class)->dispose (object);
}

static void
ks_window_class_init (KsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = ks_window_constructed;
  object_class->set_property = ks_window_set_property;
  object_class->dispose = ks_window_dispose;
  widget_class->delete_event = ks_window_delete_event;
  widget_class->window_state_event = ks_window_window_state_event;

  props[PROP_DEVICES] = g_param_spec_object ("devices", NULL, NULL, KS_TYPE_DEVICE_LIST,
                                             G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY
                                             | G_PARAM_STATIC_STRINGS);
  props[PROP_SETTINGS] = g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                                              G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY
                                              | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/kernelscope/Kernelscope/ui/ks-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KsWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, stop_button);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, export_menu_button);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, device_combo);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, info_title);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, info_message);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, info_details_expander);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, info_details);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, sidebar_separator);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, KsWindow, progress_label);
  gtk_widget_class_bind_template_callback (widget_class, device_combo_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, info_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, stack_visible_child_cb);
}

static void
ks_window_init (KsWindow *self)
{
  g_type_ensure (KS_TYPE_PLOT_VIEW);
  g_type_ensure (KS_TYPE_SIDEBAR);
  gtk_widget_init_template (GTK_WIDGET (self));
  ks_sidebar_set_stack (KS_SIDEBAR (self->sidebar), GTK_STACK (self->stack));
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
}

KsWindow *
ks_window_new (GtkApplication *app,
               KsDeviceList   *devices,
               GSettings      *settings)
{
  return g_object_new (KS_TYPE_WINDOW, "application", app, "devices", devices,
                       "settings", settings, NULL);
}
