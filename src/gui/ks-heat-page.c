/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page.c: the heat animation (see ks-heat-page.h).
 *
 * One worker thread owns the solver (KsHeat, its mesh and the device's CG:
 * a runtime is used by one thread at a time).  The main thread asks for
 * things under the lock (a new problem, a reset, play, one step, quit) and
 * the worker answers with frames: a snapshot of the temperatures and the
 * step's numbers.  A frame replaces one not yet drawn (keeping a new mesh
 * it carried), so the worker never waits for the window, and the window,
 * which looks for a frame every 30 ms, never waits for the worker. */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-heat-page-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>

#include "ks-heat.h"
#include "ks-heat-plot.h"
#include "ks-io-file.h"

G_DEFINE_TYPE (KsHeatPage, ks_heat_page, KS_TYPE_PAGE)

/* --- the main thread ----------------------------------------------------------------- */

/* Fixed: the first frame's range in every frame (the spot fades as it
 * spreads); else each frame's own (the spreading stays visible), except
 * in a recording, whose clip keeps the range of its first frame: a scale
 * that changed every frame hid the diffusion. */
void
ks_heat_page_apply_scale (KsHeatPage *self)
{
  if (!ks_plot_has_mesh (self->mesh_plot))
    return;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->fixed_scale_check)))
    ks_plot_set_mesh_range (self->mesh_plot, 0.0, self->color_max);
  else if (self->recording && self->record_max > self->record_min)
    ks_plot_set_mesh_range (self->mesh_plot, self->record_min, self->record_max);
  else
    ks_plot_set_mesh_range (self->mesh_plot, NAN, NAN);
  gtk_widget_queue_draw (GTK_WIDGET (self->mesh_view));
}

static void
scale_toggled_cb (KsHeatPage *self)
{
  ks_heat_page_apply_scale (self);
}

/* The triangles and quadrilaterals the scheme works on, drawn thin. */
static void
edges_toggled_cb (KsHeatPage *self)
{
  if (!ks_plot_has_mesh (self->mesh_plot))
    return;
  ks_plot_set_mesh_edges (self->mesh_plot, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->edges_check)));
  gtk_widget_queue_draw (GTK_WIDGET (self->mesh_view));
}

static void group_changed_cb (KsHeatPage *self);

/* A row per physical group of the mesh: its name, insulated or fixed, and
 * the fixed temperature; made again only when the groups differ. */
static void
show_groups (KsHeatPage *self, const KsMesh *mesh)
{
  gboolean same = self->group_rows->len == mesh->groups->len;
  GList *children;

  for (guint g = 0; same && g < mesh->groups->len; g++)
    same = g_str_equal (self->group_rows->pdata[g], mesh->groups->pdata[g]);
  if (same)
    return;
  children = gtk_container_get_children (GTK_CONTAINER (self->groups_grid));
  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  g_ptr_array_set_size (self->group_rows, 0);
  for (guint g = 0; g < mesh->groups->len; g++)
    {
      const char *name = mesh->groups->pdata[g];
      const GroupSetting *gs = g_hash_table_lookup (self->group_settings, name);
      /* A generated mesh's one group is called "boundary" (ks-mesh.c), a
       * name kept for the files and the CLI but shown in the user's words;
       * a Gmsh file's names are the file's. */
      GtkWidget *label = gtk_label_new (g_strcmp0 (name, "boundary") == 0 ? C_("mesh group", "boundary") : name);
      GtkWidget *combo = gtk_combo_box_text_new ();
      GtkWidget *spin = gtk_spin_button_new_with_range (0, 1e6, 0.1);
      GtkWidget *t_label = gtk_label_new (_("at T ="));

      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (combo), "insulated", _("insulated"));
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (combo), "fixed", _("fixed temperature"));
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), gs != NULL && gs->kind == KS_HEAT_BOUNDARY_FIXED ? "fixed"
                                                                                                     : "insulated");
      ks_page_ellipsize_combo (GTK_COMBO_BOX (combo));
      gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 2);
      /* The form is a narrow column: the rows must not widen it. */
      gtk_entry_set_width_chars (GTK_ENTRY (spin), 5);
      gtk_label_set_width_chars (GTK_LABEL (label), 8);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 12);
      gtk_widget_set_tooltip_text (label, name);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), gs != NULL ? gs->t : 0);
      gtk_label_set_xalign (GTK_LABEL (t_label), 1);
      gtk_widget_set_tooltip_text (spin, _("The temperature the group is held at"));
      gtk_widget_set_hexpand (combo, TRUE);
      gtk_widget_set_hexpand (spin, TRUE);
      g_object_set_data_full (G_OBJECT (combo), "group", g_strdup (name), g_free);
      g_object_set_data (G_OBJECT (combo), "spin", spin);
      g_object_set_data_full (G_OBJECT (spin), "group", g_strdup (name), g_free);
      g_object_set_data (G_OBJECT (spin), "combo", combo);
      g_signal_connect_swapped (combo, "changed", G_CALLBACK (group_changed_cb), self);
      g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (group_changed_cb), self);
      /* Two rows a group, the form being a narrow column: the name and
       * the condition, then the temperature, shown while it is fixed. */
      gtk_grid_attach (GTK_GRID (self->groups_grid), label, 0, 2 * g, 1, 1);
      gtk_grid_attach (GTK_GRID (self->groups_grid), combo, 1, 2 * g, 1, 1);
      gtk_grid_attach (GTK_GRID (self->groups_grid), t_label, 0, 2 * g + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (self->groups_grid), spin, 1, 2 * g + 1, 1, 1);
      gtk_widget_show_all (label);
      gtk_widget_show_all (combo);
      gtk_widget_set_visible (t_label, gs != NULL && gs->kind == KS_HEAT_BOUNDARY_FIXED);
      gtk_widget_set_visible (spin, gs != NULL && gs->kind == KS_HEAT_BOUNDARY_FIXED);
      g_ptr_array_add (self->group_rows, g_strdup (name));
    }
}

