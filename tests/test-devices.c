/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device list across backends, lookup, defaults, kernel sources. */
#include "ks-bench-probes.h"
#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-host.h"
#include "ks-kernel-source.h"
#include "ks-pocl-cache.h"
#include "ks-runtime.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

static KsDevice *
first_opencl (KsDeviceList *list)
{
  return ks_device_list_find_backend (list, KS_BACKEND_OPENCL);
}

static void
test_list (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  guint n = ks_device_list_get_n_devices (list);
  KsDevice *host;
  KsDevice *cl;

  g_assert_cmpuint (n, >=, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, n);
  host = ks_device_list_get_device (list, n - 1);
  g_assert_cmpint (ks_device_get_backend (host), ==, KS_BACKEND_HOST);
  g_assert_cmpstr (ks_device_get_id (host), ==, "host");
  g_assert_cmpuint (ks_device_get_info (host)->compute_units, >=, 1);
  g_assert_true (ks_device_get_info (host)->has_fp64);
  /* The host's clock is g_get_monotonic_time (); it has no vector widths
   * to report (0: not known) and no views to align. */
  g_assert_cmpuint (ks_device_get_info (host)->timer_resolution_ns, ==, 1000);
  g_assert_cmpuint (ks_device_get_info (host)->mem_base_addr_align, ==, 1);
  g_assert_cmpuint (ks_device_get_info (host)->vector_width_preferred[KS_VECTOR_FLOAT], ==, 0);
  g_assert_nonnull (ks_device_list_get_notes (list)[0]);

  cl = first_opencl (list);
  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device (install pocl-opencl-icd)");
      return;
    }
  {
    const KsDeviceInfo *info = ks_device_get_info (cl);
    g_assert_true (g_str_has_prefix (info->id, "opencl:"));
    g_assert_cmpuint (info->compute_units, >=, 1);
    g_assert_cmpuint (info->max_work_group_size, >=, 1);
    g_assert_cmpuint (info->global_mem, >, 0);
    g_assert_cmpuint (info->max_alloc, >, 0);
    /* Read from a built kernel at enumeration. */
    g_assert_cmpuint (info->preferred_multiple, >=, 1);
    g_assert_nonnull (info->name);
    /* What the papers ask of a device: vector widths per type (float is
     * at least scalar; a double width only with fp64), the profiling
     * clock's tick, and where views may start (a power of two). */
    g_assert_cmpuint (info->vector_width_preferred[KS_VECTOR_FLOAT], >=, 1);
    g_assert_cmpuint (info->vector_width_native[KS_VECTOR_INT], >=, 1);
    g_assert_true (info->vector_width_native[KS_VECTOR_DOUBLE] == 0 || info->has_fp64);
    g_assert_cmpuint (info->timer_resolution_ns, >=, 1);
    g_assert_cmpuint (info->mem_base_addr_align, >=, 1);
    g_assert_cmpuint (info->mem_base_addr_align & (info->mem_base_addr_align - 1), ==, 0);
  }
}

static void
test_lookup (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  g_autoptr(GError) error = NULL;
  guint n = ks_device_list_get_n_devices (list);
  KsDevice *d;
  g_autofree char *last = g_strdup_printf ("%u", n - 1);
  g_autofree char *out_of_range = g_strdup_printf ("%u", n);

  d = ks_device_list_lookup (list, "host", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ks_device_get_id (d), ==, "host");

  d = ks_device_list_lookup (list, last, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ks_device_get_id (d), ==, "host");

  d = ks_device_list_lookup (list, "no such device anywhere", &error);
  g_assert_null (d);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE);
  /* The message lists what there is, so the user can pick. */
  g_assert_nonnull (strstr (error->message, "host"));
  g_clear_error (&error);

  d = ks_device_list_lookup (list, out_of_range, &error);
  g_assert_null (d);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE);
  g_clear_error (&error);

  if (first_opencl (list))
    {
      KsDevice *cl = first_opencl (list);
      d = ks_device_list_lookup (list, ks_device_get_id (cl), &error);
      g_assert_no_error (error);
      g_assert_true (d == cl);
    }
}

