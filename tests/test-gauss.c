/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The paper's kernels on an OpenCL device (PoCL on a machine without a GPU)
 * against the host reference, for every policy and both precisions, and
 * every way a solve can fail. */
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-gauss.h"
#include "ks-host.h"
#include "ks-kernel-source.h"
#include "ks-mtx.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static KsDeviceList *devices;

static KsDevice *
opencl_device (void)
{
  return ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
}

static KsDevice *
host_device (void)
{
  return ks_device_list_lookup (devices, "host", NULL);
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

typedef struct {
  KsPrecision   precision;
  KsRangePolicy range;
  KsLocalPolicy local;
  guint         wg;
} Combo;

/* Every policy combination, on sizes where N+1 is prime (17 -> 18? no:
 * 16 -> 17), even, odd, smaller and larger than the group. */
static void
test_policies (gconstpointer data)
{
  const Combo *c = data;
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsGaussSolver) reference = NULL;
  const guint sizes[] = { 2, 3, 16, 33, 100 };
  const double tol = c->precision == KS_PRECISION_DOUBLE ? 1e-10 : 1e-4;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }

  solver = ks_gauss_solver_new (cl, c->precision, &error);
  g_assert_no_error (error);
  reference = ks_gauss_solver_new (host_device (), KS_PRECISION_DOUBLE, &error);
  g_assert_no_error (error);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(KsLinearSystem) sys = NULL;
      g_autofree double *x = NULL;
      g_autofree double *xref = NULL;
      KsGaussParams params = { c->range, c->local, c->wg };
      KsGaussParams none = { 0 };
      KsGaussResult r, rref;

      /* The driver's group tiles each column count, and PoCL compiles a
       * kernel per group size: n = 100 shrinking would build about a
       * hundred (30 s on two cores with a cold cache) to test what n = 33
       * tests with twenty. */
      if (c->range == KS_RANGE_SHRINKING && c->local == KS_LOCAL_DRIVER && sizes[s] > 33)
        continue;
      sys = ks_linear_system_new_random (sizes[s], 42 + sizes[s], NULL);
      x = g_new0 (double, sizes[s]);
      xref = g_new0 (double, sizes[s]);

      g_assert_true (ks_gauss_solver_solve (reference, sys, &none, NULL, xref, &rref, &error));
      g_assert_no_error (error);
      g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, x, &r, &error));
      g_assert_no_error (error);

      g_assert_cmpfloat (max_rel_diff (x, xref, sizes[s]), <, tol);
      g_assert_cmpfloat (r.residual, <, tol);
      g_assert_cmpfloat (r.wall_ms, >, 0.0);
      g_assert_cmpfloat (r.kernel_ms[KS_GAUSS_FWD], >, 0.0);
      g_assert_cmpfloat (r.kernels_total_ms, <=, r.wall_ms * 1.5 + 1.0);

      /* 2 (n - 1) forward launches and 2 n backward ones, more when split. */
      if (c->local != KS_LOCAL_SPLIT)
        g_assert_cmpuint (r.launches, ==,
                          2 * (sizes[s] - 1) + sizes[s] + (c->range == KS_RANGE_FIXED ? sizes[s] : sizes[s] - 1));

      /* The group the update kernel ran with, from inside the kernel. */
      if (sizes[s] >= 2)
        {
          guint cols = c->range == KS_RANGE_FIXED ? sizes[s] + 1 : sizes[s] + 1;
          g_assert_cmpuint (r.fwd_local[0], >=, 1);
          g_assert_cmpuint (r.fwd_groups[0], >=, 1);
          if (c->local == KS_LOCAL_EXPLICIT)
            g_assert_cmpuint (r.fwd_local[0], ==, c->wg);
          else if (c->local == KS_LOCAL_SPLIT && cols >= c->wg)
            g_assert_cmpuint (r.fwd_local[0], ==, c->wg);
          else if (c->local == KS_LOCAL_SPLIT)
            g_assert_cmpuint (r.fwd_local[0], ==, cols);
          else
            /* DRIVER: the groups tile exactly the n + 1 columns. */
            g_assert_cmpuint (r.fwd_local[0] * r.fwd_groups[0], ==, cols);
        }
    }
}

