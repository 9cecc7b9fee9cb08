/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui-form"

#include "ks-axis-button.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

struct _KsAxisButton {
  GtkMenuButton parent_instance;

  const KsParamSpec *spec;
  GtkEntry          *entry;      /* the field; it outlives the button (one grid row) */
  GtkWidget         *spins[3];   /* from, to, step */
  GtkWidget         *popover;
  gboolean           syncing;    /* the spins are being set from the field */
};

G_DEFINE_TYPE (KsAxisButton, ks_axis_button, GTK_TYPE_MENU_BUTTON)

static const char *
format_number (char   *buf,
               gsize   len,
               double  v,
               gboolean is_int)
{
  if (is_int)
    {
      g_snprintf (buf, len, "%" G_GINT64_FORMAT, (gint64) llround (v));
      return buf;
    }
  return g_ascii_dtostr (buf, len, v);
}

/* The spins as the CLI's range: "20:60" (a step of one goes unsaid) or
 * "100:900:100"; a from above the to is written all the same, and the
 * field says why it does not parse. */
static void
spin_changed_cb (KsAxisButton *self)
{
  gboolean is_int = self->spec->type == KS_PARAM_INT;
  double v[3];
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *text = NULL;

  if (self->syncing)
    return;
  for (guint i = 0; i < 3; i++)
    v[i] = gtk_spin_button_get_value (GTK_SPIN_BUTTON (self->spins[i]));
  format_number (a, sizeof a, v[0], is_int);
  format_number (b, sizeof b, v[1], is_int);
  format_number (c, sizeof c, v[2], is_int);
  text = is_int && llround (v[2]) == 1 ? g_strdup_printf ("%s:%s", a, b) : g_strdup_printf ("%s:%s:%s", a, b, c);
  gtk_entry_set_text (self->entry, text);
}

/* "a:b" or "a:b:step" (or one number): the spins; anything else (a list,
 * powers of two) leaves them as they were. */
void
ks_axis_button_sync (KsAxisButton *self)
{
  g_auto(GStrv) parts = NULL;
  double v[3] = { 0, 0, 1 };
  guint n;

  g_return_if_fail (KS_IS_AXIS_BUTTON (self));
  parts = g_strsplit (gtk_entry_get_text (self->entry), ":", -1);
  n = g_strv_length (parts);
  if (n < 1 || n > 3)
    return;
  for (guint i = 0; i < n; i++)
    {
      char *end = NULL;
      const char *t = g_strstrip (parts[i]);

      v[i] = g_ascii_strtod (t, &end);
      if (*t == '\0' || end == t || *end != '\0' || !isfinite (v[i]))
        return;
    }
  if (n == 1)
    v[1] = v[0];
  self->syncing = TRUE;
  for (guint i = 0; i < 3; i++)
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->spins[i]), v[i]);
  self->syncing = FALSE;
}

static void
preset_clicked_cb (GtkWidget    *button,
                   KsAxisButton *self)
{
  const KsChoice *preset = g_object_get_data (G_OBJECT (button), "preset");

  gtk_entry_set_text (self->entry, preset->value);
  gtk_popover_popdown (GTK_POPOVER (self->popover));
}

static GtkWidget *
new_range_spin (const KsParamSpec *spec,
                gboolean           step)
{
  gboolean is_int = spec->type == KS_PARAM_INT;
  double lo = spec->min != 0 || spec->max != 0 ? spec->min : -1e15;
  double hi = spec->min != 0 || spec->max != 0 ? spec->max : 1e15;
  GtkAdjustment *adj;
  GtkWidget *spin;

  /* A step is at least one whole number, or a positive fraction. */
  if (step)
    lo = is_int ? 1 : 1e-9, hi = MAX (hi - (spec->min != 0 || spec->max != 0 ? spec->min : 0), 1);
  adj = gtk_adjustment_new (MAX (lo, step ? 1 : lo), lo, hi, is_int ? 1 : 0.1, is_int ? 10 : 1, 0);
  spin = gtk_spin_button_new (adj, 1, is_int ? 0 : 3);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 8);
  return spin;
}

