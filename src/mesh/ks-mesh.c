/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mesh.c: building and checking a mixed triangle / quadrilateral mesh.
 *
 * The checks, in the order a user's mistake is most likely to show first:
 * an empty mesh, a cell naming a node that does not exist (or one twice), a
 * coordinate that is not a number, a cell of zero area, a cell turned the
 * other way from the rest (inverted), a non-convex quadrilateral, and two
 * cells covering the same ground.  Overlap is found two ways: an edge used
 * twice in the same direction (two cells on the same side of it: a fold)
 * or by three or more cells, and, for cells that share no edge, a cell edge
 * properly crossing another's or a centroid strictly inside another cell
 * (looked up through a bucket grid, so the check is linear in the cells). */
#define G_LOG_DOMAIN "ks-mesh"

#include "ks-mesh-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (ks-mesh-error-quark, ks_mesh_error)

static double
signed_area (const KsMesh *m, guint c)
{
  const guint *v = m->cell_nodes + m->cell_offsets[c];
  const guint k = ks_mesh_cell_size (m, c);
  double s = 0.0;

  for (guint j = 0; j < k; j++)
    {
      const guint a = v[j], b = v[(j + 1) % k];
      s += m->x[a] * m->y[b] - m->x[b] * m->y[a];
    }
  return 0.5 * s;
}

static void
centroid (KsMesh *m, guint c)
{
  const guint *v = m->cell_nodes + m->cell_offsets[c];
  const guint k = ks_mesh_cell_size (m, c);
  /* Relative to the first node, so a mesh far from the origin loses nothing. */
  const double x0 = m->x[v[0]], y0 = m->y[v[0]];
  double sx = 0.0, sy = 0.0;

  for (guint j = 0; j < k; j++)
    {
      const guint a = v[j], b = v[(j + 1) % k];
      const double ax = m->x[a] - x0, ay = m->y[a] - y0;
      const double bx = m->x[b] - x0, by = m->y[b] - y0;
      const double w = ax * by - bx * ay;
      sx += (ax + bx) * w;
      sy += (ay + by) * w;
    }
  m->cx[c] = x0 + sx / (6.0 * m->area[c]);
  m->cy[c] = y0 + sy / (6.0 * m->area[c]);
}

/* --- edges ----------------------------------------------------------------- */

typedef struct {
  guint lo, hi;
  guint cell;
  gint  forward;  /* 1: the cell walks lo -> hi */
} Edge;

static int
edge_cmp (const void *pa, const void *pb)
{
  const Edge *a = pa, *b = pb;

  if (a->lo != b->lo)
    return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi)
    return a->hi < b->hi ? -1 : 1;
  return a->cell < b->cell ? -1 : a->cell > b->cell;
}

static guint64
edge_key (guint a, guint b)
{
  return a < b ? ((guint64) a << 32) | b : ((guint64) b << 32) | a;
}

