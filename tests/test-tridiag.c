/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The batched tridiagonal solvers: every device method on every OpenCL and
 * CUDA device here (PoCL on a machine without a GPU) against the host's
 * sequential Thomas in double, float and double, sizes of 2^k - 1 and
 * others (padded or refused for SERICR), the layouts; the host methods
 * against each other and LAPACK; and every way a solve can fail. */
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-tridiag.h"
#include "ks-tridiag-split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static KsDeviceList *devices;

/* The double-precision sequential Thomas: what every method is held to. */
static double *
reference (const KsTridiagBatch *batch)
{
  g_autoptr(GError) error = NULL;
  double *x = g_new0 (double, (gsize) batch->n * batch->systems);

  ks_tridiag_host_solve (batch, KS_TRIDIAG_CPU_THOMAS, KS_PRECISION_DOUBLE, FALSE, x, NULL, &error);
  g_assert_no_error (error);
  return x;
}

static double
max_diff (const double *x,
          const double *y,
          gsize         count)
{
  double d = 0.0;
  for (gsize i = 0; i < count; i++)
    if (!(fabs (x[i] - y[i]) <= d))
      d = fabs (x[i] - y[i]);
  return d;
}

static double
tolerance (KsPrecision precision)
{
  /* Dominant systems with |x| about 1: float's few ulps, grown a little. */
  return precision == KS_PRECISION_DOUBLE ? 1e-11 : 2e-4;
}

typedef struct {
  KsTridiagMethod method;
  KsPrecision     precision;
} Case;

static gboolean
fp64_ok (KsDevice    *device,
         KsPrecision  precision)
{
  return precision == KS_PRECISION_FLOAT || ks_device_get_info (device)->has_fp64;
}

/* Sizes around the chunk (16), the group (64, 256) and 2^k - 1; numbers of
 * systems smaller and larger than a group and no multiple of it. */
static void
test_device_method (gconstpointer data)
{
  const Case *c = data;
  const guint sizes[] = { 1, 2, 3, 7, 17, 31, 100, 255, 300, 1023 };
  const guint counts[] = { 1, 5, 70 };
  /* Under Oclgrind (test-tridiag-oclgrind.sh), where every item is
   * simulated: a few sizes, each through every chunk and group boundary
   * the kernels have (17 rows over chunks of 16, 70 systems over groups
   * of 64 and 32). */
  const gboolean quick = g_getenv ("KS_TRIDIAG_TEST_QUICK") != NULL;
  guint tested = 0;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      g_autoptr(KsTridiagSolver) solver = NULL;
      g_autoptr(GError) error = NULL;

      if (ks_device_get_backend (device) == KS_BACKEND_HOST || !fp64_ok (device, c->precision))
        continue;
      solver = ks_tridiag_solver_new (device, c->precision, &error);
      g_assert_no_error (error);
      for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
        for (guint ci = 0; ci < G_N_ELEMENTS (counts); ci++)
          {
            const guint n = sizes[si], k = counts[ci];
            g_autoptr(KsTridiagBatch) batch = NULL;
            g_autofree double *xref = NULL, *x = NULL;
            KsTridiagResult result;

            /* The big sizes once, on a few systems: the test stays short. */
            if ((n > 300 && k != 5) || (quick && (n > 17 || n == 2 || (k == 70 && n > 3))))
              continue;
            batch = ks_tridiag_batch_new (n, k, &error);
            g_assert_no_error (error);
            ks_tridiag_batch_fill_random (batch, 7 * n + k);
            xref = reference (batch);
            x = g_new0 (double, (gsize) n * k);
            ks_tridiag_solver_load (solver, batch, c->method, TRUE, &error);
            g_assert_no_error (error);
            ks_tridiag_solver_run (solver, &result, &error);
            g_assert_no_error (error);
            ks_tridiag_solver_read (solver, x, &error);
            g_assert_no_error (error);
            if (max_diff (x, xref, (gsize) n * k) > tolerance (c->precision))
              g_error ("%s on %s: n = %u, %u systems: max |x - x_ref| = %g", ks_tridiag_method_to_string (c->method),
                       ks_device_get_name (device), n, k, max_diff (x, xref, (gsize) n * k));
            g_assert_cmpfloat (ks_tridiag_batch_residual (batch, x, 0), <, 10 * tolerance (c->precision));
            /* paracr-thomas in its smallest tiles and pieces: several
             * launches, the first over one residue, the later ones strided
             * over eight, even on these sizes. */
            if (c->method == KS_TRIDIAG_PARACR_THOMAS)
              {
                g_autofree double *x2 = g_new0 (double, (gsize) n * k);
                ks_tridiag_solver_set_hybrid (solver, 48, 2);
                ks_tridiag_solver_run (solver, &result, &error);
                g_assert_no_error (error);
                ks_tridiag_solver_read (solver, x2, &error);
                g_assert_no_error (error);
                ks_tridiag_solver_set_hybrid (solver, 0, 0);
                if (max_diff (x2, xref, (gsize) n * k) > tolerance (c->precision))
                  g_error ("paracr-thomas in small tiles on %s: n = %u, %u systems: max |x - x_ref| = %g",
                           ks_device_get_name (device), n, k, max_diff (x2, xref, (gsize) n * k));
              }
            g_assert_cmpuint (result.n, ==, ks_tridiag_method_needs_2k1 (c->method) ? ks_tridiag_padded_size (n) : n);
            g_assert_cmpuint (result.local_size, >, 0);
            g_assert_true (result.kernel_ms >= 0.0 && result.wall_ms >= 0.0);
            tested++;
          }
    }
  if (tested == 0)
    g_test_skip ("no OpenCL or CUDA device with this precision (install pocl-opencl-icd)");
}

