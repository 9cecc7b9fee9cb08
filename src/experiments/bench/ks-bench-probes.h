/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-bench-probes.h: two measurements of a device that the benchmarks and
 * the device list need: its memory bandwidth (copy and triad kernels, after
 * BabelStream), and what one kernel launch costs beyond the kernel itself,
 * with and without CUDA Graphs, for the Gauss method's ~4n launches. */
#pragma once

#include "ks-device.h"
#include "ks-gauss.h"

G_BEGIN_DECLS

typedef struct {
  double copy_gbs;    /* 2 x bytes of one array / best time of copy */
  double triad_gbs;   /* 3 x bytes of one array / best time of triad */
  gsize  elements;    /* per array */
  guint  reps;
} KsBandwidth;

/* The most floats one array of the probe holds: the kernels count their
 * float4s in an int (32767 MiB). */
#define KS_BENCH_BANDWIDTH_MAX_ELEMENTS ((gsize) G_MAXINT * 4)

/* What a probe's default size (elements = 0) is for. */
typedef enum {
  /* Beside a run: lambda_b (the heat page, run heat-hybrid, each rank
   * under mpirun), a bench's triad line, the Devices page: beyond the
   * caches the probe's threads can fill, split among the ranks on the
   * host, so none of them pays gigabytes for the figure. */
  KS_PROBE_SIZE_BALANCE,
  /* bench bandwidth: beyond every cache figure any source gives. */
  KS_PROBE_SIZE_FULL
} KsProbeSize;

/* The host's last-level cache in bytes (0: not known): the largest of cpu0's
 * caches in sysfs and of sysconf's level 3, which disagree on some
 * virtual machines (32 MiB against 256, the whole package's): the full
 * probe takes the larger. */
guint64  ks_bench_host_cache_bytes   (void);
/* The last-level caches the threads of this process can fill: one per
 * group of the CPUs it may run on that share one (sysfs shared_cpu_list),
 * summed; ks_bench_host_cache_bytes where sysfs says nothing. */
guint64  ks_bench_host_shared_cache_bytes (void);
/* The ranks of an MPI job on this host (Open MPI's and MPICH's variables),
 * 1 outside one. */
guint    ks_bench_host_ranks         (void);
/* The probe's default floats per array: at least floor_elements and more
 * than four times cache_bytes (BabelStream's rule, so copy and triad
 * stream from memory, not from cache), in whole float4s, at most limit. */
gsize    ks_bench_bandwidth_elements (guint64 cache_bytes,
                                      gsize   floor_elements,
                                      gsize   limit);
/* The balance probe's floats per array for one of ranks processes that
 * probe at once: their arrays together as ks_bench_bandwidth_elements
 * (without limit), each its share but at least 1 Mi floats, in whole
 * float4s, at most its share of limit. */
gsize    ks_bench_balance_elements   (guint64 cache_bytes,
                                      gsize   floor_elements,
                                      guint   ranks,
                                      gsize   limit);
/* The floats per array device's probe takes by default for probe (the
 * host device: its cores' OpenMP triad), within its memory limits. */
gsize    ks_bench_default_elements   (KsDevice    *device,
                                      KsProbeSize  probe);

/* Runs kernels/stream.cl on device (OpenCL or CUDA; the host backend is
 * KS_COMPUTE_ERROR_UNSUPPORTED) over three arrays of elements floats,
 * rounded down to whole float4s, best of reps, and stores the triad figure
 * in the device's info (bandwidth_gbs).  0 = the balance probe's size for
 * the device (ks_bench_default_elements, KS_PROBE_SIZE_BALANCE): more
 * than four times the cache its threads fill and at least 64 Mi floats on
 * a GPU, 8 Mi elsewhere (split among the ranks on a CPU), less where the
 * three arrays would take more than a quarter of its memory or one more
 * than its largest buffer; out->elements is what was used.  A size given
 * is never changed:
 * one over those limits or KS_BENCH_BANDWIDTH_MAX_ELEMENTS is refused
 * (KS_COMPUTE_ERROR_OUT_OF_MEMORY), saying the limit and why. */
