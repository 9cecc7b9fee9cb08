/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page-run.c: the generic page's run (the engine, prepared on
 * a worker and run on another, its run filled on the main context), its
 * data export and its part of a session. */
#define G_LOG_DOMAIN "ks-gui-experiment"

#include "ks-experiment-page-private.h"
#include "ks-image-strip.h"
#include "ks-window.h"

#include <glib/gi18n.h>
#include <string.h>

/* --- the command that makes the run again ---------------------------------------------- */

static char *
cli_option (const KsParamSpec *spec)
{
  if (spec->cli_name != NULL)
    return g_strdup (spec->cli_name);
  return g_strdelimit (g_strdup (spec->name), "_", '-');
}

/* "kernelscope-cli run ID --opt value ... -d DEV --reps N --warmup W": what
 * the form says, recorded with the results so they can be made again. */
static char *
command_line (KsExperimentPage *self,
              KsDevice         *device,
              GPtrArray        *also,
              guint             warmup,
              guint             reps)
{
  g_autoptr(GString) s = g_string_new ("kernelscope-cli run ");

  g_string_append (s, self->desc->id);
  for (guint i = 0; i < self->desc->n_params; i++)
    {
      const KsParamSpec *spec = &self->desc->params[i];
      g_autofree char *text = ks_param_form_get_text (self->form, spec->name);
      g_autofree char *option = NULL;
      g_autofree char *quoted = NULL;

      if (*text == '\0' || !ks_param_form_applies (self->form, spec->name, NULL)
          || g_strcmp0 (text, spec->default_value) == 0)
        continue;
      option = cli_option (spec);
      quoted = g_shell_quote (text);
      g_string_append_printf (s, " --%s %s", option, quoted);
    }
  g_string_append_printf (s, " -d %s", ks_device_get_id (device));
  for (guint i = 0; i < also->len; i++)
    g_string_append_printf (s, " -d %s", ks_device_get_id (also->pdata[i]));
  g_string_append_printf (s, " --reps %u --warmup %u", reps, warmup);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* --- running ---------------------------------------------------------------------------- */

/* The pictures of the point just measured, with its device and values. */
static void
show_images (KsExperimentPage *self,
             KsEngine         *engine,
             const KsRunPoint *point)
{
  GPtrArray *images = ks_engine_get_images (engine, point->device);
  const KsRun *run = ks_engine_get_run (engine);
  g_autoptr(GString) caption = NULL;

  if (images == NULL || point->error != NULL)
    return;
  caption = g_string_new (((const KsRunDevice *) run->devices->pdata[point->device])->name);
  for (guint i = 0; i < self->desc->n_params; i++)
    if (point->params[i] && run->axes && g_strv_contains ((const char * const *) run->axes, self->desc->params[i].name))
      {
        g_autofree char *value = ks_param_value_to_string (point->params[i]);
        g_string_append_printf (caption, ", %s %s", _(self->desc->params[i].label), value);
      }
  ks_image_strip_set_images (KS_IMAGE_STRIP (self->image_strip), images, caption->str);
}

static void
point_measured_cb (KsEngine         *engine,
                   const KsRunPoint *point,
                   guint64           done,
                   guint64           total,
                   KsExperimentPage *self)
{
  /* The engine's run, which the page draws, has this point already: it is
   * filled on this main context. */
  if (self->live == NULL)
    return;
  /* A device's first point brings the device: the runs list can name
   * the run (again, with each further device of the run). */
  if (self->live->run->points->len == 1
      || point->device != ((KsRunPoint *) self->live->run->points->pdata[self->live->run->points->len - 2])->device)
    ks_experiment_page_rebuild_all (self);
  else if (self->table != NULL && self->table_run == self->live->run)
    ks_run_table_append (self->table, self->live->run, point);
  if (self->live->run->points->len > 1)
    {
      ks_experiment_page_rebuild_plot (self);
      ks_experiment_page_rebuild_verdict (self);
    }
  show_images (self, engine, point);
  ks_page_emit_progress (KS_PAGE (self), (guint) done, (guint) total, ks_engine_get_fraction (engine));
}

/* After a run: say once which points the device refused, not only in the
 * table (a refused point does not stop the sweep). */
static void
report_refused (KsExperimentPage *self,
                const KsRun      *run)
{
  const KsRunPoint *first = NULL;
  guint refused = 0;
  g_autofree char *title = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      if (p->error != NULL && refused++ == 0)
        first = p;
    }
  if (refused == 0)
    return;
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u of %u points could not be measured; the table says why",
                                        "%u of %u points could not be measured; the table says why", refused),
                           refused, run->points->len);
  error = g_error_new_literal (KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, first->error);
  ks_param_form_reword_error (self->desc, error);
  ks_page_emit_error (KS_PAGE (self), title, error);
}