static void
test_default (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  const char *reason = NULL;
  KsDevice *d = ks_device_list_get_default (list, &reason);

  g_assert_nonnull (d);
  g_assert_nonnull (reason);
  if (ks_device_get_info (d)->type != KS_DEVICE_TYPE_GPU && first_opencl (list))
    g_assert_true (d == first_opencl (list));
}

static void
on_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

static void
test_cores_override (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  KsDevice *host = ks_device_list_lookup (list, "host", NULL);
  guint table = ks_device_get_cores_per_cu (host);
  guint notified = 0;

  g_signal_connect (host, "notify::cores-per-cu", G_CALLBACK (on_notify), &notified);
  ks_device_set_cores_per_cu (host, 48);
  g_assert_cmpuint (ks_device_get_cores_per_cu (host), ==, 48);
  g_assert_cmpstr (ks_device_get_cores_source (host), ==, "set by the user");
  g_assert_cmpuint (notified, ==, 1);
  ks_device_set_cores_per_cu (host, 48);
  g_assert_cmpuint (notified, ==, 1);
  ks_device_set_cores_per_cu (host, 0);
  g_assert_cmpuint (ks_device_get_cores_per_cu (host), ==, table);
  g_assert_cmpuint (notified, ==, 2);
}

static void
test_kernel_sources (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) gauss = NULL;
  g_autoptr(GBytes) missing = NULL;
  g_autoptr(GBytes) edited = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-kernels-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "gauss.cl", NULL);
  gsize len = 0;
  const char *text;

  ks_kernel_source_set_dir (NULL);
  g_unsetenv ("KERNELSCOPE_KERNEL_DIR");

  gauss = ks_kernel_source_load ("gauss.cl", &error);
  g_assert_no_error (error);
  text = g_bytes_get_data (gauss, &len);
  g_assert_nonnull (g_strstr_len (text, len, "gauss_fwd_pre"));
  g_assert_nonnull (g_strstr_len (text, len, "gauss_bwd_prepare"));

  missing = ks_kernel_source_load ("nope.cl", &error);
  g_assert_null (missing);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_KERNEL_SOURCE);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (path, "// edited\n", -1, NULL));
  ks_kernel_source_set_dir (dir);
  edited = ks_kernel_source_load ("gauss.cl", &error);
  g_assert_no_error (error);
  g_assert_cmpmem (g_bytes_get_data (edited, NULL), g_bytes_get_size (edited), "// edited\n", 10);
  ks_kernel_source_set_dir (NULL);

  g_unlink (path);
  g_rmdir (dir);
}

/* A kernel the compiler refuses: the error carries the build log. */
static void
test_build_failure (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRuntime) rt = NULL;
  g_autoptr(KsProgram) program = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-kernels-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "probe.cl", NULL);
  KsDevice *cl = first_opencl (list);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }

  g_assert_true (g_file_set_contents (path, "__kernel void ks_probe (__global float *o) { o[0] = undeclared_thing; }\n", -1, NULL));
  ks_kernel_source_set_dir (dir);
  rt = ks_runtime_new (cl, &error);
  g_assert_no_error (error);
  program = ks_runtime_build_program (rt, "probe.cl", NULL, &error);
  ks_kernel_source_set_dir (NULL);
  g_assert_null (program);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED);
  g_assert_nonnull (strstr (error->message, "Build log"));
  g_assert_nonnull (strstr (error->message, "undeclared_thing"));

  g_unlink (path);
  g_rmdir (dir);
}

static void
test_runtime_limits (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRuntime) rt = NULL;
  g_autoptr(KsBuffer) buffer = NULL;
  KsDevice *cl = first_opencl (list);
  KsDevice *host = ks_device_list_lookup (list, "host", NULL);

  /* The host backend runs no kernels, and says so. */
  rt = ks_runtime_new (host, &error);
  g_assert_null (rt);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
  g_clear_error (&error);

  if (cl == NULL)
    {
      g_test_skip ("no OpenCL device");
      return;
    }
  rt = ks_runtime_new (cl, &error);
  g_assert_no_error (error);
  buffer = ks_runtime_alloc (rt, ks_device_get_info (cl)->max_alloc + 1, &error);
  g_assert_null (buffer);
  g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  g_assert_nonnull (strstr (error->message, "MiB"));
}

