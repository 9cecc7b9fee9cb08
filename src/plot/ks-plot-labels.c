/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-labels.c: where a label may go without covering another label,
 * a marker or the data.
 *
 * Both questions a placement asks ("is this box clear of everything placed
 * so far?" and "how much data lies under it?") used to walk every placed
 * box and every point: a curve of 200,000 points with 18,000 labelled
 * primes took minutes.  Here each is answered from a uniform grid of
 * buckets, so a query looks only at what lies near the box. */
#define G_LOG_DOMAIN "ks-plot-labels"

#include "ks-plot-private.h"

/* Wide enough that a label spans a few buckets, narrow enough that a
 * crowded plot keeps each bucket short. */
#define BUCKET 32.0

typedef struct {
  double x0, y0;
  guint  cols, rows;
} Grid;

static void
grid_init (Grid       *g,
           const Rect *bounds)
{
  g->x0 = bounds->x;
  g->y0 = bounds->y;
  g->cols = (guint) CLAMP (ceil (bounds->w / BUCKET), 1.0, 4096.0);
  g->rows = (guint) CLAMP (ceil (bounds->h / BUCKET), 1.0, 4096.0);
}

/* Bucket index of a coordinate; what lies outside the bounds goes to the
 * edge buckets, so clamped ranges of two overlapping boxes still meet. */
static guint
grid_col (const Grid *g,
          double      x)
{
  double c = floor ((x - g->x0) / BUCKET);

  return (guint) CLAMP (c, 0.0, (double) g->cols - 1);
}

static guint
grid_row (const Grid *g,
          double      y)
{
  double r = floor ((y - g->y0) / BUCKET);

  return (guint) CLAMP (r, 0.0, (double) g->rows - 1);
}

/* ------------------------------------------------------------------------ */
/* Placed boxes                                                             */

struct _KsPlotObstacles {
  Grid    grid;
  GArray *rects;     /* Rect, everything placed */
  GArray **cells;    /* per bucket: guint indices into rects, or NULL */
};

KsPlotObstacles *
ks_plot_obstacles_new (const Rect *bounds)
{
  KsPlotObstacles *ob = g_new0 (KsPlotObstacles, 1);

  grid_init (&ob->grid, bounds);
  ob->rects = g_array_new (FALSE, FALSE, sizeof (Rect));
  ob->cells = g_new0 (GArray *, (gsize) ob->grid.cols * ob->grid.rows);
  return ob;
}

void
ks_plot_obstacles_free (KsPlotObstacles *ob)
{
  if (ob == NULL)
    return;
  for (gsize i = 0; i < (gsize) ob->grid.cols * ob->grid.rows; i++)
    if (ob->cells[i] != NULL)
      g_array_unref (ob->cells[i]);
  g_free (ob->cells);
  g_array_unref (ob->rects);
  g_free (ob);
}

void
ks_plot_obstacles_add (KsPlotObstacles *ob,
                       const Rect      *r)
{
  guint index = ob->rects->len;
  guint c0 = grid_col (&ob->grid, r->x), c1 = grid_col (&ob->grid, r->x + r->w);
  guint r0 = grid_row (&ob->grid, r->y), r1 = grid_row (&ob->grid, r->y + r->h);

  g_array_append_val (ob->rects, *r);
  for (guint row = r0; row <= r1; row++)
    for (guint col = c0; col <= c1; col++)
      {
        GArray **cell = &ob->cells[(gsize) row * ob->grid.cols + col];

        if (*cell == NULL)
          *cell = g_array_new (FALSE, FALSE, sizeof (guint));
        g_array_append_val (*cell, index);
      }
}

gboolean
ks_plot_obstacles_free_of (KsPlotObstacles *ob,
                           const Rect      *r)
{
  guint c0 = grid_col (&ob->grid, r->x), c1 = grid_col (&ob->grid, r->x + r->w);
  guint r0 = grid_row (&ob->grid, r->y), r1 = grid_row (&ob->grid, r->y + r->h);

  for (guint row = r0; row <= r1; row++)
    for (guint col = c0; col <= c1; col++)
      {
        GArray *cell = ob->cells[(gsize) row * ob->grid.cols + col];

        for (guint i = 0; cell != NULL && i < cell->len; i++)
          if (rect_overlaps (r, &g_array_index (ob->rects, Rect, g_array_index (cell, guint, i))))
            return FALSE;
      }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Data under a box                                                         */

typedef struct {
  double x, y;
  guint  weight;
} Sample;

/* The data as weighted samples: a point counts 4, and a line one for every
 * six device units of its length, so a box over a line counts as covering
 * it even between points.  Samples in bucket order (CSR). */
struct _KsPlotDataIndex {
  Grid     grid;
  Rect     area;
  guint   *start;     /* cols * rows + 1 */
  Sample  *samples;
};

typedef void (*SampleFunc) (double x, double y, guint weight, gpointer data);

typedef struct {
  SampleFunc func;
  gpointer   data;
} SampleVisit;

static void
sample_visit (const DevPoint *d,
              const DevPoint *e,
              gpointer        data)
{
  SampleVisit *v = data;

  v->func (d->x, d->y, 4, v->data);
  if (e != NULL)
    {
      double len = hypot (e->x - d->x, e->y - d->y);
      int k = (int) MIN (ceil (len / 6.0), 1000.0);

      for (int j = 1; j < k; j++)
        v->func (d->x + (e->x - d->x) * j / k, d->y + (e->y - d->y) * j / k, 1, v->data);
    }
}

static void
for_each_sample (GPtrArray  *dps,
                 SampleFunc  func,
                 gpointer    data)
{
  SampleVisit v = { func, data };

  ks_plot_dps_foreach (dps, sample_visit, &v);
}

static gboolean
in_rect (const Rect *r,
         double      x,
         double      y)
{
  return x >= r->x && x <= r->x + r->w && y >= r->y && y <= r->y + r->h;
}

typedef struct {
  KsPlotDataIndex *index;
  guint           *fill;   /* NULL while counting */
} Filling;

static void
count_or_fill (double   x,
               double   y,
               guint    weight,
               gpointer data)
{
  Filling *f = data;
  KsPlotDataIndex *di = f->index;
  gsize cell;

  /* Queries stay inside the plot area, so what lies outside never counts. */
  if (!in_rect (&di->area, x, y))
    return;
  cell = (gsize) grid_row (&di->grid, y) * di->grid.cols + grid_col (&di->grid, x);
  if (f->fill == NULL)
    di->start[cell + 1]++;
  else
    di->samples[f->fill[cell]++] = (Sample) { x, y, weight };
}

KsPlotDataIndex *
ks_plot_data_index_new (GPtrArray  *dps,
                        const Rect *area)
{
  KsPlotDataIndex *di = g_new0 (KsPlotDataIndex, 1);
  gsize n_cells;
  Filling f = { di, NULL };

  grid_init (&di->grid, area);
  di->area = *area;
  n_cells = (gsize) di->grid.cols * di->grid.rows;
  di->start = g_new0 (guint, n_cells + 1);
  for_each_sample (dps, count_or_fill, &f);
  for (gsize i = 0; i < n_cells; i++)
    di->start[i + 1] += di->start[i];
  di->samples = g_new (Sample, MAX (di->start[n_cells], 1));
  f.fill = g_memdup2 (di->start, n_cells * sizeof (guint));
  for_each_sample (dps, count_or_fill, &f);
  g_free (f.fill);
  return di;
}

void
ks_plot_data_index_free (KsPlotDataIndex *di)
{
  if (di == NULL)
    return;
  g_free (di->start);
  g_free (di->samples);
  g_free (di);
}

/* Weight of the samples in r; once past limit, any more than limit. */
static guint
coverage_up_to (const KsPlotDataIndex *di,
                const Rect            *r,
                guint                  limit)
{
  guint c0 = grid_col (&di->grid, r->x), c1 = grid_col (&di->grid, r->x + r->w);
  guint r0 = grid_row (&di->grid, r->y), r1 = grid_row (&di->grid, r->y + r->h);
  guint n = 0;

  for (guint row = r0; row <= r1; row++)
    for (guint col = c0; col <= c1; col++)
      {
        gsize cell = (gsize) row * di->grid.cols + col;

        for (guint i = di->start[cell]; i < di->start[cell + 1]; i++)
          if (in_rect (r, di->samples[i].x, di->samples[i].y))
            {
              n += di->samples[i].weight;
              if (n > limit)
                return n;
            }
      }
  return n;
}

guint
ks_plot_data_index_coverage (const KsPlotDataIndex *di,
                             const Rect            *r)
{
  return coverage_up_to (di, r, G_MAXUINT);
}

/* ------------------------------------------------------------------------ */
/* Placement                                                                */

/* The first candidate box, around a marker at (x, y) with radius r, that
 * is inside the plot area, clear of everything placed so far and of the
 * data; with may_cover, failing that, the one that hides the least data. */
gboolean
ks_plot_place_label (double                 x,
                     double                 y,
                     double                 r,
                     double                 w,
                     double                 h,
                     const Rect            *area,
                     KsPlotObstacles       *taken,
                     const KsPlotDataIndex *data,
                     gboolean               may_cover,
                     Rect                  *out)
{
  guint least = G_MAXUINT;

  double g = 2.0;
  Rect cands[] = {
    { x - w / 2,     y - r - g - h, w, h },   /* above */
    { x + r,         y - r - h,     w, h },   /* above right */
    { x - r - w,     y - r - h,     w, h },   /* above left */
    { x + r + g,     y - h / 2,     w, h },   /* right */
    { x - r - g - w, y - h / 2,     w, h },   /* left */
    { x - w / 2,     y + r + g,     w, h },   /* below */
    { x + r,         y + r,         w, h },   /* below right */
    { x - r - w,     y + r,         w, h },   /* below left */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cands); i++)
    {
      /* A little air between labels keeps neighbours legible. */
      Rect spaced = { cands[i].x - 2, cands[i].y - 1, w + 4, h + 2 };

      guint covered;

      if (!rect_contains (area, &cands[i]) || !ks_plot_obstacles_free_of (taken, &spaced))
        continue;
      /* Without may_cover only "none" matters: the first sample will do. */
      covered = coverage_up_to (data, &cands[i], may_cover ? G_MAXUINT : 0);
      if (covered == 0)
        {
          *out = cands[i];
          return TRUE;
        }
      if (may_cover && covered < least)
        {
          least = covered;
          *out = cands[i];
        }
    }
  return least != G_MAXUINT;
}
