/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli solve gauss / run gauss-size / run gauss-wg. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-compute-error.h"
#include "ks-eta.h"
#include "ks-experiment.h"
#include "ks-gauss.h"
#include "ks-kernel-source.h"
#include "ks-mtx.h"
#include "ks-ogs.h"
#include "ks-results-plot.h"

#include <glib-unix.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The options every Gauss command shares. */
typedef struct {
  char    *device;
  char    *precision;
  char    *range;
  char    *local;
  int      wg;
  int      cores_per_cu;
  char    *kernel_dir;
  int      seed;
  gboolean quiet;
  gboolean graph;
  gboolean graph_kernel_times;
  KsPrecision   p;
  KsRangePolicy r;
  KsLocalPolicy l;
} CommonOptions;

static void
add_common_entries (GOptionContext *context,
                    CommonOptions  *o)
{
  const GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device,
      "Device: an id (opencl:0:0, host), an index from \"devices\", or part of its name (pocl, H200). "
      "Default: the first GPU, else the CPU through PoCL, else the host", "DEVICE" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &o->precision,
      "float (the paper's) or double (needs fp64). Default: float", "float|double" },
    { "range", 0, 0, G_OPTION_ARG_STRING, &o->range,
      "Global range: fixed (the whole matrix every step, the paper's runs) or shrinking. Default: fixed",
      "fixed|shrinking" },
    { "local", 'l', 0, G_OPTION_ARG_STRING, &o->local,
      "Work-group size: driver (NULL local size, the driver chooses), explicit (--wg, range padded "
      "up to a multiple of it) or split (a multiple of --wg plus a remainder launch)",
      "driver|explicit|split" },
    { "wg", 'w', 0, G_OPTION_ARG_INT, &o->wg,
      "Work-group size for explicit and split. Default: the paper's predicted optimum for the device", "N" },
    { "cores-per-cu", 0, 0, G_OPTION_ARG_INT, &o->cores_per_cu,
      "Cores per compute unit for the optimal-group rule, when the built-in table is wrong or silent", "N" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &o->seed,
      "Seed of the generated systems (the same seed gives the same matrices everywhere). Default: 1", "N" },
    { "kernel-dir", 0, 0, G_OPTION_ARG_FILENAME, &o->kernel_dir,
      "Load kernels/*.cl from DIR (an edited copy) instead of the built-in sources", "DIR" },
    { "graph", 0, 0, G_OPTION_ARG_NONE, &o->graph,
      "CUDA devices only: record the solve's ~4n launches into a CUDA graph on the first solve of a "
      "system and replay it with one call after (the capture is timed apart, as capture ms). Inside a "
      "graph the kernels cannot be timed one by one: the device time is the replay's. OpenCL and the "
      "host refuse it", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "No progress on stderr", NULL },
    { NULL }
  };
  /* In the main group, so plain --help shows them. */
  g_option_context_add_main_entries (context, entries, NULL);
}

static void
common_clear (CommonOptions *o)
{
  g_free (o->device);
  g_free (o->precision);
  g_free (o->range);
  g_free (o->local);
  g_free (o->kernel_dir);
}

static gboolean
common_validate (CommonOptions *o,
                 GError       **error)
{
  o->p = KS_PRECISION_FLOAT;
  o->r = KS_RANGE_FIXED;
  o->l = KS_LOCAL_DRIVER;

  if (o->precision && !ks_precision_from_string (o->precision, &o->p))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--precision must be float or double, not \"%s\"", o->precision);
      return FALSE;
    }
  if (o->range && !ks_range_policy_from_string (o->range, &o->r))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--range must be fixed or shrinking, not \"%s\"", o->range);
      return FALSE;
    }
  if (o->local && !ks_local_policy_from_string (o->local, &o->l))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--local must be driver, explicit or split, not \"%s\"", o->local);
      return FALSE;
    }
  if (o->wg < 0 || o->cores_per_cu < 0 || o->seed < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--wg, --cores-per-cu and --seed must not be negative");
      return FALSE;
    }
  if (o->kernel_dir)
    ks_kernel_source_set_dir (o->kernel_dir);
  return TRUE;
}

