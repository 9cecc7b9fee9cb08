/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-kernel-info.c: what the CUDA runtime and driver say about one
 * kernel beyond cudaFuncGetAttributes (its best block size, its
 * parameters), for ks-cuda-runtime.c's create_kernel. */
#include "ks-cuda-private.h"
#include "ks-runtime-private.h"

/* What cudaOccupancyMaxPotentialBlockSize (a C++ template, out of reach of
 * C) computes: the block size, in whole warps, that keeps the most threads
 * resident per SM; on a tie the larger block wins, as in the template. */
gsize
ks_cuda_occupancy_block_size (cudaKernel_t fn,
                              int          max_threads,
                              int          warp)
{
  int best = 0, best_occupancy = 0;

  for (int block = max_threads / warp * warp; block >= warp; block -= warp)
    {
      int blocks = 0;

      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&blocks, (const void *) fn, block, 0) != cudaSuccess)
        {
          (void) cudaGetLastError ();
          continue;
        }
      if (blocks * block > best_occupancy)
        {
          best_occupancy = blocks * block;
          best = block;
        }
    }
  return (gsize) best;
}

/* The kernel's parameter count and sizes, from cuKernelGetParamInfo (CUDA
 * 12.4's driver API; a cudaKernel_t is a CUkernel), reached through the
 * runtime's entry point so the program links no libcuda.  FALSE where the
 * driver cannot say: then only the arguments the caller set are checked. */
typedef CUresult (*ParamInfoFn) (CUkernel kernel, size_t index, size_t *offset, size_t *size);

gboolean
ks_cuda_read_params (cudaKernel_t fn,
                     KsKernel    *kernel)
{
  static ParamInfoFn param_info;
  static gsize looked_up;
  GArray *sizes;

  if (g_once_init_enter (&looked_up))
    {
      enum cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
      void *ptr = NULL;

      if (cudaGetDriverEntryPointByVersion ("cuKernelGetParamInfo", &ptr, 12040, cudaEnableDefault,
                                            &found) == cudaSuccess &&
          found == cudaDriverEntryPointSuccess)
        param_info = (ParamInfoFn) ptr;
      else
        (void) cudaGetLastError ();
      g_once_init_leave (&looked_up, 1);
    }
  if (param_info == NULL)
    return FALSE;
  sizes = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (size_t i = 0;; i++)
    {
      size_t offset = 0, size = 0;
      gsize value;

      /* CUDA_ERROR_INVALID_VALUE past the last parameter. */
      if (param_info ((CUkernel) fn, i, &offset, &size) != CUDA_SUCCESS)
        break;
      value = size;
      g_array_append_val (sizes, value);
    }
  kernel->n_params = sizes->len;
  kernel->param_sizes = (gsize *) g_array_free (sizes, FALSE);
  return TRUE;
}
