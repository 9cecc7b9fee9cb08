/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli's entry point; everything else is in the kscli library,
 * which test programs link with experiments of their own registered.
 *
 * Started by mpirun, it is one rank of paper 004's distributed run: MPI
 * is brought up here, the ranks become the hybrid solver's world (each
 * solves one part), and only rank 0 prints and writes. */
#include <glib.h>
#include <glib/gi18n-lib.h>

#include "ks-cli.h"

#ifdef KS_HAVE_MPI
#include <mpi.h>
#include "ks-mpi-exchange.h"
#endif

/* Open MPI's launcher, or a PMI one (MPICH, Slurm's srun). */
static gboolean
launched_by_mpirun (void)
{
  return g_getenv ("OMPI_COMM_WORLD_SIZE") != NULL || g_getenv ("PMI_SIZE") != NULL ||
         g_getenv ("PMIX_RANK") != NULL;
}

int
main (int    argc,
      char **argv)
{
  if (!launched_by_mpirun ())
    return ks_cli_main (argc, argv);
#ifdef KS_HAVE_MPI
  {
    int provided = 0, rank = 0, size = 1, status;

    /* The engine measures on a worker thread: MPI is called from one
     * thread at a time, not always the one that started it. */
    MPI_Init_thread (&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    if (provided < MPI_THREAD_SERIALIZED)
      {
        g_printerr (_("kernelscope-cli: this MPI cannot be called from the measuring thread "
                      "(it gives thread level %d, %d is needed)\n"), provided, MPI_THREAD_SERIALIZED);
        MPI_Finalize ();
        return 1;
      }
    MPI_Comm_rank (MPI_COMM_WORLD, &rank);
    MPI_Comm_size (MPI_COMM_WORLD, &size);
    ks_mpi_world_install (MPI_COMM_WORLD);
    ks_cli_set_follower (rank > 0);
    {
      /* mpirun's own options (binding, -x) are not visible here. */
      g_autofree char *launcher = g_strdup_printf ("mpirun -np %d", size);
      ks_cli_set_launcher (launcher);
    }
    status = ks_cli_main (argc, argv);
    MPI_Finalize ();
    return status;
  }
#else
  g_printerr (_("kernelscope-cli: started by mpirun, but this build has no MPI (install Open MPI's "
                "libopenmpi-dev and build with -Dmpi=enabled); run it without mpirun\n"));
  return 2;
#endif
}
