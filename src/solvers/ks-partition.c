/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-partition.c: see ks-partition.h. */
#define G_LOG_DOMAIN "ks-partition"

#include "ks-partition.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>
#ifdef KS_HAVE_METIS
#include <metis.h>
#endif

G_DEFINE_QUARK (ks-partition-error-quark, ks_partition_error)

gboolean
ks_partition_have_metis (void)
{
#ifdef KS_HAVE_METIS
  return TRUE;
#else
  return FALSE;
#endif
}

/* --- geometric: recursive coordinate bisection ------------------------------------ */

typedef struct {
  const double *centres;
  guint         axis;
} SortBy;

static int
compare_cells (const void *a,
               const void *b,
               void       *data)
{
  const SortBy *by = data;
  double x = by->centres[2 * *(const guint *) a + by->axis];
  double y = by->centres[2 * *(const guint *) b + by->axis];

  if (x != y)
    return x < y ? -1 : 1;
  /* Ties by index: the same split on every machine. */
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

static inline gboolean
cell_less (const SortBy *by,
           guint         a,
           guint         b)
{
  const double x = by->centres[2 * a + by->axis], y = by->centres[2 * b + by->axis];

  /* Ties by index: a total order, the same split on every machine. */
  return x < y || (x == y && a < b);
}

/* Puts the k lowest cells of cells[0..n) (by by) first, in any order:
 * all a bisection needs, in O(n) where sorting took O(n log n) at every
 * level (rank 0 splits 2^25 cells again for each lambda under mpirun).
 * The order is total, so the k lowest are one set and every split the
 * same as a full sort's.  Quickselect on Hoare's partition with the
 * median of three; a range that will not shrink is sorted instead. */
static void
select_lowest (guint        *cells,
               guint         n,
               guint         k,
               const SortBy *by)
{
  guint lo = 0, hi = n, budget = 2 * g_bit_storage (n) + 8;

  if (k == 0 || k >= n)
    return;
  while (hi - lo > 16)
    {
      guint a = cells[lo], b = cells[lo + (hi - lo) / 2], c = cells[hi - 1], pivot;
      gint64 i = (gint64) lo - 1, j = hi;

      if (budget-- == 0)
        {
          g_qsort_with_data (cells + lo, hi - lo, sizeof (guint), compare_cells, (gpointer) by);
          return;
        }
      pivot = cell_less (by, a, b) ? (cell_less (by, b, c) ? b : cell_less (by, a, c) ? c : a)
                                   : (cell_less (by, a, c) ? a : cell_less (by, b, c) ? c : b);
      for (;;)
        {
          guint t;

          do i++; while (cell_less (by, cells[i], pivot));
          do j--; while (cell_less (by, pivot, cells[j]));
          if (i >= j)
            break;
          t = cells[i], cells[i] = cells[j], cells[j] = t;
        }
      if (k - 1 <= (guint) j)
        hi = (guint) j + 1;
      else
        lo = (guint) j + 1;
    }
  g_qsort_with_data (cells + lo, hi - lo, sizeof (guint), compare_cells, (gpointer) by);
}

/* Gives cells[0..n) to parts first..first+n_parts-1, counts[] each: the
 * first half of the parts takes the cells on the lower side of the longer
 * extent, as many as those parts want. */
static void
bisect (const double  *centres,
        guint         *cells,
        guint          n,
        guint          first,
        guint          n_parts,
        const guint64 *counts,
        guint         *part)
{
  double lo[2] = { G_MAXDOUBLE, G_MAXDOUBLE }, hi[2] = { -G_MAXDOUBLE, -G_MAXDOUBLE };
  guint half = n_parts / 2;
  guint64 low = 0;
  SortBy by = { centres, 0 };

  if (n_parts == 1)
    {
      for (guint i = 0; i < n; i++)
        part[cells[i]] = first;
      return;
    }
  for (guint i = 0; i < n; i++)
    for (guint a = 0; a < 2; a++)
      {
        lo[a] = MIN (lo[a], centres[2 * cells[i] + a]);
        hi[a] = MAX (hi[a], centres[2 * cells[i] + a]);
      }
  by.axis = hi[1] - lo[1] > hi[0] - lo[0];
  for (guint p = 0; p < half; p++)
    low += counts[first + p];
  select_lowest (cells, n, (guint) low, &by);
  bisect (centres, cells, (guint) low, first, half, counts, part);
  bisect (centres, cells + low, n - (guint) low, first + half, n_parts - half, counts, part);
}

/* --- exact counts after METIS ----------------------------------------------------- */

/* Part `to` takes up to `amount` cells of part `from` across their
 * border, breadth first from its own cells (so what it takes is a layer
 * along the border, not cells scattered); how many it took. */
static guint64
take_cells (guint        n,
            const guint *xadj,
            const guint *adjncy,
            guint       *part,
            guint        to,
            guint        from,
            guint64      amount,
            guint       *queue,
            guint8      *seen)
{
  guint head = 0, tail = 0;
  guint64 taken = 0;

  memset (seen, 0, n);
  for (guint i = 0; i < n; i++)
    if (part[i] == to)
      {
        queue[tail++] = i;
        seen[i] = 1;
      }
  while (head < tail && taken < amount)
    {
      const guint i = queue[head++];

      for (guint k = xadj[i]; k < xadj[i + 1] && taken < amount; k++)
        {
          const guint j = adjncy[k];

          if (seen[j] || part[j] != from)
            continue;
          seen[j] = 1;
          part[j] = to;
          queue[tail++] = j;
          taken++;
        }
    }
  return taken;
}

/* The parts' neighbours: touch[a * n_parts + b] where a cell of a has a
 * neighbour in b. */
static void
part_graph (guint        n,
            const guint *xadj,
            const guint *adjncy,
            const guint *part,
            guint        n_parts,
            guint8      *touch)
{
  memset (touch, 0, (gsize) n_parts * n_parts);
  for (guint i = 0; i < n; i++)
    for (guint k = xadj[i]; k < xadj[i + 1]; k++)
      touch[(gsize) part[i] * n_parts + part[adjncy[k]]] = 1;
}

/* METIS keeps each part within 3 % of its target weight, which is more
 * than a small part's whole share: at lambda 32 it left the CPU part of a
 * two-part split empty, and 7 of 15 CPU ranks' parts empty, on 4 M cells.
 * An empty part that should have cells starts from one cell of the part
 * with the most to spare; then, while a part has too many, the nearest
 * part short of its count (through the parts' neighbourhood) gets the
 * difference handed along the chain of parts between them, each taking
 * from the one before it across their border, so every part keeps a
 * compact shape and ends with the count asked for. */
static void
fix_counts (guint          n,
            const guint   *xadj,
            const guint   *adjncy,
            guint          n_parts,
            const guint64 *counts,
            guint         *part)
{
  g_autofree gint64 *excess = g_new0 (gint64, n_parts);   /* have - counts */
  g_autofree guint *queue = g_new (guint, MAX (n, 1));
  g_autofree guint8 *seen = g_new (guint8, MAX (n, 1));
  g_autofree guint8 *touch = g_new (guint8, (gsize) n_parts * n_parts);
  g_autofree guint *prev = g_new (guint, n_parts);
  g_autofree guint *order = g_new (guint, n_parts);

  for (guint p = 0; p < n_parts; p++)
    excess[p] = -(gint64) counts[p];
  for (guint i = 0; i < n; i++)
    excess[part[i]]++;
  for (guint p = 0; p < n_parts; p++)
    if (counts[p] > 0 && excess[p] == -(gint64) counts[p])
      {
        guint q = 0;

        for (guint r = 1; r < n_parts; r++)
          if (excess[r] > excess[q])
            q = r;
        for (guint i = 0; i < n; i++)
          if (part[i] == q)
            {
              part[i] = p;
              excess[q]--;
              excess[p]++;
              break;
            }
      }
  for (guint round = 0; round < 4 * n_parts; round++)
    {
      guint q = 0, head = 0, tail = 0, p = G_MAXUINT;
      gint64 amount;

      for (guint r = 1; r < n_parts; r++)
        if (excess[r] > excess[q])
          q = r;
      if (excess[q] <= 0)
        return;
      /* The nearest part short of cells, breadth first over the parts. */
      part_graph (n, xadj, adjncy, part, n_parts, touch);
      memset (prev, 0xff, sizeof (guint) * n_parts);
      prev[q] = q;
      order[tail++] = q;
      while (head < tail && p == G_MAXUINT)
        {
          const guint a = order[head++];
          for (guint b = 0; b < n_parts && p == G_MAXUINT; b++)
            if (touch[(gsize) a * n_parts + b] && prev[b] == G_MAXUINT)
              {
                prev[b] = a;
                order[tail++] = b;
                if (excess[b] < 0)
                  p = b;
              }
        }
      if (p == G_MAXUINT)
        return;   /* no short part reachable: the mesh is in pieces */
      amount = MIN (excess[q], -excess[p]);
      /* The chain from q to p, in order: each part takes from the one
       * before it while it still borders it (handing on first could
       * leave a thin part no longer touching its giver). */
      tail = 0;
      for (guint r = p; r != q; r = prev[r])
        order[tail++] = r;
      for (guint k = tail; k-- > 0 && amount > 0;)
        {
          const guint to = order[k], from = prev[to];

          amount = (gint64) take_cells (n, xadj, adjncy, part, to, from, (guint64) amount, queue, seen);
          excess[to] += amount;
          excess[from] -= amount;
        }
    }
}

#ifdef KS_HAVE_METIS
static gboolean
metis_partition (guint          n,
                 const guint   *xadj,
                 const guint   *adjncy,
                 guint          n_parts,
                 const guint64 *counts,
                 guint         *part,
                 GError       **error)
{
  idx_t nvtxs = n, ncon = 1, nparts = 0, cut = 0;
  g_autofree idx_t *x = g_new (idx_t, n + 1);
  g_autofree idx_t *adj = g_new (idx_t, MAX (xadj[n], 1));
  g_autofree idx_t *out = g_new (idx_t, n);
  g_autofree real_t *tpwgts = g_new (real_t, n_parts);
  /* METIS takes no empty part (lambda = 0 leaves the GPU's so): it splits
   * among the others, numbered apart. */
  g_autofree guint *which = g_new (guint, n_parts);
  idx_t options[METIS_NOPTIONS];
  double sum = 0;
  real_t smallest = 1, largest = 0;
  int rc;

  for (guint i = 0; i <= n; i++)
    x[i] = (idx_t) xadj[i];
  for (guint k = 0; k < xadj[n]; k++)
    adj[k] = (idx_t) adjncy[k];
  for (guint p = 0; p < n_parts; p++)
    if (counts[p] > 0)
      {
        which[nparts] = p;
        sum += tpwgts[nparts] = (real_t) ((double) counts[p] / n);
        nparts++;
      }
  /* METIS wants the weights to add up to 1 in its own precision. */
  tpwgts[nparts - 1] += (real_t) (1.0 - sum);
  METIS_SetDefaultOptions (options);
  options[METIS_OPTION_NUMBERING] = 0;
  /* Its random choices seeded alike: the same mesh, the same parts. */
  options[METIS_OPTION_SEED] = 1;
  /* k-way partitioning cuts least where the parts are alike; with parts
   * of very different sizes (a GPU's beside CPU cores', lambda 32) its
   * initial partition of the coarsened graph cannot place the small ones
   * ("Cannot bisect a graph with 0 vertices!" on stdout, 192 lines under
   * 16 ranks) and leaves them empty, where recursive bisection places
   * them and cuts less: 772 against 936 entries on 30,000 cells, 1,662
   * against 2,219 on 150,000, 15 small parts beside a large one. */
  for (idx_t p = 0; p < nparts; p++)
    {
      smallest = MIN (smallest, tpwgts[p]);
      largest = MAX (largest, tpwgts[p]);
    }
  rc = (largest > 4 * smallest ? METIS_PartGraphRecursive : METIS_PartGraphKway)
         (&nvtxs, &ncon, x, adj, NULL, NULL, NULL, &nparts, tpwgts, NULL, options, &cut, out);
  if (rc != METIS_OK)
    {
      g_set_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_FAILED,
                   _("METIS could not split %u cells into %u parts (its code %d)"), n, (guint) nparts, rc);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    part[i] = which[out[i]];
  fix_counts (n, xadj, adjncy, n_parts, counts, part);
  return TRUE;
}
#endif

gboolean
ks_partition_cells (KsPartitionMethod method,
                    guint             n,
                    const guint      *xadj,
                    const guint      *adjncy,
                    const double     *centres,
                    guint             n_parts,
                    const guint64    *counts,
                    guint            *part,
                    guint64          *edge_cut,
                    GError          **error)
{
  guint64 total = 0;
  guint non_empty = 0;

  g_return_val_if_fail (part != NULL && counts != NULL, FALSE);

  for (guint p = 0; p < n_parts; p++)
    {
      total += counts[p];
      non_empty += counts[p] > 0;
    }
  if (n_parts == 0 || total != n)
    {
      g_set_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID,
                   _("The parts' sizes add up to %llu cells, the mesh has %u"), (unsigned long long) total, n);
      return FALSE;
    }
  if ((method == KS_PARTITION_METIS || edge_cut) && (xadj == NULL || adjncy == NULL))
    {
      g_set_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID,
                   _("Partitioning by METIS or counting the cut needs the cells' neighbours"));
      return FALSE;
    }
  for (guint k = 0; xadj && k < xadj[n]; k++)
    if (adjncy[k] >= n)
      {
        g_set_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID,
                     _("A cell's neighbour %u is past the last cell (%u cells)"), adjncy[k], n);
        return FALSE;
      }

  if (method == KS_PARTITION_GEOMETRIC || non_empty <= 1)
    {
      g_autofree guint *cells = g_new (guint, MAX (n, 1));

      if (centres == NULL && non_empty > 1)
        {
          g_set_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_INVALID,
                       _("The geometric decomposition needs the cells' centres"));
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        cells[i] = i;
      if (non_empty <= 1)
        for (guint i = 0, p = 0; i < n; i++)
          {
            while (counts[p] == 0)
              p++;
            part[i] = p;
          }
      else
        bisect (centres, cells, n, 0, n_parts, counts, part);
    }
  else
    {
#ifdef KS_HAVE_METIS
      if (!metis_partition (n, xadj, adjncy, n_parts, counts, part, error))
        return FALSE;
#else
      g_set_error (error, KS_PARTITION_ERROR, KS_PARTITION_ERROR_UNSUPPORTED,
                   _("This Kernelscope was built without METIS: use the geometric decomposition, "
                     "or install libmetis-dev and build again"));
      return FALSE;
#endif
    }
  if (edge_cut)
    *edge_cut = ks_partition_edge_cut (n, xadj, adjncy, part);
  return TRUE;
}

guint64
ks_partition_edge_cut (guint        n,
                       const guint *xadj,
                       const guint *adjncy,
                       const guint *part)
{
  guint64 cut = 0;

  for (guint i = 0; i < n; i++)
    for (guint k = xadj[i]; k < xadj[i + 1]; k++)
      cut += adjncy[k] > i && part[adjncy[k]] != part[i];
  return cut;
}
