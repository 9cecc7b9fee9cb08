/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-index-predict.c: index-fill's "predict, then measure" (issue 31):
 * the cache lines index_fill_mapped writes under each launch the page
 * measures, counted by the access model (ks-access.h), predict the ratio of
 * its time to the paper's mapping; the verdict sets it beside the measured
 * ratio.  The grid-stride loop is another kernel the model does not have. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-index-private.h"
#include "ks-access.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* At most this many work-items modelled: the first groups of a launch
 * show its pattern (every group of a layout but the last along a side runs
 * the same), and a whole 2000 x 3000 domain would stall the page. */
#define SAMPLE_ITEMS 65536u

double
ks_exp_index_predicted_lines (const KsIndexDomain *domain,
                              KsIndexRule          rule,
                              guint64              block,
                              guint                elem)
{
  KsIndexMapping m = { 0 };
  KsAccessPoint p = { .kernel = KS_ACCESS_INDEX_MAPPED, .group = (guint) block, .elem = elem,
                      .domain = *domain, .rule = rule };
  g_auto(KsAccessModel) model = { 0 };
  guint64 lines, groups, modelled;
  double ideal;

  ks_index_map (domain, rule, block, &m);
  if (m.mapped)
    p.groups = (guint) MAX (1, SAMPLE_ITEMS / MAX (m.block[0], 1));
  ks_index_mapping_clear (&m);
  if (p.groups == 0 || !ks_access_model_build (&p, &model, NULL) || model.n_items == 0)
    return NAN;
  ks_access_count_total (&model, 32, 128, &lines, &ideal);
  groups = model.global[0] / model.local[0] * model.global[1] * model.global[2];
  modelled = model.n_items / model.local[0];
  return (double) lines * (double) groups / (double) modelled;
}

const KsRunPoint *
ks_exp_index_find_point (const KsRun *run,
                         guint        device,
                         const char  *shape,
                         const char  *method)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      GVariant *ps = ks_run_point_get_param (run, p, "shape");
      GVariant *pm = ks_run_point_get_param (run, p, "method");

      if (p->device == device && p->error == NULL && ps && pm &&
          g_strcmp0 (g_variant_get_string (ps, NULL), shape) == 0 &&
          g_strcmp0 (g_variant_get_string (pm, NULL), method) == 0)
        return p;
    }
  return NULL;
}

/* The domain and value size a point ran (n3 only set for the third shape). */
static gboolean
point_domain (const KsRun      *run,
              const KsRunPoint *p,
              int               shape,
              KsIndexDomain    *domain,
              guint            *elem)
{
  GVariant *precision = ks_run_point_get_param (run, p, "precision");
  const double n3 = ks_run_point_get_number (run, p, "n3");

  *elem = precision && g_strcmp0 (g_variant_get_string (precision, NULL), "float") == 0 ? 4 : 8;
  return ks_exp_index_fill_domain (shape, (gint64) ks_run_point_get_number (run, p, "v"),
                                   (gint64) ks_run_point_get_number (run, p, "w"),
                                   isnan (n3) ? 10 : (gint64) n3, domain, NULL);
}

/* The share of a rule's launched threads that reach no point, in percent. */
static double
idle_percent (const KsIndexDomain *domain,
              KsIndexRule          rule,
              guint64              block)
{
  KsIndexMapping m = { 0 };
  double share;

  ks_index_map (domain, rule, block, &m);
  share = m.mapped && m.threads > 0 ? 100.0 * (double) m.idle / (double) m.threads : NAN;
  ks_index_mapping_clear (&m);
  return share;
}

/* One shape's launches against its mapped point, appended to out as
 * "; "-separated clauses. */
static void
predict_shape (const KsRun *run,
               guint        device,
               int          shape,
               const char  *shape_name,
               const char  *shape_label,
               GString     *out)
{
  static const struct { const char *method; KsIndexRule rule; const char *label; } launches[] = {
    { "today", KS_INDEX_RULE_TODAY, N_("today's limits") },
    { "occupancy", KS_INDEX_RULE_OCCUPANCY, N_("occupancy block") },
  };
  const KsRunPoint *mapped = ks_exp_index_find_point (run, device, shape_name, "mapped");
  const double block = ks_run_device_get_info (run->devices->pdata[device], "occupancy_block");
  const guint64 ob = isnan (block) || block < 1 ? 0 : (guint64) block;
  KsIndexDomain domain;
  guint elem;
  double base;

  if (!mapped || !(mapped->values[0] > 0) || !point_domain (run, mapped, shape, &domain, &elem))
    return;
  base = ks_exp_index_predicted_lines (&domain, KS_INDEX_RULE_PAPER, ob, elem);
  for (guint i = 0; i < G_N_ELEMENTS (launches); i++)
    {
      const KsRunPoint *p = ks_exp_index_find_point (run, device, shape_name, launches[i].method);
      const double lines = p ? ks_exp_index_predicted_lines (&domain, launches[i].rule, ob, elem) : NAN;

      if (!(lines > 0 && base > 0 && p->values[0] >= 0))
        continue;
      if (out->len > 0)
        g_string_append (out, "; ");
      /* TRANSLATORS: "D(v, w/n3, n3), occupancy block: 0.42x predicted (0 % of its threads idle, the mapped
       * 38 %), 0.95x measured" */
      g_string_append_printf (out, _("%s, %s: %.2fx predicted (%.0f %% of its threads idle, the mapped %.0f %%), "
                                     "%.2fx measured"),
                              shape_label, _(launches[i].label), lines / base,
                              idle_percent (&domain, launches[i].rule, ob),
                              idle_percent (&domain, KS_INDEX_RULE_PAPER, ob), p->values[0] / mapped->values[0]);
    }
}

void
ks_exp_index_append_prediction (KsVerdict   *verdict,
                                const KsRun *run,
                                guint        device)
{
  static const char *const shapes[] = { "1d", "2d", "3d" };
  static const char *const labels[] = { N_("D(v·w)"), N_("D(v, w)"), N_("D(v, w/n3, n3)") };
  g_autoptr(GString) clauses = g_string_new (NULL);

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    predict_shape (run, device, (int) s, shapes[s], _(labels[s]), clauses);
  if (clauses->len == 0)
    return;
  ks_verdict_append (verdict, _("Counted on warps of 32 and 128-byte cache lines (kernelscope-cli access), the "
                                "lines each launch writes predict its time against the paper's mapping: %s. "
                                "The grid-stride loop is another kernel, which the model does not count."),
                     clauses->str);
}
