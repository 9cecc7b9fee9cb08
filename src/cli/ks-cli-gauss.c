/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli solve gauss (run gauss-size and gauss-wg go through the
 * generic engine: ks-cli-run.c and src/experiments/papers/ks-exp-gauss.c). */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-compute-error.h"
#include "ks-gauss.h"
#include "ks-gauss-blocked.h"
#include "ks-kernel-source.h"
#include "ks-mtx.h"
#include "ks-ogs.h"

#include <float.h>
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
  char    *cores_per_cu_text;   /* checked by ks_cli_parse_cores_per_cu */
  guint    cores_per_cu;
  char    *kernel_dir;
  int      seed;
  gboolean quiet;
  gboolean graph;
  gboolean blocked;
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
      "Device: an id (opencl:0:0, cuda:0, host), an index from \"devices\", a kind one device is of "
      "(cuda, opencl, gpu, cpu, host), or part of its name, vendor or platform (pocl, nvidia, H200). "
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
    { "cores-per-cu", 0, 0, G_OPTION_ARG_STRING, &o->cores_per_cu_text,
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
    { "blocked", 0, 0, G_OPTION_ARG_NONE, &o->blocked,
      "Eliminate 32 columns per launch (a blocked right-looking update, ~3n/32 launches) instead of "
      "the paper's one step per launch (4n): the same arithmetic, fewer launches. OpenCL and CUDA "
      "devices", NULL },
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
  g_free (o->cores_per_cu_text);
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
  if (o->wg < 0 || o->seed < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--wg and --seed must not be negative");
      return FALSE;
    }
  if (!ks_cli_parse_cores_per_cu (o->cores_per_cu_text, &o->cores_per_cu, error))
    return FALSE;
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

/* Without pivoting a tiny pivot (1e-14 on the diagonal) gives a wrong x
 * with no error: a residual beyond the square root of the precision's
 * epsilon (3e-4 in float, 1.5e-8 in double) is said, as solve tridiag
 * says a matrix that is not diagonally dominant. */
static void
warn_large_residual (double      residual,
                     KsPrecision precision)
{
  double eps = precision == KS_PRECISION_DOUBLE ? DBL_EPSILON : FLT_EPSILON;

  if (residual <= sqrt (eps))
    return;
  g_printerr ("kernelscope-cli: warning: the residual ||Ax-b||/||b|| = %.3g is large for %s (a well-conditioned "
              "system gives about %.0e): the solution is not accurate. This method does not pivot (as in the "
              "paper), so a small pivot or an ill-conditioned matrix ruins it; a diagonally dominant matrix "
              "needs no pivoting\n",
              residual, ks_precision_to_string (precision), eps * 10);
}

/* What solve gauss prints after the solve. */
static void
print_report (KsDevice                 *device,
              const KsLinearSystem     *sys,
              const char               *matrix,
              const CommonOptions      *o,
              const KsGaussParams      *params,
              const KsGaussResult      *r)
{
  g_print ("System: n = %u, %s, %s\n", sys->n,
           matrix ? matrix : "generated (diagonally dominant)", ks_precision_to_string (o->p));
  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    {
      g_print ("Method: host reference (plain C + OpenMP); range and work-group policies do not apply\n");
      g_print ("Time: %.3f ms (forward %.3f ms, backward %.3f ms)\n", r->wall_ms,
               r->kernel_ms[KS_GAUSS_FWD], r->kernel_ms[KS_GAUSS_BWD]);
    }
  else if (r->launch == KS_LAUNCH_BLOCKED)
    {
      g_print ("Launch: blocked, %d columns eliminated per launch (the paper's method takes one)\n",
               KS_GAUSS_BLOCK);
      g_print ("Time: %.3f ms wall (upload, %u launches, download); device time %.3f ms\n",
               r->wall_ms, r->launches, r->kernels_total_ms);
    }
  else
    {
      g_print ("Policy: %s range, %s work-group size", ks_range_policy_to_string (o->r),
               ks_local_policy_to_string (o->l));
      if (o->l != KS_LOCAL_DRIVER)
        g_print (" %u", params->wg);
      g_print ("\n");
      g_print ("Update kernel gauss_fwd ran with work-groups of (%u, %u), %u x %u groups, at step 0%s\n",
               r->fwd_local[0], r->fwd_local[1], r->fwd_groups[0], r->fwd_groups[1],
               o->l == KS_LOCAL_DRIVER ? " (the driver's choice)" : "");
      if (o->l == KS_LOCAL_DRIVER && r->fwd_local[0] * r->fwd_local[1] == 1)
        g_print ("  The driver chose groups of a single item: %u + 1 = %u %s.\n", sys->n, sys->n + 1,
                 ks_is_prime ((guint64) sys->n + 1) ? "is prime, so no larger divisor fits"
                                                   : "has no divisor it liked");
      if (r->launch == KS_LAUNCH_GRAPH)
        {
          if (r->graph_replay)
            g_print ("Launch: replay of a CUDA graph recorded by an earlier solve\n");
          else
            g_print ("Launch: CUDA graph, recorded by this solve: capture + instantiate %.3f ms (once, "
                     "not in the times below), then one replay\n", r->capture_ms);
          g_print ("Time: %.3f ms wall (upload, one replay of %u launches, download); device time %.3f ms "
                   "(the replay, launch to completion)\n", r->wall_ms, r->launches, r->kernels_total_ms);
          if (o->graph_kernel_times)
            for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
              g_print ("  %-18s %10.3f ms (event nodes in the graph)\n", ks_gauss_kernel_name (k), r->kernel_ms[k]);
          else
            g_print ("  per-kernel times: unknown inside a graph (reported as 0; --kernel-times records them)\n");
        }
      else
        {
          g_print ("Time: %.3f ms wall (upload, %u launches, download); device time %.3f ms:\n",
                   r->wall_ms, r->launches, r->kernels_total_ms);
          for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
            g_print ("  %-18s %10.3f ms\n", ks_gauss_kernel_name (k), r->kernel_ms[k]);
        }
    }
}

/* --json: the timings and the residual. */
static gboolean
write_json (const char               *path,
            KsDevice                 *device,
            const KsLinearSystem     *sys,
            const CommonOptions      *o,
            const KsGaussParams      *params,
            const KsGaussResult      *r,
            GError                  **error)
{
  g_autoptr(GString) s = g_string_new ("{\n");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append_printf (s, "  \"device\": \"%s\",\n  \"n\": %u,\n  \"precision\": \"%s\",\n"
                          "  \"range\": \"%s\",\n  \"local\": \"%s\",\n  \"wg\": %u,\n"
                          "  \"launch\": \"%s\",\n",
                          ks_device_get_id (device), sys->n, ks_precision_to_string (o->p),
                          ks_range_policy_to_string (o->r), ks_local_policy_to_string (o->l), params->wg,
                          ks_launch_mode_to_string (params->launch));
  if (params->launch == KS_LAUNCH_GRAPH)
    g_string_append_printf (s, "  \"graph_replay\": %s,\n  \"capture_ms\": %s,\n",
                            r->graph_replay ? "true" : "false",
                            g_ascii_dtostr (buf, sizeof buf, r->capture_ms));
  g_string_append_printf (s, "  \"wall_ms\": %s,\n", g_ascii_dtostr (buf, sizeof buf, r->wall_ms));
  g_string_append_printf (s, "  \"kernels_ms\": %s,\n", g_ascii_dtostr (buf, sizeof buf, r->kernels_total_ms));
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    g_string_append_printf (s, "  \"%s_ms\": %s,\n", ks_gauss_kernel_name (k),
                            g_ascii_dtostr (buf, sizeof buf, r->kernel_ms[k]));
  g_string_append_printf (s, "  \"launches\": %u,\n  \"fwd_local\": [%u, %u],\n  \"fwd_groups\": [%u, %u],\n",
                          r->launches, r->fwd_local[0], r->fwd_local[1], r->fwd_groups[0], r->fwd_groups[1]);
  g_string_append_printf (s, "  \"residual\": %s\n}\n", g_ascii_dtostr (buf, sizeof buf, r->residual));
  return g_file_set_contents (path, s->str, s->len, error);
}

/* The arguments that must agree before a device is opened; FALSE with
 * *status set where they do not. */
static gboolean
check_solve_args (int                  argc,
                  char               **argv,
                  const CommonOptions *o,
                  char                *matrix,
                  char                *rhs,
                  const char          *out,
                  const char          *json_path,
                  int                  n,
                  int                 *status)
{
  g_autoptr(GError) error = NULL;

  if (o->graph && o->blocked)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--graph and --blocked are two launch modes: choose one");
      *status = ks_cli_fail (KS_CLI_USAGE, error);
      return FALSE;
    }
  if (o->graph_kernel_times && !o->graph)
    {
      g_set_error_literal (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "--kernel-times times the kernels inside a CUDA graph: it needs --graph "
                           "(without it every kernel is timed anyway)");
      *status = ks_cli_fail (KS_CLI_USAGE, error);
      return FALSE;
    }
  if (argc < 2 || strcmp (argv[1], "gauss") != 0)
    {
      g_printerr ("kernelscope-cli: solve needs a method: \"solve gauss\" or \"solve tridiag\"\n");
      *status = KS_CLI_USAGE;
      return FALSE;
    }
  if ((matrix == NULL) != (rhs == NULL))
    {
      g_printerr ("kernelscope-cli: --matrix and --rhs go together\n");
      *status = KS_CLI_USAGE;
      return FALSE;
    }
  if (matrix == NULL && n < 2)
    {
      g_printerr ("kernelscope-cli: -n must be at least 2\n");
      *status = KS_CLI_USAGE;
      return FALSE;
    }

  /* An output never replaces an input (or cuts a symbolic link, or a
   * read-only file): checked before anything is solved. */
  {
    char *inputs[] = { matrix, rhs, NULL };
    KsIoOutput outputs[] = { { out, "--out" }, { json_path, "--json" } };
    if (!ks_cli_check_outputs (outputs, G_N_ELEMENTS (outputs), inputs, &error))
      {
        *status = ks_cli_fail (KS_CLI_USAGE, error);
        return FALSE;
      }
  }

  return TRUE;
}

