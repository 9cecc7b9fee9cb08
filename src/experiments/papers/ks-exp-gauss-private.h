/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-gauss-private.h: one device's points of a Gauss run read once
 * into plain numbers, for the words (ks-exp-gauss-words.c) and the
 * verdicts (ks-exp-gauss-verdict.c): a view of the KsRun, nothing kept
 * or written of its own. */
#pragma once

#include "ks-exp-gauss.h"
#include "ks-gauss.h"

G_BEGIN_DECLS

typedef struct {
  guint         n;
  guint         wg;          /* 0 where the driver chose */
  KsLocalPolicy local;
  gboolean      n1_prime;
  double        time_ms;     /* the median solve */
  guint         fwd_local[2];   /* the update kernel's work-group at step 0 */
  guint         fwd_groups[2];
  const char   *error;       /* the run's: non-NULL where not measured */
} KsGaussPoint;

typedef struct {
  GArray        *points;     /* of KsGaussPoint, in the run's order */
  KsLocalPolicy  local;      /* the first point's */
  KsLaunchMode   launch;
  gboolean       wg_sweep;   /* gauss-wg */
  /* The paper's rule on the device (0 where unknown). */
  guint          pwgsm, cores_per_cu, compute_units;
  guint64        ogs_predicted, ogs_usable;
} KsGaussSweep;

/* One point of a Gauss run (run->desc is gauss-size or gauss-wg). */
void                ks_exp_gauss_read_point   (const KsRun        *run,
                                               const KsRunPoint   *point,
                                               KsGaussPoint       *out);
/* FALSE where run is no Gauss run or device is not one of its devices. */
gboolean            ks_exp_gauss_sweep_init   (KsGaussSweep       *sweep,
                                               const KsRun        *run,
                                               guint               device);
void                ks_exp_gauss_sweep_clear  (KsGaussSweep       *sweep);
/* The distinct sizes measured, in order of first appearance. */
GArray             *ks_exp_gauss_sweep_sizes  (const KsGaussSweep *sweep);
/* The measured point of size n with the lowest time; NULL if none. */
const KsGaussPoint *ks_exp_gauss_sweep_best   (const KsGaussSweep *sweep,
                                               guint               n);
/* How much slower point i (N+1 prime) is than the nearest measured points
 * on either side whose N+1 is not prime; FALSE where there are none. */
gboolean            ks_exp_gauss_neighbour_ratio (const KsGaussSweep *sweep,
                                                  guint               i,
                                                  double             *ratio);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KsGaussSweep, ks_exp_gauss_sweep_clear)

G_END_DECLS