/* The same solver, loaded again with a solve in between: a repetition
 * sees the inputs untouched. */
static void
test_repeat (void)
{
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  g_autoptr(KsTridiagSolver) solver = NULL;
  g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (63, 9, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree double *xref = NULL, *x = g_new0 (double, 63 * 9);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  ks_tridiag_batch_fill_random (batch, 3);
  xref = reference (batch);
  solver = ks_tridiag_solver_new (cl, KS_PRECISION_DOUBLE, &error);
  g_assert_no_error (error);
  for (KsTridiagMethod m = 0; m < KS_TRIDIAG_N_DEVICE_METHODS; m++)
    {
      KsTridiagResult result;
      ks_tridiag_solver_load (solver, batch, m, FALSE, &error);
      g_assert_no_error (error);
      for (guint rep = 0; rep < 3; rep++)
        {
          memset (x, 0, sizeof (double) * 63 * 9);
          ks_tridiag_solver_run (solver, &result, &error);
          g_assert_no_error (error);
          ks_tridiag_solver_read (solver, x, &error);
          g_assert_no_error (error);
          g_assert_cmpfloat (max_diff (x, xref, 63 * 9), <, 1e-11);
        }
    }
}

/* The host methods against the double Thomas, in both precisions; SERICR
 * on sizes it pads. */
static void
test_host_methods (void)
{
  const guint sizes[] = { 1, 2, 3, 8, 15, 100, 511 };
  const KsTridiagMethod methods[] = {
    KS_TRIDIAG_CPU_THOMAS, KS_TRIDIAG_CPU_SERICR, KS_TRIDIAG_OMP_THOMAS, KS_TRIDIAG_LAPACK_GTSV,
  };

  for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
    {
      g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (sizes[si], 13, NULL);
      g_autofree double *xref = NULL;

      ks_tridiag_batch_fill_random (batch, sizes[si]);
      xref = reference (batch);
      for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
        for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
          {
            g_autoptr(GError) error = NULL;
            g_autofree double *x = g_new0 (double, (gsize) sizes[si] * 13);
            double ms = -1.0;

            if (methods[m] == KS_TRIDIAG_LAPACK_GTSV && !ks_tridiag_host_solve (batch, methods[m], p, TRUE, x, &ms, &error) &&
                g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
              continue;   /* built without LAPACKE: said so, nothing to compare */
            g_clear_error (&error);
            ks_tridiag_host_solve (batch, methods[m], p, TRUE, x, &ms, &error);
            g_assert_no_error (error);
            g_assert_cmpfloat (ms, >=, 0.0);
            g_assert_cmpfloat (max_diff (x, xref, (gsize) sizes[si] * 13), <, tolerance (p));
          }
    }
}

/* Cyclic reduction's sizes: padded when allowed, refused otherwise, and
 * the message names both sizes. */
static void
test_sericr_refused (void)
{
  g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (100, 2, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree double *x = g_new0 (double, 200);
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);

  g_assert_cmpuint (ks_tridiag_padded_size (1), ==, 1);
  g_assert_cmpuint (ks_tridiag_padded_size (4), ==, 7);
  g_assert_cmpuint (ks_tridiag_padded_size (4095), ==, 4095);
  g_assert_cmpuint (ks_tridiag_padded_size (4096), ==, 8191);

  ks_tridiag_batch_fill_random (batch, 1);
  g_assert_false (ks_tridiag_host_solve (batch, KS_TRIDIAG_CPU_SERICR, KS_PRECISION_DOUBLE, FALSE, x, NULL, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "100"));
  g_assert_nonnull (strstr (error->message, "127"));
  g_clear_error (&error);
  if (cl)
    {
      g_autoptr(KsTridiagSolver) solver = ks_tridiag_solver_new (cl, KS_PRECISION_FLOAT, &error);
      g_assert_no_error (error);
      g_assert_false (ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_SERICR_LOCAL, FALSE, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "127"));
      g_clear_error (&error);
      /* PARACR takes any size. */
      g_assert_true (ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_PARACR_GLOBAL, FALSE, &error));
      g_assert_no_error (error);
    }
}

