/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64
 *   | -DKS_REAL=float -DKS_GPU | -DKS_REAL=double -DKS_FP64 -DKS_GPU */
/* Conjugate gradients for paper 004's heat matrix (src/solvers/ks-cg-device.c):
 * CSR SpMV, vector updates and two-stage dot products, in a BASE variant (one
 * kernel per operation, as the paper prints it) and a FUSED one (the paper's
 * modified CG).  Built with -DKS_REAL=float or -DKS_REAL=double -DKS_FP64,
 * and -DKS_GPU for a GPU (ks_cg_program_options; CG_BATCH below).
 *
 * The scalars stay on the device.  cg_reduce (one group) finishes every dot
 * product and does the scalar arithmetic in its first item; the state words
 * tell the other kernels whether to work:
 *   KS_ST_DONE    set once ||r|| <= tol ||b|| (or on a breakdown): kernels
 *                 that begin an iteration (the SpMV, p.q) skip their work;
 *   KS_ST_ACTIVE  whether the current iteration runs, set by the reduction
 *                 that computes alpha; the kernels after it test this one, so
 *                 the iteration that converges still finishes its x update.
 * Once done, the host's remaining launches are no-ops, so it checks the
 * state only every few iterations, never once per dot product.
 *
 * Every kernel takes the rows it covers (n), so a part of a vector (paper
 * 004's hybrid split, issue 16) is the same kernel on a slice. */
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

/* The group's sum of acc into partial[group]; every item must call it. */
KS_FN void
group_partial (KS_LOCAL_PTR (real) scratch, real acc, __global real *partial)
{
  real total;

  scratch[get_local_id (0)] = acc;
  total = ks_group_sum_real (scratch);
  if (get_local_id (0) == 0)
    partial[get_group_id (0)] = total;
}

/* Scalars (real). */
#define KS_S_RHO    0
#define KS_S_PQ     1
#define KS_S_ALPHA  2
#define KS_S_BETA   3
#define KS_S_BB     4
#define KS_S_TOL2   5
#define KS_S_THRESH 6
/* State (int). */
#define KS_ST_DONE      0
#define KS_ST_ACTIVE    1
#define KS_ST_ITERS     2
#define KS_ST_BREAKDOWN 3
#define KS_ST_COUNT     4   /* groups of a launch done (group_partial_last) */

/* cg_reduce modes. */
#define KS_MODE_BB    0   /* b.b */
#define KS_MODE_INIT  1   /* rho = r.r; the threshold; done if already there */
#define KS_MODE_ALPHA 2   /* p.q: alpha = rho / p.q */
#define KS_MODE_BETA  3   /* rho' = r.r: beta = rho' / rho, done? */

/* q[row0 + i] = (A p)[row0 + i] for i < n. */
__kernel void
cg_spmv (const int              n,
         const int              row0,
         __global const int    *row_ptr,
         __global const int    *col,
         __global const real   *val,
         __global const real   *p,
         __global real         *q,
         __global const int    *state)
{
  const int i = row0 + (int) get_global_id (0);
  real s = 0;

  if (state[KS_ST_DONE] || i >= row0 + n)
    return;
  for (int k = row_ptr[i]; k < row_ptr[i + 1]; k++)
    s += val[k] * p[col[k]];
  q[i] = s;
}

/* First stage of a.b: one partial sum per group (grid-stride). */
__kernel void
cg_dot (const int            n,
        __global const real *a,
        __global const real *b,
        __global real       *partial,
        KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);
  real acc = 0;

  for (int i = (int) get_global_id (0); i < n; i += (int) get_global_size (0))
    acc += a[i] * b[i];
  group_partial (scratch, acc, partial);
}

/* The scalar step of a mode, done by one item once the dot product's
 * total is known.  hist[iteration] gets rho for the history. */
KS_FN void
scalar_step (const int mode, const real total, __global real *scalars,
             __global int *state, __global real *hist)
{
  if (mode == KS_MODE_BB)
    scalars[KS_S_BB] = total;
  else if (mode == KS_MODE_INIT)
    {
      scalars[KS_S_RHO] = total;
      scalars[KS_S_THRESH] = scalars[KS_S_TOL2] * scalars[KS_S_BB];
      hist[0] = total;
      state[KS_ST_ITERS] = 0;
      state[KS_ST_DONE] = total <= scalars[KS_S_THRESH];
    }
  else if (mode == KS_MODE_ALPHA)
    {
      state[KS_ST_ACTIVE] = !state[KS_ST_DONE];
      if (!state[KS_ST_DONE])
        {
          scalars[KS_S_PQ] = total;
          if (total > 0)
            {
              scalars[KS_S_ALPHA] = scalars[KS_S_RHO] / total;
              state[KS_ST_ITERS] += 1;
            }
          else
            {
              /* Not positive definite (or NaN): stop here, say so. */
              state[KS_ST_BREAKDOWN] = 1;
              state[KS_ST_DONE] = 1;
              state[KS_ST_ACTIVE] = 0;
            }
        }
    }
  else if (mode == KS_MODE_BETA && state[KS_ST_ACTIVE])
    {
      scalars[KS_S_BETA] = total / scalars[KS_S_RHO];
      scalars[KS_S_RHO] = total;
      hist[state[KS_ST_ITERS]] = total;
      if (total <= scalars[KS_S_THRESH])
        state[KS_ST_DONE] = 1;
    }
}

