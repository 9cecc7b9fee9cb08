/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runtime seam (ks-runtime.h) on every kernel-running device this
 * machine has: PoCL here, Oclgrind's simulator under oclgrind
 * (test-runtime-oclgrind), NVIDIA's OpenCL and CUDA on a GPU machine.
 * Each test runs once per device, named /runtime/DEVICE-ID/WHAT, and
 * checks a result only the item under test can produce.  Without any such
 * device every test is skipped, saying why.  The kernels are
 * tests/kernels/test-runtime.cl (compiled into this binary), which
 * includes kernels/ks-common.h. */
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-kernel-source.h"
#include "ks-launch.h"
#include "ks-runtime.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static KsDeviceList *devices;
static char *kernel_dir;

typedef struct {
  float scale[8];
  float shift;
} RtParams;   /* as in test-runtime.cl */

/* A runtime, the test program and one kernel of it, on the device whose id
 * the test was registered with. */
typedef struct {
  KsDevice  *device;
  KsRuntime *rt;
  KsProgram *program;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->device = ks_device_list_lookup (devices, data, &error);
  g_assert_no_error (error);
  f->rt = ks_runtime_new (f->device, &error);
  g_assert_no_error (error);
  /* Offsets on CUDA are opt-in (KsLaunchConfig); on OpenCL the option is inert. */
  f->program = ks_runtime_build_program (f->rt, "test-runtime.cl", "-DKS_GLOBAL_OFFSET", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  /* In the "wrong" order on purpose: references keep what is needed. */
  g_clear_pointer (&f->rt, ks_runtime_unref);
  g_clear_pointer (&f->program, ks_program_unref);
}

static KsKernel *
kernel (Fixture    *f,
        const char *name)
{
  g_autoptr(GError) error = NULL;
  KsKernel *k = ks_program_create_kernel (f->program, name, &error);

  g_assert_no_error (error);
  return k;
}

static KsBuffer *
alloc (Fixture       *f,
       gsize          size,
       KsBufferFlags  flags)
{
  g_autoptr(GError) error = NULL;
  KsBuffer *b = ks_runtime_alloc_full (f->rt, size, flags, &error);

  g_assert_no_error (error);
  return b;
}

#define OK(call) G_STMT_START { g_autoptr(GError) e_ = NULL; gboolean ok_ = (call); \
                                g_assert_no_error (e_); g_assert_true (ok_); } G_STMT_END
/* For calls written with an "&e_" error argument. */
#define E (&e_)

/* The launch is refused with code, and the message contains says. */
static void
launch_refused (Fixture              *f,
                KsKernel             *k,
                const KsLaunchConfig *cfg,
                gint                  code,
                const char           *says)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_queue_launch (ks_runtime_get_queue (f->rt), k, cfg, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, code);
  g_assert_nonnull (strstr (error->message, says));
}

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

  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &cfg, E));
  OK (ks_runtime_finish (f->rt, E));
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

/* --- pinned memory, map / unmap, a struct argument --------------------------- */

/* ZERO_COPY is mapped in place: the same host memory every time, which
 * kernels read and write (OpenCL: refused where the device keeps buffers
 * in its own memory).  An ordinary buffer maps through a host copy that
 * unmap writes back. */
static void
map_and_scale (Fixture       *f,
               KsBufferFlags  flags,
               gboolean       in_place)
{
  const guint n = 4096;
  g_autoptr(KsKernel) k = kernel (f, "rt_scale");
  g_autoptr(KsBuffer) b = NULL;
  g_autoptr(GError) error = NULL;
  KsQueue *q = ks_runtime_get_queue (f->rt);
  RtParams p = { { 1, 2, 3, 4, 5, 6, 7, 8 }, 0.5f };
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };
  float *m, *again;

  b = ks_runtime_alloc_full (f->rt, n * sizeof (float), flags, &error);
  if (b != NULL)
    g_assert_cmpint (ks_buffer_get_flags (b), ==, flags);
  else
    {
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
      g_assert_cmpint (ks_device_get_backend (f->device), ==, KS_BACKEND_OPENCL);
      g_test_message ("%s", error->message);
      return;
    }
  OK ((m = ks_queue_map (q, b, 0, n * sizeof (float), KS_MAP_WRITE, E)) != NULL);
  for (guint i = 0; i < n; i++)
    m[i] = (float) i;
  OK (ks_queue_unmap (q, b, m, E));

  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof p, &p, E));
  OK (ks_kernel_set_arg (k, 2, sizeof n, &n, E));
  OK (ks_queue_launch (q, k, &cfg, E));

  OK ((again = ks_queue_map (q, b, 0, n * sizeof (float), KS_MAP_READ, E)) != NULL);
  if (in_place)
    g_assert_true (again == m);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (again[i], ==, (float) i * p.scale[i % 8] + p.shift);
  OK (ks_queue_unmap (q, b, again, E));
}

