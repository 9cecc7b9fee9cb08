/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-part-file.h: partition files, each cell's part, in the format METIS's
 * gpmetis and mpmetis write (GRAPH.part.K): one non-negative decimal
 * number per line, line i + 1 holding cell i's part, nothing else.  Spaces
 * around a number, CRLF line ends and empty lines at the very end are
 * taken; anything else (a sign, a fraction, a comment, an empty line
 * between numbers) is refused naming its line, because a file that does not
 * say one part per cell in order would quietly give cells to the wrong
 * part. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define KS_PART_FILE_ERROR (ks_part_file_error_quark ())
GQuark ks_part_file_error_quark (void);

typedef enum {
  KS_PART_FILE_ERROR_IO,         /* cannot open, read or write the file */
  KS_PART_FILE_ERROR_PARSE,      /* a line that is not one part number (the message names it) */
  KS_PART_FILE_ERROR_TOO_LARGE,  /* more cells than max_cells, or a part past KS_PART_FILE_MAX_PART */
  KS_PART_FILE_ERROR_MISMATCH,   /* a well-formed file that does not fit the mesh or the run */
} KsPartFileError;

/* The largest part number read: far more than any run has ranks, small
 * enough that a count per part never overflows. */
#define KS_PART_FILE_MAX_PART 1048575u

/* Reads path (a regular file) into a new array of one part per cell
 * (g_free it), *n_cells long.  max_cells bounds the array (0: a guint's
 * range), so no file makes the reader take memory without end. */
gboolean ks_part_file_read        (const char    *path,
                                   guint          max_cells,
                                   guint        **out_parts,
                                   guint         *out_cells,
                                   GError       **error);
/* The same from any stream (the fuzzer reads from memory); name is used in
 * messages. */
gboolean ks_part_file_read_stream (GInputStream  *stream,
                                   const char    *name,
                                   guint          max_cells,
                                   guint        **out_parts,
                                   guint         *out_cells,
                                   GError       **error);

/* Whether a file's parts (name: for messages) fit a mesh of n_cells and a
 * run of n_parts parts: as many lines as cells, every part below n_parts.
 * KS_PART_FILE_ERROR_MISMATCH names the first line that does not. */
gboolean ks_part_file_check       (const guint   *parts,
                                   guint          n_cells,
                                   const char    *name,
                                   guint          mesh_cells,
                                   guint          n_parts,
                                   GError       **error);

/* Writes parts[0 .. n_cells) one per line, atomically (a reader never sees
 * half a file). */
gboolean ks_part_file_write       (const char    *path,
                                   const guint   *parts,
                                   guint          n_cells,
                                   GError       **error);

G_END_DECLS