/* Classifies the edges: boundary ones into m->boundary_*, overlaps refused. */
static gboolean
find_edges (KsMesh              *m,
            const guint         *names,
            const KsMeshEdgeTag *tags,
            guint                n_tags,
            GError             **error)
{
  const gsize n_edges = m->cell_offsets[m->n_cells];
  g_autofree Edge *e = g_new (Edge, n_edges);
  g_autoptr(GHashTable) tag_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GArray) bnd = g_array_new (FALSE, FALSE, sizeof (Edge));
  gsize k = 0;

  for (guint c = 0; c < m->n_cells; c++)
    {
      const guint *v = m->cell_nodes + m->cell_offsets[c];
      const guint s = ks_mesh_cell_size (m, c);
      for (guint j = 0; j < s; j++)
        {
          const guint a = v[j], b = v[(j + 1) % s];
          e[k++] = (Edge) { MIN (a, b), MAX (a, b), c, a < b };
        }
    }
  qsort (e, n_edges, sizeof (Edge), edge_cmp);

  for (gsize i = 0; i < n_edges;)
    {
      gsize j = i + 1;
      while (j < n_edges && e[j].lo == e[i].lo && e[j].hi == e[i].hi)
        j++;
      if (j - i == 1)
        g_array_append_val (bnd, e[i]);
      else if (j - i > 2 || e[i].forward == e[i + 1].forward)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_OVERLAP,
                       _("Cells %u and %u overlap: both lie on the same side of the edge from node %u to node %u"),
                       ks_mesh_cell_name (names, e[i].cell), ks_mesh_cell_name (names, e[i + 1].cell),
                       e[i].lo + 1, e[i].hi + 1);
          return FALSE;
        }
      i = j;
    }

  for (guint t = 0; t < n_tags; t++)
    {
      guint64 *key = g_new (guint64, 1);
      *key = edge_key (tags[t].a, tags[t].b);
      g_hash_table_insert (tag_of, key, GUINT_TO_POINTER (tags[t].group + 1));
    }

  m->n_boundary = bnd->len;
  m->boundary_a = g_new (guint, MAX (bnd->len, 1));
  m->boundary_b = g_new (guint, MAX (bnd->len, 1));
  m->boundary_cell = g_new (guint, MAX (bnd->len, 1));
  m->boundary_group = g_new (guint, MAX (bnd->len, 1));
  m->boundary_node = g_new0 (gboolean, m->n_nodes);
  for (guint i = 0; i < bnd->len; i++)
    {
      const Edge *b = &g_array_index (bnd, Edge, i);
      const guint64 key = edge_key (b->lo, b->hi);
      const guint group = GPOINTER_TO_UINT (g_hash_table_lookup (tag_of, &key));
      /* Walk it as its cell does, so the cell is on the left. */
      m->boundary_a[i] = b->forward ? b->lo : b->hi;
      m->boundary_b[i] = b->forward ? b->hi : b->lo;
      m->boundary_cell[i] = b->cell;
      m->boundary_group[i] = group > 0 && group - 1 < m->groups->len ? group - 1 : 0;
      m->boundary_node[b->lo] = m->boundary_node[b->hi] = TRUE;
    }
  return TRUE;
}

/* --- adjacency ----------------------------------------------------------------- */

static int
uint_cmp (const void *pa, const void *pb)
{
  const guint a = *(const guint *) pa, b = *(const guint *) pb;
  return a < b ? -1 : a > b;
}

static void
build_adjacency (KsMesh *m)
{
  g_autofree guint *fill = NULL;
  g_autofree guint *mark = g_new (guint, m->n_cells);
  /* Reserved so its data is never NULL: a mesh of one cell has an empty
   * stencil, and arithmetic on a NULL pointer is undefined (fuzz-msh). */
  g_autoptr(GArray) st = g_array_sized_new (FALSE, FALSE, sizeof (guint), 9 * m->n_cells + 1);

  m->node_offsets = g_new0 (guint, m->n_nodes + 1);
  for (guint k = 0; k < m->cell_offsets[m->n_cells]; k++)
    m->node_offsets[m->cell_nodes[k] + 1]++;
  for (guint v = 0; v < m->n_nodes; v++)
    m->node_offsets[v + 1] += m->node_offsets[v];
  m->node_cells = g_new (guint, MAX (m->node_offsets[m->n_nodes], 1));
  fill = g_memdup2 (m->node_offsets, sizeof (guint) * (m->n_nodes + 1));
  for (guint c = 0; c < m->n_cells; c++)
    for (guint k = m->cell_offsets[c]; k < m->cell_offsets[c + 1]; k++)
      m->node_cells[fill[m->cell_nodes[k]]++] = c;

  /* The stencil: every cell around every node of c, once. */
  memset (mark, 0xff, sizeof (guint) * m->n_cells);
  m->stencil_offsets = g_new (guint, m->n_cells + 1);
  m->stencil_offsets[0] = 0;
  for (guint c = 0; c < m->n_cells; c++)
    {
      const guint first = st->len;
      mark[c] = c;
      for (guint k = m->cell_offsets[c]; k < m->cell_offsets[c + 1]; k++)
        {
          const guint v = m->cell_nodes[k];
          for (guint i = m->node_offsets[v]; i < m->node_offsets[v + 1]; i++)
            {
              const guint d = m->node_cells[i];
              if (mark[d] != c)
                {
                  mark[d] = c;
                  g_array_append_val (st, d);
                }
            }
        }
      if (st->len > first)
        qsort (&g_array_index (st, guint, first), st->len - first, sizeof (guint), uint_cmp);
      m->stencil_offsets[c + 1] = st->len;
    }
  m->stencil = (guint *) g_array_free (g_steal_pointer (&st), FALSE);
}

