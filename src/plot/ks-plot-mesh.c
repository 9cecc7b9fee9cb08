/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-mesh.c: a mesh of triangles and quadrilaterals coloured by a value
 * per cell: the model (plain arrays, no mesh library), the colour maps, the
 * cell under a point (through a grid index, for tooltips), the vector
 * drawing for small meshes in SVG and PDF, and the colour bar.  Used from
 * one thread at a time (ks-plot.h), so nothing here is locked.  What
 * the screen and large meshes go through, a map from pixels to cells made
 * once per view, is in ks-plot-raster.c. */
#define G_LOG_DOMAIN "ks-plot-mesh"

#include "ks-plot-mesh-private.h"

#include <glib/gi18n-lib.h>

/* ------------------------------------------------------------------------ */
/* Colour maps                                                              */

#define MAX_STOPS 11

/* Evenly spaced stops of each map, interpolated linearly between them:
 * viridis and inferno as published with matplotlib (ten stops: viridisLite's
 * viridis(10) and inferno(10)), and ColorBrewer's 11-class RdBu reversed
 * (blue for low, white at the middle, red for high) for signed values. */
static const struct {
  guint   n;
  guint32 rgb[MAX_STOPS];
} stops[] = {
  [KS_PLOT_COLORMAP_VIRIDIS] = { 10, {
    0x440154, 0x482878, 0x3e4a89, 0x31688e, 0x26828e,
    0x1f9e89, 0x35b779, 0x6dcd59, 0xb4de2c, 0xfde725,
  } },
  [KS_PLOT_COLORMAP_INFERNO] = { 10, {
    0x000004, 0x1b0c42, 0x4b0c6b, 0x781c6d, 0xa52c60,
    0xcf4446, 0xed6925, 0xfb9a06, 0xf7d03c, 0xfcffa4,
  } },
  [KS_PLOT_COLORMAP_DIVERGING] = { 11, {
    0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7,
    0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b, 0x67001f,
  } },
};

static double
channel (guint32 rgb,
         int     shift)
{
  return ((rgb >> shift) & 0xff) / 255.0;
}

KsPlotColor
ks_plot_colormap_color (KsPlotColormap map,
                        double         t)
{
  KsPlotColor c = { 0, 0, 0, 1 };
  const guint32 *rgb;
  double pos, f;
  guint n, i;

  g_return_val_if_fail (map <= KS_PLOT_COLORMAP_DIVERGING, c);

  rgb = stops[map].rgb;
  n = stops[map].n;
  if (isnan (t))
    t = 0;
  pos = CLAMP (t, 0.0, 1.0) * (n - 1);
  i = (guint) MIN (floor (pos), n - 2);
  f = pos - i;
  c.r = channel (rgb[i], 16) * (1 - f) + channel (rgb[i + 1], 16) * f;
  c.g = channel (rgb[i], 8) * (1 - f) + channel (rgb[i + 1], 8) * f;
  c.b = channel (rgb[i], 0) * (1 - f) + channel (rgb[i + 1], 0) * f;
  return c;
}

void
ks_plot_colormap_lut (KsPlotColormap map,
                      guint32        lut[MESH_LUT_SIZE])
{
  for (guint i = 0; i < MESH_LUT_SIZE; i++)
    {
      KsPlotColor c = ks_plot_colormap_color (map, i / (MESH_LUT_SIZE - 1.0));

      lut[i] = 0xff000000u | (guint32) lround (c.r * 255) << 16
               | (guint32) lround (c.g * 255) << 8 | (guint32) lround (c.b * 255);
    }
}

/* ------------------------------------------------------------------------ */
/* Model                                                                    */

void
ks_plot_mesh_free (KsPlotMesh *mesh)
{
  if (mesh == NULL)
    return;
  ks_plot_raster_clear (mesh);
  g_free (mesh->grid_start);
  g_free (mesh->grid_cells);
  g_free (mesh->xy);
  g_free (mesh->cells);
  g_free (mesh->values);
  g_free (mesh->parts);
  g_free (mesh->label);
  g_free (mesh);
}