static void
show_mesh (KsHeatPage *self, KsMesh *mesh, double color_max)
{
  g_autoptr(GError) error = NULL;

  if (!ks_heat_plot_set_mesh (self->mesh_plot, mesh, &error))
    {
      ks_page_emit_error (KS_PAGE (self), _("The mesh cannot be drawn"), error);
      return;
    }
  self->color_max = color_max;
  ks_heat_page_apply_scale (self);
  edges_toggled_cb (self);
  g_clear_pointer (&self->mesh, ks_mesh_unref);
  self->mesh = ks_mesh_ref (mesh);
  show_groups (self, mesh);
  ks_plot_view_set_placeholder (self->mesh_view, NULL);
}

/* The time series starts again (a new problem, a reset). */
static void
reset_series (KsHeatPage *self)
{
  g_array_set_size (self->history, 0);
  g_clear_pointer (&self->time_plot, ks_plot_unref);
  self->time_plot = ks_plot_new ();
  ks_plot_set_axis_labels (self->time_plot, _("step"), _("ms per step"));
  self->time_series = ks_plot_add_series (self->time_plot, _("time per step"));
  self->build_s = 0;
  ks_plot_view_set_plot (self->time_view, self->time_plot);
}

static void
show_status (KsHeatPage *self, const Frame *f)
{
  guint tri = 0, quad = 0;
  g_autofree char *text = NULL;

  ks_mesh_count_kinds (self->mesh, &tri, &quad);
  text = g_strdup_printf (_("Step %u, t = %.5g\n"
                            "CG: %u iterations, residual %.2g\n"
                            "Energy %.10g = %.10g at the start %+.4g through the walls (off by %.2g)\n"
                            "%.1f ms per step (assembly %.1f, CG %.1f) on %s\n"
                            "Mesh: %u cells (%u triangles, %u quadrilaterals), %.1f neighbours per cell"),
                          f->st.step, f->st.time, f->st.cg_iterations, f->st.cg_residual, f->st.energy, f->e0,
                          f->inflow, f->st.energy - f->e0 - f->inflow,
                          1e3 * f->st.step_s, 1e3 * f->st.assemble_s, 1e3 * f->st.solve_s, f->where,
                          self->mesh->n_cells, tri, quad, ks_mesh_mean_stencil (self->mesh));
  if (f->cells[KS_HYBRID_GPU] + f->cells[KS_HYBRID_CPU] > 0)
    {
      const double all = f->cells[KS_HYBRID_GPU] + f->cells[KS_HYBRID_CPU];
      char *more = g_strdup_printf (_("%s\nSplit: %llu cells on the device (%.1f %%), %llu on the CPU"), text,
                                    (unsigned long long) f->cells[KS_HYBRID_GPU],
                                    100.0 * f->cells[KS_HYBRID_GPU] / all,
                                    (unsigned long long) f->cells[KS_HYBRID_CPU]);
      g_free (text);
      text = more;
    }
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
}

