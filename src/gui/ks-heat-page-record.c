/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page-record.c: the heat page's recording (see ks-heat-page.h):
 * the Record button, every step drawn into frame-STEP.png and the GIF,
 * the colour scale fixed for the clip, and the message saying where the
 * clip went once it ends (stopped, or at a reset: the jump back to step 0
 * is not recorded). */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-heat-page-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "ks-io-file.h"

/* The button says what pressing it does, and shows the recording. */
static void
show_record_state (KsHeatPage *self)
{
  GtkStyleContext *style = gtk_widget_get_style_context (self->record_button);

  g_signal_handlers_block_by_func (self->record_button, ks_heat_page_record_toggled_cb, self);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->record_button), self->recording);
  g_signal_handlers_unblock_by_func (self->record_button, ks_heat_page_record_toggled_cb, self);
  gtk_button_set_label (GTK_BUTTON (self->record_button), self->recording ? _("● Stop recording") : _("Record…"));
  if (self->recording)
    gtk_style_context_add_class (style, "destructive-action");
  else
    gtk_style_context_remove_class (style, "destructive-action");
}

/* The frame drawn, into the recording: frame-STEP.png and the GIF. */
void
ks_heat_page_record_frame (KsHeatPage *self, guint step)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("frame-%06u.png", step);
  g_autofree char *path = g_build_filename (self->record_dir, name, NULL);

  if (step == self->last_recorded)
    return;
  self->last_recorded = step;
  if (!ks_plot_export (self->mesh_plot, path, 800, 640, NULL, &error) ||
      (self->gif != NULL && !ks_gif_writer_add_plot (self->gif, self->mesh_plot, &error)))
    {
      ks_heat_page_stop_recording (self, NULL);
      ks_page_emit_error (KS_PAGE (self), _("The recording stopped"), error);
      return;
    }
  self->recorded++;
}

static void
record_chooser_response_cb (GtkNativeDialog *dialog, int response, KsHeatPage *self)
{
  g_autofree char *path = response == GTK_RESPONSE_ACCEPT
                          ? gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog)) : NULL;
  g_autoptr(GError) error = NULL;

  g_clear_object (&self->record_chooser);
  if (path == NULL || !ks_heat_page_start_recording (self, path, &error))
    {
      show_record_state (self);
      if (error != NULL)
        ks_page_emit_error (KS_PAGE (self), _("The recording cannot start"), error);
    }
}

/* On: where to (a save dialog), then every step drawn is kept; off: the
 * GIF is finished. */
void
ks_heat_page_record_toggled_cb (KsHeatPage *self)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *toplevel;

  if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->record_button)))
    {
      if (self->recording && !ks_heat_page_stop_recording (self, &error))
        ks_page_emit_error (KS_PAGE (self), _("The animation cannot be saved"), error);
      return;
    }
  if (self->recording || self->record_chooser != NULL)
    return;
  toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  self->record_chooser = gtk_file_chooser_native_new (_("Record the Animation"),
                                                      GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
                                                      GTK_FILE_CHOOSER_ACTION_SAVE, _("_Record"), _("_Cancel"));
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (self->record_chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->record_chooser), "heat.gif");
  g_signal_connect (self->record_chooser, "response", G_CALLBACK (record_chooser_response_cb), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->record_chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->record_chooser));
}

/* The message bar's Open Folder: the clip's folder in the file manager. */
void
ks_heat_page_message_response_cb (KsHeatPage *self, int response)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));

  if (response == KS_HEAT_PAGE_RESPONSE_OPEN_FOLDER && self->clip_folder != NULL)
    {
      g_autofree char *uri = g_filename_to_uri (self->clip_folder, NULL, &error);

      if (uri == NULL || !gtk_show_uri_on_window (GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL, uri,
                                                  GDK_CURRENT_TIME, &error))
        ks_page_emit_error (KS_PAGE (self), _("The folder cannot be opened"), error);
      return;
    }
  gtk_widget_hide (self->message_bar);
}

static gboolean
make_frames_folder (KsHeatPage *self, const char *gif_path, GError **error)
{
  static const char *const frame_names[] = { "frame-*.png", NULL };
  g_autofree char *base = g_str_has_suffix (gif_path, ".gif") ? g_strndup (gif_path, strlen (gif_path) - 4)
                                                               : g_strdup (gif_path);
  g_autofree char *dir = g_strdup_printf ("%s-frames", base);
  /* What the recording replaces, checked as the CLI's outputs are. */
  const KsIoOutput outputs[] = { { gif_path, NULL, NULL }, { dir, NULL, frame_names } };

  if (!ks_io_check_outputs (outputs, G_N_ELEMENTS (outputs), NULL, error))
    return FALSE;
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      const int err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), _("The frames folder %s cannot be made: %s"),
                   dir, g_strerror (err));
      return FALSE;
    }
  self->record_dir = g_steal_pointer (&dir);
  return TRUE;
}

