/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run.h: what one run of any experiment measured, self-describing.
 *
 * A run is the description it ran (the experiment's id, the parameters with
 * their types and units, the swept axes, the columns with units), the
 * devices (id, name, platform, driver, and numbers the description records
 * about each), the date, the command that makes it again, the paper's own
 * numbers, and its points in the order measured: for each the device, one
 * value per parameter and one per column.  It is written as JSON (format 2,
 * read back exactly: numbers through g_ascii_dtostr, and inf / -inf / nan
 * as those strings) and as a plain CSV whose first line is the header, with
 * no comment lines (a spreadsheet or pandas.read_csv opens it as it is; the
 * context lives in the JSON).  Files of format 1 (what the Gauss pages
 * wrote before descriptions) load into the same model
 * (ks-run-json-format1.c).
 *
 * Ownership: a KsRun is reference counted.  The engine's run
 * (ks_engine_get_run) is filled on the main context the run was started
 * from, a point at a time just before "point-measured", so it may be read
 * there at any time (never from another thread); its complete and
 * stop_reason are set before run_finish's callback.  A loaded run is yours. */
#pragma once

#include <glib.h>

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

#define KS_RUN_FORMAT 2
/* The largest results file read: a run of KS_MAX_POINTS points, which the
 * engine may measure and writes, must read back (the Gauss writes ~570
 * bytes a point, the heat with long file names up to ~1,400).  The file
 * is mapped, not copied, and its points are not kept as a tree. */
#define KS_RUN_MAX_FILE_SIZE (G_GINT64_CONSTANT (2) << 30)

#define KS_RUN_ERROR (ks_run_error_quark ())
GQuark ks_run_error_quark (void);

typedef enum {
  KS_RUN_ERROR_IO,       /* cannot read or write the file */
  KS_RUN_ERROR_PARSE,    /* damaged, foreign, too deeply nested, or a field of the wrong type (named) */
  KS_RUN_ERROR_UNKNOWN,  /* an experiment this Kernelscope does not know */
} KsRunError;

struct _KsRunDevice {
  char       *id;        /* "opencl:0:0", "cuda:0", "host" */
  char       *name;      /* "NVIDIA H200" */
  char       *platform;  /* "NVIDIA CUDA", "Portable Computing Language"; may be NULL */
  char       *driver;    /* may be NULL */
  char       *backend;   /* "opencl", "cuda", "host" */
  /* Numbers the description records about the device (the Gauss: pwgsm,
   * cores_per_cu, compute_units, ogs_predicted, ogs_usable); char * ->
   * double *.  Read with ks_run_device_get_info (). */
  GHashTable *info;
};

/* The arrays live in the point's own allocation (ks_run_point_new): fill
 * them, never replace them. */
struct _KsRunPoint {
  guint      device;     /* index into run->devices */
  GVariant **params;     /* one per desc->params; NULL where the parameter does not apply */
  double    *values;     /* one per desc->columns; NAN where unknown */
  double    *lo, *hi;    /* one per column: min and max of a MEDIAN_RANGE column; NAN elsewhere */
  guint      reps;       /* the repetitions behind the values */
  char      *error;      /* non-NULL: this point was refused, and why; its values are NAN */
  /* private */
  guint      n_params, n_columns;
};

struct _KsRun {
  const KsExperimentDesc *desc;
  char       *date;        /* ISO 8601, UTC, when the run started */
  char       *command;     /* the command line that makes it again, when known */
  guint       warmup, reps;
  /* What the user asked for, parameter name -> the text as given
   * ("n" -> "20:32", "precision" -> "float"); defaults included. */
  GHashTable *settings;
  GStrv       axes;        /* the swept parameters (more than one value), outermost first */
  GPtrArray  *devices;     /* of KsRunDevice, in the order run */
  GPtrArray  *points;      /* of KsRunPoint, in the order measured */
  guint64     n_planned;   /* the points the run meant to measure */
  gboolean    complete;    /* FALSE when cancelled or stopped by an error */
  char       *stop_reason; /* why it is incomplete; NULL when complete */
  /* private */
  gatomicrefcount ref_count;
};

KsRun       *ks_run_new             (const KsExperimentDesc *desc);
KsRun       *ks_run_ref             (KsRun       *run);
void         ks_run_unref           (KsRun       *run);

/* A device entry filled from device (id, name, platform, driver, backend);
 * returns its index. */
