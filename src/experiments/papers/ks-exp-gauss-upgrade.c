/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss-upgrade.c: the forms the Gauss pages saved before they had
 * descriptions (GSettings keys, sessions' "params"), as parameters, so
 * what a user set there is not lost. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-gauss.h"

/* The old Gauss pages' fields (their GSettings keys without the "size-" or
 * "wg-" prefix, and their sessions' "params") as the descriptions'
 * parameters: from, to and step become the axis of n; the work-group
 * preset becomes the axis of wg (multiples: the device's default); the
 * launch mode the graph switch; "hide wg = 1" the plot's lower limit. */
void
ks_exp_gauss_upgrade_values (const KsExperimentDesc *desc,
                             GHashTable             *values)
{
  g_autoptr(GHashTable) out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *same[] = { "precision", "range", "local" };
  const char *launch = g_hash_table_lookup (values, "launch");
  const char *reps = g_hash_table_lookup (values, "reps");
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (desc != NULL && values != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    if (g_hash_table_contains (values, same[i]))
      g_hash_table_insert (out, g_strdup (same[i]), g_strdup (g_hash_table_lookup (values, same[i])));
  if (reps != NULL)
    g_hash_table_insert (out, g_strdup ("@reps"), g_strdup (reps));
  if (launch != NULL)
    g_hash_table_insert (out, g_strdup ("graph"), g_strdup (g_strcmp0 (launch, "graph") == 0 ? "true" : "false"));
  if (launch != NULL && ks_experiment_desc_find_param (desc, "blocked") >= 0)
    g_hash_table_insert (out, g_strdup ("blocked"), g_strdup (g_strcmp0 (launch, "blocked") == 0 ? "true" : "false"));
  if (desc == &ks_exp_gauss_wg)
    {
      const char *preset = g_hash_table_lookup (values, "preset");
      const char *hide_one = g_hash_table_lookup (values, "hide-one");

      if (g_hash_table_contains (values, "sizes"))
        g_hash_table_insert (out, g_strdup ("n"), g_strdup (g_hash_table_lookup (values, "sizes")));
      if (g_strcmp0 (preset, "multiples") == 0)
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup (""));
      else if (g_strcmp0 (preset, "powers") == 0)
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup ("2^0:2^8"));
      else if (g_strcmp0 (preset, "custom") == 0 && g_hash_table_contains (values, "custom"))
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup (g_hash_table_lookup (values, "custom")));
      if (hide_one != NULL)
        g_hash_table_insert (out, g_strdup ("@min_x"), g_strdup (g_strcmp0 (hide_one, "true") == 0 ? "2" : "0"));
    }
  else
    {
      const char *from = g_hash_table_lookup (values, "from");
      const char *to = g_hash_table_lookup (values, "to");
      const char *step = g_hash_table_lookup (values, "step");

      if (from != NULL && to != NULL)
        g_hash_table_insert (out, g_strdup ("n"),
                             step == NULL || g_strcmp0 (step, "1") == 0 ? g_strdup_printf ("%s:%s", from, to)
                                                                        : g_strdup_printf ("%s:%s:%s", from, to, step));
      if (g_hash_table_contains (values, "wg"))
        g_hash_table_insert (out, g_strdup ("wg"), g_strdup (g_hash_table_lookup (values, "wg")));
    }
  g_hash_table_remove_all (values);
  g_hash_table_iter_init (&iter, out);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (values, g_strdup (key), g_strdup (value));
}
