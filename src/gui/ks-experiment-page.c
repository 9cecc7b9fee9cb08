/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui-experiment"

#include "ks-experiment-page.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ks-access-view.h"
#include "ks-engine.h"
#include "ks-figure.h"
#include "ks-experiment-page-private.h"
#include "ks-image-strip.h"
#include "ks-run-table.h"

/* Saved settings: experiment id -> parameter -> text, one key for every
 * experiment, so a new description needs no schema change.  The page's
 * own fields take names no parameter can have. */
#define SETTINGS_KEY "experiment-params"
#define KEY_REPS     "@reps"
#define KEY_WARMUP   "@warmup"
#define KEY_MIN_X    "@min_x"
#define KEY_ALSO_ON  "@also_on"

G_DEFINE_TYPE (KsExperimentPage, ks_experiment_page, KS_TYPE_PAGE)



const KsFigureSpec *
ks_experiment_page_get_figure (KsExperimentPage *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->figure_combo));
  int i = id ? ks_experiment_desc_find_figure (self->desc, id) : -1;

  if (self->desc->n_figures == 0)
    return NULL;
  return &self->desc->figures[MAX (i, 0)];
}

/* What the user changed about the figure without running again. */
void
ks_experiment_page_get_figure_options (KsExperimentPage *self,
                                       KsFigureOptions  *options)
{
  const KsFigureSpec *figure = ks_experiment_page_get_figure (self);
  double min_x = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->min_x_spin));

  ks_figure_options_init (options);
  /* 0: everything, the spin button's floor. */
  if (figure != NULL && figure->min_x_option != NULL && min_x > 0)
    options->min_x = min_x;
}

static void
update_figure_controls (KsExperimentPage *self)
{
  const KsFigureSpec *figure = ks_experiment_page_get_figure (self);
  gboolean has_min_x = figure != NULL && figure->min_x_option != NULL;

  /* Drag across a numeric x to zoom into it (the paper's Fig. 6 is a
   * zoom into Fig. 5's group sizes). */
  ks_plot_view_set_zoomable (KS_PLOT_VIEW (self->plot_view), figure != NULL && !figure->categorical_x);
  gtk_widget_set_visible (self->min_x_label, has_min_x);
  gtk_widget_set_visible (self->min_x_spin, has_min_x);
  gtk_widget_set_tooltip_text (self->min_x_spin, has_min_x && figure->min_x_help ? _(figure->min_x_help) : NULL);
}

KsRun *
ks_experiment_page_get_newest (KsExperimentPage *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = self->runs->len; i > 0; i--)
      {
        Run *r = self->runs->pdata[i - 1];
        if (r->recorded == (pass == 1))
          return r->run;
      }
  return NULL;
}

/* --- the plot --------------------------------------------------------------------- */

static char *
point_tooltip (KsPlot  *plot,
               guint    series,
               guint    index,
               gpointer user_data)
{
  KsExperimentPage *self = user_data;
  const KsFigureSpec *figure = ks_experiment_page_get_figure (self);
  const KsPlotPoint *pp = ks_plot_series_get_point (plot, series, index);
  int y;

  if (figure == NULL || pp == NULL)
    return NULL;
  y = ks_experiment_desc_find_column (self->desc, figure->y);
  /* The figure may come from a description's own hook, so the series say
   * nothing certain about runs: the point is found by what it shows. */
  for (guint i = self->runs->len; i > 0; i--)
    {
      Run *r = self->runs->pdata[i - 1];

      if (!r->visible)
        continue;
      for (guint k = 0; k < r->run->points->len; k++)
        {
          const KsRunPoint *p = r->run->points->pdata[k];

          if (p->error == NULL && p->values[y] == pp->y
              && ks_run_point_get_number (r->run, p, figure->x) == pp->x)
            {
              g_autofree char *markup = ks_run_point_markup (r->run, p, figure);

              if (r->recorded)
                {
                  g_autofree char *name = ks_run_get_name (r->run);
                  g_autofree char *line = g_markup_printf_escaped (_("Recorded on %s"), name);
                  return g_strdup_printf ("%s\n<i>%s</i>", markup, line);
                }
              return g_steal_pointer (&markup);
            }
        }
    }
  return NULL;
}

