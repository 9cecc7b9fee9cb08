/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-roofline.h: every point of any loaded run against its device's floor.
 *
 * A description says what each point cost (KsExperimentDesc.work: bytes
 * moved, operations done, seconds taken); the roofline places the point at
 * its arithmetic intensity (operations per byte) and rate (operations per
 * second), and derives its fraction of the floor: the least time the
 * device could take, the bytes over the device's measured triad bandwidth
 * (or the operations over its peak where that is known and is the larger),
 * over the time it took.  The triad is the one measured on that device: the
 * run's own where it recorded one (the engine records the device's
 * measured bandwidth in every run), else one another loaded run recorded
 * for a device of the same name and backend, else a probe made here
 * (ks_roofline_set_triad).  The peak compute comes from a run's
 * "peak_gflops" where one is recorded; nothing here guesses it.  No
 * profiler is involved, so it works for PoCL and the host as for a GPU,
 * and runs of several devices, recorded or this session's, share one
 * plot. */
#pragma once

#include "ks-run.h"

G_BEGIN_DECLS

typedef enum {
  KS_BOUND_UNKNOWN,   /* no triad for the device: the floor is not known */
  KS_BOUND_MEMORY,    /* the bandwidth line is the lower roof at the point's intensity */
  KS_BOUND_COMPUTE,   /* the peak is */
} KsBound;

typedef struct {
  KsWork  work;
  double  intensity;       /* operations per byte */
  double  gbs;             /* bytes per second, in billions */
  double  gops;            /* operations per second, in billions */
  double  triad_gbs;       /* the device's triad; NAN: none measured */
  double  peak_gops;       /* the device's peak; NAN: unknown */
  /* The floor's time over the time taken (1: on the roof); NAN without a
   * triad. */
  double  floor_fraction;
  KsBound bound;
} KsRoofPoint;

/* The point's place against a device of triad_gbs and peak_gops (either
 * NAN where unknown): FALSE where the description cannot say what the
 * point cost (no work hook, a refused point, no time). */
gboolean ks_roofline_derive (const KsRun      *run,
                             const KsRunPoint *point,
                             double            triad_gbs,
                             double            peak_gops,
                             KsRoofPoint      *out);
/* "memory-bound, 52 % of triad" or "no triad measured on this device". */
char    *ks_roofline_bound_text (const KsRoofPoint *rp);

typedef struct _KsRoofline KsRoofline;

KsRoofline *ks_roofline_new          (void);
void        ks_roofline_free         (KsRoofline  *self);
/* Learns the triads run's devices recorded (any run: a heat run tells the
 * triad a tridiagonal run of the same device did not record). */
void        ks_roofline_learn        (KsRoofline  *self,
                                      const KsRun *run);
/* Learns run's triads and draws its points (a run whose description has
 * no work hook draws nothing and returns FALSE).  label: what the run is
 * called in the legend ("recorded"), NULL for nothing. */
gboolean    ks_roofline_add_run      (KsRoofline  *self,
                                      KsRun       *run,
                                      const char  *label);
/* A triad measured here for the device of that name and backend. */
void        ks_roofline_set_triad    (KsRoofline  *self,
                                      const char  *name,
                                      const char  *backend,
                                      double       gbs);
/* The triad known for that device, NAN where none is. */
double      ks_roofline_get_triad    (KsRoofline  *self,
                                      const char  *name,
                                      const char  *backend);
/* The devices of the added runs with no triad known, each once: of
 * const KsRunDevice * (owned by the runs, valid while self holds them). */
GPtrArray  *ks_roofline_missing_triads (KsRoofline *self);
/* Points drawn, over every run. */
guint       ks_roofline_count_points (KsRoofline  *self);
/* The plot: one series of points per experiment and device, each
 * device's triad line (and peak, where known) beside them. */
KsPlot     *ks_roofline_plot_new     (KsRoofline  *self);
/* The tooltip of a point of ks_roofline_plot_new's plot (plain text: its
 * name, device, rates and bound), or NULL for a line. */
char       *ks_roofline_point_text   (KsRoofline  *self,
                                      guint        series,
                                      guint        index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRoofline, ks_roofline_free)

G_END_DECLS
