/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpi-cg: run under mpirun with R ranks (tests/test-mpi.sh): a 60 x 40
 * grid's SPD matrix split among the ranks by paper 004's balance (rank 0
 * takes a "GPU" share at lambda = 2, the others the rest) and the
 * geometric decomposition, solved by ks-dist-cg.h over MPI; rank 0
 * gathers the solution and compares it with one process's.
 *
 * "mpi-cg hybrid": the same through KsHybridCg under the MPI world (what
 * `mpirun kernelscope-cli run heat-hybrid` does): rank 0 a GPU part on the
 * first OpenCL device (PoCL here; the host parts alone where there is
 * none), the others CPU parts, lambda 2; every rank ends with the whole
 * solution, which must equal one process's.
 *
 * "mpi-cg abort": the world's abort path (below). */
#define G_LOG_DOMAIN "ks-test"

#include "ks-balance.h"
#include "ks-device-list.h"
#include "ks-hybrid-cg.h"
#include "ks-mpi-exchange.h"
#include "ks-partition.h"
#include "ks-test-grid.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 60
#define H 40

/* "mpi-cg pipelined": the ranks run the pipelined CG (MPI_Iallreduce
 * behind the SpMV), one process the classic one. */
static gboolean pipelined;

static gboolean
solve (const KsHalo  *halo,
       KsExchange    *ex,
       guint          part,
       const guint   *row_ptr,
       const guint   *col,
       const double  *val,
       const double  *b,
       double       **x_out,
       guint         *iterations,
       GError       **error)
{
  const KsHaloPart *hp = ks_halo_get_part (halo, part);
  g_autofree guint *rp = NULL;
  g_autofree guint *lc = NULL;
  g_autofree double *lv = NULL;
  g_autofree double *lb = g_new0 (double, hp->n_owned + 1);
  double *x = g_new0 (double, hp->n_owned + hp->n_virtual + 1);
  KsDistCgOptions options = { 1e-12, 2000, pipelined };
  KsDistCgResult result;

  ks_halo_local_rows (halo, part, row_ptr, col, val, &rp, &lc, &lv);
  for (guint l = 0; l < hp->n_owned; l++)
    lb[l] = b[hp->global[l]];
  *x_out = x;
  if (!ks_dist_cg_solve_host (ex, rp, lc, lv, lb, x, &options, &result, error))
    return FALSE;
  *iterations = result.iterations;
  return TRUE;
}

/* The system set on rank 0 alone and each rank sent its part
 * (ks_hybrid_cg_set_system), solved at lambda, the solution gathered on
 * rank 0; the largest difference from one process's solution. */
static double
scattered_worst (KsHybridCg *h, int rank, const KsCsr *a, const KsTestGrid *grid, const double *x0,
                 double lambda, const double *x1, KsHybridResult *res)
{
  const KsCgOptions options = { 1e-12, 2000 };
  g_autofree double *x = g_new0 (double, grid->n);
  g_autoptr(GError) error = NULL;
  double worst = 0;
  gboolean ok = ks_hybrid_cg_get_n_parts (h) > 0 ? ks_hybrid_cg_set_lambda (h, lambda, &error)
                : rank == 0 ? ks_hybrid_cg_set_system (h, a, grid->b, x0, grid->centres, lambda, &error)
                            : ks_hybrid_cg_set_system (h, NULL, NULL, NULL, NULL, lambda, &error);

  if (!ok || !ks_hybrid_cg_solve_system (h, &options, x, res, &error))
    g_error ("rank %d: %s", rank, error->message);
  for (guint i = 0; i < grid->n; i++)
    worst = MAX (worst, fabs (x[i] - x1[i]) / (1 + fabs (x1[i])));
  return worst;
}

