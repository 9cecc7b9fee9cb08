/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-part-file.c: METIS partition files (src/io/ks-part-file.c): what
 * is read, what is refused and with which line named, the check against a
 * mesh and a run, the writer's round trip. */
#include "ks-part-file.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp_dir;

/* Reads len bytes of text (NUL-terminated when len < 0) from memory. */
static gboolean
read_text (const char *text,
           gssize      len,
           guint       max_cells,
           guint     **parts,
           guint      *n,
           GError    **error)
{
  g_autoptr(GInputStream) in =
    g_memory_input_stream_new_from_data (text, len < 0 ? (gssize) strlen (text) : len, NULL);

  return ks_part_file_read_stream (in, "p.part", max_cells, parts, n, error);
}

static void
test_reads (void)
{
  static const struct {
    const char *text;
    guint       n;
    guint       parts[5];
  } cases[] = {
    { "0\n1\n1\n0\n", 4, { 0, 1, 1, 0 } },
    { "0\n1\n2", 3, { 0, 1, 2 } },                /* no '\n' after the last */
    { "3\r\n0\r\n", 2, { 3, 0 } },                /* CRLF */
    { "  7 \n\t0\t\n", 2, { 7, 0 } },             /* spaces around a number */
    { "1\n2\n\n\n", 2, { 1, 2 } },                /* empty lines at the end */
    { "007\n", 1, { 7 } },
    { "1048575\n", 1, { 1048575 } },              /* KS_PART_FILE_MAX_PART */
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree guint *parts = NULL;
      guint n = 0;

      g_test_message ("case %u: %s", c, cases[c].text);
      g_assert_true (read_text (cases[c].text, -1, 0, &parts, &n, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, cases[c].n);
      for (guint i = 0; i < n; i++)
        g_assert_cmpuint (parts[i], ==, cases[c].parts[i]);
    }
}

/* Each malformed file is refused with its line named and the reason. */
static void
test_refuses (void)
{
  static const struct {
    const char *text;
    gssize      len;
    int         code;
    const char *says;
  } cases[] = {
    { "", -1, KS_PART_FILE_ERROR_PARSE, "p.part has no part numbers" },
    { "\n\n", -1, KS_PART_FILE_ERROR_PARSE, "no part numbers" },
    { "0\n-1\n", -1, KS_PART_FILE_ERROR_PARSE, "p.part, line 2: a sign" },
    { "0\n1.5\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: not a whole number" },
    { "0\n1e3\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: not a whole number" },
    { "0\n1 2\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: more than one number" },
    { "0\n\n1\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: an empty line between part numbers" },
    { "0\n  \n1\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: an empty line" },
    { "% comment\n0\n", -1, KS_PART_FILE_ERROR_PARSE, "line 1: \"%\" where a part number belongs" },
    { "0\nx\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: \"x\"" },
    { "0\n1\r2\n", -1, KS_PART_FILE_ERROR_PARSE, "line 2: a carriage return inside the line" },
    { "0\n\0\n", 4, KS_PART_FILE_ERROR_PARSE, "line 2: the byte 0x00" },
    { "0\n1048576\n", -1, KS_PART_FILE_ERROR_TOO_LARGE, "line 2: the part number is past 1048575" },
    { "99999999999999999999999\n", -1, KS_PART_FILE_ERROR_TOO_LARGE, "line 1: the part number is past" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GError) error = NULL;
      guint *parts = NULL;
      guint n = 0;

      g_assert_false (read_text (cases[c].text, cases[c].len, 0, &parts, &n, &error));
      g_assert_error (error, KS_PART_FILE_ERROR, cases[c].code);
      g_test_message ("case %u: %s", c, error->message);
      g_assert_nonnull (strstr (error->message, cases[c].says));
      g_assert_null (parts);
    }
}

/* max_cells bounds the array: the reader stops at the first line past it. */
static void
test_max_cells (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree guint *parts = NULL;
  guint n = 0;

  g_assert_true (read_text ("0\n1\n2\n", -1, 3, &parts, &n, &error));
  g_assert_cmpuint (n, ==, 3);
  g_clear_pointer (&parts, g_free);
  g_assert_false (read_text ("0\n1\n2\n3\n", -1, 3, &parts, &n, &error));
  g_assert_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "more than 3 lines"));
}

/* The file against the mesh and the run: the wrong cell count, a part
 * the run does not have (the first such line named). */
static void
test_check (void)
{
  const guint parts[] = { 0, 1, 1, 3, 2, 0 };
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_part_file_check (parts, 6, "p.part", 6, 4, &error));
  g_assert_no_error (error);
  /* A run with more parts than the file uses: those parts have no cells. */
  g_assert_true (ks_part_file_check (parts, 6, "p.part", 6, 9, &error));

  g_assert_false (ks_part_file_check (parts, 6, "p.part", 7, 4, &error));
  g_assert_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_MISMATCH);
  g_assert_nonnull (strstr (error->message, "p.part has parts for 6 cells, but the mesh has 7"));
  g_clear_error (&error);

  g_assert_false (ks_part_file_check (parts, 6, "p.part", 6, 3, &error));
  g_assert_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_MISMATCH);
  g_assert_nonnull (strstr (error->message, "p.part, line 4: part 3, but the run has 3 parts (0 to 2)"));
}

/* What the writer writes the reader reads back the same; the path's
 * errors are GIO's, naming the file. */
static void
test_round_trip (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "round.part", NULL);
  g_autofree char *text = NULL;
  g_autofree guint *back = NULL;
  g_autoptr(GError) error = NULL;
  guint parts[1000], n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    parts[i] = (i * 7919u) % 17;
  g_assert_true (ks_part_file_write (path, parts, G_N_ELEMENTS (parts), &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "0\n14\n11\n"));
  g_assert_true (ks_part_file_read (path, 0, &back, &n, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (parts));
  g_assert_cmpmem (back, sizeof parts, parts, sizeof parts);
}

static void
test_file_errors (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.part", NULL);
  g_autofree char *fifo = g_build_filename (tmp_dir, "fifo.part", NULL);
  g_autofree char *in_missing_dir = g_build_filename (tmp_dir, "no-such-dir", "x.part", NULL);
  g_autoptr(GError) error = NULL;
  guint *parts = NULL, n = 0, one = 0;

  g_assert_false (ks_part_file_read (missing, 0, &parts, &n, &error));
  g_assert_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "missing.part"));
  g_clear_error (&error);

  /* A directory and a FIFO are refused before the open (which would block
   * on the FIFO). */
  g_assert_false (ks_part_file_read (tmp_dir, 0, &parts, &n, &error));
  g_assert_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (ks_part_file_read (fifo, 0, &parts, &n, &error));
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  g_unlink (fifo);

  g_assert_false (ks_part_file_write (in_missing_dir, &one, 1, &error));
  g_assert_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "x.part"));
  g_assert_null (parts);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("test-part-file-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/part-file/reads", test_reads);
  g_test_add_func ("/part-file/refuses", test_refuses);
  g_test_add_func ("/part-file/max-cells", test_max_cells);
  g_test_add_func ("/part-file/check", test_check);
  g_test_add_func ("/part-file/round-trip", test_round_trip);
  g_test_add_func ("/part-file/file-errors", test_file_errors);
  status = g_test_run ();

  {
    g_autofree char *round = g_build_filename (tmp_dir, "round.part", NULL);
    g_unlink (round);
    g_rmdir (tmp_dir);
  }
  return status;
}