/* --- construction ----------------------------------------------------------------- */

static gboolean
check_cells (KsMesh *m, const guint *names, GError **error)
{
  for (guint c = 0; c < m->n_cells; c++)
    {
      const guint k = ks_mesh_cell_size (m, c);
      const guint *v = m->cell_nodes + m->cell_offsets[c];

      if (k < 3 || k > KS_MESH_MAX_CELL_NODES)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_BAD_NODE,
                       _("Cell %u has %u nodes; a cell has 3 (a triangle) or 4 (a quadrilateral)"),
                       ks_mesh_cell_name (names, c), k);
          return FALSE;
        }
      for (guint j = 0; j < k; j++)
        {
          if (v[j] >= m->n_nodes)
            {
              g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_BAD_NODE,
                           _("Cell %u names node %u, which does not exist (the mesh has %u nodes)"),
                           ks_mesh_cell_name (names, c), v[j] + 1, m->n_nodes);
              return FALSE;
            }
          for (guint i = 0; i < j; i++)
            if (v[i] == v[j])
              {
                g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_DEGENERATE,
                             _("Cell %u names node %u twice"), ks_mesh_cell_name (names, c), v[j] + 1);
                return FALSE;
              }
        }
    }
  return TRUE;
}

/* A quadrilateral whose nodes are not listed in order around it (a bowtie):
 * two opposite edges cross. */
static gboolean
check_twisted (const KsMesh *m, guint c, const guint *names, double eps, GError **error)
{
  const guint *v = m->cell_nodes + m->cell_offsets[c];

  if (ks_mesh_cell_size (m, c) != 4)
    return TRUE;
  for (guint j = 0; j < 2; j++)
    if (ks_mesh_segments_cross (m, v[j], v[j + 1], v[j + 2], v[(j + 3) % 4], eps))
      {
        g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_DEGENERATE,
                     _("Quadrilateral %u (nodes %u, %u, %u, %u) is twisted: its edge from node %u to node %u "
                       "crosses the one from node %u to node %u (a bowtie); list its nodes in order around it"),
                     ks_mesh_cell_name (names, c), v[0] + 1, v[1] + 1, v[2] + 1, v[3] + 1,
                     v[j] + 1, v[j + 1] + 1, v[j + 2] + 1, v[(j + 3) % 4] + 1);
        return FALSE;
      }
  return TRUE;
}

static void
reverse_cell (KsMesh *m, guint c)
{
  guint *v = m->cell_nodes + m->cell_offsets[c];
  const guint k = ks_mesh_cell_size (m, c);

  for (guint j = 0; j < k / 2; j++)
    {
      const guint t = v[j];
      v[j] = v[k - 1 - j];
      v[k - 1 - j] = t;
    }
  m->area[c] = -m->area[c];
}

/* Areas, orientation, convexity.  eps: the area below which a cell is
 * degenerate, relative to the mesh's extent. */
static gboolean
check_geometry (KsMesh *m, const guint *names, double eps, GError **error)
{
  guint negative = 0;

  for (guint c = 0; c < m->n_cells; c++)
    {
      if (!check_twisted (m, c, names, eps, error))
        return FALSE;
      m->area[c] = signed_area (m, c);
      if (fabs (m->area[c]) <= eps)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_DEGENERATE,
                       _("Cell %u has zero area (%g): its nodes lie on one line or on one point"),
                       ks_mesh_cell_name (names, c), m->area[c]);
          return FALSE;
        }
      negative += m->area[c] < 0;
    }
  /* Drawn clockwise as a whole (a Gmsh surface whose normal points down)
   * or in part (two of Gmsh's surfaces whose curve loops run opposite
   * ways): the same cells turned counter-clockwise, not an error.  A mesh
   * that folds over itself still is: its turned cells then cover their
   * neighbours, which ks_mesh_check_overlaps finds. */
  for (guint c = 0; c < m->n_cells && negative > 0; c++)
    if (m->area[c] < 0)
      reverse_cell (m, c);
  if (negative < m->n_cells)
    m->n_reoriented = negative;
  for (guint c = 0; c < m->n_cells; c++)
    {
      const guint *v = m->cell_nodes + m->cell_offsets[c];
      const guint k = ks_mesh_cell_size (m, c);
      if (k != 4)
        continue;
      for (guint j = 0; j < k; j++)
        {
          const guint a = v[(j + k - 1) % k], b = v[j], d = v[(j + 1) % k];
          if (ks_mesh_orient (m->x[a], m->y[a], m->x[b], m->y[b], m->x[d], m->y[d]) <= eps)
            {
              g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_DEGENERATE,
                           _("Quadrilateral %u is not convex at node %u"), ks_mesh_cell_name (names, c), b + 1);
              return FALSE;
            }
        }
    }
  return TRUE;
}

