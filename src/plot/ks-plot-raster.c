/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-raster.c: a mesh drawn through a map from pixels to cells.
 *
 * Filling a million polygons through cairo takes about a second; an
 * animation needs a frame in 16 ms.  So the cells are scan-converted once
 * per view (size, zoom, device scale) into a map that names the cell under
 * each pixel centre, and a frame is then a colour per cell (one lookup in
 * the colour map's table) and a colour per pixel (one load from the map),
 * painted as one image.  Cell edges and the borders between parts are
 * marked in the map too, so they cost a frame nothing extra.  The screen
 * and exports keep a map each, so saving a PNG at another size does not
 * cost the next frame on the screen a scan conversion. */
#define G_LOG_DOMAIN "ks-plot-raster"

#include "ks-plot-mesh-private.h"

#include <string.h>

/* An image embedded in SVG or PDF gets this many pixels per point, up to
 * MAX_VECTOR_PIXELS in all. */
#define VECTOR_SCALE      2.0
#define MAX_VECTOR_PIXELS (4 * 1024 * 1024)

struct _Raster {
  int              w, h;
  double           fx0, fx1, fy0, fy1;   /* the view it was made for */
  guint32         *cell;        /* w * h: cell index, MESH_EDGE_BIT, or MESH_NO_CELL */
  guint8          *outline;     /* w * h: 1 on a border between parts, 2 beside it; NULL without parts */
  guint            outline_generation;
  guint32         *colors;      /* per cell, this frame's (when fewer cells than pixels) */
  guint32          lut[MESH_LUT_SIZE];
  int              lut_map;     /* the KsPlotColormap in lut, -1 none yet */
  cairo_surface_t *image;       /* w x h, refilled each frame */
};

static gint n_built;

guint
ks_plot_raster_n_built (void)
{
  return (guint) g_atomic_int_get (&n_built);
}

static void
raster_free (Raster *r)
{
  if (r == NULL)
    return;
  g_free (r->cell);
  g_free (r->outline);
  g_free (r->colors);
  if (r->image != NULL)
    cairo_surface_destroy (r->image);
  g_free (r);
}

void
ks_plot_raster_clear (KsPlotMesh *mesh)
{
  g_clear_pointer (&mesh->raster, raster_free);
  g_clear_pointer (&mesh->export_raster, raster_free);
}

/* ------------------------------------------------------------------------ */
/* Scan conversion                                                          */

typedef struct {
  double x, y;
} Pt;

/* Every pixel whose centre lies in the triangle gets the cell.  Rows and
 * columns are half-open ([top, bottom) and [left, right) of the centres),
 * so two triangles sharing an edge leave no pixel out between them. */
static void
fill_triangle (Raster   *r,
               const Pt *a,
               const Pt *b,
               const Pt *c,
               guint32   cell)
{
  const Pt *v[3] = { a, b, c };
  double miny = MIN (a->y, MIN (b->y, c->y)), maxy = MAX (a->y, MAX (b->y, c->y));
  double minx = MIN (a->x, MIN (b->x, c->x)), maxx = MAX (a->x, MAX (b->x, c->x));
  int row0, row1;

  if (maxx < 0 || minx > r->w || maxy < 0 || miny > r->h || !(maxy > miny))
    return;
  row0 = (int) MAX (0.0, ceil (miny - 0.5));
  row1 = (int) MIN ((double) r->h - 1, ceil (maxy - 0.5) - 1);

  for (int row = row0; row <= row1; row++)
    {
      double yc = row + 0.5, xl = INFINITY, xr = -INFINITY;
      int c0, c1;
      guint32 *line;

      for (int e = 0; e < 3; e++)
        {
          const Pt *p = v[e], *q = v[(e + 1) % 3];

          if (p->y == q->y || yc < MIN (p->y, q->y) || yc >= MAX (p->y, q->y))
            continue;
          {
            double x = p->x + (yc - p->y) * (q->x - p->x) / (q->y - p->y);
            xl = MIN (xl, x);
            xr = MAX (xr, x);
          }
        }
      if (!(xl <= xr))
        continue;
      /* Clamped before the cast: an edge far outside the view is no int. */
      c0 = (int) CLAMP (ceil (xl - 0.5), 0.0, (double) r->w);
      c1 = (int) CLAMP (ceil (xr - 0.5) - 1, -1.0, (double) r->w - 1);
      line = r->cell + (gsize) row * r->w;
      for (int col = c0; col <= c1; col++)
        line[col] = cell;
    }
}

/* A pixel on the border of its cell: the one right of it or below it
 * belongs to another cell (or none). */
static void
mark_edges (Raster *r)
{
  for (int y = 0; y < r->h; y++)
    for (int x = 0; x < r->w; x++)
      {
        gsize i = (gsize) y * r->w + x;
        guint32 c = r->cell[i] & ~MESH_EDGE_BIT;

        if (r->cell[i] == MESH_NO_CELL)
          continue;
        if ((x + 1 < r->w && (r->cell[i + 1] & ~MESH_EDGE_BIT) != c)
            || (y + 1 < r->h && (r->cell[i + r->w] & ~MESH_EDGE_BIT) != c))
          r->cell[i] |= MESH_EDGE_BIT;
      }
}

static Raster *
raster_new (KsPlotMesh   *mesh,
            const Layout *lo,
            int           w,
            int           h)
{
  Raster *r = g_new0 (Raster, 1);
  double sx = w / (lo->x.f1 - lo->x.f0), sy = h / (lo->y.f1 - lo->y.f0);

  r->w = w;
  r->h = h;
  r->fx0 = lo->x.f0;
  r->fx1 = lo->x.f1;
  r->fy0 = lo->y.f0;
  r->fy1 = lo->y.f1;
  r->lut_map = -1;
  r->cell = g_new (guint32, (gsize) w * h);
  memset (r->cell, 0xff, sizeof (guint32) * w * h);   /* MESH_NO_CELL */
  r->colors = g_new (guint32, MAX (mesh->n_cells, 1));

  for (guint c = 0; c < mesh->n_cells; c++)
    {
      const guint32 *n = &mesh->cells[4 * (gsize) c];
      guint k = n[3] == KS_PLOT_MESH_TRIANGLE ? 3 : 4;
      Pt p[4];

      for (guint j = 0; j < k; j++)
        {
          p[j].x = (mesh->xy[2 * n[j]] - r->fx0) * sx;
          p[j].y = (r->fy1 - mesh->xy[2 * n[j] + 1]) * sy;
        }
      if (k == 3)
        fill_triangle (r, &p[0], &p[1], &p[2], c);
      else if (!quad_cut_bd (p[0].x, p[0].y, p[1].x, p[1].y, p[2].x, p[2].y, p[3].x, p[3].y))
        {
          fill_triangle (r, &p[0], &p[1], &p[2], c);
          fill_triangle (r, &p[0], &p[2], &p[3], c);
        }
      else
        {
          fill_triangle (r, &p[1], &p[2], &p[3], c);
          fill_triangle (r, &p[1], &p[3], &p[0], c);
        }
    }
  mark_edges (r);

  r->image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  g_atomic_int_inc (&n_built);
  return r;
}

/* Pixels on either side of a border between parts (or between a part and
 * outside the mesh): a line two pixels wide. */
static void
mark_outline (Raster     *r,
              KsPlotMesh *mesh)
{
  gsize n = (gsize) r->w * r->h;

  g_clear_pointer (&r->outline, g_free);
  r->outline_generation = mesh->parts_generation;
  if (mesh->parts == NULL)
    return;
  r->outline = g_new0 (guint8, n);

  for (int y = 0; y < r->h; y++)
    for (int x = 0; x < r->w; x++)
      {
        gsize i = (gsize) y * r->w + x;
        guint32 c = r->cell[i];
        gint64 part = c == MESH_NO_CELL ? -1 : (gint64) mesh->parts[c & ~MESH_EDGE_BIT];
        gsize nb[2] = { i + 1, i + r->w };
        gboolean ok[2] = { x + 1 < r->w, y + 1 < r->h };

        for (int k = 0; k < 2; k++)
          {
            guint32 d;
            gint64 other;

            if (!ok[k])
              continue;
            d = r->cell[nb[k]];
            other = d == MESH_NO_CELL ? -1 : (gint64) mesh->parts[d & ~MESH_EDGE_BIT];
            if (other != part)
              r->outline[i] = r->outline[nb[k]] = 1;
          }
      }
  /* A pixel of the background's colour either side of the line, so the
   * border shows on the darkest and the lightest cells of any map (the
   * foreground alone vanished on inferno's black). */
  for (int y = 0; y < r->h; y++)
    for (int x = 0; x < r->w; x++)
      {
        gsize i = (gsize) y * r->w + x;

        if (r->outline[i] == 0 &&
            ((x > 0 && r->outline[i - 1] == 1) || (x + 1 < r->w && r->outline[i + 1] == 1) ||
             (y > 0 && r->outline[i - r->w] == 1) || (y + 1 < r->h && r->outline[i + r->w] == 1)))
          r->outline[i] = 2;
      }
}

/* ------------------------------------------------------------------------ */
/* A frame                                                                  */

static guint32
premultiply (const KsPlotColor *c,
             double             alpha)
{
  double a = c->a * alpha;

  return (guint32) lround (a * 255) << 24 | (guint32) lround (c->r * a * 255) << 16
         | (guint32) lround (c->g * a * 255) << 8 | (guint32) lround (c->b * a * 255);
}

/* src over an opaque dst, both premultiplied ARGB. */
static guint32
over (guint32 src,
      guint32 dst)
{
  guint32 ia = 255 - (src >> 24), out = 0;

  for (int shift = 0; shift < 32; shift += 8)
    {
      guint32 s = (src >> shift) & 0xff, d = (dst >> shift) & 0xff;
      out |= MIN (255u, s + (d * ia + 127) / 255) << shift;
    }
  return out;
}

/* A stripe of the hatch (or a cell edge) over an opaque cell colour:
 * lighter on a dark cell, darker on a light one, so it shows on every
 * map. */
static gboolean
dark (guint32 col)
{
  return (((col >> 16) & 0xff) * 299 + ((col >> 8) & 0xff) * 587 + (col & 0xff) * 114) / 1000 < 128;
}

static guint32
hatch (guint32 col)
{
  return dark (col) ? over (0x99999999u, col) : over (0x73000000u, col);
}

/* A value's colour through the map's table; transparent (the background
 * shows) for a cell without one. */
typedef struct {
  const double  *values;
  const guint32 *lut;
  double         v0, scale;   /* half the bar's bottom; LUT steps per half unit */
} ValueColors;

static inline guint32
value_color (const ValueColors *vc,
             guint32            cell)
{
  double v = vc->values[cell];
  double t;

  if (!isfinite (v))
    return 0;
  t = CLAMP ((v * 0.5 - vc->v0) * vc->scale + 0.5, 0.0, MESH_LUT_SIZE - 1);
  return vc->lut[(guint) t];
}

static ValueColors
value_colors (Raster       *r,
              KsPlotMesh   *mesh,
              const Layout *lo)
{
  /* In halves, which do not overflow for a bar of -1e308..1e308. */
  ValueColors vc = { mesh->values, r->lut, lo->cb.f0 * 0.5,
                     (MESH_LUT_SIZE - 1) / (lo->cb.f1 * 0.5 - lo->cb.f0 * 0.5) };

  if (r->lut_map != (int) mesh->map)
    {
      ks_plot_colormap_lut (mesh->map, r->lut);
      r->lut_map = mesh->map;
    }
  return vc;
}

/* Fewer cells than pixels: each cell's colour once, then a load per pixel.
 * More cells than pixels (a million at 1200 x 800): the colour of only the
 * cells that show, straight from the value under each pixel. */
static void
frame_pixels (Raster            *r,
              KsPlotMesh        *mesh,
              const Layout      *lo,
              const KsPlotTheme *theme)
{
  ValueColors vc = value_colors (r, mesh, lo);
  gboolean per_cell = mesh->n_cells <= (gsize) r->w * r->h;
  /* Edges darken light cells and lighten dark ones (inferno's black):
   * the theme's foreground did only one of the two. */
  guint32 edge = 0x73000000u, light_edge = 0x59595959u;
  guint32 border = premultiply (&theme->foreground, 1.0);
  guint32 halo = premultiply (&theme->background, 1.0);
  gboolean edges = mesh->edges;
  unsigned char *data;
  int stride;

  if (per_cell)
    for (guint c = 0; c < mesh->n_cells; c++)
      r->colors[c] = value_color (&vc, c);

  cairo_surface_flush (r->image);
  data = cairo_image_surface_get_data (r->image);
  stride = cairo_image_surface_get_stride (r->image);

  for (int y = 0; y < r->h; y++)
    {
      guint32 *out = (guint32 *) (data + (gsize) y * stride);
      const guint32 *map = r->cell + (gsize) y * r->w;
      const guint8 *outline = r->outline != NULL ? r->outline + (gsize) y * r->w : NULL;

      for (int x = 0; x < r->w; x++)
        {
          guint32 m = map[x], c = m & ~MESH_EDGE_BIT, col;

          if (m == MESH_NO_CELL)
            {
              out[x] = 0;
              continue;
            }
          col = per_cell ? r->colors[c] : value_color (&vc, c);
          if (col != 0 && mesh->parts != NULL && mesh->parts[c] == mesh->hatched && (x + y) % 8 < 2)
            col = hatch (col);
          out[x] = (m & MESH_EDGE_BIT) && edges && col != 0 ? over (dark (col) ? light_edge : edge, col) : col;
        }
      if (outline != NULL)
        for (int x = 0; x < r->w; x++)
          if (outline[x] != 0)
            out[x] = outline[x] == 1 ? border : halo;
    }
  cairo_surface_mark_dirty (r->image);
}

/* Device pixels per user unit of cr: the surface's device scale (HiDPI)
 * times the transformation's. */
static double
device_scale (cairo_t *cr)
{
  double sx = 1, sy = 1, ux = 1, uy = 0;

  cairo_surface_get_device_scale (cairo_get_target (cr), &sx, &sy);
  cairo_user_to_device_distance (cr, &ux, &uy);
  return MAX (hypot (ux, uy) * sx, 1e-3);
}

void
ks_plot_raster_draw (cairo_t           *cr,
                     KsPlotMesh        *mesh,
                     const Layout      *lo,
                     gboolean           vector_target,
                     gboolean           export,
                     const KsPlotTheme *theme)
{
  double aw = lo->right - lo->left, ah = lo->bottom - lo->top;
  double scale = vector_target ? VECTOR_SCALE : device_scale (cr);
  Raster **slot = export ? &mesh->export_raster : &mesh->raster;
  Raster *r = *slot;
  int w, h;

  if (vector_target && aw * ah * scale * scale > MAX_VECTOR_PIXELS)
    scale = sqrt (MAX_VECTOR_PIXELS / (aw * ah));
  w = (int) MAX (1.0, ceil (aw * scale - 1e-6));
  h = (int) MAX (1.0, ceil (ah * scale - 1e-6));
  /* Past this the map alone would take gigabytes. */
  if ((double) w * h > 64.0 * 1024 * 1024)
    return;

  if (r == NULL || r->w != w || r->h != h || r->fx0 != lo->x.f0 || r->fx1 != lo->x.f1
      || r->fy0 != lo->y.f0 || r->fy1 != lo->y.f1)
    {
      raster_free (r);
      r = *slot = raster_new (mesh, lo, w, h);
      mark_outline (r, mesh);
    }
  else if (r->outline_generation != mesh->parts_generation)
    mark_outline (r, mesh);

  frame_pixels (r, mesh, lo, theme);

  cairo_save (cr);
  cairo_translate (cr, lo->left, lo->top);
  cairo_scale (cr, aw / w, ah / h);
  cairo_set_source_surface (cr, r->image, 0, 0);
  /* Cells are flat colour: no smoothing between pixels. */
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
}
