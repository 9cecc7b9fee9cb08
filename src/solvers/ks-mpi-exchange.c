/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mpi-exchange.c: see ks-mpi-exchange.h. */
#define G_LOG_DOMAIN "ks-mpi"

#include "ks-mpi-exchange.h"
#include "ks-hybrid-cg.h"

#include <stdio.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#define HALO_TAG 4004

typedef struct {
  KsExchange    base;
  MPI_Comm      comm;
  double      **send;       /* one packed buffer per neighbour */
  MPI_Request  *requests;   /* a receive and a send per neighbour */
  MPI_Request   sum;        /* the pipelined CG's sum in flight */
} MpiExchange;

static gboolean
mpi_failed (GError    **error,
            int         rc,
            const char *what)
{
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;

  MPI_Error_string (rc, text, &len);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("MPI: %s failed: %.*s"), what, len, text);
  return FALSE;
}

static gboolean
mpi_start (KsExchange *self,
           double     *x,
           GError    **error)
{
  MpiExchange *ex = (MpiExchange *) self;
  const KsHaloPart *part = self->part;

  for (guint j = 0; j < part->n_neighbours; j++)
    {
      const KsHaloNeighbour *nb = &part->neighbours[j];
      int rc;

      for (guint i = 0; i < nb->n_send; i++)
        ex->send[j][i] = x[nb->send[i]];
      if ((rc = MPI_Irecv (x + nb->recv_first, (int) nb->n_recv, MPI_DOUBLE, (int) nb->part, HALO_TAG,
                           ex->comm, &ex->requests[2 * j])) != MPI_SUCCESS ||
          (rc = MPI_Isend (ex->send[j], (int) nb->n_send, MPI_DOUBLE, (int) nb->part, HALO_TAG, ex->comm,
                           &ex->requests[2 * j + 1])) != MPI_SUCCESS)
        return mpi_failed (error, rc, "MPI_Isend/MPI_Irecv");
    }
  return TRUE;
}

static gboolean
mpi_finish (KsExchange *self,
            double     *x,
            GError    **error)
{
  MpiExchange *ex = (MpiExchange *) self;
  int rc = MPI_Waitall ((int) (2 * self->part->n_neighbours), ex->requests, MPI_STATUSES_IGNORE);

  return rc == MPI_SUCCESS || mpi_failed (error, rc, "MPI_Waitall");
}

static gboolean
mpi_allreduce (KsExchange *self,
               double     *values,
               guint       n,
               GError    **error)
{
  MpiExchange *ex = (MpiExchange *) self;
  int rc = MPI_Allreduce (MPI_IN_PLACE, values, (int) n, MPI_DOUBLE, MPI_SUM, ex->comm);

  return rc == MPI_SUCCESS || mpi_failed (error, rc, "MPI_Allreduce");
}

static gboolean
mpi_iallreduce_start (KsExchange *self,
                      double     *values,
                      guint       n,
                      GError    **error)
{
  MpiExchange *ex = (MpiExchange *) self;
  int rc = MPI_Iallreduce (MPI_IN_PLACE, values, (int) n, MPI_DOUBLE, MPI_SUM, ex->comm, &ex->sum);

  return rc == MPI_SUCCESS || mpi_failed (error, rc, "MPI_Iallreduce");
}

static gboolean
mpi_iallreduce_finish (KsExchange *self,
                       double     *values,
                       guint       n,
                       GError    **error)
{
  MpiExchange *ex = (MpiExchange *) self;
  int rc = MPI_Wait (&ex->sum, MPI_STATUS_IGNORE);

  return rc == MPI_SUCCESS || mpi_failed (error, rc, "MPI_Wait");
}

static void
mpi_free (KsExchange *self)
{
  MpiExchange *ex = (MpiExchange *) self;

  for (guint j = 0; j < self->part->n_neighbours; j++)
    g_free (ex->send[j]);
  g_free (ex->send);
  g_free (ex->requests);
  g_free (ex);
}