void
ks_experiment_page_rebuild_plot (KsExperimentPage *self)
{
  const KsFigureSpec *figure = ks_experiment_page_get_figure (self);
  g_autoptr(GPtrArray) own = g_ptr_array_new ();
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(KsRun) empty = NULL;
  KsFigureOptions options;

  ks_experiment_page_get_figure_options (self, &options);
  for (guint i = 0; i < self->runs->len; i++)
    {
      Run *r = self->runs->pdata[i];
      if (r->visible && !r->recorded && r->run->points->len > 0)
        g_ptr_array_add (own, r->run);
    }
  if (own->len > 0)
    plot = ks_figure_plot_new (figure, (KsRun * const *) own->pdata, own->len, &options);
  else
    {
      /* No run of the user's yet: the figure's axes and title, with the
       * recorded runs over them, or nothing. */
      empty = ks_run_new (self->desc);
      /* A description's own figure hook may take its axes from the data
       * it is given: say them here, as the generic figure does. */
      options.log_y = options.log_y || (figure != NULL && figure->log_y);
      plot = ks_figure_plot_new (figure, &empty, 1, &options);
      ks_plot_set_caption (plot, "");
      if (figure != NULL)
        {
          g_autofree char *x = ks_run_name_label (self->desc, figure->x);
          g_autofree char *y = ks_run_name_label (self->desc, figure->y);
          ks_plot_set_axis_labels (plot, x, y);
        }
    }
  for (guint i = 0; i < self->runs->len; i++)
    {
      Run *r = self->runs->pdata[i];
      if (r->visible && r->recorded)
        ks_experiment_page_add_recorded_curves (r, figure, plot, &options);
    }
  ks_plot_set_fit_overlays (plot, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->zoom_recorded_button)));
  gtk_widget_set_visible (self->zoom_recorded_button, ks_plot_has_overlays_beside_data (plot));
  if (own->len == 0 && ks_plot_get_n_series (plot) > 0)
    {
      /* What a GPU shows, before this machine has measured anything. */
      KsRun *shown = ks_experiment_page_get_newest (self);
      g_autofree char *name = shown ? ks_run_get_name (shown) : g_strdup ("?");
      g_autofree char *caption = g_strdup_printf (_("What %s shows (recorded elsewhere, dashed); "
                                                    "press Run to measure this computer"), name);
      ks_plot_set_caption (plot, caption);
    }
  ks_plot_view_set_plot (KS_PLOT_VIEW (self->plot_view), plot);
  ks_page_emit_contents_changed (KS_PAGE (self));
}

static void
figure_changed_cb (KsExperimentPage *self)
{
  update_figure_controls (self);
  if (self->runs != NULL && self->form != NULL)
    {
      ks_experiment_page_rebuild_all (self);
      /* "Plot from" is kept with the form (the old "hide wg = 1"). */
      ks_experiment_page_save_settings (self);
    }
}

static void
zoom_changed_cb (KsExperimentPage *self)
{
  gtk_widget_set_visible (self->reset_zoom_button,
                          ks_plot_view_get_zoomed (KS_PLOT_VIEW (self->plot_view)));
}

static void
zoom_recorded_cb (KsExperimentPage *self)
{
  ks_experiment_page_rebuild_plot (self);
}

static void
reset_zoom_cb (KsExperimentPage *self)
{
  ks_plot_view_reset_zoom (KS_PLOT_VIEW (self->plot_view));
}

/* --- the table and the paper's numbers ------------------------------------------------ */

