/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page-recorded.c: the generic page's recorded runs (what a
 * GPU showed, shipped in data/reference/): found off the main thread when
 * the page is first shown, offered in Add Recorded Run, and on a machine
 * without a GPU the first of them drawn before anything is measured. */
#define G_LOG_DOMAIN "ks-gui-experiment"

#include "ks-experiment-page-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-application.h"
#include "ks-gui-paths.h"
#include "ks-recorded.h"

gboolean
ks_experiment_page_add_recorded (KsExperimentPage *self,
                                 const char       *path,
                                 GError          **error)
{
  g_autoptr(KsRun) run = NULL;

  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!(run = ks_run_load_json (path, error)))
    return FALSE;
  if (run->desc != self->desc)
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, KS_RUN_ERROR, KS_RUN_ERROR_PARSE, _("%s holds a run of “%s”; open it on that page."),
                   display, _(run->desc->title));
      return FALSE;
    }
  ks_experiment_page_add_run (self, run, TRUE);
  return TRUE;
}

/* This experiment's recorded runs that measured something. */
static GPtrArray *
find_recorded (const KsExperimentDesc *desc)
{
  GPtrArray *found = ks_recorded_list (desc);

  for (guint i = found->len; i > 0; i--)
    if (ks_run_count_measured (((KsRecorded *) found->pdata[i - 1])->run) == 0)
      g_ptr_array_remove_index (found, i - 1);
  return found;
}

static gboolean
machine_has_gpu (void)
{
  GApplication *app = g_application_get_default ();
  KsDeviceList *devices = KS_IS_APPLICATION (app) ? ks_application_get_device_list (KS_APPLICATION (app)) : NULL;

  for (guint i = 0; devices != NULL && i < ks_device_list_get_n_devices (devices); i++)
    {
      const KsDeviceInfo *info = ks_device_get_info (ks_device_list_get_device (devices, i));
      if (info->backend == KS_BACKEND_CUDA || info->type == KS_DEVICE_TYPE_GPU)
        return TRUE;
    }
  return FALSE;
}

static void
recorded_found (KsExperimentPage *self,
                GPtrArray        *found)
{
  gboolean shown = FALSE;

  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  self->recorded = g_ptr_array_ref (found);
  g_menu_remove_all (self->recorded_section);
  for (guint i = 0; i < found->len; i++)
    {
      KsRecorded *r = found->pdata[i];
      g_autofree char *base = g_path_get_basename (r->path);
      g_autofree char *label = g_strdup_printf ("%s · %s", r->label, base);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "experiment.add-recorded", g_variant_new_string (r->path));
      g_menu_append_item (self->recorded_section, item);
    }
  /* A machine without a GPU shows what one does before anything is
   * measured here: the description's demo run, else the first recorded run
   * (by file name), not all of them,
   * whose sixty curves would bury each other; the others are in the menu.
   * With a GPU the page waits for the user's own run. */
  if (!machine_has_gpu () && found->len > 0 && self->runs->len == 0)
    {
      KsRecorded *demo = found->pdata[0];

      for (guint i = 0; i < found->len && self->desc->recorded_demo != NULL; i++)
        {
          g_autofree char *base = g_path_get_basename (((KsRecorded *) found->pdata[i])->path);

          if (strcmp (base, self->desc->recorded_demo) == 0)
            demo = found->pdata[i];
        }
      g_ptr_array_add (self->runs, ks_experiment_page_run_new (demo->run, TRUE));
      shown = TRUE;
    }
  if (shown)
    ks_experiment_page_rebuild_all (self);
}

static void
find_recorded_thread (GTask        *task,
                      gpointer      source,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  g_task_return_pointer (task, find_recorded (task_data), (GDestroyNotify) g_ptr_array_unref);
}

static void
find_recorded_done (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (source);
  g_autoptr(GPtrArray) found = g_task_propagate_pointer (G_TASK (result), NULL);

  self->looking = FALSE;
  /* Found already (ks_experiment_page_find_recorded, in this thread):
   * rebuilding the menu again could pull it from under an open popover. */
  if (self->runs != NULL && found != NULL && self->recorded == NULL)
    recorded_found (self, found);
}

void
ks_experiment_page_find_recorded (KsExperimentPage *self)
{
  g_autoptr(GPtrArray) found = NULL;

  g_return_if_fail (KS_IS_EXPERIMENT_PAGE (self));
  found = find_recorded (self->desc);
  recorded_found (self, found);
}

GPtrArray *
ks_experiment_page_get_recorded_paths (KsExperimentPage *self)
{
  GPtrArray *paths;

  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);
  if (self->recorded == NULL)
    return NULL;
  paths = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->recorded->len; i++)
    g_ptr_array_add (paths, g_strdup (((KsRecorded *) self->recorded->pdata[i])->path));
  return paths;
}

void
ks_experiment_page_add_recorded_activated (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  KsExperimentPage *self = user_data;
  g_autoptr(GError) error = NULL;
  const char *path = g_variant_get_string (param, NULL);

  for (guint i = 0; self->recorded != NULL && i < self->recorded->len; i++)
    {
      KsRecorded *r = self->recorded->pdata[i];

      if (g_strcmp0 (r->path, path) == 0)
        {
          ks_experiment_page_add_run (self, r->run, TRUE);
          return;
        }
    }
  if (!ks_experiment_page_add_recorded (self, path, &error))
    ks_page_emit_error (KS_PAGE (self), _("Could not add the recorded run"), error);
}

static void
chooser_response_cb (GtkNativeDialog  *dialog,
                     int               response,
                     KsExperimentPage *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (path != NULL && !ks_experiment_page_add_recorded (self, path, &error))
        ks_page_emit_error (KS_PAGE (self), _("Could not add the recorded run"), error);
    }
  g_clear_object (&self->chooser);
}

/* "Other File…": any results file of this experiment, from the reference
 * folder or wherever the user keeps runs. */
void
ks_experiment_page_add_file_activated (GSimpleAction *action,
                                       GVariant      *param,
                                       gpointer       user_data)
{
  KsExperimentPage *self = user_data;
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  g_autofree char *dir = ks_gui_reference_dir ();
  GtkFileFilter *filter;

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Add Recorded Run"),
                                               GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), _("_Cancel"));
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Kernelscope results (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  if (dir != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), dir);
  /* Held by the page, which destroys it when it goes: an answer after
   * that cannot call back into a freed page. */
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* The recorded runs are megabytes of JSON: read off the main thread, the
 * first time the page is shown, not when the window opens. */
void
ks_experiment_page_look_for_recorded (KsExperimentPage *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->recorded != NULL || self->looking)
    return;
  self->looking = TRUE;
  task = g_task_new (self, NULL, find_recorded_done, NULL);
  g_task_set_task_data (task, (gpointer) self->desc, NULL);
  g_task_run_in_thread (task, find_recorded_thread);
}
