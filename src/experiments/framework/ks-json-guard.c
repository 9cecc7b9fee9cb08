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

/* Is the integer literal text[0..len) (an optional '-', then digits)
 * beyond gint64? */
static gboolean
integer_overflows (const char *text,
                   gsize       len)
{
  gsize sign = text[0] == '-', digits = len - sign;
  char buf[24];
  g_autoptr(GError) error = NULL;

  if (digits == 0)
    return FALSE;
  for (gsize i = sign; i < len; i++)
    if (!g_ascii_isdigit (text[i]))
      return FALSE;
  if (len >= sizeof buf)
    return TRUE;   /* 22 digits and more: no gint64 has them */
  memcpy (buf, text, len);
  buf[len] = '\0';
  return !g_ascii_string_to_signed (buf, 10, G_MININT64, G_MAXINT64, NULL, &error)
         && g_error_matches (error, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS);
}

GString *
ks_json_widen_huge_integers (const char *data,
                             gsize       length)
{
  GString *out = NULL;
  gsize copied = 0;
  gboolean in_string = FALSE;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];
      gsize end = i + 1;
      gboolean real = FALSE;

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      if (c != '-' && !g_ascii_isdigit (c))
        continue;
      /* The whole number token, so that the exponent of 1e999 is not one. */
      for (; end < length && (g_ascii_isdigit (data[end]) || data[end] == '.' || data[end] == 'e'
                              || data[end] == 'E' || data[end] == '+' || data[end] == '-'); end++)
        real |= data[end] == '.' || data[end] == 'e' || data[end] == 'E';
      if (!real && integer_overflows (data + i, end - i))
        {
          if (out == NULL)
            out = g_string_sized_new (length + 16);
          g_string_append_len (out, data + copied, end - copied);
          g_string_append (out, ".0");
          copied = end;
        }
      i = end - 1;
    }
  if (out != NULL)
    g_string_append_len (out, data + copied, length - copied);
  return out;
}

/* Is every string and member name under node valid UTF-8?  json-glib
 * decodes a malformed escape ("\\uda:7", a lone surrogate) into bytes that
 * are not, and every writer after it (json-glib's own included) then fails
 * or aborts.  Depth is bounded by KS_JSON_MAX_DEPTH. */
static gboolean
node_is_utf8 (JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        json_object_iter_init (&iter, json_node_get_object (node));
        while (json_object_iter_next (&iter, &name, &member))
          if (!g_utf8_validate (name, -1, NULL) || !node_is_utf8 (member))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          if (!node_is_utf8 (json_array_get_element (array, i)))
            return FALSE;
        return TRUE;
      }
    case JSON_NODE_VALUE:
      return json_node_get_value_type (node) != G_TYPE_STRING
             || g_utf8_validate (json_node_get_string (node), -1, NULL);
    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

static gboolean
parse_checked (JsonParser *parser,
               const char *data,
               gssize      length,
               GError    **error)
{
  JsonNode *root;

  if (!json_parser_load_from_data (parser, data, length, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root != NULL && !node_is_utf8 (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("a text in it is not valid UTF-8 (a \\u escape "
                     "without four hex digits, or half a surrogate pair)"));
      return FALSE;
    }
  return TRUE;
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
  {
    g_autoptr(GString) widened = ks_json_widen_huge_integers (data, length);

    if (widened != NULL)
      return parse_checked (parser, widened->str, widened->len, error);
  }
  return parse_checked (parser, data, length, error);
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
