/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh.c: the Gmsh MSH reader: its text half (2.2 and 4.1 ASCII; the binary
 * half is ks-msh-binary.c) and what both share.
 *
 * The whole file is read into memory, split into lines in place, and each
 * section parsed line by line.  No count a file declares is trusted for an
 * allocation: arrays grow with what is actually there, so a huge declared
 * count in a short file is "truncated", never an attempt at gigabytes.
 * Node tags are arbitrary (sparse, unordered): a hash table maps them to
 * indices. */
#define G_LOG_DOMAIN "ks-msh"

#include "ks-msh-private.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

typedef KsMshReader Reader;

/* A line of the file as a message quotes it: 40 characters, escaped. */
static const char *
shown (Reader *r, const char *line)
{
  g_free (r->shown);
  r->shown = ks_mesh_escape_text (line, -1, 40);
  return r->shown;
}

/* A number on the line too large for a tag or a count (4294967295 was
 * "expected tag x y z"). */
static char *
too_large_note (const char *line)
{
  g_auto(GStrv) words = g_strsplit_set (line, " \t", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *w = words[i];
      gsize n = strspn (w, "0123456789");
      if (n > 0 && w[n] == '\0' && (n > 10 || g_ascii_strtoull (w, NULL, 10) > G_MAXUINT32 - 1))
        return g_strdup_printf (_(" (%.24s is too large: tags and counts go up to %u)"), w, G_MAXUINT32 - 1);
    }
  return g_strdup ("");
}

char *
ks_msh_where (const KsMshReader *r)
{
  if (r->binary)
    return g_strdup_printf (_("%s, byte %lu"), r->name, (gulong) r->byte);
  return g_strdup_printf ("%s:%u", r->name, r->at);
}

void
ks_msh_fail (KsMshReader *r, GError **error, const char *format, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;
  g_autofree char *where = ks_msh_where (r);
  g_autofree char *note = !r->binary && r->at > 0 ? too_large_note (r->lines[r->at - 1]) : g_strdup ("");

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_PARSE, "%s: %s%s", where, msg, note);
}

/* The next line (trailing blanks kept), or NULL at the end. */
static const char *
next_line (Reader *r)
{
  return r->at < r->n_lines ? r->lines[r->at++] : NULL;
}

static gboolean
need_line (Reader *r, const char *section, const char **out, GError **error)
{
  *out = next_line (r);
  if (*out == NULL)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_PARSE,
                   _("%s:%u: the file ends inside %s (truncated?)"), r->name, r->at, section);
      return FALSE;
    }
  return TRUE;
}

static gboolean
tok_u64 (const char **s, guint64 max, guint64 *out)
{
  char *end = NULL;
  guint64 v;

  while (**s == ' ' || **s == '\t')
    (*s)++;
  if (!g_ascii_isdigit (**s))
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (*s, &end, 10);
  if (errno != 0 || end == *s || v > max || (*end != '\0' && *end != ' ' && *end != '\t'))
    return FALSE;
  *s = end;
  *out = v;
  return TRUE;
}

static gboolean
tok_uint (const char **s, guint *out)
{
  guint64 v;

  if (!tok_u64 (s, G_MAXUINT32 - 1, &v))
    return FALSE;
  *out = (guint) v;
  return TRUE;
}

static gboolean
tok_int (const char **s, gint *out)
{
  gboolean neg = FALSE;
  guint64 v;

  while (**s == ' ' || **s == '\t')
    (*s)++;
  if (**s == '-')
    {
      neg = TRUE;
      (*s)++;
    }
  if (!tok_u64 (s, G_MAXINT32, &v))
    return FALSE;
  *out = neg ? -(gint) v : (gint) v;
  return TRUE;
}

static gboolean
tok_double (const char **s, double *out)
{
  char *end = NULL;

  while (**s == ' ' || **s == '\t')
    (*s)++;
  if (**s == '\0')
    return FALSE;
  *out = g_ascii_strtod (*s, &end);
  if (end == *s || (*end != '\0' && *end != ' ' && *end != '\t'))
    return FALSE;
  *s = end;
  return TRUE;
}

