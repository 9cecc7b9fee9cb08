/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mtx-hostile.c: what the Matrix Market reader and writer
 * (src/io/ks-mtx.c) refuse: malformed text, NUL bytes, size limits, I/O
 * errors, inputs that never end, endless lines and values no file holds. */
#include "ks-mtx.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "ks-test-mtx-util.h"

/* Reads a fixture that must fail with code; when needle is not NULL the
 * message must contain "<name>:<needle>" (typically the line number). */
static void
read_fail (const char *name,
           const char *contents,
           gssize      len,
           guint64     max_elements,
           KsMtxError  code,
           const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = fixture_len (name, contents, len);
  guint rows = 12345, cols = 12345;
  double *data = NULL;
  gboolean ok;

  ok = ks_mtx_read_dense (path, max_elements, &rows, &cols, &data, &error);
  g_assert_error (error, KS_MTX_ERROR, (gint) code);
  g_assert_false (ok);
  /* Outputs are left alone on failure. */
  g_assert_null (data);
  g_assert_cmpuint (rows, ==, 12345);
  g_assert_cmpuint (cols, ==, 12345);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_test_message ("%s", error->message);

  if (needle != NULL)
    {
      g_autofree char *want = g_strconcat (name, needle, NULL);
      if (strstr (error->message, want) == NULL)
        g_error ("message “%s” lacks “%s”", error->message, want);
    }
}

/* Inputs that never end or never open: /dev/zero was read without end (4 GB
 * in 12 s) and a FIFO blocked in open.  Both are refused before opening. */
static void
test_read_not_regular (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *fifo = g_build_filename (tmp_dir, "pipe.mtx", NULL);
  guint rows, cols;
  double *data = NULL;

  if (g_file_test ("/dev/zero", G_FILE_TEST_EXISTS))
    {
      g_assert_false (ks_mtx_read_dense ("/dev/zero", 0, &rows, &cols, &data, &error));
      g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO);
      g_assert_nonnull (strstr (error->message, "not a regular file"));
      g_assert_null (data);
      g_clear_error (&error);
    }

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* No writer ever opens it: a reader that opened it would block here. */
  g_assert_false (ks_mtx_read_dense (fifo, 0, &rows, &cols, &data, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "pipe.mtx"));
  g_assert_null (data);
  g_unlink (fifo);
}

/* A line without end (a binary file, zeros) is refused at 64 KiB instead of
 * being read into memory whole. */
static void
test_read_long_line (void)
{
  g_autoptr(GError) error = NULL;
  gsize len = 1024 * 1024;
  g_autofree char *zeros = g_malloc0 (len);
  g_autofree char *text = g_malloc (len);
  g_autofree char *p1 = NULL, *p2 = NULL;
  guint rows, cols;
  double *data = NULL;

  p1 = fixture_len ("zeros.mtx", zeros, len);
  g_assert_false (ks_mtx_read_dense (p1, 0, &rows, &cols, &data, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "zeros.mtx:1:"));
  g_assert_nonnull (strstr (error->message, "longer than 65536 bytes"));
  g_clear_error (&error);

  /* The same for a comment line after a valid header. */
  memset (text, 'x', len);
  memcpy (text, "%%MatrixMarket matrix array real general\n%", 43);
  p2 = fixture_len ("long-comment.mtx", text, len);
  g_assert_false (ks_mtx_read_dense (p2, 0, &rows, &cols, &data, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "long-comment.mtx:2:"));
  g_assert_null (data);

  /* A line of just under the limit is still read. */
  {
    g_autoptr(GString) ok = g_string_new ("%%MatrixMarket matrix array real general\n%");
    g_auto(Dense) d = { 0 };
    g_autofree char *p3 = NULL;

    while (ok->len < 60 * 1024)
      g_string_append_c (ok, 'y');
    g_string_append (ok, "\n1 1\n2.5\n");
    p3 = fixture_len ("long-ok.mtx", ok->str, ok->len);
    g_assert_true (ks_mtx_read_dense (p3, 0, &d.rows, &d.cols, &d.data, NULL));
    g_assert_cmpfloat (d.data[0], ==, 2.5);
  }
}

/* A file that goes on far past what its size line declares (here 17 MB of
 * comments after a 2 x 2 header) is refused once it has passed any size
 * such a matrix could need, not read to its end. */
