/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-lib.h: what the CUDA library baselines (cuSOLVER, cuBLAS) share:
 * opening a library at run time and naming a failed CUDA call.  Built only
 * with the CUDA toolkit (KS_HAVE_CUDA). */
#pragma once

#include <glib.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* dlopen()s soname from the loader's search path, then from the toolkit's
 * own lib64; NULL with *failure saying why. */
void     *ks_cuda_lib_open  (const char  *soname,
                             char       **failure);
/* *out = name's address in lib, unless *failure is already set; a missing
 * symbol sets *failure ("SONAME has no NAME"). */
void      ks_cuda_lib_sym   (void        *lib,
                             const char  *soname,
                             const char  *name,
                             void       **out,
                             char       **failure);
/* FALSE with a KS_COMPUTE_ERROR naming what failed and CUDA's words
 * (OUT_OF_MEMORY for an allocation) unless status is cudaSuccess. */
gboolean  ks_cuda_lib_check (cudaError_t  status,
                             const char  *what,
                             GError     **error);

G_END_DECLS
