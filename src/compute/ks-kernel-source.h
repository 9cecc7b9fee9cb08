/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-kernel-source.h: the OpenCL C sources of kernels/, compiled into the
 * binary as GResources.  A user who edits a kernel points the app at the
 * edited copy (ks_kernel_source_set_dir, --kernel-dir, or the environment
 * variable KERNELSCOPE_KERNEL_DIR) and the file there wins. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void        ks_kernel_source_set_dir (const char *dir);
const char *ks_kernel_source_get_dir (void);

/* Returns the source text of name (e.g. "gauss.cl"). */
GBytes     *ks_kernel_source_load    (const char *name,
                                      GError    **error);

G_END_DECLS
