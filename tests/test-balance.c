/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-balance.c: paper 004's balance formulas (ks-balance.c) and the
 * partition of cells among processes (ks-partition.c). */
#define G_LOG_DOMAIN "ks-test"

#include "ks-balance.h"
#include "ks-halo.h"
#include "ks-partition.h"

#include <math.h>
#include <string.h>

static void
test_formulas (void)
{
  /* The paper's example: 8 GPUs at lambda_b = 3.2 gain at most 3.8 %. */
  g_assert_cmpfloat_with_epsilon (ks_balance_gain_bound (3.2, 1.0, 8), 1 / 26.6, 1e-12);
  /* The H200 node of 2026-11-23: 4,250 GB/s against 89 GB/s. */
  g_assert_cmpfloat_with_epsilon (ks_balance_lambda_b (4250, 89), 47.752808988764, 1e-9);
  g_assert_cmpfloat_with_epsilon (ks_balance_gain_bound (4250, 89, 1), 89.0 / 4339, 1e-12);
  g_assert_true (isnan (ks_balance_lambda_b (0, 89)));
  g_assert_true (isnan (ks_balance_lambda_b (4250, NAN)));
  g_assert_true (isnan (ks_balance_gain_bound (4250, 89, 0)));
}

static void
assert_split (guint64 n,
              guint   r_gpu,
              guint   r_cpu,
              double  lambda)
{
  g_autofree guint64 *counts = g_new0 (guint64, r_gpu + r_cpu);
  g_autofree double *exact = g_new (double, r_gpu + r_cpu);
  g_autoptr(GError) error = NULL;
  guint64 sum = 0;
  guint tiny = 0;

  g_assert_true (ks_balance_split (n, r_gpu, r_cpu, lambda, counts, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < r_gpu + r_cpu; i++)
    {
      exact[i] = r_cpu == 0 || isinf (lambda) ? (i < r_gpu ? (double) n / r_gpu : 0)
               : r_gpu == 0 ? (double) n / r_cpu
               : i < r_gpu ? n * lambda / (lambda * r_gpu + 1)
               : n / (double) r_cpu / (lambda * r_gpu + 1);
      tiny += exact[i] > 0 && exact[i] < 1;
    }
  for (guint i = 0; i < r_gpu + r_cpu; i++)
    {
      /* Formula (5), each within a cell of its exact share, and within
       * one more for every share under a cell that was given one. */
      g_assert_cmpfloat (fabs ((double) counts[i] - exact[i]), <=, 1.0 + tiny + 1e-9);
      g_assert_true (exact[i] == 0 ? counts[i] == 0 : counts[i] >= 1);
      sum += counts[i];
    }
  g_assert_cmpuint (sum, ==, n);
}

static void
test_split (void)
{
  guint64 counts[16];
  g_autoptr(GError) error = NULL;

  /* One GPU process and 15 CPU processes at the paper's lambda_b. */
  g_assert_true (ks_balance_split (1000000, 1, 15, 3.2, counts, &error));
  g_assert_cmpuint (counts[0], ==, 761905);   /* 10^6 * 3.2 / 4.2 */
  /* lambda comes back from the sizes (within rounding). */
  g_assert_cmpfloat_with_epsilon ((double) counts[0] / (15.0 * counts[1]), 3.2, 1e-3);
  /* ks_balance_lambda_of reads formula (5) backwards: what a split (a
   * partition file's) amounts to, per GPU process over all CPU cells. */
  g_assert_cmpfloat_with_epsilon (ks_balance_lambda_of (counts[0], 1, 1000000 - counts[0]), 3.2, 1e-5);
  g_assert_true (ks_balance_split (1000000, 2, 14, 47.75, counts, &error));
  g_assert_cmpfloat_with_epsilon (ks_balance_lambda_of (counts[0] + counts[1], 2, 1000000 - counts[0] - counts[1]),
                                  47.75, 1e-2);
  g_assert_cmpfloat (ks_balance_lambda_of (0, 1, 100), ==, 0);
  g_assert_true (isinf (ks_balance_lambda_of (100, 1, 0)));
  g_assert_true (isnan (ks_balance_lambda_of (NAN, 1, 100)));
  assert_split (1000000, 1, 15, 3.2);
  assert_split (1000000, 2, 14, 47.75);
  assert_split (1000, 4, 12, 0.5);
  assert_split (17, 1, 3, 1.0);           /* spare cells to the largest remainders */
  assert_split (1000, 1, 15, 0);          /* all on the CPU */
  assert_split (1000, 2, 14, INFINITY);   /* all on the GPUs */
  assert_split (1000, 0, 4, 3.2);         /* no GPU: lambda does not matter */
  assert_split (1000, 4, 0, 3.2);
  for (guint k = 0; k < 200; k++)
    assert_split (g_test_rand_int_range (16, 100000), g_test_rand_int_range (1, 5),
                  g_test_rand_int_range (1, 12), g_test_rand_double_range (0, 60));
  /* A share too small to round to a cell still gets one. */
  g_assert_true (ks_balance_split (20, 1, 15, 1e-4, counts, &error));
  g_assert_cmpuint (counts[0], ==, 1);

  g_assert_false (ks_balance_split (1000, 1, 15, -1, counts, &error));
  g_assert_error (error, KS_BALANCE_ERROR, KS_BALANCE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (ks_balance_split (1000, 1, 15, NAN, counts, &error));
  g_assert_error (error, KS_BALANCE_ERROR, KS_BALANCE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (ks_balance_split (1000, 0, 0, 1, counts, &error));
  g_assert_error (error, KS_BALANCE_ERROR, KS_BALANCE_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (ks_balance_split (10, 1, 15, 1, counts, &error));
  g_assert_error (error, KS_BALANCE_ERROR, KS_BALANCE_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "at least one"));
}

/* A W x H grid of cells, each a neighbour of the 8 around it (the
 * stencil of a quad mesh), centres at the cells' middles. */
typedef struct {
  guint   n;
  guint  *xadj, *adjncy;
  double *centres;
} Grid;

static void
grid_init (Grid *g,
           guint w,
           guint h)
{
  GArray *adj = g_array_new (FALSE, FALSE, sizeof (guint));

  g->n = w * h;
  g->xadj = g_new (guint, g->n + 1);
  g->centres = g_new (double, 2 * g->n);
  for (guint j = 0, c = 0; j < h; j++)
    for (guint i = 0; i < w; i++, c++)
      {
        g->xadj[c] = adj->len;
        g->centres[2 * c] = i + 0.5;
        g->centres[2 * c + 1] = j + 0.5;
        for (int dj = -1; dj <= 1; dj++)
          for (int di = -1; di <= 1; di++)
            {
              int ni = (int) i + di, nj = (int) j + dj;
              guint k;

              if ((di || dj) && ni >= 0 && nj >= 0 && ni < (int) w && nj < (int) h)
                {
                  k = nj * w + ni;
                  g_array_append_val (adj, k);
                }
            }
      }
  g->xadj[g->n] = adj->len;
  g->adjncy = (guint *) g_array_free (adj, FALSE);
}

static void
grid_clear (Grid *g)
{
  g_free (g->xadj);
  g_free (g->adjncy);
  g_free (g->centres);
}

static void
count_parts (const guint *part,
             guint        n,
             guint        n_parts,
             guint64     *sizes)
{
  memset (sizes, 0, n_parts * sizeof *sizes);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (part[i], <, n_parts);
      sizes[part[i]]++;
    }
}

static void
test_partition (void)
{
  Grid g;
  const guint64 counts[] = { 600, 300, 300, 0 };
  g_autofree guint *part = NULL;
  g_autoptr(GError) error = NULL;
  guint64 sizes[4], cut_geo = 0, cut_metis = 0;

  grid_init (&g, 40, 30);
  part = g_new (guint, g.n);

  /* Geometric: the exact counts in strips.  Parts 0 and 1 (900 cells)
   * against 2 and 3 (300) across the longer side, x: a cut at column 30;
   * then the 30 x 30 left square at column 20.  Each vertical cut of
   * height 30 cuts 30 links across and 2 x 29 diagonals. */
  g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, g.n, g.xadj, g.adjncy, g.centres, 4, counts,
                                     part, &cut_geo, &error));
  g_assert_no_error (error);
  count_parts (part, g.n, 4, sizes);
  g_assert_cmpmem (sizes, sizeof sizes, counts, sizeof counts);
  g_assert_cmpuint (part[0], ==, 0);                  /* the left half is part 0 */
  g_assert_cmpuint (part[25], ==, 1);
  g_assert_cmpuint (part[g.n - 1], ==, 2);
  g_assert_cmpuint (cut_geo, ==, 2 * (30 + 2 * 29));

  if (ks_partition_have_metis ())
    {
      /* METIS: the exact counts (its parts, then cells moved across the
       * borders), the empty part left empty, and a cut no worse than the
       * strips'. */
      g_assert_true (ks_partition_cells (KS_PARTITION_METIS, g.n, g.xadj, g.adjncy, NULL, 4, counts, part,
                                         &cut_metis, &error));
      g_assert_no_error (error);
      count_parts (part, g.n, 4, sizes);
      g_assert_cmpmem (sizes, sizeof sizes, counts, sizeof counts);
      g_assert_cmpuint (cut_metis, >, 0);
      g_assert_cmpuint (cut_metis, <=, cut_geo * 5 / 4);
    }
  else
    {
      g_assert_false (ks_partition_cells (KS_PARTITION_METIS, g.n, g.xadj, g.adjncy, NULL, 4, counts, part,
                                          NULL, &error));
      g_assert_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_UNSUPPORTED);
      g_clear_error (&error);
    }

  /* METIS with one part far larger than the others (lambda 32, as the
   * paper's GPU beside CPU processes): k-way left the small parts empty
   * (its 3 % on the large part is more than their whole share); recursive
   * bisection, then cells handed across the borders, give every part its
   * exact count, the cut still below the geometric strips'. */
  if (ks_partition_have_metis ())
    {
      Grid big;
      guint64 two[2], sixteen[16], got[16], cut_strips = 0;
      g_autofree guint *p2 = NULL;

      grid_init (&big, 200, 150);
      p2 = g_new (guint, big.n);
      g_assert_true (ks_balance_split (big.n, 1, 1, 32, two, NULL));
      g_assert_true (ks_balance_split (big.n, 1, 15, 32, sixteen, NULL));
      g_assert_true (ks_partition_cells (KS_PARTITION_METIS, big.n, big.xadj, big.adjncy, NULL, 2, two, p2,
                                         &cut_metis, &error));
      count_parts (p2, big.n, 2, got);
      g_assert_cmpmem (got, 2 * sizeof *got, two, sizeof two);
      g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, big.n, big.xadj, big.adjncy, big.centres, 2, two, p2,
                                         &cut_strips, &error));
      g_test_message ("lambda 32, 2 parts of %u cells: METIS cuts %" G_GUINT64_FORMAT ", the strips %" G_GUINT64_FORMAT,
                      big.n, cut_metis, cut_strips);
      g_assert_cmpuint (cut_metis, <=, cut_strips);
      g_assert_true (ks_partition_cells (KS_PARTITION_METIS, big.n, big.xadj, big.adjncy, NULL, 16, sixteen, p2,
                                         &cut_metis, &error));
      count_parts (p2, big.n, 16, got);
      g_assert_cmpmem (got, sizeof got, sixteen, sizeof sixteen);
      g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, big.n, big.xadj, big.adjncy, big.centres, 16, sixteen,
                                         p2, &cut_strips, &error));
      g_test_message ("lambda 32, 1 + 15 parts: METIS cuts %" G_GUINT64_FORMAT ", the strips %" G_GUINT64_FORMAT,
                      cut_metis, cut_strips);
      g_assert_cmpuint (cut_metis, <=, cut_strips);
      grid_clear (&big);
    }

  /* One part only: everything in it, nothing cut. */
  {
    const guint64 one[] = { 0, 1200 };
    g_assert_true (ks_partition_cells (KS_PARTITION_METIS, g.n, g.xadj, g.adjncy, NULL, 2, one, part,
                                       &cut_metis, &error));
    g_assert_cmpuint (cut_metis, ==, 0);
    g_assert_cmpuint (part[17], ==, 1);
  }

  /* Bad input. */
  {
    const guint64 wrong[] = { 600, 599 };
    g_assert_false (ks_partition_cells (KS_PARTITION_GEOMETRIC, g.n, g.xadj, g.adjncy, g.centres, 2, wrong,
                                        part, NULL, &error));
    g_assert_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "1199"));
    g_clear_error (&error);
    g_assert_false (ks_partition_cells (KS_PARTITION_GEOMETRIC, g.n, NULL, NULL, NULL, 4, counts, part, NULL,
                                        &error));
    g_assert_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID);
    g_clear_error (&error);
    g.adjncy[5] = g.n;
    g_assert_false (ks_partition_cells (KS_PARTITION_GEOMETRIC, g.n, g.xadj, g.adjncy, g.centres, 4, counts,
                                        part, NULL, &error));
    g_assert_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "past the last cell"));
  }
  grid_clear (&g);
}

