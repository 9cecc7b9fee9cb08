/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda.h: the CUDA backend, through the CUDA runtime (linked statically,
 * so the binary has no NEEDED libcuda.so.1 and starts where there is no
 * driver) and NVRTC, which compiles the very kernels/ sources (*.cl) the OpenCL
 * backend runs, through kernels/cuda-prelude.h.  NVRTC is opened
 * with dlopen on first use, so it is not needed to start (cuSOLVER, opened
 * the same way, is a baseline: src/baselines/ks-cusolver.h).
 *
 * Only built when meson finds the toolkit (KS_HAVE_CUDA). */
#pragma once

#include <glib.h>

#include "ks-device.h"

G_BEGIN_DECLS

/* Appends a KsDevice per CUDA device to devices and one line to notes that
 * says what was found, or why nothing was: "CUDA: no CUDA driver (...)",
 * "CUDA: no CUDA device", ... Never fails. */
void        ks_cuda_enumerate        (GPtrArray  *devices,
                                      GPtrArray  *notes);

/* The CUDA ordinal of a device of the CUDA backend. */
int         ks_cuda_device_ordinal   (KsDevice   *device);

/* Compiles OpenCL C source (a kernels/ file, named source_name in NVRTC's
 * messages, its includes already expanded) with NVRTC through
 * kernels/cuda-prelude.h into a cubin for compute capability major.minor.
 * Needs no driver, so the prelude is tested on machines without a GPU.
 * *out_log (may be NULL) receives NVRTC's log; a refusal is
 * KS_COMPUTE_ERROR_BUILD_FAILED with the log in the message.  Without
 * NVRTC (driver but no toolkit) it is KS_COMPUTE_ERROR_UNSUPPORTED:
 * "NVRTC (libnvrtc.so) not found: install the CUDA toolkit's NVRTC". */
GBytes     *ks_cuda_compile          (const char  *source_name,
                                      const char  *source,
                                      gsize        length,
                                      const char  *options,
                                      int          cc_major,
                                      int          cc_minor,
                                      char       **out_log,
                                      GError     **error);

/* A CUDA runtime status (cudaError_t) as the error a user can act on, for
 * the libraries above compute (cuSPARSE): TRUE for cudaSuccess, else a
 * KS_COMPUTE_ERROR saying what failed (out of memory as such). */
gboolean    ks_cuda_check_status     (int          status,
                                      const char  *what,
                                      GError     **error);

G_END_DECLS
