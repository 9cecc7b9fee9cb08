/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-bench-bandwidth.c: "bench-bandwidth": copy and triad over three
 * float arrays (after BabelStream) on each device asked for, the host by
 * its cores (OpenMP), any other by kernels, against the data sheet's peak:
 * the floor every other bench's "of triad" column is measured against. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-bench.h"
#include "ks-bench-probes.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* Launches of each kernel in one repetition, the best kept: the engine's
 * repetitions then keep the best of theirs, so a run of -r 3 takes the best
 * of 15, as the bench's --reps 10 took the best of 10. */
#define LAUNCHES_PER_REP 5

enum { P_MIB, N_PARAMS };

static const KsParamSpec params[] = {
  [P_MIB] = { .name = "mib", .label = N_("Each array"), .unit = "MiB",
    .help = N_("The size of each of the three arrays; 0: more than 4x the device's last-level cache and at "
               "least 256 MiB on a GPU, 32 elsewhere, less where the device holds less (the MiB column "
               "says). At most 32767, since the kernels count float4s in an int, and on each device at most "
               "a twelfth of its memory and its largest buffer: a size a device cannot hold is refused "
               "there, with its limit"),
    .type = KS_PARAM_INT, .default_value = "0", .min = 0, .max = 32767, .sweepable = TRUE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

enum { COL_COPY, COL_TRIAD, COL_MIB, COL_CACHED, COL_OF_PEAK, N_COLUMNS };

static double
derive_of_peak (const KsRun        *run,
                const KsRunPoint   *point,
                const KsColumnSpec *column)
{
  const double peak = ks_run_device_get_info (run->devices->pdata[point->device], "peak_gbs");

  return peak > 0 ? point->values[COL_TRIAD] / peak : NAN;
}

static const KsColumnSpec columns[] = {
  [COL_COPY] = { "copy_gbs", N_("copy"), "GB/s", N_("c = a: 2 x the bytes of one array / the best time"),
                 KS_COLUMN_REAL, KS_REDUCE_MAX },
  [COL_TRIAD] = { "triad_gbs", N_("triad"), "GB/s",
                  N_("a = b + s * c: 3 x the bytes of one array / the best time; the floor the other benches "
                     "set their kernels against"), KS_COLUMN_REAL, KS_REDUCE_MAX },
  [COL_MIB] = { "mib_each", N_("each array"), "MiB", N_("The size each array had on this device"),
                KS_COLUMN_REAL, KS_REDUCE_LAST },
  [COL_CACHED] = { "cache_sized", N_("within 4x the cache"), NULL,
                   N_("The arrays are less than 4x the device's last-level cache: the figures may be the "
                      "cache's, not the memory's"), KS_COLUMN_BOOL, KS_REDUCE_LAST },
  [COL_OF_PEAK] = { "of_peak", N_("of peak"), NULL,
                    N_("triad / the data sheet's peak (2 x memory clock x bus width); empty where the device "
                       "does not say its peak"), KS_COLUMN_REAL, .derive = derive_of_peak },
};
G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

static const KsColumnSpec device_info[] = {
  { "peak_gbs", N_("peak bandwidth"), "GB/s", N_("2 x memory clock x bus width: the data sheet's number") },
};

/* The cache the arrays must exceed: on a CPU also the host's own figure,
 * which OpenCL's often understates. */
static guint64
cache_bytes (KsDevice *device)
{
  const KsDeviceInfo *info = ks_device_get_info (device);

  if (ks_device_get_backend (device) == KS_BACKEND_HOST || info->type == KS_DEVICE_TYPE_CPU)
    return MAX (info->cache_bytes, ks_bench_host_cache_bytes ());
  return info->cache_bytes;
}

static gboolean
bandwidth_measure (gpointer        state,
                   const KsConfig *point,
                   double         *values,
                   GCancellable   *cancellable,
                   GError        **error)
{
  KsDevice *device = state;
  const gsize elements = (gsize) ks_config_int (point, P_MIB) * 1048576 / sizeof (float);
  const guint64 cache = cache_bytes (device);
  KsBandwidth bw;

  /* The large default: the balance probes beside runs keep theirs. */
  if (!ks_bench_probe_bandwidth (device, KS_PROBE_SIZE_FULL, elements, LAUNCHES_PER_REP, &bw, error))
    return ks_exp_bench_refuse_point (error);
  values[COL_COPY] = bw.copy_gbs;
  values[COL_TRIAD] = bw.triad_gbs;
  values[COL_MIB] = bw.elements * sizeof (float) / 1048576.0;
  values[COL_CACHED] = cache > 0 && bw.elements * sizeof (float) < 4 * cache;
  return TRUE;
}

static void
bandwidth_describe_device (gpointer        state,
                           const KsConfig *base,
                           KsRunDevice    *out)
{
  const double peak = ks_device_get_info (state)->peak_bandwidth_gbs;

  if (peak > 0)
    ks_run_device_set_info (out, "peak_gbs", peak);
}

static const KsFigureSpec figures[] = {
  /* A bar per device (the run's series) for each size asked for. */
  { .id = "bandwidth", .title = N_("Memory bandwidth by device"), .x = "mib", .categorical_x = TRUE,
    .y = "triad_gbs", .hline_info = "peak_gbs", .hline_label = N_("peak %g GB/s") },
  { .id = "copy", .title = N_("Copy bandwidth by device"), .x = "mib", .categorical_x = TRUE, .y = "copy_gbs" },
  { .id = "of-peak", .title = N_("Triad as a fraction of the peak"), .x = "mib", .categorical_x = TRUE,
    .y = "of_peak" },
};

const KsExperimentDesc ks_exp_bench_bandwidth = {
  .id = "bench-bandwidth",
  .title = N_("Memory bandwidth"),
  KS_EXP_BENCH_GROUP,
  .summary = N_("Copy and triad (after BabelStream) on the host's cores or a device's kernels, against its peak"),
  .claim = N_("Copy (c = a) and triad (a = b + s * c) over three float arrays, the best of the launches, after "
              "BabelStream: on an OpenCL or CUDA device by kernels, on the host by its cores (OpenMP, each "
              "thread first touching its own share). The arrays' default size exceeds 4x the last-level "
              "cache (sysfs, sysconf, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE), so that the memory is measured, not "
              "a cache. The triad is the floor the other benches set their kernels against: a kernel that "
              "reads and writes each byte once cannot be faster. Name several devices (-d host -d pocl) to "
              "compare them."),
  .example = "-d host --mib 64",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .device_info = device_info, .n_device_info = G_N_ELEMENTS (device_info),
  .set_up = ks_exp_bench_device_set_up,
  .measure_one_rep = bandwidth_measure,
  .describe_device = bandwidth_describe_device,
  .tear_down = g_object_unref,
};
