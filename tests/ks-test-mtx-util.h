/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-mtx-util.h: what test-mtx and test-mtx-hostile share: the
 * directory their fixtures are written to, a dense matrix read back, and
 * the run with its clean-up.  Each test has its own tmp_dir. */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

/* All fixtures live here; ks_test_mtx_run() empties and removes it after. */
static char *tmp_dir;

/* Writes contents (len bytes, or NUL-terminated when len < 0) to a fixture
 * file and returns its path. */
static inline char *
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

static inline char *
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

static inline void
dense_clear (Dense *d)
{
  g_clear_pointer (&d->data, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Dense, dense_clear)


/* 1-based accessor, matching the file's indices. */
#define AT(d, i, j) ((d).data[((gsize) (i) - 1) * (d).cols + ((j) - 1)])
/* Removes everything the tests wrote (including writer temp files that a
 * failed test may have left), then the directory. */
static inline void
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

static inline void
remove_tmp_dir (void)
{
  remove_tree (tmp_dir);
}

/* Runs the tests added, their fixtures in a new directory named after
 * tmpl (a g_dir_make_tmp() template) that is emptied and removed after. */
static inline int
ks_test_mtx_run (const char *tmpl)
{
  g_autoptr(GError) error = NULL;
  int ret;

  tmp_dir = g_dir_make_tmp (tmpl, &error);
  g_assert_no_error (error);

  ret = g_test_run ();

  remove_tmp_dir ();
  g_clear_pointer (&tmp_dir, g_free);
  return ret;
}
