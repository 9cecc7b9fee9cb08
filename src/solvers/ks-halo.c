/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-halo.c: see ks-halo.h. */
#define G_LOG_DOMAIN "ks-halo"

#include "ks-halo.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (ks-halo-error-quark, ks_halo_error)

struct _KsHalo {
  guint        n, n_parts;
  KsHaloPart  *parts;
  guint       *part;       /* n: each cell's part */
  /* owned[g]: cell g's local index in its own part; ghosts[p]: global ->
   * local + 1 of part p's virtual cells.  O(n + ghosts) in all, not a
   * table of n per part: 10^7 cells over 16 ranks stay small. */
  guint       *owned;
  GHashTable **ghosts;
};

static void
part_clear (KsHaloPart *p)
{
  for (guint i = 0; i < p->n_neighbours; i++)
    g_free (p->neighbours[i].send);
  g_free (p->neighbours);
  g_free (p->global);
}

void
ks_halo_free (KsHalo *halo)
{
  if (halo == NULL)
    return;
  for (guint p = 0; p < halo->n_parts; p++)
    {
      part_clear (&halo->parts[p]);
      if (halo->ghosts[p])
        g_hash_table_unref (halo->ghosts[p]);
    }
  g_free (halo->parts);
  g_free (halo->ghosts);
  g_free (halo->part);
  g_free (halo->owned);
  g_free (halo);
}

/* Virtual cells sort by owner, then global index. */
typedef struct {
  guint owner, g;
} Ghost;

static int
compare_ghosts (const void *a,
                const void *b)
{
  const Ghost *x = a, *y = b;

  if (x->owner != y->owner)
    return x->owner < y->owner ? -1 : 1;
  return x->g < y->g ? -1 : x->g > y->g;
}

static gboolean
check_input (guint        n,
             const guint *row_ptr,
             const guint *col,
             const guint *part,
             guint        n_parts,
             GError     **error)
{
  for (guint i = 0; i < n; i++)
    {
      if (part[i] >= n_parts)
        {
          g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID,
                       _("Cell %u is given part %u of %u"), i, part[i], n_parts);
          return FALSE;
        }
      for (guint k = row_ptr[i]; k < row_ptr[i + 1]; k++)
        if (col[k] >= n)
          {
            g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID,
                         _("Cell %u couples cell %u, past the last (%u cells)"), i, col[k], n);
            return FALSE;
          }
    }
  return TRUE;
}

/* Numbers part p: its own cells, interior ones first; then its ghosts. */
static void
number_part (KsHalo      *halo,
             guint        p,
             const guint *row_ptr,
             const guint *col,
             const guint *part)
{
  KsHaloPart *hp = &halo->parts[p];
  GHashTable *seen = halo->ghosts[p] = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) interior = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) exchange = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) ghosts = g_array_new (FALSE, FALSE, sizeof (Ghost));
  guint next;

  for (guint i = 0; i < halo->n; i++)
    {
      gboolean edge = FALSE;

      if (part[i] != p)
        continue;
      for (guint k = row_ptr[i]; k < row_ptr[i + 1]; k++)
        if (part[col[k]] != p)
          {
            Ghost gh = { part[col[k]], col[k] };

            edge = TRUE;
            if (g_hash_table_add (seen, GUINT_TO_POINTER (col[k])))
              g_array_append_val (ghosts, gh);
          }
      g_array_append_val (edge ? exchange : interior, i);
    }
  if (ghosts->len > 1)
    qsort (ghosts->data, ghosts->len, sizeof (Ghost), compare_ghosts);

  hp->n_interior = interior->len;
  hp->n_owned = interior->len + exchange->len;
  hp->n_virtual = ghosts->len;
  hp->global = g_new (guint, MAX (hp->n_owned + hp->n_virtual, 1));
  next = 0;
  for (guint i = 0; i < interior->len; i++)
    hp->global[next++] = g_array_index (interior, guint, i);
  for (guint i = 0; i < exchange->len; i++)
    hp->global[next++] = g_array_index (exchange, guint, i);
  for (guint i = 0; i < ghosts->len; i++)
    hp->global[next++] = g_array_index (ghosts, Ghost, i).g;
  for (guint l = 0; l < hp->n_owned; l++)
    halo->owned[hp->global[l]] = l;
  for (guint l = hp->n_owned; l < next; l++)
    g_hash_table_insert (seen, GUINT_TO_POINTER (hp->global[l]), GUINT_TO_POINTER (l + 1));

  /* The receive ranges: the ghosts of each owner, contiguous. */
  {
    g_autoptr(GArray) nb = g_array_new (FALSE, TRUE, sizeof (KsHaloNeighbour));

    for (guint i = 0; i < ghosts->len; i++)
      {
        const Ghost *gh = &g_array_index (ghosts, Ghost, i);

        if (nb->len == 0 || g_array_index (nb, KsHaloNeighbour, nb->len - 1).part != gh->owner)
          {
            KsHaloNeighbour n = { .part = gh->owner, .recv_first = hp->n_owned + i };
            g_array_append_val (nb, n);
          }
        g_array_index (nb, KsHaloNeighbour, nb->len - 1).n_recv++;
      }
    hp->n_neighbours = nb->len;
    hp->neighbours = (KsHaloNeighbour *) g_array_free (g_steal_pointer (&nb), FALSE);
  }
}