/* The steps since the last frame into the series and the time plot,
 * which leaves out the one-off setup of a first step on a device (the
 * kernels built: seconds, against milliseconds a step) and says it once
 * in its title, so that one point does not flatten the rest. */
static void
add_steps (KsHeatPage *self, GArray *steps)
{
  for (guint i = 0; i < steps->len; i++)
    {
      const KsHeatStepStats *st = &g_array_index (steps, KsHeatStepStats, i);

      g_array_append_val (self->history, *st);
      ks_plot_add_point (self->time_plot, self->time_series, st->step, 1e3 * (st->step_s - st->setup_s));
      if (st->setup_s > 0)
        {
          g_autofree char *title = NULL;

          self->build_s += st->setup_s;
          title = g_strdup_printf (_("Kernel build and upload: %.1f s, left out of the steps"), self->build_s);
          ks_plot_set_title (self->time_plot, title);
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->time_view));
}

static void
show_frame (KsHeatPage *self, Frame *f, GArray *steps)
{
  if (f->mesh != NULL)
    {
      show_mesh (self, f->mesh, f->color_max);
      ks_heat_page_show_notes (self, f->notes);
    }
  ks_heat_page_show_split (self, f);
  if (self->mesh == NULL)
    return;
  if (f->restart)
    {
      g_autoptr(GError) error = NULL;

      /* The jump back to step 0 (a reset, a new problem) ends a clip
       * rather than going into it. */
      if (!ks_heat_page_end_recording (self, TRUE, &error))
        ks_page_emit_error (KS_PAGE (self), _("The animation cannot be saved"), error);
      reset_series (self);
    }
  self->shown_min = f->t_min;
  self->shown_max = f->t_max;
  ks_plot_set_mesh_values (self->mesh_plot, f->t);
  if (self->recording)
    ks_heat_page_record_frame (self, f->st.step);
  add_steps (self, steps);
  show_status (self, f);
  gtk_widget_queue_draw (GTK_WIDGET (self->mesh_view));
  ks_page_emit_contents_changed (KS_PAGE (self));
}

static gboolean
tick (gpointer data)
{
  KsHeatPage *self = data;
  Frame *f;
  GError *error;
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (KsHeatStepStats));

  g_mutex_lock (&self->lock);
  f = g_steal_pointer (&self->frame);
  error = g_steal_pointer (&self->error);
  g_array_append_vals (steps, self->new_steps->data, self->new_steps->len);
  g_array_set_size (self->new_steps, 0);
  /* A recording's worker waits for the frame to be taken. */
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);

  if (f != NULL)
    {
      show_frame (self, f, steps);
      ks_heat_page_frame_free (f);
    }
  if (error != NULL)
    {
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->play_button), FALSE);
      ks_page_emit_error (KS_PAGE (self), _("The heat solver stopped"), error);
      g_error_free (error);
    }
  return G_SOURCE_CONTINUE;
}

/* How often the window looks for a frame: every 30 ms, or while a
 * recording's worker waits for each frame to be taken, every 10 (at 30,
 * a step waited 15 ms on average for it). */
void
ks_heat_page_set_tick (KsHeatPage *self, gboolean recording)
{
  if (self->tick_id == 0)
    return;
  g_source_remove (self->tick_id);
  self->tick_id = g_timeout_add (recording ? 10 : 30, tick, self);
}

