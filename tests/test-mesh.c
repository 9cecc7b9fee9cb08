/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mesh: the mesh layer (src/mesh): generators, geometry, stencils,
 * boundary edges, every bad mesh ks_mesh_new refuses, and the Gmsh reader
 * on MSH 2.2 and 4.1 files, good and bad. */
#define G_LOG_DOMAIN "test-mesh"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ks-mesh.h"
#include "ks-mesh-gen.h"
#include "ks-msh.h"
#include "ks-test-mesh-util.h"

/* Divergence theorem over the boundary edges: sum of x n_x dl is the area,
 * and the outward normals sum to zero.  Checks that the edges are found,
 * oriented with their cell on the left, and closed. */
static void
check_boundary (const KsMesh *m)
{
  double xnx = 0.0, nx = 0.0, ny = 0.0;

  for (guint e = 0; e < m->n_boundary; e++)
    {
      const guint a = m->boundary_a[e], b = m->boundary_b[e];
      /* (b - a) turned clockwise, times the length already. */
      const double ex = m->y[b] - m->y[a], ey = -(m->x[b] - m->x[a]);
      xnx += 0.5 * (m->x[a] + m->x[b]) * ex;
      nx += ex;
      ny += ey;
      g_assert_true (m->boundary_node[a] && m->boundary_node[b]);
    }
  g_assert_cmpfloat_with_epsilon (xnx, ks_mesh_total_area (m), 1e-9);
  g_assert_cmpfloat_with_epsilon (nx, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (ny, 0.0, 1e-9);
}

/* Every stencil is symmetric (d in c's iff c in d's) and is exactly the
 * cells that share a node. */
static void
check_stencil (const KsMesh *m)
{
  for (guint c = 0; c < m->n_cells; c++)
    for (guint i = m->stencil_offsets[c]; i < m->stencil_offsets[c + 1]; i++)
      {
        const guint d = m->stencil[i];
        gboolean back = FALSE, shared = FALSE;
        g_assert_cmpuint (d, !=, c);
        if (i > m->stencil_offsets[c])
          g_assert_cmpuint (m->stencil[i - 1], <, d);
        for (guint j = m->stencil_offsets[d]; j < m->stencil_offsets[d + 1]; j++)
          back |= m->stencil[j] == c;
        for (guint p = m->cell_offsets[c]; p < m->cell_offsets[c + 1]; p++)
          for (guint q = m->cell_offsets[d]; q < m->cell_offsets[d + 1]; q++)
            shared |= m->cell_nodes[p] == m->cell_nodes[q];
        g_assert_true (back);
        g_assert_true (shared);
      }
}

static void
test_generators (void)
{
  for (guint kind = KS_MESH_KIND_QUAD; kind <= KS_MESH_KIND_PERTURBED; kind++)
    for (guint domain = KS_MESH_DOMAIN_SQUARE; domain <= KS_MESH_DOMAIN_DISC; domain++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(KsMesh) m = ks_mesh_generate (kind, domain, 2000, 7, &error);
        guint tri, quad;

        g_assert_no_error (error);
        g_test_message ("%s: %u cells, %u boundary edges, mean stencil %.2f", m->description,
                        m->n_cells, m->n_boundary, ks_mesh_mean_stencil (m));
        g_assert_cmpuint (m->n_cells, >, 1500);
        g_assert_cmpuint (m->n_cells, <, 2500);
        ks_mesh_count_kinds (m, &tri, &quad);
        g_assert_cmpuint (tri > 0, ==, kind == KS_MESH_KIND_TRI || kind == KS_MESH_KIND_MIXED);
        g_assert_cmpuint (quad > 0, ==, kind != KS_MESH_KIND_TRI);
        for (guint c = 0; c < m->n_cells; c++)
          g_assert_cmpfloat (m->area[c], >, 0.0);
        if (domain == KS_MESH_DOMAIN_SQUARE)
          {
            g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), 4.0, 1e-10);
            g_assert_cmpfloat_with_epsilon (ks_mesh_boundary_length (m), 8.0, 1e-10);
          }
        else
          {
            /* An inscribed polygon: a little under pi and 2 pi. */
            g_assert_cmpfloat (ks_mesh_total_area (m), <, G_PI);
            g_assert_cmpfloat (ks_mesh_total_area (m), >, 0.995 * G_PI);
            g_assert_cmpfloat (ks_mesh_boundary_length (m), >, 0.999 * 2 * G_PI);
          }
        check_boundary (m);
        check_stencil (m);
        /* The paper's stencil: about 9 per row on quads, 13 on triangles. */
        if (kind == KS_MESH_KIND_QUAD || kind == KS_MESH_KIND_PERTURBED)
          g_assert_cmpfloat (ks_mesh_mean_stencil (m), >, 7.5);
        if (kind == KS_MESH_KIND_TRI)
          g_assert_cmpfloat (ks_mesh_mean_stencil (m), >, 10.5);
      }
}

