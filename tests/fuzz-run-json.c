/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-run-json: the results reader (format 2, and format 1 through the
 * Gauss descriptions) fed anything.  Whatever it accepts must write and
 * read back to the very same text: the reader and the writer agree.
 *
 * Built two ways: with clang, a libFuzzer target (fuzz-run-json-libfuzzer,
 * run it as "fuzz-run-json-libfuzzer -max_total_time=600 CORPUS_DIR
 * data/reference" to fuzz longer); always, with fuzz-replay.c, a program that
 * feeds it every file (or folder of *.json) named on its command line, which
 * the test suite runs over the seed corpus (data/reference/ and
 * tests/fuzz-corpus/run-json/). */
#include "ks-exp-test.h"
#include "ks-run.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
const char *const ks_fuzz_name = "fuzz-run-json";

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  g_autoptr(KsRun) run = NULL;
  g_autoptr(KsRun) again = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json2 = NULL;

  if (!registered)
    {
      /* The test experiment has every parameter type. */
      ks_exp_test_register ();
      registered = TRUE;
    }
  if (!(run = ks_run_from_json ((const char *) data, (gssize) size, NULL)))
    return 0;
  json = ks_run_to_json (run);
  if (!(again = ks_run_from_json (json, -1, NULL)))
    {
      fprintf (stderr, "fuzz-run-json: what it wrote it cannot read:\n%s\n", json);
      abort ();
    }
  json2 = ks_run_to_json (again);
  if (strcmp (json, json2) != 0)
    {
      fprintf (stderr, "fuzz-run-json: written twice, the texts differ\n");
      abort ();
    }
  g_free (ks_run_to_csv (run));
  return 0;
}