/* The mesh and problem of the form, built by the worker. */
static void
request_setup (KsHeatPage *self)
{
  Setup *s = g_new0 (Setup, 1);

  s->spec = self->file != NULL ? g_strdup (self->file)
          : g_strdup_printf ("%s-%s:%d", gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->kind_combo)),
                             gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->domain_combo)),
                             gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->cells_spin)));
  s->n = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->n_spin));
  s->tau = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->tau_spin));
  s->d0 = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->d0_spin));
  s->energy = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->energy_spin));
  s->tol = g_ascii_strtod (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->tol_combo)), NULL);
  s->groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  {
    GHashTableIter iter;
    gpointer key, value;
    g_hash_table_iter_init (&iter, self->group_settings);
    while (g_hash_table_iter_next (&iter, &key, &value))
      g_hash_table_insert (s->groups, g_strdup (key), g_memdup2 (value, sizeof (GroupSetting)));
  }
  s->device = self->device != NULL ? g_object_ref (self->device) : NULL;
  s->hybrid = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->hybrid_check));
  s->lambda = exp2 (gtk_range_get_value (GTK_RANGE (self->lambda_scale)));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->play_button), FALSE);
  /* The mesh still being made for the last problem (gmsh) is moot now. */
  g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();
  s->cancellable = g_object_ref (self->loading);
  g_mutex_lock (&self->lock);
  ks_heat_page_setup_free (self->want_setup);
  self->want_setup = s;
  self->playing = FALSE;
  self->steps_wanted = 0;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* The worker starts when the page is first shown, not with the window. */
static void
ensure_started (KsHeatPage *self)
{
  if (self->started)
    return;
  self->started = TRUE;
  self->worker = g_thread_new ("ks-heat", ks_heat_page_worker_main, self);
  self->tick_id = g_timeout_add (30, tick, self);
  request_setup (self);
}

static void
mesh_changed_cb (KsHeatPage *self)
{
  if (self->started)
    request_setup (self);
}

/* A group's row changed: its setting kept by name, the problem rebuilt. */
static void
group_changed_cb (KsHeatPage *self)
{
  for (guint g = 0; g < self->group_rows->len; g++)
    {
      GtkWidget *combo = gtk_grid_get_child_at (GTK_GRID (self->groups_grid), 1, 2 * g);
      GtkWidget *t_label = gtk_grid_get_child_at (GTK_GRID (self->groups_grid), 0, 2 * g + 1);
      GtkWidget *spin = gtk_grid_get_child_at (GTK_GRID (self->groups_grid), 1, 2 * g + 1);
      GroupSetting *gs = g_new0 (GroupSetting, 1);

      gs->kind = g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)), "fixed") == 0
                 ? KS_HEAT_BOUNDARY_FIXED : KS_HEAT_BOUNDARY_INSULATED;
      gs->t = gtk_spin_button_get_value (GTK_SPIN_BUTTON (spin));
      gtk_widget_set_visible (t_label, gs->kind == KS_HEAT_BOUNDARY_FIXED);
      gtk_widget_set_visible (spin, gs->kind == KS_HEAT_BOUNDARY_FIXED);
      g_hash_table_replace (self->group_settings, g_strdup (self->group_rows->pdata[g]), gs);
    }
  mesh_changed_cb (self);
}

static void
file_set_cb (KsHeatPage *self)
{
  g_free (self->file);
  self->file = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (self->file_button));
  mesh_changed_cb (self);
}

static void
clear_file_cb (KsHeatPage *self)
{
  g_clear_pointer (&self->file, g_free);
  gtk_file_chooser_unselect_all (GTK_FILE_CHOOSER (self->file_button));
  mesh_changed_cb (self);
}


/* The slider runs over log2 lambda: equal steps of the hand are equal
 * ratios, from a CPU-heavy 1/8 to a device-heavy 128.  The split moves
 * between two steps, the solution stays. */
static void
lambda_changed_cb (KsHeatPage *self)
{
  const double lambda = exp2 (gtk_range_get_value (GTK_RANGE (self->lambda_scale)));
  g_autofree char *text = g_strdup_printf (_("lambda %.2f"), lambda);

  gtk_label_set_text (GTK_LABEL (self->lambda_label), text);
  if (!gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->hybrid_check)))
    return;
  g_mutex_lock (&self->lock);
  self->want_lambda = lambda;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
play_toggled_cb (KsHeatPage *self)
{
  const gboolean on = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->play_button));

  gtk_button_set_label (GTK_BUTTON (self->play_button), on ? _("Pause") : _("Play"));
  ensure_started (self);
  g_mutex_lock (&self->lock);
  self->playing = on;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
step_clicked_cb (KsHeatPage *self)
{
  ensure_started (self);
  g_mutex_lock (&self->lock);
  self->steps_wanted++;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
reset_clicked_cb (KsHeatPage *self)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->play_button), FALSE);
  g_mutex_lock (&self->lock);
  self->want_reset = TRUE;
  self->steps_wanted = 0;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* --- KsPage ----------------------------------------------------------------------------- */