static const KsExchangeVTable mpi_vtable = {
  mpi_start, mpi_finish, mpi_allreduce, NULL, mpi_free, mpi_iallreduce_start, mpi_iallreduce_finish,
};

KsExchange *
ks_mpi_exchange_new (const KsHalo *halo,
                     guint         part,
                     MPI_Comm      comm)
{
  MpiExchange *ex;
  const KsHaloPart *hp;

  g_return_val_if_fail (halo != NULL && part < ks_halo_get_n_parts (halo), NULL);

  hp = ks_halo_get_part (halo, part);
  ex = g_new0 (MpiExchange, 1);
  ex->base.vtable = &mpi_vtable;
  ex->base.part = hp;
  ex->comm = comm;
  ex->send = g_new0 (double *, MAX (hp->n_neighbours, 1));
  ex->requests = g_new (MPI_Request, MAX (2 * hp->n_neighbours, 1));
  for (guint j = 0; j < hp->n_neighbours; j++)
    ex->send[j] = g_new (double, MAX (hp->neighbours[j].n_send, 1));
  return &ex->base;
}

/* --- the world: ranks of MPI_COMM_WORLD (or another communicator) ---------- */

#define MAX_GPUS_WORLDS 8

/* A world over comm; data of its KsHybridWorld.  The GPU ranks' worlds
 * made from it are kept here, one per rank count, until MPI_Finalize. */
typedef struct _MpiWorld MpiWorld;
struct _MpiWorld {
  MPI_Comm       comm;
  KsHybridWorld  world;
  guint          n_subs;
  guint          sub_first[MAX_GPUS_WORLDS];
  MpiWorld      *sub[MAX_GPUS_WORLDS];   /* NULL on the ranks outside */
};

/* What MPI_Abort ends: the whole run, also from a GPU ranks' world. */
static MPI_Comm root_comm;

static KsExchange *
world_exchange_new (gpointer data, const KsHalo *halo, guint part)
{
  return ks_mpi_exchange_new (halo, part, ((MpiWorld *) data)->comm);
}

static gboolean
world_sum (gpointer data, double *values, gsize n, GError **error)
{
  MPI_Comm comm = ((MpiWorld *) data)->comm;

  /* MPI counts in int: a large vector goes in pieces. */
  for (gsize first = 0; first < n; first += G_MAXINT / 2)
    {
      const int count = (int) MIN (n - first, (gsize) G_MAXINT / 2);
      const int rc = MPI_Allreduce (MPI_IN_PLACE, values + first, count, MPI_DOUBLE, MPI_SUM, comm);
      if (rc != MPI_SUCCESS)
        return mpi_failed (error, rc, "MPI_Allreduce");
    }
  return TRUE;
}

static double
world_max (gpointer data, double value)
{
  double out = value;

  MPI_Allreduce (&value, &out, 1, MPI_DOUBLE, MPI_MAX, ((MpiWorld *) data)->comm);
  return out;
}

static gboolean
world_broadcast (gpointer data, gpointer buffer, gsize bytes, GError **error)
{
  MPI_Comm comm = ((MpiWorld *) data)->comm;

  /* MPI counts in int: a large buffer goes in pieces. */
  for (gsize first = 0; first < bytes; first += G_MAXINT / 2)
    {
      const int count = (int) MIN (bytes - first, (gsize) G_MAXINT / 2);
      const int rc = MPI_Bcast ((char *) buffer + first, count, MPI_BYTE, 0, comm);
      if (rc != MPI_SUCCESS)
        return mpi_failed (error, rc, "MPI_Bcast");
    }
  return TRUE;
}

#define SEND_TAG 4005
/* MPI counts in int: a part of a large system goes in pieces of this. */
#define PIECE ((gsize) 1 << 30)

