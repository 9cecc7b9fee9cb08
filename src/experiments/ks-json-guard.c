/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-json-guard.c: see ks-json-guard.h. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-json-guard.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

guint
ks_json_depth (const char *data,
               gsize       length,
               guint       limit)
{
  guint depth = 0, deepest = 0;
  gboolean in_string = FALSE;

  g_return_val_if_fail (data != NULL || length == 0, 0);

  for (gsize i = 0; i < length && deepest <= limit; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        {
          depth++;
          deepest = MAX (deepest, depth);
        }
      else if ((c == '}' || c == ']') && depth > 0)
        depth--;
    }
  return deepest;
}

gboolean
ks_json_parser_load_data (JsonParser *parser,
                          const char *data,
                          gssize      length,
                          GError    **error)
{
  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (length < 0)
    length = strlen (data);
  if (ks_json_depth (data, length, KS_JSON_MAX_DEPTH) > KS_JSON_MAX_DEPTH)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("nested more than %d deep: no Kernelscope file is"), KS_JSON_MAX_DEPTH);
      return FALSE;
    }
  return json_parser_load_from_data (parser, data, length, error);
}

char *
ks_json_read_file (const char *path,
                   gsize      *length,
                   GError    **error)
{
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  GStatBuf st;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   _("%s cannot be read: %s"), display, g_strerror (saved));
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file (a pipe, a device or a folder)"), display);
      return NULL;
    }
  if ((guint64) st.st_size > KS_JSON_MAX_FILE_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s is %.0f MiB: larger than any Kernelscope file (at most %.0f MiB)"), display,
                   st.st_size / 1048576.0, KS_JSON_MAX_FILE_BYTES / 1048576.0);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &len, error))
    return NULL;
  /* It may have grown between the stat and the read. */
  if (len > KS_JSON_MAX_FILE_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s grew past %.0f MiB while it was read"), display, KS_JSON_MAX_FILE_BYTES / 1048576.0);
      return NULL;
    }
  if (length)
    *length = len;
  return g_steal_pointer (&data);
}

gboolean
ks_json_parser_load_file (JsonParser *parser,
                          const char *path,
                          GError    **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (JSON_IS_PARSER (parser), FALSE);

  if (!(data = ks_json_read_file (path, &length, error)))
    return FALSE;
  return ks_json_parser_load_data (parser, data, length, error);
}
