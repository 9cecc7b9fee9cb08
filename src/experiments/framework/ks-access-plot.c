/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-plot.c: one step of an access model drawn (ks-access-plot.h);
 * each buffer from the first line the warp touches, side by side. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-access-plot.h"

#include <glib/gi18n-lib.h>
#include <math.h>

guint
ks_access_step_lines (const KsAccessModel *model,
                      guint                warp,
                      guint                w,
                      guint                step,
                      guint                line,
                      double              *ideal)
{
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (KsAccessCount));
  guint lines = 0;

  *ideal = 0;
  ks_access_count_step (model, warp, w, step, line, counts);
  for (guint i = 0; i < counts->len; i++)
    {
      lines += g_array_index (counts, KsAccessCount, i).lines;
      *ideal += g_array_index (counts, KsAccessCount, i).ideal;
    }
  return lines;
}

char *
ks_access_plot_title (const char     *experiment,
                      KsAccessKernel  kernel,
                      guint           w,
                      guint           step,
                      guint           lines,
                      guint           line,
                      double          ideal)
{
  /* TRANSLATORS: "micro-access micro-direct, warp 0, step 3: 289
   * transactions of 128 bytes, ideal 2.5": the experiment and the kernel
   * are names, as the command line spells them */
  return g_strdup_printf (_("%s %s, warp %u, step %u: %u transactions of %u bytes, ideal %.3g"), experiment,
                          ks_access_kernel_to_string (kernel), w, step, lines, line, ideal);
}

/* Is a one of warp w's in step? */
static gboolean
in_step (const KsAccessModel *m,
         const KsAccess      *a,
         guint                warp,
         guint                w,
         guint                step)
{
  return a->step == step && ks_access_warp_of (m, a->item, warp) == w;
}

/* Each buffer's first and last line the warp touches in the step. */
static void
buffer_spans (const KsAccessModel *m,
              guint                warp,
              guint                w,
              guint                step,
              guint                line,
              guint64             *first,
              guint64             *last)
{
  for (guint k = 0; k < m->n_buffers; k++)
    first[k] = G_MAXUINT64, last[k] = 0;
  for (guint i = 0; i < m->accesses->len; i++)
    {
      const KsAccess *a = &g_array_index (m->accesses, KsAccess, i);

      if (!in_step (m, a, warp, w, step))
        continue;
      first[a->buffer] = MIN (first[a->buffer], a->offset / line);
      last[a->buffer] = MAX (last[a->buffer], (a->offset + a->size - 1) / line);
    }
}

static gboolean
plot_index (KsPlot              *plot,
            const KsAccessPoint *p,
            GError             **error)
{
  KsIndexMapping mapping = { 0 };
  guint dx, dy, bx, by;
  gboolean ok;

  ks_index_map (&p->domain, p->rule, p->group, &mapping);
  ok = ks_index_mapping_diagram (&p->domain, &mapping, &dx, &dy, &bx, &by);
  if (ok)
    ks_plot_set_blocks (plot, dx, dy, bx, by);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("This launch (%s) cannot be drawn"),
                 mapping.mapped ? mapping.launch : mapping.why);
  ks_index_mapping_clear (&mapping);
  return ok;
}

/* One series per buffer touched: x the line (from the buffer's first, the
 * buffers side by side, two lines apart), y the item's lane. */
static void
plot_strip (KsPlot              *plot,
            const KsAccessModel *m,
            guint                warp,
            guint                w,
            guint                step,
            guint                line)
{
  g_autoptr(GHashTable) shaded = g_hash_table_new (NULL, NULL);
  guint64 first[8], last[8];
  double base[8], x0 = 0;
  int series[8];

  buffer_spans (m, warp, w, step, line, first, last);
  for (guint k = 0; k < m->n_buffers; k++)
    {
      series[k] = -1;
      base[k] = x0;
      if (first[k] == G_MAXUINT64)
        continue;
      series[k] = (int) ks_plot_add_series (plot, m->buffers[k]);
      ks_plot_series_set_kind (plot, (guint) series[k], KS_PLOT_SERIES_POINTS);
      x0 += (double) (last[k] - first[k] + 1) + 2;
    }
  for (guint i = 0; i < m->accesses->len; i++)
    {
      const KsAccess *a = &g_array_index (m->accesses, KsAccess, i);
      double x;

      if (!in_step (m, a, warp, w, step))
        continue;
      x = base[a->buffer] + ((double) a->offset - (double) first[a->buffer] * line) / line;
      ks_plot_add_point (plot, (guint) series[a->buffer], x, (double) (a->item % m->local[0] % warp));
      if (g_hash_table_add (shaded, GINT_TO_POINTER ((int) floor (x) + 1)))
        ks_plot_add_x_band (plot, floor (x), floor (x) + 1, NULL);
    }
  ks_plot_set_axis_labels (plot, _("cache line (each buffer from its first line touched)"),
                           _("item of the warp"));
}