/* Every part's numbering as ks-halo.h promises it, and a SpMV done part
 * by part, each reading its virtual cells through the send lists, equal
 * to the whole one. */
static void
check_halo (const Grid  *g,
            const guint *part,
            guint        n_parts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsHalo) halo = ks_halo_new (g->n, g->xadj, g->adjncy, part, n_parts, &error);
  g_autofree double *val = g_new (double, g->xadj[g->n]);
  g_autofree double *x = g_new (double, g->n);
  g_autofree double *y = g_new (double, g->n);
  g_autofree double **xl = g_new0 (double *, n_parts);
  guint owned = 0;

  g_assert_no_error (error);
  /* A symmetric matrix on the graph (no diagonal: the graph has none). */
  for (guint i = 0; i < g->n; i++)
    {
      x[i] = g_test_rand_double_range (-1, 1);
      for (guint k = g->xadj[i]; k < g->xadj[i + 1]; k++)
        val[k] = 1.0 / (1 + i + g->adjncy[k]);
    }
  for (guint i = 0; i < g->n; i++)
    {
      y[i] = 0;
      for (guint k = g->xadj[i]; k < g->xadj[i + 1]; k++)
        y[i] += val[k] * x[g->adjncy[k]];
    }

  for (guint p = 0; p < n_parts; p++)
    {
      const KsHaloPart *hp = ks_halo_get_part (halo, p);

      owned += hp->n_owned;
      xl[p] = g_new (double, hp->n_owned + hp->n_virtual + 1);
      for (guint l = 0; l < hp->n_owned; l++)
        {
          g_assert_cmpuint (part[hp->global[l]], ==, p);
          g_assert_cmpint (ks_halo_local (halo, p, hp->global[l]), ==, l);
          xl[p][l] = x[hp->global[l]];
        }
      for (guint l = hp->n_owned; l < hp->n_owned + hp->n_virtual; l++)
        {
          g_assert_cmpuint (part[hp->global[l]], !=, p);
          g_assert_cmpint (ks_halo_local (halo, p, hp->global[l]), ==, l);
          /* Grouped by owner, in global order within a group. */
          if (l > hp->n_owned && part[hp->global[l]] == part[hp->global[l - 1]])
            g_assert_cmpuint (hp->global[l], >, hp->global[l - 1]);
          else if (l > hp->n_owned)
            g_assert_cmpuint (part[hp->global[l]], >, part[hp->global[l - 1]]);
        }
    }
  g_assert_cmpuint (owned, ==, g->n);

  /* The exchange: p's virtual range from q is q's send list to p. */
  for (guint p = 0; p < n_parts; p++)
    {
      const KsHaloPart *hp = ks_halo_get_part (halo, p);

      for (guint j = 0; j < hp->n_neighbours; j++)
        {
          const KsHaloNeighbour *from = &hp->neighbours[j];
          const KsHaloPart *hq = ks_halo_get_part (halo, from->part);
          const KsHaloNeighbour *back = NULL;

          for (guint k = 0; k < hq->n_neighbours; k++)
            if (hq->neighbours[k].part == p)
              back = &hq->neighbours[k];
          g_assert_nonnull (back);
          g_assert_cmpuint (back->n_send, ==, from->n_recv);
          for (guint i = 0; i < from->n_recv; i++)
            {
              g_assert_cmpuint (back->send[i], >=, hq->n_interior);
              g_assert_cmpuint (back->send[i], <, hq->n_owned);
              g_assert_cmpuint (hq->global[back->send[i]], ==, hp->global[from->recv_first + i]);
              xl[p][from->recv_first + i] = xl[from->part][back->send[i]];
            }
        }
    }

  for (guint p = 0; p < n_parts; p++)
    {
      const KsHaloPart *hp = ks_halo_get_part (halo, p);
      g_autofree guint *rp = NULL;
      g_autofree guint *col = NULL;
      g_autofree double *v = NULL;

      ks_halo_local_rows (halo, p, g->xadj, g->adjncy, val, &rp, &col, &v);
      for (guint l = 0; l < hp->n_owned; l++)
        {
          double sum = 0;
          gboolean reads_virtual = FALSE;

          for (guint k = rp[l]; k < rp[l + 1]; k++)
            {
              if (k > rp[l])
                g_assert_cmpuint (col[k], >, col[k - 1]);
              reads_virtual |= col[k] >= hp->n_owned;
              sum += v[k] * xl[p][col[k]];
            }
          /* Interior rows read only the part's own cells: their SpMV can
           * run while the virtual values travel. */
          g_assert_true (reads_virtual == (l >= hp->n_interior));
          g_assert_cmpfloat_with_epsilon (sum, y[hp->global[l]], 1e-12);
        }
    }
  for (guint p = 0; p < n_parts; p++)
    g_free (xl[p]);
}

