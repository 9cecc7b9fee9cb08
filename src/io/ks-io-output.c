/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-io-output.c: what a command may write, checked in one place; atomic
 * writes and stages (see ks-io-file.h). */
#define G_LOG_DOMAIN "ks-io"

#include "ks-io-file.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How messages name an output: "--gif a.gif", or the path alone. */
static char *
output_name (const char *option,
             const char *path)
{
  return option != NULL ? g_strdup_printf ("%s %s", option, path) : g_strdup (path);
}

/* What no write may replace, whatever the command reads: a link, a device,
 * a folder, a pipe, a read-only file.  *exists: path is there. */
static gboolean
check_target (const char *path,
              const char *name,
              gboolean   *exists,
              GStatBuf   *st,
              GError    **error)
{
  *exists = g_lstat (path, st) == 0;
  if (!*exists)
    return TRUE;
  if (S_ISLNK (st->st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is a symbolic link; replacing it would cut the link: name the file it points to"), name);
      return FALSE;
    }
  if (!S_ISREG (st->st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file (a device, a folder or a pipe): it is not replaced; name a file"),
                   name);
      return FALSE;
    }
  /* By its mode too: root may write anything, yet a file marked read-only
   * was marked so by someone. */
  if ((st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || g_access (path, W_OK) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_READ_ONLY,
                   _("%s is read-only: it is not replaced; make it writable or name another file"), name);
      return FALSE;
    }
  return TRUE;
}

/* The folder a file goes into must be there to take it. */
static gboolean
check_folder_exists (const char *path,
                     const char *name,
                     GError    **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  GStatBuf st;

  if (g_stat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("%s: the folder %s does not exist; make it first or name another"), name, dir);
      return FALSE;
    }
  if (g_access (dir, W_OK | X_OK) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("%s: the folder %s cannot be written in"), name, dir);
      return FALSE;
    }
  return TRUE;
}

/* An output that exists may not be one of the inputs, by its device and
 * inode: a second name, "./a/../a/x" or a hard link is the same file. */
static gboolean
check_not_input (const GStatBuf     *st,
                 const char         *name,
                 const char *const  *inputs,
                 GError            **error)
{
  GStatBuf in;

  for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
    if (g_stat (inputs[i], &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                     _("%s is an input of this run too: it is not overwritten; name another file"), name);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_file (const char         *path,
            const char         *name,
            const char *const  *inputs,
            GError            **error)
{
  gboolean exists;
  GStatBuf st;

  if (g_str_has_suffix (path, G_DIR_SEPARATOR_S))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("%s names a folder: give a file name"), name);
      return FALSE;
    }
  return check_target (path, name, &exists, &st, error) &&
         check_folder_exists (path, name, error) &&
         (!exists || check_not_input (&st, name, inputs, error));
}

static gboolean
matches (const char *const *names,
         const char        *base)
{
  for (guint k = 0; names[k] != NULL; k++)
    if (g_pattern_match_simple (names[k], base))
      return TRUE;
  return FALSE;
}

/* A folder output: a folder (a link to one is written into, not
 * replaced) or nothing yet; each file it holds that the command would
 * replace is checked as a file output. */
static gboolean
check_folder (const KsIoOutput   *o,
              const char         *name,
              const char *const  *inputs,
              GError            **error)
{
  g_autoptr(GDir) dir = NULL;
  const char *entry;
  GStatBuf st;

  if (g_stat (o->path, &st) != 0)
    return TRUE;   /* made when the command writes */
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("%s is not a folder: name a folder for its files"), name);
      return FALSE;
    }
  if (!(dir = g_dir_open (o->path, 0, error)))
    return FALSE;
  while ((entry = g_dir_read_name (dir)) != NULL)
    if (matches (o->names, entry))
      {
        g_autofree char *path = g_build_filename (o->path, entry, NULL);
        if (!check_file (path, path, inputs, error))
          return FALSE;
      }
  return TRUE;
}

/* path with every link and "." or ".." resolved, for a path that need not
 * exist yet: its longest existing folder resolved, the rest as given. */
static char *
canonical (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *cdir = NULL;
  char *real = realpath (path, NULL);

  if (real != NULL)
    {
      char *copy = g_strdup (real);
      free (real);
      return copy;
    }
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  if (strcmp (dir, path) == 0 || strcmp (base, ".") == 0 || strcmp (base, "..") == 0)
    return g_canonicalize_filename (path, NULL);
  cdir = canonical (dir);
  return g_build_filename (cdir, base, NULL);
}

static gboolean
same_file (const char *a,
           const char *b)
{
  GStatBuf sa, sb;

  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Does folder (canonical cfolder) write the file whose canonical path is cfile? */
static gboolean
covers (const KsIoOutput *folder,
        const char       *cfolder,
        const char       *cfile)
{
  g_autofree char *dir = g_path_get_dirname (cfile);
  g_autofree char *base = g_path_get_basename (cfile);

  return folder->names != NULL && strcmp (dir, cfolder) == 0 && matches (folder->names, base);
}

static gboolean
check_apart (const KsIoOutput  *o,
             char             **canon,
             guint              n,
             GError           **error)
{
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n && canon[i] != NULL; j++)
      {
        g_autofree char *a = NULL, *b = NULL;

        if (canon[j] == NULL)
          continue;
        a = output_name (o[i].option, o[i].path);
        b = output_name (o[j].option, o[j].path);
        if (strcmp (canon[i], canon[j]) == 0 || same_file (o[i].path, o[j].path))
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                         _("%s and %s name the same file: give each output a name of its own"), a, b);
            return FALSE;
          }
        if (covers (&o[i], canon[i], canon[j]) || covers (&o[j], canon[j], canon[i]))
          {
            gboolean first_is_folder = covers (&o[i], canon[i], canon[j]);
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("%s is also written by %s: give it another name"),
                         first_is_folder ? b : a, first_is_folder ? a : b);
            return FALSE;
          }
      }
  return TRUE;
}

