/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mtx.c: Matrix Market reader/writer (src/io/ks-mtx.c). */
#include "ks-mtx.h"

#include <errno.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <sys/stat.h>

/* All fixtures live here; main() empties and removes it after the run. */
static char *tmp_dir;

/* Writes contents (len bytes, or NUL-terminated when len < 0) to a fixture
 * file and returns its path. */
static char *
fixture_len (const char *name,
             const char *contents,
             gssize      len)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
  return path;
}

static char *
fixture (const char *name,
         const char *contents)
{
  return fixture_len (name, contents, -1);
}

typedef struct {
  guint   rows;
  guint   cols;
  double *data;
} Dense;

static void
dense_clear (Dense *d)
{
  g_clear_pointer (&d->data, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Dense, dense_clear)

/* Reads a fixture that must parse, checking the shape. */
static void
read_ok (const char *name,
         const char *contents,
         guint       rows,
         guint       cols,
         Dense      *out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = fixture (name, contents);
  gboolean ok;

  ok = ks_mtx_read_dense (path, 0, &out->rows, &out->cols, &out->data,
                          &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_nonnull (out->data);
  g_assert_cmpuint (out->rows, ==, rows);
  g_assert_cmpuint (out->cols, ==, cols);
}

/* 1-based accessor, matching the file's indices. */
#define AT(d, i, j) ((d).data[((gsize) (i) - 1) * (d).cols + ((j) - 1)])

static void
assert_all (const Dense  *d,
            const double *expected)
{
  for (guint k = 0; k < d->rows * d->cols; k++)
    g_assert_cmpfloat (d->data[k], ==, expected[k]);
}

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

static void
test_coordinate_general (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = {
    1.5,  0,      0,   -2,
    0,    0,      3e10, 0,
    0,   -1.25e-7, 0,   4,
  };

  read_ok ("coord-general.mtx",
           "%%MatrixMarket matrix coordinate real general\n"
           "% a comment\n"
           "%\n"
           "3 4 6\n"
           "1 1 1.5\n"
           "  2\t3   3e10  \n"
           "3 2 -1.25E-7\n"
           "1 4 -2\n"
           "3 4 +4.0\n"
           "3 3 0\n",
           3, 4, &d);
  assert_all (&d, want);
}

static void
test_coordinate_crlf_blank_bom (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = { 0, 2, 0, 0 };

  read_ok ("coord-crlf.mtx",
           "\xEF\xBB\xBF%%MatrixMarket matrix coordinate real general\r\n"
           "\r\n"
           "% comment\r\n"
           "   \r\n"
           "2 2 1\r\n"
           "\r\n"
           "% comments between entries are tolerated\r\n"
           "1 2 2.0\r\n"
           "\r\n",
           2, 2, &d);
  assert_all (&d, want);
}

static void
test_coordinate_duplicates_summed (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = { 3.5, 0, 0, -1 };

  read_ok ("coord-dup.mtx",
           "%%MatrixMarket matrix coordinate real general\n"
           "2 2 4\n"
           "1 1 1\n"
           "2 2 -1\n"
           "1 1 2\n"
           "1 1 0.5\n",
           2, 2, &d);
  assert_all (&d, want);
}

static void
test_coordinate_symmetric (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = {
    4, 1, 0,
    1, 5, 2,
    0, 2, 6,
  };

  /* The last entry sits above the diagonal: accepted and mirrored. */
  read_ok ("coord-sym.mtx",
           "%%MatrixMarket matrix coordinate real symmetric\n"
           "3 3 5\n"
           "1 1 4\n"
           "2 1 1\n"
           "2 2 5\n"
           "3 3 6\n"
           "2 3 2\n",
           3, 3, &d);
  assert_all (&d, want);
}

static void
test_coordinate_skew (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = {
    0,   -2,  0,
    2,    0, -3.5,
    0,    3.5, 0,
  };

  read_ok ("coord-skew.mtx",
           "%%MatrixMarket matrix coordinate real skew-symmetric\n"
           "3 3 2\n"
           "2 1 2\n"
           "3 2 3.5\n",
           3, 3, &d);
  assert_all (&d, want);
  for (guint i = 1; i <= 3; i++)
    for (guint j = 1; j <= 3; j++)
      g_assert_cmpfloat (AT (d, i, j), ==, -AT (d, j, i));
}

static void
test_coordinate_integer (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = { 7, 0, -3, 9007199254740992.0 };

  read_ok ("coord-int.mtx",
           "%%MatrixMarket matrix coordinate integer general\n"
           "2 2 3\n"
           "1 1 7\n"
           "2 1 -3\n"
           "2 2 9007199254740992\n",
           2, 2, &d);
  assert_all (&d, want);
}

static void
test_coordinate_pattern (void)
{
  g_auto(Dense) g = { 0 };
  g_auto(Dense) s = { 0 };
  const double want_g[] = { 1, 0, 0, 1, 1, 0 };
  const double want_s[] = {
    1, 1, 0,
    1, 0, 1,
    0, 1, 0,
  };

  read_ok ("coord-pattern.mtx",
           "%%MatrixMarket matrix coordinate pattern general\n"
           "2 3 3\n"
           "1 1\n"
           "2 1\n"
           "2 2\n",
           2, 3, &g);
  assert_all (&g, want_g);

  read_ok ("coord-pattern-sym.mtx",
           "%%MatrixMarket matrix coordinate pattern symmetric\n"
           "3 3 3\n"
           "1 1\n"
           "2 1\n"
           "3 2\n",
           3, 3, &s);
  assert_all (&s, want_s);
}

static void
test_array_general (void)
{
  g_auto(Dense) d = { 0 };

  /* 3 x 2, column-major in the file: column 1 is 1 2 3, column 2 is 4 5 6. */
  read_ok ("array-general.mtx",
           "%%MatrixMarket matrix array real general\n"
           "% column-major\n"
           "3 2\n"
           "1\n2\n3\n"
           "4\n5\n6.5\n",
           3, 2, &d);
  g_assert_cmpfloat (AT (d, 1, 1), ==, 1);
  g_assert_cmpfloat (AT (d, 2, 1), ==, 2);
  g_assert_cmpfloat (AT (d, 3, 1), ==, 3);
  g_assert_cmpfloat (AT (d, 1, 2), ==, 4);
  g_assert_cmpfloat (AT (d, 2, 2), ==, 5);
  g_assert_cmpfloat (AT (d, 3, 2), ==, 6.5);
  /* Row-major in memory. */
  g_assert_cmpfloat (d.data[1], ==, 4);
  g_assert_cmpfloat (d.data[2], ==, 2);
}

static void
test_array_integer (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = { 1, -3, 2, 4 };

  read_ok ("array-int.mtx",
           "%%MatrixMarket matrix array integer general\n"
           "2 2\n"
           "1\n2\n-3\n4\n",
           2, 2, &d);
  assert_all (&d, want);
}

static void
test_array_symmetric (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = {
    1, 2, 3,
    2, 4, 5,
    3, 5, 6,
  };

  /* Lower triangle, column by column: (1,1) (2,1) (3,1) (2,2) (3,2) (3,3). */
  read_ok ("array-sym.mtx",
           "%%MatrixMarket matrix array real symmetric\n"
           "3 3\n"
           "1\n2\n3\n4\n5\n6\n",
           3, 3, &d);
  assert_all (&d, want);
}

/* Real hermitian is symmetric (a real number is its own conjugate): read
 * and mirrored as such, in both layouts. */
static void
test_hermitian_real (void)
{
  g_auto(Dense) c = { 0 };
  g_auto(Dense) a = { 0 };
  const double want[] = {
    1, 2, 3,
    2, 4, 5,
    3, 5, 6,
  };

  read_ok ("coord-herm.mtx",
           "%%MatrixMarket matrix coordinate real hermitian\n"
           "3 3 6\n"
           "1 1 1\n2 1 2\n3 1 3\n2 2 4\n3 2 5\n3 3 6\n",
           3, 3, &c);
  assert_all (&c, want);
  read_ok ("array-herm.mtx",
           "%%MatrixMarket matrix array integer Hermitian\n"
           "3 3\n"
           "1\n2\n3\n4\n5\n6\n",
           3, 3, &a);
  assert_all (&a, want);
}

static void
test_array_skew (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = {
    0, -1, -2,
    1,  0, -3,
    2,  3,  0,
  };

  /* Strictly lower triangle, column by column: (2,1) (3,1) (3,2). */
  read_ok ("array-skew.mtx",
           "%%MatrixMarket matrix array real skew-symmetric\n"
           "3 3\n"
           "1\n2\n3\n",
           3, 3, &d);
  assert_all (&d, want);
}

static void
test_vector (void)
{
  g_auto(Dense) a = { 0 };
  g_auto(Dense) c = { 0 };
  const double want[] = { 1, 0, -2.5, 0 };

  read_ok ("rhs-array.mtx",
           "%%MatrixMarket matrix array real general\n"
           "4 1\n"
           "1\n0\n-2.5\n0\n",
           4, 1, &a);
  assert_all (&a, want);

  read_ok ("rhs-coord.mtx",
           "%%MatrixMarket matrix coordinate real general\n"
           "4 1 2\n"
           "3 1 -2.5\n"
           "1 1 1\n",
           4, 1, &c);
  assert_all (&c, want);
}

static void
test_header_case (void)
{
  g_auto(Dense) a = { 0 };
  g_auto(Dense) b = { 0 };
  g_auto(Dense) c = { 0 };
  const double want_a[] = { 0, 2, 2, 0 };
  const double want_b[] = { 0, -2, 2, 0 };
  const double want_c[] = { 1, 0, 0, 1 };

  read_ok ("case-a.mtx",
           "%%matrixmarket MATRIX Coordinate REAL Symmetric\n"
           "2 2 1\n"
           "2 1 2\n",
           2, 2, &a);
  assert_all (&a, want_a);

  read_ok ("case-b.mtx",
           "%%MATRIXMARKET Matrix ARRAY Integer SKEW-SYMMETRIC\n"
           "2 2\n"
           "2\n",
           2, 2, &b);
  assert_all (&b, want_b);

  read_ok ("case-c.mtx",
           "%%MatrixMarket  matrix\tcoordinate  PATTERN  GENERAL  \n"
           "2 2 2\n"
           "1 1\n"
           "2 2\n",
           2, 2, &c);
  assert_all (&c, want_c);
}

static void
test_empty_coordinate (void)
{
  g_auto(Dense) d = { 0 };
  const double want[] = { 0, 0, 0, 0, 0, 0 };

  /* nnz = 0 is a valid all-zero matrix. */
  read_ok ("coord-empty.mtx",
           "%%MatrixMarket matrix coordinate real general\n"
           "2 3 0\n",
           2, 3, &d);
  assert_all (&d, want);
}

/* Bit patterns must survive a write/read cycle exactly. */
static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "round-trip.mtx", NULL);
  g_auto(Dense) d = { 0 };
  const double m[] = {
    0.1,       1e-300,   -3.5e+200, 1.0 / 3.0,
    -0.0,      DBL_MAX,  DBL_MIN,   4.9406564584124654e-324,
    2.0 / 3.0, -1e-5,    123456789.0123456789, 1e22,
  };

  g_assert_true (ks_mtx_write_dense (path, 3, 4, m, "round trip", &error));
  g_assert_no_error (error);

  g_assert_true (ks_mtx_read_dense (path, 12, &d.rows, &d.cols, &d.data,
                                    &error));
  g_assert_no_error (error);
  g_assert_cmpuint (d.rows, ==, 3);
  g_assert_cmpuint (d.cols, ==, 4);
  g_assert_cmpmem (d.data, sizeof m, m, sizeof m);
  g_assert_true (signbit (d.data[4]));
}

