/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-bench-tridiag.c: "bench tridiag" (see ks-bench-tridiag.h). */
#define G_LOG_DOMAIN "ks-bench"

#include "ks-bench-tridiag.h"
#include "ks-bench.h"
#include "ks-bench-probes.h"
#include "ks-compute-error.h"
#include "ks-cusparse.h"
#include "ks-io-file.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#define BENCH_SEED 2002
#define RESIDUAL_SAMPLE 16

typedef struct {
  KsDevice        *device;
  char            *name;
  double           triad_gbs;
  KsTridiagSolver *solver;   /* NULL with why when the kernels cannot run there */
  char            *why;
} BenchDevice;

static void
bench_device_clear (BenchDevice *d)
{
  g_clear_pointer (&d->solver, ks_tridiag_solver_free);
  g_free (d->name);
  g_free (d->why);
}

void
ks_bench_tridiag_row_free (KsBenchTridiagRow *row)
{
  if (row == NULL)
    return;
  g_free (row->device);
  g_free (row->skipped);
  g_free (row);
}

static gboolean
selected (const KsBenchTridiagSpec *spec,
          KsTridiagMethod           method)
{
  if (spec->methods == NULL)
    return TRUE;
  for (guint i = 0; i < spec->n_methods; i++)
    if (spec->methods[i] == method)
      return TRUE;
  return FALSE;
}

/* One large system on a method that gives a system one work-item (Thomas,
 * SERICR, cuSPARSE's gtsvInterleavedBatch) or one work-group (the paper's
 * PARACR): seconds a solve on one thread of the device (thomas-global took
 * 5 s on the H200 for 2^24, cusparse-lu 3.8 s), and nothing to compare
 * with cuSPARSE's one-system solver.  Left out of the bench, named in a
 * row; run tridiag-large measures them. */
static gboolean
one_system_serial (KsTridiagMethod method)
{
  switch (method)
    {
    case KS_TRIDIAG_PARACR_STEPS:
    case KS_TRIDIAG_PARACR_THOMAS:
      return FALSE;
    case KS_TRIDIAG_CUSPARSE_THOMAS:
    case KS_TRIDIAG_CUSPARSE_LU:
      return TRUE;
    default:
      return method < KS_TRIDIAG_N_DEVICE_METHODS;
    }
}

static KsBenchTridiagRow *
add_row (GPtrArray            *rows,
         const KsTridiagBatch *batch,
         gboolean              one_system,
         KsTridiagMethod       method,
         const char           *device)
{
  KsBenchTridiagRow *row = g_new0 (KsBenchTridiagRow, 1);

  row->one_system = one_system;
  row->n = batch->n;
  row->systems = batch->systems;
  row->method = method;
  row->device = g_strdup (device);
  g_ptr_array_add (rows, row);
  return row;
}

/* A failure as the row's reason: unavailable (skipped) or failed. */
static void
row_set_error (KsBenchTridiagRow *row,
               const GError      *error)
{
  row->skipped = ks_bench_reason (error, &row->failed);
}

/* The median of the times, the residual of x, and what they mean against
 * the memory: 20 bytes per unknown in float over the time. */
static void
row_finish (KsBenchTridiagRow    *row,
            const KsTridiagBatch *batch,
            const double         *x,
            double               *times,
            guint                 n_times,
            KsPrecision           precision,
            double                triad_gbs)
{
  const double bytes = 5.0 * ks_precision_size (precision) * batch->n * (double) batch->systems;

  row->ms = ks_bench_median (times, n_times);
  row->residual = ks_tridiag_batch_residual (batch, x, RESIDUAL_SAMPLE);
  row->gbs = row->ms > 0 ? bytes / (row->ms * 1e6) : 0;
  row->triad_gbs = triad_gbs;
  row->of_triad = triad_gbs > 0 ? row->gbs / triad_gbs : 0;
}

/* One method, warm-up and timed runs; times in ms (one per timed run). */
typedef gboolean (*SolveOnce) (gpointer data, double *ms, GError **error);

