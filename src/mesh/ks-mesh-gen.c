/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mesh-gen.c: the generated meshes of ks-mesh-gen.h.
 *
 * Every generator first lays out quadrilaterals (a square grid, or the disc's
 * inner square and rings), then applies the kind: split each quadrilateral
 * along its shorter diagonal (tri), split those of every other patch of a
 * 4 x 4 chessboard (mixed), or move each interior node by up to a fifth of
 * its shortest edge (perturbed: every quadrilateral stays convex).  The
 * result goes through ks_mesh_new's checks like any file would. */
#define G_LOG_DOMAIN "ks-mesh-gen"

#include "ks-mesh-gen.h"
#include "ks-msh.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

static const char * const kind_names[] = { "quad", "tri", "mixed", "perturbed" };
static const char * const domain_names[] = { "square", "disc" };

/* The index of s in names, or -1. */
static int
name_index (const char * const *names, guint n, const char *s)
{
  for (guint i = 0; i < n; i++)
    if (g_str_equal (s, names[i]))
      return (int) i;
  return -1;
}

gboolean
ks_mesh_kind_from_string (const char *s, KsMeshKind *out)
{
  const int i = s != NULL ? name_index (kind_names, G_N_ELEMENTS (kind_names), s) : -1;

  g_return_val_if_fail (s != NULL && out != NULL, FALSE);
  if (i >= 0)
    *out = (KsMeshKind) i;
  return i >= 0;
}

gboolean
ks_mesh_domain_from_string (const char *s, KsMeshDomain *out)
{
  const int i = s != NULL ? name_index (domain_names, G_N_ELEMENTS (domain_names), s) : -1;

  g_return_val_if_fail (s != NULL && out != NULL, FALSE);
  if (i >= 0)
    *out = (KsMeshDomain) i;
  return i >= 0;
}

/* The quadrilaterals being laid out. */
typedef struct {
  GArray *xy;     /* double pairs */
  GArray *quads;  /* guint quadruples, counter-clockwise */
} Layout;

static guint
add_node (Layout *l, double x, double y)
{
  const double p[2] = { x, y };
  g_array_append_vals (l->xy, p, 2);
  return l->xy->len / 2 - 1;
}

static void
add_quad (Layout *l, guint a, guint b, guint c, guint d)
{
  const guint q[4] = { a, b, c, d };
  g_array_append_vals (l->quads, q, 4);
}

/* nx by ny quadrilaterals over [x0, x1] x [y0, y1]; returns the first node's
 * index (nodes row by row, (nx + 1) per row). */
static guint
lay_grid (Layout *l, guint nx, guint ny, double x0, double x1, double y0, double y1)
{
  const guint first = l->xy->len / 2;

  for (guint j = 0; j <= ny; j++)
    for (guint i = 0; i <= nx; i++)
      add_node (l, x0 + (x1 - x0) * i / nx, y0 + (y1 - y0) * j / ny);
  for (guint j = 0; j < ny; j++)
    for (guint i = 0; i < nx; i++)
      {
        const guint a = first + j * (nx + 1) + i;
        add_quad (l, a, a + 1, a + nx + 2, a + nx + 1);
      }
  return first;
}

/* The disc: an n x n square of half-size 1/2 and layers rings of
 * quadrilaterals blending its perimeter into the unit circle. */
