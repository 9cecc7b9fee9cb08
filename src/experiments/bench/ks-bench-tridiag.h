/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-bench-tridiag.h: "bench tridiag": paper 002's kernels on every OpenCL
 * and CUDA device there is, cuSPARSE on the CUDA ones and the host's
 * methods, on the same systems in one run, each against cuSPARSE and
 * against the memory's limit: reading a, b, c, d and writing x once, over
 * the triad bandwidth measured in the same run. */
#pragma once

#include "ks-device-list.h"
#include "ks-tridiag.h"

G_BEGIN_DECLS

typedef struct {
  gboolean        one_system;   /* the large-system case, else a batch */
  guint           n;
  guint           systems;
  KsTridiagMethod method;
  char           *device;       /* "NAME (ID)"; "host" for the CPU methods */
  gboolean        nvidia_opencl;  /* on NVIDIA's OpenCL platform (for the OpenCL-vs-CUDA line) */
  char           *skipped;      /* why it did not run; NULL when it ran */
  gboolean        failed;       /* it could have run, but failed ("failed: ..." in skipped) */
  double          ms;           /* median: device time (events), or the host clock */
  double          residual;     /* max |Ax - d| over 16 sampled systems */
  double          gbs;          /* bytes of one read of a, b, c, d and one write of x / ms */
  double          triad_gbs;    /* the device's triad bandwidth measured in this run; 0: none */
  double          of_triad;     /* gbs / triad_gbs; 0: no triad */
  double          vs_cusparse;  /* ms / cuSPARSE's ms for the same case (gtsv2StridedBatch for a
                                 * batch, gtsv2_nopivot for one system); 0: cuSPARSE did not run */
  double          layout_ms;    /* of ms, the device's layout changes (thomas-transposed's
                                 * transposes, median); 0 for the others */
} KsBenchTridiagRow;

typedef struct {
  KsPrecision  precision;
  guint        n;             /* unknowns per system of the batches */
  const guint *systems;       /* the batches' sizes */
  guint        n_systems;
  guint        large_n;       /* the one large system; 0: none */
  const KsTridiagMethod *methods;  /* which; NULL: all */
  guint        n_methods;
  guint        warmup;
  guint        reps;
  gboolean     no_host;       /* leave out the host's methods (seconds a solve at the paper's sizes) */
  KsDevice   **only;          /* these devices alone (n_only of them); NULL: every OpenCL and
                               * CUDA device */
  guint        n_only;
} KsBenchTridiagSpec;

/* Every method on every case: kernels on each OpenCL and CUDA device (a
 * triad probe first on each), cuSPARSE on each CUDA device, the host's
 * methods once (none with no_host).  A method that cannot run a case gives
 * a row with the reason; so does, for the one large system, each method
 * that runs a system on one work-item or work-group.
 * Rows: case by case, devices in list order, methods in order. */
GPtrArray *ks_bench_tridiag          (KsDeviceList              *list,
                                      const KsBenchTridiagSpec  *spec,
                                      GError                   **error);
void       ks_bench_tridiag_row_free (KsBenchTridiagRow *row);
/* The rows as CSV, the header first. */
gboolean   ks_bench_tridiag_write_csv (GPtrArray   *rows,
                                       const char  *path,
                                       GError     **error);

/* The rows as JSON, with how they were made: {"format": 1, "experiment":
 * "bench-tridiag", "date", "command", "precision", "warmup", "reps",
 * "rows": [{"case", "n", "systems", "method", "device", "skipped",
 * "failed", and when measured "ms", "residual", "gbs", "triad_gbs",
 * "of_triad", "vs_cusparse", "layout_ms"}]}; a number not measured
 * (no triad, no cuSPARSE) is null. */
gboolean   ks_bench_tridiag_write_json (GPtrArray                *rows,
                                        const KsBenchTridiagSpec *spec,
                                        const char               *command,
                                        const char               *path,
                                        GError                  **error);

G_END_DECLS
