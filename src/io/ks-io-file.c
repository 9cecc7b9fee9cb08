/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-io-file.c: see ks-io-file.h. */
#define G_LOG_DOMAIN "ks-io"

#include "ks-io-file.h"

#include <glib/gi18n-lib.h>

GInputStream *
ks_io_open_regular (const char  *path,
                    const char  *name,
                    const char  *what,
                    GQuark       domain,
                    gint         code,
                    GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local = NULL;
  GFileInputStream *in;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, NULL, &local);
  if (info == NULL)
    {
      g_set_error_literal (error, domain, code, local->message);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, domain, code, _("%s: not a regular file (a directory, a device or a pipe cannot be read as %s)"),
                   name, what);
      return NULL;
    }
  if (!(in = g_file_read (file, NULL, &local)))
    {
      g_set_error_literal (error, domain, code, local->message);
      return NULL;
    }
  return G_INPUT_STREAM (in);
}
