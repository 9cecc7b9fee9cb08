/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-figure.c: the generic figure of a description: lines with error bars
 * or grouped bars for a categorical x, highlighted and best points with
 * labels, a right axis, vertical and horizontal reference lines from
 * device information, log axes, and the paper's own numbers beside what
 * was measured. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-figure.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static char *
axis_label (const KsExperimentDesc *desc,
            const char             *name)
{
  int c = ks_experiment_desc_find_column (desc, name);
  int p = ks_experiment_desc_find_param (desc, name);
  const char *label = c >= 0 ? desc->columns[c].label : p >= 0 ? desc->params[p].label : name;
  const char *unit = c >= 0 ? desc->columns[c].unit : p >= 0 ? desc->params[p].unit : NULL;

  return unit ? g_strdup_printf ("%s, %s", _(label), ks_unit_label (unit)) : g_strdup (_(label));
}

/* The values of the run's other axes at p (neither x nor series_by), as
 * "Unknowns = 2048, Precision = double": a curve or a bar holds one value of each,
 * or lines would zig-zag between them and bars stack on one another. */
static char *
other_axes (const KsRun        *run,
            const KsFigureSpec *figure,
            const KsRunPoint   *p)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; run->axes && run->axes[i]; i++)
    {
      GVariant *v;
      g_autofree char *value = NULL;
      g_autofree char *pair = NULL;

      if (strcmp (run->axes[i], figure->x) == 0 || g_strcmp0 (run->axes[i], figure->x_param) == 0 ||
          g_strcmp0 (run->axes[i], figure->series_by) == 0 || !(v = ks_run_point_get_param (run, p, run->axes[i])))
        continue;
      value = ks_param_value_to_string (v);
      pair = ks_experiment_desc_pair_label (run->desc, run->axes[i], value);
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", pair);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The curve a point belongs to: its device, the value of the parameter
 * the figure draws one curve per, and its other axes' values. */
static char *
series_key (const KsRun        *run,
            const KsFigureSpec *figure,
            const KsRunPoint   *p)
{
  GVariant *v = figure->series_by ? ks_run_point_get_param (run, p, figure->series_by) : NULL;
  g_autofree char *value = v ? ks_param_value_to_string (v) : g_strdup ("");
  g_autofree char *others = other_axes (run, figure, p);

  return g_strdup_printf ("%u\x1f%s\x1f%s", p->device, value, others);
}

static char *
series_name (const KsRun        *run,
             const KsFigureSpec *figure,
             const KsRunPoint   *p,
             const char         *prefix)
{
  const KsRunDevice *d = run->devices->pdata[p->device];
  GVariant *v = figure->series_by ? ks_run_point_get_param (run, p, figure->series_by) : NULL;
  g_autofree char *value = v ? ks_param_value_to_string (v) : NULL;
  g_autofree char *others = other_axes (run, figure, p);
  gboolean named = prefix != NULL && prefix[0] != '\0';
  g_autoptr(GString) s = g_string_new (prefix);

  if (value)
    {
      g_autofree char *pair = ks_experiment_desc_pair_label (run->desc, figure->series_by, value);
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", pair);
    }
  if (others[0])
    g_string_append_printf (s, "%s%s", s->len ? ", " : "", others);
  /* Several devices share the axes: each curve says whose it is (a
   * prefix names the run, so its one device already), with its backend
   * where another device of the run has the same name (one GPU through
   * CUDA and through OpenCL). */
  if ((s->len == 0 && !named) || run->devices->len > 1)
    {
      const char *name = d->name ? d->name : d->id;
      gboolean twin = FALSE;

      for (guint i = 0; i < run->devices->len && !twin; i++)
        {
          const KsRunDevice *o = run->devices->pdata[i];
          twin = i != p->device && g_strcmp0 (o->name ? o->name : o->id, name) == 0;
        }
      g_string_append_printf (s, "%s%s", s->len ? " · " : "", name);
      if (twin)
        g_string_append_printf (s, " (%s)", ks_run_device_get_backend_label (d));
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* What one drawing of a figure needs beside the run. */
typedef struct {
  const KsFigureSpec    *figure;
  const KsFigureOptions *options;
  const char * const    *categories;   /* the bars' categories; NULL: x is numeric */
} Draw;

/* The name of x's category for a value: a choice's label, else the value
 * as the files write it. */
static char *
category_of (const KsExperimentDesc *desc,
             const KsFigureSpec     *figure,
             const char             *value)
{
  int p = ks_experiment_desc_find_param (desc, figure->x);

  if (p >= 0 && desc->params[p].type == KS_PARAM_CHOICE)
    for (const KsChoice *c = desc->params[p].choices; c && c->value; c++)
      if (strcmp (c->value, value) == 0)
        return g_strdup (_(c->label));
  return g_strdup (value);
}

static char *
x_text (const KsRun        *run,
        const KsFigureSpec *figure,
        const KsRunPoint   *p)
{
  GVariant *v = ks_run_point_get_param (run, p, figure->x);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (v)
    return ks_param_value_to_string (v);
  return g_strdup (ks_run_format_double (buf, ks_run_point_get_number (run, p, figure->x)));
}

static double
category_index (const char * const *categories,
                const char         *name)
{
  for (guint i = 0; categories && categories[i]; i++)
    if (strcmp (categories[i], name) == 0)
      return i;
  return NAN;
}

/* Where the point sits on x: its number, or its category's index. */
static double
point_x (const KsRun      *run,
         const Draw       *draw,
         const KsRunPoint *p)
{
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;

  if (draw->categories == NULL)
    return ks_run_point_get_number (run, p, draw->figure->x);
  text = x_text (run, draw->figure, p);
  name = category_of (run->desc, draw->figure, text);
  return category_index (draw->categories, name);
}

/* The where of a paper value as name -> value. */
static GHashTable *
parse_where (const char *where)
{
  GHashTable *pairs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) words = g_strsplit (where ? where : "", " ", -1);

  for (guint i = 0; words[i]; i++)
    {
      const char *eq = strchr (words[i], '=');

      if (eq && eq != words[i])
        g_hash_table_insert (pairs, g_strndup (words[i], eq - words[i]), g_strdup (eq + 1));
    }
  return pairs;
}

/* Does the paper's number speak of what run measured?  Its column is the
 * figure's y in a unit that agrees, and every name of its where beside x
 * and the series has the value of the run's first measured point. */
static gboolean
paper_applies (const KsRun        *run,
               const KsFigureSpec *figure,
               const KsPaperValue *pv,
               GHashTable         *where)
{
  int y = ks_experiment_desc_find_column (run->desc, figure->y);
  const KsRunPoint *first = NULL;
  GHashTableIter iter;
  gpointer key, value;

  if (strcmp (pv->column, figure->y) != 0 || isnan (pv->value) ||
      (pv->unit && run->desc->columns[y].unit && strcmp (pv->unit, run->desc->columns[y].unit) != 0))
    return FALSE;
  for (guint i = 0; i < run->points->len && first == NULL; i++)
    if (((KsRunPoint *) run->points->pdata[i])->error == NULL)
      first = run->points->pdata[i];
  g_hash_table_iter_init (&iter, where);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GVariant *have;
      g_autofree char *text = NULL;

      if (strcmp (key, figure->x) == 0 || g_strcmp0 (key, figure->x_param) == 0 ||
          g_strcmp0 (key, figure->series_by) == 0)
        continue;
      if (first == NULL || !(have = ks_run_point_get_param (run, first, key)))
        return FALSE;
      text = ks_param_value_to_string (have);
      if (strcmp (text, value) != 0)
        return FALSE;
    }
  return TRUE;
}

/* Categories in the order of x's choices (or first met), for every value
 * a run measured or, when the figure shows them, the paper gives. */
static GStrv
collect_categories (KsRun * const      *runs,
                    guint               n_runs,
                    const KsFigureSpec *figure)
{
  const KsExperimentDesc *desc = runs[0]->desc;
  int p = ks_experiment_desc_find_param (desc, figure->x);
  g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GStrvBuilder) out = g_strv_builder_new ();

  for (guint r = 0; r < n_runs; r++)
    for (guint i = 0; i < runs[r]->points->len; i++)
      {
        const KsRunPoint *pt = runs[r]->points->pdata[i];
        g_autofree char *text = NULL;

        if (pt->error)
          continue;
        text = x_text (runs[r], figure, pt);
        if (!g_ptr_array_find_with_equal_func (seen, text, g_str_equal, NULL))
          g_ptr_array_add (seen, g_steal_pointer (&text));
      }
  for (guint i = 0; figure->show_paper && i < desc->n_paper_values; i++)
    {
      g_autoptr(GHashTable) where = parse_where (desc->paper_values[i].where);
      const char *value = g_hash_table_lookup (where, figure->x);

      if (value && paper_applies (runs[0], figure, &desc->paper_values[i], where) &&
          !g_ptr_array_find_with_equal_func (seen, value, g_str_equal, NULL))
        g_ptr_array_add (seen, g_strdup (value));
    }
  if (p >= 0 && desc->params[p].type == KS_PARAM_CHOICE)
    {
      for (const KsChoice *c = desc->params[p].choices; c && c->value; c++)
        if (g_ptr_array_find_with_equal_func (seen, c->value, g_str_equal, NULL))
          g_strv_builder_add (out, _(c->label));
    }
  else
    for (guint i = 0; i < seen->len; i++)
      g_strv_builder_add (out, seen->pdata[i]);
  return g_strv_builder_end (out);
}