/* A zero pivot names the system and the row, on the host and the device,
 * for every pivot-free method. */
static void
test_zero_pivot (void)
{
  g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (15, 4, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree double *x = g_new0 (double, 60);
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  g_autoptr(KsTridiagSolver) solver = NULL;
  guint sys = 0, row = 0;

  ks_tridiag_batch_fill_random (batch, 5);
  g_assert_true (ks_tridiag_batch_is_dominant (batch, NULL, NULL));
  /* System 2 all zero: every method's first pivot there is 0. */
  for (guint i = 0; i < 15; i++)
    batch->a[30 + i] = batch->b[30 + i] = batch->c[30 + i] = 0.0;
  batch->a[45 + 3] = 5.0;   /* and system 3 row 3 not dominant */
  batch->b[45 + 3] = 1.0;
  g_assert_false (ks_tridiag_batch_is_dominant (batch, &sys, &row));
  /* 0 >= 0 + 0: the zero rows are not what the check is about. */
  g_assert_cmpuint (sys, ==, 3);
  g_assert_cmpuint (row, ==, 3);

  for (KsTridiagMethod m = KS_TRIDIAG_CPU_THOMAS; m <= KS_TRIDIAG_OMP_THOMAS; m++)
    {
      g_assert_false (ks_tridiag_host_solve (batch, m, KS_PRECISION_DOUBLE, TRUE, x, NULL, &error));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT);
      g_assert_nonnull (strstr (error->message, "system 2"));
      g_clear_error (&error);
    }
  if (!ks_tridiag_host_solve (batch, KS_TRIDIAG_LAPACK_GTSV, KS_PRECISION_DOUBLE, TRUE, x, NULL, &error) &&
      !g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
    {
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR);
      g_assert_nonnull (strstr (error->message, "system 2"));
    }
  g_clear_error (&error);
  if (cl == NULL)
    return;
  solver = ks_tridiag_solver_new (cl, KS_PRECISION_DOUBLE, &error);
  g_assert_no_error (error);
  for (KsTridiagMethod m = 0; m < KS_TRIDIAG_N_DEVICE_METHODS; m++)
    {
      KsTridiagResult result;
      ks_tridiag_solver_load (solver, batch, m, TRUE, &error);
      g_assert_no_error (error);
      if (ks_tridiag_solver_run (solver, &result, &error))
        g_error ("%s solved a batch with a zero system", ks_tridiag_method_to_string (m));
      g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT);
      if (strstr (error->message, "system 2 at row") == NULL)
        g_error ("%s: %s", ks_tridiag_method_to_string (m), error->message);
      g_clear_error (&error);
    }
  /* paracr-thomas through its local-memory tiles too: the batch reduced
   * as one system still names system 2. */
  ks_tridiag_solver_set_hybrid (solver, 48, 2);
  ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_PARACR_THOMAS, TRUE, &error);
  g_assert_no_error (error);
  g_assert_false (ks_tridiag_solver_run (solver, &(KsTridiagResult) { 0 }, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT);
  g_assert_nonnull (strstr (error->message, "system 2 at row"));
}

/* More than the device holds is refused before allocating, with the
 * numbers; so is a batch larger than the host's memory. */
