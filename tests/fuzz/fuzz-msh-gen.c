/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-msh-gen.c: libFuzzer target for the Gmsh reader and the mesh checks
 * on large structured meshes (msh-gen.h), beyond what a 4 KB input holds.
 *
 * The input's first bytes are the parameters: the kind (a fan, a strip of
 * thin cells, a grid, and three broken ones), the cell count (up to
 * 25,000), the scale (10^-128..10^127), the angle in the plane, a tilt out
 * of z = 0 or a bend, clockwise cells, a shift from the origin.  A mesh
 * the generator calls valid must be accepted with its area; a broken one
 * refused with a KsMeshError; either within libFuzzer's -timeout (no
 * check may be quadratic).  Built by tests/fuzz/run-fuzz.sh (msh-gen). */
#define G_LOG_DOMAIN "fuzz-msh-gen"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "fuzz-msh-check.h"
#include "ks-msh.h"
#include "msh-gen.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static KsGenParams
params_of (const uint8_t *d, size_t size)
{
  uint8_t b[8] = { 0 };
  KsGenParams p;

  memcpy (b, d, MIN (size, sizeof b));
  p.kind = b[0] % KS_GEN_N_KINDS;
  p.count = 1 + (((guint) b[1] << 8) | b[2]) % 25000;
  p.scale = pow (10.0, (int8_t) b[3]) * (1.0 + b[7] / 256.0);
  p.angle = b[4] / 256.0 * 2 * G_PI;
  p.tilt = (b[5] & 0x7f) / 128.0 * 0.49 * G_PI;
  p.bend = (b[6] & 2) != 0;
  p.clockwise = (b[6] & 1) != 0;
  p.shift = ((b[6] >> 2) & 3) == 0 ? 0.0 : p.scale * pow (10.0, ((b[6] >> 2) & 3) * 3 - 6);
  return p;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const KsGenParams p = params_of (data, size);
  g_autoptr(GString) text = ks_gen_msh (&p);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data (text->str, text->len, "gen.msh", 0, &error);
  const gboolean broken = p.bend || p.kind == KS_GEN_NESTED || p.kind == KS_GEN_BOWTIE ||
                          p.kind == KS_GEN_CRACK || (p.kind == KS_GEN_FAN && p.count > KS_MESH_MAX_NODE_CELLS);

  if (m == NULL)
    {
      g_assert (error != NULL && error->domain == KS_MESH_ERROR && error->message != NULL);
      if (ks_gen_is_valid (&p))
        g_error ("a valid mesh refused (kind %d, %u cells, scale %g): %s", p.kind, p.count, p.scale, error->message);
      return 0;
    }
  g_assert (!broken);
  ks_fuzz_check_mesh (m);
  if (ks_gen_is_valid (&p))
    g_assert (fabs (ks_mesh_total_area (m) - ks_gen_area (&p)) <= 1e-9 * ks_gen_area (&p));
  return 0;
}
