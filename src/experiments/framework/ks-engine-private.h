/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine-private.h: what ks-engine.c and ks-engine-plan.c share. */
#pragma once

#include "ks-engine.h"
#include "ks-eta.h"

G_BEGIN_DECLS

struct _KsEngine
{
  GObject       parent_instance;
  const KsExperimentDesc *desc;
  GPtrArray   **given;       /* per parameter: the axis the caller set (of GVariant), or NULL */
  char        **given_text;  /* per parameter: the text it was set from */
  GPtrArray    *devices;     /* of KsDevice */
  GPtrArray    *plans;       /* of KsEnginePlan, one per device, after prepare */
  guint         warmup, reps;
  char         *command;
  GStrv         notes;
  GStrv         warnings;   /* the notes about what the user gave (also in notes) */
  gboolean      prepared, running;
  guint64       total;
  /* Two copies of the run: work is the worker's (derived columns read
   * its earlier points), run the caller's, filled on the caller's main
   * context point by point, so that a page may read it at any time there. */
  KsRun        *run;
  KsRun        *work;
  KsEta        *eta;         /* touched only on the main context */
  gint64        started;
  GMainContext *context;     /* where "point-measured" is emitted during an async run */
  /* Per device: the last measured point's pictures (GPtrArray of KsImage)
   * or NULL; on the main context, beside run. */
  GPtrArray    *images;
  /* The front end's own files (ks-engine-files.c): KsEngineFile outputs,
   * input paths; NULL until one is added. */
  GPtrArray    *extra_outputs;
  GPtrArray    *extra_inputs;
  /* A given parameter that means nothing on a device's kind is left out
   * there rather than refused (ks_engine_set_leave_out_foreign). */
  gboolean      leave_out_foreign;
};

/* One device's points: per parameter the values it takes there (NULL
 * where it does not apply), and base, every parameter at its first value. */
typedef struct {
  KsDevice   *device;
  KsBackend   backend;
  GPtrArray **axes;
  guint       n_params;
  KsConfig   *base;
  guint64     n_points;
  GPtrArray  *left_out;   /* names of the given parameters left out here, NULL-terminated */
} KsEnginePlan;

void          ks_engine_plan_free (KsEnginePlan *plan);

/* Walks a plan's points in measuring order (the first parameter
 * outermost), skipping the repeats of a parameter that does not apply. */
typedef struct _KsEngineCursor KsEngineCursor;

KsEngineCursor *ks_engine_cursor_new  (const KsEnginePlan *plan);
gboolean        ks_engine_cursor_next (KsEngineCursor     *cursor);
/* The point (valid until the next call); its indices into the axes. */
const KsConfig *ks_engine_cursor_get  (KsEngineCursor     *cursor);
const guint    *ks_engine_cursor_get_indices (KsEngineCursor *cursor);
void            ks_engine_cursor_free (KsEngineCursor     *cursor);

/* Sets a value already checked (it came from a parsed axis), adding a
 * reference; NULL clears. */
void            ks_config_put_value  (KsConfig           *config,
                                       guint               index,
                                       GVariant           *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsEngineCursor, ks_engine_cursor_free)

G_END_DECLS
