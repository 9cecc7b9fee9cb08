/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runtime seam (ks-runtime.h) on every kernel-running device this
 * machine has: PoCL here, Oclgrind's simulator under oclgrind
 * (test-runtime-oclgrind), NVIDIA's OpenCL and CUDA on a GPU machine.
 * Each test runs once per device, named /runtime/DEVICE-ID/WHAT, and
 * checks a result only the item under test can produce.  Without any such
 * device every test is skipped, saying why.  The kernels are
 * tests/kernels/test-runtime.cl (compiled into this binary), which
 * includes kernels/ks-common.h.
 *
 * This program holds the launch itself: local memory, arguments, launch
 * geometry and the local-size policies; its neighbours hold buffers
 * (test-runtime-buffers), queues, events, timers and graphs
 * (test-runtime-queues), and kernel sources and queries
 * (test-runtime-programs).  They share ks-test-runtime-util.c. */
#include "ks-launch.h"
#include "ks-test-runtime-util.h"

#include <string.h>

/* --- a local-memory tree reduction with two local arguments ------------------ */

static void
test_reduction (Fixture       *f,
                gconstpointer  data)
{
  const guint n = 1000, group = 64, groups = (n + group - 1) / group;
  g_autoptr(KsKernel) k = kernel (f, "rt_reduce");
  g_autoptr(KsBuffer) in = alloc (f, n * sizeof (float), KS_BUFFER_READ_ONLY);
  g_autoptr(KsBuffer) sums = alloc (f, groups * sizeof (float), KS_BUFFER_WRITE_ONLY);
  g_autoptr(KsBuffer) counts = alloc (f, groups * sizeof (guint), KS_BUFFER_WRITE_ONLY);
  g_autofree float *host = g_new (float, n);
  g_autofree float *got = g_new (float, groups);
  g_autofree guint *got_counts = g_new (guint, groups);
  KsLaunchConfig cfg = { .dims = 1, .global = { groups * group }, .local = { group } };
  guint total = 0;

  for (guint i = 0; i < n; i++)
    host[i] = (float) (i % 17) - 3.0f;
  OK (ks_runtime_write (f->rt, in, 0, n * sizeof (float), host, E));
  OK (ks_kernel_set_arg_buffer (k, 0, in, E));
  OK (ks_kernel_set_arg_buffer (k, 1, sums, E));
  OK (ks_kernel_set_arg_buffer (k, 2, counts, E));
  OK (ks_kernel_set_arg (k, 3, sizeof n, &n, E));
  /* An odd size first: on CUDA the second argument must still start at a
   * 16-byte boundary of the dynamic shared memory (launch_args). */
  OK (ks_kernel_set_arg_local (k, 4, group * sizeof (float) + 3, E));
  OK (ks_kernel_set_arg_local (k, 5, group * sizeof (guint), E));
  OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &cfg, E));
  OK (ks_runtime_read (f->rt, sums, 0, groups * sizeof (float), got, E));
  OK (ks_runtime_read (f->rt, counts, 0, groups * sizeof (guint), got_counts, E));

  for (guint g = 0; g < groups; g++)
    {
      float want = 0.0f;

      for (guint i = g * group; i < MIN (n, (g + 1) * group); i++)
        want += host[i];
      g_assert_cmpfloat_with_epsilon (got[g], want, 1e-3);
      g_assert_cmpuint (got_counts[g], ==, MIN (n, (g + 1) * group) - g * group);
      total += got_counts[g];
    }
  g_assert_cmpuint (total, ==, n);
}