typedef struct {
  char   *name;
  GArray *points;   /* of guint: indices into run->points */
  guint   best;     /* the lowest y, or G_MAXUINT */
} Curve;

static void
curve_free (Curve *c)
{
  g_free (c->name);
  g_array_unref (c->points);
  g_free (c);
}

/* The run's points that the figure draws, grouped into curves in order of
 * first appearance. */
static GPtrArray *
collect_curves (const KsRun *run,
                const Draw  *draw,
                const char  *prefix)
{
  const KsFigureSpec *figure = draw->figure;
  GPtrArray *curves = g_ptr_array_new_with_free_func ((GDestroyNotify) curve_free);
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  int y = ks_experiment_desc_find_column (run->desc, figure->y);

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      double px = p->error ? NAN : point_x (run, draw, p);
      g_autofree char *key = NULL;
      Curve *c;

      if (p->error || isnan (px) || isnan (p->values[y]) ||
          (draw->categories == NULL && px < draw->options->min_x) ||
          p->device >= run->devices->len)
        continue;
      key = series_key (run, figure, p);
      if (!(c = g_hash_table_lookup (by_key, key)))
        {
          c = g_new0 (Curve, 1);
          c->name = series_name (run, figure, p, prefix);
          c->points = g_array_new (FALSE, FALSE, sizeof (guint));
          c->best = G_MAXUINT;
          g_ptr_array_add (curves, c);
          g_hash_table_insert (by_key, g_steal_pointer (&key), c);
        }
      g_array_append_val (c->points, i);
      if (c->best == G_MAXUINT || p->values[y] < ((KsRunPoint *) run->points->pdata[c->best])->values[y])
        c->best = i;
    }
  return curves;
}

