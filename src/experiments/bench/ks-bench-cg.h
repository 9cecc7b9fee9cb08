/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-bench-cg.h: "bench cg": paper 004's conjugate gradients, the base
 * version as printed and the fused ("modified") one, on every OpenCL and
 * CUDA device there is, and the library CG (cuSPARSE SpMV + cuBLAS,
 * ks-cusparse-cg.h) on the CUDA ones, on the same 9-point matrices
 * (ks_csr_new_grid9: 9 entries per row, as the paper's quadrilateral mesh)
 * in one run: the time per iteration, the bytes per second by the paper's
 * Table 1 as a share of the triad bandwidth measured in the same run, and
 * each against the library. */
#pragma once

#include "ks-cg.h"
#include "ks-device-list.h"

G_BEGIN_DECLS

typedef enum {
  KS_BENCH_CG_BASE,
  KS_BENCH_CG_FUSED,
  KS_BENCH_CG_FUSED_GRAPH,  /* the fused one replayed from a CUDA graph, CUDA devices only */
  KS_BENCH_CG_LIBRARY,      /* cuSPARSE + cuBLAS, CUDA devices only */
  KS_BENCH_CG_N_METHODS
} KsBenchCgMethod;

const char *ks_bench_cg_method_to_string (KsBenchCgMethod method);

typedef struct {
  guint           rows;           /* side x side */
  guint           side;
  KsBenchCgMethod method;
  char           *device;         /* "NAME (ID)" */
  gboolean        nvidia_opencl;  /* on NVIDIA's OpenCL platform (for the OpenCL-vs-CUDA line) */
  char           *skipped;        /* why it did not run; NULL when it ran */
  gboolean        failed;         /* it could have run, but failed ("failed: ..." in skipped) */
  guint           iterations;     /* of the last solve */
  double          iteration_ms;   /* median over the solves of their loop's wall time / iterations */
  double          residual;       /* ||b - A x|| / ||b|| of the last solve, on the host */
  double          bytes_per_row;  /* the paper's Table 1 (the library counted as the base version) */
  double          gbs;            /* bytes_per_row * rows / iteration_ms */
  double          triad_gbs;      /* the device's triad bandwidth measured in this run; 0: none */
  double          of_triad;       /* gbs / triad_gbs; 0: no triad */
  double          vs_library;     /* the library's iteration_ms on the same device / this one's
                                   * (> 1: faster than the library); 0: no library row */
} KsBenchCgRow;

/* 9 entries per row must fit 32-bit indices. */
#define KS_BENCH_CG_MAX_ROWS (G_MAXINT32 / 9u)

typedef struct {
  KsPrecision  precision;
  const guint *sizes;     /* rows asked for; each is made a square grid, side = round (sqrt) */
  guint        n_sizes;
  double       tol;       /* ||r|| <= tol ||b|| */
  guint        warmup;
  guint        reps;
  KsDevice   **only;      /* these devices alone (n_only of them); NULL: every OpenCL and CUDA device */
  guint        n_only;
} KsBenchCgSpec;

/* Every method on every size and device: a triad probe first on each
 * device; a method that cannot run gives a row with the reason.  Rows:
 * size by size, devices in list order, methods in order.  NULL with error
 * only when a size is out of range. */
GPtrArray *ks_bench_cg            (KsDeviceList        *list,
                                   const KsBenchCgSpec *spec,
                                   GError             **error);
void       ks_bench_cg_row_free   (KsBenchCgRow        *row);
gboolean   ks_bench_cg_write_csv  (GPtrArray           *rows,
                                   const char          *path,
                                   GError             **error);
gboolean   ks_bench_cg_write_json (GPtrArray           *rows,
                                   const KsBenchCgSpec *spec,
                                   const char          *command,
                                   const char          *path,
                                   GError             **error);

G_END_DECLS
