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

G_END_DECLS
