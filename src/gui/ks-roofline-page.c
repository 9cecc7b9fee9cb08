/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-roofline-page.c: every loaded run against its device's floor
 * (ks-roofline-page.h). */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-roofline-page.h"

#include <glib/gi18n.h>

#include "ks-bench-probes.h"
#include "ks-experiment-page.h"
#include "ks-recorded.h"

/* A run the page can draw: one of this session's (an experiment page's),
 * a recorded one, or a file the user added. */
typedef struct {
  KsRun    *run;
  char     *label;    /* "recorded", the file's name; NULL: this session's */
  gboolean  shown;
  gboolean  session;
} Entry;

struct _KsRooflinePage {
  KsPage parent_instance;

  GtkWidget    *list, *view, *notes_label;
  GPtrArray    *entries;     /* of Entry, in the list's order */
  GPtrArray    *teachers;    /* of KsRun: every recorded run, on the roofline or not, for its triads */
  KsRoofline   *roofline;
  KsDevice     *device;      /* the header bar's */
  GCancellable *cancellable;
  gboolean      looked;
  gboolean      reading;     /* the worker is reading the recorded runs */
  char         *notes;
};

G_DEFINE_FINAL_TYPE (KsRooflinePage, ks_roofline_page, KS_TYPE_PAGE)

static void
entry_free (gpointer data)
{
  Entry *e = data;

  ks_run_unref (e->run);
  g_free (e->label);
  g_free (e);
}

static void
add_entry (KsRooflinePage *self,
           KsRun          *run,
           const char     *label,
           gboolean        session)
{
  Entry *e = g_new0 (Entry, 1);

  e->run = ks_run_ref (run);
  e->label = g_strdup (label);
  e->shown = TRUE;
  e->session = session;
  g_ptr_array_add (self->entries, e);
}

/* --- the plot ----------------------------------------------------------------------- */

static char *
tooltip (KsPlot  *plot,
         guint    series,
         guint    index,
         gpointer user_data)
{
  KsRooflinePage *self = user_data;
  g_autofree char *text = self->roofline ? ks_roofline_point_text (self->roofline, series, index) : NULL;

  return text ? g_markup_escape_text (text, -1) : NULL;
}

static void
set_notes (KsRooflinePage *self)
{
  g_autoptr(GPtrArray) missing = ks_roofline_missing_triads (self->roofline);
  GString *s = g_string_new (NULL);

  for (guint m = 0; m < missing->len; m++)
    {
      const KsRunDevice *dev = missing->pdata[m];

      if (s->len > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, _("No triad measured for %s (%s): its points show no fraction of the floor. "
                                   "Where this computer has the device, choose it in the header bar and press "
                                   "Run to measure it."), dev->name, ks_run_device_get_backend_label (dev));
    }
  g_free (self->notes);
  self->notes = g_string_free (s, FALSE);
  gtk_label_set_text (GTK_LABEL (self->notes_label), self->notes);
  gtk_widget_set_visible (self->notes_label, *self->notes != '\0');
}

static void
rebuild_plot (KsRooflinePage *self)
{
  g_autoptr(KsPlot) plot = NULL;

  g_clear_pointer (&self->roofline, ks_roofline_free);
  self->roofline = ks_roofline_new ();
  for (guint i = 0; i < self->teachers->len; i++)
    ks_roofline_learn (self->roofline, self->teachers->pdata[i]);
  if (self->device != NULL && ks_device_get_bandwidth (self->device) > 0)
    ks_roofline_set_triad (self->roofline, ks_device_get_name (self->device),
                           ks_backend_to_string (ks_device_get_backend (self->device)),
                           ks_device_get_bandwidth (self->device));
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = self->entries->pdata[i];

      if (e->shown)
        ks_roofline_add_run (self->roofline, e->run, e->label);
    }
  plot = ks_roofline_plot_new (self->roofline);
  ks_plot_view_set_plot (KS_PLOT_VIEW (self->view), plot);
  set_notes (self);
  ks_page_emit_contents_changed (KS_PAGE (self));
}