/* The solver on device, the system (read or generated) and its solve;
 * NULL with *status set on a failure. */
static KsLinearSystem *
run_solve (KsDevice            *device,
           const CommonOptions *o,
           const char          *matrix,
           const char          *rhs,
           int                  n,
           KsGaussParams       *params,
           double             **x,
           KsGaussResult       *r,
           int                 *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = NULL;

  /* Before the kernels are built: --graph on a device without graphs is refused outright. */
  const KsLaunchMode launch = o->graph ? KS_LAUNCH_GRAPH : o->blocked ? KS_LAUNCH_BLOCKED : KS_LAUNCH_STREAM;

  if (!ks_gauss_check_launch (device, launch, &error) ||
      !(solver = ks_gauss_solver_new (device, o->p, &error)))
    {
      *status = ks_cli_fail (KS_CLI_FAILED, error);
      return NULL;
    }

  params->range = o->r;
  params->local = o->l;
  params->launch = launch;
  ks_gauss_solver_set_graph_kernel_timing (solver, o->graph && o->graph_kernel_times);
  params->wg = o->wg > 0 ? (guint) o->wg : (o->l == KS_LOCAL_DRIVER ? 0 : default_wg (device, o->quiet));

  /* A generated system is checked against the device before it is built. */
  if (matrix == NULL && !ks_gauss_solver_check (solver, (guint) n, params, &error))
    {
      *status = ks_cli_fail (KS_CLI_FAILED, error);
      return NULL;
    }
  if (matrix)
    sys = ks_linear_system_new_from_mtx (matrix, rhs, 0, &error);
  else
    sys = ks_linear_system_new_random ((guint) n, (guint32) o->seed, &error);
  if (sys == NULL)
    {
      *status = ks_cli_fail (KS_CLI_FAILED, error);
      return NULL;
    }

  *x = g_new0 (double, sys->n);
  if (!ks_gauss_solver_solve (solver, sys, params, NULL, *x, r, &error))
    {
      *status = ks_cli_fail (status_for (error), error);
      return NULL;
    }

  return g_steal_pointer (&sys);
}

