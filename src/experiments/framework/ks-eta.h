/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-eta.h: how much of a sweep's time is done, from the points measured
 * so far, for the progress bar and "about 3 min left".
 *
 * Points are far from equally costly: a size sweep's last point is the
 * dearest, and in a group-size sweep groups of one item can cost a hundred
 * times the others.  The estimate predicts each remaining point from the
 * measured ones: from the newest five points with the same group size (or
 * the newest five at all), each scaled by (n / n_measured)^p, taking the
 * median, so that one outlier (a prime N+1 run in groups of one item)
 * does not inflate every prediction after it; p is fitted to
 * the measurements (between 1, a launch-bound solve, and 3, Gauss
 * elimination's arithmetic); 3 until there is anything to fit.  A point's
 * cost is its whole time (the engine's clock around it: building its
 * kernels, making its systems, warm-up and repetitions); the clock
 * between points converts costs to seconds, so a slow start (building the
 * kernels) and the work around the points count at their real weight.
 * A point's one-off kernel build is scaled with the rest of its cost:
 * the exponent an experiment declares (ks_eta_set_exponent; most are
 * linear) keeps that from turning one second into hours. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _KsEta KsEta;

void    ks_eta_free            (KsEta             *eta);
/* Any experiment's plan (ks-engine.c): n_points in measuring order, each
 * with its size (what its cost grows with; 1 where nothing does) and its
 * group (a combination of the other parameters: points of one group cost
 * alike at one size), below n_groups. */
KsEta  *ks_eta_new_plan        (guint              n_points,
                                const double      *size,
                                const guint       *group,
                                guint              n_groups);
/* The exponent p (cost ~ size^p) to predict with until the sizes
 * measured are far enough apart to fit it (default 3), in 1 .. 3: with
 * 3, bench tridiag's first point of thomas-split on a CPU (a second of
 * kernel build at 64 systems) predicted its point at 1024 systems at
 * 4096 seconds, and the run said "~19162 s left" for a 6 s run. */
void    ks_eta_set_exponent    (KsEta             *eta,
                                double             exponent);
/* The next point in order is done: refused, or measured at cost_ms (its
 * whole time: set-up, warm-up and repetitions). */
void    ks_eta_add_cost        (KsEta             *eta,
                                gboolean           refused,
                                double             cost_ms,
                                double             elapsed_s);
/* The predicted cost of the points not yet measured, in ms; 0 when none
 * remain, -1 before the first point. */
double  ks_eta_get_remaining_ms (KsEta            *eta);
/* Seconds until the last point, from the newest point's arrival; -1
 * before the first point. */
double  ks_eta_get_seconds_left (KsEta            *eta);
/* The share of the run's expected time that is done, 0..1 (0 before the
 * first point). */
double  ks_eta_get_fraction    (KsEta             *eta);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsEta, ks_eta_free)

G_END_DECLS
