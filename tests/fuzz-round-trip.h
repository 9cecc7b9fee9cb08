/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-round-trip.h: what the fuzz targets of readers that also write
 * check on each input: whatever the reader accepts is written, read back
 * and written again to the very same text; anything else aborts (a finding). */
#pragma once

#include <glib.h>
#include <stdint.h>

typedef gpointer (*KsFuzzRead)  (const char *data, gssize length, GError **error);
typedef char    *(*KsFuzzWrite) (gconstpointer object);

/* The object read from data (free it with free_object), or NULL where the
 * reader refused it.  name prefixes the report of a finding. */
gpointer ks_fuzz_round_trip (const char     *name,
                             const uint8_t  *data,
                             size_t          size,
                             KsFuzzRead      read,
                             KsFuzzWrite     write,
                             GDestroyNotify  free_object);
