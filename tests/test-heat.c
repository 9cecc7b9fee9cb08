/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-heat: paper 004's heat scheme on the host: the matrix (symmetric,
 * positive definite, rows summing to the mass), the host CG and its errors
 * (not converged with its history, a breakdown), bad parameters, energy
 * conservation, the n = 0 solution approaching the Gaussian at three
 * refinements, the n > 0 front spreading as Zeldovich-Raizer's wave,
 * conditions per boundary group (with the device's step against the
 * host's), bench cg's grid matrix, and the "heat" experiment through the
 * engine.  The CG, assembly and whole step on the devices are in
 * test-heat-device.c. */
#define G_LOG_DOMAIN "test-heat"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ks-cg.h"
#include "ks-device-list.h"
#include "ks-engine.h"
#include "ks-exp-heat.h"
#include "ks-heat.h"
#include "ks-mesh-gen.h"
#include "ks-solver-error.h"
#include "ks-test-heat-util.h"

static void
check_matrix (const char *spec, KsHeatBoundary boundary, double n)
{
  KsHeatParams p;
  g_autoptr(KsHeat) h = NULL;
  g_autoptr(KsCsr) a = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autofree double *t = NULL;
  g_autofree double *rhs = NULL;
  g_autofree double *x = NULL;
  g_autofree double *ax = NULL;
  const KsMesh *m;
  guint bad_row = 0, bad_col = 0;

  ks_heat_params_init (&p);
  p.boundary = boundary;
  p.n = n;
  p.tau = 1e-2;
  p.t0 = 0.01;
  h = new_heat (spec, &p);
  m = ks_heat_get_mesh (h);
  t = g_memdup2 (ks_heat_get_temperature (h), sizeof (double) * m->n_cells);
  rhs = g_new (double, m->n_cells);
  a = ks_heat_assemble (h, t, t, rhs);
  g_test_message ("%s: %u rows, %.2f entries per row", spec, a->n_rows, ks_csr_mean_row (a));

  if (!ks_csr_is_symmetric (a, 1e-12, &bad_row, &bad_col))
    g_error ("%s: not symmetric at (%u, %u)", spec, bad_row, bad_col);
  /* Every row: a positive diagonal; with insulated walls the row sums to
   * the cell's mass (the fluxes' rows sum to zero: energy is conserved). */
  for (guint i = 0; i < a->n_rows; i++)
    {
      double sum = 0.0, scale = 0.0;
      for (guint k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
        {
          sum += a->val[k];
          scale += fabs (a->val[k]);
        }
      g_assert_cmpfloat (a->val[ks_csr_find (a, i, i)], >, 0.0);
      if (boundary == KS_HEAT_BOUNDARY_INSULATED)
        g_assert_cmpfloat (fabs (sum - m->area[i]), <=, 1e-12 * scale);
      else
        g_assert_cmpfloat (sum, >=, m->area[i] * (1 - 1e-12));
    }
  /* Positive definite: x.Ax >= x.Mx for random x (the fluxes' part is
   * positive semi-definite), and > 0. */
  x = g_new (double, a->n_rows);
  ax = g_new (double, a->n_rows);
  for (guint trial = 0; trial < 20; trial++)
    {
      double xax = 0.0, xmx = 0.0;
      for (guint i = 0; i < a->n_rows; i++)
        x[i] = trial % 2 ? g_rand_double_range (rand, -1, 1) : ((i % 2) ? 1.0 : -1.0) * (1 + trial);
      ks_csr_spmv (a, x, ax);
      for (guint i = 0; i < a->n_rows; i++)
        {
          xax += x[i] * ax[i];
          xmx += x[i] * x[i] * m->area[i];
        }
      g_assert_cmpfloat (xax, >=, xmx * (1 - 1e-12));
    }
}

static void
test_matrix (void)
{
  check_matrix ("quad:12x12", KS_HEAT_BOUNDARY_INSULATED, 0);
  check_matrix ("tri-disc:600", KS_HEAT_BOUNDARY_INSULATED, 0);
  check_matrix ("perturbed:400", KS_HEAT_BOUNDARY_INSULATED, 2);
  check_matrix ("mixed-disc:500", KS_HEAT_BOUNDARY_FIXED, 1);
}

static void
test_cg_host (void)
{
  g_autofree double *b = NULL;
  g_autofree double *exact = NULL;
  g_autoptr(KsCsr) a = heat_system ("tri:20x20", &b, &exact);
  g_autofree double *x = g_new0 (double, a->n_rows);
  KsCgOptions opt = { 1e-12, 1000 };
  KsCgResult res = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_cg_solve_host (a, b, x, &opt, &res, &error));
  g_assert_no_error (error);
  g_test_message ("host CG: %u iterations, residual %.3g", res.iterations, res.residual);
  g_assert_cmpfloat (res.residual, <=, 1e-12);
  g_assert_cmpfloat (rel_diff (x, exact, a->n_rows), <, 1e-9);
  g_assert_cmpfloat (res.bytes, >, 0);

  /* Too few iterations: an error with the count and the history. */
  memset (x, 0, sizeof (double) * a->n_rows);
  opt.max_iter = 3;
  g_assert_false (ks_cg_solve_host (a, b, x, &opt, &res, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "in 3 iterations"));
  g_assert_nonnull (strstr (error->message, "0: 1,"));
  g_clear_error (&error);

  /* Not positive definite: a breakdown, named. */
  for (guint k = 0; k < a->nnz; k++)
    a->val[k] = -a->val[k];
  opt.max_iter = 100;
  g_assert_false (ks_cg_solve_host (a, b, x, &opt, &res, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_BREAKDOWN);
  g_clear_error (&error);

  opt.tol = 0;
  g_assert_false (ks_cg_solve_host (a, b, x, &opt, &res, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
}

static void
test_energy (void)
{
  const char *specs[] = { "quad:16x16", "tri-disc:500", "perturbed:300" };

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    for (double n = 0; n <= 2; n += 2)
      {
        KsHeatParams p;
        g_autoptr(KsHeat) h = NULL;
        KsHeatStepStats st;
        g_autoptr(GError) error = NULL;
        double e0;

        ks_heat_params_init (&p);
        p.n = n;
        p.tau = n > 0 ? 2e-4 : 1e-3;
        p.cg_tol = 1e-12;
        h = new_heat (specs[i], &p);
        e0 = ks_heat_total_energy (h);
        g_assert_cmpfloat_with_epsilon (e0, 1.0, 1e-12);
        for (guint s = 0; s < 10; s++)
          {
            g_assert_true (ks_heat_step (h, &st, &error));
            g_assert_no_error (error);
          }
        g_test_message ("%s n=%g: energy %.15f after %u steps, T in [%.3g, %.3g], %u CG iterations, %u Picard",
                        specs[i], n, st.energy, st.step, st.t_min, st.t_max, st.cg_iterations, st.picard);
        g_assert_cmpfloat (fabs (st.energy - e0), <=, 1e-9);
        g_assert_cmpfloat (st.t_max, <, 1.0 / ks_heat_get_mesh (h)->area[0]);
      }
}

/* Relative L1 error against the Gaussian at t1, started from it at t0. */
static double
gaussian_error (guint cells_per_side, guint steps)
{
  KsHeatParams p;
  g_autoptr(KsHeat) h = NULL;
  g_autofree char *spec = g_strdup_printf ("quad:%ux%u", cells_per_side, cells_per_side);
  const KsMesh *m;
  const double *t;
  double err = 0.0, norm = 0.0;

  ks_heat_params_init (&p);
  p.t0 = 0.005;
  p.tau = 0.01 / steps;
  p.cg_tol = 1e-12;
  h = new_heat (spec, &p);
  for (guint s = 0; s < steps; s++)
    g_assert_true (ks_heat_step (h, NULL, NULL));
  m = ks_heat_get_mesh (h);
  t = ks_heat_get_temperature (h);
  for (guint c = 0; c < m->n_cells; c++)
    {
      const double ex = ks_heat_exact (&p, ks_heat_get_time (h), hypot (m->cx[c], m->cy[c]));
      err += m->area[c] * fabs (t[c] - ex);
      norm += m->area[c] * ex;
    }
  return err / norm;
}

static void
test_gaussian (void)
{
  /* tau with h^2, so the time error shrinks with the space error. */
  const double e1 = gaussian_error (16, 4);
  const double e2 = gaussian_error (32, 16);
  const double e3 = gaussian_error (64, 64);

  g_test_message ("n = 0 against the Gaussian at t = 0.015: relative L1 error %.4f (16x16), %.4f (32x32), %.4f (64x64)",
                  e1, e2, e3);
  g_assert_cmpfloat (e2, <, 0.7 * e1);
  g_assert_cmpfloat (e3, <, 0.7 * e2);
  g_assert_cmpfloat (e3, <, 0.02);
}

static void
test_front (void)
{
  KsHeatParams p;
  g_autoptr(KsHeat) h = NULL;
  g_autoptr(GError) error = NULL;
  const KsMesh *m;
  double r2_exact = 0.0, w = 0.0, r2, t1;

  ks_heat_params_init (&p);
  p.n = 2;
  p.t0 = 0.003;
  p.tau = 3e-4;
  h = new_heat ("quad:48x48", &p);
  for (guint s = 0; s < 30; s++)
    {
      g_assert_true (ks_heat_step (h, NULL, &error));
      g_assert_no_error (error);
    }
  t1 = ks_heat_get_time (h);
  m = ks_heat_get_mesh (h);
  for (guint c = 0; c < m->n_cells; c++)
    {
      const double r = hypot (m->cx[c], m->cy[c]);
      const double e = m->area[c] * ks_heat_exact (&p, t1, r);
      r2_exact += e * r * r;
      w += e;
    }
  r2_exact /= w;
  r2 = ks_heat_second_moment (h);
  g_test_message ("n = 2 from t = %g to %g: front at %.3f (exact %.3f, %.3f at t0); <r^2> %.5f (exact %.5f)",
                  p.t0, t1, ks_heat_front_radius (h, 1e-3), ks_heat_exact_front (&p, t1),
                  ks_heat_exact_front (&p, p.t0), r2, r2_exact);
  g_assert_cmpfloat (fabs (r2 / r2_exact - 1), <, 0.05);
  g_assert_cmpfloat (fabs (ks_heat_front_radius (h, 1e-3) - ks_heat_exact_front (&p, t1)), <, 3 * 2.0 / 48);
}

/* A Gmsh 2.2 mesh of (k - 1)^2 unit squares whose left side is the
 * physical group "hot" and right side "cold" (the rest untagged:
 * "boundary"), written to a temporary file; the caller removes it. */
static char *
write_two_group_msh (guint k)
{
  char *path = g_build_filename (g_get_tmp_dir (), "ks-test-heat-groups.msh", NULL);
  GString *msh = g_string_new ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
                               "$PhysicalNames\n2\n1 1 \"hot\"\n1 2 \"cold\"\n$EndPhysicalNames\n");
  guint id = 1;

  g_string_append_printf (msh, "$Nodes\n%u\n", k * k);
  for (guint j = 0; j < k; j++)
    for (guint i = 0; i < k; i++)
      g_string_append_printf (msh, "%u %u %u 0\n", j * k + i + 1, i, j);
  g_string_append_printf (msh, "$EndNodes\n$Elements\n%u\n", (k - 1) * (k - 1) + 2 * (k - 1));
  for (guint j = 0; j + 1 < k; j++)
    {
      g_string_append_printf (msh, "%u 1 2 1 1 %u %u\n", id++, j * k + 1, (j + 1) * k + 1);
      g_string_append_printf (msh, "%u 1 2 2 2 %u %u\n", id++, j * k + k, (j + 1) * k + k);
    }
  for (guint j = 0; j + 1 < k; j++)
    for (guint i = 0; i + 1 < k; i++)
      g_string_append_printf (msh, "%u 3 2 3 3 %u %u %u %u\n", id++, j * k + i + 1, j * k + i + 2,
                              (j + 1) * k + i + 2, (j + 1) * k + i + 1);
  g_string_append (msh, "$EndElements\n");
  g_assert_true (g_file_set_contents (path, msh->str, -1, NULL));
  g_string_free (msh, TRUE);
  return path;
}

/* Conditions per physical group: a hot wall and a cold one, the rest
 * insulated.  The energy balance holds (the energy now is the initial one
 * plus what came in through the walls), heat flows in at the hot wall and
 * out at the cold one, and the device's whole step and its inflow agree
 * with the host's.  An unknown group is refused, naming the groups. */
static void
test_group_boundaries (void)
{
  g_autofree char *path = write_two_group_msh (12);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) mesh = ks_mesh_new_from_spec (path, NULL, &error);
  KsHeatParams p;
  g_autoptr(KsHeat) host = NULL;
  KsHeatStepStats st = { 0 };
  double in = 0;

  g_assert_no_error (error);
  ks_heat_params_init (&p);
  p.n = 1;
  p.tau = 0.05;
  p.t_boundary = 0.5;
  host = ks_heat_new (mesh, &p, &error);
  g_assert_no_error (error);
  g_assert_false (ks_heat_set_group_boundary (host, "warm", KS_HEAT_BOUNDARY_FIXED, 1, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "\"warm\"; its groups: boundary, hot, cold"));
  g_clear_error (&error);
  g_assert_false (ks_heat_set_group_boundary (host, "hot", KS_HEAT_BOUNDARY_FIXED, -1, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (ks_heat_set_group_boundary (host, "hot", KS_HEAT_BOUNDARY_FIXED, 3, &error));
  g_assert_true (ks_heat_set_group_boundary (host, "cold", KS_HEAT_BOUNDARY_FIXED, 0, &error));
  for (guint s = 0; s < 4; s++)
    {
      g_assert_true (ks_heat_step (host, &st, &error));
      g_assert_no_error (error);
      in += st.inflow;
    }
  g_assert_cmpfloat_with_epsilon (in, ks_heat_get_inflow (host), 1e-12);
  g_assert_cmpfloat (fabs (ks_heat_total_energy (host) - ks_heat_get_initial_energy (host) - ks_heat_get_inflow (host)),
                     <=, 1e-7 * ks_heat_get_initial_energy (host));
  g_assert_cmpfloat (ks_heat_get_inflow (host), >, 0);  /* the hot wall wins at first */
  {
    /* Hotter beside the hot wall (x = 0) than beside the cold one (x = 11). */
    const guint left = ks_mesh_nearest_cell (mesh, 0.5, 5.5), right = ks_mesh_nearest_cell (mesh, 10.5, 5.5);
    g_assert_cmpfloat (ks_heat_get_temperature (host)[left], >, 1.0);
    g_assert_cmpfloat (ks_heat_get_temperature (host)[right], <, p.t_boundary);
  }

  g_autoptr(GPtrArray) devs = kernel_devices (TRUE);

  for (guint d = 0; d < devs->len; d++)
    {
      KsDevice *dev = devs->pdata[d];
      g_autoptr(KsHeat) h = NULL;

      h = ks_heat_new (mesh, &p, &error);
      g_assert_true (ks_heat_set_device (h, dev, KS_PRECISION_DOUBLE, KS_CG_FUSED, &error));
      g_assert_true (ks_heat_set_group_boundary (h, "hot", KS_HEAT_BOUNDARY_FIXED, 3, &error));
      /* One step, then the cold wall: the device takes the change. */
      g_assert_true (ks_heat_step (h, &st, &error));
      g_assert_true (ks_heat_set_group_boundary (h, "cold", KS_HEAT_BOUNDARY_FIXED, 0, &error));
      for (guint s = 1; s < 4; s++)
        g_assert_true (ks_heat_step (h, &st, &error));
      g_assert_no_error (error);
      g_test_message ("%s: inflow %.6g (host %.6g), off the host by %.3g", ks_device_get_name (dev),
                      ks_heat_get_inflow (h), ks_heat_get_inflow (host),
                      rel_diff (ks_heat_get_temperature (h), ks_heat_get_temperature (host), mesh->n_cells));
      g_assert_cmpfloat (fabs (ks_heat_get_inflow (h) - ks_heat_get_inflow (host)), <=, 1e-7 * fabs (ks_heat_get_inflow (host)));
      g_assert_cmpfloat (rel_diff (ks_heat_get_temperature (h), ks_heat_get_temperature (host), mesh->n_cells), <, 1e-7);
    }
  g_remove (path);
}

/* bench cg's matrix: symmetric, 9 entries in an inner row, rows summing
 * to the shift, positive definite (the CG converges on it). */
static void
test_grid9 (void)
{
  g_autoptr(KsCsr) a = ks_csr_new_grid9 (7, 5, 0.1);
  g_autofree double *b = g_new (double, 35);
  g_autofree double *x = g_new0 (double, 35);
  KsCgOptions opt = { 1e-12, 200 };
  KsCgResult res = { 0 };
  g_autoptr(GError) error = NULL;
  guint r, c;

  g_assert_cmpuint (a->n_rows, ==, 35);
  /* Corners 4, edges 6, inner rows 9. */
  g_assert_cmpuint (a->nnz, ==, 4 * 4 + 2 * (5 + 3) * 6 + 5 * 3 * 9);
  g_assert_true (ks_csr_is_symmetric (a, 0, &r, &c));
  for (guint i = 0; i < a->n_rows; i++)
    {
      double sum = 0;
      for (guint k = a->row_ptr[i]; k < a->row_ptr[i + 1]; k++)
        sum += a->val[k];
      g_assert_cmpfloat_with_epsilon (sum, 0.1, 1e-12);
      b[i] = i % 3;
    }
  g_assert_true (ks_cg_solve_host (a, b, x, &opt, &res, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (res.residual, <=, 1e-12);
  /* Past 32-bit indices: refused, not wrapped. */
  g_assert_null (ks_csr_new_grid9 (65536, 65536, 0.1));
}

static void
test_bad_params (void)
{
  struct { const char *field; double value; const char *words; } cases[] = {
    { "n", -1, "n must lie in [0, 10], not -1" },
    { "tau", 0, "time step must lie in (0" },
    { "d0", NAN, "D0 must lie" },
    { "cg_tol", 1, "CG tolerance" },
  };
  g_autoptr(KsMesh) mesh = ks_mesh_new_from_spec ("quad:4x4", NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      KsHeatParams p;
      g_autoptr(GError) error = NULL;
      g_autoptr(KsHeat) h = NULL;

      ks_heat_params_init (&p);
      if (g_str_equal (cases[i].field, "n"))
        p.n = cases[i].value;
      else if (g_str_equal (cases[i].field, "tau"))
        p.tau = cases[i].value;
      else if (g_str_equal (cases[i].field, "d0"))
        p.d0 = cases[i].value;
      else
        p.cg_tol = cases[i].value;
      h = ks_heat_new (mesh, &p, &error);
      g_assert_null (h);
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, cases[i].words));
    }
  {
    /* Nonlinear iterations that cannot converge in one go: refused, not accepted. */
    KsHeatParams p;
    g_autoptr(GError) error = NULL;
    g_autoptr(KsHeat) h = NULL;
    ks_heat_params_init (&p);
    p.n = 3;
    p.tau = 0.1;
    p.picard_max = 1;
    h = ks_heat_new (mesh, &p, &error);
    g_assert_false (ks_heat_step (h, NULL, &error));
    g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED);
    g_assert_cmpuint (ks_heat_get_step (h), ==, 0);
  }
}

/* The "heat" experiment through the engine: on the host, and on an OpenCL
 * device with both CG variants; each point's columns as the solver says. */
static KsRun *
run_heat (KsDevice *device, const char * const *settings, GError **error)
{
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_heat);

  for (guint i = 0; settings[i] != NULL; i += 2)
    if (!ks_engine_set (engine, settings[i], settings[i + 1], error))
      return NULL;
  ks_engine_add_device (engine, device);
  if (!ks_engine_set_repetitions (engine, 0, 1, error) || !ks_engine_run (engine, NULL, error))
    return NULL;
  return ks_run_ref (ks_engine_get_run (engine));
}

static void
check_heat_points (KsRun *run, guint expected, gboolean device_cg)
{
  g_assert_cmpuint (run->points->len, ==, expected);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *pt = run->points->pdata[i];
      const double cells = ks_run_point_get_number (run, pt, "cells");
      const double got = ks_run_point_get_number (run, pt, "mesh_cells");
      const double l = ks_run_point_get_number (run, pt, "row_entries");
      GVariant *variant = ks_run_point_get_param (run, pt, "variant");

      g_assert_null (pt->error);
      g_assert_cmpfloat (fabs (got - cells), <=, 0.2 * cells);
      g_assert_cmpfloat (ks_run_point_get_number (run, pt, "step_ms"), >, 0);
      g_assert_cmpfloat (ks_run_point_get_number (run, pt, "iterations"), >=, 1);
      g_assert_cmpfloat (ks_run_point_get_number (run, pt, "energy_drift"), <, 1e-6);
      g_assert_cmpfloat (l, >, 6);
      g_assert_cmpfloat (l, <, 14);
      /* Table 1 at the measured L: 20L + 108, or 20L + 84 fused. */
      g_assert_cmpfloat_with_epsilon (ks_run_point_get_number (run, pt, "bytes_per_row"),
                                      20 * l + (variant != NULL && g_str_equal (g_variant_get_string (variant, NULL),
                                                                                "fused") ? 84 : 108), 1e-9);
      g_assert_true ((variant != NULL) == device_cg);
    }
}

static void
test_experiment (void)
{
  const char *host_settings[] = { "cells", "64,256", "kind", "quad,tri", "steps", "2", "n", "1", NULL };
  const char *dev_settings[] = { "cells", "100", "variant", "base,fused", "offload", "whole,partial", "steps", "2", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = run_heat (ks_device_list_lookup (devices, "host", NULL), host_settings, &error);
  KsDevice *ocl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);

  g_assert_no_error (error);
  check_heat_points (run, 4, FALSE);
  g_assert_true (isnan (ks_run_point_get_number (run, run->points->pdata[0], "triad_share")));
  if (ocl != NULL && ks_device_get_info (ocl)->has_fp64)
    {
      g_autoptr(KsRun) dev = run_heat (ocl, dev_settings, &error);
      g_assert_no_error (error);
      check_heat_points (dev, 4, TRUE);
      g_test_message ("%s: triad %.1f GB/s, the CG at %.1f %% of it", ks_device_get_name (ocl),
                      ks_run_device_get_info (dev->devices->pdata[0], "triad_gbs"),
                      ks_run_point_get_number (dev, dev->points->pdata[1], "triad_share"));
    }
  {
    /* float cannot reach 1e-8: refused before anything runs, saying what to do. */
    const char *bad[] = { "cells", "64", "precision", "float", NULL };
    g_autoptr(KsRun) none = ocl != NULL ? run_heat (ocl, bad, &error) : NULL;
    if (ocl != NULL)
      {
        g_assert_null (none);
        g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID);
        g_assert_nonnull (strstr (error->message, "--tol 1e-5"));
        g_clear_error (&error);
      }
  }
  {
    /* A mesh file: the same numbers as its generated twin. */
    g_autofree char *path = g_build_filename (g_get_tmp_dir (), "ks-test-heat.msh", NULL);
    const char *file_settings[] = { "source", "file", "file", path, "steps", "2", NULL };
    GString *msh = g_string_new ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n16\n");
    g_autoptr(KsRun) from_file = NULL;
    for (guint j = 0; j < 4; j++)
      for (guint i = 0; i < 4; i++)
        g_string_append_printf (msh, "%u %u %u 0\n", j * 4 + i + 1, i, j);
    g_string_append (msh, "$EndNodes\n$Elements\n9\n");
    for (guint j = 0; j < 3; j++)
      for (guint i = 0; i < 3; i++)
        g_string_append_printf (msh, "%u 3 2 1 1 %u %u %u %u\n", j * 3 + i + 1, j * 4 + i + 1, j * 4 + i + 2,
                                j * 4 + i + 6, j * 4 + i + 5);
    g_string_append (msh, "$EndElements\n");
    g_assert_true (g_file_set_contents (path, msh->str, -1, NULL));
    g_string_free (msh, TRUE);
    from_file = run_heat (ks_device_list_lookup (devices, "host", NULL), file_settings, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (from_file->points->len, ==, 1);
    g_assert_cmpfloat (ks_run_point_get_number (from_file, from_file->points->pdata[0], "mesh_cells"), ==, 9);
    g_remove (path);
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/heat/matrix", test_matrix);
  g_test_add_func ("/heat/cg-host", test_cg_host);
  g_test_add_func ("/heat/energy", test_energy);
  g_test_add_func ("/heat/gaussian", test_gaussian);
  g_test_add_func ("/heat/front", test_front);
  g_test_add_func ("/heat/group-boundaries", test_group_boundaries);
  g_test_add_func ("/heat/grid9", test_grid9);
  g_test_add_func ("/heat/bad-params", test_bad_params);
  g_test_add_func ("/heat/experiment", test_experiment);
  status = g_test_run ();
  g_clear_object (&devices);
  return status;
}
