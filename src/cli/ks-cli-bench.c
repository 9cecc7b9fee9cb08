/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli bench NAME: an alias of "run bench-NAME" for every bench,
 * each an experiment description (ks-exp-bench.h). */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-registry.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

/* The descriptions whose id is "bench-NAME": "bench NAME" runs them. */
#define BENCH_PREFIX "bench-"

/* "Usage: kernelscope-cli bench a|b|c [OPTIONS]" and a line for each. */
static char *
bench_usage (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autofree char *joined = NULL;

  for (guint i = 0; i < all->len; i++)
    {
      const KsExperimentDesc *desc = all->pdata[i];

      if (!g_str_has_prefix (desc->id, BENCH_PREFIX))
        continue;
      g_ptr_array_add (names, (gpointer) (desc->id + strlen (BENCH_PREFIX)));
      g_string_append_printf (lines, "  %-10s %s (run %s)\n", desc->id + strlen (BENCH_PREFIX),
                              _(desc->summary), desc->id);
    }
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv ("|", (char **) names->pdata);
  return g_strdup_printf ("Usage: kernelscope-cli bench %s [OPTIONS]\n%s", joined, lines->str);
}

/* "bench NAME ARGS": "run bench-NAME ARGS", the same table and files. */
static int
run_alias (const char *id,
           int         argc,
           char      **argv)
{
  g_autofree char **args = g_new0 (char *, argc + 1);
  g_autofree char *run_id = g_strdup (id);

  args[0] = (char *) "run";
  args[1] = run_id;
  for (int i = 2; i < argc; i++)
    args[i] = argv[i];
  return ks_cli_run (argc, args);
}

int
ks_cli_bench (int    argc,
              char **argv)
{
  g_autofree char *usage = bench_usage ();
  g_autofree char *id = NULL;

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      fputs (usage, argc < 2 ? stderr : stdout);
      return argc < 2 ? KS_CLI_USAGE : KS_CLI_OK;
    }
  id = g_strconcat (BENCH_PREFIX, argv[1], NULL);
  if (ks_registry_lookup (id) != NULL)
    return run_alias (id, argc, argv);
  g_printerr ("kernelscope-cli: unknown bench \"%s\"\n%s", argv[1], usage);
  return KS_CLI_USAGE;
}