static int
hybrid_main (int rank, int size, gboolean scattered)
{
  KsTestGrid grid;
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  KsDevice *device = NULL;
  g_autoptr(KsHybridCg) h = NULL;
  g_autoptr(KsCsr) a = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *x = NULL;
  g_autofree double *x1 = NULL;
  KsHybridSetup setup = { NULL, NULL, KS_PRECISION_DOUBLE, KS_PARTITION_GEOMETRIC, 0 };
  const KsCgOptions options = { 1e-12, 2000 };
  KsCgResult one = { 0 };
  KsHybridResult res = { 0 };
  double worst = 0;
  int status = 0;

  ks_mpi_world_install (MPI_COMM_WORLD);
  for (guint d = 0; d < ks_device_list_get_n_devices (list) && device == NULL; d++)
    if (ks_device_get_backend (ks_device_list_get_device (list, d)) == KS_BACKEND_OPENCL &&
        ks_device_get_info (ks_device_list_get_device (list, d))->has_fp64)
      device = ks_device_list_get_device (list, d);
  setup.gpu = device;
  setup.gpu_ranks = device != NULL ? 1 : 0;
  ks_test_grid_init (&grid, W, H);
  a = ks_csr_new_take (grid.n, grid.n, g_memdup2 (grid.row_ptr, sizeof (guint) * (grid.n + 1)),
                       g_memdup2 (grid.col, sizeof (guint) * grid.row_ptr[grid.n]));
  memcpy (a->val, grid.val, sizeof (double) * a->nnz);
  x = g_new0 (double, grid.n);
  x1 = g_new0 (double, grid.n);
  if (!(h = ks_hybrid_cg_new (&setup, &error)) || !ks_cg_solve_host (a, grid.b, x1, &options, &one, &error))
    g_error ("rank %d: %s", rank, error->message);
  if (scattered)
    {
      /* Split twice: set_lambda sends each rank its new part. */
      const double first = scattered_worst (h, rank, a, &grid, x, 2.0, x1, &res);
      const guint iterations = res.iterations;

      worst = MAX (first, scattered_worst (h, rank, a, &grid, x, 0.5, x1, &res));
      /* Either split's iterations off by more than one fails the test. */
      if (ABS ((int) iterations - (int) one.iterations) > 1)
        res.iterations = iterations;
    }
  else if (!ks_hybrid_cg_set_pattern (h, a, grid.centres, 2.0, &error) ||
           !ks_hybrid_cg_solve (h, a, grid.b, x, &options, &res, &error))
    g_error ("rank %d: %s", rank, error->message);
  for (guint i = 0; i < grid.n && !scattered; i++)
    worst = MAX (worst, fabs (x[i] - x1[i]) / (1 + fabs (x1[i])));
  if (rank == 0)
    {
      if (worst <= 1e-10 && ABS ((int) res.iterations - (int) one.iterations) <= 1 &&
          ks_hybrid_cg_get_n_parts (h) == (guint) size)
        printf ("ok - hybrid%s, %d ranks (%s on rank 0, %" G_GUINT64_FORMAT " cells on GPU parts): %u iterations, "
                "one process %u, largest difference %.2g\n", scattered ? " (parts sent by rank 0)" : "", size, device ? ks_device_get_name (device) : "host",
                ks_hybrid_cg_get_cells (h, KS_HYBRID_GPU), res.iterations, one.iterations, worst);
      else
        {
          printf ("not ok - hybrid, %d ranks: %u iterations against %u, largest difference %.3g\n", size,
                  res.iterations, one.iterations, worst);
          status = 1;
        }
    }
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  g_clear_pointer (&h, ks_hybrid_cg_free);
  ks_test_grid_clear (&grid);
  return status;
}

/* "mpi-cg abort": rank 1 fails alone (as when its device is lost) while
 * the others wait in a sum for it; the world's abort must end every rank,
 * saying which one failed, instead of leaving them waiting forever. */
static int
abort_main (int rank)
{
  const KsHybridWorld *w;
  double v = 1;

  ks_mpi_world_install (MPI_COMM_WORLD);
  w = ks_hybrid_world_get ();
  if (rank == 1)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "its device was lost (a test)");
      w->abort (w->data, error);
    }
  w->sum (w->data, &v, 1, NULL);
  printf ("not ok - rank %d went on after rank 1 failed\n", rank);
  return 1;
}