static gboolean
check_node_cells (const KsMesh *m, GError **error)
{
  g_autofree guint *count = g_new0 (guint, m->n_nodes);

  for (guint k = 0; k < m->cell_offsets[m->n_cells]; k++)
    if (++count[m->cell_nodes[k]] > KS_MESH_MAX_NODE_CELLS)
      {
        guint all = 0;
        for (guint j = 0; j < m->cell_offsets[m->n_cells]; j++)
          all += m->cell_nodes[j] == m->cell_nodes[k];
        g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_DEGENERATE,
                     _("Node %u is shared by %u cells; at most %u cells may meet at a node "
                       "(their corners there would be narrower than %.1f degrees)"),
                     m->cell_nodes[k] + 1, all, KS_MESH_MAX_NODE_CELLS, 360.0 / KS_MESH_MAX_NODE_CELLS);
        return FALSE;
      }
  return TRUE;
}

/* The cells' typical size, from the extent (before any area is computed,
 * whose square may underflow): within what the heat scheme's numbers
 * (areas, temperatures near 1/area, their squares in the CG) keep in
 * double precision. */
static gboolean
check_scale (const KsMesh *m, GError **error)
{
  const double w = m->xmax - m->xmin, h = m->ymax - m->ymin;
  const double size = w > 0 && h > 0 ? sqrt (w) * sqrt (h) / sqrt ((double) m->n_cells)
                                     : MAX (w, h) / m->n_cells;

  if (size >= KS_MESH_MIN_CELL_SIZE && size <= KS_MESH_MAX_CELL_SIZE)
    return TRUE;
  g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID,
               _("The mesh's cells are about %.1e across (the mesh spans %.3g by %.3g): double precision "
                 "cannot carry the computation at that scale; rescale it to cells between %g and %g across "
                 "(another unit of length)"),
               size, w, h, KS_MESH_MIN_CELL_SIZE, KS_MESH_MAX_CELL_SIZE);
  return FALSE;
}

/* The nodes and the extent; a coordinate that is not a number refused. */
static gboolean
copy_nodes (KsMesh *m, const double *xy, GError **error)
{
  m->xmin = m->ymin = G_MAXDOUBLE;
  m->xmax = m->ymax = -G_MAXDOUBLE;
  for (guint v = 0; v < m->n_nodes; v++)
    {
      m->x[v] = xy[2 * v];
      m->y[v] = xy[2 * v + 1];
      if (!isfinite (m->x[v]) || !isfinite (m->y[v]) || fabs (m->x[v]) > 1e150 || fabs (m->y[v]) > 1e150)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID,
                       _("Node %u is at (%g, %g): coordinates must be finite numbers below 1e150"),
                       v + 1, m->x[v], m->y[v]);
          return FALSE;
        }
      m->xmin = MIN (m->xmin, m->x[v]);
      m->xmax = MAX (m->xmax, m->x[v]);
      m->ymin = MIN (m->ymin, m->y[v]);
      m->ymax = MAX (m->ymax, m->y[v]);
    }
  return TRUE;
}