/* --out: x as a Matrix Market column. */
static gboolean
write_solution (const char           *path,
                const KsLinearSystem *sys,
                const double         *x,
                GError              **error)
{
  g_autofree char *comment = g_strdup_printf ("solution of a %u x %u system by kernelscope-cli solve gauss",
                                              sys->n, sys->n);
  if (!ks_mtx_write_dense (path, sys->n, 1, x, comment, error))
    return FALSE;
  g_print ("Solution written to %s\n", path);
  return TRUE;
}

/* --- solve gauss ----------------------------------------------------------- */

static const char solve_description[] =
  "Solves A x = b by Gauss elimination without pivoting, in the four kernels of the paper\n"
  "(gauss_fwd_pre, gauss_fwd, gauss_bwd_prepare, gauss_bwd), and reports the time of each\n"
  "kernel, the work-group the driver ran the update kernel with, and ||Ax-b||/||b||.\n"
  "With --graph (CUDA) the solve records its launches into a CUDA graph and replays it: the\n"
  "recording (capture + instantiate) is reported on its own, the replay's time as the solve's.\n"
  "Examples:\n"
  "  kernelscope-cli solve gauss -n 1000 --local split --wg 192\n"
  "  kernelscope-cli solve gauss -d cuda:0 -n 1000 --graph";

