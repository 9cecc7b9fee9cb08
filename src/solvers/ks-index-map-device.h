/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-map-device.h: what a device says about paper 003's launches:
 * the block size its occupancy calculation suggests for the fill kernel
 * (kernels/index.cl), and its limits, for ks_index_map(). */
#pragma once

#include <glib.h>

#include "ks-device.h"
#include "ks-index-map.h"
#include "ks-runtime.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef struct {
  guint64 block;          /* the suggested block (work-group) size */
  guint64 kernel_max;     /* the most the kernel may have on this device */
  /* How the number was found, for the user: CUDA's occupancy API, or on
   * OpenCL (which has none) the kernel's limit rounded down to its
   * preferred multiple.  Translated. */
  char   *source;
} KsIndexSuggestion;

/* Builds index_fill_flat on device and asks it.  The host device launches
 * no blocks: KS_COMPUTE_ERROR_UNSUPPORTED, saying so. */
gboolean ks_index_suggest_block   (KsDevice          *device,
                                   KsPrecision        precision,
                                   KsIndexSuggestion *out,
                                   GError           **error);
void     ks_index_suggestion_clear (KsIndexSuggestion *suggestion);
/* The same for a kernel already built on device (the solver's). */
void     ks_index_suggest_for_kernel (KsDevice          *device,
                                      KsKernel          *kernel,
                                      KsIndexSuggestion *out);

/* The domain's values (one per point, of precision) against the device's
 * largest buffer and memory. */
gboolean ks_index_domain_check_device (const KsIndexDomain *domain,
                                       KsDevice            *device,
                                       KsPrecision          precision,
                                       GError             **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KsIndexSuggestion, ks_index_suggestion_clear)

G_END_DECLS