/* More local memory than the device has is refused before any launch. */
static void
test_local_too_large (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(KsKernel) k = kernel (f, "rt_reduce");
  g_autoptr(GError) error = NULL;
  const KsDeviceInfo *info = ks_device_get_info (f->device);

  g_assert_cmpuint (info->local_mem, >, 0);
  /* OpenCL's limit is local_mem; CUDA's the opt-in maximum, which is more
   * than local_mem (sharedMemPerBlock) but far below 64 times it. */
  g_assert_false (ks_kernel_set_arg_local (k, 4, ks_device_get_backend (f->device) == KS_BACKEND_CUDA
                                                   ? info->local_mem * 64 : info->local_mem + 1, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
}

/* The kernel's own local memory and its local arguments together beyond the
 * limit are refused at launch, as OUT_OF_MEMORY, though each argument alone
 * fits (OpenCL said CL_OUT_OF_RESOURCES, a plain FAILED). */
static void
test_local_sum (Fixture       *f,
                gconstpointer  data)
{
  const guint n = 64;
  g_autoptr(KsKernel) k = kernel (f, "rt_reduce");
  g_autoptr(KsBuffer) in = alloc (f, n * sizeof (float), KS_BUFFER_READ_WRITE);
  const KsDeviceInfo *info = ks_device_get_info (f->device);
  KsLaunchConfig cfg = { .dims = 1, .global = { n }, .local = { n } };
  gsize size = info->local_mem * 64;

  OK (ks_kernel_set_arg_buffer (k, 0, in, E));
  OK (ks_kernel_set_arg_buffer (k, 1, in, E));
  OK (ks_kernel_set_arg_buffer (k, 2, in, E));
  OK (ks_kernel_set_arg (k, 3, sizeof n, &n, E));
  /* The largest power-of-two share of 64 x local_mem one argument may
   * have: more than half the limit (CUDA's is the opt-in maximum, larger
   * than info->local_mem), so two of them are over it. */
  g_assert_cmpuint (info->local_mem, >, 0);
  for (;; size /= 2)
    {
      g_autoptr(GError) error = NULL;

      if (ks_kernel_set_arg_local (k, 4, size, &error))
        break;
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
      g_assert_cmpuint (size, >, 1);
    }
  OK (ks_kernel_set_arg_local (k, 5, size, E));
  launch_refused (f, k, &cfg, KS_COMPUTE_ERROR_OUT_OF_MEMORY, "rt_reduce");
}

/* CUDA: a launch that needs more than sharedMemPerBlock (48 KiB) opts in to
 * the larger maximum itself (an H200 has ~227 KiB), and its result is right. */
static void
test_shared_opt_in (Fixture       *f,
                    gconstpointer  data)
{
  const guint n = 1000, group = 64, groups = (n + group - 1) / group;
  const gsize big = 100 * 1024;
  g_autoptr(KsKernel) k = kernel (f, "rt_reduce");
  g_autoptr(KsBuffer) in = alloc (f, n * sizeof (float), KS_BUFFER_READ_ONLY);
  g_autoptr(KsBuffer) sums = alloc (f, groups * sizeof (float), KS_BUFFER_WRITE_ONLY);
  g_autoptr(KsBuffer) counts = alloc (f, groups * sizeof (guint), KS_BUFFER_WRITE_ONLY);
  g_autoptr(GError) error = NULL;
  g_autofree float *host = g_new (float, n);
  g_autofree guint *got = g_new (guint, groups);
  KsLaunchConfig cfg = { .dims = 1, .global = { groups * group }, .local = { group } };

  if (ks_device_get_info (f->device)->local_mem >= big)
    {
      g_test_skip ("the device's local memory holds 100 KiB without an opt-in");
      return;
    }
  if (!ks_kernel_set_arg_local (k, 4, big, &error))
    {
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
      g_test_skip ("no opt-in shared memory of 100 KiB on this device");
      return;
    }
  for (guint i = 0; i < n; i++)
    host[i] = 1.0f;
  OK (ks_runtime_write (f->rt, in, 0, n * sizeof (float), host, E));
  OK (ks_kernel_set_arg_buffer (k, 0, in, E));
  OK (ks_kernel_set_arg_buffer (k, 1, sums, E));
  OK (ks_kernel_set_arg_buffer (k, 2, counts, E));
  OK (ks_kernel_set_arg (k, 3, sizeof n, &n, E));
  OK (ks_kernel_set_arg_local (k, 5, group * sizeof (guint), E));
  OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &cfg, E));
  OK (ks_runtime_read (f->rt, counts, 0, groups * sizeof (guint), got, E));
  for (guint g = 0; g < groups; g++)
    g_assert_cmpuint (got[g], ==, MIN (n, (g + 1) * group) - g * group);
}

/* --- arguments ------------------------------------------------------------------ */

/* A launch with an argument never set is refused before the backend sees it,
 * on every backend (CUDA read an uninitialised slot), naming the argument;
 * an index past the kernel's parameters is refused when set. */