static gboolean
at_end_of_line (const char *s)
{
  while (*s == ' ' || *s == '\t')
    s++;
  return *s == '\0';
}

/* Skips to "$End<section>". */
static gboolean
skip_section (Reader *r, const char *section, GError **error)
{
  g_autofree char *end = g_strdup_printf ("$End%s", section + 1);
  const char *line;

  while ((line = next_line (r)) != NULL)
    if (g_str_has_prefix (line, end))
      return TRUE;
  g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_PARSE,
               _("%s:%u: the file ends inside %s (truncated?)"), r->name, r->at, shown (r, section));
  return FALSE;
}

static gboolean
expect_end (Reader *r, const char *section, GError **error)
{
  g_autofree char *end = g_strdup_printf ("$End%s", section + 1);
  const char *line;

  if (!need_line (r, section, &line, error))
    return FALSE;
  if (!g_str_has_prefix (line, end))
    {
      ks_msh_fail (r, error, _("expected %s after the last entry, found \"%s\""), end, shown (r, line));
      return FALSE;
    }
  return TRUE;
}

/* --- sections ----------------------------------------------------------------- */

static gboolean
read_format (Reader *r, GError **error)
{
  const char *line, *s;
  guint binary = 0, size = 0;

  if (!need_line (r, "$MeshFormat", &line, error))
    return FALSE;
  s = line;
  if (!tok_double (&s, &r->version) || !tok_uint (&s, &binary) || !tok_uint (&s, &size))
    {
      ks_msh_fail (r, error, _("expected \"version file-type data-size\" in $MeshFormat, found \"%s\""), shown (r, line));
      return FALSE;
    }
  if (binary != 0)
    {
      /* ks_msh_is_binary sent a binary file elsewhere: 2, 3... */
      ks_msh_fail (r, error, _("file-type %u in $MeshFormat: 0 (ASCII) or 1 (binary) expected"), binary);
      return FALSE;
    }
  if (!(r->version >= 2.0 && r->version < 3.0) && !(r->version >= 4.1 && r->version < 5.0))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                   _("%s: MSH version %g; versions 2.2 and 4.1 are read"), r->name, r->version);
      return FALSE;
    }
  return expect_end (r, "$MeshFormat", error);
}

gboolean
ks_msh_physical_name (KsMshReader *r, const char *line, GError **error)
{
  const char *s = line;
  const char *q1 = strchr (line, '"');
  const char *q2 = q1 != NULL ? strchr (q1 + 1, '"') : NULL;
  guint dim, tag;

  if (!tok_uint (&s, &dim) || !tok_uint (&s, &tag) || q2 == NULL)
    {
      ks_msh_fail (r, error, _("expected 'dimension tag \"name\"', found \"%s\""), shown (r, line));
      return FALSE;
    }
  /* Escaped: a group's name is shown in messages and on the page. */
  g_hash_table_insert (r->phys_names, g_strdup_printf ("%u:%u", dim, tag),
                       ks_mesh_escape_text (q1 + 1, q2 - q1 - 1, 200));
  return TRUE;
}