static void
rebuild_table (KsExperimentPage *self)
{
  KsRun *newest = ks_experiment_page_get_newest (self);

  g_clear_pointer (&self->table, ks_run_table_free);
  self->table_run = newest;
  if (newest == NULL)
    {
      gtk_tree_view_set_model (GTK_TREE_VIEW (self->table_view), NULL);
      return;
    }
  self->table = ks_run_table_new (GTK_TREE_VIEW (self->table_view), newest, ks_experiment_page_get_figure (self));
  for (guint i = 0; i < newest->points->len; i++)
    ks_run_table_append (self->table, newest, newest->points->pdata[i]);
}

static void
rebuild_paper_values (KsExperimentPage *self)
{
  KsRun *own = NULL;
  KsRun *shown;
  g_autofree char *heading = NULL;

  for (guint i = 0; i < self->runs->len; i++)
    if (!((Run *) self->runs->pdata[i])->recorded)
      own = ((Run *) self->runs->pdata[i])->run;
  /* "this run" only from the user's own; a recorded run's numbers are
   * labelled with its device, never as measured here. */
  shown = own ? own : ks_experiment_page_get_newest (self);
  if (own == NULL && shown != NULL && shown->devices->len > 0)
    heading = g_strdup_printf (_("%s, recorded"), ((KsRunDevice *) shown->devices->pdata[0])->name);
  gtk_widget_set_visible (self->paper_box, self->desc->n_paper_values > 0);
  ks_run_fill_paper_values (GTK_GRID (self->paper_grid), self->desc, shown, heading);
}

void
ks_experiment_page_rebuild_all (KsExperimentPage *self)
{
  rebuild_table (self);
  rebuild_paper_values (self);
  ks_experiment_page_rebuild_verdict (self);
  if (self->access_view != NULL)
    ks_access_view_set_run (KS_ACCESS_VIEW (self->access_view), ks_experiment_page_get_newest (self));
  ks_experiment_page_rebuild_plot (self);
  /* After the plot: a recorded run's curves are the plot's. */
  ks_experiment_page_rebuild_runs_list (self);
}

static void
clear_runs_cb (KsExperimentPage *self)
{
  for (guint i = self->runs->len; i > 0; i--)
    if (self->runs->pdata[i - 1] != self->live)
      g_ptr_array_remove_index (self->runs, i - 1);
  ks_experiment_page_rebuild_all (self);
}

void
ks_experiment_page_add_run (KsExperimentPage *self,
         KsRun            *run,
         gboolean          recorded)
{
  g_ptr_array_add (self->runs, ks_experiment_page_run_new (run, recorded));
  ks_experiment_page_rebuild_all (self);
}

typedef struct {
  KsExperimentPage *self;
  GHashTable       *taken;
} Taken;

/* The mnemonics a user can reach while this page shows: the window's
 * (Stop's too, hidden until a run) and the page's own, not the form's
 * (being chosen), other pages' or an open menu's. */
static void
collect_taken (GtkWidget *widget,
               gpointer   data)
{
  Taken *t = data;

  /* A menu's mnemonics work only while it is open, over everything else. */
  if (widget == GTK_WIDGET (t->self->form) || (KS_IS_PAGE (widget) && widget != GTK_WIDGET (t->self))
      || GTK_IS_POPOVER (widget) || GTK_IS_MENU (widget))
    return;
  /* Hidden for good where the description has one figure, or no "leave
   * out below" (Reset Zoom and Stop, hidden now, come back: they count). */
  if ((widget == t->self->figure_label || widget == t->self->min_x_label) && !gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)) != GDK_KEY_VoidSymbol)
    g_hash_table_add (t->taken, GUINT_TO_POINTER (gdk_keyval_to_lower (gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)))));
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_taken, data);
}

/* The recorded runs are megabytes of JSON: read them off the main thread,
 * the first time the page is shown, not when the window opens.  The form's
 * mnemonics are picked then too, when the window's are known. */
