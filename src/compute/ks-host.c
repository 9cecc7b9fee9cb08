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
