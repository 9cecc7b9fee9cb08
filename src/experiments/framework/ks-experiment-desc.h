/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-desc.h: an experiment declared once, as data.
 *
 * A description says what a user can set (typed parameters with units,
 * limits, help and which of them can be swept), what is measured (columns
 * with units and how repetitions reduce, and columns derived from others),
 * what figures it draws, the paper's own numbers, and the functions that set
 * up, measure one repetition and tear down.  Everything else comes from it:
 * the engine runs the cartesian product of the swept parameters
 * (ks-engine.h), the results are self-describing JSON and plain CSV
 * (ks-run.h), the CLI's "run ID" options and --help, the GUI's generic page
 * (its form, table columns, tooltips, help text and saved settings), and the
 * figures (ks-figure.h).  Learnt from nvbench's typed axes and summaries and
 * Kernel Tuner's tune_params.
 *
 * Ownership: descriptions are static const data in one file per experiment
 * family (src/experiments/papers/ks-exp-gauss.c), registered in ks-registry.c; they
 * live as long as the program and nothing frees them.  Strings marked N_()
 * are translated where they are shown (_() on the field), never stored
 * translated; names (ids, parameter and column names, choice values) are
 * never translated: they are the CLI's options and the files' keys. */
#pragma once

#include <gio/gio.h>

#include "ks-access.h"
#include "ks-device.h"
#include "ks-plot.h"

G_BEGIN_DECLS

#define KS_EXPERIMENT_ERROR (ks_experiment_error_quark ())
GQuark ks_experiment_error_quark (void);

typedef enum {
  KS_EXPERIMENT_ERROR_INVALID,    /* a value or sweep the description refuses (type, limits, choices) */
  KS_EXPERIMENT_ERROR_REFUSED,    /* this one point cannot be measured here; the sweep goes on */
  KS_EXPERIMENT_ERROR_TOO_LARGE,  /* more points or repetitions than a run may hold */
  KS_EXPERIMENT_ERROR_UNKNOWN,    /* no experiment, parameter or column of that name */
  KS_EXPERIMENT_ERROR_NOTHING,    /* the run ended without a single measured point */
} KsExperimentError;

typedef struct _KsExperimentDesc KsExperimentDesc;
typedef struct _KsConfig         KsConfig;     /* one value per parameter: a point (below) */
typedef struct _KsRun            KsRun;        /* ks-run.h */
typedef struct _KsRunPoint       KsRunPoint;   /* ks-run.h */
typedef struct _KsRunDevice      KsRunDevice;  /* ks-run.h */
typedef struct _KsVerdict        KsVerdict;    /* ks-verdict.h */

/* The limits a run is held to, so that a typo cannot allocate gigabytes or
 * run for a year; refused with the reason before anything is allocated. */
#define KS_MAX_POINTS      1000000   /* points of one run, every device together */
#define KS_MAX_AXIS_VALUES 1000000   /* values one parameter may sweep */
#define KS_MAX_REPS        10000     /* timed repetitions of one point */
#define KS_MAX_WARMUP      1000      /* untimed warm-up repetitions of one point */

/* --- parameters ------------------------------------------------------------ */

typedef enum {
  KS_PARAM_INT,     /* gint64 in [min, max]; swept as lists 1,2,5, ranges a:b[:step], powers 2^a:2^b */
  KS_PARAM_REAL,    /* double in [min, max]; swept as lists and ranges a:b:step */
  KS_PARAM_CHOICE,  /* one of choices[].value; swept as a list driver,split */
  KS_PARAM_BOOL,    /* true or false; on the CLI a flag --name when the default is false
                     * and it is not sweepable, else --name true|false[,...] */
  KS_PARAM_TEXT,    /* free text */
  KS_PARAM_FILE,    /* a path to a regular file, checked before the first measurement */
} KsParamType;

/* The GVariant type of each parameter type's values: INT "x", REAL "d",
 * BOOL "b", CHOICE/TEXT/FILE "s". */
const GVariantType *ks_param_type_get_variant_type (KsParamType type);
const char         *ks_param_type_to_string        (KsParamType type);

