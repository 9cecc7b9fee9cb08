/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli: the headless twin of the desktop app.  It links the core
 * and the plot renderer, never GTK, so it runs on a GPU server. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-kernel-source.h"
#include "ks-reference.h"
#include "ks-run.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

/* The experiments themselves are listed by "list", from the registry; this
 * names one per paper so that a first look shows what the five papers are. */
static const char usage[] =
  "Usage: kernelscope-cli COMMAND [OPTIONS]\n"
  "\n"
  "Live experiments from five papers on GPU computing (\"kernelscope-cli list\" names them all).\n"
  "\n"
  "Commands:\n"
  "  devices                 List every device (OpenCL, CUDA, host) with its properties\n"
  "  list                    List the experiments, grouped by paper\n"
  "  run ID                  Run an experiment (\"run ID --help\": its options), e.g.:\n"
  "    run gauss-size        000: Gauss elimination, time vs matrix size: outliers where N+1 is prime\n"
  "    run micro-simd        001: OpenCL micro-benchmarks, the compute loop on short .. short16\n"
  "    run tridiag-batch     002: batched Thomas, SERICR and PARACR vs the number of systems\n"
  "    run index-reduce      003: an index domain mapped onto blocks and threads, a two-kernel reduction\n"
  "    run heat              004: implicit heat diffusion on a mesh of triangles or quadrilaterals\n"
  "    run heat-hybrid       004: the CG split between the GPU and the CPU by lambda (also under mpirun)\n"
  "  solve gauss             Solve one linear system, generated or from Matrix Market files\n"
  "  solve tridiag           Solve a batch of tridiagonal systems from Matrix Market files\n"
  "  plot                    Draw saved results (run --json) again, several overlaid\n"
  "  roofline                Saved runs of any experiments and devices against each device's triad\n"
  "  bench gauss             The Gauss kernels (OpenCL, CUDA, PoCL) against cuSOLVER and LAPACK\n"
  "  bench tridiag           The tridiagonal solvers against cuSPARSE (gtsv2) and the triad (= run bench-tridiag)\n"
  "  bench cg                The heat problem's CG, base and fused, against the library CG (= run bench-cg)\n"
  "  bench bandwidth         Memory bandwidth of a device, copy and triad (= run bench-bandwidth)\n"
  "  bench launch            What one kernel launch costs, and the gain of CUDA Graphs (= run bench-launch)\n"
  "  map DOMAIN              Lay an index domain (e.g. 2000x3000) onto blocks and threads (paper 003)\n"
  "  access EXPERIMENT       The addresses one warp touches per step, the cache lines against the ideal (001-003)\n"
  "  help                    This text\n"
  "\n"
  "Run \"kernelscope-cli COMMAND --help\" for the options of each command.\n"
  "Environment: KERNELSCOPE_KERNEL_DIR=DIR loads kernels/*.cl from DIR instead of the built-in copies.\n";

gboolean
ks_cli_parse_cores_per_cu (const char *text,
                           guint      *out,
                           GError    **error)
{
  guint64 v;

  *out = 0;
  if (text == NULL)
    return TRUE;
  if (!g_ascii_string_to_unsigned (text, 10, 1, KS_CLI_MAX_CORES_PER_CU, &v, NULL))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--cores-per-cu is the cores of one compute unit, a whole number from 1 to %d, not \"%s\"",
                   KS_CLI_MAX_CORES_PER_CU, text);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

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

  /* An empty name is refused by the lookup itself, which says so and lists
   * the devices. */
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

static char *launcher;

void
ks_cli_set_launcher (const char *value)
{
  g_free (launcher);
  launcher = g_strdup (value);
}

char *
ks_cli_join_argv (const char  *prefix,
                  int          argc,
                  char       **argv)
{
  g_autoptr(GString) s = g_string_new (launcher);

  if (launcher != NULL)
    g_string_append_c (s, ' ');
  g_string_append (s, prefix);
  for (int i = 1; i < argc; i++)
    {
      g_autofree char *q = g_shell_quote (argv[i]);
      g_string_append_c (s, ' ');
      g_string_append (s, strpbrk (argv[i], " '\"$") ? q : argv[i]);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* A file not found as given may be a shipped recorded run named without
 * its folder. */
char *
ks_cli_resolve_run_path (const char *file)
{
  if (!g_file_test (file, G_FILE_TEST_EXISTS) && ks_reference_dir ())
    {
      g_autofree char *shipped = g_build_filename (ks_reference_dir (), file, NULL);
      if (g_file_test (shipped, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&shipped);
    }
  return g_strdup (file);
}

GPtrArray *
ks_cli_load_runs (const KsExperimentDesc *desc,
                  char                  **files,
                  gboolean                overlay,
                  GError                **error)
{
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_run_unref);

  for (guint i = 0; files && files[i]; i++)
    {
      g_autofree char *path = ks_cli_resolve_run_path (files[i]);
      g_autoptr(KsRun) run = NULL;
      g_autofree char *name = NULL;

      if (!(run = ks_run_load_json (path, error)))
        return NULL;
      if (desc == NULL && runs->len > 0)
        desc = ((KsRun *) runs->pdata[0])->desc;
      if (desc != NULL && run->desc != desc)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "%s is a %s run, this is %s: they do not share axes", files[i], run->desc->id, desc->id);
          return NULL;
        }
      name = ks_run_get_name (run);
      if (overlay)
        g_printerr ("Overlay: recorded: %s (%s, %s)\n", name, path, run->date ? run->date : "no date");
      g_ptr_array_add (runs, g_steal_pointer (&run));
    }
  return g_steal_pointer (&runs);
}

gboolean
ks_cli_check_outputs (const KsIoOutput  *outputs,
                      guint              n_outputs,
                      char             **inputs,
                      GError           **error)
{
  g_autoptr(GPtrArray) resolved = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; inputs && inputs[i]; i++)
    g_ptr_array_add (resolved, ks_cli_resolve_run_path (inputs[i]));
  g_ptr_array_add (resolved, NULL);
  return ks_io_check_outputs (outputs, n_outputs, (const char * const *) resolved->pdata, error);
}

gboolean
ks_cli_check_output (const char  *path,
                     char       **inputs,
                     GError     **error)
{
  KsIoOutput output = { path, NULL, NULL };

  return ks_cli_check_outputs (&output, 1, inputs, error);
}

int
ks_cli_fail (int           status,
             const GError *error)
{
  g_printerr ("kernelscope-cli: %s\n", error ? error->message : "failed");
  return status;
}

static gboolean follower;

void
ks_cli_set_follower (gboolean value)
{
  follower = value;
}

gboolean
ks_cli_is_follower (void)
{
  return follower;
}

int
ks_cli_main (int    argc,
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
  if (strcmp (command, "list") == 0)
    return ks_cli_list (argc - 1, argv + 1);
  if (strcmp (command, "plot") == 0)
    return ks_cli_plot (argc - 1, argv + 1);
  if (strcmp (command, "bench") == 0)
    return ks_cli_bench (argc - 1, argv + 1);
  if (strcmp (command, "map") == 0)
    return ks_cli_map (argc - 1, argv + 1);
  if (strcmp (command, "access") == 0)
    return ks_cli_access (argc - 1, argv + 1);
  if (strcmp (command, "roofline") == 0)
    return ks_cli_roofline (argc - 1, argv + 1);

  g_printerr ("kernelscope-cli: unknown command \"%s\"\n\n%s", command, usage);
  return KS_CLI_USAGE;
}
