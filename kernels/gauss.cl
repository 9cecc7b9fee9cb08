/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gaussian elimination without pivoting, as in Baranov & Vlatskaya (2013):
 * four kernels, two per phase, over the augmented matrix a (n rows of n + 1
 * columns, row-major, the right-hand side b in column n).
 *
 * Every kernel takes the first row (row0) and, for the 2D update, the first
 * column (col0) its range starts at, instead of a global work offset: one
 * source then serves the FIXED range (row0 = col0 = 0, items outside the
 * active part exit), the SHRINKING range (row0 = k + 1, col0 = k, no item
 * exits) and the SPLIT policy's remainder launch (col0 past the main part),
 * and it stays portable to CUDA, which has no global offset.
 *
 * Indices are computed in size_t: n (n + 1) passes 2^31 at n = 46341.
 * Built with -DKS_REAL=float or -DKS_REAL=double (and -DKS_FP64 for the
 * latter); test-cuda compiles each through NVRTC:
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64 */

#ifdef KS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef KS_REAL
#define KS_REAL float
#endif
typedef KS_REAL real;

/* Layout of the small int buffer "info" the kernels report through. */
#define KS_INFO_FWD_LOCAL0     0   /* gauss_fwd: get_local_size(0) the driver used */
#define KS_INFO_FWD_LOCAL1     1
#define KS_INFO_FWD_GROUPS0    2   /* gauss_fwd: get_num_groups(0) */
#define KS_INFO_FWD_GROUPS1    3
#define KS_INFO_PRE_LOCAL      4   /* gauss_fwd_pre: get_local_size(0) */
#define KS_INFO_PRE_GROUPS     5
#define KS_INFO_BWD_LOCAL      6   /* gauss_bwd: get_local_size(0) */
#define KS_INFO_BWD_GROUPS     7
#define KS_INFO_BAD_PIVOT      8   /* 1 + the first row whose pivot is zero or tiny; 0 = none */

/* Forward step k, first kernel: the multiplier of each row below the pivot. */
__kernel void
gauss_fwd_pre (__global const real *a,
               __global real       *m,
               const int            n,
               const int            k,
               const int            row0,
               __global int        *info,
               const int            record)
{
  const int i = row0 + (int) get_global_id (0);
  const size_t w = (size_t) n + 1;

  if (record && get_global_id (0) == 0)
    {
      info[KS_INFO_PRE_LOCAL] = (int) get_local_size (0);
      info[KS_INFO_PRE_GROUPS] = (int) get_num_groups (0);
    }
  if (i <= k || i >= n)
    return;
  m[i] = a[(size_t) i * w + k] / a[(size_t) k * w + k];
}

/* Forward step k, second kernel: every element right of and below the pivot,
 * the b column included.  Column k is updated like the others and never read
 * again: the method ignores everything below the diagonal afterwards. */
__kernel void
gauss_fwd (__global real       *a,
           __global const real *m,
           const int            n,
           const int            k,
           const int            row0,
           const int            col0,
           __global int        *info,
           const int            record)
{
  const int j = col0 + (int) get_global_id (0);
  const int i = row0 + (int) get_global_id (1);
  const size_t w = (size_t) n + 1;

  /* What the driver chose when the host passed no local size: the paper's
   * explanation of the outliers, recorded by the first item of the first step. */
  if (record && get_global_id (0) == 0 && get_global_id (1) == 0)
    {
      info[KS_INFO_FWD_LOCAL0] = (int) get_local_size (0);
      info[KS_INFO_FWD_LOCAL1] = (int) get_local_size (1);
      info[KS_INFO_FWD_GROUPS0] = (int) get_num_groups (0);
      info[KS_INFO_FWD_GROUPS1] = (int) get_num_groups (1);
    }
  if (i <= k || i >= n || j < k || j > n)
    return;
  a[(size_t) i * w + j] -= m[i] * a[(size_t) k * w + j];
}

/* Backward step k, first kernel: x_k from the (already reduced) row k, on
 * one work-item; cheaper than a round trip to the host.  The pivot is final
 * here, so this is where a zero or tiny one is caught. */
__kernel void
gauss_bwd_prepare (__global const real *a,
                   __global real       *x,
                   const int            n,
                   const int            k,
                   __global int        *info,
                   const real           tiny)
{
  const size_t w = (size_t) n + 1;
  const real pivot = a[(size_t) k * w + k];

  if (get_global_id (0) != 0)
    return;
  /* Written for every bad k; steps run k = n-1 .. 0, so the first bad row stays. */
  if (!(fabs (pivot) > tiny))
    info[KS_INFO_BAD_PIVOT] = k + 1;
  x[k] = a[(size_t) k * w + n] / pivot;
}

/* Backward step k, second kernel: move x_k a_ik to the right-hand side of
 * every row above k. */
__kernel void
gauss_bwd (__global real       *a,
           __global const real *x,
           const int            n,
           const int            k,
           const int            row0,
           __global int        *info,
           const int            record)
{
  const int i = row0 + (int) get_global_id (0);
  const size_t w = (size_t) n + 1;

  if (record && get_global_id (0) == 0)
    {
      info[KS_INFO_BWD_LOCAL] = (int) get_local_size (0);
      info[KS_INFO_BWD_GROUPS] = (int) get_num_groups (0);
    }
  if (i >= k)
    return;
  a[(size_t) i * w + n] -= x[k] * a[(size_t) i * w + k];
}
