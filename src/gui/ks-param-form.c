/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui-form"

#include "ks-param-form.h"
#include "ks-axis-button.h"
#include "ks-page.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

typedef enum {
  KIND_SPIN,        /* INT or REAL, one value */
  KIND_COMBO,       /* CHOICE, one value */
  KIND_AXIS_COMBO,  /* CHOICE or BOOL that may sweep: the choices, or type several */
  KIND_SWITCH,      /* BOOL, one value */
  KIND_ENTRY,       /* TEXT, a numeric axis, or a number the device may pick */
  KIND_FILE,
} FieldKind;

typedef struct {
  const KsParamSpec *spec;
  FieldKind  kind;
  GtkWidget *label;
  GtkWidget *widget;
  GtkWidget *unit;    /* NULL where the parameter has none */
  GtkWidget *axis;    /* a swept number's KsAxisButton (range, presets), or NULL */
  GtkWidget *error;   /* under the field: why its text does not parse */
  char      *hint_why; /* why the device's default is what the placeholder says */
} Field;

struct _KsParamForm {
  GtkBox parent_instance;

  const KsExperimentDesc *desc;
  GtkWidget *grid;
  GtkWidget *advanced_grid;
  GtkWidget *expander;
  Field     *fields;          /* one per desc->params */
  KsBackend  backend;
  gboolean   has_backend;
  gboolean   loading;         /* set_text in progress: one "changed" at the end */
};

G_DEFINE_TYPE (KsParamForm, ks_param_form, GTK_TYPE_BOX)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static Field *
find_field (KsParamForm *self,
            const char  *name)
{
  int i = ks_experiment_desc_find_param (self->desc, name);
  return i >= 0 ? &self->fields[i] : NULL;
}

/* --- reading and writing a field ------------------------------------------------ */

static char *
field_text (const Field *f)
{
  switch (f->kind)
    {
    case KIND_SPIN:
      {
        double v = gtk_spin_button_get_value (GTK_SPIN_BUTTON (f->widget));
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (f->spec->type == KS_PARAM_INT)
          return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) llround (v));
        return g_strdup (g_ascii_dtostr (buf, sizeof buf, v));
      }
    case KIND_COMBO:
      return g_strdup (gtk_combo_box_get_active_id (GTK_COMBO_BOX (f->widget)));
    case KIND_AXIS_COMBO:
      return g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (gtk_bin_get_child (GTK_BIN (f->widget))))));
    case KIND_SWITCH:
      return g_strdup (gtk_switch_get_active (GTK_SWITCH (f->widget)) ? "true" : "false");
    case KIND_ENTRY:
      return g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (f->widget))));
    case KIND_FILE:
      {
        g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (f->widget));
        return g_strdup (path ? path : "");
      }
    }
  g_assert_not_reached ();
}

/* A typed widget's value as the parameter's GVariant; NULL for a field
 * the user types text into (an axis, free text), which the engine parses. */
static GVariant *
field_value (const Field *f)
{
  switch (f->kind)
    {
    case KIND_SPIN:
      {
        double v = gtk_spin_button_get_value (GTK_SPIN_BUTTON (f->widget));

        if (f->spec->type == KS_PARAM_INT)
          return g_variant_ref_sink (g_variant_new_int64 ((gint64) llround (v)));
        return g_variant_ref_sink (g_variant_new_double (v));
      }
    case KIND_COMBO:
      {
        const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (f->widget));
        return id ? g_variant_ref_sink (g_variant_new_string (id)) : NULL;
      }
    case KIND_SWITCH:
      return g_variant_ref_sink (g_variant_new_boolean (gtk_switch_get_active (GTK_SWITCH (f->widget))));
    case KIND_FILE:
      {
        g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (f->widget));
        return path ? g_variant_ref_sink (g_variant_new_string (path)) : NULL;
      }
    case KIND_AXIS_COMBO:
    case KIND_ENTRY:
    default:
      return NULL;
    }
}

