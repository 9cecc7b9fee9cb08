/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-bench"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* sched_getaffinity */
#endif
#include "ks-bench-probes.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* "32768K", "1M", "512" (bytes) as sysfs writes a cache's size. */
static guint64
parse_cache_size (const char *text)
{
  char *end = NULL;
  guint64 v = g_ascii_strtoull (text, &end, 10);

  if (end == text)
    return 0;
  switch (g_ascii_toupper (*end))
    {
    case 'K': return v << 10;
    case 'M': return v << 20;
    case 'G': return v << 30;
    default:  return v;
    }
}

guint64
ks_bench_host_cache_bytes (void)
{
  guint64 best = 0;

  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *path = g_strdup_printf ("/sys/devices/system/cpu/cpu0/cache/index%u/size", i);
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL))
        best = MAX (best, parse_cache_size (text));
    }
#ifdef _SC_LEVEL3_CACHE_SIZE
  {
    long l3 = sysconf (_SC_LEVEL3_CACHE_SIZE);

    if (l3 > 0)
      best = MAX (best, (guint64) l3);
  }
#endif
  return best;
}

gsize
ks_bench_bandwidth_elements (guint64 cache_bytes,
                             gsize   floor_elements,
                             gsize   limit)
{
  guint64 want = MAX ((guint64) floor_elements, 4 * cache_bytes / sizeof (float) + 1);

  /* Whole float4s, rounded up, so the kernels' rounding down keeps it. */
  want = (want + 3) / 4 * 4;
  return (gsize) MIN (want, (guint64) limit);
}

/* The size of cpu's last-level cache (its highest level in sysfs) and the
 * CPUs that share it, as sysfs writes them ("0-7"); FALSE where unknown. */
static gboolean
cpu_last_level_cache (guint     cpu,
                      guint64  *bytes,
                      char    **shared)
{
  guint best_level = 0;

  *bytes = 0;
  *shared = NULL;
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *dir = g_strdup_printf ("/sys/devices/system/cpu/cpu%u/cache/index%u", cpu, i);
      g_autofree char *level_path = g_build_filename (dir, "level", NULL);
      g_autofree char *size_path = g_build_filename (dir, "size", NULL);
      g_autofree char *list_path = g_build_filename (dir, "shared_cpu_list", NULL);
      g_autofree char *level = NULL, *size = NULL, *list = NULL;
      guint l;

      if (!g_file_get_contents (level_path, &level, NULL, NULL) ||
          !g_file_get_contents (size_path, &size, NULL, NULL))
        continue;
      l = (guint) g_ascii_strtoull (level, NULL, 10);
      if (l < best_level)
        continue;
      best_level = l;
      *bytes = parse_cache_size (size);
      g_free (*shared);
      *shared = g_file_get_contents (list_path, &list, NULL, NULL) ? g_strstrip (g_steal_pointer (&list))
                                                                   : g_strdup_printf ("%u", cpu);
    }
  return *bytes > 0;
}

guint64
ks_bench_host_shared_cache_bytes (void)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint64 sum = 0;
  cpu_set_t allowed;

  /* One last-level cache per group of CPUs that share it (a CCD of an
   * EPYC, a socket of a Xeon): the probe's threads fill only those of the
   * CPUs they may run on, however large the package's total is. */
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0)
    return ks_bench_host_cache_bytes ();
  for (guint cpu = 0; cpu < CPU_SETSIZE; cpu++)
    {
      guint64 bytes;
      char *shared;

      if (!CPU_ISSET (cpu, &allowed) || !cpu_last_level_cache (cpu, &bytes, &shared))
        continue;
      if (g_hash_table_add (seen, shared))
        sum += bytes;
    }
  return sum > 0 ? sum : ks_bench_host_cache_bytes ();
}

guint
ks_bench_host_ranks (void)
{
  /* Open MPI's and MPICH's (Hydra's) count of the ranks on this host. */
  static const char *const names[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      const char *v = g_getenv (names[i]);
      guint64 n = v ? g_ascii_strtoull (v, NULL, 10) : 0;

      if (n > 0)
        return (guint) MIN (n, 65536);
    }
  return 1;
}