/* The names users type: the platform's other names (PoCL 3's platform is
 * "Portable Computing Language", and "-d pocl", the README's own example,
 * failed), kinds, and an empty name, which said "more than one device". */
static void
test_lookup_names (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();
  g_autoptr(GError) error = NULL;
  KsDevice *cl = first_opencl (list);
  KsDevice *d;
  guint n_opencl = 0, n_cpu = 0, n_pocl = 0;

  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      const KsDeviceInfo *info = ks_device_get_info (ks_device_list_get_device (list, i));
      n_opencl += info->backend == KS_BACKEND_OPENCL;
      n_cpu += info->type == KS_DEVICE_TYPE_CPU;
      n_pocl += ks_pocl_is_platform (info->platform_name, info->platform_aliases);
    }

  for (guint i = 0; i < 2; i++)
    {
      d = ks_device_list_lookup (list, i == 0 ? "" : "  ", &error);
      g_assert_null (d);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE);
      g_assert_nonnull (strstr (error->message, "The device name is empty"));
      g_assert_null (strstr (error->message, "more than one"));
      g_clear_error (&error);
    }

  d = ks_device_list_lookup (list, "HOST", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ks_device_get_id (d), ==, "host");

  if (n_opencl == 1)
    {
      /* A kind one device is of: before a part of a name. */
      d = ks_device_list_lookup (list, "OpenCL", &error);
      g_assert_no_error (error);
      g_assert_true (d == cl);
    }
  if (n_cpu > 1)
    {
      d = ks_device_list_lookup (list, "cpu", &error);
      g_assert_null (d);
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE);
      g_assert_nonnull (strstr (error->message, "matches"));
      g_assert_nonnull (strstr (error->message, "host"));
      g_clear_error (&error);
    }
  if (n_pocl == 1)
    {
      const char *names[] = { "pocl", "PoCL", "portable computing" };

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          d = ks_device_list_lookup (list, names[i], &error);
          g_assert_no_error (error);
          g_assert_true (ks_pocl_is_platform (ks_device_get_info (d)->platform_name,
                                              ks_device_get_info (d)->platform_aliases));
        }
    }
  else
    g_test_message ("no single PoCL device here: \"-d pocl\" not tried");
  g_assert_nonnull (strstr (ks_device_list_lookup_rule (), "pocl"));
}

static gboolean
have_pocl (void)
{
  g_autoptr(KsDeviceList) list = ks_device_list_new ();

  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      const KsDeviceInfo *info = ks_device_get_info (ks_device_list_get_device (list, i));
      if (ks_pocl_is_platform (info->platform_name, info->platform_aliases))
        return TRUE;
    }
  return FALSE;
}

/* Child of test_pocl_cache: the notes of a list made with POCL_CACHE_DIR
 * from KS_TEST_POCL_CACHE_DIR, on stdout. */
static void
pocl_cache_child (void)
{
  g_autoptr(KsDeviceList) list = NULL;

  if (!g_test_subprocess ())
    return;   /* only test_pocl_cache runs it */
  g_setenv ("POCL_CACHE_DIR", g_getenv ("KS_TEST_POCL_CACHE_DIR"), TRUE);
  list = ks_device_list_new ();
  for (const char * const *n = ks_device_list_get_notes (list); *n; n++)
    g_print ("%s\n", *n);
}

/* A cache PoCL cannot create left the list without an OpenCL device and no
 * word why; one it cannot write (here: a file) failed every build with an
 * empty log.  Each now has a note naming the folder and the fix. */