KsMesh *
ks_mesh_new (guint                n_nodes,
             const double        *xy,
             guint                n_cells,
             const guint         *cell_offsets,
             const guint         *cell_nodes,
             const guint         *cell_names,
             const KsMeshEdgeTag *tags,
             guint                n_tags,
             const char * const  *groups,
             const char          *description,
             GError             **error)
{
  g_autoptr(KsMesh) m = NULL;
  double extent, eps;

  g_return_val_if_fail (n_nodes == 0 || xy != NULL, NULL);
  g_return_val_if_fail (n_cells == 0 || (cell_offsets != NULL && cell_nodes != NULL), NULL);
  g_return_val_if_fail (n_tags == 0 || tags != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_nodes == 0 || n_cells == 0)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_EMPTY,
                   _("The mesh is empty: %u nodes, %u cells"), n_nodes, n_cells);
      return NULL;
    }

  m = g_new0 (KsMesh, 1);
  m->ref_count = 1;
  m->n_nodes = n_nodes;
  m->n_cells = n_cells;
  m->x = g_new (double, n_nodes);
  m->y = g_new (double, n_nodes);
  m->cell_offsets = g_memdup2 (cell_offsets, sizeof (guint) * ((gsize) n_cells + 1));
  m->cell_nodes = g_memdup2 (cell_nodes, sizeof (guint) * MAX (cell_offsets[n_cells], 1));
  m->area = g_new (double, n_cells);
  m->cx = g_new (double, n_cells);
  m->cy = g_new (double, n_cells);
  m->groups = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; groups != NULL && groups[i] != NULL; i++)
    g_ptr_array_add (m->groups, g_strdup (groups[i]));
  if (m->groups->len == 0)
    g_ptr_array_add (m->groups, g_strdup ("boundary"));
  m->description = g_strdup (description != NULL ? description : "");

  if (!copy_nodes (m, xy, error))
    return NULL;
  /* The cheap checks first: a node with too many cells (a fan) or a mesh
   * at a scale double precision cannot carry is refused before any work
   * that grows with the cells around a node. */
  if (!check_cells (m, cell_names, error) || !check_node_cells (m, error) || !check_scale (m, error) ||
      !ks_mesh_check_duplicates (m, error))
    return NULL;
  /* Zero area means relative to the mesh's own size (and round-off). */
  extent = MAX (m->xmax - m->xmin, m->ymax - m->ymin);
  eps = 1e-12 * extent * extent;
  if (!check_geometry (m, cell_names, eps, error))
    return NULL;
  for (guint c = 0; c < n_cells; c++)
    centroid (m, c);
  if (!find_edges (m, cell_names, tags, n_tags, error))
    return NULL;
  build_adjacency (m);
  if (!ks_mesh_check_overlaps (m, cell_names, eps, error))
    return NULL;
  if (m->n_reoriented > 0)
    {
      /* Said once, where the mesh is named (the run, the heat page). */
      g_autofree char *plain = m->description;
      m->description = g_strdup_printf (ngettext ("%s (%u of the %u cells was clockwise: turned counter-clockwise)",
                                                  "%s (%u of the %u cells were clockwise: turned counter-clockwise)",
                                                  m->n_reoriented),
                                        plain, m->n_reoriented, m->n_cells);
    }
  return g_steal_pointer (&m);
}

KsMesh *
ks_mesh_ref (KsMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, NULL);
  g_atomic_int_inc (&mesh->ref_count);
  return mesh;
}

void
ks_mesh_unref (KsMesh *mesh)
{
  if (mesh == NULL || !g_atomic_int_dec_and_test (&mesh->ref_count))
    return;
  g_free (mesh->x);
  g_free (mesh->y);
  g_free (mesh->cell_offsets);
  g_free (mesh->cell_nodes);
  g_free (mesh->area);
  g_free (mesh->cx);
  g_free (mesh->cy);
  g_free (mesh->stencil_offsets);
  g_free (mesh->stencil);
  g_free (mesh->node_offsets);
  g_free (mesh->node_cells);
  g_free (mesh->boundary_node);
  g_free (mesh->boundary_a);
  g_free (mesh->boundary_b);
  g_free (mesh->boundary_cell);
  g_free (mesh->boundary_group);
  g_clear_pointer (&mesh->groups, g_ptr_array_unref);
  g_free (mesh->description);
  g_free (mesh);
}

