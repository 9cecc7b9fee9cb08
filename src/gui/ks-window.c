/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-window.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ks-devices-page.h"
#include "ks-sidebar.h"
#include "ks-window-pages.h"

#define SESSION_FORMAT  "kernelscope-session"
#define SESSION_VERSION 1

struct _KsWindow {
  GtkApplicationWindow parent_instance;

  GtkWidget     *run_button;
  GtkWidget     *stop_button;
  GtkWidget     *export_menu_button;
  GtkWidget     *primary_menu_button;
  GtkWidget     *device_combo;
  GtkWidget     *info_bar;
  GtkWidget     *info_title;
  GtkWidget     *info_message;
  GtkWidget     *info_details_expander;
  GtkWidget     *info_details;
  GtkWidget     *stack;
  GtkWidget     *sidebar;
  GPtrArray     *page_names;   /* every page's name, in sidebar order */
  GtkWidget     *sidebar_separator;
  GtkWidget     *progress_revealer;
  GtkWidget     *progress_bar;
  GtkWidget     *progress_label;

  KsDeviceList  *devices;
  GSettings     *settings;
  GCancellable  *cancellable;
  KsPage        *running_page;
  gint64         run_started;
  guint          run_done;
  char          *error_text;
  guint          notice_timeout;   /* hides a confirmation after a while */
  gboolean       filling_devices;  /* the device list is being filled at start */
  GtkFileChooserNative *chooser;   /* the open file dialog, if any */
};

G_DEFINE_TYPE (KsWindow, ks_window, GTK_TYPE_APPLICATION_WINDOW)

enum { PROP_0, PROP_DEVICES, PROP_SETTINGS, N_PROPS };
static GParamSpec *props[N_PROPS];

static void update_actions (KsWindow *self);

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

static void
update_actions (KsWindow *self)
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
  self->notice_timeout = g_timeout_add_seconds (8, notice_timeout_cb, self);
}

const char *
ks_window_get_error_text (KsWindow *self)
{
  return gtk_info_bar_get_revealed (GTK_INFO_BAR (self->info_bar)) && self->error_text
    ? self->error_text : "";
}

static void
hide_error (KsWindow *self)
{
  g_clear_handle_id (&self->notice_timeout, g_source_remove);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (self->info_bar), FALSE);
}

static void
info_bar_response_cb (KsWindow *self,
                      int       response)
{
  hide_error (self);
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
  /* Only the user's choice is remembered: the first fill may fall back to
   * the default because the saved device is missing today (unplugged, a
   * driver not loaded), and must not make the app forget it for good. */
  if (self->settings != NULL && !self->filling_devices)
    g_settings_set_string (self->settings, "device", ks_device_get_id (device));
  for (guint i = 0; i < self->page_names->len; i++)
    ks_page_device_changed (ks_window_get_page (self, self->page_names->pdata[i]), device);
  update_actions (self);
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
static void
show_device_missing (KsWindow   *self,
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
        show_device_missing (self, _("The device used last time is not on this computer"), saved);
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
  update_actions (self);
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
  update_actions (self);
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
  hide_error (self);
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
        ks_window_show_error (self, _("Cannot start the run"), error);
      update_actions (self);
      return;
    }
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->progress_revealer), TRUE);
  /* Quitting mid-run cancels; the page holds the application until its
   * task is over, so the process waits for the solve in flight to return
   * from the device instead of exiting under it, and then exits. */
  update_actions (self);
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
  update_actions (self);
}

static void
page_plot_changed_cb (KsWindow *self)
{
  update_actions (self);
}

static void
show_page_activated (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  ks_window_show_page (user_data, g_variant_get_string (param, NULL));
}

static void
page_error_cb (KsPage       *page,
               const char   *title,
               const GError *error,
               KsWindow     *self)
{
  ks_window_show_error (self, title, error);
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
static char *
page_title (KsWindow   *self,
            const char *name)
{
  GtkWidget *page = gtk_stack_get_child_by_name (GTK_STACK (self->stack), name);
  char *title = NULL;

  if (page != NULL)
    gtk_container_child_get (GTK_CONTAINER (self->stack), page, "title", &title, NULL);
  return title ? title : g_strdup (name);
}

/* --- export ------------------------------------------------------------- */

gboolean
ks_window_export_plot (KsWindow   *self,
                       const char *path,
                       GError    **error)
{
  KsPage *page = ks_window_get_visible_page (self);
  KsPlotView *view = page ? ks_page_get_plot_view (page) : NULL;

  if (view == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("This page has no plot."));
      return FALSE;
    }
  return ks_plot_view_export (view, path, error);
}