static void
test_too_large (void)
{
  KsDevice *cl = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsTridiagSolver) solver = NULL;
  g_autoptr(KsTridiagBatch) batch = NULL;
  guint64 bytes;

  g_assert_null (ks_tridiag_batch_new (G_MAXUINT, G_MAXUINT, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "MiB"));
  g_clear_error (&error);
  g_assert_null (ks_tridiag_batch_new (0, 4, &error));
  g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID);
  g_clear_error (&error);

  bytes = ks_tridiag_device_bytes (KS_TRIDIAG_PARACR_GLOBAL, KS_PRECISION_FLOAT, 4095, 40000, FALSE);
  /* a, b, c, d, two work sets of four, x: 13 arrays, and the status
   * (one int a system and one for paracr-thomas). */
  g_assert_cmpuint (bytes, ==, (guint64) 4095 * 40000 * 4 * 13 + 40001 * 4);
  g_assert_cmpuint (ks_tridiag_device_bytes (KS_TRIDIAG_SERICR_GLOBAL, KS_PRECISION_DOUBLE, 4000, 1, TRUE), ==,
                    (guint64) 4095 * 8 * 9 + 8);
  if (cl == NULL)
    return;
  solver = ks_tridiag_solver_new (cl, KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  /* A batch that says it is huge without holding the memory: load must
   * refuse it from its size alone, before it reads a single value. */
  batch = g_new0 (KsTridiagBatch, 1);
  batch->n = 1u << 20;
  batch->systems = 1u << 20;
  g_assert_false (ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_PARACR_GLOBAL, FALSE, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "MiB"));
}

static void
test_methods_named (void)
{
  for (KsTridiagMethod m = 0; m < KS_TRIDIAG_N_METHODS; m++)
    {
      KsTridiagMethod back;
      g_assert_true (ks_tridiag_method_from_string (ks_tridiag_method_to_string (m), &back));
      g_assert_cmpint (back, ==, m);
      g_assert_true (ks_tridiag_method_is_host (m) ==
                     (m >= KS_TRIDIAG_N_DEVICE_METHODS && !ks_tridiag_method_is_cusparse (m)));
    }
  g_assert_false (ks_tridiag_method_from_string ("thomas", &(KsTridiagMethod) { 0 }));
  g_assert_cmpint (ks_tridiag_method_baseline (KS_TRIDIAG_THOMAS_INTERLEAVED), ==, KS_TRIDIAG_CPU_THOMAS);
  g_assert_cmpint (ks_tridiag_method_baseline (KS_TRIDIAG_PARACR_PARTIAL), ==, KS_TRIDIAG_CPU_SERICR);
  g_assert_cmpint (ks_tridiag_method_baseline (KS_TRIDIAG_CUSPARSE_STRIDED), ==, KS_TRIDIAG_CPU_THOMAS);
}

/* cuSPARSE: against the host reference on every CUDA device; elsewhere
 * refused, saying where it runs. */
static void
test_cusparse (void)
{
  guint tested = 0;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      const gboolean cuda = ks_device_get_backend (device) == KS_BACKEND_CUDA;

      for (KsTridiagMethod m = KS_TRIDIAG_CUSPARSE_STRIDED; m < KS_TRIDIAG_N_METHODS; m++)
        for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
          {
            const guint systems = m == KS_TRIDIAG_CUSPARSE_NOPIVOT ? 1 : 37;
            g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (100, systems, NULL);
            g_autofree double *xref = NULL, *x = g_new0 (double, 100 * systems);
            g_autoptr(GError) error = NULL;
            double ms = -1;

            ks_tridiag_batch_fill_random (batch, m);
            xref = reference (batch);
            if (!ks_tridiag_cusparse_solve (device, batch, m, p, x, &ms, &error))
              {
                g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
                g_assert_true (!cuda || strstr (error->message, "cannot open"));
                g_assert_true (cuda || strstr (error->message, "CUDA"));
                continue;
              }
            g_assert_cmpfloat (max_diff (x, xref, 100 * systems), <, tolerance (p));
            g_assert_cmpfloat (ms, >=, 0.0);
            tested++;
          }
    }
  if (tested == 0)
    g_test_skip ("no CUDA device with cuSPARSE: checked that every other device refuses it");
}