gboolean
ks_heat_page_start_recording (KsHeatPage *self, const char *gif_path, GError **error)
{
  g_autoptr(GError) no_gif = NULL;

  g_return_val_if_fail (KS_IS_HEAT_PAGE (self) && gif_path != NULL, FALSE);
  g_return_val_if_fail (!self->recording, FALSE);

  if (!make_frames_folder (self, gif_path, error))
    return FALSE;
  /* 10 frames a second, whatever the solver's pace. */
  if (ks_gif_available (&no_gif))
    {
      if (!(self->gif = ks_gif_writer_new (gif_path, 800, 640, 10, error)))
        {
          g_clear_pointer (&self->record_dir, g_free);
          return FALSE;
        }
    }
  else
    ks_page_emit_error (KS_PAGE (self), _("Only the PNG frames are recorded"), no_gif);
  g_free (self->record_path);
  self->record_path = g_strdup (gif_path);
  self->recording = TRUE;
  self->recorded = 0;
  self->last_recorded = G_MAXUINT;
  /* The clip's colours mean the same in every frame: the frame shown
   * now sets the scale (unless the fixed scale is on already). */
  self->record_min = self->shown_min;
  self->record_max = self->shown_max;
  ks_heat_page_apply_scale (self);
  /* Every step is drawn, and so recorded: the worker waits for each
   * frame to be taken before it takes the next step. */
  g_mutex_lock (&self->lock);
  self->lockstep = TRUE;
  g_mutex_unlock (&self->lock);
  gtk_widget_hide (self->message_bar);
  if (self->mesh != NULL)
    ks_heat_page_record_frame (self, ks_heat_page_get_shown_step (self));
  show_record_state (self);
  return TRUE;
}

/* Where the clip went, with the folder a button away. */
static void
say_where (KsHeatPage *self, gboolean at_reset, gboolean with_gif, const char *dir)
{
  g_autofree char *text = NULL;

  text = with_gif ? g_strdup_printf (ngettext ("%u frame recorded: %s (the PNG frames in %s)",
                                               "%u frames recorded: %s (the PNG frames in %s)", self->recorded),
                                     self->recorded, self->record_path, dir)
                  : g_strdup_printf (ngettext ("%u frame recorded in %s", "%u frames recorded in %s", self->recorded),
                                     self->recorded, dir);
  if (at_reset)
    {
      char *more = g_strdup_printf (_("%s. The recording ended at the reset, which is not in the clip."), text);
      g_free (text);
      text = more;
    }
  g_free (self->clip_folder);
  self->clip_folder = g_path_get_dirname (self->record_path);
  gtk_label_set_text (GTK_LABEL (self->message_label), text);
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->message_bar), GTK_MESSAGE_INFO);
  gtk_widget_show (self->open_folder_button);
  gtk_widget_show (self->message_bar);
}

/* Ends the clip; at_reset: because the animation went back to step 0. */
gboolean
ks_heat_page_end_recording (KsHeatPage *self, gboolean at_reset, GError **error)
{
  g_autoptr(KsGifWriter) gif = NULL;
  g_autofree char *dir = NULL;
  gboolean ok, had_gif;

  if (!self->recording)
    return TRUE;
  self->recording = FALSE;
  g_mutex_lock (&self->lock);
  self->lockstep = FALSE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  gif = g_steal_pointer (&self->gif);
  dir = g_steal_pointer (&self->record_dir);
  show_record_state (self);
  ks_heat_page_apply_scale (self);
  had_gif = gif != NULL;
  ok = gif == NULL || ks_gif_writer_finish (gif, error);
  if (ok)
    say_where (self, at_reset, had_gif, dir);
  return ok;
}

gboolean
ks_heat_page_stop_recording (KsHeatPage *self, GError **error)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), FALSE);
  return ks_heat_page_end_recording (self, FALSE, error);
}

gboolean
ks_heat_page_get_recording (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), FALSE);
  return self->recording;
}

guint
ks_heat_page_get_recorded_frames (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), 0);
  return self->recorded;
}