gboolean
ks_window_export_data (KsWindow   *self,
                       const char *path,
                       GError    **error)
{
  KsPage *page = ks_window_get_visible_page (self);
  gboolean csv = g_str_has_suffix (path, ".csv") || g_str_has_suffix (path, ".CSV");

  if (page == NULL || !ks_page_has_data (page))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There are no results on this page yet: run the experiment first."));
      return FALSE;
    }
  return ks_page_write_data (page, path, csv ? "csv" : "json", error);
}

typedef enum { SAVE_PLOT, SAVE_DATA, SAVE_SESSION, OPEN_SESSION } FileAction;

/* The name the export writes: the user's, with the ending of the format
 * chosen in the menu (".png") added unless it already ends so.  The
 * writers pick the format by the ending, so "fig" chosen as PNG must
 * become "fig.png", not an error, and "data" chosen as CSV must not come
 * out as JSON; "fig.svg" chosen as PNG becomes "fig.svg.png", a PNG. */
char *
ks_window_export_file_name (const char *path,
                            const char *format)
{
  g_autofree char *suffix = NULL;
  g_autofree char *lower = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  if (format == NULL || *format == '\0')
    return g_strdup (path);
  suffix = g_strconcat (".", format, NULL);
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, suffix))
    return g_strdup (path);
  return g_strconcat (path, suffix, NULL);
}

gboolean
ks_window_export_as (KsWindow    *self,
                     const char  *what,
                     const char  *format,
                     const char  *path,
                     char       **out_path,
                     GError     **error)
{
  g_autofree char *target = NULL;
  KsPage *page;
  gboolean ok;

  g_return_val_if_fail (KS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (g_strcmp0 (what, "plot") == 0 || g_strcmp0 (what, "data") == 0, FALSE);
  g_return_val_if_fail (format != NULL && path != NULL, FALSE);

  target = ks_window_export_file_name (path, format);
  if (g_strcmp0 (what, "plot") == 0)
    /* ks_plot_export() reads the format from the ending just added. */
    ok = ks_window_export_plot (self, target, error);
  else
    {
      page = ks_window_get_visible_page (self);
      if (page == NULL || !ks_page_has_data (page))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("There are no results on this page yet: run the experiment first."));
          return FALSE;
        }
      ok = ks_page_write_data (page, target, g_ascii_strcasecmp (format, "csv") == 0 ? "csv" : "json",
                               error);
    }
  if (ok && out_path != NULL)
    *out_path = g_steal_pointer (&target);
  return ok;
}

static void
file_action_done (KsWindow     *self,
                  FileAction    what,
                  const char   *path,
                  gboolean      ok,
                  const GError *error)
{
  g_autofree char *display = NULL;
  g_autofree char *notice = NULL;
  const char *title = NULL;

  switch (what)
    {
    case SAVE_PLOT:    title = _("Could not export the plot"); break;
    case SAVE_DATA:    title = _("Could not export the data"); break;
    case SAVE_SESSION: title = _("Could not save the session"); break;
    case OPEN_SESSION: title = _("Could not open the session; the open session is unchanged"); break;
    }
  if (!ok)
    {
      ks_window_show_error (self, title, error);
      return;
    }
  display = g_filename_display_name (path);
  switch (what)
    {
    case SAVE_PLOT:    notice = g_strdup_printf (_("The plot was saved to %s"), display); break;
    case SAVE_DATA:    notice = g_strdup_printf (_("The data were saved to %s"), display); break;
    case SAVE_SESSION: notice = g_strdup_printf (_("The session was saved to %s"), display); break;
    case OPEN_SESSION: break;   /* the pages show what was opened */
    }
  if (notice != NULL)
    ks_window_show_notice (self, notice);
}

