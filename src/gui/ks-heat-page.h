/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page.h: paper 004's heat problem, animated: the mesh coloured by
 * temperature as the implicit solver steps on the window's device (a worker
 * thread steps, the main loop draws the newest frame), with play, pause,
 * single step and reset, the mesh (generated or a Gmsh file), n and the
 * time step, and a small plot of the time per step. */
#pragma once

#include "ks-page.h"

G_BEGIN_DECLS

#define KS_TYPE_HEAT_PAGE (ks_heat_page_get_type ())
G_DECLARE_FINAL_TYPE (KsHeatPage, ks_heat_page, KS, HEAT_PAGE, KsPage)

/* The form, as a user would set it (each change rebuilds the problem). */
void     ks_heat_page_set_mesh    (KsHeatPage *self,
                                   const char *kind,
                                   const char *domain,
                                   guint       cells);
/* A .msh or .geo file instead of the generated mesh; NULL: back to it. */
void     ks_heat_page_set_file    (KsHeatPage *self,
                                   const char *path);
/* The problem's D0, released energy and CG tolerance (one the page offers:
 * 1e-4 ... 1e-12), as in the form. */
void     ks_heat_page_set_problem (KsHeatPage *self,
                                   double      d0,
                                   double      energy,
                                   double      tol);
/* A boundary group's condition (fixed at t, or insulated), kept by name
 * for every mesh that has such a group, as the group's row sets it. */
void     ks_heat_page_set_group_boundary (KsHeatPage *self,
                                          const char *group,
                                          gboolean    fixed,
                                          double      t);
/* Recording (the Record button, "Stop recording" while it records):
 * every step from now on is drawn (the solver waits for the window) and
 * goes, written on a thread of its own, into the clip at path in the
 * format its name ends in (.webm, .mp4: GStreamer; .gif, or any other
 * name: giflib; where this machine lacks the format the error bar says so
 * and only the PNGs are kept) and as frame-STEP.png into the folder path
 * less its extension plus "-frames", all at the colour scale of the first
 * frame (or the fixed one); stop finishes the clip, which replaces path
 * only then, and the page says where it went.  A reset or a new problem
 * ends the recording before the jump back to step 0. */
gboolean ks_heat_page_start_recording (KsHeatPage *self,
                                       const char *path,
                                       GError    **error);
gboolean ks_heat_page_stop_recording  (KsHeatPage *self,
                                       GError    **error);
guint    ks_heat_page_get_recorded_frames (KsHeatPage *self);
gboolean ks_heat_page_get_recording       (KsHeatPage *self);
/* For the tests: the message bar's text (where the last clip went), or
 * NULL while it is hidden; the colour scale of the frame shown (NAN, NAN:
 * each frame's own). */
const char *ks_heat_page_get_message      (KsHeatPage *self);
void     ks_heat_page_get_color_range     (KsHeatPage *self,
                                           double     *min,
                                           double     *max);
/* The mesh's edges drawn over the colours (the Mesh edges check). */
void     ks_heat_page_set_edges           (KsHeatPage *self,
                                           gboolean    show);
gboolean ks_heat_page_get_edges           (KsHeatPage *self);
/* For the tests: the time plot (time per step, the one-off kernel build
 * left out), and the notes the mesh's reading gave (NULL: none). */
KsPlot  *ks_heat_page_get_time_plot       (KsHeatPage *self);
const char *ks_heat_page_get_notes        (KsHeatPage *self);
/* Play / pause, one step, reset: the page's buttons. */
void     ks_heat_page_set_playing (KsHeatPage *self,
                                   gboolean    playing);
void     ks_heat_page_step        (KsHeatPage *self);
void     ks_heat_page_reset       (KsHeatPage *self);

/* Paper 004's hybrid: the device and the host's cores split the cells at
 * lambda (on or off, and a new lambda, between two steps: the step, the
 * play state and the time series go on), as the page's check box and
 * slider do. */
void     ks_heat_page_set_hybrid  (KsHeatPage *self,
                                   gboolean    on,
                                   double      lambda);
/* For the tests: the split drawn (FALSE: none), cells on each part; the
 * legend under the mesh (NULL: no split); lambda_b (NAN: not measured). */
gboolean ks_heat_page_get_split   (KsHeatPage *self,
                                   guint64    *device_cells,
                                   guint64    *cpu_cells);
const char *ks_heat_page_get_legend (KsHeatPage *self);
double   ks_heat_page_get_lambda_b (KsHeatPage *self);
/* For the tests: the lambda of the least time per CG iteration measured
 * on this mesh and device (the slider's "measured best" mark), and that
 * time in *iter_s; NAN: none yet. */
double   ks_heat_page_get_best_lambda (KsHeatPage *self,
                                       double     *iter_s);
/* For the tests: the last step drawn (0: the initial state, or nothing yet). */
guint ks_heat_page_get_shown_step (KsHeatPage *self);
/* Whether a problem is built and shown. */
gboolean ks_heat_page_is_ready    (KsHeatPage *self);

G_END_DECLS