static gboolean
field_set_text (Field      *f,
                const char *text)
{
  switch (f->kind)
    {
    case KIND_SPIN:
      {
        char *end = NULL;
        double v = g_ascii_strtod (text, &end);

        if (end == text || *end != '\0')
          return FALSE;
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (f->widget), v);
        return TRUE;
      }
    case KIND_COMBO:
      return gtk_combo_box_set_active_id (GTK_COMBO_BOX (f->widget), text);
    case KIND_AXIS_COMBO:
      gtk_entry_set_text (GTK_ENTRY (gtk_bin_get_child (GTK_BIN (f->widget))), text);
      return TRUE;
    case KIND_SWITCH:
      if (g_strcmp0 (text, "true") != 0 && g_strcmp0 (text, "false") != 0)
        return FALSE;
      gtk_switch_set_active (GTK_SWITCH (f->widget), g_strcmp0 (text, "true") == 0);
      return TRUE;
    case KIND_ENTRY:
      gtk_entry_set_text (GTK_ENTRY (f->widget), text);
      return TRUE;
    case KIND_FILE:
      if (*text == '\0')
        gtk_file_chooser_unselect_all (GTK_FILE_CHOOSER (f->widget));
      else
        gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (f->widget), text);
      return TRUE;
    }
  g_assert_not_reached ();
}

/* --- the window's words for the command line's ------------------------------------ */

/* The label of an option the window shows as a field: the description's
 * parameters, and the repetitions every page has; NULL for another. */
static const char *
option_label (const KsExperimentDesc *desc,
              const char             *option,
              gsize                   len)
{
  for (guint i = 0; desc != NULL && i < desc->n_params; i++)
    {
      const char *name = ks_param_spec_option (&desc->params[i]);
      if (strlen (name) == len && strncmp (name, option, len) == 0)
        return _(desc->params[i].label);
    }
  if (len == 4 && strncmp (option, "reps", 4) == 0)
    return _("Repetitions");
  if (len == 6 && strncmp (option, "warmup", 6) == 0)
    return _("Warm-up");
  return NULL;
}

char *
ks_param_form_reword (const KsExperimentDesc *desc,
                      const char             *text)
{
  g_autoptr(GString) out = NULL;
  const char *p;

  g_return_val_if_fail (text != NULL, NULL);
  out = g_string_new (NULL);
  for (p = text; *p != '\0';)
    {
      gsize len = 0;
      const char *label = NULL;

      /* "--wg-list" standing alone (not the middle of "a--b"). */
      if (p[0] == '-' && p[1] == '-' && (p == text || !(g_ascii_isalnum (p[-1]) || p[-1] == '-')))
        {
          while (g_ascii_isalnum (p[2 + len]) || (p[2 + len] == '-' && g_ascii_isalnum (p[3 + len])))
            len++;
          label = len > 0 ? option_label (desc, p + 2, len) : NULL;
        }
      if (label == NULL)
        {
          g_string_append_c (out, *p++);
          continue;
        }
      /* TRANSLATORS: a form field named in a message, "“Work-group size”" */
      g_string_append_printf (out, _("“%s”"), label);
      p += 2 + len;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

void
ks_param_form_reword_error (const KsExperimentDesc *desc,
                            GError                 *error)
{
  char *message;

  if (error == NULL)
    return;
  message = ks_param_form_reword (desc, error->message);
  g_free (error->message);
  error->message = message;
}

/* --- checking ------------------------------------------------------------------- */

/* NULL when text is a value (or an axis) the parameter takes; else why not. */
static char *
check_text (const KsExperimentDesc *desc,
            const KsParamSpec      *spec,
            const char             *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) axis = NULL;
  g_autoptr(GVariant) value = NULL;

  if (*text == '\0')
    /* Empty is the device's default, or empty text; anything else needs a value. */
    return spec->device_default != NULL || spec->type == KS_PARAM_TEXT
      ? NULL : g_strdup (_("A value is needed here."));
  if (spec->sweepable)
    axis = ks_param_parse_axis (spec, text, &error);
  else
    value = ks_param_parse_value (spec, text, &error);
  if (error == NULL)
    return NULL;
  /* The parser speaks to the command line ("--size: ..."); the form
   * shows the message beside its own field, so the option's name goes. */
  if (g_str_has_prefix (error->message, "--") && strstr (error->message, ": ") != NULL)
    return ks_param_form_reword (desc, strstr (error->message, ": ") + 2);
  return ks_param_form_reword (desc, error->message);
}

static void
show_field_error (Field      *f,
                  const char *message)
{
  GtkWidget *target = f->kind == KIND_AXIS_COMBO ? gtk_bin_get_child (GTK_BIN (f->widget)) : f->widget;
  GtkStyleContext *style = gtk_widget_get_style_context (target);

  gtk_label_set_text (GTK_LABEL (f->error), message ? message : "");
  gtk_widget_set_visible (f->error, message != NULL);
  if (message != NULL)
    gtk_style_context_add_class (style, GTK_STYLE_CLASS_ERROR);
  else
    gtk_style_context_remove_class (style, GTK_STYLE_CLASS_ERROR);
}

char *
ks_param_form_describe_backends (guint mask)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  if (mask & KS_BACKENDS_HOST)
    g_ptr_array_add (names, (gpointer) _("the host"));
  if (mask & KS_BACKENDS_OPENCL)
    g_ptr_array_add (names, (gpointer) _("OpenCL devices"));
  if (mask & KS_BACKENDS_CUDA)
    g_ptr_array_add (names, (gpointer) _("CUDA devices"));
  g_ptr_array_add (names, NULL);
  /* TRANSLATORS: the separator between device kinds, "OpenCL devices and CUDA devices" */
  return g_strjoinv (_(" and "), (char **) names->pdata);
}

