/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_MICRO_BUILTINS=0 | -DKS_MICRO_BUILTINS=1 */
/* Paper 001, section 4.3 (built-in functions, Table 5): the loop body
 *
 *   result = mad_sat (result, first, second);     result = result * first + second;
 *   result = abs_diff (result, third);       vs   result = abs (result - third);
 *   result = hadd (result, fourth);               result = (result + fourth) >> 1;
 *
 * repeated 16 times inside a loop of `iterations` (the paper: 2^20), with
 * -DKS_MICRO_BUILTINS=1 for the left column, 0 for the right.  The two do
 * not compute the same numbers (mad_sat saturates where the plain product
 * wraps), and the paper compared only their times; each is checked against
 * a host loop of its own semantics (ks-micro-builtins.c).
 *
 * The paper starts every work-item from result = 0, so that all compute
 * the same thing; here each starts from its input element, so that no
 * compiler can share the work between items.
 *
 * CUDA has none of the three: there they are the functions below, which
 * is what the paper suspects NVIDIA's OpenCL made of them too. */
#include "ks-common.h"

#if defined (KS_CUDA) && KS_MICRO_BUILTINS
typedef unsigned short ushort;

KS_FN short
mad_sat (short a, short b, short c)
{
  const int r = (int) a * b + c;
  return (short) (r < -32768 ? -32768 : r > 32767 ? 32767 : r);
}

KS_FN ushort
abs_diff (short a, short b)
{
  const int d = (int) a - b;
  return (ushort) (d < 0 ? -d : d);
}

KS_FN short
hadd (short a, short b)
{
  return (short) (((int) a + b) >> 1);
}
#endif

#if KS_MICRO_BUILTINS
#define KS_BODY                                 \
  result = mad_sat (result, first, second);     \
  result = abs_diff (result, third);            \
  result = hadd (result, fourth);
#else
#define KS_BODY                                 \
  result = result * first + second;             \
  result = abs (result - third);                \
  result = (result + fourth) >> 1;
#endif
#define KS_BODY4  KS_BODY KS_BODY KS_BODY KS_BODY
#define KS_BODY16 KS_BODY4 KS_BODY4 KS_BODY4 KS_BODY4

__kernel void
micro_builtins (__global const short *input,
                __global short       *output,
                const uint            items,
                const uint            iterations)
{
  const uint index = (uint) get_global_id (0);
  const short first = 5, second = 2, third = 7, fourth = 4;
  short result;

  if (index >= items)
    return;
  result = input[index];
  for (uint i = 0; i < iterations; i++)
    {
      KS_BODY16
    }
  output[index] = result;
}