gboolean
ks_plot_set_mesh (KsPlot         *plot,
                  const double   *xy,
                  guint           n_nodes,
                  const guint32  *cells,
                  guint           n_cells,
                  GError        **error)
{
  KsPlotMesh *mesh;

  g_return_val_if_fail (plot != NULL, FALSE);
  g_return_val_if_fail (xy != NULL || n_nodes == 0, FALSE);
  g_return_val_if_fail (cells != NULL || n_cells == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The pixel map keeps a cell index in 31 bits (its top bit marks an
   * edge), and a cell list of 4 x 2^31 entries would not fit anyway. */
  if (n_cells >= MESH_EDGE_BIT)
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_MESH,
                   _("A mesh of %u cells is more than a plot can draw"), n_cells);
      return FALSE;
    }
  for (gsize i = 0; i < (gsize) n_cells * 4; i++)
    {
      gboolean triangle_end = i % 4 == 3 && cells[i] == KS_PLOT_MESH_TRIANGLE;

      if (cells[i] >= n_nodes && !triangle_end)
        {
          g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_MESH,
                       _("Mesh cell %zu names node %u, but the mesh has %u nodes"),
                       i / 4, cells[i], n_nodes);
          return FALSE;
        }
    }

  mesh = g_new0 (KsPlotMesh, 1);
  mesh->xy = g_memdup2 (xy, sizeof (double) * 2 * n_nodes);
  mesh->n_nodes = n_nodes;
  mesh->cells = g_memdup2 (cells, sizeof (guint32) * 4 * n_cells);
  mesh->n_cells = n_cells;
  mesh->values = g_new (double, MAX (n_cells, 1));
  for (guint i = 0; i < n_cells; i++)
    mesh->values[i] = NAN;
  mesh->vmin = mesh->vmax = NAN;
  mesh->map = KS_PLOT_COLORMAP_VIRIDIS;
  mesh->hatched = G_MAXUINT32;

  mesh->bx0 = mesh->by0 = INFINITY;
  mesh->bx1 = mesh->by1 = -INFINITY;
  for (guint i = 0; i < n_nodes; i++)
    if (isfinite (xy[2 * i]) && isfinite (xy[2 * i + 1]))
      {
        mesh->bx0 = MIN (mesh->bx0, xy[2 * i]);
        mesh->bx1 = MAX (mesh->bx1, xy[2 * i]);
        mesh->by0 = MIN (mesh->by0, xy[2 * i + 1]);
        mesh->by1 = MAX (mesh->by1, xy[2 * i + 1]);
      }

  g_clear_pointer (&plot->mesh, ks_plot_mesh_free);
  plot->mesh = mesh;
  plot->equal_aspect = TRUE;
  ks_plot_changed (plot);
  return TRUE;
}

void
ks_plot_set_mesh_values (KsPlot       *plot,
                         const double *values)
{
  KsPlotMesh *mesh;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);
  g_return_if_fail (values != NULL);

  mesh = plot->mesh;
  memcpy (mesh->values, values, sizeof (double) * mesh->n_cells);
  /* With a fixed colour range the layout (the colour bar's ticks included)
   * does not depend on the values, so a frame keeps the cached one. */
  if (!(isfinite (mesh->vmin) && isfinite (mesh->vmax)))
    ks_plot_changed (plot);
}

void
ks_plot_set_mesh_parts (KsPlot        *plot,
                        const guint32 *parts)
{
  KsPlotMesh *mesh;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);

  mesh = plot->mesh;
  g_clear_pointer (&mesh->parts, g_free);
  if (parts != NULL)
    mesh->parts = g_memdup2 (parts, sizeof (guint32) * mesh->n_cells);
  mesh->parts_generation++;
  ks_plot_changed (plot);
}

void
ks_plot_set_mesh_hatched_part (KsPlot  *plot,
                               guint32  part)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);

  plot->mesh->hatched = part;
  ks_plot_changed (plot);
}

