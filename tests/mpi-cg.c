/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpi-cg: run under mpirun with R ranks (tests/test-mpi.sh): a 60 x 40
 * grid's SPD matrix split among the ranks by paper 004's balance (rank 0
 * takes a "GPU" share at lambda = 2, the others the rest) and the
 * geometric decomposition, solved by ks-dist-cg.h over MPI; rank 0
 * gathers the solution and compares it with one process's. */
#define G_LOG_DOMAIN "ks-test"

#include "ks-balance.h"
#include "ks-mpi-exchange.h"
#include "ks-partition.h"
#include "ks-test-grid.h"

#include <math.h>
#include <stdio.h>

#define W 60
#define H 40

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
  KsDistCgOptions options = { 1e-12, 2000 };
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
          printf ("ok - %d ranks (%" G_GUINT64_FORMAT " cells on rank 0): %u iterations, one process %u, "
                  "largest difference %.2g\n", size, counts[0], iterations, it1, worst);
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
