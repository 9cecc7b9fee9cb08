/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mesh-hostile: meshes made to hurt (issue 25), written as MSH text
 * by the test itself (tests/fuzz/msh-gen.c): a fan of 20,000 triangles
 * round one node and a turned strip of 20,000 thin cells are answered at
 * once (meson's timeout on this test is the limit: the old overlap check
 * was quadratic), scales double precision cannot carry, coincident nodes,
 * a bowtie, a mesh on a mesh, a tilted and a bent surface, and what the
 * reader says of a too-large tag, CR-only lines and escape sequences. */
#define G_LOG_DOMAIN "test-mesh-hostile"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "ks-heat.h"
#include "ks-mesh.h"
#include "ks-msh.h"
#include "ks-test-mesh-util.h"
#include "fuzz/msh-gen.h"

static KsMesh *
read_gen (const KsGenParams *p, GError **error)
{
  g_autoptr(GString) text = ks_gen_msh (p);

  return ks_msh_read_data (text->str, text->len, "gen.msh", 0, error);
}

static void
expect_refused (const KsGenParams *p, KsMeshError code, const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = read_gen (p, &error);

  ks_test_expect_mesh_refused (m, error, code, words);
}

static void
expect_accepted (const KsGenParams *p)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = read_gen (p, &error);

  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), ks_gen_area (p), 1e-9 * ks_gen_area (p));
}

static void
test_fan (void)
{
  KsGenParams p = { KS_GEN_FAN, 20000, 1.0, 0, 0, FALSE, FALSE, 0 };
  gint64 t0 = g_get_monotonic_time ();

  expect_refused (&p, KS_MESH_ERROR_DEGENERATE, "Node 1 is shared by 20000 cells; at most 64");
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  p.count = KS_MESH_MAX_NODE_CELLS;
  expect_accepted (&p);
  p.count = KS_MESH_MAX_NODE_CELLS + 1;
  expect_refused (&p, KS_MESH_ERROR_DEGENERATE, "at most 64");
}

/* Thin cells whose bounding boxes all overlap (the strip turned 30
 * degrees), and the same stacked straight. */
static void
test_strips (void)
{
  KsGenParams p = { KS_GEN_STRIP, 20000, 1.0, G_PI / 6, 0, FALSE, FALSE, 0 };

  expect_accepted (&p);
  p.angle = 0;
  p.clockwise = TRUE;
  expect_accepted (&p);
}

static void
test_scales (void)
{
  const struct { double scale; const char *words; } cases[] = {
    { 1e-80, "about 1.4e-81 across" },
    { 1e-160, "e-161 across" },
    { 1e-200, "e-201 across" },
    { 1e-50, "about 1.4e-51 across" },
    { 1e140, "e+139 across" },
  };
  KsGenParams p = { KS_GEN_GRID, 49, 1.0, 0, 0, FALSE, FALSE, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      p.scale = cases[i].scale;
      expect_refused (&p, KS_MESH_ERROR_INVALID, cases[i].words);
    }
  p.scale = 1e-6;
  expect_accepted (&p);
  p.scale = 1e6;
  expect_accepted (&p);
}

static void
test_broken (void)
{
  KsGenParams p = { KS_GEN_CRACK, 16, 1.0, 0, 0, FALSE, FALSE, 0 };

  expect_refused (&p, KS_MESH_ERROR_DEGENERATE, "a crack heat cannot cross");
  p.kind = KS_GEN_BOWTIE;
  expect_refused (&p, KS_MESH_ERROR_DEGENERATE, "is twisted");
  p.kind = KS_GEN_NESTED;
  expect_refused (&p, KS_MESH_ERROR_OVERLAP, "lies on top of another part of the mesh");
  p.kind = KS_GEN_GRID;
  p.bend = TRUE;
  expect_refused (&p, KS_MESH_ERROR_UNSUPPORTED, "not planar: node");
}

/* z = 5x and a plane turned about x: turned into the plane, areas kept. */
static void
test_tilted (void)
{
  const char *z5x =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n"
    "1 0 0 0\n2 1 0 5\n3 1 1 5\n4 0 1 0\n$EndNodes\n$Elements\n1\n1 3 2 1 1 1 2 3 4\n$EndElements\n";
  KsGenParams p = { KS_GEN_GRID, 100, 2.0, 0.3, 1.2, FALSE, FALSE, 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data (z5x, strlen (z5x), "z5x.msh", 0, &error);

  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), sqrt (26.0), 1e-12);
  g_assert_nonnull (strstr (m->description, "turned into its plane"));
  expect_accepted (&p);
}