guint
ks_mesh_nearest_cell (const KsMesh *mesh, double x, double y)
{
  guint best = 0;
  double best_d = G_MAXDOUBLE;

  g_return_val_if_fail (mesh != NULL, 0);
  for (guint c = 0; c < mesh->n_cells; c++)
    {
      const double d = (mesh->cx[c] - x) * (mesh->cx[c] - x) + (mesh->cy[c] - y) * (mesh->cy[c] - y);
      if (d < best_d)
        {
          best_d = d;
          best = c;
        }
    }
  return best;
}

guint
ks_mesh_locate_point (const KsMesh *mesh, double x, double y)
{
  double eps;

  g_return_val_if_fail (mesh != NULL, G_MAXUINT);
  eps = 1e-12 * MAX (mesh->xmax - mesh->xmin, mesh->ymax - mesh->ymin);
  if (x < mesh->xmin - eps || x > mesh->xmax + eps || y < mesh->ymin - eps || y > mesh->ymax + eps)
    return G_MAXUINT;
  for (guint c = 0; c < mesh->n_cells; c++)
    {
      const guint *v = mesh->cell_nodes + mesh->cell_offsets[c];
      const guint k = ks_mesh_cell_size (mesh, c);
      gboolean inside = TRUE;
      for (guint j = 0; j < k && inside; j++)
        {
          const guint a = v[j], b = v[(j + 1) % k];
          /* The distance from the edge's line, relative to the mesh. */
          inside = ks_mesh_orient (mesh->x[a], mesh->y[a], mesh->x[b], mesh->y[b], x, y) >=
                   -eps * hypot (mesh->x[b] - mesh->x[a], mesh->y[b] - mesh->y[a]);
        }
      if (inside)
        return c;
    }
  return G_MAXUINT;
}

char *
ks_mesh_escape_text (const char *text, gssize length, gsize max_chars)
{
  const char *p, *end;
  GString *out = g_string_new (NULL);
  gsize chars = 0;

  g_return_val_if_fail (text != NULL || length == 0, g_string_free (out, FALSE));
  end = text + (length < 0 ? strlen (text) : (gsize) length);
  for (p = text; p < end && chars < max_chars; chars++)
    {
      const gunichar c = g_utf8_get_char_validated (p, end - p);
      if (c == (gunichar) -1 || c == (gunichar) -2 || c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
        {
          const gsize n = c < 0x80 || c == (gunichar) -1 || c == (gunichar) -2 ? 1 : g_utf8_skip[*(const guchar *) p];
          for (gsize i = 0; i < n; i++)
            g_string_append_printf (out, "\\x%02x", ((const guchar *) p)[i]);
          p += n;
        }
      else
        {
          const char *next = g_utf8_next_char (p);
          g_string_append_len (out, p, next - p);
          p = next;
        }
    }
  if (p < end)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

double
ks_mesh_total_area (const KsMesh *mesh)
{
  double s = 0.0;

  g_return_val_if_fail (mesh != NULL, 0.0);
  for (guint c = 0; c < mesh->n_cells; c++)
    s += mesh->area[c];
  return s;
}

double
ks_mesh_boundary_length (const KsMesh *mesh)
{
  double s = 0.0;

  g_return_val_if_fail (mesh != NULL, 0.0);
  for (guint e = 0; e < mesh->n_boundary; e++)
    s += hypot (mesh->x[mesh->boundary_b[e]] - mesh->x[mesh->boundary_a[e]],
                mesh->y[mesh->boundary_b[e]] - mesh->y[mesh->boundary_a[e]]);
  return s;
}

void
ks_mesh_count_kinds (const KsMesh *mesh, guint *out_triangles, guint *out_quads)
{
  guint t = 0;

  g_return_if_fail (mesh != NULL);
  for (guint c = 0; c < mesh->n_cells; c++)
    t += ks_mesh_cell_size (mesh, c) == 3;
  if (out_triangles != NULL)
    *out_triangles = t;
  if (out_quads != NULL)
    *out_quads = mesh->n_cells - t;
}

double
ks_mesh_mean_stencil (const KsMesh *mesh)
{
  g_return_val_if_fail (mesh != NULL, 0.0);
  return (double) mesh->stencil_offsets[mesh->n_cells] / mesh->n_cells;
}
