/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-host"

#include "ks-host.h"

#include <omp.h>
#include <string.h>
#include <unistd.h>

static char *
cpu_model_name (void)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/cpuinfo", &contents, NULL, NULL))
    return g_strdup ("Host CPU");

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "model name"))
      {
        const char *colon = strchr (lines[i], ':');
        if (colon)
          return g_strstrip (g_strdup (colon + 1));
      }
  return g_strdup ("Host CPU");
}

KsDevice *
ks_host_device_new (void)
{
  KsDeviceInfo info = { 0 };
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  info.backend = KS_BACKEND_HOST;
  info.type = KS_DEVICE_TYPE_CPU;
  info.id = g_strdup ("host");
  info.name = cpu_model_name ();
  info.vendor = g_strdup ("host");
  info.platform_name = g_strdup ("Host (C + OpenMP)");
  info.driver_version = g_strdup_printf ("OpenMP %d", _OPENMP);
  info.version = g_strdup ("plain C");
  info.compute_units = (guint) omp_get_num_procs ();
  info.global_mem = pages > 0 && page_size > 0 ? (guint64) pages * (guint64) page_size : 0;
  info.max_alloc = info.global_mem;
  info.has_fp64 = TRUE;
  info.cc_major = info.cc_minor = -1;
  /* The host's times come from g_get_monotonic_time (). */
  info.timer_resolution_ns = 1000;
  info.mem_base_addr_align = 1;
  info.table_cores_per_cu = 1;
  info.table_cores_source = "CPU: one core per thread";

  return ks_device_new (&info, NULL, NULL);
}

/* The kB figure of one "Name:   1234 kB" line of /proc/meminfo; 0 if absent. */
static guint64
meminfo_bytes (const char *name)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  const gsize len = strlen (name);

  if (!g_file_get_contents ("/proc/meminfo", &contents, NULL, NULL))
    return 0;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strncmp (lines[i], name, len) == 0 && lines[i][len] == ':')
      return g_ascii_strtoull (lines[i] + len + 1, NULL, 10) * 1024;
  return 0;
}

guint64
ks_host_memory_available (const char **out_source)
{
  const char *hook = g_getenv ("KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE");
  const char *source = NULL;
  guint64 bytes = 0;
  long pages, page_size;

  if (hook && *hook)
    {
      bytes = g_ascii_strtoull (hook, NULL, 10);
      source = "KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE";
    }
  else if ((bytes = meminfo_bytes ("MemAvailable")) > 0)
    source = "MemAvailable in /proc/meminfo";
  else if ((pages = sysconf (_SC_AVPHYS_PAGES)) > 0 && (page_size = sysconf (_SC_PAGESIZE)) > 0)
    {
      bytes = (guint64) pages * (guint64) page_size;
      source = "free pages, sysconf (_SC_AVPHYS_PAGES)";
    }
  if (out_source)
    *out_source = source;
  return bytes;
}
