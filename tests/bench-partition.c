/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The geometric partition's time on a square grid of cells, one thread:
 *   build/tests/bench-partition SIDE PARTS      (e.g. 4096 32: 16.8 M cells)
 * What rank 0 pays for every lambda of run heat-hybrid under mpirun. */
#include "ks-partition.h"

#include <stdio.h>
#include <stdlib.h>

int
main (int    argc,
      char **argv)
{
  const guint side = argc > 1 ? (guint) atoi (argv[1]) : 1024, np = argc > 2 ? (guint) atoi (argv[2]) : 32;
  const guint n = side * side;
  g_autofree double *c = g_new (double, 2 * (gsize) n);
  g_autofree guint *part = g_new (guint, n);
  g_autofree guint64 *counts = g_new0 (guint64, MAX (np, 1));
  g_autoptr(GError) error = NULL;
  guint64 left = n;
  gint64 t0;

  if (side == 0 || np == 0 || (guint64) side * side > G_MAXUINT)
    {
      fprintf (stderr, "usage: bench-partition SIDE PARTS (SIDE x SIDE cells, at most 2^32)\n");
      return 2;
    }
  for (guint i = 0; i < n; i++)
    {
      c[2 * (gsize) i] = i % side + 0.5;
      c[2 * (gsize) i + 1] = i / side + 0.5;
    }
  for (guint p = 0; p + 1 < np; p++)
    left -= counts[p] = n / np;
  counts[np - 1] = left;
  t0 = g_get_monotonic_time ();
  if (!ks_partition_cells (KS_PARTITION_GEOMETRIC, n, NULL, NULL, c, np, counts, part, NULL, &error))
    {
      fprintf (stderr, "bench-partition: %s\n", error->message);
      return 1;
    }
  printf ("%u cells, %u parts: %.2f s\n", n, np, (g_get_monotonic_time () - t0) / 1e6);
  return 0;
}
