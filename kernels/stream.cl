/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The device bandwidth probe (after BabelStream, Deakin et al.): copy and
 * triad over arrays far larger than any cache.  One source for OpenCL and
 * CUDA (through cuda-prelude.h).
 *
 * Each work-item moves one float4, 16 bytes, per array.  With one 4-byte
 * float per item the result depends on the group size rather than on the
 * memory: on an H100 a float triad gave 2495 GB/s with blocks of 1024 and
 * 2712 GB/s with 256, while float4 (and double) gave 3000-3065 GB/s with
 * any block from 128 to 1024, 91% of the data sheet's 3352.  n counts
 * float4 items; bytes moved per item: copy 2 x 16, triad 3 x 16 (two
 * reads, one write).
 *
 * CUDA's float4 is a plain struct without arithmetic, hence the two
 * spellings below.  (Writing the components one by one into a local
 * float4 in both languages made Oclgrind store poison in the triad.) */

#ifdef __OPENCL_VERSION__
#define ks_float4(v) ((float4) (v))
#else
#define ks_float4(v) make_float4 ((v), (v), (v), (v))
#endif

__kernel void
ks_stream_init (__global float4 *a,
                __global float4 *b,
                __global float4 *c,
                const int        n)
{
  const int i = (int) get_global_id (0);

  if (i >= n)
    return;
  a[i] = ks_float4 (0.1f);
  b[i] = ks_float4 (0.2f);
  c[i] = ks_float4 (0.0f);
}

__kernel void
ks_stream_copy (__global const float4 *a,
                __global float4       *c,
                const int              n)
{
  const int i = (int) get_global_id (0);
  if (i < n)
    c[i] = a[i];
}

__kernel void
ks_stream_triad (__global float4       *a,
                 __global const float4 *b,
                 __global const float4 *c,
                 const float            scalar,
                 const int              n)
{
  const int i = (int) get_global_id (0);

  if (i >= n)
    return;
#ifdef __OPENCL_VERSION__
  a[i] = b[i] + scalar * c[i];
#else
  /* CUDA's float4 has no arithmetic operators. */
  const float4 vb = b[i], vc = c[i];
  a[i] = make_float4 (vb.x + scalar * vc.x, vb.y + scalar * vc.y,
                      vb.z + scalar * vc.z, vb.w + scalar * vc.w);
#endif
}