static gboolean
read_physical_names (Reader *r, GError **error)
{
  const char *line, *s;
  guint n;

  if (!need_line (r, "$PhysicalNames", &line, error))
    return FALSE;
  s = line;
  if (!tok_uint (&s, &n) || !at_end_of_line (s))
    {
      ks_msh_fail (r, error, _("expected the number of physical names, found \"%s\""), shown (r, line));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (!need_line (r, "$PhysicalNames", &line, error) || !ks_msh_physical_name (r, line, error))
      return FALSE;
  return expect_end (r, "$PhysicalNames", error);
}

gboolean
ks_msh_add_node (KsMshReader *r, guint tag, double x, double y, double z, GError **error)
{
  const double p[2] = { x, y };

  if (tag == 0)
    {
      ks_msh_fail (r, error, _("node tag 0; tags start at 1"));
      return FALSE;
    }
  if (g_hash_table_contains (r->node_index, GUINT_TO_POINTER (tag)))
    {
      ks_msh_fail (r, error, _("node %u is defined twice"), tag);
      return FALSE;
    }
  g_array_append_vals (r->xy, p, 2);
  g_array_append_val (r->z, z);
  g_array_append_val (r->node_tags, tag);
  g_hash_table_insert (r->node_index, GUINT_TO_POINTER (tag), GUINT_TO_POINTER (r->xy->len / 2));
  return TRUE;
}

static gboolean
read_nodes_2 (Reader *r, GError **error)
{
  const char *line, *s;
  guint n;

  if (!need_line (r, "$Nodes", &line, error))
    return FALSE;
  s = line;
  if (!tok_uint (&s, &n) || !at_end_of_line (s))
    {
      ks_msh_fail (r, error, _("expected the number of nodes, found \"%s\""), shown (r, line));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      guint tag;
      double x, y, z;

      if (!need_line (r, "$Nodes", &line, error))
        return FALSE;
      s = line;
      if (!tok_uint (&s, &tag) || !tok_double (&s, &x) || !tok_double (&s, &y) || !tok_double (&s, &z))
        {
          ks_msh_fail (r, error, _("expected \"tag x y z\" for a node, found \"%s\""), shown (r, line));
          return FALSE;
        }
      if (!ks_msh_add_node (r, tag, x, y, z, error))
        return FALSE;
    }
  return expect_end (r, "$Nodes", error);
}

static gboolean
read_nodes_4 (Reader *r, GError **error)
{
  const char *line, *s;
  guint blocks, n, lo, hi;

  if (!need_line (r, "$Nodes", &line, error))
    return FALSE;
  s = line;
  if (!tok_uint (&s, &blocks) || !tok_uint (&s, &n) || !tok_uint (&s, &lo) || !tok_uint (&s, &hi))
    {
      ks_msh_fail (r, error, _("expected \"blocks nodes min-tag max-tag\", found \"%s\""), shown (r, line));
      return FALSE;
    }
  for (guint b = 0; b < blocks; b++)
    {
      guint dim, entity, parametric, count;
      g_autoptr(GArray) tags = g_array_new (FALSE, FALSE, sizeof (guint));

      if (!need_line (r, "$Nodes", &line, error))
        return FALSE;
      s = line;
      if (!tok_uint (&s, &dim) || !tok_uint (&s, &entity) || !tok_uint (&s, &parametric) || !tok_uint (&s, &count))
        {
          ks_msh_fail (r, error, _("expected \"dimension entity parametric count\" for a node block, found \"%s\""), shown (r, line));
          return FALSE;
        }
      if (parametric != 0)
        {
          ks_msh_fail (r, error, _("parametric nodes are not read; save the mesh without them"));
          return FALSE;
        }
      for (guint i = 0; i < count; i++)
        {
          guint tag;
          if (!need_line (r, "$Nodes", &line, error))
            return FALSE;
          s = line;
          if (!tok_uint (&s, &tag) || !at_end_of_line (s))
            {
              ks_msh_fail (r, error, _("expected a node tag, found \"%s\""), shown (r, line));
              return FALSE;
            }
          g_array_append_val (tags, tag);
        }
      for (guint i = 0; i < count; i++)
        {
          double x, y, z;
          if (!need_line (r, "$Nodes", &line, error))
            return FALSE;
          s = line;
          if (!tok_double (&s, &x) || !tok_double (&s, &y) || !tok_double (&s, &z))
            {
              ks_msh_fail (r, error, _("expected \"x y z\" for node %u, found \"%s\""), g_array_index (tags, guint, i), shown (r, line));
              return FALSE;
            }
          if (!ks_msh_add_node (r, g_array_index (tags, guint, i), x, y, z, error))
            return FALSE;
        }
    }
  return expect_end (r, "$Nodes", error);
}

/* 4.1 $Entities: which physical group each curve belongs to. */
static gboolean
read_entities (Reader *r, GError **error)
{
  const char *line, *s;
  guint counts[4];

  if (!need_line (r, "$Entities", &line, error))
    return FALSE;
  s = line;
  for (guint d = 0; d < 4; d++)
    if (!tok_uint (&s, &counts[d]))
      {
        ks_msh_fail (r, error, _("expected four entity counts, found \"%s\""), shown (r, line));
        return FALSE;
      }
  for (guint d = 0; d < 4; d++)
    for (guint i = 0; i < counts[d]; i++)
      {
        guint tag, n_phys;
        gint phys = 0;
        double skip;

        if (!need_line (r, "$Entities", &line, error))
          return FALSE;
        s = line;
        if (!tok_uint (&s, &tag))
          goto bad;
        /* A point has x y z, the others a bounding box. */
        for (guint k = 0; k < (d == 0 ? 3u : 6u); k++)
          if (!tok_double (&s, &skip))
            goto bad;
        if (!tok_uint (&s, &n_phys))
          goto bad;
        for (guint k = 0; k < n_phys; k++)
          {
            gint p;
            if (!tok_int (&s, &p))
              goto bad;
            if (k == 0)
              phys = ABS (p);
          }
        if (d == 1 && n_phys > 0)
          g_hash_table_insert (r->curve_phys, GUINT_TO_POINTER (tag), GUINT_TO_POINTER ((guint) phys + 1));
        continue;
bad:
        ks_msh_fail (r, error, _("a malformed entity of dimension %u: \"%s\""), d, shown (r, line));
        return FALSE;
      }
  return expect_end (r, "$Entities", error);
}

/* Gmsh's volume elements: tetrahedra, hexahedra, prisms, pyramids of
 * every order. */
static gboolean
is_3d_type (guint type)
{
  static const guint types[] = { 4, 5, 6, 7, 11, 12, 13, 14, 17, 18, 19, 29, 30, 31, 92, 93 };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (types[i] == type)
      return TRUE;
  return FALSE;
}

guint
ks_msh_type_nodes (guint type)
{
  return type == KS_MSH_TRI ? 3 : type == KS_MSH_QUAD ? 4 : type == KS_MSH_LINE ? 2 : type == KS_MSH_POINT ? 1 : 0;
}

gboolean
ks_msh_check_type (KsMshReader *r, guint tag, guint type, GError **error)
{
  g_autofree char *where = ks_msh_where (r);

  if (ks_msh_type_nodes (type) > 0)
    return TRUE;
  if (is_3d_type (type))
    g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                 _("%s: element %u is a volume element (type %u): a 3D mesh: Kernelscope solves on 2D meshes "
                   "(mesh a plane surface with gmsh -2)"),
                 where, tag, type);
  else
    g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                 _("%s: element %u is of type %u; read are 2-node lines (1), 3-node triangles (2), "
                   "4-node quadrilaterals (3) and points (15): mesh with first-order elements"),
                 where, tag, type);
  return FALSE;
}