static void
test_unset_arg (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(KsKernel) k = kernel (f, "rt_touch");
  g_autoptr(KsBuffer) b = alloc (f, 64 * sizeof (guint), KS_BUFFER_READ_WRITE);
  g_autoptr(GError) error = NULL;
  const guint n = 64;
  guint zeros[64] = { 0 }, got[64];
  const guint64 wide = 64;
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };

  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  launch_refused (f, k, &cfg, KS_COMPUTE_ERROR_FAILED, "argument 1 was never set");

  g_assert_false (ks_kernel_set_arg (k, 2, sizeof n, &n, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED);
  g_clear_error (&error);
  /* A value of the wrong size (8 bytes for a uint): OpenCL's own check
   * (CL_INVALID_ARG_SIZE), CUDA's from cuFuncGetParamInfo. */
  if (ks_device_get_backend (f->device) == KS_BACKEND_OPENCL)
    {
      g_assert_false (ks_kernel_set_arg (k, 1, sizeof wide, &wide, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED);
      g_clear_error (&error);
    }
  else if (!ks_kernel_set_arg (k, 1, sizeof wide, &wide, &error))
    {
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, "takes 4 bytes"));
      g_clear_error (&error);
    }
  else
    g_test_message ("this CUDA driver cannot say parameter sizes (cuFuncGetParamInfo needs 12.4)");

  /* rt_touch adds to what the buffer holds: give it zeros first (Oclgrind
   * reported the sums of never-written memory), so the result is known. */
  OK (ks_runtime_write (f->rt, b, 0, sizeof got, zeros, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &cfg, E));
  OK (ks_runtime_read (f->rt, b, 0, sizeof got, got, E));
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (got[i], ==, i + 1);
}

/* --- launch geometry ------------------------------------------------------------- */

/* A range that is no multiple of the group is refused on every backend
 * (OpenCL 1.2 has no partial groups, CUDA padded silently). */
static void
test_non_uniform (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(KsKernel) k = kernel (f, "rt_touch");
  g_autoptr(KsBuffer) b = alloc (f, 100 * sizeof (guint), KS_BUFFER_READ_WRITE);
  const guint n = 100;
  KsLaunchConfig cfg = { .dims = 1, .global = { n }, .local = { 32 } };

  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  launch_refused (f, k, &cfg, KS_COMPUTE_ERROR_WORK_GROUP_SIZE, "100");
}

/* ks_global_linear_id over a 2D range whose width is no multiple of CUDA's
 * block (no local size: the grid is padded) and over one with a group: the
 * row stride is the true width on every backend. */
static void
linear_2d (Fixture *f,
           gsize    local0)
{
  enum { NX = 37, NY = 5 };
  g_autoptr(KsKernel) k = kernel (f, "rt_linear2d");
  g_autoptr(KsBuffer) b = alloc (f, NX * NY * sizeof (guint), KS_BUFFER_READ_WRITE);
  guint got[NX * NY];
  const guint nx = NX, ny = NY, none = 0xdeadbeef;
  KsLaunchConfig cfg = { .dims = 2, .global = { NX, NY }, .local = { local0, local0 ? 1 : 0 } };
  KsQueue *q = ks_runtime_get_queue (f->rt);

  OK (ks_queue_fill (q, b, &none, sizeof none, 0, sizeof got, NULL, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof nx, &nx, E));
  OK (ks_kernel_set_arg (k, 2, sizeof ny, &ny, E));
  OK (ks_queue_launch (q, k, &cfg, E));
  OK (ks_runtime_read (f->rt, b, 0, sizeof got, got, E));
  for (guint y = 0; y < NY; y++)
    for (guint x = 0; x < NX; x++)
      g_assert_cmpuint (got[y * NX + x], ==, x + 1000 * y);
}

static void
test_linear_id (Fixture       *f,
                gconstpointer  data)
{
  linear_2d (f, 0);
  linear_2d (f, 37);
  linear_2d (f, 0);   /* back to the padded grid: the size is set again */
}

/* --- a 3D launch at an offset -------------------------------------------------- */