/* --wg not given: the paper's rule on this device, said out loud. */
static guint
default_wg (KsDevice *device,
            gboolean  quiet)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  KsOgsPrediction p;

  if (ks_ogs_predict (info->preferred_multiple, ks_device_get_cores_per_cu (device),
                      info->compute_units, info->max_work_group_size, &p))
    {
      if (!quiet)
        g_printerr ("Work-group size: %" G_GUINT64_FORMAT ", the paper's predicted optimum (no --wg given)\n",
                    p.usable);
      return (guint) p.usable;
    }
  if (!quiet)
    g_printerr ("Work-group size: %" G_GSIZE_FORMAT ", the preferred multiple "
                "(no --wg given, and the optimum cannot be predicted here)\n",
                MAX (info->preferred_multiple, 1));
  return (guint) MAX (info->preferred_multiple, 1);
}

static int
status_for (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return KS_CLI_CANCELLED;
  if (error && error->domain == G_OPTION_ERROR)
    return KS_CLI_USAGE;
  return KS_CLI_FAILED;
}

/* --- solve gauss ----------------------------------------------------------- */

int
ks_cli_solve (int    argc,
              char **argv)
{
  CommonOptions o = { 0 };
  int n = 500;
  char *matrix = NULL, *rhs = NULL, *out = NULL, *json_path = NULL;
  const GOptionEntry entries[] = {
    { "n", 'n', 0, G_OPTION_ARG_INT, &n, "Size of the generated system (diagonally dominant, seeded). Default: 500", "N" },
    { "matrix", 'A', 0, G_OPTION_ARG_FILENAME, &matrix, "Solve the system of this Matrix Market file instead", "A.mtx" },
    { "rhs", 'b', 0, G_OPTION_ARG_FILENAME, &rhs, "Right-hand side for --matrix (an n x 1 Matrix Market file)", "b.mtx" },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Write the solution x to a Matrix Market file", "x.mtx" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "Write the timings and the residual as JSON", "FILE" },
    { "kernel-times", 0, 0, G_OPTION_ARG_NONE, &o.graph_kernel_times,
      "With --graph: record an event pair around each launch as nodes of the graph, so the replay also "
      "gives each kernel's device time, with no host between the kernels (the event nodes slow the "
      "replay a little)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("gauss - solve one system with the paper's Gauss kernels");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsLinearSystem) sys = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autofree double *x = NULL;
  KsGaussParams params;
  KsGaussResult r;
  KsDevice *device;
  int status = KS_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  add_common_entries (context, &o);
  g_option_context_set_description (context,
    "Solves A x = b by Gauss elimination without pivoting, in the four kernels of the paper\n"
    "(gauss_fwd_pre, gauss_fwd, gauss_bwd_prepare, gauss_bwd), and reports the time of each\n"
    "kernel, the work-group the driver ran the update kernel with, and ||Ax-b||/||b||.\n"
    "With --graph (CUDA) the solve records its launches into a CUDA graph and replays it: the\n"
    "recording (capture + instantiate) is reported on its own, the replay's time as the solve's.\n"
    "Examples:\n"
    "  kernelscope-cli solve gauss -n 1000 --local split --wg 192\n"
    "  kernelscope-cli solve gauss -d cuda:0 -n 1000 --graph");

  if (!g_option_context_parse (context, &argc, &argv, &error) || !common_validate (&o, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (o.graph_kernel_times && !o.graph)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--kernel-times times the kernels inside a CUDA graph: it needs --graph "
                           "(without it every kernel is timed anyway)");
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (argc < 2 || strcmp (argv[1], "gauss") != 0)
    {
      g_printerr ("kernelscope-cli: solve needs a method: \"solve gauss\"\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  if ((matrix == NULL) != (rhs == NULL))
    {
      g_printerr ("kernelscope-cli: --matrix and --rhs go together\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  if (matrix == NULL && n < 2)
    {
      g_printerr ("kernelscope-cli: -n must be at least 2\n");
      status = KS_CLI_USAGE;
      goto out;
    }

  list = ks_device_list_new ();
  if (!(device = ks_cli_pick_device (list, o.device, o.cores_per_cu, o.quiet, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  /* Before the kernels are built: --graph on a device without graphs is refused outright. */
  if (!ks_gauss_check_launch (device, o.graph ? KS_LAUNCH_GRAPH : KS_LAUNCH_STREAM, &error) ||
      !(solver = ks_gauss_solver_new (device, o.p, &error)))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }

  params.range = o.r;
  params.local = o.l;
  params.launch = o.graph ? KS_LAUNCH_GRAPH : KS_LAUNCH_STREAM;
  ks_gauss_solver_set_graph_kernel_timing (solver, o.graph && o.graph_kernel_times);
  params.wg = o.wg > 0 ? (guint) o.wg : (o.l == KS_LOCAL_DRIVER ? 0 : default_wg (device, o.quiet));

  /* A generated system is checked against the device before it is built. */
  if (matrix == NULL && !ks_gauss_solver_check (solver, (guint) n, &params, &error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }
  if (matrix)
    sys = ks_linear_system_new_from_mtx (matrix, rhs, 0, &error);
  else
    sys = ks_linear_system_new_random ((guint) n, o.seed ? (guint32) o.seed : 1, &error);
  if (sys == NULL)
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }

  x = g_new0 (double, sys->n);
  if (!ks_gauss_solver_solve (solver, sys, &params, NULL, x, &r, &error))
    {
      status = ks_cli_fail (status_for (error), error);
      goto out;
    }

  g_print ("System: n = %u, %s, %s\n", sys->n,
           matrix ? matrix : "generated (diagonally dominant)", ks_precision_to_string (o.p));
  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    {
      g_print ("Method: host reference (plain C + OpenMP); range and work-group policies do not apply\n");
      g_print ("Time: %.3f ms (forward %.3f ms, backward %.3f ms)\n", r.wall_ms,
               r.kernel_ms[KS_GAUSS_FWD], r.kernel_ms[KS_GAUSS_BWD]);
    }
  else
    {
      g_print ("Policy: %s range, %s work-group size", ks_range_policy_to_string (o.r),
               ks_local_policy_to_string (o.l));
      if (o.l != KS_LOCAL_DRIVER)
        g_print (" %u", params.wg);
      g_print ("\n");
      g_print ("Update kernel gauss_fwd ran with work-groups of (%u, %u), %u x %u groups, at step 0%s\n",
               r.fwd_local[0], r.fwd_local[1], r.fwd_groups[0], r.fwd_groups[1],
               o.l == KS_LOCAL_DRIVER ? " (the driver's choice)" : "");
      if (o.l == KS_LOCAL_DRIVER && r.fwd_local[0] * r.fwd_local[1] == 1)
        g_print ("  The driver chose groups of a single item: %u + 1 = %u %s.\n", sys->n, sys->n + 1,
                 ks_is_prime ((guint64) sys->n + 1) ? "is prime, so no larger divisor fits"
                                                   : "has no divisor it liked");
      if (r.launch == KS_LAUNCH_GRAPH)
        {
          if (r.graph_replay)
            g_print ("Launch: replay of a CUDA graph recorded by an earlier solve\n");
          else
            g_print ("Launch: CUDA graph, recorded by this solve: capture + instantiate %.3f ms (once, "
                     "not in the times below), then one replay\n", r.capture_ms);
          g_print ("Time: %.3f ms wall (upload, one replay of %u launches, download); device time %.3f ms "
                   "(the replay, launch to completion)\n", r.wall_ms, r.launches, r.kernels_total_ms);
          if (o.graph_kernel_times)
            for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
              g_print ("  %-18s %10.3f ms (event nodes in the graph)\n", ks_gauss_kernel_name (k), r.kernel_ms[k]);
          else
            g_print ("  per-kernel times: unknown inside a graph (reported as 0; --kernel-times records them)\n");
        }
      else
        {
          g_print ("Time: %.3f ms wall (upload, %u launches, download); device time %.3f ms:\n",
                   r.wall_ms, r.launches, r.kernels_total_ms);
          for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
            g_print ("  %-18s %10.3f ms\n", ks_gauss_kernel_name (k), r.kernel_ms[k]);
        }
    }
  g_print ("Residual ||Ax-b||/||b|| = %.3e\n", r.residual);

  if (out)
    {
      g_autofree char *comment = g_strdup_printf ("solution of a %u x %u system by kernelscope-cli solve gauss",
                                                  sys->n, sys->n);
      if (!ks_mtx_write_dense (out, sys->n, 1, x, comment, &error))
        {
          status = ks_cli_fail (KS_CLI_FAILED, error);
          goto out;
        }
      g_print ("Solution written to %s\n", out);
    }

  if (json_path)
    {
      g_autoptr(GString) s = g_string_new ("{\n");
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (s, "  \"device\": \"%s\",\n  \"n\": %u,\n  \"precision\": \"%s\",\n"
                              "  \"range\": \"%s\",\n  \"local\": \"%s\",\n  \"wg\": %u,\n"
                              "  \"launch\": \"%s\",\n",
                              ks_device_get_id (device), sys->n, ks_precision_to_string (o.p),
                              ks_range_policy_to_string (o.r), ks_local_policy_to_string (o.l), params.wg,
                              ks_launch_mode_to_string (params.launch));
      if (params.launch == KS_LAUNCH_GRAPH)
        g_string_append_printf (s, "  \"graph_replay\": %s,\n  \"capture_ms\": %s,\n",
                                r.graph_replay ? "true" : "false",
                                g_ascii_dtostr (buf, sizeof buf, r.capture_ms));
      g_string_append_printf (s, "  \"wall_ms\": %s,\n", g_ascii_dtostr (buf, sizeof buf, r.wall_ms));
      g_string_append_printf (s, "  \"kernels_ms\": %s,\n", g_ascii_dtostr (buf, sizeof buf, r.kernels_total_ms));
      for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
        g_string_append_printf (s, "  \"%s_ms\": %s,\n", ks_gauss_kernel_name (k),
                                g_ascii_dtostr (buf, sizeof buf, r.kernel_ms[k]));
      g_string_append_printf (s, "  \"launches\": %u,\n  \"fwd_local\": [%u, %u],\n  \"fwd_groups\": [%u, %u],\n",
                              r.launches, r.fwd_local[0], r.fwd_local[1], r.fwd_groups[0], r.fwd_groups[1]);
      g_string_append_printf (s, "  \"residual\": %s\n}\n", g_ascii_dtostr (buf, sizeof buf, r.residual));
      if (!g_file_set_contents (json_path, s->str, s->len, &error))
        {
          status = ks_cli_fail (KS_CLI_FAILED, error);
          goto out;
        }
    }

out:
  common_clear (&o);
  g_free (matrix);
  g_free (rhs);
  g_free (out);
  g_free (json_path);
  return status;
}

/* --- run gauss-size / gauss-wg --------------------------------------------- */

typedef struct {
  GMainLoop    *loop;
  GCancellable *cancellable;
  GError       *error;
  gint64        started;
  KsEta        *eta;     /* predicts the remaining points from the measured ones */
  gboolean      quiet;
  gboolean      ok;
} RunState;

static void
on_point (KsExperiment  *experiment,
          const KsPoint *p,
          guint          done,
          guint          total,
          RunState      *state)
{
  double elapsed = (g_get_monotonic_time () - state->started) / 1e6;
  double left;

  ks_eta_add_point (state->eta, p, elapsed);
  left = MAX (ks_eta_get_seconds_left (state->eta), 0.0);
  if (state->quiet)
    return;
  if (p->error)
    {
      g_printerr ("[%4u/%u] n = %-6u wg = %-5u skipped: %s\n", done, total, p->n, p->wg, p->error);
      return;
    }
  g_printerr ("[%4u/%u] n = %-6u", done, total, p->n);
  if (p->local != KS_LOCAL_DRIVER)
    g_printerr (" wg = %-5u", p->wg);
  g_printerr (" %10.3f ms  (min %.3f, max %.3f)  groups (%u, %u)%s  ~%.0f s left\n",
              p->median_ms, p->min_ms, p->max_ms, p->fwd_local[0], p->fwd_local[1],
              p->n1_prime ? "  N+1 prime" : "", left);
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  RunState *state = user_data;

  state->ok = ks_experiment_run_finish (KS_EXPERIMENT (source), result, &state->error);
  g_main_loop_quit (state->loop);
}

static gboolean
on_sigint (gpointer user_data)
{
  RunState *state = user_data;

  g_printerr ("\nStopping: keeping the points measured so far…\n");
  g_cancellable_cancel (state->cancellable);
  return G_SOURCE_CONTINUE;
}

/* The update kernel's group in terms of the range it cut: "(N+1, 1)"
 * (a whole row per group), "(1, N)", "(1, 1)" (the paper's outliers)... */
static char *
classify_shape (const KsPoint *p)
{
  const guint cols = p->fwd_local[0] * p->fwd_groups[0];
  const guint rows = p->fwd_local[1] * p->fwd_groups[1];
  const char *x = p->fwd_local[0] == cols && cols > 1 ? "whole row" : NULL;
  const char *y = p->fwd_local[1] == rows && rows > 1 ? "whole column" : NULL;

  if (p->fwd_local[0] == 1 && p->fwd_local[1] == 1)
    return g_strdup ("(1, 1): one item per group");
  return g_strdup_printf ("(%s, %s)",
                          x ? x : p->fwd_local[0] == 1 ? "1" : "part of a row",
                          y ? y : p->fwd_local[1] == 1 ? "1" : "part of a column");
}

/* What a teacher wants to read after Fig. 2: are the prime-(N+1) points
 * slower than their neighbours, and which group sizes did the driver pick. */
static void
summarize_size (const KsResults *r)
{
  g_autoptr(GHashTable) shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  double ratio_sum = 0.0;
  guint n_ratio = 0, n_prime = 0;
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < r->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (r->points, i);
      g_autofree char *shape = NULL;

      if (p->error)
        continue;
      shape = classify_shape (p);
      g_hash_table_insert (shapes, g_strdup (shape),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (shapes, shape)) + 1));
      if (!p->n1_prime)
        continue;
      n_prime++;
      /* Neighbours: the nearest measured non-prime points on either side. */
      {
        double sum = 0.0;
        guint cnt = 0;
        for (gint j = (gint) i - 1; j >= 0 && cnt < 1; j--)
          {
            const KsPoint *q = g_ptr_array_index (r->points, j);
            if (!q->n1_prime && !q->error) { sum += q->median_ms; cnt++; }
          }
        for (guint j = i + 1; j < r->points->len && cnt < 2; j++)
          {
            const KsPoint *q = g_ptr_array_index (r->points, j);
            if (!q->n1_prime && !q->error) { sum += q->median_ms; cnt++; }
          }
        if (cnt > 0 && sum > 0.0)
          {
            ratio_sum += p->median_ms / (sum / cnt);
            n_ratio++;
          }
      }
    }

  g_print ("\nSummary: %u points, %u with N+1 prime\n", r->points->len, n_prime);
  if (n_ratio > 0)
    g_print ("  prime-(N+1) points take %.2fx the time of their neighbours on average\n",
             ratio_sum / n_ratio);
  g_print ("  work-groups the update kernel ran with (points):\n");
  g_hash_table_iter_init (&iter, shapes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_print ("    %-36s %u\n", (const char *) key, GPOINTER_TO_UINT (value));
}

static void
summarize_wg (const KsResults *r)
{
  g_autoptr(GArray) sizes = ks_results_get_sizes (r);

  g_print ("\nBest measured work-group size per matrix size:\n");
  for (guint i = 0; i < sizes->len; i++)
    {
      guint n = g_array_index (sizes, guint, i);
      const KsPoint *best = ks_results_best_for_n (r, n);
      if (best)
        g_print ("  n = %-6u best wg %-5u %10.3f ms\n", n, best->wg, best->median_ms);
    }
  if (r->ogs_predicted)
    g_print ("Predicted by the paper's rule (PWGSM %u, %u cores x %u units): %" G_GUINT64_FORMAT
             "%s\n", r->pwgsm, r->cores_per_cu, r->compute_units, r->ogs_predicted,
             r->ogs_usable != r->ogs_predicted ? " (above the device's limit)" : "");
  else
    g_print ("The paper's rule cannot predict an optimum here (cores per unit or preferred multiple unknown)\n");
}

static void
print_table (const KsResults *r)
{
  g_print ("\n%8s %6s %12s %12s %12s %14s %10s %s\n", "n", "wg", "median ms", "min ms", "max ms",
           "local size", "residual", "");
  for (guint i = 0; i < r->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (r->points, i);
      g_autofree char *shape = g_strdup_printf ("(%u, %u)", p->fwd_local[0], p->fwd_local[1]);

      if (p->error)
        {
          g_print ("%8u %6u %s\n", p->n, p->wg, p->error);
          continue;
        }
      g_print ("%8u %6u %12.3f %12.3f %12.3f %14s %10.2e %s\n", p->n, p->wg, p->median_ms, p->min_ms,
               p->max_ms, shape, p->residual, p->n1_prime ? "N+1 prime" : "");
    }
}

int
ks_cli_run (int    argc,
            char **argv)
{
  CommonOptions o = { 0 };
  int from = 0, to = 0, step = 0, reps = 3, warmup = 1, min_wg = 0;
  int plot_width = 1200, plot_height = 750;
  char *sizes_text = NULL, *wgs_text = NULL, *csv = NULL, *json = NULL, *plot_path = NULL;
  g_auto(GStrv) overlays = NULL;
  gboolean log_y = FALSE, no_table = FALSE;
  const GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_INT, &from, "gauss-size: first matrix size. Default: 300", "N" },
    { "to", 0, 0, G_OPTION_ARG_INT, &to, "gauss-size: last matrix size. Default: 400", "N" },
    { "step", 0, 0, G_OPTION_ARG_INT, &step, "gauss-size: step between sizes. Default: 1", "N" },
    { "sizes", 's', 0, G_OPTION_ARG_STRING, &sizes_text,
      "Matrix sizes as a list and/or ranges, e.g. 100:900:100 or 128,256,1000. gauss-wg default: "
      "100:400:100; for gauss-size it replaces --from/--to/--step", "LIST" },
    { "wg-list", 'W', 0, G_OPTION_ARG_STRING, &wgs_text,
      "gauss-wg: work-group sizes, e.g. 1,32:1024:32 (the paper's) or 1,2,4,8,16,32,64,128. "
      "Default: 1, then multiples of the preferred multiple up to the device's limit (at most 1024)", "LIST" },
    { "reps", 'r', 0, G_OPTION_ARG_INT, &reps, "Timed repetitions per point (median, min and max are kept). Default: 3", "N" },
    { "warmup", 0, 0, G_OPTION_ARG_INT, &warmup, "Untimed runs before each point. Default: 1", "N" },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, "Write the points to a CSV file", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json, "Write the points and their context to a JSON file", "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot_path, "Draw the plot to FILE.png, FILE.svg or FILE.pdf", "FILE" },
    { "plot-size", 0, 0, G_OPTION_ARG_INT, &plot_width, "Plot width (the height follows at 5:8). Default: 1200", "PX" },
    { "overlay", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &overlays,
      "Draw a recorded run (run --json, or a shipped one such as h200-cuda-fig2-driver.json) "
      "over the plot, dashed and labelled \"recorded\"; repeatable", "FILE.json" },
    { "log-y", 0, 0, G_OPTION_ARG_NONE, &log_y, "Logarithmic time axis (gauss-wg plots always use it)", NULL },
    { "min-wg", 0, 0, G_OPTION_ARG_INT, &min_wg, "gauss-wg plot: leave out groups smaller than N (the paper's Fig. 4 hides wg = 1)", "N" },
    { "no-table", 0, 0, G_OPTION_ARG_NONE, &no_table, "Print only the summary, not every point", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("gauss-size|gauss-wg - run a sweep of the paper");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsExperiment) experiment = NULL;
  g_autoptr(GArray) sizes = NULL;
  g_autoptr(GArray) wgs = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *command = ks_cli_join_argv ("kernelscope-cli run", argc, argv);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  const KsResults *results;
  RunState state = { 0 };
  KsExperimentKind kind;
  KsSweepSpec spec = { 0 };
  KsDevice *device;
  guint sigint_id;
  int status = KS_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  add_common_entries (context, &o);
  g_option_context_set_description (context,
    "gauss-size: time vs matrix size (Fig. 2). With the driver's group size (the default), the\n"
    "  points where N+1 is prime stand out: the update kernel's range has N+1 columns, and the\n"
    "  driver can only cut a prime range into groups of 1. Each point shows the group the driver used.\n"
    "gauss-wg: time vs work-group size, one curve per matrix size (Figs. 3-6), with the best group\n"
    "  per size and the optimum the paper's LCM rule predicts for the device.\n"
    "--graph (CUDA): each point records its launches into a CUDA graph on its first solve (the\n"
    "  warm-up) and times replays of it; the recording is kept out of the times (capture_ms in the\n"
    "  CSV/JSON), and per-kernel times are 0 (unknown inside a graph).\n"
    "Progress goes to stderr; Ctrl+C stops the sweep and keeps (and writes) what was measured.\n"
    "Examples:\n"
    "  kernelscope-cli run gauss-size --from 100 --to 400 --plot fig2.png\n"
    "  kernelscope-cli run gauss-size --from 100 --to 400 --local split --wg 64 --csv split.csv\n"
    "  kernelscope-cli run gauss-wg --sizes 100:900:100 --wg-list 1,32:1024:32 --plot fig3.svg");

  if (!g_option_context_parse (context, &argc, &argv, &error) || !common_validate (&o, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (argc < 2 || !ks_experiment_kind_from_string (argv[1], &kind))
    {
      g_printerr ("kernelscope-cli: run needs an experiment: gauss-size or gauss-wg\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  if (reps < 1 || warmup < 0 || plot_width < 200 || min_wg < 0)
    {
      g_printerr ("kernelscope-cli: --reps must be at least 1, --warmup not negative, --plot-size at least 200\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  plot_height = plot_width * 5 / 8;
  if (overlays && !plot_path)
    {
      g_printerr ("kernelscope-cli: --overlay draws on the plot: give --plot FILE too\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  if (plot_path)
    {
      KsPlotFormat format;
      if (!ks_plot_format_from_filename (plot_path, &format, &error))
        {
          status = ks_cli_fail (KS_CLI_USAGE, error);
          goto out;
        }
    }

  if (sizes_text)
    sizes = ks_parse_uint_list (sizes_text, 2, 1000000, &error);
  else if (kind == KS_EXPERIMENT_GAUSS_SIZE)
    {
      g_autofree char *range = g_strdup_printf ("%d:%d:%d", from ? from : 300, to ? to : MAX (from, 400),
                                                step ? step : 1);
      if (from < 0 || to < 0 || step < 0)
        g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--from, --to and --step must be positive");
      else
        sizes = ks_parse_uint_list (range, 2, 1000000, &error);
    }
  else
    sizes = ks_parse_uint_list ("100:400:100", 2, 1000000, &error);
  if (sizes == NULL)
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  list = ks_device_list_new ();
  if (!(device = ks_cli_pick_device (list, o.device, o.cores_per_cu, o.quiet, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (!ks_gauss_check_launch (device, o.graph ? KS_LAUNCH_GRAPH : KS_LAUNCH_STREAM, &error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }

  spec.kind = kind;
  spec.precision = o.p;
  spec.range = o.r;
  spec.local = o.l;
  spec.sizes = (const guint *) sizes->data;
  spec.n_sizes = sizes->len;
  spec.reps = reps;
  spec.warmup = warmup;
  spec.seed = o.seed ? (guint32) o.seed : 1;
  spec.command = command;
  spec.launch = o.graph ? KS_LAUNCH_GRAPH : KS_LAUNCH_STREAM;

  if (kind == KS_EXPERIMENT_GAUSS_WG)
    {
      if (spec.local == KS_LOCAL_DRIVER)
        spec.local = o.local ? KS_LOCAL_DRIVER : KS_LOCAL_EXPLICIT;
      if (wgs_text)
        wgs = ks_parse_uint_list (wgs_text, 1, 1 << 20, &error);
      else
        {
          const KsDeviceInfo *info = ks_device_get_info (device);
          g_autoptr(KsGaussSolver) probe = ks_gauss_solver_new (device, o.p, &error);
          gsize mult = MAX (info->preferred_multiple, 1);
          gsize limit;

          if (probe == NULL)
            {
              status = ks_cli_fail (KS_CLI_FAILED, error);
              goto out;
            }
          /* The kernel's own limit (registers) can be below the device's:
           * 256 for gauss_fwd on an H200 whose groups may hold 1024. */
          limit = MIN (MAX (ks_gauss_solver_get_max_work_group_size (probe), 1), 1024);
          g_autofree char *text = g_strdup_printf ("1,%" G_GSIZE_FORMAT ":%" G_GSIZE_FORMAT ":%" G_GSIZE_FORMAT,
                                                   mult, MAX (limit / mult * mult, mult), mult);
          if (!o.quiet)
            g_printerr ("Work-group sizes: %s (no --wg-list given)\n", text);
          wgs = ks_parse_uint_list (text, 1, 1 << 20, &error);
        }
      if (wgs == NULL)
        {
          status = ks_cli_fail (KS_CLI_USAGE, error);
          goto out;
        }
      spec.wgs = (const guint *) wgs->data;
      spec.n_wgs = wgs->len;
    }
  else if (spec.local != KS_LOCAL_DRIVER)
    spec.wg = o.wg > 0 ? (guint) o.wg : default_wg (device, o.quiet);

  if (!(experiment = ks_experiment_new (device, &spec, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  if (!o.quiet)
    g_printerr ("Running %s: %u points, %d warm-up + %d timed runs each, %s, %s range, %s groups%s\n",
                argv[1], ks_experiment_get_n_points_total (experiment), warmup, reps,
                ks_precision_to_string (o.p), ks_range_policy_to_string (o.r),
                ks_local_policy_to_string (spec.local),
                o.graph ? ", replays of a CUDA graph per point" : "");

  state.loop = loop;
  state.cancellable = cancellable;
  state.quiet = o.quiet;
  state.started = g_get_monotonic_time ();
  state.eta = ks_eta_new (&spec);
  g_signal_connect (experiment, "point-measured", G_CALLBACK (on_point), &state);
  sigint_id = g_unix_signal_add (SIGINT, on_sigint, &state);
  ks_experiment_run_async (experiment, cancellable, on_run_done, &state);
  g_main_loop_run (loop);
  g_source_remove (sigint_id);
  g_clear_pointer (&state.eta, ks_eta_free);

  results = ks_experiment_get_results (experiment);
  if (!state.ok)
    {
      status = status_for (state.error);
      g_printerr ("kernelscope-cli: %s\n", state.error->message);
      if (results->points->len > 0)
        g_printerr ("kernelscope-cli: %s; writing the %u points measured\n",
                    results->stop_reason ? results->stop_reason : "stopped", results->points->len);
      g_clear_error (&state.error);
    }

  if (results->points->len > 0)
    {
      if (!no_table)
        print_table (results);
      if (kind == KS_EXPERIMENT_GAUSS_SIZE)
        summarize_size (results);
      else
        summarize_wg (results);

      if (csv && !ks_results_write_csv (results, csv, &error))
        status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
      if (json && !ks_results_write_json (results, json, &error))
        status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
      if (plot_path)
        {
          g_autoptr(KsPlot) plot = ks_results_plot_new (results, (guint) min_wg);
          if (log_y)
            ks_plot_set_log_y (plot, TRUE);
          if (!ks_cli_add_overlays (plot, kind, overlays, (guint) min_wg, &error))
            status = ks_cli_fail (KS_CLI_USAGE, error), g_clear_error (&error);
          else if (!ks_plot_export (plot, plot_path, plot_width, plot_height, NULL, &error))
            status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
          else if (!o.quiet)
            g_printerr ("Plot written to %s\n", plot_path);
        }
    }

out:
  common_clear (&o);
  g_free (sizes_text);
  g_free (wgs_text);
  g_free (csv);
  g_free (json);
  g_free (plot_path);
  return status;
}