static void
export_now (KsWindow   *self,
            FileAction  what,
            const char *format,
            const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  gboolean ok = ks_window_export_as (self, what == SAVE_PLOT ? "plot" : "data", format, path,
                                     &written, &error);

  file_action_done (self, what, written ? written : path, ok, error);
}

static void
replace_response_cb (GtkDialog *dialog,
                     int        response,
                     KsWindow  *self)
{
  FileAction what = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "what"));
  const char *format = g_object_get_data (G_OBJECT (dialog), "format");
  const char *path = g_object_get_data (G_OBJECT (dialog), "path");

  if (response == GTK_RESPONSE_ACCEPT)
    export_now (self, what, format, path);
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

/* The chooser asked about overwriting the name as typed; with the ending
 * added, the file written is another one, so ask again about that one. */
static void
confirm_replace (KsWindow   *self,
                 FileAction  what,
                 const char *format,
                 const char *path)
{
  g_autofree char *target = ks_window_export_file_name (path, format);
  g_autofree char *base = g_filename_display_basename (target);
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _("A file named “%s” already exists. Replace it?"), base);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog),
                                            _("The name had no “.%s” ending, so it was added, and a file "
                                              "of that name is already there."), format);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Replace"), GTK_RESPONSE_ACCEPT, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data (G_OBJECT (dialog), "what", GINT_TO_POINTER (what));
  g_object_set_data_full (G_OBJECT (dialog), "format", g_strdup (format), g_free);
  g_object_set_data_full (G_OBJECT (dialog), "path", g_strdup (path), g_free);
  /* Destroyed with the window, so an answer never reaches a window that is gone. */
  g_signal_connect (dialog, "response", G_CALLBACK (replace_response_cb), self);
  gtk_widget_show (dialog);
}

void
ks_window_export_chosen (KsWindow   *self,
                         const char *what,
                         const char *format,
                         const char *path)
{
  FileAction action = g_strcmp0 (what, "plot") == 0 ? SAVE_PLOT : SAVE_DATA;
  g_autofree char *target = NULL;

  g_return_if_fail (KS_IS_WINDOW (self));
  g_return_if_fail (format != NULL && path != NULL);

  target = ks_window_export_file_name (path, format);
  if (g_strcmp0 (target, path) != 0 && g_file_test (target, G_FILE_TEST_EXISTS))
    confirm_replace (self, action, format, path);
  else
    export_now (self, action, format, path);
}

static void
file_chooser_response_cb (GtkNativeDialog *dialog,
                          int              response,
                          gpointer         user_data)
{
  KsWindow *self = g_object_get_data (G_OBJECT (dialog), "window");
  FileAction what = GPOINTER_TO_INT (user_data);
  const char *format = g_object_get_data (G_OBJECT (dialog), "format");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  gboolean ok = TRUE;

  self->chooser = NULL;
  if (response != GTK_RESPONSE_ACCEPT)
    {
      g_object_unref (dialog);
      return;
    }
  path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
  switch (what)
    {
    case SAVE_PLOT:
    case SAVE_DATA:
      ks_window_export_chosen (self, what == SAVE_PLOT ? "plot" : "data", format, path);
      g_object_unref (dialog);
      return;
    case SAVE_SESSION:
      ok = ks_window_save_session (self, path, &error);
      break;
    case OPEN_SESSION:
      ok = ks_window_load_session (self, path, &error);
      break;
    }
  file_action_done (self, what, path, ok, error);
  g_object_unref (dialog);
}

static void
run_file_chooser (KsWindow    *self,
                  FileAction   what,
                  const char  *title,
                  const char  *suggested,
                  const char  *pattern,
                  const char  *filter_name,
                  const char  *format)
{
  gboolean save = what != OPEN_SESSION;
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;

  if (self->chooser != NULL)
    return;
  filter = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                        save ? GTK_FILE_CHOOSER_ACTION_SAVE
                                             : GTK_FILE_CHOOSER_ACTION_OPEN,
                                        save ? _("_Save") : _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, filter_name);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (save)
    {
      gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), suggested);
    }
  g_object_set_data (G_OBJECT (dialog), "window", self);
  /* The format chosen in the menu, which decides the writer whatever the
   * name typed ends in. */
  g_object_set_data_full (G_OBJECT (dialog), "format", g_strdup (format), g_free);
  g_signal_connect (dialog, "response", G_CALLBACK (file_chooser_response_cb), GINT_TO_POINTER (what));
  /* Held by the window: closing the window destroys the dialog with it, so
   * an answer can never reach a window that is gone. */
  self->chooser = dialog;
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* "Export Plot as PNG…" and "Export Data as CSV…": the same chooser, named
 * after the page, filtered to the one extension asked for, and writing
 * that format. */
