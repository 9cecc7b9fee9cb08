/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-convert-format1.c: rewrites format-1 results files (what the Gauss
 * pages wrote before experiments had descriptions) as format 2, in place,
 * with the CSV beside each (where there is one) regenerated from the same
 * run: tools/ks-convert-format1 FILE.json...  Not installed.
 *
 * Kernelscope still reads format 1 (ks-run-json-format1.c): this is for
 * files kept in a repository, as data/reference/ was converted by it
 * (issue 29).  The file is read and written by the framework's own
 * reader and writer, so it holds exactly what Kernelscope reads from it
 * (device, command, date, every point). */
#include "ks-run.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

static gboolean
convert (const char *path,
         GError    **error)
{
  g_autoptr(KsRun) run = NULL;
  g_autofree char *data = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *csv = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, error))
    return FALSE;
  if (strstr (data, "\"format\" : 1") == NULL && strstr (data, "\"format\": 1") == NULL)
    {
      g_printerr ("%s: not format 1, left as it is\n", path);
      return TRUE;
    }
  if (!(run = ks_run_from_json (data, (gssize) length, error)))
    return FALSE;
  if (!ks_run_write_json (run, path, error))
    return FALSE;
  stem = g_str_has_suffix (path, ".json") ? g_strndup (path, strlen (path) - 5) : g_strdup (path);
  csv = g_strconcat (stem, ".csv", NULL);
  if (g_file_test (csv, G_FILE_TEST_EXISTS) && !ks_run_write_csv (run, csv, error))
    return FALSE;
  g_print ("%s: %u points, format 2\n", path, run->points->len);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  int status = EXIT_SUCCESS;

  if (argc < 2)
    {
      g_printerr ("usage: %s FILE.json...\n", argv[0]);
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!convert (argv[i], &error))
        {
          g_printerr ("%s: %s\n", argv[i], error->message);
          status = EXIT_FAILURE;
        }
    }
  return status;
}
