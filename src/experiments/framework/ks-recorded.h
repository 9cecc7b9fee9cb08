/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-recorded.h: the runs recorded on real GPUs and shipped with the app
 * (ks_reference_dir (): data/reference/), of any experiment and either
 * format, so that a page or the CLI can offer "what an H200 shows" beside
 * its own curves before anything is measured here. */
#pragma once

#include "ks-run.h"

G_BEGIN_DECLS

typedef struct {
  char  *path;    /* the JSON file */
  char  *label;   /* "recorded: NVIDIA H200 (CUDA graph)": what its curves are called */
  KsRun *run;
} KsRecorded;

/* Every recorded run of desc (NULL: of every experiment), sorted by file
 * name; an empty array where there are none.  A damaged file, or one of an
 * experiment this program does not know, is left out with a warning rather
 * than hiding the others; the benchmark tables and device lists beside the
 * runs are not runs and are skipped. */
GPtrArray *ks_recorded_list (const KsExperimentDesc *desc);
void       ks_recorded_free (KsRecorded             *recorded);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRecorded, ks_recorded_free)

G_END_DECLS
