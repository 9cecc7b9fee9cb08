/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli bench gauss / bench bandwidth / bench launch. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-bench.h"
#include "ks-bench-probes.h"
#include "ks-experiment.h"

#include <stdio.h>
#include <string.h>

static const char bench_usage[] =
  "Usage: kernelscope-cli bench gauss|tridiag|cg|bandwidth|launch [OPTIONS]\n"
  "  gauss      the same systems by the paper's kernels (NVIDIA OpenCL, CUDA, PoCL),\n"
  "             cuSOLVER and LAPACK: times, ratios, residuals, bandwidth reached\n"
  "  tridiag    paper 002's batched tridiagonal kernels against cuSPARSE and the triad bound\n"
  "  cg         paper 004's CG, base and fused, against cuSPARSE + cuBLAS and the triad bound\n"
  "  bandwidth  copy and triad (after BabelStream) on the host's cores and every OpenCL and CUDA device\n"
  "  launch     cost of one kernel launch in the Gauss sequence, and the gain of CUDA Graphs\n";

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

/* One row of bench bandwidth: the host's cores (OpenMP) or a device's
 * kernels; FALSE (the row says why) where it failed. */
static gboolean
bandwidth_row (KsDevice *device,
               int       mib,
               int       reps)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  gboolean host = ks_device_get_backend (device) == KS_BACKEND_HOST;
  gsize elements = (gsize) mib * 1048576 / sizeof (float);
  g_autoptr(GError) error = NULL;
  g_autofree char *peak = NULL;
  guint64 cache = host || info->type == KS_DEVICE_TYPE_CPU ? MAX (info->cache_bytes, ks_bench_host_cache_bytes ())
                                                           : info->cache_bytes;
  KsBandwidth bw;

  /* The large default: the balance probes beside runs keep theirs. */
  if (!ks_bench_probe_bandwidth (device, KS_BENCH_PROBE_FULL, elements, (guint) reps, &bw, &error))
    {
      g_print ("%-14s failed: %s\n", info->id, error->message);
      return FALSE;
    }
  peak = info->peak_bandwidth_gbs > 0 ? g_strdup_printf ("%.1f", info->peak_bandwidth_gbs) : g_strdup ("-");
  /* The size used, which without --mib is the device's own. */
  g_print ("%-14s %10.1f %10.1f %12s %9.1f  %s%s\n", info->id, bw.copy_gbs, bw.triad_gbs, peak,
           bw.elements * sizeof (float) / 1048576.0, info->name, host ? " (OpenMP)" : "");
  /* Arrays a cache holds measure the cache, not the memory. */
  if (cache > 0 && bw.elements * sizeof (float) < 4 * cache)
    g_print ("%-14s note: arrays of %.1f MiB are less than 4x its %.1f MiB cache: the figures may be "
             "the cache's, not the memory's\n", "", bw.elements * sizeof (float) / 1048576.0,
             cache / 1048576.0);
  return TRUE;
}

static int
bench_bandwidth (int argc, char **argv)
{
  int mib = 0, reps = 10;
  g_autofree char *device_query = NULL;
  const GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device_query,
      "These devices only, comma-separated, e.g. host,opencl:0:0 (default: every device, the host included)",
      "LIST" },
    { "mib", 0, 0, G_OPTION_ARG_INT, &mib, "Size of each of the three arrays in MiB (at most 32767, and on each "
      "device at most a twelfth of its memory and its largest buffer: a device that cannot hold it fails). "
      "Default: more than 4x the device's last-level cache and at least 256 on a GPU, 32 elsewhere, less "
      "where a device holds less (the MiB column says)", "MIB" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &reps, "Launches per kernel; the best is kept (1 to 1000). Default: 10", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("bandwidth - memory bandwidth of each device");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(GPtrArray) only = g_ptr_array_new ();
  int status = KS_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Copy (c = a) and triad (a = b + s * c) over three float arrays, best of --reps, after BabelStream:\n"
    "on each OpenCL and CUDA device by kernels, on the host by its cores (OpenMP).  The arrays'\n"
    "default size exceeds 4x the last-level cache (sysfs, sysconf, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE).\n"
    "Example: kernelscope-cli bench bandwidth -d host,pocl");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (!check_reps (reps, "--reps", 1))
    return KS_CLI_USAGE;
  if (mib < 0 || (guint64) mib * 1048576 / sizeof (float) > KS_BENCH_BANDWIDTH_MAX_ELEMENTS)
    {
      /* It was capped silently to what the device holds. */
      g_printerr ("kernelscope-cli: --mib %d: each array holds from 1 to %" G_GUINT64_FORMAT " MiB "
                  "(the kernels count float4s in an int), or 0 for a size chosen for each device\n",
                  mib, (guint64) KS_BENCH_BANDWIDTH_MAX_ELEMENTS * sizeof (float) / 1048576);
      return KS_CLI_USAGE;
    }

  list = ks_device_list_new ();
  /* Looked up before anything runs: an unknown device is the user's mistake. */
  if (!ks_cli_lookup_devices (list, device_query, only, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  g_print ("%-14s %10s %10s %12s %9s  %s\n", "device", "copy GB/s", "triad GB/s", "peak GB/s", "MiB each",
           "name");
  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      KsDevice *device = ks_device_list_get_device (list, i);

      if (only->len > 0 && !g_ptr_array_find (only, device, NULL))
        continue;
      if (!bandwidth_row (device, mib, reps))
        status = KS_CLI_FAILED;
    }
  return status;
}

