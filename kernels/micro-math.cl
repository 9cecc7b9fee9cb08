/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_MICRO_F=sin | -DKS_MICRO_F=native_sin | -DKS_MICRO_F=cos
 *   | -DKS_MICRO_F=native_cos | -DKS_MICRO_F=exp | -DKS_MICRO_F=native_exp
 *   | -DKS_MICRO_F=log | -DKS_MICRO_F=native_log | -DKS_MICRO_F=sqrt
 *   | -DKS_MICRO_F=native_sqrt | -DKS_MICRO_F=rsqrt | -DKS_MICRO_F=native_rsqrt */
/* Paper 001, section 3.2.2.3 and 4.3: OpenCL's math functions in two
 * builds, the precise ones (sin, ...: the spec's error bounds, a few ulp)
 * and the native_ ones (native_sin, ...: the hardware's own, accuracy
 * implementation-defined).  -DKS_MICRO_F=sin or -DKS_MICRO_F=native_sin
 * names the function whole: pasting native_ to a name breaks where the
 * implementation's headers make sin a macro (PoCL: _cl_sin).
 *
 * micro_math_values evaluates it once per element (the error against
 * the host's double precision); micro_math_time evaluates it `iterations`
 * times per work-item at points that drift, so nothing can be hoisted.
 *
 * CUDA: native_sin, native_cos, native_exp, native_log are its fast
 * intrinsics __sinf, __cosf, __expf, __logf; it has no fast sqrt or rsqrt
 * beside sqrtf and rsqrtf, so there both builds are the same code. */
#include "ks-common.h"

#ifdef KS_CUDA
#define native_sin  __sinf
#define native_cos  __cosf
#define native_exp  __expf
#define native_log  __logf
#define native_sqrt sqrtf
#define native_rsqrt rsqrtf
#endif

#define KS_F(x) KS_MICRO_F (x)

__kernel void
micro_math_values (__global const float *x,
                   __global float       *y,
                   const uint            n)
{
  const uint i = (uint) get_global_id (0);

  if (i < n)
    y[i] = KS_F (x[i]);
}

__kernel void
micro_math_time (__global const float *x,
                 __global float       *y,
                 const uint            n,
                 const uint            iterations)
{
  const uint i = (uint) get_global_id (0);
  float v, acc = 0.0f;

  if (i >= n)
    return;
  v = x[i];
  for (uint k = 0; k < iterations; k++)
    {
      acc += KS_F (v);
      v += 1.0e-6f;
    }
  y[i] = acc;
}
