/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA backend.  What needs no GPU runs everywhere: the device list's
 * note when there is no driver, and NVRTC compiling every kernel of
 * kernels/ through the prelude.  What needs a GPU (every Gauss policy
 * against the host, the occupancy-chosen block size, graph replay,
 * cuSOLVER) skips with the reason where there is none. */
#include "ks-compute-error.h"
#include "ks-cuda.h"
#include "ks-cusolver.h"
#include "ks-cublas.h"
#include "ks-device-list.h"
#include "ks-gauss.h"
#include "ks-kernel-source.h"
#include "ks-runtime.h"

#include <dlfcn.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static KsDeviceList *devices;

static KsDevice *
cuda_device (void)
{
  return ks_device_list_find_backend (devices, KS_BACKEND_CUDA);
}

static const char *
cuda_note (void)
{
  for (const char * const *n = ks_device_list_get_notes (devices); *n; n++)
    if (g_str_has_prefix (*n, "CUDA:"))
      return *n;
  return NULL;
}

/* Every skip says why: the note the device list gives. */
static gboolean
skip_without_gpu (void)
{
  g_autofree char *why = NULL;

  if (cuda_device () != NULL)
    return FALSE;
  why = g_strdup_printf ("no CUDA device here (%s)", cuda_note ());
  g_test_skip (why);
  return TRUE;
}

static void
test_note (void)
{
  const char *note = cuda_note ();
  void *libcuda;

  g_assert_nonnull (note);
  if (cuda_device () != NULL)
    {
      g_assert_nonnull (strstr (note, "device(s)"));
      return;
    }
  /* No device: the note must say why, and which why depends on the driver. */
  libcuda = dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (libcuda == NULL)
    g_assert_nonnull (strstr (note, "no CUDA driver"));
  else
    {
      g_assert_true (strstr (note, "no CUDA device") || strstr (note, "older than"));
      dlclose (libcuda);
    }
}

static void
compile_ok (const char *name,
            const char *options)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *source = ks_kernel_source_load_expanded (name, &error);
  g_autoptr(GBytes) cubin = NULL;
  g_autofree char *log = NULL;

  g_assert_no_error (error);
  /* sm_90: the H100/H200; NVRTC compiles for it without a driver. */
  cubin = ks_cuda_compile (name, source, strlen (source), options, 9, 0, &log, &error);
  g_assert_no_error (error);
  g_assert_nonnull (cubin);
  g_assert_cmpuint (g_bytes_get_size (cubin), >, 0);
}

static void
test_nvrtc_kernels (void)
{
  compile_ok ("gauss.cl", "-DKS_REAL=float");
  compile_ok ("gauss.cl", "-DKS_REAL=double -DKS_FP64");
  compile_ok ("stream.cl", NULL);
  compile_ok ("probe.cl", NULL);
  compile_ok ("heat-cg.cl", "-DKS_REAL=float");
  compile_ok ("heat-cg.cl", "-DKS_REAL=double -DKS_FP64");
}

/* Every kernel file the binary carries, through NVRTC, once per variant
 * its source names in a comment "ks-nvrtc: OPTIONS | OPTIONS ..." (the
 * builds it gets; the list may go on over lines up to the comment's end);
 * without one, once as it is.  NVRTC needs
 * no GPU, so a kernel that cannot compile for CUDA fails here, on any
 * machine with the toolkit, before anyone runs it on a device. */