static void
ks_experiment_page_map (GtkWidget *widget)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (widget);

  GTK_WIDGET_CLASS (ks_experiment_page_parent_class)->map (widget);
  if (!self->mnemonics_done)
    {
      g_autoptr(GHashTable) taken = g_hash_table_new (NULL, NULL);
      Taken t = { self, taken };

      collect_taken (gtk_widget_get_toplevel (widget), &t);
      ks_param_form_assign_mnemonics (self->form, taken);
      self->mnemonics_done = TRUE;
      ks_experiment_page_update_hints (self);
    }
  ks_experiment_page_look_for_recorded (self);
}

/* --- settings ------------------------------------------------------------------ */

void
ks_experiment_page_save_settings (KsExperimentPage *self)
{
  GSettings *settings = ks_page_get_settings (KS_PAGE (self));
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GHashTable) values = NULL;
  GVariantBuilder builder, mine;
  GVariantIter iter;
  GHashTableIter it;
  const char *id;
  GVariant *other;
  gpointer key, value;

  if (settings == NULL || self->applying_settings)
    return;
  values = ks_param_form_get_values (self->form);
  g_hash_table_insert (values, g_strdup (KEY_REPS),
                       g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->reps_spin))));
  g_hash_table_insert (values, g_strdup (KEY_WARMUP),
                       g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->warmup_spin))));
  g_hash_table_insert (values, g_strdup (KEY_ALSO_ON), ks_experiment_page_get_also_on_text (self));
  g_hash_table_insert (values, g_strdup (KEY_MIN_X),
                       g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->min_x_spin))));
  g_variant_builder_init (&mine, G_VARIANT_TYPE ("a{ss}"));
  g_hash_table_iter_init (&it, values);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_variant_builder_add (&mine, "{ss}", key, value);
  /* Every other experiment's entry as it was, this one's replaced. */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sa{ss}}"));
  all = g_settings_get_value (settings, SETTINGS_KEY);
  g_variant_iter_init (&iter, all);
  while (g_variant_iter_next (&iter, "{&s@a{ss}}", &id, &other))
    {
      if (g_strcmp0 (id, self->desc->id) != 0)
        g_variant_builder_add (&builder, "{s@a{ss}}", id, other);
      g_variant_unref (other);
    }
  g_variant_builder_add (&builder, "{s@a{ss}}", self->desc->id, g_variant_builder_end (&mine));
  g_settings_set_value (settings, SETTINGS_KEY, g_variant_builder_end (&builder));
}

static void
form_changed_cb (KsExperimentPage *self)
{
  ks_experiment_page_save_settings (self);
  if (self->access_view != NULL && self->form != NULL)
    {
      g_autoptr(GHashTable) values = ks_param_form_get_values (self->form);
      ks_access_view_set_values (KS_ACCESS_VIEW (self->access_view), values);
    }
}

/* Expanded, the view takes most of the table's room (the table keeps a
 * row or two, and scrolls) and some of the plot's least height: at
 * 1024 x 768 there is no other. */
#define ACCESS_PLOT_LEAST_H  190
#define ACCESS_TABLE_LEAST_H 30

static void
access_expanded_cb (GtkExpander      *expander,
                    GParamSpec       *pspec,
                    KsExperimentPage *self)
{
  GtkPaned *paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (expander), GTK_TYPE_PANED));
  GtkScrolledWindow *table = GTK_SCROLLED_WINDOW (gtk_widget_get_parent (self->table_view));
  int *before = g_object_get_data (G_OBJECT (expander), "ks-before");

  if (gtk_expander_get_expanded (expander))
    {
      before[0] = gtk_paned_get_position (paned);
      gtk_widget_get_size_request (self->plot_view, &before[1], &before[2]);
      before[3] = gtk_scrolled_window_get_min_content_height (table);
      gtk_widget_set_size_request (self->plot_view, before[1], ACCESS_PLOT_LEAST_H);
      gtk_scrolled_window_set_min_content_height (table, ACCESS_TABLE_LEAST_H);
      /* The paned holds it to the table's least height. */
      gtk_paned_set_position (paned, G_MAXINT / 2);
    }
  else if (before[0] > 0)
    {
      gtk_widget_set_size_request (self->plot_view, before[1], before[2]);
      gtk_scrolled_window_set_min_content_height (table, before[3]);
      gtk_paned_set_position (paned, before[0]);
    }
}