static void
test_pocl_cache (void)
{
  g_autofree char *file = NULL;
  int fd;

  if (!have_pocl ())
    {
      g_test_skip ("PoCL is not installed");
      return;
    }
  fd = g_file_open_tmp ("ks-pocl-cache-XXXXXX", &file, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);

  g_setenv ("KS_TEST_POCL_CACHE_DIR", "/proc/nonexistent/kcache", TRUE);
  g_test_trap_subprocess ("/devices/pocl-cache/child", 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*shows no device*PoCL cannot use its kernel cache /proc/nonexistent/kcache "
                             "(it cannot be created*POCL_CACHE_DIR=*");

  g_setenv ("KS_TEST_POCL_CACHE_DIR", file, TRUE);
  g_test_trap_subprocess ("/devices/pocl-cache/child", 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*could not build the probe kernel*PoCL cannot use its kernel cache*"
                             "(it is not a folder)*POCL_CACHE_DIR=*");
  g_unlink (file);
  g_unsetenv ("KS_TEST_POCL_CACHE_DIR");
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_mkdir_with_parents (dir, 0700) == 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

/* A memory cgroup that leaves less than the machine's MemAvailable is the
 * limit the host-memory checks use, and the message names it. */
static void
test_host_memory_cgroup (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("ks-cgroup-XXXXXX", &error);
  g_autofree char *self = NULL;
  g_autofree char *v1 = NULL;
  const char *source = NULL;
  guint64 free_bytes, bytes;

  g_assert_no_error (error);
  g_unsetenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE");
  /* An empty hierarchy limits nothing (MemAvailable moves as other
   * programs run: only its source is compared). */
  g_setenv ("KERNELSCOPE_TEST_CGROUP_ROOT", root, TRUE);
  free_bytes = ks_host_memory_available (&source);
  g_assert_cmpuint (free_bytes, >, 2000000);
  g_assert_null (strstr (source, "cgroup"));

  /* cgroup v2 at the top of the hierarchy (this process's own cgroup is
   * below it, or is it): limit - (usage - inactive file cache). */
  write_file (root, "memory.max", "1000000\n");
  write_file (root, "memory.current", "500000\n");
  write_file (root, "memory.stat", "anon 300000\nfile 200000\ninactive_file 100000\n");
  bytes = ks_host_memory_available (&source);
  g_assert_cmpuint (bytes, ==, 1000000 - (500000 - 100000));
  g_assert_nonnull (strstr (source, "cgroup"));
  g_assert_nonnull (strstr (source, root));
  write_file (root, "memory.max", "max\n");
  ks_host_memory_available (&source);
  g_assert_null (strstr (source, "cgroup"));

  /* cgroup v1, where this machine has a memory hierarchy. */
  g_assert_true (g_file_get_contents ("/proc/self/cgroup", &self, NULL, NULL));
  if (strstr (self, ":memory:"))
    {
      v1 = g_build_filename (root, "memory", NULL);
      write_file (v1, "memory.limit_in_bytes", "900000\n");
      write_file (v1, "memory.usage_in_bytes", "100000\n");
      g_assert_cmpuint (ks_host_memory_available (&source), ==, 800000);
      write_file (v1, "memory.limit_in_bytes", "9223372036854771712\n");
      ks_host_memory_available (&source);
      g_assert_null (strstr (source, "cgroup"));
    }
  /* Full: nothing is left. */
  write_file (root, "memory.max", "400000\n");
  g_assert_cmpuint (ks_host_memory_available (&source), ==, 0);
  g_unsetenv ("KERNELSCOPE_TEST_CGROUP_ROOT");
  {
    const char *argv[] = { "rm", "-rf", root, NULL };
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                 NULL, NULL, NULL, NULL));
  }
}

/* The bandwidth probe's default arrays exceed four times the cache they
 * are given (a 300 MiB L3 held the old 32 MiB arrays: 43 GB/s of cache
 * read as memory), never go below the floor, stay whole float4s and
 * within the limit; the host's cache, where the OS tells it, is read. */
