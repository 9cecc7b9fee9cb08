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

GPtrArray *
ks_recorded_list (const KsExperimentDesc *desc)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_recorded_free);
  g_autoptr(GPtrArray) paths = ks_reference_run_files ();

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      g_autofree char *run_name = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(KsRun) run = NULL;
      KsRecorded *recorded;

      if (!(run = ks_run_load_json (path, &error)))
        {
          g_warning ("Recorded run %s left out: %s", path, error->message);
          continue;
        }
      if (desc != NULL && run->desc != desc)
        continue;
      run_name = ks_run_get_name (run);
      recorded = g_new0 (KsRecorded, 1);
      recorded->path = g_strdup (path);
      /* TRANSLATORS: a curve measured elsewhere, e.g. "recorded: NVIDIA H200 (CUDA)" */
      recorded->label = g_strdup_printf (_("recorded: %s"), run_name);
      recorded->run = g_steal_pointer (&run);
      g_ptr_array_add (list, recorded);
    }
  return list;
}
