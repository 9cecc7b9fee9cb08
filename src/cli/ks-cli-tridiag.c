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

int
ks_cli_solve_tridiag (int    argc,
                      char **argv)
{
  char *matrix = NULL, *rhs = NULL, *out = NULL, *method_name = NULL, *precision_name = NULL, *device_query = NULL;
  int systems = 1;
  gboolean no_pad = FALSE, quiet = FALSE;
  const GOptionEntry entries[] = {
    { "matrix", 'A', 0, G_OPTION_ARG_FILENAME, &matrix,
      "The tridiagonal matrix (Matrix Market; a batch is block-diagonal, no entry joining two systems)", "A.mtx" },
    { "rhs", 'b', 0, G_OPTION_ARG_FILENAME, &rhs, "The right-hand side, one value per row (Matrix Market)", "b.mtx" },
    { "systems", 'k', 0, G_OPTION_ARG_INT, &systems, "How many equal systems the matrix holds. Default: 1", "K" },
    { "method", 'm', 0, G_OPTION_ARG_STRING, &method_name,
      "thomas-global, thomas-local, thomas-interleaved, sericr-global, sericr-local, paracr-global, paracr-full, "
      "paracr-partial, paracr-interleaved, paracr-steps, thomas-coalesced, thomas-transposed, paracr-thomas, thomas-split; on the host cpu-thomas, cpu-sericr, omp-thomas, lapack-gtsv; on CUDA "
      "cusparse-strided, cusparse-thomas, cusparse-lu, cusparse-nopivot. Default: thomas-split for a batch too small to "
      "fill the device (of systems a work-group holds), else thomas-coalesced for a batch and paracr-thomas for one "
      "system; omp-thomas on the host", "M" },
    { "precision", 'p', 0, G_OPTION_ARG_STRING, &precision_name, "float or double. Default: double", "float|double" },
    { "no-pad", 0, 0, G_OPTION_ARG_NONE, &no_pad,
      "Refuse sizes SERICR cannot take (2^k - 1) instead of padding them with identity rows", NULL },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Write the solution x to a Matrix Market file", "x.mtx" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device_query, "The device (see devices). Default: the first GPU", "ID" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not say which device and method were picked and why", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("tridiag - solve a batch of tridiagonal systems");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsTridiagBatch) batch = NULL;
  g_autofree double *x = NULL;
  KsTridiagMethod method = 0;
  KsPrecision precision = KS_PRECISION_DOUBLE;
  KsDevice *device;
  guint sys = 0, row = 0;
  double ms = 0, residual;
  int status = KS_CLI_OK;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Solves A x = b where A holds K independent tridiagonal systems of equal size one after another\n"
    "(block-diagonal; every coupling between two systems zero) with one of paper 002's methods,\n"
    "and reports the time and max |Ax - b| over all systems. None but lapack-gtsv and cusparse-lu\n"
    "pivots: a matrix that is not diagonally dominant is warned about, a zero pivot named.\n"
    "Example: kernelscope-cli solve tridiag --matrix A.mtx --rhs b.mtx --systems 1000 --out x.mtx");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (matrix == NULL || rhs == NULL || systems < 1 ||
      (method_name && !ks_tridiag_method_from_string (method_name, &method)) ||
      (precision_name && !ks_precision_from_string (precision_name, &precision)))
    {
      if (matrix == NULL || rhs == NULL)
        g_printerr ("kernelscope-cli: solve tridiag needs --matrix A.mtx and --rhs b.mtx\n");
      else if (systems < 1)
        g_printerr ("kernelscope-cli: --systems must be at least 1, not %d\n", systems);
      else if (precision_name && !ks_precision_from_string (precision_name, &precision))
        g_printerr ("kernelscope-cli: --precision is float or double, not \"%s\"\n", precision_name);
      else
        g_printerr ("kernelscope-cli: --method \"%s\" is none of the methods (see --help)\n", method_name);
      status = KS_CLI_USAGE;
      goto out;
    }
  {
    char *inputs[] = { matrix, rhs, NULL };
    if (out && !ks_cli_check_output (out, inputs, &error))
      {
        status = ks_cli_fail (KS_CLI_USAGE, error);
        goto out;
      }
  }
  /* The files first: a bad input is told at once, before any device
   * (and PoCL's compiler threads) is started. */
  if (!(batch = ks_tridiag_batch_load (matrix, rhs, (guint) systems, &error)))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }
  list = ks_device_list_new ();
  if (!(device = ks_cli_pick_device (list, device_query, 0, quiet, &error)))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (method_name == NULL)
    method = default_method (device, precision, batch, quiet);
  if (!ks_tridiag_method_pivots (method) && !ks_tridiag_batch_is_dominant (batch, &sys, &row))
    g_printerr ("kernelscope-cli: warning: the matrix is not diagonally dominant (system %u, row %u: |b| < |a| + |c|); "
                "%s does not pivot and may be unstable there: the residual below says how it went\n",
                sys, row, ks_tridiag_method_to_string (method));

  x = g_new0 (double, (gsize) batch->n * batch->systems);
  if (!ks_tridiag_solve (device, batch, method, precision, !no_pad, x, &ms, &error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }
  residual = ks_tridiag_batch_residual (batch, x, 0);
  g_print ("Systems: %u of %u unknowns, %s, %s\n", batch->systems, batch->n, matrix, ks_precision_to_string (precision));
  g_print ("Method: %s on %s\n", ks_tridiag_method_to_string (method),
           ks_tridiag_method_is_host (method) ? "the host" : ks_device_get_name (device));
  g_print ("Time: %.4g ms (%s)\n", ms,
           ks_tridiag_method_is_host (method) ? "host clock" : "device events; uploads not included");
  g_print ("Residual max |Ax - b| = %.3g\n", residual);
  if (out && !ks_mtx_write_dense (out, batch->n * batch->systems, 1, x, "solution x of kernelscope-cli solve tridiag",
                                  &error))
    status = ks_cli_fail (KS_CLI_FAILED, error);

out:
  g_free (matrix);
  g_free (rhs);
  g_free (out);
  g_free (method_name);
  g_free (precision_name);
  g_free (device_query);
  return status;
}
