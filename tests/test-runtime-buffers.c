/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runtime seam's buffers on every kernel-running device (see
 * test-runtime.c): pinned and zero-copy map/unmap and a plain buffer's
 * write-back, a buffer freed while mapped, fills of 1- to 16-byte patterns,
 * copies, views at an offset, and the lifetimes of a kernel and a view
 * whose runtime, program and buffer were let go. */
#include "ks-test-runtime-util.h"

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

int
main (int    argc,
      char **argv)
{
  static const KsTestRuntimeCase tests[] = {
    { "pinned-map", test_pinned_map },
    { "zero-copy-map", test_zero_copy_map },
    { "unref-mapped", test_unref_mapped },
    { "view", test_view },
    { "lifetimes", test_lifetimes },
    /* Last on purpose: see test-runtime-buffers-oclgrind in meson.build. */
    { "fill-patterns", test_fill_patterns },
    { "copy-fill", test_copy_fill },
  };

  return ks_test_runtime_main (&argc, &argv, tests, G_N_ELEMENTS (tests), NULL);
}