static void
export_with_chooser (KsWindow   *self,
                     FileAction  what,
                     const char *title,
                     GVariant   *param)
{
  const char *ext = g_variant_get_string (param, NULL);
  const char *name = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
  g_autofree char *suggested = g_strdup_printf ("%s.%s", name, ext);
  g_autofree char *pattern = g_strdup_printf ("*.%s", ext);
  g_autofree char *filter = g_ascii_strup (ext, -1);

  run_file_chooser (self, what, title, suggested, pattern, filter, ext);
}

static void
export_plot_activated (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  export_with_chooser (user_data, SAVE_PLOT, _("Export Plot"), param);
}

static void
export_data_activated (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  export_with_chooser (user_data, SAVE_DATA, _("Export Data"), param);
}

static void
copy_plot_activated (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  KsWindow *self = user_data;
  KsPage *page = ks_window_get_visible_page (self);
  KsPlotView *view = page ? ks_page_get_plot_view (page) : NULL;
  g_autoptr(GdkPixbuf) pixbuf = view ? ks_plot_view_render_pixbuf (view) : NULL;

  if (pixbuf == NULL || !ks_plot_view_has_data (view))
    {
      /* Reached only when the action is enabled by mistake or activated
       * from outside (D-Bus): say so rather than leave the clipboard as it was. */
      ks_window_show_notice (self, view == NULL
                             ? _("This page has no plot to copy.")
                             : _("The plot is empty, so nothing was copied: run the experiment first."));
      return;
    }
  gtk_clipboard_set_image (gtk_widget_get_clipboard (GTK_WIDGET (self), GDK_SELECTION_CLIPBOARD),
                           pixbuf);
  ks_window_show_notice (self, _("The plot is on the clipboard as an image."));
}

/* --- sessions ----------------------------------------------------------- */

