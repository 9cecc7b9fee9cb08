/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-verdict.h: whether a paper's claim holds, judged from one run alone.
 * A description's judge hook (ks-experiment-desc.h) reads the points one
 * device measured and says, in a sentence or two a class can read off a
 * projector, what this device did against what the paper says; where the
 * run cannot test the claim (sizes far from the paper's, a CPU standing in
 * for a GPU, a policy that hides the effect) it says why, and it may
 * suggest parameter values that would test it.  The CLI prints it after
 * the summary; the window shows it under the plot, with a button that sets
 * the suggested values. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

typedef enum {
  KS_VERDICT_HOLDS,     /* this run agrees with the paper's claim */
  KS_VERDICT_FAILS,     /* this run contradicts it */
  KS_VERDICT_UNTESTED,  /* this run cannot test it (the text says why) */
} KsVerdictKind;

struct _KsVerdict {
  KsVerdictKind kind;
  char       *text;       /* translated, plain sentences */
  /* What to run instead, as a button's label ("Use the driver's group
   * size"), and the parameter values it sets (name -> value text as the
   * CLI and the form take it); both NULL when there is nothing to set. */
  char       *suggestion;
  GHashTable *values;
};

KsVerdict  *ks_verdict_new          (KsVerdictKind kind,
                                     const char   *format,
                                     ...) G_GNUC_PRINTF (2, 3);
/* Appends a sentence (with a space before it) to the verdict's text. */
void        ks_verdict_append       (KsVerdict    *verdict,
                                     const char   *format,
                                     ...) G_GNUC_PRINTF (2, 3);
/* Sets the suggestion: label, then name, value pairs ending with NULL. */
void        ks_verdict_suggest      (KsVerdict    *verdict,
                                     const char   *label,
                                     const char   *first_name,
                                     ...) G_GNUC_NULL_TERMINATED;
void        ks_verdict_free         (KsVerdict    *verdict);
/* "Holds here", "Does not hold here", "Not tested by this run". */
const char *ks_verdict_kind_label   (KsVerdictKind kind);
/* "holds", "fails", "untested": the JSON and test name of kind. */
const char *ks_verdict_kind_to_string (KsVerdictKind kind);
/* The description's judge on run's device-th device; NULL where it has
 * none or the device measured nothing. */
KsVerdict  *ks_run_judge            (const KsRun  *run,
                                     guint         device);
/* Did run's device-th device stand in for a GPU: the host, or a CPU
 * through OpenCL (PoCL, or a device named "CPU")? */
gboolean    ks_run_device_is_cpu    (const KsRun  *run,
                                     guint         device);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsVerdict, ks_verdict_free)

G_END_DECLS