/* --- the list of runs --------------------------------------------------------------- */

static void
row_toggled (GtkToggleButton *button,
             KsRooflinePage  *self)
{
  Entry *e = g_object_get_data (G_OBJECT (button), "entry");

  e->shown = gtk_toggle_button_get_active (button);
  rebuild_plot (self);
}

static void
rebuild_list (KsRooflinePage *self)
{
  g_autoptr(GList) rows = gtk_container_get_children (GTK_CONTAINER (self->list));

  for (GList *l = rows; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *e = self->entries->pdata[i];
      g_autofree char *name = ks_run_get_name (e->run);
      g_autofree char *text = e->label ? g_strdup_printf (_("%s, %s, %s"), _(e->run->desc->title), name, e->label)
                                       : g_strdup_printf (_("%s, %s, this session"), _(e->run->desc->title), name);
      GtkWidget *check = gtk_check_button_new_with_label (text);
      GtkWidget *label = gtk_bin_get_child (GTK_BIN (check));

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (check, text);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check), e->shown);
      g_object_set_data (G_OBJECT (check), "entry", e);
      g_signal_connect (check, "toggled", G_CALLBACK (row_toggled), self);
      gtk_widget_show (check);
      gtk_container_add (GTK_CONTAINER (self->list), check);
    }
}

void
ks_roofline_page_refresh (KsRooflinePage *self)
{
  GtkWidget *stack;
  g_autoptr(GList) pages = NULL;
  g_autoptr(GHashTable) hidden = g_hash_table_new (NULL, NULL);

  g_return_if_fail (KS_IS_ROOFLINE_PAGE (self));

  /* This session's runs afresh, each keeping whether the user hid it. */
  for (guint i = self->entries->len; i-- > 0;)
    {
      Entry *e = self->entries->pdata[i];

      if (!e->session)
        continue;
      if (!e->shown)
        g_hash_table_add (hidden, e->run);
      g_ptr_array_remove_index (self->entries, i);
    }
  stack = gtk_widget_get_parent (GTK_WIDGET (self));
  pages = stack ? gtk_container_get_children (GTK_CONTAINER (stack)) : NULL;
  for (GList *l = pages; l != NULL; l = l->next)
    for (guint r = 0; KS_IS_EXPERIMENT_PAGE (l->data) && r < ks_experiment_page_get_n_runs (l->data); r++)
      {
        KsRun *run = ks_experiment_page_get_run (l->data, r);

        if (!ks_experiment_page_run_is_recorded (l->data, r) && run->desc->work != NULL)
          {
            add_entry (self, run, NULL, TRUE);
            ((Entry *) g_ptr_array_index (self->entries, self->entries->len - 1))->shown =
              !g_hash_table_contains (hidden, run);
          }
      }
  rebuild_list (self);
  rebuild_plot (self);
}

/* --- recorded runs and files -------------------------------------------------------- */

static void
take_recorded (KsRooflinePage *self,
               GPtrArray      *recorded)
{
  for (guint i = 0; i < recorded->len; i++)
    {
      KsRecorded *r = recorded->pdata[i];

      g_ptr_array_add (self->teachers, ks_run_ref (r->run));
      if (r->run->desc->work != NULL)
        add_entry (self, r->run, _("recorded"), FALSE);
    }
  rebuild_list (self);
  rebuild_plot (self);
}

void
ks_roofline_page_find_recorded (KsRooflinePage *self)
{
  g_autoptr(GPtrArray) recorded = NULL;

  g_return_if_fail (KS_IS_ROOFLINE_PAGE (self));

  /* Shown already: the worker's answer is on its way. */
  while (self->reading)
    g_main_context_iteration (NULL, TRUE);
  if (self->looked)
    return;
  self->looked = TRUE;
  recorded = ks_recorded_list (NULL);
  take_recorded (self, recorded);
}

