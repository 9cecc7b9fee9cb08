/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-compute-error.h: the failures of the compute layer a user can meet. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KS_COMPUTE_ERROR (ks_compute_error_quark ())
GQuark ks_compute_error_quark (void);

typedef enum {
  KS_COMPUTE_ERROR_NO_DEVICE,        /* the device list is empty or the named device is absent */
  KS_COMPUTE_ERROR_BUILD_FAILED,     /* the kernel compiler refused the source; message has the log */
  KS_COMPUTE_ERROR_OUT_OF_MEMORY,    /* the problem does not fit in device (or host) memory */
  KS_COMPUTE_ERROR_WORK_GROUP_SIZE,  /* the device refuses the requested work-group size */
  KS_COMPUTE_ERROR_UNSUPPORTED,      /* e.g. double precision on a device without fp64 */
  KS_COMPUTE_ERROR_DEVICE_LOST,      /* the device stopped answering or disappeared */
  KS_COMPUTE_ERROR_KERNEL_SOURCE,    /* a kernel source could not be loaded */
  KS_COMPUTE_ERROR_FAILED,           /* any other backend failure; message names the API error */
} KsComputeError;

G_END_DECLS
