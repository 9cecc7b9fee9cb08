/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine.h: one engine for every experiment description.
 *
 * Set the parameters (a value, or for a sweepable one an axis such as
 * "5000:40000:5000", "2^10:2^20", "driver,split"), add one or more devices,
 * the warm-up and the repetitions, then run: the engine measures the
 * cartesian product of the axes (the first parameter outermost; a
 * parameter that does not apply at a point, by its condition or the
 * device's backend, is not swept there) on each device in turn, each device
 * a series of the same figures.  Each point: prepare, warm-up, repetitions,
 * reduction (median, min, max, ...), derived columns; a point the device
 * refuses is recorded with its reason and the sweep goes on; cancelling
 * keeps every point measured.  "point-measured" is emitted on the main
 * context the run was started from, with the time-left estimate updated.
 *
 * Everything that can be checked is checked by ks_engine_prepare () before
 * the first measurement: values, files, the devices (the description's
 * check), the defaults that depend on the device (said out loud in the
 * notes), and the number of points, counted in 64 bits and refused above
 * KS_MAX_POINTS before anything is allocated. */
#pragma once

#include <gio/gio.h>

#include "ks-experiment-desc.h"
#include "ks-run.h"

G_BEGIN_DECLS

#define KS_TYPE_ENGINE (ks_engine_get_type ())
G_DECLARE_FINAL_TYPE (KsEngine, ks_engine, KS, ENGINE, GObject)

KsEngine   *ks_engine_new            (const KsExperimentDesc *desc);
const KsExperimentDesc *ks_engine_get_desc (KsEngine *self);

/* text as on the CLI; an axis for a sweepable parameter.  Parsed and
 * checked now (KS_EXPERIMENT_ERROR_INVALID / _UNKNOWN / _TOO_LARGE). */
gboolean    ks_engine_set            (KsEngine    *self,
                                      const char  *name,
                                      const char  *text,
                                      GError     **error);
/* The same with the values already made (the CLI's --from/--to/--step,
 * the form's widgets): axis holds GVariants of the param-th parameter's
 * type (owned by the array, as ks_param_parse_axis gives), one unless it is sweepable, each checked
 * as text would be; taken as it is, in its order, with no text between.
 * The run's settings record it as ks_param_axis_to_string writes it. */
gboolean    ks_engine_set_axis       (KsEngine    *self,
                                      guint        param,
                                      GPtrArray   *axis,
                                      GError     **error);
/* Was name set with ks_engine_set (not left to its default)? */
gboolean    ks_engine_is_set         (KsEngine    *self,
                                      const char  *name);
void        ks_engine_add_device     (KsEngine    *self,
                                      KsDevice    *device);
/* warmup <= KS_MAX_WARMUP, 1 <= reps <= KS_MAX_REPS. */
gboolean    ks_engine_set_repetitions (KsEngine   *self,
                                       guint       warmup,
                                       guint       reps,
                                       GError    **error);
/* Recorded with the results as the way to make them again. */
void        ks_engine_set_command    (KsEngine    *self,
                                      const char  *command);

/* Files the front end writes besides the description's outputs (--csv,
 * --json, --plot; names: a folder's files as glob patterns, NULL for a
 * file), and files it reads (--overlay): ks_engine_check_files checks them
 * with the parameters'.  option names the file in messages ("--csv"). */
void        ks_engine_add_output     (KsEngine           *self,
                                      const char         *option,
                                      const char         *path,
                                      const char * const *names);
void        ks_engine_add_input      (KsEngine           *self,
                                      const char         *path);
/* Every output (the description's output parameters and those added)
 * checked against every input (its FILE parameters and those added) and
 * against each other (ks_io_check_outputs: no link, device or read-only
 * file replaced, no input overwritten, no file written twice);
 * KS_EXPERIMENT_ERROR_INVALID.  Called by ks_engine_prepare; a front end
 * may call it first to refuse before any device opens. */
gboolean    ks_engine_check_files    (KsEngine           *self,
                                      GError            **error);

/* Several devices of different kinds (the host beside a GPU) each take
 * the given parameters that mean something on them: one whose backends
 * leave a device out is left out there (ks_engine_get_left_out says
 * which) where another of the run's devices takes it, with a warning
 * that says so; one no device takes is refused.  leave_out (the window's
 * "Also run on", whose form holds the header bar's device's values):
 * left out wherever it means nothing, without the warning, which the
 * front end gives in its own words. */
void        ks_engine_set_leave_out_foreign (KsEngine *self,
                                             gboolean  leave_out);
/* After prepare: the names of the given parameters left out on the
 * index-th device (in the order added), NULL-terminated, maybe empty;
 * NULL past the last device. */
const char * const *ks_engine_get_left_out (KsEngine *self,
                                            guint     index);
/* The index-th device added (not owned), NULL past the last. */
KsDevice   *ks_engine_get_device     (KsEngine    *self,
                                      guint        index);

/* Checks everything before the first measurement (see above).  Called by
 * ks_engine_run* when the caller did not; calling it first lets a front
 * end show the notes and the point count before anything runs. */
gboolean    ks_engine_prepare        (KsEngine    *self,
                                      GError     **error);
/* What the engine picked for the user, and why ("wg: 192, the paper's
 * predicted optimum for this device"), after prepare. */
const char * const *ks_engine_get_notes (KsEngine *self);
/* Those of the notes that are about what the user gave ("--wg is not
 * used: ..."): a front end shows them even when it hides the others. */
const char * const *ks_engine_get_warnings (KsEngine *self);
/* After prepare: every device's points together. */
guint64     ks_engine_get_n_points   (KsEngine    *self);

/* The run being filled, on the caller's main context (see ks-run.h):
 * devices and settings from the start, each point as it is measured. */
KsRun      *ks_engine_get_run        (KsEngine    *self);

/* Runs in the calling thread; "point-measured" is emitted from it. */
gboolean    ks_engine_run            (KsEngine            *self,
                                      GCancellable        *cancellable,
                                      GError             **error);
/* Runs on a worker thread; "point-measured" arrives on the thread-default
 * main context of the caller. */
void        ks_engine_run_async      (KsEngine            *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
/* FALSE with the reason when stopped (cancelled: G_IO_ERROR_CANCELLED) or
 * when the run ended without one measured point (KS_EXPERIMENT_ERROR_NOTHING):
 * a caller must then replace no existing output. */
gboolean    ks_engine_run_finish     (KsEngine            *self,
                                      GAsyncResult        *result,
                                      GError             **error);

/* The time-left estimate (ks-eta.c), valid in a "point-measured" handler:
 * seconds until the last point (-1: no estimate yet), and the share done. */
double      ks_engine_get_seconds_left (KsEngine *self);
double      ks_engine_get_fraction     (KsEngine *self);

/* The pictures of device's last measured point (a GPtrArray of KsImage,
 * ks-image.h; take a reference to keep them), made by the description's
 * images hook; NULL where it has none or nothing was measured there yet.
 * On the main context, as the run: in a "point-measured" handler it holds
 * that point's. */
GPtrArray  *ks_engine_get_images       (KsEngine *self,
                                        guint     device);

/* Signal "point-measured" (const KsRunPoint *point, guint64 done, guint64 total):
 * the point belongs to the run and lives as long as it. */

G_END_DECLS