/* Whether any point of run was measured (a refused one holds only its
 * error). */
static gboolean
measured_any (const KsRun *run)
{
  for (guint i = 0; i < run->points->len; i++)
    if (((const KsRunPoint *) run->points->pdata[i])->error == NULL)
      return TRUE;
  return FALSE;
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(KsExperimentPage) self = user_data;
  KsEngine *engine = KS_ENGINE (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) final = NULL;
  gboolean ok = ks_engine_run_finish (engine, result, &error);

  g_signal_handlers_disconnect_by_data (engine, self);
  /* The window closed mid-run: only this task held the page. */
  if (self->runs == NULL)
    {
      ks_page_end_run (KS_PAGE (self));
      return;
    }
  final = ks_run_ref (ks_engine_get_run (engine));
  /* Nothing measured (stopped at once, the set-up failed, every point
   * refused): the message in the window says what happened; no empty
   * entry in the list. */
  if (self->live != NULL && !measured_any (final))
    g_ptr_array_remove (self->runs, self->live);
  self->live = NULL;
  g_clear_object (&self->engine);
  g_clear_object (&self->cancellable);
  ks_experiment_page_rebuild_all (self);
  ks_param_form_reword_error (self->desc, error);
  ks_page_emit_finished (KS_PAGE (self), ok ? NULL : error);
  if (ok)
    report_refused (self, final);
}

/* One line: which of the form's values the engine left out on which of
 * the devices ("Also run on" the host beside a GPU), or NULL. */
static char *
left_out_line (KsExperimentPage *self)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;
  const char * const *names;

  for (guint d = 0; (names = ks_engine_get_left_out (self->engine, d)) != NULL; d++)
    {
      g_autoptr(GPtrArray) labels = g_ptr_array_new ();
      g_autofree char *list = NULL;

      for (guint i = 0; names[i] != NULL; i++)
        {
          int k = ks_experiment_desc_find_param (self->desc, names[i]);
          g_ptr_array_add (labels, (gpointer) _(self->desc->params[k].label));
        }
      if (labels->len == 0)
        continue;
      g_ptr_array_add (labels, NULL);
      /* TRANSLATORS: the separator of the fields left out, "Global range, Group size policy" */
      list = g_strjoinv (_(", "), (char **) labels->pdata);
      /* TRANSLATORS: fields left out on a device: "Global range, Group size policy on Intel CPU" */
      g_ptr_array_add (parts, g_strdup_printf (_("%s on %s"), list,
                                               ks_device_get_name (ks_engine_get_device (self->engine, d))));
    }
  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  joined = g_strjoinv ("; ", (char **) parts->pdata);
  return g_strdup_printf (_("Left out where they mean nothing: %s."), joined);
}

static void
show_notes (KsExperimentPage *self)
{
  const char * const *notes = ks_engine_get_notes (self->engine);
  g_autofree char *left_out = left_out_line (self);
  g_autofree char *engine_notes = notes && notes[0] ? g_strjoinv ("\n", (char **) notes) : NULL;
  g_autofree char *joined = g_strjoin ("\n", left_out ? left_out : "", engine_notes, NULL);
  /* The engine speaks to the command line ("--wg-list ...: ..."). */
  g_autofree char *text = ks_param_form_reword (self->desc, g_strstrip (joined));

  gtk_label_set_text (GTK_LABEL (self->notes_label), text);
  gtk_widget_set_visible (self->notes_label, *text != '\0');
}

static void
prepare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;

  /* The defaults a device decides can build kernels (the Gauss group
   * sizes): never on the main thread. */
  if (ks_engine_prepare (task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
prepared_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (source);
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) || self->runs == NULL
      || g_cancellable_set_error_if_cancelled (self->cancellable, &error))
    {
      g_clear_object (&self->engine);
      g_clear_object (&self->cancellable);
      if (self->runs == NULL)
        ks_page_end_run (KS_PAGE (self));
      else
        {
          ks_param_form_reword_error (self->desc, error);
          ks_page_emit_finished (KS_PAGE (self), error);
        }
      return;
    }
  show_notes (self);
  /* The page draws the engine's own run, filled here point by point. */
  self->live = ks_experiment_page_run_new (ks_engine_get_run (self->engine), FALSE);
  g_ptr_array_add (self->runs, self->live);
  ks_experiment_page_rebuild_all (self);
  g_signal_connect (self->engine, "point-measured", G_CALLBACK (point_measured_cb), self);
  ks_engine_run_async (self->engine, self->cancellable, run_done_cb, g_object_ref (self));
}