static void
test_host_reference (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (host_device (), KS_PRECISION_DOUBLE, &error);
  KsLinearSystem sys = { 3, NULL, NULL };
  double a[9] = { 4, 1, 0,
                  1, 4, 1,
                  0, 1, 4 };
  double b[3] = { 6, 12, 14 };   /* x = 1, 2, 3 */
  double x[3];
  KsGaussParams none = { 0 };
  KsGaussResult r;

  g_assert_no_error (error);
  sys.a = a;
  sys.b = b;
  g_assert_true (ks_gauss_solver_solve (solver, &sys, &none, NULL, x, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (x[0], 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (x[1], 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (x[2], 3.0, 1e-12);
  g_assert_cmpfloat (r.residual, <, 1e-14);
}

static void
check_singular (KsDevice *device, double *a, guint n)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (device, KS_PRECISION_DOUBLE, &error);
  g_autofree double *b = g_new (double, n);
  g_autofree double *x = g_new (double, n);
  KsLinearSystem sys = { n, a, b };
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult r;

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    b[i] = 1.0;
  g_assert_false (ks_gauss_solver_solve (solver, &sys, &params, NULL, x, &r, &error));
  g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_SINGULAR);
  g_assert_nonnull (strstr (error->message, "pivot"));
}

/* A singular matrix, and a regular one that needs a row exchange: the
 * method of the paper cannot do either, and must say so, not return NaN. */
static void
test_singular (void)
{
  double dup[9] = { 1, 2, 3,
                    1, 2, 3,
                    0, 1, 5 };
  double needs_pivot[9] = { 0, 1, 1,
                            1, 0, 1,
                            1, 1, 0 };
  KsDevice *cl = opencl_device ();

  check_singular (host_device (), dup, 3);
  check_singular (host_device (), needs_pivot, 3);
  if (cl)
    {
      check_singular (cl, dup, 3);
      check_singular (cl, needs_pivot, 3);
    }
}

static void
test_refused_work_group (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (20, 1, NULL);
  KsGaussResult r;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  solver = ks_gauss_solver_new (cl, KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);

  {
    KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_EXPLICIT,
                             (guint) ks_gauss_solver_get_max_work_group_size (solver) + 1 };
    g_assert_false (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
    g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
    g_assert_nonnull (strstr (error->message, "refuses"));
    g_clear_error (&error);
  }
  {
    KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_SPLIT, 0 };
    g_assert_false (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
    g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
    g_clear_error (&error);
  }
  /* The solver is still usable after a refusal. */
  {
    KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_EXPLICIT, 4 };
    g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
    g_assert_no_error (error);
  }
}

/* A system that cannot fit is refused from its size alone, before any
 * memory is taken. */
static void
test_too_large (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  guint n;
  KsLinearSystem sys = { 0, NULL, NULL };
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult r;
  double dummy = 1.0;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  solver = ks_gauss_solver_new (cl, KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  /* Big enough that n^2 floats exceed the device's memory. */
  n = (guint) sqrt ((double) ks_device_get_info (cl)->global_mem / sizeof (float)) + 1000;
  sys.n = n;
  sys.a = &dummy;  /* never read: the size check comes first */
  sys.b = &dummy;
  g_assert_false (ks_gauss_solver_solve (solver, &sys, &params, NULL, NULL, &r, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "MiB"));
}

static void
test_cancelled (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (50, 1, NULL);
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult r;

  g_cancellable_cancel (cancellable);
  {
    g_autoptr(KsGaussSolver) host = ks_gauss_solver_new (host_device (), KS_PRECISION_FLOAT, &error);
    g_assert_false (ks_gauss_solver_solve (host, sys, &params, cancellable, NULL, &r, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }
  if (cl)
    {
      g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (cl, KS_PRECISION_FLOAT, &error);
      g_assert_no_error (error);
      g_assert_false (ks_gauss_solver_solve (solver, sys, &params, cancellable, NULL, &r, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_clear_error (&error);
      /* And the solver works again with a fresh cancellable. */
      g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
      g_assert_no_error (error);
    }
}

static gpointer
cancel_later (gpointer data)
{
  GCancellable *cancellable = data;
  guint ms = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (cancellable), "after-ms"));

  g_usleep (ms * 1000);
  g_cancellable_cancel (cancellable);
  return NULL;
}

/* Stop in the middle of one large solve is felt soon, not when the whole
 * queue has run: the solver never has more than two stretches of steps
 * queued ahead (ks_runtime_pace).  Without that, the host enqueued every
 * launch within the first moments and then waited for all of them (a quit
 * in an n = 3000 solve on PoCL took 31 s).  The bound is relative to the
 * same solve uncancelled, on the same machine, and generous: cancelled at a
 * tenth of its time, it must be back before 60 % of it. */
static void
test_cancel_mid_solve (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (1400, 2, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult r;
  GThread *thread;
  gint64 t0;
  double full_ms, cancelled_ms;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  solver = ks_gauss_solver_new (cl, KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  ks_gauss_solver_set_timing (solver, FALSE);
  /* Once to build and cache what PoCL compiles on first use, once timed. */
  g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
  t0 = g_get_monotonic_time ();
  g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
  full_ms = (g_get_monotonic_time () - t0) / 1000.0;

  g_object_set_data (G_OBJECT (cancellable), "after-ms", GUINT_TO_POINTER ((guint) (full_ms / 10)));
  thread = g_thread_new ("cancel", cancel_later, cancellable);
  t0 = g_get_monotonic_time ();
  g_assert_false (ks_gauss_solver_solve (solver, sys, &params, cancellable, NULL, &r, &error));
  cancelled_ms = (g_get_monotonic_time () - t0) / 1000.0;
  g_thread_join (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_test_message ("n = 1400 on %s: %.0f ms whole, back %.0f ms after a start cancelled at %.0f ms",
                  ks_device_get_name (cl), full_ms, cancelled_ms, full_ms / 10);
  g_assert_cmpfloat (cancelled_ms, <, 0.6 * full_ms);
}

/* The device goes away in the middle of a solve. */
static void
test_device_lost (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (30, 1, NULL);
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult r;

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_setenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS", "10", TRUE);
  solver = ks_gauss_solver_new (cl, KS_PRECISION_FLOAT, &error);
  g_unsetenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS");
  g_assert_no_error (error);
  g_assert_false (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_DEVICE_LOST);
  g_assert_nonnull (strstr (error->message, "CL_DEVICE_NOT_AVAILABLE"));
}

static void
test_build_failure (void)
{
  KsDevice *cl = opencl_device ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-gauss-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "gauss.cl", NULL);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  g_assert_true (g_file_set_contents (path, "__kernel void gauss_fwd_pre (int x) { return x }\n", -1, NULL));
  ks_kernel_source_set_dir (dir);
  solver = ks_gauss_solver_new (cl, KS_PRECISION_FLOAT, &error);
  ks_kernel_source_set_dir (NULL);
  g_assert_null (solver);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED);
  g_assert_nonnull (strstr (error->message, "gauss.cl"));
  g_assert_nonnull (strstr (error->message, "Build log"));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_matrix_market (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-mtx-XXXXXX", NULL);
  g_autofree char *a_path = g_build_filename (dir, "A.mtx", NULL);
  g_autofree char *b_path = g_build_filename (dir, "b.mtx", NULL);
  g_autofree char *bad_path = g_build_filename (dir, "B.mtx", NULL);
  g_autofree char *x_path = g_build_filename (dir, "x.mtx", NULL);
  g_autoptr(KsLinearSystem) sys = NULL;
  g_autoptr(KsLinearSystem) bad = NULL;
  g_autoptr(KsGaussSolver) solver = ks_gauss_solver_new (host_device (), KS_PRECISION_DOUBLE, NULL);
  g_autofree double *xback = NULL;
  const double a[16] = { 10, 1, 0, 2,
                         1, 12, 3, 0,
                         0, 3, 9, 1,
                         2, 0, 1, 8 };
  const double x_true[4] = { 1, -2, 3, 0.5 };
  double b[4], x[4];
  double rect[6] = { 1, 2, 3, 4, 5, 6 };
  guint rows = 0, cols = 0;
  KsGaussParams none = { 0 };
  KsGaussResult r;

  for (guint i = 0; i < 4; i++)
    {
      b[i] = 0;
      for (guint j = 0; j < 4; j++)
        b[i] += a[i * 4 + j] * x_true[j];
    }
  g_assert_true (ks_mtx_write_dense (a_path, 4, 4, a, "test matrix", &error));
  g_assert_true (ks_mtx_write_dense (b_path, 4, 1, b, NULL, &error));
  g_assert_no_error (error);

  sys = ks_linear_system_new_from_mtx (a_path, b_path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sys->n, ==, 4);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &none, NULL, x, &r, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat_with_epsilon (x[i], x_true[i], 1e-12);

  /* The solution written back reads as the same numbers. */
  g_assert_true (ks_mtx_write_dense (x_path, 4, 1, x, NULL, &error));
  g_assert_true (ks_mtx_read_dense (x_path, 0, &rows, &cols, &xback, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rows, ==, 4);
  g_assert_cmpuint (cols, ==, 1);
  g_assert_cmpmem (xback, 4 * sizeof (double), x, 4 * sizeof (double));

  /* Not square. */
  g_assert_true (ks_mtx_write_dense (bad_path, 2, 3, rect, NULL, &error));
  bad = ks_linear_system_new_from_mtx (bad_path, b_path, 0, &error);
  g_assert_null (bad);
  g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_NOT_SQUARE);
  g_clear_error (&error);

  /* b of the wrong length. */
  g_assert_true (ks_mtx_write_dense (bad_path, 3, 1, rect, NULL, &error));
  bad = ks_linear_system_new_from_mtx (a_path, bad_path, 0, &error);
  g_assert_null (bad);
  g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_SIZE_MISMATCH);
  g_clear_error (&error);

  /* A missing file. */
  bad = ks_linear_system_new_from_mtx ("/nonexistent/A.mtx", b_path, 0, &error);
  g_assert_null (bad);
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO);
  g_clear_error (&error);

  g_unlink (a_path);
  g_unlink (b_path);
  g_unlink (bad_path);
  g_unlink (x_path);
  g_rmdir (dir);
}

/* GRAPH where there are no graphs: refused with the reason, no fallback. */
static void
test_graph_unsupported (void)
{
  KsDevice *targets[] = { opencl_device (), host_device () };
  const char *why[] = { "OpenCL has no graphs", "host" };

  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsGaussSolver) solver = NULL;
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (16, 3, NULL);
      KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_GRAPH };
      KsGaussResult r;

      if (targets[t] == NULL)
        continue;
      solver = ks_gauss_solver_new (targets[t], KS_PRECISION_FLOAT, &error);
      g_assert_no_error (error);

      g_assert_false (ks_gauss_solver_check (solver, 16, &params, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "CUDA Graphs need a CUDA device"));
      g_assert_nonnull (strstr (error->message, why[t]));
      g_clear_error (&error);

      g_assert_false (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "CUDA Graphs need a CUDA device"));
      g_clear_error (&error);

      /* The refusal leaves the solver usable. */
      params.launch = KS_LAUNCH_STREAM;
      g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpint (r.launch, ==, KS_LAUNCH_STREAM);
      g_assert_false (r.graph_replay);
      g_assert_cmpfloat (r.capture_ms, ==, 0.0);
    }
}

