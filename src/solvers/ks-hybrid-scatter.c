/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hybrid-scatter.c: the hybrid's system held by rank 0 alone, split
 * there, and each rank sent its own part (see ks_hybrid_cg_set_system).
 *
 * A part travels as six messages, since one GPU rank's part of a 67
 * M-cell system is over 4 GB (more than a GByteArray holds): its halo
 * numbering (ks_halo_pack_part) with its entry count, then its rows'
 * offsets, columns and values, b and x0 in local order. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-hybrid-cg-private.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

enum { HEAD_OK, HEAD_N, HEAD_PARTS, HEAD_GPU_CELLS, HEAD_CPU_CELLS, HEAD_CUT, HEAD_LAMBDA, HEAD_GIVEN, N_HEAD };

static gboolean
send_part (KsHybridCg *h,
           guint       r,
           GError    **error)
{
  const KsHybridWorld *w = h->world;
  const KsHaloPart *hp = ks_halo_get_part (h->halo, r);
  g_autoptr(GByteArray) head = g_byte_array_new ();
  g_autofree guint *row_ptr = NULL, *col = NULL;
  g_autofree double *val = NULL;
  g_autofree double *b = g_new (double, MAX (hp->n_owned, 1));
  g_autofree double *x0 = g_new (double, MAX (hp->n_owned, 1));
  guint32 nnz;

  ks_halo_local_rows (h->halo, r, h->row_ptr, h->col, h->sys_a->val, &row_ptr, &col, &val);
  for (guint l = 0; l < hp->n_owned; l++)
    {
      b[l] = h->sys_b[hp->global[l]];
      x0[l] = h->sys_x0[hp->global[l]];
    }
  nnz = row_ptr[hp->n_owned];
  ks_halo_pack_part (h->halo, r, head);
  g_byte_array_append (head, (const guint8 *) &nnz, sizeof nnz);
  return w->send (w->data, r, head->data, head->len, error) &&
         w->send (w->data, r, row_ptr, sizeof (guint) * (hp->n_owned + 1), error) &&
         w->send (w->data, r, col, sizeof (guint) * nnz, error) &&
         w->send (w->data, r, val, sizeof (double) * nnz, error) &&
         w->send (w->data, r, b, sizeof (double) * hp->n_owned, error) &&
         w->send (w->data, r, x0, sizeof (double) * hp->n_owned, error);
}

/* One message from rank `from` of exactly bytes (a new buffer), or NULL. */
static gpointer
receive (const KsHybridWorld *w,
         guint                from,
         gsize                bytes,
         GError             **error)
{
  gsize got = 0;
  g_autofree gpointer buffer = w->recv (w->data, from, &got, error);

  if (buffer == NULL)
    return NULL;
  if (got != bytes)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   /* %lu, not G_GSIZE_FORMAT: xgettext cannot expand a macro in a message. */
                   _("Rank %u received %lu bytes from rank %u, not %lu"),
                   w->rank, (unsigned long) got, from, (unsigned long) bytes);
      return NULL;
    }
  return g_steal_pointer (&buffer);
}

/* This rank's part as rank 0 sent it, in the halo's only known part. */
static gboolean
receive_part (KsHybridCg   *h,
              const double *head,
              GError      **error)
{
  const KsHybridWorld *w = h->world;
  const guint rank = w->rank;
  Part *p = &h->parts[0];
  g_autofree guint8 *bytes = NULL;
  gsize size = 0, pos = 0;
  guint32 nnz = 0;
  const KsHaloPart *hp;

  if (!(bytes = w->recv (w->data, 0, &size, error)) ||
      !(h->halo = ks_halo_new_received ((guint) head[HEAD_N], (guint) head[HEAD_PARTS], rank, bytes, size, &pos,
                                        error)))
    return FALSE;
  if (size - pos != sizeof nnz)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("Rank %u's part as received from rank 0 is cut short"), rank);
      return FALSE;
    }
  memcpy (&nnz, bytes + pos, sizeof nnz);
  hp = ks_halo_get_part (h->halo, rank);
  p->index = rank;
  p->kind = rank < h->setup.gpu_ranks ? KS_HYBRID_GPU : KS_HYBRID_CPU;
  p->device = hp->n_owned == 0 ? NULL : p->kind == KS_HYBRID_GPU ? h->gpus[0] : h->cpu;
  p->precision = p->device ? h->setup.precision : KS_PRECISION_DOUBLE;
  h->n_parts = (guint) head[HEAD_PARTS];
  h->n_local = 1;
  if (!(p->row_ptr = receive (w, 0, sizeof (guint) * (hp->n_owned + 1), error)) ||
      !(p->col = receive (w, 0, sizeof (guint) * nnz, error)) || !(p->val = receive (w, 0, sizeof (double) * nnz, error)) ||
      !(p->b = receive (w, 0, sizeof (double) * hp->n_owned, error)) ||
      !(p->x0 = receive (w, 0, sizeof (double) * hp->n_owned, error)))
    return FALSE;
  if (p->row_ptr[hp->n_owned] != nnz)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("Rank %u's rows as received from rank 0 disagree with their entry count"), rank);
      return FALSE;
    }
  p->x = g_new0 (double, MAX (hp->n_owned + hp->n_virtual, 1));
  return TRUE;
}