/* One curve's points of column (the figure's y, or its y2) as a series. */
static void
add_series (KsPlot      *plot,
            const KsRun *run,
            const Draw  *draw,
            const Curve *curve,
            int          column,
            const char  *name,
            gboolean     dashed)
{
  const KsFigureSpec *figure = draw->figure;
  int h = figure->highlight ? ks_experiment_desc_find_column (run->desc, figure->highlight) : -1;
  gboolean right = column != ks_experiment_desc_find_column (run->desc, figure->y);
  guint series = ks_plot_add_series (plot, name);

  ks_plot_series_set_dashed (plot, series, dashed);
  ks_plot_series_set_y2 (plot, series, right);
  if (draw->categories)
    ks_plot_series_set_kind (plot, series, KS_PLOT_SERIES_BARS);
  for (guint k = 0; k < curve->points->len; k++)
    {
      guint i = g_array_index (curve->points, guint, k);
      const KsRunPoint *p = run->points->pdata[i];
      double px = point_x (run, draw, p);
      KsPlotPointFlags flags = KS_PLOT_POINT_NONE;
      g_autofree char *label = NULL;

      if (isnan (p->values[column]))
        continue;
      if (h >= 0 && p->values[h] > 0 && !right)
        {
          flags |= KS_PLOT_POINT_HIGHLIGHT;
          if (figure->highlight_label)
            label = g_strdup_printf (_(figure->highlight_label), px);
        }
      if (figure->mark_best && i == curve->best && !dashed && !right && draw->categories == NULL)
        {
          flags |= KS_PLOT_POINT_BEST;
          g_free (label);
          label = g_strdup_printf (_("best %g"), px);
        }
      ks_plot_add_point_full (plot, series, px, p->values[column], p->lo[column], p->hi[column],
                              flags, label);
    }
}

