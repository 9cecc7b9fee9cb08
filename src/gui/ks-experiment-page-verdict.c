/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page-verdict.c: under the plot, whether the paper's claim
 * holds, in the words of the description's judge (ks-verdict.h), for the
 * run a class is looking at: the user's newest run, else the newest
 * recorded one, which is said to be recorded and where.  A verdict that
 * suggests other values gets a button that puts them in the form. */
#include "ks-experiment-page-private.h"
#include "ks-verdict.h"

#include <glib/gi18n.h>

static const char *
kind_icon (KsVerdictKind kind)
{
  switch (kind)
    {
    case KS_VERDICT_HOLDS:
      return "emblem-ok-symbolic";
    case KS_VERDICT_FAILS:
      return "dialog-warning-symbolic";
    case KS_VERDICT_UNTESTED:
    default:
      return "dialog-question-symbolic";
    }
}

static void
suggestion_clicked_cb (GtkButton        *button,
                       KsExperimentPage *self)
{
  GHashTable *values = g_object_get_data (G_OBJECT (button), "values");
  GHashTableIter iter;
  gpointer name, value;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &name, &value))
    if (!ks_param_form_set_text (self->form, name, value))
      g_warning ("the verdict suggests %s = %s, which the form does not take", (char *) name, (char *) value);
}

/* "Holds here. On this device ..." with who measured it where that is not
 * plain: a recorded run, or one of several devices. */
static GtkWidget *
verdict_row (KsExperimentPage *self,
             const KsRun      *run,
             guint             device,
             gboolean          recorded,
             KsVerdict        *v)
{
  const KsRunDevice *d = run->devices->pdata[device];
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name (kind_icon (v->kind), GTK_ICON_SIZE_LARGE_TOOLBAR);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  g_autofree char *who = NULL;
  g_autofree char *markup = NULL;

  if (recorded)
    who = g_strdup_printf (_("Recorded run on %s: "), d->name);
  else if (run->devices->len > 1)
    who = g_strdup_printf (_("On %s: "), d->name);
  markup = g_markup_printf_escaped ("<b>%s.</b> %s%s", ks_verdict_kind_label (v->kind), who ? who : "", v->text);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  /* A wrapped label asks for its whole text on one line unless told (the
   * window would grow past the screen's width), and at its least width
   * for as many lines as the words need (past its height): at most three
   * lines, the whole text in the tooltip. */
  gtk_label_set_width_chars (GTK_LABEL (label), 30);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_label_set_lines (GTK_LABEL (label), 3);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (label, v->text);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (text, TRUE);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (icon, ks_verdict_kind_label (v->kind));
  gtk_container_add (GTK_CONTAINER (row), icon);
  gtk_container_add (GTK_CONTAINER (row), text);
  gtk_container_add (GTK_CONTAINER (text), label);
  if (v->values != NULL && v->suggestion != NULL)
    {
      GtkWidget *button = gtk_button_new_with_label (v->suggestion);

      /* Under the text, not beside it: a long label (in Russian) beside
       * would widen the window past the screen. */
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_label_set_ellipsize (GTK_LABEL (gtk_bin_get_child (GTK_BIN (button))), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (button, _("Puts these values in the form; press Run to test the claim"));
      g_object_set_data_full (G_OBJECT (button), "values", g_hash_table_ref (v->values),
                              (GDestroyNotify) g_hash_table_unref);
      g_signal_connect (button, "clicked", G_CALLBACK (suggestion_clicked_cb), self);
      gtk_container_add (GTK_CONTAINER (text), button);
    }
  gtk_style_context_add_class (gtk_widget_get_style_context (row), "ks-verdict");
  g_object_set_data_full (G_OBJECT (row), "verdict-text", g_strdup (gtk_label_get_text (GTK_LABEL (label))), g_free);
  gtk_widget_show_all (row);
  return row;
}

/* The user's newest run, else the newest recorded one shown in the plot. */
static const Run *
run_to_judge (KsExperimentPage *self)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = self->runs->len; i > 0; i--)
      {
        const Run *r = self->runs->pdata[i - 1];

        if (r->recorded == (pass == 1) && (pass == 0 || r->visible))
          return r;
      }
  return NULL;
}

void
ks_experiment_page_rebuild_verdict (KsExperimentPage *self)
{
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->verdict_box));
  const Run *r = run_to_judge (self);
  guint shown = 0;

  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  /* A live run is judged as it grows: the verdict firms up with it. */
  for (guint d = 0; r != NULL && d < r->run->devices->len; d++)
    {
      g_autoptr(KsVerdict) v = ks_run_judge (r->run, d);

      if (v == NULL)
        continue;
      gtk_container_add (GTK_CONTAINER (self->verdict_box), verdict_row (self, r->run, d, r->recorded, v));
      shown++;
    }
  gtk_widget_set_visible (self->verdict_box, shown > 0);
}

char *
ks_experiment_page_get_verdict_text (KsExperimentPage *self)
{
  GList *children;
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (KS_IS_EXPERIMENT_PAGE (self), NULL);

  children = gtk_container_get_children (GTK_CONTAINER (self->verdict_box));
  for (GList *l = children; l; l = l->next)
    if (gtk_widget_get_visible (self->verdict_box))
      g_string_append_printf (text, "%s%s", text->len ? "\n" : "",
                              (const char *) g_object_get_data (l->data, "verdict-text"));
  g_list_free (children);
  return g_string_free (text, FALSE);
}