/* bench launch's table: every device (or only), every size; the exit
 * status (a size that failed says why in its row). */
static int
launch_table (KsDeviceList *list,
              KsDevice     *only,
              GArray       *sizes,
              int           reps)
{
  int status = KS_CLI_OK;

  g_print ("%-12s %6s %8s %10s %10s %9s %11s %10s %9s %6s %9s\n", "device", "n", "launches", "wall ms",
           "kernels ms", "us/launch", "capture ms", "graph ms", "us/launch", "gain", "residual");
  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      KsDevice *device = ks_device_list_get_device (list, i);

      if (ks_device_get_backend (device) == KS_BACKEND_HOST || (only && only != device))
        continue;
      for (guint s = 0; s < sizes->len; s++)
        {
          g_autoptr(GError) error = NULL;
          KsLaunchOverhead o;

          if (!ks_bench_launch_overhead (device, KS_PRECISION_FLOAT, g_array_index (sizes, guint, s),
                                         (guint) reps, &o, &error))
            {
              g_print ("%-12s %6u failed: %s\n", ks_device_get_id (device), g_array_index (sizes, guint, s),
                       error->message);
              status = KS_CLI_FAILED;
              continue;
            }
          g_print ("%-12s %6u %8u %10.3f %10.3f %9.2f", ks_device_get_id (device), o.n, o.launches,
                   o.stream_ms, o.kernels_ms, o.overhead_us);
          if (o.have_graph)
            g_print (" %11.3f %10.3f %9.2f %5.2fx %9.1e\n", o.capture_ms, o.graph_ms, o.graph_overhead_us,
                     o.gain, MAX (o.stream_residual, o.graph_residual));
          else
            g_print (" %11s %10s %9s %6s %9.1e\n", "-", "-", "-", "-", o.stream_residual);
        }
    }
  return status;
}

static int
bench_launch (int argc, char **argv)
{
  char *sizes_text = NULL, *device_query = NULL;
  int reps = 5;
  const GOptionEntry entries[] = {
    { "sizes", 's', 0, G_OPTION_ARG_STRING, &sizes_text, "Matrix sizes. Default: 100,1000,4000", "LIST" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device_query, "One device only (default: every OpenCL and CUDA device)", "DEVICE" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &reps, "Timed runs each way (median kept). Default: 5", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("launch - what a kernel launch costs, and CUDA Graphs");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(GArray) sizes = NULL;
  KsDevice *only = NULL;
  int status = KS_CLI_OK;

  g_autofree char *description = g_strdup_printf (
    "Runs the Gauss method's launch sequence (fixed range, ~4n launches) with a fresh matrix each\n"
    "time and times only the launches: once with device events (the kernels' own time), once\n"
    "without (the wall time); us/launch = wall / launches, the cost of a launch where the kernels\n"
    "are trivial (small n). On CUDA the same sequence is then recorded once into a CUDA graph and\n"
    "replayed; gain = stream wall / graph wall. CUDA's events cost device time themselves (~1-2 us\n"
    "a launch), so there 'kernels ms' can exceed the untimed wall time.\n%s",
    ks_device_list_lookup_rule ());

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context, description);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (!check_reps (reps, "--reps", 1))
    {
      status = KS_CLI_USAGE;
      goto out;
    }
  if (!(sizes = ks_parse_uint_list (sizes_text ? sizes_text : "100,1000,4000", 2, 100000, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  list = ks_device_list_new ();
  /* Looked up once: an unknown device is the user's mistake, said up front. */
  if (device_query && !(only = ks_device_list_lookup (list, device_query, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (only && ks_device_get_backend (only) == KS_BACKEND_HOST)
    {
      g_printerr ("kernelscope-cli: the host device launches no kernels: choose an OpenCL or CUDA device\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  status = launch_table (list, only, sizes, reps);

out:
  g_free (sizes_text);
  g_free (device_query);
  return status;
}

int
ks_cli_bench (int    argc,
              char **argv)
{
  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      fputs (bench_usage, argc < 2 ? stderr : stdout);
      return argc < 2 ? KS_CLI_USAGE : KS_CLI_OK;
    }
  /* GOptionContext sees "bench gauss ..." with the subcommand as argv[0]. */
  if (strcmp (argv[1], "gauss") == 0)
    return bench_gauss (argc - 1, argv + 1);
  if (strcmp (argv[1], "tridiag") == 0)
    return ks_cli_bench_tridiag (argc - 1, argv + 1);
  if (strcmp (argv[1], "cg") == 0)
    return ks_cli_bench_cg (argc - 1, argv + 1);
  if (strcmp (argv[1], "bandwidth") == 0)
    return bench_bandwidth (argc - 1, argv + 1);
  if (strcmp (argv[1], "launch") == 0)
    return bench_launch (argc - 1, argv + 1);
  g_printerr ("kernelscope-cli: unknown bench \"%s\"\n%s", argv[1], bench_usage);
  return KS_CLI_USAGE;
}