static void
add_curves (KsPlot      *plot,
            const KsRun *run,
            const Draw  *draw,
            const char  *prefix,
            gboolean     dashed)
{
  const KsFigureSpec *figure = draw->figure;
  g_autoptr(GPtrArray) curves = collect_curves (run, draw, prefix);
  int y = ks_experiment_desc_find_column (run->desc, figure->y);
  int y2 = figure->y2 ? ks_experiment_desc_find_column (run->desc, figure->y2) : -1;

  for (guint c = 0; c < curves->len; c++)
    {
      const Curve *curve = curves->pdata[c];

      add_series (plot, run, draw, curve, y, curve->name, dashed);
      if (y2 >= 0)
        {
          /* TRANSLATORS: a curve on the right axis: "NVIDIA H200 · bandwidth" */
          g_autofree char *name = g_strdup_printf (_("%s · %s"), curve->name, _(run->desc->columns[y2].label));

          add_series (plot, run, draw, curve, y2, name, dashed);
        }
    }
}

/* The paper's numbers for y beside the measured ones (see show_paper). */
static void
add_paper (KsPlot      *plot,
           const KsRun *run,
           const Draw  *draw)
{
  const KsExperimentDesc *desc = run->desc;
  const KsFigureSpec *figure = draw->figure;
  g_autoptr(GHashTable) series = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < desc->n_paper_values; i++)
    {
      const KsPaperValue *pv = &desc->paper_values[i];
      g_autoptr(GHashTable) where = parse_where (pv->where);
      const char *xv = g_hash_table_lookup (where, figure->x);
      const char *sv = figure->series_by ? g_hash_table_lookup (where, figure->series_by) : NULL;
      g_autofree char *name = NULL;
      g_autofree char *category = NULL;
      gpointer index;
      double x;

      if (!paper_applies (run, figure, pv, where))
        continue;
      if (sv)
        {
          g_autofree char *pair = ks_experiment_desc_pair_label (desc, figure->series_by, sv);
          /* TRANSLATORS: the paper's own numbers in a legend, e.g. "paper, Method = Thomas, global" */
          name = g_strdup_printf (_("paper, %s"), pair);
        }
      else
        name = g_strdup (_("paper"));
      if (pv->label)
        {
          /* One of the paper's columns: "paper, GTS 450". */
          g_autofree char *labelled = g_strdup_printf ("%s, %s", name, _(pv->label));

          g_free (name);
          name = g_steal_pointer (&labelled);
        }
      if (xv == NULL)
        {
          g_autofree char *label = NULL;

          if (draw->categories)
            continue;
          /* TRANSLATORS: a horizontal line at a number the paper gives, e.g. "paper, Method = Thomas: 1.26 (Table 2)" */
          label = g_strdup_printf (_("%s: %g (%s)"), name, pv->value, _(pv->source));
          ks_plot_add_hline (plot, pv->value, label);
          continue;
        }
      if (draw->categories)
        {
          category = category_of (desc, figure, xv);
          x = category_index (draw->categories, category);
        }
      else
        x = g_ascii_strtod (xv, NULL);
      if (isnan (x))
        continue;
      if (!g_hash_table_lookup_extended (series, name, NULL, &index))
        {
          guint s = ks_plot_add_series (plot, name);

          ks_plot_series_set_dashed (plot, s, TRUE);
          if (draw->categories)
            ks_plot_series_set_kind (plot, s, KS_PLOT_SERIES_BARS);
          index = GUINT_TO_POINTER (s);
          g_hash_table_insert (series, g_strdup (name), index);
        }
      ks_plot_add_point (plot, GPOINTER_TO_UINT (index), x, pv->value);
    }
}

/* The largest x of the plot's series from first on; -INFINITY when there
 * is none. */
static double
max_x_drawn (KsPlot *plot,
             guint   first)
{
  double max = -INFINITY;

  for (guint s = first; s < ks_plot_get_n_series (plot); s++)
    for (guint i = 0; i < ks_plot_series_get_n_points (plot, s); i++)
      max = MAX (max, ks_plot_series_get_point (plot, s, i)->x);
  return max;
}

/* The run's reference lines; its curves are the plot's series from
 * first on. */
