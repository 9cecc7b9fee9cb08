/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-registry.c: the list of experiments.  A new experiment is one line in
 * builtin[] (and its family's header in the includes). */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-registry.h"
#include "ks-exp-gauss.h"
#include "ks-exp-index.h"
#include "ks-exp-heat.h"
#include "ks-exp-tridiag.h"
#include "ks-exp-micro.h"
#include "ks-exp-bench.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* The five papers the program is about, listed (the sidebar's groups,
 * "kernelscope-cli list") before each has an experiment, saying what is
 * coming, so that the whole course is there from the start. */
static const struct {
  const char *id;
  const char *title;
  const char *coming;
} known_papers[] = {
  { "000", N_("Baranov & Vlatskaya (2013): work-group size and the Gauss method in OpenCL"), NULL },
  { "001", N_("Manushin (2012): OpenCL for high-load applications"),
    N_("Coming: vector addition, SIMD widths and transfers, CPU against GPU") },
  { "002", N_("Pogorelskikh & Loganova: Thomas algorithm and cyclic reduction on a GPU"),
    N_("Coming: batched tridiagonal solvers against the CPU") },
  { "003", N_("Andrianov et al.: GPU programs from Norma specifications"),
    N_("Coming: mapping index domains onto blocks and threads") },
  { "004", N_("Anisov, Vaziev, Ushakov (2020): 2D heat equation on a hybrid CPU+GPU"),
    N_("Coming: conjugate gradients and the heat animation") },
  /* After the papers ("bench" sorts after the digits): the methods of the
   * papers against the libraries and the memory's limit. */
  { "bench", N_("Benchmarks"), NULL },
};

static const KsExperimentDesc *const builtin[] = {
  &ks_exp_gauss_size,
  &ks_exp_gauss_wg,
  &ks_exp_index_fill,
  &ks_exp_index_reduce,
  &ks_exp_heat,
  &ks_exp_heat_hybrid,
  &ks_exp_tridiag_batch,
  &ks_exp_tridiag_large,
  &ks_exp_micro_hello,
  &ks_exp_micro_simd,
  &ks_exp_micro_builtins,
  &ks_exp_micro_native,
  &ks_exp_micro_buffers,
  &ks_exp_micro_access,
  &ks_exp_bench_gauss,
  &ks_exp_bench_bandwidth,
  &ks_exp_bench_launch,
  &ks_exp_bench_tridiag,
  &ks_exp_bench_cg,
};

static GPtrArray *registry;   /* of const KsExperimentDesc *; guarded by lock */
G_LOCK_DEFINE_STATIC (registry);

static GPtrArray *
get_registry (void)
{
  G_LOCK (registry);
  if (registry == NULL)
    {
      registry = g_ptr_array_new ();
      for (guint i = 0; i < G_N_ELEMENTS (builtin); i++)
        {
          g_autoptr(GError) error = NULL;

          /* A broken built-in description is a programming error: say so
           * loudly, and leave it out rather than crash the program. */
          if (!ks_experiment_desc_validate (builtin[i], &error))
            g_critical ("%s", error->message);
          else
            g_ptr_array_add (registry, (gpointer) builtin[i]);
        }
    }
  G_UNLOCK (registry);
  return registry;
}

GPtrArray *
ks_registry_list (void)
{
  GPtrArray *all = get_registry ();
  GPtrArray *copy;

  G_LOCK (registry);
  copy = g_ptr_array_copy (all, NULL, NULL);
  G_UNLOCK (registry);
  return copy;
}

static void
paper_group_free (KsPaperGroup *group)
{
  g_ptr_array_unref (group->experiments);
  g_free (group);
}

static int
compare_group (gconstpointer a,
               gconstpointer b)
{
  const KsPaperGroup *x = *(KsPaperGroup * const *) a, *y = *(KsPaperGroup * const *) b;
  return strcmp (x->id, y->id);
}

GPtrArray *
ks_registry_list_papers (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) paper_group_free);

  for (guint p = 0; p < G_N_ELEMENTS (known_papers); p++)
    {
      KsPaperGroup *group = g_new0 (KsPaperGroup, 1);

      group->id = known_papers[p].id;
      group->title = known_papers[p].title;
      group->coming = known_papers[p].coming;
      group->experiments = g_ptr_array_new ();
      g_ptr_array_add (groups, group);
    }
  for (guint i = 0; i < all->len; i++)
    {
      const KsExperimentDesc *desc = all->pdata[i];
      KsPaperGroup *group = NULL;

      for (guint g = 0; g < groups->len && group == NULL; g++)
        if (strcmp (((KsPaperGroup *) groups->pdata[g])->id, desc->paper) == 0)
          group = groups->pdata[g];
      if (group == NULL)
        {
          group = g_new0 (KsPaperGroup, 1);
          group->id = desc->paper;
          group->title = desc->paper_title;
          group->experiments = g_ptr_array_new ();
          g_ptr_array_add (groups, group);
        }
      g_ptr_array_add (group->experiments, (gpointer) desc);
      group->coming = NULL;   /* it has come */
    }
  g_ptr_array_sort (groups, compare_group);
  return groups;
}

const KsExperimentDesc *
ks_registry_lookup (const char *id)
{
  GPtrArray *all = get_registry ();
  const KsExperimentDesc *found = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  G_LOCK (registry);
  for (guint i = 0; i < all->len && found == NULL; i++)
    if (strcmp (((const KsExperimentDesc *) all->pdata[i])->id, id) == 0)
      found = all->pdata[i];
  G_UNLOCK (registry);
  return found;
}

gboolean
ks_registry_add (const KsExperimentDesc *desc,
                 GError                **error)
{
  g_return_val_if_fail (desc != NULL, FALSE);

  if (!ks_experiment_desc_validate (desc, error))
    return FALSE;
  if (ks_registry_lookup (desc->id) != NULL)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   "experiment %s: the id is taken", desc->id);
      return FALSE;
    }
  G_LOCK (registry);
  g_ptr_array_add (registry, (gpointer) desc);
  G_UNLOCK (registry);
  return TRUE;
}
