/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-kernels.c: the index arithmetic of each modelled kernel, line
 * for line as the kernel source has it (the comments name the lines), one
 * item at a time.  ks-access.c lays out the launch and calls these. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-access-private.h"

#define MICRO_PAD 4   /* micro-downscale.cl's pad with -DKS_MICRO_EDGE=1 */

static void
emit (KsAccessSink *sink,
      guint32       step,
      guint16       slot,
      guint8        buffer,
      guint8        write,
      guint32       size,
      guint64       offset)
{
  KsAccess a = { sink->item, step, slot, buffer, write, size, offset };

  g_array_append_val (sink->out, a);
  if (step + 1 > sink->steps)
    sink->steps = step + 1;
}

/* ks_downscale_store: out[j * out_stride + out_pad + r], and the pad bytes
 * where r is a row's first or last element. */
static void
micro_store (const KsAccessPoint *p,
             KsAccessSink        *sink,
             guint32              step,
             guint                j,
             guint                r)
{
  const guint pad = p->edges == 1 ? MICRO_PAD : 0, out_stride = p->rows + 2 * pad;
  const guint64 dst = (guint64) j * out_stride + pad;
  guint16 slot = 9;

  emit (sink, step, slot++, 1, TRUE, 1, dst + r);
  if (pad > 0 && r == 0)
    for (guint q = 1; q <= pad; q++)
      emit (sink, step, slot++, 1, TRUE, 1, dst - q);
  if (pad > 0 && r == p->rows - 1)
    for (guint q = 1; q <= pad; q++)
      emit (sink, step, slot++, 1, TRUE, 1, dst + p->rows - 1 + q);
}

/* Output j of row r: the 9 taps of ks_tap_free (padding) or
 * ks_tap_clamped (where the taps leave the row; inside both read alike). */
static void
micro_output (const KsAccessPoint *p,
              KsAccessSink        *sink,
              guint32              step,
              guint                j,
              guint                r)
{
  const guint pad = p->edges == 1 ? MICRO_PAD : 0, in_stride = p->len + 2 * pad;
  const guint64 row = (guint64) r * in_stride + pad;

  for (int k = 0; k < 9; k++)
    {
      int i = (int) (2 * j) + k - 4;

      if (p->edges != 1)
        i = CLAMP (i, 0, (int) p->len - 1);
      emit (sink, step, (guint16) k, 0, FALSE, 1, (guint64) ((gint64) row + i));
    }
  micro_store (p, sink, step, j, r);
}

/* micro_downscale_direct: r = get_global_id (0), every output j of its row. */
static gboolean
micro_direct (const KsAccessPoint *p,
              const guint64       *gid,
              KsAccessSink        *sink)
{
  const guint r = (guint) gid[0];

  if (r >= p->rows)
    return FALSE;
  for (guint j = 0; j < p->len / 2; j++)
    micro_output (p, sink, j, j, r);
  return TRUE;
}

/* micro_downscale_grouped: j = get_global_id (0), r = get_global_id (1). */
static gboolean
micro_grouped (const KsAccessPoint *p,
               const guint64       *gid,
               KsAccessSink        *sink)
{
  const guint j = (guint) gid[0], r = (guint) gid[1];

  if (j >= p->len / 2 || r >= p->rows)
    return FALSE;
  micro_output (p, sink, 0, j, r);
  return TRUE;
}

/* AT (s, i) = s * sys_stride + i * row_stride: natural (n, 1), interleaved
 * (1, systems), in bytes. */
static guint64
tridiag_at (const KsAccessPoint *p,
            gboolean             interleaved,
            guint64              s,
            guint64              i)
{
  const guint64 sys_stride = interleaved ? 1 : p->n, row_stride = interleaved ? p->systems : 1;

  return (s * sys_stride + i * row_stride) * p->elem;
}

/* thomas_global: buffers a b c d cp x; the forward sweep reads a b c d and
 * writes cp x at row i (step i), the backward one reads x cp and writes x
 * (step n + the count of rows done). */
