/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page-record.c: the heat page's recording (see ks-heat-page.h):
 * the Record button and its dialog (WebM, MP4 where x264 is here, or
 * GIF), every step drawn handed to a KsClip, which writes frame-STEP.png
 * and the video or GIF on a thread of its own (the animation keeps its
 * pace), the colour scale fixed for the clip, and the message saying
 * where the clip went once it ends (stopped, or at a reset: the jump back
 * to step 0 is not recorded). */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-heat-page-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "ks-io-file.h"

/* The clip's size and pace, whatever the solver's. */
#define CLIP_WIDTH 800
#define CLIP_HEIGHT 640
#define CLIP_FPS 10

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

/* The frame drawn, into the recording: rendered here, written by the
 * clip's thread. */
void
ks_heat_page_record_frame (KsHeatPage *self, guint step)
{
  g_autoptr(GError) error = NULL;

  if (step == self->last_recorded)
    return;
  self->last_recorded = step;
  if (!ks_clip_add_plot (self->clip, self->mesh_plot, step, &error))
    {
      ks_heat_page_end_recording (self, FALSE, NULL);
      ks_page_emit_error (KS_PAGE (self), _("The recording stopped"), error);
      return;
    }
  self->recorded++;
}

/* The formats this machine writes, WebM first (a GIF's 256 colours band
 * the palette): the dialog's choice. */
static void
add_format_choice (GtkFileChooser *chooser)
{
  static const KsClipFormat order[] = { KS_CLIP_WEBM, KS_CLIP_MP4, KS_CLIP_GIF };
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (ks_clip_format_available (order[i], NULL))
      {
        g_ptr_array_add (ids, (gpointer) ks_clip_format_extension (order[i]));
        g_ptr_array_add (labels, (gpointer) ks_clip_format_label (order[i]));
      }
  if (ids->len == 0)
    {
      /* Neither giflib nor GStreamer: the PNG frames alone, into heat.gif's folder. */
      gtk_file_chooser_set_current_name (chooser, "heat.gif");
      return;
    }
  g_ptr_array_add (ids, NULL);
  g_ptr_array_add (labels, NULL);
  gtk_file_chooser_add_choice (chooser, "format", _("Format:"), (const char **) ids->pdata,
                               (const char **) labels->pdata);
  gtk_file_chooser_set_choice (chooser, "format", ids->pdata[0]);
  {
    g_autofree char *name = g_strdup_printf ("heat.%s", (const char *) ids->pdata[0]);
    gtk_file_chooser_set_current_name (chooser, name);
  }
}

/* The name chosen, with the chosen format's extension unless it ends in
 * one of a clip's already (that name is the one the dialog confirmed). */
static char *
clip_path (GtkFileChooser *chooser, GError **error)
{
  g_autofree char *path = gtk_file_chooser_get_filename (chooser);
  const char *ext = gtk_file_chooser_get_choice (chooser, "format");
  KsClipFormat format;
  char *with_ext;

  if (path == NULL || ks_clip_format_from_path (path, &format) || ext == NULL)
    return g_steal_pointer (&path);
  with_ext = g_strdup_printf ("%s.%s", path, ext);
  if (g_file_test (with_ext, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("%s is there already: choose it by its whole name to replace it"), with_ext);
      g_clear_pointer (&with_ext, g_free);
    }
  return with_ext;
}

static void
record_chooser_response_cb (GtkNativeDialog *dialog, int response, KsHeatPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = response == GTK_RESPONSE_ACCEPT ? clip_path (GTK_FILE_CHOOSER (dialog), &error) : NULL;

  g_clear_object (&self->record_chooser);
  if (path == NULL || !ks_heat_page_start_recording (self, path, &error))
    {
      show_record_state (self);
      if (error != NULL)
        ks_page_emit_error (KS_PAGE (self), _("The recording cannot start"), error);
    }
}

/* On: where to (a save dialog), then every step drawn is kept; off: the
 * clip is finished. */
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
  add_format_choice (GTK_FILE_CHOOSER (self->record_chooser));
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
make_frames_folder (KsHeatPage *self, const char *clip_path, GError **error)
{
  static const char *const frame_names[] = { "frame-*.png", NULL };
  const char *dot = strrchr (clip_path, '.');
  KsClipFormat format;
  g_autofree char *base = ks_clip_format_from_path (clip_path, &format) ? g_strndup (clip_path, dot - clip_path)
                                                                         : g_strdup (clip_path);
  g_autofree char *dir = g_strdup_printf ("%s-frames", base);
  /* What the recording replaces, checked as the CLI's outputs are. */
  const KsIoOutput outputs[] = { { clip_path, NULL, NULL }, { dir, NULL, frame_names } };

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

/* The clip at path in the format its name says (GIF for another name),
 * or, where this machine cannot write that format, the PNG frames alone
 * (the page says why). */
static KsClip *
open_clip (KsHeatPage *self, const char *path, gboolean *with_movie, GError **error)
{
  g_autoptr(GError) missing = NULL;
  KsClipFormat format = KS_CLIP_GIF;

  ks_clip_format_from_path (path, &format);
  *with_movie = ks_clip_format_available (format, &missing);
  if (!*with_movie)
    ks_page_emit_error (KS_PAGE (self), _("Only the PNG frames are recorded"), missing);
  return ks_clip_new (*with_movie ? path : NULL, format, self->record_dir, CLIP_WIDTH, CLIP_HEIGHT, CLIP_FPS,
                      error);
}

gboolean
ks_heat_page_start_recording (KsHeatPage *self, const char *path, GError **error)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self) && path != NULL, FALSE);
  g_return_val_if_fail (!self->recording, FALSE);

  if (!make_frames_folder (self, path, error))
    return FALSE;
  if (!(self->clip = open_clip (self, path, &self->record_movie, error)))
    {
      g_clear_pointer (&self->record_dir, g_free);
      return FALSE;
    }
  g_free (self->record_path);
  self->record_path = g_strdup (path);
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
  ks_heat_page_set_tick (self, TRUE);
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
  g_autoptr(KsClip) clip = NULL;
  g_autofree char *dir = NULL;
  gboolean ok;

  if (!self->recording)
    return TRUE;
  self->recording = FALSE;
  g_mutex_lock (&self->lock);
  self->lockstep = FALSE;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
  ks_heat_page_set_tick (self, FALSE);
  clip = g_steal_pointer (&self->clip);
  dir = g_steal_pointer (&self->record_dir);
  show_record_state (self);
  ks_heat_page_apply_scale (self);
  /* The last few frames queued are written before the clip is closed. */
  ok = ks_clip_finish (clip, error);
  if (ok)
    say_where (self, at_reset, self->record_movie, dir);
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