gboolean
ks_plot_get_mesh_edges (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, FALSE);
  return plot->mesh != NULL && plot->mesh->edges;
}

void
ks_plot_set_mesh_colormap (KsPlot         *plot,
                           KsPlotColormap  map)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);
  g_return_if_fail (map <= KS_PLOT_COLORMAP_DIVERGING);

  plot->mesh->map = map;
  ks_plot_changed (plot);
}

void
ks_plot_set_mesh_range (KsPlot *plot,
                        double  min,
                        double  max)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);

  plot->mesh->vmin = min;
  plot->mesh->vmax = max;
  ks_plot_changed (plot);
}

gboolean
ks_plot_has_mesh (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, FALSE);
  return plot->mesh != NULL;
}

void
ks_plot_set_mesh_edges (KsPlot   *plot,
                        gboolean  show)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);

  plot->mesh->edges = !!show;
  ks_plot_changed (plot);
}

void
ks_plot_set_mesh_label (KsPlot     *plot,
                        const char *label)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (plot->mesh != NULL);

  g_free (plot->mesh->label);
  plot->mesh->label = g_strdup (label);
  ks_plot_changed (plot);
}

gboolean
ks_plot_mesh_bounds (KsPlotMesh *mesh,
                     double     *x0,
                     double     *x1,
                     double     *y0,
                     double     *y1)
{
  *x0 = mesh->bx0;
  *x1 = mesh->bx1;
  *y0 = mesh->by0;
  *y1 = mesh->by1;
  return mesh->bx0 <= mesh->bx1;
}

const char *
ks_plot_mesh_get_label (KsPlotMesh *mesh)
{
  return mesh->label;
}

gboolean
ks_plot_mesh_value_range (KsPlotMesh *mesh,
                          double     *vmin,
                          double     *vmax)
{
  double mn = INFINITY, mx = -INFINITY;

  if (isfinite (mesh->vmin) && isfinite (mesh->vmax))
    {
      mn = MIN (mesh->vmin, mesh->vmax);
      mx = MAX (mesh->vmin, mesh->vmax);
    }
  else
    {
      for (guint i = 0; i < mesh->n_cells; i++)
        if (isfinite (mesh->values[i]))
          {
            mn = MIN (mn, mesh->values[i]);
            mx = MAX (mx, mesh->values[i]);
          }
      if (isfinite (mesh->vmin))
        mn = mesh->vmin;
      if (isfinite (mesh->vmax))
        mx = mesh->vmax;
    }
  if (!(mn <= mx))
    return FALSE;
  /* One value everywhere, or values a few ULPs apart (a temperature that
   * has settled): a bar around it, the mesh in its middle colour. */
  ks_plot_range_widen_narrow (&mn, &mx, KS_PLOT_SCALE_LINEAR);
  *vmin = mn;
  *vmax = mx;
  return TRUE;
}

/* Is (x, y) in the triangle a b c (either winding)?  Edges count as
 * inside, so a point on the edge between two cells finds the first. */
static gboolean
in_triangle (const double *a,
             const double *b,
             const double *c,
             double        x,
             double        y)
{
  double d1 = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
  double d2 = (c[0] - b[0]) * (y - b[1]) - (c[1] - b[1]) * (x - b[0]);
  double d3 = (a[0] - c[0]) * (y - c[1]) - (a[1] - c[1]) * (x - c[0]);

  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
}

/* Does cell c contain (x, y)?  Cut as the raster cuts it
 * (ks-plot-raster.c); a cell with a node off the finite plane contains
 * nothing (the raster draws none of it). */