static void
launch_3d (Fixture  *f,
           gboolean  with_local)
{
  enum { NX = 6, NY = 7, NZ = 5 };
  const gsize off[3] = { 1, 2, 3 }, global[3] = { 3, 4, 2 };
  g_autoptr(KsKernel) k = kernel (f, "rt_index3d");
  g_autoptr(KsBuffer) b = alloc (f, NX * NY * NZ * sizeof (guint), KS_BUFFER_READ_WRITE);
  guint got[NX * NY * NZ];
  const guint nx = NX, ny = NY, ends[3] = { off[0] + global[0], off[1] + global[1], off[2] + global[2] };
  const guint none = 0xdeadbeef;
  KsLaunchConfig cfg = { .dims = 3 };
  KsQueue *q = ks_runtime_get_queue (f->rt);

  for (guint d = 0; d < 3; d++)
    {
      cfg.global[d] = global[d];
      cfg.offset[d] = off[d];
      cfg.local[d] = with_local ? (d == 0 ? 3 : d == 1 ? 2 : 1) : 0;
    }
  OK (ks_queue_fill (q, b, &none, sizeof none, 0, sizeof got, NULL, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof nx, &nx, E));
  OK (ks_kernel_set_arg (k, 2, sizeof ny, &ny, E));
  for (guint d = 0; d < 3; d++)
    OK (ks_kernel_set_arg (k, 3 + d, sizeof ends[d], &ends[d], E));
  OK (ks_queue_launch (q, k, &cfg, E));
  OK (ks_runtime_read (f->rt, b, 0, sizeof got, got, E));

  for (guint z = 0; z < NZ; z++)
    for (guint y = 0; y < NY; y++)
      for (guint x = 0; x < NX; x++)
        {
          gboolean inside = x >= off[0] && x < ends[0] && y >= off[1] && y < ends[1] &&
                            z >= off[2] && z < ends[2];
          g_assert_cmpuint (got[(z * NY + y) * NX + x], ==, inside ? x + 1000 * y + 1000000 * z : none);
        }
}

static void
test_3d_offset (Fixture       *f,
                gconstpointer  data)
{
  launch_3d (f, FALSE);
  launch_3d (f, TRUE);
}

/* 70,000 rows along y with no local size: OpenCL takes it as it is; CUDA's
 * grid allows 65,535 blocks in y, so its backend deepens the block there.
 * Every cell is written once, with its own coordinates. */
static void
test_tall_grid (Fixture       *f,
                gconstpointer  data)
{
  enum { NX = 3, NY = 70000 };
  g_autoptr(KsKernel) k = kernel (f, "rt_index3d");
  g_autoptr(KsBuffer) b = alloc (f, NX * NY * sizeof (guint), KS_BUFFER_READ_WRITE);
  g_autofree guint *got = g_new (guint, NX * NY);
  const guint nx = NX, ny = NY, ends[3] = { NX, NY, 1 };
  const guint none = 0xdeadbeef;
  KsLaunchConfig cfg = { .dims = 2, .global = { NX, NY } };
  KsQueue *q = ks_runtime_get_queue (f->rt);

  OK (ks_queue_fill (q, b, &none, sizeof none, 0, NX * NY * sizeof (guint), NULL, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof nx, &nx, E));
  OK (ks_kernel_set_arg (k, 2, sizeof ny, &ny, E));
  for (guint d = 0; d < 3; d++)
    OK (ks_kernel_set_arg (k, 3 + d, sizeof ends[d], &ends[d], E));
  OK (ks_queue_launch (q, k, &cfg, E));
  OK (ks_runtime_read (f->rt, b, 0, NX * NY * sizeof (guint), got, E));
  for (guint y = 0; y < NY; y++)
    for (guint x = 0; x < NX; x++)
      if (got[y * NX + x] != x + 1000 * y)
        g_error ("cell (%u, %u) holds %u", x, y, got[y * NX + x]);
}

/* Offsets are opt-in on CUDA: a program built without -DKS_GLOBAL_OFFSET
 * refuses one there, saying so, and still launches without one; OpenCL
 * has offsets of its own. */