typedef struct {
  const char *value;   /* the spelling on the CLI and in the files: "explicit" */
  const char *label;   /* N_("explicit"): the form's combo entry */
  const char *help;    /* N_(), may be NULL: what choosing it does (tooltip, --help) */
  /* The enum the measuring functions take for it (ks_config_choice), so
   * that no spelling is compared below the description: unique among a
   * parameter's choices.  Unused in presets. */
  int         id;
  /* KS_BACKENDS_*: the devices it runs on (0: every one); a bench's
   * default leaves the others out there (ks_exp_bench_default_methods). */
  guint       backends;
} KsChoice;

/* "Applies when": the parameter means something only where another
 * parameter has one of the listed values (the group size only for the
 * explicit and split policies).  param NULL: always. */
typedef struct {
  const char *param;
  const char *values[8];   /* NULL-terminated; the other parameter's spellings ("true" for a bool) */
} KsCondition;

/* Masks of 1 << KsBackend for KsParamSpec.backends and KsExperimentDesc.backends. */
#define KS_BACKENDS_ALL    0u
#define KS_BACKENDS_HOST   (1u << KS_BACKEND_HOST)
#define KS_BACKENDS_OPENCL (1u << KS_BACKEND_OPENCL)
#define KS_BACKENDS_CUDA   (1u << KS_BACKEND_CUDA)
#define KS_BACKENDS_GPU    (KS_BACKENDS_OPENCL | KS_BACKENDS_CUDA)

/* What a TEXT parameter names that the run writes (its value "": nothing).
 * The engine checks every output against the FILE parameters (an output
 * never replaces an input), against the front end's own files (--csv,
 * --overlay) and against each other before the first measurement
 * (ks_engine_check_files, ks_io_check_outputs). */
typedef enum {
  KS_OUTPUT_NONE,     /* not an output */
  KS_OUTPUT_FILE,     /* a file */
  KS_OUTPUT_FOLDER,   /* a folder the run writes files into, named by output_names */
} KsOutputKind;

typedef struct _KsParamSpec KsParamSpec;

/* The letters every "run ID" takes for its own options (-d device, -r
 * reps, -q quiet, -h help): a parameter's short_name is none of them, so
 * that a letter means one thing for every experiment. */
#define KS_RUN_SHORT_NAMES "dhqr"

struct _KsParamSpec {
  /* The CLI option (--name), the key in JSON, CSV, sessions and settings,
   * and the form field's id.  Lower case, digits and '_' ('-' on the CLI:
   * cores_per_cu is --cores-per-cu).  "device" and "error" are taken. */
  const char  *name;
  /* A one-letter CLI option ('w' for -w), or 0; one no other parameter
   * has, and none of KS_RUN_SHORT_NAMES. */
  char         short_name;
  /* The CLI option where it differs from name (the Gauss commands keep
   * their --sizes and --wg-list for n and wg); NULL: name with '-' for '_'. */
  const char  *cli_name;
  /* INT, sweepable: the CLI also takes --from, --to and --step for it
   * (at most one parameter per experiment).  A missing --to is the larger
   * of --from and the default's last value; a missing --from or --step the
   * default's first value and 1. */
  gboolean     cli_range;
  const char  *label;          /* N_("Work-group size"): the form's label, the table's header */
  const char  *unit;           /* "ms", "MiB", or NULL: one of known_units[], shown by ks_unit_label() */
  /* N_(): a sentence or two for the tooltip and --help; another parameter
   * named as on the command line (--pad) reads as its label in the window
   * (ks_param_form_reword), so name no option the description lacks. */
  const char  *help;
  KsParamType  type;
  /* As the CLI would take it ("1000", "driver", "1,32:1024:32" for a
   * sweepable one); NULL: no default, the user must give it unless
   * device_default gives one. */
  const char  *default_value;
  double       min, max;       /* INT and REAL: inclusive limits (both 0: none beyond the type's) */
  const KsChoice *choices;     /* CHOICE: the choices, ended by { NULL } */
  gboolean     sweepable;      /* may take several values in one run (an axis) */
  KsCondition  when;           /* where it applies (see KsCondition) */
  guint        backends;       /* KS_BACKENDS_*: on which devices it means something; 0: all */
  /* Where the default depends on the device (the paper's predicted optimum
   * as the group size).  Returns the value as the CLI would take it and
   * sets *why to a sentence saying what was picked and why (the CLI prints
   * it, the GUI shows it); NULL with error set when it cannot say.  base
   * holds the other parameters' first values.  NULL: default_value. */
  char      *(*device_default) (const KsParamSpec *spec,
                                KsDevice          *device,
                                const KsConfig    *base,
                                char             **why,
                                GError           **error);
  gboolean     advanced;       /* the form may fold it away; the CLI lists it all the same */
  /* A BOOL that changes how the devices were driven enough to name it:
   * where true in a run, its label stands for the backend in the run's
   * name ("NVIDIA H200 (CUDA graph)"), so legends and recorded runs tell
   * it from the same device's other runs. */
  gboolean     names_run;
  /* Sweepable: axes the form offers beside the field, ended by { NULL }
   * (value: the axis as the CLI takes it, "1,2^1:2^8"; "" for the device's
   * default; label N_(): the menu's entry; help N_(), may be NULL).  NULL:
   * none. */
  const KsChoice *presets;
  /* TEXT, not sweepable: a file or folder the run writes (see KsOutputKind). */
  KsOutputKind       output;
  /* KS_OUTPUT_FOLDER: the files written into it, as glob patterns
   * ("frame-*.png"), NULL-terminated: those already there are checked, and
   * another output they cover is refused. */
  const char *const *output_names;
};

