/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuda-prelude.h: what NVRTC reads before a .cl file of kernels/, so the same
 * OpenCL C source runs on the CUDA backend (ks-cuda.c).  Only the subset the
 * kernels use is mapped; anything else fails to compile with a clear NVRTC
 * message rather than silently meaning something different.
 *
 * Work-item functions follow OpenCL: dimension 0 is x.  The CUDA backend
 * rounds the grid up to whole blocks when no local size is given (CUDA
 * has no partial groups; with a local size the range must be a multiple of
 * it), so without -DKS_GLOBAL_OFFSET get_global_size() is the padded size;
 * every kernel here tests its own bounds, which is what makes that safe.
 * With -DKS_GLOBAL_OFFSET it is the launch's true size, as on OpenCL. */
#pragma once

#define __kernel   extern "C" __global__
#define __global
#define __local    __shared__
#define __constant const
#define __private

#define CLK_LOCAL_MEM_FENCE  1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(flags) __syncthreads ()
/* Orders this item's global writes before its later ones for every
 * group of the grid (a last-group reduction: write, fence, count in). */
#define mem_fence(flags) __threadfence ()
/* OpenCL 1.1's 32-bit global atomics. */
#define atomic_cmpxchg(p, cmp, val) atomicCAS ((int *) (p), (cmp), (val))
#define atomic_inc(p)               atomicAdd ((unsigned int *) (p), 1u)

typedef unsigned int  uint;
typedef unsigned long ulong;
typedef unsigned char uchar;

static __device__ __forceinline__ unsigned int
ks_dim3_get (const dim3 &v, unsigned int d)
{
  return d == 0 ? v.x : d == 1 ? v.y : d == 2 ? v.z : 1u;
}

static __device__ __forceinline__ unsigned int
ks_uint3_get (const uint3 &v, unsigned int d)
{
  return d == 0 ? v.x : d == 1 ? v.y : d == 2 ? v.z : 0u;
}

static __device__ __forceinline__ size_t get_local_id   (unsigned int d) { return ks_uint3_get (threadIdx, d); }
static __device__ __forceinline__ size_t get_group_id   (unsigned int d) { return ks_uint3_get (blockIdx, d); }
static __device__ __forceinline__ size_t get_local_size (unsigned int d) { return ks_dim3_get (blockDim, d); }
static __device__ __forceinline__ size_t get_num_groups (unsigned int d) { return ks_dim3_get (gridDim, d); }
/* OpenCL's global work offset (KsLaunchConfig.offset) and true global
 * size.  CUDA has neither: a program built with -DKS_GLOBAL_OFFSET reads
 * them from constant memory (offsets in [0, 3), sizes in [3, 6)), where the
 * backend writes them, stream-ordered, before a launch that changes them
 * (ks-cuda-runtime.c, set_geometry).  Only on request, because that read is
 * a load at the start of every get_global_id(): replayed from a CUDA
 * graph, where nothing else hides it, the Gauss solve took 19-25 % longer
 * with it on the H200. */
#ifdef KS_GLOBAL_OFFSET
extern "C" { __constant__ size_t ks_global_offset[6]; }
#define KS_OFFSET_OF(d) ks_global_offset[d]
#else
#define KS_OFFSET_OF(d) ((size_t) 0)
#endif
/* The launch's dynamic shared memory, where KS_LOCAL_BIND (ks-common.h)
 * places each local-memory argument at the offset the backend passed. */
extern __shared__ __align__ (16) unsigned char ks_dynamic_shared[];

static __device__ __forceinline__ size_t
get_global_offset (unsigned int d)
{
  return d < 3 ? KS_OFFSET_OF (d) : 0;
}
static __device__ __forceinline__ size_t
get_global_id (unsigned int d)
{
  return (size_t) ks_uint3_get (blockIdx, d) * ks_dim3_get (blockDim, d) + ks_uint3_get (threadIdx, d) +
         get_global_offset (d);
}
static __device__ __forceinline__ size_t
get_global_size (unsigned int d)
{
#ifdef KS_GLOBAL_OFFSET
  return d < 3 ? ks_global_offset[3 + d] : 1;
#else
  return (size_t) ks_dim3_get (gridDim, d) * ks_dim3_get (blockDim, d);
#endif
}

/* OpenCL's fabs is overloaded for float and double; CUDA's C library one is
 * double only, which would promote float kernels to double arithmetic. */
static __device__ __forceinline__ float  ks_fabs (float v)  { return fabsf (v); }
static __device__ __forceinline__ double ks_fabs (double v) { return ::fabs (v); }
#define fabs(v) ks_fabs (v)

/* OpenCL's popcount, for 32-bit integers. */
static __device__ __forceinline__ unsigned int popcount (unsigned int v) { return (unsigned int) __popc (v); }
