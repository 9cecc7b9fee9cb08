/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli solve tridiag: the user's own batch of tridiagonal
 * systems (Matrix Market files) by one of paper 002's methods. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-mtx.h"
#include "ks-tridiag.h"

#include <string.h>

/* No --method: the fastest for the shape (ks_tridiag_default_method), said. */
static KsTridiagMethod
default_method (KsDevice             *device,
                KsPrecision           precision,
                const KsTridiagBatch *batch,
                gboolean              quiet)
{
  const KsTridiagMethod m = ks_tridiag_default_method (device, precision, batch->n, batch->systems);

  if (!quiet)
    g_printerr ("Method: %s (%s)\n", ks_tridiag_method_to_string (m),
                m == KS_TRIDIAG_OMP_THOMAS ? "the host device: Thomas over the systems on every core"
                : m == KS_TRIDIAG_THOMAS_SPLIT ? "each system split among a work-group's items, Thomas per piece, "
                                                 "then the reduced system: for a batch too small to fill the device"
                : m == KS_TRIDIAG_THOMAS_COALESCED ? "Thomas, one item per system on the interleaved layout: for many systems"
                : "PARACR in local memory, then Thomas on the pieces: for one large system");
  return m;
}

/* The command line as given. */
typedef struct {
  char     *matrix, *rhs, *out, *method_name, *precision_name, *device_query;
  int       systems;
  gboolean  no_pad, quiet;
} SolveOptions;

static void
solve_options_clear (SolveOptions *o)
{
  g_free (o->matrix);
  g_free (o->rhs);
  g_free (o->out);
  g_free (o->method_name);
  g_free (o->precision_name);
  g_free (o->device_query);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SolveOptions, solve_options_clear)

/* Fills o from the command line; KS_CLI_OK or the status to exit with. */
static int
parse_options (SolveOptions *o,
               int           argc,
               char        **argv)
{
  const GOptionEntry entries[] = {
    { "matrix", 'A', 0, G_OPTION_ARG_FILENAME, &o->matrix,
      "The tridiagonal matrix (Matrix Market; a batch is block-diagonal, no entry joining two systems)", "A.mtx" },
    { "rhs", 'b', 0, G_OPTION_ARG_FILENAME, &o->rhs, "The right-hand side, one value per row (Matrix Market)",
      "b.mtx" },
    { "systems", 'k', 0, G_OPTION_ARG_INT, &o->systems, "How many equal systems the matrix holds. Default: 1", "K" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &o->method_name,
      "thomas-global, thomas-local, thomas-interleaved, sericr-global, sericr-local, paracr-global, paracr-full, "
      "paracr-partial, paracr-interleaved, paracr-steps, thomas-coalesced, thomas-transposed, paracr-thomas, thomas-split; on the host cpu-thomas, cpu-sericr, omp-thomas, lapack-gtsv; on CUDA "
      "cusparse-strided, cusparse-thomas, cusparse-lu, cusparse-nopivot. Default: thomas-split for a batch too small to "
      "fill the device (of systems a work-group holds), else thomas-coalesced for a batch and paracr-thomas for one "
      "system; omp-thomas on the host", "M" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &o->precision_name, "float or double. Default: double",
      "float|double" },
    { "no-pad", 0, 0, G_OPTION_ARG_NONE, &o->no_pad,
      "Refuse sizes SERICR cannot take (2^k - 1) instead of padding them with identity rows", NULL },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &o->out, "Write the solution x to a Matrix Market file", "x.mtx" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device_query, "The device (see devices). Default: the first GPU",
      "ID" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Do not say which device and method were picked and why", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("tridiag - solve a batch of tridiagonal systems");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Solves A x = b where A holds K independent tridiagonal systems of equal size one after another\n"
    "(block-diagonal; every coupling between two systems zero) with one of paper 002's methods,\n"
    "and reports the time and max |Ax - b| over all systems. None but lapack-gtsv and cusparse-lu\n"
    "pivots: a matrix that is not diagonally dominant is warned about, a zero pivot named.\n"
    "Example: kernelscope-cli solve tridiag --matrix A.mtx --rhs b.mtx --systems 1000 --out x.mtx");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  return KS_CLI_OK;
}

/* Checks o's values, the method and precision named into *method and
 * *precision, and that --out may be written; KS_CLI_OK or KS_CLI_USAGE. */
