/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runtime seam's queues on every kernel-running device (see
 * test-runtime.c): two queues ordered by an event, timed transfers and
 * launches into named timers, on CUDA a graph that keeps the programs
 * and kernels it launched, and kernels that wait for their predecessor
 * themselves (started early on CUDA, from a stream and from a graph). */
#include "ks-launch.h"
#include "ks-test-runtime-util.h"

#include <string.h>

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
  g_autofree float *zeros = g_new0 (float, n);
  KsQueue *q = ks_runtime_get_queue (f->rt);
  KsLaunchConfig cfg = { .dims = 1, .global = { n } };
  guint spin_here = spin;

  /* Oclgrind simulates every instruction: a shorter spin still comes
   * first on the first queue, and the order is the event's either way. */
  if (strstr (ks_device_get_name (f->device), "Oclgrind"))
    spin_here = 50;
  OK ((other = ks_runtime_new_queue (f->rt, E)) != NULL);
  g_assert_true (ks_queue_get_runtime (other) == f->rt);
  /* Zeros from the host, not ks_queue_fill: Oclgrind 21.10's
   * --uninitialized takes a filled buffer as unwritten (each pattern store
   * gives the buffer a shadow of the pattern's size), kernel writes too. */
  OK (ks_runtime_write (f->rt, b, 0, n * sizeof (float), zeros, E));
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

/* --- kernels that start early ---------------------------------------------------- */

/* steps launches of rt_chain_step from (0, 1, ..., n - 1), alternating two
 * buffers, from a stream or recorded into a graph: each value must be
 * (i + steps) % n + steps. */
static void
run_chain (Fixture  *f,
           KsKernel *k,
           gboolean  graph,
           guint     n,
           guint     spin,
           guint     steps)
{
  g_autoptr(KsBuffer) a = alloc (f, n * sizeof (guint32), KS_BUFFER_READ_WRITE);
  g_autoptr(KsBuffer) b = alloc (f, n * sizeof (guint32), KS_BUFFER_READ_WRITE);
  g_autoptr(KsBuffer) sink = alloc (f, n * sizeof (guint32), KS_BUFFER_READ_WRITE);
  g_autoptr(KsGraph) recorded = NULL;
  g_autofree guint32 *v = g_new (guint32, n);
  KsLaunchConfig cfg = { .dims = 1, .global = { (n + 255) / 256 * 256 }, .local = { 256 } };
  guint bad = 0;

  for (guint i = 0; i < n; i++)
    v[i] = i;
  OK (ks_runtime_write (f->rt, a, 0, n * sizeof *v, v, E));
  if (graph)
    OK (ks_runtime_capture_begin (f->rt, E));
  for (guint s = 0; s < steps; s++)
    {
      OK (ks_kernel_set_args (k, E, KS_ARG_BUFFER, s % 2 ? b : a, KS_ARG_BUFFER, s % 2 ? a : b,
                              KS_ARG_BUFFER, sink, KS_ARG_UINT, n, KS_ARG_UINT, spin, KS_ARG_END));
      OK (ks_queue_launch (ks_runtime_get_queue (f->rt), k, &cfg, E));
    }
  if (graph)
    {
      OK ((recorded = ks_runtime_capture_end (f->rt, E)) != NULL);
      OK (ks_graph_launch (recorded, E));
    }
  OK (ks_runtime_read (f->rt, steps % 2 ? b : a, 0, n * sizeof *v, v, E));
  for (guint i = 0; i < n; i++)
    bad += v[i] != (i + steps) % n + steps;
  g_test_message ("%s, %u launches of %u items: %u values wrong", graph ? "graph" : "stream", steps, n, bad);
  g_assert_cmpuint (bad, ==, 0);
}

/* A chain of dependent launches, each marked ks_kernel_set_waits_previous;
 * main () sets KS_PDL=graph, so CUDA records them as programmatic edges
 * too.  Sizes: a full H200 grid of work on CUDA, less on OpenCL's CPUs,
 * little under Oclgrind (which simulates every instruction). */
static void
test_early_launch (Fixture       *f,
                   gconstpointer  data)
{
  const gboolean cuda = ks_device_get_backend (f->device) == KS_BACKEND_CUDA;
  const gboolean oclgrind = strstr (ks_device_get_name (f->device), "Oclgrind") != NULL;
  g_autoptr(KsKernel) k = kernel (f, g_strcmp0 (g_getenv ("KS_TEST_NO_WAIT"), "1") == 0 ? "rt_chain_step_nowait"
                                                                                          : "rt_chain_step");
  const guint n = cuda ? 1u << 20 : oclgrind ? 1024 : 1u << 16;
  const guint spin = cuda ? 200000 : oclgrind ? 50 : 2000;

  ks_kernel_set_waits_previous (k, TRUE);
  run_chain (f, k, FALSE, n, spin, oclgrind ? 4 : 40);
  if (cuda)
    run_chain (f, k, TRUE, n, spin, 40);
}

int
main (int    argc,
      char **argv)
{
  static const KsTestRuntimeCase tests[] = {
    { "two-queues", test_two_queues },
    { "timers", test_timers },
    { "graph-owns", test_graph_owns },
    { "early-launch", test_early_launch },
  };

  /* Early launches inside CUDA graphs too (off by default there): the
   * programmatic edges are tested beside the stream's. */
  g_setenv ("KS_PDL", "graph", TRUE);
  return ks_test_runtime_main (&argc, &argv, tests, G_N_ELEMENTS (tests), NULL);
}
