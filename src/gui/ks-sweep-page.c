/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-sweep-page.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ks-eta.h"
#include "ks-experiment.h"
#include "ks-gauss.h"
#include "ks-results-plot.h"
#include "ks-compute-error.h"
#include "ks-gui-paths.h"
#include "ks-ogs.h"
#include "ks-reference.h"

enum {
  COL_N, COL_WG, COL_MEDIAN, COL_MIN, COL_MAX, COL_KERNELS, COL_GROUPS, COL_RESIDUAL,
  COL_NOTE, COL_WEIGHT,
};

/* One curve set in the plot: a live run (owned by its experiment) or a
 * finished one read from a session or a recorded file. */
typedef struct {
  KsExperiment *experiment;
  KsResults    *owned;
  char         *label;
  gboolean      visible;
  gboolean      recorded;
} Run;

/* Which run and matrix size each plot series shows (for tooltips). */
typedef struct {
  Run  *run;
  guint n;   /* wg sweeps: the size of the curve; 0 for size sweeps */
} SeriesRef;

typedef struct {
  GtkWidget    *form_grid, *form_scroller;
  GtkWidget    *from_label, *from_spin, *to_label, *to_spin, *step_label, *step_spin;
  GtkWidget    *sizes_label, *sizes_entry, *preset_label, *preset_combo;
  GtkWidget    *custom_label, *custom_entry;
  GtkWidget    *precision_combo, *range_combo, *local_combo;
  GtkWidget    *wg_label, *wg_spin, *reps_spin, *launch_combo;
  GtkWidget    *hide_one_check, *predicted_label;
  GtkWidget    *runs_list, *plot_view, *reset_zoom_button, *table_view, *add_recorded_button;
  GtkWidget    *clear_button;
  GtkListStore *table_store;
  GMenu        *recorded_menu;
  GtkFileChooserNative *chooser;
  gboolean      recorded_menu_filled;

  GPtrArray    *runs;          /* of Run, oldest first */
  Run          *live;
  GArray       *series;        /* of SeriesRef */
  KsDevice     *device;
  GCancellable *cancellable;
  /* The run being started, as the form was when Run was pressed: a wg
   * sweep builds its kernels first, and the form may change meanwhile. */
  KsSweepSpec   spec;          /* without sizes, wgs and command */
  char         *preset;
  GArray       *sizes;
  GArray       *wgs;
  gsize         probe_multiple;   /* the update kernel's, from the probe */
  gsize         probe_limit;
  KsEta        *eta;   /* the live run's share of time done, for time left */
  gint64        run_started;
} KsSweepPagePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (KsSweepPage, ks_sweep_page, KS_TYPE_PAGE)

static void rebuild_plot (KsSweepPage *self);
static void rebuild_runs_list (KsSweepPage *self);

/* Always the page's own copy: the experiment's results are written by its
 * worker thread while it runs, so the page never reads them before the run
 * has finished (see point_measured_cb and run_finished_cb). */
static const KsResults *
run_results (const Run *run)
{
  return run->owned;
}

/* A deep copy, through the JSON the results already round-trip with. */
static KsResults *
results_copy (const KsResults *r)
{
  g_autofree char *json = ks_results_to_json (r);
  return ks_results_from_json (json, -1, NULL);
}

static void
run_free (gpointer data)
{
  Run *run = data;

  g_clear_object (&run->experiment);
  g_clear_pointer (&run->owned, ks_results_free);
  g_free (run->label);
  g_free (run);
}

static KsExperimentKind
page_kind (KsSweepPage *self)
{
  return KS_SWEEP_PAGE_GET_CLASS (self)->kind;
}

/* --- table -------------------------------------------------------------- */

static char *
groups_text (const KsPoint *p)
{
  if (p->fwd_local[0] == 0)
    return g_strdup ("");
  /* TRANSLATORS: the update kernel's local size and, in brackets, how many
   * groups of it ran, e.g. "16 × 1 (7 × 120 groups)" */
  return g_strdup_printf (_("%u × %u (%u × %u groups)"), p->fwd_local[0], MAX (p->fwd_local[1], 1),
                          p->fwd_groups[0], MAX (p->fwd_groups[1], 1));
}

static void
table_append (KsSweepPage   *self,
              const KsPoint *p)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autofree char *wg = p->wg ? g_strdup_printf ("%u", p->wg) : g_strdup (_("driver"));
  g_autofree char *median = NULL, *mn = NULL, *mx = NULL, *kern = NULL, *res = NULL, *groups = NULL;
  g_autofree char *note = NULL;
  GtkTreeIter iter;

  if (p->error == NULL)
    {
      median = g_strdup_printf ("%.3f", p->median_ms);
      mn = g_strdup_printf ("%.3f", p->min_ms);
      mx = g_strdup_printf ("%.3f", p->max_ms);
      kern = g_strdup_printf ("%.3f", p->kernels_ms);
      res = g_strdup_printf ("%.1e", p->residual);
      groups = groups_text (p);
      if (p->n1_prime)
        note = g_strdup_printf (_("N+1 = %u is prime"), p->n + 1);
    }
  else
    note = g_strdup (p->error);

  gtk_list_store_insert_with_values (priv->table_store, &iter, -1,
                                     COL_N, p->n, COL_WG, wg, COL_MEDIAN, median,
                                     COL_MIN, mn, COL_MAX, mx, COL_KERNELS, kern,
                                     COL_GROUPS, groups, COL_RESIDUAL, res, COL_NOTE, note,
                                     COL_WEIGHT, p->n1_prime ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
                                     -1);
}

/* The table lists the newest run: the one the data export writes. */
static void
rebuild_table (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  const KsResults *results = ks_page_get_results (KS_PAGE (self));

  gtk_list_store_clear (priv->table_store);
  if (results == NULL)
    return;
  for (guint i = 0; i < results->points->len; i++)
    table_append (self, g_ptr_array_index (results->points, i));
}

/* --- plot --------------------------------------------------------------- */

static guint
min_wg (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (priv->hide_one_check)) ? 2 : 0;
}