gboolean
ks_param_form_applies (KsParamForm *self,
                       const char  *name,
                       char       **why)
{
  Field *f, *control;
  const KsParamSpec *spec;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) values = NULL;

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), FALSE);
  f = find_field (self, name);
  g_return_val_if_fail (f != NULL, FALSE);
  spec = f->spec;

  if (self->has_backend && spec->backends != KS_BACKENDS_ALL && !(spec->backends & (1u << self->backend)))
    {
      if (why != NULL)
        {
          g_autofree char *where = ks_param_form_describe_backends (spec->backends);
          *why = g_strdup_printf (_("Means nothing on this device: only on %s."), where);
        }
      return FALSE;
    }
  if (spec->when.param == NULL || (control = find_field (self, spec->when.param)) == NULL)
    return TRUE;
  /* Swept, the other parameter applies this one where any of its values
   * does; an axis that does not parse yet rules nothing out. */
  text = field_text (control);
  values = ks_param_parse_axis (control->spec, text, NULL);
  if (values == NULL)
    return TRUE;
  for (guint i = 0; i < values->len; i++)
    {
      g_autofree char *v = ks_param_value_to_string (values->pdata[i]);
      if (g_strv_contains (spec->when.values, v))
        return TRUE;
    }
  if (why != NULL)
    {
      g_autofree char *list = g_strjoinv (_(" or "), (char **) spec->when.values);
      *why = g_strdup_printf (_("Applies only when “%s” is %s."), _(control->spec->label), list);
    }
  return FALSE;
}

static void
refresh (KsParamForm *self)
{
  for (guint i = 0; i < self->desc->n_params; i++)
    {
      Field *f = &self->fields[i];
      g_autofree char *why = NULL;
      g_autofree char *text = field_text (f);
      g_autofree char *problem = NULL;
      gboolean applies = ks_param_form_applies (self, f->spec->name, &why);
      g_autofree char *help = f->spec->help ? ks_param_form_reword (self->desc, _(f->spec->help)) : NULL;
      g_autofree char *tip = NULL;

      /* A field that does not apply is greyed out, not hidden: the user
       * sees it exists and, in its tooltip, what would bring it in. */
      gtk_widget_set_sensitive (f->label, applies);
      gtk_widget_set_sensitive (f->widget, applies);
      if (f->unit != NULL)
        gtk_widget_set_sensitive (f->unit, applies);
      if (f->axis != NULL)
        gtk_widget_set_sensitive (f->axis, applies);
      tip = !applies ? g_strjoin ("\n\n", why, help, NULL)
                     : f->hint_why ? g_strjoin ("\n\n", help ? help : "", f->hint_why, NULL) : g_strdup (help);
      gtk_widget_set_tooltip_text (f->label, tip);
      gtk_widget_set_tooltip_text (f->widget, tip);
      problem = applies ? check_text (self->desc, f->spec, text) : NULL;
      show_field_error (f, problem);
    }
}

