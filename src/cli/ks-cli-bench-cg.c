/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli bench cg: paper 004's conjugate gradients, base and
 * fused, against the library CG and the memory's limit, in one run
 * (ks-bench-cg.h). */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-bench.h"
#include "ks-bench-cg.h"
#include "ks-experiment.h"

#include <string.h>

static void
print_rows (GPtrArray *rows)
{
  g_print ("%10s  %-8s %6s %13s %9s %9s %8s %9s  %s\n", "rows", "method", "iters", "ms/iteration", "residual",
           "GB/s", "of triad", "/library", "device");
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchCgRow *r = rows->pdata[i];
      g_autofree char *of = NULL, *vs = NULL;

      if (r->skipped)
        {
          g_print ("%10u  %-8s %s%s  %s\n", r->rows, ks_bench_cg_method_to_string (r->method),
                   r->failed ? "" : "skipped: ", r->skipped, r->device);
          continue;
        }
      of = r->of_triad > 0 ? g_strdup_printf ("%.1f%%", 100 * r->of_triad) : g_strdup ("-");
      vs = r->vs_library > 0 ? g_strdup_printf ("%.2fx", r->vs_library) : g_strdup ("-");
      g_print ("%10u  %-8s %6u %13.4g %9.2e %9.1f %8s %9s  %s\n", r->rows, ks_bench_cg_method_to_string (r->method),
               r->iterations, r->iteration_ms, r->residual, r->gbs, of, vs, r->device);
    }
}

/* The row of method on device at rows, or NULL. */
static const KsBenchCgRow *
find (GPtrArray *rows, guint n, KsBenchCgMethod method, const char *device)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchCgRow *r = rows->pdata[i];
      if (r->rows == n && r->method == method && r->skipped == NULL && g_str_equal (r->device, device))
        return r;
    }
  return NULL;
}

/* Per size and device: fused against base (the paper predicts the bytes'
 * ratio) and against the library; each kernel on NVIDIA's OpenCL against
 * the same through CUDA. */
static void
print_summary (GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchCgRow *f = rows->pdata[i];
      const KsBenchCgRow *b;

      if (f->skipped != NULL)
        continue;
      if (f->method == KS_BENCH_CG_FUSED && (b = find (rows, f->rows, KS_BENCH_CG_BASE, f->device)) != NULL)
        {
          g_print ("%u rows on %s: fused %.4g ms per iteration, base %.4g: %.2fx (the bytes predict %.2fx)",
                   f->rows, f->device, f->iteration_ms, b->iteration_ms, b->iteration_ms / f->iteration_ms,
                   b->bytes_per_row / f->bytes_per_row);
          if (f->vs_library > 0)
            g_print ("; %.2fx the library CG's speed", f->vs_library);
          if (f->of_triad > 0)
            g_print ("; fused at %.1f%% and base at %.1f%% of the triad %.0f GB/s", 100 * f->of_triad,
                     100 * b->of_triad, f->triad_gbs);
          g_print ("\n");
        }
      if (f->method == KS_BENCH_CG_FUSED_GRAPH && (b = find (rows, f->rows, KS_BENCH_CG_FUSED, f->device)) != NULL)
        {
          g_print ("%u rows on %s: fused from a CUDA graph %.4g ms per iteration, launched one by one %.4g: %.2fx",
                   f->rows, f->device, f->iteration_ms, b->iteration_ms, b->iteration_ms / f->iteration_ms);
          if (f->vs_library > 0)
            g_print ("; %.2fx the library CG's speed", f->vs_library);
          g_print ("\n");
        }
      if (f->nvidia_opencl)
        for (guint j = 0; j < rows->len; j++)
          {
            const KsBenchCgRow *c = rows->pdata[j];
            if (c->rows == f->rows && c->method == f->method && c->skipped == NULL && strstr (c->device, "(cuda:"))
              g_print ("%s CG, %u rows: NVIDIA OpenCL %.4g ms per iteration, CUDA %.4g: OpenCL/CUDA %.2f "
                       "(issue: within 1.15)\n", ks_bench_cg_method_to_string (f->method), f->rows,
                       f->iteration_ms, c->iteration_ms, f->iteration_ms / c->iteration_ms);
          }
    }
}

/* The command line as given. */
typedef struct {
  char   *sizes_text, *precision, *csv, *json, *device_query;
  double  tol;
  int     reps, warmup;
} BenchOptions;

