/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA only (NVRTC, with the toolkit's CUB headers): paper 003's row sums
 * by CUB's block reduction, one block per row as cub::DeviceSegmentedReduce
 * runs a segment, the library baseline beside the paper's two kernels.
 * DeviceSegmentedReduce itself is host code (a template that picks and
 * launches its kernels), which NVRTC cannot compile; its per-segment
 * kernel is this: BlockReduce over a strided loop of the segment. */
#include <cub/block/block_reduce.cuh>

#ifndef KS_REAL
#define KS_REAL double
#endif
#ifndef KS_CUB_THREADS
#define KS_CUB_THREADS 256
#endif

extern "C" __global__ void __launch_bounds__ (KS_CUB_THREADS)
index_sum_cub (const KS_REAL *v, KS_REAL *sum, unsigned long long w)
{
  typedef cub::BlockReduce<KS_REAL, KS_CUB_THREADS> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long i = blockIdx.x;
  KS_REAL x = 0;

  for (unsigned long long j = threadIdx.x; j < w; j += KS_CUB_THREADS)
    x += v[i * w + j];
  x = Reduce (temp).Sum (x);
  if (threadIdx.x == 0)
    sum[i] = x;
}