/* "Inside the kernel" under the plot, collapsed: at 1024 x 768 the plot
 * keeps its room until the user asks for the picture. */
static void
add_access_view (KsExperimentPage *self)
{
  GtkWidget *column = gtk_widget_get_parent (self->verdict_box);
  GtkWidget *expander = gtk_expander_new (_("Inside the kernel"));

  gtk_widget_set_tooltip_text (expander, _("Which cache lines one warp of the kernel touches, step by step, "
                                           "and how many transactions that costs against the ideal"));
  gtk_widget_set_margin_start (expander, 8);
  gtk_widget_set_margin_end (expander, 8);
  self->access_view = ks_access_view_new (self->desc);
  gtk_container_add (GTK_CONTAINER (expander), self->access_view);
  gtk_box_pack_start (GTK_BOX (column), expander, FALSE, FALSE, 0);
  gtk_box_reorder_child (GTK_BOX (column), expander, 1);
  gtk_widget_show_all (expander);
  /* GTK 3's expander keeps a collapsed child mapped, a pixel high: hidden
   * instead, it draws nothing and its play stops (ks_access_view_unmap). */
  g_object_bind_property (expander, "expanded", self->access_view, "visible", G_BINDING_SYNC_CREATE);
  g_object_set_data_full (G_OBJECT (expander), "ks-before", g_new0 (int, 4), g_free);
  g_signal_connect (expander, "notify::expanded", G_CALLBACK (access_expanded_cb), self);
  {
    g_autoptr(GHashTable) values = ks_param_form_get_values (self->form);
    ks_access_view_set_values (KS_ACCESS_VIEW (self->access_view), values);
  }
}

/* Values the description no longer takes (renamed, a choice removed) are
 * left at their defaults rather than refusing the whole page. */
void
ks_experiment_page_apply_values (KsExperimentPage *self,
                                 GVariant         *values)
{
  GVariantIter iter;
  const char *name, *text;

  g_variant_iter_init (&iter, values);
  while (g_variant_iter_next (&iter, "{&s&s}", &name, &text))
    {
      if (g_strcmp0 (name, KEY_REPS) == 0)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->reps_spin), g_ascii_strtod (text, NULL));
      else if (g_strcmp0 (name, KEY_WARMUP) == 0)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->warmup_spin), g_ascii_strtod (text, NULL));
      else if (g_strcmp0 (name, KEY_MIN_X) == 0)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->min_x_spin), g_ascii_strtod (text, NULL));
      else if (g_strcmp0 (name, KEY_ALSO_ON) == 0)
        {
          g_auto(GStrv) ids = g_strsplit (text, ",", -1);
          gboolean applying = self->applying_settings;

          self->applying_settings = TRUE;
          ks_experiment_page_set_also_on (self, (const char * const *) ids);
          self->applying_settings = applying;
        }
      else if (ks_experiment_desc_find_param (self->desc, name) >= 0)
        ks_param_form_set_text (self->form, name, text);
    }
}