/* The solver keeps its buffers: a smaller n solves in the beginning of the
 * larger ones, a larger n again after it still solves, and a singular
 * system on reused buffers is still caught (the pivot flag is reset). */
static void
test_buffer_reuse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  const guint sizes[] = { 64, 32, 64, 65, 2, 65 };
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  double dup[9] = { 1, 2, 3,
                    1, 2, 3,
                    0, 1, 5 };
  double ones[3] = { 1, 1, 1 };
  KsLinearSystem singular = { 3, dup, ones };
  KsGaussResult r;

  if (opencl_device () == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  solver = ks_gauss_solver_new (opencl_device (), KS_PRECISION_DOUBLE, &error);
  g_assert_no_error (error);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (sizes[s], 7 + s, NULL);
      g_autofree double *x = g_new0 (double, sizes[s]);
      g_autofree double *xref = g_new0 (double, sizes[s]);
      KsGaussResult rref;

      g_assert_true (ks_gauss_host_solve (sys, KS_PRECISION_DOUBLE, NULL, xref, &rref, &error));
      g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, x, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (max_rel_diff (x, xref, sizes[s]), <, 1e-10);
      g_assert_cmpfloat (r.residual, <, 1e-12);
    }

  g_assert_false (ks_gauss_solver_solve (solver, &singular, &params, NULL, NULL, &r, &error));
  g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_SINGULAR);
  g_clear_error (&error);

  /* And after the failure, a good system of the same buffers again. */
  {
    g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (40, 11, NULL);
    g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (r.residual, <, 1e-12);
  }
}

