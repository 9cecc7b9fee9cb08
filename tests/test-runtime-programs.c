/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The runtime seam's programs and kernels (see test-runtime.c): what the
 * backend says about a kernel and its device on every kernel-running
 * device, kernel sources expanded with #line marks, and a build error in a
 * shared header named by its file and line on every device. */
#include "ks-kernel-source.h"
#include "ks-test-runtime-util.h"

#include <glib/gstdio.h>
#include <string.h>

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

/* --- kernel sources and build logs ------------------------------------------------- */

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

/* Beside the per-device cases: kernel sources without a device, and a
 * build error compiled on every device (none without one). */
static void
add_more (guint kernel_devices)
{
  g_test_add_func ("/runtime/kernel-source", test_kernel_source);
  if (kernel_devices > 0)
    g_test_add_func ("/runtime/include-line-numbers", test_include_line_numbers);
}

int
main (int    argc,
      char **argv)
{
  static const KsTestRuntimeCase tests[] = {
    { "queries", test_queries },
  };

  return ks_test_runtime_main (&argc, &argv, tests, G_N_ELEMENTS (tests), add_more);
}
