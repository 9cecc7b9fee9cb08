/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mtx.c: Matrix Market reader/writer (src/io/ks-mtx.c) on well-formed
 * files: every format read, the writer's text, round trips and the locale.
 * What the reader and writer refuse is test-mtx-hostile.c's. */
#include "ks-mtx.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "ks-test-mtx-util.h"

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

static void
assert_all (const Dense  *d,
            const double *expected)
{
  for (guint k = 0; k < d->rows * d->cols; k++)
    g_assert_cmpfloat (d->data[k], ==, expected[k]);
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

/* The exact text: header, comment lines, size, column-major values. */
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

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
  g_test_add_func ("/mtx/read/stream", test_read_stream);
  g_test_add_func ("/mtx/write/format", test_write_format);
  g_test_add_func ("/mtx/round-trip", test_round_trip);
  g_test_add_func ("/mtx/locale", test_locale);

  return ks_test_mtx_run ("test-mtx-XXXXXX");
}
