/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64 */
/* Gauss without pivoting, blocked (the "blocked" launch of paper 000's
 * solver): the same elimination as gauss.cl, the same augmented matrix a
 * (n rows of n + 1 columns, row-major, b in column n), but KS_GB columns
 * eliminated per launch instead of one, so a solve takes about 3 n / KS_GB
 * launches where the paper's takes 4 n.  A class sees here what launches
 * cost: the arithmetic is the same (2/3 n^3), only its grouping changes.
 *
 * For each block of KS_GB columns starting at kb (a right-looking LU):
 *   gauss_blk_panel   factors the diagonal block (in local memory, every
 *                     group its own copy), then the groups below it make
 *                     the multipliers L21 = A21 U11^-1 (one item a row) and
 *                     the groups right of it U12 = L11^-1 A12 (one item a
 *                     column, b's column among them);
 *   gauss_blk_update  subtracts L21 U12 from the trailing matrix (b's
 *                     column too), in tiles of 64 x 64 held in local memory.
 * Then from the last block back, gauss_blk_back solves the block's
 * triangle for its unknowns and moves them to the right-hand side of every
 * row above (one launch a block).
 *
 * Every pivot is checked where it becomes final (the panel's factorisation),
 * the first tiny one reported through info as gauss.cl does.  The factored
 * diagonal blocks go to diag (n x KS_GB values, block kb's nb x nb at
 * kb x KS_GB), which the back substitution reads. */

#include "ks-common.h"

#ifndef KS_REAL
#define KS_REAL float
#endif
typedef KS_REAL real;

#ifndef KS_GB
#define KS_GB 32          /* columns a block eliminates per launch */
#endif
#define KS_TILE 64        /* the update's tile: 64 x 64 from 16 x 16 items */
#define KS_INFO_BAD_PIVOT 8   /* as in gauss.cl */
/* The diagonal block in local memory, a row padded by one against bank
 * conflicts down a column. */
#define D(r, c) d[(r) * (KS_GB + 1) + (c)]

/* The diagonal block a[kb.., kb..] (nb x nb, nb <= KS_GB) factored into
 * d, L below the diagonal (unit diagonal implied) and U on and above it,
 * by the group's items together; every item returns with d complete. */