static void
test_nvrtc_every_kernel (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = g_resources_enumerate_children ("/org/kernelscope/Kernelscope/kernels",
                                                        G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  guint compiled = 0;

  g_assert_no_error (error);
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *text = NULL;
      g_auto(GStrv) variants = NULL;
      const char *mark;

      if (!g_str_has_suffix (names[i], ".cl"))
        continue;
      bytes = ks_kernel_source_load (names[i], &error);
      g_assert_no_error (error);
      text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      if ((mark = strstr (text, "ks-nvrtc:")))
        {
          /* Up to the comment's end, over several lines ("\n * " between). */
          const char *end = strstr (mark, "*/");
          g_autofree char *list = g_strndup (mark + 9, end ? (gsize) (end - mark - 9) : strcspn (mark + 9, "\n"));
          g_autoptr(GRegex) joins = g_regex_new ("\\n\\s*\\*", 0, 0, NULL);
          g_autofree char *flat = g_regex_replace_literal (joins, list, -1, 0, " ", 0, NULL);

          variants = g_strsplit (flat, "|", -1);
        }
      else
        variants = g_strsplit ("", "|", -1);
      for (guint v = 0; variants[v] || v == 0; v++)
        {
          /* One space between options: NVRTC takes an empty one as invalid. */
          g_auto(GStrv) words = g_strsplit_set (variants[v] ? variants[v] : "", " \t\n", -1);
          g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
          g_auto(GStrv) list = NULL;
          g_autofree char *options = NULL;

          for (guint w = 0; words[w]; w++)
            if (words[w][0])
              g_strv_builder_add (kept, words[w]);
          list = g_strv_builder_end (kept);
          options = g_strjoinv (" ", list);

          g_test_message ("%s %s", names[i], options);
          compile_ok (names[i], options[0] ? options : NULL);
          compiled++;
          if (variants[v] == NULL)
            break;
        }
    }
  g_assert_cmpuint (compiled, >=, 4);
}

/* kernels/index-cub.cu (CUDA only, not an OpenCL file): CUB's block
 * reduction from the toolkit's headers, as ks-index-solver.c builds it. */
static void
test_nvrtc_cub (void)
{
  g_autofree char *root = g_path_get_dirname (KS_CUDA_LIBDIR);

  for (guint p = 0; p < 2; p++)
    {
      g_autofree char *options = g_strdup_printf ("-I%s/include/cccl -I%s/include -std=c++17 -DKS_REAL=%s "
                                                  "-DKS_CUB_THREADS=256", root, root, p ? "double" : "float");

      compile_ok ("index-cub.cu", options);
    }
}

/* The shared header and tests/kernels/test-runtime.cl (local-memory
 * arguments as dynamic shared memory, a struct argument, the global
 * offset) through NVRTC; the latter only where the source tree is. */
static void
test_nvrtc_shared_header (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) common = ks_kernel_source_load ("ks-common.h", &error);
  g_autoptr(GBytes) prelude = ks_kernel_source_load ("cuda-prelude.h", &error);
  g_autofree char *prelude_path = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-test-cuda-XXXXXX", &error);
  g_autofree char *header = NULL, *test_cl = NULL, *own = NULL, *tree = NULL, *text = NULL;
  const char *own_text =
    "#include \"ks-common.h\"\n"
    "__kernel void k (__global float *out, KS_LOCAL_PARAM (float, a), KS_LOCAL_PARAM (uint, b))\n"
    "{\n"
    "  KS_LOCAL_BIND (float, a);\n"
    "  KS_LOCAL_BIND (uint, b);\n"
    "  a[get_local_id (0)] = 1.0f;\n"
    "  b[get_local_id (0)] = 1u;\n"
    "  float s = ks_group_sum_float (a);\n"
    "  uint c = ks_group_sum_uint (b);\n"
    "  if (get_local_id (0) == 0) out[get_group_id (0)] = s + c + ks_global_linear_id ();\n"
    "}\n";

  g_assert_no_error (error);
  header = g_build_filename (dir, "ks-common.h", NULL);
  own = g_build_filename (dir, "own.cl", NULL);
  g_assert_true (g_file_set_contents (header, g_bytes_get_data (common, NULL), g_bytes_get_size (common), NULL));
  g_assert_true (g_file_set_contents (own, own_text, -1, NULL));
  /* The kernel folder replaces the built-in one: the prelude too. */
  prelude_path = g_build_filename (dir, "cuda-prelude.h", NULL);
  g_assert_true (g_file_set_contents (prelude_path, g_bytes_get_data (prelude, NULL),
                                      g_bytes_get_size (prelude), NULL));
  tree = g_test_build_filename (G_TEST_DIST, "kernels", "test-runtime.cl", NULL);
  if (g_file_get_contents (tree, &text, NULL, NULL))
    {
      test_cl = g_build_filename (dir, "test-runtime.cl", NULL);
      g_assert_true (g_file_set_contents (test_cl, text, -1, NULL));
    }
  ks_kernel_source_set_dir (dir);
  /* ks_global_linear_id needs the true global size on CUDA: without
   * -DKS_GLOBAL_OFFSET it is not there (it would count rows of the padded
   * grid), and NVRTC names it. */
  compile_ok ("own.cl", "-DKS_GLOBAL_OFFSET");
  {
    g_autofree char *source = ks_kernel_source_load_expanded ("own.cl", &error);
    g_autoptr(GBytes) cubin = NULL;
    g_autofree char *log = NULL;

    g_assert_no_error (error);
    cubin = ks_cuda_compile ("own.cl", source, strlen (source), NULL, 9, 0, &log, &error);
    g_assert_null (cubin);
    g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED);
    g_assert_nonnull (strstr (error->message, "ks_global_linear_id"));
    g_clear_error (&error);
  }
  if (test_cl)
    {
      compile_ok ("test-runtime.cl", "-DKS_GLOBAL_OFFSET");
      /* test-runtime's offset-opt-in builds it without: rt_linear2d stays out. */
      compile_ok ("test-runtime.cl", NULL);
    }
  ks_kernel_source_set_dir (NULL);
  g_remove (header);
  g_remove (prelude_path);
  g_remove (own);
  if (test_cl)
    g_remove (test_cl);
  g_rmdir (dir);
}