static void
test_read_too_long_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = g_string_new ("%%MatrixMarket matrix array real general\n2 2\n");
  g_autofree char *path = NULL;
  guint rows, cols;
  double *data = NULL;

  while (s->len < 17 * 1024 * 1024)
    g_string_append (s, "% a comment that goes on and on and on\n");
  path = fixture_len ("padded.mtx", s->str, s->len);
  g_assert_false (ks_mtx_read_dense (path, 0, &rows, &cols, &data, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "more than the matrix it declares"));
  g_assert_null (data);
}

static void
test_write_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (tmp_dir, "no-such-dir",
                                               "out.mtx", NULL);
  g_autofree char *path = g_build_filename (tmp_dir, "nonfinite.mtx", NULL);
  const double ok[] = { 1, 2 };
  const double bad[] = { 1, NAN };
  const double inf[] = { -INFINITY, 1 };

  g_assert_false (ks_mtx_write_dense (missing, 2, 1, ok, NULL, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO);
  g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
  g_clear_error (&error);

  g_assert_false (ks_mtx_write_dense (path, 1, 2, bad, NULL, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "(1, 2)"));
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  g_assert_false (ks_mtx_write_dense (path, 2, 1, inf, NULL, &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

static void
test_read_io_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.mtx", NULL);
  guint rows, cols;
  double *data = NULL;

  g_assert_false (ks_mtx_read_dense (missing, 0, &rows, &cols, &data,
                                     &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO);
  g_assert_null (data);
  g_assert_nonnull (strstr (error->message, "missing.mtx"));
  g_assert_nonnull (strstr (error->message, g_strerror (ENOENT)));
  g_clear_error (&error);

  /* A directory cannot be read as a file. */
  g_assert_false (ks_mtx_read_dense (tmp_dir, 0, &rows, &cols, &data,
                                     &error));
  g_assert_error (error, KS_MTX_ERROR, KS_MTX_ERROR_IO);
  g_assert_null (data);
}

#define HDR_CR "%%MatrixMarket matrix coordinate real general\n"
#define HDR_AR "%%MatrixMarket matrix array real general\n"

static void
test_parse_errors (void)
{
  static const struct {
    const char *name;
    const char *contents;
    KsMtxError  code;
    const char *needle;   /* appended to the name, checked in the message */
  } cases[] = {
    /* Empty and header problems. */
    { "empty.mtx", "", KS_MTX_ERROR_PARSE, ": file is empty" },
    { "no-header.mtx", "3 3 1\n1 1 1\n", KS_MTX_ERROR_PARSE, ":1:" },
    { "blank-first.mtx", "\n" HDR_CR "1 1 0\n", KS_MTX_ERROR_PARSE, ":1:" },
    { "garbage.mtx", "\x7f" "ELF\x01\x02\xff\xfe garbage\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "short-header.mtx", "%%MatrixMarket matrix coordinate real\n1 1 0\n",
      KS_MTX_ERROR_PARSE, ":1: expected 5 fields in the header, got 4" },
    { "long-header.mtx",
      "%%MatrixMarket matrix coordinate real general extra\n1 1 0\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "bad-object.mtx", "%%MatrixMarket tensor coordinate real general\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "vector.mtx", "%%MatrixMarket vector coordinate real general\n",
      KS_MTX_ERROR_UNSUPPORTED, ":1:" },
    { "bad-format.mtx", "%%MatrixMarket matrix sparse real general\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "bad-field.mtx", "%%MatrixMarket matrix array double general\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "bad-symmetry.mtx", "%%MatrixMarket matrix array real diagonal\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "complex.mtx",
      "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n",
      KS_MTX_ERROR_UNSUPPORTED, ":1: complex" },
    { "complex-hermitian.mtx",
      "%%MatrixMarket matrix coordinate complex hermitian\n1 1 1\n1 1 1 0\n",
      KS_MTX_ERROR_UNSUPPORTED, ":1: complex" },
    { "array-pattern.mtx", "%%MatrixMarket matrix array pattern general\n",
      KS_MTX_ERROR_PARSE, ":1:" },
    { "skew-pattern.mtx",
      "%%MatrixMarket matrix coordinate pattern skew-symmetric\n",
      KS_MTX_ERROR_PARSE, ":1:" },

    /* Size line. */
    { "no-size.mtx", HDR_CR, KS_MTX_ERROR_PARSE, ":1: missing size line" },
    { "no-size-comments.mtx", HDR_CR "% c\n\n% c\n",
      KS_MTX_ERROR_PARSE, ":4: missing size line" },
    { "size-fields.mtx", HDR_CR "3 3\n1 1 1\n",
      KS_MTX_ERROR_PARSE, ":2: expected 3 fields" },
    { "size-fields-array.mtx", HDR_AR "1 1 1\n1\n",
      KS_MTX_ERROR_PARSE, ":2: expected 2 fields" },
    { "size-garbage.mtx", HDR_CR "abc 3 1\n", KS_MTX_ERROR_PARSE, ":2:" },
    { "size-float.mtx", HDR_CR "3.0 3 1\n", KS_MTX_ERROR_PARSE, ":2:" },
    { "size-zero-rows.mtx", HDR_CR "0 3 0\n", KS_MTX_ERROR_PARSE, ":2:" },
    { "size-zero-cols.mtx", HDR_AR "3 0\n", KS_MTX_ERROR_PARSE, ":2:" },
    { "size-negative.mtx", HDR_CR "-3 3 1\n1 1 1\n", KS_MTX_ERROR_PARSE,
      ":2:" },
    { "size-negative-nnz.mtx", HDR_CR "3 3 -1\n", KS_MTX_ERROR_PARSE, ":2:" },
    { "size-junk.mtx", HDR_CR "3 3 1 x\n1 1 1\n", KS_MTX_ERROR_PARSE,
      ":2: expected 3 fields" },
    { "sym-nonsquare.mtx",
      "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n",
      KS_MTX_ERROR_PARSE, ":2:" },

    /* Entry lines. */
    { "entry-short.mtx", HDR_CR "% c\n3 3 2\n1 1 1\n2 2\n",
      KS_MTX_ERROR_PARSE, ":5: expected 3 fields, got 2" },
    { "entry-junk.mtx", HDR_CR "3 3 2\n1 1 1.0 x\n2 2 1\n",
      KS_MTX_ERROR_PARSE, ":3: expected 3 fields, got 4" },
    { "entry-junk-glued.mtx", HDR_CR "3 3 1\n1 1 1.0x\n",
      KS_MTX_ERROR_PARSE, ":3: invalid real value" },
    { "entry-comma.mtx", HDR_CR "3 3 1\n1 1 1,5\n",
      KS_MTX_ERROR_PARSE, ":3:" },
    { "entry-pattern-value.mtx",
      "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 2.0\n",
      KS_MTX_ERROR_PARSE, ":3: expected 2 fields, got 3" },
    { "entry-array-two.mtx", HDR_AR "2 1\n1 2\n",
      KS_MTX_ERROR_PARSE, ":3: expected 1 field, got 2" },
    { "entry-row-zero.mtx", HDR_CR "3 3 1\n0 1 1\n",
      KS_MTX_ERROR_PARSE, ":3: row index 0 out of range 1..3" },
    { "entry-row-big.mtx", HDR_CR "3 3 2\n1 1 1\n4 1 1\n",
      KS_MTX_ERROR_PARSE, ":4: row index 4 out of range" },
    { "entry-col-big.mtx", HDR_CR "3 2 1\n1 3 1\n",
      KS_MTX_ERROR_PARSE, ":3: column index 3 out of range 1..2" },
    { "entry-row-negative.mtx", HDR_CR "3 3 1\n-1 1 1\n",
      KS_MTX_ERROR_PARSE, ":3:" },
    { "entry-row-huge.mtx", HDR_CR "3 3 1\n99999999999999999999999 1 1\n",
      KS_MTX_ERROR_PARSE, ":3:" },
    { "entry-int-float.mtx",
      "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n",
      KS_MTX_ERROR_PARSE, ":3: invalid integer value" },
    { "entry-int-range.mtx",
      "%%MatrixMarket matrix array integer general\n1 1\n"
      "99999999999999999999999\n",
      KS_MTX_ERROR_PARSE, ":3:" },
    { "skew-diagonal.mtx",
      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
      "3 3 2\n2 1 1\n2 2 1\n",
      KS_MTX_ERROR_PARSE, ":4: diagonal" },

    /* Entry counts. */
    { "too-few.mtx", HDR_CR "3 3 3\n1 1 1\n2 2 2\n",
      KS_MTX_ERROR_PARSE, ":4: file ends after 2 of the 3 entries" },
    { "too-few-trailing.mtx", HDR_CR "3 3 3\n1 1 1\n2 2 2\n% end\n\n",
      KS_MTX_ERROR_PARSE, ":6: file ends after 2 of the 3" },
    { "too-many.mtx", HDR_CR "% c\n3 3 1\n1 1 1\n2 2 2\n",
      KS_MTX_ERROR_PARSE, ":5: more entries than the 1 declared on line 3" },
    { "too-many-nnz0.mtx", HDR_CR "3 3 0\n1 1 1\n",
      KS_MTX_ERROR_PARSE, ":3: more entries" },
    { "array-too-few.mtx", HDR_AR "2 2\n1\n2\n3\n",
      KS_MTX_ERROR_PARSE, ":5: file ends after 3 of the 4" },
    { "array-too-many.mtx", HDR_AR "2 1\n1\n2\n3\n",
      KS_MTX_ERROR_PARSE, ":5: more entries" },
    { "array-sym-too-many.mtx",
      "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n",
      KS_MTX_ERROR_PARSE, ":6: more entries than the 3" },
    { "array-skew-too-few.mtx",
      "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n",
      KS_MTX_ERROR_PARSE, ":4: file ends after 2 of the 3" },

    /* Non-finite values. */
    { "nan.mtx", HDR_CR "2 2 2\n1 1 1\n2 2 nan\n",
      KS_MTX_ERROR_PARSE, ":4: non-finite" },
    { "inf.mtx", HDR_AR "2 1\n-inf\n1\n", KS_MTX_ERROR_PARSE,
      ":3: non-finite" },
    { "infinity.mtx", HDR_AR "1 1\nInfinity\n", KS_MTX_ERROR_PARSE,
      ":3: non-finite" },
    { "overflow.mtx", HDR_AR "2 1\n1\n1e999\n", KS_MTX_ERROR_PARSE,
      ":4: non-finite" },

    /* Size limits independent of max_elements. */
    { "too-large-dim.mtx", HDR_CR "4294967296 1 0\n",
      KS_MTX_ERROR_TOO_LARGE, ":2: a 4294967296 x 1 matrix" },
    { "too-large-product.mtx", HDR_CR "4294967295 4294967295 0\n",
      KS_MTX_ERROR_TOO_LARGE, ":2:" },
    { "too-large-huge.mtx", HDR_AR "1 184467440737095516160\n",
      KS_MTX_ERROR_TOO_LARGE, ":2: a 1 x 184467440737095516160 matrix" },
  };

  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_test_message ("case %s", cases[k].name);
      read_fail (cases[k].name, cases[k].contents, -1, 0, cases[k].code,
                 cases[k].needle);
    }
}

static void
test_nul_byte (void)
{
  static const char contents[] = HDR_CR "2 2 1\n1 1\0 1\n";

  read_fail ("nul.mtx", contents, sizeof contents - 1, 0,
             KS_MTX_ERROR_PARSE, ":3:");
}

static void
test_max_elements (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = fixture ("limit.mtx",
                                   HDR_CR "10 10 1\n10 10 3\n");
  g_auto(Dense) d = { 0 };

  read_fail ("limit-coord.mtx", HDR_CR "10 10 1\n10 10 3\n", -1, 99,
             KS_MTX_ERROR_TOO_LARGE, ":2: a 10 x 10 matrix has 100 elements, "
             "more than the limit of 99");
  read_fail ("limit-array.mtx", HDR_AR "3 2\n1\n2\n3\n4\n5\n6\n", -1, 5,
             KS_MTX_ERROR_TOO_LARGE, ":2:");
  /* The limit is checked before any entry is read, so a wrong file that
   * is too large still reports TOO_LARGE. */
  read_fail ("limit-broken.mtx", HDR_CR "1000 1000 1\nxyz\n", -1, 1000,
             KS_MTX_ERROR_TOO_LARGE, ":2:");

  /* Exactly at the limit is fine. */
  g_assert_true (ks_mtx_read_dense (path, 100, &d.rows, &d.cols, &d.data,
                                    &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (AT (d, 10, 10), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mtx/read/parse-errors", test_parse_errors);
  g_test_add_func ("/mtx/read/nul-byte", test_nul_byte);
  g_test_add_func ("/mtx/read/max-elements", test_max_elements);
  g_test_add_func ("/mtx/read/io-errors", test_read_io_errors);
  g_test_add_func ("/mtx/read/not-regular", test_read_not_regular);
  g_test_add_func ("/mtx/read/long-line", test_read_long_line);
  g_test_add_func ("/mtx/read/too-long-file", test_read_too_long_file);
  g_test_add_func ("/mtx/write/errors", test_write_errors);

  return ks_test_mtx_run ("test-mtx-hostile-XXXXXX");
}