static char *
caption_for (const KsResults *r)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *day = r->date ? g_strndup (r->date, 10) : NULL;
  g_autofree char *platform = g_strstrip (g_strdup_printf ("%s %s", r->platform ? r->platform : "",
                                                           r->driver ? r->driver : ""));

  /* A live run has no date yet, and a recorded one may lack a driver: only
   * the fields that are there, so the caption never shows "· ·". */
  g_ptr_array_add (parts, g_strdup (r->device_name ? r->device_name : "?"));
  if (*platform != '\0')
    g_ptr_array_add (parts, g_steal_pointer (&platform));
  g_ptr_array_add (parts, g_strdup (ks_precision_to_string (r->precision)));
  if (day != NULL && *day != '\0')
    g_ptr_array_add (parts, g_steal_pointer (&day));
  if (!r->complete)
    g_ptr_array_add (parts, g_strdup (_("incomplete")));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

static void
rebuild_plot (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autoptr(KsPlot) plot = ks_plot_new ();
  const Run *newest = NULL;
  gboolean wg_kind = page_kind (self) == KS_EXPERIMENT_GAUSS_WG;

  const Run *newest_live = NULL;

  for (guint i = 0; i < priv->runs->len; i++)
    {
      const Run *run = g_ptr_array_index (priv->runs, i);
      if (run->visible && !run->recorded)
        newest_live = run;
    }
  g_array_set_size (priv->series, 0);
  if (wg_kind)
    {
      ks_plot_set_title (plot, _("Gauss elimination: time vs work-group size"));
      ks_plot_set_axis_labels (plot, _("work-group size"), _("time per solve, ms"));
      ks_plot_set_log_y (plot, TRUE);
    }
  else
    {
      ks_plot_set_title (plot, _("Gauss elimination: time vs matrix size"));
      ks_plot_set_axis_labels (plot, _("matrix size n"), _("time per solve, ms"));
    }

  for (guint i = 0; i < priv->runs->len; i++)
    {
      Run *run = g_ptr_array_index (priv->runs, i);
      const KsResults *r = run_results (run);
      /* Older and recorded runs are dashed, so the newest live curve is the
       * one that stands out. */
      gboolean dashed = run != newest_live;
      guint before = ks_plot_get_n_series (plot);

      if (!run->visible)
        continue;
      newest = run;
      if (wg_kind)
        {
          g_autoptr(GArray) sizes = ks_results_get_sizes (r);

          g_autofree char *suffix = run->recorded
            ? g_strdup (_(" (recorded)"))
            : run != newest_live ? g_strdup_printf (_(" (run %u)"), i + 1) : NULL;

          ks_results_plot_add_wg_series_named (plot, r, min_wg (self), dashed, suffix);
          for (guint s = 0; s < sizes->len && before + s < ks_plot_get_n_series (plot); s++)
            {
              SeriesRef ref = { run, g_array_index (sizes, guint, s) };
              g_array_append_val (priv->series, ref);
            }
        }
      else
        {
          SeriesRef ref = { run, 0 };

          ks_results_plot_add_size_series (plot, r, run->label, dashed);
          g_array_append_val (priv->series, ref);
        }
    }
  ks_plot_set_highlight_legend (plot, _("N+1 prime"));
  /* The caption describes the user's own newest run, not an overlay. */
  if (newest_live != NULL)
    newest = newest_live;
  if (newest != NULL)
    {
      g_autofree char *caption = caption_for (run_results (newest));
      ks_plot_set_caption (plot, caption);
    }
  ks_plot_view_set_plot (KS_PLOT_VIEW (priv->plot_view), plot);
  /* Every change of the runs (added, removed, hidden, cleared, a point
   * measured, a session opened) comes through here. */
  ks_page_emit_contents_changed (KS_PAGE (self));
}

static void
rebuild_plot_cb (KsSweepPage *self)
{
  rebuild_plot (self);
}

static const KsPoint *
find_point (const KsResults *r,
            const SeriesRef *ref,
            double           x)
{
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (r->points, i);

      if (p->error != NULL)
        continue;
      if (ref->n == 0 && p->n == (guint) x)
        return p;
      if (ref->n != 0 && p->n == ref->n && p->wg == (guint) x)
        return p;
    }
  return NULL;
}

static char *
point_tooltip (KsPlot  *plot,
               guint    series,
               guint    index,
               gpointer user_data)
{
  KsSweepPage *self = user_data;
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  const KsPlotPoint *pp = ks_plot_series_get_point (plot, series, index);
  const SeriesRef *ref;
  const KsPoint *p;
  const KsResults *r;
  GString *s;

  if (series >= priv->series->len)
    return NULL;
  ref = &g_array_index (priv->series, SeriesRef, series);
  r = run_results (ref->run);
  p = find_point (r, ref, pp->x);
  if (p == NULL)
    return NULL;

  s = g_string_new (NULL);
  if (p->wg)
    g_string_append_printf (s, _("<b>n = %u, work-group %u</b>"), p->n, p->wg);
  else
    g_string_append_printf (s, _("<b>n = %u</b>"), p->n);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                          "\n%.3f ms per solve (min %.3f, max %.3f, %u run)",
                                          "\n%.3f ms per solve (min %.3f, max %.3f, %u runs)",
                                          p->reps),
                          p->median_ms, p->min_ms, p->max_ms, p->reps);
  if (p->fwd_local[0] != 0)
    {
      guint local = p->fwd_local[0] * MAX (p->fwd_local[1], 1);
      guint groups = p->fwd_groups[0] * MAX (p->fwd_groups[1], 1);

      /* "of size %u": the second number needs no plural of its own, and a
       * group of size 1 is the very case the paper is about. */
      if (p->n1_prime && p->wg == 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                                "\n<b>N+1 = %u is prime</b>: no group size but 1 and N+1 "
                                                "divides it, and the driver ran %u group of size %u",
                                                "\n<b>N+1 = %u is prime</b>: no group size but 1 and N+1 "
                                                "divides it, and the driver ran %u groups of size %u",
                                                groups),
                                p->n + 1, groups, local);
      else
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                                "\nThe update kernel ran %u group of size %u",
                                                "\nThe update kernel ran %u groups of size %u",
                                                groups),
                                groups, local);
    }
  else if (p->n1_prime)
    g_string_append_printf (s, _("\n<b>N+1 = %u is prime</b>"), p->n + 1);
  if (ref->run->recorded)
    {
      g_autofree char *dev = g_markup_escape_text (r->device_name ? r->device_name : "", -1);
      g_string_append_printf (s, _("\n<i>Recorded on %s</i>"), dev);
    }
  return g_string_free (s, FALSE);
}