/* Second stage: one group sums the partials; its first item does the
 * scalar step of the mode. */
__kernel void
cg_reduce (const int              n_partial,
           __global const real   *partial,
           __global real         *scalars,
           __global int          *state,
           __global real         *hist,
           const int              mode,
           KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);
  real acc = 0;
  real total;

  for (int i = (int) get_local_id (0); i < n_partial; i += (int) get_local_size (0))
    acc += partial[i];
  scratch[get_local_id (0)] = acc;
  total = ks_group_sum_real (scratch);
  if (get_local_id (0) == 0)
    scalar_step (mode, total, scalars, state, hist);
}

/* Both stages in one launch: each group leaves its partial sum of acc and
 * counts itself in state[KS_ST_COUNT]; the group that counts last (every
 * other partial is written and fenced by then) sums the partials and its
 * first item does the scalar step, then clears the count for the next
 * launch.  Two launches an iteration fewer than cg_reduce's way.  Every
 * item must call it, with scratch of local size + 1 reals: the last slot
 * holds "this group is the last" across the barriers, since nothing
 * private is kept across one here (PoCL 3.1 lost such values in this
 * function: a saved get_local_id () read 0 in every item).  The other
 * groups run the same code over no partials: no branch around a barrier.
 * PoCL 3.1 still runs the last step wrongly (never, or for every item,
 * depending on what else the function holds; Oclgrind and its race
 * checks pass), so ks-cg-device.c uses this on GPUs only. */
KS_FN void
group_partial_last (KS_LOCAL_PTR (real) scratch, real acc, __global real *partial,
                    __global real *scalars, __global int *state,
                    __global real *hist, const int mode)
{
  __global volatile real *shared_partial = partial;
  real total;

  scratch[get_local_id (0)] = acc;
  total = ks_group_sum_real (scratch);
  if (get_local_id (0) == 0)
    {
      partial[get_group_id (0)] = total;
      mem_fence (CLK_GLOBAL_MEM_FENCE);
      scratch[get_local_size (0)] = (real) (atomic_inc (&state[KS_ST_COUNT]) == (int) get_num_groups (0) - 1);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  acc = 0;
  if (scratch[get_local_size (0)] != 0)
    for (int i = (int) get_local_id (0); i < (int) get_num_groups (0); i += (int) get_local_size (0))
      acc += shared_partial[i];
  scratch[get_local_id (0)] = acc;
  total = ks_group_sum_real (scratch);
  if (get_local_id (0) == 0)
    {
      if (scratch[get_local_size (0)] != 0)
        {
          scalar_step (mode, total, scalars, state, hist);
          state[KS_ST_COUNT] = 0;
        }
    }
}

/* r = b - q (q = A x0), p = r, and the partial sums of r.r. */
__kernel void
cg_init (const int            n,
         __global const real *b,
         __global const real *q,
         __global real       *r,
         __global real       *p,
         __global real       *partial,
         KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);
  real acc = 0;

  for (int i = (int) get_global_id (0); i < n; i += (int) get_global_size (0))
    {
      const real v = b[i] - q[i];
      r[i] = v;
      p[i] = v;
      acc += v * v;
    }
  group_partial (scratch, acc, partial);
}

/* BASE: y += sign * alpha * v (x += alpha p, r -= alpha q). */
__kernel void
cg_axpy (const int            n,
         __global real       *y,
         __global const real *v,
         const int            sign,
         __global const real *scalars,
         __global const int  *state)
{
  const int i = (int) get_global_id (0);

  if (!state[KS_ST_ACTIVE] || i >= n)
    return;
  y[i] += (sign > 0 ? scalars[KS_S_ALPHA] : -scalars[KS_S_ALPHA]) * v[i];
}

/* BASE: p = r + beta p. */
__kernel void
cg_xpay (const int            n,
         __global real       *p,
         __global const real *r,
         __global const real *scalars,
         __global const int  *state)
{
  const int i = (int) get_global_id (0);

  if (!state[KS_ST_ACTIVE] || i >= n)
    return;
  p[i] = r[i] + scalars[KS_S_BETA] * p[i];
}

