/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui-table"

#include "ks-run-table.h"
#include "ks-param-form.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* One table column: a parameter (param >= 0) or a measured column. */
/* A parameter (param >= 0), a column (column >= 0), or the point's
 * device (both DEVICE_CELL: a run on several devices). */
typedef struct {
  int param;
  int column;
} Cell;

#define DEVICE_CELL (-2)

struct _KsRunTable {
  GtkListStore       *store;
  GArray             *cells;      /* of Cell, in the view's order */
  const KsFigureSpec *figure;
  int                 highlight;  /* the figure's highlight column, or -1 */
  /* store columns: one string per cell, then the note, the weight, the tooltip */
  guint               col_note, col_weight, col_tooltip;
};

char *
ks_run_format_value (double       value,
                     KsColumnKind kind)
{
  if (isnan (value))
    return g_strdup ("");
  if (kind == KS_COLUMN_INT || kind == KS_COLUMN_BOOL || (value == floor (value) && fabs (value) < 1e15))
    return g_strdup_printf ("%.0f", value);
  return g_strdup_printf ("%.4g", value);
}

char *
ks_run_name_label (const KsExperimentDesc *desc,
                   const char             *name)
{
  g_return_val_if_fail (desc != NULL && name != NULL, NULL);
  return ks_experiment_desc_name_label (desc, name);
}

static gboolean
is_axis (const KsRun *run,
         const char  *name)
{
  return run->axes != NULL && g_strv_contains ((const char * const *) run->axes, name);
}

static void
add_view_column (GtkTreeView *view,
                 const char  *title,
                 const char  *help,
                 guint        text_column,
                 guint        weight_column,
                 gboolean     numeric)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column = gtk_tree_view_column_new_with_attributes (title, cell, "text", text_column,
                                                                        "weight", weight_column, NULL);
  GtkWidget *header = gtk_label_new (title);

  g_object_set (cell, "xalign", numeric ? 1.0 : 0.0, NULL);
  gtk_tree_view_column_set_resizable (column, TRUE);
  /* The header is a label of our own, so the column's help can be its tooltip. */
  gtk_widget_set_tooltip_text (header, help);
  gtk_widget_show (header);
  gtk_tree_view_column_set_widget (column, header);
  gtk_tree_view_append_column (view, column);
}