/* What p sends to q: q's ghosts owned by p, in q's (global) order, as
 * p's local indices.  A ghost of q that p does not see as its exchange
 * cell means the graph is not symmetric. */
static gboolean
fill_sends (KsHalo  *halo,
            guint    q,
            GError **error)
{
  KsHaloPart *hq = &halo->parts[q];

  for (guint k = 0; k < hq->n_neighbours; k++)
    {
      const KsHaloNeighbour *from = &hq->neighbours[k];
      KsHaloPart *hp = &halo->parts[from->part];
      KsHaloNeighbour *to = NULL;

      for (guint j = 0; j < hp->n_neighbours && to == NULL; j++)
        if (hp->neighbours[j].part == q)
          to = &hp->neighbours[j];
      if (to == NULL)
        {
          g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID,
                       _("Part %u reads cells of part %u, which reads none of its: the coupling is not symmetric"),
                       q, from->part);
          return FALSE;
        }
      to->n_send = from->n_recv;
      to->send = g_new (guint, MAX (from->n_recv, 1));
      for (guint i = 0; i < from->n_recv; i++)
        {
          guint g = hq->global[from->recv_first + i];
          guint l = halo->owned[g];

          /* p sends only cells it has as exchange ones. */
          if (l < hp->n_interior)
            {
              g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID,
                           _("Cell %u is read by part %u but does not read it back: the coupling is not symmetric"),
                           g, q);
              return FALSE;
            }
          to->send[i] = l;
        }
    }
  return TRUE;
}

KsHalo *
ks_halo_new (guint        n,
             const guint *row_ptr,
             const guint *col,
             const guint *part,
             guint        n_parts,
             GError     **error)
{
  g_autoptr(KsHalo) halo = NULL;

  g_return_val_if_fail (row_ptr != NULL && part != NULL && (col != NULL || row_ptr[n] == 0), NULL);

  if (n_parts == 0 || !check_input (n, row_ptr, col, part, n_parts, error))
    {
      if (n_parts == 0)
        g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID, _("No parts to number"));
      return NULL;
    }
  halo = g_new0 (KsHalo, 1);
  halo->n = n;
  halo->n_parts = n_parts;
  halo->parts = g_new0 (KsHaloPart, n_parts);
  halo->ghosts = g_new0 (GHashTable *, n_parts);
  halo->part = g_memdup2 (part, MAX (n, 1) * sizeof (guint));
  halo->owned = g_new (guint, MAX (n, 1));
  for (guint p = 0; p < n_parts; p++)
    number_part (halo, p, row_ptr, col, part);
  for (guint q = 0; q < n_parts; q++)
    if (!fill_sends (halo, q, error))
      return NULL;
  /* A neighbour p reads from but q never does is also asymmetric. */
  for (guint p = 0; p < n_parts; p++)
    for (guint j = 0; j < halo->parts[p].n_neighbours; j++)
      if (halo->parts[p].neighbours[j].send == NULL)
        {
          g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID,
                       _("Part %u reads cells of part %u, which reads none of its: the coupling is not symmetric"),
                       p, halo->parts[p].neighbours[j].part);
          return NULL;
        }
  return g_steal_pointer (&halo);
}