/* The exact text: header, comment lines, size, column-major values. */
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

/* The stream entry point reads from memory as the file one does from disk. */
static void
test_read_stream (void)
{
  static const char text[] = "%%MatrixMarket matrix coordinate real general\n"
                             "2 2 2\n1 1 3\n2 2 -4";   /* no final newline */
  g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data (text, sizeof text - 1, NULL);
  g_autoptr(GError) error = NULL;
  g_auto(Dense) d = { 0 };

  g_assert_true (ks_mtx_read_dense_stream (in, "memory", 0, &d.rows, &d.cols, &d.data, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (d.rows, ==, 2);
  g_assert_cmpfloat (d.data[0], ==, 3.0);
  g_assert_cmpfloat (d.data[3], ==, -4.0);
}

static void
test_write_format (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "format.mtx", NULL);
  g_autofree char *text = NULL;
  const double m[] = { 1, 2, 3, 0.5, -4, 0.1 };  /* 2 x 3, row-major */

  g_assert_true (ks_mtx_write_dense (path, 2, 3, m,
                                     "first line\nsecond\r\n\nlast\n",
                                     &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==,
                   "%%MatrixMarket matrix array real general\n"
                   "% first line\n"
                   "% second\n"
                   "%\n"
                   "% last\n"
                   "2 3\n"
                   "1\n0.5\n2\n-4\n3\n0.10000000000000001\n");
  g_clear_pointer (&text, g_free);

  /* No comment at all; also overwrites the previous file. */
  g_assert_true (ks_mtx_write_dense (path, 1, 1, m, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==,
                   "%%MatrixMarket matrix array real general\n"
                   "1 1\n"
                   "1\n");
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

/* With a decimal-comma LC_NUMERIC, strtod() would stop at the '.', and
 * printf() would write "0,5"; both sides must ignore the locale. */
static void
test_locale (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = g_build_filename (tmp_dir, "locale-out.mtx", NULL);
  g_autofree char *text = NULL;
  g_autofree char *old_lc_all = g_strdup (g_getenv ("LC_ALL"));
  g_autofree char *old_lc_numeric = g_strdup (g_getenv ("LC_NUMERIC"));
  g_auto(Dense) d = { 0 };
  g_auto(Dense) d2 = { 0 };
  const double m[] = { 0.5, -1.25e-3, 1.0 / 3.0, 6.02214076e23 };
  char probe[32];
  gboolean have_locale;
  g_autofree char *localedef = NULL;
  g_autofree char *old_locpath = g_strdup (g_getenv ("LOCPATH"));

  /* LC_ALL would override LC_NUMERIC. */
  g_unsetenv ("LC_ALL");
  g_setenv ("LC_NUMERIC", "de_DE.UTF-8", TRUE);
  have_locale = setlocale (LC_ALL, "") != NULL &&
                strcmp (localeconv ()->decimal_point, ",") == 0;
  /* A machine (CI's) where de_DE is not generated: build it into the test's
   * own folder from the locales package's sources and point LOCPATH there,
   * so the test runs instead of skipping, without touching the system. */
  if (!have_locale && (localedef = g_find_program_in_path ("localedef")) != NULL)
    {
      g_autofree char *dir = g_build_filename (tmp_dir, "locale", NULL);
      g_autofree char *target = g_build_filename (dir, "de_DE.UTF-8", NULL);
      const char *argv[] = { "localedef", "-i", "de_DE", "-f", "UTF-8", target, NULL };

      g_mkdir_with_parents (dir, 0755);
      if (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL
                        | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL))
        {
          g_setenv ("LOCPATH", dir, TRUE);
          have_locale = setlocale (LC_ALL, "") != NULL &&
                        strcmp (localeconv ()->decimal_point, ",") == 0;
        }
    }

  if (have_locale)
    {
      g_snprintf (probe, sizeof probe, "%g", 0.5);
      g_assert_cmpstr (probe, ==, "0,5");

      path = fixture ("locale.mtx",
                      "%%MatrixMarket matrix coordinate real general\n"
                      "2 2 2\n"
                      "1 1 0.5\n"
                      "2 2 -1.25e-3\n");
      g_assert_true (ks_mtx_read_dense (path, 0, &d.rows, &d.cols, &d.data,
                                        &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (AT (d, 1, 1), ==, 0.5);
      g_assert_cmpfloat (AT (d, 2, 2), ==, -1.25e-3);

      g_assert_true (ks_mtx_write_dense (out, 2, 2, m, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (out, &text, NULL, &error));
      g_assert_no_error (error);
      g_assert_null (strchr (text, ','));
      g_assert_nonnull (strstr (text, "\n0.5\n"));

      g_assert_true (ks_mtx_read_dense (out, 0, &d2.rows, &d2.cols, &d2.data,
                                        &error));
      g_assert_no_error (error);
      g_assert_cmpmem (d2.data, sizeof m, m, sizeof m);
    }

  /* Put the process back for the tests that follow. */
  setlocale (LC_ALL, "C");
  if (old_locpath != NULL)
    g_setenv ("LOCPATH", old_locpath, TRUE);
  else
    g_unsetenv ("LOCPATH");
  if (old_lc_all != NULL)
    g_setenv ("LC_ALL", old_lc_all, TRUE);
  if (old_lc_numeric != NULL)
    g_setenv ("LC_NUMERIC", old_lc_numeric, TRUE);
  else
    g_unsetenv ("LC_NUMERIC");

  if (!have_locale)
    g_test_skip ("locale de_DE.UTF-8 is not available");
}

/* Removes everything the tests wrote (including writer temp files that a
 * failed test may have left), then the directory. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *entry;

  if (dir != NULL)
    while ((entry = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (path, entry, NULL);

        /* The generated de_DE locale is a folder of files. */
        if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
          remove_tree (p);
        else
          g_unlink (p);
      }
  g_rmdir (path);
}

static void
remove_tmp_dir (void)
{
  remove_tree (tmp_dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  tmp_dir = g_dir_make_tmp ("test-mtx-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/mtx/read/coordinate-general", test_coordinate_general);
  g_test_add_func ("/mtx/read/coordinate-crlf-blank-bom",
                   test_coordinate_crlf_blank_bom);
  g_test_add_func ("/mtx/read/coordinate-duplicates-summed",
                   test_coordinate_duplicates_summed);
  g_test_add_func ("/mtx/read/coordinate-symmetric", test_coordinate_symmetric);
  g_test_add_func ("/mtx/read/coordinate-skew-symmetric", test_coordinate_skew);
  g_test_add_func ("/mtx/read/coordinate-integer", test_coordinate_integer);
  g_test_add_func ("/mtx/read/coordinate-pattern", test_coordinate_pattern);
  g_test_add_func ("/mtx/read/coordinate-empty", test_empty_coordinate);
  g_test_add_func ("/mtx/read/array-general", test_array_general);
  g_test_add_func ("/mtx/read/array-integer", test_array_integer);
  g_test_add_func ("/mtx/read/array-symmetric", test_array_symmetric);
  g_test_add_func ("/mtx/read/array-skew-symmetric", test_array_skew);
  g_test_add_func ("/mtx/read/hermitian-real", test_hermitian_real);
  g_test_add_func ("/mtx/read/vector", test_vector);
  g_test_add_func ("/mtx/read/header-case", test_header_case);
  g_test_add_func ("/mtx/read/parse-errors", test_parse_errors);
  g_test_add_func ("/mtx/read/nul-byte", test_nul_byte);
  g_test_add_func ("/mtx/read/max-elements", test_max_elements);
  g_test_add_func ("/mtx/read/io-errors", test_read_io_errors);
  g_test_add_func ("/mtx/read/not-regular", test_read_not_regular);
  g_test_add_func ("/mtx/read/long-line", test_read_long_line);
  g_test_add_func ("/mtx/read/too-long-file", test_read_too_long_file);
  g_test_add_func ("/mtx/read/stream", test_read_stream);
  g_test_add_func ("/mtx/write/format", test_write_format);
  g_test_add_func ("/mtx/write/errors", test_write_errors);
  g_test_add_func ("/mtx/round-trip", test_round_trip);
  g_test_add_func ("/mtx/locale", test_locale);

  ret = g_test_run ();

  remove_tmp_dir ();
  g_clear_pointer (&tmp_dir, g_free);
  return ret;
}