KS_FN void
blk_factor_diag (__global const real *a,
                 const size_t         w,
                 const int            kb,
                 const int            nb,
                 KS_LOCAL_PTR (real)  d)
{
  const int t = (int) get_local_id (0), L = (int) get_local_size (0);

  for (int e = t; e < nb * nb; e += L)
    D (e / nb, e % nb) = a[(size_t) (kb + e / nb) * w + kb + e % nb];
  for (int k = 0; k < nb; k++)
    {
      const int m = nb - k - 1;

      barrier (CLK_LOCAL_MEM_FENCE);
      if (t > k && t < nb)
        D (t, k) /= D (k, k);
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int e = t; e < m * m; e += L)
        D (k + 1 + e / m, k + 1 + e % m) -= D (k + 1 + e / m, k) * D (k, k + 1 + e % m);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Block kb's panel: groups [0, row_groups) the rows below the block,
 * the others the columns right of it (b's column n included). */
__kernel void
gauss_blk_panel (__global real *a,
                 __global real *diag,
                 const int      n,
                 const int      kb,
                 const int      row_groups,
                 __global int  *info,
                 const real     tiny)
{
  __local real d[KS_GB * (KS_GB + 1)];
  const size_t w = (size_t) n + 1;
  const int nb = min (KS_GB, n - kb), t = (int) get_local_id (0), L = (int) get_local_size (0);
  const int g = (int) get_group_id (0);

  blk_factor_diag (a, w, kb, nb, d);
  if (g == 0)
    {
      /* Not into a: the other groups may still be reading the block. */
      for (int e = t; e < nb * nb; e += L)
        diag[(size_t) kb * KS_GB + e] = D (e / nb, e % nb);
      /* Blocks run in order: the first tiny pivot of the whole matrix stays. */
      if (t == 0 && info[KS_INFO_BAD_PIVOT] == 0)
        for (int k = 0; k < nb; k++)
          if (!(fabs (D (k, k)) > tiny))
            {
              info[KS_INFO_BAD_PIVOT] = kb + k + 1;
              break;
            }
    }
  if (g < row_groups)
    {
      /* L21: row i's multipliers, l = a_i U11^-1, in registers. */
      const int i = kb + nb + g * L + t;
      real l[KS_GB];

      if (i >= n)
        return;
      for (int k = 0; k < KS_GB; k++)
        l[k] = k < nb ? a[(size_t) i * w + kb + k] : 0;
      for (int k = 0; k < KS_GB; k++)
        if (k < nb)
          {
            real s = l[k];

            for (int p = 0; p < k; p++)
              s -= l[p] * D (p, k);
            l[k] = s / D (k, k);
          }
      for (int k = 0; k < nb; k++)
        a[(size_t) i * w + kb + k] = l[k];
    }
  else
    {
      /* U12: column j's block rows, u = L11^-1 a_j; neighbouring items
       * read neighbouring columns. */
      const int j = kb + nb + (g - row_groups) * L + t;
      real u[KS_GB];

      if (j > n)
        return;
      for (int k = 0; k < KS_GB; k++)
        u[k] = k < nb ? a[(size_t) (kb + k) * w + j] : 0;
      for (int k = 0; k < KS_GB; k++)
        if (k < nb)
          {
            real s = u[k];

            for (int p = 0; p < k; p++)
              s -= D (k, p) * u[p];
            u[k] = s;
          }
      for (int k = 0; k < nb; k++)
        a[(size_t) (kb + k) * w + j] = u[k];
    }
}

/* The trailing matrix (rows and columns from kb + nb, b's column
 * included) less L21 U12: a group of 16 x 16 items a tile of 64 x 64,
 * each item 4 x 4 values 16 apart, so that a warp's loads of the U tile
 * and its stores to a are neighbours. */
__kernel void
gauss_blk_update (__global real *a,
                  const int      n,
                  const int      kb)
{
  __local real ls[KS_GB][KS_TILE];
  __local real us[KS_GB][KS_TILE];
  const size_t w = (size_t) n + 1;
  const int nb = min (KS_GB, n - kb), c0 = kb + nb;
  const int tx = (int) get_local_id (0), ty = (int) get_local_id (1), t = ty * 16 + tx;
  const int i0 = c0 + (int) get_group_id (1) * KS_TILE, j0 = c0 + (int) get_group_id (0) * KS_TILE;
  real acc[4][4];

  for (int e = t; e < KS_TILE * KS_GB; e += 256)
    {
      const int r = e / KS_GB, k = e % KS_GB;   /* ls: along a row of L21 */
      const int kk = e / KS_TILE, c = e % KS_TILE;   /* us: along a row of U12 */

      ls[k][r] = i0 + r < n && k < nb ? a[(size_t) (i0 + r) * w + kb + k] : 0;
      us[kk][c] = j0 + c <= n && kk < nb ? a[(size_t) (kb + kk) * w + j0 + c] : 0;
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++)
      acc[r][c] = 0;
  for (int k = 0; k < KS_GB; k++)
    {
      real lv[4], uv[4];

      for (int r = 0; r < 4; r++)
        lv[r] = ls[k][ty + 16 * r];
      for (int c = 0; c < 4; c++)
        uv[c] = us[k][tx + 16 * c];
      for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
          acc[r][c] += lv[r] * uv[c];
    }
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++)
      {
        const int i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;

        if (i < n && j <= n)
          a[(size_t) i * w + j] -= acc[r][c];
      }
}

/* Back substitution of block kb (rows kb .. kb + nb - 1, whose b column
 * already holds everything the later blocks moved there): every group
 * solves the block's triangle for x in local memory, group 0 stores it,
 * and each item moves it to the right-hand side of one row above kb. */
__kernel void
gauss_blk_back (__global real       *a,
                __global const real *diag,
                __global real       *x,
                const int            n,
                const int            kb)
{
  __local real d[KS_GB * (KS_GB + 1)];
  __local real xs[KS_GB];
  const size_t w = (size_t) n + 1;
  const int nb = min (KS_GB, n - kb), t = (int) get_local_id (0), L = (int) get_local_size (0);
  const int i = (int) get_global_id (0);

  for (int e = t; e < nb * nb; e += L)
    D (e / nb, e % nb) = diag[(size_t) kb * KS_GB + e];
  if (t < nb)
    xs[t] = a[(size_t) (kb + t) * w + n];
  for (int k = nb - 1; k >= 0; k--)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (t == 0)
        xs[k] /= D (k, k);
      barrier (CLK_LOCAL_MEM_FENCE);
      if (t < k)
        xs[t] -= D (t, k) * xs[k];
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (get_group_id (0) == 0 && t < nb)
    x[kb + t] = xs[t];
  if (i < kb)
    {
      real s = 0;

      for (int k = 0; k < nb; k++)
        s += a[(size_t) i * w + kb + k] * xs[k];
      a[(size_t) i * w + n] -= s;
    }
}