static gboolean
repeat (const KsBenchTridiagSpec *spec,
        SolveOnce                 solve,
        gpointer                  data,
        double                   *times,
        GError                  **error)
{
  double ms;

  for (guint i = 0; i < spec->warmup; i++)
    if (!solve (data, &ms, error))
      return FALSE;
  for (guint i = 0; i < spec->reps; i++)
    if (!solve (data, &times[i], error))
      return FALSE;
  return TRUE;
}

typedef struct {
  const KsTridiagBatch *batch;
  KsTridiagMethod       method;
  KsPrecision           precision;
  KsDevice             *device;
  KsTridiagSolver      *solver;
  double               *x;
  double               *layout;   /* each timed run's layout_ms (kernels), else NULL */
  guint                 warmup;
  guint                 run;      /* which run solve_kernel is at: warm-ups first */
} Solve;

static gboolean
solve_host (gpointer data, double *ms, GError **error)
{
  Solve *s = data;
  const gint64 start = g_get_monotonic_time ();
  guint n = 0;
  double one;

  /* A small system is solved in less than the clock's microsecond (CI
   * read 0 ms for 63 unknowns): solve again until a millisecond has
   * passed, and report the mean. */
  do
    {
      if (!ks_tridiag_host_solve (s->batch, s->method, s->precision, TRUE, s->x, &one, error))
        return FALSE;
      n++;
    }
  while (g_get_monotonic_time () - start < 1000 && n < 100000);
  *ms = n == 1 ? one : (g_get_monotonic_time () - start) / 1000.0 / n;
  return TRUE;
}

static gboolean
solve_cusparse (gpointer data, double *ms, GError **error)
{
  Solve *s = data;
  return ks_tridiag_cusparse_solve (s->device, s->batch, s->method, s->precision, s->x, ms, error);
}

static gboolean
solve_kernel (gpointer data, double *ms, GError **error)
{
  Solve *s = data;
  KsTridiagResult result;

  if (!ks_tridiag_solver_run (s->solver, &result, error))
    return FALSE;
  *ms = result.kernel_ms;
  /* The warm-ups come first, then reps timed runs: keep those. */
  if (s->layout && s->run >= s->warmup)
    s->layout[s->run - s->warmup] = result.layout_ms;
  s->run++;
  return TRUE;
}

static void
run_method (GPtrArray                *rows,
            const KsBenchTridiagSpec *spec,
            gboolean                  one_system,
            Solve                    *s,
            SolveOnce                 solve,
            const char               *device_name,
            double                    triad_gbs)
{
  KsBenchTridiagRow *row = add_row (rows, s->batch, one_system, s->method, device_name);
  g_autofree double *times = g_new0 (double, spec->reps);
  g_autofree double *layout = g_new0 (double, spec->reps);
  g_autoptr(GError) error = NULL;

  s->layout = layout;
  s->warmup = spec->warmup;
  s->run = 0;
  row->nvidia_opencl = s->device && ks_device_get_backend (s->device) == KS_BACKEND_OPENCL &&
                       strstr (ks_device_get_info (s->device)->platform_name, "NVIDIA") != NULL;
  if ((s->solver && !ks_tridiag_solver_load (s->solver, s->batch, s->method, TRUE, &error)) ||
      !repeat (spec, solve, s, times, &error) ||
      (s->solver && !ks_tridiag_solver_read (s->solver, s->x, &error)))
    {
      row_set_error (row, error);
      return;
    }
  row_finish (row, s->batch, s->x, times, spec->reps, s->precision, triad_gbs);
  row->layout_ms = ks_bench_median (layout, spec->reps);
}

/* Each row of the case against cuSPARSE's reference for it. */
static void
compare_with_cusparse (GPtrArray *rows,
                       guint      first,
                       gboolean   one_system)
{
  const KsTridiagMethod reference = one_system ? KS_TRIDIAG_CUSPARSE_NOPIVOT : KS_TRIDIAG_CUSPARSE_STRIDED;
  double ref_ms = 0;

  for (guint i = first; i < rows->len; i++)
    {
      const KsBenchTridiagRow *r = rows->pdata[i];
      if (r->method == reference && r->skipped == NULL)
        ref_ms = r->ms;
    }
  for (guint i = first; i < rows->len && ref_ms > 0; i++)
    {
      KsBenchTridiagRow *r = rows->pdata[i];
      if (r->skipped == NULL)
        r->vs_cusparse = r->ms / ref_ms;
    }
}