/* HOST_PINNED: kernels use device memory, maps go through the pinned twin. */
static void
test_pinned_map (Fixture       *f,
                 gconstpointer  data)
{
  map_and_scale (f, KS_BUFFER_HOST_PINNED, FALSE);
}

static void
test_zero_copy_map (Fixture       *f,
                    gconstpointer  data)
{
  map_and_scale (f, KS_BUFFER_ZERO_COPY, TRUE);
  map_and_scale (f, KS_BUFFER_READ_WRITE, FALSE);
}

/* A buffer freed while mapped warns, and the backend drops its map records
 * and host copies (LeakSanitizer's run sees any left). */
static void
test_unref_mapped (Fixture       *f,
                   gconstpointer  data)
{
  KsBuffer *b = alloc (f, 1024, KS_BUFFER_READ_WRITE);
  KsBuffer *pinned = alloc (f, 1024, KS_BUFFER_HOST_PINNED);
  KsQueue *q = ks_runtime_get_queue (f->rt);
  void *m;

  OK ((m = ks_queue_map (q, b, 0, 512, KS_MAP_READ | KS_MAP_WRITE, E)) != NULL);
  OK ((m = ks_queue_map (q, b, 512, 512, KS_MAP_READ, E)) != NULL);
  OK ((m = ks_queue_map (q, pinned, 0, 1024, KS_MAP_READ, E)) != NULL);
  g_test_expect_message ("ks-compute", G_LOG_LEVEL_WARNING, "*freed while still mapped*");
  g_test_expect_message ("ks-compute", G_LOG_LEVEL_WARNING, "*freed while still mapped*");
  ks_buffer_unref (b);
  ks_buffer_unref (pinned);
  g_test_assert_expected_messages ();
}

/* --- copy and fill ------------------------------------------------------------ */

/* Patterns of 2, 4, 8 and 16 bytes over a range that is no power of two of
 * them, at an offset (CUDA: cuMemsetD16/D32Async, and a wider pattern
 * doubled by device copies), each timed under "fill". */
static void
test_fill_patterns (Fixture       *f,
                    gconstpointer  data)
{
  const gsize size = 6000, at = 32, len = 1000 * 16;
  g_autoptr(KsBuffer) b = alloc (f, at + len + 64, KS_BUFFER_READ_WRITE);
  g_autofree guint8 *got = g_malloc (at + len + 64);
  KsQueue *q = ks_runtime_get_queue (f->rt);
  const guint16 p2 = 0x1234;
  const float p4 = 1.0f;
  const double p8 = -2.5;
  const guint32 p16[4] = { 1, 2, 3, 0xdeadbeef };
  const struct { const void *p; gsize size; } patterns[] = { { &p2, 2 }, { &p4, 4 }, { &p8, 8 }, { p16, 16 } };
  const guint8 zero = 0;
  guint64 ns = 0;
  guint count = 0;

  g_assert_cmpuint (size, <, len);
  for (guint t = 0; t < G_N_ELEMENTS (patterns); t++)
    {
      const gsize n = t == 3 ? len : size;   /* a multiple of each pattern */

      OK (ks_queue_fill (q, b, &zero, 1, 0, at + len + 64, NULL, E));
      OK (ks_queue_fill (q, b, patterns[t].p, patterns[t].size, at, n, "fill", E));
      OK (ks_runtime_read (f->rt, b, 0, at + len + 64, got, E));
      for (gsize i = 0; i < at + len + 64; i++)
        {
          const guint8 want = i >= at && i < at + n ? ((const guint8 *) patterns[t].p)[(i - at) % patterns[t].size] : 0;
          g_assert_cmpuint (got[i], ==, want);
        }
    }
  OK (ks_runtime_collect_timings (f->rt, E));
  g_assert_true (ks_runtime_get_timer (f->rt, "fill", &ns, &count));
  g_assert_cmpuint (count, ==, G_N_ELEMENTS (patterns));
}

/* --- graphs (CUDA) --------------------------------------------------------------- */

/* A graph keeps the programs and kernels it launched: they are let go right
 * after the capture, and the timed replays still run and time them.  While
 * recording, a blocking transfer, a fill and a map on the default queue are
 * refused; a SPLIT plan (a new offset and size per part) is recorded; only
 * the default queue's launches count; and after the replays a direct
 * launch sets its own offset and size again. */