/* FUSED: q = A p over this item's rows; returns its share of p.q.  Four
 * entries a step, their column indices loaded before any p[col] and the
 * products summed in the entries' order: NVRTC, left to itself, unrolled
 * the plain loop 16 times with each p[col] right behind its own col load,
 * one memory latency an entry (the same loop inside a larger kernel was
 * scheduled with four loads first and ran 4-8 % faster: the SASS of both
 * in data/reference/bench/h200-cg-batch-2026-11-29.txt, calls 6-9).
 * Written out, on the H200 (fp64, fused from a graph): 0.0686 against
 * 0.0755 ms an iteration at 1.05 M rows, 0.894 against 0.994 at 16.8 M;
 * NVIDIA's OpenCL 0.0748 against 0.0786 (call 10). */
KS_FN real
spmv_dot_rows (const int n, __global const int *row_ptr, __global const int *col,
               __global const real *val, __global const real *p, __global real *q)
{
  real acc = 0;

  for (int i = (int) get_global_id (0); i < n; i += (int) get_global_size (0))
    {
      const int end = row_ptr[i + 1];
      int k = row_ptr[i];
      real s = 0;

      for (; end - k >= 4; k += 4)
        {
          const int c0 = col[k], c1 = col[k + 1], c2 = col[k + 2], c3 = col[k + 3];
          const real p0 = p[c0], p1 = p[c1], p2 = p[c2], p3 = p[c3];

          s += val[k] * p0;
          s += val[k + 1] * p1;
          s += val[k + 2] * p2;
          s += val[k + 3] * p3;
        }
      for (; k < end; k++)
        s += val[k] * p[col[k]];
      q[i] = s;
      acc += p[i] * s;
    }
  return acc;
}

/* Rows an item of the r update loads before it stores any: it writes to
 * memory it may not know apart from what it reads (r and q could overlap,
 * for all the compiler sees), so the compiler may not move the next row's
 * loads above this row's store, and an item that takes one row a step
 * waits out a whole memory latency per row.  Measured on the H200 (bench
 * cg, fp64, fused from a graph, 1.05 / 4.2 / 16.8 M rows): 8 rows 0.0689 /
 * 0.229 / 0.894-0.896 ms an iteration against 0.0694-0.0696 / 0.233 /
 * 0.907-0.908 for one (data/reference/bench/h200-cg-batch-2026-11-29.txt,
 * call 11; 4 rows were between them in call 3).  The same batches made
 * the x and p update (one row an item on a grid of the reductions' size)
 * and the SpMV (rows walked side by side) slower: 0.0743 and 0.218 ms at
 * 1.05 M rows.  On GPUs only (the host builds with -DKS_GPU there): PoCL
 * on a CPU ran the fused CG slower with the batches (262 K rows fp64, 2
 * cores: 7.3-8.6 ms an iteration against 4.6-6.3; 18 with the SpMV's
 * too). */
#ifdef KS_GPU
#define CG_BATCH 8
#else
#define CG_BATCH 1
#endif

/* FUSED: r -= alpha q over this item's rows, CG_BATCH a step; returns its
 * share of r.r. */
KS_FN real
update_r_rows (const int n, __global real *r, __global const real *q, const real alpha)
{
  const int step = (int) get_global_size (0);
  real acc = 0;

  for (int i = (int) get_global_id (0); i < n; i += CG_BATCH * step)
    {
      real rv[CG_BATCH], qv[CG_BATCH];

      for (int u = 0; u < CG_BATCH; u++)
        if (i + u * step < n)
          {
            rv[u] = r[i + u * step];
            qv[u] = q[i + u * step];
          }
      for (int u = 0; u < CG_BATCH; u++)
        if (i + u * step < n)
          {
            const real v = rv[u] - alpha * qv[u];
            r[i + u * step] = v;
            acc += v * v;
          }
    }
  return acc;
}

/* FUSED: q = A p and the partial sums of p.q in one pass over the rows. */
__kernel void
cg_spmv_dot (const int              n,
             __global const int    *row_ptr,
             __global const int    *col,
             __global const real   *val,
             __global const real   *p,
             __global real         *q,
             __global real         *partial,
             __global const int    *state,
             KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);

  /* The state is the same for every item: the whole group returns or none. */
  if (state[KS_ST_DONE])
    return;
  group_partial (scratch, spmv_dot_rows (n, row_ptr, col, val, p, q), partial);
}

/* FUSED: r -= alpha q and the partial sums of r.r. */
__kernel void
cg_update_r (const int            n,
             __global real       *r,
             __global const real *q,
             __global real       *partial,
             __global const real *scalars,
             __global const int  *state,
             KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);

  if (!state[KS_ST_ACTIVE])
    return;
  group_partial (scratch, update_r_rows (n, r, q, scalars[KS_S_ALPHA]), partial);
}

