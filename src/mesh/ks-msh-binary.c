/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh-binary.c: binary MSH 2.2 and 4.1 files (gmsh -bin).
 *
 * The layout (Gmsh's reference manual, "MSH file format"): the section
 * names, $MeshFormat's line, the counts of 2.2's $Nodes and $Elements and
 * the whole of $PhysicalNames are text lines; the rest is raw numbers.
 * $MeshFormat's line ends with the size of a size_t (4.1's counts and tags;
 * 2.2 writes 8 for a double) and is followed by an int 1 written raw, from
 * which the byte order is told: a file written on a big-endian machine is
 * read as well as one from a little-endian one.  4.1's entity tags,
 * dimensions and element types are ints, its counts and node and element
 * tags size_ts; 2.2 has ints throughout.  Every read checks the bytes
 * left first: a count a file declares is never trusted for an allocation
 * (arrays grow with what is there), so a huge count in a short file is
 * "truncated". */
#define G_LOG_DOMAIN "ks-msh"

#include "ks-msh-private.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

typedef struct {
  KsMshReader  *r;
  const guchar *data;
  gsize         length;
  gsize         at;
  gboolean      swap;        /* the file's byte order is not ours */
  guint         size_bytes;  /* a size_t's, 4 or 8 (4.1) */
} Bin;

static gboolean
truncated (Bin *b, const char *section, GError **error)
{
  b->r->byte = b->at;
  ks_msh_fail (b->r, error, _("the file ends inside %s (truncated?)"), section);
  return FALSE;
}

static gboolean
take (Bin *b, void *out, gsize n, const char *section, GError **error)
{
  if (b->length - b->at < n)
    return truncated (b, section, error);
  memcpy (out, b->data + b->at, n);
  if (b->swap)
    for (gsize i = 0; i < n / 2; i++)
      {
        guchar *p = out, t = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
      }
  b->at += n;
  return TRUE;
}

static gboolean
get_int (Bin *b, gint32 *out, const char *section, GError **error)
{
  return take (b, out, 4, section, error);
}

static gboolean
get_double (Bin *b, double *out, const char *section, GError **error)
{
  return take (b, out, 8, section, error);
}

/* A size_t of the file (4.1), at most max. */
static gboolean
get_size (Bin *b, guint64 max, guint64 *out, const char *section, GError **error)
{
  guint32 small = 0;
  const gsize start = b->at;

  if (b->size_bytes == 4 ? !take (b, &small, 4, section, error) : !take (b, out, 8, section, error))
    return FALSE;
  if (b->size_bytes == 4)
    *out = small;
  if (*out > max)
    {
      b->r->byte = start;
      ks_msh_fail (b->r, error, _("a count or tag of %llu in %s (tags and counts go up to %llu)"),
                   (unsigned long long) *out, section, (unsigned long long) max);
      return FALSE;
    }
  return TRUE;
}

/* A tag or count that must fit a guint (tags) or be a sane int. */
static gboolean
get_tag (Bin *b, gboolean sized, guint *out, const char *section, GError **error)
{
  guint64 v;
  gint32 i;

  if (sized)
    {
      if (!get_size (b, G_MAXUINT32 - 1, &v, section, error))
        return FALSE;
      *out = (guint) v;
      return TRUE;
    }
  if (!get_int (b, &i, section, error))
    return FALSE;
  if (i < 0)
    {
      b->r->byte = b->at - 4;
      ks_msh_fail (b->r, error, _("a negative tag or count (%d) in %s"), i, section);
      return FALSE;
    }
  *out = (guint) i;
  return TRUE;
}

/* A text line (the section names, counts, $PhysicalNames), without its
 * end; blank lines before it skipped. */
static gboolean
get_line (Bin *b, char **out, const char *section, GError **error)
{
  const guchar *nl;

  while (b->at < b->length && (b->data[b->at] == '\n' || b->data[b->at] == '\r'))
    b->at++;
  if (b->at >= b->length)
    return truncated (b, section, error);
  b->r->byte = b->at;
  nl = memchr (b->data + b->at, '\n', b->length - b->at);
  if (nl == NULL)
    return truncated (b, section, error);
  *out = g_strndup ((const char *) b->data + b->at, nl - (b->data + b->at));
  g_strchomp (*out);
  b->at = nl - b->data + 1;
  return TRUE;
}

static gboolean
expect_end (Bin *b, const char *section, GError **error)
{
  g_autofree char *line = NULL;
  g_autofree char *end = g_strdup_printf ("$End%s", section + 1);

  if (!get_line (b, &line, section, error))
    return FALSE;
  if (!g_str_equal (line, end))
    {
      g_autofree char *quoted = ks_mesh_escape_text (line, -1, 40);
      ks_msh_fail (b->r, error, _("expected %s after the last entry, found \"%s\""), end, quoted);
      return FALSE;
    }
  return TRUE;
}