gboolean
ks_msh_add_element (KsMshReader *r, guint tag, guint type, guint phys, const guint *tags, GError **error)
{
  const guint wanted = ks_msh_type_nodes (type);
  guint nodes[4];

  g_return_val_if_fail (wanted > 0, FALSE);
  for (guint k = 0; k < wanted; k++)
    {
      gpointer index = g_hash_table_lookup (r->node_index, GUINT_TO_POINTER (tags[k]));
      if (index == NULL)
        {
          g_autofree char *where = ks_msh_where (r);
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_BAD_NODE,
                       _("%s: element %u names node %u, which does not exist"), where, tag, tags[k]);
          return FALSE;
        }
      nodes[k] = GPOINTER_TO_UINT (index) - 1;
    }
  if (type == KS_MSH_LINE)
    {
      const KsMeshEdgeTag e = { nodes[0], nodes[1], phys };
      g_array_append_val (r->edges, e);
    }
  else if (type != KS_MSH_POINT)
    {
      if (r->max_cells > 0 && r->cell_tags->len >= r->max_cells)
        {
          g_autofree char *where = ks_msh_where (r);
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOO_LARGE,
                       _("%s: more than %u cells, the limit"), where, r->max_cells);
          return FALSE;
        }
      g_array_append_vals (r->cells, nodes, wanted);
      g_array_append_val (r->offsets, r->cells->len);
      g_array_append_val (r->cell_tags, tag);
    }
  return TRUE;
}