static int
check_options (const SolveOptions *o,
               KsTridiagMethod    *method,
               KsPrecision        *precision)
{
  char *inputs[] = { o->matrix, o->rhs, NULL };
  g_autoptr(GError) error = NULL;

  if (o->matrix == NULL || o->rhs == NULL)
    {
      g_printerr ("kernelscope-cli: solve tridiag needs --matrix A.mtx and --rhs b.mtx\n");
      return KS_CLI_USAGE;
    }
  if (o->systems < 1)
    {
      g_printerr ("kernelscope-cli: --systems must be at least 1, not %d\n", o->systems);
      return KS_CLI_USAGE;
    }
  if (o->precision_name && !ks_precision_from_string (o->precision_name, precision))
    {
      g_printerr ("kernelscope-cli: --precision is float or double, not \"%s\"\n", o->precision_name);
      return KS_CLI_USAGE;
    }
  if (o->method_name && !ks_tridiag_method_from_string (o->method_name, method))
    {
      g_printerr ("kernelscope-cli: --method \"%s\" is none of the methods (see --help)\n", o->method_name);
      return KS_CLI_USAGE;
    }
  if (o->out && !ks_cli_check_output (o->out, inputs, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  return KS_CLI_OK;
}

/* Warns when method, which does not pivot, meets a row that is not
 * diagonally dominant. */
static void
warn_if_not_dominant (const KsTridiagBatch *batch,
                      KsTridiagMethod       method)
{
  guint sys = 0, row = 0;

  if (!ks_tridiag_method_pivots (method) && !ks_tridiag_batch_is_dominant (batch, &sys, &row))
    g_printerr ("kernelscope-cli: warning: the matrix is not diagonally dominant (system %u, row %u: |b| < |a| + |c|); "
                "%s does not pivot and may be unstable there: the residual below says how it went\n",
                sys, row, ks_tridiag_method_to_string (method));
}

/* What was solved, how, in what time, and how well. */
static void
print_solution (const SolveOptions   *o,
                const KsTridiagBatch *batch,
                KsDevice             *device,
                KsTridiagMethod       method,
                KsPrecision           precision,
                const double         *x,
                double                ms)
{
  const double residual = ks_tridiag_batch_residual (batch, x, 0);

  g_print ("Systems: %u of %u unknowns, %s, %s\n", batch->systems, batch->n, o->matrix,
           ks_precision_to_string (precision));
  g_print ("Method: %s on %s\n", ks_tridiag_method_to_string (method),
           ks_tridiag_method_is_host (method) ? "the host" : ks_device_get_name (device));
  g_print ("Time: %.4g ms (%s)\n", ms,
           ks_tridiag_method_is_host (method) ? "host clock" : "device events; uploads not included");
  g_print ("Residual max |Ax - b| = %.3g\n", residual);
}

int
ks_cli_solve_tridiag (int    argc,
                      char **argv)
{
  g_auto(SolveOptions) o = { .systems = 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsTridiagBatch) batch = NULL;
  g_autofree double *x = NULL;
  KsTridiagMethod method = 0;
  KsPrecision precision = KS_PRECISION_DOUBLE;
  KsDevice *device;
  double ms = 0;
  int status;

  if ((status = parse_options (&o, argc, argv)) != KS_CLI_OK ||
      (status = check_options (&o, &method, &precision)) != KS_CLI_OK)
    return status;
  /* The files first: a bad input is told at once, before any device
   * (and PoCL's compiler threads) is started. */
  if (!(batch = ks_tridiag_batch_load (o.matrix, o.rhs, (guint) o.systems, &error)))
    return ks_cli_fail (KS_CLI_FAILED, error);
  list = ks_device_list_new ();
  if (!(device = ks_cli_pick_device (list, o.device_query, 0, o.quiet, &error)))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (o.method_name == NULL)
    method = default_method (device, precision, batch, o.quiet);
  warn_if_not_dominant (batch, method);

  x = g_new0 (double, (gsize) batch->n * batch->systems);
  if (!ks_tridiag_solve (device, batch, method, precision, !o.no_pad, x, &ms, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  print_solution (&o, batch, device, method, precision, x, ms);
  if (o.out && !ks_mtx_write_dense (o.out, batch->n * batch->systems, 1, x, "solution x of kernelscope-cli solve tridiag",
                                    &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  return KS_CLI_OK;
}
