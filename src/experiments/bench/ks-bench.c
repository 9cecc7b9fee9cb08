/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-bench"

#include "ks-bench.h"
#include "ks-bench-probes.h"
#include "ks-io-file.h"
#include "ks-compute-error.h"
#include "ks-lapack.h"

#ifdef KS_HAVE_CUDA
#include "ks-cusolver.h"
#endif

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static const char *method_names[KS_BENCH_N_METHODS] = {
  "kernels, OpenCL GPU", "kernels, CUDA", "kernels, CUDA (graph)", "cuSOLVER getrf+getrs", "LAPACK getrf+getrs (host)", "kernels, PoCL CPU",
  "blocked, OpenCL GPU", "blocked, CUDA", "blocked, PoCL CPU",
};

const char *
ks_bench_method_to_string (KsBenchMethod method)
{
  g_return_val_if_fail (method < KS_BENCH_N_METHODS, NULL);
  return method_names[method];
}

void
ks_bench_row_free (KsBenchRow *row)
{
  if (row == NULL)
    return;
  g_free (row->device);
  g_free (row->skipped);
  g_free (row);
}

/* The row whose solver (and device) a row borrows: the graph and blocked
 * rows run the paper's rows' solvers in another launch mode; itself for the
 * others. */
static KsBenchMethod
base_method (KsBenchMethod method)
{
  switch (method)
    {
    case KS_BENCH_CUDA_GRAPH:
    case KS_BENCH_CUDA_BLOCKED:        return KS_BENCH_CUDA;
    case KS_BENCH_OPENCL_GPU_BLOCKED:  return KS_BENCH_OPENCL_GPU;
    case KS_BENCH_OPENCL_CPU_BLOCKED:  return KS_BENCH_OPENCL_CPU;
    default:                           return method;
    }
}

static KsLaunchMode
launch_mode (KsBenchMethod method)
{
  return method == KS_BENCH_CUDA_GRAPH ? KS_LAUNCH_GRAPH
       : base_method (method) != method ? KS_LAUNCH_BLOCKED : KS_LAUNCH_STREAM;
}

/* The device each method runs on, or NULL with the reason. */
static KsDevice *
find_device (KsDeviceList  *list,
             KsBenchMethod  method,
             char         **why)
{
  KsBackend backend = (method = base_method (method)) == KS_BENCH_CUDA ||
                      method == KS_BENCH_CUSOLVER ? KS_BACKEND_CUDA
                    : method == KS_BENCH_LAPACK ? KS_BACKEND_HOST : KS_BACKEND_OPENCL;
  KsDeviceType type = method == KS_BENCH_OPENCL_CPU || method == KS_BENCH_LAPACK ? KS_DEVICE_TYPE_CPU
                                                                                 : KS_DEVICE_TYPE_GPU;

  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      KsDevice *d = ks_device_list_get_device (list, i);
      if (ks_device_get_backend (d) == backend && ks_device_get_info (d)->type == type)
        return d;
    }

  if (backend == KS_BACKEND_CUDA)
    {
      for (const char * const *n = ks_device_list_get_notes (list); *n; n++)
        if (g_str_has_prefix (*n, "CUDA:"))
          {
            *why = g_strdup (*n);
            return NULL;
          }
    }
  *why = g_strdup (method == KS_BENCH_OPENCL_GPU ? "no OpenCL GPU on this machine"
                                                 : "no OpenCL CPU device (install pocl-opencl-icd)");
  return NULL;
}

typedef struct {
  KsBenchMethod  method;
  KsDevice      *device;
  KsGaussSolver *solver;     /* kernel methods */
  gboolean       borrowed;   /* the graph and blocked rows' solvers are their base rows' */
  char          *skipped;    /* set once: every size gets the same reason */
} Method;

static void
method_clear (Method *m)
{
  if (m->borrowed)
    m->solver = NULL;
  g_clear_pointer (&m->solver, ks_gauss_solver_free);
  g_clear_pointer (&m->skipped, g_free);
}

static gboolean
is_kernel_method (KsBenchMethod method)
{
  method = base_method (method);
  return method == KS_BENCH_OPENCL_GPU || method == KS_BENCH_CUDA || method == KS_BENCH_OPENCL_CPU;
}