guint
ks_halo_get_n_parts (const KsHalo *halo)
{
  g_return_val_if_fail (halo != NULL, 0);
  return halo->n_parts;
}

const KsHaloPart *
ks_halo_get_part (const KsHalo *halo,
                  guint         part)
{
  g_return_val_if_fail (halo != NULL && part < halo->n_parts, NULL);
  return &halo->parts[part];
}

gint64
ks_halo_local (const KsHalo *halo,
               guint         part,
               guint         g)
{
  g_return_val_if_fail (halo != NULL && part < halo->n_parts, -1);
  if (g >= halo->n || halo->part == NULL)   /* a received halo knows one part alone */
    return -1;
  if (halo->part[g] == part)
    return halo->owned[g];
  return (gint64) GPOINTER_TO_UINT (g_hash_table_lookup (halo->ghosts[part], GUINT_TO_POINTER (g))) - 1;
}

typedef struct {
  guint  col;
  double val;
} Entry;

static int
compare_entries (const void *a,
                 const void *b)
{
  guint x = ((const Entry *) a)->col, y = ((const Entry *) b)->col;
  return x < y ? -1 : x > y;
}

/* Rows of a mesh's matrix hold a handful of entries: insertion sort on
 * the stack, qsort only for the rare long row. */
#define SHORT_ROW 32

static void
sort_entries (Entry *row,
              guint  len)
{
  if (len > SHORT_ROW)
    {
      qsort (row, len, sizeof (Entry), compare_entries);
      return;
    }
  for (guint i = 1; i < len; i++)
    {
      Entry e = row[i];
      guint j = i;

      for (; j > 0 && row[j - 1].col > e.col; j--)
        row[j] = row[j - 1];
      row[j] = e;
    }
}

/* Local row l of part (global row g) into c / v from k on, its columns
 * in local numbering, sorted. */
static void
local_row (const KsHalo *halo,
           guint         part,
           guint         g,
           const guint  *row_ptr,
           const guint  *col,
           const double *val,
           guint        *c,
           double       *v)
{
  const guint len = row_ptr[g + 1] - row_ptr[g];
  Entry stack[SHORT_ROW];
  g_autofree Entry *heap = len > SHORT_ROW ? g_new (Entry, len) : NULL;
  Entry *row = heap ? heap : stack;

  for (guint j = 0; j < len; j++)
    {
      row[j].col = (guint) ks_halo_local (halo, part, col[row_ptr[g] + j]);
      row[j].val = val ? val[row_ptr[g] + j] : 0;
    }
  sort_entries (row, len);
  for (guint j = 0; j < len; j++)
    {
      c[j] = row[j].col;
      if (v)
        v[j] = row[j].val;
    }
}

/* Rank 0 of a run under mpirun splits 2^25 cells again for every lambda:
 * the rows are independent once their offsets are known, so they are
 * filled by the OpenMP team (lookups in the ghosts' hash table only read
 * it), without an allocation a row. */
void
ks_halo_local_rows (const KsHalo *halo,
                    guint         part,
                    const guint  *row_ptr,
                    const guint  *col,
                    const double *val,
                    guint       **out_row_ptr,
                    guint       **out_col,
                    double      **out_val)
{
  const KsHaloPart *hp;
  guint *rp, *c;
  double *v = NULL;

  g_return_if_fail (halo != NULL && part < halo->n_parts && out_row_ptr && out_col);

  hp = &halo->parts[part];
  rp = g_new (guint, hp->n_owned + 1);
  rp[0] = 0;
  for (guint l = 0; l < hp->n_owned; l++)
    rp[l + 1] = rp[l] + row_ptr[hp->global[l] + 1] - row_ptr[hp->global[l]];
  c = g_new (guint, MAX (rp[hp->n_owned], 1));
  if (val && out_val)
    v = g_new (double, MAX (rp[hp->n_owned], 1));
#pragma omp parallel for schedule(static)
  for (gint64 l = 0; l < (gint64) hp->n_owned; l++)
    local_row (halo, part, hp->global[l], row_ptr, col, val, c + rp[l], v ? v + rp[l] : NULL);
  *out_row_ptr = rp;
  *out_col = c;
  if (out_val)
    *out_val = v;
}

/* --- one part, sent to the rank that runs it --------------------------------- */