static void
test_grid_stencil (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_mesh_generate_grid (KS_MESH_KIND_QUAD, 3, 3, 1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_cells, ==, 9);
  g_assert_cmpuint (m->n_nodes, ==, 16);
  g_assert_cmpuint (m->n_boundary, ==, 12);
  /* The middle cell touches all eight, a corner three, an edge cell five. */
  g_assert_cmpuint (m->stencil_offsets[5] - m->stencil_offsets[4], ==, 8);
  g_assert_cmpuint (m->stencil_offsets[1] - m->stencil_offsets[0], ==, 3);
  g_assert_cmpuint (m->stencil_offsets[2] - m->stencil_offsets[1], ==, 5);
  g_assert_cmpfloat_with_epsilon (m->cx[4], 0.0, 1e-15);
  g_assert_cmpfloat_with_epsilon (m->area[4], 4.0 / 9.0, 1e-15);
  g_assert_cmpuint (ks_mesh_nearest_cell (m, 0.9, -0.9), ==, 2);
}

/* The limit is on cells: a grid of quadrilaterals may have twice the
 * quadrilaterals a triangle grid may (8192 x 8192, 2^26 cells, ran out of
 * range on the H200 host).  Refused before anything is allocated. */
static void
test_grid_limit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) tri = ks_mesh_generate_grid (KS_MESH_KIND_TRI, 8192, 8192, 1, &error);
  g_autoptr(KsMesh) quad = NULL;

  g_assert_null (tri);
  g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "at most 50000000 quadrilaterals"));
  g_clear_error (&error);
  quad = ks_mesh_generate_grid (KS_MESH_KIND_QUAD, 10001, 10000, 1, &error);
  g_assert_null (quad);
  g_assert_nonnull (strstr (error->message, "at most 100000000 quadrilaterals"));
}

static void
test_spec (void)
{
  struct { const char *spec; guint cells; } good[] = {
    { "quad:16x8", 128 }, { "tri:4x4", 32 }, { "quad:400", 400 }, { "tri-disc:600", 0 },
    { "perturbed-square:100", 100 }, { "mixed-disc:300", 0 },
  };
  const char *bad[] = { "", "quad", "hex:100", "quad-cube:100", "quad:0", "quad:1", "quad:-5",
                        "quad:12x", "quad:x3", "tri-disc:4x4", "quad:1e9", "quad:200000000" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsMesh) m = ks_mesh_new_from_spec (good[i].spec, NULL, &error);
      g_assert_no_error (error);
      if (good[i].cells > 0)
        g_assert_cmpuint (m->n_cells, ==, good[i].cells);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsMesh) m = ks_mesh_new_from_spec (bad[i], NULL, &error);
      g_assert_null (m);
      g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_INVALID);
      g_test_message ("%s: %s", bad[i], error->message);
    }
}

/* A 2 x 1 strip of unit squares, then broken one way or another. */
static KsMesh *
strip (const double *xy, guint n_nodes, const guint *nodes, const guint *offsets, guint n_cells, GError **error)
{
  return ks_mesh_new (n_nodes, xy, n_cells, offsets, nodes, NULL, NULL, 0, NULL, "test", error);
}

