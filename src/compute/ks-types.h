/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-types.h: the words every solver and experiment shares about how work
 * runs on a device (precision, local-size policy, launch mode), with their
 * names on the command line and in result files.  They lived in ks-gauss.h
 * while Gauss was the only solver; the tridiagonal, CG and micro-benchmark
 * solvers speak them too. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  KS_PRECISION_FLOAT,
  KS_PRECISION_DOUBLE,
} KsPrecision;

typedef enum {
  KS_LOCAL_DRIVER,     /* local size NULL: the driver chooses */
  KS_LOCAL_EXPLICIT,   /* the user's group size; the range is padded up to a multiple of it */
  KS_LOCAL_SPLIT,      /* a multiple of the group size, plus a launch for the remainder */
} KsLocalPolicy;

/* How a solve issues its launches.  GRAPH: on a CUDA device the first solve
 * of a given shape records the whole sequence into a CUDA graph
 * (KsGraphCache); later solves replay it with one call.  OpenCL has no
 * graphs and the host launches nothing: there GRAPH is
 * KS_COMPUTE_ERROR_UNSUPPORTED. */
typedef enum {
  KS_LAUNCH_STREAM,    /* one launch per kernel per step, on the in-order queue */
  KS_LAUNCH_GRAPH,
  /* Several steps per launch: Gauss's blocked kernels (ks-gauss-blocked.h),
   * 32 columns a launch, on any OpenCL or CUDA device. */
  KS_LAUNCH_BLOCKED,
} KsLaunchMode;

const char *ks_precision_to_string    (KsPrecision    precision);
const char *ks_local_policy_to_string (KsLocalPolicy  local);
const char *ks_launch_mode_to_string  (KsLaunchMode   launch);
gboolean    ks_precision_from_string    (const char *s, KsPrecision   *out);
gboolean    ks_local_policy_from_string (const char *s, KsLocalPolicy *out);
gboolean    ks_launch_mode_from_string  (const char *s, KsLaunchMode  *out);

/* sizeof (float) or sizeof (double). */
gsize       ks_precision_size           (KsPrecision    precision);

G_END_DECLS
