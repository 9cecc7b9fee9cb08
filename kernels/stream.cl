/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device bandwidth probe (after BabelStream, Deakin et al.): copy and
 * triad over arrays far larger than any cache.  One source for OpenCL and
 * CUDA (through cuda-prelude.h); KS_REAL as in gauss.cl.  Bytes moved per
 * element: copy 2, triad 3 (two reads, one write). */

#ifdef KS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef KS_REAL
#define KS_REAL float
#endif

__kernel void
ks_stream_init (__global KS_REAL *a,
                __global KS_REAL *b,
                __global KS_REAL *c,
                const int         n)
{
  const int i = (int) get_global_id (0);
  if (i >= n)
    return;
  a[i] = (KS_REAL) 0.1;
  b[i] = (KS_REAL) 0.2;
  c[i] = (KS_REAL) 0.0;
}

__kernel void
ks_stream_copy (__global const KS_REAL *a,
                __global KS_REAL       *c,
                const int               n)
{
  const int i = (int) get_global_id (0);
  if (i < n)
    c[i] = a[i];
}

__kernel void
ks_stream_triad (__global KS_REAL       *a,
                 __global const KS_REAL *b,
                 __global const KS_REAL *c,
                 const KS_REAL           scalar,
                 const int               n)
{
  const int i = (int) get_global_id (0);
  if (i < n)
    a[i] = b[i] + scalar * c[i];
}