/* A count on a text line of its own (2.2's $Nodes and $Elements). */
static gboolean
get_count_line (Bin *b, guint *out, const char *section, GError **error)
{
  g_autofree char *line = NULL;
  guint64 v = 0;
  char *end = NULL;

  if (!get_line (b, &line, section, error))
    return FALSE;
  if (g_ascii_isdigit (line[0]))
    v = g_ascii_strtoull (line, &end, 10);
  if (end == NULL || *end != '\0' || v > G_MAXUINT32 - 1)
    {
      g_autofree char *quoted = ks_mesh_escape_text (line, -1, 40);
      ks_msh_fail (b->r, error, _("expected a count in %s, found \"%s\""), section, quoted);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

/* --- sections ------------------------------------------------------------------------ */

static gboolean
read_physical_names (Bin *b, GError **error)
{
  guint n;

  if (!get_count_line (b, &n, "$PhysicalNames", error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *line = NULL;
      if (!get_line (b, &line, "$PhysicalNames", error) || !ks_msh_physical_name (b->r, line, error))
        return FALSE;
    }
  return expect_end (b, "$PhysicalNames", error);
}

static gboolean
read_nodes_2 (Bin *b, GError **error)
{
  guint n;

  if (!get_count_line (b, &n, "$Nodes", error))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      guint tag;
      double p[3];
      b->r->byte = b->at;
      if (!get_tag (b, FALSE, &tag, "$Nodes", error) || !get_double (b, &p[0], "$Nodes", error) ||
          !get_double (b, &p[1], "$Nodes", error) || !get_double (b, &p[2], "$Nodes", error) ||
          !ks_msh_add_node (b->r, tag, p[0], p[1], p[2], error))
        return FALSE;
    }
  return expect_end (b, "$Nodes", error);
}

/* 2.2: blocks of elements of one type, each headed by type, count and
 * the number of tags (the first being the physical group). */
static gboolean
read_elements_2 (Bin *b, GError **error)
{
  guint n, done = 0;

  if (!get_count_line (b, &n, "$Elements", error))
    return FALSE;
  while (done < n)
    {
      guint type, count, n_tags, wanted;
      b->r->byte = b->at;
      if (!get_tag (b, FALSE, &type, "$Elements", error) || !get_tag (b, FALSE, &count, "$Elements", error) ||
          !get_tag (b, FALSE, &n_tags, "$Elements", error))
        return FALSE;
      if (count == 0 || count > n - done || n_tags > 64)
        {
          ks_msh_fail (b->r, error, _("an element block of %u elements with %u tags, where %u elements are left"),
                       count, n_tags, n - done);
          return FALSE;
        }
      wanted = ks_msh_type_nodes (type);
      for (guint i = 0; i < count; i++, done++)
        {
          guint tag, phys = 0, nodes[4];
          b->r->byte = b->at;
          if (!get_tag (b, FALSE, &tag, "$Elements", error) || !ks_msh_check_type (b->r, tag, type, error))
            return FALSE;
          for (guint k = 0; k < n_tags; k++)
            {
              gint32 t;
              if (!get_int (b, &t, "$Elements", error))
                return FALSE;
              if (k == 0)
                phys = t == G_MININT32 ? 0 : (guint) ABS (t);
            }
          for (guint k = 0; k < wanted; k++)
            if (!get_tag (b, FALSE, &nodes[k], "$Elements", error))
              return FALSE;
          if (!ks_msh_add_element (b->r, tag, type, phys, nodes, error))
            return FALSE;
        }
    }
  return expect_end (b, "$Elements", error);
}

/* 4.1 $Entities: which physical group each curve belongs to; the
 * bounding boxes and the bounding entities skipped. */
static gboolean
read_entities (Bin *b, GError **error)
{
  guint64 counts[4];

  for (guint d = 0; d < 4; d++)
    if (!get_size (b, G_MAXUINT32 - 1, &counts[d], "$Entities", error))
      return FALSE;
  for (guint d = 0; d < 4; d++)
    for (guint64 i = 0; i < counts[d]; i++)
      {
        gint32 tag, p;
        guint64 n_phys, n_bound = 0;
        double skip;
        gint phys = 0;

        if (!get_int (b, &tag, "$Entities", error))
          return FALSE;
        for (guint k = 0; k < (d == 0 ? 3u : 6u); k++)
          if (!get_double (b, &skip, "$Entities", error))
            return FALSE;
        if (!get_size (b, G_MAXUINT32 - 1, &n_phys, "$Entities", error))
          return FALSE;
        for (guint64 k = 0; k < n_phys; k++)
          {
            if (!get_int (b, &p, "$Entities", error))
              return FALSE;
            if (k == 0)
              phys = p == G_MININT32 ? 0 : ABS (p);
          }
        if (d > 0 && !get_size (b, G_MAXUINT32 - 1, &n_bound, "$Entities", error))
          return FALSE;
        for (guint64 k = 0; k < n_bound; k++)
          if (!get_int (b, &p, "$Entities", error))
            return FALSE;
        if (d == 1 && n_phys > 0)
          g_hash_table_insert (b->r->curve_phys, GUINT_TO_POINTER ((guint) tag),
                               GUINT_TO_POINTER ((guint) phys + 1));
      }
  return expect_end (b, "$Entities", error);
}

static gboolean
read_nodes_4 (Bin *b, GError **error)
{
  guint64 head[4];

  for (guint k = 0; k < 4; k++)
    if (!get_size (b, G_MAXUINT32 - 1, &head[k], "$Nodes", error))
      return FALSE;
  for (guint64 blk = 0; blk < head[0]; blk++)
    {
      gint32 dim, entity, parametric;
      guint64 count;
      gsize tags_at;

      b->r->byte = b->at;
      if (!get_int (b, &dim, "$Nodes", error) || !get_int (b, &entity, "$Nodes", error) ||
          !get_int (b, &parametric, "$Nodes", error) || !get_size (b, G_MAXUINT32 - 1, &count, "$Nodes", error))
        return FALSE;
      if (parametric != 0)
        {
          ks_msh_fail (b->r, error, _("parametric nodes are not read; save the mesh without them"));
          return FALSE;
        }
      /* The tags, then the coordinates: each tag read again beside its
       * node (no array sized by the count). */
      tags_at = b->at;
      if (count > (b->length - b->at) / (b->size_bytes + 24))
        return truncated (b, "$Nodes", error);
      b->at += count * b->size_bytes;
      for (guint64 i = 0; i < count; i++)
        {
          const gsize coords_at = b->at;
          guint tag;
          double p[3];
          b->at = tags_at + i * b->size_bytes;
          b->r->byte = b->at;
          if (!get_tag (b, TRUE, &tag, "$Nodes", error))
            return FALSE;
          b->at = coords_at;
          if (!get_double (b, &p[0], "$Nodes", error) || !get_double (b, &p[1], "$Nodes", error) ||
              !get_double (b, &p[2], "$Nodes", error) || !ks_msh_add_node (b->r, tag, p[0], p[1], p[2], error))
            return FALSE;
        }
    }
  return expect_end (b, "$Nodes", error);
}

static gboolean
read_elements_4 (Bin *b, GError **error)
{
  guint64 head[4];

  for (guint k = 0; k < 4; k++)
    if (!get_size (b, G_MAXUINT32 - 1, &head[k], "$Elements", error))
      return FALSE;
  for (guint64 blk = 0; blk < head[0]; blk++)
    {
      gint32 dim, entity, type;
      guint64 count;
      guint phys = 0, tag, nodes[4];

      b->r->byte = b->at;
      if (!get_int (b, &dim, "$Elements", error) || !get_int (b, &entity, "$Elements", error) ||
          !get_int (b, &type, "$Elements", error) || !get_size (b, G_MAXUINT32 - 1, &count, "$Elements", error))
        return FALSE;
      if (dim == 1)
        phys = GPOINTER_TO_UINT (g_hash_table_lookup (b->r->curve_phys, GUINT_TO_POINTER ((guint) entity)));
      phys = phys > 0 ? phys - 1 : 0;
      for (guint64 i = 0; i < count; i++)
        {
          b->r->byte = b->at;
          if (!get_tag (b, TRUE, &tag, "$Elements", error) || !ks_msh_check_type (b->r, tag, (guint) type, error))
            return FALSE;
          for (guint k = 0; k < ks_msh_type_nodes ((guint) type); k++)
            if (!get_tag (b, TRUE, &nodes[k], "$Elements", error))
              return FALSE;
          if (!ks_msh_add_element (b->r, tag, (guint) type, phys, nodes, error))
            return FALSE;
        }
    }
  return expect_end (b, "$Elements", error);
}

/* A section not read: up to its "$End..." line. */
static gboolean
skip_section (Bin *b, const char *section, GError **error)
{
  g_autofree char *end = g_strdup_printf ("\n$End%s", section + 1);
  const gsize n = strlen (end);

  for (gsize i = b->at; i + n <= b->length; i++)
    if (b->data[i] == '\n' && memcmp (b->data + i, end, n) == 0)
      {
        b->at = i + n;
        return TRUE;
      }
  return truncated (b, section, error);
}

/* --- the file ------------------------------------------------------------------------ */

gboolean
ks_msh_is_binary (const char *data, gsize length)
{
  static const char head[] = "$MeshFormat";
  const char *nl, *s;
  gsize n = sizeof head - 1;

  if (length < n + 2 || memcmp (data, head, n) != 0 || (data[n] != '\n' && data[n] != '\r'))
    return FALSE;
  s = data + n + (data[n] == '\r' ? 2 : 1);
  if (s >= data + length || (nl = memchr (s, '\n', data + length - s)) == NULL)
    return FALSE;
  /* "version 1 size": the second word is 1. */
  while (s < nl && *s != ' ')
    s++;
  while (s < nl && *s == ' ')
    s++;
  return s + 1 < nl && s[0] == '1' && s[1] == ' ';
}

/* $MeshFormat's line and the raw int 1 after it: the version, the size of
 * a size_t and the byte order. */
static gboolean
read_format (Bin *b, GError **error)
{
  g_autofree char *title = NULL;
  g_autofree char *line = NULL;
  guint32 one;
  int type = 0, size = 0;
  char *end = NULL;

  if (!get_line (b, &title, "$MeshFormat", error) || !get_line (b, &line, "$MeshFormat", error))
    return FALSE;
  b->r->version = g_ascii_strtod (line, &end);
  if (end == line || sscanf (end, " %d %d", &type, &size) != 2 || (size != 4 && size != 8))
    {
      ks_msh_fail (b->r, error, _("expected \"version 1 data-size\" (data-size 4 or 8) in $MeshFormat"));
      return FALSE;
    }
  if (!(b->r->version >= 2.0 && b->r->version < 3.0) && !(b->r->version >= 4.1 && b->r->version < 5.0))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                   _("%s: MSH version %g; versions 2.2 and 4.1 are read"), b->r->name, b->r->version);
      return FALSE;
    }
  b->size_bytes = b->r->version >= 4 ? (guint) size : 4;
  b->r->byte = b->at;
  if (!take (b, &one, 4, "$MeshFormat", error))
    return FALSE;
  if (one != 1 && GUINT32_SWAP_LE_BE (one) != 1)
    {
      ks_msh_fail (b->r, error, _("the int after $MeshFormat's line is %u, not 1 in either byte order: "
                                  "not a binary MSH file, or a damaged one"), one);
      return FALSE;
    }
  b->swap = one != 1;
  return expect_end (b, "$MeshFormat", error);
}