int
main (int    argc,
      char **argv)
{
  int rank, size, status = 0;
  KsTestGrid grid;
  g_autofree guint64 *counts = NULL;
  g_autofree guint *part = NULL;
  g_autofree double *x = NULL;
  g_autoptr(KsHalo) halo = NULL;
  g_autoptr(GError) error = NULL;
  const KsHaloPart *hp;
  KsExchange *ex;
  guint iterations = 0;
  const guint n = W * H;

  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  pipelined = argc > 1 && g_str_equal (argv[1], "pipelined");
  if (argc > 1 && g_str_equal (argv[1], "abort"))
    {
      status = abort_main (rank);
      MPI_Finalize ();
      return status;
    }
  if (argc > 1 && g_str_equal (argv[1], "hybrid-scatter"))
    {
      status = hybrid_main (rank, size, TRUE);
      MPI_Finalize ();
      return status;
    }
  if (argc > 1 && g_str_equal (argv[1], "hybrid"))
    {
      status = hybrid_main (rank, size, FALSE);
      MPI_Finalize ();
      return status;
    }

  ks_test_grid_init (&grid, W, H);
  const guint *row_ptr = grid.row_ptr, *col = grid.col;
  const double *val = grid.val, *centres = grid.centres, *b = grid.b;
  counts = g_new (guint64, size);
  part = g_new (guint, n);
  /* Every rank computes the same split and numbering. */
  if (!ks_balance_split (n, 1, size - 1, 2.0, counts, &error) ||
      !ks_partition_cells (KS_PARTITION_GEOMETRIC, n, NULL, NULL, centres, size, counts, part, NULL, &error) ||
      !(halo = ks_halo_new (n, row_ptr, col, part, size, &error)))
    g_error ("rank %d: %s", rank, error->message);
  hp = ks_halo_get_part (halo, rank);
  ex = ks_mpi_exchange_new (halo, rank, MPI_COMM_WORLD);
  if (!solve (halo, ex, rank, row_ptr, col, val, b, &x, &iterations, &error))
    g_error ("rank %d: %s", rank, error->message);
  ks_exchange_free (ex);

  /* Rank 0 gathers every part's cells by their global numbers. */
  {
    int mine = (int) hp->n_owned;
    g_autofree int *sizes = g_new0 (int, size);
    g_autofree int *offsets = g_new0 (int, size);
    g_autofree double *values = g_new (double, n);
    g_autofree int *cells = g_new (int, n);
    g_autofree int *own_cells = g_new (int, mine + 1);

    for (int l = 0; l < mine; l++)
      own_cells[l] = (int) hp->global[l];
    MPI_Gather (&mine, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 1; r < size; r++)
      offsets[r] = offsets[r - 1] + sizes[r - 1];
    MPI_Gatherv (x, mine, MPI_DOUBLE, values, sizes, offsets, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gatherv (own_cells, mine, MPI_INT, cells, sizes, offsets, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
      {
        g_autofree guint *all_zero = g_new0 (guint, n);
        g_autoptr(KsHalo) whole = ks_halo_new (n, row_ptr, col, all_zero, 1, &error);
        g_autoptr(KsExchangeGroup) group = ks_exchange_group_new (whole);
        g_autofree double *x1 = NULL;
        g_autofree double *gathered = g_new (double, n);
        guint it1 = 0;
        double worst = 0;

        if (!solve (whole, ks_exchange_group_get (group, 0), 0, row_ptr, col, val, b, &x1, &it1, &error))
          g_error ("one process: %s", error->message);
        for (guint i = 0; i < n; i++)
          gathered[cells[i]] = values[i];
        /* x1 is in the one part's local order: map it back. */
        for (guint l = 0; l < n; l++)
          worst = MAX (worst, fabs (gathered[ks_halo_get_part (whole, 0)->global[l]] - x1[l]) /
                              (1 + fabs (x1[l])));
        if (worst <= 1e-10 && ABS ((int) iterations - (int) it1) <= 1)
          printf ("ok - %d ranks%s (%" G_GUINT64_FORMAT " cells on rank 0): %u iterations, one process %u, "
                  "largest difference %.2g\n", size, pipelined ? ", the pipelined CG" : "", counts[0], iterations,
                  it1, worst);
        else
          {
            printf ("not ok - %d ranks: %u iterations against %u, largest difference %.3g\n", size,
                    iterations, it1, worst);
            status = 1;
          }
      }
  }
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  ks_test_grid_clear (&grid);
  MPI_Finalize ();
  return status;
}
