/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-help-dialog.h"

#include <glib/gi18n.h>

#include "ks-experiment-page.h"
#include "ks-page-help.h"
#include "ks-param-form.h"

struct _KsHelpDialog {
  GtkDialog  parent_instance;

  GtkWidget *label;
};

G_DEFINE_TYPE (KsHelpDialog, ks_help_dialog, GTK_TYPE_DIALOG)

char *
ks_help_dialog_page_markup (KsPage     *page,
                            const char *name)
{
  g_return_val_if_fail (KS_IS_PAGE (page), NULL);

  if (KS_IS_EXPERIMENT_PAGE (page))
    {
      const KsExperimentDesc *desc = ks_experiment_page_get_desc (KS_EXPERIMENT_PAGE (page));
      g_autofree char *help = ks_page_help_for_desc (desc);

      /* The descriptions' help is shared with the command line: the
       * window names fields by their labels, not as options. */
      return ks_param_form_reword (desc, help);
    }
  return name != NULL ? ks_page_help_for_page (name) : NULL;
}

static void
ks_help_dialog_class_init (KsHelpDialogClass *klass)
{
}

static void
ks_help_dialog_init (KsHelpDialog *self)
{
  GtkWidget *content = gtk_dialog_get_content_area (GTK_DIALOG (self));
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);

  self->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->label), 0);
  gtk_label_set_yalign (GTK_LABEL (self->label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (self->label), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (self->label), PANGO_WRAP_WORD_CHAR);
  /* About 75 characters a line reads well and leaves a 1024-pixel screen
   * room around the dialog. */
  gtk_label_set_max_width_chars (GTK_LABEL (self->label), 75);
  gtk_label_set_width_chars (GTK_LABEL (self->label), 50);
  /* Selectable, so a teacher can copy a paragraph into notes. */
  gtk_label_set_selectable (GTK_LABEL (self->label), TRUE);
  gtk_widget_set_can_focus (self->label, FALSE);
  g_object_set (self->label, "margin", 12, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_container_add (GTK_CONTAINER (scroller), self->label);
  gtk_widget_show_all (scroller);
  gtk_container_add (GTK_CONTAINER (content), scroller);
  gtk_dialog_add_button (GTK_DIALOG (self), _("_Close"), GTK_RESPONSE_CLOSE);
  gtk_dialog_set_default_response (GTK_DIALOG (self), GTK_RESPONSE_CLOSE);
  /* Fits under a 768-pixel screen with the header and the panel. */
  gtk_window_set_default_size (GTK_WINDOW (self), 680, 600);
  g_signal_connect (self, "response", G_CALLBACK (gtk_widget_destroy), NULL);
}

GtkWidget *
ks_help_dialog_new (GtkWindow  *parent,
                    const char *title,
                    const char *markup)
{
  KsHelpDialog *self;
  g_autofree char *none = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  self = g_object_new (KS_TYPE_HELP_DIALOG, "transient-for", parent, "modal", TRUE,
                       "destroy-with-parent", TRUE, "use-header-bar", FALSE, NULL);
  none = g_markup_escape_text (_("There is no help for this page yet."), -1);
  gtk_label_set_markup (GTK_LABEL (self->label), markup != NULL ? markup : none);
  if (title != NULL)
    {
      /* TRANSLATORS: the help dialog's title: "Help: Gauss: time vs size" */
      g_autofree char *full = g_strdup_printf (_("Help: %s"), title);

      gtk_window_set_title (GTK_WINDOW (self), full);
    }
  return GTK_WIDGET (self);
}

const char *
ks_help_dialog_get_text (KsHelpDialog *self)
{
  g_return_val_if_fail (KS_IS_HELP_DIALOG (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->label));
}
