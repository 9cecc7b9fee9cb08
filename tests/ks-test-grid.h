/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-grid.h: a W x H grid of cells as a symmetric positive definite
 * system for the distributed-CG tests (mpi-cg, test-hybrid): the 9-point
 * stencil with the diagonal, -1 off it and 8.5 on it, the cells' centres,
 * and a right-hand side with a burst at one cell, as the heat problem's. */
#pragma once

#include <glib.h>

typedef struct {
  guint   n;
  guint  *row_ptr, *col;   /* CSR, n + 1 and nnz */
  double *val;
  double *centres;         /* 2 n */
  double *b;               /* n */
} KsTestGrid;

void ks_test_grid_init  (KsTestGrid *grid,
                         guint       w,
                         guint       h);
void ks_test_grid_clear (KsTestGrid *grid);
