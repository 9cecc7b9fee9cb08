/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli: the headless twin of the desktop app.  It links the core
 * and the plot renderer, never GTK, so it runs on a GPU server. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-kernel-source.h"
#include "ks-reference.h"
#include "ks-reference-plot.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
  "Usage: kernelscope-cli COMMAND [OPTIONS]\n"
  "\n"
  "Experiments from Baranov & Vlatskaya (2013), \"work-group size and the Gauss method in OpenCL\".\n"
  "\n"
  "Commands:\n"
  "  devices                 List every device (OpenCL, CUDA, host) with its properties\n"
  "  solve gauss             Solve one linear system, generated or from Matrix Market files\n"
  "  run gauss-size          Time vs matrix size (the paper's Fig. 2): outliers where N+1 is prime\n"
  "  run gauss-wg            Time vs work-group size, one curve per size (Figs. 3-6)\n"
  "  plot                    Draw saved results (run --json) again, several overlaid\n"
  "  bench gauss             The paper's kernels (OpenCL, CUDA, PoCL) against cuSOLVER and LAPACK\n"
  "  bench bandwidth         Memory bandwidth of each device (copy and triad kernels)\n"
  "  bench launch            What one kernel launch costs, and the gain of CUDA Graphs\n"
  "  help                    This text\n"
  "\n"
  "Run \"kernelscope-cli COMMAND --help\" for the options of each command.\n"
  "Environment: KERNELSCOPE_KERNEL_DIR=DIR loads kernels/*.cl from DIR instead of the built-in copies.\n";

KsDevice *
ks_cli_pick_device (KsDeviceList *list,
                    const char   *query,
                    guint         cores_per_cu,
                    gboolean      quiet,
                    GError      **error)
{
  const char *reason = "named on the command line";
  KsDevice *device;
  g_autofree char *description = NULL;

  if (query != NULL)
    device = ks_device_list_lookup (list, query, error);
  else
    device = ks_device_list_get_default (list, &reason);
  if (device == NULL)
    return NULL;

  if (cores_per_cu > 0)
    ks_device_set_cores_per_cu (device, cores_per_cu);

  description = ks_device_describe (device);
  if (!quiet)
    g_printerr ("Device: %s\n        chosen because: %s\n", description, reason);
  return device;
}

char *
ks_cli_join_argv (const char  *prefix,
                  int          argc,
                  char       **argv)
{
  g_autoptr(GString) s = g_string_new (prefix);

  for (int i = 1; i < argc; i++)
    {
      g_autofree char *q = g_shell_quote (argv[i]);
      g_string_append_c (s, ' ');
      g_string_append (s, strpbrk (argv[i], " '\"$") ? q : argv[i]);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

gboolean
ks_cli_add_overlays (KsPlot  *plot,
                     int      kind,
                     char   **files,
                     guint    min_wg,
                     GError **error)
{
  for (guint i = 0; files && files[i]; i++)
    {
      g_autofree char *path = g_strdup (files[i]);
      g_autoptr(KsResults) r = NULL;
      g_autofree char *label = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS) && ks_reference_dir ())
        {
          g_autofree char *shipped = g_build_filename (ks_reference_dir (), files[i], NULL);
          if (g_file_test (shipped, G_FILE_TEST_EXISTS))
            {
              g_free (path);
              path = g_steal_pointer (&shipped);
            }
        }
      if (!(r = ks_results_load_json (path, error)))
        return FALSE;
      if ((int) r->kind != kind)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--overlay %s is a %s run; this plot is %s", files[i],
                       ks_experiment_kind_to_string (r->kind), ks_experiment_kind_to_string (kind));
          return FALSE;
        }
      ks_reference_plot_add (plot, r, min_wg);
      label = ks_reference_label (r);
      g_printerr ("Overlay: %s (%s, %s)\n", label, path, r->date ? r->date : "no date");
    }
  return TRUE;
}

int
ks_cli_fail (int           status,
             const GError *error)
{
  g_printerr ("kernelscope-cli: %s\n", error ? error->message : "failed");
  return status;
}

int
main (int    argc,
      char **argv)
{
  const char *command;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, KS_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("kernelscope-cli");

  if (argc < 2)
    {
      fputs (usage, stderr);
      return KS_CLI_USAGE;
    }

  command = argv[1];
  if (strcmp (command, "help") == 0 || strcmp (command, "--help") == 0 || strcmp (command, "-h") == 0)
    {
      fputs (usage, stdout);
      return KS_CLI_OK;
    }
  if (strcmp (command, "devices") == 0)
    return ks_cli_devices (argc - 1, argv + 1);
  if (strcmp (command, "solve") == 0)
    return ks_cli_solve (argc - 1, argv + 1);
  if (strcmp (command, "run") == 0)
    return ks_cli_run (argc - 1, argv + 1);
  if (strcmp (command, "plot") == 0)
    return ks_cli_plot (argc - 1, argv + 1);
  if (strcmp (command, "bench") == 0)
    return ks_cli_bench (argc - 1, argv + 1);

  g_printerr ("kernelscope-cli: unknown command \"%s\"\n\n%s", command, usage);
  return KS_CLI_USAGE;
}