static void
test_halo (void)
{
  Grid g;
  g_autofree guint *part = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 counts[] = { 500, 0, 300, 400 };

  grid_init (&g, 40, 30);
  part = g_new (guint, g.n);
  g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, g.n, g.xadj, g.adjncy, g.centres, 4, counts,
                                     part, NULL, &error));
  check_halo (&g, part, 4);
  {
    /* The empty part has nothing and exchanges with no one. */
    g_autoptr(KsHalo) halo = ks_halo_new (g.n, g.xadj, g.adjncy, part, 4, &error);
    g_assert_cmpuint (ks_halo_get_part (halo, 1)->n_owned, ==, 0);
    g_assert_cmpuint (ks_halo_get_part (halo, 1)->n_neighbours, ==, 0);
  }
  if (ks_partition_have_metis ())
    {
      g_assert_true (ks_partition_cells (KS_PARTITION_METIS, g.n, g.xadj, g.adjncy, NULL, 4, counts, part,
                                         NULL, &error));
      check_halo (&g, part, 4);
    }
  /* Checkerboard-like scattered parts: many small groups. */
  for (guint i = 0; i < g.n; i++)
    part[i] = (i * 7 + i / 40) % 3;
  check_halo (&g, part, 3);

  /* Bad input: a part out of range, and a coupling one way only. */
  part[3] = 9;
  g_assert_null (ks_halo_new (g.n, g.xadj, g.adjncy, part, 3, &error));
  g_assert_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID);
  g_clear_error (&error);
  for (guint i = 0; i < g.n; i++)
    part[i] = i < g.n / 2 ? 0 : 1;
  g.adjncy[g.xadj[0]] = g.n - 1;   /* cell 0 reads the last cell, which does not read it */
  g_assert_null (ks_halo_new (g.n, g.xadj, g.adjncy, part, 2, &error));
  g_assert_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "not symmetric"));
  grid_clear (&g);
}