static void
bench_options_clear (BenchOptions *o)
{
  g_free (o->sizes_text);
  g_free (o->precision);
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
    { "sizes", 's', 0, G_OPTION_ARG_STRING, &o->sizes_text,
      "Rows of the matrices (each made a square grid), e.g. 4096,65536 on a CPU. Default: 1048576,4194304,16777216",
      "LIST" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &o->precision, "double or float. Default: double", "double|float" },
    { "tol", 0, 0, G_OPTION_ARG_DOUBLE, &o->tol, "Relative residual to reach. Default: 1e-8 (double), 1e-5 (float)",
      "TOL" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &o->reps, "Timed solves per method and size (median kept). Default: 5", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &o->warmup, "Untimed solves first. Default: 1", "N" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device_query,
      "These devices only, comma-separated, e.g. cuda:0,opencl:0:0 (default: every OpenCL and CUDA device)",
      "LIST" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &o->csv, "Write the table to a CSV file", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &o->json, "Write the table to a JSON file", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("cg - paper 004's CG against the library CG");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Solves the same 9-point matrices (9 entries per row, as paper 004's quadrilateral mesh) with the\n"
    "paper's CG as printed (base) and its fused version on every OpenCL and CUDA device, and with\n"
    "cuSPARSE SpMV + cuBLAS dot/axpy/scal on CUDA devices.  The time per iteration is the CG loop's\n"
    "wall time over its iterations (no transfers inside; our CGs keep the scalars on the device, the\n"
    "library's dots return to the host as NVIDIA's sample does).  GB/s: the paper's Table 1 bytes\n"
    "per row (20L + 108 base and library, 20L + 84 fused) over that time, against the triad\n"
    "bandwidth each device measures first in the same run.\n"
    "Example: kernelscope-cli bench cg -d cuda:0 --sizes 1048576,4194304,16777216 --csv cg.csv --json cg.json");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  return KS_CLI_OK;
}

/* Checks o's values and fills spec from them; spec points into sizes,
 * which the caller keeps.  KS_CLI_OK or KS_CLI_USAGE. */
static int
make_spec (const BenchOptions  *o,
           GArray             **sizes,
           KsBenchCgSpec       *spec)
{
  g_autoptr(GError) error = NULL;
  double tol = o->tol;

  if (o->reps < 1 || (guint) o->reps > KS_BENCH_MAX_REPS || o->warmup < 0 || (guint) o->warmup > KS_BENCH_MAX_REPS)
    {
      g_printerr ("kernelscope-cli: --reps must be 1 to %u and --warmup 0 to %u\n", KS_BENCH_MAX_REPS,
                  KS_BENCH_MAX_REPS);
      return KS_CLI_USAGE;
    }
  if (o->precision && !ks_precision_from_string (o->precision, &spec->precision))
    {
      g_printerr ("kernelscope-cli: --precision is double or float, not \"%s\"\n", o->precision);
      return KS_CLI_USAGE;
    }
  if (tol == 0)
    tol = spec->precision == KS_PRECISION_DOUBLE ? 1e-8 : 1e-5;
  if (!(tol > 0 && tol < 0.5))
    {
      g_printerr ("kernelscope-cli: --tol must lie in (0, 0.5), not %g\n", tol);
      return KS_CLI_USAGE;
    }
  if (!(*sizes = ks_parse_uint_list (o->sizes_text ? o->sizes_text : "1048576,4194304,16777216", 4,
                                     KS_BENCH_CG_MAX_ROWS, &error)))
    return ks_cli_fail (KS_CLI_USAGE, error);
  spec->sizes = (const guint *) (*sizes)->data;
  spec->n_sizes = (*sizes)->len;
  spec->tol = tol;
  spec->reps = (guint) o->reps;
  spec->warmup = (guint) o->warmup;
  return KS_CLI_OK;
}

/* The table, its summary and what is missing from it; KS_CLI_FAILED
 * (said on stderr) when a row failed. */
static int
print_results (GPtrArray *rows)
{
  gboolean library = FALSE;
  int status = KS_CLI_OK;

  print_rows (rows);
  g_print ("\n");
  print_summary (rows);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchCgRow *r = rows->pdata[i];

      library |= r->method == KS_BENCH_CG_LIBRARY;
      if (r->failed)
        status = KS_CLI_FAILED;
    }
  if (!library)
    g_print ("The library CG (cuSPARSE + cuBLAS): no CUDA device here, so no /library column\n");
  if (status != KS_CLI_OK)
    g_printerr ("kernelscope-cli: some rows of bench cg failed\n");
  return status;
}

int
ks_cli_bench_cg (int argc, char **argv)
{
  g_auto(BenchOptions) o = { .reps = 5, .warmup = 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(GPtrArray) only = g_ptr_array_new ();
  g_autofree char *command = ks_cli_join_argv ("kernelscope-cli bench cg", argc, argv);
  KsBenchCgSpec spec = { KS_PRECISION_DOUBLE };
  int status;

  if ((status = parse_options (&o, argc, argv)) != KS_CLI_OK || (status = make_spec (&o, &sizes, &spec)) != KS_CLI_OK)
    return status;

  /* Before the benchmark: a refused file found after it loses it. */
  if (!ks_cli_check_outputs ((KsIoOutput[]) { { o.csv, "--csv" }, { o.json, "--json" } }, 2, NULL, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);

  list = ks_device_list_new ();
  if (!ks_cli_lookup_devices (list, o.device_query, only, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  spec.only = only->len > 0 ? (KsDevice **) only->pdata : NULL;
  spec.n_only = only->len;
  if (!(rows = ks_bench_cg (list, &spec, &error)))
    return ks_cli_fail (KS_CLI_FAILED, error);
  status = print_results (rows);
  if (o.csv && !ks_bench_cg_write_csv (rows, o.csv, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  if (o.json && !ks_bench_cg_write_json (rows, &spec, command, o.json, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  return status;
}