/* The fused iteration's three kernels each follow the one before (the host
 * marks them ks_kernel_set_waits_previous): on CUDA each starts while the
 * previous ends and waits here before it touches memory, then lets the next
 * start in turn.  Nothing elsewhere. */
#define CG_FOLLOW()              \
  do                             \
    {                            \
      ks_grid_wait_previous ();  \
      ks_grid_start_next ();     \
    }                            \
  while (0)

/* FUSED, one launch: cg_spmv_dot then cg_reduce's alpha step in the last
 * group.  Once done, nothing counts in, so its first item clears
 * KS_ST_ACTIVE here (what the alpha step would have done): the kernels
 * after it read that word, none of this launch's. */
__kernel void
cg_spmv_dot_alpha (const int              n,
                   __global const int    *row_ptr,
                   __global const int    *col,
                   __global const real   *val,
                   __global const real   *p,
                   __global real         *q,
                   __global real         *partial,
                   __global real         *scalars,
                   __global int          *state,
                   __global real         *hist,
                   KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);

  CG_FOLLOW ();
  if (state[KS_ST_DONE])
    {
      if (get_global_id (0) == 0)
        state[KS_ST_ACTIVE] = 0;
      return;
    }
  group_partial_last (scratch, spmv_dot_rows (n, row_ptr, col, val, p, q), partial,
                      scalars, state, hist, KS_MODE_ALPHA);
}

/* FUSED, one launch: cg_update_r then cg_reduce's beta step in the last
 * group. */
__kernel void
cg_update_r_beta (const int            n,
                  __global real       *r,
                  __global const real *q,
                  __global real       *partial,
                  __global real       *scalars,
                  __global int        *state,
                  __global real       *hist,
                  KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);

  CG_FOLLOW ();
  if (!state[KS_ST_ACTIVE])
    return;
  group_partial_last (scratch, update_r_rows (n, r, q, scalars[KS_S_ALPHA]), partial,
                      scalars, state, hist, KS_MODE_BETA);
}

/* FUSED: x += alpha p, then p = r + beta p, reading p once. */
__kernel void
cg_update_xp (const int            n,
              __global real       *x,
              __global real       *p,
              __global const real *r,
              __global const real *scalars,
              __global const int  *state)
{
  const int i = (int) get_global_id (0);
  real pi;

  CG_FOLLOW ();
  if (!state[KS_ST_ACTIVE] || i >= n)
    return;
  pi = p[i];
  x[i] += scalars[KS_S_ALPHA] * pi;
  p[i] = r[i] + scalars[KS_S_BETA] * pi;
}

/* --- the pipelined CG of a distributed part (ks-dist-cg-device.c) ------ */

/* partial[group] gets a's sum and partial[groups + group] b's. */
KS_FN void
two_partials (KS_LOCAL_PTR (real) scratch, real a, real b, __global real *partial)
{
  group_partial (scratch, a, partial);
  group_partial (scratch, b, partial + get_num_groups (0));
}

/* The partial sums of r.r and w.r. */
__kernel void
cg_dot2 (const int            n,
         __global const real *r,
         __global const real *w,
         __global real       *partial,
         KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);
  real rr = 0, wr = 0;

  for (int i = (int) get_global_id (0); i < n; i += (int) get_global_size (0))
    {
      rr += r[i] * r[i];
      wr += w[i] * r[i];
    }
  two_partials (scratch, rr, wr, partial);
}

/* z = q + beta z, s = w + beta s, p = r + beta p, x += alpha p,
 * r -= alpha s, w -= alpha z, and the partial sums of the new r.r and
 * w.r: the whole vector step of Ghysels & Vanroose's Algorithm 4 in one
 * pass. */
__kernel void
cg_pipe_update (const int            n,
                __global real       *x,
                __global real       *r,
                __global real       *w,
                __global real       *p,
                __global real       *s,
                __global real       *z,
                __global const real *q,
                __global const real *scalars,
                __global real       *partial,
                KS_LOCAL_PARAM (real, scratch))
{
  KS_LOCAL_BIND (real, scratch);
  const real alpha = scalars[KS_S_ALPHA], beta = scalars[KS_S_BETA];
  real rr = 0, wr = 0;

  for (int i = (int) get_global_id (0); i < n; i += (int) get_global_size (0))
    {
      const real zi = q[i] + beta * z[i];
      const real si = w[i] + beta * s[i];
      const real pn = r[i] + beta * p[i];
      const real ri = r[i] - alpha * si;
      const real wi = w[i] - alpha * zi;

      z[i] = zi;
      s[i] = si;
      p[i] = pn;
      x[i] += alpha * pn;
      r[i] = ri;
      w[i] = wi;
      rr += ri * ri;
      wr += wi * ri;
    }
  two_partials (scratch, rr, wr, partial);
}