static void
field_changed_cb (KsParamForm *self)
{
  if (self->loading)
    return;
  refresh (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* --- building ------------------------------------------------------------------- */

static GtkWidget *
new_spin (const KsParamSpec *spec)
{
  gboolean is_int = spec->type == KS_PARAM_INT;
  /* No limits in the description: the type's, within what a double holds exactly. */
  double lo = spec->min != 0 || spec->max != 0 ? spec->min : -1e15;
  double hi = spec->min != 0 || spec->max != 0 ? spec->max : 1e15;
  double value = spec->default_value ? g_ascii_strtod (spec->default_value, NULL) : lo;
  GtkAdjustment *adj = gtk_adjustment_new (CLAMP (value, lo, hi), lo, hi, is_int ? 1 : 0.1,
                                           is_int ? 10 : 1, 0);
  GtkWidget *spin = gtk_spin_button_new (adj, 1, is_int ? 0 : 3);

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 7);
  return spin;
}

static GtkWidget *
new_choice_combo (const KsParamSpec *spec)
{
  GtkWidget *combo = gtk_combo_box_text_new ();

  for (const KsChoice *c = spec->choices; c != NULL && c->value != NULL; c++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (combo), c->value, _(c->label));
  if (spec->default_value != NULL)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), spec->default_value);
  ks_page_ellipsize_combo (GTK_COMBO_BOX (combo));
  return combo;
}

/* A choice that may sweep: the entry takes the CLI's list ("driver,split");
 * the menu offers each value alone and all of them together. */
static GtkWidget *
new_axis_combo (const KsParamSpec *spec)
{
  GtkWidget *combo = gtk_combo_box_text_new_with_entry ();
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autofree char *joined = NULL;

  if (spec->type == KS_PARAM_BOOL)
    {
      g_ptr_array_add (all, (gpointer) "false");
      g_ptr_array_add (all, (gpointer) "true");
    }
  for (const KsChoice *c = spec->choices; spec->type == KS_PARAM_CHOICE && c && c->value; c++)
    g_ptr_array_add (all, (gpointer) c->value);
  for (guint i = 0; i < all->len; i++)
    gtk_combo_box_text_append_text (GTK_COMBO_BOX_TEXT (combo), all->pdata[i]);
  g_ptr_array_add (all, NULL);
  joined = g_strjoinv (",", (char **) all->pdata);
  /* "All of them" only while it is short: a combo is as wide as its
   * longest item, and paper 002's 17 methods joined (some 250 characters)
   * made the form, and so the window, wider than a projector's 1024
   * pixels.  The entry still takes any list typed into it. */
  if (all->len > 2 && strlen (joined) <= 64)
    gtk_combo_box_text_append_text (GTK_COMBO_BOX_TEXT (combo), joined);
  gtk_entry_set_text (GTK_ENTRY (gtk_bin_get_child (GTK_BIN (combo))),
                      spec->default_value ? spec->default_value : "");
  gtk_entry_set_width_chars (GTK_ENTRY (gtk_bin_get_child (GTK_BIN (combo))), 9);
  return combo;
}

static GtkWidget *
new_entry (const KsParamSpec *spec)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_entry_set_text (GTK_ENTRY (entry), spec->default_value ? spec->default_value : "");
  gtk_entry_set_width_chars (GTK_ENTRY (entry), 11);
  if (spec->device_default != NULL)
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("picked for the device"));
  else if (spec->sweepable && (spec->type == KS_PARAM_INT || spec->type == KS_PARAM_REAL))
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("e.g. 100:900:100"));
  return entry;
}

/* A real number that ranges over many decades (a tolerance from 1e-15, a
 * time step of 1e-4): a spin button's fixed decimals would show 1e-8 as
 * "0.000" and, once edited, take that 0 as the value.  Typed as text
 * instead, the CLI's way (1e-8), and checked alike. */
static gboolean
spans_decades (const KsParamSpec *spec)
{
  return spec->type == KS_PARAM_REAL && spec->min > 0 && spec->max / spec->min >= 1e6;
}