static void
add_lines (KsPlot             *plot,
           const KsRun        *run,
           const KsFigureSpec *figure,
           guint               first)
{
  double max_x = figure->vline_within ? max_x_drawn (plot, first) : INFINITY;

  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunDevice *dev = run->devices->pdata[d];
      double v = figure->vline_info ? ks_run_device_get_info (dev, figure->vline_info) : NAN;

      if (v > MAX (max_x, 1))
        v = NAN;
      double h = figure->hline_info ? ks_run_device_get_info (dev, figure->hline_info) : NAN;
      double h2 = figure->hline2_info ? ks_run_device_get_info (dev, figure->hline2_info) : NAN;

      if (!isnan (v))
        {
          g_autofree char *label = figure->vline_label ? g_strdup_printf (_(figure->vline_label), v) : NULL;
          ks_plot_add_vline (plot, v, label);
        }
      if (!isnan (h))
        {
          g_autofree char *label = figure->hline_label ? g_strdup_printf (_(figure->hline_label), h) : NULL;
          ks_plot_add_hline (plot, h, label);
        }
      if (!isnan (h2))
        {
          g_autofree char *label = figure->hline2_label ? g_strdup_printf (_(figure->hline2_label), h2) : NULL;
          ks_plot_add_hline (plot, h2, label);
        }
    }
}

/* The first point's value of a parameter that is no axis of any run
 * (one value a run), as the files write it; its default where the run has
 * none (a file from before the parameter was added); NULL for an axis. */
static char *
setting_of (KsRun * const *runs,
            guint          n_runs,
            guint          r,
            guint          k)
{
  const char *name = runs[r]->desc->params[k].name;
  GVariant *v;

  for (guint i = 0; i < n_runs; i++)
    if (runs[i]->axes && g_strv_contains ((const char * const *) runs[i]->axes, name))
      return NULL;
  if (runs[r]->points->len == 0 || !(v = ks_run_point_get_param (runs[r], runs[r]->points->pdata[0], name)))
    return g_strdup (runs[r]->desc->params[k].default_value ? runs[r]->desc->params[k].default_value : "");
  return ks_param_value_to_string (v);
}

/* Each run's name for the legend (ks_run_get_name), with the settings that
 * tell runs of the same devices apart ("partition = metis"): two runs'
 * curves would otherwise carry one name. */
static GStrv
run_names (KsRun * const *runs,
           guint          n_runs)
{
  const KsExperimentDesc *desc = runs[0]->desc;
  GStrv names = g_new0 (char *, n_runs + 1);
  gboolean alike = FALSE;

  for (guint i = 0; i < n_runs; i++)
    {
      names[i] = ks_run_get_name (runs[i]);
      for (guint j = 0; j < i; j++)
        alike |= strcmp (names[i], names[j]) == 0;
    }
  for (guint k = 0; alike && k < desc->n_params; k++)
    {
      g_autofree char *first = setting_of (runs, n_runs, 0, k);
      gboolean differ = FALSE;

      for (guint i = 1; first && !differ && i < n_runs; i++)
        {
          g_autofree char *other = setting_of (runs, n_runs, i, k);
          differ = g_strcmp0 (first, other) != 0;
        }
      for (guint i = 0; differ && i < n_runs; i++)
        {
          g_autofree char *value = setting_of (runs, n_runs, i, k);
          g_autofree char *pair = ks_experiment_desc_pair_label (desc, desc->params[k].name, *value ? value : "-");
          char *named = g_strdup_printf ("%s, %s", names[i], pair);
          g_free (names[i]);
          names[i] = named;
        }
    }
  return names;
}

KsPlot *
ks_figure_plot_new (const KsFigureSpec    *figure,
                    KsRun * const         *runs,
                    guint                  n_runs,
                    const KsFigureOptions *options)
{
  const KsExperimentDesc *desc;
  KsFigureOptions defaults;
  KsPlot *plot;
  Draw draw;
  g_auto(GStrv) categories = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *x_label = NULL;
  g_autofree char *y_label = NULL;

  g_return_val_if_fail (runs != NULL && n_runs > 0, NULL);

  desc = runs[0]->desc;
  if (options == NULL)
    {
      ks_figure_options_init (&defaults);
      options = &defaults;
    }
  if (figure == NULL && desc->n_figures == 0)
    {
      plot = ks_plot_new ();
      ks_plot_set_title (plot, _(desc->title));
      return plot;
    }
  if (figure == NULL)
    figure = &desc->figures[0];

  plot = ks_plot_new ();
  ks_plot_set_title (plot, _(figure->title));
  x_label = axis_label (desc, figure->x);
  y_label = axis_label (desc, figure->y);
  ks_plot_set_axis_labels (plot, x_label, y_label);
  if (figure->y2)
    {
      g_autofree char *y2_label = axis_label (desc, figure->y2);
      ks_plot_set_y2_label (plot, y2_label);
    }
  if (figure->categorical_x)
    {
      categories = collect_categories (runs, n_runs, figure);
      ks_plot_set_x_categories (plot, (const char * const *) categories);
    }
  else if (figure->log2_x)
    ks_plot_set_x_scale (plot, KS_PLOT_SCALE_LOG2);
  else
    ks_plot_set_log_x (plot, figure->log_x);
  ks_plot_set_log_y (plot, figure->log_y || options->log_y);
  if (figure->highlight_legend)
    ks_plot_set_highlight_legend (plot, _(figure->highlight_legend));
  draw.figure = figure;
  draw.options = options;
  draw.categories = (const char * const *) categories;
  names = n_runs > 1 ? run_names (runs, n_runs) : NULL;
  /* The newest run (the last) is drawn solid; earlier ones stay beside
   * it dashed, as the README promises, so the eye finds this run first. */
  for (guint i = 0; i < n_runs; i++)
    {
      guint first = ks_plot_get_n_series (plot);

      add_curves (plot, runs[i], &draw, names ? names[i] : NULL, i + 1 < n_runs);
      add_lines (plot, runs[i], figure, first);
    }
  if (figure->show_paper)
    add_paper (plot, runs[0], &draw);
  if (n_runs == 1)
    {
      g_autofree char *name = ks_run_get_name (runs[0]);
      g_autofree char *day = runs[0]->date ? g_strndup (runs[0]->date, 10) : NULL;
      g_autofree char *caption = g_strdup_printf ("%s · %s%s", name, day ? day : "",
                                                  runs[0]->complete ? "" : _(" · incomplete"));
      ks_plot_set_caption (plot, caption);
    }
  return plot;
}