static void
test_nvrtc_build_log (void)
{
  const char *broken = "__kernel void k (__global float *a) { a[0] = undefined_name; }";
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) cubin = NULL;
  g_autofree char *log = NULL;

  cubin = ks_cuda_compile ("broken.cl", broken, strlen (broken), NULL, 9, 0, &log, &error);
  g_assert_null (cubin);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED);
  g_assert_nonnull (strstr (error->message, "undefined_name"));
  g_assert_nonnull (strstr (log, "undefined_name"));
  /* The file's own name, no longer "kernel.cl" for every file. */
  g_assert_nonnull (strstr (log, "broken.cl(1)"));
}

/* A machine with the driver but no toolkit: the binary starts (NVRTC is not
 * NEEDED), the device list works, and a build says what to install.  The
 * loader tries once per process, hence the subprocess. */
static void
test_nvrtc_missing (void)
{
  if (g_test_subprocess ())
    {
      const char *src = "__kernel void k (__global float *a) { a[0] = 1.0f; }";
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) cubin = NULL;
      g_autoptr(KsDeviceList) list = NULL;

      g_setenv ("KERNELSCOPE_NVRTC", "libnvrtc-not-there.so", TRUE);
      list = ks_device_list_new ();
      g_assert_nonnull (ks_device_list_get_notes (list)[0]);
      cubin = ks_cuda_compile ("k.cl", src, strlen (src), NULL, 9, 0, NULL, &error);
      g_assert_null (cubin);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
      g_assert_nonnull (strstr (error->message, "NVRTC (libnvrtc.so) not found: install the CUDA toolkit's NVRTC"));
      if (ks_device_list_find_backend (list, KS_BACKEND_CUDA))
        {
          g_autoptr(KsGaussSolver) solver = NULL;

          g_clear_error (&error);
          solver = ks_gauss_solver_new (ks_device_list_find_backend (list, KS_BACKEND_CUDA),
                                        KS_PRECISION_FLOAT, &error);
          g_assert_null (solver);
          g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
        }
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_device_properties (void)
{
  KsDevice *device;
  const KsDeviceInfo *info;

  if (skip_without_gpu ())
    return;
  device = cuda_device ();
  info = ks_device_get_info (device);
  g_assert_cmpint (info->cc_major, >=, 5);
  g_assert_cmpuint (info->compute_units, >, 0);
  g_assert_cmpuint (info->warp_size, ==, 32);
  g_assert_cmpuint (info->max_work_group_size, >=, 256);
  g_assert_cmpuint (info->memory_bus_bits, >, 0);
  g_assert_cmpuint (ks_device_get_cores_per_cu (device), >, 0);
  g_assert_true (g_str_has_prefix (ks_device_get_id (device), "cuda:"));
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

static void
test_policies (gconstpointer data)
{
  const Combo *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  const guint sizes[] = { 2, 3, 16, 33, 100, 1030 };
  const double tol = c->precision == KS_PRECISION_DOUBLE ? 1e-10 : 1e-4;

  if (skip_without_gpu ())
    return;
  solver = ks_gauss_solver_new (cuda_device (), c->precision, &error);
  g_assert_no_error (error);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (sizes[s], 42 + sizes[s], NULL);
      g_autofree double *x = g_new0 (double, sizes[s]);
      g_autofree double *xref = g_new0 (double, sizes[s]);
      KsGaussParams params = { c->range, c->local, c->wg };
      KsGaussResult r, rref;

      g_assert_true (ks_gauss_host_solve (sys, KS_PRECISION_DOUBLE, NULL, xref, &rref, &error));
      g_assert_no_error (error);
      g_assert_true (ks_gauss_solver_solve (solver, sys, &params, NULL, x, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (max_rel_diff (x, xref, sizes[s]), <, tol);
      g_assert_cmpuint (r.launches, >, 0);
      g_assert_cmpfloat (r.kernels_total_ms, >, 0.0);
      if (c->local == KS_LOCAL_DRIVER)
        {
          /* CUDA's DRIVER is the occupancy API's block, capped at the row
           * rounded up to a warp; never the paper's single-item groups. */
          guint row = sizes[s] + 1;  /* step 0's row, under both ranges */
          guint capped = MIN ((guint) ks_gauss_solver_get_max_work_group_size (solver), (row + 31) / 32 * 32);
          g_assert_cmpuint (r.fwd_local[0], >=, 32);
          g_assert_cmpuint (r.fwd_local[0], <=, capped);
          g_assert_cmpuint (r.fwd_local[1], ==, 1);
        }
    }
}

/* The update kernel's rows go along the grid's y, which CUDA caps at 65535
 * blocks: a larger n is refused up front, before any matrix is built. */
static void
test_grid_limit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  KsGaussParams params = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 };

  if (skip_without_gpu ())
    return;
  solver = ks_gauss_solver_new (cuda_device (), KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  g_assert_false (ks_gauss_solver_check (solver, KS_GAUSS_CUDA_MAX_N + 1, &params, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "65535"));
  g_clear_error (&error);
  /* 65535 rows of floats are 17 GB: the limit, not the memory, is tested
   * where the device has it. */
  if (ks_device_get_info (cuda_device ())->global_mem > 20ull << 30)
    {
      g_assert_true (ks_gauss_solver_check (solver, KS_GAUSS_CUDA_MAX_N, &params, &error));
      g_assert_no_error (error);
    }
}

static void
test_graph_replay (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRuntime) rt = NULL;
  g_autoptr(KsProgram) program = NULL;
  g_autoptr(KsKernel) kernel = NULL;
  g_autoptr(KsBuffer) buffer = NULL;
  g_autoptr(KsGraph) graph = NULL;
  float out[64];
  gsize global = 64;

  if (skip_without_gpu ())
    return;
  rt = ks_runtime_new (cuda_device (), &error);
  g_assert_no_error (error);
  program = ks_runtime_build_program (rt, "probe.cl", NULL, &error);
  g_assert_no_error (error);
  kernel = ks_program_create_kernel (program, "ks_probe", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ks_kernel_get_suggested_local_size (kernel), >=, 32);
  buffer = ks_runtime_alloc (rt, sizeof out, &error);
  g_assert_no_error (error);
  g_assert_true (ks_kernel_set_arg_buffer (kernel, 0, buffer, &error));

  g_assert_true (ks_runtime_capture_begin (rt, &error));
  g_assert_no_error (error);
  g_assert_true (ks_runtime_launch (rt, kernel, 1, &global, NULL, &error));
  graph = ks_runtime_capture_end (rt, &error);
  g_assert_no_error (error);
  g_assert_nonnull (graph);

  memset (out, 0, sizeof out);
  g_assert_true (ks_runtime_write (rt, buffer, 0, sizeof out, out, &error));
  g_assert_true (ks_graph_launch (graph, &error));
  g_assert_true (ks_runtime_finish (rt, &error));
  g_assert_true (ks_runtime_read (rt, buffer, 0, sizeof out, out, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 64; i++)
    g_assert_cmpfloat (out[i], ==, 2.0f * i);
}

/* --- graph mode inside the solver ------------------------------------------ */

/* Graph replays give the host's answer under each policy, with the same
 * launches as the stream; the first solve of a size records the graph. */
static void
test_graph_policies (gconstpointer data)
{
  const Combo *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  const guint sizes[] = { 2, 33, 100, 1030 };
  const double tol = c->precision == KS_PRECISION_DOUBLE ? 1e-10 : 1e-4;

  if (skip_without_gpu ())
    return;
  solver = ks_gauss_solver_new (cuda_device (), c->precision, &error);
  g_assert_no_error (error);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(KsLinearSystem) sys = ks_linear_system_new_random (sizes[s], 42 + sizes[s], NULL);
      g_autofree double *x = g_new0 (double, sizes[s]);
      g_autofree double *xref = g_new0 (double, sizes[s]);
      KsGaussParams stream = { c->range, c->local, c->wg, KS_LAUNCH_STREAM };
      KsGaussParams graph = { c->range, c->local, c->wg, KS_LAUNCH_GRAPH };
      KsGaussResult r, rs, rref;

      g_assert_true (ks_gauss_host_solve (sys, KS_PRECISION_DOUBLE, NULL, xref, &rref, &error));
      g_assert_true (ks_gauss_solver_solve (solver, sys, &stream, NULL, NULL, &rs, &error));
      g_assert_no_error (error);
      g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x, &r, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (max_rel_diff (x, xref, sizes[s]), <, tol);
      g_assert_cmpint (r.launch, ==, KS_LAUNCH_GRAPH);
      g_assert_false (r.graph_replay);
      g_assert_cmpfloat (r.capture_ms, >, 0.0);
      g_assert_cmpuint (r.launches, ==, rs.launches);
      g_assert_cmpfloat (r.kernels_total_ms, >, 0.0);
      for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
        g_assert_cmpfloat (r.kernel_ms[k], ==, 0.0);
      /* The info buffer is read after the replay: the group is reported. */
      g_assert_cmpuint (r.fwd_local[0], ==, rs.fwd_local[0]);
      g_assert_cmpuint (r.fwd_groups[1], ==, rs.fwd_groups[1]);
    }
}

/* Repeated solves of one system replay the recorded graph and give the very
 * same answer; another n, or another pivot threshold, records anew. */
static void
test_graph_reuse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = NULL;
  g_autoptr(KsLinearSystem) small = NULL;
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  g_autofree double *x0 = NULL;
  g_autofree double *x = NULL;
  KsGaussParams graph = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_GRAPH };
  KsGaussResult first, r;
  const guint n = 500;

  if (skip_without_gpu ())
    return;
  solver = ks_gauss_solver_new (cuda_device (), KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  sys = ks_linear_system_new_random (n, 5, NULL);
  small = ks_linear_system_new_random (300, 6, NULL);
  x0 = g_new0 (double, n);
  x = g_new0 (double, n);

  g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x0, &first, &error));
  g_assert_no_error (error);
  g_assert_false (first.graph_replay);
  g_assert_cmpfloat (first.capture_ms, >, 0.0);

  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x, &r, &error));
      g_assert_no_error (error);
      g_assert_true (r.graph_replay);
      g_assert_cmpfloat (r.capture_ms, ==, 0.0);
      g_assert_cmpuint (r.launches, ==, first.launches);
      /* The kernels are deterministic: the very same x.  The residual is an
       * OpenMP reduction on the host, whose summation order may vary in the
       * last bits, so it is compared with a tolerance. */
      g_assert_cmpmem (x, n * sizeof (double), x0, n * sizeof (double));
      g_assert_cmpfloat_with_epsilon (r.residual, first.residual, 1e-9 * first.residual);
    }

  /* Another n: recorded again, right answer; back to n: recorded again. */
  g_assert_true (ks_gauss_solver_solve (solver, small, &graph, NULL, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_false (r.graph_replay);
  g_assert_cmpfloat (r.capture_ms, >, 0.0);
  g_assert_cmpfloat (r.residual, <, 1e-4);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x, &r, &error));
  g_assert_no_error (error);
  g_assert_false (r.graph_replay);
  g_assert_cmpmem (x, n * sizeof (double), x0, n * sizeof (double));
  g_assert_cmpfloat_with_epsilon (r.residual, first.residual, 1e-9 * first.residual);

  /* Another policy at the same n records anew too. */
  graph.local = KS_LOCAL_EXPLICIT;
  graph.wg = 64;
  g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_false (r.graph_replay);
  g_assert_cmpfloat (r.residual, <, 1e-4);

  /* A cancelled replay says so. */
  g_cancellable_cancel (cancelled);
  g_assert_false (ks_gauss_solver_solve (solver, sys, &graph, cancelled, NULL, &r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (r.residual, <, 1e-4);

  /* A capture cancelled half-way is dropped (never instantiated), the
   * stream leaves capture mode, and the next solve records a whole graph. */
  g_assert_false (ks_gauss_solver_solve (solver, small, &graph, cancelled, NULL, &r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (ks_gauss_solver_solve (solver, small, &graph, NULL, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_false (r.graph_replay);
  g_assert_cmpfloat (r.residual, <, 1e-4);
}

/* The pivot check reads the info buffer after the replay. */
/* A graph recorded with an event pair around each launch gives each
 * kernel's time from a replay: all four kernels timed, their sum within the
 * replay's own time, the same x as the plain graph; switching it off
 * records the plain graph again, whose kernel times are unknown (0). */
static void
test_graph_kernel_times (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = NULL;
  g_autofree double *x0 = NULL;
  g_autofree double *x = NULL;
  const KsGaussParams graph = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_GRAPH };
  KsGaussResult plain, r;
  const guint n = 400;
  double sum = 0;

  if (skip_without_gpu ())
    return;
  solver = ks_gauss_solver_new (cuda_device (), KS_PRECISION_FLOAT, &error);
  g_assert_no_error (error);
  sys = ks_linear_system_new_random (n, 9, NULL);
  x0 = g_new0 (double, n);
  x = g_new0 (double, n);

  g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x0, &plain, &error));
  g_assert_no_error (error);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    g_assert_cmpfloat (plain.kernel_ms[k], ==, 0.0);

  ks_gauss_solver_set_graph_kernel_timing (solver, TRUE);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x, &r, &error));
      g_assert_no_error (error);
      /* The first records anew (the plain graph has no event nodes). */
      g_assert_cmpint (r.graph_replay, ==, i > 0);
      g_assert_cmpmem (x, n * sizeof (double), x0, n * sizeof (double));
    }
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    {
      g_assert_cmpfloat (r.kernel_ms[k], >, 0.0);
      sum += r.kernel_ms[k];
    }
  g_test_message ("n = %u graph with event nodes: kernels %.3f ms of a %.3f ms replay (fwd %.3f ms)",
                  n, sum, r.kernels_total_ms, r.kernel_ms[KS_GAUSS_FWD]);
  g_assert_cmpfloat (sum, <=, r.kernels_total_ms * 1.001);
  g_assert_cmpuint (r.launches, ==, plain.launches);

  ks_gauss_solver_set_graph_kernel_timing (solver, FALSE);
  g_assert_true (ks_gauss_solver_solve (solver, sys, &graph, NULL, x, &r, &error));
  g_assert_no_error (error);
  g_assert_false (r.graph_replay);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    g_assert_cmpfloat (r.kernel_ms[k], ==, 0.0);
}