static gboolean
cell_contains (KsPlotMesh *mesh,
               guint       c,
               double      x,
               double      y)
{
  const guint32 *n = &mesh->cells[4 * (gsize) c];
  const double *p0 = &mesh->xy[2 * n[0]], *p1 = &mesh->xy[2 * n[1]], *p2 = &mesh->xy[2 * n[2]];
  const double *p3 = n[3] != KS_PLOT_MESH_TRIANGLE ? &mesh->xy[2 * n[3]] : NULL;

  if (!(isfinite (p0[0] + p0[1] + p1[0] + p1[1] + p2[0] + p2[1])
        && (p3 == NULL || isfinite (p3[0] + p3[1]))))
    return FALSE;
  if (p3 == NULL)
    return in_triangle (p0, p1, p2, x, y);
  if (!quad_cut_bd (p0[0], p0[1], p1[0], p1[1], p2[0], p2[1], p3[0], p3[1]))
    return in_triangle (p0, p1, p2, x, y) || in_triangle (p0, p2, p3, x, y);
  return in_triangle (p1, p2, p3, x, y) || in_triangle (p1, p3, p0, x, y);
}

gboolean
ks_plot_mesh_cell_walk (KsPlotMesh *mesh,
                        double      x,
                        double      y,
                        guint      *out_cell)
{
  for (guint c = 0; c < mesh->n_cells; c++)
    if (cell_contains (mesh, c, x, y))
      {
        *out_cell = c;
        return TRUE;
      }
  return FALSE;
}

/* The bucket of x along an axis of n buckets from x0, s per unit: the same
 * function for a point and for a cell's bounding box, so a cell that
 * contains a point is always listed in the point's bucket. */
static guint
grid_bucket (double x,
             double x0,
             double s,
             guint  n)
{
  double b = floor ((x - x0) * s);

  return (guint) CLAMP (b, 0.0, (double) n - 1);
}

static void
cell_bbox (KsPlotMesh *mesh,
           guint       c,
           double      box[4])
{
  const guint32 *n = &mesh->cells[4 * (gsize) c];
  guint k = n[3] == KS_PLOT_MESH_TRIANGLE ? 3 : 4;

  box[0] = box[2] = INFINITY;
  box[1] = box[3] = -INFINITY;
  for (guint j = 0; j < k; j++)
    {
      double x = mesh->xy[2 * n[j]], y = mesh->xy[2 * n[j] + 1];

      box[0] = MIN (box[0], x);
      box[1] = MAX (box[1], x);
      box[2] = MIN (box[2], y);
      box[3] = MAX (box[3], y);
    }
}

/* About one bucket per cell, shaped like the bounding box, filled in two
 * passes (count, then place) so each bucket lists its cells in cell order
 * and the lookup finds the same first cell the walk does. */
static void
grid_build (KsPlotMesh *mesh)
{
  double w = mesh->bx1 - mesh->bx0, h = mesh->by1 - mesh->by0;
  double aspect = w > 0 && h > 0 ? w / h : 1.0;
  guint nx, ny;
  gsize nb, total = 0;
  g_autofree gsize *fill = NULL;

  nx = (guint) CLAMP (round (sqrt (mesh->n_cells * aspect)), 1.0, 4096.0);
  ny = (guint) CLAMP (round (mesh->n_cells / (double) nx), 1.0, 4096.0);
  if (!(w > 0))
    nx = 1;
  if (!(h > 0))
    ny = 1;
  nb = (gsize) nx * ny;
  mesh->grid_sx = w > 0 ? nx / w : 0;
  mesh->grid_sy = h > 0 ? ny / h : 0;
  mesh->grid_start = g_new0 (gsize, nb + 1);

  for (int pass = 0; pass < 2; pass++)
    {
      for (guint c = 0; c < mesh->n_cells; c++)
        {
          double box[4];
          guint i0, i1, j0, j1;

          cell_bbox (mesh, c, box);
          if (!(isfinite (box[0] + box[1] + box[2] + box[3])))
            continue;   /* contains nothing, see cell_contains */
          i0 = grid_bucket (box[0], mesh->bx0, mesh->grid_sx, nx);
          i1 = grid_bucket (box[1], mesh->bx0, mesh->grid_sx, nx);
          j0 = grid_bucket (box[2], mesh->by0, mesh->grid_sy, ny);
          j1 = grid_bucket (box[3], mesh->by0, mesh->grid_sy, ny);
          if (pass == 0)
            {
              total += (gsize) (i1 - i0 + 1) * (j1 - j0 + 1);
              /* A few cells spanning the whole mesh would list themselves
               * in every bucket: past this the walk is the better index. */
              if (total > 8 * (gsize) mesh->n_cells + 65536)
                {
                  mesh->grid_nx = 0;
                  return;
                }
              for (guint j = j0; j <= j1; j++)
                for (guint i = i0; i <= i1; i++)
                  mesh->grid_start[(gsize) j * nx + i + 1]++;
            }
          else
            for (guint j = j0; j <= j1; j++)
              for (guint i = i0; i <= i1; i++)
                mesh->grid_cells[fill[(gsize) j * nx + i]++] = c;
        }
      if (pass == 0)
        {
          for (gsize b = 0; b < nb; b++)
            mesh->grid_start[b + 1] += mesh->grid_start[b];
          mesh->grid_cells = g_new (guint32, MAX (total, 1));
          fill = g_memdup2 (mesh->grid_start, sizeof (gsize) * nb);
        }
    }
  mesh->grid_nx = nx;
  mesh->grid_ny = ny;
}

