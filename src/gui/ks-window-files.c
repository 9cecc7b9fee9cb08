/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-window-files.c: what the window reads and writes: the plot and the
 * data exported (in the format the name or the chooser says, asking before
 * it replaces a file), the plot copied as an image, and sessions saved and
 * opened (every page's state, all or nothing).  The rest of the window is
 * in ks-window.c; ks-window-private.h is what the two share. */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-window-private.h"
#include "ks-json-guard.h"

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
          g_autofree char *title = ks_window_page_title (self, name);
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
  /* Through the guarded door every user-given JSON takes: no FIFO, no
   * device, nothing above 512 MiB, no nesting deeper than the files have. */
  if (!ks_json_parser_load_file (parser, path, &local_error))
    {
      /* A missing or unreadable file says so on one line; a damaged one
       * leads with that, and the parser's line and column go under Details. */
      if (local_error->domain == G_FILE_ERROR
          || (local_error->domain == G_IO_ERROR && local_error->code != G_IO_ERROR_INVALID_DATA))
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
  ks_window_hide_error (self);
  if (device_missing)
    ks_window_show_device_missing (self, _("The session's device is not on this computer"), device);
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

