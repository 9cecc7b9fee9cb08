/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-replay.c: the main () of a fuzz target built without libFuzzer: it
 * feeds LLVMFuzzerTestOneInput every file (or folder of *.json) named on
 * its command line, which the test suite runs over the seed corpus.  Linked
 * beside the target (fuzz-run-json.c, fuzz-session.c), which names itself in
 * ks_fuzz_name. */
#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
extern const char *const ks_fuzz_name;

static gboolean
replay_file (const char *path,
             guint      *n)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, NULL))
    {
      fprintf (stderr, "%s: cannot read %s\n", ks_fuzz_name, path);
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
  printf ("%s: %u inputs, each read, written and read back alike\n", ks_fuzz_name, n);
  return n > 0 ? 0 : 1;
}