/* Parses one value of spec from text (as on the CLI) and checks its type,
 * limits and choices.  A floating-free GVariant of the spec's type. */
/* How the command line and every message spell the parameter: its
 * cli_name, else its name with '-' for '_' (--gpu-ranks for gpu_ranks). */
const char *ks_param_spec_option (const KsParamSpec *spec);
GVariant *ks_param_parse_value (const KsParamSpec *spec,
                                const char        *text,
                                GError           **error);
/* Parses what a sweepable parameter may take: "5000:40000:5000",
 * "2^10:2^20", "1,32:1024:32", "driver,split", "true,false", each value
 * checked; a single value for one that is not sweepable.  Ascending and
 * without duplicates for numbers, in the given order for the rest.  The
 * count is checked against KS_MAX_AXIS_VALUES before anything is
 * allocated.  An array of the spec's values. */
GPtrArray *ks_param_parse_axis (const KsParamSpec *spec,
                                const char        *text,
                                GError           **error);
/* Checks a value made elsewhere than from text (a form's spin button, the
 * CLI's --from/--to/--step) as ks_param_parse_value checks text: its type,
 * limits, choices, a file that exists. */
gboolean  ks_param_check_value (const KsParamSpec *spec,
                                GVariant          *value,
                                GError           **error);
/* What spec takes when the user gives nothing, as the CLI would take it:
 * its device_default on device (when device is not NULL and the
 * description has one; base holds the other parameters' first values),
 * else its default_value.  *why (may be NULL) says why a device default
 * was picked.  NULL without an error where there is no default; NULL with
 * error where the device cannot say.  For the form's placeholder and the
 * engine alike. */
char     *ks_param_default_text (const KsParamSpec *spec,
                                 KsDevice          *device,
                                 const KsConfig    *base,
                                 char             **why,
                                 GError           **error);
/* A value as the CLI and the CSV write it ("1000", "0.5", "true", "split"). */
char     *ks_param_value_to_string (GVariant *value);
/* An axis (of GVariant, as ks_param_parse_axis gives) as the CLI would
 * take it back: the values separated by commas, runs of whole numbers as
 * from:to[:step] ("1,32:1024:32").  Exact: it parses back to the same
 * values. */
char     *ks_param_axis_to_string  (GPtrArray *axis);
/* A value as the window shows it: a choice's label or yes/no, translated;
 * else the value as given ("1024").  spec NULL: the value as given. */
char     *ks_param_value_label    (const KsParamSpec *spec,
                                   const char        *value);

/* --- a point: one value per parameter ----------------------------------------- */

/* Starts with every parameter's default_value (NULL where there is none). */
KsConfig   *ks_config_new         (const KsExperimentDesc *desc);
KsConfig   *ks_config_copy        (const KsConfig  *config);
void        ks_config_free        (KsConfig        *config);
const KsExperimentDesc *ks_config_get_desc (const KsConfig *config);
/* Takes a reference to value (a floating one is sunk); checked against the
 * spec.  NULL clears it (the parameter does not apply here). */
gboolean    ks_config_set         (KsConfig        *config,
                                   const char      *name,
                                   GVariant        *value,
                                   GError         **error);
gboolean    ks_config_set_string  (KsConfig        *config,
                                   const char      *name,
                                   const char      *text,
                                   GError         **error);
/* NULL where the parameter does not apply at this point (its condition or
 * the device's backend rules it out) or has no value. */
