/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hybrid.c: paper 004's distributed CG in one process (ks-dist-cg.h):
 * host parts in threads, and the hybrid, a device part (every OpenCL or
 * CUDA device here, PoCL at least) beside host parts, give the one-part
 * host solution to round-off (double) or to float's precision; failures
 * are the same on every part, and a part that fails tells the others. */
#define G_LOG_DOMAIN "ks-test"
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* sched_getaffinity */
#endif

#include "ks-balance.h"
#include "ks-device-list.h"
#include "ks-dist-cg.h"
#include "ks-hybrid-cg.h"
#include "ks-hybrid-pin.h"
#include "ks-partition.h"
#include "ks-solver-error.h"
#include "ks-test-grid.h"

#include <gio/gio.h>
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef __linux__
#include <sched.h>
#endif

static KsDeviceList *devices;
static gboolean pipelined;   /* the parts run the pipelined CG */
static KsDistTune tune;      /* and these of the coupling's changes */
static int team_threads;     /* > 0: the host parts' OpenMP teams this large */

typedef struct {
  const KsHalo    *halo;
  KsExchangeGroup *group;
  const KsTestGrid *grid;
  guint            part;
  KsDevice        *device;     /* NULL: the host part */
  KsPrecision      precision;
  guint            max_iter;
  double          *x;          /* the whole solution */
  KsDistCgResult   result;
  GError          *error;
} PartRun;

static gpointer
run_part (gpointer data)
{
  PartRun *run = data;
  const KsHaloPart *hp = ks_halo_get_part (run->halo, run->part);
  KsExchange *ex = ks_exchange_group_get (run->group, run->part);
  KsDistCgOptions options = { run->precision == KS_PRECISION_FLOAT ? 1e-6 : 1e-12, run->max_iter, pipelined, tune };
  g_autofree guint *rp = NULL;
  g_autofree guint *col = NULL;
  g_autofree double *val = NULL;
  g_autofree double *b = g_new0 (double, hp->n_owned + 1);
  g_autofree double *x = g_new0 (double, hp->n_owned + hp->n_virtual + 1);
  gboolean ok;

#ifdef _OPENMP
  if (team_threads > 0)
    omp_set_num_threads (team_threads);
#endif
  ks_halo_local_rows (run->halo, run->part, run->grid->row_ptr, run->grid->col, run->grid->val, &rp, &col, &val);
  for (guint l = 0; l < hp->n_owned; l++)
    b[l] = run->grid->b[hp->global[l]];
  if (run->device)
    {
      g_autoptr(KsDistCgDevice) dev = ks_dist_cg_device_new (run->device, run->precision, &run->error);

      ok = dev && ks_dist_cg_solve_device (dev, ex, rp, col, val, b, x, &options, &run->result, &run->error);
      if (!dev)
        ks_exchange_abort (ex);
    }
  else
    ok = ks_dist_cg_solve_host (ex, rp, col, val, b, x, &options, &run->result, &run->error);
  if (ok)
    for (guint l = 0; l < hp->n_owned; l++)
      run->x[hp->global[l]] = x[l];
  return NULL;
}

/* Part 0 on device (NULL: the host), the rest on the host, sized by the
 * paper's balance at lambda; the solution into x.  FALSE with part 0's
 * error where the parts failed (every part must fail alike). */
static gboolean
solve_parts (const KsTestGrid *grid,
             KsDevice         *device,
             KsPrecision       precision,
             guint             n_parts,
             double            lambda,
             guint             max_iter,
             double           *x,
             guint            *iterations,
             GError          **error)
{
  g_autofree guint64 *counts = g_new (guint64, n_parts);
  g_autofree guint *part = g_new (guint, grid->n);
  g_autoptr(KsHalo) halo = NULL;
  g_autoptr(KsExchangeGroup) group = NULL;
  g_autofree PartRun *runs = g_new0 (PartRun, n_parts);
  g_autofree GThread **threads = g_new0 (GThread *, n_parts);
  gboolean ok;

  g_assert_true (ks_balance_split (grid->n, 1, n_parts - 1, lambda, counts, NULL));
  g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, grid->n, NULL, NULL, grid->centres, n_parts, counts,
                                     part, NULL, NULL));
  halo = ks_halo_new (grid->n, grid->row_ptr, grid->col, part, n_parts, NULL);
  g_assert_nonnull (halo);
  group = ks_exchange_group_new (halo);
  ks_exchange_group_set_tune (group, tune);
  for (guint p = 0; p < n_parts; p++)
    {
      runs[p] = (PartRun) { halo, group, grid, p, p == 0 ? device : NULL, precision, max_iter, x };
      threads[p] = g_thread_new ("part", run_part, &runs[p]);
    }
  for (guint p = 0; p < n_parts; p++)
    g_thread_join (threads[p]);
  ok = runs[0].error == NULL;
  for (guint p = 0; p < n_parts; p++)
    {
      g_assert_true ((runs[p].error == NULL) == ok);
      if (ok)
        g_assert_cmpuint (runs[p].result.iterations, ==, runs[0].result.iterations);
      else
        g_assert_true (g_error_matches (runs[p].error, runs[0].error->domain, runs[0].error->code));
    }
  if (ok && iterations)
    *iterations = runs[0].result.iterations;
  if (!ok)
    g_propagate_error (error, g_steal_pointer (&runs[0].error));
  for (guint p = 0; p < n_parts; p++)
    g_clear_error (&runs[p].error);
  return ok;
}

