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
#include "fuzz-round-trip.h"
#include "ks-exp-test.h"
#include "ks-session.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
const char *const ks_fuzz_name = "fuzz-session";

static gpointer
read_session (const char *data,
              gssize      length,
              GError    **error)
{
  return ks_session_from_json (data, length, error);
}

static char *
write_session (gconstpointer session)
{
  return ks_session_to_json (session);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean registered;
  KsSession *session;

  if (!registered)
    {
      /* The test experiment has every parameter type (its page is "test-sweep"). */
      ks_exp_test_register ();
      registered = TRUE;
    }
  session = ks_fuzz_round_trip (ks_fuzz_name, data, size, read_session, write_session,
                                (GDestroyNotify) ks_session_free);
  g_clear_pointer (&session, ks_session_free);
  return 0;
}
