/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss-sweep.c: one device's points of a Gauss run as plain
 * numbers (ks-exp-gauss-private.h). */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-gauss-private.h"
#include "ks-ogs.h"
#include "ks-run.h"

#include <math.h>
#include <string.h>

static guint
as_uint (double v)
{
  return isfinite (v) && v > 0 ? (guint) MIN (v, (double) G_MAXUINT) : 0;
}

/* Where a Gauss point keeps its numbers: indices looked up by name once
 * per description, not at every point of a run of 10^6. */
typedef struct {
  int n, wg, local;
  int time, prime, fwd_local[2], fwd_groups[2];
} GaussIndex;

static const GaussIndex *
gauss_index (const KsExperimentDesc *desc)
{
  static GaussIndex index[2];
  static gsize done[2];
  guint w = desc == &ks_exp_gauss_wg;

  if (g_once_init_enter (&done[w]))
    {
      GaussIndex *x = &index[w];

      x->n = ks_experiment_desc_find_param (desc, "n");
      x->wg = ks_experiment_desc_find_param (desc, "wg");
      x->local = ks_experiment_desc_find_param (desc, "local");
      x->time = ks_experiment_desc_find_column (desc, "time_ms");
      x->prime = ks_experiment_desc_find_column (desc, "n_plus_1_prime");
      x->fwd_local[0] = ks_experiment_desc_find_column (desc, "fwd_local_x");
      x->fwd_local[1] = ks_experiment_desc_find_column (desc, "fwd_local_y");
      x->fwd_groups[0] = ks_experiment_desc_find_column (desc, "fwd_groups_x");
      x->fwd_groups[1] = ks_experiment_desc_find_column (desc, "fwd_groups_y");
      g_once_init_leave (&done[w], 1);
    }
  return &index[w];
}

/* A whole-number parameter, 0 where it does not apply. */
static guint
param_uint (const KsRunPoint *q,
            int               i)
{
  GVariant *v = i >= 0 ? q->params[i] : NULL;

  return v && g_variant_is_of_type (v, G_VARIANT_TYPE_INT64) ? as_uint ((double) g_variant_get_int64 (v)) : 0;
}

static void
read_point (const GaussIndex *x,
            const KsRunPoint *q,
            KsGaussPoint     *p)
{
  GVariant *local = x->local >= 0 ? q->params[x->local] : NULL;

  p->n = param_uint (q, x->n);
  p->wg = param_uint (q, x->wg);
  p->local = KS_LOCAL_DRIVER;
  if (local && g_variant_is_of_type (local, G_VARIANT_TYPE_STRING))
    ks_local_policy_from_string (g_variant_get_string (local, NULL), &p->local);
  p->error = q->error;
  /* A refused point measured nothing; N+1 is prime all the same. */
  p->n1_prime = q->error ? ks_is_prime ((guint64) p->n + 1) : q->values[x->prime] > 0;
  p->time_ms = q->error ? NAN : q->values[x->time];
  for (guint k = 0; k < 2; k++)
    {
      p->fwd_local[k] = q->error ? 0 : as_uint (q->values[x->fwd_local[k]]);
      p->fwd_groups[k] = q->error ? 0 : as_uint (q->values[x->fwd_groups[k]]);
    }
}

void
ks_exp_gauss_read_point (const KsRun      *run,
                         const KsRunPoint *point,
                         KsGaussPoint     *out)
{
  g_return_if_fail (run->desc == &ks_exp_gauss_size || run->desc == &ks_exp_gauss_wg);
  read_point (gauss_index (run->desc), point, out);
}

static gboolean
param_true (const KsRun      *run,
            const KsRunPoint *p,
            const char       *name)
{
  GVariant *v = ks_experiment_desc_find_param (run->desc, name) >= 0 ? ks_run_point_get_param (run, p, name) : NULL;

  return v && g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN) && g_variant_get_boolean (v);
}