gboolean
ks_plot_mesh_cell_find (KsPlotMesh *mesh,
                        double      x,
                        double      y,
                        guint      *out_cell)
{
  gsize b;

  if (!(x >= mesh->bx0 && x <= mesh->bx1 && y >= mesh->by0 && y <= mesh->by1))
    return FALSE;
  /* A walk over every cell takes ~18 ms at 10^6 cells, longer than a frame
   * for each motion event of a tooltip; the grid narrows it to the few
   * cells of one bucket. */
  if (mesh->grid_start == NULL)
    grid_build (mesh);
  if (mesh->grid_nx == 0)
    return ks_plot_mesh_cell_walk (mesh, x, y, out_cell);

  b = (gsize) grid_bucket (y, mesh->by0, mesh->grid_sy, mesh->grid_ny) * mesh->grid_nx
      + grid_bucket (x, mesh->bx0, mesh->grid_sx, mesh->grid_nx);
  for (gsize i = mesh->grid_start[b]; i < mesh->grid_start[b + 1]; i++)
    if (cell_contains (mesh, mesh->grid_cells[i], x, y))
      {
        *out_cell = mesh->grid_cells[i];
        return TRUE;
      }
  return FALSE;
}

gboolean
ks_plot_mesh_cell_at (KsPlot *plot,
                      double  width,
                      double  height,
                      double  px,
                      double  py,
                      guint  *out_cell,
                      double *out_value)
{
  KsPlotMesh *mesh;
  double x, y;
  guint cell;

  g_return_val_if_fail (plot != NULL, FALSE);

  mesh = plot->mesh;
  if (mesh == NULL || !ks_plot_device_to_data (plot, width, height, px, py, &x, &y)
      || !ks_plot_mesh_cell_find (mesh, x, y, &cell))
    return FALSE;
  if (out_cell != NULL)
    *out_cell = cell;
  if (out_value != NULL)
    *out_value = mesh->values[cell];
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */

/* Small meshes in SVG and PDF stay vector: a polygon per cell.  Above this
 * the field goes in as an image (at twice the resolution of the points),
 * which keeps the file a reasonable size. */
#define VECTOR_MAX_CELLS 20000

static gboolean
target_is_vector (cairo_t *cr)
{
  switch (cairo_surface_get_type (cairo_get_target (cr)))
    {
    case CAIRO_SURFACE_TYPE_PDF:
    case CAIRO_SURFACE_TYPE_PS:
    case CAIRO_SURFACE_TYPE_SVG:
    case CAIRO_SURFACE_TYPE_RECORDING:
    case CAIRO_SURFACE_TYPE_SCRIPT:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
cell_path (cairo_t      *cr,
           KsPlotMesh   *mesh,
           const Layout *lo,
           guint         c)
{
  const guint32 *n = &mesh->cells[4 * (gsize) c];
  guint k = n[3] == KS_PLOT_MESH_TRIANGLE ? 3 : 4;

  for (guint j = 0; j < k; j++)
    {
      double x = dev_x (lo, mesh->xy[2 * n[j]]), y = dev_y (lo, mesh->xy[2 * n[j] + 1]);

      if (j == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_close_path (cr);
}

typedef struct {
  guint64 key;    /* the edge's two nodes, smaller first */
  guint   cell;
  guint   side;
} EdgeRef;

static int
edge_ref_cmp (const void *a,
              const void *b)
{
  const EdgeRef *p = a, *q = b;

  return (p->key > q->key) - (p->key < q->key);
}

/* The borders of the parts, as vector segments: edges whose two cells lie
 * in different parts, and edges of one cell only (the mesh's own border
 * where a part meets it). */
static void
vector_part_outlines (cairo_t      *cr,
                      KsPlotMesh   *mesh,
                      const Layout *lo)
{
  g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (EdgeRef));

  for (guint c = 0; c < mesh->n_cells; c++)
    {
      const guint32 *n = &mesh->cells[4 * (gsize) c];
      guint k = n[3] == KS_PLOT_MESH_TRIANGLE ? 3 : 4;

      for (guint j = 0; j < k; j++)
        {
          guint32 u = n[j], v = n[(j + 1) % k];
          EdgeRef r = { (guint64) MIN (u, v) << 32 | MAX (u, v), c, j };

          g_array_append_val (refs, r);
        }
    }
  if (refs->len > 1)
    qsort (refs->data, refs->len, sizeof (EdgeRef), edge_ref_cmp);

  cairo_new_path (cr);
  for (guint i = 0; i < refs->len; )
    {
      EdgeRef *r = &g_array_index (refs, EdgeRef, i);
      EdgeRef *s = i + 1 < refs->len ? &g_array_index (refs, EdgeRef, i + 1) : NULL;
      gboolean pair = s != NULL && s->key == r->key;
      const guint32 *n = &mesh->cells[4 * (gsize) r->cell];
      guint k = n[3] == KS_PLOT_MESH_TRIANGLE ? 3 : 4;

      if (!pair || mesh->parts[r->cell] != mesh->parts[s->cell])
        {
          guint32 u = n[r->side], v = n[(r->side + 1) % k];

          cairo_move_to (cr, dev_x (lo, mesh->xy[2 * u]), dev_y (lo, mesh->xy[2 * u + 1]));
          cairo_line_to (cr, dev_x (lo, mesh->xy[2 * v]), dev_y (lo, mesh->xy[2 * v + 1]));
        }
      i += pair ? 2 : 1;
    }
}

/* Diagonal stripes over the hatched part's cells, half white and half
 * black lines so they show on any colour. */
static void
vector_hatch (cairo_t      *cr,
              KsPlotMesh   *mesh,
              const Layout *lo)
{
  const double w = lo->right - lo->left, h = lo->bottom - lo->top;

  if (mesh->hatched == G_MAXUINT32)
    return;
  cairo_save (cr);
  cairo_new_path (cr);
  for (guint c = 0; c < mesh->n_cells; c++)
    if (mesh->parts[c] == mesh->hatched && isfinite (mesh->values[c]))
      cell_path (cr, mesh, lo, c);
  cairo_clip (cr);
  cairo_new_path (cr);
  for (double d = -h; d < w; d += 8)
    {
      cairo_move_to (cr, lo->left + d, lo->bottom);
      cairo_line_to (cr, lo->left + d + h, lo->top);
    }
  cairo_set_line_width (cr, 2.0);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.45);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, 0.8);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.45);
  cairo_stroke (cr);
  cairo_restore (cr);
}

static void
draw_vector (cairo_t           *cr,
             KsPlotMesh        *mesh,
             const Layout      *lo,
             const KsPlotTheme *theme)
{
  for (guint c = 0; c < mesh->n_cells; c++)
    {
      KsPlotColor col;

      if (!isfinite (mesh->values[c]))
        continue;
      col = ks_plot_colormap_color (mesh->map, range_frac (lo->cb.f0, lo->cb.f1, mesh->values[c]));
      cairo_new_path (cr);
      cell_path (cr, mesh, lo, c);
      set_color (cr, &col, 1.0);
      /* A hairline of the cell's own colour closes the seams antialiasing
       * would leave between neighbours. */
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 0.5);
      cairo_stroke (cr);
    }

  /* Edges darken light cells and lighten dark ones, as on the screen
   * (ks-plot-raster.c): the theme's foreground vanished on inferno's black. */
  if (mesh->edges)
    for (int light = 0; light < 2; light++)
      {
        cairo_new_path (cr);
        for (guint c = 0; c < mesh->n_cells; c++)
          {
            KsPlotColor col = ks_plot_colormap_color (mesh->map, range_frac (lo->cb.f0, lo->cb.f1, mesh->values[c]));

            if (isfinite (mesh->values[c]) && (0.299 * col.r + 0.587 * col.g + 0.114 * col.b < 0.5) == light)
              cell_path (cr, mesh, lo, c);
          }
        cairo_set_line_width (cr, 0.6);
        if (light)
          cairo_set_source_rgba (cr, 1, 1, 1, 0.35);
        else
          cairo_set_source_rgba (cr, 0, 0, 0, 0.45);
        cairo_stroke (cr);
      }
  if (mesh->parts != NULL)
    {
      vector_hatch (cr, mesh, lo);
      /* The line on a band of the background's colour: it shows on the
       * darkest and the lightest cells of any map. */
      vector_part_outlines (cr, mesh, lo);
      cairo_set_line_width (cr, 4.0);
      set_color (cr, &theme->background, 1.0);
      cairo_stroke_preserve (cr);
      cairo_set_line_width (cr, 2.0);
      set_color (cr, &theme->foreground, 1.0);
      cairo_stroke (cr);
    }
}