gsize
ks_bench_balance_elements (guint64 cache_bytes,
                           gsize   floor_elements,
                           guint   ranks,
                           gsize   limit)
{
  /* The ranks' arrays stream through the same caches at once: together
   * they exceed them four times, each rank holding its share (at least
   * 1 Mi floats, so that a launch still takes long enough to time) of the
   * memory they share too. */
  const guint64 n = MAX (ranks, 1);
  guint64 all = ks_bench_bandwidth_elements (cache_bytes, floor_elements, G_MAXSIZE);
  guint64 each = MAX ((all + n - 1) / n, (guint64) 1 << 20);

  each = (each + 3) / 4 * 4;
  return (gsize) MIN (each, MAX ((guint64) limit / n / 4 * 4, 4));
}

/* The most floats per array the host's probe may take: a quarter of the
 * memory available for the three arrays (at least 1 Mi floats); no bound
 * where that is not known. */
static gsize
host_limit (guint64 available)
{
  return available > 0 ? MAX (available / 4 / (3 * sizeof (float)), (gsize) 1 << 20) : G_MAXSIZE;
}

/* The most floats per array a device's probe may take: three arrays in a
 * quarter of its memory, with room to spare for whatever else runs, and
 * each in one buffer; *reason names the bound that binds. */
static gsize
device_limit (const KsDeviceInfo *info,
              char              **reason)
{
  gsize limit = KS_BENCH_BANDWIDTH_MAX_ELEMENTS;

  *reason = g_strdup (_("the kernels count float4s in an int"));
  if (info->global_mem && info->global_mem / 4 / (3 * sizeof (float)) < limit)
    {
      limit = info->global_mem / 4 / (3 * sizeof (float));
      g_free (*reason);
      *reason = g_strdup_printf (_("the three arrays may take a quarter of its %.1f MiB of memory, "
                                   "leaving the rest to whatever else runs"),
                                 info->global_mem / 1048576.0);
    }
  if (info->max_alloc && info->max_alloc / sizeof (float) < limit)
    {
      limit = info->max_alloc / sizeof (float);
      g_free (*reason);
      *reason = g_strdup_printf (_("its largest buffer is %.1f MiB"), info->max_alloc / 1048576.0);
    }
  return limit;
}

/* The default floats per array within limit.  bench bandwidth alone
 * (KS_PROBE_SIZE_FULL) goes beyond every cache figure any source gives,
 * sysconf's package total included (256 MiB on a 2-core slice of an EPYC
 * whose cores share 32): its arrays cost 3 GiB there, which a bench the
 * user asked for may take.  The probes beside a run (lambda_b, a page's or
 * a bench's triad line, the Devices page) go beyond the last-level caches
 * their threads can fill (one per CCD or socket, from sysfs; PoCL reports
 * the same), split among the ranks on this host, which probe at once:
 * big enough to stream from memory, small enough that no run, page or
 * rank pays gigabytes and seconds for a figure it only stands on. */
static gsize
default_elements (gboolean      host,
                  KsDeviceType  type,
                  guint64       device_cache,
                  KsProbeSize   probe,
                  gsize         limit)
{
  const gboolean cpu = host || type == KS_DEVICE_TYPE_CPU;
  const gsize floor = host ? (gsize) 32 << 20 : type == KS_DEVICE_TYPE_GPU ? (gsize) 64 << 20 : (gsize) 8 << 20;
  const char *env = g_getenv ("KS_PROBE_BALANCE_MIB");
  const guint64 cap_mib = env ? MIN (g_ascii_strtoull (env, NULL, 10), (guint64) 1 << 20) : 0;

  if (probe == KS_PROBE_SIZE_FULL)
    return ks_bench_bandwidth_elements (cpu ? MAX (device_cache, ks_bench_host_cache_bytes ()) : device_cache,
                                        floor, limit);
  /* The test suite's cap on the probes beside a run (MiB an array): on a
   * machine with 300 MiB of last-level cache each of test-cli's hybrid
   * runs spent ~20 of its 21 s streaming 1.2 GiB arrays for lambda_b,
   * a figure those tests check for its arithmetic, not its size. */
  if (cap_mib > 0)
    limit = MIN (limit, (gsize) cap_mib << 18);   /* floats: 2^20 bytes / 4 */
  if (!cpu)
    return ks_bench_balance_elements (device_cache, floor, 1, limit);
  return ks_bench_balance_elements (MAX (device_cache, ks_bench_host_shared_cache_bytes ()), floor,
                                    ks_bench_host_ranks (), limit);
}

