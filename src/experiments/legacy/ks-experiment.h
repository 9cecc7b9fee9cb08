/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment.h: the engine that runs a sweep.
 *
 * An experiment is a device, a sweep (matrix sizes, and for the work-group
 * experiment a list of group sizes) and the solver's parameters.  It builds
 * the kernels once, warms up and repeats each point, keeps median, min and
 * max, and tells its listeners about each point as soon as it is measured
 * (signal "point-measured", emitted on the main context the run was started
 * from).  Cancelling keeps every point measured so far. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"
#include "ks-gauss.h"
#include "ks-results.h"

G_BEGIN_DECLS

typedef struct {
  KsExperimentKind kind;
  KsPrecision      precision;
  KsRangePolicy    range;
  KsLocalPolicy    local;    /* gauss-wg: EXPLICIT or SPLIT */
  guint            wg;       /* gauss-size with EXPLICIT or SPLIT */
  const guint     *sizes;
  guint            n_sizes;
  const guint     *wgs;      /* gauss-wg only */
  guint            n_wgs;
  guint            warmup;
  guint            reps;     /* >= 1 */
  guint32          seed;
  const char      *command;  /* recorded with the results; may be NULL */
  /* GRAPH: each point records its launches into a CUDA graph on its first
   * solve (a warm-up one when there is a warm-up) and replays it after;
   * CUDA devices only.  Last, so zero-initialised specs mean STREAM. */
  KsLaunchMode     launch;
} KsSweepSpec;

/* Parses "100:1000:1" (from:to:step), "100,200,500" or a mix like
 * "1,32:1024:32" into an ascending list without duplicates. */
GArray  *ks_parse_uint_list (const char *text,
                             guint       min,
                             guint       max,
                             GError    **error);

#define KS_TYPE_EXPERIMENT (ks_experiment_get_type ())
G_DECLARE_FINAL_TYPE (KsExperiment, ks_experiment, KS, EXPERIMENT, GObject)

/* Checks the spec (non-empty lists, reps >= 1, policies that fit the kind). */
KsExperiment    *ks_experiment_new          (KsDevice          *device,
                                             const KsSweepSpec *spec,
                                             GError           **error);
guint            ks_experiment_get_n_points_total (KsExperiment *self);
/* Valid during and after a run; the GUI reads it after "point-measured". */
const KsResults *ks_experiment_get_results  (KsExperiment      *self);

/* Runs in the calling thread; "point-measured" is emitted from it. */
gboolean         ks_experiment_run          (KsExperiment      *self,
                                             GCancellable      *cancellable,
                                             GError           **error);
void             ks_experiment_run_async    (KsExperiment       *self,
                                             GCancellable       *cancellable,
                                             GAsyncReadyCallback callback,
                                             gpointer            user_data);
gboolean         ks_experiment_run_finish   (KsExperiment      *self,
                                             GAsyncResult      *result,
                                             GError           **error);

G_END_DECLS