/* thomas-split (issue 30) on the sizes its pieces and groups turn on:
 * n = 1 and 2 (one piece), odd and even sizes around a piece of 8 rows,
 * powers of two and their neighbours (pieces of 8 and 16 rows, groups of
 * 32 to 512 items), 4095 (the benchmark's); batches of 1, 3 and 37
 * systems; against the host's double Thomas in float and double.  Then
 * the size no group holds, refused saying what to choose. */
static void
test_split (void)
{
  const guint sizes[] = { 1, 2, 3, 5, 8, 9, 16, 17, 63, 64, 65, 256, 1000, 1024, 4095 };
  const guint counts[] = { 1, 3, 37 };
  const gboolean quick = g_getenv ("KS_TRIDIAG_TEST_QUICK") != NULL;
  const struct { guint rows; int stream; guint groups; } variants[] = {
    { 0, -1, 0 }, { 8, -1, 0 }, { 16, -1, 0 }, { 16, 1, 2 }, { 8, 0, 2 }, { 0, 1, 0 },
  };
  guint tested = 0;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
      {
        KsDevice *device = ks_device_list_get_device (devices, d);
        g_autoptr(KsTridiagSolver) solver = NULL;
        g_autoptr(GError) error = NULL;

        if (ks_device_get_backend (device) == KS_BACKEND_HOST || !fp64_ok (device, p))
          continue;
        solver = ks_tridiag_solver_new (device, p, &error);
        g_assert_no_error (error);
        for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
          for (guint ci = 0; ci < G_N_ELEMENTS (counts); ci++)
            {
              const guint n = sizes[si], k = counts[ci];
              g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (n, k, NULL);
              g_autofree double *xref = NULL, *x = g_new0 (double, (gsize) n * k);
              KsTridiagResult result;

              /* The large sizes on 3 systems: the test stays short; under
               * Oclgrind (quick) up to 256 and 37 systems only of 17 rows
               * at most (every item sweeps 16 rows, identity past n). */
              if ((n >= 1000 && k != 3) || (quick && (n > 256 || (k == 37 && n > 17))))
                continue;
              /* Under Oclgrind one size of each kind: 2, 5 and 63 are
               * 1, 3 and 65's kinds (one piece, a short last piece, a
               * piece past a warp's). */
              if (quick && (n == 2 || n == 5 || n == 63))
                continue;
              /* And in double (the same code, 8-byte reals: the offsets
               * and barriers Oclgrind checks are the float build's) two
               * sizes: a short last piece, a piece past a warp's. */
              if (quick && p == KS_PRECISION_DOUBLE && n != 17 && n != 65)
                continue;
              ks_tridiag_batch_fill_random (batch, 11 * n + k);
              xref = reference (batch);
              ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_THOMAS_SPLIT, FALSE, &error);
              /* A device whose group cannot hold a large system (Oclgrind:
               * 3970 unknowns in double) refuses it, saying what to choose. */
              if (n >= 1000 && g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
                {
                  g_assert_nonnull (strstr (error->message, "paracr-thomas"));
                  g_clear_error (&error);
                  continue;
                }
              g_assert_no_error (error);
              /* Pieces as the device allows (16 rows), then of 8 and of 16
               * rows (the build a group falls back to where the 16-row
               * build's registers allow too few items); then two groups
               * taking every other system, streamed (the next system
               * staged while one is solved) and not, and streamed with
               * the groups the device holds. */
              for (guint r = 0; r < G_N_ELEMENTS (variants); r++)
                {
                  const guint rows = variants[r].rows;

                  /* Under Oclgrind (quick) the loops over systems on the
                   * small sizes only: the whole set ran past 600 s. */
                  if (quick && r >= 3 && n > 64)
                    continue;

                  ks_tridiag_solver_set_split (solver, rows);
                  ks_tridiag_solver_set_split_stream (solver, variants[r].stream, variants[r].groups);
                  memset (x, 0, sizeof (double) * n * k);
                  ks_tridiag_solver_run (solver, &result, &error);
                  /* Pieces of 8 rows need twice the items of 16: a large
                   * system may need more than the 8-row build's registers
                   * allow a group (the H200 at n = 4095), refused saying
                   * so; the default always runs. */
                  if (rows == 8 && n >= 1000 && g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
                    {
                      g_test_message ("pieces of 8 rows refused at n = %u on %s: %s", n, ks_device_get_name (device),
                                      error->message);
                      g_clear_error (&error);
                      continue;
                    }
                  g_assert_no_error (error);
                  ks_tridiag_solver_read (solver, x, &error);
                  g_assert_no_error (error);
                  if (max_diff (x, xref, (gsize) n * k) > tolerance (p))
                    g_error ("thomas-split (pieces %u, stream %d, groups %u) on %s in %s: n = %u, %u systems: "
                             "max |x - x_ref| = %g", rows, variants[r].stream, variants[r].groups,
                             ks_device_get_name (device), ks_precision_to_string (p), n, k,
                             max_diff (x, xref, (gsize) n * k));
                  /* A group of whole warps, an item a piece. */
                  g_assert_cmpuint (result.local_size, >=, MIN ((n + 15) / 16, 32u));
                }
              ks_tridiag_solver_set_split (solver, 0);
              ks_tridiag_solver_set_split_stream (solver, -1, 0);
              tested++;
            }
        /* No group holds 2^17 unknowns: two such systems are refused
         * before anything is allocated (one is partitioned: test_partition). */
        {
          g_autoptr(GError) refused = NULL;
          g_autoptr(KsTridiagBatch) large = ks_tridiag_batch_new (1u << 17, 2, NULL);

          g_assert_false (ks_tridiag_solver_load (solver, large, KS_TRIDIAG_THOMAS_SPLIT, FALSE, &refused));
          g_assert_error (refused, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
          g_assert_nonnull (strstr (refused->message, "paracr-thomas"));
          /* The largest size the message names is taken, one more is not. */
          {
            const char *most = strstr (refused->message, "at most ");
            guint largest;

            g_assert_nonnull (most);
            largest = (guint) strtoul (most + strlen ("at most "), NULL, 10);
            g_assert_cmpuint (largest, >=, 1024);
            g_assert_true (ks_tridiag_split_check (device, p, largest, 2, NULL));
            g_assert_false (ks_tridiag_split_check (device, p, largest + 1, 2, NULL));
            g_assert_true (ks_tridiag_split_check (device, p, largest + 1, 1, NULL));
          }
        }
      }
  if (tested == 0)
    g_test_skip ("no OpenCL or CUDA device (install pocl-opencl-icd)");
}

/* A solver on device in p, or NULL where the case skips it: the host,
 * double where the device has none, and under Oclgrind (quick) double. */
static KsTridiagSolver *
quick_solver (KsDevice    *device,
              KsPrecision  p,
              gboolean     quick)
{
  g_autoptr(GError) error = NULL;
  KsTridiagSolver *solver;

  if (ks_device_get_backend (device) == KS_BACKEND_HOST || !fp64_ok (device, p) ||
      (quick && p != KS_PRECISION_FLOAT))
    return NULL;
  solver = ks_tridiag_solver_new (device, p, &error);
  g_assert_no_error (error);
  return solver;
}

/* thomas-split's streamed builds for one group size (KS_SPLIT_T, the
 * default on CUDA only; KS_SPLIT_FIXED=1 asks for them everywhere): sizes
 * whose last rows fill a group's last round of rows, part of it and none
 * of it (identity rows past n), one and several systems a group, a[0]
 * and c[n - 1] not zero, against the host's double Thomas.  Under
 * Oclgrind one small size in float. */
static void
test_split_fixed (void)
{
  const guint sizes[] = { 3, 17, 100, 512, 4095 };
  const gboolean quick = g_getenv ("KS_TRIDIAG_TEST_QUICK") != NULL;
  guint tested = 0;

  g_setenv ("KS_SPLIT_FIXED", "1", TRUE);
  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
      {
        KsDevice *device = ks_device_list_get_device (devices, d);
        g_autoptr(KsTridiagSolver) solver = quick_solver (device, p, quick);
        g_autoptr(GError) error = NULL;

        if (solver == NULL)
          continue;
        for (guint si = 0; si < G_N_ELEMENTS (sizes); si++)
          {
            const guint n = sizes[si], k = n >= 1000 ? 3 : 37;
            g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (n, k, NULL);
            g_autofree double *xref = NULL, *x = g_new0 (double, (gsize) n * k);
            KsTridiagResult result;

            if (quick && n != 17)
              continue;
            ks_tridiag_batch_fill_random (batch, 7 * n + k);
            /* A system's a[0] and c[n - 1] couple to nothing: whatever
             * the arrays hold there is not read (PARACR's steps read past
             * the reduced system's ends and count on their being 0). */
            for (guint s = 0; s < k; s++)
              batch->a[(gsize) s * n] = 0.25, batch->c[(gsize) s * n + n - 1] = -0.25;
            xref = reference (batch);
            ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_THOMAS_SPLIT, FALSE, &error);
            if (n >= 1000 && g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
              {
                g_clear_error (&error);
                continue;
              }
            g_assert_no_error (error);
            /* Two groups taking every other system, then the groups the
             * device holds at once. */
            for (guint groups = 2; groups != G_MAXUINT; groups = groups ? 0 : G_MAXUINT)
              {
                ks_tridiag_solver_set_split_stream (solver, 1, groups);
                memset (x, 0, sizeof (double) * n * k);
                ks_tridiag_solver_run (solver, &result, &error);
                g_assert_no_error (error);
                /* Timed as the generic build is (a bench read 0 ms when
                 * the time was asked of that one alone). */
                g_assert_cmpfloat (result.kernel_ms, >, 0.0);
                ks_tridiag_solver_read (solver, x, &error);
                g_assert_no_error (error);
                if (max_diff (x, xref, (gsize) n * k) > tolerance (p))
                  g_error ("thomas-split for one group size (groups %u) on %s in %s: n = %u, %u systems: "
                           "max |x - x_ref| = %g", groups, ks_device_get_name (device),
                           ks_precision_to_string (p), n, k, max_diff (x, xref, (gsize) n * k));
              }
            /* A zero first pivot in a system that does not start the
             * batch (system 1, at row 17) is named as its row 0. */
            if (n == 17)
              {
                batch->b[n] = 0.0;
                ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_THOMAS_SPLIT, FALSE, &error);
                g_assert_no_error (error);
                g_assert_false (ks_tridiag_solver_run (solver, &result, &error));
                g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT);
                if (strstr (error->message, "system 1 at row 0") == NULL)
                  g_error ("thomas-split on %s in %s: %s", ks_device_get_name (device), ks_precision_to_string (p),
                           error->message);
                g_clear_error (&error);
              }
            tested++;
          }
      }
  g_unsetenv ("KS_SPLIT_FIXED");
  if (tested == 0)
    g_test_skip ("no OpenCL or CUDA device (install pocl-opencl-icd)");
}