GVariant   *ks_config_get         (const KsConfig  *config,
                                   const char      *name);
/* The value of the parameter desc->params[param] (NULL as for
 * ks_config_get): what the engine and the measuring functions read, by
 * index, where a name would be looked up in every point. */
GVariant   *ks_config_value       (const KsConfig  *config,
                                   guint            param);
/* Typed reads by index for the measuring functions: a description names
 * its parameters' indices in an enum in params[] order (params[] written
 * with designated initializers, [P_N] = { .name = "n", ... }, and its
 * count checked with G_STATIC_ASSERT, as the columns are).  A programming
 * error (g_critical) for an index beyond the description or a type that
 * differs.  0 / FALSE / -1 / NULL where the parameter has no value here.
 * ks_config_choice gives the chosen KsChoice's id; ks_config_text a TEXT
 * or FILE value, or a choice's spelling (for a key or a message). */
gint64      ks_config_int         (const KsConfig  *config,
                                   guint            param);
double      ks_config_real        (const KsConfig  *config,
                                   guint            param);
gboolean    ks_config_bool        (const KsConfig  *config,
                                   guint            param);
int         ks_config_choice      (const KsConfig  *config,
                                   guint            param);
const char *ks_config_text        (const KsConfig  *config,
                                   guint            param);
/* The KsChoice of spec spelt value; NULL where it has none of that name. */
const KsChoice *ks_param_find_choice (const KsParamSpec *spec,
                                      const char        *value);
/* Does spec apply under config (its KsCondition) on a device of backend? */
gboolean    ks_config_applies     (const KsConfig    *config,
                                   const KsParamSpec *spec,
                                   KsBackend          backend);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsConfig, ks_config_free)

/* --- measured columns ---------------------------------------------------------- */

typedef enum {
  KS_REDUCE_MEDIAN,        /* the median of the repetitions */
  KS_REDUCE_MEDIAN_RANGE,  /* the median, with min and max kept beside it (NAME_min, NAME_max):
                            * the error bars of a figure */
  KS_REDUCE_MIN,
  KS_REDUCE_MAX,           /* e.g. the worst residual */
  KS_REDUCE_MEAN,
  KS_REDUCE_SUM,
  KS_REDUCE_LAST,          /* what the last repetition said (e.g. the work-group the driver ran) */
} KsReduction;

typedef enum {
  KS_COLUMN_REAL,          /* a number; JSON number, CSV g_ascii_dtostr */
  KS_COLUMN_INT,           /* a whole number (stored as double, written without a fraction) */
  KS_COLUMN_BOOL,          /* 0 or 1 (JSON true/false, CSV 0/1) */
} KsColumnKind;

typedef struct _KsColumnSpec KsColumnSpec;

/* A derived column's value at point, computed after the point's measured
 * columns are reduced, when the point joins the run, and again for every
 * point when the run ends: from its parameters, its columns, the run's
 * device information or another point of the run (a baseline, measured
 * before or after).  Loaded files keep the values they were written with.
 * NAN where it cannot say (yet). */
typedef double (*KsDeriveFunc) (const KsRun        *run,
                                const KsRunPoint   *point,
                                const KsColumnSpec *column);

struct _KsColumnSpec {
  const char  *name;        /* key in JSON and CSV; "time_ms" */
  const char  *label;       /* N_("time per solve"): the table's header, the axis label */
  const char  *unit;        /* "ms", "GB/s", "%", NULL: shown by ks_unit_label() */
  const char  *help;        /* N_(): the header's tooltip */
  KsColumnKind kind;
  KsReduction  reduce;      /* measured columns: how repetitions reduce */
  KsDeriveFunc derive;      /* non-NULL: derived, not measured; in column order, so it may
                             * use the columns before it */
  gboolean     hidden;      /* in the files, not in the default table */
};

/* --- figures ------------------------------------------------------------------- */

typedef struct _KsFigureSpec KsFigureSpec;

/* What a user may change about a figure without re-running: the CLI's
 * --plot options, the GUI's view. */
typedef struct {
  double   min_x;       /* leave out points with x below (Fig. 4 hides wg = 1); -INFINITY: none */
  gboolean log_y;       /* force a logarithmic y axis (the figure's own log_y holds anyway) */
} KsFigureOptions;

/* The defaults: min_x -INFINITY, log_y FALSE. */
void ks_figure_options_init (KsFigureOptions *options);