static void
build_widget (KsParamForm *self,
              Field       *f)
{
  const KsParamSpec *spec = f->spec;
  gboolean several = spec->sweepable;

  /* One switch over the type, as GTK Inspector's property editor does. */
  switch (spec->type)
    {
    case KS_PARAM_INT:
    case KS_PARAM_REAL:
      f->kind = several || spec->device_default != NULL || spec->default_value == NULL || spans_decades (spec)
        ? KIND_ENTRY : KIND_SPIN;
      break;
    case KS_PARAM_CHOICE:
      f->kind = several ? KIND_AXIS_COMBO : KIND_COMBO;
      break;
    case KS_PARAM_BOOL:
      f->kind = several ? KIND_AXIS_COMBO : KIND_SWITCH;
      break;
    case KS_PARAM_TEXT:
      f->kind = KIND_ENTRY;
      break;
    case KS_PARAM_FILE:
      f->kind = KIND_FILE;
      break;
    }
  switch (f->kind)
    {
    case KIND_SPIN:
      f->widget = new_spin (spec);
      g_signal_connect_swapped (f->widget, "value-changed", G_CALLBACK (field_changed_cb), self);
      break;
    case KIND_COMBO:
      f->widget = new_choice_combo (spec);
      g_signal_connect_swapped (f->widget, "changed", G_CALLBACK (field_changed_cb), self);
      break;
    case KIND_AXIS_COMBO:
      f->widget = new_axis_combo (spec);
      g_signal_connect_swapped (f->widget, "changed", G_CALLBACK (field_changed_cb), self);
      break;
    case KIND_SWITCH:
      f->widget = gtk_switch_new ();
      gtk_switch_set_active (GTK_SWITCH (f->widget), g_strcmp0 (spec->default_value, "true") == 0);
      gtk_widget_set_halign (f->widget, GTK_ALIGN_START);
      g_signal_connect_swapped (f->widget, "notify::active", G_CALLBACK (field_changed_cb), self);
      break;
    case KIND_ENTRY:
      f->widget = new_entry (spec);
      g_signal_connect_swapped (f->widget, "changed", G_CALLBACK (field_changed_cb), self);
      break;
    case KIND_FILE:
      f->widget = gtk_file_chooser_button_new (_(spec->label), GTK_FILE_CHOOSER_ACTION_OPEN);
      if (spec->default_value != NULL && *spec->default_value != '\0')
        gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (f->widget), spec->default_value);
      g_signal_connect_swapped (f->widget, "file-set", G_CALLBACK (field_changed_cb), self);
      break;
    }
  gtk_widget_set_hexpand (f->widget, TRUE);
}

static void
add_field (KsParamForm *self,
           Field       *f,
           GtkGrid     *grid,
           int          row)
{
  f->label = gtk_label_new (_(f->spec->label));
  gtk_label_set_xalign (GTK_LABEL (f->label), 1);
  gtk_label_set_line_wrap (GTK_LABEL (f->label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (f->label), 14);
  gtk_label_set_mnemonic_widget (GTK_LABEL (f->label), f->widget);
  gtk_grid_attach (grid, f->label, 0, row, 1, 1);
  if (f->kind == KIND_ENTRY && f->spec->sweepable
      && (f->spec->type == KS_PARAM_INT || f->spec->type == KS_PARAM_REAL))
    {
      /* A swept number: its range and the usual sweeps a click away. */
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

      f->axis = ks_axis_button_new (f->spec, GTK_ENTRY (f->widget));
      gtk_style_context_add_class (gtk_widget_get_style_context (box), GTK_STYLE_CLASS_LINKED);
      gtk_container_add (GTK_CONTAINER (box), f->widget);
      gtk_container_add (GTK_CONTAINER (box), f->axis);
      gtk_grid_attach (grid, box, 1, row, f->spec->unit ? 1 : 2, 1);
    }
  else
    gtk_grid_attach (grid, f->widget, 1, row, f->spec->unit ? 1 : 2, 1);
  if (f->spec->unit != NULL)
    {
      f->unit = gtk_label_new (ks_unit_label (f->spec->unit));
      gtk_label_set_xalign (GTK_LABEL (f->unit), 0);
      gtk_style_context_add_class (gtk_widget_get_style_context (f->unit), "dim-label");
      gtk_grid_attach (grid, f->unit, 2, row, 1, 1);
    }
  f->error = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (f->error), 0);
  gtk_label_set_line_wrap (GTK_LABEL (f->error), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (f->error), 28);
  gtk_label_set_selectable (GTK_LABEL (f->error), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (f->error), "field-error");
  gtk_grid_attach (grid, f->error, 1, row + 1, 2, 1);
  gtk_widget_set_no_show_all (f->error, TRUE);
}

static GtkWidget *
new_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  return grid;
}

