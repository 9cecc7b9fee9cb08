/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page-runs.c: "Runs in the plot": a row per run with its
 * tick box; under a recorded run of several curves (one legend entry in
 * the plot), an expander listing each curve with a tick box of its own. */
#define G_LOG_DOMAIN "ks-gui-experiment"

#include "ks-experiment-page-private.h"

#include <glib/gi18n.h>

#include "ks-figure.h"
#include "ks-page.h"

void
ks_experiment_page_run_free (gpointer data)
{
  Run *run = data;

  g_clear_pointer (&run->run, ks_run_unref);
  g_clear_pointer (&run->curves, g_ptr_array_unref);
  g_clear_pointer (&run->hidden, g_hash_table_unref);
  g_free (run);
}

Run *
ks_experiment_page_run_new (KsRun    *run,
                            gboolean  recorded)
{
  Run *r = g_new0 (Run, 1);

  r->run = ks_run_ref (run);
  r->visible = TRUE;
  r->recorded = recorded;
  return r;
}

/* Said from the run each time: a live run learns its device with its
 * first point. */
static char *
run_label (const Run *r)
{
  g_autofree char *name = ks_run_get_name (r->run);
  const char *date = r->run->date ? r->run->date : "";

  if (*name == '\0')
    {
      g_free (name);
      name = g_strdup (_("starting…"));
    }
  /* TRANSLATORS: a run read from a file, e.g. "recorded: NVIDIA H200 (CUDA) · 2026-11-20" */
  return r->recorded ? g_strdup_printf (_("recorded: %s · %.10s"), name, date)
                     : g_strdup_printf ("%s · %.10s", name, date);
}

void
ks_experiment_page_add_recorded_curves (Run                   *r,
                                        const KsFigureSpec    *figure,
                                        KsPlot                *plot,
                                        const KsFigureOptions *options)
{
  guint first = ks_plot_get_n_series (plot);

  ks_figure_add_recorded (figure, plot, r->run, options);
  g_clear_pointer (&r->curves, g_ptr_array_unref);
  r->curves = g_ptr_array_new_with_free_func (g_free);
  for (guint s = first; s < ks_plot_get_n_series (plot); s++)
    {
      const char *name = ks_plot_series_get_name (plot, s);

      g_ptr_array_add (r->curves, g_strdup (name ? name : ""));
      /* Emptied, not removed: the other curves keep their colours. */
      if (r->hidden != NULL && name != NULL && g_hash_table_contains (r->hidden, name))
        ks_plot_series_clear_points (plot, s);
    }
}

static void
run_toggled_cb (GtkToggleButton  *check,
                KsExperimentPage *self)
{
  Run *run = g_object_get_data (G_OBJECT (check), "run");

  run->visible = gtk_toggle_button_get_active (check);
  ks_experiment_page_rebuild_plot (self);
}

static void
run_remove_cb (GtkButton        *button,
               KsExperimentPage *self)
{
  Run *run = g_object_get_data (G_OBJECT (button), "run");

  if (run != self->live)
    {
      g_ptr_array_remove (self->runs, run);
      ks_experiment_page_rebuild_all (self);
    }
}

static void
curve_toggled_cb (GtkToggleButton  *check,
                  KsExperimentPage *self)
{
  Run *run = g_object_get_data (G_OBJECT (check), "curve-run");
  const char *curve = g_object_get_data (G_OBJECT (check), "curve");

  if (run->hidden == NULL)
    run->hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (gtk_toggle_button_get_active (check))
    g_hash_table_remove (run->hidden, curve);
  else
    g_hash_table_add (run->hidden, g_strdup (curve));
  ks_experiment_page_rebuild_plot (self);
}

static void
expanded_cb (GtkExpander *expander,
             GParamSpec  *pspec,
             Run         *run)
{
  run->expanded = gtk_expander_get_expanded (expander);
}

/* "12 curves", opening onto a tick box per curve. */
static GtkWidget *
new_curves_expander (KsExperimentPage *self,
                     Run              *run)
{
  g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u curve", "%u curves",
                                                         run->curves->len), run->curves->len);
  GtkWidget *expander = gtk_expander_new (title);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_set_margin_start (expander, 28);
  gtk_widget_set_tooltip_text (expander, _("Each curve of this recorded run: untick one to hide it"));
  for (guint c = 0; c < run->curves->len; c++)
    {
      const char *curve = run->curves->pdata[c];
      GtkWidget *check = gtk_check_button_new_with_label (curve);

      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check),
                                    run->hidden == NULL || !g_hash_table_contains (run->hidden, curve));
      /* Long names are cut in the narrow list; the tooltip has them whole. */
      gtk_label_set_ellipsize (GTK_LABEL (gtk_bin_get_child (GTK_BIN (check))), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (check, curve);
      g_object_set_data (G_OBJECT (check), "curve-run", run);
      g_object_set_data_full (G_OBJECT (check), "curve", g_strdup (curve), g_free);
      g_signal_connect (check, "toggled", G_CALLBACK (curve_toggled_cb), self);
      gtk_container_add (GTK_CONTAINER (box), check);
    }
  gtk_container_add (GTK_CONTAINER (expander), box);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), run->expanded);
  g_signal_connect (expander, "notify::expanded", G_CALLBACK (expanded_cb), run);
  gtk_widget_show_all (expander);
  return expander;
}

void
ks_experiment_page_rebuild_runs_list (KsExperimentPage *self)
{
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->runs_list));

  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  for (guint i = 0; i < self->runs->len; i++)
    {
      Run *run = self->runs->pdata[i];
      g_autofree char *label = run_label (run);
      GtkWidget *row = ks_page_new_run_row (label, run->visible, run != self->live,
                                            G_CALLBACK (run_toggled_cb), G_CALLBACK (run_remove_cb),
                                            run, self);

      gtk_container_add (GTK_CONTAINER (self->runs_list), row);
      /* A recorded run of several curves is one legend entry; on the row
       * under it they can be seen and hidden one by one. */
      if (run->recorded && run->curves != NULL && run->curves->len > 1)
        gtk_container_add (GTK_CONTAINER (self->runs_list), new_curves_expander (self, run));
    }
}