static void
zoom_changed_cb (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  gtk_widget_set_visible (priv->reset_zoom_button,
                          ks_plot_view_get_zoomed (KS_PLOT_VIEW (priv->plot_view)));
}

static void
reset_zoom_cb (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  ks_plot_view_reset_zoom (KS_PLOT_VIEW (priv->plot_view));
}

/* --- runs list ---------------------------------------------------------- */

static void
run_toggled_cb (GtkToggleButton *check,
                KsSweepPage     *self)
{
  Run *run = g_object_get_data (G_OBJECT (check), "run");

  run->visible = gtk_toggle_button_get_active (check);
  rebuild_plot (self);
}

static void
run_remove_cb (GtkButton   *button,
               KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  Run *run = g_object_get_data (G_OBJECT (button), "run");

  if (run == priv->live)
    return;
  g_ptr_array_remove (priv->runs, run);
  rebuild_runs_list (self);
  rebuild_plot (self);
  rebuild_table (self);
}

static void
rebuild_runs_list (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  GList *children = gtk_container_get_children (GTK_CONTAINER (priv->runs_list));

  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);

  for (guint i = 0; i < priv->runs->len; i++)
    {
      Run *run = g_ptr_array_index (priv->runs, i);
      GtkWidget *row = ks_page_new_run_row (run->label, run->visible, run != priv->live,
                                            G_CALLBACK (run_toggled_cb), G_CALLBACK (run_remove_cb),
                                            run, self);

      gtk_container_add (GTK_CONTAINER (priv->runs_list), row);
    }
}

static const char *
local_policy_name (KsLocalPolicy local)
{
  switch (local)
    {
    case KS_LOCAL_EXPLICIT: return _("explicit");
    case KS_LOCAL_SPLIT:    return _("split");
    default:                return _("driver");
    }
}

/* NVIDIA's OpenCL platform calls itself "NVIDIA CUDA"; the device id says
 * which API really ran. */
static const char *
backend_of (const KsResults *r)
{
  if (r->device_id != NULL && g_str_has_prefix (r->device_id, "cuda"))
    return "CUDA";
  if (r->device_id != NULL && g_str_has_prefix (r->device_id, "opencl"))
    return "OpenCL";
  return _("host");
}

static char *
run_label (const KsResults *r,
           gboolean         recorded)
{
  g_autofree char *policy = NULL;
  const char *device = r->device_name ? r->device_name : "?";

  if (r->kind == KS_EXPERIMENT_GAUSS_WG)
    policy = g_strdup (local_policy_name (r->local));
  else if (r->local != KS_LOCAL_DRIVER)
    /* TRANSLATORS: a local-size policy and its group size, e.g. "split, group 256" */
    policy = g_strdup_printf (_("%s, group %u"), local_policy_name (r->local), r->wg);
  else
    policy = g_strdup (local_policy_name (r->local));

  if (r->launch == KS_LAUNCH_GRAPH)
    {
      char *with_graph = g_strdup_printf (_("%s, CUDA graph"), policy);
      g_free (policy);
      policy = with_graph;
    }
  if (recorded)
    /* TRANSLATORS: a run read from a file, e.g. "recorded: NVIDIA H200 (OpenCL) · driver" */
    return g_strdup_printf (_("recorded: %s (%s) · %s"), device, backend_of (r), policy);
  return g_strdup_printf ("%s · %s · %s", device, policy, ks_precision_to_string (r->precision));
}

static void
add_run (KsSweepPage *self,
         Run         *run)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  g_ptr_array_add (priv->runs, run);
  rebuild_runs_list (self);
  rebuild_plot (self);
  rebuild_table (self);
}

gboolean
ks_sweep_page_add_recorded (KsSweepPage *self,
                            const char  *path,
                            GError     **error)
{
  g_autoptr(KsResults) results = ks_results_load_json (path, error);
  Run *run;

  if (results == NULL)
    return FALSE;
  if (results->kind != page_kind (self))
    {
      g_autofree char *display = g_filename_display_name (path);
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   results->kind == KS_EXPERIMENT_GAUSS_WG
                   ? _("%s holds a time-vs-work-group-size run; open it on that page.")
                   : _("%s holds a time-vs-matrix-size run; open it on that page."), display);
      return FALSE;
    }
  run = g_new0 (Run, 1);
  run->label = run_label (results, TRUE);
  run->owned = g_steal_pointer (&results);
  run->visible = TRUE;
  run->recorded = TRUE;
  /* A recorded run sits under the live ones, so "newest" stays the user's. */
  add_run (self, run);
  return TRUE;
}

static void
recorded_response_cb (GtkNativeDialog *dialog,
                      int              response,
                      KsSweepPage     *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  priv->chooser = NULL;
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (!ks_sweep_page_add_recorded (self, path, &error))
        ks_page_emit_error (KS_PAGE (self), _("Could not add the recorded run"), error);
    }
  g_object_unref (dialog);
}

static void
add_file_activated (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  KsSweepPage *self = user_data;
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;
  g_autofree char *dir = ks_gui_reference_dir ();

  if (priv->chooser != NULL)
    return;
  filter = gtk_file_filter_new ();
  dialog = gtk_file_chooser_native_new (_("Add Recorded Run"), GTK_WINDOW (toplevel),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Kernelscope results (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (dir != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), dir);
  g_signal_connect (dialog, "response", G_CALLBACK (recorded_response_cb), self);
  /* Held by the page, so a dialog answered after the page is gone is
   * destroyed with it instead of calling back into freed memory. */
  priv->chooser = dialog;
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
add_recorded_activated (GSimpleAction *action,
                        GVariant      *param,
                        gpointer       user_data)
{
  KsSweepPage *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!ks_sweep_page_add_recorded (self, g_variant_get_string (param, NULL), &error))
    ks_page_emit_error (KS_PAGE (self), _("Could not add the recorded run"), error);
}

/* The runs shipped in data/reference that belong to this page's experiment,
 * each labelled by its device, API, policy and sizes.  Read when the menu
 * first opens, not at start-up: the recorded sweeps are megabytes of JSON. */
static void
fill_recorded_menu (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autoptr(GPtrArray) refs = ks_reference_list ();
  g_autoptr(GMenu) files = g_menu_new ();

  for (guint i = 0; i < refs->len; i++)
    {
      KsReference *ref = g_ptr_array_index (refs, i);
      g_autoptr(KsResults) r = NULL;
      g_autoptr(GArray) ns = NULL;
      g_autoptr(GMenuItem) item = NULL;
      g_autofree char *label = NULL;

      if (ref->kind != page_kind (self) || ref->n_points == 0)
        continue;
      r = ks_results_load_json (ref->path, NULL);
      if (r == NULL || r->points->len == 0)
        continue;
      ns = ks_results_get_sizes (r);
      /* TRANSLATORS: "NVIDIA H200 (OpenCL) · driver · n = 1018…2012" */
      label = g_strdup_printf (_("%s (%s) · %s · n = %u…%u"), r->device_name ? r->device_name : "?",
                               backend_of (r), r->launch == KS_LAUNCH_GRAPH
                               ? _("CUDA graph") : local_policy_name (r->local),
                               g_array_index (ns, guint, 0), g_array_index (ns, guint, ns->len - 1));
      item = g_menu_item_new (label, NULL);
      g_menu_item_set_action_and_target_value (item, "sweep.add-recorded",
                                               g_variant_new_string (ref->path));
      g_menu_append_item (files, item);
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (files)) > 0)
    g_menu_prepend_section (priv->recorded_menu, _("Recorded with Kernelscope"), G_MENU_MODEL (files));
}

