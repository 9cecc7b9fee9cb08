/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msh-gen.c: see msh-gen.h. */
#include "msh-gen.h"

#include <math.h>

#include "ks-mesh.h"

typedef struct {
  GString *nodes;
  GString *cells;
  guint    n_nodes;
  guint    n_cells;
  const KsGenParams *p;
} Gen;

static guint
node (Gen *g, double x, double y)
{
  const KsGenParams *p = g->p;
  const double c = cos (p->angle), s = sin (p->angle);
  const double x1 = c * x - s * y, y1 = s * x + c * y;
  double u = x1 * p->scale + p->shift, v = y1 * p->scale, w = 0.0;

  /* Off any plane whatever the cells (z = x^2 alone keeps a strip flat). */
  if (p->bend)
    w = (x1 * y1 + x1 * x1) * p->scale;
  else if (p->tilt != 0.0)
    w = v * sin (p->tilt), v *= cos (p->tilt);
  g_string_append_printf (g->nodes, "%u %.17g %.17g %.17g\n", ++g->n_nodes, u, v, w);
  return g->n_nodes;
}

static void
cell (Gen *g, guint k, const guint *v)
{
  g_string_append_printf (g->cells, "%u %u 2 1 1", ++g->n_cells, k == 3 ? 2u : 3u);
  for (guint j = 0; j < k; j++)
    g_string_append_printf (g->cells, " %u", v[g->p->clockwise ? k - 1 - j : j]);
  g_string_append_c (g->cells, '\n');
}

/* nx by ny quadrilaterals on [x0, x0 + w] x [y0, y0 + h]; first: the
 * first node's number. */
static void
grid (Gen *g, guint nx, guint ny, double x0, double y0, double w, double h)
{
  const guint first = g->n_nodes + 1;

  for (guint j = 0; j <= ny; j++)
    for (guint i = 0; i <= nx; i++)
      node (g, x0 + w * i / nx, y0 + h * j / ny);
  for (guint j = 0; j < ny; j++)
    for (guint i = 0; i < nx; i++)
      {
        const guint a = first + j * (nx + 1) + i;
        const guint v[4] = { a, a + 1, a + nx + 2, a + nx + 1 };
        cell (g, 4, v);
      }
}

static void
fan (Gen *g, guint n)
{
  const guint centre = node (g, 0.0, 0.0), first = g->n_nodes + 1;

  for (guint i = 0; i < n; i++)
    node (g, cos (2 * G_PI * i / n), sin (2 * G_PI * i / n));
  for (guint i = 0; i < n; i++)
    {
      const guint v[3] = { centre, first + i, first + (i + 1) % n };
      cell (g, 3, v);
    }
}

static guint
side (const KsGenParams *p)
{
  return MAX (1, (guint) sqrt ((double) p->count));
}

GString *
ks_gen_msh (const KsGenParams *p)
{
  Gen g = { g_string_new (NULL), g_string_new (NULL), 0, 0, p };
  GString *out = g_string_new ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n");
  const guint n = side (p);

  switch (p->kind)
    {
    case KS_GEN_FAN:
      fan (&g, MAX (3, p->count));
      break;
    case KS_GEN_STRIP:
      grid (&g, 1, MAX (1, p->count), 0.0, 0.0, 1.0, 1.0);
      break;
    case KS_GEN_NESTED:
      grid (&g, n, n, 0.0, 0.0, 1.0, 1.0);
      grid (&g, 1, 1, 0.3137, 0.3137, 0.1371, 0.1371);   /* off the grid's nodes */
      break;
    case KS_GEN_CRACK:
      grid (&g, 1, n, 0.0, 0.0, 0.5, 1.0);
      grid (&g, 1, n, 0.5, 0.0, 0.5, 1.0);
      break;
    case KS_GEN_BOWTIE:
    case KS_GEN_GRID:
    default:
      grid (&g, n, n, 0.0, 0.0, 1.0, 1.0);
      if (p->kind == KS_GEN_BOWTIE)
        {
          /* The last cell's last two nodes swapped in the text. */
          gsize at = g.cells->len - 1;
          while (at > 0 && g.cells->str[at - 1] != '\n')
            at--;
          g_string_truncate (g.cells, at);
          g.n_cells--;
          {
            const guint a = g.n_nodes - n - 2;
            const guint v[4] = { a, a + 1, a + n + 1, a + n + 2 };
            cell (&g, 4, v);
          }
        }
      break;
    }
  g_string_append_printf (out, "$Nodes\n%u\n%s$EndNodes\n$Elements\n%u\n%s$EndElements\n",
                          g.n_nodes, g.nodes->str, g.n_cells, g.cells->str);
  g_string_free (g.nodes, TRUE);
  g_string_free (g.cells, TRUE);
  return out;
}

gboolean
ks_gen_is_valid (const KsGenParams *p)
{
  const double cells = p->kind == KS_GEN_FAN ? MAX (3, p->count)
                       : p->kind == KS_GEN_STRIP ? MAX (1, p->count) : (double) side (p) * side (p);
  const double size = fabs (p->scale) / sqrt (cells);

  /* A margin around the scale limits: the check's estimate of the size
   * is from the extent, which turning changes by up to sqrt(2). */
  return (p->kind == KS_GEN_GRID || p->kind == KS_GEN_STRIP ||
          (p->kind == KS_GEN_FAN && MAX (3, p->count) <= KS_MESH_MAX_NODE_CELLS)) &&
         !p->bend && size > 10 * KS_MESH_MIN_CELL_SIZE && size < 0.1 * KS_MESH_MAX_CELL_SIZE &&
         fabs (p->shift) < 1e3 * fabs (p->scale);
}

double
ks_gen_area (const KsGenParams *p)
{
  const double n = MAX (3, p->count);

  return p->scale * p->scale * (p->kind == KS_GEN_FAN ? 0.5 * n * sin (2 * G_PI / n) : 1.0);
}