static void
test_graph_pivot (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGaussSolver) solver = NULL;
  double dup[9] = { 1, 2, 3,
                    1, 2, 3,
                    0, 1, 5 };
  double good[9] = { 4, 1, 0,
                     1, 4, 1,
                     0, 1, 5 };
  double b[3] = { 1, 1, 1 };
  KsLinearSystem singular = { 3, dup, b };
  KsLinearSystem regular = { 3, good, b };
  KsGaussParams graph = { KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0, KS_LAUNCH_GRAPH };
  KsGaussResult r;

  if (skip_without_gpu ())
    return;
  solver = ks_gauss_solver_new (cuda_device (), KS_PRECISION_DOUBLE, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 2; i++)   /* recorded, then replayed */
    {
      g_assert_false (ks_gauss_solver_solve (solver, &singular, &graph, NULL, NULL, &r, &error));
      g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_SINGULAR);
      g_clear_error (&error);
    }
  g_assert_true (ks_gauss_solver_solve (solver, &regular, &graph, NULL, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (r.residual, <, 1e-12);
}

/* A non-symmetric, diagonally dominant system with x = 1, 2, ..., n: a
 * transposition mistake in the row-/column-major handling would show. */
static void
dense_system (guint   n,
              double *a,
              double *b)
{
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < n; j++)
      a[i * n + j] = i == j ? 4.0 * n : (double) ((i * 7 + j * 3) % 5) - (j > i ? 1.0 : 0.0);
  for (guint i = 0; i < n; i++)
    {
      b[i] = 0.0;
      for (guint j = 0; j < n; j++)
        b[i] += a[i * n + j] * (j + 1.0);
    }
}

