/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64 */
/* Paper 004's heat time step on the device (src/solvers/ks-heat-device.c),
 * beside the CG of heat-cg.cl: the assembly of the matrix values and the
 * right-hand side from the mesh's geometry and the temperatures, and the
 * numbers a step reports (energy, hottest and coldest cell, how much the
 * nonlinear iteration changed T).  The paper's advice: the whole step lives
 * on the device, nothing but a few scalars crosses the bus.
 *
 * The assembly is a gather, one item per matrix row: each entry sums the
 * contributions of the node blocks that touch it (ks-heat.c's energy per
 * node), listed per entry when the mesh was set up, in the order the host
 * assembly adds them (node by node, then the boundary edges), so a double
 * device assembly equals the host's to the last bit wherever pow() does.
 * No atomics: OpenCL 1.2 has none for doubles, and the sums stay
 * deterministic. */
#include "ks-common.h"

#ifndef KS_REAL
#define KS_REAL float
#endif
typedef KS_REAL real;

#ifdef KS_FP64
#define ks_group_sum_real ks_group_sum_double
#else
#define ks_group_sum_real ks_group_sum_float
#endif

/* Per node v: coef[v] = tau D0 (the area-weighted mean of max (T, 0) around
 * v)^n, the factor of v's geometry block; nodes with fewer than two cells
 * have no block. */
__kernel void
heat_node_coef (const int             n_nodes,
                __global const int   *node_off,
                __global const int   *node_cells,
                __global const real  *area,
                __global const real  *t_nu,
                const real            n_exp,
                const real            d0,
                const real            tau,
                __global real        *coef)
{
  const int v = (int) get_global_id (0);
  real d = d0;

  if (v >= n_nodes)
    return;
  if (node_off[v + 1] - node_off[v] < 2)
    {
      coef[v] = 0;
      return;
    }
  if (n_exp != 0)
    {
      real tv = 0, w = 0;
      for (int i = node_off[v]; i < node_off[v + 1]; i++)
        {
          const int c = node_cells[i];
          tv += area[c] * (t_nu[c] > 0 ? t_nu[c] : (real) 0);
          w += area[c];
        }
      d *= pow (tv / w, n_exp);
    }
  coef[v] = tau * d;
}

/* tau D w of a fixed-temperature boundary edge of weight w at t_b beside a
 * cell at T: D = D0 ((max (T, 0) + t_b) / 2)^n, as the host computes it. */
KS_FN real
edge_coef (real t, real t_b, real w, real n_exp, real d0, real tau)
{
  real d = d0;

  if (n_exp != 0)
    d *= pow ((real) 0.5 * ((t > 0 ? t : (real) 0) + t_b), n_exp);
  return tau * d * w;
}

/* Row i of the matrix (when matrix is set) and of the right-hand side:
 *   a_ij = [i == j] (m_i + boundary) + sum over the entry's contributions coef[v] k
 *   b_i  = m_i T_old,i + sum over i's fixed boundary edges tau D w T_b
 * each of the cell's fixed-temperature boundary edges (bnd_off, with its
 * weight bnd_w and temperature bnd_tb) adding tau D w to the diagonal. */
__kernel void
heat_assemble (const int              n_rows,
               __global const int    *row_ptr,
               __global const int    *col,
               __global const int    *contrib_off,
               __global const int    *contrib_node,
               __global const real   *contrib_k,
               __global const real   *coef,
               __global const real   *mass,
               __global const int    *bnd_off,
               __global const real   *bnd_w,
               __global const real   *bnd_tb,
               __global const real   *t_nu,
               __global const real   *t_old,
               const int              matrix,
               const real             n_exp,
               const real             d0,
               const real             tau,
               __global real         *val,
               __global real         *rhs)
{
  const int i = (int) get_global_id (0);
  real b;

  if (i >= n_rows)
    return;
  b = mass[i] * t_old[i];
  for (int e = bnd_off[i]; e < bnd_off[i + 1]; e++)
    b += edge_coef (t_nu[i], bnd_tb[e], bnd_w[e], n_exp, d0, tau) * bnd_tb[e];
  rhs[i] = b;
  if (!matrix)
    return;
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)
    {
      real a = col[k] == i ? mass[i] : (real) 0;
      for (int c = contrib_off[k]; c < contrib_off[k + 1]; c++)
        a += coef[contrib_node[c]] * contrib_k[c];
      /* The host adds each boundary edge after every node, in edge order:
       * the same here, so that double sums agree bit for bit. */
      if (col[k] == i)
        for (int e = bnd_off[i]; e < bnd_off[i + 1]; e++)
          a += edge_coef (t_nu[i], bnd_tb[e], bnd_w[e], n_exp, d0, tau);
      val[k] = a;
    }
}