static void
find_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  g_task_return_pointer (task, ks_recorded_list (NULL), (GDestroyNotify) g_ptr_array_unref);
}

static void
found_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GPtrArray) recorded = g_task_propagate_pointer (G_TASK (result), NULL);

  /* The page may be gone (the window closed while it read). */
  if (recorded != NULL && !g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    {
      KS_ROOFLINE_PAGE (source)->reading = FALSE;
      take_recorded (KS_ROOFLINE_PAGE (source), recorded);
    }
}

static void
page_map (GtkWidget *widget)
{
  KsRooflinePage *self = KS_ROOFLINE_PAGE (widget);

  GTK_WIDGET_CLASS (ks_roofline_page_parent_class)->map (widget);
  if (!self->looked)
    {
      g_autoptr(GTask) task = g_task_new (self, self->cancellable, found_cb, NULL);

      self->looked = TRUE;
      self->reading = TRUE;
      g_task_set_check_cancellable (task, FALSE);
      g_task_run_in_thread (task, find_thread);
    }
  ks_roofline_page_refresh (self);
}

gboolean
ks_roofline_page_add_file (KsRooflinePage *self,
                           const char     *path,
                           GError        **error)
{
  g_autoptr(KsRun) run = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (KS_IS_ROOFLINE_PAGE (self) && path != NULL, FALSE);

  if (!(run = ks_run_load_json (path, error)))
    return FALSE;
  if (run->desc->work == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s is a run of “%s”, which does not count its bytes and operations, so it has no place "
                     "on the roofline"), path, _(run->desc->title));
      return FALSE;
    }
  base = g_path_get_basename (path);
  add_entry (self, run, base, FALSE);
  rebuild_list (self);
  rebuild_plot (self);
  return TRUE;
}

static void
chooser_response (GtkNativeDialog *dialog,
                  int              response,
                  KsRooflinePage  *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (path != NULL && !ks_roofline_page_add_file (self, path, &error))
        ks_page_emit_error (KS_PAGE (self), _("Could not add the run"), error);
    }
  g_object_unref (dialog);
}

static void
add_clicked (GtkButton      *button,
             KsRooflinePage *self)
{
  GtkWidget *top = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (_("Add a Run"), GTK_IS_WINDOW (top) ? GTK_WINDOW (top) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_OPEN, _("_Add"), _("_Cancel"));
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Results (JSON)"));
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* --- Run: the header bar device's triad ----------------------------------------------- */

static gboolean
probe_work (gpointer      job,
            GCancellable *cancellable,
            GError      **error)
{
  KsBandwidth bw = { 0 };

  /* The probe stores the figure in the device, where every page reads it. */
  if (!ks_bench_probe_bandwidth (job, KS_PROBE_SIZE_BALANCE, 0, 5, &bw, error))
    return FALSE;
  ks_device_set_bandwidth (job, bw.triad_gbs);
  return TRUE;
}

static void
probe_done (KsPage       *page,
            gpointer      job,
            const GError *error)
{
  if (error == NULL)
    rebuild_plot (KS_ROOFLINE_PAGE (page));
}

static gboolean
page_start (KsPage        *page,
            KsDevice      *device,
            GCancellable  *cancellable,
            GError       **error)
{
  ks_page_run_job (page, g_object_ref (device), g_object_unref, probe_work, probe_done, cancellable);
  return TRUE;
}

static void
page_device_changed (KsPage   *page,
                     KsDevice *device)
{
  KsRooflinePage *self = KS_ROOFLINE_PAGE (page);

  g_set_object (&self->device, device);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    rebuild_plot (self);
}

static KsPlotView *
page_get_plot_view (KsPage *page)
{
  return KS_PLOT_VIEW (KS_ROOFLINE_PAGE (page)->view);
}

KsRoofline *
ks_roofline_page_get_roofline (KsRooflinePage *self)
{
  g_return_val_if_fail (KS_IS_ROOFLINE_PAGE (self), NULL);
  return self->roofline;
}

const char *
ks_roofline_page_get_notes (KsRooflinePage *self)
{
  g_return_val_if_fail (KS_IS_ROOFLINE_PAGE (self), NULL);
  return self->notes ? self->notes : "";
}

/* --- the object ------------------------------------------------------------------------ */

static void
ks_roofline_page_dispose (GObject *object)
{
  KsRooflinePage *self = KS_ROOFLINE_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->teachers, g_ptr_array_unref);
  g_clear_pointer (&self->roofline, ks_roofline_free);
  g_clear_object (&self->device);
  g_clear_pointer (&self->notes, g_free);
  G_OBJECT_CLASS (ks_roofline_page_parent_class)->dispose (object);
}