/* Untimed solves give the same answer, the launch count, and no device
 * times; released buffers come back on the next solve. */
static void
test_untimed_and_release (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (50, 3, NULL);
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult timed, untimed;

  if (opencl_device () == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  solver = ks_gauss_solver_new (opencl_device (), KS_PRECISION_DOUBLE, &error);
  g_assert_no_error (error);

  g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &timed, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (timed.kernels_total_ms, >, 0.0);

  ks_gauss_solver_set_timing (solver, FALSE);
  ks_gauss_solver_release_buffers (solver);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &untimed, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (untimed.kernels_total_ms, ==, 0.0);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    g_assert_cmpfloat (untimed.kernel_ms[k], ==, 0.0);
  g_assert_cmpuint (untimed.launches, ==, timed.launches);
  g_assert_cmpfloat (untimed.wall_ms, >, 0.0);
  g_assert_cmpfloat (untimed.residual, <, 1e-12);

  ks_gauss_solver_set_timing (solver, TRUE);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &timed, &error));
  g_assert_cmpfloat (timed.kernels_total_ms, >, 0.0);
}

/* A solver never writes its device's properties: what it learns about its
 * kernels (their preferred multiple) stays with the kernels.  The device
 * holds a figure no kernel reports, which must survive a solver's build
 * and a solve. */
