/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-bench-cg.c: "bench cg" (see ks-bench-cg.h). */
#define G_LOG_DOMAIN "ks-bench"

#include "ks-bench-cg.h"
#include "ks-bench.h"
#include "ks-bench-probes.h"
#include "ks-compute-error.h"
#include "ks-cusparse-cg.h"
#include "ks-io-file.h"
#include "ks-run.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* The diagonal's shift: a condition number of about 160, so that a solve
 * to 1e-8 takes a hundred-odd iterations, enough for a steady time per
 * iteration, as the heat matrix's mass term keeps its own condition
 * bounded. */
#define GRID_SHIFT 0.1

static const char * const method_names[KS_BENCH_CG_N_METHODS] = { "base", "fused", "fused-graph", "library" };

const char *
ks_bench_cg_method_to_string (KsBenchCgMethod method)
{
  g_return_val_if_fail ((guint) method < KS_BENCH_CG_N_METHODS, NULL);
  return method_names[method];
}

void
ks_bench_cg_row_free (KsBenchCgRow *row)
{
  if (row == NULL)
    return;
  g_free (row->device);
  g_free (row->skipped);
  g_free (row);
}

typedef struct {
  KsDevice     *device;
  char         *name;
  double        triad_gbs;
  KsCgDevice   *cg[3];      /* base, fused, fused in a graph; NULL with why[] when they cannot be built */
  char         *why[3];
  KsCusparseCg *library;    /* CUDA only */
  char         *library_why;
} BenchDevice;

static void
bench_device_clear (BenchDevice *d)
{
  for (guint v = 0; v < 3; v++)
    {
      g_clear_pointer (&d->cg[v], ks_cg_device_free);
      g_free (d->why[v]);
    }
  g_clear_pointer (&d->library, ks_cusparse_cg_free);
  g_free (d->library_why);
  g_free (d->name);
}

/* The OpenCL and CUDA devices, each with its triad bandwidth and its CGs. */
static BenchDevice *
open_devices (KsDeviceList *list, const KsBenchCgSpec *spec, guint *n_out)
{
  const guint n = ks_device_list_get_n_devices (list);
  BenchDevice *devices = g_new0 (BenchDevice, MAX (n, 1));
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      KsDevice *device = ks_device_list_get_device (list, i);
      BenchDevice *bd = &devices[k];
      g_autoptr(GError) error = NULL;

      if (!ks_bench_device_chosen (device, spec->only, spec->n_only))
        continue;
      bd->device = device;
      bd->name = g_strdup_printf ("%s (%s)", ks_device_get_name (device), ks_device_get_id (device));
      bd->triad_gbs = ks_bench_triad_gbs (device, bd->name);
      for (guint v = 0; v < 3; v++)
        {
          /* A graph only where there are graphs: no row elsewhere. */
          if (v == KS_BENCH_CG_FUSED_GRAPH && ks_device_get_backend (device) != KS_BACKEND_CUDA)
            continue;
          if (!(bd->cg[v] = ks_cg_device_new (device, spec->precision, v == 0 ? KS_CG_BASE : KS_CG_FUSED, &error)) ||
              (v == KS_BENCH_CG_FUSED_GRAPH && !ks_cg_device_set_graph (bd->cg[v], TRUE, &error)))
            {
              g_clear_pointer (&bd->cg[v], ks_cg_device_free);
              bd->why[v] = g_strdup (error->message);
            }
          g_clear_error (&error);
        }
      if (ks_device_get_backend (device) == KS_BACKEND_CUDA &&
          !(bd->library = ks_cusparse_cg_new (device, spec->precision == KS_PRECISION_DOUBLE, &error)))
        bd->library_why = g_strdup (error->message);
      k++;
    }
  *n_out = k;
  return devices;
}

/* ||b - A x|| / ||b|| on the host. */
static double
residual (const KsCsr *a, const double *b, const double *x)
{
  g_autofree double *ax = g_new (double, a->n_rows);
  double rr = 0, bb = 0;

  ks_csr_spmv (a, x, ax);
  for (guint i = 0; i < a->n_rows; i++)
    {
      rr += (b[i] - ax[i]) * (b[i] - ax[i]);
      bb += b[i] * b[i];
    }
  return bb > 0 ? sqrt (rr / bb) : 0;
}

/* One solve from x = 0: its iterations and loop time. */
static gboolean
solve_once (BenchDevice *bd, KsBenchCgMethod method, const KsBenchCgSpec *spec, const KsCsr *a, const double *b,
            double *x, guint *iterations, double *iterate_s, GError **error)
{
  const KsCgOptions options = { spec->tol, 100000 };
  double res = 0;

  memset (x, 0, sizeof (double) * a->n_rows);
  if (method == KS_BENCH_CG_LIBRARY)
    {
      if (!ks_cusparse_cg_solve (bd->library, b, x, options.tol, options.max_iter, iterations, &res, iterate_s, error))
        return FALSE;
      if (res > options.tol)
        {
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED,
                       _("The library CG did not converge in %u iterations: residual %.3g"), *iterations, res);
          return FALSE;
        }
      return TRUE;
    }
  {
    KsCgResult r = { 0 };
    if (!ks_cg_device_solve (bd->cg[method], b, x, &options, &r, error))
      return FALSE;
    *iterations = r.iterations;
    *iterate_s = r.iterate_s;
  }
  return TRUE;
}