/* One element of a text file: its type, tag, physical tag (0: none) and
 * node tags in s. */
static gboolean
add_element (Reader *r, guint tag, guint type, guint phys, const char *s, const char *line, GError **error)
{
  const guint wanted = ks_msh_type_nodes (type);
  guint tags[4];

  if (!ks_msh_check_type (r, tag, type, error))
    return FALSE;
  for (guint k = 0; k < wanted; k++)
    if (!tok_uint (&s, &tags[k]))
      {
        ks_msh_fail (r, error, _("element %u has fewer than its %u nodes: \"%s\""), tag, wanted, shown (r, line));
        return FALSE;
      }
  if (!at_end_of_line (s))
    {
      ks_msh_fail (r, error, _("element %u has more than its %u nodes: \"%s\""), tag, wanted, shown (r, line));
      return FALSE;
    }
  return ks_msh_add_element (r, tag, type, phys, tags, error);
}

static gboolean
read_elements_2 (Reader *r, GError **error)
{
  const char *line, *s;
  guint n;

  if (!need_line (r, "$Elements", &line, error))
    return FALSE;
  s = line;
  if (!tok_uint (&s, &n) || !at_end_of_line (s))
    {
      ks_msh_fail (r, error, _("expected the number of elements, found \"%s\""), shown (r, line));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      guint tag, type, n_tags, phys = 0;

      if (!need_line (r, "$Elements", &line, error))
        return FALSE;
      s = line;
      if (!tok_uint (&s, &tag) || !tok_uint (&s, &type) || !tok_uint (&s, &n_tags) || n_tags > 64)
        {
          ks_msh_fail (r, error, _("expected \"tag type number-of-tags tags... nodes...\", found \"%s\""), shown (r, line));
          return FALSE;
        }
      for (guint k = 0; k < n_tags; k++)
        {
          gint t;
          if (!tok_int (&s, &t))
            {
              ks_msh_fail (r, error, _("element %u has fewer than its %u tags"), tag, n_tags);
              return FALSE;
            }
          if (k == 0)
            phys = (guint) ABS (t);
        }
      if (!add_element (r, tag, type, phys, s, line, error))
        return FALSE;
    }
  return expect_end (r, "$Elements", error);
}

static gboolean
read_elements_4 (Reader *r, GError **error)
{
  const char *line, *s;
  guint blocks, n, lo, hi;

  if (!need_line (r, "$Elements", &line, error))
    return FALSE;
  s = line;
  if (!tok_uint (&s, &blocks) || !tok_uint (&s, &n) || !tok_uint (&s, &lo) || !tok_uint (&s, &hi))
    {
      ks_msh_fail (r, error, _("expected \"blocks elements min-tag max-tag\", found \"%s\""), shown (r, line));
      return FALSE;
    }
  for (guint b = 0; b < blocks; b++)
    {
      guint dim, entity, type, count, phys;

      if (!need_line (r, "$Elements", &line, error))
        return FALSE;
      s = line;
      if (!tok_uint (&s, &dim) || !tok_uint (&s, &entity) || !tok_uint (&s, &type) || !tok_uint (&s, &count))
        {
          ks_msh_fail (r, error, _("expected \"dimension entity type count\" for an element block, found \"%s\""), shown (r, line));
          return FALSE;
        }
      phys = dim == 1 ? GPOINTER_TO_UINT (g_hash_table_lookup (r->curve_phys, GUINT_TO_POINTER (entity))) : 0;
      phys = phys > 0 ? phys - 1 : 0;
      for (guint i = 0; i < count; i++)
        {
          guint tag;
          if (!need_line (r, "$Elements", &line, error))
            return FALSE;
          s = line;
          if (!tok_uint (&s, &tag))
            {
              ks_msh_fail (r, error, _("expected an element tag, found \"%s\""), shown (r, line));
              return FALSE;
            }
          if (!add_element (r, tag, type, phys, s, line, error))
            return FALSE;
        }
    }
  return expect_end (r, "$Elements", error);
}

/* --- the mesh ---------------------------------------------------------------------- */