static void
test_bandwidth_size (void)
{
  const guint64 mib = 1048576;
  const guint64 caches[] = { 0, 32 * mib, 300 * mib, 300 * mib + 3 };

  for (guint i = 0; i < G_N_ELEMENTS (caches); i++)
    {
      gsize e = ks_bench_bandwidth_elements (caches[i], (gsize) 8 << 20, G_MAXSIZE);

      g_assert_cmpuint ((guint64) e * sizeof (float), >, 4 * caches[i]);
      g_assert_cmpuint (e, >=, (gsize) 8 << 20);
      g_assert_cmpuint (e % 4, ==, 0);
    }
  g_assert_cmpuint (ks_bench_bandwidth_elements (300 * mib, (gsize) 8 << 20, (gsize) 100 << 20), ==,
                    (gsize) 100 << 20);
  if (g_file_test ("/sys/devices/system/cpu/cpu0/cache/index0/size", G_FILE_TEST_EXISTS))
    {
      g_assert_cmpuint (ks_bench_host_cache_bytes (), >, 0);
      g_assert_cmpuint (ks_bench_host_shared_cache_bytes (), >, 0);
    }

  /* The balance probe: alone, the same rule; among ranks that probe at
   * once, their arrays together exceed four times the cache, each holding
   * its share of the arrays and of the memory, never below 1 Mi floats. */
  g_assert_cmpuint (ks_bench_balance_elements (32 * mib, (gsize) 32 << 20, 1, G_MAXSIZE), ==,
                    ks_bench_bandwidth_elements (32 * mib, (gsize) 32 << 20, G_MAXSIZE));
  for (guint ranks = 2; ranks <= 16; ranks *= 2)
    {
      gsize e = ks_bench_balance_elements (300 * mib, (gsize) 8 << 20, ranks, G_MAXSIZE);

      g_assert_cmpuint ((guint64) e * ranks * sizeof (float), >, 4 * 300 * mib);
      g_assert_cmpuint (e, <, ks_bench_bandwidth_elements (300 * mib, (gsize) 8 << 20, G_MAXSIZE));
      g_assert_cmpuint (e % 4, ==, 0);
    }
  g_assert_cmpuint (ks_bench_balance_elements (32 * mib, (gsize) 8 << 20, 1000, G_MAXSIZE), ==, (gsize) 1 << 20);
  g_assert_cmpuint (ks_bench_balance_elements (300 * mib, (gsize) 8 << 20, 2, (gsize) 100 << 20), ==,
                    (gsize) 50 << 20);
}

/* bench bandwidth's default on the host exceeds four times every cache
 * figure the OS gives, where the memory allows; the probes beside runs
 * (lambda_b, the heat page, each rank under mpirun, a bench's triad line)
 * do not take that default: 64 ranks on this host probe 1 Mi floats each
 * where bench bandwidth would take at least 32 Mi, and they run. */
