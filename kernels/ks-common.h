/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-common.h: helpers every kernel of kernels/ may include
 * (#include "ks-common.h"; the runtime inlines it, ks-kernel-source.c), the
 * same on OpenCL and on CUDA through cuda-prelude.h.
 *
 * Local-memory arguments.  OpenCL passes a __local pointer; CUDA has no
 * such parameter, only the launch's dynamic shared memory, so there the
 * argument is a byte offset into it (the backend lays the arguments out).
 * A kernel writes both with two macros:
 *
 *   __kernel void k (__global const float *in, KS_LOCAL_PARAM (float, scratch))
 *   {
 *     KS_LOCAL_BIND (float, scratch);
 *     ...scratch[get_local_id (0)] = ...
 *
 * and a helper that takes such memory declares it KS_LOCAL_PTR (float). */
#ifndef KS_COMMON_H
#define KS_COMMON_H

/* A helper function: device code on CUDA, a plain inline one on OpenCL. */
#ifdef KS_CUDA
#define KS_FN static __device__ __forceinline__
#else
#define KS_FN static inline
#endif

#if defined (KS_FP64) && !defined (KS_CUDA)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifdef KS_CUDA
#define KS_LOCAL_PARAM(T, name) size_t name##_ks_offset
#define KS_LOCAL_BIND(T, name)  T *name = (T *) (ks_dynamic_shared + name##_ks_offset)
#define KS_LOCAL_PTR(T)         T *
#else
#define KS_LOCAL_PARAM(T, name) __local T *name
#define KS_LOCAL_BIND(T, name)  (void) 0
#define KS_LOCAL_PTR(T)         __local T *
#endif

/* The item's index over the whole range, dimension 0 fastest.  It needs
 * the true global size, which CUDA knows only in a program built with
 * -DKS_GLOBAL_OFFSET (cuda-prelude.h): elsewhere on CUDA it is not defined,
 * and NVRTC says "identifier ks_global_linear_id is undefined", rather than
 * the helper counting rows of the padded grid (a different index than on
 * OpenCL whenever global[0] is no multiple of the block). */
#if !defined (KS_CUDA) || defined (KS_GLOBAL_OFFSET)
KS_FN size_t
ks_global_linear_id (void)
{
  return (get_global_id (2) - get_global_offset (2)) * get_global_size (1) * get_global_size (0) +
         (get_global_id (1) - get_global_offset (1)) * get_global_size (0) +
         (get_global_id (0) - get_global_offset (0));
}
#endif

/* Programmatic dependent launch (CUDA, compute capability 9.0 and up).  A
 * kernel the host marks with ks_kernel_set_waits_previous () may start
 * while the launch before it on its queue is still running: it calls
 * ks_grid_wait_previous () before it reads or writes memory, which returns
 * once that launch has ended and its writes are visible.  A kernel calls
 * ks_grid_start_next () where the next launch may begin to start (its own
 * groups all running); without it the next starts as this one's groups
 * end.  Elsewhere (OpenCL, older devices) both are nothing, and the launch
 * order alone orders the kernels. */
#if defined (KS_CUDA) && defined (__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define ks_grid_wait_previous() asm volatile ("griddepcontrol.wait;" ::: "memory")
#define ks_grid_start_next()    asm volatile ("griddepcontrol.launch_dependents;" :::)
#else
#define ks_grid_wait_previous() (void) 0
#define ks_grid_start_next()    (void) 0
#endif

/* Address tracing, for tests/test-access.c alone, which compares what a
 * kernel touches with the host's model of it (src/solvers/ks-access.h).
 * A kernel reads and writes the global memory it wants traced as
 *
 *   KS_LD (row, i)   for row[i],       KS_ST (dst, r, v)   for dst[r] = v,
 *
 * names its buffers once with KS_TRACE_BASE (0, in), and ends its
 * parameter list (and its helpers', calls passing KS_TRACE_ARG) with
 * KS_TRACE_PARAM.  Built normally they are the plain indexing and nothing
 * else, the very same code; with -DKS_TRACE the kernel takes one more
 * argument, a uint buffer: [0] the entries written (atomic), [1] the room
 * for them, [2 + 2k] and [3 + 2k] buffer k's address, from word 32 four
 * words an entry: the item's linear global id, the address (low, high),
 * the size with bit 31 set for a write.  Plain C, so NVRTC reads it too. */
#ifdef KS_TRACE
#define KS_TRACE_PARAM      , __global uint *ks_trace
#define KS_TRACE_ARG        , ks_trace
#define KS_TRACE_NONE       , (__global uint *) 0
#define KS_LD(p, i)         (ks_trace_note (ks_trace, (ulong) &(p)[i], (uint) sizeof ((p)[i]), 0u), (p)[i])
#define KS_ST(p, i, v)      (ks_trace_note (ks_trace, (ulong) &(p)[i], (uint) sizeof ((p)[i]), 1u), (p)[i] = (v))
#define KS_TRACE_BASE(k, p) ks_trace_base (ks_trace, (k), (ulong) (p))
#define KS_TRACE_HEAD       32u

KS_FN void
ks_trace_base (__global uint *t, uint k, ulong address)
{
  t[2 + 2 * k] = (uint) address;
  t[3 + 2 * k] = (uint) (address >> 32);
}

KS_FN void
ks_trace_note (__global uint *t, ulong address, uint size, uint write)
{
  uint e;

  if (!t)
    return;
  e = (uint) atomic_inc (&t[0]);
  if (e >= t[1])
    return;
  t[KS_TRACE_HEAD + 4 * e] = (uint) ((get_global_id (2) * get_global_size (1) + get_global_id (1)) *
                                     get_global_size (0) + get_global_id (0));
  t[KS_TRACE_HEAD + 4 * e + 1] = (uint) address;
  t[KS_TRACE_HEAD + 4 * e + 2] = (uint) (address >> 32);
  t[KS_TRACE_HEAD + 4 * e + 3] = size | (write << 31);
}
#else
#define KS_TRACE_PARAM
#define KS_TRACE_ARG
#define KS_TRACE_NONE
#define KS_LD(p, i)         (p)[i]
#define KS_ST(p, i, v)      ((p)[i] = (v))
#define KS_TRACE_BASE(k, p) (void) 0
#endif

/* Tree sum of the group's values in s[0 .. get_local_size (0)), any group
 * size (a power of two or not); every item of the group must call it.  The
 * sum ends in s[0] and is returned to every item. */
#define KS_DEFINE_GROUP_SUM(T)                                                \
  KS_FN T                                                                     \
  ks_group_sum_##T (KS_LOCAL_PTR (T) s)                                       \
  {                                                                           \
    const uint lid = (uint) get_local_id (0);                                 \
    uint n = (uint) get_local_size (0);                                       \
    T total;                                                                  \
    barrier (CLK_LOCAL_MEM_FENCE);                                            \
    while (n > 1)                                                             \
      {                                                                       \
        const uint upper = (n + 1) / 2;                                       \
        if (lid + upper < n)                                                  \
          s[lid] += s[lid + upper];                                           \
        barrier (CLK_LOCAL_MEM_FENCE);                                        \
        n = upper;                                                            \
      }                                                                       \
    total = s[0];                                                             \
    barrier (CLK_LOCAL_MEM_FENCE);                                            \
    return total;                                                             \
  }
KS_DEFINE_GROUP_SUM (float)
KS_DEFINE_GROUP_SUM (int)
KS_DEFINE_GROUP_SUM (uint)
#ifdef KS_FP64
KS_DEFINE_GROUP_SUM (double)
#endif

/* Row + 1 of a zero pivot into *slot (0: none yet) where several items of
 * a group may find one at once (PARACR's rows, paracr-thomas's and
 * thomas-split's pieces): the smallest row wins, by compare-and-swap, so
 * the items never race on the word and the report does not hang on their
 * timing. */
KS_FN void
ks_report_row (__global int *slot, int row1)
{
  int old = atomic_cmpxchg (slot, 0, row1);

  while (old != 0 && row1 < old)
    {
      const int seen = atomic_cmpxchg (slot, old, row1);
      if (seen == old)
        break;
      old = seen;
    }
}

#endif /* KS_COMMON_H */
