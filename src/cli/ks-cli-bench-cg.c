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

int
ks_cli_bench_cg (int argc, char **argv)
{
  char *sizes_text = NULL, *precision = NULL, *csv = NULL, *json = NULL, *device_query = NULL;
  double tol = 0;
  int reps = 5, warmup = 1;
  const GOptionEntry entries[] = {
    { "sizes", 's', 0, G_OPTION_ARG_STRING, &sizes_text,
      "Rows of the matrices (each made a square grid), e.g. 4096,65536 on a CPU. Default: 1048576,4194304,16777216",
      "LIST" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &precision, "double or float. Default: double", "double|float" },
    { "tol", 0, 0, G_OPTION_ARG_DOUBLE, &tol, "Relative residual to reach. Default: 1e-8 (double), 1e-5 (float)", "TOL" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &reps, "Timed solves per method and size (median kept). Default: 5", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Untimed solves first. Default: 1", "N" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device_query,
      "These devices only, comma-separated, e.g. cuda:0,opencl:0:0 (default: every OpenCL and CUDA device)",
      "LIST" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, "Write the table to a CSV file", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Write the table to a JSON file", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("cg - paper 004's CG against the library CG");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(GPtrArray) only = g_ptr_array_new ();
  g_autofree char *command = ks_cli_join_argv ("kernelscope-cli bench cg", argc, argv);
  KsBenchCgSpec spec = { KS_PRECISION_DOUBLE };
  int status = KS_CLI_OK;

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
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (reps < 1 || (guint) reps > KS_BENCH_MAX_REPS || warmup < 0 || (guint) warmup > KS_BENCH_MAX_REPS)
    {
      g_printerr ("kernelscope-cli: --reps must be 1 to %u and --warmup 0 to %u\n", KS_BENCH_MAX_REPS,
                  KS_BENCH_MAX_REPS);
      status = KS_CLI_USAGE;
      goto out;
    }
  if (precision && !ks_precision_from_string (precision, &spec.precision))
    {
      g_printerr ("kernelscope-cli: --precision is double or float, not \"%s\"\n", precision);
      status = KS_CLI_USAGE;
      goto out;
    }
  if (tol == 0)
    tol = spec.precision == KS_PRECISION_DOUBLE ? 1e-8 : 1e-5;
  if (!(tol > 0 && tol < 0.5))
    {
      g_printerr ("kernelscope-cli: --tol must lie in (0, 0.5), not %g\n", tol);
      status = KS_CLI_USAGE;
      goto out;
    }
  if (!(sizes = ks_parse_uint_list (sizes_text ? sizes_text : "1048576,4194304,16777216", 4, KS_BENCH_CG_MAX_ROWS,
                                    &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  spec.sizes = (const guint *) sizes->data;
  spec.n_sizes = sizes->len;
  spec.tol = tol;
  spec.reps = (guint) reps;
  spec.warmup = (guint) warmup;

  /* Before the benchmark: a refused file found after it loses it. */
  if (!ks_cli_check_outputs ((KsIoOutput[]) { { csv, "--csv" }, { json, "--json" } }, 2, NULL, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  list = ks_device_list_new ();
  if (!ks_cli_lookup_devices (list, device_query, only, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  spec.only = only->len > 0 ? (KsDevice **) only->pdata : NULL;
  spec.n_only = only->len;
  if (!(rows = ks_bench_cg (list, &spec, &error)))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }
  print_rows (rows);
  g_print ("\n");
  print_summary (rows);
  {
    gboolean library = FALSE;
    for (guint i = 0; i < rows->len; i++)
      library |= ((const KsBenchCgRow *) rows->pdata[i])->method == KS_BENCH_CG_LIBRARY;
    if (!library)
      g_print ("The library CG (cuSPARSE + cuBLAS): no CUDA device here, so no /library column\n");
  }
  for (guint i = 0; i < rows->len; i++)
    if (((const KsBenchCgRow *) rows->pdata[i])->failed)
      status = KS_CLI_FAILED;
  if (status != KS_CLI_OK)
    g_printerr ("kernelscope-cli: some rows of bench cg failed\n");
  if (csv && !ks_bench_cg_write_csv (rows, csv, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error);
  else if (json && !ks_bench_cg_write_json (rows, &spec, command, json, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error);

out:
  g_free (sizes_text);
  g_free (precision);
  g_free (csv);
  g_free (json);
  g_free (device_query);
  return status;
}