static void
test_bandwidth_balance_probes (void)
{
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsDevice) host = ks_host_device_new ();
  KsDevice *ocl;
  KsBandwidth bw;
  g_autoptr(GError) error = NULL;
  gsize full, balance;

  g_setenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE", "1099511627776", TRUE);
  full = ks_bench_default_elements (host, KS_PROBE_SIZE_FULL);
  g_assert_cmpuint ((guint64) full * sizeof (float), >, 4 * ks_bench_host_cache_bytes ());
  g_assert_cmpuint (full, >=, (gsize) 32 << 20);
  g_unsetenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE");

  g_setenv ("OMPI_COMM_WORLD_LOCAL_SIZE", "64", TRUE);
  g_assert_cmpuint (ks_bench_host_ranks (), ==, 64);
  full = ks_bench_default_elements (host, KS_PROBE_SIZE_FULL);
  balance = ks_bench_default_elements (host, KS_PROBE_SIZE_BALANCE);
  g_assert_cmpuint (balance, <, full);
  g_assert_true (ks_bench_host_bandwidth (0, 2, &bw, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bw.elements, ==, balance);
  g_assert_cmpfloat (bw.triad_gbs, >, 0);

  list = ks_device_list_new ();
  ocl = first_opencl (list);
  if (ocl != NULL && ks_device_get_info (ocl)->type == KS_DEVICE_TYPE_CPU)
    {
      full = ks_bench_default_elements (ocl, KS_PROBE_SIZE_FULL);
      balance = ks_bench_default_elements (ocl, KS_PROBE_SIZE_BALANCE);
      g_assert_cmpuint (balance, <, full);
      g_assert_true (ks_bench_bandwidth (ocl, 0, 2, &bw, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bw.elements, ==, balance);
    }
  g_unsetenv ("OMPI_COMM_WORLD_LOCAL_SIZE");
  g_assert_cmpuint (ks_bench_host_ranks (), ==, 1);
}

/* KS_PROBE_BALANCE_MIB (the test suite's, 16) caps the probes beside a
 * run, MiB an array, and leaves bench bandwidth's full probe alone; unset,
 * the balance probe goes beyond the caches again. */
static void
test_bandwidth_balance_cap (void)
{
  g_autoptr(KsDevice) host = ks_host_device_new ();
  g_autofree char *was = g_strdup (g_getenv ("KS_PROBE_BALANCE_MIB"));
  gsize full;

  g_setenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE", "1099511627776", TRUE);
  full = ks_bench_default_elements (host, KS_PROBE_SIZE_FULL);
  g_setenv ("KS_PROBE_BALANCE_MIB", "1", TRUE);
  g_assert_cmpuint (ks_bench_default_elements (host, KS_PROBE_SIZE_BALANCE), ==, (gsize) 1 << 18);
  g_assert_cmpuint (ks_bench_default_elements (host, KS_PROBE_SIZE_FULL), ==, full);
  g_setenv ("KS_PROBE_BALANCE_MIB", "0", TRUE);
  g_assert_cmpuint ((guint64) ks_bench_default_elements (host, KS_PROBE_SIZE_BALANCE) * sizeof (float), >,
                    4 * ks_bench_host_shared_cache_bytes ());
  g_unsetenv ("KS_PROBE_BALANCE_MIB");
  g_assert_cmpuint ((guint64) ks_bench_default_elements (host, KS_PROBE_SIZE_BALANCE) * sizeof (float), >,
                    4 * ks_bench_host_shared_cache_bytes ());
  g_unsetenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE");
  if (was)
    g_setenv ("KS_PROBE_BALANCE_MIB", was, TRUE);
}

/* The host's CPU ticks: where /proc/stat exists, a total that grows with
 * work done and a steal share inside it; elsewhere FALSE, not zeros. */
static void
test_cpu_ticks (void)
{
  guint64 total0 = 0, steal0 = 0, total1 = 0, steal1 = 0;
  volatile double sink = 0;
  gint64 until;

  if (!g_file_test ("/proc/stat", G_FILE_TEST_EXISTS))
    {
      g_assert_false (ks_host_cpu_ticks (&total0, &steal0));
      return;
    }
  g_assert_true (ks_host_cpu_ticks (&total0, &steal0));
  g_assert_cmpuint (steal0, <=, total0);
  /* Busy past a few clock ticks (10 ms each at USER_HZ 100). */
  until = g_get_monotonic_time () + 50000;
  while (g_get_monotonic_time () < until)
    sink += 1.0;
  g_assert_true (ks_host_cpu_ticks (&total1, &steal1));
  g_assert_cmpuint (total1, >, total0);
  g_assert_cmpuint (steal1, >=, steal0);
  g_assert_cmpuint (steal1 - steal0, <=, total1 - total0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/devices/list", test_list);
  g_test_add_func ("/devices/cpu-ticks", test_cpu_ticks);
  g_test_add_func ("/devices/bandwidth-size", test_bandwidth_size);
  g_test_add_func ("/devices/bandwidth-balance-probes", test_bandwidth_balance_probes);
  g_test_add_func ("/devices/bandwidth-balance-cap", test_bandwidth_balance_cap);
  g_test_add_func ("/devices/lookup", test_lookup);
  g_test_add_func ("/devices/lookup-names", test_lookup_names);
  g_test_add_func ("/devices/pocl-cache", test_pocl_cache);
  g_test_add_func ("/devices/pocl-cache/child", pocl_cache_child);
  g_test_add_func ("/devices/default", test_default);
  g_test_add_func ("/devices/cores-override", test_cores_override);
  g_test_add_func ("/devices/kernel-sources", test_kernel_sources);
  g_test_add_func ("/devices/build-failure", test_build_failure);
  g_test_add_func ("/devices/runtime-limits", test_runtime_limits);
  g_test_add_func ("/devices/host-memory-cgroup", test_host_memory_cgroup);
  return g_test_run ();
}
