/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mesh-check.c: the checks of a mesh that look at more than one cell,
 * each linear (or n log n) in the mesh, whatever its cells' shapes.
 *
 * Overlap is found without comparing cells pair by pair (a fan of long
 * cells around one node put every pair in one bucket: quadratic).  Given
 * that every cell is convex and turns the same way and that an edge has at
 * most two cells, one on each side (ks-mesh.c), the mesh covers the plane
 * once near every point when (1) around every node its cells' corners
 * follow one another without covering each other; then it can only fold
 * over itself far from a node, which needs (2) two boundary edges crossing
 * or (3) a whole part of the mesh lying on top of another: a point inside
 * each part is then covered twice (the winding number of the boundary). */
#define G_LOG_DOMAIN "ks-mesh"

#include "ks-mesh-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* At most this many pairs of boundary edges compared per boundary edge
 * (plus a constant): a bound on the work, met only by thousands of long
 * boundary edges side by side (separate sliver cells). */
#define PAIRS_PER_EDGE 256
#define PAIRS_EXTRA    4000000

gboolean
ks_mesh_segments_cross (const KsMesh *m, guint p1, guint p2, guint q1, guint q2, double eps)
{
  const double o1 = ks_mesh_orient (m->x[p1], m->y[p1], m->x[p2], m->y[p2], m->x[q1], m->y[q1]);
  const double o2 = ks_mesh_orient (m->x[p1], m->y[p1], m->x[p2], m->y[p2], m->x[q2], m->y[q2]);
  const double o3 = ks_mesh_orient (m->x[q1], m->y[q1], m->x[q2], m->y[q2], m->x[p1], m->y[p1]);
  const double o4 = ks_mesh_orient (m->x[q1], m->y[q1], m->x[q2], m->y[q2], m->x[p2], m->y[p2]);

  return ((o1 > eps && o2 < -eps) || (o1 < -eps && o2 > eps)) &&
         ((o3 > eps && o4 < -eps) || (o3 < -eps && o4 > eps));
}

/* --- coincident nodes --------------------------------------------------------- */

typedef struct {
  double x, y;
  guint  v;
} Spot;

static int
spot_cmp (const void *pa, const void *pb)
{
  const Spot *a = pa, *b = pb;

  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  if (a->y != b->y)
    return a->y < b->y ? -1 : 1;
  return a->v < b->v ? -1 : a->v > b->v;
}

gboolean
ks_mesh_check_duplicates (const KsMesh *m, GError **error)
{
  g_autofree gboolean *used = g_new0 (gboolean, m->n_nodes);
  g_autofree Spot *s = g_new (Spot, m->n_nodes);
  guint n = 0;

  for (guint k = 0; k < m->cell_offsets[m->n_cells]; k++)
    used[m->cell_nodes[k]] = TRUE;
  for (guint v = 0; v < m->n_nodes; v++)
    if (used[v])
      s[n++] = (Spot) { m->x[v], m->y[v], v };
  qsort (s, n, sizeof (Spot), spot_cmp);
  for (guint i = 1; i < n; i++)
    if (s[i].x == s[i - 1].x && s[i].y == s[i - 1].y)
      {
        g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_DEGENERATE,
                     _("Nodes %u and %u are both at (%g, %g): the cells on either side of them are not "
                       "joined there (a crack heat cannot cross); merge them (in gmsh: Coherence Mesh;)"),
                     s[i - 1].v + 1, s[i].v + 1, s[i].x, s[i].y);
        return FALSE;
      }
  return TRUE;
}

/* --- (1) around each node ------------------------------------------------------ */

typedef struct {
  double from, to;   /* the cell's corner: angles counter-clockwise, to > from */
  guint  cell;
} Corner;

static int
corner_cmp (const void *pa, const void *pb)
{
  const Corner *a = pa, *b = pb;

  return a->from < b->from ? -1 : a->from > b->from;
}