static void add_recorded_curves (const KsFigureSpec    *figure,
                                 KsPlot                *plot,
                                 const KsRun           *run,
                                 const KsFigureOptions *options);

void
ks_figure_add_recorded (const KsFigureSpec    *figure,
                        KsPlot                *plot,
                        const KsRun           *run,
                        const KsFigureOptions *options)
{
  KsFigureOptions defaults;
  g_autofree char *group = NULL;
  guint first, n;

  g_return_if_fail (plot != NULL && run != NULL);

  if (options == NULL)
    {
      ks_figure_options_init (&defaults);
      options = &defaults;
    }
  if (figure == NULL && run->desc->n_figures == 0)
    return;
  if (figure == NULL)
    figure = &run->desc->figures[0];
  first = ks_plot_get_n_series (plot);
  add_recorded_curves (figure, plot, run, options);
  /* Drawn over the user's run without setting its axes; a run of several
   * curves is one legend entry (their tooltips name each). */
  n = ks_plot_get_n_series (plot);
  if (n - first > 1)
    {
      g_autofree char *name = ks_run_get_name (run);

      /* TRANSLATORS: one legend entry for all the curves of a run measured
       * elsewhere, e.g. "recorded: NVIDIA H200 (CUDA), 12 curves" */
      group = g_strdup_printf (_("recorded: %s, %u curves"), name, n - first);
    }
  for (guint s = first; s < n; s++)
    {
      ks_plot_series_set_overlay (plot, s, TRUE);
      ks_plot_series_set_group (plot, s, group);
    }
}

static void
add_recorded_curves (const KsFigureSpec    *figure,
                     KsPlot                *plot,
                     const KsRun           *run,
                     const KsFigureOptions *options)
{
  Draw draw;
  g_autofree char *name = NULL;
  g_autofree char *prefix = NULL;

  name = ks_run_get_name (run);
  /* TRANSLATORS: a curve measured elsewhere, e.g. "recorded: NVIDIA H200 (CUDA)" */
  prefix = g_strdup_printf (_("recorded: %s"), name);
  draw.figure = figure;
  draw.options = options;
  draw.categories = NULL;
  if (figure->categorical_x)
    {
      /* The live figure placed its categories; the recorded run's others
       * go after them, so the live bars stay where they are. */
      KsRun *one = (KsRun *) run;
      g_auto(GStrv) own = collect_categories (&one, 1, figure);
      const char * const *have = ks_plot_get_x_categories (plot);
      g_autoptr(GStrvBuilder) all = g_strv_builder_new ();
      g_auto(GStrv) merged = NULL;

      if (have)
        g_strv_builder_addv (all, (const char **) have);
      for (guint i = 0; own[i]; i++)
        if (have == NULL || !g_strv_contains (have, own[i]))
          g_strv_builder_add (all, own[i]);
      merged = g_strv_builder_end (all);
      ks_plot_set_x_categories (plot, (const char * const *) merged);
      draw.categories = ks_plot_get_x_categories (plot);
    }
  add_curves (plot, run, &draw, prefix, TRUE);
}
