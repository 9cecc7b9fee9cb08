/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-count.c: the cache lines a warp's instruction touches (its
 * transactions) against the ideal, the bytes it uses over the line size. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-access-private.h"

#include <stdlib.h>

static int
by_place (const void *pa,
          const void *pb)
{
  const KsAccess *a = pa, *b = pb;

  if (a->buffer != b->buffer)
    return a->buffer < b->buffer ? -1 : 1;
  return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Buffers never share a line: each starts on one (an allocation is
 * aligned far beyond any cache line). */
guint
ks_access_count_lines (const KsAccess *acc,
                       guint           n,
                       guint           line,
                       double         *ideal)
{
  g_autofree KsAccess *sorted = NULL;
  guint lines = 0;
  guint64 bytes = 0;

  g_return_val_if_fail (line > 0, 0);
  sorted = g_memdup2 (acc, (gsize) n * sizeof *acc);
  qsort (sorted, n, sizeof *sorted, by_place);
  for (guint i = 0; i < n; i++)
    {
      const KsAccess *a = &sorted[i], *prev = i ? &sorted[i - 1] : NULL;
      const guint64 first = a->offset / line, last = (a->offset + a->size - 1) / line;
      guint64 from = first;

      if (prev && prev->buffer == a->buffer && prev->offset == a->offset)
        continue;   /* the same bytes again: one fetch serves both */
      bytes += a->size;
      if (prev && prev->buffer == a->buffer)
        from = MAX (first, (prev->offset + prev->size - 1) / line + 1);
      lines += last >= from ? (guint) (last - from + 1) : 0;
    }
  if (ideal)
    *ideal = (double) bytes / line;
  return lines;
}

void
ks_access_count_step (const KsAccessModel *m,
                      guint                warp,
                      guint                w,
                      guint                step,
                      guint                line,
                      GArray              *out)
{
  g_autoptr(GArray) mine = g_array_new (FALSE, FALSE, sizeof (KsAccess));
  guint max_slot = 0;

  g_return_if_fail (m != NULL && out != NULL && warp > 0 && line > 0);
  g_array_set_size (out, 0);
  for (guint i = 0; i < m->accesses->len; i++)
    {
      const KsAccess *a = &g_array_index (m->accesses, KsAccess, i);

      if (a->step == step && ks_access_warp_of (m, a->item, warp) == w)
        {
          g_array_append_val (mine, *a);
          max_slot = MAX (max_slot, a->slot);
        }
    }
  for (guint slot = 0; mine->len > 0 && slot <= max_slot; slot++)
    {
      g_autoptr(GArray) one = g_array_new (FALSE, FALSE, sizeof (KsAccess));
      KsAccessCount c = { 0 };

      for (guint i = 0; i < mine->len; i++)
        if (g_array_index (mine, KsAccess, i).slot == slot)
          g_array_append_val (one, g_array_index (mine, KsAccess, i));
      if (one->len == 0)
        continue;
      c.items = one->len;
      c.lines = ks_access_count_lines ((KsAccess *) one->data, one->len, line, &c.ideal);
      g_array_append_val (out, c);
    }
}

typedef struct {
  guint    warp;
  KsAccess a;
} Keyed;

static int
by_instruction (const void *pa,
                const void *pb)
{
  const Keyed *a = pa, *b = pb;

  if (a->warp != b->warp)
    return a->warp < b->warp ? -1 : 1;
  if (a->a.step != b->a.step)
    return a->a.step < b->a.step ? -1 : 1;
  return a->a.slot < b->a.slot ? -1 : a->a.slot > b->a.slot;
}

void
ks_access_count_total (const KsAccessModel *m,
                       guint                warp,
                       guint                line,
                       guint64             *lines,
                       double              *ideal)
{
  const guint n = m->accesses->len;
  g_autofree Keyed *keyed = g_new (Keyed, MAX (n, 1));
  g_autofree KsAccess *run = g_new (KsAccess, MAX (n, 1));

  g_return_if_fail (warp > 0 && line > 0);
  *lines = 0;
  *ideal = 0;
  for (guint i = 0; i < n; i++)
    {
      keyed[i].a = g_array_index (m->accesses, KsAccess, i);
      keyed[i].warp = ks_access_warp_of (m, keyed[i].a.item, warp);
    }
  qsort (keyed, n, sizeof *keyed, by_instruction);
  for (guint i = 0; i < n;)
    {
      guint k = 0;
      double part;

      do
        run[k++] = keyed[i++].a;
      while (i < n && by_instruction (&keyed[i - 1], &keyed[i]) == 0);
      *lines += ks_access_count_lines (run, k, line, &part);
      *ideal += part;
    }
}

guint64
ks_access_item_steps (const KsAccessModel *m)
{
  guint64 n = 0;

  g_return_val_if_fail (m != NULL && m->accesses != NULL, 0);
  /* Each item's accesses come in program order, its steps ascending. */
  for (guint i = 0; i < m->accesses->len; i++)
    {
      const KsAccess *a = &g_array_index (m->accesses, KsAccess, i), *prev = i ? a - 1 : NULL;

      n += !prev || prev->item != a->item || prev->step != a->step;
    }
  return n;
}