static void
build (KsParamForm *self)
{
  int row = 0, advanced_row = 0;

  self->fields = g_new0 (Field, self->desc->n_params);
  self->grid = new_grid ();
  self->advanced_grid = new_grid ();
  for (guint i = 0; i < self->desc->n_params; i++)
    {
      Field *f = &self->fields[i];

      f->spec = &self->desc->params[i];
      build_widget (self, f);
      if (f->spec->advanced)
        {
          add_field (self, f, GTK_GRID (self->advanced_grid), advanced_row);
          advanced_row += 2;
        }
      else
        {
          add_field (self, f, GTK_GRID (self->grid), row);
          row += 2;
        }
    }
  gtk_container_add (GTK_CONTAINER (self), self->grid);
  self->expander = gtk_expander_new (_("Advanced"));
  gtk_widget_set_margin_top (self->advanced_grid, 6);
  gtk_container_add (GTK_CONTAINER (self->expander), self->advanced_grid);
  gtk_container_add (GTK_CONTAINER (self), self->expander);
  gtk_widget_show_all (GTK_WIDGET (self));
  /* Nothing to fold away: no expander. */
  gtk_widget_set_visible (self->expander, advanced_row > 0);
  refresh (self);
}

/* --- public --------------------------------------------------------------------- */

void
ks_param_form_set_backend (KsParamForm *self,
                           KsBackend    backend)
{
  g_return_if_fail (KS_IS_PARAM_FORM (self));

  self->backend = backend;
  self->has_backend = TRUE;
  refresh (self);
}

const KsExperimentDesc *
ks_param_form_get_desc (KsParamForm *self)
{
  g_return_val_if_fail (KS_IS_PARAM_FORM (self), NULL);
  return self->desc;
}

char *
ks_param_form_get_text (KsParamForm *self,
                        const char  *name)
{
  Field *f;

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), NULL);
  f = find_field (self, name);
  g_return_val_if_fail (f != NULL, NULL);
  return field_text (f);
}

gboolean
ks_param_form_set_text (KsParamForm *self,
                        const char  *name,
                        const char  *text)
{
  Field *f;
  gboolean ok;

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), FALSE);
  g_return_val_if_fail (name != NULL && text != NULL, FALSE);
  if ((f = find_field (self, name)) == NULL)
    return FALSE;
  self->loading = TRUE;
  ok = field_set_text (f, text);
  self->loading = FALSE;
  field_changed_cb (self);
  return ok;
}

GHashTable *
ks_param_form_get_values (KsParamForm *self)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), values);
  for (guint i = 0; i < self->desc->n_params; i++)
    g_hash_table_insert (values, g_strdup (self->fields[i].spec->name), field_text (&self->fields[i]));
  return values;
}

gboolean
ks_param_form_validate (KsParamForm *self,
                        GError     **error)
{
  g_return_val_if_fail (KS_IS_PARAM_FORM (self), FALSE);

  for (guint i = 0; i < self->desc->n_params; i++)
    {
      Field *f = &self->fields[i];
      g_autofree char *text = field_text (f);
      g_autofree char *problem = NULL;

      if (!ks_param_form_applies (self, f->spec->name, NULL))
        continue;
      if ((problem = check_text (self->desc, f->spec, text)) != NULL)
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID, "%s: %s",
                       _(f->spec->label), problem);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
ks_param_form_apply (KsParamForm *self,
                     KsEngine    *engine,
                     GError     **error)
{
  g_return_val_if_fail (KS_IS_PARAM_FORM (self), FALSE);
  g_return_val_if_fail (KS_IS_ENGINE (engine), FALSE);

  if (!ks_param_form_validate (self, error))
    return FALSE;
  for (guint i = 0; i < self->desc->n_params; i++)
    {
      Field *f = &self->fields[i];
      g_autofree char *text = field_text (f);

      GVariant *value;
      g_autoptr(GPtrArray) axis = NULL;

      /* Empty: left to the device's default, which the engine says out loud. */
      if (*text == '\0' || !ks_param_form_applies (self, f->spec->name, NULL))
        continue;
      /* A widget's own value goes as it is; typed text is parsed once, there. */
      if ((value = field_value (f)) != NULL)
        {
          axis = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
          g_ptr_array_add (axis, value);
        }
      if (axis ? !ks_engine_set_axis (engine, i, axis, error) : !ks_engine_set (engine, f->spec->name, text, error))
        {
          ks_param_form_reword_error (self->desc, error ? *error : NULL);
          g_prefix_error (error, "%s: ", _(f->spec->label));
          return FALSE;
        }
    }
  return TRUE;
}

GtkWidget *
ks_param_form_get_field (KsParamForm *self,
                         const char  *name)
{
  Field *f;

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), NULL);
  f = find_field (self, name);
  return f ? f->widget : NULL;
}

