/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-json-guard.h: JSON read with the limits json-glib does not keep.
 * json-glib's parser recurses once per level of nesting, so a file nested
 * a hundred thousand deep overflows the stack before it can say anything;
 * and json_parser_load_from_file reads a FIFO or /dev/zero without end.
 * Every JSON a user can hand us (results, sessions) goes through here. */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* No file of ours nests deeper than this (results: 5 levels). */
#define KS_JSON_MAX_DEPTH 64
/* Larger than any results or session file (a 10^6-point run is ~300 MB
 * of JSON: the engine's point limit bounds it). */
#define KS_JSON_MAX_FILE_BYTES (G_GUINT64_CONSTANT (512) << 20)

/* The deepest nesting of objects and arrays in data (strings skipped),
 * counting stops past limit. */
guint    ks_json_depth              (const char  *data,
                                     gsize        length,
                                     guint        limit);
/* json-glib reads an integer literal beyond gint64 as another number
 * (18446744073709551616 as -1, -2^64 as 1).  A copy of data with ".0"
 * after each such literal, which json-glib then reads as the real number
 * it is, so a reader can say it is too large; NULL where there is none. */
GString *ks_json_widen_huge_integers (const char *data,
                                      gsize       length);
/* json_parser_load_from_data after refusing nesting deeper than
 * KS_JSON_MAX_DEPTH (the error, G_IO_ERROR_INVALID_DATA, says why, or is
 * json-glib's own with its line and column), huge integers widened as
 * above. */
gboolean ks_json_parser_load_data   (JsonParser  *parser,
                                     const char  *data,
                                     gssize       length,
                                     GError     **error);
/* Reads path whole and parses it as above, refusing first what is not a
 * regular file (a FIFO would block, a device never end) and a file larger
 * than KS_JSON_MAX_FILE_BYTES.  Read errors are G_FILE_ERROR / G_IO_ERROR
 * and name the file. */
gboolean ks_json_parser_load_file   (JsonParser  *parser,
                                     const char  *path,
                                     GError     **error);
/* The same checks, the contents returned (for a caller that parses
 * itself); NULL with error on refusal. */
char    *ks_json_read_file          (const char  *path,
                                     gsize       *length,
                                     GError     **error);

G_END_DECLS
