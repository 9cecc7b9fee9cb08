/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-json-guard.c: the limits every user-given JSON is read with
 * (ks-json-guard.c), and the old results reader behind them. */
#define G_LOG_DOMAIN "ks-test"

#include "ks-json-guard.h"
#include "ks-run.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static char *
nested (guint depth)
{
  GString *s = g_string_new ("{\"a\": \"[[[{{{ \\\" ]\", \"b\": ");

  for (guint i = 0; i < depth; i++)
    g_string_append_c (s, '[');
  for (guint i = 0; i < depth; i++)
    g_string_append_c (s, ']');
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static void
test_depth (void)
{
  g_autofree char *ten = nested (10);
  g_autofree char *deep = nested (100000);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  /* Brackets inside strings (an escaped quote among them) do not count. */
  g_assert_cmpuint (ks_json_depth (ten, strlen (ten), 64), ==, 11);
  g_assert_true (ks_json_parser_load_data (parser, ten, -1, &error));
  g_assert_no_error (error);
  /* Refused before json-glib recurses into it (it would overflow the
   * stack), and counting stops past the limit. */
  g_assert_cmpuint (ks_json_depth (deep, strlen (deep), 64), ==, 65);
  g_assert_false (ks_json_parser_load_data (parser, deep, -1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "nested more than 64 deep"));
  g_clear_error (&error);
  /* The results reader goes through the same door. */
  g_assert_null (ks_run_from_json (deep, -1, &error));
  g_assert_nonnull (strstr (error->message, "nested more than"));
}

/* json-glib reads 2^64 as -1 and -2^64 as 1: the guard has it read them
 * as the reals they are, and leaves every other number (and strings, and
 * the exponent of a real) as it was. */
static void
test_huge_integers (void)
{
  const char *text = "{\"big\": 18446744073709551616, \"neg\": -18446744073709551616, "
                     "\"max\": 9223372036854775807, \"min\": -9223372036854775808, "
                     "\"s\": \"18446744073709551616\", \"e\": 1e18446744073709551616, \"f\": 1.5}";
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GString) widened = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *o;

  g_assert_null (ks_json_widen_huge_integers ("[1, -2, 3.5e300, \"99999999999999999999\"]", 40));
  widened = ks_json_widen_huge_integers (text, strlen (text));
  g_assert_nonnull (widened);
  g_assert_nonnull (strstr (widened->str, "\"big\": 18446744073709551616.0,"));
  g_assert_nonnull (strstr (widened->str, "\"neg\": -18446744073709551616.0,"));
  g_assert_nonnull (strstr (widened->str, "\"max\": 9223372036854775807,"));
  g_assert_nonnull (strstr (widened->str, "\"s\": \"18446744073709551616\","));
  g_assert_nonnull (strstr (widened->str, "\"e\": 1e18446744073709551616,"));

  g_assert_true (ks_json_parser_load_data (parser, "[18446744073709551616, -18446744073709551616, 7]", -1,
                                           &error));
  g_assert_no_error (error);
  {
    JsonArray *a = json_node_get_array (json_parser_get_root (parser));

    g_assert_cmpfloat (json_array_get_double_element (a, 0), ==, 18446744073709551616.0);
    g_assert_cmpfloat (json_array_get_double_element (a, 1), ==, -18446744073709551616.0);
    g_assert_cmpint (json_array_get_int_element (a, 2), ==, 7);
  }
  g_assert_true (ks_json_parser_load_data (parser, "{\"max\": 9223372036854775807, \"min\": -9223372036854775808}",
                                           -1, &error));
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "max"), ==, G_MAXINT64);
  g_assert_cmpint (json_object_get_int_member (o, "min"), ==, G_MININT64);
}

static void
test_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-json-XXXXXX", &error);
  g_autofree char *good = g_build_filename (dir, "good.json", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *data = NULL;
  gsize length = 0;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (good, "{\"format\": \"x\"}", -1, NULL));
  g_assert_true (ks_json_parser_load_file (parser, good, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  data = ks_json_read_file (good, &length, &error);
  g_assert_cmpuint (length, ==, 15);

  /* A FIFO would block the read, /dev/zero never end it, a folder is no
   * file: each refused at once, named. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (ks_json_parser_load_file (parser, fifo, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_nonnull (strstr (error->message, "fifo.json"));
  g_clear_error (&error);
  g_assert_null (ks_json_read_file ("/dev/zero", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_clear_error (&error);
  g_assert_null (ks_json_read_file (dir, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_clear_error (&error);
  g_assert_null (ks_json_read_file (missing, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, "missing.json"));
  g_clear_error (&error);

  /* Larger than any file of ours: refused from its size alone (a sparse
   * file: nothing is written). */
  {
    int fd = g_open (good, O_WRONLY | O_TRUNC, 0);
    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (ftruncate (fd, KS_JSON_MAX_FILE_BYTES + 1), ==, 0);
    g_close (fd, NULL);
  }
  g_assert_null (ks_json_read_file (good, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "MiB"));
  g_clear_error (&error);

  g_remove (good);
  g_remove (fifo);
  g_rmdir (dir);
}

/* json-glib decodes a malformed \\u escape into bytes that are not UTF-8
 * (fuzz-session found "\\uda:7", and the writer aborted on it): refused
 * with a reason; proper escapes, a surrogate pair among them, still read. */
static void
test_bad_escapes (void)
{
  const char *bad[] = {
    "{\"device\": \"\\uda:7\"}",
    "[\"\\u12\"]",
    "{\"\\udc00x\": 1}",
  };
  const char *good = "[\"caf\\u00e9\", \"\\ud83d\\ude00\", \"\\u0041\"]";
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      gboolean read = ks_json_parser_load_data (parser, bad[i], -1, &error);

      /* json-glib may refuse some itself; what it lets through we must. */
      g_assert_false (read);
      g_assert_nonnull (error);
      g_test_message ("%s: %s", bad[i], error->message);
      g_clear_error (&error);
    }
  g_assert_true (ks_json_parser_load_data (parser, good, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (json_parser_get_root (parser)), 0),
                   ==, "caf\u00e9");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-guard/depth", test_depth);
  g_test_add_func ("/json-guard/files", test_files);
  g_test_add_func ("/json-guard/huge-integers", test_huge_integers);
  g_test_add_func ("/json-guard/bad-escapes", test_bad_escapes);
  return g_test_run ();
}
