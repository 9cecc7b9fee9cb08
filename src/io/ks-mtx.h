/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mtx.h: Matrix Market (.mtx) files, read into and written from dense
 * row-major double arrays.  Reads "matrix coordinate|array" with
 * real|integer|pattern values and general|symmetric|skew-symmetric symmetry
 * (hermitian, for real values, read as symmetric); complex files are refused
 * with KS_MTX_ERROR_UNSUPPORTED. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define KS_MTX_ERROR (ks_mtx_error_quark ())
GQuark ks_mtx_error_quark (void);

typedef enum {
  KS_MTX_ERROR_IO,           /* cannot open / read / write the file */
  KS_MTX_ERROR_PARSE,        /* malformed header, size line or entry (message names the line) */
  KS_MTX_ERROR_UNSUPPORTED,  /* a valid Matrix Market file of a kind we cannot use */
  KS_MTX_ERROR_TOO_LARGE,    /* dense size would exceed max_elements */
} KsMtxError;

/* Reads path (a regular file: a directory, device or FIFO is refused
 * before it is opened) into a newly allocated row-major array of rows*cols doubles
 * (free with g_free).  max_elements guards memory: a file whose dense form has
 * more elements is refused with KS_MTX_ERROR_TOO_LARGE (0 = no limit). */
gboolean ks_mtx_read_dense  (const char   *path,
                             guint64       max_elements,
                             guint        *out_rows,
                             guint        *out_cols,
                             double      **out_data,
                             GError      **error);

/* The same from any stream (the fuzzer reads from memory); name is used in
 * messages.  Lines longer than 64 KiB and files far larger than the matrix
 * they declare are refused, so no input makes the reader take memory or time
 * without end. */
gboolean ks_mtx_read_dense_stream (GInputStream *stream,
                                   const char   *name,
                                   guint64       max_elements,
                                   guint        *out_rows,
                                   guint        *out_cols,
                                   double      **out_data,
                                   GError      **error);

/* The same files entry by entry, for matrices too large to hold densely
 * (a batch of tridiagonal systems): func gets each entry, 0-based, with the
 * line it came from (for messages), in file order; a symmetric file's
 * mirrored entry comes right after its own (negated when skew), an array
 * file gives every position, zeros included.  Duplicates are not summed
 * here: func sees each.  FALSE from func (with error set) stops the read.
 * The dimensions must fit a guint; the length of a coordinate file is
 * bounded by its declared entries, an array file's by its size. */
typedef gboolean (*KsMtxEntryFunc) (guint64   row,
                                    guint64   col,
                                    double    value,
                                    guint64   line,
                                    gpointer  user_data,
                                    GError  **error);

gboolean ks_mtx_read_entries (const char     *path,
                              KsMtxEntryFunc  func,
                              gpointer        user_data,
                              guint          *out_rows,
                              guint          *out_cols,
                              GError        **error);

/* Writes a dense row-major array as "matrix array real general", with an
 * optional comment (may contain newlines; each line gets a '%').  Atomic
 * (g_file_set_contents), full double precision (%.17g, locale-independent). */
gboolean ks_mtx_write_dense (const char   *path,
                             guint         rows,
                             guint         cols,
                             const double *data,
                             const char   *comment,
                             GError      **error);

G_END_DECLS