static void
lay_disc (Layout *l, guint n, guint layers)
{
  const guint first = lay_grid (l, n, n, -0.5, 0.5, -0.5, 0.5);
  g_autofree guint *ring = g_new (guint, 4 * n);
  g_autofree guint *next = g_new (guint, 4 * n);
  guint k = 0;

  /* The square's perimeter, counter-clockwise from its lower left corner. */
  for (guint i = 0; i < n; i++)
    ring[k++] = first + i;
  for (guint j = 0; j < n; j++)
    ring[k++] = first + j * (n + 1) + n;
  for (guint i = n; i > 0; i--)
    ring[k++] = first + n * (n + 1) + i;
  for (guint j = n; j > 0; j--)
    ring[k++] = first + j * (n + 1);

  for (guint layer = 1; layer <= layers; layer++)
    {
      const double s = (double) layer / layers;
      for (k = 0; k < 4 * n; k++)
        {
          /* Blend the square's perimeter point (not the previous ring's) into the circle. */
          const guint base = k < n ? first + k
                           : k < 2 * n ? first + (k - n) * (n + 1) + n
                           : k < 3 * n ? first + n * (n + 1) + (3 * n - k)
                           : first + (4 * n - k) * (n + 1);
          const double px = g_array_index (l->xy, double, 2 * base);
          const double py = g_array_index (l->xy, double, 2 * base + 1);
          const double r = hypot (px, py);
          next[k] = add_node (l, (1 - s) * px + s * px / r, (1 - s) * py + s * py / r);
        }
      for (k = 0; k < 4 * n; k++)
        add_quad (l, ring[k], next[k], next[(k + 1) % (4 * n)], ring[(k + 1) % (4 * n)]);
      memcpy (ring, next, sizeof (guint) * 4 * n);
    }
}

/* Orientation check of the layout: (ring k, next k, next k+1, ring k+1) is
 * counter-clockwise when the ring runs counter-clockwise and next lies
 * outside it; ks_mesh_new would turn a whole clockwise mesh around, but a
 * mixed one would be refused, so each cell is written the right way here. */
static double
tri_area2 (const double *xy, guint a, guint b, guint c)
{
  return (xy[2 * b] - xy[2 * a]) * (xy[2 * c + 1] - xy[2 * a + 1]) -
         (xy[2 * b + 1] - xy[2 * a + 1]) * (xy[2 * c] - xy[2 * a]);
}

static void
perturb (Layout *l, guint32 seed)
{
  double *xy = (double *) l->xy->data;
  const guint n_nodes = l->xy->len / 2;
  const guint *q = (const guint *) l->quads->data;
  const guint n_quads = l->quads->len / 4;
  g_autofree double *shortest = g_new (double, n_nodes);
  g_autofree guint *fixed = g_new0 (guint, n_nodes);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GHashTable) edges = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint v = 0; v < n_nodes; v++)
    shortest[v] = G_MAXDOUBLE;
  /* An edge used once is on the boundary, and so are its nodes: those stay. */
  for (guint c = 0; c < n_quads; c++)
    for (guint j = 0; j < 4; j++)
      {
        const guint a = q[4 * c + j], b = q[4 * c + (j + 1) % 4];
        const double len = hypot (xy[2 * b] - xy[2 * a], xy[2 * b + 1] - xy[2 * a + 1]);
        gint64 *key = g_new (gint64, 1);
        *key = a < b ? ((gint64) a << 32) | b : ((gint64) b << 32) | a;
        g_hash_table_insert (edges, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (edges, key)) + 1));
        shortest[a] = MIN (shortest[a], len);
        shortest[b] = MIN (shortest[b], len);
      }
  {
    GHashTableIter it;
    gpointer key, value;
    g_hash_table_iter_init (&it, edges);
    while (g_hash_table_iter_next (&it, &key, &value))
      if (GPOINTER_TO_UINT (value) == 1)
        {
          fixed[*(gint64 *) key >> 32] = 1;
          fixed[*(gint64 *) key & 0xffffffff] = 1;
        }
  }
  for (guint v = 0; v < n_nodes; v++)
    if (!fixed[v] && shortest[v] < G_MAXDOUBLE)
      {
        xy[2 * v] += 0.2 * shortest[v] * g_rand_double_range (rand, -1.0, 1.0);
        xy[2 * v + 1] += 0.2 * shortest[v] * g_rand_double_range (rand, -1.0, 1.0);
      }
}