static void
test_device_untouched (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (20, 5, NULL);
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  KsGaussResult result;
  KsDevice *device = opencl_device ();
  gsize before;

  if (device == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  before = ks_device_get_preferred_multiple (device);
  ks_device_set_preferred_multiple (device, 7);
  solver = ks_gauss_solver_new (device, KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ks_device_get_preferred_multiple (device), ==, 7);
  g_assert_cmpuint (ks_gauss_solver_get_preferred_multiple (solver), >=, 1);
  ks_device_set_preferred_multiple (device, before);
}

static void
test_parse_names (void)
{
  KsPrecision p;
  KsRangePolicy r;
  KsLocalPolicy l;

  g_assert_true (ks_precision_from_string ("double", &p) && p == KS_PRECISION_DOUBLE);
  g_assert_false (ks_precision_from_string ("quad", &p));
  g_assert_true (ks_range_policy_from_string ("shrinking", &r) && r == KS_RANGE_SHRINKING);
  g_assert_false (ks_range_policy_from_string ("growing", &r));
  g_assert_true (ks_local_policy_from_string ("SPLIT", &l) && l == KS_LOCAL_SPLIT);
  g_assert_false (ks_local_policy_from_string ("auto", &l));
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (ks_local_policy_from_string (ks_local_policy_to_string (i), &l));
      g_assert_cmpint (l, ==, i);
    }
}

/* A 2 x 2 system [a00 a01; a10 a11] x = [b0 b1], solved on device in
 * precision; the error it fails with (NULL when it solved). */