static void
test_offset_opt_in (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsProgram) plain = ks_runtime_build_program (f->rt, "test-runtime.cl", NULL, &error);
  g_autoptr(KsKernel) k = NULL;
  g_autoptr(KsBuffer) b = alloc (f, 8 * sizeof (guint), KS_BUFFER_READ_WRITE);
  const guint n = 8, zeros[8] = { 0 };
  KsLaunchConfig at = { .dims = 1, .global = { 4 }, .offset = { 4 } };
  KsLaunchConfig whole = { .dims = 1, .global = { 8 } };
  gboolean ok;

  g_assert_no_error (error);
  k = ks_program_create_kernel (plain, "rt_touch", &error);
  g_assert_no_error (error);
  /* Zeros from the host, not ks_queue_fill: Oclgrind 21.10's
   * --uninitialized takes a filled buffer as unwritten (each pattern store
   * gives the buffer a shadow of the pattern's size), kernel writes too. */
  OK (ks_runtime_write (f->rt, b, 0, sizeof zeros, zeros, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  ok = ks_queue_launch (ks_runtime_get_queue (f->rt), k, &at, &error);
  if (ks_device_get_backend (f->device) == KS_BACKEND_CUDA)
    {
      g_assert_false (ok);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "KS_GLOBAL_OFFSET"));
      g_clear_error (&error);
    }
  else
    {
      g_assert_no_error (error);
      g_assert_true (ok);
    }
  OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &whole, E));
  OK (ks_runtime_finish (f->rt, E));
}

/* The SPLIT policy on a kernel that takes its index from get_global_id():
 * the remainder runs at a global offset, and every item runs once. */
static void
test_split_policy (Fixture       *f,
                   gconstpointer  data)
{
  const guint n = 1000, wg = 64;   /* 15 groups of 64, then one of 40 */
  g_autoptr(KsKernel) k = kernel (f, "rt_touch");
  g_autoptr(KsBuffer) b = alloc (f, n * sizeof (guint), KS_BUFFER_READ_WRITE);
  g_autofree guint *got = g_new (guint, n);
  g_autofree guint *zeros = g_new0 (guint, n);
  const gsize global = n;
  KsLaunchPlan plan;
  KsQueue *q = ks_runtime_get_queue (f->rt);

  OK (ks_launch_plan (KS_LOCAL_SPLIT, wg, 1, &global, &plan, E));
  g_assert_cmpuint (plan.n_parts, ==, 2);
  g_assert_cmpuint (plan.parts[0].config.global[0], ==, 960);
  g_assert_cmpuint (plan.parts[1].first, ==, 960);
  g_assert_cmpuint (plan.parts[1].config.local[0], ==, 40);

  /* Zeros from the host, not ks_queue_fill: Oclgrind 21.10's
   * --uninitialized takes a filled buffer as unwritten (each pattern store
   * gives the buffer a shadow of the pattern's size), kernel writes too. */
  OK (ks_runtime_write (f->rt, b, 0, n * sizeof (guint), zeros, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  OK (ks_queue_launch_policy (q, k, KS_LOCAL_SPLIT, wg, 1, &global, E));
  OK (ks_runtime_read (f->rt, b, 0, n * sizeof (guint), got, E));
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (got[i], ==, i + 1);
}

/* Only for test-runtime-oclgrind's self-test (KS_TEST_PLANT_OOB set): a
 * launch that writes past its buffer, which Oclgrind must report, so the
 * clean runs cannot pass because its reports went unseen. */
static void
test_planted_oob (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(KsKernel) k = kernel (f, "rt_touch");
  g_autoptr(KsBuffer) b = alloc (f, 8 * sizeof (guint), KS_BUFFER_READ_WRITE);
  const guint n = 16;
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };

  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &cfg, E));
  OK (ks_runtime_finish (f->rt, E));
}

/* --- the host backend says what it cannot do ------------------------------------------ */

static void
test_host_unsupported (void)
{
  g_autoptr(GError) error = NULL;
  KsDevice *host = ks_device_list_find_backend (devices, KS_BACKEND_HOST);
  g_autoptr(KsRuntime) rt = NULL;

  g_assert_nonnull (host);
  rt = ks_runtime_new (host, &error);
  g_assert_null (rt);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "host backend"));
}

/* --- the local-size policies without a device ------------------------------------ */

