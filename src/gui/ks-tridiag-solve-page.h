/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-tridiag-solve-page.h: paper 002 on the user's own systems, the GUI
 * twin of `kernelscope-cli solve tridiag`: A.mtx and b.mtx chosen in file
 * choosers, the number of systems, the method and precision; Run solves on
 * the window's device, the page says the time and max |Ax - b| (and any
 * error or warning, in its own words), and the solution is saved to a
 * Matrix Market file through a save dialog. */
#pragma once

#include "ks-page.h"

G_BEGIN_DECLS

#define KS_TYPE_TRIDIAG_SOLVE_PAGE (ks_tridiag_solve_page_get_type ())
G_DECLARE_FINAL_TYPE (KsTridiagSolvePage, ks_tridiag_solve_page, KS, TRIDIAG_SOLVE_PAGE, KsPage)

/* The form, as a user would fill it (NULL: no file chosen; method NULL:
 * the default for the shape). */
void        ks_tridiag_solve_page_set_input     (KsTridiagSolvePage *self,
                                                 const char         *matrix,
                                                 const char         *rhs,
                                                 guint               systems,
                                                 const char         *method);
/* "Open the Sample": the form filled with the sample batch shipped in
 * data/samples/ (tridiag-A.mtx, tridiag-b.mtx, 4 systems); FALSE where
 * the sample is not installed. */
gboolean    ks_tridiag_solve_page_open_sample   (KsTridiagSolvePage *self);
/* What the page says under the form: the last solve, or why it failed. */
const char *ks_tridiag_solve_page_get_status    (KsTridiagSolvePage *self);
/* The last solve's residual; NAN before one. */
double      ks_tridiag_solve_page_get_residual  (KsTridiagSolvePage *self);
/* What "Save Solution…" writes after its dialog: x as a Matrix Market
 * column.  FALSE with an error when there is no solution yet. */
gboolean    ks_tridiag_solve_page_save_solution (KsTridiagSolvePage *self,
                                                 const char         *path,
                                                 GError            **error);

G_END_DECLS