/* Solves a known system twice with cuSOLVER: the second solve runs in the
 * buffers the first one kept. */
static void
check_cusolver (gboolean use_double, guint n, double tolerance)
{
  g_autofree double *a = g_new0 (double, n * n);
  g_autofree double *b = g_new0 (double, n);
  g_autofree double *x = g_new0 (double, n);
  g_autoptr(GError) error = NULL;
  double device_ms = 0, wall_ms = 0;

  if (skip_without_gpu ())
    return;
  dense_system (n, a, b);
  for (guint rep = 0; rep < 2; rep++)
    {
      memset (x, 0, n * sizeof (double));
      g_assert_true (ks_cusolver_dense_solve (cuda_device (), use_double, n, a, b, x,
                                          &device_ms, &wall_ms, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < n; i++)
        g_assert_cmpfloat_with_epsilon (x[i], i + 1.0, tolerance * n);
      g_assert_cmpfloat (device_ms, >, 0.0);
      g_assert_cmpfloat (wall_ms, >=, device_ms);
    }
  ks_cusolver_dense_release ();
}

/* cuBLAS (paper 003's gemv baseline) opens with the toolkit, GPU or not. */
static void
test_cublas_opens (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_cublas_available (&error));
  g_assert_no_error (error);
}

static void
test_cusolver (void)
{
  check_cusolver (TRUE, 64, 1e-9);
}

