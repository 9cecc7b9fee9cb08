/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run-table.h: a run's points in a GtkTreeView, and the words about
 * them, all from the run's description: the swept parameters and the
 * measured columns as the table's columns (units in the headers, the
 * column's help as the header's tooltip), the description's words about a
 * point as the row's tooltip, the figure's highlighted points in bold; and
 * the paper's own numbers beside the run's. */
#pragma once

#include <gtk/gtk.h>

#include "ks-run.h"

G_BEGIN_DECLS

typedef struct _KsRunTable KsRunTable;

/* Gives view the columns run needs (its axes, or every parameter where it
 * sweeps none, then the shown columns and a note) and an empty store. */
KsRunTable *ks_run_table_new       (GtkTreeView        *view,
                                    const KsRun        *run,
                                    const KsFigureSpec *figure);
void        ks_run_table_append    (KsRunTable         *table,
                                    const KsRun        *run,
                                    const KsRunPoint   *point);
void        ks_run_table_free      (KsRunTable         *table);

/* "Matrix size n" or "time per solve, ms": a parameter's or a column's
 * label, translated, with its unit (the table's headers, the axes). */
char       *ks_run_name_label      (const KsExperimentDesc *desc,
                                    const char             *name);
/* A column's value for a person: whole numbers without a fraction, others
 * to four significant digits; "" for NAN. */
char       *ks_run_format_value    (double              value,
                                    KsColumnKind        kind);
/* Pango markup for a point's tooltip: its parameters, the figure's y with
 * its spread, and what the description says about the point. */
char       *ks_run_point_markup    (const KsRun        *run,
                                    const KsRunPoint   *point,
                                    const KsFigureSpec *figure);
/* Fills grid with one row per KsPaperValue of desc: where and what, the
 * paper's number, and run's (NULL: none yet) at the same place under the
 * heading `heading` ("this run", or a recorded run's device). */
void        ks_run_fill_paper_values (GtkGrid                *grid,
                                      const KsExperimentDesc *desc,
                                      const KsRun            *run,
                                      const char             *heading);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRunTable, ks_run_table_free)

G_END_DECLS
