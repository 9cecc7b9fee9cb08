/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh-flat.c: a Gmsh mesh whose nodes do not all have one z: turned
 * into its plane when it is planar, refused when it is not (a surface of
 * a 3D body). */
#define G_LOG_DOMAIN "ks-msh"

#include "ks-msh-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>

/* --- a mesh in a plane other than z = const --------------------------------------- */

/* The nodes' distance from the plane through c with unit normal n: the
 * node farthest off it (index) and how far. */
static double
farthest_off (KsMshReader *r, const double *c, const double *n, guint *out)
{
  const double *xy = (const double *) r->xy->data, *z = (const double *) r->z->data;
  double worst = -1.0;

  for (guint v = 0; v < r->z->len; v++)
    {
      const double d = fabs ((xy[2 * v] - c[0]) * n[0] + (xy[2 * v + 1] - c[1]) * n[1] + (z[v] - c[2]) * n[2]);
      if (d > worst)
        worst = d, *out = v;
    }
  return worst;
}

/* A mesh with z not constant: one in a tilted plane (z = 5x) is turned
 * into its plane (lengths and areas kept, the origin where the plane
 * passes it); one that is not flat (a cube's surface) is refused. */
gboolean
ks_msh_flatten (KsMshReader *r, GError **error)
{
  double *xy = (double *) r->xy->data, *z = (double *) r->z->data;
  const guint *cells = (const guint *) r->cells->data, *off = (const guint *) r->offsets->data;
  double lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };
  double n[3] = { 0, 0, 0 }, c[3] = { 0, 0, 0 }, u[3], w[3], len, extent = 0.0, off_by;
  guint far = 0;

  for (guint v = 0; v < r->z->len; v++)
    for (guint k = 0; k < 3; k++)
      {
        const double p = k < 2 ? xy[2 * v + k] : z[v];
        lo[k] = MIN (lo[k], p), hi[k] = MAX (hi[k], p);
        c[k] += p / r->z->len;
      }
  if (r->z->len == 0 || lo[2] == hi[2])
    return TRUE;
  /* Newell's normal: the cells' vector areas summed. */
  for (guint e = 0; e + 1 < r->offsets->len; e++)
    for (guint j = off[e]; j < off[e + 1]; j++)
      {
        const guint a = cells[j], b = cells[j + 1 < off[e + 1] ? j + 1 : off[e]];
        n[0] += (xy[2 * a + 1] - xy[2 * b + 1]) * (z[a] + z[b]);
        n[1] += (z[a] - z[b]) * (xy[2 * a] + xy[2 * b]);
        n[2] += (xy[2 * a] - xy[2 * b]) * (xy[2 * a + 1] + xy[2 * b + 1]);
      }
  len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (guint k = 0; k < 3; k++)
    {
      n[k] = len > 0 ? n[k] / len * (n[2] < 0 ? -1 : 1) : k == 2;
      extent = MAX (extent, hi[k] - lo[k]);
    }
  off_by = farthest_off (r, c, n, &far);
  if (len == 0 || off_by > 1e-8 * extent)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSUPPORTED,
                   _("%s: the surface is not planar: node %u lies %.3g off the plane of the others (the mesh spans "
                     "%.3g, %.3g and %.3g in x, y and z); the heat scheme needs a mesh of a plane surface"),
                   r->name, g_array_index (r->node_tags, guint, far), off_by,
                   hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
      return FALSE;
    }
  /* In-plane axes: x's direction in the plane (y's if x is nearly normal). */
  u[0] = 1.0, u[1] = 0.0, u[2] = 0.0;
  if (fabs (n[0]) > 0.9)
    u[0] = 0.0, u[1] = 1.0;
  len = u[0] * n[0] + u[1] * n[1];
  for (guint k = 0; k < 3; k++)
    u[k] -= len * n[k];
  len = sqrt (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (guint k = 0; k < 3; k++)
    u[k] /= len;
  w[0] = n[1] * u[2] - n[2] * u[1], w[1] = n[2] * u[0] - n[0] * u[2], w[2] = n[0] * u[1] - n[1] * u[0];
  for (guint v = 0; v < r->z->len; v++)
    {
      const double p[3] = { xy[2 * v], xy[2 * v + 1], z[v] };
      xy[2 * v] = p[0] * u[0] + p[1] * u[1] + p[2] * u[2];
      xy[2 * v + 1] = p[0] * w[0] + p[1] * w[1] + p[2] * w[2];
    }
  r->note = g_strdup_printf (_("turned into its plane, tilted %.1f degrees from z = const"),
                             acos (CLAMP (n[2], -1.0, 1.0)) * 180.0 / G_PI);
  return TRUE;
}

