/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-private.h: shared by the CUDA device list and runtime. */
#pragma once

#include <glib.h>
#include <cuda_runtime_api.h>

G_BEGIN_DECLS

/* Maps a CUDA runtime status to the error a user can act on: TRUE for
 * cudaSuccess; else a KS_COMPUTE_ERROR saying what failed, and whether the
 * context is lost for good (a sticky error). */
gboolean ks_cuda_check (cudaError_t  status,
                        const char  *what,
                        GError     **error);

G_END_DECLS