/* Groups: 0 "boundary" for untagged edges, then one per physical tag of a line. */
static KsMesh *
build (Reader *r, GError **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) group_of = g_hash_table_new (NULL, NULL);
  g_autoptr(GError) local = NULL;
  KsMeshEdgeTag *e = (KsMeshEdgeTag *) r->edges->data;
  g_autofree char *description = r->note != NULL ? g_strdup_printf ("%s (%s)", r->name, r->note)
                                                  : g_strdup (r->name);
  KsMesh *mesh;

  if (r->cell_tags->len == 0)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_EMPTY,
                   _("%s: no triangles or quadrilaterals (a mesh of a surface is needed: gmsh -2)"), r->name);
      return NULL;
    }
  g_ptr_array_add (names, g_strdup ("boundary"));
  for (guint i = 0; i < r->edges->len; i++)
    {
      gpointer g;
      if (e[i].group == 0)
        continue;
      g = g_hash_table_lookup (group_of, GUINT_TO_POINTER (e[i].group));
      if (g == NULL)
        {
          g_autofree char *key = g_strdup_printf ("1:%u", e[i].group);
          const char *name = g_hash_table_lookup (r->phys_names, key);
          g_ptr_array_add (names, name != NULL ? g_strdup (name) : g_strdup_printf ("physical %u", e[i].group));
          g = GUINT_TO_POINTER (names->len - 1);
          g_hash_table_insert (group_of, GUINT_TO_POINTER (e[i].group), g);
        }
      e[i].group = GPOINTER_TO_UINT (g);
    }
  g_ptr_array_add (names, NULL);
  mesh = ks_mesh_new (r->xy->len / 2, (const double *) r->xy->data, r->cell_tags->len,
                      (const guint *) r->offsets->data, (const guint *) r->cells->data,
                      (const guint *) r->cell_tags->data, e, r->edges->len,
                      (const char * const *) names->pdata, description, &local);
  if (mesh == NULL)
    {
      g_set_error (error, KS_MESH_ERROR, local->code, "%s: %s", r->name, local->message);
      return NULL;
    }
  return mesh;
}

/* --- the file ------------------------------------------------------------------------ */

/* Splits copy into lines in place: LF or CR LF, or CR alone where the
 * file has no LF at all (old Mac line endings). */
static void
split_lines (char *copy, GPtrArray *lines)
{
  const char sep = strchr (copy, '\n') == NULL && strchr (copy, '\r') != NULL ? '\r' : '\n';

  for (char *p = copy; *p != '\0';)
    {
      char *nl = strchr (p, sep);
      g_ptr_array_add (lines, p);
      if (nl == NULL)
        break;
      *nl = '\0';
      if (nl > p && nl[-1] == '\r')
        nl[-1] = '\0';
      p = nl + 1;
    }
}