/* The step's numbers, first stage: per group the partial energy sum m T,
 * the largest and smallest T, the largest |T - T_prev| (the nonlinear
 * iteration's change) and the energy that came in through the fixed
 * walls, sum tau D w (T_b - T) with D at T_prev as assembled, into
 * partial[N_STATS group + 0..4]. */
#define N_STATS 5

__kernel void
heat_stats (const int             n,
            __global const real  *t,
            __global const real  *t_prev,
            __global const real  *mass,
            __global const int   *bnd_off,
            __global const real  *bnd_w,
            __global const real  *bnd_tb,
            const real            n_exp,
            const real            d0,
            const real            tau,
            __global real        *partial,
            KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);
  const int lid = (int) get_local_id (0), ls = (int) get_local_size (0);
  /* T[0] starts the max and min: no infinity needed (n >= 1). */
  real e = 0, hi = t[0], lo = t[0], ch = 0, in = 0, total_in;

  for (int i = (int) get_global_id (0); i < n; i += (int) get_global_size (0))
    {
      const real v = t[i], dv = fabs (v - t_prev[i]);
      e += mass[i] * v;
      hi = v > hi ? v : hi;
      lo = v < lo ? v : lo;
      ch = dv > ch ? dv : ch;
      for (int k = bnd_off[i]; k < bnd_off[i + 1]; k++)
        in += edge_coef (t_prev[i], bnd_tb[k], bnd_w[k], n_exp, d0, tau) * (bnd_tb[k] - v);
    }
  scratch[lid] = in;
  total_in = ks_group_sum_real (scratch);
  scratch[lid] = e;
  scratch[ls + lid] = hi;
  scratch[2 * ls + lid] = lo;
  scratch[3 * ls + lid] = ch;
  /* The sum with the shared helper; max and min by the same tree. */
  e = ks_group_sum_real (scratch);
  for (int m = ls; m > 1;)
    {
      const int upper = (m + 1) / 2;
      if (lid + upper < m)
        {
          scratch[ls + lid] = scratch[ls + lid] > scratch[ls + lid + upper] ? scratch[ls + lid]
                                                                          : scratch[ls + lid + upper];
          scratch[2 * ls + lid] = scratch[2 * ls + lid] < scratch[2 * ls + lid + upper] ? scratch[2 * ls + lid]
                                                                                      : scratch[2 * ls + lid + upper];
          scratch[3 * ls + lid] = scratch[3 * ls + lid] > scratch[3 * ls + lid + upper] ? scratch[3 * ls + lid]
                                                                                      : scratch[3 * ls + lid + upper];
        }
      barrier (CLK_LOCAL_MEM_FENCE);
      m = upper;
    }
  if (lid == 0)
    {
      partial[N_STATS * get_group_id (0)] = e;
      partial[N_STATS * get_group_id (0) + 1] = scratch[ls];
      partial[N_STATS * get_group_id (0) + 2] = scratch[2 * ls];
      partial[N_STATS * get_group_id (0) + 3] = scratch[3 * ls];
      partial[N_STATS * get_group_id (0) + 4] = total_in;
    }
}

/* Second stage, one item: the groups' partials into out[0..4]. */
__kernel void
heat_stats_final (const int             groups,
                  __global const real  *partial,
                  __global real        *out)
{
  real e = 0, hi = partial[1], lo = partial[2], ch = 0, in = 0;

  if (get_global_id (0) != 0)
    return;
  for (int g = 0; g < groups; g++)
    {
      e += partial[N_STATS * g];
      hi = partial[N_STATS * g + 1] > hi ? partial[N_STATS * g + 1] : hi;
      lo = partial[N_STATS * g + 2] < lo ? partial[N_STATS * g + 2] : lo;
      ch = partial[N_STATS * g + 3] > ch ? partial[N_STATS * g + 3] : ch;
      in += partial[N_STATS * g + 4];
    }
  out[0] = e;
  out[1] = hi;
  out[2] = lo;
  out[3] = ch;
  out[4] = in;
}
