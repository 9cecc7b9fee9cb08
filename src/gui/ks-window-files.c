/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-files.c: what the window reads and writes: the plot and the
 * data exported (in the format the name or the chooser says, asking before
 * it replaces a file), the plot copied as an image, and sessions saved and
 * opened (every page's state, all or nothing).  The rest of the window is
 * in ks-window.c; ks-window-private.h is what the two share. */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-window-private.h"

#include "ks-io-file.h"

#include <glib/gi18n.h>
#include <string.h>

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
  /* The chooser asked before replacing; a link, a device or a read-only
   * file is refused all the same, as on the command line. */
  if (!ks_io_check_output (target, NULL, error))
    return FALSE;
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

void
ks_window_export_plot_activated (GSimpleAction *action,
                                 GVariant      *param,
                                 gpointer       user_data)
{
  export_with_chooser (user_data, SAVE_PLOT, _("Export Plot"), param);
}

void
ks_window_export_data_activated (GSimpleAction *action,
                                 GVariant      *param,
                                 gpointer       user_data)
{
  export_with_chooser (user_data, SAVE_DATA, _("Export Data"), param);
}

void
ks_window_copy_plot_activated (GSimpleAction *action,
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

/* The window as a session (ks-session.h); an error names a field the
 * session could not read back (a form's value out of its range). */
static KsSession *
window_session (KsWindow *self,
                GError  **error)
{
  g_autoptr(KsSession) session = ks_session_new ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  KsDevice *device = ks_window_get_device (self);

  session->saved = g_date_time_format_iso8601 (now);
  session->device = g_strdup (device ? ks_device_get_id (device) : "");
  session->page = g_strdup (gtk_stack_get_visible_child_name (GTK_STACK (self->stack)));
  for (guint i = 0; i < self->page_names->len; i++)
    {
      const char *name = self->page_names->pdata[i];
      KsSessionPage *state = ks_session_add_page (session, name, error);

      if (state == NULL || !ks_page_save_state (ks_window_get_page (self, name), state, error))
        return NULL;
    }
  return g_steal_pointer (&session);
}

gboolean
ks_window_save_session (KsWindow   *self,
                        const char *path,
                        GError    **error)
{
  g_autoptr(KsSession) session = NULL;

  g_return_val_if_fail (KS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(session = window_session (self, error)))
    return FALSE;
  return ks_session_save (session, path, error);
}

gboolean
ks_window_load_session (KsWindow   *self,
                        const char *path,
                        GError    **error)
{
  g_autoptr(KsSession) session = NULL;
  gboolean device_missing = FALSE;

  g_return_val_if_fail (KS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->running_page != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("Stop the run before opening a session."));
      return FALSE;
    }
  /* Read and checked whole before any page changes: a damaged file never
   * costs the user the session that is open. */
  if (!(session = ks_session_load (path, error)))
    return FALSE;
  for (guint i = 0; i < session->pages->len; i++)
    {
      const KsSessionPage *state = session->pages->pdata[i];
      KsPage *page = ks_window_get_page (self, state->id);

      /* A page the session knows but this window does not show (an
       * experiment registered by a test, say) is left alone. */
      if (page != NULL)
        ks_page_load_state (page, state);
    }

  if (session->device != NULL && *session->device != '\0')
    device_missing = !ks_window_set_device_id (self, session->device);
  /* Whether or not the device changed, the pages check the loaded form
   * against it (a CUDA graph asked for on an OpenCL device goes back to
   * one-by-one launches). */
  if (ks_window_get_device (self) != NULL)
    for (guint i = 0; i < self->page_names->len; i++)
      ks_page_device_changed (ks_window_get_page (self, self->page_names->pdata[i]),
                              ks_window_get_device (self));
  if (session->page != NULL && ks_window_get_page (self, session->page) != NULL)
    ks_window_show_page (self, session->page);
  ks_window_hide_error (self);
  if (device_missing)
    ks_window_show_device_missing (self, _("The session's device is not on this computer"), session->device);
  ks_window_update_actions (self);
  return TRUE;
}

void
ks_window_save_session_activated (GSimpleAction *action,
                                  GVariant      *param,
                                  gpointer       user_data)
{
  run_file_chooser (user_data, SAVE_SESSION, _("Save Session"), "session.kernelscope.json",
                    "*.json", _("Kernelscope sessions"), NULL);
}

void
ks_window_open_session_activated (GSimpleAction *action,
                                  GVariant      *param,
                                  gpointer       user_data)
{
  run_file_chooser (user_data, OPEN_SESSION, _("Open Session"), NULL,
                    "*.json", _("Kernelscope sessions"), NULL);
}