gboolean
ks_exp_gauss_sweep_init (KsGaussSweep *sweep,
                         const KsRun  *run,
                         guint         device)
{
  const GaussIndex *x;
  const KsRunDevice *d;
  const KsRunPoint *first = NULL;

  g_return_val_if_fail (sweep != NULL && run != NULL, FALSE);
  memset (sweep, 0, sizeof *sweep);
  if ((run->desc != &ks_exp_gauss_size && run->desc != &ks_exp_gauss_wg) || device >= run->devices->len)
    return FALSE;
  x = gauss_index (run->desc);
  d = run->devices->pdata[device];
  sweep->points = g_array_new (FALSE, TRUE, sizeof (KsGaussPoint));
  sweep->wg_sweep = run->desc == &ks_exp_gauss_wg;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];
      KsGaussPoint p;

      if (q->device != device)
        continue;
      first = first ? first : q;
      read_point (x, q, &p);
      g_array_append_val (sweep->points, p);
    }
  sweep->local = sweep->points->len ? g_array_index (sweep->points, KsGaussPoint, 0).local : KS_LOCAL_DRIVER;
  sweep->launch = first && param_true (run, first, "graph") ? KS_LAUNCH_GRAPH
                : first && param_true (run, first, "blocked") ? KS_LAUNCH_BLOCKED : KS_LAUNCH_STREAM;
  sweep->pwgsm = as_uint (ks_run_device_get_info (d, "pwgsm"));
  sweep->cores_per_cu = as_uint (ks_run_device_get_info (d, "cores_per_cu"));
  sweep->compute_units = as_uint (ks_run_device_get_info (d, "compute_units"));
  sweep->ogs_predicted = as_uint (ks_run_device_get_info (d, "ogs_predicted"));
  sweep->ogs_usable = as_uint (ks_run_device_get_info (d, "ogs_usable"));
  return TRUE;
}

void
ks_exp_gauss_sweep_clear (KsGaussSweep *sweep)
{
  g_clear_pointer (&sweep->points, g_array_unref);
}

GArray *
ks_exp_gauss_sweep_sizes (const KsGaussSweep *sweep)
{
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < sweep->points->len; i++)
    {
      guint n = g_array_index (sweep->points, KsGaussPoint, i).n;

      if (g_hash_table_add (seen, GUINT_TO_POINTER (n + 1)))
        g_array_append_val (sizes, n);
    }
  return sizes;
}

const KsGaussPoint *
ks_exp_gauss_sweep_best (const KsGaussSweep *sweep,
                         guint               n)
{
  const KsGaussPoint *best = NULL;

  for (guint i = 0; i < sweep->points->len; i++)
    {
      const KsGaussPoint *p = &g_array_index (sweep->points, KsGaussPoint, i);

      if (p->n == n && !p->error && (best == NULL || p->time_ms < best->time_ms))
        best = p;
    }
  return best;
}

gboolean
ks_exp_gauss_neighbour_ratio (const KsGaussSweep *sweep,
                              guint               i,
                              double             *ratio)
{
  const GArray *a = sweep->points;
  const KsGaussPoint *p = &g_array_index (a, KsGaussPoint, i);
  double sum = 0.0;
  guint cnt = 0;

  for (gint j = (gint) i - 1; j >= 0 && cnt < 1; j--)
    {
      const KsGaussPoint *q = &g_array_index (a, KsGaussPoint, j);
      if (!q->n1_prime && !q->error) { sum += q->time_ms; cnt++; }
    }
  for (guint j = i + 1; j < a->len && cnt < 2; j++)
    {
      const KsGaussPoint *q = &g_array_index (a, KsGaussPoint, j);
      if (!q->n1_prime && !q->error) { sum += q->time_ms; cnt++; }
    }
  if (cnt == 0 || !(sum > 0.0))
    return FALSE;
  *ratio = p->time_ms / (sum / cnt);
  return TRUE;
}
