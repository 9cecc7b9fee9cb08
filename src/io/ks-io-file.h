/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-io-file.h: what the file readers of src/io share. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Opens path for reading, refusing what is not a regular file before
 * opening it (opening a FIFO blocks until a writer comes, and a device
 * such as /dev/zero never ends): "NAME: not a regular file (a directory, a
 * device or a pipe cannot be read as WHAT)".  Every failure is set in the
 * caller's domain and code; GIO's own messages name the file. */
GInputStream *ks_io_open_regular (const char  *path,
                                  const char  *name,
                                  const char  *what,
                                  GQuark       domain,
                                  gint         code,
                                  GError     **error);



/* --- outputs ------------------------------------------------------------------
 *
 * Every file a command writes is checked by ks_io_check_outputs before the
 * work that fills it begins (a refusal after an hour's measurement loses
 * the hour), and written through ks_io_write_file or a stage (below):
 * beside its name and renamed over it, so a reader never sees half a file
 * and a failure leaves the old one whole. */

/* One output: a file, or (names not NULL) a folder the command writes
 * files into, names being their glob patterns ("frame-*.png"). */
typedef struct {
  const char        *path;     /* NULL or "": none, skipped */
  const char        *option;   /* how messages name it ("--gif"); NULL: the path alone */
  const char *const *names;    /* a folder's files; NULL: path is a file */
} KsIoOutput;

/* Refuses, in G_IO_ERROR with a message naming the option and the path:
 * an output that is a symbolic link (replacing it would cut the link), a
 * device, folder or pipe (it would be replaced by a plain file), a
 * read-only file (even for root: someone marked it so), one whose folder
 * does not exist, and one that is one of inputs (NULL-terminated, may be
 * NULL; by the file itself, so an alias or a hard link is seen through).
 * A folder output may be a folder or not exist yet; each file in it that
 * matches its names is checked as above.  Then the outputs against each
 * other: two naming the same file, or a file that a folder's names cover
 * (--frames D with --gif D/final.png).  TRUE: every output may be
 * written. */
gboolean ks_io_check_outputs (const KsIoOutput   *outputs,
                              guint               n_outputs,
                              const char *const  *inputs,
                              GError            **error);
/* One file output (option NULL): ks_io_check_outputs of one. */
gboolean ks_io_check_output  (const char         *path,
                              const char *const  *inputs,
                              GError            **error);

/* Writes data (len bytes; -1: a string) to path atomically (a temporary
 * file renamed over it, 0666 less the umask), refusing at that moment too
 * what ks_io_check_outputs refuses of path alone (a link, a device, a
 * read-only file): the check before the work may be hours old. */
gboolean ks_io_write_file    (const char         *path,
                              const char         *data,
                              gssize              len,
                              GError            **error);

/* A stage: a hidden folder made inside dir (.ks-stage-XXXXXX) where a
 * step writes files under their final names, put into dir only when the
 * step succeeded (ks_io_stage_commit), so a step that fails or is
 * cancelled halfway replaces none of dir's files.  Freeing a stage removes
 * it and whatever it still holds (the temporary file of an interrupted
 * export included). */
typedef struct _KsIoStage KsIoStage;

KsIoStage  *ks_io_stage_new    (const char  *dir,
                                GError     **error);
/* Where to write name (a base name) in the stage; owned by the stage. */
const char *ks_io_stage_path   (KsIoStage   *stage,
                                const char  *name);
/* Moves every file written into the stage over its namesake in dir (each
 * refused as ks_io_write_file refuses), leaving the stage empty. */
gboolean    ks_io_stage_commit (KsIoStage   *stage,
                                GError     **error);
void        ks_io_stage_free   (KsIoStage   *stage);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsIoStage, ks_io_stage_free)

G_END_DECLS
