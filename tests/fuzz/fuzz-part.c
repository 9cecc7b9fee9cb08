/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-part.c: libFuzzer target for the partition file reader.
 *
 * Every input is read from memory; one that parses is checked against a
 * mesh of its own size and a run of one part past its largest, written
 * back with ks_part_file_write and read again, which must give the same
 * parts.  Built with clang by tests/fuzz/run-fuzz.sh, which CI runs for a
 * minute. */
#define G_LOG_DOMAIN "fuzz-part"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>

#include "ks-part-file.h"

/* A small bound keeps each run fast; the fuzzer is after parsing bugs. */
#define FUZZ_MAX_CELLS (1u << 14)

static char *round_trip_path;

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree guint *parts = NULL;
  g_autofree guint *back = NULL;
  guint n = 0, n2 = 0, largest = 0;

  if (round_trip_path == NULL)
    round_trip_path = g_strdup_printf ("%s/fuzz-part-%d.part", g_get_tmp_dir (), (int) getpid ());

  if (!ks_part_file_read_stream (in, "fuzz", FUZZ_MAX_CELLS, &parts, &n, &error))
    {
      /* Every failure is a GError with a message, never a crash. */
      g_assert (error != NULL && error->message != NULL && parts == NULL);
      return 0;
    }
  g_assert (n > 0 && n <= FUZZ_MAX_CELLS);
  for (guint i = 0; i < n; i++)
    largest = MAX (largest, parts[i]);
  g_assert (largest <= KS_PART_FILE_MAX_PART);
  if (!ks_part_file_check (parts, n, "fuzz", n, largest + 1, &error))
    g_error ("a file read refused against its own size and parts: %s", error->message);
  if (largest > 0)
    {
      g_assert (!ks_part_file_check (parts, n, "fuzz", n, largest, &error));
      g_clear_error (&error);
    }

  if (!ks_part_file_write (round_trip_path, parts, n, &error))
    g_error ("written back, parts the reader took fail: %s", error->message);
  if (!ks_part_file_read (round_trip_path, 0, &back, &n2, &error))
    g_error ("read back, what the writer wrote fails: %s", error->message);
  g_assert (n2 == n && memcmp (parts, back, sizeof (guint) * n) == 0);
  return 0;
}