static void
run_case (GPtrArray                *rows,
          const KsBenchTridiagSpec *spec,
          BenchDevice              *devices,
          guint                     n_devices,
          const KsTridiagBatch     *batch,
          gboolean                  one_system,
          double                   *x)
{
  const guint first = rows->len;
  Solve s = { batch, 0, spec->precision, NULL, NULL, x, NULL, 0, 0 };

  for (KsTridiagMethod m = KS_TRIDIAG_CPU_THOMAS; m <= KS_TRIDIAG_LAPACK_GTSV && !spec->no_host; m++)
    if (selected (spec, m))
      {
        s.method = m;
        run_method (rows, spec, one_system, &s, solve_host, "host", 0);
      }
  for (guint d = 0; d < n_devices; d++)
    {
      BenchDevice *bd = &devices[d];

      s.device = bd->device;
      for (KsTridiagMethod m = 0; m < KS_TRIDIAG_N_METHODS; m++)
        {
          const gboolean cusparse = ks_tridiag_method_is_cusparse (m);

          if (!selected (spec, m) || ks_tridiag_method_is_host (m) ||
              (cusparse && ks_device_get_backend (bd->device) != KS_BACKEND_CUDA) ||
              (m == KS_TRIDIAG_CUSPARSE_NOPIVOT && batch->systems > 1))
            continue;
          s.method = m;
          s.solver = cusparse ? NULL : bd->solver;
          if (one_system && one_system_serial (m))
            {
              KsBenchTridiagRow *row = add_row (rows, batch, one_system, m, bd->name);
              row->skipped = g_strdup (_("one system runs on one work-item or work-group of this method: left out "
                                         "(run tridiag-large measures it)"));
              continue;
            }
          if (!cusparse && bd->solver == NULL)
            {
              KsBenchTridiagRow *row = add_row (rows, batch, one_system, m, bd->name);
              row->skipped = g_strdup (bd->why);
              continue;
            }
          run_method (rows, spec, one_system, &s, cusparse ? solve_cusparse : solve_kernel, bd->name, bd->triad_gbs);
        }
      /* Nothing of this case stays on the device for the next. */
      if (bd->solver)
        ks_tridiag_solver_release (bd->solver);
      ks_cusparse_release ();
    }
  compare_with_cusparse (rows, first, one_system);
}

/* The devices the kernels run on, each with its triad bandwidth. */
static BenchDevice *
open_devices (KsDeviceList             *list,
              const KsBenchTridiagSpec *spec,
              guint                    *n_out)
{
  const guint n = ks_device_list_get_n_devices (list);
  BenchDevice *devices = g_new0 (BenchDevice, n);
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
      if (!(bd->solver = ks_tridiag_solver_new (device, spec->precision, &error)))
        bd->why = g_strdup (error->message);
      k++;
    }
  *n_out = k;
  return devices;
}

GPtrArray *
ks_bench_tridiag (KsDeviceList              *list,
                  const KsBenchTridiagSpec  *spec,
                  GError                   **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_bench_tridiag_row_free);
  BenchDevice *devices;
  guint n_devices;
  gboolean ok = TRUE;

  g_return_val_if_fail (KS_IS_DEVICE_LIST (list) && spec != NULL, NULL);
  g_return_val_if_fail (spec->reps >= 1 && spec->reps <= KS_BENCH_MAX_REPS, NULL);

  devices = open_devices (list, spec, &n_devices);
  for (guint c = 0; c <= spec->n_systems && ok; c++)
    {
      const gboolean one_system = c == spec->n_systems;
      const guint n = one_system ? spec->large_n : spec->n;
      const guint systems = one_system ? 1 : spec->systems[c];
      g_autoptr(KsTridiagBatch) batch = NULL;
      g_autofree double *x = NULL;

      if (n == 0)
        continue;
      if (!(batch = ks_tridiag_batch_new (n, systems, error)))
        {
          ok = FALSE;
          break;
        }
      ks_tridiag_batch_fill_random (batch, BENCH_SEED);
      x = g_new0 (double, (gsize) n * systems);
      run_case (rows, spec, devices, n_devices, batch, one_system, x);
    }
  for (guint i = 0; i < n_devices; i++)
    bench_device_clear (&devices[i]);
  g_free (devices);
  return ok ? g_steal_pointer (&rows) : NULL;
}

