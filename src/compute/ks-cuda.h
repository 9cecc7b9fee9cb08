/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda.h: the CUDA backend, through the CUDA runtime (linked statically,
 * so the binary has no NEEDED libcuda.so.1 and starts where there is no
 * driver) and NVRTC, which compiles the very kernels/ sources (*.cl) the OpenCL
 * backend runs, through kernels/cuda-prelude.h.  NVRTC and cuSOLVER are
 * opened with dlopen on first use, so neither is needed to start.
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

/* Compiles OpenCL C source (a kernels/ file) with NVRTC through
 * kernels/cuda-prelude.h into a cubin for compute capability major.minor.
 * Needs no driver, so the prelude is tested on machines without a GPU.
 * *out_log (may be NULL) receives NVRTC's log; a refusal is
 * KS_COMPUTE_ERROR_BUILD_FAILED with the log in the message.  Without
 * NVRTC (driver but no toolkit) it is KS_COMPUTE_ERROR_UNSUPPORTED:
 * "NVRTC (libnvrtc.so) not found: install the CUDA toolkit's NVRTC". */
GBytes     *ks_cuda_compile          (const char  *source,
                                      gsize        length,
                                      const char  *options,
                                      int          cc_major,
                                      int          cc_minor,
                                      char       **out_log,
                                      GError     **error);

/* "cudaErrorInsufficientDriver" for 35, etc. */
const char *ks_cuda_error_name       (int         status);

/* Dense LU solve with cuSOLVER (getrf + getrs), the library baseline of
 * "bench gauss".  a is n x n row-major, b has n values, both in double;
 * the solve runs in float or double.  device_ms is the time of getrf +
 * getrs by CUDA events; wall_ms adds the uploads and the download (not the
 * conversion into the solve's precision, which comes before it).  The
 * device buffers and workspace are kept for the next solve of the same n,
 * precision and device, so wall_ms holds no allocation, as the kernel
 * solvers' does not; ks_cuda_dense_release() frees them.  A singular matrix
 * (getrf's info > 0) is KS_GAUSS_ERROR_SINGULAR.  cuSOLVER is opened on
 * first use; when it cannot be, the error is KS_COMPUTE_ERROR_UNSUPPORTED
 * and says which library is missing. */
gboolean    ks_cuda_dense_solve      (KsDevice     *device,
                                      gboolean      fp64,
                                      guint         n,
                                      const double *a,
                                      const double *b,
                                      double       *x,
                                      double       *device_ms,
                                      double       *wall_ms,
                                      GError      **error);
/* Whether cuSOLVER can be opened (KS_COMPUTE_ERROR_UNSUPPORTED naming the
 * missing library if not), without a device or a solve: so a benchmark can
 * list it as skipped up front. */
gboolean    ks_cuda_dense_available  (GError      **error);
/* Frees what ks_cuda_dense_solve() keeps on the device (the handle stays). */
void        ks_cuda_dense_release    (void);

G_END_DECLS