gboolean
ks_msh_read_binary (KsMshReader *r, const guchar *data, gsize length, GError **error)
{
  Bin b = { r, data, length, 0, FALSE, 8 };
  gboolean have_nodes = FALSE, have_elements = FALSE, ok;

  if (!read_format (&b, error))
    return FALSE;
  for (ok = TRUE; ok && b.at < length;)
    {
      g_autofree char *section = NULL;
      const gboolean v4 = r->version >= 4;

      while (b.at < length && g_ascii_isspace (data[b.at]))
        b.at++;
      if (b.at >= length)
        break;
      if (!get_line (&b, &section, "the file", error))
        return FALSE;
      if (g_str_equal (section, "$PhysicalNames"))
        ok = read_physical_names (&b, error);
      else if (g_str_equal (section, "$Entities") && v4)
        ok = read_entities (&b, error);
      else if (g_str_equal (section, "$Nodes") && !have_nodes)
        ok = (v4 ? read_nodes_4 : read_nodes_2) (&b, error), have_nodes = TRUE;
      else if (g_str_equal (section, "$Elements") && have_nodes && !have_elements)
        ok = (v4 ? read_elements_4 : read_elements_2) (&b, error), have_elements = TRUE;
      else if (section[0] != '$' || g_str_equal (section, "$Nodes") || g_str_equal (section, "$Elements") ||
               g_str_equal (section, "$MeshFormat"))
        {
          g_autofree char *quoted = ks_mesh_escape_text (section, -1, 40);
          ks_msh_fail (r, error, _("\"%s\" where a section was expected (a second one, elements before nodes, "
                                   "or a damaged file)"), quoted);
          return FALSE;
        }
      else
        ok = skip_section (&b, section, error);
    }
  if (ok && !(have_nodes && have_elements))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_EMPTY, _("%s: the file has no %s section"), r->name,
                   !have_nodes ? "$Nodes" : "$Elements");
      return FALSE;
    }
  return ok;
}
