/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cores-table.h: cores (FP32 lanes) per compute unit.
 *
 * OpenCL does not report how many cores a compute unit has, yet the paper's
 * optimal-group rule needs it.  We know it per architecture from the vendors'
 * documentation; where we do not, we say so and the user can override it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Cores per SM of an NVIDIA GPU of compute capability major.minor (CUDA C
 * Programming Guide, "Arithmetic Instructions" throughput table); 0 if unknown. */
guint ks_cores_per_sm_for_compute_capability (int major,
                                              int minor);

/* Best guess for an OpenCL device.  cc_major/minor < 0 when not an NVIDIA
 * device.  Returns 0 when unknown; *out_source names where the number comes
 * from (a static string, e.g. "NVIDIA compute capability 9.0"). */
guint ks_cores_per_cu_lookup (const char  *vendor,
                              const char  *name,
                              gboolean     is_cpu,
                              gboolean     is_gpu,
                              int          cc_major,
                              int          cc_minor,
                              const char **out_source);

G_END_DECLS