gboolean
ks_io_check_outputs (const KsIoOutput   *outputs,
                     guint               n_outputs,
                     const char *const  *inputs,
                     GError            **error)
{
  g_autoptr(GPtrArray) canon = g_ptr_array_new_full (n_outputs, g_free);

  g_return_val_if_fail (outputs != NULL || n_outputs == 0, FALSE);

  for (guint i = 0; i < n_outputs; i++)
    g_ptr_array_add (canon, outputs[i].path && *outputs[i].path ? canonical (outputs[i].path) : NULL);
  /* Apart first: --frames D --gif D/final.png is one mistake however D is. */
  if (!check_apart (outputs, (char **) canon->pdata, n_outputs, error))
    return FALSE;
  for (guint i = 0; i < n_outputs; i++)
    {
      const KsIoOutput *o = &outputs[i];
      g_autofree char *name = NULL;

      if (canon->pdata[i] == NULL)
        continue;
      name = output_name (o->option, o->path);
      if (o->names != NULL ? !check_folder (o, name, inputs, error) : !check_file (o->path, name, inputs, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
ks_io_check_output (const char         *path,
                    const char *const  *inputs,
                    GError            **error)
{
  KsIoOutput o = { path, NULL, NULL };

  g_return_val_if_fail (path != NULL, FALSE);
  return ks_io_check_outputs (&o, 1, inputs, error);
}

gboolean
ks_io_write_file (const char  *path,
                  const char  *data,
                  gssize       len,
                  GError     **error)
{
  gboolean exists;
  GStatBuf st;

  g_return_val_if_fail (path != NULL && data != NULL, FALSE);

  if (!check_target (path, path, &exists, &st, error))
    return FALSE;
  return g_file_set_contents_full (path, data, len,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_ONLY_EXISTING, 0666,
                                   error);
}

/* --- stages ----------------------------------------------------------------- */

struct _KsIoStage {
  char       *dir;     /* where the files go */
  char       *stage;   /* dir/.ks-stage-XXXXXX */
  GHashTable *paths;   /* name -> path in the stage */
};

KsIoStage *
ks_io_stage_new (const char  *dir,
                 GError     **error)
{
  g_autoptr(KsIoStage) s = g_new0 (KsIoStage, 1);

  g_return_val_if_fail (dir != NULL, NULL);

  s->dir = g_strdup (dir);
  s->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->stage = g_build_filename (dir, ".ks-stage-XXXXXX", NULL);
  if (g_mkdtemp_full (s->stage, 0700) == NULL)
    {
      const int err = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), _("Cannot write in %s: %s"), dir,
                   g_strerror (err));
      g_clear_pointer (&s->stage, g_free);
      return NULL;
    }
  return g_steal_pointer (&s);
}

const char *
ks_io_stage_path (KsIoStage  *stage,
                  const char *name)
{
  char *path;

  g_return_val_if_fail (stage != NULL && name != NULL, NULL);

  if ((path = g_hash_table_lookup (stage->paths, name)) == NULL)
    {
      path = g_build_filename (stage->stage, name, NULL);
      g_hash_table_insert (stage->paths, g_strdup (name), path);
    }
  return path;
}

gboolean
ks_io_stage_commit (KsIoStage  *stage,
                    GError    **error)
{
  g_autoptr(GDir) dir = NULL;
  const char *entry;

  g_return_val_if_fail (stage != NULL, FALSE);

  if (!(dir = g_dir_open (stage->stage, 0, error)))
    return FALSE;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *from = g_build_filename (stage->stage, entry, NULL);
      g_autofree char *to = g_build_filename (stage->dir, entry, NULL);
      gboolean exists;
      GStatBuf st;

      /* A writer's own temporary file (".name.XXXXXX") is no result. */
      if (entry[0] == '.')
        continue;
      if (!check_target (to, to, &exists, &st, error))
        return FALSE;
      if (g_rename (from, to) != 0)
        {
          const int err = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (err), _("Cannot write %s: %s"), to,
                       g_strerror (err));
          return FALSE;
        }
    }
  return TRUE;
}

void
ks_io_stage_free (KsIoStage *stage)
{
  if (stage == NULL)
    return;
  if (stage->stage != NULL)
    {
      g_autoptr(GDir) dir = g_dir_open (stage->stage, 0, NULL);
      const char *entry;

      while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (stage->stage, entry, NULL);
          g_remove (path);
        }
      g_rmdir (stage->stage);
    }
  g_free (stage->stage);
  g_free (stage->dir);
  g_clear_pointer (&stage->paths, g_hash_table_unref);
  g_free (stage);
}
