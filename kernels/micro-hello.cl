/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_MICRO_NONCE=0 */
/* Paper 001, section 4.1 ("Hello world"): the sum of two short arrays, one
 * element per work-item, as the paper's listing has it.  One source for
 * OpenCL and CUDA (through cuda-prelude.h); the bound test makes the CUDA
 * grid's padding (and any driver's) harmless.
 *
 * The build-time point passes -DKS_MICRO_NONCE=<a fresh number>, which the
 * source never reads: the build options are part of the key of PoCL's and
 * NVIDIA's on-disk kernel caches, so neither can answer and the time is a
 * real compile. */

__kernel void
micro_hello (__global const short *left,
             __global const short *right,
             __global short       *output,
             const uint            n)
{
  const uint index = (uint) get_global_id (0);

  if (index < n)
    output[index] = (short) (left[index] + right[index]);
}
