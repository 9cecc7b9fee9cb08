/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The kernels of tests/test-runtime*.c: each exercises one item of the
 * runtime seam, on OpenCL and (through cuda-prelude.h) on CUDA.  This file
 * includes the shared header, which is itself one of the things tested. */
#include "ks-common.h"

/* Per group: the sum of in[] and how many items were inside n, from two
 * local-memory arguments of different types (on CUDA two offsets into the
 * dynamic shared memory: a wrong layout overlaps them and both go wrong). */
__kernel void
rt_reduce (__global const float *in,
           __global float       *sums,
           __global uint        *counts,
           uint                  n,
           KS_LOCAL_PARAM (float, vals),
           KS_LOCAL_PARAM (uint, cnt))
{
  KS_LOCAL_BIND (float, vals);
  KS_LOCAL_BIND (uint, cnt);
  const size_t i = get_global_id (0);
  const uint lid = (uint) get_local_id (0);
  float s;
  uint c;

  vals[lid] = i < n ? in[i] : 0.0f;
  cnt[lid] = i < n ? 1u : 0u;
  s = ks_group_sum_float (vals);
  c = ks_group_sum_uint (cnt);
  if (lid == 0)
    {
      sums[get_group_id (0)] = s;
      counts[get_group_id (0)] = c;
    }
}

/* An argument larger than 16 bytes, by value (CUDA's old cap). */
typedef struct {
  float scale[8];
  float shift;
} RtParams;

__kernel void
rt_scale (__global float *x,
          RtParams        p,
          uint            n)
{
  const size_t i = get_global_id (0);

  if (i < n)
    x[i] = x[i] * p.scale[i % 8] + p.shift;
}

/* Writes each item's coordinates into a box of nx * ny * nz cells; only the
 * launch's own range [offset, offset + global) is written (CUDA pads the
 * grid to whole blocks, so the range is passed as its end). */
__kernel void
rt_index3d (__global uint *out,
            uint           nx,
            uint           ny,
            uint           x_end,
            uint           y_end,
            uint           z_end)
{
  const size_t x = get_global_id (0), y = get_global_id (1), z = get_global_id (2);

  if (x < x_end && y < y_end && z < z_end)
    out[(z * ny + y) * nx + x] = (uint) (x + 1000 * y + 1000000 * z);
}

/* Each item adds i + 1 to out[i]: run once over a zeroed buffer, every
 * cell holds its index + 1, and a cell run twice or never shows it. */
__kernel void
rt_touch (__global uint *out,
          uint           n)
{
  const size_t i = get_global_id (0);

  if (i < n)
    out[i] += (uint) i + 1u;
}

/* Slow on purpose (a long dependent loop), then writes 1: a second queue
 * that does not wait for it would read the old value. */
__kernel void
rt_slow_set (__global float *x,
             uint            n,
             uint            spin)
{
  const size_t i = get_global_id (0);
  float v = 0.0f;

  if (i >= n)
    return;
  for (uint k = 0; k < spin; k++)
    v = v * 0.5f + 1.0f;
  /* v is 2 - 2^(1-spin): above 1.5 for spin >= 2, and no compiler knows spin. */
  x[i] = v > 1.5f ? 1.0f : 0.0f;
}

/* x = 2 x + 1: after rt_slow_set 3, before it 1 (then overwritten by 1). */
__kernel void
rt_twice_plus_one (__global float *x,
                   uint            n)
{
  const size_t i = get_global_id (0);

  if (i < n)
    x[i] = 2.0f * x[i] + 1.0f;
}

/* out[ks_global_linear_id ()] = x + 1000 * y for each item of the nx * ny
 * range (CUDA's grid, padded to whole blocks, has items beyond it, which
 * the bounds test drops).  The helper needs the true global size, which
 * CUDA has only with -DKS_GLOBAL_OFFSET (test-offset-opt-in builds this
 * file without it). */
#if !defined (KS_CUDA) || defined (KS_GLOBAL_OFFSET)
__kernel void
rt_linear2d (__global uint *out,
             uint           nx,
             uint           ny)
{
  const size_t x = get_global_id (0), y = get_global_id (1);

  if (x < nx && y < ny)
    out[ks_global_linear_id ()] = (uint) (x + 1000 * y);
}
#endif

/* out[i] = in[(i + 1) % n] + 1: a neighbour written by another group of
 * the launch before, whose first group spins first.  The host marks it
 * ks_kernel_set_waits_previous: on CUDA (compute capability 9.0 and up) it
 * starts while the launch before ends, and the wait below is what keeps
 * it from reading the old value (test-runtime-queues /early-launch).
 * rt_chain_step_nowait leaves the wait out, to see that test fail there
 * (KS_TEST_NO_WAIT=1; not run by default). */
#define RT_CHAIN_STEP(name, WAIT)                                      \
  __kernel void                                                        \
  name (__global const uint *in,                                       \
        __global uint       *out,                                      \
        __global uint       *sink,                                     \
        uint                 n,                                        \
        uint                 spin)                                     \
  {                                                                    \
    const uint i = (uint) get_global_id (0);                           \
    uint acc = i;                                                      \
                                                                       \
    WAIT;                                                              \
    ks_grid_start_next ();                                             \
    if (i >= n)                                                        \
      return;                                                          \
    if (get_group_id (0) == 0)                                         \
      {                                                                \
        for (uint k = 0; k < spin; k++)                                \
          acc = acc * 1664525u + 1013904223u;                          \
        sink[i] = acc;                                                 \
      }                                                                \
    out[i] = in[(i + 1) % n] + 1u;                                     \
  }
RT_CHAIN_STEP (rt_chain_step, ks_grid_wait_previous ())
RT_CHAIN_STEP (rt_chain_step_nowait, (void) 0)