static void
test_graph_owns (Fixture       *f,
                 gconstpointer  data)
{
  const guint n = 1000, wg = 64;
  const gsize global = n;
  g_autoptr(KsBuffer) b = alloc (f, n * sizeof (guint), KS_BUFFER_READ_WRITE);
  g_autoptr(KsGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint *got = g_new0 (guint, n);
  KsProgram *program;
  KsKernel *k;
  KsQueue *q = ks_runtime_get_queue (f->rt);
  KsLaunchConfig whole = { .dims = 1, .global = { n } };
  guint64 ns = 0;

  if (ks_device_get_backend (f->device) != KS_BACKEND_CUDA)
    {
      g_test_skip ("graphs need the CUDA backend");
      return;
    }
  OK ((program = ks_runtime_build_program (f->rt, "test-runtime.cl", "-DKS_GLOBAL_OFFSET", E)) != NULL);
  OK ((k = ks_program_create_kernel (program, "rt_touch", E)) != NULL);
  OK (ks_runtime_write (f->rt, b, 0, n * sizeof (guint), got, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));

  ks_runtime_set_graph_kernel_timing (f->rt, TRUE);
  OK (ks_runtime_capture_begin (f->rt, E));
  g_assert_false (ks_runtime_write (f->rt, b, 0, sizeof (guint), got, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (ks_queue_fill (q, b, got, sizeof (guint), 0, sizeof (guint), NULL, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_null (ks_queue_map (q, b, 0, sizeof (guint), KS_MAP_READ, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (ks_runtime_finish (f->rt, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  OK (ks_queue_launch_policy (q, k, KS_LOCAL_SPLIT, wg, 1, &global, E));
  OK ((graph = ks_runtime_capture_end (f->rt, E)) != NULL);
  g_assert_cmpuint (ks_graph_get_launches (graph), ==, 2);
  g_assert_true (ks_graph_has_kernel_times (graph));

  /* The caller lets go of both: the graph keeps what it runs. */
  ks_kernel_unref (k);
  ks_program_unref (program);
  for (guint r = 0; r < 2; r++)
    {
      OK (ks_graph_launch_timed (graph, E));
      OK (ks_graph_collect_time (graph, &ns, E));
    }
  OK (ks_runtime_read (f->rt, b, 0, n * sizeof (guint), got, E));
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (got[i], ==, 2 * (i + 1));

  g_clear_pointer (&graph, ks_graph_free);

  /* A capture records the offset and size writes without running them:
   * right after it, a direct launch with the last recorded geometry (the
   * remainder at 960) must still write it, the device holding the old. */
  OK ((program = ks_runtime_build_program (f->rt, "test-runtime.cl", "-DKS_GLOBAL_OFFSET", E)) != NULL);
  OK ((k = ks_program_create_kernel (program, "rt_touch", E)) != NULL);
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  memset (got, 0, n * sizeof (guint));
  OK (ks_runtime_write (f->rt, b, 0, n * sizeof (guint), got, E));
  OK (ks_queue_launch (q, k, &whole, E));
  OK (ks_runtime_capture_begin (f->rt, E));
  OK (ks_queue_launch_policy (q, k, KS_LOCAL_SPLIT, wg, 1, &global, E));
  OK ((graph = ks_runtime_capture_end (f->rt, E)) != NULL);
  {
    KsLaunchConfig tail = { .dims = 1, .global = { n - 960 }, .local = { n - 960 }, .offset = { 960 } };

    OK (ks_queue_launch (q, k, &tail, E));
  }
  OK (ks_graph_launch (graph, E));
  OK (ks_queue_launch (q, k, &whole, E));
  OK (ks_runtime_read (f->rt, b, 0, n * sizeof (guint), got, E));
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (got[i], ==, (i < 960 ? 3 : 4) * (i + 1));
  ks_kernel_unref (k);
  ks_program_unref (program);
}

/* --- copy and fill (ks_queue_copy) --------------------------------------------- */

static void
test_copy_fill (Fixture       *f,
                gconstpointer  data)
{
  const guint n = 1024;
  g_autoptr(KsBuffer) a = alloc (f, n * sizeof (float), KS_BUFFER_READ_WRITE);
  g_autoptr(KsBuffer) b = alloc (f, n * sizeof (float), KS_BUFFER_READ_WRITE);
  g_autofree float *got = g_new (float, n);
  KsQueue *q = ks_runtime_get_queue (f->rt);
  const float pattern = 2.5f, other = -1.25f;
  const guint8 zero = 0;

  /* A one-byte pattern over b, a four-byte one over a's two halves. */
  OK (ks_queue_fill (q, b, &zero, 1, 0, n * sizeof (float), NULL, E));
  OK (ks_queue_fill (q, a, &pattern, sizeof pattern, 0, n / 2 * sizeof (float), NULL, E));
  OK (ks_queue_fill (q, a, &other, sizeof other, n / 2 * sizeof (float), n / 2 * sizeof (float), NULL, E));
  /* a[256 .. 768) to b[100 .. 612). */
  OK (ks_queue_copy (q, a, 256 * sizeof (float), b, 100 * sizeof (float), 512 * sizeof (float), NULL, E));
  OK (ks_queue_read (q, b, 0, n * sizeof (float), got, KS_TRANSFER_BLOCKING, NULL, E));

  for (guint i = 0; i < n; i++)
    {
      float want = 0.0f;

      if (i >= 100 && i < 612)
        want = i - 100 + 256 < n / 2 ? pattern : other;
      g_assert_cmpfloat (got[i], ==, want);
    }
}

/* --- a view at an offset ------------------------------------------------------- */

static void
test_view (Fixture       *f,
           gconstpointer  data)
{
  const KsDeviceInfo *info = ks_device_get_info (f->device);
  const gsize align = MAX (info->mem_base_addr_align, sizeof (float));
  const guint n = 4096, first = (guint) (align / sizeof (float)), len = 1000;
  g_autoptr(KsKernel) k = kernel (f, "rt_scale");
  g_autoptr(KsBuffer) b = alloc (f, n * sizeof (float), KS_BUFFER_READ_WRITE);
  g_autoptr(KsBuffer) view = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree float *host = g_new (float, n);
  KsQueue *q = ks_runtime_get_queue (f->rt);
  RtParams p = { { 2, 2, 2, 2, 2, 2, 2, 2 }, 0.0f };
  KsLaunchConfig cfg = { .dims = 1, .global = { len } };
  const float seven = 7.0f;

  g_assert_cmpuint (first + len, <=, n);
  for (guint i = 0; i < n; i++)
    host[i] = (float) i;
  OK (ks_runtime_write (f->rt, b, 0, n * sizeof (float), host, E));

  view = ks_buffer_new_view (b, first * sizeof (float), len * sizeof (float), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ks_buffer_get_size (view), ==, len * sizeof (float));
  /* Index 0 of the view is element first of the buffer: a write there, a
   * kernel over the view, and the rest of the buffer untouched. */
  OK (ks_queue_write (q, view, 0, sizeof seven, &seven, KS_TRANSFER_BLOCKING, NULL, E));
  OK (ks_kernel_set_arg_buffer (k, 0, view, E));
  OK (ks_kernel_set_arg (k, 1, sizeof p, &p, E));
  OK (ks_kernel_set_arg (k, 2, sizeof len, &len, E));
  OK (ks_queue_launch (q, k, &cfg, E));
  OK (ks_runtime_read (f->rt, b, 0, n * sizeof (float), host, E));
  for (guint i = 0; i < n; i++)
    {
      float want = (float) i;

      if (i == first)
        want = 14.0f;
      else if (i > first && i < first + len)
        want = 2.0f * i;
      g_assert_cmpfloat (host[i], ==, want);
    }

  /* An offset the device cannot place a view at says so. */
  if (info->mem_base_addr_align > 1 && ks_device_get_backend (f->device) == KS_BACKEND_OPENCL)
    {
      g_autoptr(KsBuffer) bad = ks_buffer_new_view (b, sizeof (float), sizeof (float), &error);
      g_assert_null (bad);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
    }
}

/* --- two queues ordered by an event -------------------------------------------- */

static void
test_two_queues (Fixture       *f,
                 gconstpointer  data)
{
  const guint n = 256, spin = 200000;
  g_autoptr(KsKernel) slow = kernel (f, "rt_slow_set");
  g_autoptr(KsKernel) twice = kernel (f, "rt_twice_plus_one");
  g_autoptr(KsBuffer) b = alloc (f, n * sizeof (float), KS_BUFFER_READ_WRITE);
  g_autoptr(KsQueue) other = NULL;
  g_autoptr(KsEvent) done = NULL;
  g_autofree float *got = g_new (float, n);
  KsQueue *q = ks_runtime_get_queue (f->rt);
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };
  const float zero = 0.0f;
  guint spin_here = spin;

  /* Oclgrind simulates every instruction: a shorter spin still comes
   * first on the first queue, and the order is the event's either way. */
  if (strstr (ks_device_get_name (f->device), "Oclgrind"))
    spin_here = 50;
  OK ((other = ks_runtime_new_queue (f->rt, E)) != NULL);
  g_assert_true (ks_queue_get_runtime (other) == f->rt);
  OK (ks_queue_fill (q, b, &zero, sizeof zero, 0, n * sizeof (float), NULL, E));
  OK (ks_kernel_set_arg_buffer (slow, 0, b, E));
  OK (ks_kernel_set_arg (slow, 1, sizeof n, &n, E));
  OK (ks_kernel_set_arg (slow, 2, sizeof spin_here, &spin_here, E));
  OK (ks_kernel_set_arg_buffer (twice, 0, b, E));
  OK (ks_kernel_set_arg (twice, 1, sizeof n, &n, E));

  OK (ks_queue_launch (q, slow, &cfg, E));
  OK ((done = ks_queue_record (q, E)) != NULL);
  OK (ks_queue_wait (other, done, E));
  OK (ks_queue_launch (other, twice, &cfg, E));
  OK (ks_queue_read (other, b, 0, n * sizeof (float), got, KS_TRANSFER_BLOCKING, NULL, E));
  OK (ks_event_wait (done, E));

  /* 2 x 1 + 1: the second queue ran after the first.  Before it, it would
   * have made 1 from 0, and the slow kernel would have written 1 over it. */
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (got[i], ==, 3.0f);
  OK (ks_runtime_finish (f->rt, E));
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
  const guint n = 8, zero = 0;
  KsLaunchConfig at = { .dims = 1, .global = { 4 }, .offset = { 4 } };
  KsLaunchConfig whole = { .dims = 1, .global = { 8 } };
  gboolean ok;

  g_assert_no_error (error);
  k = ks_program_create_kernel (plain, "rt_touch", &error);
  g_assert_no_error (error);
  OK (ks_queue_fill (ks_runtime_get_queue (f->rt), b, &zero, sizeof zero, 0, n * sizeof (guint), NULL, E));
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
  const gsize global = n;
  const guint zero = 0;
  KsLaunchPlan plan;
  KsQueue *q = ks_runtime_get_queue (f->rt);

  OK (ks_launch_plan (KS_LOCAL_SPLIT, wg, 1, &global, &plan, E));
  g_assert_cmpuint (plan.n_parts, ==, 2);
  g_assert_cmpuint (plan.parts[0].config.global[0], ==, 960);
  g_assert_cmpuint (plan.parts[1].first, ==, 960);
  g_assert_cmpuint (plan.parts[1].config.local[0], ==, 40);

  OK (ks_queue_fill (q, b, &zero, sizeof zero, 0, n * sizeof (guint), NULL, E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  OK (ks_queue_launch_policy (q, k, KS_LOCAL_SPLIT, wg, 1, &global, E));
  OK (ks_runtime_read (f->rt, b, 0, n * sizeof (guint), got, E));
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (got[i], ==, i + 1);
}

/* --- timed transfers into named timers ------------------------------------------ */

static void
test_timers (Fixture       *f,
             gconstpointer  data)
{
  const guint chunks = 3;
  const gsize chunk = 1 << 20;
  const guint n = (guint) (chunks * chunk / sizeof (float));
  g_autoptr(KsKernel) k = kernel (f, "rt_scale");
  g_autoptr(KsBuffer) b = alloc (f, chunks * chunk, KS_BUFFER_READ_WRITE);
  g_autofree float *host = g_new0 (float, n);
  g_autofree float *back = g_new0 (float, n);
  g_autoptr(KsEvent) start = NULL, end = NULL;
  g_auto(GStrv) names = NULL;
  KsQueue *q = ks_runtime_get_queue (f->rt);
  RtParams p = { { 1, 1, 1, 1, 1, 1, 1, 1 }, 1.0f };
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };
  guint64 up = 0, down = 0, kern = 0, span = 0, tick;
  guint up_n = 0, down_n = 0, kern_n = 0;

  for (guint i = 0; i < n; i++)
    host[i] = (float) (i % 100);
  ks_runtime_reset_timers (f->rt);
  OK ((start = ks_queue_record (q, E)) != NULL);
  for (guint c = 0; c < chunks; c++)
    OK (ks_queue_write (q, b, c * chunk, chunk, (char *) host + c * chunk, KS_TRANSFER_NON_BLOCKING,
                        "upload", E));
  OK (ks_kernel_set_arg_buffer (k, 0, b, E));
  OK (ks_kernel_set_arg (k, 1, sizeof p, &p, E));
  OK (ks_kernel_set_arg (k, 2, sizeof n, &n, E));
  OK (ks_queue_launch (q, k, &cfg, E));
  OK (ks_queue_read (q, b, 0, chunks * chunk, back, KS_TRANSFER_NON_BLOCKING, "download", E));
  OK ((end = ks_queue_record (q, E)) != NULL);
  OK (ks_runtime_collect_timings (f->rt, E));

  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (back[i], ==, host[i] + 1.0f);
  g_assert_true (ks_runtime_get_timer (f->rt, "upload", &up, &up_n));
  g_assert_true (ks_runtime_get_timer (f->rt, "download", &down, &down_n));
  g_assert_true (ks_runtime_get_timer (f->rt, "rt_scale", &kern, &kern_n));
  g_assert_false (ks_runtime_get_timer (f->rt, "nothing", NULL, NULL));
  g_assert_cmpuint (up_n, ==, chunks);
  g_assert_cmpuint (down_n, ==, 1);
  g_assert_cmpuint (kern_n, ==, 1);
  g_assert_cmpuint (ks_kernel_get_launches (k), ==, 1);
  g_assert_cmpuint (ks_kernel_get_time_ns (k), ==, kern);
  g_assert_cmpuint (up, >, 0);
  g_assert_cmpuint (down, >, 0);
  g_assert_cmpuint (kern, >, 0);
  names = ks_runtime_list_timers (f->rt);
  g_assert_cmpstrv (names, ((const char *[]) { "download", "rt_scale", "upload", NULL }));

  /* One in-order queue: the parts follow each other between the two
   * events, so they sum up to no more than the span (give each part a
   * tick of the clock), and the span holds nothing else big. */
  OK (ks_event_elapsed_ns (start, end, &span, E));
  tick = MAX (ks_device_get_info (f->device)->timer_resolution_ns, 1);
  g_test_message ("upload %" G_GUINT64_FORMAT " ns (%u), kernel %" G_GUINT64_FORMAT " ns, download %"
                  G_GUINT64_FORMAT " ns; span %" G_GUINT64_FORMAT " ns", up, up_n, kern, down, span);
  g_assert_cmpuint (up + kern + down, <=, span + 5 * tick);
  g_assert_cmpuint (up + kern + down, >, 0);

  ks_runtime_reset_timers (f->rt);
  g_assert_false (ks_runtime_get_timer (f->rt, "upload", NULL, NULL));

  /* Untimed: the transfer goes into no timer, and events hold no clock. */
  ks_runtime_set_timing (f->rt, FALSE);
  g_clear_pointer (&start, ks_event_unref);
  g_clear_pointer (&end, ks_event_unref);
  OK ((start = ks_queue_record (q, E)) != NULL);
  OK (ks_queue_write (q, b, 0, chunk, host, KS_TRANSFER_BLOCKING, "upload", E));
  OK ((end = ks_queue_record (q, E)) != NULL);
  OK (ks_runtime_collect_timings (f->rt, E));
  g_assert_false (ks_runtime_get_timer (f->rt, "upload", NULL, NULL));
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ks_event_elapsed_ns (start, end, &span, &error));
    g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  }
  ks_runtime_set_timing (f->rt, TRUE);
}

/* --- what the backend says about kernels and devices ------------------------------ */

static void
test_queries (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(KsKernel) k = kernel (f, "rt_reduce");
  const KsKernelInfo *ki = ks_kernel_get_info (k);
  const KsDeviceInfo *di = ks_device_get_info (f->device);

  g_assert_cmpuint (ki->max_work_group_size, >=, 1);
  g_assert_cmpuint (ki->max_work_group_size, <=, di->max_work_group_size);
  g_assert_cmpuint (ki->preferred_multiple, >=, 1);
  if (ks_device_get_backend (f->device) == KS_BACKEND_CUDA)
    {
      g_assert_cmpuint (ki->registers, >, 0);
      g_assert_cmpuint (ki->suggested_local, >=, 32);
    }
  g_assert_cmpuint (di->local_mem, >, 0);
  g_assert_cmpuint (di->timer_resolution_ns, >, 0);
  g_assert_cmpuint (di->mem_base_addr_align, >=, 1);
  g_assert_cmpuint (di->vector_width_preferred[KS_VECTOR_FLOAT], >=, 1);
  g_assert_cmpuint (di->vector_width_native[KS_VECTOR_FLOAT], >=, 1);
  g_assert_true (di->vector_width_preferred[KS_VECTOR_DOUBLE] == 0 || di->has_fp64);
  g_assert_cmpstr (ks_vector_type_to_string (KS_VECTOR_HALF), ==, "half");
  g_test_message ("%s: float x%u preferred, x%u native; double x%u; timer %lu ns; fp16 %s; "
                  "views every %lu bytes; rt_reduce: group <= %lu, multiple %lu, %lu local bytes, "
                  "%u registers",
                  di->name, di->vector_width_preferred[KS_VECTOR_FLOAT],
                  di->vector_width_native[KS_VECTOR_FLOAT], di->vector_width_preferred[KS_VECTOR_DOUBLE],
                  (unsigned long) di->timer_resolution_ns, di->has_fp16 ? "yes" : "no",
                  (unsigned long) di->mem_base_addr_align, (unsigned long) ki->max_work_group_size,
                  (unsigned long) ki->preferred_multiple, (unsigned long) ki->local_mem_bytes, ki->registers);
}

/* --- lifetimes --------------------------------------------------------------------- */

/* Dropped in the order a careless caller would: the kernel and the view
 * still work with their runtime, program and buffer unreferenced. */
static void
test_lifetimes (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(KsKernel) k = kernel (f, "rt_touch");
  const gsize align = MAX (ks_device_get_info (f->device)->mem_base_addr_align, sizeof (guint));
  const guint n = 16, zero = 0;
  g_autoptr(KsBuffer) b = alloc (f, align + n * sizeof (guint), KS_BUFFER_READ_WRITE);
  g_autoptr(KsBuffer) view = NULL;
  g_autoptr(KsQueue) q = ks_queue_ref (ks_runtime_get_queue (f->rt));
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };
  guint got[16];

  OK ((view = ks_buffer_new_view (b, align, n * sizeof (guint), E)) != NULL);
  g_clear_pointer (&f->program, ks_program_unref);
  g_clear_pointer (&f->rt, ks_runtime_unref);
  g_clear_pointer (&b, ks_buffer_unref);

  OK (ks_queue_fill (q, view, &zero, sizeof zero, 0, n * sizeof (guint), NULL, E));
  OK (ks_kernel_set_arg_buffer (k, 0, view, E));
  OK (ks_kernel_set_arg (k, 1, sizeof n, &n, E));
  OK (ks_queue_launch (q, k, &cfg, E));
  OK (ks_queue_read (q, view, 0, sizeof got, got, KS_TRANSFER_BLOCKING, NULL, E));
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

/* A build error inside the shared header names the header and its line. */
static void
test_include_line_numbers (void)
{
  g_autofree char *dir = g_build_filename (kernel_dir, "broken", NULL);
  g_autofree char *header = g_build_filename (dir, "broken.h", NULL);
  g_autofree char *main_cl = g_build_filename (dir, "main.cl", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  {
    g_autofree char *from = g_build_filename (kernel_dir, "cuda-prelude.h", NULL);
    g_autofree char *to = g_build_filename (dir, "cuda-prelude.h", NULL);
    g_autofree char *prelude = NULL;

    g_assert_true (g_file_get_contents (from, &prelude, NULL, NULL));
    g_assert_true (g_file_set_contents (to, prelude, -1, NULL));
  }
  g_assert_true (g_file_set_contents (header, "/* 1 */\n/* 2 */\nint this_line_is_three = ;\n", -1, NULL));
  g_assert_true (g_file_set_contents (main_cl, "/* 1 */\n#include \"broken.h\"\n__kernel void k (void) { }\n",
                                      -1, NULL));
  ks_kernel_source_set_dir (dir);
  text = ks_kernel_source_load_expanded ("main.cl", &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "#line 1 \"broken.h\""));
  g_assert_nonnull (strstr (text, "#line 3 \"main.cl\""));

  /* Compiled: the message says broken.h, line 3, on every device. */
  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    {
      KsDevice *d = ks_device_list_get_device (devices, i);
      g_autoptr(KsRuntime) rt = NULL;
      g_autoptr(KsProgram) program = NULL;

      if (ks_device_get_backend (d) == KS_BACKEND_HOST)
        continue;
      rt = ks_runtime_new (d, &error);
      g_assert_no_error (error);
      program = ks_runtime_build_program (rt, "main.cl", NULL, &error);
      g_assert_null (program);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED);
      g_test_message ("%s", error->message);
      g_assert_true (strstr (error->message, "broken.h:3") || strstr (error->message, "broken.h(3)"));
      g_clear_error (&error);
    }
  ks_kernel_source_set_dir (kernel_dir);
}

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

/* Includes are expanded once each, between #line marks that map every
 * line back; a missing one names the line that asked for it. */
static void
test_kernel_source (void)
{
  g_autofree char *dir = g_build_filename (kernel_dir, "inc", NULL);
  const struct { const char *name, *text; } files[] = {
    { "a.h", "#pragma once\nint a_value (void) { return 1; }\n" },
    { "b.h", "#include \"a.h\"\nint b_value (void) { return 2; }\n" },
    { "k.cl", "/* k 1 */\n#include \"a.h\"\n#include \"b.h\"\n/* k 4 */\n" },
    { "bad.cl", "/* 1 */\n/* 2 */\n#include \"missing.h\"\n" },
  };
  g_autofree char *text = NULL, *file = NULL;
  g_autoptr(GError) error = NULL;
  const char *p;
  guint line = 0, count = 0, k4 = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);
      g_assert_true (g_file_set_contents (path, files[i].text, -1, NULL));
    }
  ks_kernel_source_set_dir (dir);
  text = ks_kernel_source_load_expanded ("k.cl", &error);
  g_assert_no_error (error);
  for (p = text; (p = strstr (p, "int a_value")); p++)
    count++;
  g_assert_cmpuint (count, ==, 1);   /* b.h's include of a.h adds nothing */
  g_assert_nonnull (strstr (text, "int b_value"));

  /* Which line of the expanded text is "k 4", and where it really is. */
  {
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
    for (guint i = 0; lines[i]; i++)
      if (strstr (lines[i], "/* k 4 */"))
        k4 = i + 1;
  }
  g_assert_cmpuint (k4, >, 4);
  g_assert_true (ks_kernel_source_locate (text, k4, &file, &line));
  g_assert_cmpstr (file, ==, "k.cl");
  g_assert_cmpuint (line, ==, 4);
  g_clear_pointer (&file, g_free);
  g_assert_true (ks_kernel_source_locate (text, k4 - 2, &file, &line));
  g_assert_cmpstr (file, ==, "b.h");
  g_assert_cmpuint (line, ==, 2);

  g_clear_pointer (&text, g_free);
  text = ks_kernel_source_load_expanded ("bad.cl", &error);
  g_assert_null (text);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_KERNEL_SOURCE);
  g_assert_nonnull (strstr (error->message, "bad.cl, line 3"));
  g_assert_nonnull (strstr (error->message, "missing.h"));

  ks_kernel_source_set_dir (kernel_dir);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i].name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}

/* The test kernels and the built-in kernels/ks-common.h and
 * cuda-prelude.h (which NVRTC pre-includes) side by side in a folder of
 * their own, which becomes the kernel folder. */
static void
copy_builtin (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = ks_kernel_source_load (name, &error);
  g_autofree char *path = g_build_filename (kernel_dir, name, NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
}

static void
prepare_kernels (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) test = NULL;
  g_autofree char *path = NULL;

  test = g_resources_lookup_data ("/org/kernelscope/Kernelscope/tests/test-runtime.cl", 0, &error);
  g_assert_no_error (error);
  kernel_dir = g_dir_make_tmp ("ks-test-runtime-XXXXXX", &error);
  g_assert_no_error (error);
  copy_builtin ("ks-common.h");
  copy_builtin ("cuda-prelude.h");
  path = g_build_filename (kernel_dir, "test-runtime.cl", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (test, NULL), g_bytes_get_size (test), NULL));
  ks_kernel_source_set_dir (kernel_dir);
}

static void
remove_kernels (void)
{
  const char *files[] = { "ks-common.h", "cuda-prelude.h", "test-runtime.cl", "broken/cuda-prelude.h", "broken/broken.h", "broken/main.cl", "broken" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (kernel_dir, files[i], NULL);
      g_remove (path);
    }
  g_rmdir (kernel_dir);
}

static void
no_device (void)
{
  g_test_skip ("no OpenCL or CUDA device here (install pocl-opencl-icd for the CPU one)");
}

int
main (int    argc,
      char **argv)
{
  static const struct {
    const char *name;
    void (*func) (Fixture *, gconstpointer);
  } tests[] = {
    { "reduction", test_reduction },
    { "local-too-large", test_local_too_large },
    { "pinned-map", test_pinned_map },
    { "local-sum", test_local_sum },
    { "shared-opt-in", test_shared_opt_in },
    { "unset-arg", test_unset_arg },
    { "non-uniform", test_non_uniform },
    { "linear-id", test_linear_id },
    { "zero-copy-map", test_zero_copy_map },
    { "unref-mapped", test_unref_mapped },
    { "fill-patterns", test_fill_patterns },
    { "graph-owns", test_graph_owns },
    { "copy-fill", test_copy_fill },
    { "view", test_view },
    { "two-queues", test_two_queues },
    { "3d-offset", test_3d_offset },
    { "tall-grid", test_tall_grid },
    { "split-policy", test_split_policy },
    { "offset-opt-in", test_offset_opt_in },
    { "timers", test_timers },
    { "queries", test_queries },
    { "lifetimes", test_lifetimes },
  };
  guint kernel_devices = 0;
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  prepare_kernels ();

  g_test_add_func ("/runtime/host-unsupported", test_host_unsupported);
  g_test_add_func ("/runtime/launch-plan", test_launch_plan);
  g_test_add_func ("/runtime/kernel-source", test_kernel_source);
  /* The test data is the device's own id: the list outlives g_test_run,
   * and a g_strdup'd copy was never freed (LeakSanitizer said so). */
  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    {
      KsDevice *d = ks_device_list_get_device (devices, i);

      if (ks_device_get_backend (d) == KS_BACKEND_HOST)
        continue;
      kernel_devices++;
      for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
        {
          g_autofree char *path = g_strdup_printf ("/runtime/%s/%s", ks_device_get_id (d), tests[t].name);
          g_test_add (path, Fixture, ks_device_get_id (d), fixture_set_up, tests[t].func,
                      fixture_tear_down);
        }
    }
  if (kernel_devices > 0 && g_getenv ("KS_TEST_PLANT_OOB") != NULL)
    {
      KsDevice *d = ks_device_list_find_backend (devices, KS_BACKEND_OPENCL);
      if (d != NULL)
        g_test_add ("/runtime/planted-oob", Fixture, ks_device_get_id (d), fixture_set_up,
                    test_planted_oob, fixture_tear_down);
    }
  if (kernel_devices > 0)
    g_test_add_func ("/runtime/include-line-numbers", test_include_line_numbers);
  else
    g_test_add_func ("/runtime/no-device", no_device);

  status = g_test_run ();
  remove_kernels ();
  g_clear_object (&devices);
  return status;
}
