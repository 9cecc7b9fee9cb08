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

const char *
ks_partition_method_to_string (KsPartitionMethod method)
{
  return method == KS_PARTITION_METIS ? "metis" : "geometric";
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
  g_qsort_with_data (cells, n, sizeof (guint), compare_cells, &by);
  for (guint p = 0; p < half; p++)
    low += counts[first + p];
  bisect (centres, cells, (guint) low, first, half, counts, part);
  bisect (centres, cells + low, n - (guint) low, first + half, n_parts - half, counts, part);
}

/* --- exact counts after METIS ----------------------------------------------------- */

/* Part p's cells grown across its border, breadth first, by the cells of
 * neighbouring parts that may give (over-full ones; with any_donor, any
 * that is not short itself), until p has its count.  An empty p starts
 * from the first cell of the most over-full part.  TRUE if a cell moved. */
static gboolean
grow_part (guint          n,
           const guint   *xadj,
           const guint   *adjncy,
           guint          n_parts,
           const guint64 *counts,
           gint64        *have,
           guint          p,
           gboolean       any_donor,
           guint         *part,
           guint         *queue,
           guint8        *seen)
{
  guint head = 0, tail = 0;
  gboolean moved = FALSE;

  memset (seen, 0, n);
  for (guint i = 0; i < n; i++)
    if (part[i] == p)
      {
        queue[tail++] = i;
        seen[i] = 1;
      }
  if (tail == 0)
    {
      guint q = 0;

      for (guint r = 1; r < n_parts; r++)
        if (have[r] - (gint64) counts[r] > have[q] - (gint64) counts[q])
          q = r;
      for (guint i = 0; i < n && tail == 0; i++)
        if (part[i] == q)
          {
            part[i] = p;
            have[q]--;
            have[p]++;
            queue[tail++] = i;
            seen[i] = 1;
            moved = TRUE;
          }
    }
  while (head < tail && have[p] < (gint64) counts[p])
    {
      const guint i = queue[head++];

      for (guint k = xadj[i]; k < xadj[i + 1] && have[p] < (gint64) counts[p]; k++)
        {
          const guint j = adjncy[k], q = part[j];

          if (seen[j])
            continue;
          seen[j] = 1;
          if (have[q] > (gint64) counts[q] || (any_donor && have[q] > 0 && have[q] >= (gint64) counts[q]))
            {
              part[j] = p;
              have[q]--;
              have[p]++;
              queue[tail++] = j;
              moved = TRUE;
            }
        }
    }
  return moved;
}

/* METIS keeps each part within 3 % of its target weight, which is more
 * than a small part's whole share: at lambda 32 it left the CPU part of a
 * two-part split empty, and 7 of 15 CPU ranks' parts empty, on 4 M cells.
 * Parts short of their count take cells across their borders from parts
 * that have too many, first only from those, then (the deficit passed on
 * along a chain of parts) from any neighbour, until every part has the
 * count asked for or nothing moves. */
static void
fix_counts (guint          n,
            const guint   *xadj,
            const guint   *adjncy,
            guint          n_parts,
            const guint64 *counts,
            guint         *part)
{
  g_autofree gint64 *have = g_new0 (gint64, n_parts);
  g_autofree guint *queue = g_new (guint, MAX (n, 1));
  g_autofree guint8 *seen = g_new (guint8, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    have[part[i]]++;
  for (guint pass = 0; pass < 2 * n_parts + 2; pass++)
    {
      gboolean short_of = FALSE, moved = FALSE;

      for (guint p = 0; p < n_parts; p++)
        if (have[p] < (gint64) counts[p])
          {
            short_of = TRUE;
            moved |= grow_part (n, xadj, adjncy, n_parts, counts, have, p, pass > 0, part, queue, seen);
          }
      if (!short_of || (!moved && pass > 0))
        break;
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
  rc = METIS_PartGraphKway (&nvtxs, &ncon, x, adj, NULL, NULL, NULL, &nparts, tpwgts, NULL, options,
                            &cut, out);
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
