/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-session.c: the session model without a window (ks-session.h): what
 * it writes it reads back alike; every bad input is a KS_SESSION_ERROR
 * naming what is wrong; the Gauss pages' old sessions are upgraded. */
#include "ks-session.h"
#include "ks-exp-gauss.h"
#include "ks-exp-test.h"
#include "ks-registry.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

static char *tmpdir;

static char *
reference_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "reference", name, NULL);
}

/* Every part of the model set, written, read back, written again alike. */
static void
test_round_trip (void)
{
  g_autoptr(KsSession) session = ks_session_new ();
  g_autoptr(KsSession) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *recorded = reference_path ("h200-opencl-gauss-size-driver.json");
  g_autoptr(KsRun) run = ks_run_load_json (recorded, &error);
  g_autofree char *json = NULL;
  g_autofree char *json2 = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "round-trip.json", NULL);
  KsSessionPage *size, *solve, *devices, *map, *wg, *read;
  const KsSessionRun *r;

  g_assert_no_error (error);
  session->saved = g_strdup ("2026-11-24T06:00:00Z");
  session->device = g_strdup ("pocl:0");
  session->page = g_strdup ("gauss-wg");

  size = ks_session_add_page (session, "gauss-size", &error);
  g_assert_no_error (error);
  g_assert_true (size->desc == &ks_exp_gauss_size);
  g_assert_true (ks_session_page_set_value (size, "n", "30:40:2", &error));
  g_assert_true (ks_session_page_set_value (size, "precision", "double", &error));
  g_assert_true (ks_session_page_set_value (size, "graph", "true", &error));
  g_assert_true (ks_session_page_set_repetitions (size, 2, 5, 7, &error));
  size->also_on = g_strdup ("pocl:0,host:0");
  size->figure = g_strdup ("time-vs-size");
  g_assert_true (ks_session_page_add_run (size, run, TRUE, FALSE, &error));
  g_assert_no_error (error);

  /* "" where the form may leave a field empty: the device's default. */
  wg = ks_session_add_page (session, "gauss-wg", &error);
  g_assert_true (ks_session_page_set_value (wg, "wg", "", &error));
  ks_session_page_keep_runs (wg);

  solve = ks_session_add_page (session, "gauss-solve", &error);
  g_assert_true (ks_session_page_set_value (solve, "n", "777", &error));
  g_assert_true (ks_session_page_set_value (solve, "launch", "graph", &error));
  devices = ks_session_add_page (session, "devices", &error);
  g_assert_true (ks_session_page_set_cores (devices, "cuda:0", 128, &error));
  g_assert_true (ks_session_page_set_cores (devices, "pocl:0", 1, &error));
  map = ks_session_add_page (session, "index-map", &error);
  g_assert_true (ks_session_page_set_value (map, "domain", "2000x3000", &error));
  g_assert_true (ks_session_page_set_value (map, "block", "256", &error));
  g_assert_nonnull (ks_session_add_page (session, "heat-live", &error));
  g_assert_no_error (error);

  g_assert_true (ks_session_save (session, path, &error));
  g_assert_no_error (error);
  again = ks_session_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (again);
  g_assert_cmpstr (again->saved, ==, session->saved);
  g_assert_cmpstr (again->device, ==, "pocl:0");
  g_assert_cmpstr (again->page, ==, "gauss-wg");
  g_assert_cmpuint (again->pages->len, ==, 6);

  read = ks_session_find_page (again, "gauss-size");
  g_assert_nonnull (read);
  g_assert_cmpstr (g_hash_table_lookup (read->values, "n"), ==, "30:40:2");
  g_assert_cmpstr (g_hash_table_lookup (read->values, "graph"), ==, "true");
  g_assert_cmpuint (g_hash_table_size (read->values), ==, 3);
  g_assert_cmpuint (read->warmup, ==, 2);
  g_assert_cmpuint (read->reps, ==, 5);
  g_assert_cmpuint (read->min_x, ==, 7);
  g_assert_cmpstr (read->also_on, ==, "pocl:0,host:0");
  g_assert_cmpstr (read->figure, ==, "time-vs-size");
  g_assert_cmpuint (read->runs->len, ==, 1);
  r = read->runs->pdata[0];
  g_assert_true (r->recorded);
  g_assert_false (r->visible);
  g_assert_cmpuint (r->run->points->len, ==, run->points->len);

  read = ks_session_find_page (again, "gauss-wg");
  g_assert_cmpstr (g_hash_table_lookup (read->values, "wg"), ==, "");
  g_assert_nonnull (read->runs);
  g_assert_cmpuint (read->runs->len, ==, 0);
  g_assert_null (read->also_on);
  read = ks_session_find_page (again, "gauss-solve");
  g_assert_cmpstr (g_hash_table_lookup (read->values, "n"), ==, "777");
  g_assert_cmpstr (g_hash_table_lookup (read->values, "launch"), ==, "graph");
  g_assert_null (g_hash_table_lookup (read->values, "wg"));
  read = ks_session_find_page (again, "devices");
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (read->cores_per_cu, "cuda:0")), ==, 128);
  g_assert_cmpuint (g_hash_table_size (read->cores_per_cu), ==, 2);
  read = ks_session_find_page (again, "index-map");
  g_assert_cmpstr (g_hash_table_lookup (read->values, "block"), ==, "256");

  json = ks_session_to_json (session);
  json2 = ks_session_to_json (again);
  g_assert_cmpstr (json, ==, json2);
  /* Numbers stay numbers where the pages always wrote them so. */
  g_assert_nonnull (strstr (json, "\"n\" : 777"));
  g_assert_nonnull (strstr (json, "\"reps\" : 5"));
}

