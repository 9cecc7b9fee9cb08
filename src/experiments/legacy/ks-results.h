/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-results.h: what an experiment measured, point by point, with enough
 * context (device, driver, date, parameters, the paper's prediction) to be
 * read on its own; written to CSV and JSON, and read back from JSON. */
#pragma once

#include <glib.h>

#include "ks-gauss.h"

G_BEGIN_DECLS

#define KS_RESULTS_ERROR (ks_results_error_quark ())
GQuark ks_results_error_quark (void);

typedef enum {
  KS_RESULTS_ERROR_IO,
  KS_RESULTS_ERROR_PARSE,   /* a damaged or foreign JSON file */
} KsResultsError;

typedef enum {
  KS_EXPERIMENT_GAUSS_SIZE,  /* time vs matrix size (paper's Fig. 2) */
  KS_EXPERIMENT_GAUSS_WG,    /* time vs work-group size, one curve per size (Figs. 3-6) */
} KsExperimentKind;

const char *ks_experiment_kind_to_string   (KsExperimentKind kind);
gboolean    ks_experiment_kind_from_string (const char *s, KsExperimentKind *out);

typedef struct {
  guint         n;
  guint         wg;          /* 0 under DRIVER */
  KsLocalPolicy local;
  gboolean      n1_prime;    /* N + 1 is prime: the paper's outliers */
  guint         reps;
  double        median_ms;   /* wall time of the whole solve */
  double        min_ms;
  double        max_ms;
  double        kernels_ms;  /* median of the summed device time of all launches */
  double        kernel_ms[KS_GAUSS_N_KERNELS];  /* median per kernel */
  double        residual;    /* worst over the repetitions */
  guint         launches;
  guint         fwd_local[2];   /* the update kernel's work-group at step 0 */
  guint         fwd_groups[2];
  /* Under GRAPH: recording + instantiating the point's graph, once, kept
   * out of the times above; kernel_ms[] are 0 there (unknown: a graph's
   * kernels cannot be timed one by one) and kernels_ms is the replay's. */
  double        capture_ms;
  char         *error;       /* non-NULL: this point could not be measured, and why */
} KsPoint;

typedef struct {
  KsExperimentKind kind;
  char          *device_id;
  char          *device_name;
  char          *platform;
  char          *driver;
  char          *date;        /* ISO 8601, UTC */
  char          *command;     /* how to reproduce, when known */
  KsPrecision    precision;
  KsRangePolicy  range;
  KsLocalPolicy  local;
  guint          wg;
  KsLaunchMode   launch;      /* files from before graph mode have none: STREAM */
  guint          warmup;
  guint          reps;
  guint32        seed;
  /* The paper's rule on this device (0 = inputs unknown). */
  guint          pwgsm;
  guint          cores_per_cu;
  guint          compute_units;
  guint64        ogs_predicted;
  guint64        ogs_usable;
  gboolean       complete;    /* FALSE when cancelled or stopped by an error */
  char          *stop_reason;
  GPtrArray     *points;      /* of KsPoint */
} KsResults;

KsResults *ks_results_new        (KsExperimentKind kind);
void       ks_results_free       (KsResults  *results);
KsPoint   *ks_point_new          (void);
void       ks_point_free         (KsPoint    *point);
/* Appends a copy. */
void       ks_results_add_point  (KsResults  *results,
                                  const KsPoint *point);
/* The point of size n with the lowest median time (WG sweeps); NULL if none. */
const KsPoint *ks_results_best_for_n (const KsResults *results,
                                      guint            n);
/* The distinct sizes measured, in order. */
GArray    *ks_results_get_sizes  (const KsResults *results);

gboolean   ks_results_write_csv  (const KsResults *results,
                                  const char      *path,
                                  GError         **error);
char      *ks_results_to_json    (const KsResults *results);
KsResults *ks_results_from_json  (const char      *data,
                                  gssize           length,
                                  GError         **error);
/* Results files are a few MiB; a reader refuses more than this, and what
 * is not a regular file (a FIFO, /dev/zero), before reading. */
#define KS_RESULTS_MAX_FILE_SIZE (256 * 1024 * 1024)

KsResults *ks_results_load_json  (const char      *path,
                                  GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsResults, ks_results_free)

G_END_DECLS