static void
expect_text_refused (const char *text, const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data (text, strlen (text), "bad.msh", 0, &error);

  g_assert_null (m);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, words));
  g_assert_null (strchr (error->message, '\033'));
}

static void
test_reader_messages (void)
{
  const char *cube =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n8\n"
    "1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 0 0 1\n6 1 0 1\n7 1 1 1\n8 0 1 1\n$EndNodes\n$Elements\n6\n"
    "1 3 2 1 1 1 4 3 2\n2 3 2 1 1 5 6 7 8\n3 3 2 1 1 1 2 6 5\n4 3 2 1 1 2 3 7 6\n"
    "5 3 2 1 1 3 4 8 7\n6 3 2 1 1 4 1 5 8\n$EndElements\n";
  const char *cr_only =
    "$MeshFormat\r2.2 0 8\r$EndMeshFormat\r$Nodes\r3\r1 0 0 0\r2 1 0 0\r3 0 1 0\r$EndNodes\r"
    "$Elements\r1\r1 2 2 1 1 1 2 3\r$EndElements\r";
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data (cr_only, strlen (cr_only), "mac.msh", 0, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_cells, ==, 1);
  expect_text_refused (cube, "not planar");
  expect_text_refused ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n4294967295 0 0 0\n$EndNodes\n",
                       "4294967295 is too large: tags and counts go up to 4294967294");
  expect_text_refused ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n\033]0;pwned\007\n", "\\x1b]0;pwned\\x07");
}

/* The energy goes in at the origin; on a mesh beside it, at the centre
 * of the cell nearest the mesh's centre, with a note naming that cell. */
static void
test_origin_outside (void)
{
  KsGenParams p = { KS_GEN_GRID, 16, 1.0, 0, 0, FALSE, FALSE, 5.0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = read_gen (&p, &error);
  g_autoptr(KsHeat) heat = NULL;
  KsHeatParams hp;
  double x, y, mx, my;
  guint c;

  g_assert_no_error (error);
  ks_heat_params_init (&hp);
  heat = ks_heat_new (m, &hp, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ks_heat_get_note (heat));
  g_test_message ("%s", ks_heat_get_note (heat));
  ks_heat_get_release (heat, &x, &y);
  c = ks_mesh_locate_point (m, x, y);
  g_assert_cmpuint (c, !=, G_MAXUINT);
  mx = 0.5 * (m->xmin + m->xmax), my = 0.5 * (m->ymin + m->ymax);
  /* The middle cell: within a cell's size of the mesh's centre. */
  g_assert_cmpfloat (hypot (x - mx, y - my), <, sqrt (ks_mesh_total_area (m) / m->n_cells));
  g_assert_cmpfloat (ks_heat_get_temperature (heat)[c], >, 0.0);
  {
    g_autofree char *named = g_strdup_printf ("cell %u, (%g, %g)", c + 1, x, y);
    g_assert_nonnull (strstr (ks_heat_get_note (heat), named));
  }
  g_assert_nonnull (strstr (ks_heat_get_note (heat), "outside the mesh"));
  g_clear_pointer (&heat, ks_heat_free);
  p.shift = 0.0;   /* the origin at a corner: in, no note */
  g_clear_pointer (&m, ks_mesh_unref);
  m = read_gen (&p, &error);
  heat = ks_heat_new (m, &hp, &error);
  g_assert_no_error (error);
  g_assert_null (ks_heat_get_note (heat));
  ks_heat_get_release (heat, &x, &y);
  g_assert_cmpfloat (x, ==, 0.0);
  g_assert_cmpfloat (y, ==, 0.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mesh-hostile/fan", test_fan);
  g_test_add_func ("/mesh-hostile/strips", test_strips);
  g_test_add_func ("/mesh-hostile/scales", test_scales);
  g_test_add_func ("/mesh-hostile/broken", test_broken);
  g_test_add_func ("/mesh-hostile/tilted", test_tilted);
  g_test_add_func ("/mesh-hostile/reader-messages", test_reader_messages);
  g_test_add_func ("/mesh-hostile/origin-outside", test_origin_outside);
  return g_test_run ();
}