/* One triangle: a mesh with an empty stencil (fuzz-msh found the
 * adjacency doing arithmetic on a NULL array there). */
static void
test_one_cell (void)
{
  const double xy[] = { 0, 0, 1, 0, 0, 1 };
  const guint nodes[] = { 0, 1, 2 }, offsets[] = { 0, 3 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = strip (xy, 3, nodes, offsets, 1, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (m->n_cells, ==, 1);
  g_assert_cmpuint (m->stencil_offsets[1], ==, 0);
  g_assert_cmpuint (m->n_boundary, ==, 3);
  g_assert_cmpfloat_with_epsilon (m->area[0], 0.5, 1e-15);
}

static void
expect_bad (const double *xy, guint n_nodes, const guint *nodes, const guint *offsets, guint n_cells,
            KsMeshError code, const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = strip (xy, n_nodes, nodes, offsets, n_cells, &error);

  g_assert_null (m);
  g_assert_error (error, KS_MESH_ERROR, (gint) code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, words));
}

static void
test_bad_meshes (void)
{
  const double xy[] = { 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1 };
  const guint off2[] = { 0, 4, 8 };
  const guint good[] = { 0, 1, 4, 3, 1, 2, 5, 4 };
  const guint cw[] = { 0, 3, 4, 1, 1, 4, 5, 2 };
  const guint one_cw[] = { 0, 1, 4, 3, 1, 4, 5, 2 };
  const guint missing[] = { 0, 1, 4, 3, 1, 2, 9, 4 };
  const guint twice[] = { 0, 1, 4, 3, 1, 2, 2, 4 };
  const double flat_xy[] = { 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 1.5, 0.5 };
  const double dart_xy[] = { 0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 1.2, 0.2 };
  const double nan_xy[] = { 0, 0, 1, 0, 2, 0, 0, 1, 1, NAN, 2, 1 };
  /* The second square folded back over the first: edge 1-4 walked the same way twice. */
  const double fold_xy[] = { 0, 0, 1, 0, 0.5, 0, 0, 1, 1, 1, 0.5, 1 };
  const guint fold[] = { 0, 1, 4, 3, 5, 2, 1, 4 };
  /* Two squares on top of each other, sharing nothing. */
  const double stack_xy[] = { 0, 0, 1, 0, 1, 1, 0, 1, 0.5, 0.5, 1.5, 0.5, 1.5, 1.5, 0.5, 1.5 };
  const guint stack[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
  const guint off_bad[] = { 0, 5, 8 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) ok = strip (xy, 6, good, off2, 2, &error);
  g_autoptr(KsMesh) turned = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (ok->n_boundary, ==, 6);
  /* A mesh drawn clockwise as a whole is turned around, not refused. */
  turned = strip (xy, 6, cw, off2, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (turned->area[0], ==, 1.0);
  check_boundary (turned);

  expect_bad (xy, 0, good, off2, 0, KS_MESH_ERROR_EMPTY, "empty");
  expect_bad (xy, 6, missing, off2, 2, KS_MESH_ERROR_BAD_NODE, "node 10");
  expect_bad (xy, 6, twice, off2, 2, KS_MESH_ERROR_DEGENERATE, "twice");
  expect_bad (xy, 6, good, off_bad, 2, KS_MESH_ERROR_BAD_NODE, "5 nodes");
  {
    /* One cell clockwise among counter-clockwise ones (two Gmsh surfaces
     * whose loops run opposite ways): turned, and said once. */
    g_autoptr(KsMesh) mixed = strip (xy, 6, one_cw, off2, 2, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (mixed->n_reoriented, ==, 1);
    g_assert_cmpuint (turned->n_reoriented, ==, 0);
    g_assert_cmpfloat (mixed->area[1], ==, 1.0);
    g_assert_nonnull (strstr (mixed->description, "1 of the 2 cells was clockwise"));
    check_boundary (mixed);
  }
  {
    /* The second square folded back over the first and so clockwise:
     * turning it must not hide the fold. */
    const double back_xy[] = { 0, 0, 1, 0, 0.5, 0, 0, 1, 1, 1, 0.5, 1 };
    expect_bad (back_xy, 6, good, off2, 2, KS_MESH_ERROR_OVERLAP, "overlap");
  }
  expect_bad (flat_xy, 6, good, off2, 2, KS_MESH_ERROR_DEGENERATE, "not convex");
  expect_bad (dart_xy, 6, good, off2, 2, KS_MESH_ERROR_DEGENERATE, "Quadrilateral 2 is not convex");
  expect_bad (nan_xy, 6, good, off2, 2, KS_MESH_ERROR_INVALID, "Node 5");
  expect_bad (fold_xy, 6, fold, off2, 2, KS_MESH_ERROR_OVERLAP, "overlap");
  expect_bad (stack_xy, 8, stack, off2, 2, KS_MESH_ERROR_OVERLAP, "Cells 1 and 2 overlap");
  {
    const double line_xy[] = { 0, 0, 1, 0, 2, 0 };
    const guint tri[] = { 0, 1, 2 };
    const guint off1[] = { 0, 3 };
    expect_bad (line_xy, 3, tri, off1, 1, KS_MESH_ERROR_DEGENERATE, "zero area");
  }
}

/* The same mesh in both formats: a unit square cut into two quadrilaterals
 * on the left and two triangles on the right, the left side a group of
 * its own. */
static const char msh22[] =
  "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
  "$PhysicalNames\n3\n1 10 \"left\"\n1 11 \"wall\"\n2 20 \"plate\"\n$EndPhysicalNames\n"
  "$Nodes\n8\n"
  "1 0 0 0\n2 0.5 0 0\n3 1 0 0\n4 0 0.5 0\n5 0.5 0.5 0\n6 1 0.5 0\n7 0 1 0\n8 1 1 0\n"
  "$EndNodes\n"
  "$Elements\n10\n"
  "1 15 2 0 1 1\n"
  "2 1 2 10 4 1 4\n"
  "3 1 2 10 4 4 7\n"
  "4 1 2 11 1 1 2\n"
  "5 3 2 20 1 1 2 5 4\n"
  "6 2 2 20 1 2 3 6\n"
  "7 2 2 20 1 2 6 5\n"
  "8 2 2 20 1 4 5 8\n"
  "9 2 2 20 1 4 8 7\n"
  "10 2 2 20 1 5 6 8\n"
  "$EndElements\n";

static const char msh41[] =
  "$MeshFormat\r\n4.1 0 8\r\n$EndMeshFormat\r\n"
  "$PhysicalNames\n2\n1 10 \"left\"\n1 11 \"wall\"\n$EndPhysicalNames\n"
  "$Entities\n1 2 1 0\n"
  "1 0 0 0 0\n"
  "1 0 0 0 0 1 0 1 10 2 1 -7\n"
  "2 0 0 0 1 0 0 1 11 2 1 -3\n"
  "1 0 0 0 1 1 0 1 20 1 1\n"
  "$EndEntities\n"
  "$Comments\nanything here\n$EndComments\n"
  "$Nodes\n2 8 1 8\n"
  "0 1 0 1\n1\n0 0 0\n"
  "2 1 0 7\n2\n3\n4\n5\n6\n7\n8\n0.5 0 0\n1 0 0\n0 0.5 0\n0.5 0.5 0\n1 0.5 0\n0 1 0\n1 1 0\n"
  "$EndNodes\n"
  "$Elements\n4 9 2 10\n"
  "1 1 1 2\n2 1 4\n3 4 7\n"
  "1 2 1 1\n4 1 2\n"
  "2 1 3 1\n5 1 2 5 4\n"
  "2 1 2 5\n6 2 3 6\n7 2 6 5\n8 4 5 8\n9 4 8 7\n10 5 6 8\n"
  "$EndElements\n";

static void
check_plate (const KsMesh *m)
{
  guint tri, quad, left = 0, wall = 0;

  g_assert_cmpuint (m->n_nodes, ==, 8);
  g_assert_cmpuint (m->n_cells, ==, 6);
  ks_mesh_count_kinds (m, &tri, &quad);
  g_assert_cmpuint (tri, ==, 5);
  g_assert_cmpuint (quad, ==, 1);
  g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), 1.0, 1e-15);
  g_assert_cmpuint (m->n_boundary, ==, 7);
  g_assert_cmpuint (m->groups->len, ==, 3);
  for (guint e = 0; e < m->n_boundary; e++)
    {
      const char *g = g_ptr_array_index (m->groups, m->boundary_group[e]);
      left += g_str_equal (g, "left");
      wall += g_str_equal (g, "wall");
    }
  g_assert_cmpuint (left, ==, 2);
  g_assert_cmpuint (wall, ==, 1);
  check_boundary (m);
  check_stencil (m);
}

static void
test_msh_good (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) a = ks_msh_read_data (msh22, strlen (msh22), "plate22.msh", 0, &error);
  g_autoptr(KsMesh) b = NULL;
  g_autofree char *path = NULL;
  g_autoptr(KsMesh) c = NULL;

  g_assert_no_error (error);
  check_plate (a);
  b = ks_msh_read_data (msh41, strlen (msh41), "plate41.msh", 0, &error);
  g_assert_no_error (error);
  check_plate (b);
  for (guint v = 0; v < 8; v++)
    g_assert_cmpfloat (a->x[v], ==, b->x[v]);

  /* From a file, through a spec. */
  path = g_build_filename (g_get_tmp_dir (), "ks-test-plate.msh", NULL);
  g_assert_true (g_file_set_contents (path, msh41, -1, NULL));
  c = ks_mesh_new_from_spec (path, NULL, &error);
  g_assert_no_error (error);
  check_plate (c);
  g_assert_cmpstr (c->description, ==, "ks-test-plate.msh");
  g_unlink (path);
}

/* s with the first occurrence of from replaced by to. */
static char *
edit (const char *s, const char *from, const char *to)
{
  const char *at = strstr (s, from);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - s), s, to, at + strlen (from));
}