static void
recorded_button_toggled_cb (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  if (!priv->recorded_menu_filled
      && gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (priv->add_recorded_button)))
    {
      priv->recorded_menu_filled = TRUE;
      fill_recorded_menu (self);
    }
}

static void
clear_runs_cb (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  for (guint i = priv->runs->len; i > 0; i--)
    if (g_ptr_array_index (priv->runs, i - 1) != priv->live)
      g_ptr_array_remove_index (priv->runs, i - 1);
  rebuild_runs_list (self);
  rebuild_plot (self);
  rebuild_table (self);
}

/* --- the form ----------------------------------------------------------- */

static void
form_changed_cb (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  const char *local = gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->local_combo));
  const char *preset = gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->preset_combo));

  gtk_widget_set_sensitive (priv->wg_spin, g_strcmp0 (local, "driver") != 0);
  gtk_widget_set_sensitive (priv->custom_entry, g_strcmp0 (preset, "custom") == 0);
}

static GtkWidget *
param_widget (KsSweepPage *self,
              const char  *name)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  const struct { const char *name; GtkWidget *w; } table[] = {
    { "from", priv->from_spin }, { "to", priv->to_spin }, { "step", priv->step_spin },
    { "wg", priv->wg_spin }, { "reps", priv->reps_spin }, { "sizes", priv->sizes_entry },
    { "custom", priv->custom_entry }, { "precision", priv->precision_combo },
    { "range", priv->range_combo }, { "local", priv->local_combo },
    { "preset", priv->preset_combo }, { "hide-one", priv->hide_one_check },
    { "launch", priv->launch_combo },
  };
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_strcmp0 (table[i].name, name) == 0)
      return table[i].w;
  return NULL;
}

static const char * const param_names[] = {
  "from", "to", "step", "wg", "reps", "sizes", "custom", "precision", "range", "local",
  "preset", "hide-one", "launch",
};

void
ks_sweep_page_set_param (KsSweepPage *self,
                         const char  *name,
                         const char  *value)
{
  GtkWidget *w = param_widget (self, name);

  g_return_if_fail (w != NULL);
  if (GTK_IS_SPIN_BUTTON (w))
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (w), g_ascii_strtod (value, NULL));
  else if (GTK_IS_ENTRY (w))
    gtk_entry_set_text (GTK_ENTRY (w), value);
  else if (GTK_IS_COMBO_BOX (w))
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (w), value);
  else if (GTK_IS_TOGGLE_BUTTON (w))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (w), g_strcmp0 (value, "true") == 0);
}

static char *
get_param (KsSweepPage *self,
           const char  *name)
{
  GtkWidget *w = param_widget (self, name);

  if (GTK_IS_SPIN_BUTTON (w))
    return g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (w)));
  if (GTK_IS_ENTRY (w))
    return g_strdup (gtk_entry_get_text (GTK_ENTRY (w)));
  if (GTK_IS_COMBO_BOX (w))
    return g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (w)));
  return g_strdup (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (w)) ? "true" : "false");
}

static guint
spin_uint (GtkWidget *spin)
{
  return (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin));
}

/* The group sizes of a preset: 1 and the multiples of the kernel's preferred
 * multiple, or 1 and the powers of two, up to what the kernel allows. */
static GArray *
preset_wgs (const char *preset,
            gsize       multiple,
            gsize       limit)
{
  GArray *wgs = g_array_new (FALSE, FALSE, sizeof (guint));
  guint one = 1;

  limit = MIN (MAX (limit, 1), 1024);
  multiple = MAX (multiple, 1);
  g_array_append_val (wgs, one);
  if (g_strcmp0 (preset, "powers") == 0)
    for (guint w = 2; w <= limit; w *= 2)
      g_array_append_val (wgs, w);
  else
    for (guint w = multiple; w <= limit; w += multiple)
      if (w > 1)
        g_array_append_val (wgs, w);
  return wgs;
}

/* --- running ------------------------------------------------------------ */

static void
point_measured_cb (KsExperiment  *experiment,
                   const KsPoint *point,
                   guint          done,
                   guint          total,
                   KsSweepPage   *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  if (priv->eta != NULL)
    ks_eta_add_point (priv->eta, point, (g_get_monotonic_time () - priv->run_started) / 1e6);
  /* The point lives in the experiment's array, but each point is its own
   * allocation and never changes after it is published: copying it here, on
   * the main thread, is safe while the worker adds the next one. */
  if (priv->live != NULL)
    ks_results_add_point (priv->live->owned, point);
  table_append (self, point);
  rebuild_plot (self);
  ks_page_emit_progress (KS_PAGE (self), done, total,
                         priv->eta != NULL ? ks_eta_get_fraction (priv->eta) : 0);
}