static KsPlotView *
ks_heat_page_get_plot_view (KsPage *page)
{
  return KS_HEAT_PAGE (page)->mesh_view;
}

static void
ks_heat_page_device_changed (KsPage *page, KsDevice *device)
{
  KsHeatPage *self = KS_HEAT_PAGE (page);

  g_set_object (&self->device, device);
  /* The hybrid's other part is the host: a device must run the first. */
  gtk_widget_set_sensitive (self->hybrid_check, device != NULL && ks_device_get_backend (device) != KS_BACKEND_HOST);
  if (device == NULL || ks_device_get_backend (device) == KS_BACKEND_HOST)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->hybrid_check), FALSE);
  if (self->started)
    request_setup (self);
}

static gboolean
ks_heat_page_has_data (KsPage *page)
{
  return KS_HEAT_PAGE (page)->history->len > 0;
}

/* The time series: per step the time, CG iterations and residual, the
 * total energy, the hottest cell, the time the step took and the energy in
 * through the fixed walls so far (the energy balance: energy minus inflow
 * stays the energy at the start). */
static gboolean
ks_heat_page_write_data (KsPage *page, const char *path, const char *format, GError **error)
{
  KsHeatPage *self = KS_HEAT_PAGE (page);
  g_autoptr(GString) out = g_string_new (NULL);
  const gboolean json = g_strcmp0 (format, "json") == 0;
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
  char d[G_ASCII_DTOSTR_BUF_SIZE], e[G_ASCII_DTOSTR_BUF_SIZE], f[G_ASCII_DTOSTR_BUF_SIZE];
  double inflow = 0;   /* through the fixed walls since the start */

  g_string_append (out, json ? "{\"experiment\": \"heat-live\", \"steps\": [\n"
                             : "step,time,cg_iterations,cg_residual,energy,t_max,step_ms,inflow\n");
  for (guint i = 0; i < self->history->len; i++)
    {
      const KsHeatStepStats *s = &g_array_index (self->history, KsHeatStepStats, i);
      g_ascii_dtostr (a, sizeof a, s->time);
      g_ascii_dtostr (b, sizeof b, s->cg_residual);
      g_ascii_dtostr (c, sizeof c, s->energy);
      g_ascii_dtostr (d, sizeof d, s->t_max);
      g_ascii_dtostr (e, sizeof e, 1e3 * s->step_s);
      inflow += s->inflow;
      g_ascii_dtostr (f, sizeof f, inflow);
      if (json)
        g_string_append_printf (out, "  {\"step\": %u, \"time\": %s, \"cg_iterations\": %u, \"cg_residual\": %s, "
                                "\"energy\": %s, \"t_max\": %s, \"step_ms\": %s, \"inflow\": %s}%s\n",
                                s->step, a, s->cg_iterations, b, c, d, e, f, i + 1 < self->history->len ? "," : "");
      else
        g_string_append_printf (out, "%u,%s,%u,%s,%s,%s,%s,%s\n", s->step, a, s->cg_iterations, b, c, d, e, f);
    }
  if (json)
    g_string_append (out, "]}\n");
  return ks_io_write_file (path, out->str, out->len, error);
}

static void
ks_heat_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ks_heat_page_parent_class)->map (widget);
  ensure_started (KS_HEAT_PAGE (widget));
}

static void
ks_heat_page_dispose (GObject *object)
{
  KsHeatPage *self = KS_HEAT_PAGE (object);

  g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  if (self->worker != NULL)
    {
      g_mutex_lock (&self->lock);
      self->quit = TRUE;
      g_cond_signal (&self->cond);
      g_mutex_unlock (&self->lock);
      g_thread_join (g_steal_pointer (&self->worker));
    }
  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_pointer (&self->want_setup, ks_heat_page_setup_free);
  g_clear_pointer (&self->frame, ks_heat_page_frame_free);
  g_clear_error (&self->error);
  g_clear_pointer (&self->mesh, ks_mesh_unref);
  g_clear_pointer (&self->mesh_plot, ks_plot_unref);
  g_clear_pointer (&self->time_plot, ks_plot_unref);
  g_clear_object (&self->device);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->group_settings, g_hash_table_unref);
  if (self->record_chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->record_chooser));
      g_clear_object (&self->record_chooser);
    }
  /* A recording the window closes on is dropped, not half written. */
  g_clear_pointer (&self->clip, ks_clip_free);
  g_clear_pointer (&self->record_dir, g_free);
  g_clear_pointer (&self->record_path, g_free);
  g_clear_pointer (&self->clip_folder, g_free);
  g_clear_pointer (&self->group_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (ks_heat_page_parent_class)->dispose (object);
}

