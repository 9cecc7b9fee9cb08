/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli bench tridiag: paper 002's kernels against cuSPARSE and
 * the memory's limit, in one run (ks-bench-tridiag.h). */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-bench.h"
#include "ks-bench-tridiag.h"
#include "ks-experiment.h"

#include <string.h>

static void
print_rows (GPtrArray *rows)
{
  g_print ("%-10s %8s %8s  %-19s %10s %9s %9s %8s %9s  %s\n", "case", "n", "systems", "method", "ms", "residual",
           "GB/s", "of triad", "/cuSPARSE", "device");
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchTridiagRow *r = rows->pdata[i];
      g_autofree char *of = NULL, *vs = NULL;

      if (r->skipped)
        {
          g_print ("%-10s %8u %8u  %-19s %s%s  %s\n", r->one_system ? "one" : "batch", r->n, r->systems,
                   ks_tridiag_method_to_string (r->method), r->failed ? "" : "skipped: ", r->skipped, r->device);
          continue;
        }
      of = r->of_triad > 0 ? g_strdup_printf ("%.1f%%", 100 * r->of_triad) : g_strdup ("-");
      vs = r->vs_cusparse > 0 ? g_strdup_printf ("%.2f", r->vs_cusparse) : g_strdup ("-");
      g_print ("%-10s %8u %8u  %-19s %10.4g %9.2e %9.1f %8s %9s  %s", r->one_system ? "one" : "batch", r->n,
               r->systems, ks_tridiag_method_to_string (r->method), r->ms, r->residual, r->gbs, of, vs, r->device);
      /* thomas-transposed: the solve alone is the rest (thomas-coalesced's). */
      if (r->layout_ms > 0)
        g_print (", of which transposing %.4g ms", r->layout_ms);
      g_print ("\n");
    }
}

/* Per case: our best kernel against cuSPARSE and the triad bound; and each
 * kernel on NVIDIA's OpenCL against the same kernel through CUDA. */
static void
print_summary (GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchTridiagRow *r = rows->pdata[i];
      const KsBenchTridiagRow *best = NULL;
      gboolean first_of_case = i == 0 || ((const KsBenchTridiagRow *) rows->pdata[i - 1])->systems != r->systems ||
                               ((const KsBenchTridiagRow *) rows->pdata[i - 1])->n != r->n;

      if (!first_of_case)
        continue;
      for (guint k = i; k < rows->len; k++)
        {
          const KsBenchTridiagRow *q = rows->pdata[k];
          if (q->n != r->n || q->systems != r->systems)
            break;
          if (q->skipped == NULL && q->method < KS_TRIDIAG_N_DEVICE_METHODS && (best == NULL || q->ms < best->ms))
            best = q;
          /* The same kernel through CUDA, after its NVIDIA OpenCL row. */
          for (guint j = k + 1; q->nvidia_opencl && q->skipped == NULL && j < rows->len; j++)
            {
              const KsBenchTridiagRow *c = rows->pdata[j];
              if (c->n != q->n || c->systems != q->systems)
                break;
              if (c->method == q->method && c->skipped == NULL && strstr (c->device, "(cuda:"))
                g_print ("%s, %u x %u: NVIDIA OpenCL %.4g ms, CUDA %.4g ms: OpenCL/CUDA %.2f (issue: within 1.15)\n",
                         ks_tridiag_method_to_string (q->method), q->systems, q->n, q->ms, c->ms, q->ms / c->ms);
            }
        }
      if (best == NULL)
        continue;
      g_print ("%s %u x %u: best kernel %s on %s, %.4g ms", best->one_system ? "one system" : "batch", best->systems,
               best->n, ks_tridiag_method_to_string (best->method), best->device, best->ms);
      if (best->vs_cusparse > 0)
        g_print (", %.2fx cuSPARSE's time (%s)", best->vs_cusparse,
                 best->one_system ? "gtsv2_nopivot" : "gtsv2StridedBatch");
      if (best->of_triad > 0)
        g_print (", %.1f GB/s = %.1f%% of the triad %.0f GB/s: the bound is %.4g ms", best->gbs,
                 100 * best->of_triad, best->triad_gbs, best->ms * best->of_triad);
      g_print ("\n");
    }
}