gsize
ks_bench_default_elements (KsDevice     *device,
                           KsProbeSize   probe)
{
  const KsDeviceInfo *info;
  g_autofree char *reason = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), 0);
  info = ks_device_get_info (device);
  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    return default_elements (TRUE, info->type, 0, probe, host_limit (ks_host_memory_available (NULL)));
  return default_elements (FALSE, info->type, info->cache_bytes, probe, device_limit (info, &reason));
}

static gboolean
host_bandwidth (KsProbeSize   probe,
                gsize         elements,
                guint         reps,
                KsBandwidth  *out,
                GError      **error)
{
  const guint64 available = ks_host_memory_available (NULL);
  g_autofree float *a = NULL;
  g_autofree float *b = NULL;
  g_autofree float *c = NULL;
  const float scalar = 0.4f;
  double best = G_MAXDOUBLE, best_copy = G_MAXDOUBLE;
  gint64 n;

  g_return_val_if_fail (out != NULL, FALSE);

  if (elements == 0)
    elements = default_elements (TRUE, KS_DEVICE_TYPE_CPU, 0, probe, host_limit (available));
  if (available > 0 && 3 * (guint64) elements * sizeof (float) > available)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("Three arrays of %llu floats (%.0f MiB) do not fit in the %.0f MiB of memory "
                     "available"), (unsigned long long) elements, 3.0 * elements * sizeof (float) / 1048576.0, available / 1048576.0);
      return FALSE;
    }
  n = (gint64) elements;
  a = g_try_new (float, elements);
  b = g_try_new (float, elements);
  c = g_try_new (float, elements);
  if (a == NULL || b == NULL || c == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("Three arrays of %llu floats cannot be allocated"), (unsigned long long) elements);
      return FALSE;
    }
#pragma omp parallel for simd schedule (static)
  for (gint64 i = 0; i < n; i++)
    {
      a[i] = 0.1f;
      b[i] = 0.2f;
      c[i] = 0.0f;
    }
  reps = MAX (reps, 2);
  for (guint r = 0; r < reps; r++)
    {
      gint64 t0 = g_get_monotonic_time (), t1;

#pragma omp parallel for simd schedule (static)
      for (gint64 i = 0; i < n; i++)
        c[i] = a[i];
      t1 = g_get_monotonic_time ();
#pragma omp parallel for simd schedule (static)
      for (gint64 i = 0; i < n; i++)
        a[i] = b[i] + scalar * c[i];
      /* The first of each is a warm-up (page faults, threads starting). */
      if (r > 0)
        {
          best_copy = MIN (best_copy, (t1 - t0) / 1e6);
          best = MIN (best, (g_get_monotonic_time () - t1) / 1e6);
        }
    }
  out->elements = elements;
  out->reps = reps;
  out->copy_gbs = 2.0 * elements * sizeof (float) / MAX (best_copy, 1e-9) / 1e9;
  out->triad_gbs = 3.0 * elements * sizeof (float) / MAX (best, 1e-9) / 1e9;
  return TRUE;
}

gboolean
ks_bench_host_bandwidth (gsize        elements,
                         guint        reps,
                         KsBandwidth *out,
                         GError     **error)
{
  return host_bandwidth (KS_PROBE_SIZE_BALANCE, elements, reps, out, error);
}

