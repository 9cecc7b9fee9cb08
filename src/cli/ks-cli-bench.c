/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli bench NAME: an alias of "run bench-NAME" for every bench
 * that is an experiment description (ks-exp-bench.h), and bench gauss with
 * its rows of its own until it becomes one. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-bench.h"
#include "ks-gauss.h"
#include "ks-uint-list.h"
#include "ks-registry.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

/* The benches not yet described as experiments: their own commands. */
static const struct {
  const char *name;
  const char *summary;
  int       (*run) (int argc, char **argv);
} own[] = {
  { "gauss", "the same systems by the paper's kernels (NVIDIA OpenCL, CUDA, PoCL),\n"
             "             cuSOLVER and LAPACK: times, ratios, residuals, bandwidth reached", NULL },
};

/* The descriptions whose id is "bench-NAME": "bench NAME" runs them. */
#define BENCH_PREFIX "bench-"

/* Prints the table; returns how many rows failed (not: were skipped as
 * unavailable here). */
static guint
print_gauss_table (GPtrArray *rows)
{
  guint failed = 0;
  int reference = rows->len > 0 ? ((const KsBenchRow *) g_ptr_array_index (rows, 0))->reference : -1;

  g_print ("%6s  %-25s %8s %11s %8s %10s %9s %8s  %s\n", "n", "method", "wall ms", "device ms",
           "ratio", "residual", "fwd GB/s", "of BW", "device");
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchRow *r = g_ptr_array_index (rows, i);
      g_autofree char *fraction = NULL;
      g_autofree char *device_ms = NULL;
      g_autofree char *fwd_gbs = NULL;
      g_autofree char *ratio = NULL;

      if (r->skipped)
        {
          g_print ("%6u  %-25s %s%s\n", r->n, ks_bench_method_to_string (r->method),
                   r->failed ? "" : "skipped: ", r->skipped);
          failed += r->failed ? 1 : 0;
          continue;
        }
      fraction = r->fraction > 0 ? g_strdup_printf ("%7.1f%%", 100.0 * r->fraction) : g_strdup ("-");
      /* The host has no device time. */
      device_ms = r->method == KS_BENCH_LAPACK ? g_strdup ("-") : g_strdup_printf ("%.3f", r->device_ms);
      fwd_gbs = r->fwd_gbs > 0 ? g_strdup_printf ("%.1f", r->fwd_gbs) : g_strdup ("-");
      /* No ratio where the reference could not run this size. */
      ratio = r->ratio > 0 ? g_strdup_printf ("%.2f", r->ratio) : g_strdup ("-");
      g_print ("%6u  %-25s %8.3f %11s %8s %10.2e %9s %8s  %s", r->n,
               ks_bench_method_to_string (r->method), r->wall_ms, device_ms, ratio, r->residual,
               fwd_gbs, fraction, r->device ? r->device : "");
      if (r->method == KS_BENCH_CUDA_GRAPH)
        g_print ("; capture %.3f ms once", r->capture_ms);
      g_print ("\n");
    }
  g_print ("\nwall ms: median of untimed solves: upload + solve + download, with the buffers kept from\n"
           "the warm-up (no allocation) and the system already in the solver's precision (no method\n"
           "counts the conversion); the kernel rows record no per-launch events here.\n"
           "device ms: median of a separate timed pass: the kernels' event times summed (events cost\n"
           "~1-2 us a launch on CUDA, so a stream's sum can exceed its untimed wall time); the graph's\n"
           "replay, launch to completion; cuSOLVER's getrf + getrs; LAPACK runs on the host: -.\n"
           "of BW: the update kernel gauss_fwd's bytes (each updated element read and written once) / its\n"
           "device time, against the device's triad bandwidth measured in this run. In a stream each\n"
           "launch's event pair is recorded by the host, so where the host launches slower than the GPU\n"
           "runs (small n) the pair also holds the launch gap: the stream rows' figure is a lower bound.\n"
           "kernels, CUDA (graph): the same solver as kernels, CUDA, its launches recorded once into a CUDA\n"
           "graph (capture = capture + instantiate + upload, in the warm-up, not in the times) and\n"
           "replayed with one call. Its fwd GB/s comes from a second graph with an event pair around\n"
           "each launch as graph nodes (not used for its times): no host between the kernels, but each\n"
           "pair still holds the device's own launch latency (a one-thread kernel reads ~3.5 us on an\n"
           "H200), so at small n both rows' figures are lower bounds.\n"
           "blocked: the same elimination (no pivoting, the same arithmetic) with 32 columns per launch\n"
           "(a blocked right-looking update, kernels/gauss-blocked.cl): ~3n/32 launches instead of 4n,\n"
           "on the paper's rows' devices and solvers. What separates it from the paper's rows is what\n"
           "the launches cost; what still separates it from cuSOLVER is a tuned update and pivoting.\n");
  /* One reference for the run (cuSOLVER where it can run, else LAPACK),
   * so ratios of different sizes compare. */
  if (reference >= 0)
    g_print ("ratio: wall ms / the wall ms of %s at the same n (cuSOLVER where it can run, else LAPACK).\n",
             ks_bench_method_to_string (reference));
  else
    g_print ("ratio: none (neither cuSOLVER nor LAPACK can run here).\n");
  return failed;
}

/* Counts of repetitions: at least min, at most KS_BENCH_MAX_REPS, or a
 * message on stderr saying which limit and why. */
static gboolean
check_reps (int         value,
            const char *option,
            int         min)
{
  if (value < min)
    {
      g_printerr ("kernelscope-cli: %s must be at least %d, not %d\n", option, min, value);
      return FALSE;
    }
  if ((guint) value > KS_BENCH_MAX_REPS)
    {
      g_printerr ("kernelscope-cli: %s %d is more than %u: each is a whole run of the kernels, and "
                  "more make the median no steadier\n", option, value, KS_BENCH_MAX_REPS);
      return FALSE;
    }
  return TRUE;
}

