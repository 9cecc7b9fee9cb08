/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-heat-util.h: what paper 004's heat test programs share
 * (test-heat: the scheme on the host; test-heat-device: the CG, the
 * assembly and the whole step on the devices): the device list, a heat
 * problem on a generated mesh, the heat matrix with a right-hand side of
 * known solution, the relative difference of two fields, and the devices
 * that run kernels. */
#pragma once

#include "ks-csr.h"
#include "ks-device-list.h"
#include "ks-heat.h"

#include <glib.h>

G_BEGIN_DECLS

extern KsDeviceList *devices;

/* The heat problem p on the mesh spec names; asserts it is made. */
KsHeat *new_heat     (const char         *spec,
                      const KsHeatParams *p);
/* The heat matrix of spec's mesh (tau = 0.05), a known solution *out_x and
 * its right-hand side *out_b (both g_free()d by the caller). */
KsCsr  *heat_system  (const char         *spec,
                      double            **out_b,
                      double            **out_x);
/* The OpenCL and CUDA devices of devices (not the host backend), only
 * those with doubles where need_fp64; the array holds no references. */
GPtrArray *kernel_devices (gboolean need_fp64);
/* max |a - b| / max |b| over n entries. */
double  rel_diff     (const double       *a,
                      const double       *b,
                      guint               n);

G_END_DECLS
