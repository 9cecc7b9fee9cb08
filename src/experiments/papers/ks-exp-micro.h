/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro.h: the experiments of paper 001 (Manushin 2012, OpenCL
 * micro-benchmarks) as descriptions, one file per family
 * (ks-exp-micro-FAMILY.c), over the solvers of ks-micro.h. */
#pragma once

#include "ks-experiment-desc.h"
#include "ks-run.h"

G_BEGIN_DECLS

#define KS_EXP_MICRO_PAPER \
  .paper = "001", \
  .paper_title = N_("Manushin (2012): what OpenCL costs and gains, in micro-benchmarks")

extern const KsExperimentDesc ks_exp_micro_hello;   /* "micro-hello": vector addition vs the host loop */
extern const KsExperimentDesc ks_exp_micro_simd;    /* "micro-simd": the loop on short .. short16, Tables 3-4 */
extern const KsExperimentDesc ks_exp_micro_builtins; /* "micro-builtins": mad_sat, abs_diff, hadd, Table 5 */
extern const KsExperimentDesc ks_exp_micro_native;   /* "micro-native": native_ vs precise math, time and error */
extern const KsExperimentDesc ks_exp_micro_buffers;  /* "micro-buffers": created, reused, pinned, zero-copy, Table 6 */
extern const KsExperimentDesc ks_exp_micro_access;   /* "micro-access": direct vs grouped downscale, Table 7 */

/* A point's error that only this point suffers (a length the device
 * cannot hold, a vector width its compiler refuses, a kind of buffer it
 * does not have) as a refusal, so that
 * the sweep goes on; others unchanged.  Returns FALSE. */
gboolean ks_exp_micro_refuse_point   (GError **error);
/* The device's timer tick as its "timer_resolution_ns". */
void     ks_exp_micro_describe_timer (KsDevice    *device,
                                      KsRunDevice *out);

/* The issue asks NVIDIA's OpenCL to come within 15 % of CUDA on the
 * micro kernels: where a run holds an OpenCL device and a CUDA device of
 * the same GPU (the same name, or the one CUDA device beside an NVIDIA
 * OpenCL platform), a line per OpenCL device: the ratio OpenCL / CUDA of
 * column over the points measured on both with the same parameters
 * (median, range) and how many lie within 15 %.  include (may be NULL:
 * every point) leaves out points that time no kernel (the host loop).
 * Nothing where the run has no such pair. */
#define KS_EXP_MICRO_BACKEND_TOLERANCE 0.15
void     ks_exp_micro_summarize_backends (const KsRun *run,
                                          const char  *column,
                                          gboolean   (*include) (const KsRun      *run,
                                                                 const KsRunPoint *point),
                                          GString     *out);
/* ks_exp_micro_summarize_backends on "time_ms" for every point: the
 * summarize of a description with nothing else to say. */
void     ks_exp_micro_summarize_time     (const KsRun *run,
                                          GString     *out);

/* The loop experiments over KsMicroLoop (ks-micro.h): their first four
 * columns, in this order, and the measuring functions that fill them. */
enum {
  KS_EXP_MICRO_COL_TIME,
  KS_EXP_MICRO_COL_WALL,
  KS_EXP_MICRO_COL_CHECKED,
  KS_EXP_MICRO_COL_WRONG,
  KS_EXP_MICRO_N_LOOP_COLUMNS
};

#define KS_EXP_MICRO_LOOP_COLUMNS                                                                         \
  [KS_EXP_MICRO_COL_TIME] = { "time_ms", N_("time"), "ms",                                                \
                              N_("The kernel's time (device events), median of the repetitions; min and " \
                                 "max beside it"), KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },             \
  [KS_EXP_MICRO_COL_WALL] = { "wall_ms", N_("launch and wait"), "ms", N_("Launch and wait, host clock, median"), \
                              KS_COLUMN_REAL, KS_REDUCE_MEDIAN },                                         \
  [KS_EXP_MICRO_COL_CHECKED] = { "checked", N_("checked"), NULL,                                          \
                                 N_("Elements compared with the host's loop (spread over the array; each " \
                                    "costs the whole loop)"), KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE }, \
  [KS_EXP_MICRO_COL_WRONG] = { "wrong", N_("wrong elements"), NULL,                                       \
                               N_("Checked elements that differ from the host's loop of the same kernel, " \
                                  "the worst repetition (0 unless something is broken)"),                \
                               KS_COLUMN_INT, KS_REDUCE_MAX }

gpointer ks_exp_micro_loop_set_up          (const KsExperimentDesc *desc,
                                            KsDevice               *device,
                                            const KsConfig         *base,
                                            GCancellable           *cancellable,
                                            GError                **error);
gboolean ks_exp_micro_loop_measure         (gpointer                state,
                                            const KsConfig         *point,
                                            double                 *values,
                                            GCancellable           *cancellable,
                                            GError                **error);
void     ks_exp_micro_loop_describe_device (gpointer                state,
                                            const KsConfig         *base,
                                            KsRunDevice            *out);
void     ks_exp_micro_loop_tear_down       (gpointer                state);

/* For the judges (ks-verdict.h), which set one way against another at
 * the largest size both measured.  mask: the choices of param taken
 * (bit k: choice k).  The fastest measured point of device by column
 * among them at size_param = size (NAN: any size); NULL where none. */
const KsRunPoint *ks_exp_micro_fastest       (const KsRun *run,
                                              guint        device,
                                              const char  *param,
                                              guint        mask,
                                              const char  *size_param,
                                              double       size,
                                              guint        column);
/* The largest size_param at which device measured a choice of mask_a and
 * one of mask_b (times in column), with the fastest point of each there
 * in a and b; NAN (a and b untouched) where it has no such size. */
double            ks_exp_micro_pair          (const KsRun       *run,
                                              guint              device,
                                              const char        *param,
                                              guint              mask_a,
                                              guint              mask_b,
                                              const char        *size_param,
                                              guint              column,
                                              const KsRunPoint **a,
                                              const KsRunPoint **b);
/* Sorts values (of double) and returns their median; NAN when empty. */
double            ks_exp_micro_sort_median   (GArray *values);
/* The verdict of a run that lacks what the judge compares: text, and a
 * suggestion (label) setting param to value. */
KsVerdict        *ks_exp_micro_untested      (const char *text,
                                              const char *label,
                                              const char *param,
                                              const char *value);
/* Is a's column below b's by more than margin (0.05: 5 %) and beyond the
 * repetitions' spread (a's max under b's min) where the run kept it? */
gboolean          ks_exp_micro_clearly_below (const KsRunPoint *a,
                                              const KsRunPoint *b,
                                              guint             column,
                                              double            margin);

G_END_DECLS