static double
largest_difference (const double *x,
                    const double *y,
                    guint         n)
{
  double worst = 0;

  for (guint i = 0; i < n; i++)
    worst = MAX (worst, fabs (x[i] - y[i]) / (1 + fabs (y[i])));
  return worst;
}

/* Host parts only: three give one's answer, the same bits every run; too
 * few iterations and a matrix that is not positive definite fail alike on
 * every part. */
static void
test_host_parts (void)
{
  KsTestGrid grid;
  g_autofree double *x1 = NULL;
  g_autofree double *x3 = NULL;
  g_autofree double *again = NULL;
  g_autoptr(GError) error = NULL;
  guint it1 = 0, it3 = 0;

  ks_test_grid_init (&grid, 40, 30);
  x1 = g_new0 (double, grid.n);
  x3 = g_new0 (double, grid.n);
  again = g_new0 (double, grid.n);
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 1, 1, 1000, x1, &it1, &error));
  /* A x = b */
  for (guint i = 0; i < grid.n; i++)
    {
      double ax = 0;

      for (guint k = grid.row_ptr[i]; k < grid.row_ptr[i + 1]; k++)
        ax += grid.val[k] * x1[grid.col[k]];
      g_assert_cmpfloat_with_epsilon (ax, grid.b[i], 1e-9);
    }
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 1000, x3, &it3, &error));
  g_assert_cmpfloat (largest_difference (x3, x1, grid.n), <=, 1e-10);
  g_assert_cmpint (ABS ((int) it3 - (int) it1), <=, 1);
  /* Sums in part order: the same bits again. */
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 1000, again, NULL, &error));
  g_assert_cmpmem (again, grid.n * sizeof (double), x3, grid.n * sizeof (double));

  g_assert_false (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 3, again, NULL, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED);
  g_assert_nonnull (strstr (error->message, "3 iterations"));
  g_clear_error (&error);
  for (guint k = 0; k < grid.row_ptr[grid.n]; k++)
    grid.val[k] = -grid.val[k];
  g_assert_false (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 1000, again, NULL, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_BREAKDOWN);
  ks_test_grid_clear (&grid);
}

static void
test_hybrid (void)
{
  KsTestGrid grid;
  g_autofree double *x1 = NULL;
  guint it1 = 0, tested = 0;

  ks_test_grid_init (&grid, 48, 36);
  x1 = g_new0 (double, grid.n);
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 1, 1.0, 1000, x1, &it1, NULL));
  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      const KsPrecision precisions[] = { KS_PRECISION_DOUBLE, KS_PRECISION_FLOAT };

      if (ks_device_get_backend (device) == KS_BACKEND_HOST)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (precisions); k++)
        {
          g_autofree double *x = g_new0 (double, grid.n);
          double worst = 0, tol = precisions[k] == KS_PRECISION_DOUBLE ? 1e-10 : 1e-4;
          guint it = 0;

          if (precisions[k] == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
            continue;
          /* A device part and two host parts at the paper's lambda_b. */
          g_assert_true (solve_parts (&grid, device, precisions[k], 3, 3.2, 2000, x, &it, NULL));
          worst = largest_difference (x, x1, grid.n);
          g_test_message ("%s, %s: %u iterations (one host part: %u), largest difference %.2g",
                          ks_device_get_name (device), ks_precision_to_string (precisions[k]), it, it1, worst);
          g_assert_cmpfloat (worst, <=, tol);
          if (precisions[k] == KS_PRECISION_DOUBLE)
            g_assert_cmpint (ABS ((int) it - (int) it1), <=, 1);
          tested++;
        }
    }
  if (tested == 0)
    g_test_skip ("no OpenCL or CUDA device here");
  ks_test_grid_clear (&grid);
}

/* The pipelined CG: one host part and three give the classic CG's answer
 * to round-off in about as many iterations, and so does a device part
 * beside host parts; too few iterations fail alike on every part. */
