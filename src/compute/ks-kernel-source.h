/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-kernel-source.h: the OpenCL C sources of kernels/, compiled into the
 * binary as GResources.  A user who edits a kernel points the app at the
 * edited copy (ks_kernel_source_set_dir, --kernel-dir, or the environment
 * variable KERNELSCOPE_KERNEL_DIR) and the file there wins.  Sources may
 * include a shared header of kernels/ (ks-common.h: local-memory arguments
 * that work on CUDA too, reductions, indexing). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void        ks_kernel_source_set_dir (const char *dir);
const char *ks_kernel_source_get_dir (void);

/* Returns the source text of name (e.g. "gauss.cl"). */
GBytes     *ks_kernel_source_load    (const char *name,
                                      GError    **error);

/* The source of name with every line #include "x.h" replaced by the text
 * of kernels/x.h (from the same place: the kernel folder or the built-in
 * copies), each once, between #line marks, so that a compiler's message
 * names the real file and line whatever the backend.  Built-in sources
 * are GResources, not files: no compiler could open them by itself.  An
 * include of a file kernels/ lacks is KS_COMPUTE_ERROR_KERNEL_SOURCE. */
char       *ks_kernel_source_load_expanded (const char *name,
                                            GError    **error);

/* Where line (1-based) of an expanded source really is, following its
 * #line marks: for compilers that ignore them (Oclgrind calls the source
 * "input.cl", PoCL a cache file) and report lines of the expanded text.
 * FALSE if line lies before any mark. */
gboolean    ks_kernel_source_locate  (const char  *expanded,
                                      guint        line,
                                      char       **out_file,
                                      guint       *out_line);

G_END_DECLS