/* The sections in turn, until the end or the first error. */
static gboolean
read_sections (Reader *r, GError **error)
{
  gboolean have_format = FALSE, have_nodes = FALSE, have_elements = FALSE, ok = TRUE;
  const char *line;

  while (ok && (line = next_line (r)) != NULL)
    {
      g_autofree char *section = NULL;

      if (at_end_of_line (line))
        continue;
      if (line[0] != '$')
        {
          ks_msh_fail (r, error, _("expected a section such as $MeshFormat, found \"%s\""), shown (r, line));
          return FALSE;
        }
      section = g_strstrip (g_strdup (line));
      if (!have_format && g_str_equal (section, "$NOD"))
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                       _("%s: an old Gmsh format (1.0): save as 2.2 or 4.1 (gmsh -save -format msh41)"), r->name);
          return FALSE;
        }
      if (!have_format && !g_str_equal (section, "$MeshFormat"))
        {
          ks_msh_fail (r, error, _("the file does not start with $MeshFormat: not a Gmsh mesh"));
          ok = FALSE;
        }
      else if (g_str_equal (section, "$MeshFormat"))
        ok = !have_format && read_format (r, error), have_format = TRUE;
      else if (g_str_equal (section, "$PhysicalNames"))
        ok = read_physical_names (r, error);
      else if (g_str_equal (section, "$Entities") && r->version >= 4)
        ok = read_entities (r, error);
      else if (g_str_equal (section, "$Nodes") && !have_nodes)
        ok = (r->version >= 4 ? read_nodes_4 : read_nodes_2) (r, error), have_nodes = TRUE;
      else if (g_str_equal (section, "$Elements") && have_nodes && !have_elements)
        ok = (r->version >= 4 ? read_elements_4 : read_elements_2) (r, error), have_elements = TRUE;
      else if (g_str_equal (section, "$Nodes") || g_str_equal (section, "$Elements"))
        {
          ks_msh_fail (r, error, _("%s in the wrong place (a second one, or elements before nodes)"), shown (r, section));
          ok = FALSE;
        }
      else
        ok = skip_section (r, section, error);
      if (!ok && error != NULL && *error == NULL)
        ks_msh_fail (r, error, _("$MeshFormat appears twice"));
    }
  if (ok && (!have_format || !have_nodes || !have_elements))
    {
      g_set_error (error, KS_MESH_ERROR, !have_format ? KS_MESH_ERROR_PARSE : KS_MESH_ERROR_EMPTY,
                   _("%s: the file has no %s section"), r->name,
                   !have_format ? "$MeshFormat" : !have_nodes ? "$Nodes" : "$Elements");
      ok = FALSE;
    }
  return ok;
}

static void
reader_clear (Reader *r)
{
  g_hash_table_unref (r->node_index);
  g_array_unref (r->xy);
  g_array_unref (r->z);
  g_array_unref (r->node_tags);
  g_array_unref (r->offsets);
  g_array_unref (r->cells);
  g_array_unref (r->cell_tags);
  g_array_unref (r->edges);
  g_hash_table_unref (r->phys_names);
  g_hash_table_unref (r->curve_phys);
  g_free (r->shown);
  g_free (r->note);
}

KsMesh *
ks_msh_read_data (const char *data, gsize length, const char *name, guint max_cells, GError **error)
{
  g_autofree char *copy = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new ();
  Reader r = { 0 };
  KsMesh *mesh = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  r.binary = ks_msh_is_binary (data, length);
  if (!r.binary && memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_PARSE,
                   _("%s: a NUL byte: not a text file, nor a binary MSH file (one starts with $MeshFormat)"), name);
      return NULL;
    }
  if (!r.binary)
    {
      copy = g_malloc (length + 1);
      memcpy (copy, data, length);
      copy[length] = '\0';
      split_lines (copy, lines);
    }

  r.name = name;
  r.lines = (char **) lines->pdata;
  r.n_lines = lines->len;
  r.max_cells = max_cells;
  r.node_index = g_hash_table_new (NULL, NULL);
  r.xy = g_array_new (FALSE, FALSE, sizeof (double));
  r.z = g_array_new (FALSE, FALSE, sizeof (double));
  r.node_tags = g_array_new (FALSE, FALSE, sizeof (guint));
  r.offsets = g_array_new (FALSE, TRUE, sizeof (guint));
  g_array_set_size (r.offsets, 1);
  r.cells = g_array_new (FALSE, FALSE, sizeof (guint));
  r.cell_tags = g_array_new (FALSE, FALSE, sizeof (guint));
  r.edges = g_array_new (FALSE, FALSE, sizeof (KsMeshEdgeTag));
  r.phys_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r.curve_phys = g_hash_table_new (NULL, NULL);

  if ((r.binary ? ks_msh_read_binary (&r, (const guchar *) data, length, error) : read_sections (&r, error)) &&
      ks_msh_flatten (&r, error))
    mesh = build (&r, error);
  reader_clear (&r);
  return mesh;
}

KsMesh *
ks_msh_read_file (const char *path, guint max_cells, GError **error)
{
  g_autofree char *data = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_IO,
                   _("%s: no such file, or not a regular file"), path);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &length, &local))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_IO, "%s", local->message);
      return NULL;
    }
  base = g_path_get_basename (path);
  name = ks_mesh_escape_text (base, -1, 200);
  return ks_msh_read_data (data, length, name, max_cells, error);
}