void
ks_plot_draw_mesh (cairo_t           *cr,
                   KsPlot            *plot,
                   const Layout      *lo,
                   const KsPlotTheme *theme)
{
  KsPlotMesh *mesh = plot->mesh;

  if (lo->cbticks == NULL || lo->x.log || lo->y.log)
    return;   /* no values yet, or log axes, where a mesh has no meaning */

  if (target_is_vector (cr) && mesh->n_cells <= VECTOR_MAX_CELLS)
    draw_vector (cr, mesh, lo, theme);
  else
    ks_plot_raster_draw (cr, mesh, lo, target_is_vector (cr), plot->exporting, theme);
}

void
ks_plot_draw_colorbar (cairo_t           *cr,
                       KsPlot            *plot,
                       const TextStyle   *ts,
                       const Layout      *lo,
                       const KsPlotTheme *theme)
{
  const Rect *r = &lo->colorbar;
  cairo_pattern_t *grad = cairo_pattern_create_linear (0, r->y + r->h, 0, r->y);
  const char *label = ks_plot_mesh_get_label (plot->mesh);

  /* The stops the map is made of, so the bar shows the same colours as the
   * cells (to the interpolation between stops). */
  for (guint i = 0, n = stops[plot->mesh->map].n; i < n; i++)
    {
      KsPlotColor c = ks_plot_colormap_color (plot->mesh->map, i / (n - 1.0));

      cairo_pattern_add_color_stop_rgb (grad, i / (n - 1.0), c.r, c.g, c.b);
    }
  cairo_new_path (cr);
  cairo_rectangle (cr, r->x, r->y, r->w, r->h);
  cairo_set_source (cr, grad);
  cairo_fill (cr);
  cairo_pattern_destroy (grad);

  cairo_set_line_width (cr, 1.0);
  set_color (cr, &theme->foreground, 0.85);
  cairo_rectangle (cr, r->x - 0.5, r->y - 0.5, r->w + 1, r->h + 1);
  cairo_stroke (cr);

  ks_plot_draw_vaxis (cr, ts, lo, &lo->cb, lo->cbticks, r->x + r->w + 1, +1, theme);
  if (nonempty (label))
    ks_plot_show_vertical_label (cr, ts, lo, label, lo->width - lo->pad, TRUE);
}