static gboolean
parse_methods (const char *text,
               GArray     *out,
               GError    **error)
{
  g_auto(GStrv) names = g_strsplit (text, ",", -1);

  for (guint i = 0; names[i]; i++)
    {
      KsTridiagMethod m;
      if (!ks_tridiag_method_from_string (g_strstrip (names[i]), &m))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--methods: \"%s\" is no method (cpu-thomas, thomas-global, ... paracr-interleaved, "
                       "cusparse-strided, ...: see run tridiag-batch --help)", names[i]);
          return FALSE;
        }
      g_array_append_val (out, m);
    }
  return TRUE;
}

/* The command line as given. */
typedef struct {
  char     *systems_text, *precision, *methods_text, *csv, *json, *device_query;
  gboolean  no_host;
  int       n, large_n, reps, warmup;
} BenchOptions;

static void
bench_options_clear (BenchOptions *o)
{
  g_free (o->systems_text);
  g_free (o->precision);
  g_free (o->methods_text);
  g_free (o->csv);
  g_free (o->json);
  g_free (o->device_query);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BenchOptions, bench_options_clear)

/* Fills o from the command line; KS_CLI_OK or the status to exit with. */
static int
parse_options (BenchOptions *o,
               int           argc,
               char        **argv)
{
  const GOptionEntry entries[] = {
    { "n", 0, 0, G_OPTION_ARG_INT, &o->n, "Unknowns per system of the batches. Default: 4095", "N" },
    { "systems", 's', 0, G_OPTION_ARG_STRING, &o->systems_text,
      "Batch sizes, e.g. 5000,40000 or 5000:40000:5000. Default: 5000,10000,20000,40000", "LIST" },
    { "large-n", 0, 0, G_OPTION_ARG_INT, &o->large_n, "Unknowns of the one large system; 0: none. Default: 16777215",
      "N" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &o->precision, "float or double. Default: float", "float|double" },
    { "methods", 'm', 0, G_OPTION_ARG_STRING, &o->methods_text, "Only these methods (comma-separated). Default: all",
      "LIST" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &o->reps, "Timed solves per method and case (median kept). Default: 5", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &o->warmup, "Untimed solves first. Default: 1", "N" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device_query,
      "These devices only, comma-separated, e.g. cuda:0,opencl:0:0 (default: every OpenCL and CUDA device)",
      "LIST" },
    { "no-host", 0, 0, G_OPTION_ARG_NONE, &o->no_host,
      "Leave out the host's methods (cpu-thomas, cpu-sericr, omp-thomas, lapack-gtsv: seconds a solve at the "
      "paper's sizes)", NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &o->csv, "Write the table to a CSV file", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &o->json, "Write the table and how it was made to a JSON file", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("tridiag - paper 002's kernels against cuSPARSE");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Solves the same generated batches (and one large system) with paper 002's kernels on every\n"
    "OpenCL and CUDA device, cuSPARSE's gtsv2StridedBatch, gtsvInterleavedBatch (Thomas, LU) and\n"
    "gtsv2_nopivot on CUDA devices, and Thomas (sequential, OpenMP) and LAPACK gtsv on the host.\n"
    "Times are device events for kernels and cuSPARSE, the host clock on the host; uploads are\n"
    "outside them. GB/s: a, b, c, d read and x written once (20 bytes per unknown in float) over\n"
    "the time, against the triad bandwidth each device measures first in the same run.\n"
    "thomas-transposed's rows say how much of their time the device spent transposing.\n"
    "Example: kernelscope-cli bench tridiag -d cuda:0 --systems 5000,40000 --large-n 16777215 --no-host "
    "--csv tri.csv --json tri.json");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  return KS_CLI_OK;
}

/* Checks o's values and fills spec from them; spec points into systems
 * and methods, which the caller keeps.  KS_CLI_OK or KS_CLI_USAGE. */
static int
make_spec (const BenchOptions  *o,
           GArray             **systems,
           GArray              *methods,
           KsBenchTridiagSpec  *spec)
{
  g_autoptr(GError) error = NULL;

  if (o->n < 1 || o->large_n < 0 || o->reps < 1 || (guint) o->reps > KS_BENCH_MAX_REPS || o->warmup < 0 ||
      (guint) o->warmup > KS_BENCH_MAX_REPS)
    {
      g_printerr ("kernelscope-cli: --n must be at least 1, --large-n at least 0, --reps 1 to %u and --warmup 0 "
                  "to %u\n", KS_BENCH_MAX_REPS, KS_BENCH_MAX_REPS);
      return KS_CLI_USAGE;
    }
  if (o->precision && !ks_precision_from_string (o->precision, &spec->precision))
    {
      g_printerr ("kernelscope-cli: --precision is float or double, not \"%s\"\n", o->precision);
      return KS_CLI_USAGE;
    }
  if (!(*systems = ks_parse_uint_list (o->systems_text ? o->systems_text : "5000,10000,20000,40000", 1, 1 << 24,
                                       &error)) ||
      (o->methods_text && !parse_methods (o->methods_text, methods, &error)))
    return ks_cli_fail (KS_CLI_USAGE, error);
  spec->n = (guint) o->n;
  spec->large_n = (guint) o->large_n;
  spec->systems = (const guint *) (*systems)->data;
  spec->n_systems = (*systems)->len;
  spec->methods = o->methods_text ? (const KsTridiagMethod *) methods->data : NULL;
  spec->n_methods = methods->len;
  spec->reps = (guint) o->reps;
  spec->warmup = (guint) o->warmup;
  spec->no_host = o->no_host;
  return KS_CLI_OK;
}

/* The table, its summary and what is missing from it; KS_CLI_FAILED
 * (said on stderr) when a row failed. */
static int
print_results (GPtrArray *rows)
{
  gboolean cusparse = FALSE;
  int status = KS_CLI_OK;

  print_rows (rows);
  g_print ("\n");
  print_summary (rows);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchTridiagRow *r = rows->pdata[i];

      cusparse |= ks_tridiag_method_is_cusparse (r->method);
      if (r->failed)
        status = KS_CLI_FAILED;
    }
  if (!cusparse)
    g_print ("cuSPARSE: no CUDA device here, so no /cuSPARSE column\n");
  if (status != KS_CLI_OK)
    g_printerr ("kernelscope-cli: some rows of bench tridiag failed\n");
  return status;
}

