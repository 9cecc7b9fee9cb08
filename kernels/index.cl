/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64 | -DKS_REAL=double -DKS_FP64 -DKS_INDEX_TREE
 *   | -DKS_REAL=float -DKS_INDEX_VEC | -DKS_REAL=double -DKS_FP64 -DKS_INDEX_TREE -DKS_INDEX_VEC
 *   | -DKS_REAL=float -DKS_TRACE */
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
                   const int      layout KS_TRACE_PARAM)
{
  const ulong t = get_local_id (0), T = get_local_size (0);
  const ulong bx = get_group_id (0), by = get_group_id (1), bz = get_group_id (2);
  ulong i = 0, j = 0, k = 0;

  KS_TRACE_BASE (0, v);
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
      KS_ST (v, g, (real) (g + 1));
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

/* --- The tuned two kernels (method "tuned") ---------------------------------
 *
 * The same row sums as CUB's block reduction does them: the values are in
 * memory already (filled untimed) and only read.  Kernel 1 cuts each row
 * into nb chunks and gives each chunk to one segment of 32 items (a warp on
 * CUDA, a sub-group where cl_khr_subgroups has one, else 32 items of the
 * group); a segment reads its chunk coalesced, two doubles or four floats
 * per load where the rows are aligned (w a multiple of that), four loads in
 * flight per item, and sums its items by a shuffle tree (__shfl_down_sync),
 * sub_group_reduce_add, or a segmented tree in local memory.  Segments run
 * by a grid-stride loop, so any sub-group size is right; the host picks nb
 * from the compute units so that v x nb segments fill the machine.  Kernel
 * 2 adds each row's nb partial sums, one item per row.
 *
 * What separates it from the paper's pair: the paper's kernel 1 gives each
 * group of 1024 threads one chunk of one row, one value per thread, a tree
 * of ten barriers in shared memory, and a second launch of a power-of-two
 * group per row; this one loads 8 or 16 values per item per round, needs no
 * barrier on a warp, and sizes the chunks to the machine. */
#if defined (KS_INDEX_TREE)
#define INDEX_PATH 0     /* asked for: the local-memory tree over 32 items */
#elif defined (KS_CUDA)
#define INDEX_PATH 2     /* warp shuffles */
#elif defined (cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#define INDEX_PATH 1     /* sub_group_reduce_add */
#else
#define INDEX_PATH 0     /* no sub-groups: the local-memory tree over 32 items */
#endif

#ifdef KS_FP64
#define INDEX_VW 2
typedef double2 realv;
#define INDEX_VSUM(a) ((a).x + (a).y)
#else
#define INDEX_VW 4
typedef float4 realv;
#define INDEX_VSUM(a) ((a).x + (a).y + (a).z + (a).w)
#endif

/* Which reduction this build runs (0 tree, 1 sub-group, 2 warp shuffle),
 * for the host to report. */
__kernel void
index_tuned_path (__global int *path)
{
  if (get_global_id (0) == 0)
    path[0] = INDEX_PATH;
}

/* The sum of one chunk [c0, c1) of a row's values, from this item's lane of
 * S; vec: c0 and the row start are multiples of INDEX_VW. */
KS_FN real
index_chunk_sum (__global const real *row,
                 ulong                c0,
                 ulong                c1,
                 uint                 lane,
                 uint                 S,
                 int                  vec)
{
  real a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  ulong j;

  /* Vector or scalar loads by build (KS_INDEX_VEC), not by a branch here:
   * PoCL's CPU device (on the GPU machine's AVX-512 host) aborted building
   * the local tree after a branch between the two pairs of loops
   * ("region_entry_barrier != NULL", Kernel.cc; pocl PR 2281's shape). */
  (void) vec;
#ifdef KS_INDEX_VEC
  const ulong step = (ulong) S * INDEX_VW;
  __global const realv *p = (__global const realv *) row;

  for (j = c0 + lane * INDEX_VW; j + 3 * step + INDEX_VW <= c1; j += 4 * step)
    {
      a0 += INDEX_VSUM (p[j / INDEX_VW]);
      a1 += INDEX_VSUM (p[(j + step) / INDEX_VW]);
      a2 += INDEX_VSUM (p[(j + 2 * step) / INDEX_VW]);
      a3 += INDEX_VSUM (p[(j + 3 * step) / INDEX_VW]);
    }
  /* c1 is a multiple of INDEX_VW too (w and cw are): no tail. */
  for (; j + INDEX_VW <= c1; j += step)
    a0 += INDEX_VSUM (p[j / INDEX_VW]);
#else
  for (j = c0 + lane; j + 3 * S < c1; j += 4 * S)
    {
      a0 += row[j];
      a1 += row[j + S];
      a2 += row[j + 2 * S];
      a3 += row[j + 3 * S];
    }
  for (; j < c1; j += S)
    a0 += row[j];
#endif
  return (a0 + a1) + (a2 + a3);
}

/* One round of kernel 1: the group's segments from base on, each leaving
 * its chunk's partial sum (every item of the group calls it). */
KS_FN void
index_tuned_round (__global const real *v,
                   __global real       *partial,
                   const ulong          segments,
                   const ulong          w,
                   const uint           nb,
                   const ulong          cw,
                   const int            vec,
                   KS_LOCAL_PTR (real)  s,
                   const ulong          base)
{
#if INDEX_PATH == 1
  const uint S = get_sub_group_size (), sg = get_sub_group_id (), lane = get_sub_group_local_id ();
#else
  const uint lid = (uint) get_local_id (0), S = 32, sg = lid / 32, lane = lid % 32;
#endif
  /* seg - i nb, not seg % nb: clang freezes a shared / and %, which
   * Oclgrind's uninitialized-value check cannot run. */
  const ulong seg = base + sg, i = seg / nb, c0 = (seg - i * nb) * cw;
  /* Past the last segment, an empty chunk of row 0. */
  const ulong c1 = seg < segments ? (c0 + cw < w ? c0 + cw : w) : 0;
  real x = index_chunk_sum (v + (seg < segments ? i * w : 0), c0, c1, lane, S, vec);

#if INDEX_PATH == 2
  for (int off = 16; off > 0; off /= 2)
    x += __shfl_down_sync (0xffffffffu, x, off);
#elif INDEX_PATH == 1
  x = sub_group_reduce_add (x);
#else
  s[lid] = x;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint off = 16; off > 0; off /= 2)
    {
      if (lane < off)
        s[lid] += s[lid + off];
      barrier (CLK_LOCAL_MEM_FENCE);
    }
  x = s[lid];
  barrier (CLK_LOCAL_MEM_FENCE);
#endif
  if (lane == 0 && seg < segments)
    partial[seg] = x;
}

