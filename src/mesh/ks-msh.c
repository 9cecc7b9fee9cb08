/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh.c: the Gmsh MSH reader (2.2 and 4.1 ASCII) and the .geo mesher.
 *
 * The whole file is read into memory, split into lines in place, and each
 * section parsed line by line.  No count a file declares is trusted for an
 * allocation: arrays grow with what is actually there, so a huge declared
 * count in a short file is "truncated", never an attempt at gigabytes.
 * Node tags are arbitrary (sparse, unordered): a hash table maps them to
 * indices. */
#define G_LOG_DOMAIN "ks-msh"

#include "ks-msh.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* Element types (Gmsh's numbering). */
#define MSH_LINE   1
#define MSH_TRI    2
#define MSH_QUAD   3
#define MSH_POINT 15

typedef struct {
  const char *name;
  char      **lines;     /* in place, NUL-terminated */
  guint       n_lines;
  guint       at;        /* the next line */
  guint       max_cells;
  double      version;

  GHashTable *node_index;  /* tag -> index + 1 */
  GArray     *xy;
  GArray     *z;
  GArray     *node_tags;  /* index -> tag, for messages */
  char       *shown;      /* the last line quoted, escaped (shown ()) */
  char       *note;       /* said after the name in the mesh's description */
  GArray     *offsets;
  GArray     *cells;
  GArray     *cell_tags;
  GArray     *edges;       /* KsMeshEdgeTag with the physical tag as group, mapped later */
  GHashTable *phys_names;  /* "dim:tag" -> name */
  GHashTable *curve_phys;  /* 4.1: curve entity tag -> physical tag + 1 */
} Reader;

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

static void G_GNUC_PRINTF (3, 4)
fail (Reader *r, GError **error, const char *format, ...)
{
  va_list ap;
  g_autofree char *msg = NULL;
  g_autofree char *note = r->at > 0 ? too_large_note (r->lines[r->at - 1]) : g_strdup ("");

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_PARSE, "%s:%u: %s%s", r->name, r->at, msg, note);
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
      fail (r, error, _("expected %s after the last entry, found \"%s\""), end, shown (r, line));
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
      fail (r, error, _("expected \"version file-type data-size\" in $MeshFormat, found \"%s\""), shown (r, line));
      return FALSE;
    }
  if (binary != 0)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                   _("%s: a binary MSH file; save it as ASCII (gmsh -save_all -format msh41 or File > Export, ASCII)"),
                   r->name);
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
      fail (r, error, _("expected the number of physical names, found \"%s\""), shown (r, line));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      guint dim, tag;
      const char *q1, *q2;

      if (!need_line (r, "$PhysicalNames", &line, error))
        return FALSE;
      s = line;
      q1 = strchr (line, '"');
      q2 = q1 != NULL ? strchr (q1 + 1, '"') : NULL;
      if (!tok_uint (&s, &dim) || !tok_uint (&s, &tag) || q2 == NULL)
        {
          fail (r, error, _("expected 'dimension tag \"name\"', found \"%s\""), shown (r, line));
          return FALSE;
        }
      /* Escaped: a group's name is shown in messages and on the page. */
      g_hash_table_insert (r->phys_names, g_strdup_printf ("%u:%u", dim, tag),
                           ks_mesh_escape_text (q1 + 1, q2 - q1 - 1, 200));
    }
  return expect_end (r, "$PhysicalNames", error);
}

static gboolean
add_node (Reader *r, guint tag, double x, double y, double z, GError **error)
{
  const double p[2] = { x, y };

  if (tag == 0)
    {
      fail (r, error, _("node tag 0; tags start at 1"));
      return FALSE;
    }
  if (g_hash_table_contains (r->node_index, GUINT_TO_POINTER (tag)))
    {
      fail (r, error, _("node %u is defined twice"), tag);
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
      fail (r, error, _("expected the number of nodes, found \"%s\""), shown (r, line));
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
          fail (r, error, _("expected \"tag x y z\" for a node, found \"%s\""), shown (r, line));
          return FALSE;
        }
      if (!add_node (r, tag, x, y, z, error))
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
      fail (r, error, _("expected \"blocks nodes min-tag max-tag\", found \"%s\""), shown (r, line));
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
          fail (r, error, _("expected \"dimension entity parametric count\" for a node block, found \"%s\""), shown (r, line));
          return FALSE;
        }
      if (parametric != 0)
        {
          fail (r, error, _("parametric nodes are not read; save the mesh without them"));
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
              fail (r, error, _("expected a node tag, found \"%s\""), shown (r, line));
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
              fail (r, error, _("expected \"x y z\" for node %u, found \"%s\""), g_array_index (tags, guint, i), shown (r, line));
              return FALSE;
            }
          if (!add_node (r, g_array_index (tags, guint, i), x, y, z, error))
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
        fail (r, error, _("expected four entity counts, found \"%s\""), shown (r, line));
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
        fail (r, error, _("a malformed entity of dimension %u: \"%s\""), d, shown (r, line));
        return FALSE;
      }
  return expect_end (r, "$Entities", error);
}

