/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cg-private.h: what the host and device CG share, and what the heat
 * step on the device (ks-heat-device.c) reaches inside the device CG: it
 * assembles the matrix values and the right-hand side straight into the
 * CG's buffers with its own kernels, on the CG's runtime, and solves with
 * x and b left where they are (paper 004: the whole step on the device). */
#pragma once

#include "ks-cg.h"
#include "ks-runtime.h"

G_BEGIN_DECLS

gboolean ks_cg_check_options     (const KsCgOptions *options,
                                  GError           **error);
/* KS_SOLVER_ERROR_NOT_CONVERGED with a sample of the history (relative
 * residuals, n of them from iteration 0). */
void     ks_cg_set_not_converged (GError           **error,
                                  const KsCgOptions *options,
                                  const double      *history,
                                  guint              n);

/* The build options of heat-cg.cl for device in precision: the real type,
 * and -DKS_GPU on a GPU (the fused loops' batches, heat-cg.cl CG_BATCH;
 * KS_CG_BATCHED=0|1 overrides). */
const char *ks_cg_program_options (KsDevice    *device,
                                   KsPrecision  precision);

typedef enum {
  KS_CG_BUFFER_ROW_PTR,
  KS_CG_BUFFER_COL,
  KS_CG_BUFFER_VAL,   /* the matrix values, in the CG's precision */
  KS_CG_BUFFER_B,
  KS_CG_BUFFER_X,     /* the initial guess in, the solution out */
} KsCgBuffer;

/* Uploads a's pattern (only when it differs from the last one's) and makes
 * the vectors, leaving the values to the caller. */
gboolean     ks_cg_device_set_pattern     (KsCgDevice        *cg,
                                           const KsCsr       *a,
                                           GError           **error);
/* The solve with b, x and the values already in the CG's buffers; x stays
 * there (nothing crosses the bus but the state words and the scalars). */
gboolean     ks_cg_device_solve_resident  (KsCgDevice        *cg,
                                           const KsCgOptions *options,
                                           KsCgResult        *out,
                                           GError           **error);
KsRuntime   *ks_cg_device_get_runtime     (KsCgDevice        *cg);
KsPrecision  ks_cg_device_get_precision   (KsCgDevice        *cg);
/* One of the CG's buffers, once a pattern is set; borrowed. */
KsBuffer    *ks_cg_device_get_buffer      (KsCgDevice        *cg,
                                           KsCgBuffer         which);
/* Another kernels/ source built with the CG's precision options on its
 * runtime, once per CG (the experiment keeps one CG per device for many
 * meshes, so the build is not paid per mesh); borrowed. */
KsProgram   *ks_cg_device_get_program     (KsCgDevice        *cg,
                                           const char        *source,
                                           GError           **error);

G_END_DECLS