static void
run_finished_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(KsSweepPage) self = user_data;
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autoptr(GError) error = NULL;
  const KsResults *results;
  const KsPoint *first_failed = NULL;
  guint failed = 0;

  ks_experiment_run_finish (KS_EXPERIMENT (source), result, &error);
  /* The window closed mid-run: the page is gone, only the task held it;
   * the run is over, so the application may go too. */
  if (priv->runs == NULL)
    {
      ks_page_end_run (KS_PAGE (self));
      return;
    }
  if (priv->live != NULL)
    {
      /* The worker is done: take the experiment's complete results (header,
       * prediction, stop reason) in place of the copy grown point by point. */
      KsResults *final = results_copy (ks_experiment_get_results (priv->live->experiment));

      g_signal_handlers_disconnect_by_data (priv->live->experiment, self);
      if (final != NULL)
        {
          ks_results_free (priv->live->owned);
          priv->live->owned = final;
        }
      g_clear_object (&priv->live->experiment);
    }
  results = priv->live ? priv->live->owned : ks_experiment_get_results (KS_EXPERIMENT (source));
  /* A run that measured nothing (the kernels failed to build, or Stop came
   * before the first point) would only be an empty entry in the list; the
   * message in the window says what happened. */
  if (priv->live != NULL && results->points->len == 0)
    {
      g_ptr_array_remove (priv->runs, priv->live);
      results = NULL;
    }
  priv->live = NULL;
  g_clear_object (&priv->cancellable);
  g_clear_pointer (&priv->eta, ks_eta_free);
  rebuild_runs_list (self);
  rebuild_plot (self);
  rebuild_table (self);
  ks_page_emit_finished (KS_PAGE (self), error);
  if (results == NULL)
    return;

  /* A point the device refused (a group too large for the kernel, say) does
   * not stop the sweep; say so once at the end, not only in the table. */
  for (guint i = 0; i < results->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (results->points, i);
      if (p->error != NULL)
        {
          failed++;
          if (first_failed == NULL)
            first_failed = p;
        }
    }
  if (error == NULL && failed > 0)
    {
      g_autofree char *title = g_strdup_printf (
        g_dngettext (GETTEXT_PACKAGE, "%u of %u points could not be measured; the table says why",
                     "%u of %u points could not be measured; the table says why", failed),
        failed, results->points->len);
      g_autoptr(GError) first = first_failed->wg
        ? g_error_new (KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("n = %u, work-group %u: %s"),
                       first_failed->n, first_failed->wg, first_failed->error)
        : g_error_new (KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("n = %u: %s"),
                       first_failed->n, first_failed->error);
      ks_page_emit_error (KS_PAGE (self), title, first);
    }
}

static gboolean
start_experiment (KsSweepPage *self,
                  GError     **error)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autoptr(KsExperiment) experiment = NULL;
  g_autofree char *command = NULL;
  KsSweepSpec spec = priv->spec;
  Run *run;

  spec.sizes = (const guint *) priv->sizes->data;
  spec.n_sizes = priv->sizes->len;
  spec.wgs = priv->wgs ? (const guint *) priv->wgs->data : NULL;
  spec.n_wgs = priv->wgs ? priv->wgs->len : 0;
  /* The equivalent CLI command, recorded with the results. */
  command = g_strdup_printf ("kernelscope (GUI) %s on %s", ks_experiment_kind_to_string (spec.kind),
                             ks_device_get_id (priv->device));
  spec.command = command;

  experiment = ks_experiment_new (priv->device, &spec, error);
  if (experiment == NULL)
    return FALSE;

  g_clear_pointer (&priv->eta, ks_eta_free);
  priv->eta = ks_eta_new (&spec);
  priv->run_started = g_get_monotonic_time ();

  run = g_new0 (Run, 1);
  run->experiment = g_object_ref (experiment);
  run->visible = TRUE;
  {
    /* The page's own results for the run, grown point by point; the header
     * is what the page already knows, until the engine's complete results
     * replace it at the end. */
    const KsDeviceInfo *info = ks_device_get_info (priv->device);
    KsResults *r = ks_results_new (spec.kind);

    r->device_id = g_strdup (info->id);
    r->device_name = g_strdup (info->name);
    r->platform = g_strdup (info->platform_name);
    r->driver = g_strdup (info->driver_version);
    r->precision = spec.precision;
    r->range = spec.range;
    r->local = spec.local;
    r->wg = spec.wg;
    r->launch = spec.launch;
    r->warmup = spec.warmup;
    r->reps = spec.reps;
    r->seed = spec.seed;
    if (spec.kind == KS_EXPERIMENT_GAUSS_WG && priv->probe_multiple > 0)
      {
        /* The paper's rule from the probe's kernel, as the engine will
         * record it at the end, so the predicted optimum is drawn while
         * the curves grow and not only once the run is over. */
        KsOgsPrediction prediction;

        r->pwgsm = priv->probe_multiple;
        r->cores_per_cu = ks_device_get_cores_per_cu (priv->device);
        r->compute_units = info->compute_units;
        if (ks_ogs_predict (r->pwgsm, r->cores_per_cu, r->compute_units, priv->probe_limit, &prediction))
          {
            r->ogs_predicted = prediction.ogs;
            r->ogs_usable = prediction.usable;
          }
      }
    run->owned = r;
    run->label = run_label (r, FALSE);
  }
  priv->live = run;
  g_ptr_array_add (priv->runs, run);
  rebuild_runs_list (self);
  rebuild_table (self);
  rebuild_plot (self);

  g_signal_connect (experiment, "point-measured", G_CALLBACK (point_measured_cb), self);
  ks_experiment_run_async (experiment, priv->cancellable, run_finished_cb, g_object_ref (self));
  return TRUE;
}

typedef struct {
  KsDevice   *device;
  KsPrecision precision;
  gsize       multiple;
  gsize       limit;
} Probe;

static void
probe_free (gpointer data)
{
  Probe *probe = data;
  g_object_unref (probe->device);
  g_free (probe);
}

/* Builds the kernels once off the main thread to learn the update kernel's
 * own limits, which can be below the device's (256 against 1024 on an H200). */
static void
probe_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Probe *probe = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (probe->device, probe->precision, &error);

  if (solver == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  probe->multiple = ks_gauss_solver_get_preferred_multiple (solver);
  probe->limit = ks_gauss_solver_get_max_work_group_size (solver);
  g_task_return_boolean (task, TRUE);
}

