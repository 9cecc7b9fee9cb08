/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-run-json: the results reader (format 2, and format 1 through
 * ks-run-json-format1.c) fed anything.  Whatever it accepts must write and
 * read back to the very same text: the reader and the writer agree.
 *
 * Built two ways: with clang, a libFuzzer target (fuzz-run-json-libfuzzer,
 * run it as "fuzz-run-json-libfuzzer -max_total_time=600 CORPUS_DIR
 * data/reference" to fuzz longer); always, with fuzz-replay.c, a program that
 * feeds it every file (or folder of *.json) named on its command line, which
 * the test suite runs over the seed corpus (data/reference/ and
 * tests/fuzz-corpus/run-json/). */
#include "fuzz-round-trip.h"
#include "ks-exp-test.h"
#include "ks-run.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
const char *const ks_fuzz_name = "fuzz-run-json";

static gpointer
read_run (const char *data,
          gssize      length,
          GError    **error)
{
  return ks_run_from_json (data, length, error);
}

static char *
write_run (gconstpointer run)
{
  return ks_run_to_json (run);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  g_autoptr(KsRun) run = NULL;

  if (!registered)
    {
      /* The test experiment has every parameter type. */
      ks_exp_test_register ();
      registered = TRUE;
    }
  run = ks_fuzz_round_trip (ks_fuzz_name, data, size, read_run, write_run, (GDestroyNotify) ks_run_unref);
  if (run != NULL)
    g_free (ks_run_to_csv (run));
  return 0;
}
