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

static MPI_Comm world_comm;

static KsExchange *
world_exchange_new (gpointer data, const KsHalo *halo, guint part)
{
  return ks_mpi_exchange_new (halo, part, world_comm);
}

static gboolean
world_sum (gpointer data, double *values, gsize n, GError **error)
{
  /* MPI counts in int: a large vector goes in pieces. */
  for (gsize first = 0; first < n; first += G_MAXINT / 2)
    {
      const int count = (int) MIN (n - first, (gsize) G_MAXINT / 2);
      const int rc = MPI_Allreduce (MPI_IN_PLACE, values + first, count, MPI_DOUBLE, MPI_SUM, world_comm);
      if (rc != MPI_SUCCESS)
        return mpi_failed (error, rc, "MPI_Allreduce");
    }
  return TRUE;
}

static double
world_max (gpointer data, double value)
{
  double out = value;

  MPI_Allreduce (&value, &out, 1, MPI_DOUBLE, MPI_MAX, world_comm);
  return out;
}

static gboolean
world_broadcast (gpointer data, gpointer buffer, gsize bytes, GError **error)
{
  /* MPI counts in int: a large buffer goes in pieces. */
  for (gsize first = 0; first < bytes; first += G_MAXINT / 2)
    {
      const int count = (int) MIN (bytes - first, (gsize) G_MAXINT / 2);
      const int rc = MPI_Bcast ((char *) buffer + first, count, MPI_BYTE, 0, world_comm);
      if (rc != MPI_SUCCESS)
        return mpi_failed (error, rc, "MPI_Bcast");
    }
  return TRUE;
}

static void
world_abort (gpointer data, const GError *error)
{
  int rank = 0;

  MPI_Comm_rank (world_comm, &rank);
  /* stderr at once: MPI_Abort may end this process before stdio flushes. */
  fprintf (stderr, _("kernelscope-cli: rank %d failed, stopping every rank: %s\n"), rank, error->message);
  fflush (stderr);
  MPI_Abort (world_comm, 1);
}

void
ks_mpi_world_install (MPI_Comm comm)
{
  static KsHybridWorld world;
  int rank = 0, size = 1;

  world_comm = comm;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  world = (KsHybridWorld) { (guint) size, (guint) rank, world_exchange_new, world_sum, world_max, world_abort,
                            world_broadcast, NULL };
  ks_hybrid_world_set (&world);
}