double
ks_bench_triad_gbs (KsDevice *device, const char *label)
{
  g_autoptr(GError) error = NULL;
  KsBandwidth bw;

  g_return_val_if_fail (KS_IS_DEVICE (device), 0);
  if (ks_bench_bandwidth (device, 0, 5, &bw, &error))
    return bw.triad_gbs;
  g_message ("%s: no triad bandwidth: %s", label, error->message);
  return 0;
}

/* The host's triad, once per process (0: not measured yet). */
static double
host_triad_once (GError **error)
{
  static GMutex lock;
  static double gbs;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&lock);
  KsBandwidth bw;

  if (gbs <= 0 && ks_bench_host_bandwidth (0, 5, &bw, error))
    gbs = bw.triad_gbs;
  return gbs;
}

gboolean
ks_bench_balance_bandwidths (KsDevice *device, double *device_gbs, double *host_gbs, GError **error)
{
  KsBandwidth bw;
  double gpu;

  g_return_val_if_fail (KS_IS_DEVICE (device) && device_gbs != NULL && host_gbs != NULL, FALSE);
  gpu = ks_device_get_bandwidth (device);
  if (!(gpu > 0))
    {
      if (!ks_bench_bandwidth (device, 0, 5, &bw, error))
        return FALSE;
      gpu = bw.triad_gbs;
    }
  *device_gbs = gpu;
  *host_gbs = host_triad_once (error);
  return *host_gbs > 0;
}

double
ks_bench_median (double *values,
                 guint   n)
{
  if (n == 0)
    return 0.0;
  qsort (values, n, sizeof (double), compare_double);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

static gboolean
need_runtime_backend (KsDevice  *device,
                      GError   **error)
{
  if (ks_device_get_backend (device) != KS_BACKEND_HOST)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("%s runs no kernels: the probe needs an OpenCL or CUDA device"), ks_device_get_name (device));
  return FALSE;
}

/* --- bandwidth ------------------------------------------------------------- */

typedef struct {
  KsRuntime *rt;
  KsProgram *program;
  KsKernel  *init, *copy, *triad;
  KsBuffer  *a, *b, *c;
} Stream;

static void
stream_clear (Stream *s)
{
  g_clear_pointer (&s->a, ks_buffer_free);
  g_clear_pointer (&s->b, ks_buffer_free);
  g_clear_pointer (&s->c, ks_buffer_free);
  g_clear_pointer (&s->init, ks_kernel_free);
  g_clear_pointer (&s->copy, ks_kernel_free);
  g_clear_pointer (&s->triad, ks_kernel_free);
  g_clear_pointer (&s->program, ks_program_free);
  g_clear_pointer (&s->rt, ks_runtime_free);
}

/* The best (not the median) time of reps launches: bandwidth is a limit,
 * and the best run is the one least disturbed by anything else. */
static gboolean
best_time_ms (Stream    *s,
              KsKernel  *kernel,
              gsize      items,
              guint      reps,
              double    *out_ms,
              GError   **error)
{
  double best = G_MAXDOUBLE;

  for (guint r = 0; r < reps; r++)
    {
      ks_kernel_reset_timing (kernel);
      if (!ks_runtime_launch (s->rt, kernel, 1, &items, NULL, error) ||
          !ks_runtime_collect_timings (s->rt, error))
        return FALSE;
      best = MIN (best, ks_kernel_get_time_ns (kernel) / 1e6);
    }
  *out_ms = best;
  return TRUE;
}