static void
probe_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  KsSweepPage *self = KS_SWEEP_PAGE (source);
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  Probe *probe = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* The window closed while the kernels were building: nothing to start. */
  if (priv->runs == NULL)
    {
      ks_page_end_run (KS_PAGE (self));
      return;
    }
  if (!g_task_propagate_boolean (G_TASK (result), &error)
      || !g_cancellable_set_error_if_cancelled (priv->cancellable, &error))
    {
      if (error == NULL)
        {
          priv->probe_multiple = probe->multiple;
          priv->probe_limit = probe->limit;
          /* A custom list was read when Run was pressed; a preset needs
           * the kernel's multiple and limit, known only now. */
          if (priv->wgs == NULL)
            priv->wgs = preset_wgs (priv->preset, probe->multiple, probe->limit);
          if (start_experiment (self, &error))
            return;
        }
    }
  g_clear_object (&priv->cancellable);
  ks_page_emit_finished (KS_PAGE (self), error);
}

/* Everything the run reads from the form, read once when Run is pressed. */
static void
snapshot_form (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  KsSweepSpec *spec = &priv->spec;

  memset (spec, 0, sizeof *spec);
  spec->kind = page_kind (self);
  ks_precision_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->precision_combo)),
                            &spec->precision);
  ks_range_policy_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->range_combo)),
                               &spec->range);
  ks_local_policy_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->local_combo)),
                               &spec->local);
  spec->wg = spec->local == KS_LOCAL_DRIVER ? 0 : spin_uint (priv->wg_spin);
  ks_launch_mode_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->launch_combo)),
                              &spec->launch);
  spec->warmup = 1;
  spec->reps = spin_uint (priv->reps_spin);
  spec->seed = 42;
  g_free (priv->preset);
  priv->preset = g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->preset_combo)));
}

static gboolean
ks_sweep_page_start (KsPage        *page,
                     KsDevice      *device,
                     GCancellable  *cancellable,
                     GError       **error)
{
  KsSweepPage *self = KS_SWEEP_PAGE (page);
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GArray) wgs = NULL;
  g_autoptr(GTask) task = NULL;
  Probe *probe;

  if (page_kind (self) == KS_EXPERIMENT_GAUSS_SIZE)
    {
      guint from = spin_uint (priv->from_spin), to = spin_uint (priv->to_spin);
      guint step = MAX (spin_uint (priv->step_spin), 1);

      if (from > to)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("“From n” (%u) is larger than “To n” (%u)."), from, to);
          return FALSE;
        }
      sizes = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint n = from; n <= to; n += step)
        g_array_append_val (sizes, n);
    }
  else
    {
      const char *preset = gtk_combo_box_get_active_id (GTK_COMBO_BOX (priv->preset_combo));

      sizes = ks_parse_uint_list (gtk_entry_get_text (GTK_ENTRY (priv->sizes_entry)), 2, 100000, error);
      if (sizes == NULL)
        {
          g_prefix_error (error, _("Matrix sizes: "));
          return FALSE;
        }
      if (g_strcmp0 (preset, "custom") == 0)
        {
          wgs = ks_parse_uint_list (gtk_entry_get_text (GTK_ENTRY (priv->custom_entry)),
                                    1, 1 << 20, error);
          if (wgs == NULL)
            {
              g_prefix_error (error, _("Work-group sizes: "));
              return FALSE;
            }
        }
      if (ks_device_get_backend (device) == KS_BACKEND_HOST)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                       _("The host runs plain C loops and has no work-groups to sweep; "
                         "choose an OpenCL or CUDA device."));
          return FALSE;
        }
    }

  g_set_object (&priv->device, device);
  g_set_object (&priv->cancellable, cancellable);
  snapshot_form (self);
  g_clear_pointer (&priv->sizes, g_array_unref);
  priv->sizes = g_steal_pointer (&sizes);
  g_clear_pointer (&priv->wgs, g_array_unref);
  priv->wgs = g_steal_pointer (&wgs);
  priv->probe_multiple = 0;
  priv->probe_limit = 0;

  if (page_kind (self) != KS_EXPERIMENT_GAUSS_WG)
    return start_experiment (self, error);

  /* A group-size sweep builds the kernels first: a preset's group sizes
   * depend on the update kernel's preferred multiple and limit, and the
   * predicted optimum drawn while the run grows needs them too. */
  probe = g_new0 (Probe, 1);
  probe->device = g_object_ref (device);
  probe->precision = priv->spec.precision;
  task = g_task_new (self, cancellable, probe_done_cb, NULL);
  g_task_set_task_data (task, probe, probe_free);
  g_task_run_in_thread (task, probe_thread);
  return TRUE;
}

/* --- page interface ----------------------------------------------------- */

static KsPlotView *
ks_sweep_page_get_plot_view (KsPage *page)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (KS_SWEEP_PAGE (page));
  return KS_PLOT_VIEW (priv->plot_view);
}

static const KsResults *
ks_sweep_page_get_results (KsPage *page)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (KS_SWEEP_PAGE (page));

  /* The newest run the user measured here; a recorded overlay only when
   * there is nothing else. */
  for (guint i = priv->runs->len; i > 0; i--)
    {
      Run *run = g_ptr_array_index (priv->runs, i - 1);
      if (!run->recorded)
        return run_results (run);
    }
  return priv->runs->len ? run_results (g_ptr_array_index (priv->runs, priv->runs->len - 1)) : NULL;
}