/* base: the row whose solver m borrows (base_method), prepared before it. */
static void
method_prepare (Method            *m,
                const Method      *base,
                KsDeviceList      *list,
                const KsBenchSpec *spec)
{
  g_autoptr(GError) error = NULL;

  if (m->method == KS_BENCH_LAPACK && !ks_lapack_available (&error))
    {
      m->skipped = g_strdup (error->message);
      return;
    }
#ifndef KS_HAVE_CUDA
  if (base_method (m->method) == KS_BENCH_CUDA || m->method == KS_BENCH_CUSOLVER)
    {
      m->skipped = g_strdup ("CUDA is not built into this binary (meson option cuda)");
      return;
    }
#endif
  if (!(m->device = find_device (list, m->method, &m->skipped)))
    return;
#ifdef KS_HAVE_CUDA
  /* A CUDA driver without the toolkit's cuSOLVER: skipped, with the
   * library it looked for, not a failure at the first solve. */
  if (m->method == KS_BENCH_CUSOLVER && !ks_cusolver_dense_available (&error))
    {
      m->skipped = g_strdup (error->message);
      return;
    }
#endif
  if (!is_kernel_method (m->method))
    return;
  /* One solver per device: two would keep two copies of the matrix on
   * the one GPU, and one solver serves every launch mode. */
  if (base_method (m->method) != m->method)
    {
      if (base->solver == NULL)
        m->skipped = g_strdup (base->skipped ? base->skipped : "the paper's row on this device did not run");
      else
        {
          m->solver = base->solver;
          m->borrowed = TRUE;
        }
      return;
    }
  if (!(m->solver = ks_gauss_solver_new (m->device, spec->precision, &error)))
    {
      m->skipped = g_strdup (error->message);
      return;
    }
  if (spec->measure_bandwidth)
    {
      KsBandwidth bw;
      /* A bandwidth that cannot be measured leaves the fraction blank; the times still count. */
      if (!ks_bench_bandwidth (m->device, 0, 10, &bw, &error))
        g_warning ("Bandwidth of %s not measured: %s", ks_device_get_name (m->device), error->message);
    }
}

/* One solve by method m; fills wall, device and fwd times, the residual. */
static gboolean
solve_once (Method               *m,
            const KsLinearSystem *sys,
            KsPrecision           precision,
            double               *x,
            KsBenchRow           *r,
            GError              **error)
{
  switch (m->method)
    {
    case KS_BENCH_OPENCL_GPU:
    case KS_BENCH_CUDA:
    case KS_BENCH_CUDA_GRAPH:
    case KS_BENCH_OPENCL_CPU:
    case KS_BENCH_OPENCL_GPU_BLOCKED:
    case KS_BENCH_CUDA_BLOCKED:
    case KS_BENCH_OPENCL_CPU_BLOCKED:
      {
        const KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, launch_mode (m->method) };
        KsGaussResult res;

        if (!ks_gauss_solver_solve (m->solver, sys, &params, NULL, x, &res, error))
          return FALSE;
        r->wall_ms = res.wall_ms;
        r->device_ms = res.kernels_total_ms;
        r->capture_ms = res.capture_ms;
        r->fwd_ms = res.kernel_ms[KS_GAUSS_FWD];
        r->fwd_local[0] = res.fwd_local[0];
        r->fwd_local[1] = res.fwd_local[1];
        return TRUE;
      }
    case KS_BENCH_CUSOLVER:
#ifdef KS_HAVE_CUDA
      return ks_cusolver_dense_solve (m->device, precision == KS_PRECISION_DOUBLE, sys->n, sys->a, sys->b,
                                  x, &r->device_ms, &r->wall_ms, error);
#else
      break;
#endif
    case KS_BENCH_LAPACK:
      return ks_lapack_dense_solve (precision == KS_PRECISION_DOUBLE, sys->n, sys->a, sys->b, x,
                                    &r->wall_ms, error);
    default:
      break;
    }
  g_assert_not_reached ();
  return FALSE;
}

/* What one method keeps on the device goes once its size is measured:
 * the next method may be on the same GPU and need the room. */
static void
method_release (Method *m)
{
  if (m->solver)
    ks_gauss_solver_release_buffers (m->solver);
#ifdef KS_HAVE_CUDA
  if (m->method == KS_BENCH_CUSOLVER && m->device)
    ks_cusolver_dense_release ();
#endif
}