static gboolean
device_bandwidth (KsDevice     *device,
                  KsProbeSize   probe,
                  gsize         elements,
                  guint         reps,
                  KsBandwidth  *out,
                  GError      **error)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  Stream s = { 0 };
  const float scalar = 0.4f;
  double copy_ms = 0, triad_ms = 0;
  gboolean ok = FALSE;
  gsize items, limit;
  g_autofree char *reason = NULL;
  int n;

  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  g_return_val_if_fail (reps > 0, FALSE);

  if (!need_runtime_backend (device, error))
    return FALSE;
  limit = device_limit (info, &reason);
  if (elements == 0)
    elements = default_elements (FALSE, info->type, info->cache_bytes, probe, limit);
  else if (elements > limit)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("Arrays of %.1f MiB are too large for %s: at most %.1f MiB each, since %s"),
                   elements * sizeof (float) / 1048576.0, info->name,
                   limit * sizeof (float) / 1048576.0, reason);
      return FALSE;
    }
  /* The kernels move a float4 per work-item: whole float4s only. */
  items = MAX (elements / 4, 1);
  elements = items * 4;
  n = (int) items;

  if (!(s.rt = ks_runtime_new (device, error)) ||
      !(s.program = ks_runtime_build_program (s.rt, "stream.cl", NULL, error)) ||
      !(s.init = ks_program_create_kernel (s.program, "ks_stream_init", error)) ||
      !(s.copy = ks_program_create_kernel (s.program, "ks_stream_copy", error)) ||
      !(s.triad = ks_program_create_kernel (s.program, "ks_stream_triad", error)) ||
      !(s.a = ks_runtime_alloc (s.rt, elements * sizeof (float), error)) ||
      !(s.b = ks_runtime_alloc (s.rt, elements * sizeof (float), error)) ||
      !(s.c = ks_runtime_alloc (s.rt, elements * sizeof (float), error)))
    goto out;

  if (!ks_kernel_set_arg_buffer (s.init, 0, s.a, error) ||
      !ks_kernel_set_arg_buffer (s.init, 1, s.b, error) ||
      !ks_kernel_set_arg_buffer (s.init, 2, s.c, error) ||
      !ks_kernel_set_arg (s.init, 3, sizeof n, &n, error) ||
      !ks_kernel_set_arg_buffer (s.copy, 0, s.a, error) ||
      !ks_kernel_set_arg_buffer (s.copy, 1, s.c, error) ||
      !ks_kernel_set_arg (s.copy, 2, sizeof n, &n, error) ||
      !ks_kernel_set_arg_buffer (s.triad, 0, s.a, error) ||
      !ks_kernel_set_arg_buffer (s.triad, 1, s.b, error) ||
      !ks_kernel_set_arg_buffer (s.triad, 2, s.c, error) ||
      !ks_kernel_set_arg (s.triad, 3, sizeof scalar, &scalar, error) ||
      !ks_kernel_set_arg (s.triad, 4, sizeof n, &n, error))
    goto out;

  /* The first touch also makes the driver really allocate the pages. */
  if (!ks_runtime_launch (s.rt, s.init, 1, &items, NULL, error) ||
      !ks_runtime_collect_timings (s.rt, error) ||
      !best_time_ms (&s, s.copy, items, reps, &copy_ms, error) ||
      !best_time_ms (&s, s.triad, items, reps, &triad_ms, error))
    goto out;

  out->elements = elements;
  out->reps = reps;
  out->copy_gbs = copy_ms > 0 ? 2.0 * elements * sizeof (float) / (copy_ms * 1e6) : 0.0;
  out->triad_gbs = triad_ms > 0 ? 3.0 * elements * sizeof (float) / (triad_ms * 1e6) : 0.0;
  ks_device_set_bandwidth (device, out->triad_gbs);
  ok = TRUE;

out:
  stream_clear (&s);
  return ok;
}

gboolean
ks_bench_bandwidth (KsDevice    *device,
                    gsize        elements,
                    guint        reps,
                    KsBandwidth *out,
                    GError     **error)
{
  return device_bandwidth (device, KS_PROBE_SIZE_BALANCE, elements, reps, out, error);
}

gboolean
ks_bench_probe_bandwidth (KsDevice     *device,
                          KsProbeSize   probe,
                          gsize         elements,
                          guint         reps,
                          KsBandwidth  *out,
                          GError      **error)
{
  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);
  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    return host_bandwidth (probe, elements, reps, out, error);
  return device_bandwidth (device, probe, elements, reps, out, error);
}

/* --- launch overhead -------------------------------------------------------- */