static void
ks_sweep_page_save_state (KsPage      *page,
                          JsonBuilder *b)
{
  KsSweepPage *self = KS_SWEEP_PAGE (page);
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  json_builder_set_member_name (b, "params");
  json_builder_begin_object (b);
  for (guint i = 0; i < G_N_ELEMENTS (param_names); i++)
    {
      g_autofree char *value = get_param (self, param_names[i]);
      json_builder_set_member_name (b, param_names[i]);
      json_builder_add_string_value (b, value ? value : "");
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < priv->runs->len; i++)
    {
      Run *run = g_ptr_array_index (priv->runs, i);
      g_autofree char *json = ks_results_to_json (run_results (run));
      g_autoptr(JsonNode) node = json_from_string (json, NULL);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, run->label);
      json_builder_set_member_name (b, "visible");
      json_builder_add_boolean_value (b, run->visible);
      json_builder_set_member_name (b, "recorded");
      json_builder_add_boolean_value (b, run->recorded);
      json_builder_set_member_name (b, "results");
      json_builder_add_value (b, g_steal_pointer (&node));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static gboolean
ks_sweep_page_load_state (KsPage     *page,
                          JsonObject *object,
                          GError    **error)
{
  KsSweepPage *self = KS_SWEEP_PAGE (page);
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func (run_free);
  JsonNode *params = json_object_get_member (object, "params");
  JsonNode *runs_node = json_object_get_member (object, "runs");

  if (priv->live != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("a run is in progress"));
      return FALSE;
    }
  if ((params != NULL && !JSON_NODE_HOLDS_OBJECT (params))
      || (runs_node != NULL && !JSON_NODE_HOLDS_ARRAY (runs_node)))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("“params” must be an object and “runs” an array"));
      return FALSE;
    }

  /* Read every run first: nothing on the page changes unless all are good. */
  for (guint i = 0; runs_node != NULL && i < json_array_get_length (json_node_get_array (runs_node)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (runs_node), i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
      JsonNode *rnode = o ? json_object_get_member (o, "results") : NULL;
      g_autofree char *text = rnode ? json_to_string (rnode, FALSE) : NULL;
      g_autoptr(GError) local_error = NULL;
      KsResults *results;
      Run *run;

      if (text == NULL)
        {
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("run %u has no results"), i + 1);
          return FALSE;
        }
      results = ks_results_from_json (text, -1, &local_error);
      if (results == NULL)
        {
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("run %u: %s"), i + 1, local_error->message);
          return FALSE;
        }
      if (results->kind != page_kind (self))
        {
          ks_results_free (results);
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("run %u belongs to another experiment"), i + 1);
          return FALSE;
        }
      run = g_new0 (Run, 1);
      run->owned = results;
      run->recorded = json_object_get_boolean_member_with_default (o, "recorded", FALSE);
      run->visible = json_object_get_boolean_member_with_default (o, "visible", TRUE);
      run->label = g_strdup (json_object_get_string_member_with_default (o, "label", NULL));
      if (run->label == NULL)
        run->label = run_label (results, run->recorded);
      g_ptr_array_add (runs, run);
    }

  if (params != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (param_names); i++)
      {
        JsonNode *v = json_object_get_member (json_node_get_object (params), param_names[i]);
        if (v != NULL && JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING)
          ks_sweep_page_set_param (self, param_names[i], json_node_get_string (v));
      }
  g_ptr_array_set_size (priv->runs, 0);
  for (guint i = 0; i < runs->len; i++)
    g_ptr_array_add (priv->runs, g_ptr_array_index (runs, i));
  g_ptr_array_set_free_func (runs, NULL);
  rebuild_runs_list (self);
  rebuild_plot (self);
  rebuild_table (self);
  return TRUE;
}

static void
ks_sweep_page_device_changed (KsPage   *page,
                              KsDevice *device)
{
  KsSweepPage *self = KS_SWEEP_PAGE (page);
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  const KsDeviceInfo *info = ks_device_get_info (device);
  g_autofree char *text = NULL;
  gboolean cuda = info->backend == KS_BACKEND_CUDA;

  /* Graphs are a CUDA feature; elsewhere the choice is not offered. */
  if (!cuda)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->launch_combo), "stream");
  gtk_widget_set_sensitive (priv->launch_combo, cuda);
  if (page_kind (self) != KS_EXPERIMENT_GAUSS_WG)
    return;
  if (ks_device_get_preferred_multiple (device) > 0)
    text = g_strdup_printf (_("Preferred multiple on this device: %lu. The predicted optimum is drawn as a vertical line."),
                            (unsigned long) ks_device_get_preferred_multiple (device));
  else
    text = g_strdup (_("This device reports no preferred work-group multiple."));
  gtk_label_set_text (GTK_LABEL (priv->predicted_label), text);
}

static void
ks_sweep_page_constructed (GObject *object)
{
  KsSweepPage *self = KS_SWEEP_PAGE (object);
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  gboolean wg_kind = page_kind (self) == KS_EXPERIMENT_GAUSS_WG;
  GtkWidget *size_only[] = { priv->from_label, priv->from_spin, priv->to_label, priv->to_spin,
                             priv->step_label, priv->step_spin, priv->wg_label, priv->wg_spin };
  GtkWidget *wg_only[] = { priv->sizes_label, priv->sizes_entry, priv->preset_label,
                           priv->preset_combo, priv->custom_label, priv->custom_entry,
                           priv->hide_one_check, priv->predicted_label };

  G_OBJECT_CLASS (ks_sweep_page_parent_class)->constructed (object);

  {
    const GActionEntry entries[] = {
      { "add-recorded", add_recorded_activated, "s" },
      { "add-file", add_file_activated },
    };
    g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
    g_autoptr(GMenu) other = g_menu_new ();

    g_action_map_add_action_entries (G_ACTION_MAP (group), entries, G_N_ELEMENTS (entries), self);
    gtk_widget_insert_action_group (GTK_WIDGET (self), "sweep", G_ACTION_GROUP (group));
    priv->recorded_menu = g_menu_new ();
    g_menu_append (other, _("Other File…"), "sweep.add-file");
    g_menu_append_section (priv->recorded_menu, NULL, G_MENU_MODEL (other));
    gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (priv->add_recorded_button),
                                    G_MENU_MODEL (priv->recorded_menu));
    g_signal_connect_swapped (priv->add_recorded_button, "toggled",
                              G_CALLBACK (recorded_button_toggled_cb), self);
  }

  for (guint i = 0; i < G_N_ELEMENTS (size_only); i++)
    gtk_widget_set_visible (size_only[i], !wg_kind);
  for (guint i = 0; i < G_N_ELEMENTS (wg_only); i++)
    gtk_widget_set_visible (wg_only[i], wg_kind);
  if (wg_kind)
    {
      /* A work-group sweep sets the group size itself. */
      gtk_combo_box_text_remove (GTK_COMBO_BOX_TEXT (priv->local_combo), 0);
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->local_combo), "explicit");
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->preset_combo), "multiples");
      gtk_entry_set_text (GTK_ENTRY (priv->sizes_entry), "100:400:100");
      gtk_entry_set_text (GTK_ENTRY (priv->custom_entry), "1,32:256:32");
      ks_plot_view_set_zoomable (KS_PLOT_VIEW (priv->plot_view), TRUE);
      ks_plot_view_set_placeholder (KS_PLOT_VIEW (priv->plot_view),
                                    _("Press Run (Ctrl+R) to measure the time of one solve for each work-group size.\n"
                                      "Drag across the plot to zoom into a range of group sizes."));
    }
  else
    {
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->local_combo), "driver");
      ks_plot_view_set_placeholder (KS_PLOT_VIEW (priv->plot_view),
                                    _("Press Run (Ctrl+R) to measure the time of one solve for each matrix size.\n"
                                      "Sizes where N+1 is prime are highlighted: there the driver may pick tiny work-groups."));
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->precision_combo), "float");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->range_combo), "fixed");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (priv->launch_combo), "stream");
  form_changed_cb (self);
  rebuild_plot (self);
}