static void
test_pipelined (void)
{
  KsTestGrid grid;
  g_autofree double *classic = NULL;
  g_autofree double *x1 = NULL;
  g_autofree double *x3 = NULL;
  g_autoptr(GError) error = NULL;
  guint it = 0, it1 = 0, it3 = 0;

  ks_test_grid_init (&grid, 40, 30);
  classic = g_new0 (double, grid.n);
  x1 = g_new0 (double, grid.n);
  x3 = g_new0 (double, grid.n);
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 1, 1, 1000, classic, &it, &error));
  pipelined = TRUE;
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 1, 1, 1000, x1, &it1, &error));
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 1000, x3, &it3, &error));
  g_test_message ("classic %u iterations, pipelined %u (one part) and %u (three), largest difference %.2g and %.2g",
                  it, it1, it3, largest_difference (x1, classic, grid.n), largest_difference (x3, classic, grid.n));
  g_assert_cmpfloat (largest_difference (x1, classic, grid.n), <=, 1e-9);
  g_assert_cmpfloat (largest_difference (x3, classic, grid.n), <=, 1e-9);
  g_assert_cmpint (ABS ((int) it1 - (int) it), <=, 2);
  g_assert_cmpint (ABS ((int) it3 - (int) it1), <=, 1);
  g_assert_false (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 3, x3, NULL, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED);
  g_clear_error (&error);
  /* A device part beside host parts: the same answer, plain and with
   * every change (the halo on its second queue, split-phase sums). */
  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      guint it_d = 0;

      if (ks_device_get_backend (device) == KS_BACKEND_HOST || !ks_device_get_info (device)->has_fp64)
        continue;
      /* Plain, every change, and every change but the exchange rows on
       * the halo queue (the path it replaces, kept for measuring). */
      for (guint k = 0; k < 3; k++)
        {
          tune = k == 0 ? 0 : k == 1 ? KS_DIST_TUNE_ALL : KS_DIST_TUNE_ALL & ~KS_DIST_TUNE_XROWS;
          g_assert_true (solve_parts (&grid, device, KS_PRECISION_DOUBLE, 3, 2.0, 1000, x3, &it_d, &error));
          g_test_message ("%s and two host parts, pipelined%s: %u iterations, largest difference %.2g",
                          ks_device_get_name (device), k == 1 ? ", tuned" : k == 2 ? ", tuned but xrows" : "", it_d,
                          largest_difference (x3, classic, grid.n));
          g_assert_cmpfloat (largest_difference (x3, classic, grid.n), <=, 1e-9);
          g_assert_cmpint (ABS ((int) it_d - (int) it1), <=, 2);
        }
      /* Float: the halo and the sums' partials through the stage. */
      g_assert_true (solve_parts (&grid, device, KS_PRECISION_FLOAT, 3, 2.0, 1000, x3, &it_d, &error));
      g_test_message ("the same in float, tuned: %u iterations, largest difference %.2g", it_d,
                      largest_difference (x3, classic, grid.n));
      g_assert_cmpfloat (largest_difference (x3, classic, grid.n), <=, 1e-4);
      tune = 0;
      g_assert_false (solve_parts (&grid, device, KS_PRECISION_DOUBLE, 3, 2.0, 3, x3, NULL, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED);
      g_clear_error (&error);
      break;
    }
  pipelined = FALSE;
  ks_test_grid_clear (&grid);
}

/* The 40 x 30 grid's system as a matrix, and one host part's answer to it. */
static KsCsr *
grid_system (KsTestGrid *grid,
             double    **x1,
             guint      *it1)
{
  KsCsr *a;

  ks_test_grid_init (grid, 40, 30);
  *x1 = g_new0 (double, grid->n);
  g_assert_true (solve_parts (grid, NULL, KS_PRECISION_DOUBLE, 1, 1.0, 1000, *x1, it1, NULL));
  a = ks_csr_new_take (grid->n, grid->n, g_memdup2 (grid->row_ptr, sizeof (guint) * (grid->n + 1)),
                       g_memdup2 (grid->col, sizeof (guint) * grid->row_ptr[grid->n]));
  memcpy (a->val, grid->val, sizeof (double) * a->nnz);
  return a;
}

/* KsHybridCg: a GPU part (every device here) and a CPU part (the host's
 * OpenMP code, or the same device again standing for PoCL's CPU) split by
 * lambda, from the CPU alone (0) to the GPU alone (inf), give one host
 * part's answer; the split moves with lambda; bad lambdas and another
 * matrix's pattern are refused by name. */
