/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64 */
/* Paper 003 (Andrianov et al.): one thread per point of an index domain.
 *
 * The fills write V = j + (i - 1) w in the paper's 1-based indices, which
 * is the flat 0-based index plus one, so any layout of the domain writes the
 * same array and the host checks it against g + 1.  index_fill_mapped
 * reads the point from the block and thread ids as the paper's mapping
 * lays it out (src/solvers/ks-index-map.h); index_fill_stride is the
 * grid-stride loop of today's CUDA practice over as many threads as
 * launched.  index_sum_rows and index_sum_finish are the worked example's
 * two kernels: a tree reduction in local (shared) memory to one partial sum
 * per block of a row, then one group per row finishing them.
 *
 * Built with -DKS_REAL=double -DKS_FP64 (the paper's DOUBLE) or
 * -DKS_REAL=float. */
#include "ks-common.h"

#ifndef KS_REAL
#define KS_REAL float
#endif
typedef KS_REAL real;

/* ks_group_sum_float or ks_group_sum_double (ks-common.h): the tree in
 * local memory, halving until one value is left. */
#define INDEX_PASTE2(a, b) a##b
#define INDEX_PASTE(a, b)  INDEX_PASTE2 (a, b)
#define index_group_sum    INDEX_PASTE (ks_group_sum_, KS_REAL)

/* index_fill_mapped's layouts, as ks_index_map lays the domain out. */
#define KS_INDEX_LAYOUT_1D        0  /* D(N): blocks of threads, the grid 1D or dim3(gx, 65535) */
#define KS_INDEX_LAYOUT_2D_ROWS   1  /* D(N1, N2), N2 within a block: one block per row */
#define KS_INDEX_LAYOUT_2D_SPLIT  2  /* no side within a block: dim3(N1, ceil(N2 / T)) */
#define KS_INDEX_LAYOUT_3D        3  /* dim3(N1, N2[, ceil(N3 / T)]) blocks along N3 */

/* The sides come right-aligned: D(N) is (1, 1, N), D(N1, N2) is (1, N1, N2). */
__kernel void
index_fill_mapped (__global real *v,
                   const ulong    n1,
                   const ulong    n2,
                   const ulong    n3,
                   const int      layout)
{
  const ulong t = get_local_id (0), T = get_local_size (0);
  const ulong bx = get_group_id (0), by = get_group_id (1), bz = get_group_id (2);
  ulong i = 0, j = 0, k = 0;

  if (layout == KS_INDEX_LAYOUT_1D)
    k = (by * get_num_groups (0) + bx) * T + t;
  else if (layout == KS_INDEX_LAYOUT_2D_ROWS)
    {
      j = by * get_num_groups (0) + bx;
      k = t;
    }
  else if (layout == KS_INDEX_LAYOUT_2D_SPLIT)
    {
      j = bx;
      k = by * T + t;
    }
  else
    {
      i = bx;
      j = by;
      k = bz * T + t;
    }
  if (i < n1 && j < n2 && k < n3)
    {
      const ulong g = (i * n2 + j) * n3 + k;
      v[g] = (real) (g + 1);
    }
}

__kernel void
index_fill_stride (__global real *v,
                   const ulong    points)
{
  for (ulong g = get_global_id (0); g < points; g += get_global_size (0))
    v[g] = (real) (g + 1);
}

/* Kernel 1 of the worked example (the paper's SummaK1): groups of T (a
 * power of two) threads, dim3(v, ceil(w / T)) of them; each fills its
 * part of row i and sums it.  Every thread of the group takes part in every
 * barrier (the paper's kernel has them inside "if (j < w)", which a group
 * straddling the row's end must not do), the ones past the row adding 0. */
__kernel void
index_sum_rows (__global real  *v,
                __global real  *partial,
                const ulong     w,
                KS_LOCAL_PARAM (real, s))
{
  KS_LOCAL_BIND (real, s);
  const uint t = (uint) get_local_id (0), T = (uint) get_local_size (0);
  const ulong i = get_group_id (0), jb = get_group_id (1), nb = get_num_groups (1);
  const ulong j = jb * T + t;
  real x = 0;

  if (j < w)
    {
      x = (real) (j + 1 + i * w);
      v[i * w + j] = x;
    }
  s[t] = x;
  x = index_group_sum (s);
  if (t == 0)
    partial[i * nb + jb] = x;
}

/* Kernel 2 (the paper's SummaK1Red): one group per row of T2 threads (a
 * power of two, the paper's 4 for 3 partial sums), each adding every T2-th
 * partial sum, then a tree. */
__kernel void
index_sum_finish (__global const real *partial,
                  __global real       *sum,
                  const uint           nb,
                  KS_LOCAL_PARAM (real, s))
{
  KS_LOCAL_BIND (real, s);
  const uint t = (uint) get_local_id (0), T = (uint) get_local_size (0);
  const ulong i = get_group_id (0);
  real x = 0;


  for (uint b = t; b < nb; b += T)
    x += partial[i * nb + b];
  s[t] = x;
  x = index_group_sum (s);
  if (t == 0)
    sum[i] = x;
}