GVariant *
ks_experiment_page_upgrade_values (KsExperimentPage *self,
                                   GHashTable       *old)
{
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer key, value;

  if (self->desc->upgrade_values != NULL)
    self->desc->upgrade_values (self->desc, old);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_hash_table_iter_init (&iter, old);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_variant_builder_add (&builder, "{ss}", key, value);
  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

/* The form as the page saved it before the experiment had a description:
 * one GSettings key per field under the description's legacy prefix.
 * NULL where the user never set one of them. */
static GVariant *
legacy_settings (KsExperimentPage *self,
                 GSettings        *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GHashTable) old = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) keys = NULL;
  gboolean any = FALSE;
  gsize prefix_len;

  if (self->desc->legacy_prefix == NULL)
    return NULL;
  prefix_len = strlen (self->desc->legacy_prefix);
  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) v = NULL;
      g_autoptr(GVariant) user = NULL;
      char *text;

      if (!g_str_has_prefix (keys[i], self->desc->legacy_prefix))
        continue;
      /* Every key of the form (the defaults too: from needs its to), but
       * only where the user changed one of them. */
      user = g_settings_get_user_value (settings, keys[i]);
      any |= user != NULL;
      v = g_settings_get_value (settings, keys[i]);
      if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
        text = g_variant_dup_string (v, NULL);
      else if (g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
        text = g_strdup (g_variant_get_boolean (v) ? "true" : "false");
      else
        text = g_variant_print (v, FALSE);
      g_hash_table_insert (old, g_strdup (keys[i] + prefix_len), text);
    }
  return any ? ks_experiment_page_upgrade_values (self, old) : NULL;
}

static void
bind_settings (KsPage *page)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (page);
  GSettings *settings = ks_page_get_settings (page);
  g_autoptr(GVariant) all = g_settings_get_value (settings, SETTINGS_KEY);
  g_autoptr(GVariant) mine = g_variant_lookup_value (all, self->desc->id, G_VARIANT_TYPE ("a{ss}"));
  gboolean upgraded = FALSE;

  /* Never saved here yet: what the page saved before, once, moved over. */
  if (mine == NULL)
    upgraded = (mine = legacy_settings (self, settings)) != NULL;
  if (mine == NULL)
    return;
  self->applying_settings = TRUE;
  ks_experiment_page_apply_values (self, mine);
  self->applying_settings = FALSE;
  if (upgraded)
    ks_experiment_page_save_settings (self);
}

/* --- the page --------------------------------------------------------------------- */

static KsPlotView *
get_plot_view (KsPage *page)
{
  return KS_PLOT_VIEW (KS_EXPERIMENT_PAGE (page)->plot_view);
}

static void
device_changed (KsPage   *page,
                KsDevice *device)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (page);

  g_set_object (&self->device, device);
  if (self->access_view != NULL)
    ks_access_view_set_device (KS_ACCESS_VIEW (self->access_view), device);
  ks_param_form_set_backend (self->form, ks_device_get_backend (device));
  ks_experiment_page_fill_devices (self);
  /* Said before Run is pressed, not only in the engine's refusal after. */
  if (self->desc->backends != KS_BACKENDS_ALL && !(self->desc->backends & (1u << ks_device_get_backend (device))))
    {
      g_autofree char *where = ks_param_form_describe_backends (self->desc->backends);
      g_autofree char *text = g_strdup_printf (_("This experiment runs only on %s: pick one in the header bar."),
                                               where);

      gtk_label_set_text (GTK_LABEL (self->notes_label), text);
      gtk_widget_set_visible (self->notes_label, TRUE);
    }
  else if (!ks_page_get_running (page))
    gtk_widget_set_visible (self->notes_label, FALSE);
  ks_experiment_page_update_hints (self);
}

static void
running_changed_cb (KsExperimentPage *self)
{
  gboolean running = ks_page_get_running (KS_PAGE (self));

  /* The run reads the form when it starts; changing it meanwhile would
   * only mislead. */
  gtk_widget_set_sensitive (self->form_box, !running);
  gtk_widget_set_sensitive (self->reps_spin, !running);
  gtk_widget_set_sensitive (self->warmup_spin, !running);
  gtk_widget_set_sensitive (self->clear_button, !running);
  gtk_widget_set_sensitive (self->also_expander, !running);
}

