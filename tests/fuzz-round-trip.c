/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-round-trip.c: see fuzz-round-trip.h. */
#include "fuzz-round-trip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gpointer
ks_fuzz_round_trip (const char     *name,
                    const uint8_t  *data,
                    size_t          size,
                    KsFuzzRead      read,
                    KsFuzzWrite     write,
                    GDestroyNotify  free_object)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json2 = NULL;
  gpointer object, again;

  if (!(object = read ((const char *) data, (gssize) size, NULL)))
    return NULL;
  json = write (object);
  if (!(again = read (json, -1, &error)))
    {
      fprintf (stderr, "%s: what it wrote it cannot read (%s):\n%s\n", name, error->message, json);
      abort ();
    }
  json2 = write (again);
  free_object (again);
  if (strcmp (json, json2) != 0)
    {
      fprintf (stderr, "%s: written twice, the texts differ:\n%s\n---\n%s\n", name, json, json2);
      abort ();
    }
  return object;
}