/* Writes the files asked for, each tried even when the other failed;
 * status, or KS_CLI_FAILED when one could not be written. */
static int
write_files (GPtrArray                *rows,
             const KsBenchTridiagSpec *spec,
             const char               *command,
             const BenchOptions       *o,
             int                       status)
{
  g_autoptr(GError) error = NULL;

  if (o->csv && !ks_bench_tridiag_write_csv (rows, o->csv, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error);
  g_clear_error (&error);
  if (o->json && !ks_bench_tridiag_write_json (rows, spec, command, o->json, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error);
  return status;
}

int
ks_cli_bench_tridiag (int argc, char **argv)
{
  g_auto(BenchOptions) o = { .n = 4095, .large_n = (1 << 24) - 1, .reps = 5, .warmup = 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) systems = NULL;
  g_autoptr(GArray) methods = g_array_new (FALSE, FALSE, sizeof (KsTridiagMethod));
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(GPtrArray) only = g_ptr_array_new ();
  g_autofree char *command = ks_cli_join_argv ("kernelscope-cli bench tridiag", argc, argv);
  KsBenchTridiagSpec spec = { KS_PRECISION_FLOAT };
  int status;

  if ((status = parse_options (&o, argc, argv)) != KS_CLI_OK ||
      (status = make_spec (&o, &systems, methods, &spec)) != KS_CLI_OK)
    return status;

  /* Before the benchmark: a refused file found after it loses it. */
  if (!ks_cli_check_outputs ((KsIoOutput[]) { { o.csv, "--csv" }, { o.json, "--json" } }, 2, NULL, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);

  list = ks_device_list_new ();
  /* Looked up once: an unknown device is the user's mistake, said up front. */
  if (!ks_cli_lookup_devices (list, o.device_query, only, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  spec.only = only->len > 0 ? (KsDevice **) only->pdata : NULL;
  spec.n_only = only->len;
  if (!(rows = ks_bench_tridiag (list, &spec, &error)))
    return ks_cli_fail (KS_CLI_FAILED, error);
  status = print_results (rows);
  return write_files (rows, &spec, command, &o, status);
}