static GError *
solve_2x2 (KsDevice    *device,
           KsPrecision  precision,
           double       a00,
           double       a01,
           double       a10,
           double       a11,
           double       b0,
           double       b1)
{
  double a[4] = { a00, a01, a10, a11 };
  double b[2] = { b0, b1 };
  KsLinearSystem sys = { 2, a, b };
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };
  g_autoptr(KsGaussSolver) solver = NULL;
  GError *error = NULL;
  KsGaussResult r;
  double x[2];

  solver = ks_gauss_solver_new (device, precision, &error);
  g_assert_no_error (error);
  if (ks_gauss_solver_solve (solver, &sys, &params, NULL, x, &r, &error))
    {
      g_assert_true (isfinite (r.residual));
      return NULL;
    }
  return error;
}

static void
assert_range_error (GError     *error,
                    int         code,
                    const char *entry)
{
  g_assert_error (error, KS_SOLVER_ERROR, code);
  g_assert_nonnull (strstr (error->message, entry));
  if (code != KS_SOLVER_ERROR_NOT_FINITE)
    g_assert_nonnull (strstr (error->message, "use double (-p double)"));
  g_error_free (error);
}

/* Values float cannot hold are named as overflow or underflow (they were
 * a "tiny pivot" and "singular" before, or a NaN residual with success);
 * double solves the same systems; NaN and infinity are refused in both. */
static void
test_float_range (void)
{
  KsDevice *targets[2] = { host_device (), opencl_device () };

  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      KsDevice *d = targets[t];

      if (d == NULL)
        continue;
      assert_range_error (solve_2x2 (d, KS_PRECISION_FLOAT, 1e300, 0, 0, 1, 1, 1),
                          KS_SOLVER_ERROR_OVERFLOW, "A(1, 1) = 1e+300 overflows float");
      assert_range_error (solve_2x2 (d, KS_PRECISION_FLOAT, 1e-50, 0, 0, 1, 1, 1),
                          KS_SOLVER_ERROR_UNDERFLOW, "A(1, 1) = 1e-50 underflows to 0 in float");
      assert_range_error (solve_2x2 (d, KS_PRECISION_FLOAT, 1, 0, 0, 1, 1, -1e39),
                          KS_SOLVER_ERROR_OVERFLOW, "b(2) = -1e+39");
      assert_range_error (solve_2x2 (d, KS_PRECISION_FLOAT, 1, 0, 2e-46, 1, 1, 1),
                          KS_SOLVER_ERROR_UNDERFLOW, "A(2, 1)");
      /* Every input fits float, but the elimination leaves it: the
       * answer would be NaN with a NaN residual. */
      assert_range_error (solve_2x2 (d, KS_PRECISION_FLOAT, 1e32, 3e38, 3e38, 1, 3e38, 1),
                          KS_SOLVER_ERROR_OVERFLOW, "overflowed float");
      /* Scaled alike, so that no pivot is tiny against the largest entry. */
      g_assert_null (solve_2x2 (d, KS_PRECISION_DOUBLE, 1e300, 0, 0, 1e300, 1, 1));
      g_assert_null (solve_2x2 (d, KS_PRECISION_DOUBLE, 1e-50, 0, 0, 1e-50, 1, 1));
      g_assert_null (solve_2x2 (d, KS_PRECISION_DOUBLE, 1e32, 3e38, 3e38, 1, 3e38, 1));
      for (guint p = 0; p < 2; p++)
        {
          assert_range_error (solve_2x2 (d, p, 1, NAN, 0, 1, 1, 1), KS_SOLVER_ERROR_NOT_FINITE, "A(1, 2) is NaN");
          assert_range_error (solve_2x2 (d, p, 1, 0, 0, 1, -INFINITY, 1), KS_SOLVER_ERROR_NOT_FINITE,
                              "b(1) is -infinity");
        }
    }
}

/* The host memory a solve needs is checked before anything is allocated,
 * on every backend: n = 50000 on PoCL passed the device-only check and grew
 * the process past 8.8 GB.  The test hook stands in for MemAvailable. */