static void
run_method (KsBenchCgRow *row, BenchDevice *bd, const KsBenchCgSpec *spec, const KsCsr *a, const double *b)
{
  g_autofree double *x = g_new0 (double, a->n_rows);
  g_autofree double *per_iter = g_new0 (double, spec->reps);
  g_autoptr(GError) error = NULL;
  const char *why = row->method == KS_BENCH_CG_LIBRARY ? bd->library_why : bd->why[row->method];
  gboolean ready = row->method == KS_BENCH_CG_LIBRARY ? bd->library != NULL : bd->cg[row->method] != NULL;
  gboolean ok;
  guint it = 0;
  double s = 0;

  if (!ready)
    {
      row->skipped = g_strdup (why);
      return;
    }
  ok = row->method == KS_BENCH_CG_LIBRARY
       ? ks_cusparse_cg_set_matrix (bd->library, a->n_rows, a->nnz, a->row_ptr, a->col, a->val, &error)
       : ks_cg_device_set_matrix (bd->cg[row->method], a, &error);
  for (guint i = 0; ok && i < spec->warmup + spec->reps; i++)
    {
      ok = solve_once (bd, row->method, spec, a, b, x, &it, &s, &error);
      if (ok && i >= spec->warmup)
        per_iter[i - spec->warmup] = it > 0 ? 1e3 * s / it : 0;
    }
  if (!ok)
    {
      row->skipped = ks_bench_reason (error, &row->failed);
      return;
    }
  row->iterations = it;
  row->iteration_ms = ks_bench_median (per_iter, spec->reps);
  row->residual = residual (a, b, x);
  row->bytes_per_row = ks_cg_bytes_per_row (row->method == KS_BENCH_CG_FUSED || row->method == KS_BENCH_CG_FUSED_GRAPH
                                            ? KS_CG_FUSED : KS_CG_BASE,
                                            spec->precision, ks_csr_mean_row (a));
  row->gbs = row->iteration_ms > 0 ? row->bytes_per_row * a->n_rows / (row->iteration_ms * 1e6) : 0;
  row->triad_gbs = bd->triad_gbs;
  row->of_triad = bd->triad_gbs > 0 ? row->gbs / bd->triad_gbs : 0;
}

/* Each row against the library's row of the same size on the same device. */
static void
compare_with_library (GPtrArray *rows, guint first)
{
  for (guint i = first; i < rows->len; i++)
    {
      KsBenchCgRow *r = rows->pdata[i];
      for (guint j = first; j < rows->len && r->skipped == NULL; j++)
        {
          const KsBenchCgRow *l = rows->pdata[j];
          if (l->method == KS_BENCH_CG_LIBRARY && l->skipped == NULL && g_str_equal (l->device, r->device) &&
              r->iteration_ms > 0)
            r->vs_library = l->iteration_ms / r->iteration_ms;
        }
    }
}

GPtrArray *
ks_bench_cg (KsDeviceList *list, const KsBenchCgSpec *spec, GError **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_bench_cg_row_free);
  BenchDevice *devices;
  guint n_devices;

  g_return_val_if_fail (KS_IS_DEVICE_LIST (list) && spec != NULL, NULL);
  g_return_val_if_fail (spec->reps >= 1 && spec->reps <= KS_BENCH_MAX_REPS, NULL);

  for (guint s = 0; s < spec->n_sizes; s++)
    if (spec->sizes[s] < 4 || spec->sizes[s] > KS_BENCH_CG_MAX_ROWS)
      {
        g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                     _("bench cg takes 4 to %u rows (9 entries each in 32-bit indices); %u is outside"),
                     KS_BENCH_CG_MAX_ROWS, spec->sizes[s]);
        return NULL;
      }
  devices = open_devices (list, spec, &n_devices);
  for (guint s = 0; s < spec->n_sizes; s++)
    {
      const guint side = (guint) MAX (2.0, round (sqrt ((double) spec->sizes[s])));
      g_autoptr(KsCsr) a = ks_csr_new_grid9 (side, side, GRID_SHIFT);
      g_autofree double *xe = g_new (double, a->n_rows);
      g_autofree double *b = g_new (double, a->n_rows);
      const guint first = rows->len;

      /* A smooth solution, so b has every scale in it. */
      for (guint i = 0; i < a->n_rows; i++)
        xe[i] = sin (0.01 * (i % side)) + cos (0.013 * (i / side));
      ks_csr_spmv (a, xe, b);
      for (guint d = 0; d < n_devices; d++)
        for (guint m = 0; m < KS_BENCH_CG_N_METHODS; m++)
          {
            KsBenchCgRow *row;

            /* The library and the graph appear only where they can run. */
            if ((m == KS_BENCH_CG_LIBRARY || m == KS_BENCH_CG_FUSED_GRAPH) &&
                ks_device_get_backend (devices[d].device) != KS_BACKEND_CUDA)
              continue;
            row = g_new0 (KsBenchCgRow, 1);
            row->rows = a->n_rows;
            row->side = side;
            row->method = (KsBenchCgMethod) m;
            row->device = g_strdup (devices[d].name);
            row->nvidia_opencl = ks_device_get_backend (devices[d].device) == KS_BACKEND_OPENCL &&
                                 strstr (ks_device_get_info (devices[d].device)->platform_name, "NVIDIA") != NULL;
            g_ptr_array_add (rows, row);
            run_method (row, &devices[d], spec, a, b);
          }
      compare_with_library (rows, first);
    }
  for (guint i = 0; i < n_devices; i++)
    bench_device_clear (&devices[i]);
  g_free (devices);
  return g_steal_pointer (&rows);
}

