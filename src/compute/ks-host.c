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

gboolean
ks_host_cpu_ticks (guint64 *total,
                   guint64 *steal)
{
  g_autofree char *text = NULL;
  char *p;
  guint64 v[8];

  g_return_val_if_fail (total != NULL && steal != NULL, FALSE);

  if (!g_file_get_contents ("/proc/stat", &text, NULL, NULL) || !g_str_has_prefix (text, "cpu "))
    return FALSE;
  /* user nice system idle iowait irq softirq steal (guest time is
   * counted inside user and nice already). */
  p = text + strlen ("cpu ");
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      char *end;

      v[i] = g_ascii_strtoull (p, &end, 10);
      if (end == p)
        return FALSE;
      p = end;
    }
  *total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
  *steal = v[7];
  return TRUE;
}

/* One number from a cgroup file; G_MAXUINT64 for "max" or a limit so
 * large it means none (cgroup v1 writes 2^63 rounded down to a page). */
static guint64
cgroup_number (const char *dir,
               const char *file,
               gboolean   *found)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *text = NULL;
  guint64 v;

  *found = g_file_get_contents (path, &text, NULL, NULL);
  if (!*found)
    return 0;
  g_strstrip (text);
  if (strcmp (text, "max") == 0)
    return G_MAXUINT64;
  v = g_ascii_strtoull (text, NULL, 10);
  return v >= (G_GUINT64_CONSTANT (1) << 62) ? G_MAXUINT64 : v;
}

/* The page cache a cgroup can give back: its inactive file pages. */
static guint64
cgroup_inactive_file (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "memory.stat", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "inactive_file ") || g_str_has_prefix (lines[i], "total_inactive_file "))
      return g_ascii_strtoull (strchr (lines[i], ' ') + 1, NULL, 10);
  return 0;
}

/* What the memory cgroups this process lives in still allow: the least
 * headroom (limit - usage + reclaimable cache) of its cgroup and every
 * ancestor, cgroup v2 (memory.max, memory.current) or v1
 * (memory.limit_in_bytes, memory.usage_in_bytes).  A container or a
 * systemd slice limits a process well below the machine's MemAvailable,
 * and the kernel's OOM killer then ends a run that a check could have
 * refused.  G_MAXUINT64 when nothing limits it.  root is /sys/fs/cgroup
 * (the test hook KERNELSCOPE_TEST_CGROUP_ROOT replaces it). */
static guint64
cgroup_headroom (const char *root,
                 char      **out_dir)
{
  g_autofree char *self = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 best = G_MAXUINT64;

  if (!g_file_get_contents ("/proc/self/cgroup", &self, NULL, NULL))
    self = g_strdup ("0::/\n");
  lines = g_strsplit (self, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      /* "0::/path" (v2) or "4:memory:/path" (v1). */
      g_auto(GStrv) f = g_strsplit (lines[i], ":", 3);
      gboolean v2, v1;
      g_autofree char *base = NULL;
      g_autofree char *rel = NULL;

      if (g_strv_length (f) != 3)
        continue;
      v2 = strcmp (f[0], "0") == 0 && f[1][0] == '\0';
      v1 = strstr (f[1], "memory") != NULL;
      if (!v2 && !v1)
        continue;
      base = v2 ? g_strdup (root) : g_build_filename (root, "memory", NULL);
      rel = g_strdup (f[2]);
      /* From the process's own cgroup up to the root of the hierarchy; in
       * a container with its own cgroup namespace the path may not exist
       * below the mount, and the mount's top is the container's own. */
      for (;;)
        {
          g_autofree char *dir = g_build_filename (base, rel, NULL);
          gboolean has_limit, has_usage;
          guint64 limit = cgroup_number (dir, v2 ? "memory.max" : "memory.limit_in_bytes", &has_limit);
          guint64 usage = cgroup_number (dir, v2 ? "memory.current" : "memory.usage_in_bytes", &has_usage);

          if (has_limit && has_usage && limit != G_MAXUINT64)
            {
              guint64 cache = cgroup_inactive_file (dir);
              guint64 used = usage > cache ? usage - cache : 0;
              guint64 room = limit > used ? limit - used : 0;

              if (room < best)
                {
                  best = room;
                  if (out_dir)
                    {
                      g_free (*out_dir);
                      *out_dir = g_steal_pointer (&dir);
                    }
                }
            }
          if (strcmp (rel, "/") == 0 || rel[0] == '\0')
            break;
          {
            char *slash = strrchr (rel, '/');
            if (slash == rel)
              slash[1] = '\0';
            else if (slash)
              *slash = '\0';
            else
              break;
          }
        }
    }
  return best;
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
  if (hook == NULL || *hook == '\0')
    {
      const char *root = g_getenv ("KERNELSCOPE_TEST_CGROUP_ROOT");
      g_autofree char *dir = NULL;
      guint64 room = cgroup_headroom (root && *root ? root : "/sys/fs/cgroup", &dir);

      if (room != G_MAXUINT64 && (bytes == 0 || room < bytes))
        {
          static GMutex lock;
          static GHashTable *sources;

          /* The source outlives the call (messages keep it): one string
           * per cgroup folder, kept for the life of the process. */
          g_mutex_lock (&lock);
          if (sources == NULL)
            sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          if (!(source = g_hash_table_lookup (sources, dir)))
            {
              source = g_strdup_printf ("the memory limit of the cgroup %s", dir);
              g_hash_table_insert (sources, g_strdup (dir), (char *) source);
            }
          g_mutex_unlock (&lock);
          bytes = room;
        }
    }
  if (out_source)
    *out_source = source;
  return bytes;
}