static gboolean
thomas (const KsAccessPoint *p,
        const guint64       *gid,
        KsAccessSink        *sink)
{
  const gboolean il = p->kernel == KS_ACCESS_THOMAS_INTERLEAVED;
  const guint64 s = gid[0];
  guint32 step = 0;

  if (s >= p->systems)
    return FALSE;
  for (guint i = 0; i < p->n; i++, step++)
    {
      for (guint8 b = 0; b < 4; b++)
        emit (sink, step, b, b, FALSE, p->elem, tridiag_at (p, il, s, i));
      emit (sink, step, 4, 4, TRUE, p->elem, tridiag_at (p, il, s, i));
      emit (sink, step, 5, 5, TRUE, p->elem, tridiag_at (p, il, s, i));
    }
  for (guint i = p->n - 1; i-- > 0; step++)
    {
      emit (sink, step, 0, 5, FALSE, p->elem, tridiag_at (p, il, s, i));
      emit (sink, step, 1, 4, FALSE, p->elem, tridiag_at (p, il, s, i));
      emit (sink, step, 2, 5, TRUE, p->elem, tridiag_at (p, il, s, i));
    }
  return TRUE;
}

#define THOMAS_CHUNK 16u   /* ks-tridiag.c's rows per staged chunk */

static guint
pow2_ceil (guint x)
{
  guint p = 1;

  while (p < x)
    p <<= 1;
  return p;
}

/* ks_stage: the group copies rows r0 .. r0 + count - 1 of its systems
 * s0 .. s0 + g - 1, item lid taking entries lid, lid + g, ... of the walk
 * along the layout's fast index; slot = phase * 256 + the entry's turn. */
static void
staged_copy (const KsAccessPoint *p,
             KsAccessSink        *sink,
             guint64              gid,
             guint32              step,
             guint                phase,
             guint8               buffer,
             gboolean             write,
             guint                r0,
             guint                count)
{
  const gboolean il = p->kernel == KS_ACCESS_THOMAS_STAGED_INTERLEAVED;
  const guint g = p->group, lid = (guint) (gid % g), s0 = (guint) (gid - lid);
  /* The kernel walks systems fastest where sys_stride < row_stride. */
  const gboolean walk_sys = il && p->systems > 1;
  const guint gp = pow2_ceil (g), cp = pow2_ceil (count), inner = walk_sys ? gp : cp;
  guint turn = 0;

  for (guint e = lid; e < gp * cp; e += g, turn++)
    {
      const guint fast = e % inner, slow = e / inner;
      const guint sys = walk_sys ? fast : slow, row = walk_sys ? slow : fast;

      if (sys < g && row < count && s0 + sys < p->systems)
        emit (sink, step, (guint16) (phase * 256 + turn), buffer, (guint8) write, p->elem,
              tridiag_at (p, il, s0 + sys, r0 + row));
    }
}

/* thomas_staged: per chunk of THOMAS_CHUNK rows, a b c d in, cp x out
 * (step = the chunk); then back from the last chunk, cp x in, x out.
 * Every item of a group copies, its own system or not: idle only where
 * it copied nothing. */
static gboolean
thomas_staged (const KsAccessPoint *p,
               const guint64       *gid,
               KsAccessSink        *sink)
{
  const guint n = p->n, before = sink->out->len;
  guint32 step = 0;

  for (guint r0 = 0; r0 < n; r0 += THOMAS_CHUNK, step++)
    {
      const guint count = MIN (THOMAS_CHUNK, n - r0);

      for (guint8 b = 0; b < 4; b++)
        staged_copy (p, sink, gid[0], step, b, b, FALSE, r0, count);
      staged_copy (p, sink, gid[0], step, 4, 4, TRUE, r0, count);
      staged_copy (p, sink, gid[0], step, 5, 5, TRUE, r0, count);
    }
  for (guint end = n; end > 0; step++)
    {
      const guint r0 = end > THOMAS_CHUNK ? end - THOMAS_CHUNK : 0;

      staged_copy (p, sink, gid[0], step, 0, 4, FALSE, r0, end - r0);
      staged_copy (p, sink, gid[0], step, 1, 5, FALSE, r0, end - r0);
      staged_copy (p, sink, gid[0], step, 2, 5, TRUE, r0, end - r0);
      end = r0;
    }
  return sink->out->len > before;
}

