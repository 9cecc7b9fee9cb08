/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-reference.h"

#include <glib/gi18n-lib.h>
#include <string.h>

const char *
ks_reference_dir (void)
{
  const char *env = g_getenv ("KERNELSCOPE_REFERENCE_DIR");

  if (env && *env)
    return env;
  if (g_file_test (KS_REFERENCE_DIR, G_FILE_TEST_IS_DIR))
    return KS_REFERENCE_DIR;
  if (g_file_test (KS_SOURCE_REFERENCE_DIR, G_FILE_TEST_IS_DIR))
    return KS_SOURCE_REFERENCE_DIR;
  return NULL;
}

static int
compare_string (gconstpointer a,
                gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

GPtrArray *
ks_reference_run_files (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *dir_path = ks_reference_dir ();
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (dir_path == NULL || !(dir = g_dir_open (dir_path, 0, NULL)))
    return paths;
  while ((name = g_dir_read_name (dir)))
    /* Only runs can be overlaid; the benchmark tables and device lists
     * recorded beside them are not runs. */
    if (g_str_has_suffix (name, ".json") && !strstr (name, "-bench-") && !g_str_has_suffix (name, "-devices.json"))
      g_ptr_array_add (paths, g_build_filename (dir_path, name, NULL));
  g_ptr_array_sort (paths, compare_string);
  return paths;
}