struct _KsFigureSpec {
  const char  *id;          /* "time-vs-size" */
  const char  *title;       /* N_() */
  const char  *x;           /* a parameter (usually the swept one) or a column */
  /* x is a column that stands for this swept parameter (heat-hybrid's
   * lambda as split, the lambda asked for, or what a partition file
   * amounts to where none was asked): its values make no curves of their
   * own, as x's would not.  NULL: none. */
  const char  *x_param;
  const char  *y;           /* a column; a MEDIAN_RANGE column draws min..max as error bars */
  /* A parameter: one curve per value ("n = 400"); NULL: one curve per
   * device (several devices in one sweep are the series of one figure). */
  const char  *series_by;
  /* A BOOL column: points where it is true get the highlight colour and
   * marker, a label (highlight_label, printf with the point's x as its one
   * %g), and the legend entry highlight_legend.  NULL: none. */
  const char  *highlight;
  const char  *highlight_legend;   /* N_("N+1 prime") */
  const char  *highlight_label;    /* N_("x = %g"); NULL: no label */
  gboolean     mark_best;          /* ring the lowest y of each curve, labelled "best X" */
  gboolean     log_x, log_y;
  /* x names categories: grouped bars, one category per value of x (a
   * CHOICE parameter's values in the order of its choices, labelled by
   * their labels; anything else in the order first met), one bar per
   * curve in each category. */
  gboolean     categorical_x;
  /* A number the description records about each device (KsRunDevice info,
   * e.g. "ogs_usable") drawn as a vertical line labelled vline_label
   * (printf with the value as %g). */
  const char  *vline_info;
  const char  *vline_label;        /* N_("predicted optimum %g") */
  /* Leave a run's vertical line out where it lies beyond the largest x of
   * that run's curves (a prediction of 1024 over a sweep of wg = 1 alone
   * would stretch the axis over nothing measured; a live sweep draws it
   * once its curves reach it). */
  gboolean     vline_within;
  /* The CLI option that sets KsFigureOptions.min_x for this figure
   * ("min-wg"), with its help; NULL: none. */
  const char  *min_x_option;
  const char  *min_x_help;         /* N_() */
  /* A second column drawn against a right y axis (GB/s beside the time),
   * one curve per curve of y, named after it; NULL: none.  Line figures only. */
  const char  *y2;
  /* A number the description records about each device (e.g. "triad_gbs")
   * drawn as a horizontal reference line on the left axis, labelled
   * hline_label (printf with the value as %g): the limit a curve of y
   * cannot pass. */
  const char  *hline_info;
  const char  *hline_label;        /* N_("triad bandwidth %g GB/s") */
  /* A second such line (a lower bound beside hline_info's upper one). */
  const char  *hline2_info;
  const char  *hline2_label;
  gboolean     log2_x;             /* x in powers of two (group sizes, counts); beats log_x */
  /* The description's paper_values whose column is y drawn beside what
   * was measured, matched through their where: on bars, a bar per
   * category named "paper" (or "paper, SERIES = v" where the where names
   * series_by); on a line figure, points at the where's x drawn dashed,
   * and a value whose where names no x as a horizontal line.  Names in
   * the where other than x and series_by must agree with the run's first
   * point, so a figure of float runs leaves out the paper's double
   * numbers. */
  gboolean     show_paper;
};

/* --- the paper's own numbers --------------------------------------------------- */

typedef struct {
  /* The parameter values the number is for, as name=value pairs separated
   * by spaces ("n=1000 wg=192"); "" for a number about the device or the
   * whole run. */
  const char *where;
  const char *column;       /* the column (or device info name) it stands beside: "time_ms" */
  double      value;
  const char *unit;         /* "ms", NULL */
  const char *source;       /* N_("Fig. 3"), N_("Table 6"), N_("text, p. 4") */
  const char *note;         /* N_(): on which device, under which conditions */
  /* Which of the paper's columns the number is, where it gives several for
   * one where (a CPU and two GPUs in one table): N_("GTS 450").  A figure
   * that shows the paper draws each label as a series of its own
   * ("paper, GTS 450"); NULL: one series. */
  const char *label;
} KsPaperValue;

/* --- the description ----------------------------------------------------------- */