/* One row of ks_row_in (a b c d at idx, level 0) or ks_row_at (src at
 * k * stride4 + idx), nothing outside the system. */
static void
paracr_row (const KsAccessPoint *p,
            KsAccessSink        *sink,
            guint16              slot,
            guint64              idx)
{
  const guint64 stride4 = (guint64) p->systems * p->n * p->elem;

  for (guint8 k = 0; k < 4; k++)
    {
      if (p->level == 0)
        emit (sink, 0, slot + k, k, FALSE, p->elem, idx);
      else
        emit (sink, 0, slot + k, 4, FALSE, p->elem, k * stride4 + idx);
    }
}

/* paracr_step: i = get_global_id (0), s = get_global_id (1); the rows
 * i - h and i + h where inside, then the four coefficients to dst. */
static gboolean
paracr (const KsAccessPoint *p,
        const guint64       *gid,
        KsAccessSink        *sink)
{
  const gboolean il = p->kernel == KS_ACCESS_PARACR_INTERLEAVED;
  const guint64 i = gid[0], s = gid[1], h = G_GUINT64_CONSTANT (1) << p->level;
  const guint64 stride4 = (guint64) p->systems * p->n * p->elem;

  if (i >= p->n || s >= p->systems)
    return FALSE;
  paracr_row (p, sink, 0, tridiag_at (p, il, s, i));
  if (i >= h)
    paracr_row (p, sink, 4, tridiag_at (p, il, s, i - h));
  if (i + h < p->n)
    paracr_row (p, sink, 8, tridiag_at (p, il, s, i + h));
  for (guint8 k = 0; k < 4; k++)
    emit (sink, 0, 12 + k, 5, TRUE, p->elem, k * stride4 + tridiag_at (p, il, s, i));
  return TRUE;
}

/* index_fill_mapped: the point (i, j, k) of a thread by the layout, v[g]
 * written where it lies inside the domain. */
static gboolean
index_fill (const KsAccessPoint *p,
            const guint64       *gid,
            KsAccessSink        *sink)
{
  const KsAccessLaunch *l = sink->launch;
  const guint64 T = l->local[0], t = gid[0] % T, bx = gid[0] / T, by = gid[1], bz = gid[2];
  const guint64 *n = l->sides;
  guint64 i = 0, j = 0, k = 0;

  if (l->layout == KS_INDEX_LAYOUT_1D)
    k = (by * (l->global[0] / T) + bx) * T + t;
  else if (l->layout == KS_INDEX_LAYOUT_2D_ROWS)
    {
      j = by * (l->global[0] / T) + bx;
      k = t;
    }
  else if (l->layout == KS_INDEX_LAYOUT_2D_SPLIT)
    {
      j = bx;
      k = by * T + t;
    }
  else
    {
      i = bx;
      j = by;
      k = bz * T + t;
    }
  if (!(i < n[0] && j < n[1] && k < n[2]))
    return FALSE;
  emit (sink, 0, 0, 0, TRUE, p->elem, ((i * n[1] + j) * n[2] + k) * p->elem);
  return TRUE;
}

KsAccessItemFunc
ks_access_item_func (KsAccessKernel kernel)
{
  switch (kernel)
    {
    case KS_ACCESS_MICRO_DIRECT:       return micro_direct;
    case KS_ACCESS_MICRO_GROUPED:      return micro_grouped;
    case KS_ACCESS_THOMAS_NATURAL:
    case KS_ACCESS_THOMAS_INTERLEAVED: return thomas;
    case KS_ACCESS_PARACR_NATURAL:
    case KS_ACCESS_PARACR_INTERLEAVED: return paracr;
    case KS_ACCESS_INDEX_MAPPED:       return index_fill;
    case KS_ACCESS_THOMAS_STAGED_NATURAL:
    case KS_ACCESS_THOMAS_STAGED_INTERLEAVED: return thomas_staged;
    case KS_ACCESS_N_KERNELS:          break;
    }
  g_assert_not_reached ();
}