/* Built from the description once it is known (construct time). */
static void
build_from_desc (KsExperimentPage *self)
{
  const KsExperimentDesc *desc = self->desc;
  g_autofree char *claim = desc->claim ? ks_param_form_reword (desc, _(desc->claim)) : g_strdup ("");

  gtk_label_set_text (GTK_LABEL (self->claim_label), claim);
  self->form = KS_PARAM_FORM (ks_param_form_new (desc));
  gtk_container_add (GTK_CONTAINER (self->form_box), GTK_WIDGET (self->form));
  g_signal_connect_swapped (self->form, "changed", G_CALLBACK (form_changed_cb), self);
  self->also_expander = gtk_expander_new (_("Also run on"));
  self->also_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_tooltip_text (self->also_expander,
                               _("Measure on these devices too, one after the other, each a curve of the same figure"));
  gtk_widget_set_margin_top (self->also_box, 4);
  gtk_container_add (GTK_CONTAINER (self->also_expander), self->also_box);
  gtk_widget_show (self->also_box);
  gtk_widget_set_margin_top (self->also_expander, 8);
  gtk_container_add (GTK_CONTAINER (self->form_box), self->also_expander);
  ks_experiment_page_fill_devices (self);
  for (guint i = 0; i < desc->n_figures; i++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->figure_combo), desc->figures[i].id,
                               _(desc->figures[i].title));
  if (desc->n_figures > 0)
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->figure_combo), 0);
  /* A figure's title (a sentence in Russian) must not set the page's width. */
  ks_page_ellipsize_combo (GTK_COMBO_BOX (self->figure_combo));
  /* One figure: nothing to choose. */
  gtk_widget_set_visible (self->figure_label, desc->n_figures > 1);
  gtk_widget_set_visible (self->figure_combo, desc->n_figures > 1);
  ks_plot_view_set_placeholder (KS_PLOT_VIEW (self->plot_view), _("Press Run to measure"));
  if (desc->access != NULL)
    add_access_view (self);
  update_figure_controls (self);
  ks_experiment_page_rebuild_all (self);
}

const KsExperimentDesc *
ks_experiment_page_get_desc (KsExperimentPage *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);
  return self->desc;
}

KsParamForm *
ks_experiment_page_get_form (KsExperimentPage *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);
  return self->form;
}

void
ks_experiment_page_set_repetitions (KsExperimentPage *self,
                                    guint             warmup,
                                    guint             reps)
{
  g_return_if_fail (KS_IS_EXPERIMENT_PAGE (self));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->warmup_spin), warmup);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->reps_spin), reps);
}

guint
ks_experiment_page_get_n_runs (KsExperimentPage *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), 0);
  return self->runs->len;
}

KsRun *
ks_experiment_page_get_run (KsExperimentPage *self,
                            guint             index)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);
  g_return_val_if_fail (index < self->runs->len, NULL);
  return ((Run *) self->runs->pdata[index])->run;
}

gboolean
ks_experiment_page_run_is_recorded (KsExperimentPage *self,
                                    guint             index)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), FALSE);
  g_return_val_if_fail (index < self->runs->len, FALSE);
  return ((Run *) self->runs->pdata[index])->recorded;
}

const char *
ks_experiment_page_get_notes (KsExperimentPage *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);
  return gtk_widget_get_visible (self->notes_label) ? gtk_label_get_text (GTK_LABEL (self->notes_label)) : "";
}

GtkTreeModel *
ks_experiment_page_get_table (KsExperimentPage *self)
{
  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);
  return gtk_tree_view_get_model (GTK_TREE_VIEW (self->table_view));
}

static const GActionEntry page_actions[] = {
  { "add-recorded", ks_experiment_page_add_recorded_activated, "s" },
  { "add-file", ks_experiment_page_add_file_activated },
};