KsRunTable *
ks_run_table_new (GtkTreeView        *view,
                  const KsRun        *run,
                  const KsFigureSpec *figure)
{
  const KsExperimentDesc *desc;
  KsRunTable *table;
  g_autoptr(GArray) types = g_array_new (FALSE, FALSE, sizeof (GType));
  GList *old;
  GType t;

  g_return_val_if_fail (GTK_IS_TREE_VIEW (view), NULL);
  g_return_val_if_fail (run != NULL, NULL);

  desc = run->desc;
  table = g_new0 (KsRunTable, 1);
  table->cells = g_array_new (FALSE, FALSE, sizeof (Cell));
  table->figure = figure;
  table->highlight = figure && figure->highlight ? ks_experiment_desc_find_column (desc, figure->highlight) : -1;
  /* Several devices in one run: which one measured the row, first. */
  if (run->devices->len > 1)
    g_array_append_val (table->cells, ((Cell) { DEVICE_CELL, DEVICE_CELL }));
  /* The swept parameters say which point a row is; where nothing is swept,
   * every parameter does. */
  for (guint i = 0; i < desc->n_params; i++)
    if (is_axis (run, desc->params[i].name) || run->axes == NULL || run->axes[0] == NULL)
      g_array_append_val (table->cells, ((Cell) { (int) i, -1 }));
  for (guint c = 0; c < desc->n_columns; c++)
    if (!desc->columns[c].hidden)
      g_array_append_val (table->cells, ((Cell) { -1, (int) c }));

  t = G_TYPE_STRING;
  for (guint i = 0; i <= table->cells->len; i++)   /* the cells and the note */
    g_array_append_val (types, t);
  t = G_TYPE_INT;
  g_array_append_val (types, t);
  t = G_TYPE_STRING;
  g_array_append_val (types, t);
  table->col_note = table->cells->len;
  table->col_weight = table->col_note + 1;
  table->col_tooltip = table->col_note + 2;
  table->store = gtk_list_store_newv (types->len, (GType *) types->data);

  old = gtk_tree_view_get_columns (view);
  for (GList *l = old; l != NULL; l = l->next)
    gtk_tree_view_remove_column (view, l->data);
  g_list_free (old);
  for (guint i = 0; i < table->cells->len; i++)
    {
      const Cell *cell = &g_array_index (table->cells, Cell, i);
      g_autofree char *title = NULL;

      if (cell->param == DEVICE_CELL)
        add_view_column (view, _("device"), _("The device that measured the point"), i, table->col_weight, FALSE);
      else if (cell->param >= 0)
        {
          const KsParamSpec *spec = &desc->params[cell->param];
          title = ks_run_name_label (desc, spec->name);
          add_view_column (view, title, spec->help ? _(spec->help) : NULL, i, table->col_weight,
                           spec->type == KS_PARAM_INT || spec->type == KS_PARAM_REAL);
        }
      else
        {
          const KsColumnSpec *spec = &desc->columns[cell->column];
          title = ks_run_name_label (desc, spec->name);
          add_view_column (view, title, spec->help ? _(spec->help) : NULL, i, table->col_weight, TRUE);
        }
    }
  add_view_column (view, _("note"), _("Why a point could not be measured, or what is special about it"),
                   table->col_note, table->col_weight, FALSE);
  gtk_tree_view_set_model (view, GTK_TREE_MODEL (table->store));
  gtk_tree_view_set_tooltip_column (view, table->col_tooltip);
  return table;
}

void
ks_run_table_free (KsRunTable *table)
{
  if (table == NULL)
    return;
  g_clear_object (&table->store);
  g_array_unref (table->cells);
  g_free (table);
}

static char *
cell_text (const KsRun      *run,
           const KsRunPoint *p,
           const Cell       *cell)
{
  const KsExperimentDesc *desc = run->desc;

  if (cell->param == DEVICE_CELL)
    return g_strdup (p->device < run->devices->len ? ((KsRunDevice *) run->devices->pdata[p->device])->name : "?");
  if (cell->param >= 0)
    {
      GVariant *v = p->params[cell->param];
      const KsParamSpec *spec = &desc->params[cell->param];

      if (v == NULL)
        return g_strdup ("–");
      if (spec->type == KS_PARAM_CHOICE)
        {
          const char *value = g_variant_get_string (v, NULL);

          for (const KsChoice *c = spec->choices; c != NULL && c->value != NULL; c++)
            if (g_strcmp0 (c->value, value) == 0)
              return g_strdup (_(c->label));
        }
      return ks_param_value_to_string (v);
    }
  if (p->error != NULL)
    return g_strdup ("");
  {
    const KsColumnSpec *spec = &desc->columns[cell->column];
    g_autofree char *value = ks_run_format_value (p->values[cell->column], spec->kind);

    /* The spread of the repetitions beside the median. */
    if (spec->reduce == KS_REDUCE_MEDIAN_RANGE && !isnan (p->lo[cell->column]) && p->reps > 1)
      {
        g_autofree char *lo = ks_run_format_value (p->lo[cell->column], spec->kind);
        g_autofree char *hi = ks_run_format_value (p->hi[cell->column], spec->kind);
        return g_strdup_printf ("%s (%s…%s)", value, lo, hi);
      }
    return g_steal_pointer (&value);
  }
}