gboolean
ks_experiment_page_start (KsPage        *page,
                          KsDevice      *device,
                          GCancellable  *cancellable,
                          GError       **error)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (page);
  g_autoptr(KsEngine) engine = ks_engine_new (self->desc);
  g_autoptr(GTask) task = NULL;
  g_autofree char *command = NULL;
  g_autoptr(GPtrArray) also = NULL;
  guint reps = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->reps_spin));
  guint warmup = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->warmup_spin));

  /* What the user sees is what runs: the fields are read now, and a field
   * that does not parse stops the run before anything is measured. */
  ks_param_form_set_backend (self->form, ks_device_get_backend (device));
  if (!ks_param_form_apply (self->form, engine, error)
      || !ks_engine_set_repetitions (engine, warmup, reps, error))
    {
      ks_param_form_reword_error (self->desc, error ? *error : NULL);
      return FALSE;
    }
  /* The header bar's device first, then the ticked ones: each a series. */
  g_set_object (&self->device, device);
  also = ks_experiment_page_get_also_devices (self);
  ks_engine_add_device (engine, device);
  /* The form's values are those of the header bar's device: another kind
   * of device runs without those that mean nothing there, said in the
   * notes (the host beside a GPU refused the GPU's "Global range"). */
  ks_engine_set_leave_out_foreign (engine, TRUE);
  for (guint i = 0; i < also->len; i++)
    ks_engine_add_device (engine, also->pdata[i]);
  command = command_line (self, device, also, warmup, reps);
  ks_engine_set_command (engine, command);
  ks_experiment_page_save_settings (self);

  self->engine = g_steal_pointer (&engine);
  g_set_object (&self->cancellable, cancellable);
  gtk_widget_hide (self->notes_label);
  task = g_task_new (self, cancellable, prepared_cb, NULL);
  g_task_set_task_data (task, g_object_ref (self->engine), g_object_unref);
  g_task_run_in_thread (task, prepare_thread);
  return TRUE;
}

/* --- the device's defaults ------------------------------------------------------------ */

typedef struct {
  const KsExperimentDesc *desc;
  KsDevice               *device;
} HintsJob;

static void
hints_job_free (gpointer data)
{
  HintsJob *job = data;

  g_object_unref (job->device);
  g_free (job);
}

/* name, text, why, three by three (NULL text where the device cannot say). */
static void
hints_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  HintsJob *job = task_data;
  g_autoptr(KsConfig) base = ks_config_new (job->desc);
  GPtrArray *hints = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < job->desc->n_params && !g_cancellable_is_cancelled (cancellable); i++)
    {
      const KsParamSpec *spec = &job->desc->params[i];
      char *why = NULL;

      if (spec->device_default == NULL)
        continue;
      g_ptr_array_add (hints, g_strdup (spec->name));
      g_ptr_array_add (hints, ks_param_default_text (spec, job->device, base, &why, NULL));
      g_ptr_array_add (hints, why);
    }
  g_task_return_pointer (task, hints, (GDestroyNotify) g_ptr_array_unref);
}

/* A field the user has not touched (it holds the description's default,
 * or what the last device picked) takes the device's pick, so that Run
 * runs what the CLI would without the option: on a CPU no CUDA-only
 * method refused on a first run, and cuSPARSE beside the paper's methods
 * on a CUDA device.  Fields without a default_value show the pick as
 * their placeholder instead. */
static void
follow_device_default (KsExperimentPage *self,
                       const char       *name,
                       const char       *text)
{
  const int i = ks_experiment_desc_find_param (self->desc, name);
  const char *given = i >= 0 ? self->desc->params[i].default_value : NULL;
  g_autofree char *now = NULL;

  if (given == NULL || text == NULL || (now = ks_param_form_get_text (self->form, name)) == NULL)
    return;
  if (strcmp (now, given) == 0 || g_strcmp0 (now, g_hash_table_lookup (self->auto_filled, name)) == 0)
    {
      ks_param_form_set_text (self->form, name, text);
      g_hash_table_replace (self->auto_filled, g_strdup (name), g_strdup (text));
    }
}

static void
hints_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (source);
  g_autoptr(GPtrArray) hints = g_task_propagate_pointer (G_TASK (result), NULL);

  if (hints == NULL || self->runs == NULL)
    return;
  for (guint i = 0; i + 2 < hints->len; i += 3)
    {
      ks_param_form_set_default_hint (self->form, hints->pdata[i], hints->pdata[i + 1], hints->pdata[i + 2]);
      follow_device_default (self, hints->pdata[i], hints->pdata[i + 1]);
    }
}

/* What an empty field will take on this device (the Gauss group sizes
 * build the kernels to learn the kernel's limit: a worker's job), shown
 * before Run rather than only in the notes after it.  Only while the page
 * is shown, so a window of many pages does not build every kernel at start. */