static gboolean
check_node (const KsMesh *m, guint v, const guint *names, Corner *corner, GError **error)
{
  const guint n = m->node_offsets[v + 1] - m->node_offsets[v];

  for (guint i = 0; i < n; i++)
    {
      const guint c = m->node_cells[m->node_offsets[v] + i];
      const guint *u = m->cell_nodes + m->cell_offsets[c];
      const guint k = ks_mesh_cell_size (m, c);
      guint j = 0, next, prev;

      while (u[j] != v)
        j++;
      next = u[(j + 1) % k];
      prev = u[(j + k - 1) % k];
      corner[i].from = atan2 (m->y[next] - m->y[v], m->x[next] - m->x[v]);
      corner[i].to = atan2 (m->y[prev] - m->y[v], m->x[prev] - m->x[v]);
      if (corner[i].to <= corner[i].from)
        corner[i].to += 2 * G_PI;
      corner[i].cell = c;
    }
  qsort (corner, n, sizeof (Corner), corner_cmp);
  /* Sorted by where they start, two corners overlap only if two
   * neighbours do (the last one's neighbour is the first, a turn later). */
  for (guint i = 0; i < n && n > 1; i++)
    {
      const guint j = (i + 1) % n;
      const double start = corner[j].from + (j == 0 ? 2 * G_PI : 0.0);
      if (corner[i].to > start + 1e-10)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_OVERLAP,
                       _("Cells %u and %u overlap: they cover each other around node %u"),
                       ks_mesh_cell_name (names, MIN (corner[i].cell, corner[j].cell)),
                       ks_mesh_cell_name (names, MAX (corner[i].cell, corner[j].cell)), v + 1);
          return FALSE;
        }
    }
  return TRUE;
}

/* --- (2) and (3): the boundary edges in buckets -------------------------------- */

typedef struct {
  guint   nx, ny;
  double  x0, y0, w, h;
  guint  *start;   /* bucket b's edges: items[start[b] .. start[b + 1]) */
  guint  *items;
} Grid;

static guint
grid_col (const Grid *g, double x)
{
  const double t = g->w > 0 ? (x - g->x0) / g->w : 0.0;
  return t <= 0 ? 0 : MIN (g->nx - 1, (guint) t);
}

static guint
grid_row (const Grid *g, double y)
{
  const double t = g->h > 0 ? (y - g->y0) / g->h : 0.0;
  return t <= 0 ? 0 : MIN (g->ny - 1, (guint) t);
}

/* Buckets over the mesh's extent, about two per boundary edge, shaped like
 * the extent; each edge in every bucket its bounding box touches.  FALSE
 * when that would compare too many pairs. */
static gboolean
grid_build (Grid *g, const KsMesh *m, GError **error)
{
  const guint nb = m->n_boundary;
  const double W = m->xmax - m->xmin, H = m->ymax - m->ymin;
  const double want = 2.0 * nb + 1.0;
  const double aspect = H > 0 && W > 0 ? W / H : 1.0;
  g_autofree guint *fill = NULL;
  guint64 entries = 0, pairs = 0;

  g->nx = (guint) CLAMP (sqrt (want * aspect), 1.0, want);
  g->ny = (guint) CLAMP (want / g->nx, 1.0, want);
  g->x0 = m->xmin;
  g->y0 = m->ymin;
  g->w = W / g->nx;
  g->h = H / g->ny;
  g->start = g_new0 (guint, (gsize) g->nx * g->ny + 1);
  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint e = 0; e < nb; e++)
        {
          const guint a = m->boundary_a[e], b = m->boundary_b[e];
          const guint c0 = grid_col (g, MIN (m->x[a], m->x[b])), c1 = grid_col (g, MAX (m->x[a], m->x[b]));
          const guint r0 = grid_row (g, MIN (m->y[a], m->y[b])), r1 = grid_row (g, MAX (m->y[a], m->y[b]));
          if (pass == 0 && (entries += (guint64) (c1 - c0 + 1) * (r1 - r0 + 1)) > 64 * (guint64) want)
            goto too_many;
          for (guint r = r0; r <= r1; r++)
            for (guint c = c0; c <= c1; c++)
              {
                const gsize bucket = (gsize) r * g->nx + c;
                if (pass == 0)
                  g->start[bucket + 1]++;
                else
                  g->items[fill[bucket]++] = e;
              }
        }
      if (pass == 0)
        {
          for (gsize b = 0; b < (gsize) g->nx * g->ny; b++)
            {
              pairs += (guint64) g->start[b + 1] * g->start[b + 1] / 2;
              g->start[b + 1] += g->start[b];
            }
          if (pairs > (guint64) PAIRS_PER_EDGE * nb + PAIRS_EXTRA)
            goto too_many;
          g->items = g_new (guint, MAX (entries, 1));
          fill = g_memdup2 (g->start, sizeof (guint) * ((gsize) g->nx * g->ny + 1));
        }
    }
  return TRUE;

too_many:
  g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOO_LARGE,
               _("The mesh's %u boundary edges are too long and too close together to check for "
                 "overlap in reasonable time (separate long thin cells side by side?)"), nb);
  return FALSE;
}

