/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-opencl-private.h: shared by the OpenCL device list and runtime. */
#pragma once

#include <glib.h>
#include <CL/cl.h>

G_BEGIN_DECLS

/* Maps an OpenCL status to the error a user can act on: TRUE for
 * CL_SUCCESS, else a KS_COMPUTE_ERROR saying what failed. */
gboolean ks_opencl_check (cl_int      status,
                          const char *what,
                          GError    **error);

G_END_DECLS