gboolean
ks_access_plot_step (KsPlot              *plot,
                     const KsAccessModel *model,
                     const KsAccessPoint *point,
                     guint                warp,
                     guint                w,
                     guint                step,
                     guint                line,
                     GError             **error)
{
  if (point->kernel == KS_ACCESS_INDEX_MAPPED)
    return plot_index (plot, point, error);
  plot_strip (plot, model, warp, w, step, line);
  return TRUE;
}

/* --- the form's values, for the descriptions' access hooks ------------------ */

/* The first value of name in values, else of its default; NULL where
 * neither parses. */
static GVariant *
first_value (const KsExperimentDesc *desc,
             GHashTable             *values,
             const char             *name)
{
  const int i = ks_experiment_desc_find_param (desc, name);
  const char *texts[2] = { values ? g_hash_table_lookup (values, name) : NULL, NULL };

  if (i < 0)
    return NULL;
  texts[1] = desc->params[i].default_value;
  for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
    {
      g_autoptr(GPtrArray) axis = NULL;

      if (texts[k] && (axis = ks_param_parse_axis (&desc->params[i], texts[k], NULL)) && axis->len > 0)
        return g_variant_ref (g_ptr_array_index (axis, 0));
    }
  return NULL;
}

gint64
ks_experiment_desc_first_int (const KsExperimentDesc *desc,
                              GHashTable             *values,
                              const char             *name,
                              gint64                  def)
{
  g_autoptr(GVariant) v = first_value (desc, values, name);

  return v && g_variant_is_of_type (v, G_VARIANT_TYPE_INT64) ? g_variant_get_int64 (v) : def;
}

int
ks_experiment_desc_first_choice (const KsExperimentDesc *desc,
                                 GHashTable             *values,
                                 const char             *name,
                                 int                     def)
{
  g_autoptr(GVariant) v = first_value (desc, values, name);
  const int i = ks_experiment_desc_find_param (desc, name);
  const KsChoice *c;

  if (!v || !g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    return def;
  c = ks_param_find_choice (&desc->params[i], g_variant_get_string (v, NULL));
  return c ? c->id : def;
}

gboolean
ks_experiment_desc_values_match (const KsExperimentDesc *desc,
                                 GHashTable             *values,
                                 const char             *where)
{
  g_auto(GStrv) pairs = NULL;

  g_return_val_if_fail (desc != NULL && where != NULL, FALSE);
  pairs = g_strsplit (where, " ", -1);
  for (guint k = 0; pairs[k]; k++)
    {
      g_auto(GStrv) nv = g_strsplit (pairs[k], "=", 2);
      const int i = nv[0] && nv[1] ? ks_experiment_desc_find_param (desc, nv[0]) : -1;
      const char *text;
      g_autoptr(GPtrArray) axis = NULL;
      g_autoptr(GPtrArray) wanted = NULL;
      gboolean found = FALSE;

      if (i < 0)
        continue;
      text = values ? g_hash_table_lookup (values, nv[0]) : NULL;
      if (text == NULL || *text == '\0')
        text = desc->params[i].default_value;
      axis = text ? ks_param_parse_axis (&desc->params[i], text, NULL) : NULL;
      wanted = ks_param_parse_axis (&desc->params[i], nv[1], NULL);
      if (axis == NULL || wanted == NULL || wanted->len == 0)
        return FALSE;
      for (guint a = 0; a < axis->len && !found; a++)
        found = g_variant_equal (axis->pdata[a], wanted->pdata[0]);
      if (!found)
        return FALSE;
    }
  return TRUE;
}
