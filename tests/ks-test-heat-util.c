/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-heat-util.c: see ks-test-heat-util.h. */
#define G_LOG_DOMAIN "ks-test-heat-util"

#include "ks-test-heat-util.h"

#include <math.h>

#include "ks-mesh-gen.h"

KsDeviceList *devices;

KsHeat *
new_heat (const char *spec, const KsHeatParams *p)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsMesh) mesh = ks_mesh_new_from_spec (spec, NULL, &error);
  KsHeat *h;

  g_assert_no_error (error);
  h = ks_heat_new (mesh, p, &error);
  g_assert_no_error (error);
  return h;
}

/* The heat matrix of a mesh, and a right-hand side with a known solution. */
KsCsr *
heat_system (const char *spec, double **out_b, double **out_x)
{
  KsHeatParams p;
  g_autoptr(KsHeat) h = NULL;
  g_autofree double *rhs = NULL;
  const KsMesh *m;
  KsCsr *a;
  double *x, *b;

  ks_heat_params_init (&p);
  p.tau = 0.05;
  h = new_heat (spec, &p);
  m = ks_heat_get_mesh (h);
  rhs = g_new (double, m->n_cells);
  a = ks_heat_assemble (h, ks_heat_get_temperature (h), ks_heat_get_temperature (h), rhs);
  x = g_new (double, m->n_cells);
  b = g_new (double, m->n_cells);
  for (guint i = 0; i < m->n_cells; i++)
    x[i] = sin (3 * m->cx[i]) + cos (2 * m->cy[i]);
  ks_csr_spmv (a, x, b);
  *out_b = b;
  *out_x = x;
  return a;
}

GPtrArray *
kernel_devices (gboolean need_fp64)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *dev = ks_device_list_get_device (devices, d);

      if (ks_device_get_backend (dev) != KS_BACKEND_HOST && (!need_fp64 || ks_device_get_info (dev)->has_fp64))
        g_ptr_array_add (out, dev);
    }
  return out;
}

double
rel_diff (const double *a, const double *b, guint n)
{
  double d = 0.0, s = 0.0;

  for (guint i = 0; i < n; i++)
    {
      d = MAX (d, fabs (a[i] - b[i]));
      s = MAX (s, fabs (b[i]));
    }
  return d / s;
}