/* Kernel 1: rows x nb segments of 32 items (or of the sub-group), each
 * leaving one partial sum; cw values per chunk (a multiple of INDEX_VW
 * when vec).  With warp shuffles or sub-groups a grid-stride loop takes
 * the segments past the launch's; the local tree's launch covers every
 * segment in one round instead (the host sizes it so): PoCL 5 on an
 * AVX-512 host aborts compiling its barriers inside that loop
 * ("region_entry_barrier != NULL", Kernel.cc). */
__kernel void
index_sum_tuned (__global const real *v,
                 __global real       *partial,
                 const ulong          rows,
                 const ulong          w,
                 const uint           nb,
                 const ulong          cw,
                 const int            vec,
                 KS_LOCAL_PARAM (real, s))
{
  KS_LOCAL_BIND (real, s);
#if INDEX_PATH == 1
  const uint per_group = get_num_sub_groups ();
#else
  const uint per_group = (uint) get_local_size (0) / 32;
#endif
  const ulong segments = rows * nb;

  /* Kernel 2 may be placed on the machine now, to wait there for this one
   * to end (CUDA's programmatic dependent launch; nothing elsewhere). */
  ks_grid_start_next ();
#if INDEX_PATH == 0
  index_tuned_round (v, partial, segments, w, nb, cw, vec, s, get_group_id (0) * per_group);
#else
  const ulong stride = (ulong) get_num_groups (0) * per_group;

  for (ulong base = get_group_id (0) * per_group; base < segments; base += stride)
    index_tuned_round (v, partial, segments, w, nb, cw, vec, s, base);
#endif
}

/* Kernel 2: one item per row adds its nb partial sums. */
__kernel void
index_sum_tuned_finish (__global const real *partial,
                        __global real       *sum,
                        const ulong          rows,
                        const uint           nb)
{
  const ulong i = get_global_id (0);

  /* Started early on CUDA (ks_kernel_set_waits_previous): kernel 1's
   * partial sums are complete and visible once this returns. */
  ks_grid_wait_previous ();
  if (i < rows)
    {
      __global const real *p = partial + i * nb;
      real x = p[0];

      for (uint b = 1; b < nb; b++)
        x += p[b];
      sum[i] = x;
    }
}
