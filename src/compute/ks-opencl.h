/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-opencl.h: the OpenCL backend, through the ICD loader: every platform
 * and device the loader knows (PoCL provides the CPU device every machine has). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends a KsDevice for each OpenCL device to devices.  A machine with no
 * ICD installed is not an error: *out_note (may be NULL) says what was found. */
gboolean    ks_opencl_enumerate   (GPtrArray  *devices,
                                   char      **out_note,
                                   GError    **error);

/* "CL_INVALID_WORK_GROUP_SIZE" for -54, etc. */
const char *ks_opencl_error_name  (int         status);

G_END_DECLS
