/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-io-output.c: the one check every output of every command goes
 * through (ks_io_check_outputs, src/io/ks-io-output.c), the atomic writer
 * and the stages that keep a failed step from replacing files. */
#include "ks-io-file.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp_dir;

/* tmp_dir/name (g_free it). */
static char *
in_tmp (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
make_file (const char *name,
           const char *text)
{
  char *path = in_tmp (name);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* outputs refused with code, the message holding phrase. */
static void
assert_refused (const KsIoOutput  *outputs,
                guint              n,
                const char *const *inputs,
                gint               code,
                const char        *phrase)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_io_check_outputs (outputs, n, inputs, &error));
  g_assert_error (error, G_IO_ERROR, code);
  if (strstr (error->message, phrase) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, phrase);
}

static void
assert_one_refused (const char        *path,
                    const char *const *inputs,
                    gint               code,
                    const char        *phrase)
{
  KsIoOutput o = { path, "--out", NULL };

  assert_refused (&o, 1, inputs, code, phrase);
}

static void
test_file (void)
{
  g_autofree char *fresh = in_tmp ("fresh.csv");
  g_autofree char *old = make_file ("old.csv", "old");
  g_autofree char *ro = make_file ("ro.csv", "ro");
  g_autofree char *link = in_tmp ("link.csv");
  g_autofree char *nodir = in_tmp ("no-such-folder/x.csv");
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_io_check_output (fresh, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (ks_io_check_output (old, NULL, &error));
  g_assert_no_error (error);

  /* Read-only by its mode, even for root, who may write it. */
  g_assert_cmpint (g_chmod (ro, 0444), ==, 0);
  assert_one_refused (ro, NULL, G_IO_ERROR_READ_ONLY, "--out");
  assert_one_refused (ro, NULL, G_IO_ERROR_READ_ONLY, "read-only");
  g_assert_cmpint (symlink (old, link), ==, 0);
  assert_one_refused (link, NULL, G_IO_ERROR_NOT_REGULAR_FILE, "symbolic link");
  /* A device node (replaced by a plain file by a rename) and a folder. */
  assert_one_refused ("/dev/null", NULL, G_IO_ERROR_NOT_REGULAR_FILE, "not a regular file");
  assert_one_refused (tmp_dir, NULL, G_IO_ERROR_NOT_REGULAR_FILE, "not a regular file");
  assert_one_refused (nodir, NULL, G_IO_ERROR_NOT_FOUND, "does not exist");
}

/* An input, by its path, another spelling or a hard link. */
static void
test_input (void)
{
  g_autofree char *mesh = make_file ("mesh.msh", "$MeshFormat");
  g_autofree char *sub = in_tmp ("sub");
  g_autofree char *alias = g_build_filename (tmp_dir, "sub", "..", "mesh.msh", NULL);
  g_autofree char *hard = in_tmp ("hard.msh");
  g_autofree char *other = make_file ("other.msh", "x");
  const char *inputs[] = { other, mesh, NULL };
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (link (mesh, hard), ==, 0);
  assert_one_refused (mesh, inputs, G_IO_ERROR_EXISTS, "input of this run");
  assert_one_refused (alias, inputs, G_IO_ERROR_EXISTS, "input of this run");
  assert_one_refused (hard, inputs, G_IO_ERROR_EXISTS, "input of this run");
  g_assert_true (ks_io_check_output (mesh, NULL, &error));
  g_assert_no_error (error);
}

/* Two outputs, one file; a folder's files and a file among them. */
static void
test_apart (void)
{
  static const char *const frames[] = { "frame-*.png", "final.png", NULL };
  g_autofree char *csv = in_tmp ("a.csv");
  g_autofree char *csv2 = g_build_filename (tmp_dir, ".", "a.csv", NULL);
  g_autofree char *dir = in_tmp ("frames");
  g_autofree char *final = g_build_filename (dir, "final.png", NULL);
  g_autofree char *gif = g_build_filename (dir, "anim.gif", NULL);
  g_autofree char *ro = g_build_filename (dir, "frame-000001.png", NULL);
  g_autofree char *notes = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GError) error = NULL;
  KsIoOutput same[] = { { csv, "--csv", NULL }, { csv2, "--json", NULL } };
  KsIoOutput covered[] = { { dir, "--frames", frames }, { final, "--gif", NULL } };
  KsIoOutput beside[] = { { dir, "--frames", frames }, { gif, "--gif", NULL }, { NULL, "--plot", NULL } };

  assert_refused (same, 2, NULL, G_IO_ERROR_EXISTS, "name the same file");
  /* The folder need not exist yet; a file it will write may not be another output's. */
  assert_refused (covered, 2, NULL, G_IO_ERROR_EXISTS, "--gif");
  assert_refused (covered, 2, NULL, G_IO_ERROR_EXISTS, "also written by --frames");
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (ks_io_check_outputs (beside, G_N_ELEMENTS (beside), NULL, &error));
  g_assert_no_error (error);

  /* What the folder holds and would replace is checked; the rest is not its. */
  g_assert_true (g_file_set_contents (notes, "", -1, NULL) && g_chmod (notes, 0444) == 0);
  g_assert_true (ks_io_check_outputs (beside, 1, NULL, &error));
  g_assert_true (g_file_set_contents (ro, "", -1, NULL) && g_chmod (ro, 0444) == 0);
  assert_refused (beside, 1, NULL, G_IO_ERROR_READ_ONLY, "frame-000001.png");
  /* A file where the folder should be. */
  beside[0].path = csv;
  g_assert_true (g_file_set_contents (csv, "", -1, NULL));
  assert_refused (beside, 1, NULL, G_IO_ERROR_NOT_DIRECTORY, "not a folder");
}