/* Settings are bound once the window has handed the page its GSettings. */
static void
ks_sweep_page_bind_settings (KsPage *page)
{
  KsSweepPage *self = KS_SWEEP_PAGE (page);
  const char *prefix = KS_SWEEP_PAGE_GET_CLASS (self)->settings_prefix;
  const struct { const char *key; const char *param; } binds[] = {
    { "from", "from" }, { "to", "to" }, { "step", "step" }, { "wg", "wg" }, { "reps", "reps" },
    { "sizes", "sizes" }, { "custom", "custom" }, { "precision", "precision" },
    { "range", "range" }, { "local", "local" }, { "preset", "preset" }, { "hide-one", "hide-one" },
    { "launch", "launch" },
  };
  GSettings *settings = ks_page_get_settings (page);
  g_autoptr(GSettingsSchema) schema = NULL;

  if (settings == NULL)
    return;
  g_object_get (settings, "settings-schema", &schema, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (binds); i++)
    {
      g_autofree char *key = g_strconcat (prefix, binds[i].key, NULL);
      GtkWidget *w = param_widget (self, binds[i].param);

      if (!g_settings_schema_has_key (schema, key))
        continue;
      if (GTK_IS_SPIN_BUTTON (w))
        ks_page_bind_spin (page, key, GTK_SPIN_BUTTON (w));
      else if (GTK_IS_ENTRY (w))
        ks_page_bind_entry (page, key, GTK_ENTRY (w));
      else if (GTK_IS_COMBO_BOX (w))
        ks_page_bind_combo (page, key, GTK_COMBO_BOX (w));
      else if (GTK_IS_TOGGLE_BUTTON (w))
        ks_page_bind_toggle (page, key, GTK_TOGGLE_BUTTON (w));
    }
}

static void
ks_sweep_page_dispose (GObject *object)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (KS_SWEEP_PAGE (object));

  if (priv->cancellable != NULL)
    g_cancellable_cancel (priv->cancellable);
  g_clear_object (&priv->cancellable);
  if (priv->live != NULL)
    g_signal_handlers_disconnect_by_data (priv->live->experiment, object);
  priv->live = NULL;
  g_clear_pointer (&priv->runs, g_ptr_array_unref);
  g_clear_pointer (&priv->series, g_array_unref);
  g_clear_pointer (&priv->sizes, g_array_unref);
  g_clear_pointer (&priv->wgs, g_array_unref);
  g_clear_pointer (&priv->preset, g_free);
  g_clear_pointer (&priv->eta, ks_eta_free);
  g_clear_object (&priv->device);
  g_clear_object (&priv->recorded_menu);
  if (priv->chooser != NULL)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (priv->chooser));
      g_clear_object (&priv->chooser);
    }
  G_OBJECT_CLASS (ks_sweep_page_parent_class)->dispose (object);
}

static void
ks_sweep_page_class_init (KsSweepPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  object_class->constructed = ks_sweep_page_constructed;
  object_class->dispose = ks_sweep_page_dispose;
  page_class->start = ks_sweep_page_start;
  page_class->get_plot_view = ks_sweep_page_get_plot_view;
  page_class->get_results = ks_sweep_page_get_results;
  page_class->save_state = ks_sweep_page_save_state;
  page_class->load_state = ks_sweep_page_load_state;
  page_class->device_changed = ks_sweep_page_device_changed;
  page_class->bind_settings = ks_sweep_page_bind_settings;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/kernelscope/Kernelscope/ui/ks-sweep-page.ui");
#define BIND(name) gtk_widget_class_bind_template_child_private (widget_class, KsSweepPage, name)
  BIND (form_grid); BIND (form_scroller);
  BIND (from_label); BIND (from_spin); BIND (to_label); BIND (to_spin);
  BIND (step_label); BIND (step_spin); BIND (sizes_label); BIND (sizes_entry);
  BIND (preset_label); BIND (preset_combo); BIND (custom_label); BIND (custom_entry);
  BIND (precision_combo); BIND (range_combo); BIND (local_combo);
  BIND (wg_label); BIND (wg_spin); BIND (reps_spin); BIND (launch_combo);
  BIND (hide_one_check); BIND (predicted_label);
  BIND (runs_list); BIND (plot_view); BIND (reset_zoom_button); BIND (table_view);
  BIND (add_recorded_button); BIND (clear_button);
  BIND (table_store);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, rebuild_plot_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_runs_cb);
  gtk_widget_class_bind_template_callback (widget_class, zoom_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, reset_zoom_cb);
}

static void
ks_sweep_page_init (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);

  g_type_ensure (KS_TYPE_PLOT_VIEW);
  gtk_widget_init_template (GTK_WIDGET (self));
  priv->runs = g_ptr_array_new_with_free_func (run_free);
  priv->series = g_array_new (FALSE, FALSE, sizeof (SeriesRef));
  ks_plot_view_set_tooltip_func (KS_PLOT_VIEW (priv->plot_view), point_tooltip, self);
  {
    GtkWidget *combos[] = { priv->preset_combo, priv->precision_combo, priv->range_combo,
                            priv->local_combo, priv->launch_combo };
    for (guint i = 0; i < G_N_ELEMENTS (combos); i++)
      ks_page_ellipsize_combo (GTK_COMBO_BOX (combos[i]));
  }
  /* Presenting (F9): the form and the runs list step aside for the plot. */
  g_object_bind_property (self, "controls-visible", priv->form_scroller, "visible",
                          G_BINDING_SYNC_CREATE);
}

guint
ks_sweep_page_get_n_runs (KsSweepPage *self)
{
  KsSweepPagePrivate *priv = ks_sweep_page_get_instance_private (self);
  return priv->runs->len;
}