/* The local-size policies as plans, without a device. */
static void
test_launch_plan (void)
{
  const gsize g1[1] = { 1000 }, g2[2] = { 1000, 7 }, exact[1] = { 256 }, small[1] = { 40 }, empty[2] = { 0, 3 };
  g_autoptr(GError) error = NULL;
  KsLaunchPlan plan;

  g_assert_true (ks_launch_plan (KS_LOCAL_DRIVER, 0, 1, g1, &plan, &error));
  g_assert_cmpuint (plan.n_parts, ==, 1);
  g_assert_cmpuint (plan.parts[0].config.global[0], ==, 1000);
  g_assert_cmpuint (plan.parts[0].config.local[0], ==, 0);

  /* EXPLICIT pads dimension 0 up to a multiple, leaves the others. */
  g_assert_true (ks_launch_plan (KS_LOCAL_EXPLICIT, 64, 2, g2, &plan, &error));
  g_assert_cmpuint (plan.n_parts, ==, 1);
  g_assert_cmpuint (plan.parts[0].config.dims, ==, 2);
  g_assert_cmpuint (plan.parts[0].config.global[0], ==, 1024);
  g_assert_cmpuint (plan.parts[0].config.global[1], ==, 7);
  g_assert_cmpuint (plan.parts[0].config.local[0], ==, 64);
  g_assert_cmpuint (plan.parts[0].config.local[1], ==, 1);

  /* SPLIT: no remainder, only a remainder, both. */
  g_assert_true (ks_launch_plan (KS_LOCAL_SPLIT, 64, 1, exact, &plan, &error));
  g_assert_cmpuint (plan.n_parts, ==, 1);
  g_assert_cmpuint (plan.parts[0].config.global[0], ==, 256);
  g_assert_true (ks_launch_plan (KS_LOCAL_SPLIT, 64, 1, small, &plan, &error));
  g_assert_cmpuint (plan.n_parts, ==, 1);
  g_assert_cmpuint (plan.parts[0].first, ==, 0);
  g_assert_cmpuint (plan.parts[0].config.local[0], ==, 40);
  g_assert_true (ks_launch_plan (KS_LOCAL_SPLIT, 64, 2, g2, &plan, &error));
  g_assert_cmpuint (plan.n_parts, ==, 2);
  g_assert_cmpuint (plan.parts[1].first, ==, 960);
  g_assert_cmpuint (plan.parts[1].config.global[0], ==, 40);
  g_assert_cmpuint (plan.parts[1].config.global[1], ==, 7);
  g_assert_cmpuint (plan.parts[1].config.local[1], ==, 1);

  /* Nothing to run is no launch; a group of 0 is refused. */
  g_assert_true (ks_launch_plan (KS_LOCAL_DRIVER, 0, 2, empty, &plan, &error));
  g_assert_cmpuint (plan.n_parts, ==, 0);
  g_assert_false (ks_launch_plan (KS_LOCAL_EXPLICIT, 0, 1, g1, &plan, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
}

/* Beside the per-device cases: what needs no device, and the planted
 * out-of-bounds write test-runtime-oclgrind's self-test asks for. */
static void
add_more (guint kernel_devices)
{
  g_test_add_func ("/runtime/host-unsupported", test_host_unsupported);
  g_test_add_func ("/runtime/launch-plan", test_launch_plan);
  if (kernel_devices > 0 && g_getenv ("KS_TEST_PLANT_OOB") != NULL)
    {
      KsDevice *d = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
      if (d != NULL)
        g_test_add ("/runtime/planted-oob", Fixture, ks_device_get_id (d), fixture_set_up,
                    test_planted_oob, fixture_tear_down);
    }
}

int
main (int    argc,
      char **argv)
{
  static const KsTestRuntimeCase tests[] = {
    { "reduction", test_reduction },
    { "local-too-large", test_local_too_large },
    { "local-sum", test_local_sum },
    { "shared-opt-in", test_shared_opt_in },
    { "unset-arg", test_unset_arg },
    { "non-uniform", test_non_uniform },
    { "linear-id", test_linear_id },
    { "3d-offset", test_3d_offset },
    { "tall-grid", test_tall_grid },
    { "split-policy", test_split_policy },
    { "offset-opt-in", test_offset_opt_in },
  };

  return ks_test_runtime_main (&argc, &argv, tests, G_N_ELEMENTS (tests), add_more);
}