int
ks_cli_solve (int    argc,
              char **argv)
{
  /* The seed's default is 1; 0 is a seed like any other. */
  CommonOptions o = { .seed = 1 };
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
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsLinearSystem) sys = NULL;
  g_autofree double *x = NULL;
  KsGaussParams params;
  KsGaussResult r;
  KsDevice *device;
  int status = KS_CLI_OK;

  /* Paper 002's solve has options of its own. */
  if (argc >= 2 && strcmp (argv[1], "tridiag") == 0)
    return ks_cli_solve_tridiag (argc - 1, argv + 1);
  context = g_option_context_new ("gauss - solve one system with the paper's Gauss kernels");
  g_option_context_add_main_entries (context, entries, NULL);
  add_common_entries (context, &o);
  g_option_context_set_description (context, solve_description);

  if (!g_option_context_parse (context, &argc, &argv, &error) || !common_validate (&o, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (!check_solve_args (argc, argv, &o, matrix, rhs, out, json_path, n, &status))
    goto out;

  list = ks_device_list_new ();
  if (!(device = ks_cli_pick_device (list, o.device, o.cores_per_cu, o.quiet, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  if (!(sys = run_solve (device, &o, matrix, rhs, n, &params, &x, &r, &status)))
    goto out;
  print_report (device, sys, matrix, &o, &params, &r);
  g_print ("Residual ||Ax-b||/||b|| = %.3e\n", r.residual);
  warn_large_residual (r.residual, o.p);

  if (out && !write_solution (out, sys, x, &error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }
  if (json_path && !write_json (json_path, device, sys, &o, &params, &r, &error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }

out:
  common_clear (&o);
  g_free (matrix);
  g_free (rhs);
  g_free (out);
  g_free (json_path);
  return status;
}