static void
ks_experiment_page_dispose (GObject *object)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (object);

  /* A run in flight holds the page through its task; what the task does
   * on return checks runs == NULL and only ends the run. */
  if (self->engine != NULL)
    g_signal_handlers_disconnect_by_data (self->engine, self);
  self->live = NULL;
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->table, ks_run_table_free);
  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  g_clear_pointer (&self->also_on, g_hash_table_unref);
  g_clear_pointer (&self->auto_filled, g_hash_table_unref);
  g_clear_object (&self->recorded_menu);
  g_clear_object (&self->recorded_section);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  g_clear_object (&self->device);
  if (self->hints_cancellable != NULL)
    g_cancellable_cancel (self->hints_cancellable);
  g_clear_object (&self->hints_cancellable);
  G_OBJECT_CLASS (ks_experiment_page_parent_class)->dispose (object);
}

static void
ks_experiment_page_finalize (GObject *object)
{
  KsExperimentPage *self = KS_EXPERIMENT_PAGE (object);

  g_clear_object (&self->engine);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (ks_experiment_page_parent_class)->finalize (object);
}

static void
ks_experiment_page_class_init (KsExperimentPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  object_class->dispose = ks_experiment_page_dispose;
  object_class->finalize = ks_experiment_page_finalize;
  widget_class->map = ks_experiment_page_map;
  page_class->start = ks_experiment_page_start;
  page_class->get_plot_view = get_plot_view;
  page_class->save_state = ks_experiment_page_save_state;
  page_class->load_state = ks_experiment_page_load_state;
  page_class->device_changed = device_changed;
  page_class->bind_settings = bind_settings;
  page_class->has_data = ks_experiment_page_has_data;
  page_class->write_data = ks_experiment_page_write_data;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/kernelscope/Kernelscope/ui/ks-experiment-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, form_scroller);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, claim_label);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, form_box);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, reps_spin);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, warmup_spin);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, figure_label);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, figure_combo);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, min_x_label);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, min_x_spin);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, notes_label);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, paper_box);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, paper_grid);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, verdict_box);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, zoom_recorded_button);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, runs_list);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, add_recorded_button);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, clear_button);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, reset_zoom_button);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, plot_view);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, table_view);
  gtk_widget_class_bind_template_child (widget_class, KsExperimentPage, image_strip);
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, figure_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_runs_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_zoom_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_recorded_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_changed_cb);
}

static void
ks_experiment_page_init (KsExperimentPage *self)
{
  g_autoptr(GSimpleActionGroup) actions = g_simple_action_group_new ();
  g_autoptr(GMenu) other = g_menu_new ();

  g_type_ensure (KS_TYPE_PLOT_VIEW);
  g_type_ensure (KS_TYPE_IMAGE_STRIP);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->runs = g_ptr_array_new_with_free_func (ks_experiment_page_run_free);
  self->also_on = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->auto_filled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->recorded_menu = g_menu_new ();
  self->recorded_section = g_menu_new ();
  g_menu_append (other, _("Other File…"), "experiment.add-file");
  g_menu_append_section (self->recorded_menu, NULL, G_MENU_MODEL (self->recorded_section));
  g_menu_append_section (self->recorded_menu, NULL, G_MENU_MODEL (other));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->add_recorded_button),
                                  G_MENU_MODEL (self->recorded_menu));
  g_action_map_add_action_entries (G_ACTION_MAP (actions), page_actions, G_N_ELEMENTS (page_actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "experiment", G_ACTION_GROUP (actions));
  ks_plot_view_set_tooltip_func (KS_PLOT_VIEW (self->plot_view), point_tooltip, self);
  g_object_bind_property (self, "controls-visible", self->form_scroller, "visible", G_BINDING_SYNC_CREATE);
  g_signal_connect (self, "notify::running", G_CALLBACK (running_changed_cb), NULL);
}

GtkWidget *
ks_experiment_page_new (const KsExperimentDesc *desc)
{
  KsExperimentPage *self;

  g_return_val_if_fail (desc != NULL, NULL);
  self = g_object_new (KS_TYPE_EXPERIMENT_PAGE, NULL);
  self->desc = desc;
  gtk_widget_set_visible (self->image_strip, desc->images != NULL);
  build_from_desc (self);
  return GTK_WIDGET (self);
}