double
ks_bench_gauss_fwd_bytes (guint       n,
                          KsPrecision precision)
{
  const double rs = precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);
  double elements = 0.0;

  /* Step k updates rows k+1..n-1 and columns k..n. */
  for (guint k = 0; k + 1 < n; k++)
    elements += (double) (n - k - 1) * (n + 1 - k);
  return 2.0 * rs * elements;
}

typedef struct {
  KsRuntime *rt;
  KsProgram *program;
  KsKernel  *k[KS_GAUSS_N_KERNELS];
  KsBuffer  *a, *m, *x, *info;
  gpointer   host_a;
  gsize      a_size, rs;
  int        n;
} Sequence;

static void
sequence_clear (Sequence *s)
{
  g_clear_pointer (&s->a, ks_buffer_free);
  g_clear_pointer (&s->m, ks_buffer_free);
  g_clear_pointer (&s->x, ks_buffer_free);
  g_clear_pointer (&s->info, ks_buffer_free);
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    g_clear_pointer (&s->k[i], ks_kernel_free);
  g_clear_pointer (&s->program, ks_program_free);
  g_clear_pointer (&s->rt, ks_runtime_free);
  g_clear_pointer (&s->host_a, g_free);
}

static gboolean
sequence_init (Sequence             *s,
               KsDevice             *device,
               KsPrecision           precision,
               const KsLinearSystem *sys,
               GError              **error)
{
  const gboolean dbl = precision == KS_PRECISION_DOUBLE;
  const double tiny = ks_gauss_tiny_pivot (precision, ks_linear_system_max_abs (sys));
  const float tiny_f = (float) tiny;
  int zeros[16] = { 0 };
  int zero = 0;

  s->n = (int) sys->n;
  s->rs = dbl ? sizeof (double) : sizeof (float);
  s->a_size = (gsize) sys->n * (sys->n + 1) * s->rs;
  if (!(s->host_a = ks_linear_system_to_augmented (sys, dbl, error)) ||
      !(s->rt = ks_runtime_new (device, error)) ||
      !(s->program = ks_runtime_build_program (s->rt, "gauss.cl",
                                               dbl ? "-DKS_REAL=double -DKS_FP64" : "-DKS_REAL=float", error)))
    return FALSE;
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    if (!(s->k[i] = ks_program_create_kernel (s->program, ks_gauss_kernel_name (i), error)))
      return FALSE;
  if (!(s->a = ks_runtime_alloc (s->rt, s->a_size, error)) ||
      !(s->m = ks_runtime_alloc (s->rt, sys->n * s->rs, error)) ||
      !(s->x = ks_runtime_alloc (s->rt, sys->n * s->rs, error)) ||
      !(s->info = ks_runtime_alloc (s->rt, sizeof zeros, error)) ||
      !ks_runtime_write (s->rt, s->info, 0, sizeof zeros, zeros, error))
    return FALSE;

  /* Arguments that stay for the whole sequence; row0 = col0 = 0 (fixed range). */
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    if (!ks_kernel_set_arg_buffer (s->k[i], 0, s->a, error) ||
        !ks_kernel_set_arg_buffer (s->k[i], 1, i < KS_GAUSS_BWD_PREPARE ? s->m : s->x, error) ||
        !ks_kernel_set_arg (s->k[i], 2, sizeof s->n, &s->n, error))
      return FALSE;
  return ks_kernel_set_arg (s->k[KS_GAUSS_FWD_PRE], 4, sizeof zero, &zero, error) &&
         ks_kernel_set_arg_buffer (s->k[KS_GAUSS_FWD_PRE], 5, s->info, error) &&
         ks_kernel_set_arg (s->k[KS_GAUSS_FWD_PRE], 6, sizeof zero, &zero, error) &&
         ks_kernel_set_arg (s->k[KS_GAUSS_FWD], 4, sizeof zero, &zero, error) &&
         ks_kernel_set_arg (s->k[KS_GAUSS_FWD], 5, sizeof zero, &zero, error) &&
         ks_kernel_set_arg_buffer (s->k[KS_GAUSS_FWD], 6, s->info, error) &&
         ks_kernel_set_arg (s->k[KS_GAUSS_FWD], 7, sizeof zero, &zero, error) &&
         ks_kernel_set_arg_buffer (s->k[KS_GAUSS_BWD_PREPARE], 4, s->info, error) &&
         (dbl ? ks_kernel_set_arg (s->k[KS_GAUSS_BWD_PREPARE], 5, sizeof tiny, &tiny, error)
              : ks_kernel_set_arg (s->k[KS_GAUSS_BWD_PREPARE], 5, sizeof tiny_f, &tiny_f, error)) &&
         ks_kernel_set_arg (s->k[KS_GAUSS_BWD], 4, sizeof zero, &zero, error) &&
         ks_kernel_set_arg_buffer (s->k[KS_GAUSS_BWD], 5, s->info, error) &&
         ks_kernel_set_arg (s->k[KS_GAUSS_BWD], 6, sizeof zero, &zero, error);
}

