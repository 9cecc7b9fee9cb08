/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-part-file.c: see ks-part-file.h. */
#define G_LOG_DOMAIN "ks-io"

#include "ks-part-file.h"
#include "ks-io-file.h"

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (ks-part-file-error-quark, ks_part_file_error)

/* The reader's state between chunks: where in the current line it is. */
typedef struct {
  const char *name;
  guint       max_cells;
  GArray     *parts;
  guint64     line;         /* the current line, from 1 */
  guint64     value;
  gboolean    in_number;    /* digits seen on this line */
  gboolean    after_number; /* spaces after them */
  gboolean    cr;           /* a '\r' just before the '\n' */
  guint64     blank_line;   /* the first empty line not yet followed by a number, or 0 */
} Reader;

static gboolean
bad_line (Reader *r, const char *why, GError **error)
{
  g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_PARSE,
               _("%s, line %llu: %s (a partition file has one part number per line, line i holding cell i's part, "
                 "as METIS writes it)"),
               r->name, (unsigned long long) r->line, why);
  return FALSE;
}

/* The end of a line: its number joins the parts, or it is empty, which
 * only the last lines of a file may be. */
static gboolean
end_line (Reader *r, GError **error)
{
  if (r->in_number)
    {
      guint part = (guint) r->value;

      if (r->blank_line != 0)
        {
          r->line = r->blank_line;
          return bad_line (r, _("an empty line between part numbers"), error);
        }
      if (r->max_cells > 0 && r->parts->len >= r->max_cells)
        {
          g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_TOO_LARGE,
                       _("%s has more than %u lines: more cells than the largest mesh"), r->name, r->max_cells);
          return FALSE;
        }
      g_array_append_val (r->parts, part);
    }
  else if (r->blank_line == 0)
    r->blank_line = r->line;
  r->line++;
  r->value = 0;
  r->in_number = r->after_number = r->cr = FALSE;
  return TRUE;
}

static gboolean
feed (Reader *r, const char *buf, gsize n, GError **error)
{
  for (gsize i = 0; i < n; i++)
    {
      const char c = buf[i];

      if (r->cr && c != '\n')
        return bad_line (r, _("a carriage return inside the line"), error);
      if (c == '\n')
        {
          if (!end_line (r, error))
            return FALSE;
        }
      else if (c == '\r')
        r->cr = TRUE;
      else if (c == ' ' || c == '\t')
        r->after_number = r->in_number;
      else if (g_ascii_isdigit (c))
        {
          if (r->after_number)
            return bad_line (r, _("more than one number"), error);
          r->value = 10 * r->value + (guint64) (c - '0');
          r->in_number = TRUE;
          if (r->value > KS_PART_FILE_MAX_PART)
            {
              g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_TOO_LARGE,
                           _("%s, line %llu: the part number is past %u, more parts than any run has"),
                           r->name, (unsigned long long) r->line, KS_PART_FILE_MAX_PART);
              return FALSE;
            }
        }
      else if (c == '-' || c == '+')
        return bad_line (r, _("a sign: parts are numbered from 0"), error);
      else if (c == '.' || c == 'e' || c == 'E')
        return bad_line (r, _("not a whole number"), error);
      else if (g_ascii_isprint (c))
        {
          g_autofree char *why = g_strdup_printf (_("\"%c\" where a part number belongs"), c);
          return bad_line (r, why, error);
        }
      else
        {
          g_autofree char *why = g_strdup_printf (_("the byte 0x%02x where a part number belongs (not a text file?)"),
                                                  (guint) (guchar) c);
          return bad_line (r, why, error);
        }
    }
  return TRUE;
}

gboolean
ks_part_file_read_stream (GInputStream  *stream,
                          const char    *name,
                          guint          max_cells,
                          guint        **out_parts,
                          guint         *out_cells,
                          GError       **error)
{
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (guint));
  Reader r = { name, max_cells, parts, 1 };
  g_autofree char *buf = g_malloc (65536);

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream) && name != NULL, FALSE);
  g_return_val_if_fail (out_parts != NULL && out_cells != NULL, FALSE);

  for (;;)
    {
      g_autoptr(GError) local = NULL;
      gssize got = g_input_stream_read (stream, buf, 65536, NULL, &local);

      if (got < 0)
        {
          g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_IO, _("%s: %s"), name, local->message);
          return FALSE;
        }
      if (got == 0)
        break;
      if (!feed (&r, buf, (gsize) got, error))
        return FALSE;
    }
  /* A last line without its '\n'. */
  if ((r.in_number || r.cr) && !end_line (&r, error))
    return FALSE;
  if (parts->len == 0)
    {
      g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_PARSE,
                   _("%s has no part numbers: a partition file has one per cell, line i holding cell i's part"),
                   name);
      return FALSE;
    }
  *out_cells = parts->len;
  *out_parts = (guint *) g_array_free (g_steal_pointer (&parts), FALSE);
  return TRUE;
}

gboolean
ks_part_file_read (const char  *path,
                   guint        max_cells,
                   guint      **out_parts,
                   guint       *out_cells,
                   GError     **error)
{
  g_autofree char *name = NULL;
  g_autoptr(GInputStream) in = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  name = g_filename_display_name (path);
  if (!(in = ks_io_open_regular (path, name, _("a partition"), KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_IO, error)))
    return FALSE;
  return ks_part_file_read_stream (in, name, max_cells, out_parts, out_cells, error);
}

gboolean
ks_part_file_check (const guint  *parts,
                    guint         n_cells,
                    const char   *name,
                    guint         mesh_cells,
                    guint         n_parts,
                    GError      **error)
{
  g_return_val_if_fail (parts != NULL || n_cells == 0, FALSE);

  if (n_cells != mesh_cells)
    {
      g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_MISMATCH,
                   _("%s has parts for %u cells, but the mesh has %u: a partition file fits one mesh"),
                   name, n_cells, mesh_cells);
      return FALSE;
    }
  for (guint i = 0; i < n_cells; i++)
    if (parts[i] >= n_parts)
      {
        g_set_error (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_MISMATCH,
                     _("%s, line %u: part %u, but the run has %u parts (0 to %u)"),
                     name, i + 1, parts[i], n_parts, n_parts - 1);
        return FALSE;
      }
  return TRUE;
}

gboolean
ks_part_file_write (const char   *path,
                    const guint  *parts,
                    guint         n_cells,
                    GError      **error)
{
  g_autoptr(GString) text = g_string_sized_new (4 * (gsize) n_cells + 1);
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (path != NULL && (parts != NULL || n_cells == 0), FALSE);

  for (guint i = 0; i < n_cells; i++)
    g_string_append_printf (text, "%u\n", parts[i]);
  if (!ks_io_write_file (path, text->str, (gssize) text->len, &local))
    {
      g_set_error_literal (error, KS_PART_FILE_ERROR, KS_PART_FILE_ERROR_IO, local->message);
      return FALSE;
    }
  return TRUE;
}