static gboolean
check_crossings (const KsMesh *m, const Grid *g, const guint *names, double eps, GError **error)
{
  for (gsize b = 0; b < (gsize) g->nx * g->ny; b++)
    for (guint i = g->start[b]; i < g->start[b + 1]; i++)
      for (guint j = i + 1; j < g->start[b + 1]; j++)
        {
          const guint e = g->items[i], f = g->items[j];
          const guint p1 = m->boundary_a[e], p2 = m->boundary_b[e];
          const guint q1 = m->boundary_a[f], q2 = m->boundary_b[f];
          if (p1 == q1 || p1 == q2 || p2 == q1 || p2 == q2 || !ks_mesh_segments_cross (m, p1, p2, q1, q2, eps))
            continue;
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_OVERLAP,
                       _("Cells %u and %u overlap: the boundary edge from node %u to node %u crosses "
                         "the one from node %u to node %u"),
                       ks_mesh_cell_name (names, MIN (m->boundary_cell[e], m->boundary_cell[f])),
                       ks_mesh_cell_name (names, MAX (m->boundary_cell[e], m->boundary_cell[f])),
                       p1 + 1, p2 + 1, q1 + 1, q2 + 1);
          return FALSE;
        }
  return TRUE;
}

/* How many times the boundary winds around (px, py): a ray to the right,
 * through the buckets of its row (each edge counted once: stamp). */
static int
winding (const KsMesh *m, const Grid *g, double px, double py, guint *stamp, guint mark)
{
  const guint row = grid_row (g, py);
  int w = 0;

  for (guint col = grid_col (g, px); col < g->nx; col++)
    {
      const gsize b = (gsize) row * g->nx + col;
      for (guint i = g->start[b]; i < g->start[b + 1]; i++)
        {
          const guint e = g->items[i], a = m->boundary_a[e], c = m->boundary_b[e];
          if (stamp[e] == mark || (m->y[a] <= py) == (m->y[c] <= py))
            continue;
          stamp[e] = mark;
          if (m->x[a] + (py - m->y[a]) * (m->x[c] - m->x[a]) / (m->y[c] - m->y[a]) > px)
            w += m->y[c] > m->y[a] ? 1 : -1;
        }
    }
  return w;
}

/* One point inside each part of the mesh (cells joined through nodes) is
 * covered once. */
static gboolean
check_parts (const KsMesh *m, const Grid *g, const guint *names, GError **error)
{
  g_autofree guint *part = g_new0 (guint, m->n_cells);
  g_autofree guint *queue = g_new (guint, m->n_cells);
  g_autofree guint *stamp = g_new0 (guint, MAX (m->n_boundary, 1));
  guint parts = 0;

  for (guint root = 0; root < m->n_cells; root++)
    {
      guint head = 0, tail = 0;
      int w;

      if (part[root] != 0)
        continue;
      part[root] = ++parts;
      queue[tail++] = root;
      while (head < tail)
        {
          const guint c = queue[head++];
          for (guint i = m->stencil_offsets[c]; i < m->stencil_offsets[c + 1]; i++)
            if (part[m->stencil[i]] == 0)
              {
                part[m->stencil[i]] = parts;
                queue[tail++] = m->stencil[i];
              }
        }
      w = winding (m, g, m->cx[root], m->cy[root], stamp, parts);
      if (w != 1)
        {
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_OVERLAP,
                       _("Cell %u lies on top of another part of the mesh: the point (%g, %g) inside it "
                         "is covered %d times; two parts of the mesh overlap"),
                       ks_mesh_cell_name (names, root), m->cx[root], m->cy[root], w);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
ks_mesh_check_overlaps (const KsMesh *m, const guint *names, double eps, GError **error)
{
  guint most = 0;
  g_autofree Corner *corner = NULL;
  Grid g = { 0 };
  gboolean ok;

  for (guint v = 0; v < m->n_nodes; v++)
    most = MAX (most, m->node_offsets[v + 1] - m->node_offsets[v]);
  corner = g_new (Corner, MAX (most, 1));
  for (guint v = 0; v < m->n_nodes; v++)
    if (!check_node (m, v, names, corner, error))
      return FALSE;
  ok = grid_build (&g, m, error) &&
       check_crossings (m, &g, names, eps, error) &&
       check_parts (m, &g, names, error);
  g_free (g.start);
  g_free (g.items);
  return ok;
}
