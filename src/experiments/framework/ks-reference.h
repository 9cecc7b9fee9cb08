/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-reference.h: runs recorded on real GPUs and shipped with the app
 * (data/reference/, installed to $datadir/kernelscope/reference), so that a
 * machine without a GPU can draw them beside its own curves, labelled as
 * recorded.  The CLI's --overlay and the GUI's plot pages use the same list. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where the recorded runs are: $KERNELSCOPE_REFERENCE_DIR, else the
 * installed folder, else the source tree's data/reference (an uninstalled
 * build); NULL if none exists. */
const char  *ks_reference_dir   (void);

/* The paths of the recorded runs' files (JSON, not the benchmark tables
 * or device lists beside them) in ks_reference_dir (), sorted by name. */
GPtrArray   *ks_reference_run_files (void);

G_END_DECLS
