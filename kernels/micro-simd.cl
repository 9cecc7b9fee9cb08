/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_MICRO_WIDTH=1 | -DKS_MICRO_WIDTH=2 | -DKS_MICRO_WIDTH=4
 *   | -DKS_MICRO_WIDTH=8 | -DKS_MICRO_WIDTH=16 */
/* Paper 001, section 4.2 (SIMD): a compute-bound loop on short vectors,
 *
 *   result += ((((input - result) * 5) + 2) / 7) - 4      (2^20 times)
 *
 * built once per width: -DKS_MICRO_WIDTH=1, 2, 4, 8 or 16 makes vshort
 * short, short2, ..., short16, and each work-item works on one vshort.
 * The paper reads input[index] inside the loop; nothing in the loop
 * writes memory, so every compiler hoists that load, and so does this.
 *
 * Vector arithmetic on short wraps at 16 bits where the scalar one is
 * done in int; the inputs stay within +-1000, where result converges to
 * about input - 6 and no intermediate leaves a short, so every width
 * computes the same numbers as the host (ks-micro-simd.c).
 *
 * CUDA has no short8 or short16 and no arithmetic on its short2/short4
 * structs: there vshort is a struct of KS_MICRO_WIDTH shorts with the
 * four operators written out lane by lane, which is what NVIDIA's OpenCL
 * compiler makes of a vector too (the paper: "SIMD operations unfold into
 * several ordinary ones"). */
#include "ks-common.h"

#ifndef KS_MICRO_WIDTH
#define KS_MICRO_WIDTH 1
#endif

#if KS_MICRO_WIDTH == 1
typedef short vshort;
#define KS_VSHORT(v) ((short) (v))
#elif defined (KS_CUDA)
struct vshort
{
  short s[KS_MICRO_WIDTH];
};
#define KS_VSHORT_OP(op)                                       \
  static __device__ __forceinline__ vshort                     \
  operator op (const vshort a, const vshort b)                 \
  {                                                            \
    vshort r;                                                  \
    _Pragma ("unroll")                                         \
    for (int k = 0; k < KS_MICRO_WIDTH; k++)                   \
      r.s[k] = (short) (a.s[k] op b.s[k]);                     \
    return r;                                                  \
  }
KS_VSHORT_OP (+)
KS_VSHORT_OP (-)
KS_VSHORT_OP (*)
KS_VSHORT_OP (/)
static __device__ __forceinline__ vshort &
operator+= (vshort &a, const vshort b)
{
  a = a + b;
  return a;
}
KS_FN vshort
ks_vshort_splat (short v)
{
  vshort r;
#pragma unroll
  for (int k = 0; k < KS_MICRO_WIDTH; k++)
    r.s[k] = v;
  return r;
}
#define KS_VSHORT(v) ks_vshort_splat ((short) (v))
#else
#define KS_CAT2(a, b) a##b
#define KS_CAT(a, b)  KS_CAT2 (a, b)
typedef KS_CAT (short, KS_MICRO_WIDTH) vshort;
#define KS_VSHORT(v) ((vshort) ((short) (v)))
#endif

__kernel void
micro_simd (__global const vshort *input,
            __global vshort       *output,
            const uint             items,
            const uint             iterations)
{
  const uint index = (uint) get_global_id (0);
  vshort in, result;

  if (index >= items)
    return;
  in = input[index];
  result = KS_VSHORT (0);
  for (uint i = 0; i < iterations; i++)
    result += ((((in - result) * KS_VSHORT (5)) + KS_VSHORT (2)) / KS_VSHORT (7)) - KS_VSHORT (4);
  output[index] = result;
}