gboolean
ks_hybrid_scatter_split (KsHybridCg  *h,
                         double       lambda,
                         const guint *given,
                         GError     **error)
{
  const KsHybridWorld *w = h->world;
  double head[N_HEAD] = { 0 };
  g_autoptr(GError) local = NULL;

  if (w->rank == 0 && ks_hybrid_split (h, lambda, given, &local))
    {
      head[HEAD_OK] = 1;
      head[HEAD_N] = h->n;
      head[HEAD_PARTS] = h->n_parts;
      head[HEAD_GPU_CELLS] = h->cells[KS_HYBRID_GPU];
      head[HEAD_CPU_CELLS] = h->cells[KS_HYBRID_CPU];
      head[HEAD_CUT] = h->edge_cut;
      head[HEAD_LAMBDA] = h->lambda;
      head[HEAD_GIVEN] = h->given;
    }
  if (!w->broadcast (w->data, head, sizeof head, error))
    return FALSE;
  if (head[HEAD_OK] == 0)
    {
      if (local != NULL)
        g_propagate_error (error, g_steal_pointer (&local));
      else
        g_set_error_literal (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                             _("Rank 0 could not split the system (it says why)"));
      return FALSE;
    }
  if (w->rank == 0)
    {
      for (guint r = 1; r < w->n_ranks; r++)
        if (!send_part (h, r, error))
          return FALSE;
      return TRUE;
    }
  ks_hybrid_clear_split (h);
  h->n = (guint) head[HEAD_N];
  h->cells[KS_HYBRID_GPU] = (guint64) head[HEAD_GPU_CELLS];
  h->cells[KS_HYBRID_CPU] = (guint64) head[HEAD_CPU_CELLS];
  h->edge_cut = (guint64) head[HEAD_CUT];
  h->lambda = head[HEAD_LAMBDA];
  h->given = head[HEAD_GIVEN] != 0;
  /* The others would wait for this rank at the first sum forever. */
  if (!receive_part (h, head, &local))
    w->abort (w->data, local);
  return TRUE;
}

gboolean
ks_hybrid_gather_solution (KsHybridCg *h,
                           double     *x,
                           GError    **error)
{
  const KsHybridWorld *w = h->world;
  const Part *p = &h->parts[0];
  const KsHaloPart *hp = ks_halo_get_part (h->halo, p->index);

  if (w->rank != 0)
    return w->send (w->data, 0, p->x, sizeof (double) * hp->n_owned, error);
  for (guint l = 0; l < hp->n_owned; l++)
    x[hp->global[l]] = p->x[l];
  for (guint r = 1; r < w->n_ranks; r++)
    {
      const KsHaloPart *rp = ks_halo_get_part (h->halo, r);
      g_autofree double *values = receive (w, r, sizeof (double) * rp->n_owned, error);

      if (values == NULL)
        return FALSE;
      for (guint l = 0; l < rp->n_owned; l++)
        x[rp->global[l]] = values[l];
    }
  return TRUE;
}

gboolean
ks_hybrid_cg_set_system (KsHybridCg   *h,
                         const KsCsr  *a,
                         const double *b,
                         const double *x0,
                         const double *centres,
                         double        lambda,
                         GError      **error)
{
  const KsHybridWorld *w;

  g_return_val_if_fail (h != NULL, FALSE);
  w = h->world;
  h->scattered = w != NULL && w->n_ranks > 1 && w->send != NULL && w->recv != NULL && w->broadcast != NULL;
  g_return_val_if_fail ((h->scattered && w->rank > 0) ||
                        (a != NULL && b != NULL && x0 != NULL && centres != NULL && a->n_rows == a->n_cols &&
                         a->n_rows > 0), FALSE);

  h->sys_a = a;
  h->sys_b = b;
  h->sys_x0 = x0;
  if (!h->scattered)
    {
      ks_hybrid_keep_pattern (h, a, centres);
      return ks_hybrid_split (h, lambda, NULL, error);
    }
  if (w->rank == 0)
    ks_hybrid_keep_pattern (h, a, centres);
  h->lambda = NAN;
  return ks_hybrid_scatter_split (h, lambda, NULL, error);
}

gboolean
ks_hybrid_cg_solve_system (KsHybridCg        *h,
                           const KsCgOptions *options,
                           double            *x,
                           KsHybridResult    *out,
                           GError           **error)
{
  g_autofree double *guess = NULL;

  g_return_val_if_fail (h != NULL && options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (h->halo == NULL || (!h->scattered && h->sys_a == NULL))
    {
      g_set_error_literal (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                           _("The hybrid solver has no system: set one first"));
      return FALSE;
    }
  if (h->scattered)
    return ks_hybrid_solve_parts (h, h->sys_a, h->sys_b, h->sys_x0, x, options, out, error);
  if (x == NULL)
    x = guess = g_new (double, h->n);
  memcpy (x, h->sys_x0, sizeof (double) * h->n);
  return ks_hybrid_solve_parts (h, h->sys_a, h->sys_b, x, x, options, out, error);
}