/* One element: its type, tag, physical tag (0: none) and node tags in s. */
static gboolean
add_element (Reader *r, guint tag, guint type, guint phys, const char *s, const char *line, GError **error)
{
  const guint wanted = type == MSH_TRI ? 3 : type == MSH_QUAD ? 4 : type == MSH_LINE ? 2 : type == MSH_POINT ? 1 : 0;
  guint nodes[4];

  if (wanted == 0)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                   _("%s:%u: element %u is of type %u; read are 2-node lines (1), 3-node triangles (2), "
                     "4-node quadrilaterals (3) and points (15): mesh with first-order elements"),
                   r->name, r->at, tag, type);
      return FALSE;
    }
  for (guint k = 0; k < wanted; k++)
    {
      guint node;
      gpointer index;
      if (!tok_uint (&s, &node))
        {
          fail (r, error, _("element %u has fewer than its %u nodes: \"%s\""), tag, wanted, shown (r, line));
          return FALSE;
        }
      index = g_hash_table_lookup (r->node_index, GUINT_TO_POINTER (node));
      if (index == NULL)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_BAD_NODE,
                       _("%s:%u: element %u names node %u, which does not exist"), r->name, r->at, tag, node);
          return FALSE;
        }
      nodes[k] = GPOINTER_TO_UINT (index) - 1;
    }
  if (!at_end_of_line (s))
    {
      fail (r, error, _("element %u has more than its %u nodes: \"%s\""), tag, wanted, shown (r, line));
      return FALSE;
    }
  if (type == MSH_LINE)
    {
      const KsMeshEdgeTag e = { nodes[0], nodes[1], phys };
      g_array_append_val (r->edges, e);
    }
  else if (type != MSH_POINT)
    {
      if (r->max_cells > 0 && r->cell_tags->len >= r->max_cells)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOO_LARGE,
                       _("%s:%u: more than %u cells, the limit"), r->name, r->at, r->max_cells);
          return FALSE;
        }
      g_array_append_vals (r->cells, nodes, wanted);
      g_array_append_val (r->offsets, r->cells->len);
      g_array_append_val (r->cell_tags, tag);
    }
  return TRUE;
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
      fail (r, error, _("expected the number of elements, found \"%s\""), shown (r, line));
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
          fail (r, error, _("expected \"tag type number-of-tags tags... nodes...\", found \"%s\""), shown (r, line));
          return FALSE;
        }
      for (guint k = 0; k < n_tags; k++)
        {
          gint t;
          if (!tok_int (&s, &t))
            {
              fail (r, error, _("element %u has fewer than its %u tags"), tag, n_tags);
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
      fail (r, error, _("expected \"blocks elements min-tag max-tag\", found \"%s\""), shown (r, line));
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
          fail (r, error, _("expected \"dimension entity type count\" for an element block, found \"%s\""), shown (r, line));
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
              fail (r, error, _("expected an element tag, found \"%s\""), shown (r, line));
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

/* --- a mesh in a plane other than z = const --------------------------------------- */

/* The nodes' distance from the plane through c with unit normal n: the
 * node farthest off it (index) and how far. */
static double
farthest_off (Reader *r, const double *c, const double *n, guint *out)
{
  const double *xy = (const double *) r->xy->data, *z = (const double *) r->z->data;
  double worst = -1.0;

  for (guint v = 0; v < r->z->len; v++)
    {
      const double d = fabs ((xy[2 * v] - c[0]) * n[0] + (xy[2 * v + 1] - c[1]) * n[1] + (z[v] - c[2]) * n[2]);
      if (d > worst)
        worst = d, *out = v;
    }
  return worst;
}

/* A mesh with z not constant: one in a tilted plane (z = 5x) is turned
 * into its plane (lengths and areas kept, the origin where the plane
 * passes it); one that is not flat (a cube's surface) is refused. */
static gboolean
flatten (Reader *r, GError **error)
{
  double *xy = (double *) r->xy->data, *z = (double *) r->z->data;
  const guint *cells = (const guint *) r->cells->data, *off = (const guint *) r->offsets->data;
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };
  double n[3] = { 0, 0, 0 }, c[3] = { 0, 0, 0 }, u[3], w[3], len, extent = 0.0, off_by;
  guint far = 0;

  for (guint v = 0; v < r->z->len; v++)
    for (guint k = 0; k < 3; k++)
      {
        const double p = k < 2 ? xy[2 * v + k] : z[v];
        lo[k] = MIN (lo[k], p), hi[k] = MAX (hi[k], p);
        c[k] += p / r->z->len;
      }
  if (r->z->len == 0 || lo[2] == hi[2])
    return TRUE;
  /* Newell's normal: the cells' vector areas summed. */
  for (guint e = 0; e + 1 < r->offsets->len; e++)
    for (guint j = off[e]; j < off[e + 1]; j++)
      {
        const guint a = cells[j], b = cells[j + 1 < off[e + 1] ? j + 1 : off[e]];
        n[0] += (xy[2 * a + 1] - xy[2 * b + 1]) * (z[a] + z[b]);
        n[1] += (z[a] - z[b]) * (xy[2 * a] + xy[2 * b]);
        n[2] += (xy[2 * a] - xy[2 * b]) * (xy[2 * a + 1] + xy[2 * b + 1]);
      }
  len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (guint k = 0; k < 3; k++)
    {
      n[k] = len > 0 ? n[k] / len * (n[2] < 0 ? -1 : 1) : k == 2;
      extent = MAX (extent, hi[k] - lo[k]);
    }
  off_by = farthest_off (r, c, n, &far);
  if (len == 0 || off_by > 1e-8 * extent)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                   _("%s: not a flat 2-D mesh: node %u lies %.3g off the plane of the others (the mesh spans "
                     "%.3g, %.3g and %.3g in x, y and z); the heat scheme needs a mesh of a plane surface"),
                   r->name, g_array_index (r->node_tags, guint, far), off_by,
                   hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
      return FALSE;
    }
  /* In-plane axes: x's direction in the plane (y's if x is nearly normal). */
  u[0] = 1.0, u[1] = 0.0, u[2] = 0.0;
  if (fabs (n[0]) > 0.9)
    u[0] = 0.0, u[1] = 1.0;
  len = u[0] * n[0] + u[1] * n[1];
  for (guint k = 0; k < 3; k++)
    u[k] -= len * n[k];
  len = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (guint k = 0; k < 3; k++)
    u[k] /= len;
  w[0] = n[1] * u[2] - n[2] * u[1], w[1] = n[2] * u[0] - n[0] * u[2], w[2] = n[0] * u[1] - n[1] * u[0];
  for (guint v = 0; v < r->z->len; v++)
    {
      const double p[3] = { xy[2 * v], xy[2 * v + 1], z[v] };
      xy[2 * v] = p[0] * u[0] + p[1] * u[1] + p[2] * u[2];
      xy[2 * v + 1] = p[0] * w[0] + p[1] * w[1] + p[2] * w[2];
    }
  r->note = g_strdup_printf (_("turned into its plane, tilted %.1f degrees from z = const"),
                             acos (CLAMP (n[2], -1.0, 1.0)) * 180.0 / G_PI);
  return TRUE;
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
          fail (r, error, _("expected a section such as $MeshFormat, found \"%s\""), shown (r, line));
          return FALSE;
        }
      section = g_strstrip (g_strdup (line));
      if (!have_format && !g_str_equal (section, "$MeshFormat"))
        {
          fail (r, error, _("the file does not start with $MeshFormat: not a Gmsh mesh"));
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
          fail (r, error, _("%s in the wrong place (a second one, or elements before nodes)"), shown (r, section));
          ok = FALSE;
        }
      else
        ok = skip_section (r, section, error);
      if (!ok && error != NULL && *error == NULL)
        fail (r, error, _("$MeshFormat appears twice"));
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

  if (memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_PARSE,
                   _("%s: a NUL byte: not a text file (binary MSH files are not read)"), name);
      return NULL;
    }
  copy = g_malloc (length + 1);
  memcpy (copy, data, length);
  copy[length] = '\0';
  split_lines (copy, lines);

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

  if (read_sections (&r, error) && flatten (&r, error))
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