guint        ks_run_add_device      (KsRun       *run,
                                     KsDevice    *device);
KsRunDevice *ks_run_device_new      (void);
void         ks_run_device_free     (KsRunDevice *device);
void         ks_run_device_set_info (KsRunDevice *device,
                                     const char  *name,
                                     double       value);
/* NAN when the device has no such number. */
double       ks_run_device_get_info (const KsRunDevice *device,
                                     const char  *name);
/* Sets every number of from on to. */
void         ks_run_device_copy_info (KsRunDevice       *to,
                                      const KsRunDevice *from);

/* A point with no values yet (params NULL, values NAN) sized for run's
 * description; ks_run_add_point takes it. */
KsRunPoint  *ks_run_point_new       (const KsRun *run);
void         ks_run_point_free      (KsRunPoint  *point);
KsRunPoint  *ks_run_point_copy      (const KsRunPoint *point);
void         ks_run_add_point       (KsRun       *run,
                                     KsRunPoint  *point);
/* Computes the derived columns of point (in column order). */
void         ks_run_derive          (const KsRun *run,
                                     KsRunPoint  *point);
/* Computes them again for every measured point, now that the run holds
 * all of them: a baseline measured after the points that need it. */
void         ks_run_derive_all      (KsRun       *run);

/* A parameter's or a column's value at point as a number (INT, REAL and
 * BOOL parameters and every column; a CHOICE its index among the choices);
 * NAN where it has none. */
/* A CHOICE parameter's value at point as its KsChoice.id, the parameter
 * given by its index in run->desc->params; -1 where it has none. */
int          ks_run_point_choice     (const KsRun      *run,
                                      const KsRunPoint *point,
                                      guint             param);
double       ks_run_point_get_number (const KsRun      *run,
                                      const KsRunPoint *point,
                                      const char       *name);
/* A parameter's value (NULL where it does not apply). */
GVariant    *ks_run_point_get_param  (const KsRun      *run,
                                      const KsRunPoint *point,
                                      const char       *name);
/* Does point have the parameter values of where ("n=1000 wg=192", the
 * format of KsPaperValue.where; "" matches every point)? */
gboolean     ks_run_point_matches    (const KsRun      *run,
                                      const KsRunPoint *point,
                                      const char       *where);
/* What this run measured for a paper's number on device: the value of its
 * column at the first measured point that matches its where, or the
 * device's information of that name; NAN when the run has none. */
double       ks_run_measured_for     (const KsRun        *run,
                                      const KsPaperValue *paper,
                                      guint               device);
/* Points measured (not refused). */
guint        ks_run_count_measured   (const KsRun *run);

char        *ks_run_to_json         (const KsRun *run);
/* Atomically replaces path (ks_io_write_file: never a link, a device or a read-only file). */
gboolean     ks_run_write_json      (const KsRun *run,
                                     const char  *path,
                                     GError     **error);
/* The header is device, then each parameter, then each column (MEDIAN_RANGE
 * ones followed by NAME_min and NAME_max), then error.  Atomically. */
char        *ks_run_to_csv          (const KsRun *run);
gboolean     ks_run_write_csv       (const KsRun *run,
                                     const char  *path,
                                     GError     **error);
/* Reads format 2 (and format 1, ks-run-json-format1.c);
 * the experiment is looked up in the registry.  Refuses nesting deeper
 * than a results file has before json-glib sees it. */
KsRun       *ks_run_from_json       (const char  *data,
                                     gssize       length,
                                     GError     **error);
KsRun       *ks_run_load_json       (const char  *path,
                                     GError     **error);
/* v in the fewest digits that read back as exactly v (g_ascii_strtod),
 * locale-independent; buf must hold G_ASCII_DTOSTR_BUF_SIZE bytes.  The
 * files write every number this way. */
const char  *ks_run_format_double   (char        *buf,
                                     double       v);
/* "NVIDIA H200 (CUDA)": the devices of the run ("A (x) + B (y)"), for
 * legends; a names_run switch that is on stands for the backend ("NVIDIA
 * H200 (CUDA graph)"). */
char        *ks_run_get_name        (const KsRun *run);
/* How a device's backend reads in a name: "CUDA", "NVIDIA OpenCL", the
 * OpenCL platform, or "host". */
const char  *ks_run_device_get_backend_label (const KsRunDevice *d);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRun, ks_run_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRunPoint, ks_run_point_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRunDevice, ks_run_device_free)

G_END_DECLS