gboolean
ks_bench_cg_write_csv (GPtrArray *rows, const char *path, GError **error)
{
  g_autoptr(GString) s = g_string_new ("rows,side,method,device,iterations,iteration_ms,residual,bytes_per_row,gbs,"
                                       "triad_gbs,of_triad,vs_library,skipped\n");

  g_return_val_if_fail (rows != NULL && path != NULL, FALSE);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchCgRow *r = rows->pdata[i];
      char b[7][G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *device = g_strdup (r->device);
      g_autofree char *skipped = g_strdup (r->skipped ? r->skipped : "");

      /* Commas and quotes would break the row: a reason is prose. */
      g_strdelimit (device, ",\"", ';');
      g_strdelimit (skipped, ",\"\n", ';');
      g_string_append_printf (s, "%u,%u,%s,%s,%u,%s,%s,%s,%s,%s,%s,%s,%s\n", r->rows, r->side,
                              ks_bench_cg_method_to_string (r->method), device, r->iterations,
                              g_ascii_dtostr (b[0], sizeof b[0], r->iteration_ms),
                              g_ascii_dtostr (b[1], sizeof b[1], r->residual),
                              g_ascii_dtostr (b[2], sizeof b[2], r->bytes_per_row),
                              g_ascii_dtostr (b[3], sizeof b[3], r->gbs), g_ascii_dtostr (b[4], sizeof b[4], r->triad_gbs),
                              g_ascii_dtostr (b[5], sizeof b[5], r->of_triad),
                              g_ascii_dtostr (b[6], sizeof b[6], r->vs_library), skipped);
    }
  return ks_io_write_file (path, s->str, (gssize) s->len, error);
}

/* "name": */
static void
key (GString *s, const char *name)
{
  ks_json_append_string (s, name);
  g_string_append (s, ": ");
}

gboolean
ks_bench_cg_write_json (GPtrArray *rows, const KsBenchCgSpec *spec, const char *command, const char *path,
                        GError **error)
{
  g_autoptr(GString) s = g_string_new ("{\n  \"bench\": \"cg\",\n  ");
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format_iso8601 (now);

  g_return_val_if_fail (rows != NULL && spec != NULL && path != NULL, FALSE);
  key (s, "date");
  ks_json_append_string (s, date);
  g_string_append (s, ",\n  ");
  key (s, "command");
  ks_json_append_string (s, command);
  g_string_append (s, ",\n  ");
  key (s, "precision");
  ks_json_append_string (s, ks_precision_to_string (spec->precision));
  g_string_append (s, ",\n  ");
  key (s, "tol");
  ks_json_append_number (s, spec->tol);
  g_string_append_printf (s, ",\n  \"warmup\": %u,\n  \"reps\": %u,\n  \"rows\": [", spec->warmup, spec->reps);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchCgRow *r = rows->pdata[i];
      const struct { const char *name; double value; } numbers[] = {
        { "iteration_ms", r->iteration_ms }, { "residual", r->residual }, { "bytes_per_row", r->bytes_per_row },
        { "gbs", r->gbs }, { "triad_gbs", r->triad_gbs }, { "of_triad", r->of_triad },
        { "vs_library", r->vs_library },
      };

      g_string_append_printf (s, "%s\n    {\"rows\": %u, \"side\": %u, \"method\": \"%s\", ", i > 0 ? "," : "",
                              r->rows, r->side, ks_bench_cg_method_to_string (r->method));
      key (s, "device");
      ks_json_append_string (s, r->device);
      g_string_append_printf (s, ", \"iterations\": %u", r->iterations);
      for (guint k = 0; k < G_N_ELEMENTS (numbers); k++)
        {
          g_string_append (s, ", ");
          key (s, numbers[k].name);
          ks_json_append_number (s, numbers[k].value);
        }
      g_string_append_printf (s, ", \"failed\": %s, ", r->failed ? "true" : "false");
      key (s, "skipped");
      ks_json_append_string (s, r->skipped);
      g_string_append (s, "}");
    }
  g_string_append (s, "\n  ]\n}\n");
  return ks_io_write_file (path, s->str, (gssize) s->len, error);
}