/* The layout as a mesh of the given kind. */
static KsMesh *
finish (Layout *l, KsMeshKind kind, guint32 seed, const char *description, GError **error)
{
  const guint n_quads = l->quads->len / 4;
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (guint));
  const guint zero = 0;
  const double *xy;
  const guint *q;

  if (kind == KS_MESH_KIND_PERTURBED)
    perturb (l, seed);
  xy = (const double *) l->xy->data;
  q = (const guint *) l->quads->data;
  g_array_append_val (offsets, zero);
  for (guint c = 0; c < n_quads; c++)
    {
      const guint *v = q + 4 * c;
      const double mx = (xy[2 * v[0]] + xy[2 * v[1]] + xy[2 * v[2]] + xy[2 * v[3]]) / 4;
      const double my = (xy[2 * v[0] + 1] + xy[2 * v[1] + 1] + xy[2 * v[2] + 1] + xy[2 * v[3] + 1]) / 4;
      const gboolean patch = ((int) floor (4 * (mx + 1)) + (int) floor (4 * (my + 1))) % 2 == 0;
      const gboolean split = kind == KS_MESH_KIND_TRI || (kind == KS_MESH_KIND_MIXED && patch);

      if (!split)
        {
          g_array_append_vals (nodes, v, 4);
          g_array_append_val (offsets, nodes->len);
          continue;
        }
      /* Along the shorter diagonal (0-2 on a tie). */
      {
        const double d02 = hypot (xy[2 * v[2]] - xy[2 * v[0]], xy[2 * v[2] + 1] - xy[2 * v[0] + 1]);
        const double d13 = hypot (xy[2 * v[3]] - xy[2 * v[1]], xy[2 * v[3] + 1] - xy[2 * v[1] + 1]);
        const guint s = d13 < d02 * (1 - 1e-9) ? 1 : 0;
        const guint t1[3] = { v[s], v[s + 1], v[(s + 2) % 4] };
        const guint t2[3] = { v[s], v[(s + 2) % 4], v[(s + 3) % 4] };
        g_assert (tri_area2 (xy, t1[0], t1[1], t1[2]) > 0);
        g_array_append_vals (nodes, t1, 3);
        g_array_append_val (offsets, nodes->len);
        g_array_append_vals (nodes, t2, 3);
        g_array_append_val (offsets, nodes->len);
      }
    }
  return ks_mesh_new (l->xy->len / 2, xy, offsets->len - 1,
                      (const guint *) offsets->data, (const guint *) nodes->data,
                      NULL, NULL, 0, NULL, description, error);
}

static gboolean
check_cells (guint cells, GError **error)
{
  if (cells < 2 || cells > KS_MESH_MAX_GENERATED_CELLS)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID,
                   _("A generated mesh has 2 to %u cells, not %u"), KS_MESH_MAX_GENERATED_CELLS, cells);
      return FALSE;
    }
  return TRUE;
}

static guint
quads_at_most (KsMeshKind kind)
{
  const gboolean splits = kind == KS_MESH_KIND_TRI || kind == KS_MESH_KIND_MIXED;
  return splits ? KS_MESH_MAX_GENERATED_CELLS / 2 : KS_MESH_MAX_GENERATED_CELLS;
}

KsMesh *
ks_mesh_generate_grid (KsMeshKind kind, guint nx, guint ny, guint32 seed, GError **error)
{
  Layout l = { g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (guint)) };
  g_autofree char *description = NULL;
  KsMesh *mesh;

  g_return_val_if_fail ((guint) kind <= KS_MESH_KIND_PERTURBED, NULL);
  /* Triangles split quadrilaterals in two (mixed meshes some of them):
   * the limit is on cells, so a grid of quadrilaterals alone may have
   * twice as many (the paper's 78 M cells). */
  if (nx == 0 || ny == 0 || (guint64) nx * ny > quads_at_most (kind))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID,
                   _("A grid of %u x %u quadrilaterals is out of range: each side at least 1, at most %u quadrilaterals in all"),
                   nx, ny, quads_at_most (kind));
      return NULL;
    }
  lay_grid (&l, nx, ny, -1.0, 1.0, -1.0, 1.0);
  description = g_strdup_printf ("%s %ux%u square", kind_names[kind], nx, ny);
  mesh = finish (&l, kind, seed, description, error);
  g_array_unref (l.xy);
  g_array_unref (l.quads);
  return mesh;
}