/* The graph row's update-kernel time: a graph recorded with an event pair
 * around each launch (event nodes, so no host between the kernels), one
 * replay to record it and reps timed ones.  Its replays are slower by the
 * event nodes, so the row's wall and device times come from the plain
 * graph; only fwd comes from this one.  The stream row's pairs, recorded
 * between launches by the host, also hold the launch gap whenever the host
 * is slower than the GPU; inside a graph they hold only the device's own
 * latency (on the H200 the gap was 3-7 % of gauss_fwd's brackets at
 * n = 1000 and 2000). */
static void
graph_kernel_pass (Method               *m,
                   const KsLinearSystem *sys,
                   const KsBenchSpec    *spec,
                   double               *fwd,
                   KsBenchRow           *row)
{
  const guint reps = MAX (spec->reps, 1);
  const KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_GRAPH };
  g_autofree double *x = g_new0 (double, sys->n);
  g_autoptr(GError) error = NULL;

  ks_gauss_solver_set_graph_kernel_timing (m->solver, TRUE);
  for (guint r = 0; r < 1 + reps; r++)
    {
      KsGaussResult res;

      if (!ks_gauss_solver_solve (m->solver, sys, &params, NULL, x, &res, &error))
        {
          row->skipped = g_strdup_printf ("failed: %s", error->message);
          row->failed = TRUE;
          break;
        }
      if (r > 0)
        fwd[r - 1] = res.kernel_ms[KS_GAUSS_FWD];
    }
  ks_gauss_solver_set_graph_kernel_timing (m->solver, FALSE);
}

/* warm-up + reps solves, then for the kernel methods reps more; medians of
 * the times, the residual of the last solve.  A stream of kernels timed by events pays
 * for the events too (a CUDA event pair is ~1-2 us a launch, ~4n launches a
 * solve), which a graph replay, timed as a whole, does not: so the kernel
 * methods' wall times come from untimed solves, and their device times from
 * a second, timed pass. */
static void
measure (Method               *m,
         const KsLinearSystem *sys,
         const KsBenchSpec    *spec,
         KsBenchRow           *row)
{
  const guint reps = MAX (spec->reps, 1);
  const gboolean two_passes = m->solver != NULL;
  g_autofree double *wall = g_new0 (double, reps);
  g_autofree double *dev = g_new0 (double, reps);
  g_autofree double *fwd = g_new0 (double, reps);
  g_autofree double *x = g_new0 (double, sys->n);
  g_autoptr(GError) error = NULL;
  const guint total = spec->warmup + reps + (two_passes ? reps : 0);

  for (guint r = 0; r < total; r++)
    {
      KsBenchRow once = { 0 };
      const gboolean timed_pass = two_passes && r >= spec->warmup + reps;
      const guint i = timed_pass ? r - spec->warmup - reps : r - spec->warmup;

      if (two_passes)
        ks_gauss_solver_set_timing (m->solver, timed_pass || !two_passes);
      if (!solve_once (m, sys, spec->precision, x, &once, &error))
        {
          /* What this method cannot do at this size (n > 65535 on CUDA, a
           * matrix larger than the device's memory) is skipped with the
           * reason; anything else (a lost device, a singular matrix) failed. */
          if (g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED)
              || g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY))
            row->skipped = g_strdup (error->message);
          else
            {
              row->skipped = g_strdup_printf ("failed: %s", error->message);
              row->failed = TRUE;
            }
          break;
        }
      /* The graph is recorded by the first solve, warm-up or not. */
      row->capture_ms = MAX (row->capture_ms, once.capture_ms);
      if (r < spec->warmup)
        continue;
      if (!two_passes || !timed_pass)
        wall[i] = once.wall_ms;
      if (!two_passes || timed_pass)
        {
          dev[i] = once.device_ms;
          fwd[i] = once.fwd_ms;
          row->fwd_local[0] = once.fwd_local[0];
          row->fwd_local[1] = once.fwd_local[1];
        }
    }
  /* The residual of the last solve, once the clock has stopped for good: it
   * is an OpenMP loop, whose threads spin on after it and fought OpenBLAS's
   * for the cores when it ran between timed solves (LAPACK at n = 100 read
   * 8.4 ms instead of 0.05 on two cores). */
  if (!row->skipped)
    row->residual = ks_linear_system_residual (sys, x);
  if (two_passes)
    ks_gauss_solver_set_timing (m->solver, TRUE);
  if (!row->skipped && m->method == KS_BENCH_CUDA_GRAPH)
    graph_kernel_pass (m, sys, spec, fwd, row);
  method_release (m);
  if (row->skipped)
    return;
  row->wall_ms = ks_bench_median (wall, reps);
  row->device_ms = ks_bench_median (dev, reps);
  row->fwd_ms = ks_bench_median (fwd, reps);
  if (is_kernel_method (m->method) && row->fwd_ms > 0)
    {
      row->fwd_gbs = ks_bench_gauss_fwd_bytes (sys->n, spec->precision) / (row->fwd_ms * 1e6);
      row->bandwidth_gbs = ks_device_get_info (m->device)->bandwidth_gbs;
      row->fraction = row->bandwidth_gbs > 0 ? row->fwd_gbs / row->bandwidth_gbs : 0.0;
    }
}