/* The launches of ks-gauss.c's fixed range with no local size, in the same
 * order and shapes, bare: this probe isolates the launch cost (no upload or
 * download on the clock, events switched off for the wall time).  The
 * solver's own graph mode (KS_LAUNCH_GRAPH, "bench gauss" row "kernels,
 * CUDA (graph)") gives the gain a user of the solver sees. */
static gboolean
sequence_enqueue (Sequence *s,
                  guint    *out_launches,
                  GError  **error)
{
  const gsize rows = s->n, cols = (gsize) s->n + 1, one = 1;
  const gsize fwd_global[2] = { cols, rows };
  guint launches = 0;

  for (int k = 0; k <= s->n - 2; k++, launches += 2)
    if (!ks_kernel_set_arg (s->k[KS_GAUSS_FWD_PRE], 3, sizeof k, &k, error) ||
        !ks_runtime_launch (s->rt, s->k[KS_GAUSS_FWD_PRE], 1, &rows, NULL, error) ||
        !ks_kernel_set_arg (s->k[KS_GAUSS_FWD], 3, sizeof k, &k, error) ||
        !ks_runtime_launch (s->rt, s->k[KS_GAUSS_FWD], 2, fwd_global, NULL, error))
      return FALSE;
  for (int k = s->n - 1; k >= 0; k--, launches += 2)
    if (!ks_kernel_set_arg (s->k[KS_GAUSS_BWD_PREPARE], 3, sizeof k, &k, error) ||
        !ks_runtime_launch (s->rt, s->k[KS_GAUSS_BWD_PREPARE], 1, &one, &one, error) ||
        !ks_kernel_set_arg (s->k[KS_GAUSS_BWD], 3, sizeof k, &k, error) ||
        !ks_runtime_launch (s->rt, s->k[KS_GAUSS_BWD], 1, &rows, NULL, error))
      return FALSE;
  *out_launches = launches;
  return TRUE;
}

static double
sequence_residual (Sequence             *s,
                   const KsLinearSystem *sys,
                   GError              **error)
{
  g_autofree void *hx = g_malloc (sys->n * s->rs);
  g_autofree double *x = g_new (double, sys->n);

  if (!ks_runtime_read (s->rt, s->x, 0, sys->n * s->rs, hx, error))
    return -1.0;
  for (guint i = 0; i < sys->n; i++)
    x[i] = s->rs == sizeof (double) ? ((double *) hx)[i] : ((float *) hx)[i];
  return ks_linear_system_residual (sys, x);
}

/* One stream run: fresh matrix, then only the launches on the clock. */
static gboolean
stream_once (Sequence *s,
             gboolean  timed,
             double   *wall_ms,
             double   *kernels_ms,
             guint    *launches,
             GError  **error)
{
  gint64 t0;

  if (!ks_runtime_write (s->rt, s->a, 0, s->a_size, s->host_a, error))
    return FALSE;
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    ks_kernel_reset_timing (s->k[i]);
  ks_runtime_set_timing (s->rt, timed);
  t0 = g_get_monotonic_time ();
  if (!sequence_enqueue (s, launches, error) || !ks_runtime_finish (s->rt, error))
    return FALSE;
  *wall_ms = (g_get_monotonic_time () - t0) / 1000.0;
  *kernels_ms = 0.0;
  if (!ks_runtime_collect_timings (s->rt, error))
    return FALSE;
  for (guint i = 0; i < KS_GAUSS_N_KERNELS; i++)
    *kernels_ms += ks_kernel_get_time_ns (s->k[i]) / 1e6;
  return TRUE;
}