KsMesh *
ks_mesh_generate (KsMeshKind kind, KsMeshDomain domain, guint cells, guint32 seed, GError **error)
{
  /* Cells per quadrilateral of the layout: 2 for tri, 1.5 for mixed. */
  const double per_quad = kind == KS_MESH_KIND_TRI ? 2.0 : kind == KS_MESH_KIND_MIXED ? 1.5 : 1.0;
  Layout l;
  g_autofree char *description = NULL;
  KsMesh *mesh;
  guint n;

  g_return_val_if_fail ((guint) kind <= KS_MESH_KIND_PERTURBED, NULL);
  g_return_val_if_fail ((guint) domain <= KS_MESH_DOMAIN_DISC, NULL);
  if (!check_cells (cells, error))
    return NULL;
  if (domain == KS_MESH_DOMAIN_SQUARE)
    {
      n = MAX (1, (guint) lround (sqrt (cells / per_quad)));
      return ks_mesh_generate_grid (kind, n, n, seed, error);
    }
  /* The disc: n^2 inside, 4 n (n / 2) in the rings, so about 3 n^2 quadrilaterals. */
  n = MAX (2, (guint) lround (sqrt (cells / per_quad / 3.0)));
  l.xy = g_array_new (FALSE, FALSE, sizeof (double));
  l.quads = g_array_new (FALSE, FALSE, sizeof (guint));
  lay_disc (&l, n, MAX (1, n / 2));
  description = g_strdup_printf ("%s %u disc", kind_names[kind], (guint) (l.quads->len / 4 * per_quad));
  mesh = finish (&l, kind, seed, description, error);
  g_array_unref (l.xy);
  g_array_unref (l.quads);
  return mesh;
}

static gboolean
parse_uint (const char *s, const char *end, guint *out)
{
  g_autofree char *part = g_strndup (s, end - s);
  guint64 v = 0;

  if (!g_ascii_string_to_unsigned (part, 10, 1, G_MAXUINT, &v, NULL))
    return FALSE;
  *out = (guint) v;
  return TRUE;
}

KsMesh *
ks_mesh_new_from_spec (const char *spec, GCancellable *cancellable, GError **error)
{
  return ks_mesh_new_from_spec_full (spec, FALSE, cancellable, error);
}

KsMesh *
ks_mesh_new_from_spec_full (const char *spec, gboolean trust_geo, GCancellable *cancellable, GError **error)
{
  const char *colon;
  g_autofree char *head = NULL;
  KsMeshKind kind;
  KsMeshDomain domain = KS_MESH_DOMAIN_SQUARE;
  const char *dash;
  guint nx = 0, ny = 0;

  g_return_val_if_fail (spec != NULL, NULL);
  if (g_str_has_suffix (spec, ".msh"))
    return ks_msh_read_file (spec, 0, error);
  if (g_str_has_suffix (spec, ".geo"))
    return ks_msh_mesh_geo (spec, trust_geo, cancellable, error);

  colon = strchr (spec, ':');
  head = colon != NULL ? g_strndup (spec, colon - spec) : g_strdup (spec);
  dash = strchr (head, '-');
  if (dash != NULL)
    {
      head[dash - head] = '\0';
      if (!ks_mesh_domain_from_string (dash + 1, &domain))
        goto bad;
    }
  if (colon == NULL || !ks_mesh_kind_from_string (head, &kind))
    goto bad;
  {
    const char *x = strchr (colon + 1, 'x');
    if (x != NULL)
      {
        if (domain != KS_MESH_DOMAIN_SQUARE || !parse_uint (colon + 1, x, &nx) ||
            !parse_uint (x + 1, x + strlen (x), &ny))
          goto bad;
        return ks_mesh_generate_grid (kind, nx, ny, 1, error);
      }
    if (!parse_uint (colon + 1, colon + strlen (colon), &nx))
      goto bad;
    return ks_mesh_generate (kind, domain, nx, 1, error);
  }

bad:
  g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID,
               _("\"%s\" names no mesh: give KIND[-DOMAIN]:CELLS (kinds quad, tri, mixed, perturbed; "
                 "domains square, disc), KIND:NXxNY, or a .msh or .geo file"), spec);
  return NULL;
}