static void
expect_msh_bad (const char *text, gsize len, KsMeshError code, const char *words)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = ks_msh_read_data (text, len, "bad.msh", 0, &error);

  ks_test_expect_mesh_refused (m, error, code, words);
}

static void
test_msh_bad (void)
{
  struct { const char *from, *to; KsMeshError code; const char *words; } cases[] = {
    /* An unknown element type (a 6-node triangle), named by line and element. */
    { "6 2 2 20 1 2 3 6\n", "6 9 2 20 1 2 3 6 1 2 3\n", KS_MESH_ERROR_UNSUPPORTED, "bad.msh:28: element 6 is of type 9" },
    { "7 2 2 20 1 2 6 5\n", "7 2 2 20 1 2 6 55\n", KS_MESH_ERROR_BAD_NODE, "bad.msh:29: element 7 names node 55" },
    { "8 2 2 20 1 4 5 8\n", "8 2 2 20 1 4 5 6\n", KS_MESH_ERROR_DEGENERATE, "Cell 8 has zero area" },
    { "8 2 2 20 1 4 5 8\n", "8 2 2 20 1 4 2 8\n", KS_MESH_ERROR_OVERLAP, "overlap" },
    /* A text file that says it is binary. */
    { "2.2 0 8", "2.2 1 8", KS_MESH_ERROR_PARSE, "not 1 in either byte order" },
    { "2.2 0 8", "2.2 2 8", KS_MESH_ERROR_PARSE, "file-type 2" },
    { "2.2 0 8", "3.0 0 8", KS_MESH_ERROR_UNSUPPORTED, "version 3" },
    { "5 0.5 0.5 0\n", "5 0.5 zero 0\n", KS_MESH_ERROR_PARSE, "bad.msh:16" },
    { "5 0.5 0.5 0\n", "2 0.5 0.5 0\n", KS_MESH_ERROR_PARSE, "node 2 is defined twice" },
    { "$Elements\n10\n", "$Elements\n99\n", KS_MESH_ERROR_PARSE, "$EndElements" },
    { "1 2 10 4 1 4\n", "1 2 10 4 1\n", KS_MESH_ERROR_PARSE, "fewer than its 2 nodes" },
    { "$MeshFormat", "$Mesh", KS_MESH_ERROR_PARSE, "does not start with $MeshFormat" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = edit (msh22, cases[i].from, cases[i].to);
      expect_msh_bad (text, strlen (text), cases[i].code, cases[i].words);
    }
  /* Truncated anywhere: always an error, never a crash. */
  for (gsize len = 0; len < strlen (msh22) - 1; len += 7)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KsMesh) m = ks_msh_read_data (msh22, len, "cut.msh", 0, &error);
      g_assert_null (m);
      g_assert_nonnull (error);
    }
  expect_msh_bad (msh22, strstr (msh22, "7 2 2 20") - msh22, KS_MESH_ERROR_PARSE, "ends inside $Elements");
  {
    /* No cells: only the boundary lines. */
    g_autofree char *text = edit (msh22, "$Elements\n10\n", "$Elements\n4\n");
    g_autofree char *cut = edit (text, "5 3 2 20 1 1 2 5 4\n6 2 2 20 1 2 3 6\n7 2 2 20 1 2 6 5\n"
                                       "8 2 2 20 1 4 5 8\n9 2 2 20 1 4 8 7\n10 2 2 20 1 5 6 8\n", "");
    expect_msh_bad (cut, strlen (cut), KS_MESH_ERROR_EMPTY, "no triangles or quadrilaterals");
  }
  {
    g_autofree char *text = edit (msh41, "5 1 2 5 4\n", "5 1 2 5 99\n");
    expect_msh_bad (text, strlen (text), KS_MESH_ERROR_BAD_NODE, "element 5 names node 99");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KsMesh) m = ks_msh_read_data (msh22, strlen (msh22), "big.msh", 3, &error);
    g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOO_LARGE);
  }
  expect_msh_bad ("$MeshFormat\0", 12, KS_MESH_ERROR_PARSE, "NUL");
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KsMesh) m = ks_msh_read_file ("/nonexistent/x.msh", 0, &error);
    g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_IO);
  }
}