static void
test_cusolver_float (void)
{
  check_cusolver (FALSE, 100, 1e-4);
}

/* A zero row of A is a zero column of the A^T cuSOLVER factors: getrf meets
 * an exactly zero U(3,3).  getrs then runs on the broken factors and says
 * nothing; its status must not hide getrf's. */
static void
test_cusolver_singular (void)
{
  const guint n = 16;
  g_autofree double *a = g_new0 (double, n * n);
  g_autofree double *b = g_new0 (double, n);
  g_autofree double *x = g_new0 (double, n);
  double device_ms = 0, wall_ms = 0;

  if (skip_without_gpu ())
    return;
  dense_system (n, a, b);
  for (guint j = 0; j < n; j++)
    a[2 * n + j] = 0.0;
  for (guint p = 0; p < 2; p++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (ks_cusolver_dense_solve (cuda_device (), p == 1, n, a, b, x, &device_ms, &wall_ms, &error));
      g_assert_error (error, KS_GAUSS_ERROR, KS_GAUSS_ERROR_SINGULAR);
      g_assert_nonnull (strstr (error->message, "U(3,3)"));
    }
  /* The kept buffers are still good for a regular system. */
  dense_system (n, a, b);
  g_assert_true (ks_cusolver_dense_solve (cuda_device (), TRUE, n, a, b, x, &device_ms, &wall_ms, NULL));
  g_assert_cmpfloat_with_epsilon (x[n - 1], (double) n, 1e-9 * n);
  ks_cusolver_dense_release ();
}

