/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-bench.h: "bench gauss": the same systems solved, in one run, by the
 * paper's kernels on every kind of device there is (NVIDIA OpenCL, CUDA,
 * PoCL) and by the libraries a user would call instead (cuSOLVER on the
 * GPU, LAPACK's gesv from OpenBLAS on the host), so that the distance of
 * the paper's method from the library and from the memory's limit shows. */
#pragma once

#include <json-glib/json-glib.h>

#include "ks-device-list.h"
#include "ks-gauss.h"

G_BEGIN_DECLS

typedef enum {
  KS_BENCH_OPENCL_GPU,   /* the kernels through a GPU's OpenCL (NVIDIA's) */
  KS_BENCH_CUDA,         /* the same kernels through NVRTC + CUDA */
  KS_BENCH_CUDA_GRAPH,   /* the same, replayed from a CUDA graph (KS_LAUNCH_GRAPH) */
  KS_BENCH_CUSOLVER,     /* getrf + getrs */
  KS_BENCH_LAPACK,       /* sgesv / dgesv on the host (OpenBLAS) */
  KS_BENCH_OPENCL_CPU,   /* the kernels on the CPU through PoCL */
  /* The blocked kernels (KS_LAUNCH_BLOCKED, 32 columns a launch) on the
   * rows above's devices, with their solvers: what fewer launches gain. */
  KS_BENCH_OPENCL_GPU_BLOCKED,
  KS_BENCH_CUDA_BLOCKED,
  KS_BENCH_OPENCL_CPU_BLOCKED,
  KS_BENCH_N_METHODS
} KsBenchMethod;

const char *ks_bench_method_to_string (KsBenchMethod method);

typedef struct {
  KsBenchMethod method;
  guint   n;
  char   *device;         /* name and id; NULL when skipped before a device was found */
  char   *skipped;        /* why this method did not run; NULL when it ran */
  gboolean failed;        /* it could have run but a solve failed ("failed: ..." in skipped) */
  double  wall_ms;        /* upload + solve + download, median; kernels: of untimed solves
                           * (no per-launch events); never the conversion into float */
  double  device_ms;      /* device time of the solve (events), median, from a separate timed
                           * pass; 0 on the host (none); the graph's: one replay, launch
                           * to completion */
  double  capture_ms;     /* graph: recording + instantiating it, once (in the warm-up) */
  double  ratio;          /* wall_ms / the reference's wall_ms; 0 when the reference did
                           * not run at this size */
  int     reference;      /* the run's reference, one for all sizes: KS_BENCH_CUSOLVER
                           * where it can run, else KS_BENCH_LAPACK; -1 if neither */
  double  residual;       /* ||Ax-b|| / ||b|| of the last solve */
  double  fwd_ms;         /* the update kernel gauss_fwd's device time; kernels only,
                           * and not in a graph, whose kernels are not timed one by one */
  double  fwd_gbs;        /* bytes it moved / fwd_ms */
  double  bandwidth_gbs;  /* the device's measured triad bandwidth; 0 = not measured */
  double  fraction;       /* fwd_gbs / bandwidth_gbs */
  guint   fwd_local[2];   /* the update kernel's work-group */
} KsBenchRow;

/* The most repetitions (and warm-up solves) a bench takes: a median of
 * more is no steadier, and each one is a whole solve or launch, so a count
 * typed by mistake (2147483647) would run for days or abort allocating
 * its times. */
#define KS_BENCH_MAX_REPS 1000u

typedef struct {
  KsPrecision precision;
  guint       warmup;
  guint       reps;
  guint32     seed;
  gboolean    measure_bandwidth;   /* run the triad probe on each kernel device */
} KsBenchSpec;

/* Runs every method on every size; a method that cannot run here (no such
 * device, no library) gives one row per size with the reason, a solve that
 * fails a row with failed set.  The kernel methods run warmup + reps
 * untimed solves (wall_ms) and reps timed ones (device_ms, fwd_ms); the
 * graph row shares the CUDA row's solver; each method's device buffers are
 * released once its size is measured, so no two methods hold a matrix on a
 * GPU at once.  Fails only when a size cannot even be generated.  Rows:
 * size-major, method order. */
GPtrArray  *ks_bench_gauss            (KsDeviceList       *list,
                                       const guint        *sizes,
                                       guint               n_sizes,
                                       const KsBenchSpec  *spec,
                                       GError            **error);
void        ks_bench_row_free         (KsBenchRow *row);

gboolean    ks_bench_write_csv        (GPtrArray   *rows,
                                       const char  *path,
                                       GError     **error);
gboolean    ks_bench_write_json       (GPtrArray   *rows,
                                       const KsBenchSpec *spec,
                                       const char  *command,
                                       const char  *path,
                                       GError     **error);

/* What every bench's JSON starts with, inside the open root object:
 * format 1, experiment, date (now, UTC), command, precision, warmup, reps.
 * And its end: the root object closed and written, pretty, to path. */
void        ks_bench_json_begin       (JsonBuilder *builder,
                                       const char  *experiment,
                                       const char  *command,
                                       KsPrecision  precision,
                                       guint        warmup,
                                       guint        reps);
gboolean    ks_bench_json_write       (JsonBuilder *builder,
                                       const char  *path,
                                       GError     **error);

G_END_DECLS
