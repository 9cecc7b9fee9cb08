/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernels that start early: ks_kernel_set_waits_previous and the kernels'
 * ks_grid_wait_previous / ks_grid_start_next (kernels/ks-common.h).  On a
 * CUDA device of compute capability 9.0 and up the marked launches start
 * while the one before ends (programmatic dependent launch, from a stream
 * and, here, from a graph too); on OpenCL (PoCL in CI) the macros are
 * nothing and the launch order orders the kernels: the same chain must
 * give the same values on both. */
#include "ks-device-list.h"
#include "ks-kernel-source.h"
#include "ks-runtime.h"

#include <glib/gstdio.h>

static KsDeviceList *devices;

/* Each launch reads its neighbour's value from the launch before, written
 * by another group, while that launch's first group spins: a launch that
 * started early and did not wait (ks_grid_wait_previous) would read the
 * old value.  KS_TEST_NO_WAIT=1 builds it without the wait, to see this
 * test fail where the device starts kernels early (215 of 2^20 values
 * wrong on an H200; not run by default). */
static const char chain_source[] =
  "#include \"ks-common.h\"\n"
  "__kernel void chain_step (__global const uint *in, __global uint *out,\n"
  "                          __global uint *sink, const uint n, const uint spin)\n"
  "{\n"
  "  const uint i = (uint) get_global_id (0);\n"
  "  uint acc = i;\n"
  "#ifndef KS_TEST_NO_WAIT\n"
  "  ks_grid_wait_previous ();\n"
  "#endif\n"
  "  ks_grid_start_next ();\n"
  "  if (i >= n)\n"
  "    return;\n"
  "  if (get_group_id (0) == 0)\n"
  "    {\n"
  "      for (uint k = 0; k < spin; k++)\n"
  "        acc = acc * 1664525u + 1013904223u;\n"
  "      sink[i] = acc;\n"
  "    }\n"
  "  out[i] = in[(i + 1) % n] + 1u;\n"
  "}\n";

/* Runs steps launches of chain_step from a (0, 1, ..., n - 1), alternating
 * the two buffers; from a graph when graph. */
static void
run_chain (KsRuntime *rt, KsKernel *kernel, gboolean graph, guint n, guint32 spin, guint steps)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsBuffer) a = ks_runtime_alloc (rt, n * sizeof (guint32), &error);
  g_autoptr(KsBuffer) b = ks_runtime_alloc (rt, n * sizeof (guint32), &error);
  g_autoptr(KsBuffer) sink = ks_runtime_alloc (rt, n * sizeof (guint32), &error);
  g_autoptr(KsGraph) recorded = NULL;
  g_autofree guint32 *v = g_new (guint32, n);
  gsize global = (n + 255) / 256 * 256, local = 256;
  guint bad = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    v[i] = i;
  g_assert_true (ks_runtime_write (rt, a, 0, n * sizeof *v, v, &error));
  if (graph)
    g_assert_true (ks_runtime_capture_begin (rt, &error));
  for (guint s = 0; s < steps; s++)
    {
      g_assert_true (ks_kernel_set_args (kernel, &error, KS_ARG_BUFFER, s % 2 ? b : a,
                                         KS_ARG_BUFFER, s % 2 ? a : b, KS_ARG_BUFFER, sink,
                                         KS_ARG_UINT, n, KS_ARG_UINT, spin, KS_ARG_END));
      g_assert_true (ks_runtime_launch (rt, kernel, 1, &global, &local, &error));
    }
  if (graph)
    {
      recorded = ks_runtime_capture_end (rt, &error);
      g_assert_no_error (error);
      g_assert_true (ks_graph_launch (recorded, &error));
    }
  g_assert_true (ks_runtime_finish (rt, &error));
  g_assert_true (ks_runtime_read (rt, steps % 2 ? b : a, 0, n * sizeof *v, v, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    bad += v[i] != (i + steps) % n + steps;
  g_test_message ("%s, %u launches of %u items: %u values wrong", graph ? "graph" : "stream", steps, n, bad);
  g_assert_cmpuint (bad, ==, 0);
}

/* Builds chain.cl from a kernel folder of its own (with the headers it
 * includes) on device, marks it ks_kernel_set_waits_previous and runs the
 * chain from a stream and from a graph where the device records graphs. */
static void
check_early_launch (KsDevice *device, guint n, guint32 spin)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRuntime) rt = NULL;
  g_autoptr(KsProgram) program = NULL;
  g_autoptr(KsKernel) kernel = NULL;
  const char *headers[] = { "ks-common.h", "cuda-prelude.h" };
  g_autofree char *dir = NULL, *path = NULL;

  dir = g_dir_make_tmp ("ks-chain-XXXXXX", &error);
  g_assert_no_error (error);
  /* The kernel folder holds the headers a CUDA build includes too. */
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      g_autoptr(GBytes) text = ks_kernel_source_load (headers[i], &error);

      g_assert_no_error (error);
      path = g_build_filename (dir, headers[i], NULL);
      g_assert_true (g_file_set_contents (path, g_bytes_get_data (text, NULL), g_bytes_get_size (text), &error));
      g_clear_pointer (&path, g_free);
    }
  path = g_build_filename (dir, "chain.cl", NULL);
  g_assert_true (g_file_set_contents (path, chain_source, -1, &error));
  ks_kernel_source_set_dir (dir);
  /* Early in graphs too (a programmatic edge), not only on the stream. */
  g_setenv ("KS_PDL", "graph", TRUE);
  rt = ks_runtime_new (device, &error);
  g_unsetenv ("KS_PDL");
  g_assert_no_error (error);
  program = ks_runtime_build_program (rt, "chain.cl",
                                      g_strcmp0 (g_getenv ("KS_TEST_NO_WAIT"), "1") == 0 ? "-DKS_TEST_NO_WAIT" : NULL,
                                      &error);
  ks_kernel_source_set_dir (NULL);
  g_assert_no_error (error);
  kernel = ks_program_create_kernel (program, "chain_step", &error);
  g_assert_no_error (error);
  ks_kernel_set_waits_previous (kernel, TRUE);
  ks_runtime_set_timing (rt, FALSE);
  run_chain (rt, kernel, FALSE, n, spin, 40);
  if (ks_device_get_backend (device) == KS_BACKEND_CUDA)
    run_chain (rt, kernel, TRUE, n, spin, 40);
  g_remove (path);
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      g_free (path);
      path = g_build_filename (dir, headers[i], NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}

static void
test_cuda (void)
{
  KsDevice *device = ks_device_list_find_backend (devices, KS_BACKEND_CUDA);

  if (device == NULL)
    {
      g_test_skip ("no CUDA device here");
      return;
    }
  check_early_launch (device, 1 << 20, 200000);
}

/* Every OpenCL device: there the marks change nothing, and a kernel with
 * the two macros builds and runs as any other. */
static void
test_opencl (void)
{
  gboolean any = FALSE;

  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    {
      KsDevice *device = ks_device_list_get_device (devices, i);

      if (ks_device_get_backend (device) != KS_BACKEND_OPENCL)
        continue;
      check_early_launch (device, 1 << 16, 2000);
      any = TRUE;
    }
  if (!any)
    g_test_skip ("no OpenCL device here");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/launch/early/cuda", test_cuda);
  g_test_add_func ("/launch/early/opencl", test_opencl);
  status = g_test_run ();
  g_object_unref (devices);
  return status;
}