static void
test_write (void)
{
  g_autofree char *path = in_tmp ("w.txt");
  g_autofree char *link = in_tmp ("w-link.txt");
  g_autofree char *fifo = in_tmp ("w-fifo");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_io_write_file (path, "one", -1, &error));
  g_assert_no_error (error);
  g_assert_true (ks_io_write_file (path, "two", 3, &error));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "two");
  g_assert_cmpint (symlink (path, link), ==, 0);
  g_assert_false (ks_io_write_file (link, "x", -1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_clear_error (&error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  /* A FIFO for a device: a regression then replaces it, not /dev/null. */
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_false (ks_io_write_file (fifo, "x", -1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
  g_assert_true (g_file_test (fifo, G_FILE_TEST_EXISTS) && !g_file_test (fifo, G_FILE_TEST_IS_REGULAR));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Names in dir, sorted, as one string ("a b"). */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* A step that fails leaves the folder as it was; one that succeeds puts
 * its files over the old ones; no stage is left either way. */
static void
test_stage (void)
{
  g_autofree char *dir = in_tmp ("staged");
  g_autofree char *old = NULL;
  g_autofree char *text = NULL;
  g_autofree char *listing = NULL;
  g_autoptr(GError) error = NULL;
  KsIoStage *stage;

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  old = g_build_filename (dir, "frame-1.png", NULL);
  g_assert_true (g_file_set_contents (old, "old", -1, NULL));

  /* Failed: the new frame and a writer's temporary file are dropped. */
  stage = ks_io_stage_new (dir, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (ks_io_stage_path (stage, "frame-1.png"), "new", -1, NULL));
  g_assert_true (g_file_set_contents (ks_io_stage_path (stage, ".frame-2.png.ABCDEF"), "half", -1, NULL));
  ks_io_stage_free (stage);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "frame-1.png");
  g_assert_true (g_file_get_contents (old, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "old");
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&listing, g_free);

  /* Succeeded: in place, the stage gone. */
  stage = ks_io_stage_new (dir, &error);
  g_assert_true (g_file_set_contents (ks_io_stage_path (stage, "frame-1.png"), "new", -1, NULL));
  g_assert_true (g_file_set_contents (ks_io_stage_path (stage, "series.csv"), "s", -1, NULL));
  g_assert_true (ks_io_stage_commit (stage, &error));
  g_assert_no_error (error);
  ks_io_stage_free (stage);
  listing = list_dir (dir);
  g_assert_cmpstr (listing, ==, "frame-1.png series.csv");
  g_assert_true (g_file_get_contents (old, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "new");
  g_clear_pointer (&text, g_free);

  /* A read-only file in the folder is not replaced by a commit either. */
  g_assert_cmpint (g_chmod (old, 0444), ==, 0);
  stage = ks_io_stage_new (dir, &error);
  g_assert_true (g_file_set_contents (ks_io_stage_path (stage, "frame-1.png"), "newer", -1, NULL));
  g_assert_false (ks_io_stage_commit (stage, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY);
  ks_io_stage_free (stage);
  g_assert_true (g_file_get_contents (old, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "new");
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK) && (dir = g_dir_open (path, 0, NULL)) != NULL)
    while ((name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *child = g_build_filename (path, name, NULL);
        remove_tree (child);
      }
  g_remove (path);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("ks-test-io-output-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/io/output/file", test_file);
  g_test_add_func ("/io/output/input", test_input);
  g_test_add_func ("/io/output/apart", test_apart);
  g_test_add_func ("/io/output/write", test_write);
  g_test_add_func ("/io/output/stage", test_stage);
  status = g_test_run ();

  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}