static gboolean
world_send (gpointer data, guint to, gconstpointer buffer, gsize bytes, GError **error)
{
  MPI_Comm comm = ((MpiWorld *) data)->comm;
  guint64 size = bytes;
  int rc = MPI_Send (&size, 1, MPI_UINT64_T, (int) to, SEND_TAG, comm);

  for (gsize first = 0; rc == MPI_SUCCESS && first < bytes; first += PIECE)
    rc = MPI_Send ((const char *) buffer + first, (int) MIN (bytes - first, PIECE), MPI_BYTE, (int) to, SEND_TAG,
                   comm);
  return rc == MPI_SUCCESS || mpi_failed (error, rc, "MPI_Send");
}

static gpointer
world_recv (gpointer data, guint from, gsize *bytes, GError **error)
{
  MPI_Comm comm = ((MpiWorld *) data)->comm;
  guint64 size = 0;
  g_autofree char *buffer = NULL;
  int rc = MPI_Recv (&size, 1, MPI_UINT64_T, (int) from, SEND_TAG, comm, MPI_STATUS_IGNORE);

  if (rc == MPI_SUCCESS)
    buffer = g_try_malloc (MAX (size, 1));
  if (rc == MPI_SUCCESS && buffer == NULL)
    {
      g_autofree char *text = g_format_size (size);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("MPI: no memory for the %s sent by rank %u"), text,
                   from);
      return NULL;
    }
  for (gsize first = 0; rc == MPI_SUCCESS && first < size; first += PIECE)
    rc = MPI_Recv (buffer + first, (int) MIN (size - first, PIECE), MPI_BYTE, (int) from, SEND_TAG, comm,
                   MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS)
    {
      mpi_failed (error, rc, "MPI_Recv");
      return NULL;
    }
  *bytes = size;
  return g_steal_pointer (&buffer);
}

static void
world_abort (gpointer data, const GError *error)
{
  int rank = 0;

  MPI_Comm_rank (root_comm, &rank);
  /* stderr at once: MPI_Abort may end this process before stdio flushes. */
  fprintf (stderr, _("kernelscope-cli: rank %d failed, stopping every rank: %s\n"), rank, error->message);
  fflush (stderr);
  MPI_Abort (root_comm, 1);
}

static const KsHybridWorld *world_gpus_world (gpointer data, guint first, GError **error);

static MpiWorld *
mpi_world_new (MPI_Comm comm)
{
  MpiWorld *w = g_new0 (MpiWorld, 1);
  int rank = 0, size = 1;

  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  w->comm = comm;
  w->world = (KsHybridWorld) { (guint) size, (guint) rank, world_exchange_new, world_sum, world_max, world_abort,
                               world_broadcast, world_gpus_world, world_send, world_recv, w };
  return w;
}

/* Ranks 0 to first - 1 of data's world, split off by MPI_Comm_split (a
 * collective: every rank of the world calls it with the same first). */
static const KsHybridWorld *
world_gpus_world (gpointer data, guint first, GError **error)
{
  MpiWorld *w = data, *made;
  MPI_Comm sub = MPI_COMM_NULL;
  int rc;

  for (guint i = 0; i < w->n_subs; i++)
    if (w->sub_first[i] == first)
      return w->sub[i] ? &w->sub[i]->world : NULL;
  if (first == 0 || first > w->world.n_ranks || w->n_subs == MAX_GPUS_WORLDS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("MPI: no world of the first %u of %u ranks"), first, w->world.n_ranks);
      return NULL;
    }
  rc = MPI_Comm_split (w->comm, w->world.rank < first ? 0 : MPI_UNDEFINED, (int) w->world.rank, &sub);
  if (rc != MPI_SUCCESS)
    {
      mpi_failed (error, rc, "MPI_Comm_split");
      return NULL;
    }
  made = sub != MPI_COMM_NULL ? mpi_world_new (sub) : NULL;
  w->sub_first[w->n_subs] = first;
  w->sub[w->n_subs++] = made;
  return made != NULL ? &made->world : NULL;
}

void
ks_mpi_world_install (MPI_Comm comm)
{
  static MpiWorld *world;

  root_comm = comm;
  world = mpi_world_new (comm);
  ks_hybrid_world_set (&world->world);
}