static void
test_geo (void)
{
  g_autofree char *gmsh = g_find_program_in_path ("gmsh");
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "ks-test-square.geo", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = NULL;

  g_assert_true (g_file_set_contents (path,
    "lc = 0.2;\nPoint(1) = {0,0,0,lc}; Point(2) = {1,0,0,lc}; Point(3) = {1,1,0,lc}; Point(4) = {0,1,0,lc};\n"
    "Line(1) = {1,2}; Line(2) = {2,3}; Line(3) = {3,4}; Line(4) = {4,1};\n"
    "Curve Loop(1) = {1,2,3,4}; Plane Surface(1) = {1};\n"
    "Physical Curve(\"hot\") = {4}; Physical Curve(\"cold\") = {1,2,3}; Physical Surface(\"plate\") = {1};\n",
    -1, NULL));
  m = ks_mesh_new_from_spec (path, NULL, &error);
  if (gmsh == NULL)
    {
      g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOOL);
      g_assert_nonnull (strstr (error->message, "not installed"));
      g_test_message ("%s", error->message);
    }
  else
    {
      g_assert_no_error (error);
      g_assert_cmpfloat_with_epsilon (ks_mesh_total_area (m), 1.0, 1e-9);
      g_assert_cmpuint (m->groups->len, ==, 3);
      check_boundary (m);
    }
  g_unlink (path);
}