/* What one point cost (KsExperimentDesc.work). */
typedef struct {
  double bytes;     /* moved to and from memory: the least any implementation must */
  double ops;       /* arithmetic operations (floating-point, or integer for index kernels) */
  double seconds;   /* the time they took */
} KsWork;

struct _KsExperimentDesc {
  const char *id;            /* "gauss-size": run ID, the files' "experiment", the page's and settings' id */
  const char *title;         /* N_("Gauss: time vs size"): the sidebar, the page, the plot's title */
  const char *paper;         /* "000" .. "004": the sidebar's group */
  const char *paper_title;   /* N_("Baranov & Vlatskaya (2013): ..."): the group's title */
  const char *summary;       /* N_(): one line for "kernelscope-cli list" */
  /* N_(): a few sentences for the user: what the paper claims and what to
   * look for.  Shown on the page and in --help. */
  const char *claim;
  const char *example;       /* "--from 100 --to 400 --plot fig2.png": an example for --help */
  /* The recorded run (a file name in data/reference/) a page opens with on
   * a machine without a GPU: the one that shows the paper's effect.  NULL:
   * the first by name. */
  const char *recorded_demo;
  guint       backends;      /* KS_BACKENDS_*: where it can run; 0: every device */
  /* The parameter the point's cost grows with ("n"), for the time-left
   * estimate; NULL: every point costs alike.  size_exponent: how, until
   * two sizes are measured (cost ~ size^p, then fitted; 0: 1, linear). */
  const char *size_param;
  double      size_exponent;

  const KsParamSpec  *params;        guint n_params;
  const KsColumnSpec *columns;       guint n_columns;
  const KsFigureSpec *figures;       guint n_figures;
  const KsPaperValue *paper_values;  guint n_paper_values;

  /* The measuring functions, called on the engine's thread (a worker under
   * ks_engine_run_async), one device after the other:
   *   check        once per device before anything is measured on any
   *                device (base: the first value of every axis); refuse
   *                here what the device cannot do at all.  May be NULL.
   *   set_up       once per device (base as for check): returns the state
   *                the others take (kernels built, buffers); NULL with
   *                error on failure.
   *   prepare      once per point before its warm-up (a new system for a
   *                new n); may be NULL.
   *   measure_one_rep  one repetition: fills values[column index] for the
   *                measured columns (they start as NAN); derived ones are
   *                left alone.  An error in KS_EXPERIMENT_ERROR_REFUSED or
   *                KS_COMPUTE_ERROR_WORK_GROUP_SIZE refuses this point
   *                (recorded with its reason, the sweep goes on); any other
   *                stops the run, keeping every point measured.
   *   describe_device  after set_up: numbers about the device the figures
   *                and derived columns use (ks_run_device_set_info); may be NULL.
   *   tear_down    once per device, also after a failure. */
  gboolean (*check)           (const KsExperimentDesc *desc,
                               KsDevice               *device,
                               const KsConfig         *base,
                               GError                **error);
  gpointer (*set_up)          (const KsExperimentDesc *desc,
                               KsDevice               *device,
                               const KsConfig         *base,
                               GCancellable           *cancellable,
                               GError                **error);
  gboolean (*prepare)         (gpointer                state,
                               const KsConfig         *point,
                               GCancellable           *cancellable,
                               GError                **error);
  gboolean (*measure_one_rep) (gpointer                state,
                               const KsConfig         *point,
                               double                 *values,
                               GCancellable           *cancellable,
                               GError                **error);
  void     (*describe_device) (gpointer                state,
                               const KsConfig         *base,
                               KsRunDevice            *out);
  void     (*tear_down)       (gpointer                state);

  /* Words about one point for its tooltip and the CLI's table (the prime
   * N+1 explanation with the driver's work-group); NULL: none. */
  char    *(*describe_point)  (const KsRun            *run,
                               const KsRunPoint       *point);
  /* Lines the CLI prints after the table ("n = 400  best wg 192 ..."),
   * appended to out; NULL: none. */
  void     (*summarize)       (const KsRun            *run,
                               GString                *out);
  /* Whether the paper's claim holds on the run's device-th device, from
   * this run alone (ks-verdict.h); NULL where it measured nothing there. */
  KsVerdict *(*judge)         (const KsRun            *run,
                               guint                   device);
  /* The numbers describe_device records (ks_run_device_set_info), named
   * for people: name, label, unit and help as a column's (kind and
   * reduce unused).  A page shows the paper's values about the device
   * ("ogs_predicted") under these labels; an unlisted name shows as it is. */
  const KsColumnSpec *device_info;   guint n_device_info;

