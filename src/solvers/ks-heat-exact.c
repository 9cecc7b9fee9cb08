/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-exact.c: the point release's exact solution in the plane, what
 * the heat scheme is checked against.
 *
 * With chi = d0 / (rho c_v) and Q = E / (rho c_v), T solves
 * T_t = div (chi T^n grad T) with integral of T = Q.
 *   n = 0: T = Q / (4 pi chi t) exp (-r^2 / (4 chi t)).
 *   n > 0: T_t = chi / (n + 1) Lap (T^(n+1)), so with s = chi t / (n + 1)
 *   Barenblatt's solution of u_s = Lap u^m (m = n + 1, d = 2) applies:
 *   u = s^-a [C - k r^2 s^-2b]_+^(1/n), a = 1 / (n + 1), b = a / 2,
 *   k = n / (4 (n + 1)^2), and the mass fixes
 *   C = (Q k (n + 1) / (pi n))^(n / (n + 1));
 *   the front is at r_f = s^b sqrt (C / k), so r_f ~ t^(1 / (2n + 2))
 *   (Zeldovich & Raizer, ch. X). */
#define G_LOG_DOMAIN "ks-heat"

#include "ks-heat.h"

#include <math.h>

static void
constants (const KsHeatParams *p, double t, double *s, double *c, double *k, double *q)
{
  const double chi = p->d0 / (p->density * p->cv);
  const double n = p->n;

  *q = p->energy / (p->density * p->cv);
  *s = chi * t / (n + 1);
  *k = n / (4 * (n + 1) * (n + 1));
  *c = pow (*q * *k * (n + 1) / (G_PI * n), n / (n + 1));
}

double
ks_heat_exact (const KsHeatParams *p, double t, double r)
{
  double s, c, k, q, w;

  g_return_val_if_fail (p != NULL && t > 0, 0.0);
  if (p->n == 0)
    {
      const double chi = p->d0 / (p->density * p->cv);
      q = p->energy / (p->density * p->cv);
      return q / (4 * G_PI * chi * t) * exp (-r * r / (4 * chi * t));
    }
  constants (p, t, &s, &c, &k, &q);
  w = c - k * r * r * pow (s, -1 / (p->n + 1));
  return w > 0 ? pow (s, -1 / (p->n + 1)) * pow (w, 1 / p->n) : 0.0;
}

double
ks_heat_exact_front (const KsHeatParams *p, double t)
{
  double s, c, k, q;

  g_return_val_if_fail (p != NULL && t > 0, 0.0);
  if (p->n == 0)
    return 2 * sqrt (p->d0 / (p->density * p->cv) * t);
  constants (p, t, &s, &c, &k, &q);
  return pow (s, 1 / (2 * (p->n + 1))) * sqrt (c / k);
}