static void
test_host_memory (void)
{
  KsDevice *targets[2] = { host_device (), opencl_device () };
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };

  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autoptr(KsGaussSolver) solver = NULL;
      g_autoptr(KsLinearSystem) sys = NULL;
      g_autoptr(GError) error = NULL;
      KsGaussResult r;

      if (targets[t] == NULL)
        continue;
      solver = ks_gauss_solver_new (targets[t], KS_PRECISION_FLOAT, &error);
      g_assert_no_error (error);
      sys = ks_linear_system_new_random (1000, 1, &error);
      g_assert_no_error (error);

      /* 2000 unknowns: 32 MiB for the system alone, against 8 MiB. */
      g_setenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE", "8388608", TRUE);
      g_assert_false (ks_gauss_solver_check (solver, 2000, &params, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
      g_assert_nonnull (strstr (error->message, "n = 2000 needs"));
      g_assert_nonnull (strstr (error->message, "the system in double 30.5 MiB"));
      g_assert_nonnull (strstr (error->message, "only 8.0 MiB is available"));
      g_clear_error (&error);
      g_assert_null (ks_linear_system_new_random (2000, 1, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
      g_clear_error (&error);

      /* A system that exists: only the solve's own copy is counted (about
       * 4 MiB in float, more on PoCL, whose buffers are host memory). */
      g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
      g_assert_no_error (error);
      g_setenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE", "2097152", TRUE);
      g_assert_false (ks_gauss_solver_solve (solver, sys, &params, NULL, NULL, &r, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
      g_assert_null (strstr (error->message, "the system in double"));
      g_clear_error (&error);

      /* The machine's own figure lets a small size through. */
      g_unsetenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE");
      g_assert_cmpuint (ks_host_memory_available (NULL), >, 0);
      g_assert_true (ks_gauss_solver_check (solver, 2000, &params, &error));
      g_assert_no_error (error);
    }
}

int
main (int argc, char **argv)
{
  static const char *local_names[] = { "driver", "explicit", "split" };
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();

  for (guint p = 0; p < 2; p++)
    for (guint r = 0; r < 2; r++)
      for (guint l = 0; l < 3; l++)
        {
          /* Group sizes that divide nothing (7) and a power of two (8). */
          const guint wgs[] = { 7, 8 };
          for (guint w = 0; w < (l == KS_LOCAL_DRIVER ? 1 : 2); w++)
            {
              Combo *c = g_new0 (Combo, 1);
              g_autofree char *path = NULL;

              c->precision = p;
              c->range = r;
              c->local = l;
              c->wg = l == KS_LOCAL_DRIVER ? 0 : wgs[w];
              path = g_strdup_printf ("/gauss/opencl/%s/%s/%s%s%u", ks_precision_to_string (p),
                                      ks_range_policy_to_string (r), local_names[l],
                                      c->wg ? "-wg" : "", c->wg);
              g_test_add_data_func_full (path, c, test_policies, g_free);
            }
        }
  g_test_add_func ("/gauss/host-reference", test_host_reference);
  g_test_add_func ("/gauss/singular", test_singular);
  g_test_add_func ("/gauss/refused-work-group", test_refused_work_group);
  g_test_add_func ("/gauss/too-large", test_too_large);
  g_test_add_func ("/gauss/float-range", test_float_range);
  g_test_add_func ("/gauss/host-memory", test_host_memory);
  g_test_add_func ("/gauss/cancelled", test_cancelled);
  g_test_add_func ("/gauss/cancel-mid-solve", test_cancel_mid_solve);
  g_test_add_func ("/gauss/device-lost", test_device_lost);
  g_test_add_func ("/gauss/build-failure", test_build_failure);
  g_test_add_func ("/gauss/matrix-market", test_matrix_market);
  g_test_add_func ("/gauss/parse-names", test_parse_names);
  g_test_add_func ("/gauss/graph-unsupported", test_graph_unsupported);
  g_test_add_func ("/gauss/buffer-reuse", test_buffer_reuse);
  g_test_add_func ("/gauss/untimed-and-release", test_untimed_and_release);
  g_test_add_func ("/gauss/device-untouched", test_device_untouched);

  status = g_test_run ();
  g_clear_object (&devices);
  return status;
}
