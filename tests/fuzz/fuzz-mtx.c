/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-mtx.c: libFuzzer target for the Matrix Market reader.
 *
 * Every input is read from memory; one that parses is written back with
 * ks_mtx_write_dense and read again, and the second reading must give the
 * same matrix bit for bit (NaN aside, which the reader does not produce):
 * the reader and the writer agree on everything the reader accepts.  Built
 * with clang by tests/fuzz/run-fuzz.sh, which CI runs for a minute. */
#define G_LOG_DOMAIN "fuzz-mtx"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "ks-mtx.h"

/* Small limits keep each run fast and the memory bounded: the fuzzer is
 * after parsing bugs, not allocation size. */
#define FUZZ_MAX_ELEMENTS (1u << 16)

static char *round_trip_path;

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree double *a = NULL;
  g_autofree double *b = NULL;
  guint rows = 0, cols = 0, rows2 = 0, cols2 = 0;

  if (round_trip_path == NULL)
    round_trip_path = g_strdup_printf ("%s/fuzz-mtx-%d.mtx", g_get_tmp_dir (), (int) getpid ());

  if (!ks_mtx_read_dense_stream (in, "fuzz", FUZZ_MAX_ELEMENTS, &rows, &cols, &a, &error))
    {
      /* Every failure is a GError with a message, never a crash. */
      g_assert (error != NULL && error->message != NULL && a == NULL);
      return 0;
    }

  if (!ks_mtx_write_dense (round_trip_path, rows, cols, a, "fuzz\nround trip", &error))
    g_error ("written back, a matrix the reader took fails: %s", error->message);
  if (!ks_mtx_read_dense (round_trip_path, 0, &rows2, &cols2, &b, &error))
    g_error ("read back, what the writer wrote fails: %s", error->message);
  g_assert (rows2 == rows && cols2 == cols);
  for (gsize i = 0; i < (gsize) rows * cols; i++)
    if (memcmp (&a[i], &b[i], sizeof (double)) != 0 && !(a[i] != a[i] && b[i] != b[i]))
      g_error ("element %" G_GSIZE_FORMAT ": %.17g read back as %.17g", i, a[i], b[i]);
  return 0;
}
