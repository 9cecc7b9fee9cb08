/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-mpi-exchange.h: the halo exchange of ks-dist-cg.h between MPI ranks,
 * one part per rank (the rank in comm is the part's index): non-blocking
 * sends and receives started before the interior SpMV and waited for
 * after it, sums by MPI_Allreduce.  Only in builds with MPI (KS_HAVE_MPI;
 * the meson feature "mpi"). */
#pragma once

#include <mpi.h>

#include "ks-dist-cg.h"

G_BEGIN_DECLS

/* An exchange for part (which must be comm's rank) of halo; free it with
 * ks_exchange_free before MPI_Finalize. */
KsExchange *ks_mpi_exchange_new (const KsHalo *halo,
                                 guint         part,
                                 MPI_Comm      comm);

/* Makes comm the process's KsHybridWorld (ks-hybrid-cg.h): one part of
 * every hybrid solve per rank.  Call after MPI_Init, before any solver is
 * made; comm must stay valid until MPI_Finalize. */
void        ks_mpi_world_install (MPI_Comm      comm);

G_END_DECLS