static void
ks_heat_page_finalize (GObject *object)
{
  KsHeatPage *self = KS_HEAT_PAGE (object);

  g_array_unref (self->history);
  g_array_unref (self->new_steps);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (ks_heat_page_parent_class)->finalize (object);
}

static void
ks_heat_page_class_init (KsHeatPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  object_class->dispose = ks_heat_page_dispose;
  object_class->finalize = ks_heat_page_finalize;
  widget_class->map = ks_heat_page_map;
  page_class->get_plot_view = ks_heat_page_get_plot_view;
  page_class->device_changed = ks_heat_page_device_changed;
  page_class->has_data = ks_heat_page_has_data;
  page_class->write_data = ks_heat_page_write_data;

  g_type_ensure (KS_TYPE_PLOT_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/kernelscope/Kernelscope/ui/ks-heat-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, kind_combo);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, domain_combo);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, cells_spin);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, file_button);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, n_spin);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, tau_spin);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, d0_spin);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, energy_spin);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, tol_combo);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, groups_grid);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, play_button);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, record_button);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, status_label);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, fixed_scale_check);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, hybrid_check);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, lambda_scale);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, lambda_label);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, balance_label);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, edges_check);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, legend_label);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, note_label);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, message_bar);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, message_label);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, open_folder_button);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, mesh_view);
  gtk_widget_class_bind_template_child (widget_class, KsHeatPage, time_view);
  gtk_widget_class_bind_template_callback (widget_class, mesh_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_file_cb);
  gtk_widget_class_bind_template_callback (widget_class, file_set_cb);
  gtk_widget_class_bind_template_callback (widget_class, scale_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, play_toggled_cb);
  gtk_widget_class_bind_template_callback_full (widget_class, "record_toggled_cb",
                                                G_CALLBACK (ks_heat_page_record_toggled_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "hybrid_toggled_cb",
                                                G_CALLBACK (ks_heat_page_hybrid_toggled_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "message_response_cb",
                                                G_CALLBACK (ks_heat_page_message_response_cb));
  gtk_widget_class_bind_template_callback (widget_class, edges_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, lambda_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_clicked_cb);
}

static void
ks_heat_page_init (KsHeatPage *self)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->want_lambda = NAN;
  self->want_hybrid = -1;
  self->lambda_b = NAN;
  self->best_lambda = self->best_iter_s = NAN;
  self->history = g_array_new (FALSE, FALSE, sizeof (KsHeatStepStats));
  self->new_steps = g_array_new (FALSE, FALSE, sizeof (KsHeatStepStats));
  self->group_settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->group_rows = g_ptr_array_new_with_free_func (g_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Russian choices must not set the form's width (a 1024-pixel projector). */
  ks_page_ellipsize_combo (GTK_COMBO_BOX (self->kind_combo));
  ks_page_ellipsize_combo (GTK_COMBO_BOX (self->domain_combo));
  lambda_changed_cb (self);

  gtk_file_filter_set_name (filter, _("Gmsh meshes and geometries (*.msh, *.geo)"));
  gtk_file_filter_add_pattern (filter, "*.msh");
  gtk_file_filter_add_pattern (filter, "*.geo");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->file_button), g_object_ref_sink (filter));

  self->mesh_plot = ks_plot_new ();
  ks_plot_set_title (self->mesh_plot, _("Heat: temperature"));
  ks_plot_view_set_plot (self->mesh_view, self->mesh_plot);
  ks_plot_view_set_placeholder (self->mesh_view, _("Building the mesh…"));
}

guint
ks_heat_page_get_shown_step (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), 0);
  return self->history->len > 0 ? g_array_index (self->history, KsHeatStepStats, self->history->len - 1).step : 0;
}

gboolean
ks_heat_page_is_ready (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), FALSE);
  return self->mesh != NULL;
}