void
ks_run_table_append (KsRunTable       *table,
                     const KsRun      *run,
                     const KsRunPoint *point)
{
  GtkTreeIter iter;
  g_autofree char *about = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *error = NULL;
  gboolean highlighted;

  g_return_if_fail (table != NULL && run != NULL && point != NULL);
  /* A refusal in the command line's words ("run with --precision float")
   * names the field instead. */
  error = point->error ? ks_param_form_reword (run->desc, point->error) : NULL;

  highlighted = table->highlight >= 0 && point->error == NULL && point->values[table->highlight] > 0;
  about = point->error == NULL && run->desc->describe_point ? run->desc->describe_point (run, point) : NULL;
  tooltip = ks_run_point_markup (run, point, table->figure);
  gtk_list_store_append (table->store, &iter);
  for (guint i = 0; i < table->cells->len; i++)
    {
      g_autofree char *text = cell_text (run, point, &g_array_index (table->cells, Cell, i));
      gtk_list_store_set (table->store, &iter, i, text, -1);
    }
  gtk_list_store_set (table->store, &iter,
                      table->col_note, error ? error
                                       : highlighted && table->figure->highlight_legend
                                       ? _(table->figure->highlight_legend) : about,
                      table->col_weight, highlighted ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL,
                      table->col_tooltip, tooltip, -1);
}