/* thomas-split on one system no group holds: the partition, level by
 * level (kernels/tridiag-split.cl, tridiag_split_reduce), on sizes that
 * need one level and more than one, a chunk's edge and its neighbours,
 * against the host's double Thomas; then a zero pivot deep in a level
 * below, reported near its row. */
static void
test_partition (void)
{
  const guint sizes[] = { 20000, 65536, 65537, 140001 };
  /* Under Oclgrind (quick): the first size in float, no zero pivot. */
  const gboolean quick = g_getenv ("KS_TRIDIAG_TEST_QUICK") != NULL;
  guint tested = 0;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
      {
        KsDevice *device = ks_device_list_get_device (devices, d);
        g_autoptr(KsTridiagSolver) solver = quick_solver (device, p, quick);
        g_autoptr(GError) error = NULL;

        if (solver == NULL)
          continue;
        for (guint si = 0; si < (quick ? 1 : G_N_ELEMENTS (sizes)); si++)
          {
            const guint n = sizes[si];
            g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (n, 1, NULL);
            g_autofree double *xref = NULL, *x = g_new0 (double, n);
            KsTridiagResult result;

            ks_tridiag_batch_fill_random (batch, 7 * n + 1);
            xref = reference (batch);
            ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_THOMAS_SPLIT, FALSE, &error);
            g_assert_no_error (error);
            ks_tridiag_solver_run (solver, &result, &error);
            g_assert_no_error (error);
            ks_tridiag_solver_read (solver, x, &error);
            g_assert_no_error (error);
            if (max_diff (x, xref, n) > tolerance (p))
              g_error ("thomas-split partitioned on %s in %s: n = %u: max |x - x_ref| = %g",
                       ks_device_get_name (device), ks_precision_to_string (p), n, max_diff (x, xref, n));
            g_assert_cmpfloat (result.kernel_ms, >, 0.0);
            tested++;
          }
        /* A zero pivot at row 70,000 of 140,001: the first level's piece
         * says so, at its own row (the NaN it leaves below does not). */
        if (!quick)
          {
            g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_new (140001, 1, NULL);
            KsTridiagResult result;

            ks_tridiag_batch_fill_random (batch, 5);
            batch->a[70000] = batch->b[70000] = batch->c[70000] = 0;
            ks_tridiag_solver_load (solver, batch, KS_TRIDIAG_THOMAS_SPLIT, FALSE, &error);
            g_assert_no_error (error);
            g_assert_false (ks_tridiag_solver_run (solver, &result, &error));
            g_assert_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT);
            if (strstr (error->message, "at row 70000 ") == NULL)
              g_error ("the zero pivot at row 70,000: %s", error->message);
            g_clear_error (&error);
          }
      }
  if (tested == 0)
    g_test_skip ("no OpenCL or CUDA device (install pocl-opencl-icd)");
}

