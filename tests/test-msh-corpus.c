/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-msh-corpus.c: meshes written by Gmsh itself (tests/data-meshes,
 * made from the .geo files beside them by gmsh -2 -format msh22|msh41
 * [-bin]) read with the cell counts and areas of the .geo; and the bad
 * meshes' messages (issue 28). */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "ks-msh.h"
#include "ks-test-mesh-util.h"

typedef struct {
  const char *stem;
  guint       cells;       /* as the ASCII files list them */
  guint       reoriented;  /* cells of the clockwise surface */
  double      area;
  guint       boundary_groups;
} Case;

static const Case cases[] = {
  /* Two unit squares, the right one's loop clockwise. */
  { "two-squares", 28, 14, 2.0, 2 },
  /* 3 x 2 quadrilaterals, away from the origin. */
  { "quads", 6, 0, 6.0, 1 },
};

static void
test_corpus (void)
{
  static const char *formats[] = { "msh22", "msh22-bin", "msh41", "msh41-bin" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        g_autofree char *name = g_strdup_printf ("%s-%s.msh", cases[i].stem, formats[f]);
        g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-meshes", name, NULL);
        g_autoptr(GError) error = NULL;
        g_autoptr(KsMesh) m = ks_msh_read_file (path, 0, &error);

        g_test_message ("%s", name);
        g_assert_no_error (error);
        g_assert_cmpuint (m->n_cells, ==, cases[i].cells);
        g_assert_cmpuint (m->n_reoriented, ==, cases[i].reoriented);
        g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), cases[i].area, 1e-12);
        g_assert_cmpuint (m->groups->len, ==, cases[i].boundary_groups);
        if (cases[i].reoriented > 0)
          g_assert_nonnull (strstr (m->description, "cells were clockwise"));
      }
}

/* The same file in the other byte order reads the same. */
static void
test_big_endian (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-meshes", "quads-msh41-be.msh", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_file (path, 0, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_cells, ==, 6);
  g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), 6.0, 1e-12);
}

static void
expect_bad (const char *text, gsize length, KsMeshError code, const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data (text, length, "bad.msh", 0, &error);

  ks_test_expect_mesh_refused (m, error, code, words);
}

static void
expect_file_bad (const char *file, KsMeshError code, const char *words)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-meshes", file, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_file (path, 0, &error);

  ks_test_expect_mesh_refused (m, error, code, words);
}

static void
test_bad (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data-meshes", "quads-msh41-bin.msh", NULL);
  g_autofree char *data = NULL;
  gsize length;

  expect_bad ("$NOD\n1\n1 0 0 0\n$ENDNOD\n", 22, KS_MESH_ERROR_UNSUPPORTED, "an old Gmsh format (1.0): save as 2.2 or 4.1");
  {
    static const char tet[] = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n"
                              "4 0 0 1\n$EndNodes\n$Elements\n1\n1 4 2 1 1 1 2 3 4\n$EndElements\n";
    expect_bad (tet, strlen (tet), KS_MESH_ERROR_UNSUPPORTED, "a 3D mesh: Kernelscope solves on 2D meshes");
  }
  /* Gmsh's box.geo: meshed in 2D, the cube's surface; in 3D, tetrahedra. */
  expect_file_bad ("box-msh41-bin.msh", KS_MESH_ERROR_UNSUPPORTED, "box-msh41-bin.msh: the surface is not planar");
  expect_file_bad ("box3d-msh22.msh", KS_MESH_ERROR_UNSUPPORTED, "a 3D mesh: Kernelscope solves on 2D meshes");
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  /* Cut anywhere: an error, never a crash or a read past the end. */
  for (gsize cut = 0; cut < length - 16; cut += 13)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsMesh) m = ks_msh_read_data (data, cut, "cut.msh", 0, &error);
      g_assert_null (m);
      g_assert_nonnull (error);
    }
  expect_bad (data, length / 2, KS_MESH_ERROR_PARSE, "(truncated?)");
  /* The int after the format line neither 1 nor 1 swapped. */
  data[strlen ("$MeshFormat\n4.1 1 8\n")] = 7;
  expect_bad (data, length, KS_MESH_ERROR_PARSE, "not 1 in either byte order");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/msh-corpus/gmsh", test_corpus);
  g_test_add_func ("/msh-corpus/big-endian", test_big_endian);
  g_test_add_func ("/msh-corpus/bad", test_bad);
  return g_test_run ();
}