static char *
write_geo (const char *name, const char *text)
{
  char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

#define SQUARE_GEO \
  "Point(1) = {0,0,0,0.5}; Point(2) = {1,0,0,0.5}; Point(3) = {1,1,0,0.5}; Point(4) = {0,1,0,0.5};\n" \
  "Line(1) = {1,2}; Line(2) = {2,3}; Line(3) = {3,4}; Line(4) = {4,1};\n" \
  "Curve Loop(1) = {1,2,3,4}; Plane Surface(1) = {1};\n"

/* A .geo that runs a shell command or writes a file is refused, naming
 * the line, unless trusted; the same words in a comment or a string are
 * not statements. */
static void
test_geo_unsafe (void)
{
  const char *refused[][2] = {
    { "a = 1;\nSystem \"touch %s\";\n", ":2: \"System\" runs a shell command" },
    { "SystemCall \"touch %s\";\n", "runs a shell command" },
    { "Save \"%s\";\n", "writes a file" },
    { "Printf(\"x\") >> \"%s\";\n", "Printf to a file" },
    { "/* %s */ Include \"other.geo\";\n", "reads another file" },
    { "Solver.Executable0 = \"%s\";\n", "names a program" },
  };
  g_autofree char *gmsh = g_find_program_in_path ("gmsh");
  g_autofree char *marker = g_build_filename (g_get_tmp_dir (), "ks-test-geo-touched", NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *text = g_strdup_printf (refused[i][0], marker);
      g_assert_false (ks_msh_check_geo (text, strlen (text), "x.geo", &error));
      g_test_message ("%s", error->message);
      g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSAFE);
      g_assert_nonnull (strstr (error->message, refused[i][1]));
      g_clear_error (&error);
    }
  {
    const char *inert = "// System \"rm -rf /\"\nPrintf(\"Save System > x\");\nsystem_size = 2;\n" SQUARE_GEO;
    g_assert_true (ks_msh_check_geo (inert, strlen (inert), "x.geo", &error));
    g_assert_no_error (error);
  }
  {
    g_autofree char *text = g_strdup_printf (SQUARE_GEO "System \"touch %s\";\n", marker);
    g_autofree char *path = write_geo ("ks-test-unsafe.geo", text);
    g_autoptr(KsMesh) m = NULL;

    g_unlink (marker);
    m = ks_mesh_new_from_spec (path, NULL, &error);
    g_assert_null (m);
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
    if (gmsh == NULL)
      g_test_skip ("gmsh is not installed: the trusted .geo cannot run");
    else
      {
        g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSAFE);
        g_clear_error (&error);
        m = ks_mesh_new_from_spec_full (path, TRUE, NULL, &error);
        g_assert_no_error (error);
        g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
      }
    g_unlink (marker);
    g_unlink (path);
  }
}