void
ks_experiment_page_update_hints (KsExperimentPage *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  g_autoptr(GTask) task = NULL;
  HintsJob *job;
  gboolean any = FALSE;

  for (guint i = 0; i < self->desc->n_params; i++)
    any |= self->desc->params[i].device_default != NULL;
  if (!any || self->device == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  /* Building kernels beside a run would skew its timings (on PoCL the
   * device is the same CPU): the hints wait for the next look. */
  if (KS_IS_WINDOW (toplevel) && ks_window_get_running (KS_WINDOW (toplevel)))
    return;
  if (self->hints_cancellable != NULL)
    g_cancellable_cancel (self->hints_cancellable);
  g_clear_object (&self->hints_cancellable);
  self->hints_cancellable = g_cancellable_new ();
  for (guint i = 0; i < self->desc->n_params; i++)
    if (self->desc->params[i].device_default != NULL)
      ks_param_form_set_default_hint (self->form, self->desc->params[i].name, NULL, NULL);
  job = g_new0 (HintsJob, 1);
  job->desc = self->desc;
  job->device = g_object_ref (self->device);
  task = g_task_new (self, self->hints_cancellable, hints_done, NULL);
  g_task_set_task_data (task, job, hints_job_free);
  g_task_run_in_thread (task, hints_thread);
}

/* --- export ----------------------------------------------------------------------------- */

gboolean
ks_experiment_page_has_data (KsPage *page)
{
  KsRun *newest = ks_experiment_page_get_newest (KS_EXPERIMENT_PAGE (page));
  return newest != NULL && newest->points->len > 0;
}

gboolean
ks_experiment_page_write_data (KsPage      *page,
                               const char  *path,
                               const char  *format,
                               GError     **error)
{
  KsRun *newest = ks_experiment_page_get_newest (KS_EXPERIMENT_PAGE (page));

  if (newest == NULL || newest->points->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There are no results on this page yet: run the experiment first."));
      return FALSE;
    }
  return g_ascii_strcasecmp (format, "csv") == 0 ? ks_run_write_csv (newest, path, error)
                                                 : ks_run_write_json (newest, path, error);
}

/* --- sessions --------------------------------------------------------------------------- */

gboolean
ks_experiment_page_save_state (KsPage        *page,
                               KsSessionPage *state,
                               GError       **error)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (page);
  g_autoptr(GHashTable) values = ks_param_form_get_values (self->form);
  const KsFigureSpec *figure = ks_experiment_page_get_figure (self);
  GHashTableIter iter;
  gpointer name, text;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &name, &text))
    if (!ks_session_page_set_value (state, name, text, error))
      return FALSE;
  if (!ks_session_page_set_repetitions (state,
                                        gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->warmup_spin)),
                                        gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->reps_spin)),
                                        gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->min_x_spin)),
                                        error))
    return FALSE;
  g_free (state->also_on);
  state->also_on = ks_experiment_page_get_also_on_text (self);
  g_free (state->figure);
  state->figure = g_strdup (figure ? figure->id : "");
  ks_session_page_keep_runs (state);
  for (guint i = 0; i < self->runs->len; i++)
    {
      Run *r = self->runs->pdata[i];
      if (!ks_session_page_add_run (state, r->run, r->recorded, r->visible, error))
        return FALSE;
    }
  return TRUE;
}

/* The session's reader checked every part, so nothing here can fail: the
 * runs are the page's own experiment's, the values parse. */
void
ks_experiment_page_load_state (KsPage              *page,
                               const KsSessionPage *state)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (page);
  g_autoptr(GVariant) values = NULL;
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer name, text;

  ks_experiment_page_set_repetitions (self, state->warmup, state->reps);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->min_x_spin), state->min_x);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_hash_table_iter_init (&iter, state->values);
  while (g_hash_table_iter_next (&iter, &name, &text))
    g_variant_builder_add (&builder, "{ss}", name, text);
  values = g_variant_ref_sink (g_variant_builder_end (&builder));
  ks_experiment_page_apply_values (self, values);
  if (state->also_on != NULL)
    {
      g_auto(GStrv) ids = g_strsplit (state->also_on, ",", -1);
      ks_experiment_page_set_also_on (self, (const char * const *) ids);
    }
  if (state->figure != NULL && *state->figure != '\0')
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->figure_combo), state->figure);
  if (state->runs != NULL)
    {
      g_ptr_array_set_size (self->runs, 0);
      for (guint i = 0; i < state->runs->len; i++)
        {
          const KsSessionRun *saved = state->runs->pdata[i];
          Run *r = ks_experiment_page_run_new (saved->run, saved->recorded);

          r->visible = saved->visible;
          g_ptr_array_add (self->runs, r);
        }
    }
  ks_experiment_page_rebuild_all (self);
}