gboolean
ks_bench_tridiag_write_csv (GPtrArray   *rows,
                            const char  *path,
                            GError     **error)
{
  g_autoptr(GString) s = g_string_new ("case,n,systems,method,device,ms,residual,gbs,triad_gbs,of_triad,"
                                       "vs_cusparse,skipped\n");

  g_return_val_if_fail (rows != NULL && path != NULL, FALSE);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchTridiagRow *r = rows->pdata[i];
      char b[6][G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *device = g_strdup (r->device);
      g_autofree char *skipped = g_strdup (r->skipped ? r->skipped : "");

      /* Commas and quotes would break the row: a reason is prose. */
      g_strdelimit (device, ",\"", ';');
      g_strdelimit (skipped, ",\"\n", ';');
      g_string_append_printf (s, "%s,%u,%u,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r->one_system ? "one-system" : "batch", r->n,
                              r->systems, ks_tridiag_method_to_string (r->method), device,
                              g_ascii_dtostr (b[0], sizeof b[0], r->ms), g_ascii_dtostr (b[1], sizeof b[1], r->residual),
                              g_ascii_dtostr (b[2], sizeof b[2], r->gbs), g_ascii_dtostr (b[3], sizeof b[3], r->triad_gbs),
                              g_ascii_dtostr (b[4], sizeof b[4], r->of_triad),
                              g_ascii_dtostr (b[5], sizeof b[5], r->vs_cusparse), skipped);
    }
  return ks_io_write_file (path, s->str, (gssize) s->len, error);
}

/* A measured number, or null where there is none (no triad, no cuSPARSE). */
static void
add_number (JsonBuilder *b,
            const char  *name,
            double       v,
            gboolean     known)
{
  json_builder_set_member_name (b, name);
  if (known && isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

gboolean
ks_bench_tridiag_write_json (GPtrArray                *rows,
                             const KsBenchTridiagSpec *spec,
                             const char               *command,
                             const char               *path,
                             GError                  **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (rows != NULL && spec != NULL && path != NULL, FALSE);

  json_builder_begin_object (b);
  ks_bench_json_begin (b, "bench-tridiag", command, spec->precision, spec->warmup, spec->reps);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchTridiagRow *r = rows->pdata[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "case");
      json_builder_add_string_value (b, r->one_system ? "one-system" : "batch");
      json_builder_set_member_name (b, "n");
      json_builder_add_int_value (b, r->n);
      json_builder_set_member_name (b, "systems");
      json_builder_add_int_value (b, r->systems);
      json_builder_set_member_name (b, "method");
      json_builder_add_string_value (b, ks_tridiag_method_to_string (r->method));
      json_builder_set_member_name (b, "device");
      json_builder_add_string_value (b, r->device);
      json_builder_set_member_name (b, "skipped");
      json_builder_add_string_value (b, r->skipped);
      json_builder_set_member_name (b, "failed");
      json_builder_add_boolean_value (b, r->failed);
      if (r->skipped == NULL)
        {
          add_number (b, "ms", r->ms, TRUE);
          add_number (b, "residual", r->residual, TRUE);
          add_number (b, "gbs", r->gbs, TRUE);
          add_number (b, "triad_gbs", r->triad_gbs, r->triad_gbs > 0);
          add_number (b, "of_triad", r->of_triad, r->triad_gbs > 0);
          add_number (b, "vs_cusparse", r->vs_cusparse, r->vs_cusparse > 0);
          add_number (b, "layout_ms", r->layout_ms, TRUE);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  return ks_bench_json_write (b, path, error);
}