/* The geometric split by a full sort, the reference the selection must
 * match cell for cell: the same bisection, each half sorted along the
 * longer extent, ties by index. */
typedef struct { const double *c; guint axis; } RefBy;

static int
ref_compare (const void *a,
             const void *b,
             void       *data)
{
  const RefBy *by = data;
  const guint i = *(const guint *) a, j = *(const guint *) b;
  const double x = by->c[2 * i + by->axis], y = by->c[2 * j + by->axis];

  return x != y ? (x < y ? -1 : 1) : (i < j ? -1 : i > j);
}

static void
ref_bisect (const double  *c,
            guint         *cells,
            guint          n,
            guint          first,
            guint          n_parts,
            const guint64 *counts,
            guint         *part)
{
  double lo[2] = { G_MAXDOUBLE, G_MAXDOUBLE }, hi[2] = { -G_MAXDOUBLE, -G_MAXDOUBLE };
  RefBy by = { c, 0 };
  guint64 low = 0;

  if (n_parts == 1)
    {
      for (guint i = 0; i < n; i++)
        part[cells[i]] = first;
      return;
    }
  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < 2; a++)
      {
        lo[a] = MIN (lo[a], c[2 * cells[i] + a]);
        hi[a] = MAX (hi[a], c[2 * cells[i] + a]);
      }
  by.axis = hi[1] - lo[1] > hi[0] - lo[0];
  g_qsort_with_data (cells, n, sizeof (guint), ref_compare, &by);
  for (guint p = 0; p < n_parts / 2; p++)
    low += counts[first + p];
  ref_bisect (c, cells, (guint) low, first, n_parts / 2, counts, part);
  ref_bisect (c, cells + low, n - (guint) low, first + n_parts / 2, n_parts - n_parts / 2, counts, part);
}