static void
pack_u32 (GByteArray *out,
          guint       v)
{
  guint32 w = v;
  g_byte_array_append (out, (const guint8 *) &w, sizeof w);
}

void
ks_halo_pack_part (const KsHalo *halo,
                   guint         part,
                   GByteArray   *out)
{
  const KsHaloPart *hp;

  g_return_if_fail (halo != NULL && part < halo->n_parts && out != NULL);

  hp = &halo->parts[part];
  pack_u32 (out, hp->n_interior);
  pack_u32 (out, hp->n_owned);
  pack_u32 (out, hp->n_virtual);
  pack_u32 (out, hp->n_neighbours);
  g_byte_array_append (out, (const guint8 *) hp->global, sizeof (guint) * (hp->n_owned + hp->n_virtual));
  for (guint j = 0; j < hp->n_neighbours; j++)
    {
      const KsHaloNeighbour *nb = &hp->neighbours[j];

      pack_u32 (out, nb->part);
      pack_u32 (out, nb->n_send);
      pack_u32 (out, nb->recv_first);
      pack_u32 (out, nb->n_recv);
      g_byte_array_append (out, (const guint8 *) nb->send, sizeof (guint) * nb->n_send);
    }
}

/* count guints from bytes at *pos into a new array (NULL: they end early). */
static guint *
take_u32 (const guint8 *bytes,
          gsize         size,
          gsize        *pos,
          gsize         count)
{
  guint *out;

  if (count > (size - *pos) / sizeof (guint))
    return NULL;
  out = g_new (guint, MAX (count, 1));
  memcpy (out, bytes + *pos, count * sizeof (guint));
  *pos += count * sizeof (guint);
  return out;
}

static gboolean
received_part (KsHaloPart   *hp,
               guint         n,
               guint         n_parts,
               const guint8 *bytes,
               gsize         size,
               gsize        *pos)
{
  g_autofree guint *head = take_u32 (bytes, size, pos, 4);
  guint virtual_seen = 0;

  if (head == NULL || head[0] > head[1] || head[1] > n || head[2] > n || head[3] > n_parts)
    return FALSE;
  *hp = (KsHaloPart) { head[0], head[1], head[2], NULL, 0, NULL };
  if (!(hp->global = take_u32 (bytes, size, pos, (gsize) hp->n_owned + hp->n_virtual)))
    return FALSE;
  hp->neighbours = g_new0 (KsHaloNeighbour, MAX (head[3], 1));
  for (; hp->n_neighbours < head[3]; hp->n_neighbours++)
    {
      KsHaloNeighbour *nb = &hp->neighbours[hp->n_neighbours];
      g_autofree guint *f = take_u32 (bytes, size, pos, 4);

      if (f == NULL || f[0] >= n_parts || f[1] > hp->n_owned || f[2] < hp->n_owned ||
          f[3] > hp->n_owned + hp->n_virtual - f[2] || !(nb->send = take_u32 (bytes, size, pos, f[1])))
        return FALSE;
      *nb = (KsHaloNeighbour) { f[0], f[1], nb->send, f[2], f[3] };
      virtual_seen += f[3];
      for (guint i = 0; i < nb->n_send; i++)
        if (nb->send[i] >= hp->n_owned)
          {
            g_clear_pointer (&nb->send, g_free);
            return FALSE;
          }
    }
  return virtual_seen == hp->n_virtual;
}

KsHalo *
ks_halo_new_received (guint         n,
                      guint         n_parts,
                      guint         part,
                      const guint8 *bytes,
                      gsize         size,
                      gsize        *pos,
                      GError      **error)
{
  g_autoptr(KsHalo) halo = NULL;

  g_return_val_if_fail (part < n_parts && pos != NULL && *pos <= size, NULL);

  halo = g_new0 (KsHalo, 1);
  halo->n = n;
  halo->n_parts = n_parts;
  halo->parts = g_new0 (KsHaloPart, n_parts);
  halo->ghosts = g_new0 (GHashTable *, n_parts);
  if (!received_part (&halo->parts[part], n, n_parts, bytes, size, pos))
    {
      g_set_error (error, KS_HALO_ERROR, KS_HALO_ERROR_INVALID,
                   _("Part %u's numbering as received is cut short or disagrees with itself"), part);
      return NULL;
    }
  return g_steal_pointer (&halo);
}