GtkWidget *
ks_param_form_get_axis_button (KsParamForm *self,
                               const char  *name)
{
  Field *f;

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), NULL);
  f = find_field (self, name);
  return f ? f->axis : NULL;
}

const char *
ks_param_form_get_field_error (KsParamForm *self,
                               const char  *name)
{
  Field *f;

  g_return_val_if_fail (KS_IS_PARAM_FORM (self), NULL);
  f = find_field (self, name);
  g_return_val_if_fail (f != NULL, NULL);
  return gtk_widget_get_visible (f->error) ? gtk_label_get_text (GTK_LABEL (f->error)) : "";
}

/* "Work-group size" with "_" before the letter of key (underscores in the
 * text doubled), or NULL when no letter of it gives key. */
static char *
with_mnemonic (const char *text,
               guint       key)
{
  g_autoptr(GString) s = g_string_new (NULL);
  gboolean placed = FALSE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!placed && gdk_keyval_to_lower (gdk_unicode_to_keyval (c)) == key)
        {
          g_string_append_c (s, '_');
          placed = TRUE;
        }
      if (c == '_')
        g_string_append_c (s, '_');
      g_string_append_unichar (s, c);
    }
  return placed ? g_string_free (g_steal_pointer (&s), FALSE) : NULL;
}

void
ks_param_form_assign_mnemonics (KsParamForm *self,
                                GHashTable  *taken)
{
  g_return_if_fail (KS_IS_PARAM_FORM (self));
  g_return_if_fail (taken != NULL);

  for (guint i = 0; i < self->desc->n_params; i++)
    {
      Field *f = &self->fields[i];
      const char *text = _(f->spec->label);
      g_autofree char *marked = NULL;

      /* The first letter of the label no other control uses: in either
       * language a field is reached with Alt and a letter of its name. */
      for (const char *p = text; *p != '\0' && marked == NULL; p = g_utf8_next_char (p))
        {
          gunichar c = g_utf8_get_char (p);
          guint key = gdk_keyval_to_lower (gdk_unicode_to_keyval (c));

          if (!g_unichar_isalnum (c) || g_hash_table_contains (taken, GUINT_TO_POINTER (key)))
            continue;
          marked = with_mnemonic (text, key);
          g_hash_table_add (taken, GUINT_TO_POINTER (key));
        }
      if (marked != NULL)
        gtk_label_set_text_with_mnemonic (GTK_LABEL (f->label), marked);
      else
        gtk_label_set_text (GTK_LABEL (f->label), text);
      gtk_label_set_mnemonic_widget (GTK_LABEL (f->label), f->widget);
    }
}

void
ks_param_form_set_default_hint (KsParamForm *self,
                                const char  *name,
                                const char  *text,
                                const char  *why)
{
  Field *f;

  g_return_if_fail (KS_IS_PARAM_FORM (self));
  f = find_field (self, name);
  g_return_if_fail (f != NULL);
  if (f->kind != KIND_ENTRY)
    return;
  gtk_entry_set_placeholder_text (GTK_ENTRY (f->widget), text ? text : _("picked for the device"));
  g_free (f->hint_why);
  if (text != NULL && why != NULL)
    {
      g_autofree char *words = g_strdup_printf (_("Left empty: %s, %s."), text, why);
      f->hint_why = ks_param_form_reword (self->desc, words);
    }
  else
    f->hint_why = NULL;
  refresh (self);
}

static void
ks_param_form_finalize (GObject *object)
{
  KsParamForm *self = KS_PARAM_FORM (object);

  for (guint i = 0; self->fields != NULL && i < self->desc->n_params; i++)
    g_free (self->fields[i].hint_why);
  g_free (self->fields);
  G_OBJECT_CLASS (ks_param_form_parent_class)->finalize (object);
}

static void
ks_param_form_class_init (KsParamFormClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ks_param_form_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ks_param_form_init (KsParamForm *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 8);
}

GtkWidget *
ks_param_form_new (const KsExperimentDesc *desc)
{
  KsParamForm *self;

  g_return_val_if_fail (desc != NULL, NULL);
  self = g_object_new (KS_TYPE_PARAM_FORM, NULL);
  self->desc = desc;
  build (self);
  return GTK_WIDGET (self);
}
