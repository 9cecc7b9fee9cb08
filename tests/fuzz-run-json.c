/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-run-json: the results reader (format 2, and format 1 through the
 * Gauss descriptions) fed anything.  Whatever it accepts must write and
 * read back to the very same text: the reader and the writer agree.
 *
 * Built two ways: with clang, a libFuzzer target (fuzz-run-json-libfuzzer,
 * run it as "fuzz-run-json-libfuzzer -max_total_time=600 CORPUS_DIR
 * data/reference" to fuzz longer); always, a replay program that feeds it
 * every file (or folder of *.json) named on its command line, which the test
 * suite runs over the seed corpus (data/reference/ and
 * tests/fuzz-corpus/run-json/). */
#include "ks-exp-test.h"
#include "ks-run.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  g_autoptr(KsRun) run = NULL;
  g_autoptr(KsRun) again = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json2 = NULL;

  if (!registered)
    {
      /* The test experiment has every parameter type. */
      ks_exp_test_register ();
      registered = TRUE;
    }
  if (!(run = ks_run_from_json ((const char *) data, (gssize) size, NULL)))
    return 0;
  json = ks_run_to_json (run);
  if (!(again = ks_run_from_json (json, -1, NULL)))
    {
      fprintf (stderr, "fuzz-run-json: what it wrote it cannot read:\n%s\n", json);
      abort ();
    }
  json2 = ks_run_to_json (again);
  if (strcmp (json, json2) != 0)
    {
      fprintf (stderr, "fuzz-run-json: written twice, the texts differ\n");
      abort ();
    }
  g_free (ks_run_to_csv (run));
  return 0;
}

#ifndef KS_FUZZ_LIBFUZZER
static gboolean
replay_file (const char *path,
             guint      *n)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, NULL))
    {
      fprintf (stderr, "fuzz-run-json: cannot read %s\n", path);
      return FALSE;
    }
  LLVMFuzzerTestOneInput ((const uint8_t *) data, length);
  (*n)++;
  return TRUE;
}

/* Files, or folders of them (their *.json). */
int
main (int    argc,
      char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GDir) dir = g_dir_open (argv[i], 0, NULL);
      const char *name;

      if (dir == NULL && !replay_file (argv[i], &n))
        return 1;
      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);
          if (g_str_has_suffix (name, ".json") && !replay_file (path, &n))
            return 1;
        }
    }
  printf ("fuzz-run-json: %u inputs, each read, written and read back alike\n", n);
  return n > 0 ? 0 : 1;
}
#endif