/* bench gauss's numbers into spec; FALSE (said on stderr) for a usage error. */
static gboolean
gauss_spec (const char  *precision,
            int          reps,
            int          warmup,
            int          seed,
            gboolean     no_bandwidth,
            KsBenchSpec *spec)
{
  if (precision && !ks_precision_from_string (precision, &spec->precision))
    {
      g_printerr ("kernelscope-cli: --precision is float or double, not \"%s\"\n", precision);
      return FALSE;
    }
  if (!check_reps (reps, "--reps", 1) || !check_reps (warmup, "--warmup", 0))
    return FALSE;
  if (seed < 0)
    {
      g_printerr ("kernelscope-cli: --seed must not be negative\n");
      return FALSE;
    }
  spec->reps = reps;
  spec->warmup = warmup;
  /* 0 is a seed like any other (it was silently replaced by 1). */
  spec->seed = (guint32) seed;
  spec->measure_bandwidth = !no_bandwidth;
  return TRUE;
}

/* The benchmark itself, its table and files; the exit status. */
static int
run_gauss (GArray            *sizes,
           const KsBenchSpec *spec,
           const char        *command,
           const char        *csv,
           const char        *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  g_autoptr(GPtrArray) rows = NULL;
  int status = KS_CLI_OK;
  guint failed;

  if (!(rows = ks_bench_gauss (list, (const guint *) sizes->data, sizes->len, spec, &error)))
    return ks_cli_fail (KS_CLI_FAILED, error);
  if ((failed = print_gauss_table (rows)) > 0)
    {
      /* Unavailable methods are not failures; a solve that failed is. */
      g_printerr ("kernelscope-cli: %u row(s) of bench gauss failed\n", failed);
      status = KS_CLI_FAILED;
    }
  if (csv && !ks_bench_write_csv (rows, csv, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
  if (json && !ks_bench_write_json (rows, spec, command, json, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
  return status;
}

static int
bench_gauss (int argc, char **argv)
{
  char *sizes_text = NULL, *precision = NULL, *csv = NULL, *json = NULL;
  int reps = 3, warmup = 1, seed = 1;
  gboolean no_bandwidth = FALSE;
  const GOptionEntry entries[] = {
    { "sizes", 's', 0, G_OPTION_ARG_STRING, &sizes_text, "Matrix sizes, e.g. 500,1000,2000 or 1000:4000:1000. Default: 256,1024", "LIST" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &precision, "float or double. Default: float", "float|double" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &reps, "Timed solves per method and size (median kept). Default: 3", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Untimed solves first. Default: 1", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &seed, "Seed of the generated systems. Default: 1", "N" },
    { "no-bandwidth", 0, 0, G_OPTION_ARG_NONE, &no_bandwidth, "Skip the bandwidth probe (no fraction column)", NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, "Write the table to a CSV file", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Write the table and how it was made to a JSON file", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("gauss - the paper's kernels against cuSOLVER and LAPACK");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sizes = NULL;
  g_autofree char *command = ks_cli_join_argv ("kernelscope-cli bench gauss", argc, argv);
  KsBenchSpec spec = { KS_PRECISION_FLOAT, 1, 3, 1, TRUE };
  int status = KS_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Solves the same generated systems with: the paper's four kernels (fixed range, the driver's\n"
    "group size; on CUDA the occupancy API's) on a GPU through OpenCL and through CUDA, on CUDA\n"
    "also replayed from a CUDA graph (one call instead of ~4n launches), cuSOLVER's\n"
    "getrf + getrs, LAPACK's getrf + getrs (OpenBLAS) on the host, and the kernels on the CPU through\n"
    "PoCL. A method this machine cannot run is listed as skipped, with the reason.\n"
    "Example: kernelscope-cli bench gauss --sizes 1000,2000,4000 --csv bench.csv");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (!gauss_spec (precision, reps, warmup, seed, no_bandwidth, &spec))
    {
      status = KS_CLI_USAGE;
      goto out;
    }
  if (!(sizes = ks_parse_uint_list (sizes_text ? sizes_text : "256,1024", 2, 100000, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  /* Before the benchmark: a refused file found after it loses it. */
  if (!ks_cli_check_outputs ((KsIoOutput[]) { { csv, "--csv" }, { json, "--json" } }, 2, NULL, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  status = run_gauss (sizes, &spec, command, csv, json);

out:
  g_free (sizes_text);
  g_free (precision);
  g_free (csv);
  g_free (json);
  return status;
}

/* "Usage: kernelscope-cli bench a|b|c [OPTIONS]" and a line for each. */
static char *
bench_usage (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autofree char *joined = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (own); i++)
    {
      g_ptr_array_add (names, (gpointer) own[i].name);
      g_string_append_printf (lines, "  %-10s %s\n", own[i].name, own[i].summary);
    }
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
  /* GOptionContext sees "bench gauss ..." with the subcommand as argv[0]. */
  if (strcmp (argv[1], "gauss") == 0)
    return bench_gauss (argc - 1, argv + 1);
  for (guint i = 0; i < G_N_ELEMENTS (own); i++)
    if (own[i].run != NULL && strcmp (argv[1], own[i].name) == 0)
      return own[i].run (argc - 1, argv + 1);
  id = g_strconcat (BENCH_PREFIX, argv[1], NULL);
  if (ks_registry_lookup (id) != NULL)
    return run_alias (id, argc, argv);
  g_printerr ("kernelscope-cli: unknown bench \"%s\"\n%s", argv[1], usage);
  return KS_CLI_USAGE;
}