/* One reference for the whole run, chosen before anything is measured:
 * cuSOLVER where it can run, else LAPACK.  A size the reference could not
 * do has no ratios, rather than ratios against something else. */
static int
choose_reference (const Method *methods)
{
  if (methods[KS_BENCH_CUSOLVER].device && !methods[KS_BENCH_CUSOLVER].skipped)
    return KS_BENCH_CUSOLVER;
  if (!methods[KS_BENCH_LAPACK].skipped)
    return KS_BENCH_LAPACK;
  return -1;
}

static void
fill_ratios (KsBenchRow **rows,
             int          reference)
{
  const KsBenchRow *ref = reference >= 0 && !rows[reference]->skipped ? rows[reference] : NULL;

  for (guint i = 0; i < KS_BENCH_N_METHODS; i++)
    {
      rows[i]->reference = reference;
      if (ref && !rows[i]->skipped && ref->wall_ms > 0)
        rows[i]->ratio = rows[i]->wall_ms / ref->wall_ms;
    }
}

GPtrArray *
ks_bench_gauss (KsDeviceList      *list,
                const guint       *sizes,
                guint              n_sizes,
                const KsBenchSpec *spec,
                GError           **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_bench_row_free);
  Method methods[KS_BENCH_N_METHODS] = { 0 };
  gboolean ok = TRUE;

  g_return_val_if_fail (KS_IS_DEVICE_LIST (list), NULL);
  g_return_val_if_fail (sizes != NULL && spec != NULL, NULL);

  int reference;

  for (guint i = 0; i < KS_BENCH_N_METHODS; i++)
    {
      methods[i].method = i;
      method_prepare (&methods[i], &methods[base_method (i)], list, spec);
    }
  reference = choose_reference (methods);

  for (guint s = 0; s < n_sizes && ok; s++)
    {
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (sizes[s], spec->seed, error);
      KsBenchRow *size_rows[KS_BENCH_N_METHODS];

      if (sys == NULL)
        {
          ok = FALSE;
          break;
        }
      for (guint i = 0; i < KS_BENCH_N_METHODS; i++)
        {
          KsBenchRow *row = g_new0 (KsBenchRow, 1);

          row->method = i;
          row->n = sizes[s];
          if (methods[i].device)
            row->device = g_strdup_printf ("%s (%s)", ks_device_get_name (methods[i].device),
                                           ks_device_get_id (methods[i].device));
          if (methods[i].skipped)
            row->skipped = g_strdup (methods[i].skipped);
          else
            measure (&methods[i], sys, spec, row);
          size_rows[i] = row;
          g_ptr_array_add (rows, row);
        }
      fill_ratios (size_rows, reference);
    }

  for (guint i = 0; i < KS_BENCH_N_METHODS; i++)
    method_clear (&methods[i]);
  return ok ? g_steal_pointer (&rows) : NULL;
}

