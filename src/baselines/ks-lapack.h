/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-lapack.h: LAPACK's dense LU on the host (LAPACKE over OpenBLAS), the
 * host baseline of "bench gauss".  Optional: built with LAPACKE
 * (KS_HAVE_LAPACKE); without it every call says so, as
 * KS_COMPUTE_ERROR_UNSUPPORTED. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether this binary carries LAPACKE; if not, an UNSUPPORTED error that
 * names the packages to install. */
gboolean ks_lapack_available   (GError      **error);

/* getrf + getrs on a, n x n row-major, and b (n values), both in double;
 * the solve runs in double (fp64) or float.  wall_ms is getrf + getrs on
 * the host clock: the copy into the solve's precision comes before it, as
 * for every other method of "bench gauss".  x receives the n values.  An
 * exactly singular U is KS_SOLVER_ERROR_SINGULAR. */
gboolean ks_lapack_dense_solve (gboolean       fp64,
                                guint          n,
                                const double  *a,
                                const double  *b,
                                double        *x,
                                double        *wall_ms,
                                GError       **error);

/* ?gtsv (LU with partial pivoting) on each of `systems` tridiagonal systems
 * of n unknowns, laid out as in KsTridiagBatch (a[0] and c[n - 1] of each
 * system unused), in double (fp64) or float.  The copy into the solve's
 * precision is made before the clock: wall_ms is the gtsv calls alone.  x
 * receives n * systems values.  An exactly zero U(i,i) is
 * KS_SOLVER_ERROR_SINGULAR naming the system and row. */
gboolean ks_lapack_gtsv_batch  (gboolean       fp64,
                                guint          n,
                                guint          systems,
                                const double  *a,
                                const double  *b,
                                const double  *c,
                                const double  *d,
                                double        *x,
                                double        *wall_ms,
                                GError       **error);

G_END_DECLS