  /* Forms saved before the experiment had a description (the Gauss pages'
   * own GSettings keys, "size-from", and their sessions' "params"):
   * legacy_prefix is the keys' prefix ("size-"), and upgrade_values
   * rewrites values, old name -> text (prefix removed), in place into
   * parameter names -> text as the CLI takes them; the page's own fields
   * are "@reps", "@warmup" and "@min_x".  NULL: nothing older. */
  const char *legacy_prefix;
  void     (*upgrade_values)  (const KsExperimentDesc *desc,
                               GHashTable             *values);

  /* Pictures of the point just measured, for a person to look at (an
   * image filter's input and result): a GPtrArray of KsImage (ks-image.h)
   * with ks_image_free as its free function, or NULL for none here.
   * Called on the engine's thread after each measured point's repetitions,
   * while state still holds that point.  The GUI page draws the last
   * point's beside the plot; "run ID --images DIR" writes each device's
   * last as PNG.  Not kept in the results files.  NULL: the experiment has
   * no pictures (and the page and the CLI offer none). */
  GPtrArray *(*images)        (gpointer                state,
                               const KsConfig         *point);
  /* Puts into place what the point's repetitions wrote aside (the heat
   * frames, staged beside their folder's files: ks_io_stage_commit), once
   * every repetition succeeded; not called for a point refused, failed or
   * cancelled, whose staged files prepare or tear_down drop, so such a
   * point replaces no file the user had.  An error stops the run as a
   * measuring error does.  NULL: it writes nothing aside. */
  gboolean (*commit)          (gpointer                state,
                               const KsConfig         *point,
                               GError                **error);
  /* What a point cost, for the roofline (ks-roofline.h): the bytes it
   * moves to and from memory at the least, the operations it does, and
   * the seconds they took (one solve, one iteration), from the point's
   * parameters and columns; FALSE where it cannot say.  Most descriptions
   * already count the bytes for their GB/s.  NULL: the experiment is not
   * on the roofline. */
  gboolean (*work)            (const KsRun            *run,
                               const KsRunPoint       *point,
                               KsWork                 *out);
  /* "Inside the kernel" (the page's view of ks-access.h): the access
   * model's point of the variant-th variant (Thomas natural, interleaved,
   * ...) at the form's values (parameter name -> text as the CLI takes it;
   * a sweep's first value counts), with *label, the variant for people
   * (translated), and *where, the run's points it stands for (the format
   * of KsPaperValue.where).  FALSE past the last variant.  NULL: the page
   * has no such view. */
  gboolean (*access)          (GHashTable             *values,
                               guint                   variant,
                               KsAccessPoint          *out,
                               char                  **label,
                               char                  **where);
};


/* Indexes into desc->params / desc->columns / desc->figures; -1 when absent. */
int  ks_experiment_desc_find_param  (const KsExperimentDesc *desc,
                                     const char             *name);
int  ks_experiment_desc_find_column (const KsExperimentDesc *desc,
                                     const char             *name);
int  ks_experiment_desc_find_figure (const KsExperimentDesc *desc,
                                     const char             *id);
/* A description's unit ("ms") as the window shows it, translated ("мс");
 * NULL and "" as they are. */
const char *ks_unit_label (const char *unit);
/* The label of a parameter, column or device-info name, translated, with
 * its unit ("time per solve, ms"); the name itself where none has it. */
char *ks_experiment_desc_name_label (const KsExperimentDesc *desc,
                                     const char             *name);
/* A parameter's value for people, "Unknowns = 1024" ("n=1024" in the
 * files), its label and value translated; a name the description lacks as
 * it is. */
char *ks_experiment_desc_pair_label  (const KsExperimentDesc *desc,
                                      const char             *name,
                                      const char             *value);
/* A paper value's where ("width=short16 scaling=items") as such pairs,
 * separated by commas. */
char *ks_experiment_desc_where_label (const KsExperimentDesc *desc,
                                      const char             *where);
/* Checks a description for what would break the files and the CLI: unique
 * names, reserved names, a default of the right type within the limits,
 * conditions naming existing parameters, figures naming existing
 * parameters and columns.  The registry refuses a description that fails. */
gboolean ks_experiment_desc_validate (const KsExperimentDesc *desc,
                                      GError                **error);

G_END_DECLS
