/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-msh.c: libFuzzer target for the Gmsh reader (src/mesh/ks-msh.c).
 *
 * Every input is read from memory.  A failure must be a KsMeshError with a
 * message; a mesh that is accepted must hold what ks_mesh_new promises
 * (fuzz-msh-check.h).  Inputs stop at 4 KB: fuzz-msh-gen writes the large
 * meshes.  Built with
 * clang by tests/fuzz/run-fuzz.sh (target msh), which CI runs for a minute. */
#define G_LOG_DOMAIN "fuzz-msh"

#include <stdint.h>

#include <glib.h>

#include "fuzz-msh-check.h"
#include "ks-msh.h"

/* Small limits keep each run fast: the fuzzer is after parsing bugs. */
#define FUZZ_MAX_CELLS 4096

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data ((const char *) data, size, "fuzz.msh", FUZZ_MAX_CELLS, &error);

  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == KS_MESH_ERROR && error->message != NULL);
      return 0;
    }
  g_assert (error == NULL && m->n_cells <= FUZZ_MAX_CELLS);
  ks_fuzz_check_mesh (m);
  return 0;
}