static gboolean
graph_runs (Sequence             *s,
            const KsLinearSystem *sys,
            guint                 reps,
            KsLaunchOverhead     *out,
            GError              **error)
{
  g_autoptr(KsGraph) graph = NULL;
  g_autofree double *times = g_new0 (double, reps);
  guint launches = 0;
  gint64 t0;

  t0 = g_get_monotonic_time ();
  if (!ks_runtime_capture_begin (s->rt, error))
    return FALSE;
  if (!sequence_enqueue (s, &launches, error))
    {
      ks_runtime_capture_abort (s->rt);
      return FALSE;
    }
  if (!(graph = ks_runtime_capture_end (s->rt, error)))
    return FALSE;
  out->capture_ms = (g_get_monotonic_time () - t0) / 1000.0;

  /* One untimed replay first (the first launch of a graph uploads it). */
  for (guint r = 0; r <= reps; r++)
    {
      if (!ks_runtime_write (s->rt, s->a, 0, s->a_size, s->host_a, error))
        return FALSE;
      t0 = g_get_monotonic_time ();
      if (!ks_graph_launch (graph, error) || !ks_runtime_finish (s->rt, error))
        return FALSE;
      if (r > 0)
        times[r - 1] = (g_get_monotonic_time () - t0) / 1000.0;
    }
  out->graph_residual = sequence_residual (s, sys, error);
  if (out->graph_residual < 0)
    return FALSE;
  out->graph_ms = ks_bench_median (times, reps);
  out->graph_overhead_us = out->graph_ms * 1000.0 / out->launches;
  out->gain = out->graph_ms > 0 ? out->stream_ms / out->graph_ms : 0.0;
  out->have_graph = TRUE;
  return TRUE;
}

gboolean
ks_bench_launch_overhead (KsDevice         *device,
                          KsPrecision       precision,
                          guint             n,
                          guint             reps,
                          KsLaunchOverhead *out,
                          GError          **error)
{
  g_autoptr(KsLinearSystem) sys = NULL;
  g_autofree double *walls = NULL;
  g_autofree double *kernels = NULL;
  Sequence s = { 0 };
  double ignored;
  gboolean ok = FALSE;

  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  g_return_val_if_fail (reps > 0, FALSE);

  memset (out, 0, sizeof *out);
  out->n = n;
  walls = g_new0 (double, reps);
  kernels = g_new0 (double, reps);
  if (!need_runtime_backend (device, error) ||
      !(sys = ks_linear_system_new_random (n, 1, error)) ||
      !sequence_init (&s, device, precision, sys, error))
    goto out;

  /* Warm-up, then the device time per launch with events, then the wall
   * time without them (events cost launches of their own). */
  if (!stream_once (&s, TRUE, &ignored, &ignored, &out->launches, error))
    goto out;
  for (guint r = 0; r < reps; r++)
    if (!stream_once (&s, TRUE, &ignored, &kernels[r], &out->launches, error) ||
        !stream_once (&s, FALSE, &walls[r], &ignored, &out->launches, error))
      goto out;
  out->stream_residual = sequence_residual (&s, sys, error);
  if (out->stream_residual < 0)
    goto out;
  out->stream_ms = ks_bench_median (walls, reps);
  out->kernels_ms = ks_bench_median (kernels, reps);
  out->overhead_us = out->stream_ms * 1000.0 / out->launches;

  if (ks_device_get_backend (device) == KS_BACKEND_CUDA && !graph_runs (&s, sys, reps, out, error))
    goto out;
  ok = TRUE;

out:
  sequence_clear (&s);
  return ok;
}
