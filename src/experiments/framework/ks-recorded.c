/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-recorded.h"
#include "ks-reference.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
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

/* The runs read so far, by path, with the file's time and size when read:
 * each page looks for its recorded runs when first shown, and reading the
 * whole folder (megabytes of JSON) each time cost a second or two a page.
 * A file that changed is read again; runs are not changed once read. */
typedef struct {
  gint64  mtime;
  goffset size;
  KsRun  *run;
} Loaded;

G_LOCK_DEFINE_STATIC (loaded);
static GHashTable *loaded;   /* path -> Loaded */

static void
loaded_free (gpointer data)
{
  Loaded *l = data;

  ks_run_unref (l->run);
  g_free (l);
}

static KsRun *
load_run (const char  *path,
          GError     **error)
{
  GStatBuf st;
  Loaded *l;
  KsRun *run = NULL;

  if (g_stat (path, &st) != 0)
    return ks_run_load_json (path, error);
  G_LOCK (loaded);
  if (loaded == NULL)
    loaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, loaded_free);
  l = g_hash_table_lookup (loaded, path);
  if (l != NULL && l->mtime == (gint64) st.st_mtime && l->size == (goffset) st.st_size)
    run = ks_run_ref (l->run);
  G_UNLOCK (loaded);
  if (run != NULL || !(run = ks_run_load_json (path, error)))
    return run;
  l = g_new0 (Loaded, 1);
  l->mtime = st.st_mtime;
  l->size = st.st_size;
  l->run = ks_run_ref (run);
  G_LOCK (loaded);
  g_hash_table_replace (loaded, g_strdup (path), l);
  G_UNLOCK (loaded);
  return run;
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

      if (!(run = load_run (path, &error)))
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