/* What the setters refuse, so that a session never says what it cannot read back. */
static void
test_setters_refuse (void)
{
  g_autoptr(KsSession) session = ks_session_new ();
  g_autofree char *recorded = reference_path ("h200-opencl-gauss-size-driver.json");
  g_autoptr(KsRun) run = ks_run_load_json (recorded, NULL);
  g_autoptr(GError) error = NULL;
  KsSessionPage *wg, *solve;

  g_assert_null (ks_session_add_page (session, "no-such-page", &error));
  g_assert_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "no-such-page"));
  g_clear_error (&error);

  wg = ks_session_add_page (session, "gauss-wg", &error);
  g_assert_null (ks_session_add_page (session, "gauss-wg", &error));
  g_assert_nonnull (strstr (error->message, "twice"));
  g_clear_error (&error);

  g_assert_false (ks_session_page_set_value (wg, "n", "1", &error));
  g_test_message ("%s", error->message);
  g_assert_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID);
  /* The page's title, the field, and what is wrong. */
  g_assert_nonnull (strstr (error->message, _(ks_exp_gauss_wg.title)));
  g_assert_nonnull (strstr (error->message, "n"));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_value (wg, "n", "", &error));
  g_assert_nonnull (strstr (error->message, "value is needed"));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_value (wg, "nonsense", "1", &error));
  g_assert_nonnull (strstr (error->message, "nonsense"));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_repetitions (wg, 0, 0, 0, &error));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_repetitions (wg, 1, 3, KS_SESSION_MAX_MIN_X + 1, &error));
  g_clear_error (&error);
  /* A run of gauss-size on the gauss-wg page. */
  g_assert_false (ks_session_page_add_run (wg, run, FALSE, TRUE, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "run 1"));
  g_clear_error (&error);
  g_assert_null (wg->runs);

  solve = ks_session_add_page (session, "gauss-solve", &error);
  g_assert_false (ks_session_page_set_value (solve, "n", "20001", &error));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_value (solve, "precision", "half", &error));
  g_assert_nonnull (strstr (error->message, "half"));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_cores (solve, "cuda:0", 4, &error));
  g_clear_error (&error);
  g_assert_false (ks_session_page_set_cores (ks_session_add_page (session, "devices", NULL), "cuda:0", 0, &error));
  g_assert_nonnull (strstr (error->message, "cuda:0"));
}

#define HEAD "{\"format\":\"kernelscope-session\",\"version\":1,"

/* Each bad input: its error code and a piece of the message that names
 * what is wrong. */