int
main (int    argc,
      char **argv)
{
  const KsPrecision precisions[] = { KS_PRECISION_FLOAT, KS_PRECISION_DOUBLE };
  const KsRangePolicy ranges[] = { KS_RANGE_FIXED, KS_RANGE_SHRINKING };
  const struct { KsLocalPolicy local; guint wg; } locals[] = {
    { KS_LOCAL_DRIVER, 0 }, { KS_LOCAL_EXPLICIT, 1 }, { KS_LOCAL_EXPLICIT, 128 },
    { KS_LOCAL_SPLIT, 96 }, { KS_LOCAL_SPLIT, 512 },
  };
  /* Static, not g_new'd with a free function: a g_test_trap_subprocess
   * child exits without freeing the test data, and LeakSanitizer (the
   * sanitizer run) reported each Combo as a leak. */
  static Combo combos[G_N_ELEMENTS (precisions) * G_N_ELEMENTS (ranges) * G_N_ELEMENTS (locals)];
  guint n_combos = 0;
  int status;

  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();

  g_test_add_func ("/cuda/note", test_note);
  g_test_add_func ("/cuda/nvrtc-kernels", test_nvrtc_kernels);
  g_test_add_func ("/cuda/nvrtc-every-kernel", test_nvrtc_every_kernel);
  g_test_add_func ("/cuda/nvrtc-cub", test_nvrtc_cub);
  g_test_add_func ("/cuda/nvrtc-shared-header", test_nvrtc_shared_header);
  g_test_add_func ("/cuda/nvrtc-build-log", test_nvrtc_build_log);
  g_test_add_func ("/cuda/nvrtc-missing", test_nvrtc_missing);
  g_test_add_func ("/cuda/device-properties", test_device_properties);
  for (guint p = 0; p < G_N_ELEMENTS (precisions); p++)
    for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
      for (guint l = 0; l < G_N_ELEMENTS (locals); l++)
        {
          Combo *c = &combos[n_combos++];
          g_autofree char *path = NULL;

          *c = (Combo) { precisions[p], ranges[r], locals[l].local, locals[l].wg };
          path = g_strdup_printf ("/cuda/gauss/%s/%s/%s-%u", ks_precision_to_string (c->precision),
                                  ks_range_policy_to_string (c->range),
                                  ks_local_policy_to_string (c->local), c->wg);
          g_test_add_data_func (path, c, test_policies);
        }
  g_test_add_func ("/cuda/grid-limit", test_grid_limit);
  g_test_add_func ("/cuda/graph-replay", test_graph_replay);
  {
    static const Combo graph_combos[] = {
      { KS_PRECISION_FLOAT, KS_RANGE_FIXED, KS_LOCAL_DRIVER, 0 },
      { KS_PRECISION_FLOAT, KS_RANGE_SHRINKING, KS_LOCAL_SPLIT, 96 },
      { KS_PRECISION_DOUBLE, KS_RANGE_FIXED, KS_LOCAL_EXPLICIT, 128 },
      { KS_PRECISION_DOUBLE, KS_RANGE_SHRINKING, KS_LOCAL_DRIVER, 0 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (graph_combos); i++)
      {
        const Combo *c = &graph_combos[i];
        g_autofree char *path = g_strdup_printf ("/cuda/graph/%s/%s/%s-%u", ks_precision_to_string (c->precision),
                                                 ks_range_policy_to_string (c->range),
                                                 ks_local_policy_to_string (c->local), c->wg);
        g_test_add_data_func (path, c, test_graph_policies);
      }
  }
  g_test_add_func ("/cuda/graph-reuse", test_graph_reuse);
  g_test_add_func ("/cuda/graph-pivot", test_graph_pivot);
  g_test_add_func ("/cuda/graph-kernel-times", test_graph_kernel_times);
  g_test_add_func ("/cuda/cusolver", test_cusolver);
  g_test_add_func ("/cuda/cublas-opens", test_cublas_opens);
  g_test_add_func ("/cuda/cusolver-float", test_cusolver_float);
  g_test_add_func ("/cuda/cusolver-singular", test_cusolver_singular);

  status = g_test_run ();
  g_object_unref (devices);
  return status;
}