/* The .geo written, or NULL with the test skipped where gmsh is missing. */
static char *
geo_for_gmsh (const char *name, const char *text)
{
  g_autofree char *gmsh = g_find_program_in_path ("gmsh");

  if (gmsh == NULL)
    {
      g_test_skip ("gmsh is not installed");
      return NULL;
    }
  return write_geo (name, text);
}

/* Is a gmsh process running on path (from /proc)? */
static gboolean
gmsh_running_on (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *pid;

  while (dir != NULL && (pid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename ("/proc", pid, "cmdline", NULL);
      g_autofree char *cmd = NULL;
      gsize n = 0;
      if (g_ascii_isdigit (pid[0]) && g_file_get_contents (file, &cmd, &n, NULL) && n > 0)
        for (gsize i = 0; i + 1 < n; i++)
          if (cmd[i] == '\0' && strcmp (cmd + i + 1, path) == 0)
            return TRUE;
    }
  return FALSE;
}

static guint
count_gmsh_folders (void)
{
  g_autoptr(GDir) dir = g_dir_open (g_get_tmp_dir (), 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    n += g_str_has_prefix (name, "ks-gmsh-");
  return n;
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (300000);
  g_cancellable_cancel (data);
  return NULL;
}

/* A .geo whose meshing never ends: stopped by the time limit, or by a
 * cancellable (Ctrl+C, the page's Stop), with gmsh gone and nothing left
 * in the temporary folder. */
static void
test_geo_endless (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GThread) canceller = NULL;
  const guint folders = count_gmsh_folders ();
  gint64 t0;

  if (!(path = geo_for_gmsh ("ks-test-endless.geo", "x = 0;\nFor i In {1:1000000000000}\n  x = x + 1;\nEndFor\n")))
    return;
  g_setenv ("KS_GMSH_TIMEOUT", "1", TRUE);
  t0 = g_get_monotonic_time ();
  m = ks_mesh_new_from_spec (path, NULL, &error);
  g_test_message ("%s", error->message);
  g_assert_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOOL);
  g_assert_nonnull (strstr (error->message, "within 1 s"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
  g_assert_false (gmsh_running_on (path));
  g_clear_error (&error);

  g_setenv ("KS_GMSH_TIMEOUT", "60", TRUE);
  canceller = g_thread_new ("cancel", cancel_soon, cancellable);
  t0 = g_get_monotonic_time ();
  m = ks_mesh_new_from_spec (path, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 10 * G_USEC_PER_SEC);
  g_assert_false (gmsh_running_on (path));
  g_assert_cmpuint (count_gmsh_folders (), ==, folders);
  g_unsetenv ("KS_GMSH_TIMEOUT");
  g_unlink (path);
}

/* gmsh's output that is not text (random bytes once gave "Invalid UTF-8
 * in child stdout"): shown escaped, valid UTF-8. */
static void
test_geo_garbage (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) m = NULL;

  if (!(path = geo_for_gmsh ("ks-test-garbage.geo", "Printf(\"\xff\xfe\033[31m red\");\nExit;\n\x01\x80\xc3 ;;; (\n")))
    return;
  m = ks_mesh_new_from_spec (path, NULL, &error);
  g_assert_null (m);
  g_test_message ("%s", error->message);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_null (strchr (error->message, '\033'));
  g_assert_nonnull (strstr (error->message, "\\xff\\xfe\\x1b[31m red"));
  g_unlink (path);
}

/* Errors about a .geo name it (and its line where gmsh gives one), never
 * the temporary file gmsh wrote the mesh to. */
static void
test_geo_errors (void)
{
  g_autofree char *bad = NULL;
  g_autofree char *second = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(KsMesh) m = NULL;
  g_autoptr(KsMesh) m2 = NULL;

  if (!(bad = geo_for_gmsh ("ks-test-syntax.geo", SQUARE_GEO "Line(5) = {1,3}\nCurve Loop(2) = {5};\n")))
    return;
  m = ks_mesh_new_from_spec (bad, NULL, &error);
  g_assert_null (m);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "ks-test-syntax.geo', line 5"));
  g_assert_null (strstr (error->message, "/proc/self/fd"));
  g_assert_null (strstr (error->message, "mesh.msh"));
  second = geo_for_gmsh ("ks-test-order2.geo", SQUARE_GEO "Mesh.ElementOrder = 2;\n");
  m2 = ks_mesh_new_from_spec (second, NULL, &error2);
  g_assert_null (m2);
  g_test_message ("%s", error2->message);
  g_assert_true (g_str_has_prefix (error2->message, "ks-test-order2.geo (meshed by gmsh):"));
  g_unlink (bad);
  g_unlink (second);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mesh/generators", test_generators);
  g_test_add_func ("/mesh/grid-stencil", test_grid_stencil);
  g_test_add_func ("/mesh/grid-limit", test_grid_limit);
  g_test_add_func ("/mesh/spec", test_spec);
  g_test_add_func ("/mesh/bad", test_bad_meshes);
  g_test_add_func ("/mesh/one-cell", test_one_cell);
  g_test_add_func ("/mesh/msh-good", test_msh_good);
  g_test_add_func ("/mesh/msh-bad", test_msh_bad);
  g_test_add_func ("/mesh/geo", test_geo);
  g_test_add_func ("/mesh/geo-unsafe", test_geo_unsafe);
  g_test_add_func ("/mesh/geo-endless", test_geo_endless);
  g_test_add_func ("/mesh/geo-garbage", test_geo_garbage);
  g_test_add_func ("/mesh/geo-errors", test_geo_errors);
  return g_test_run ();
}