static void
test_bad_input (void)
{
  const struct { const char *json; KsSessionError code; const char *says; } cases[] = {
    { "{\"format\":\"kernelscope-session\",", KS_SESSION_ERROR_DAMAGED, NULL },
    { "", KS_SESSION_ERROR_DAMAGED, NULL },
    { "[1,2]", KS_SESSION_ERROR_NOT_SESSION, NULL },
    { "{\"format\":\"kernelscope-results\",\"version\":1,\"pages\":{}}", KS_SESSION_ERROR_NOT_SESSION, NULL },
    { "{\"format\":7,\"version\":1,\"pages\":{}}", KS_SESSION_ERROR_NOT_SESSION, NULL },
    /* A newer format: said as such, with both numbers. */
    { "{\"format\":\"kernelscope-session\",\"version\":2,\"pages\":{}}", KS_SESSION_ERROR_VERSION, "2" },
    { "{\"format\":\"kernelscope-session\",\"version\":\"1\",\"pages\":{}}", KS_SESSION_ERROR_INVALID, "version" },
    { "{\"format\":\"kernelscope-session\",\"version\":0,\"pages\":{}}", KS_SESSION_ERROR_INVALID, "version" },
    { "{\"format\":\"kernelscope-session\",\"pages\":{}}", KS_SESSION_ERROR_INVALID, "version" },
    { HEAD "\"pages\":[]}", KS_SESSION_ERROR_INVALID, "pages" },
    { HEAD "\"device\":3,\"pages\":{}}", KS_SESSION_ERROR_INVALID, "device" },
    { HEAD "\"page\":\"nowhere\",\"pages\":{}}", KS_SESSION_ERROR_INVALID, "nowhere" },
    /* Pages no one knows, and pages of the wrong shape. */
    { HEAD "\"pages\":{\"gauss-sise\":{}}}", KS_SESSION_ERROR_INVALID, "gauss-sise" },
    { HEAD "\"pages\":{\"gauss-size\":[]}}", KS_SESSION_ERROR_INVALID, "object" },
    { HEAD "\"pages\":{\"gauss-size\":{\"experiment\":\"gauss-wg\"}}}", KS_SESSION_ERROR_INVALID, "gauss-wg" },
    /* Values: of the wrong type, unknown, out of range, not a choice. */
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":{\"n\":100}}}}", KS_SESSION_ERROR_INVALID, "“n”" },
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":[\"n\"]}}}", KS_SESSION_ERROR_INVALID, "values" },
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":{\"m\":\"100\"}}}}", KS_SESSION_ERROR_INVALID, "“m”" },
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":{\"n\":\"2:2000000\"}}}}", KS_SESSION_ERROR_INVALID, "1000000" },
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":{\"n\":\"5:1\"}}}}", KS_SESSION_ERROR_INVALID, "n" },
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":{\"precision\":\"half\"}}}}", KS_SESSION_ERROR_INVALID, "half" },
    { HEAD "\"pages\":{\"gauss-size\":{\"values\":{\"graph\":\"maybe\"}}}}", KS_SESSION_ERROR_INVALID, "maybe" },
    /* The page's own numbers. */
    { HEAD "\"pages\":{\"gauss-size\":{\"reps\":0}}}", KS_SESSION_ERROR_INVALID, "reps" },
    { HEAD "\"pages\":{\"gauss-size\":{\"reps\":2147483648}}}", KS_SESSION_ERROR_INVALID, "reps" },
    { HEAD "\"pages\":{\"gauss-size\":{\"reps\":2.5}}}", KS_SESSION_ERROR_INVALID, "2.5" },
    /* 2^64, which json-glib alone reads as -1 (and -2^64 as 1): too large, with the limit. */
    { HEAD "\"pages\":{\"gauss-size\":{\"reps\":18446744073709551616}}}", KS_SESSION_ERROR_INVALID,
      "“reps” is 18446744073709551616: too large, the most it takes is " },
    { HEAD "\"pages\":{\"gauss-size\":{\"reps\":-18446744073709551616}}}", KS_SESSION_ERROR_INVALID,
      "“reps” is -18446744073709551616: too small, the least it takes is 1" },
    { HEAD "\"pages\":{\"gauss-size\":{\"warmup\":1001}}}", KS_SESSION_ERROR_INVALID,
      "“warmup” is 1001: too large, the most it takes is 1000" },
    { HEAD "\"pages\":{\"gauss-size\":{\"reps\":\"3\"}}}", KS_SESSION_ERROR_INVALID, "reps" },
    { HEAD "\"pages\":{\"gauss-size\":{\"warmup\":1001}}}", KS_SESSION_ERROR_INVALID, "warmup" },
    { HEAD "\"pages\":{\"gauss-size\":{\"min_x\":-1}}}", KS_SESSION_ERROR_INVALID, "min_x" },
    { HEAD "\"pages\":{\"gauss-size\":{\"min_x\":1e300}}}", KS_SESSION_ERROR_INVALID, "min_x" },
    { HEAD "\"pages\":{\"gauss-size\":{\"figure\":\"pie\"}}}", KS_SESSION_ERROR_INVALID, "pie" },
    { HEAD "\"pages\":{\"gauss-size\":{\"also_on\":[]}}}", KS_SESSION_ERROR_INVALID, "also_on" },
    /* Runs. */
    { HEAD "\"pages\":{\"gauss-size\":{\"runs\":{}}}}", KS_SESSION_ERROR_INVALID, "runs" },
    { HEAD "\"pages\":{\"gauss-size\":{\"runs\":[3]}}}", KS_SESSION_ERROR_INVALID, "run 1" },
    { HEAD "\"pages\":{\"gauss-size\":{\"runs\":[{\"visible\":true}]}}}", KS_SESSION_ERROR_INVALID, "run 1" },
    { HEAD "\"pages\":{\"gauss-size\":{\"runs\":[{\"run\":{\"format\":2}}]}}}", KS_SESSION_ERROR_INVALID, "run 1" },
    { HEAD "\"pages\":{\"gauss-size\":{\"runs\":[{\"visible\":1,\"run\":{}}]}}}", KS_SESSION_ERROR_INVALID, "visible" },
    /* Hand-made pages. */
    { HEAD "\"pages\":{\"gauss-solve\":{\"n\":1}}}", KS_SESSION_ERROR_INVALID, "“n”" },
    { HEAD "\"pages\":{\"gauss-solve\":{\"n\":\"500\"}}}", KS_SESSION_ERROR_INVALID, "“n”" },
    { HEAD "\"pages\":{\"gauss-solve\":{\"wg\":4097}}}", KS_SESSION_ERROR_INVALID, "4096" },
    { HEAD "\"pages\":{\"gauss-solve\":{\"local\":\"spilt\"}}}", KS_SESSION_ERROR_INVALID, "spilt" },
    { HEAD "\"pages\":{\"index-map\":{\"block\":-32}}}", KS_SESSION_ERROR_INVALID, "block" },
    { HEAD "\"pages\":{\"index-map\":{\"domain\":2000}}}", KS_SESSION_ERROR_INVALID, "domain" },
    { HEAD "\"pages\":{\"devices\":{\"cores-per-cu\":[]}}}", KS_SESSION_ERROR_INVALID, "cores-per-cu" },
    { HEAD "\"pages\":{\"devices\":{\"cores-per-cu\":{\"cuda:0\":0}}}}", KS_SESSION_ERROR_INVALID, "cuda:0" },
    { HEAD "\"pages\":{\"devices\":{\"cores-per-cu\":{\"cuda:0\":1025}}}}", KS_SESSION_ERROR_INVALID, "1024" },
    { HEAD "\"pages\":{\"devices\":{\"cores-per-cu\":{\"cuda:0\":\"64\"}}}}", KS_SESSION_ERROR_INVALID, "cuda:0" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSession) session = ks_session_from_json (cases[i].json, -1, &error);

      g_test_message ("%s\n  -> %s", cases[i].json, error ? error->message : "(read)");
      g_assert_null (session);
      g_assert_error (error, KS_SESSION_ERROR, (int) cases[i].code);
      if (cases[i].says != NULL)
        g_assert_nonnull (strstr (error->message, cases[i].says));
    }

  /* Nested past any session: refused before json-glib recurses into it. */
  {
    g_autofree char *deep = g_strnfill (100000, '[');
    g_autoptr(GError) error = NULL;

    g_assert_null (ks_session_from_json (deep, -1, &error));
    g_assert_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_DAMAGED);
  }
}

