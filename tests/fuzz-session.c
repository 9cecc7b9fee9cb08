/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-session: the session reader (ks-session.h) fed anything.  Whatever
 * it accepts must write and read back to the very same text: the reader and
 * the writer agree, and a session the window saves opens again.
 *
 * Built two ways, like fuzz-run-json: with clang, a libFuzzer target
 * (fuzz-session-libfuzzer; "fuzz-session-libfuzzer -max_total_time=600
 * -max_len=65536 CORPUS_DIR tests/fuzz-corpus/session" fuzzes longer); always,
 * with fuzz-replay.c, a program the test suite runs over the seed corpus
 * (tests/fuzz-corpus/session/: sessions the window saved, trimmed of their
 * larger runs, and an old session of the Gauss pages). */
#include "ks-exp-test.h"
#include "ks-session.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
const char *const ks_fuzz_name = "fuzz-session";

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  g_autoptr(KsSession) session = NULL;
  g_autoptr(KsSession) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json2 = NULL;

  if (!registered)
    {
      /* The test experiment has every parameter type (its page is "test-sweep"). */
      ks_exp_test_register ();
      registered = TRUE;
    }
  if (!(session = ks_session_from_json ((const char *) data, (gssize) size, NULL)))
    return 0;
  json = ks_session_to_json (session);
  if (!(again = ks_session_from_json (json, -1, &error)))
    {
      fprintf (stderr, "fuzz-session: what it wrote it cannot read (%s):\n%s\n", error->message, json);
      abort ();
    }
  json2 = ks_session_to_json (again);
  if (strcmp (json, json2) != 0)
    {
      fprintf (stderr, "fuzz-session: written twice, the texts differ:\n%s\n---\n%s\n", json, json2);
      abort ();
    }
  return 0;
}
