/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-recorded.h"
#include "ks-reference.h"

#include <glib/gi18n-lib.h>
#include <string.h>

void
ks_recorded_free (KsRecorded *recorded)
{
  if (recorded == NULL)
    return;
  g_free (recorded->path);
  g_free (recorded->label);
  g_clear_pointer (&recorded->run, ks_run_unref);
  g_free (recorded);
}

static int
compare_path (gconstpointer a,
              gconstpointer b)
{
  const KsRecorded *x = *(KsRecorded * const *) a, *y = *(KsRecorded * const *) b;
  return strcmp (x->path, y->path);
}

GPtrArray *
ks_recorded_list (const KsExperimentDesc *desc)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_recorded_free);
  const char *dir_path = ks_reference_dir ();
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (dir_path == NULL || !(dir = g_dir_open (dir_path, 0, NULL)))
    return list;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path = NULL;
      g_autofree char *run_name = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(KsRun) run = NULL;
      KsRecorded *recorded;

      if (!g_str_has_suffix (name, ".json") || strstr (name, "-bench-") || g_str_has_suffix (name, "-devices.json"))
        continue;
      path = g_build_filename (dir_path, name, NULL);
      if (!(run = ks_run_load_json (path, &error)))
        {
          g_warning ("Recorded run %s left out: %s", path, error->message);
          continue;
        }
      if (desc != NULL && run->desc != desc)
        continue;
      run_name = ks_run_get_name (run);
      recorded = g_new0 (KsRecorded, 1);
      recorded->path = g_steal_pointer (&path);
      /* TRANSLATORS: a curve measured elsewhere, e.g. "recorded: NVIDIA H200 (CUDA)" */
      recorded->label = g_strdup_printf (_("recorded: %s"), run_name);
      recorded->run = g_steal_pointer (&run);
      g_ptr_array_add (list, recorded);
    }
  g_ptr_array_sort (list, compare_path);
  return list;
}