gboolean ks_bench_bandwidth (KsDevice    *device,
                             gsize        elements,
                             guint        reps,
                             KsBandwidth *out,
                             GError     **error);

/* The same triad on the host's cores (OpenMP, each thread first touching
 * its own share of the arrays, so the pages sit near the cores that use
 * them): paper 004's BW_CPUs, the memory bandwidth a CPU part of the
 * hybrid has.  0 elements: the balance probe's size, more than four times
 * the last-level caches the threads fill and at least 32 Mi floats per
 * array (384 MiB in all) over the ranks on this host, fewer where that is
 * more than a quarter of the memory available. */
gboolean ks_bench_host_bandwidth (gsize        elements,
                                  guint        reps,
                                  KsBandwidth *out,
                                  GError     **error);

/* bench bandwidth's probe: the host device by its cores (as
 * ks_bench_host_bandwidth), any other by kernels (as ks_bench_bandwidth),
 * 0 elements being probe's default size. */
gboolean ks_bench_probe_bandwidth (KsDevice     *device,
                                   KsProbeSize   probe,
                                   gsize         elements,
                                   guint         reps,
                                   KsBandwidth  *out,
                                   GError      **error);

/* Paper 004's lambda_b = BW_device / BW_CPUs found one way on every page
 * (the live heat page and heat-hybrid's run agree): the device's triad as
 * recorded (ks_device_get_bandwidth: the Devices page's probe or an
 * earlier one) or else measured now, and the host cores' triad measured
 * once per process, the first figure kept for every later caller (two
 * probes a minute apart on a loaded machine differed threefold). */
gboolean ks_bench_balance_bandwidths (KsDevice    *device,
                                      double      *device_gbs,
                                      double      *host_gbs,
                                      GError     **error);

typedef struct {
  guint  n;
  guint  launches;         /* of one solve */
  double stream_ms;        /* launches enqueued one by one, no timing events; median */
  double kernels_ms;       /* device time of the same launches (events); median.  On CUDA
                            * the two events around each launch cost ~1-2 us of device
                            * time themselves, so at small n this exceeds stream_ms. */
  double overhead_us;      /* stream_ms / launches: what one launch costs in the stream
                            * when the kernels are trivial (small n) */
  gboolean have_graph;     /* CUDA only */
  double capture_ms;       /* recording + instantiating the graph, once */
  double graph_ms;         /* one replay of the graph; median */
  double graph_overhead_us;  /* graph_ms / launches */
  double gain;             /* stream_ms / graph_ms */
  double stream_residual;  /* both ways must solve the system */
  double graph_residual;
} KsLaunchOverhead;

/* The paper's launch sequence (fixed range, local size chosen by the driver,
 * or by the occupancy API on CUDA) for a system of size n, run reps times
 * each way.  Only the launches are timed: the upload happens before. */
gboolean ks_bench_launch_overhead (KsDevice         *device,
                                   KsPrecision       precision,
                                   guint             n,
                                   guint             reps,
                                   KsLaunchOverhead *out,
                                   GError          **error);

/* Bytes the forward update kernel (gauss_fwd) reads and writes over a whole
 * fixed-range solve: each updated element is read and written once; the
 * pivot row and the multipliers are reused from cache and not counted. */
double   ks_bench_gauss_fwd_bytes (guint        n,
                                   KsPrecision  precision);

/* Sorts values in place and returns their median (0 when n = 0). */
double   ks_bench_median          (double      *values,
                                   guint        n);
/* The triad bandwidth of device in GB/s, measured now: the line a bench
 * sets its rows against; 0 (with a message naming label) where it cannot
 * be measured. */
double   ks_bench_triad_gbs       (KsDevice    *device,
                                   const char  *label);

G_END_DECLS