/* solve tridiag's choice without --method: thomas-split below
 * KS_TRIDIAG_SMALL_BATCH_PER_CU x compute units of systems it holds, thomas-coalesced at and
 * above, paracr-thomas for one system no group holds; OpenMP on the host. */
static void
test_default_method (void)
{
  gboolean any = FALSE;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);
      const KsDeviceInfo *info = ks_device_get_info (device);
      const guint64 small = KS_TRIDIAG_SMALL_BATCH_PER_CU * (guint64) MAX (info->compute_units, 1);

      if (ks_device_get_backend (device) == KS_BACKEND_HOST)
        {
          g_assert_cmpint (ks_tridiag_default_method (device, KS_PRECISION_FLOAT, 4095, 5000), ==,
                           KS_TRIDIAG_OMP_THOMAS);
          continue;
        }
      any = TRUE;
      g_assert_cmpint (ks_tridiag_default_method (device, KS_PRECISION_FLOAT, 4095, 1), ==, KS_TRIDIAG_THOMAS_SPLIT);
      if (small - 1 <= G_MAXUINT)
        g_assert_cmpint (ks_tridiag_default_method (device, KS_PRECISION_FLOAT, 4095, (guint) (small - 1)), ==,
                         KS_TRIDIAG_THOMAS_SPLIT);
      if (small <= G_MAXUINT)
        g_assert_cmpint (ks_tridiag_default_method (device, KS_PRECISION_FLOAT, 4095, (guint) small), ==,
                         KS_TRIDIAG_THOMAS_COALESCED);
      g_assert_cmpint (ks_tridiag_default_method (device, KS_PRECISION_FLOAT, 1u << 24, 2), ==,
                       KS_TRIDIAG_THOMAS_COALESCED);
      g_assert_cmpint (ks_tridiag_default_method (device, KS_PRECISION_FLOAT, 1u << 24, 1), ==,
                       KS_TRIDIAG_THOMAS_SPLIT);
    }
  if (!any)
    g_test_skip ("no OpenCL or CUDA device (install pocl-opencl-icd)");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();

  for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
    for (KsTridiagMethod m = 0; m < KS_TRIDIAG_N_DEVICE_METHODS; m++)
      {
        Case *c = g_new0 (Case, 1);
        g_autofree char *path = NULL;
        c->method = m;
        c->precision = p;
        path = g_strdup_printf ("/tridiag/device/%s/%s", ks_precision_to_string (p), ks_tridiag_method_to_string (m));
        g_test_add_data_func_full (path, c, test_device_method, g_free);
      }
  g_test_add_func ("/tridiag/split", test_split);
  g_test_add_func ("/tridiag/split-fixed", test_split_fixed);
  g_test_add_func ("/tridiag/partition", test_partition);
  g_test_add_func ("/tridiag/default-method", test_default_method);
  g_test_add_func ("/tridiag/repeat", test_repeat);
  g_test_add_func ("/tridiag/host-methods", test_host_methods);
  g_test_add_func ("/tridiag/sericr-refused", test_sericr_refused);
  g_test_add_func ("/tridiag/zero-pivot", test_zero_pivot);
  g_test_add_func ("/tridiag/too-large", test_too_large);
  g_test_add_func ("/tridiag/methods-named", test_methods_named);
  g_test_add_func ("/tridiag/cusparse", test_cusparse);
  status = g_test_run ();
  g_object_unref (devices);
  return status;
}