/* Random centres on a coarse lattice (many ties), 2 to 13 parts of
 * uneven sizes: the selection-based split gives each cell the part the
 * sorting one gives it. */
static void
test_partition_matches_sort (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 12; round++)
    {
      const guint n = 200 + g_rand_int_range (rand, 0, 20000), n_parts = 2 + round;
      g_autofree double *c = g_new (double, 2 * n);
      g_autofree guint64 *counts = g_new0 (guint64, n_parts);
      g_autofree guint *part = g_new (guint, n);
      g_autofree guint *ref = g_new (guint, n);
      g_autofree guint *cells = g_new (guint, n);
      guint64 left = n;
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < 2 * n; i++)
        c[i] = g_rand_int_range (rand, 0, round % 2 ? 50 : 100000) * 0.5;
      for (guint p = 0; p + 1 < n_parts; p++)
        left -= counts[p] = g_rand_int_range (rand, 0, (gint32) (left / 2 + 1));
      counts[n_parts - 1] = left;
      for (guint i = 0; i < n; i++)
        cells[i] = i;
      ref_bisect (c, cells, n, 0, n_parts, counts, ref);
      g_assert_true (ks_partition_cells (KS_PARTITION_GEOMETRIC, n, NULL, NULL, c, n_parts, counts, part, NULL,
                                         &error));
      g_assert_no_error (error);
      g_assert_cmpmem (part, n * sizeof (guint), ref, n * sizeof (guint));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/balance/formulas", test_formulas);
  g_test_add_func ("/balance/split", test_split);
  g_test_add_func ("/balance/partition", test_partition);
  g_test_add_func ("/balance/partition-matches-sort", test_partition_matches_sort);
  g_test_add_func ("/balance/halo", test_halo);
  return g_test_run ();
}