gboolean
ks_bench_write_csv (GPtrArray   *rows,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(GString) s = g_string_new ("n,method,device,wall_ms,device_ms,ratio,residual,fwd_ms,fwd_gbs,"
                                       "bandwidth_gbs,fraction,fwd_local0,fwd_local1,capture_ms,skipped,ratio_to\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchRow *r = g_ptr_array_index (rows, i);
      g_autofree char *device = g_strdup (r->device ? r->device : "");
      g_autofree char *skipped = g_strdup (r->skipped ? r->skipped : "");

      /* Quotes in free text would break the quoting. */
      g_strdelimit (device, "\"", '\'');
      g_strdelimit (skipped, "\"\n", '\'');
      g_string_append_printf (s, "%u,\"%s\",\"%s\",%.6g,%.6g,%.6g,%.3e,%.6g,%.6g,%.6g,%.4f,%u,%u,%.6g,\"%s\",\"%s\"\n",
                              r->n, ks_bench_method_to_string (r->method), device, r->wall_ms, r->device_ms,
                              r->ratio, r->residual, r->fwd_ms, r->fwd_gbs, r->bandwidth_gbs, r->fraction,
                              r->fwd_local[0], r->fwd_local[1], r->capture_ms, skipped,
                              r->reference >= 0 && r->ratio > 0 ? ks_bench_method_to_string (r->reference) : "");
    }
  /* The C locale's decimal point, whatever the user's. */
  return ks_io_write_file (path, s->str, s->len, error);
}

gboolean
ks_bench_write_json (GPtrArray         *rows,
                     const KsBenchSpec *spec,
                     const char        *command,
                     const char        *path,
                     GError           **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  ks_bench_json_begin (b, "bench-gauss", command, spec->precision, spec->warmup, spec->reps);
  json_builder_set_member_name (b, "seed");
  json_builder_add_int_value (b, spec->seed);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const KsBenchRow *r = g_ptr_array_index (rows, i);

      json_builder_begin_object (b);
#define NUM(k, v) do { json_builder_set_member_name (b, k); json_builder_add_double_value (b, v); } while (0)
      json_builder_set_member_name (b, "n");
      json_builder_add_int_value (b, r->n);
      json_builder_set_member_name (b, "method");
      json_builder_add_string_value (b, ks_bench_method_to_string (r->method));
      json_builder_set_member_name (b, "device");
      json_builder_add_string_value (b, r->device);
      json_builder_set_member_name (b, "skipped");
      json_builder_add_string_value (b, r->skipped);
      json_builder_set_member_name (b, "failed");
      json_builder_add_boolean_value (b, r->failed);
      if (!r->skipped)
        {
          NUM ("wall_ms", r->wall_ms);
          /* The host has no device time: null, not 0. */
          if (r->method == KS_BENCH_LAPACK)
            {
              json_builder_set_member_name (b, "device_ms");
              json_builder_add_null_value (b);
            }
          else
            NUM ("device_ms", r->device_ms);
          NUM ("ratio", r->ratio);
          json_builder_set_member_name (b, "ratio_to");
          if (r->reference >= 0 && r->ratio > 0)
            json_builder_add_string_value (b, ks_bench_method_to_string (r->reference));
          else
            json_builder_add_null_value (b);
          NUM ("residual", r->residual);
          NUM ("fwd_ms", r->fwd_ms);
          NUM ("fwd_gbs", r->fwd_gbs);
          NUM ("bandwidth_gbs", r->bandwidth_gbs);
          NUM ("fraction", r->fraction);
          if (r->method == KS_BENCH_CUDA_GRAPH)
            NUM ("capture_ms", r->capture_ms);
        }
#undef NUM
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  return ks_bench_json_write (b, path, error);
}

void
ks_bench_json_begin (JsonBuilder *b,
                     const char  *experiment,
                     const char  *command,
                     KsPrecision  precision,
                     guint        warmup,
                     guint        reps)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *date = g_date_time_format_iso8601 (now);

  g_return_if_fail (JSON_IS_BUILDER (b) && experiment != NULL);

  json_builder_set_member_name (b, "format");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "experiment");
  json_builder_add_string_value (b, experiment);
  json_builder_set_member_name (b, "date");
  json_builder_add_string_value (b, date);
  json_builder_set_member_name (b, "command");
  json_builder_add_string_value (b, command ? command : "");
  json_builder_set_member_name (b, "precision");
  json_builder_add_string_value (b, ks_precision_to_string (precision));
  json_builder_set_member_name (b, "warmup");
  json_builder_add_int_value (b, warmup);
  json_builder_set_member_name (b, "reps");
  json_builder_add_int_value (b, reps);
}

gboolean
ks_bench_json_write (JsonBuilder *b,
                     const char  *path,
                     GError     **error)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (JSON_IS_BUILDER (b) && path != NULL, FALSE);

  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_file (gen, path, error);
}