/* What a session may leave out, and what this version skips. */
static void
test_lenient (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsSession) session = ks_session_from_json (
    HEAD "\"future\":1,\"pages\":{\"gauss-size\":{\"colour\":\"red\",\"min_x\":2.0},\"heat-live\":{},"
    "\"gauss-solve\":{\"cores-per-cu\":{}}}}", -1, &error);
  KsSessionPage *size;

  g_assert_no_error (error);
  size = ks_session_find_page (session, "gauss-size");
  g_assert_cmpuint (size->reps, ==, 3);
  g_assert_cmpuint (size->warmup, ==, 1);
  g_assert_cmpuint (size->min_x, ==, 2);
  g_assert_null (size->runs);
  g_assert_null (size->figure);
  g_assert_cmpuint (g_hash_table_size (size->values), ==, 0);
  g_assert_null (session->device);
  g_assert_null (ks_session_find_page (session, "gauss-solve")->cores_per_cu);
}

/* A session the Gauss pages saved before the generic page: their own
 * fields under "params" (upgraded through the description) and format-1
 * runs under "results" (tests/fuzz-corpus/session/old-gauss-pages.json,
 * which test-gui opens in the window too). */
static void
test_legacy (void)
{
  g_autofree char *recorded = reference_path ("h200-opencl-gauss-size-driver.json");
  g_autofree char *old = g_test_build_filename (G_TEST_DIST, "fuzz-corpus", "session", "old-gauss-pages.json", NULL);
  g_autofree char *written = NULL;
  g_autoptr(KsSession) session = NULL;
  g_autoptr(KsSession) again = NULL;
  g_autoptr(KsRun) expected = NULL;
  g_autoptr(GError) error = NULL;
  KsSessionPage *size, *wg;

  expected = ks_run_load_json (recorded, &error);
  g_assert_no_error (error);
  session = ks_session_load (old, &error);
  g_assert_no_error (error);
  size = ks_session_find_page (session, "gauss-size");
  wg = ks_session_find_page (session, "gauss-wg");
  g_assert_cmpstr (g_hash_table_lookup (size->values, "n"), ==, "30:40:2");
  g_assert_cmpstr (g_hash_table_lookup (size->values, "wg"), ==, "16");
  g_assert_cmpstr (g_hash_table_lookup (size->values, "local"), ==, "split");
  g_assert_cmpstr (g_hash_table_lookup (size->values, "graph"), ==, "true");
  g_assert_cmpuint (size->reps, ==, 4);
  g_assert_cmpstr (g_hash_table_lookup (wg->values, "n"), ==, "64,128");
  g_assert_cmpstr (g_hash_table_lookup (wg->values, "wg"), ==, "1,8,16");
  g_assert_cmpstr (g_hash_table_lookup (wg->values, "precision"), ==, "double");
  g_assert_cmpuint (wg->reps, ==, 2);
  /* "hide wg = 1": the plot from 2. */
  g_assert_cmpuint (wg->min_x, ==, 2);
  g_assert_cmpuint (size->runs->len, ==, 1);
  g_assert_cmpuint (((KsSessionRun *) size->runs->pdata[0])->run->points->len, ==, expected->points->len);
  g_assert_cmpuint (wg->runs->len, ==, 0);

  /* Written in today's format, it reads back alike. */
  written = ks_session_to_json (session);
  g_assert_null (strstr (written, "\"params\""));
  again = ks_session_from_json (written, -1, &error);
  g_assert_no_error (error);
  {
    g_autofree char *twice = ks_session_to_json (again);
    g_assert_cmpstr (written, ==, twice);
  }

  /* An old form's own number that is not one. */
  g_clear_pointer (&session, ks_session_free);
  session = ks_session_from_json (HEAD "\"pages\":{\"gauss-size\":{\"params\":{\"reps\":\"many\"}}}}", -1, &error);
  g_assert_null (session);
  g_assert_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "many"));
  g_clear_error (&error);
  session = ks_session_from_json (HEAD "\"pages\":{\"gauss-size\":{\"params\":{\"from\":3}}}}", -1, &error);
  g_assert_null (session);
  g_assert_nonnull (strstr (error->message, "from"));
  g_clear_error (&error);
  /* fuzz-session's find: json-glib decodes "\\uda:7" into bytes that are
   * not UTF-8, and writing the session back aborted. */
  session = ks_session_from_json ("{\"format\":\"kernelscope-session\",\"version\":1,"
                                  "\"device\":\"\\uda:7\",\"pages\":{}}", -1, &error);
  g_assert_null (session);
  g_assert_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_DAMAGED);
  g_assert_nonnull (strstr (error->message, "UTF-8"));
}

