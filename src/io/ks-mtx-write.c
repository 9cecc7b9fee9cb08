/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mtx-write.c: the Matrix Market writer (ks-mtx.c reads).  Dense arrays
 * as "matrix array real general", full precision, locale-independent, and
 * atomic, so a failed write never leaves half a file. */
#define G_LOG_DOMAIN "ks-mtx"

#include "ks-mtx.h"
#include "ks-io-file.h"

#include <math.h>
#include <string.h>

gboolean
ks_mtx_write_dense (const char   *path,
                    guint         rows,
                    guint         cols,
                    const double *data,
                    const char   *comment,
                    GError      **error)
{
  g_autoptr(GString) out = NULL;
  g_autoptr(GError) local_error = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  guint i, j;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (rows > 0 && cols > 0, FALSE);
  g_return_val_if_fail (data != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Checked before anything is written so that a refused matrix leaves an
   * existing file untouched. */
  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++)
      if (!isfinite (data[(gsize) i * cols + j]))
        {
          g_autofree char *name = g_filename_display_name (path);
          g_set_error (error, KS_MTX_ERROR, KS_MTX_ERROR_UNSUPPORTED,
                       "%s: cannot write non-finite value at (%u, %u)",
                       name, i + 1, j + 1);
          return FALSE;
        }

  /* "%.17g" of a double is at most 24 characters plus the newline. */
  out = g_string_sized_new (64 + (gsize) rows * cols * 25);
  g_string_append (out, "%%MatrixMarket matrix array real general\n");

  if (comment != NULL && *comment != '\0')
    {
      g_auto(GStrv) lines = g_strsplit (comment, "\n", -1);
      guint n_lines = g_strv_length (lines);

      /* A comment ending in a newline does not ask for an empty last line. */
      if (n_lines > 1 && *lines[n_lines - 1] == '\0')
        n_lines--;

      for (guint k = 0; k < n_lines; k++)
        {
          char *l = lines[k];
          gsize len = strlen (l);

          if (len > 0 && l[len - 1] == '\r')
            l[--len] = '\0';
          /* A lone CR is a line break to some readers, and the text after
           * it would then not be a comment. */
          g_strdelimit (l, "\r", ' ');

          g_string_append_c (out, '%');
          if (len > 0)
            {
              g_string_append_c (out, ' ');
              g_string_append_len (out, l, len);
            }
          g_string_append_c (out, '\n');
        }
    }

  g_string_append_printf (out, "%u %u\n", rows, cols);

  /* Column-major, as the array format requires. */
  for (j = 0; j < cols; j++)
    for (i = 0; i < rows; i++)
      {
        g_ascii_formatd (buf, sizeof buf, "%.17g", data[(gsize) i * cols + j]);
        g_string_append (out, buf);
        g_string_append_c (out, '\n');
      }

  /* Readers see either the old file or the complete new one, never a
   * half-written matrix; a link or a device is not replaced. */
  if (!ks_io_write_file (path, out->str, (gssize) out->len, &local_error))
    {
      g_set_error_literal (error, KS_MTX_ERROR, KS_MTX_ERROR_IO,
                           local_error->message);
      return FALSE;
    }

  return TRUE;
}