static void
build_popover (KsAxisButton *self)
{
  /* TRANSLATORS: the three ends of a swept range, in the popover beside its field */
  const char *names[] = { N_("_From"), N_("_To"), N_("_Step") };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *grid = gtk_grid_new ();
  gboolean any = FALSE;

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  for (guint i = 0; i < 3; i++)
    {
      GtkWidget *label = gtk_label_new_with_mnemonic (_(names[i]));

      self->spins[i] = new_range_spin (self->spec, i == 2);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), self->spins[i]);
      gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_grid_attach (GTK_GRID (grid), label, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), self->spins[i], 1, i, 1, 1);
      g_signal_connect_swapped (self->spins[i], "value-changed", G_CALLBACK (spin_changed_cb), self);
    }
  gtk_container_add (GTK_CONTAINER (box), grid);
  for (const KsChoice *c = self->spec->presets; c != NULL && c->value != NULL; c++)
    {
      GtkWidget *button = g_object_new (GTK_TYPE_MODEL_BUTTON, "text", _(c->label), NULL);

      if (!any)
        gtk_container_add (GTK_CONTAINER (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
      any = TRUE;
      gtk_widget_set_tooltip_text (button, c->help ? _(c->help) : *c->value ? c->value : NULL);
      g_object_set_data (G_OBJECT (button), "preset", (gpointer) c);
      g_signal_connect (button, "clicked", G_CALLBACK (preset_clicked_cb), self);
      gtk_container_add (GTK_CONTAINER (box), button);
    }
  gtk_container_set_border_width (GTK_CONTAINER (box), 10);
  gtk_widget_show_all (box);
  self->popover = gtk_popover_new (GTK_WIDGET (self));
  gtk_container_add (GTK_CONTAINER (self->popover), box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self), self->popover);
  g_signal_connect_swapped (self->popover, "show", G_CALLBACK (ks_axis_button_sync), self);
}

GtkSpinButton *
ks_axis_button_get_spin (KsAxisButton *self,
                         guint         which)
{
  g_return_val_if_fail (KS_IS_AXIS_BUTTON (self), NULL);
  g_return_val_if_fail (which < 3, NULL);
  return GTK_SPIN_BUTTON (self->spins[which]);
}

guint
ks_axis_button_get_n_presets (KsAxisButton *self)
{
  guint n = 0;

  g_return_val_if_fail (KS_IS_AXIS_BUTTON (self), 0);
  for (const KsChoice *c = self->spec->presets; c != NULL && c->value != NULL; c++)
    n++;
  return n;
}

void
ks_axis_button_choose_preset (KsAxisButton *self,
                              guint         index)
{
  g_return_if_fail (KS_IS_AXIS_BUTTON (self));
  g_return_if_fail (index < ks_axis_button_get_n_presets (self));
  gtk_entry_set_text (self->entry, self->spec->presets[index].value);
}

static void
ks_axis_button_class_init (KsAxisButtonClass *klass)
{
}

static void
ks_axis_button_init (KsAxisButton *self)
{
}

GtkWidget *
ks_axis_button_new (const KsParamSpec *spec,
                    GtkEntry          *entry)
{
  KsAxisButton *self;

  g_return_val_if_fail (spec != NULL && (spec->type == KS_PARAM_INT || spec->type == KS_PARAM_REAL), NULL);
  g_return_val_if_fail (GTK_IS_ENTRY (entry), NULL);
  self = g_object_new (KS_TYPE_AXIS_BUTTON, NULL);
  self->spec = spec;
  self->entry = entry;
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), spec->presets != NULL
                               ? _("A range from, to, step, or one of the usual sweeps")
                               : _("A range from, to, step"));
  atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self)), _("Range"));
  build_popover (self);
  return GTK_WIDGET (self);
}