static void
ks_roofline_page_class_init (KsRooflinePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  object_class->dispose = ks_roofline_page_dispose;
  widget_class->map = page_map;
  page_class->start = page_start;
  page_class->device_changed = page_device_changed;
  page_class->get_plot_view = page_get_plot_view;
}

static GtkWidget *
build_side (KsRooflinePage *self)
{
  GtkWidget *side = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *title = gtk_label_new (_("Runs on the roofline"));
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add Run…"));

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (title), "heading");
  gtk_widget_set_tooltip_text (add, _("A results file saved with Export Data or “run … --json”"));
  self->list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_container_add (GTK_CONTAINER (scroller), self->list);
  g_signal_connect (add, "clicked", G_CALLBACK (add_clicked), self);
  gtk_container_add (GTK_CONTAINER (side), title);
  gtk_container_add (GTK_CONTAINER (side), scroller);
  gtk_container_add (GTK_CONTAINER (side), add);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (title, gtk_label_get_text (GTK_LABEL (title)));
  gtk_widget_set_size_request (side, 160, -1);
  return side;
}

static void
ks_roofline_page_init (KsRooflinePage *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *main_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *side = build_side (self);

  self->entries = g_ptr_array_new_with_free_func (entry_free);
  self->teachers = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_run_unref);
  self->roofline = ks_roofline_new ();
  self->cancellable = g_cancellable_new ();
  self->view = g_object_new (KS_TYPE_PLOT_VIEW, NULL);
  gtk_widget_set_vexpand (self->view, TRUE);
  gtk_widget_set_hexpand (self->view, TRUE);
  ks_plot_view_set_tooltip_func (KS_PLOT_VIEW (self->view), tooltip, self);
  ks_plot_view_set_placeholder (KS_PLOT_VIEW (self->view),
                                _("No run on the roofline yet: run an experiment of papers 002-004, or add a file"));
  self->notes_label = gtk_label_new (NULL);
  gtk_label_set_line_wrap (GTK_LABEL (self->notes_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->notes_label), 0);
  gtk_widget_set_no_show_all (self->notes_label, TRUE);
  gtk_container_add (GTK_CONTAINER (main_box), self->view);
  gtk_container_add (GTK_CONTAINER (main_box), self->notes_label);
  gtk_container_set_border_width (GTK_CONTAINER (side), 6);
  gtk_container_set_border_width (GTK_CONTAINER (main_box), 6);
  gtk_paned_pack1 (GTK_PANED (paned), side, FALSE, FALSE);
  gtk_paned_pack2 (GTK_PANED (paned), main_box, TRUE, FALSE);
  /* The runs' names cut short (whole in their tooltips), and the plot
   * narrow enough on a 1024-pixel screen for its legend to go below it,
   * where the names of the series read whole. */
  gtk_paned_set_position (GTK_PANED (paned), 260);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_widget_show_all (paned);
  gtk_container_add (GTK_CONTAINER (self), paned);
}