void
ks_heat_page_set_mesh (KsHeatPage *self, const char *kind, const char *domain, guint cells)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  /* One rebuild for the three changes, not three. */
  g_signal_handlers_block_by_func (self->kind_combo, mesh_changed_cb, self);
  g_signal_handlers_block_by_func (self->domain_combo, mesh_changed_cb, self);
  g_signal_handlers_block_by_func (self->cells_spin, mesh_changed_cb, self);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->kind_combo), kind);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->domain_combo), domain);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->cells_spin), cells);
  g_signal_handlers_unblock_by_func (self->kind_combo, mesh_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->domain_combo, mesh_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->cells_spin, mesh_changed_cb, self);
  clear_file_cb (self);
}

void
ks_heat_page_set_file (KsHeatPage *self, const char *path)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  if (path == NULL)
    {
      clear_file_cb (self);
      return;
    }
  gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (self->file_button), path);
  g_free (self->file);
  self->file = g_strdup (path);
  mesh_changed_cb (self);
}

void
ks_heat_page_set_playing (KsHeatPage *self, gboolean playing)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->play_button), playing);
}

void
ks_heat_page_step (KsHeatPage *self)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  step_clicked_cb (self);
}

void
ks_heat_page_reset (KsHeatPage *self)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  reset_clicked_cb (self);
}

void
ks_heat_page_set_hybrid (KsHeatPage *self, gboolean on, double lambda)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  g_return_if_fail (lambda > 0);
  gtk_range_set_value (GTK_RANGE (self->lambda_scale), log2 (lambda));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->hybrid_check), on);
}

void
ks_heat_page_set_group_boundary (KsHeatPage *self, const char *group, gboolean fixed, double t)
{
  GroupSetting *gs;

  g_return_if_fail (KS_IS_HEAT_PAGE (self) && group != NULL);
  gs = g_new0 (GroupSetting, 1);
  gs->kind = fixed ? KS_HEAT_BOUNDARY_FIXED : KS_HEAT_BOUNDARY_INSULATED;
  gs->t = t;
  g_hash_table_replace (self->group_settings, g_strdup (group), gs);
  /* The rows show the new setting: made again from the settings. */
  g_ptr_array_set_size (self->group_rows, 0);
  if (self->mesh != NULL)
    show_groups (self, self->mesh);
  mesh_changed_cb (self);
}

void
ks_heat_page_set_problem (KsHeatPage *self, double d0, double energy, double tol)
{
  g_autofree char *id = NULL;

  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  g_signal_handlers_block_by_func (self->d0_spin, mesh_changed_cb, self);
  g_signal_handlers_block_by_func (self->energy_spin, mesh_changed_cb, self);
  g_signal_handlers_block_by_func (self->tol_combo, mesh_changed_cb, self);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->d0_spin), d0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->energy_spin), energy);
  /* The combo's ids are the tolerances it offers, "1e-8" and so on. */
  for (int e = 4; e <= 12 && id == NULL; e += 2)
    if (fabs (tol - pow (10, -e)) <= 1e-6 * tol)
      id = g_strdup_printf ("1e-%d", e);
  if (id == NULL || !gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->tol_combo), id))
    g_warning ("CG tolerance %g is not one the page offers", tol);
  g_signal_handlers_unblock_by_func (self->d0_spin, mesh_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->energy_spin, mesh_changed_cb, self);
  g_signal_handlers_unblock_by_func (self->tol_combo, mesh_changed_cb, self);
  mesh_changed_cb (self);
}

void
ks_heat_page_set_edges (KsHeatPage *self, gboolean show)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->edges_check), show);
}

gboolean
ks_heat_page_get_edges (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), FALSE);
  return ks_plot_has_mesh (self->mesh_plot) && ks_plot_get_mesh_edges (self->mesh_plot);
}

KsPlot *
ks_heat_page_get_time_plot (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), NULL);
  return self->time_plot;
}

const char *
ks_heat_page_get_message (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), NULL);
  return gtk_widget_get_visible (self->message_bar) ? gtk_label_get_text (GTK_LABEL (self->message_label)) : NULL;
}

void
ks_heat_page_get_color_range (KsHeatPage *self, double *min, double *max)
{
  g_return_if_fail (KS_IS_HEAT_PAGE (self) && min != NULL && max != NULL);
  *min = *max = NAN;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->fixed_scale_check)))
    {
      *min = 0.0;
      *max = self->color_max;
    }
  else if (self->recording && self->record_max > self->record_min)
    {
      *min = self->record_min;
      *max = self->record_max;
    }
}
