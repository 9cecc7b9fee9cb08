/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-heat-device: paper 004's heat solver on every OpenCL/CUDA device
 * here against the host: the CG (float and double, base and fused, a CUDA
 * graph's replay, not converged with its history, many rows an item), the
 * library CG (cuSPARSE + cuBLAS, refused off CUDA), the device's assembly
 * of the matrix and right-hand side, and the whole step and the partial
 * offload.
 * tests/test-heat-oclgrind.sh runs its /heat/cg-device and
 * /heat/device-step under Oclgrind (KS_TEST_HEAT_SMALL). */
#define G_LOG_DOMAIN "test-heat-device"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "ks-cg.h"
#include "ks-compute-error.h"
#include "ks-cusparse-cg.h"
#include "ks-device-list.h"
#include "ks-heat.h"
#include "ks-solver-error.h"
#include "ks-test-heat-util.h"

/* The heat matrix of spec's mesh and a right-hand side *b, solved on the
 * host to 1e-10 (*opt) into *ref with its *host counts: what each device's
 * CG is checked against. */
static KsCsr *
solved_on_host (const char *spec, double **b, double **ref, KsCgOptions *opt, KsCgResult *host)
{
  g_autofree double *exact = NULL;
  KsCsr *a = heat_system (spec, b, &exact);

  *opt = (KsCgOptions) { 1e-10, 1000 };
  *ref = g_new0 (double, a->n_rows);
  g_assert_true (ks_cg_solve_host (a, *b, *ref, opt, host, NULL));
  return a;
}

/* The device CG on spec's heat matrix on every device, both precisions
 * and variants, against the host. */
static void
check_cg_devices (const char *spec)
{
  g_autofree double *b = NULL;
  g_autofree double *ref = NULL;
  KsCgOptions opt;
  KsCgResult host = { 0 };
  g_autoptr(KsCsr) a = solved_on_host (spec, &b, &ref, &opt, &host);
  g_autoptr(GPtrArray) devs = kernel_devices (FALSE);
  guint tried = 0;

  for (guint d = 0; d < devs->len; d++)
    {
      KsDevice *dev = devs->pdata[d];

      for (guint prec = KS_PRECISION_FLOAT; prec <= KS_PRECISION_DOUBLE; prec++)
        for (guint var = KS_CG_BASE; var <= KS_CG_FUSED; var++)
          {
            g_autoptr(GError) error = NULL;
            g_autoptr(KsCgDevice) cg = ks_cg_device_new (dev, prec, var, &error);
            g_autofree double *x = g_new0 (double, a->n_rows);
            KsCgOptions o = opt;
            KsCgResult res = { 0 };
            gboolean solved;

            if (cg == NULL && g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
              {
                g_test_message ("%s: %s", ks_device_get_name (dev), error->message);
                continue;
              }
            g_assert_no_error (error);
            if (prec == KS_PRECISION_FLOAT)
              o.tol = 1e-5;
            g_assert_true (ks_cg_device_set_matrix (cg, a, &error));
            /* The error first: it says why, where a bare FALSE would not. */
            solved = ks_cg_device_solve (cg, b, x, &o, &res, &error);
            g_assert_no_error (error);
            g_assert_true (solved);
            g_test_message ("%s %s %s: %u iterations (host %u), residual %.3g, off the host by %.3g",
                            ks_device_get_name (dev), ks_precision_to_string (prec), ks_cg_variant_to_string (var),
                            res.iterations, host.iterations, res.residual, rel_diff (x, ref, a->n_rows));
            g_assert_cmpfloat (rel_diff (x, ref, a->n_rows), <, prec == KS_PRECISION_DOUBLE ? 1e-8 : 1e-4);
            g_assert_cmpfloat (res.residual, <=, o.tol);
            if (prec == KS_PRECISION_DOUBLE)
              g_assert_cmpint (abs ((int) res.iterations - (int) host.iterations), <=, 1);

            /* Replayed from a CUDA graph: the same solution; elsewhere refused. */
            if (ks_device_get_backend (dev) == KS_BACKEND_CUDA)
              {
                KsCgResult g = { 0 };
                g_autofree double *xg = g_new0 (double, a->n_rows);
                g_assert_true (ks_cg_device_set_graph (cg, TRUE, &error));
                g_assert_true (ks_cg_device_solve (cg, b, xg, &o, &g, &error));
                g_assert_no_error (error);
                g_assert_cmpuint (g.iterations, ==, res.iterations);
                g_assert_cmpfloat (rel_diff (xg, x, a->n_rows), <, prec == KS_PRECISION_DOUBLE ? 1e-12 : 1e-5);
                g_assert_true (ks_cg_device_set_graph (cg, FALSE, &error));
              }
            else
              {
                g_assert_false (ks_cg_device_set_graph (cg, TRUE, &error));
                g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
                g_clear_error (&error);
              }

            /* The same device with too few iterations: the error and its history. */
            memset (x, 0, sizeof (double) * a->n_rows);
            o.max_iter = 5;
            g_assert_false (ks_cg_device_solve (cg, b, x, &o, &res, &error));
            g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED);
            g_assert_nonnull (strstr (error->message, "in 5 iterations"));
            g_assert_nonnull (strstr (error->message, "5: "));
            tried++;
          }
    }
  if (tried == 0)
    g_test_skip ("no OpenCL or CUDA device here");
}

/* The whole step on the device and the partial offload, against the host,
 * three steps of a nonlinear problem with fixed walls; the step's numbers
 * (energy, hottest cell) the device reduced against the host's. */
static void
test_device_step (void)
{
  const char *spec = g_getenv ("KS_TEST_HEAT_SMALL") ? "tri-disc:60" : "tri-disc:400";
  g_autoptr(GPtrArray) devs = kernel_devices (TRUE);
  guint tried = 0;

  for (guint d = 0; d < devs->len; d++)
    {
      KsDevice *dev = devs->pdata[d];
      KsHeatParams p;
      g_autoptr(KsHeat) host = NULL;
      g_autoptr(GError) error = NULL;

      ks_heat_params_init (&p);
      p.n = 1;
      p.tau = 1e-3;
      p.boundary = KS_HEAT_BOUNDARY_FIXED;
      p.t_boundary = 0.5;
      host = new_heat (spec, &p);
      for (guint s = 0; s < 3; s++)
        g_assert_true (ks_heat_step (host, NULL, &error));
      for (guint off = KS_HEAT_OFFLOAD_WHOLE; off <= KS_HEAT_OFFLOAD_PARTIAL; off++)
        {
          g_autoptr(KsHeat) dev_h = new_heat (spec, &p);
          KsHeatStepStats st = { 0 };
          const guint n = ks_heat_get_mesh (host)->n_cells;

          g_assert_true (ks_heat_set_device (dev_h, dev, KS_PRECISION_DOUBLE, KS_CG_FUSED, &error));
          g_assert_no_error (error);
          ks_heat_set_offload (dev_h, off);
          for (guint s = 0; s < 3; s++)
            {
              g_assert_true (ks_heat_step (dev_h, &st, &error));
              g_assert_no_error (error);
              /* The device's kernels are built and the mesh uploaded on
               * the first whole step alone, and counted apart. */
              if (s == 0 && off == KS_HEAT_OFFLOAD_WHOLE)
                g_assert_cmpfloat (st.setup_s, >, 0);
              else
                g_assert_cmpfloat (st.setup_s, ==, 0);
              g_assert_cmpfloat (st.setup_s, <=, st.step_s);
            }
          g_assert_true (ks_heat_sync (dev_h, &error));
          g_test_message ("%s, %s offload: off the host by %.3g, assembly %.3g ms", ks_device_get_name (dev),
                          ks_heat_offload_to_string (off),
                          rel_diff (ks_heat_get_temperature (dev_h), ks_heat_get_temperature (host), n),
                          1e3 * st.assemble_s);
          g_assert_cmpfloat (rel_diff (ks_heat_get_temperature (dev_h), ks_heat_get_temperature (host), n), <, 1e-7);
          g_assert_cmpfloat (fabs (st.energy - ks_heat_total_energy (host)), <=, 1e-7 * ks_heat_total_energy (host));
          {
            const double *t = ks_heat_get_temperature (host);
            double hi = t[0], lo = t[0];
            for (guint c = 1; c < n; c++)
              {
                hi = MAX (hi, t[c]);
                lo = MIN (lo, t[c]);
              }
            g_assert_cmpfloat (fabs (st.t_max - hi), <=, 1e-7 * hi);
            g_assert_cmpfloat (fabs (st.t_min - lo), <=, 1e-7 * hi);
          }
          g_assert_cmpuint (st.picard, >=, 2);
          /* A reset starts from the release again, on the device too. */
          ks_heat_reset (dev_h);
          g_assert_true (ks_heat_step (dev_h, &st, &error));
          g_assert_cmpuint (ks_heat_get_step (dev_h), ==, 1);
          {
            g_autoptr(KsHeat) once = new_heat (spec, &p);
            g_assert_true (ks_heat_step (once, NULL, &error));
            g_assert_cmpfloat (rel_diff (ks_heat_get_temperature (dev_h), ks_heat_get_temperature (once), n), <, 1e-7);
          }
        }
      tried++;
    }
  if (tried == 0)
    g_test_skip ("no double-precision OpenCL or CUDA device here");
}

static double
csr_rel_diff (const KsCsr *a, const KsCsr *b)
{
  g_assert_cmpuint (a->nnz, ==, b->nnz);
  g_assert_cmpmem (a->col, sizeof (guint) * a->nnz, b->col, sizeof (guint) * b->nnz);
  return rel_diff (a->val, b->val, a->nnz);
}

/* The device's assembly (kernels/heat-step.cl) against the host's, the
 * matrix and the right-hand side, at temperatures that make every term
 * count: nonlinear (n > 0), fixed walls, T^nu != T^n. */
static void
test_device_assembly (void)
{
  struct { const char *spec; KsHeatBoundary boundary; double n; } cases[] = {
    { "tri-disc:300", KS_HEAT_BOUNDARY_FIXED, 1.5 },
    { "mixed:200", KS_HEAT_BOUNDARY_INSULATED, 0 },
    { "perturbed:150", KS_HEAT_BOUNDARY_FIXED, 0 },
  };
  g_autoptr(GPtrArray) devs = kernel_devices (FALSE);
  guint tried = 0;

  for (guint d = 0; d < devs->len; d++)
    {
      KsDevice *dev = devs->pdata[d];

      for (guint prec = KS_PRECISION_FLOAT; prec <= KS_PRECISION_DOUBLE; prec++)
        for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
          {
            KsHeatParams p;
            g_autoptr(KsHeat) h = NULL;
            g_autoptr(GError) error = NULL;
            g_autoptr(KsCsr) ha = NULL;
            g_autoptr(KsCsr) da = NULL;
            g_autoptr(GRand) rand = g_rand_new_with_seed (11 + c);
            g_autofree double *t_nu = NULL;
            g_autofree double *t_old = NULL;
            g_autofree double *hb = NULL;
            g_autofree double *db = NULL;
            guint n;

            if (prec == KS_PRECISION_DOUBLE && !ks_device_get_info (dev)->has_fp64)
              continue;
            ks_heat_params_init (&p);
            p.boundary = cases[c].boundary;
            p.n = cases[c].n;
            p.tau = 1e-2;
            p.t_boundary = 0.25;
            h = new_heat (cases[c].spec, &p);
            n = ks_heat_get_mesh (h)->n_cells;
            t_nu = g_new (double, n);
            t_old = g_new (double, n);
            hb = g_new (double, n);
            db = g_new (double, n);
            for (guint i = 0; i < n; i++)
              {
                t_old[i] = g_rand_double_range (rand, 0, 2);
                /* A few negative ones: the assembly clips them to 0. */
                t_nu[i] = g_rand_double_range (rand, -0.1, 2);
              }
            /* No device yet: said so. */
            g_assert_null (ks_heat_assemble_device (h, t_nu, t_old, db, &error));
            g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
            g_clear_error (&error);

            g_assert_true (ks_heat_set_device (h, dev, prec, KS_CG_BASE, &error));
            g_assert_no_error (error);
            ha = ks_heat_assemble (h, t_nu, t_old, hb);
            da = ks_heat_assemble_device (h, t_nu, t_old, db, &error);
            g_assert_no_error (error);
            g_test_message ("%s %s %s: matrix off by %.3g, right-hand side by %.3g", ks_device_get_name (dev),
                            ks_precision_to_string (prec), cases[c].spec, csr_rel_diff (da, ha), rel_diff (db, hb, n));
            /* Double: the same sums in the same order, pow() aside. */
            g_assert_cmpfloat (csr_rel_diff (da, ha), <=, prec == KS_PRECISION_DOUBLE ? 1e-13 : 1e-5);
            g_assert_cmpfloat (rel_diff (db, hb, n), <=, prec == KS_PRECISION_DOUBLE ? 1e-13 : 1e-5);
            tried++;
          }
    }
  if (tried == 0)
    g_test_skip ("no OpenCL or CUDA device here");
}

static void
test_cg_device (void)
{
  /* Small under Oclgrind (tests/test-heat-oclgrind.sh), whose simulator
   * takes minutes for the default. */
  check_cg_devices (g_getenv ("KS_TEST_HEAT_SMALL") ? "mixed:60" : "mixed:500");
}

/* name as it was (value, or unset for NULL). */
static void
put_back (const char *name, const char *value)
{
  if (value != NULL)
    g_setenv (name, value, TRUE);
  else
    g_unsetenv (name);
}

/* The CG built as for a GPU (KS_CG_BATCHED=1) on a grid of one group
 * (KS_CG_ITEMS_PER_CU=1), so that each item takes ~80 rows: the fused r
 * update's batches (heat-cg.cl, CG_BATCH rows an item a step) full and cut
 * short at the end.  Not under Oclgrind (test-heat-oclgrind.sh): it would
 * take minutes there, and the loop shares no memory between items. */
static void
test_cg_batches (void)
{
  /* The caller's values put back after (an A/B may have set them). */
  g_autofree char *items = g_strdup (g_getenv ("KS_CG_ITEMS_PER_CU"));
  g_autofree char *batched = g_strdup (g_getenv ("KS_CG_BATCHED"));

  g_setenv ("KS_CG_ITEMS_PER_CU", "1", TRUE);
  g_setenv ("KS_CG_BATCHED", "1", TRUE);
  check_cg_devices ("mixed:20000");
  put_back ("KS_CG_ITEMS_PER_CU", items);
  put_back ("KS_CG_BATCHED", batched);
}

/* The library CG (cuSPARSE + cuBLAS) against the host on every CUDA
 * device; anywhere else a clear refusal. */
static void
test_cg_library (void)
{
  g_autofree double *b = NULL;
  g_autofree double *ref = NULL;
  KsCgOptions opt;
  KsCgResult host = { 0 };
  g_autoptr(KsCsr) a = solved_on_host ("mixed:500", &b, &ref, &opt, &host);
  guint tried = 0;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *dev = ks_device_list_get_device (devices, d);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsCusparseCg) cg = ks_cusparse_cg_new (dev, TRUE, &error);
      g_autofree double *x = g_new0 (double, a->n_rows);
      guint iterations = 0;
      double residual = 0, iterate_s = 0;

      if (ks_device_get_backend (dev) != KS_BACKEND_CUDA)
        {
          g_assert_null (cg);
          g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
          g_assert_nonnull (strstr (error->message, "CUDA"));
          continue;
        }
      if (cg == NULL && g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
        {
          g_test_message ("%s", error->message);
          continue;
        }
      g_assert_no_error (error);
      g_assert_true (ks_cusparse_cg_set_matrix (cg, a->n_rows, a->nnz, a->row_ptr, a->col, a->val, &error));
      g_assert_true (ks_cusparse_cg_solve (cg, b, x, opt.tol, opt.max_iter, &iterations, &residual, &iterate_s, &error));
      g_assert_no_error (error);
      g_test_message ("%s: library CG %u iterations (host %u), off the host by %.3g", ks_device_get_name (dev),
                      iterations, host.iterations, rel_diff (x, ref, a->n_rows));
      g_assert_cmpfloat (residual, <=, opt.tol);
      g_assert_cmpfloat (rel_diff (x, ref, a->n_rows), <, 1e-8);
      g_assert_cmpint (abs ((int) iterations - (int) host.iterations), <=, 1);
      tried++;
    }
  if (tried == 0)
    g_test_skip ("no CUDA device with cuSPARSE and cuBLAS here");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/heat/cg-device", test_cg_device);
  g_test_add_func ("/heat/cg-batches", test_cg_batches);
  g_test_add_func ("/heat/device-step", test_device_step);
  g_test_add_func ("/heat/device-assembly", test_device_assembly);
  g_test_add_func ("/heat/cg-library", test_cg_library);
  status = g_test_run ();
  g_clear_object (&devices);
  return status;
}