static void
test_hybrid_cg (void)
{
  KsTestGrid grid;
  g_autoptr(KsCsr) a = NULL;
  g_autofree double *x1 = NULL;
  guint it1 = 0, tested = 0;
#ifdef _OPENMP
  const int threads_at_start = omp_get_max_threads ();
#endif

  a = grid_system (&grid, &x1, &it1);
  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      const double lambdas[] = { 0, 0.5, 3.2, INFINITY };
      g_autoptr(KsHybridCg) h = NULL;
      g_autoptr(GError) error = NULL;
      KsHybridSetup setup = { device, NULL, KS_PRECISION_DOUBLE, KS_PARTITION_GEOMETRIC };
      const KsCgOptions options = { 1e-12, 2000 };
      KsHybridResult res;

      if (ks_device_get_backend (device) == KS_BACKEND_HOST || !ks_device_get_info (device)->has_fp64)
        continue;
      for (guint cpu_device = 0; cpu_device < 2; cpu_device++)
        {
          setup.cpu = cpu_device ? device : NULL;
          g_clear_pointer (&h, ks_hybrid_cg_free);
          h = ks_hybrid_cg_new (&setup, &error);
          g_assert_no_error (error);
          g_assert_true (ks_hybrid_cg_set_pattern (h, a, grid.centres, lambdas[0], &error));
          for (guint k = 0; k < G_N_ELEMENTS (lambdas); k++)
            {
              g_autofree double *x = g_new0 (double, grid.n);
              guint64 on_gpu = 0;

              g_assert_true (ks_hybrid_cg_set_lambda (h, lambdas[k], &error));
              g_assert_no_error (error);
              for (guint i = 0; i < grid.n; i++)
                on_gpu += ks_hybrid_cg_get_parts (h)[i] == KS_HYBRID_GPU;
              g_assert_cmpuint (on_gpu, ==, ks_hybrid_cg_get_cells (h, KS_HYBRID_GPU));
              g_assert_cmpuint (on_gpu + ks_hybrid_cg_get_cells (h, KS_HYBRID_CPU), ==, grid.n);
              /* lambda = N_GPU / N_CPU */
              if (lambdas[k] == 0)
                g_assert_cmpuint (on_gpu, ==, 0);
              else if (isinf (lambdas[k]))
                g_assert_cmpuint (on_gpu, ==, grid.n);
              else
                g_assert_cmpfloat (fabs ((double) on_gpu / (grid.n - on_gpu) - lambdas[k]), <=, 0.01 * lambdas[k]);
              g_assert_true (ks_hybrid_cg_solve (h, a, grid.b, x, &options, &res, &error));
              g_assert_no_error (error);
              g_test_message ("%s, CPU part on %s, lambda %g: %" G_GUINT64_FORMAT " cells on the GPU, "
                              "%u iterations, largest difference %.2g",
                              ks_device_get_name (device), cpu_device ? "the device" : "the host", lambdas[k],
                              on_gpu, res.iterations, largest_difference (x, x1, grid.n));
              g_assert_cmpfloat (largest_difference (x, x1, grid.n), <=, 1e-10);
              g_assert_cmpint (ABS ((int) res.iterations - (int) it1), <=, 1);
              g_assert_cmpfloat (res.bytes, >, 0);
              g_assert_true (res.iterate_s >= 0);
              /* Each part's own work: some time where it has cells, and
               * NAN for a kind without. */
              for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
                if (ks_hybrid_cg_get_cells (h, q) == 0)
                  g_assert_true (isnan (res.busy_s[q]));
                else
                  g_assert_cmpfloat (res.busy_s[q], >, 0);
              /* What busy_s leaves out, halo and sums apart (the heat
               * page's shares): time where the parts meet, NAN where a
               * kind has no cells. */
              for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
                if (ks_hybrid_cg_get_cells (h, q) == 0)
                  g_assert_true (isnan (res.halo_s[q]) && isnan (res.sums_s[q]));
                else
                  {
                    g_assert_cmpfloat (res.halo_s[q], >=, 0);
                    g_assert_cmpfloat (res.sums_s[q], >=, 0);
                    if (ks_hybrid_cg_get_cells (h, !q) > 0)
                      g_assert_cmpfloat (res.halo_s[q] + res.sums_s[q], >, 0);
                  }
              tested++;
            }
        }
#ifdef _OPENMP
      /* The host part runs on this thread with a team one core short (the
       * device part's thread has it): this thread's own count, as the test
       * began, comes back after every solve. */
      {
        g_autofree double *x = g_new0 (double, grid.n);

        setup.cpu = NULL;
        g_clear_pointer (&h, ks_hybrid_cg_free);
        h = ks_hybrid_cg_new (&setup, &error);
        g_assert_true (ks_hybrid_cg_set_pattern (h, a, grid.centres, 1.0, &error));
        g_assert_true (ks_hybrid_cg_solve (h, a, grid.b, x, &options, &res, &error));
        g_assert_no_error (error);
        g_assert_cmpint (omp_get_max_threads (), ==, threads_at_start);
      }
#endif
      /* Two GPU parts (the same device twice, through two runtimes) and
       * the host: formula (5) with R_GPU = 2, lambda cells per GPU for
       * each CPU cell. */
      {
        KsDevice *more[1] = { device };
        KsHybridSetup two = { device, NULL, KS_PRECISION_DOUBLE, KS_PARTITION_GEOMETRIC, 0, more, 1 };
        g_autoptr(KsHybridCg) h2 = ks_hybrid_cg_new (&two, &error);
        g_autofree double *x = g_new0 (double, grid.n);
        guint64 gpu_cells;

        g_assert_no_error (error);
        g_assert_true (ks_hybrid_cg_set_pattern (h2, a, grid.centres, 2.0, &error));
        g_assert_cmpuint (ks_hybrid_cg_get_n_parts (h2), ==, 3);
        gpu_cells = ks_hybrid_cg_get_cells (h2, KS_HYBRID_GPU);
        /* N_GPU = N lambda / (lambda R_GPU + 1) each: 2 N 2 / 5 on both */
        g_assert_cmpfloat (fabs (gpu_cells - 4.0 * grid.n / 5), <=, 2);
        g_assert_true (ks_hybrid_cg_solve (h2, a, grid.b, x, &options, &res, &error));
        g_assert_cmpfloat (largest_difference (x, x1, grid.n), <=, 1e-10);
        g_test_message ("%s twice and the host, lambda 2: %" G_GUINT64_FORMAT " cells on the GPU parts, "
                        "%u iterations, largest difference %.2g", ks_device_get_name (device), gpu_cells,
                        res.iterations, largest_difference (x, x1, grid.n));
      }
      g_assert_false (ks_hybrid_cg_set_lambda (h, -1, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "-1"));
      g_clear_error (&error);
      g_assert_false (ks_hybrid_cg_set_lambda (h, NAN, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      g_clear_error (&error);
      {
        g_autoptr(KsCsr) other = ks_csr_new_take (2, 2, g_new0 (guint, 3), g_new0 (guint, 1));
        double b2[2] = { 1, 1 }, x2[2] = { 0, 0 };
        const KsCgOptions options2 = { 1e-12, 10 };
        g_assert_false (ks_hybrid_cg_solve (h, other, b2, x2, &options2, NULL, &error));
        g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      }
    }
  if (tested == 0)
    g_test_skip ("no OpenCL or CUDA device with double precision here");
  ks_test_grid_clear (&grid);
}

/* Parts given (a partition file's) rather than split by lambda: a split
 * given back as it was made gives the same cells, cut and answer; a
 * scattered one (every third cell on the CPU, nothing a geometric or METIS
 * split would make) still gives the one-part answer to round-off; the
 * lambda it amounts to is reported; a wrong cell count or a part past the
 * last is refused by name, and set_lambda splits by lambda again. */
static void
test_given_parts (void)
{
  KsTestGrid grid;
  g_autoptr(KsCsr) a = NULL;
  g_autofree double *x1 = NULL;
  guint it1 = 0;

  a = grid_system (&grid, &x1, &it1);
  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      KsHybridSetup setup = { device, NULL, KS_PRECISION_DOUBLE, KS_PARTITION_GEOMETRIC };
      const KsCgOptions options = { 1e-12, 2000 };
      g_autoptr(KsHybridCg) h = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree guint *made = NULL;
      g_autofree guint *scattered = g_new (guint, grid.n);
      g_autofree double *x = g_new0 (double, grid.n);
      guint64 gpu_cells, cut;
      KsHybridResult res;

      if (ks_device_get_backend (device) == KS_BACKEND_HOST || !ks_device_get_info (device)->has_fp64)
        continue;
      h = ks_hybrid_cg_new (&setup, &error);
      g_assert_no_error (error);
      g_assert_true (ks_hybrid_cg_set_pattern (h, a, grid.centres, 3.0, &error));
      made = g_memdup2 (ks_hybrid_cg_get_part_of (h), sizeof (guint) * grid.n);
      gpu_cells = ks_hybrid_cg_get_cells (h, KS_HYBRID_GPU);
      cut = ks_hybrid_cg_get_edge_cut (h);
      for (guint i = 0; i < grid.n; i++)
        g_assert_cmpuint (made[i], ==, ks_hybrid_cg_get_parts (h)[i] == KS_HYBRID_GPU ? 0 : 1);

      /* Back as it was made. */
      g_assert_true (ks_hybrid_cg_set_lambda (h, INFINITY, &error));
      g_assert_true (ks_hybrid_cg_set_parts (h, made, grid.n, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (ks_hybrid_cg_get_cells (h, KS_HYBRID_GPU), ==, gpu_cells);
      g_assert_cmpuint (ks_hybrid_cg_get_edge_cut (h), ==, cut);
      g_assert_cmpmem (ks_hybrid_cg_get_part_of (h), sizeof (guint) * grid.n, made, sizeof (guint) * grid.n);
      g_assert_cmpfloat (fabs (ks_hybrid_cg_get_lambda (h) - 3.0), <=, 0.01 * 3.0);
      g_assert_true (ks_hybrid_cg_solve (h, a, grid.b, x, &options, &res, &error));
      g_assert_cmpfloat (largest_difference (x, x1, grid.n), <=, 1e-10);

      /* Scattered: a third of the cells on the CPU, each one's neighbours
       * mostly on the GPU: the halo is most of the mesh. */
      for (guint i = 0; i < grid.n; i++)
        scattered[i] = i % 3 == 0;
      g_assert_true (ks_hybrid_cg_set_parts (h, scattered, grid.n, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (ks_hybrid_cg_get_cells (h, KS_HYBRID_CPU), ==, (grid.n + 2) / 3);
      g_assert_cmpuint (ks_hybrid_cg_get_edge_cut (h), >, 10 * cut);
      g_assert_cmpfloat (ks_hybrid_cg_get_lambda (h), ==,
                         (double) ks_hybrid_cg_get_cells (h, KS_HYBRID_GPU) / ks_hybrid_cg_get_cells (h, KS_HYBRID_CPU));
      memset (x, 0, sizeof (double) * grid.n);
      g_assert_true (ks_hybrid_cg_solve (h, a, grid.b, x, &options, &res, &error));
      g_assert_no_error (error);
      g_test_message ("%s, every third cell on the CPU: %" G_GUINT64_FORMAT " entries between the parts (%"
                      G_GUINT64_FORMAT " split at lambda 3), %u iterations, largest difference %.2g",
                      ks_device_get_name (device), ks_hybrid_cg_get_edge_cut (h), cut, res.iterations,
                      largest_difference (x, x1, grid.n));
      g_assert_cmpfloat (largest_difference (x, x1, grid.n), <=, 1e-10);

      /* Every cell on one part: the other is left out, lambda 0 or inf. */
      memset (scattered, 0, sizeof (guint) * grid.n);
      g_assert_true (ks_hybrid_cg_set_parts (h, scattered, grid.n, &error));
      g_assert_cmpuint (ks_hybrid_cg_get_n_parts (h), ==, 1);
      g_assert_true (isinf (ks_hybrid_cg_get_lambda (h)));

      /* Refused: another mesh's file, a part the run does not have. */
      g_assert_false (ks_hybrid_cg_set_parts (h, made, grid.n - 1, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "1199 cells"));
      g_clear_error (&error);
      scattered[7] = 2;
      g_assert_false (ks_hybrid_cg_set_parts (h, scattered, grid.n, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "Cell 7 is given part 2, but there are 2 parts"));
      g_clear_error (&error);

      /* set_lambda splits by lambda again, even at the lambda the file
       * amounted to. */
      g_assert_true (ks_hybrid_cg_set_lambda (h, INFINITY, &error));
      g_assert_cmpuint (ks_hybrid_cg_get_n_parts (h), ==, 1);
      g_assert_true (ks_hybrid_cg_set_lambda (h, 3.0, &error));
      g_assert_cmpuint (ks_hybrid_cg_get_cells (h, KS_HYBRID_GPU), ==, gpu_cells);
      ks_test_grid_clear (&grid);
      return;
    }
  g_test_skip ("no OpenCL or CUDA device with double precision here");
  ks_test_grid_clear (&grid);
}

/* A part that fails tells the others, which stop waiting with an error. */
static gpointer
wait_in_allreduce (gpointer data)
{
  GError *error = NULL;
  double v = 1;

  if (ks_exchange_allreduce (data, &v, 1, &error))
    return NULL;
  return error;
}

static void
test_abort (void)
{
  guint part[4] = { 0, 0, 1, 1 };
  guint row_ptr[5] = { 0, 0, 0, 0, 0 };
  g_autoptr(KsHalo) halo = ks_halo_new (4, row_ptr, NULL, part, 2, NULL);

  /* The plain barrier's sums and the split phase's. */
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsExchangeGroup) group = ks_exchange_group_new (halo);
      GThread *waiter;

      ks_exchange_group_set_tune (group, k == 0 ? 0 : KS_DIST_TUNE_SUMS);
      waiter = g_thread_new ("waiter", wait_in_allreduce, ks_exchange_group_get (group, 0));
      g_usleep (20000);
      ks_exchange_abort (ks_exchange_group_get (group, 1));
      error = g_thread_join (waiter);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
}

/* KS_DIST_TUNE_SUMS: a halo exchange's start does not wait for the other
 * parts (one thread starts both parts' exchanges and finishes them), and
 * a sum waits for every part once. */
static void
test_split_phase (void)
{
  guint part[4] = { 0, 0, 1, 1 };
  guint row_ptr[5] = { 0, 2, 5, 8, 10 };
  guint col[10] = { 0, 1, 0, 1, 2, 1, 2, 3, 2, 3 };   /* a chain: parts 0 and 1 meet at cells 1 and 2 */
  g_autoptr(KsHalo) halo = ks_halo_new (4, row_ptr, col, part, 2, NULL);
  g_autoptr(KsExchangeGroup) group = ks_exchange_group_new (halo);
  KsExchange *ex0 = ks_exchange_group_get (group, 0), *ex1 = ks_exchange_group_get (group, 1);
  double x0[4] = { 0 }, x1[4] = { 0 }, s0 = 1, s1 = 2;

  ks_exchange_group_set_tune (group, KS_DIST_TUNE_SUMS);
  /* Each owned value is its cell's number plus 10 (part 0) or 20. */
  for (guint l = 0; l < 2; l++)
    {
      x0[l] = 10 + ks_halo_get_part (halo, 0)->global[l];
      x1[l] = 20 + ks_halo_get_part (halo, 1)->global[l];
    }
  g_assert_true (ks_exchange_start (ex0, x0, NULL));
  g_assert_true (ks_exchange_start (ex1, x1, NULL));
  g_assert_true (ks_exchange_finish (ex0, x0, NULL));
  g_assert_true (ks_exchange_finish (ex1, x1, NULL));
  g_assert_cmpuint (ex0->part->n_virtual, ==, 1);
  g_assert_cmpuint (ex1->part->n_virtual, ==, 1);
  g_assert_cmpfloat (x0[2], ==, 22);
  g_assert_cmpfloat (x1[2], ==, 11);
  g_assert_true (ks_exchange_iallreduce_start (ex0, &s0, 1, NULL));
  g_assert_true (ks_exchange_iallreduce_start (ex1, &s1, 1, NULL));
  g_assert_true (ks_exchange_iallreduce_finish (ex0, &s0, 1, NULL));
  g_assert_true (ks_exchange_iallreduce_finish (ex1, &s1, 1, NULL));
  g_assert_cmpfloat (s0, ==, 3);
  g_assert_cmpfloat (s1, ==, 3);
}

/* KS_DIST_TUNE_PIN: the host part's team one thread to a core, the last
 * core left to the device thread; afterwards the team may use every
 * core again. */
static void
test_pin (void)
{
#if defined(__linux__) && defined(_OPENMP)
  KsHybridPin pin;
  const int threads = omp_get_max_threads ();
  int team, pinned = 0, unpinned = 0;

  ks_hybrid_pin_init (&pin, 1);
  if (pin.n_cpus == 0)
    {
      g_test_skip ("one core: nothing to pin");
      return;
    }
  team = ks_hybrid_pin_host (&pin);
  g_assert_cmpint (team, ==, (int) pin.n_cpus - 1);
#pragma omp parallel num_threads (team) reduction (+:pinned)
  {
    cpu_set_t set;

    g_assert_cmpint (sched_getaffinity (0, sizeof set, &set), ==, 0);
    pinned += CPU_COUNT (&set) == 1 && CPU_ISSET (pin.cpus[omp_get_thread_num ()], &set) &&
              !CPU_ISSET (pin.cpus[pin.n_cpus - 1], &set);
  }
  g_assert_cmpint (pinned, ==, team);
  ks_hybrid_pin_clear (&pin);
  omp_set_num_threads (threads);
  ks_hybrid_pin_init (&pin, 1);
#pragma omp parallel num_threads (team) reduction (+:unpinned)
  {
    cpu_set_t set;

    g_assert_cmpint (sched_getaffinity (0, sizeof set, &set), ==, 0);
    unpinned += (guint) CPU_COUNT (&set) == pin.n_cpus;
  }
  g_assert_cmpint (unpinned, ==, team);
  ks_hybrid_pin_clear (&pin);
#else
  g_test_skip ("pinning is Linux and OpenMP only");
#endif
}

/* KS_HYBRID_TUNE's words. */
static void
test_tune_env (void)
{
  const struct { const char *env; KsDistTune tune; } cases[] = {
    { NULL, 0 }, { "", 0 }, { "none", 0 }, { "all", KS_DIST_TUNE_ALL },
    { "sums", KS_DIST_TUNE_SUMS }, { "sums, host", KS_DIST_TUNE_SUMS | KS_DIST_TUNE_HOST },
    { "-pin", KS_DIST_TUNE_ALL & ~KS_DIST_TUNE_PIN }, { "all,-overlap", KS_DIST_TUNE_ALL & ~KS_DIST_TUNE_OVERLAP },
    { "overlap,pin", KS_DIST_TUNE_OVERLAP | KS_DIST_TUNE_PIN },
    { "all,pipelined", KS_DIST_TUNE_ALL | KS_DIST_TUNE_PIPELINED }, { "pipelined", KS_DIST_TUNE_PIPELINED },
    { "-xrows", KS_DIST_TUNE_ALL & ~KS_DIST_TUNE_XROWS }, { "overlap,xrows", KS_DIST_TUNE_OVERLAP | KS_DIST_TUNE_XROWS },
    { "-spin", KS_DIST_TUNE_ALL & ~KS_DIST_TUNE_SPIN }, { "spin", KS_DIST_TUNE_SPIN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmphex (ks_dist_tune_parse (cases[i].env), ==, cases[i].tune);
  /* Unset or empty, the environment means every change (the default the
   * H200 chose); "none" the plain loop. */
  {
    g_autofree char *saved = g_strdup (g_getenv ("KS_HYBRID_TUNE"));

    g_unsetenv ("KS_HYBRID_TUNE");
    g_assert_cmphex (ks_dist_tune_from_env (), ==, KS_DIST_TUNE_ALL);
    g_setenv ("KS_HYBRID_TUNE", "", TRUE);
    g_assert_cmphex (ks_dist_tune_from_env (), ==, KS_DIST_TUNE_ALL);
    g_setenv ("KS_HYBRID_TUNE", "none", TRUE);
    g_assert_cmphex (ks_dist_tune_from_env (), ==, 0);
    if (saved != NULL)
      g_setenv ("KS_HYBRID_TUNE", saved, TRUE);
    else
      g_unsetenv ("KS_HYBRID_TUNE");
  }
}

/* Host parts under the coupling changes `with`, classic and pipelined:
 * the plain loop's answer (plain, in it_plain iterations), in as many
 * iterations (the pipelined CG within 2); x is scratch. */
static void
check_host_tune (const KsTestGrid *grid,
                 guint             n_parts,
                 double            lambda,
                 KsDistTune        with,
                 const double     *plain,
                 guint             it_plain,
                 double           *x)
{
  for (guint pipe = 0; pipe < 2; pipe++)
    {
      guint it = 0;

      pipelined = pipe;
      tune = with;
      g_assert_true (solve_parts (grid, NULL, KS_PRECISION_DOUBLE, n_parts, lambda, 1000, x, &it, NULL));
      tune = 0;
      g_test_message ("%u host part(s) of %u rows, %s, tune 0x%x: %u iterations (plain %u), largest difference %.2g",
                      n_parts, grid->n, pipe ? "pipelined" : "classic", with, it, it_plain,
                      largest_difference (x, plain, grid->n));
      g_assert_cmpfloat (largest_difference (x, plain, grid->n), <=, 1e-9);
      g_assert_cmpint (ABS ((int) it - (int) it_plain), <=, pipe ? 2 : 0);
    }
  pipelined = FALSE;
}

/* Each of the coupling's changes gives the plain loop's answer in as
 * many iterations: host parts (split sums, fused updates; the pipelined
 * CG with its sum behind the SpMV), and a device part beside host parts
 * (the halo on a second queue, fused kernels), double and float. */
static void
test_tuned (void)
{
  KsTestGrid grid;
  g_autofree double *plain = NULL;
  g_autofree double *x = NULL;
  guint it_plain = 0, it = 0;

  ks_test_grid_init (&grid, 44, 32);
  plain = g_new0 (double, grid.n);
  x = g_new0 (double, grid.n);
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 3, 2.0, 1000, plain, &it_plain, NULL));
  check_host_tune (&grid, 3, 2.0, KS_DIST_TUNE_SUMS | KS_DIST_TUNE_HOST, plain, it_plain, x);
  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);

      if (ks_device_get_backend (device) == KS_BACKEND_HOST)
        continue;
      for (guint k = 0; k < 2; k++)
        {
          const KsPrecision precision = k == 0 ? KS_PRECISION_DOUBLE : KS_PRECISION_FLOAT;
          g_autofree double *y = g_new0 (double, grid.n);
          guint it_y = 0;

          if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
            continue;
          g_assert_true (solve_parts (&grid, device, precision, 3, 3.2, 2000, y, &it_y, NULL));
          tune = KS_DIST_TUNE_ALL;
          g_assert_true (solve_parts (&grid, device, precision, 3, 3.2, 2000, x, &it, NULL));
          tune = 0;
          g_test_message ("%s, %s, tuned: %u iterations (plain %u), largest difference %.2g",
                          ks_device_get_name (device), ks_precision_to_string (precision), it, it_y,
                          largest_difference (x, y, grid.n));
          g_assert_cmpfloat (largest_difference (x, plain, grid.n), <=, k == 0 ? 1e-10 : 1e-4);
          if (k == 0)
            g_assert_cmpint (ABS ((int) it - (int) it_y), <=, 1);
        }
    }
  ks_test_grid_clear (&grid);
}

/* KS_DIST_TUNE_SPIN: a host part large enough for its OpenMP team (over
 * 20,000 rows), its team spinning through each wait, gives the plain
 * loop's answer, classic and pipelined; and a wait the other part aborts
 * ends the spinning team with the error (a team left spinning would hang
 * the test). */
static void
test_team_spins (void)
{
  KsTestGrid grid;
  g_autofree double *plain = NULL;
  g_autofree double *x = NULL;
  guint it_plain = 0;

  team_threads = 2;
  ks_test_grid_init (&grid, 210, 200);
  plain = g_new0 (double, grid.n);
  x = g_new0 (double, grid.n);
  g_assert_true (solve_parts (&grid, NULL, KS_PRECISION_DOUBLE, 1, 1.0, 1000, plain, &it_plain, NULL));
  check_host_tune (&grid, 1, 1.0, KS_DIST_TUNE_SPIN | KS_DIST_TUNE_HOST, plain, it_plain, x);
  {
    g_autofree guint64 *counts = g_new (guint64, 2);
    g_autofree guint *part = g_new (guint, grid.n);
    g_autoptr(KsHalo) halo = NULL;
    g_autoptr(KsExchangeGroup) group = NULL;
    PartRun run;
    GThread *thread;

    g_assert_true (ks_balance_split (grid.n, 1, 1, 1.0, counts, NULL));
    g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, grid.n, NULL, NULL, grid.centres, 2, counts, part,
                                       NULL, NULL));
    halo = ks_halo_new (grid.n, grid.row_ptr, grid.col, part, 2, NULL);
    g_assert_cmpuint (ks_halo_get_part (halo, 0)->n_owned, >, 20000);
    group = ks_exchange_group_new (halo);
    tune = KS_DIST_TUNE_SPIN;
    run = (PartRun) { halo, group, &grid, 0, NULL, KS_PRECISION_DOUBLE, 1000, x };
    thread = g_thread_new ("part", run_part, &run);
    g_usleep (20000);
    ks_exchange_abort (ks_exchange_group_get (group, 1));
    g_thread_join (thread);
    tune = 0;
    g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&run.error);
  }
  team_threads = 0;
  ks_test_grid_clear (&grid);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/hybrid/host-parts", test_host_parts);
  g_test_add_func ("/hybrid/solve", test_hybrid);
  g_test_add_func ("/hybrid/hybrid-cg", test_hybrid_cg);
  g_test_add_func ("/hybrid/given-parts", test_given_parts);
  g_test_add_func ("/hybrid/pipelined", test_pipelined);
  g_test_add_func ("/hybrid/abort", test_abort);
  g_test_add_func ("/hybrid/split-phase", test_split_phase);
  g_test_add_func ("/hybrid/tune-env", test_tune_env);
  g_test_add_func ("/hybrid/team-spins", test_team_spins);
  g_test_add_func ("/hybrid/pin", test_pin);
  g_test_add_func ("/hybrid/tuned", test_tuned);
  return g_test_run ();
}