char *
ks_run_point_markup (const KsRun        *run,
                     const KsRunPoint   *p,
                     const KsFigureSpec *figure)
{
  const KsExperimentDesc *desc = run->desc;
  g_autoptr(GString) s = g_string_new ("<b>");
  gboolean first = TRUE;
  int y = figure ? ks_experiment_desc_find_column (desc, figure->y) : -1;

  for (guint i = 0; i < desc->n_params; i++)
    {
      g_autofree char *raw = NULL;
      g_autofree char *value = NULL;
      g_autofree char *escaped = NULL;

      /* What tells the point apart: the swept parameters, and the
       * figure's x and curve even where only one value was run. */
      if (p->params[i] == NULL || !(is_axis (run, desc->params[i].name)
                                    || g_strcmp0 (desc->params[i].name, figure ? figure->x : NULL) == 0
                                    || g_strcmp0 (desc->params[i].name, figure ? figure->x_param : NULL) == 0
                                    || g_strcmp0 (desc->params[i].name, figure ? figure->series_by : NULL) == 0))
        continue;
      raw = ks_param_value_to_string (p->params[i]);
      value = ks_param_value_label (&desc->params[i], raw);
      escaped = g_markup_printf_escaped ("%s%s = %s", first ? "" : ", ", _(desc->params[i].label), value);
      g_string_append (s, escaped);
      first = FALSE;
    }
  g_string_append (s, "</b>");
  if (p->error != NULL)
    {
      g_autofree char *words = ks_param_form_reword (desc, p->error);
      g_autofree char *escaped = g_markup_escape_text (words, -1);

      g_string_append_printf (s, "\n%s", escaped);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (y >= 0)
    {
      const KsColumnSpec *col = &desc->columns[y];
      g_autofree char *value = ks_run_format_value (p->values[y], col->kind);
      g_autofree char *line = NULL;

      if (col->reduce == KS_REDUCE_MEDIAN_RANGE && !isnan (p->lo[y]))
        {
          g_autofree char *lo = ks_run_format_value (p->lo[y], col->kind);
          g_autofree char *hi = ks_run_format_value (p->hi[y], col->kind);
          /* TRANSLATORS: "time per solve: 12.3 ms (min 11.9, max 12.8, 3 repetitions)" */
          line = g_markup_printf_escaped (g_dngettext (GETTEXT_PACKAGE,
                                                       "%s: %s %s (min %s, max %s, %u repetition)",
                                                       "%s: %s %s (min %s, max %s, %u repetitions)", p->reps),
                                          _(col->label), value, col->unit ? ks_unit_label (col->unit) : "", lo, hi, p->reps);
        }
      else
        line = g_markup_printf_escaped ("%s: %s %s", _(col->label), value, col->unit ? ks_unit_label (col->unit) : "");
      g_string_append_printf (s, "\n%s", line);
    }
  if (desc->describe_point != NULL)
    {
      g_autofree char *about = desc->describe_point (run, p);

      if (about != NULL && *about != '\0')
        {
          g_autofree char *escaped = g_markup_escape_text (about, -1);
          g_string_append_printf (s, "\n%s", escaped);
        }
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* --- the paper's numbers ------------------------------------------------------ */

static GtkWidget *
grid_label (const char *text,
            gboolean    dim,
            float       xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 22);
  if (dim)
    gtk_style_context_add_class (gtk_widget_get_style_context (label), "dim-label");
  gtk_widget_show (label);
  return label;
}

/* The column, or the device-info number, a paper value stands beside. */
static const KsColumnSpec *
find_named (const KsExperimentDesc *desc,
            const char             *name)
{
  int c = ks_experiment_desc_find_column (desc, name);

  if (c >= 0)
    return &desc->columns[c];
  for (guint i = 0; i < desc->n_device_info; i++)
    if (g_strcmp0 (desc->device_info[i].name, name) == 0)
      return &desc->device_info[i];
  return NULL;
}

void
ks_run_fill_paper_values (GtkGrid                *grid,
                          const KsExperimentDesc *desc,
                          const KsRun            *run,
                          const char             *heading)
{
  GList *children = gtk_container_get_children (GTK_CONTAINER (grid));

  g_return_if_fail (GTK_IS_GRID (grid) && desc != NULL);
  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  if (desc->n_paper_values == 0)
    return;
  gtk_grid_attach (grid, grid_label (_("what"), TRUE, 0), 0, 0, 1, 1);
  gtk_grid_attach (grid, grid_label (_("paper"), TRUE, 1), 1, 0, 1, 1);
  gtk_grid_attach (grid, grid_label (heading ? heading : _("this run"), TRUE, 1), 2, 0, 1, 1);
  for (guint i = 0; i < desc->n_paper_values; i++)
    {
      const KsPaperValue *v = &desc->paper_values[i];
      const KsColumnSpec *c = find_named (desc, v->column);
      const char *what = c != NULL ? _(c->label) : v->column;
      double here = run != NULL && run->devices->len > 0 ? ks_run_measured_for (run, v, 0) : NAN;
      KsColumnKind kind = c != NULL ? c->kind : KS_COLUMN_REAL;
      g_autofree char *paper = ks_run_format_value (v->value, kind);
      g_autofree char *measured = isnan (here) ? g_strdup ("—") : ks_run_format_value (here, kind);
      g_autofree char *pairs = v->where && *v->where ? ks_experiment_desc_where_label (desc, v->where) : NULL;
      g_autofree char *where = pairs ? g_strdup_printf ("%s (%s)", what, pairs) : g_strdup (what);
      const char *unit = ks_unit_label (v->unit ? v->unit : c != NULL ? c->unit : NULL);
      g_autofree char *tip = NULL;
      g_autofree char *paper_text = unit ? g_strdup_printf ("%s %s", paper, unit) : g_strdup (paper);
      g_autofree char *here_text = unit && !isnan (here) ? g_strdup_printf ("%s %s", measured, unit)
                                                          : g_strdup (measured);
      GtkWidget *label = grid_label (where, FALSE, 0);

      /* The source and the paper's note, then what the number means. */
      tip = g_strdup_printf ("%s%s%s%s%s", v->source ? _(v->source) : "", v->note ? ": " : "",
                             v->note ? _(v->note) : "", c != NULL && c->help ? "\n\n" : "",
                             c != NULL && c->help ? _(c->help) : "");
      gtk_widget_set_tooltip_text (label, tip);
      gtk_grid_attach (grid, label, 0, i + 1, 1, 1);
      gtk_grid_attach (grid, grid_label (paper_text, FALSE, 1), 1, i + 1, 1, 1);
      gtk_grid_attach (grid, grid_label (here_text, FALSE, 1), 2, i + 1, 1, 1);
    }
}
