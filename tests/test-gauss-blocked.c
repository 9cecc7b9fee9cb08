/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The blocked Gauss kernels (KS_LAUNCH_BLOCKED) on every OpenCL and CUDA
 * device (PoCL without a GPU): the paper's stream method's solution on
 * sizes around the block of 32 (one block, one short, several, a ragged
 * last block) in both precisions, the launches they take, a tiny pivot
 * reported at its row, Stop, and the host refusing the mode. */
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-gauss.h"
#include "ks-gauss-blocked.h"

#include <math.h>
#include <string.h>

static KsDeviceList *devices;

static gboolean
usable (KsDevice    *device,
        KsPrecision  precision)
{
  return ks_device_get_backend (device) != KS_BACKEND_HOST &&
         (precision == KS_PRECISION_FLOAT || ks_device_get_info (device)->has_fp64);
}

static double
max_rel_diff (const double *x,
              const double *y,
              guint         n)
{
  double d = 0.0, scale = 0.0;

  for (guint i = 0; i < n; i++)
    {
      d = MAX (d, fabs (x[i] - y[i]));
      scale = MAX (scale, fabs (y[i]));
    }
  return d / MAX (scale, 1e-300);
}

/* 3 ceil(n / 32) - 1: a panel and an update per block but the last, which
 * has no trailing rows, and a back substitution per block. */
static guint
expected_launches (guint n)
{
  const guint blocks = (n + KS_GAUSS_BLOCK - 1) / KS_GAUSS_BLOCK;

  return 3 * blocks - 1;
}

static void
check_device (KsDevice    *device,
              KsPrecision  p)
{
  static const guint sizes[] = { 2, 5, 31, 32, 33, 64, 97, 200 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (device, p, &error);
  const KsGaussParams stream = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_STREAM };
  const KsGaussParams blocked = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_BLOCKED };

  g_assert_no_error (error);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      const guint n = sizes[s];
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (n, 7 + n, NULL);
      g_autofree double *xs = g_new (double, n);
      g_autofree double *xb = g_new (double, n);
      KsGaussResult rs, rb;

      g_assert_true (ks_gauss_solver_solve (solver, sys, &stream, NULL, xs, &rs, &error));
      g_assert_no_error (error);
      g_assert_true (ks_gauss_solver_solve (solver, sys, &blocked, NULL, xb, &rb, &error));
      g_assert_no_error (error);
      g_assert_cmpint (rb.launch, ==, KS_LAUNCH_BLOCKED);
      g_assert_cmpuint (rb.launches, ==, expected_launches (n));
      g_assert_cmpfloat (rb.residual, <, p == KS_PRECISION_DOUBLE ? 1e-13 : 1e-5);
      g_assert_cmpfloat (max_rel_diff (xb, xs, n), <, p == KS_PRECISION_DOUBLE ? 1e-12 : 1e-4);
      g_assert_cmpfloat (rb.wall_ms, >, 0);
    }
}

static void
test_solutions (void)
{
  gboolean any = FALSE;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
      {
        KsDevice *device = ks_device_list_get_device (devices, d);

        if (!usable (device, p))
          continue;
        g_test_message ("%s, %s", ks_device_get_name (device), ks_precision_to_string (p));
        check_device (device, p);
        any = TRUE;
      }
  if (!any)
    g_test_skip ("no OpenCL or CUDA device (install pocl-opencl-icd)");
}

/* A zero pivot in the second block (row 40, made singular by a copy of
 * row 39) and one in the first (row 1 of a matrix that needs a row
 * exchange): each reported at its row, not as NaN. */
static void
test_singular (void)
{
  gboolean any = FALSE;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      const KsGaussParams blocked = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_BLOCKED };
      g_autoptr(GError) error = NULL;
      g_autoptr(KsGaussSolver) solver = NULL;
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (50, 3, NULL);
      double needs_pivot[9] = { 0, 1, 1, 1, 0, 1, 1, 1, 0 }, ones[3] = { 1, 1, 1 };
      KsLinearSystem small = { 3, needs_pivot, ones };
      KsGaussResult r;

      if (!usable (device, KS_PRECISION_DOUBLE))
        continue;
      any = TRUE;
      solver = ks_gauss_solver_new (device, KS_PRECISION_DOUBLE, &error);
      g_assert_no_error (error);
      memcpy (sys->a + 39 * 50, sys->a + 38 * 50, 50 * sizeof (double));
      g_assert_false (ks_gauss_solver_solve (solver, sys, &blocked, NULL, NULL, &r, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR);
      g_assert_nonnull (strstr (error->message, "row 40 "));
      g_clear_error (&error);
      g_assert_false (ks_gauss_solver_solve (solver, &small, &blocked, NULL, NULL, &r, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR);
      g_assert_nonnull (strstr (error->message, "row 1 "));
    }
  if (!any)
    g_test_skip ("no OpenCL or CUDA device with double precision");
}

/* Stop before the first block: cancelled, and the solver solves again. */
static void
test_cancelled (void)
{
  KsDevice *device = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  const KsGaussParams blocked = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_BLOCKED };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (100, 1, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  KsGaussResult r;

  if (device == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  solver = ks_gauss_solver_new (device, KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  g_cancellable_cancel (cancellable);
  g_assert_false (ks_gauss_solver_solve (solver, sys, &blocked, cancellable, NULL, &r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &blocked, NULL, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (r.residual, <, 1e-5);
}

/* The host launches nothing: the mode is refused there, saying why, and
 * its name reads back. */
static void
test_host_refused (void)
{
  KsDevice *host = ks_device_list_lookup (devices, "host", NULL);
  const KsGaussParams blocked = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_BLOCKED };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (host, KS_PRECISION_DOUBLE, &error);
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (10, 1, NULL);
  KsLaunchMode mode;
  KsGaussResult r;

  g_assert_no_error (error);
  g_assert_false (ks_gauss_check_launch (host, KS_LAUNCH_BLOCKED, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (ks_gauss_solver_solve (solver, sys, &blocked, NULL, NULL, &r, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "host"));
  g_assert_cmpstr (ks_launch_mode_to_string (KS_LAUNCH_BLOCKED), ==, "blocked");
  g_assert_true (ks_launch_mode_from_string ("blocked", &mode));
  g_assert_cmpint (mode, ==, KS_LAUNCH_BLOCKED);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/gauss-blocked/solutions", test_solutions);
  g_test_add_func ("/gauss-blocked/singular", test_singular);
  g_test_add_func ("/gauss-blocked/cancelled", test_cancelled);
  g_test_add_func ("/gauss-blocked/host-refused", test_host_refused);
  status = g_test_run ();
  g_object_unref (devices);
  return status;
}