static JsonNode *
session_to_node (KsWindow *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format_iso8601 (now);
  KsDevice *device = ks_window_get_device (self);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, SESSION_FORMAT);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, SESSION_VERSION);
  json_builder_set_member_name (b, "saved");
  json_builder_add_string_value (b, date);
  json_builder_set_member_name (b, "device");
  json_builder_add_string_value (b, device ? ks_device_get_id (device) : "");
  json_builder_set_member_name (b, "page");
  json_builder_add_string_value (b, gtk_stack_get_visible_child_name (GTK_STACK (self->stack)));
  json_builder_set_member_name (b, "pages");
  json_builder_begin_object (b);
  for (guint i = 0; i < self->page_names->len; i++)
    {
      json_builder_set_member_name (b, self->page_names->pdata[i]);
      json_builder_begin_object (b);
      ks_page_save_state (ks_window_get_page (self, self->page_names->pdata[i]), b);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gboolean
ks_window_save_session (KsWindow   *self,
                        const char *path,
                        GError    **error)
{
  g_autoptr(JsonNode) root = session_to_node (self);
  g_autofree char *text = json_to_string (root, TRUE);

  return g_file_set_contents (path, text, -1, error);
}

static gboolean
apply_session (KsWindow   *self,
               JsonObject *root,
               GError    **error)
{
  JsonObject *pages = json_object_get_object_member (root, "pages");

  for (guint i = 0; i < self->page_names->len; i++)
    {
      const char *name = self->page_names->pdata[i];
      JsonNode *node = json_object_get_member (pages, name);

      if (node == NULL)
        continue;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("The page “%s” in the session is not an object."), name);
          return FALSE;
        }
      if (!ks_page_load_state (ks_window_get_page (self, name), json_node_get_object (node), error))
        {
          g_autofree char *title = page_title (self, name);
          g_prefix_error (error, _("Page “%s”: "), title);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
ks_window_load_session (KsWindow   *self,
                        const char *path,
                        GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) backup = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = g_filename_display_name (path);
  JsonObject *root;
  JsonNode *pages;
  const char *device, *page;
  gboolean device_missing = FALSE;

  if (self->running_page != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("Stop the run before opening a session."));
      return FALSE;
    }
  if (!json_parser_load_from_file (parser, path, &local_error))
    {
      /* A missing or unreadable file says so on one line; a damaged one
       * leads with that, and the parser's line and column go under Details. */
      if (local_error->domain == G_FILE_ERROR)
        g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                     _("%s cannot be read: %s"), display, local_error->message);
      else
        g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                     _("%s is damaged or incomplete (it is not well-formed JSON).\n%s"),
                     display, local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))
      || g_strcmp0 (json_object_get_string_member_with_default (
                      json_node_get_object (json_parser_get_root (parser)), "format", ""),
                    SESSION_FORMAT) != 0)
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("%s is not a Kernelscope session file."), display);
      return FALSE;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if (json_object_get_int_member_with_default (root, "version", 0) != SESSION_VERSION)
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("%s was written by another version of Kernelscope (session format %d; this one reads %d)."),
                   display, (int) json_object_get_int_member_with_default (root, "version", 0),
                   SESSION_VERSION);
      return FALSE;
    }
  pages = json_object_get_member (root, "pages");
  if (pages == NULL || !JSON_NODE_HOLDS_OBJECT (pages))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("%s has no pages."), display);
      return FALSE;
    }

  /* Pages apply their part one after the other; if one is damaged, put back
   * the session that was open, so a bad file never costs the user a run. */
  backup = session_to_node (self);
  if (!apply_session (self, root, &local_error))
    {
      g_autoptr(GError) ignored = NULL;
      apply_session (self, json_node_get_object (backup), &ignored);
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("%s is a Kernelscope session, but part of it is damaged.\n%s"),
                   display, local_error->message);
      return FALSE;
    }

  device = json_object_get_string_member_with_default (root, "device", NULL);
  if (device != NULL && *device != '\0')
    device_missing = !ks_window_set_device_id (self, device);
  /* Whether or not the device changed, the pages check the loaded form
   * against it (a CUDA graph asked for on an OpenCL device goes back to
   * one-by-one launches). */
  if (ks_window_get_device (self) != NULL)
    for (guint i = 0; i < self->page_names->len; i++)
      ks_page_device_changed (ks_window_get_page (self, self->page_names->pdata[i]),
                              ks_window_get_device (self));
  page = json_object_get_string_member_with_default (root, "page", NULL);
  if (page != NULL && ks_window_get_page (self, page) != NULL)
    ks_window_show_page (self, page);
  hide_error (self);
  if (device_missing)
    show_device_missing (self, _("The session's device is not on this computer"), device);
  update_actions (self);
  return TRUE;
}

static void
save_session_activated (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  run_file_chooser (user_data, SAVE_SESSION, _("Save Session"), "session.kernelscope.json",
                    "*.json", _("Kernelscope sessions"), NULL);
}

static void
open_session_activated (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  run_file_chooser (user_data, OPEN_SESSION, _("Open Session"), NULL,
                    "*.json", _("Kernelscope sessions"), NULL);
}

/* --- help --------------------------------------------------------------- */

static void
help_activated (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  KsWindow *self = user_data;
  KsPage *page = ks_window_get_visible_page (self);
  const char *help = page ? ks_page_get_help (page) : NULL;
  const char *name = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
  g_autofree char *title = name ? page_title (self, name) : g_strdup ("");
  GtkWidget *dialog;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_INFO, GTK_BUTTONS_CLOSE, "%s", title);
  gtk_message_dialog_format_secondary_markup (GTK_MESSAGE_DIALOG (dialog), "%s",
                                              help ? help : "");
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_widget_show (dialog);
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
  { "export-plot",  export_plot_activated, "s" },
  { "copy-plot",    copy_plot_activated },
  { "export-data",  export_data_activated, "s" },
  { "save-session", save_session_activated },
  { "open-session", open_session_activated },
  { "show-page",    show_page_activated, "s" },
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
  update_actions (self);
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