/* The file reader: its errors name the file; what is not a regular file is
 * not opened (a FIFO would block). */
static void
test_load_file (void)
{
  g_autofree char *missing = g_build_filename (tmpdir, "missing.json", NULL);
  g_autofree char *fifo = g_build_filename (tmpdir, "fifo.json", NULL);
  g_autofree char *cut = g_build_filename (tmpdir, "cut.json", NULL);
  g_autofree char *newer = g_build_filename (tmpdir, "newer.json", NULL);
  g_autofree char *bad = g_build_filename (tmpdir, "bad.json", NULL);
  g_autofree char *other = reference_path ("h200-opencl-gauss-size-driver.json");
  const struct { const char *path; KsSessionError code; const char *says; } cases[] = {
    { missing, KS_SESSION_ERROR_READ, "cannot be read" },
    { fifo, KS_SESSION_ERROR_READ, "not a regular file" },
    { tmpdir, KS_SESSION_ERROR_READ, "not a regular file" },
    { cut, KS_SESSION_ERROR_DAMAGED, "damaged or incomplete" },
    { newer, KS_SESSION_ERROR_VERSION, "newer" },
    { bad, KS_SESSION_ERROR_INVALID, "part of it is damaged" },
    { other, KS_SESSION_ERROR_NOT_SESSION, "not a Kernelscope session" },
  };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_true (g_file_set_contents (cut, HEAD "\"pag", -1, NULL));
  g_assert_true (g_file_set_contents (newer, "{\"format\":\"kernelscope-session\",\"version\":9,\"pages\":{}}", -1, NULL));
  g_assert_true (g_file_set_contents (bad, HEAD "\"pages\":{\"gauss-size\":{\"reps\":-3}}}", -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *display = g_filename_display_name (cases[i].path);

      g_assert_null (ks_session_load (cases[i].path, &error));
      g_test_message ("%s", error->message);
      g_assert_error (error, KS_SESSION_ERROR, (int) cases[i].code);
      g_assert_nonnull (strstr (error->message, display));
      g_assert_nonnull (strstr (error->message, cases[i].says));
    }
  g_unlink (fifo);
}

/* The fuzzer's seeds are sessions the window saved (trimmed of their
 * larger runs): each opens, so the fuzzer starts from what a user has. */
static void
test_seeds_open (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "fuzz-corpus", "session", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(KsSession) session = ks_session_load (path, &error);

      g_test_message ("%s", name);
      g_assert_no_error (error);
      g_assert_nonnull (session);
      n++;
    }
  g_assert_cmpuint (n, >=, 5);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* A session of the window the GUI tests build has the test experiment's page. */
  ks_exp_test_register ();
  tmpdir = g_dir_make_tmp ("test-session-XXXXXX", NULL);
  g_test_add_func ("/session/round-trip", test_round_trip);
  g_test_add_func ("/session/setters-refuse", test_setters_refuse);
  g_test_add_func ("/session/bad-input", test_bad_input);
  g_test_add_func ("/session/lenient", test_lenient);
  g_test_add_func ("/session/legacy", test_legacy);
  g_test_add_func ("/session/load-file", test_load_file);
  g_test_add_func ("/session/seeds-open", test_seeds_open);
  status = g_test_run ();
  {
    g_autoptr(GDir) dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (tmpdir, name, NULL);
        g_unlink (path);
      }
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return status;
}
