/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float | -DKS_REAL=double -DKS_FP64 | -DKS_REAL=float -DKS_TRACE */
/* Batched tridiagonal solvers, as in Pogorelskikh & Loganova: the Thomas
 * algorithm (прогонка), serial cyclic reduction (SERICR) and parallel
 * cyclic reduction (PARACR), each with the memory use the paper compares.
 *
 * A batch holds `systems` systems of n unknowns: a (below the diagonal,
 * a_0 = 0), b (the diagonal), c (above, c_{n-1} = 0) and d (the right-hand
 * side).  Element i of system s lies at s * sys_stride + i * row_stride:
 * systems one after another is (n, 1), the paper's "interleaved by index"
 * (element 0 of every system, then element 1, ...) is (1, systems).  One
 * source then serves both layouts, and the host never needs a second kernel.
 *
 * No kernel pivots.  A zero (or NaN) pivot is reported in info[s] as
 * 1 + the row it met; info must be zero before the launch.  Inputs are never
 * written, so a solve can be repeated on the same buffers.
 *
 * Built with -DKS_REAL=float or -DKS_REAL=double (and -DKS_FP64). */

#include "ks-common.h"

#ifndef KS_REAL
#define KS_REAL float
#endif
typedef KS_REAL real;

#define AT(s, i) ((size_t) (s) * sys_stride + (size_t) (i) * row_stride)

/* The arguments every kernel shares, in this order: the batch, (work
 * arrays, x, info), its shape, (chunk and four local arrays when staged). */
#define KS_BATCH_IN                                       \
  __global const real *a, __global const real *b,         \
  __global const real *c, __global const real *d
#define KS_BATCH_SHAPE                                    \
  const uint n, const uint systems,                       \
  const ulong sys_stride, const ulong row_stride
#define KS_STAGE_PARAMS                                   \
  const uint chunk,                                       \
  KS_LOCAL_PARAM (real, la), KS_LOCAL_PARAM (real, lb),   \
  KS_LOCAL_PARAM (real, lc), KS_LOCAL_PARAM (real, ld)
/* Binds the four local arrays; g systems per group from s0. */
#define KS_STAGE_BEGIN                                    \
  KS_LOCAL_BIND (real, la);                               \
  KS_LOCAL_BIND (real, lb);                               \
  KS_LOCAL_BIND (real, lc);                               \
  KS_LOCAL_BIND (real, ld);                               \
  const uint g = (uint) get_local_size (0);               \
  const uint lid = (uint) get_local_id (0);               \
  const uint s0 = (uint) get_group_id (0) * g

KS_FN int
ks_bad_pivot (real p)
{
  return !(fabs (p) > (real) 0);   /* zero or NaN */
}

typedef struct {
  real a, b, c, d;
} ks_row;

/* One step of cyclic reduction, serial or parallel: row me combined with
 * lo (h rows above) and up (h rows below), which eliminates its couplings
 * to them; me is then coupled to the rows 2h away.  0 for a zero pivot. */
KS_FN int
ks_reduce (ks_row *me, const ks_row *lo, const ks_row *up)
{
  real alpha = 0, gamma = 0;
  /* A neighbour me is not coupled to (a or c exactly 0) is no pivot of
   * mine: a batch reduced as one block-diagonal system (paracr-thomas)
   * then never blames a row for the next system's zero pivot. */
  if ((me->a != 0 && ks_bad_pivot (lo->b)) || (me->c != 0 && ks_bad_pivot (up->b)))
    return 0;
  if (me->a != 0)
    alpha = -me->a / lo->b;
  if (me->c != 0)
    gamma = -me->c / up->b;
  me->b += alpha * lo->c + gamma * up->a;
  me->d += alpha * lo->d + gamma * up->d;
  me->a = alpha * lo->a;
  me->c = gamma * up->c;
  return 1;
}

/* --- staging ------------------------------------------------------------- */

/* Copies rows r0, r0 + step, ... (count of them) of the group's systems
 * s0 .. s0 + g - 1 between global memory mem and local memory l, where
 * row `row` of system `sys` is l[row * g + sys] (rows of the chunk outer,
 * systems inner: a sweep by one item per system then reads consecutive
 * words, free of bank conflicts); into l, or back when out.  Cooperative,
 * every item of the group calls it; the global side is walked along the
 * layout's fast index, so it coalesces in both layouts. */
KS_FN void
ks_stage_one (KS_LOCAL_PTR (real) l, __global real *mem, const int out,
              ulong sys_stride, ulong row_stride,
              uint s0, uint g, uint r0, uint step, uint sys, uint row KS_TRACE_PARAM)
{
  if (out)
    KS_ST (mem, AT (s0 + sys, r0 + row * step), l[row * g + sys]);
  else
    l[row * g + sys] = KS_LD (mem, AT (s0 + sys, r0 + row * step));
}

/* The least power of two >= x (x >= 1), without a loop. */
KS_FN uint
ks_pow2_ceil (uint x)
{
  x -= 1;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return x + 1;
}

KS_FN void
ks_stage (KS_LOCAL_PTR (real) l, __global real *mem, const int out,
          ulong sys_stride, ulong row_stride, uint systems,
          uint s0, uint g, uint r0, uint step, uint count KS_TRACE_PARAM)
{
  const uint lid = (uint) get_local_id (0);
  const uint items = (uint) get_local_size (0);

  /* One flat loop over the chunk's entries whatever the layout, the fast
   * index in the low bits of a power-of-two span: no division by a
   * variable (LLVM pairs one with a freeze, which Oclgrind 21.10's
   * uninitialised-value check cannot run), and no branch between two
   * loops nor early return between the callers' barriers (that made PoCL
   * 5's kernel compiler abort the process: Kernel.cc:129,
   * region_entry_barrier, pocl issue 1435).  Interleaved: consecutive
   * items take consecutive systems (consecutive words); one system after
   * another: consecutive rows. */
  const int interleaved = sys_stride < row_stride;
  const uint gp = ks_pow2_ceil (g), cp = ks_pow2_ceil (count);
  const uint inner = interleaved ? gp : cp;
  const uint shift = popcount (inner - 1);
  const uint total = gp * cp;

  for (uint e = lid; e < total; e += items)
    {
      const uint fast = e & (inner - 1), slow = e >> shift;
      const uint sys = interleaved ? fast : slow;
      const uint row = interleaved ? slow : fast;

      if (sys < g && row < count && s0 + sys < systems)
        ks_stage_one (l, mem, out, sys_stride, row_stride, s0, g, r0, step, sys, row KS_TRACE_ARG);
    }
}

KS_FN void
ks_stage_in (KS_LOCAL_PTR (real) dst, __global const real *src,
             ulong sys_stride, ulong row_stride, uint systems,
             uint s0, uint g, uint r0, uint step, uint count KS_TRACE_PARAM)
{
  /* Only read: the cast gives the one copy loop both directions. */
  ks_stage (dst, (__global real *) src, 0, sys_stride, row_stride, systems, s0, g, r0, step, count KS_TRACE_ARG);
}

KS_FN void
ks_stage_out (__global real *dst, KS_LOCAL_PTR (real) src,
              ulong sys_stride, ulong row_stride, uint systems,
              uint s0, uint g, uint r0, uint count KS_TRACE_PARAM)
{
  ks_stage (src, dst, 1, sys_stride, row_stride, systems, s0, g, r0, 1, count KS_TRACE_ARG);
}

/* The four diagonals of a chunk at once. */
KS_FN void
ks_stage_in4 (KS_LOCAL_PTR (real) la, KS_LOCAL_PTR (real) lb,
              KS_LOCAL_PTR (real) lc, KS_LOCAL_PTR (real) ld,
              __global const real *a, __global const real *b,
              __global const real *c, __global const real *d,
              ulong sys_stride, ulong row_stride, uint systems,
              uint s0, uint g, uint r0, uint step, uint count KS_TRACE_PARAM)
{
  ks_stage_in (la, a, sys_stride, row_stride, systems, s0, g, r0, step, count KS_TRACE_ARG);
  ks_stage_in (lb, b, sys_stride, row_stride, systems, s0, g, r0, step, count KS_TRACE_ARG);
  ks_stage_in (lc, c, sys_stride, row_stride, systems, s0, g, r0, step, count KS_TRACE_ARG);
  ks_stage_in (ld, d, sys_stride, row_stride, systems, s0, g, r0, step, count KS_TRACE_ARG);
}

/* --- Thomas -------------------------------------------------------------- */

/* The buffers a Thomas kernel's trace names (tests/test-access.c, -DKS_TRACE):
 * a, b, c, d in, c' and x out. */
#define THOMAS_TRACE_BASES \
  do                                                                          \
    {                                                                         \
      KS_TRACE_BASE (0, a); KS_TRACE_BASE (1, b); KS_TRACE_BASE (2, c);       \
      KS_TRACE_BASE (3, d); KS_TRACE_BASE (4, cp); KS_TRACE_BASE (5, x);      \
    }                                                                         \
  while (0)

/* One item per system, every coefficient straight from global memory.  The
 * forward sweep keeps c' in cp and d' in x; the backward sweep turns x into
 * the solution. */
__kernel void
thomas_global (KS_BATCH_IN, __global real *cp, __global real *x, __global int *info, KS_BATCH_SHAPE KS_TRACE_PARAM)
{
  const uint s = (uint) get_global_id (0);
  real cprev = 0, dprev = 0;

  THOMAS_TRACE_BASES;
  if (s >= systems)
    return;
  for (uint i = 0; i < n; i++)
    {
      const real ai = KS_LD (a, AT (s, i));
      const real den = KS_LD (b, AT (s, i)) - ai * cprev;
      if (ks_bad_pivot (den))
        {
          info[s] = (int) i + 1;
          return;
        }
      cprev = KS_LD (c, AT (s, i)) / den;
      dprev = (KS_LD (d, AT (s, i)) - ai * dprev) / den;
      KS_ST (cp, AT (s, i), cprev);
      KS_ST (x, AT (s, i), dprev);
    }
  for (uint i = n - 1; i-- > 0;)
    {
      dprev = KS_LD (x, AT (s, i)) - KS_LD (cp, AT (s, i)) * dprev;
      KS_ST (x, AT (s, i), dprev);
    }
}

/* The barriers of the staged kernels fence global memory too: the group's
 * coalesced copies read and write rows of the other items' systems (the
 * backward sweep stages the c' and d' the forward one stored), and a
 * local fence alone does not order those (Oclgrind found the races). */

/* The paper's portion-wise staging: the group's g systems are swept in
 * chunks of `chunk` rows; each chunk of a, b, c, d is copied into local
 * memory by the whole group (coalesced), swept there by one item per
 * system, and c', d' go back in one coalesced store.  The backward sweep
 * stages c' and d' the same way.  With the interleaved layout this is the
 * paper's best method for many systems.  Local memory: 4 chunk * g reals. */
__kernel void
thomas_staged (KS_BATCH_IN, __global real *cp, __global real *x, __global int *info, KS_BATCH_SHAPE,
               KS_STAGE_PARAMS KS_TRACE_PARAM)
{
  KS_STAGE_BEGIN;
  THOMAS_TRACE_BASES;
  const int mine = s0 + lid < systems;
  int bad = 0;
  real cprev = 0, dprev = 0;

  for (uint r0 = 0; r0 < n; r0 += chunk)
    {
      const uint count = min (chunk, n - r0);
      ks_stage_in4 (la, lb, lc, ld, a, b, c, d, sys_stride, row_stride, systems, s0, g, r0, 1, count KS_TRACE_ARG);
      barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      if (mine && !bad)
        for (uint k = 0; k < count; k++)
          {
            const uint j = k * g + lid;
            const real den = lb[j] - la[j] * cprev;
            if (ks_bad_pivot (den))
              {
                info[s0 + lid] = (int) (r0 + k) + 1;
                bad = 1;
                break;
              }
            cprev = lc[j] / den;
            dprev = (ld[j] - la[j] * dprev) / den;
            lc[j] = cprev;
            ld[j] = dprev;
          }
      barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      ks_stage_out (cp, lc, sys_stride, row_stride, systems, s0, g, r0, count KS_TRACE_ARG);
      ks_stage_out (x, ld, sys_stride, row_stride, systems, s0, g, r0, count KS_TRACE_ARG);
      barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
  /* Back from the last chunk; x_{n-1} = d'_{n-1} is already in place.
   * dprev carries x_{i+1} across chunks. */
  for (uint end = n; end > 0;)
    {
      /* Signed: Oclgrind 21.10 cannot run the saturating subtraction
       * LLVM makes of end > chunk ? end - chunk : 0. */
      const int left = (int) end - (int) chunk;
      const uint r0 = left > 0 ? (uint) left : 0u;
      const uint count = end - r0;
      ks_stage_in (lc, cp, sys_stride, row_stride, systems, s0, g, r0, 1, count KS_TRACE_ARG);
      ks_stage_in (ld, x, sys_stride, row_stride, systems, s0, g, r0, 1, count KS_TRACE_ARG);
      barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      if (mine && !bad)
        for (uint k = count; k-- > 0;)
          {
            const uint j = k * g + lid;
            if (r0 + k == n - 1)
              continue;
            dprev = ld[j] - lc[j] * dprev;
            ld[j] = dprev;
          }
      barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      ks_stage_out (x, ld, sys_stride, row_stride, systems, s0, g, r0, count KS_TRACE_ARG);
      barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
      end = r0;
    }
}

/* --- serial cyclic reduction (SERICR) --------------------------------------- */

/* Level h of SERICR reduces rows 2h - 1, 4h - 1, ... from the rows h above
 * and below, always in range for n = 2^k - 1 (the host pads other sizes). */
/* Row idx of four arrays (global or local) into r.  A macro, not a
 * function returning the struct: Oclgrind 21.10 cannot run the
 * noalias.scope.decl that inlining such a return leaves in SERICR. */
#define KS_ROW_LOAD(r, A, B, C, D, idx) \
  do                                    \
    {                                   \
      (r).a = (A)[idx];                 \
      (r).b = (B)[idx];                 \
      (r).c = (C)[idx];                 \
      (r).d = (D)[idx];                 \
    }                                   \
  while (0)

/* The back substitution of every level, from the single equation left in
 * the middle outwards, on the reduced coefficients in wa..wd. */
KS_FN int
ks_sericr_back (__global const real *wa, __global const real *wb,
                __global const real *wc, __global const real *wd,
                __global real *x, __global int *info,
                uint s, uint n, ulong sys_stride, ulong row_stride)
{
  for (uint h = (n + 1) / 2; h >= 1; h /= 2)
    for (uint i = h - 1; i < n; i += 2 * h)
      {
        const real xl = i >= h ? x[AT (s, i - h)] : (real) 0;
        const real xu = i + h < n ? x[AT (s, i + h)] : (real) 0;
        const real bi = wb[AT (s, i)];
        if (ks_bad_pivot (bi))
          {
            info[s] = (int) i + 1;
            return 0;
          }
        x[AT (s, i)] = (wd[AT (s, i)] - wa[AT (s, i)] * xl - wc[AT (s, i)] * xu) / bi;
      }
  return 1;
}

/* SERICR reduces in place: a copy of system s, so the inputs stay. */
KS_FN void
ks_sericr_copy (KS_BATCH_IN,
                __global real *wa, __global real *wb,
                __global real *wc, __global real *wd,
                uint s, uint n, ulong sys_stride, ulong row_stride)
{
  for (uint i = 0; i < n; i++)
    {
      wa[AT (s, i)] = a[AT (s, i)];
      wb[AT (s, i)] = b[AT (s, i)];
      wc[AT (s, i)] = c[AT (s, i)];
      wd[AT (s, i)] = d[AT (s, i)];
    }
}

/* One item per system, in global memory: a copy of the system into wa..wd,
 * log2 (n + 1) - 1 levels of reduction in place, then back substitution. */
__kernel void
sericr_global (KS_BATCH_IN,
               __global real *wa, __global real *wb, __global real *wc, __global real *wd,
               __global real *x, __global int *info, KS_BATCH_SHAPE)
{
  const uint s = (uint) get_global_id (0);

  if (s >= systems)
    return;
  ks_sericr_copy (a, b, c, d, wa, wb, wc, wd, s, n, sys_stride, row_stride);
  for (uint h = 1; 2 * h < n + 1; h *= 2)
    for (uint i = 2 * h - 1; i < n; i += 2 * h)
      {
        ks_row me, lo, up;
        KS_ROW_LOAD (me, wa, wb, wc, wd, AT (s, i));
        KS_ROW_LOAD (lo, wa, wb, wc, wd, AT (s, i - h));
        KS_ROW_LOAD (up, wa, wb, wc, wd, AT (s, i + h));
        if (!ks_reduce (&me, &lo, &up))
          {
            info[s] = (int) i + 1;
            return;
          }
        wa[AT (s, i)] = me.a;
        wb[AT (s, i)] = me.b;
        wc[AT (s, i)] = me.c;
        wd[AT (s, i)] = me.d;
      }
  ks_sericr_back (wa, wb, wc, wd, x, info, s, n, sys_stride, row_stride);
}

/* The same with each level's rows staged portion-wise in local memory: at
 * level h the rows still in play are every h-th one; chunk + 1 of them
 * (chunk even) are copied in for the group's systems, the odd ones among
 * them reduced there from their even neighbours, and only those written
 * back.  The copy and the back substitution stay in global memory.  The
 * paper found this no better (0.27 against 0.18 of the CPU): each row is
 * touched once per level, so staging buys little reuse.  Local memory:
 * 4 (chunk + 1) g reals. */
__kernel void
sericr_local (KS_BATCH_IN,
              __global real *wa, __global real *wb, __global real *wc, __global real *wd,
              __global real *x, __global int *info, KS_BATCH_SHAPE, KS_STAGE_PARAMS)
{
  KS_STAGE_BEGIN;
  const uint s = s0 + lid;
  const int mine = s < systems;
  int bad = 0;

  if (mine)
    ks_sericr_copy (a, b, c, d, wa, wb, wc, wd, s, n, sys_stride, row_stride);
  barrier (CLK_GLOBAL_MEM_FENCE);
  for (uint h = 1; 2 * h < n + 1; h *= 2)
    {
      /* Rows in play at this level: (j + 1) h - 1, j = 0 .. m - 1; odd j are reduced. */
      const uint m = (n + 1) / h - 1;
      for (uint j0 = 0; j0 + 1 < m; j0 += chunk)
        {
          const uint count = min (chunk + 1, m - j0);
          const uint r0 = (j0 + 1) * h - 1;
          ks_stage_in4 (la, lb, lc, ld, wa, wb, wc, wd, sys_stride, row_stride, systems, s0, g, r0, h, count KS_TRACE_NONE);
          barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
          if (mine && !bad)
            for (uint t = 1; t + 1 < count; t += 2)
              {
                const uint j = t * g + lid;
                ks_row me, lo, up;
                KS_ROW_LOAD (me, la, lb, lc, ld, j);
                KS_ROW_LOAD (lo, la, lb, lc, ld, j - g);
                KS_ROW_LOAD (up, la, lb, lc, ld, j + g);
                if (!ks_reduce (&me, &lo, &up))
                  {
                    info[s] = (int) (r0 + t * h) + 1;
                    bad = 1;
                    break;
                  }
                la[j] = me.a;
                lb[j] = me.b;
                lc[j] = me.c;
                ld[j] = me.d;
              }
          barrier (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
          /* Only the reduced (odd) rows go back, each by its own item: they
           * are h rows apart, so a coalesced store would not be one. */
          if (mine)
            for (uint t = 1; t + 1 < count; t += 2)
              {
                const uint j = t * g + lid, i = r0 + t * h;
                wa[AT (s, i)] = la[j];
                wb[AT (s, i)] = lb[j];
                wc[AT (s, i)] = lc[j];
                wd[AT (s, i)] = ld[j];
              }
          barrier (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
    }
  if (mine && !bad)
    ks_sericr_back (wa, wb, wc, wd, x, info, s, n, sys_stride, row_stride);
}

/* --- parallel cyclic reduction (PARACR) ------------------------------------- */

/* One work-group per system, its items taking rows lid, lid + g, ...  Each
 * step h = 1, 2, 4, ... combines every row with the rows h above and below
 * (missing ones count as the identity), from one set of coefficients into
 * the other, until every row stands alone: x_i = d_i / b_i after
 * ceil (log2 n) steps.  Any n works.  The work sets w0 and w1 hold 4 arrays
 * each (a, b, c, d one after another, every one in the batch's layout).
 *
 * How a step reads its neighbours is what the paper compares:
 *   PCR_GLOBAL   straight from global memory;
 *   PCR_FULL     every value it reads is staged in local memory first,
 *                the three windows (rows - h, rows, rows + h) of a tile of
 *                g rows, used or not: what is read once gains nothing;
 *   PCR_PARTIAL  only what is reused: while h < g the tile's window of
 *                g + 2h rows, each row read by up to three items; for
 *                h >= g no row is read twice within a tile, and it reads
 *                global memory directly.
 * The paper's best, with the interleaved layout, is its PARACR
 * "interleaved" (1.81 against 2.01: neighbours lie `systems` words apart). */
#define PCR_GLOBAL  0
#define PCR_FULL    1
#define PCR_PARTIAL 2

KS_FN ks_row
ks_row_at (__global const real *w, size_t stride4, size_t idx, int inside KS_TRACE_PARAM)
{
  ks_row r;
  r.a = inside ? KS_LD (w, idx) : (real) 0;
  r.b = inside ? KS_LD (w, stride4 + idx) : (real) 1;
  r.c = inside ? KS_LD (w, 2 * stride4 + idx) : (real) 0;
  r.d = inside ? KS_LD (w, 3 * stride4 + idx) : (real) 0;
  return r;
}

KS_FN ks_row
ks_row_local (KS_LOCAL_PTR (real) l, uint size, uint k)
{
  ks_row r;
  r.a = l[k];
  r.b = l[size + k];
  r.c = l[2 * size + k];
  r.d = l[3 * size + k];
  return r;
}

KS_FN void
ks_row_to_local (KS_LOCAL_PTR (real) l, uint size, uint k, ks_row r)
{
  l[k] = r.a;
  l[size + k] = r.b;
  l[2 * size + k] = r.c;
  l[3 * size + k] = r.d;
}

KS_FN void
ks_paracr (KS_BATCH_IN,
           __global real *w0, __global real *w1,
           __global real *x, __global int *info,
           uint n, uint systems, ulong sys_stride, ulong row_stride,
           KS_LOCAL_PTR (real) l, const int mode)
{
  const uint g = (uint) get_local_size (0);
  const uint lid = (uint) get_local_id (0);
  const uint s = (uint) get_group_id (0);
  /* The work sets' four arrays, each as large as the batch. */
  const size_t stride4 = (size_t) systems * n;
  __global real *src = w0, *dst = w1;
  int bad = 0;

  if (s >= systems)
    return;   /* the whole group: no barrier is skipped by part of one */

  /* Step 0 reads the input, so the work sets need no copy of it. */
  for (uint h = 1, first = 1; h < n; h *= 2, first = 0)
    {
      for (uint t0 = 0; t0 < n; t0 += g)
        {
          const uint i = t0 + lid;
          ks_row me, lo, up;
          /* Tile rows t0 .. t0 + g - 1; the window with its neighbours is
           * t0 - h .. t0 + g - 1 + h (partial) or three windows of g (full). */
          if (mode != PCR_GLOBAL && !(mode == PCR_PARTIAL && h >= g))
            {
              const uint wsize = 3 * g;   /* room for either shape */
              const int contiguous = mode == PCR_PARTIAL;
              const uint span = contiguous ? g + 2 * h : 3 * g;
              /* Item lid fills entries lid, lid + g, lid + 2g: window w of
               * the three (rows - h, rows, rows + h) or the contiguous one. */
              for (uint w = 0, k = lid; w < 3 && k < span; w++, k += g)
                {
                  const long row = contiguous ? (long) t0 - (long) h + (long) k
                                              : (long) i + ((long) w - 1) * (long) h;
                  const int inside = row >= 0 && row < (long) n;
                  const size_t idx = inside ? AT (s, (uint) row) : 0;
                  ks_row r;
                  if (first)
                    {
                      r.a = inside ? a[idx] : (real) 0;
                      r.b = inside ? b[idx] : (real) 1;
                      r.c = inside ? c[idx] : (real) 0;
                      r.d = inside ? d[idx] : (real) 0;
                    }
                  else
                    r = ks_row_at (src, stride4, idx, inside KS_TRACE_NONE);
                  ks_row_to_local (l, wsize, k, r);
                }
              barrier (CLK_LOCAL_MEM_FENCE);
              if (contiguous)
                {
                  me = ks_row_local (l, wsize, lid + h);
                  lo = ks_row_local (l, wsize, lid);
                  up = ks_row_local (l, wsize, lid + 2 * h);
                }
              else
                {
                  lo = ks_row_local (l, wsize, lid);
                  me = ks_row_local (l, wsize, g + lid);
                  up = ks_row_local (l, wsize, 2 * g + lid);
                }
              barrier (CLK_LOCAL_MEM_FENCE);
            }
          else if (i < n)
            {
              const int in_lo = i >= h, in_up = i + h < n;
              const size_t ilo = in_lo ? AT (s, i - h) : 0, iup = in_up ? AT (s, i + h) : 0;
              if (first)
                {
                  me.a = a[AT (s, i)]; me.b = b[AT (s, i)]; me.c = c[AT (s, i)]; me.d = d[AT (s, i)];
                  lo.a = in_lo ? a[ilo] : (real) 0; lo.b = in_lo ? b[ilo] : (real) 1;
                  lo.c = in_lo ? c[ilo] : (real) 0; lo.d = in_lo ? d[ilo] : (real) 0;
                  up.a = in_up ? a[iup] : (real) 0; up.b = in_up ? b[iup] : (real) 1;
                  up.c = in_up ? c[iup] : (real) 0; up.d = in_up ? d[iup] : (real) 0;
                }
              else
                {
                  me = ks_row_at (src, stride4, AT (s, i), 1 KS_TRACE_NONE);
                  lo = ks_row_at (src, stride4, ilo, in_lo KS_TRACE_NONE);
                  up = ks_row_at (src, stride4, iup, in_up KS_TRACE_NONE);
                }
            }
          if (i < n)
            {
              if (!bad && !ks_reduce (&me, &lo, &up))
                {
                  ks_report_row (&info[s], (int) i + 1);
                  bad = 1;
                }
              dst[AT (s, i)] = me.a;
              dst[stride4 + AT (s, i)] = me.b;
              dst[2 * stride4 + AT (s, i)] = me.c;
              dst[3 * stride4 + AT (s, i)] = me.d;
            }
        }
      /* Every row of the step is written before the next step reads it. */
      barrier (CLK_GLOBAL_MEM_FENCE);
      {
        __global real *t = src;
        src = dst;
        dst = t;
      }
    }
  for (uint i = lid; i < n; i += g)
    {
      /* n = 1 took no step: the input is the answer's only row. */
      const real bi = n > 1 ? src[stride4 + AT (s, i)] : b[AT (s, i)];
      const real di = n > 1 ? src[3 * stride4 + AT (s, i)] : d[AT (s, i)];
      if (ks_bad_pivot (bi))
        ks_report_row (&info[s], (int) i + 1);
      x[AT (s, i)] = di / bi;
    }
}

#define KS_PARACR_KERNEL(name, mode)                                                  \
  __kernel void                                                                       \
  name (KS_BATCH_IN, __global real *w0, __global real *w1, __global real *x,          \
        __global int *info, KS_BATCH_SHAPE, KS_LOCAL_PARAM (real, l))                 \
  {                                                                                   \
    KS_LOCAL_BIND (real, l);                                                          \
    ks_paracr (a, b, c, d, w0, w1, x, info, n, systems, sys_stride, row_stride, l,   \
               mode);                                                                 \
  }
KS_PARACR_KERNEL (paracr_global, PCR_GLOBAL)
KS_PARACR_KERNEL (paracr_full, PCR_FULL)
KS_PARACR_KERNEL (paracr_partial, PCR_PARTIAL)

/* PARACR over the whole device, for one large system (or a few): one
 * launch per step, one item per row of every system (dimension 0 the row,
 * 1 the system), each step from one work set into the other; the launch
 * boundary is the barrier.  A work-group per system (above) leaves all but
 * one compute unit idle on one system; this one fills the device, at the
 * price of a launch and a pass over memory per step. */
KS_FN ks_row
ks_row_in (KS_BATCH_IN, size_t idx, int inside KS_TRACE_PARAM)
{
  ks_row r;
  r.a = inside ? KS_LD (a, idx) : (real) 0;
  r.b = inside ? KS_LD (b, idx) : (real) 1;
  r.c = inside ? KS_LD (c, idx) : (real) 0;
  r.d = inside ? KS_LD (d, idx) : (real) 0;
  return r;
}

__kernel void
paracr_step (KS_BATCH_IN, __global const real *src, __global real *dst, __global int *info, KS_BATCH_SHAPE,
             const uint h, const int first KS_TRACE_PARAM)
{
  const uint i = (uint) get_global_id (0);
  const uint s = (uint) get_global_id (1);
  const size_t stride4 = (size_t) systems * n;
  ks_row me, lo, up;

  KS_TRACE_BASE (0, a);
  KS_TRACE_BASE (1, b);
  KS_TRACE_BASE (2, c);
  KS_TRACE_BASE (3, d);
  KS_TRACE_BASE (4, src);
  KS_TRACE_BASE (5, dst);
  if (i >= n || s >= systems)
    return;
  {
    const int in_lo = i >= h, in_up = i + h < n;
    const size_t ilo = in_lo ? AT (s, i - h) : 0, iup = in_up ? AT (s, i + h) : 0;
    if (first)
      {
        me = ks_row_in (a, b, c, d, AT (s, i), 1 KS_TRACE_ARG);
        lo = ks_row_in (a, b, c, d, ilo, in_lo KS_TRACE_ARG);
        up = ks_row_in (a, b, c, d, iup, in_up KS_TRACE_ARG);
      }
    else
      {
        me = ks_row_at (src, stride4, AT (s, i), 1 KS_TRACE_ARG);
        lo = ks_row_at (src, stride4, ilo, in_lo KS_TRACE_ARG);
        up = ks_row_at (src, stride4, iup, in_up KS_TRACE_ARG);
      }
  }
  if (!ks_reduce (&me, &lo, &up))
    ks_report_row (&info[s], (int) i + 1);
  KS_ST (dst, AT (s, i), me.a);
  KS_ST (dst, stride4 + AT (s, i), me.b);
  KS_ST (dst, 2 * stride4 + AT (s, i), me.c);
  KS_ST (dst, 3 * stride4 + AT (s, i), me.d);
}

/* x_i = d_i / b_i once every row stands alone; steps = 0 (n = 1) reads
 * the input. */
__kernel void
paracr_finish (KS_BATCH_IN, __global const real *src, __global real *x, __global int *info, KS_BATCH_SHAPE,
               const int steps)
{
  const uint i = (uint) get_global_id (0);
  const uint s = (uint) get_global_id (1);
  const size_t stride4 = (size_t) systems * n;
  real bi, di;

  if (i >= n || s >= systems)
    return;
  bi = steps ? src[stride4 + AT (s, i)] : b[AT (s, i)];
  di = steps ? src[3 * stride4 + AT (s, i)] : d[AT (s, i)];
  if (ks_bad_pivot (bi))
    ks_report_row (&info[s], (int) i + 1);
  x[AT (s, i)] = di / bi;
}

/* --- Thomas, coalesced: today's layout for many systems ----------------------- */

/* Rows each item loads ahead: the loads of a block do not wait on the
 * recurrence, so B of each of a, b, c, d are in flight at once (and the
 * next block's while this one is swept).  With one item per system there
 * are only as many items as systems (40,000: about ten warps a
 * multiprocessor on an H200), too few to hide the memory's latency with
 * one load each.  On the H200, 40,000 x 4095 in float: B = 4, 8, 16 took
 * 2.05, 1.61, 1.50 ms (run tridiag-batch --kernel-dir, 2026-11-24). */
#define KS_TRI_B 16

/* Row k of a system at p + k * step: the pointer is bumped, not indexed,
 * so the sweep does no 64-bit multiply per row.  Past cnt the block holds
 * zeros: unrolled, the sweeps compute on every slot and select the used
 * ones, and Oclgrind counts a select of a never-written slot as
 * uninitialised. */
#define KS_LOAD_BLOCK(dst, p, step, cnt)           \
  do                                               \
    {                                              \
      _Pragma ("unroll")                           \
      for (uint j_ = 0; j_ < KS_TRI_B; j_++)       \
        {                                          \
          (dst)[j_] = (real) 0;                    \
          if (j_ < (cnt))                          \
            (dst)[j_] = (p)[(size_t) j_ * (step)]; \
        }                                          \
    }                                              \
  while (0)

/* One item per system, coefficients interleaved (element k of system s at
 * s + k * step): a warp's 32 loads of a row are 32 consecutive words, one
 * transaction, straight from global memory with no staging.  The forward
 * sweep writes c' to cp and d' to x (x is the only output, so d' lives
 * where the solution will: the inputs stay untouched for the next solve),
 * the backward sweep turns x into the solution.  Traffic: a, b, c, d
 * read, c' and d' written and read back, x written: 36 bytes an unknown
 * in float, the least for Thomas with the systems off chip.
 *
 * The same kernel finishes paracr-thomas: after its reduction, rows
 * r, r + H, r + 2H, ... of one long system form independent systems
 * (`sub` set: a system of q + (r < rem) rows; a zero pivot is reported
 * as the batch's row + 1 in info[bad_slot]).  Without sub: `step` systems
 * of q rows (rem 0), info by system. */
__kernel void
thomas_coalesced (KS_BATCH_IN, __global real *cp, __global real *x, __global int *info,
                  const uint step, const uint q, const uint rem, const uint bad_slot, const int sub)
{
  const uint s = (uint) get_global_id (0);
  real ra[KS_TRI_B], rb[KS_TRI_B], rc[KS_TRI_B], rd[KS_TRI_B];
  real cprev = 0, dprev = 0;
  uint m, k;
  __global const real *pa, *pb, *pc, *pd;
  __global real *pcp, *px;

  if (s >= step)
    return;
  m = q + (s < rem ? 1u : 0u);
  if (m == 0)
    return;
  pa = a + s;
  pb = b + s;
  pc = c + s;
  pd = d + s;
  pcp = cp + s;
  px = x + s;

  KS_LOAD_BLOCK (ra, pa, step, min (m, (uint) KS_TRI_B));
  KS_LOAD_BLOCK (rb, pb, step, min (m, (uint) KS_TRI_B));
  KS_LOAD_BLOCK (rc, pc, step, min (m, (uint) KS_TRI_B));
  KS_LOAD_BLOCK (rd, pd, step, min (m, (uint) KS_TRI_B));
  for (k = 0; k < m; k += KS_TRI_B)
    {
      const uint cnt = min (m - k, (uint) KS_TRI_B);
      const uint next = k + KS_TRI_B < m ? min (m - k - KS_TRI_B, (uint) KS_TRI_B) : 0u;
      const size_t ahead = (size_t) KS_TRI_B * step;
      real na[KS_TRI_B], nb[KS_TRI_B], nc[KS_TRI_B], nd[KS_TRI_B];

      /* The next block's loads first: they fly while this one is swept. */
      KS_LOAD_BLOCK (na, pa + ahead, step, next);
      KS_LOAD_BLOCK (nb, pb + ahead, step, next);
      KS_LOAD_BLOCK (nc, pc + ahead, step, next);
      KS_LOAD_BLOCK (nd, pd + ahead, step, next);
      _Pragma ("unroll")
      for (uint j = 0; j < KS_TRI_B; j++)
        if (j < cnt)
          {
            const real den = rb[j] - ra[j] * cprev;
            real inv;
            if (ks_bad_pivot (den))
              {
                const uint row = s + (k + j) * step;
                /* The batch's row + 1 for the host to split into system
                 * and row: no division here (with one, Oclgrind 21.10's
                 * uninitialised-value check skipped this store). */
                if (sub)
                  ks_report_row (&info[bad_slot], (int) (row + 1));
                else
                  info[s] = (int) (k + j) + 1;
                return;
              }
            /* One division, not two, on the recurrence's critical path. */
            inv = (real) 1 / den;
            cprev = rc[j] * inv;
            dprev = (rd[j] - ra[j] * dprev) * inv;
            pcp[(size_t) j * step] = cprev;
            px[(size_t) j * step] = dprev;
          }
      _Pragma ("unroll")
      for (uint j = 0; j < KS_TRI_B; j++)
        {
          ra[j] = na[j];
          rb[j] = nb[j];
          rc[j] = nc[j];
          rd[j] = nd[j];
        }
      pa += ahead;
      pb += ahead;
      pc += ahead;
      pd += ahead;
      pcp += ahead;
      px += ahead;
    }

  /* Backward over the forward's blocks, last first: x_k = d'_k - c'_k
   * x_{k+1}, with x_m = 0 (so x_{m-1} = d'_{m-1}).  The block above's c'
   * and d' are loaded before this one is swept, as forward: without them
   * in flight the sweep would wait a full memory latency every block. */
  {
    uint kb = (m - 1) / KS_TRI_B * KS_TRI_B;   /* the last block; only it may be partial */
    real bc[KS_TRI_B], bd[KS_TRI_B];

    KS_LOAD_BLOCK (bc, cp + s + (size_t) kb * step, step, m - kb);
    KS_LOAD_BLOCK (bd, x + s + (size_t) kb * step, step, m - kb);
    dprev = 0;
    for (;;)
      {
        const uint cnt = min (m - kb, (uint) KS_TRI_B);
        const uint above = kb > 0 ? kb - KS_TRI_B : 0u;
        __global real *qx = x + s + (size_t) kb * step;
        real nc[KS_TRI_B], nd[KS_TRI_B];

        KS_LOAD_BLOCK (nc, cp + s + (size_t) above * step, step, kb > 0 ? (uint) KS_TRI_B : 0u);
        KS_LOAD_BLOCK (nd, x + s + (size_t) above * step, step, kb > 0 ? (uint) KS_TRI_B : 0u);
        _Pragma ("unroll")
        for (uint jj = 0; jj < KS_TRI_B; jj++)
          {
            const uint j = KS_TRI_B - 1 - jj;
            if (j < cnt)
              {
                dprev = bd[j] - bc[j] * dprev;
                qx[(size_t) j * step] = dprev;
              }
          }
        if (kb == 0)
          break;
        _Pragma ("unroll")
        for (uint j = 0; j < KS_TRI_B; j++)
          {
            bc[j] = nc[j];
            bd[j] = nd[j];
          }
        kb = above;
      }
  }
}

/* --- the natural layout turned into the interleaved one, and back ------------- */

#define KS_TILE 32

/* dst (cols x rows) = src (rows x cols) transposed, both row-major: a
 * batch of `rows` systems of `cols` unknowns one after another becomes
 * element 0 of every system, then element 1, ... (and x back).  A tile of
 * 32 x 32 through local memory, one column of padding against bank
 * conflicts, so both the read and the write are coalesced.  Local size
 * (32, any divisor of 32); tile: 32 x 33 reals. */
__kernel void
tridiag_transpose (__global const real *src, __global real *dst, const uint rows, const uint cols,
                   KS_LOCAL_PARAM (real, tile))
{
  KS_LOCAL_BIND (real, tile);
  const uint tx = (uint) get_local_id (0), ty = (uint) get_local_id (1);
  const uint ny = (uint) get_local_size (1);
  const uint c0 = (uint) get_group_id (0) * KS_TILE, r0 = (uint) get_group_id (1) * KS_TILE;

  for (uint j = ty; j < KS_TILE; j += ny)
    if (r0 + j < rows && c0 + tx < cols)
      tile[j * (KS_TILE + 1) + tx] = src[(size_t) (r0 + j) * cols + c0 + tx];
  barrier (CLK_LOCAL_MEM_FENCE);
  for (uint j = ty; j < KS_TILE; j += ny)
    if (c0 + j < cols && r0 + tx < rows)
      dst[(size_t) (c0 + j) * rows + r0 + tx] = tile[tx * (KS_TILE + 1) + j];
}

/* --- PARACR several steps a launch, in local memory ---------------------------- */

/* After the steps before, row i of the (block-diagonal) system of `total`
 * rows is coupled to i - H and i + H only, so the rows of each residue
 * r mod H form an independent system.  This kernel takes the J steps of
 * stride H, 2H, ... 2^(J-1) H at once: a work-group copies a tile of G
 * residues (consecutive rows: G words per transaction) by E rows of each
 * into local memory, reduces it there J times (each step from one half of
 * l into the other), and writes back the middle R = E - 2 (2^J - 1) rows,
 * the only ones whose neighbours were all in the tile; the tiles overlap
 * by that halo.  One pass over memory for J steps instead of J, at the
 * price of reading the halo twice.
 *
 * Groups: H / G residue blocks (the fast index) by ceil (rows / R) blocks
 * along the residue's rows.  G, H powers of two; g_log2 = log2 G, rb_log2 =
 * log2 (H / G).  l: 8 E G reals, two sets of a, b, c, d. */
__kernel void
paracr_tile (KS_BATCH_IN, __global real *oa, __global real *ob, __global real *oc, __global real *od,
             __global int *info, const uint total, const uint bad_slot, const uint h_stride, const uint g_log2,
             const uint rb_log2, const uint e_rows, const uint steps, KS_LOCAL_PARAM (real, l))
{
  KS_LOCAL_BIND (real, l);
  const uint lid = (uint) get_local_id (0), items = (uint) get_local_size (0);
  const uint grp = (uint) get_group_id (0);
  const uint G = 1u << g_log2, EG = e_rows << g_log2;
  const uint halo = (1u << steps) - 1, R = e_rows - 2 * halo;
  const uint r0 = (grp & ((1u << rb_log2) - 1)) << g_log2;
  const long k0 = (long) (grp >> rb_log2) * (long) R - (long) halo;

  /* Rows outside the system are identity rows: they couple to nothing. */
  for (uint idx = lid; idx < EG; idx += items)
    {
      const long k = k0 + (long) (idx >> g_log2);
      const long row = k * (long) h_stride + (long) (r0 + (idx & (G - 1)));
      const int inside = k >= 0 && row < (long) total;
      const size_t at = inside ? (size_t) row : 0;
      l[idx] = inside ? a[at] : (real) 0;
      l[EG + idx] = inside ? b[at] : (real) 1;
      l[2 * EG + idx] = inside ? c[at] : (real) 0;
      l[3 * EG + idx] = inside ? d[at] : (real) 0;
    }
  barrier (CLK_LOCAL_MEM_FENCE);

  for (uint q = 0; q < steps; q++)
    {
      /* From the set written last into the other; st rows apart. */
      const uint from = (q & 1u) * 4 * EG, to = 4 * EG - from;
      const uint st = 1u << q;
      for (uint idx = lid; idx < EG; idx += items)
        {
          const uint e = idx >> g_log2;
          ks_row me = ks_row_local (l + from, EG, idx);
          if (e >= st && e + st < e_rows)
            {
              const ks_row lo = ks_row_local (l + from, EG, idx - (st << g_log2));
              const ks_row up = ks_row_local (l + from, EG, idx + (st << g_log2));
              /* Rows the edge of the tile has already spoilt are reduced
               * anyway (nothing valid reads them); only a row still whole
               * after this step reports its pivot. */
              if (!ks_reduce (&me, &lo, &up) && e + 1 >= 2 * st && e + 2 * st <= e_rows)
                {
                  const long row = (k0 + (long) e) * (long) h_stride + (long) (r0 + (idx & (G - 1)));
                  if (row >= 0 && row < (long) total)
                    ks_report_row (&info[bad_slot], (int) ((uint) row + 1));
                }
            }
          ks_row_to_local (l + to, EG, idx, me);
        }
      barrier (CLK_LOCAL_MEM_FENCE);
    }

  for (uint idx = lid; idx < EG; idx += items)
    {
      const uint e = idx >> g_log2;
      const long row = (k0 + (long) e) * (long) h_stride + (long) (r0 + (idx & (G - 1)));
      if (e >= halo && e < halo + R && row < (long) total)
        {
          const ks_row r = ks_row_local (l + (steps & 1u) * 4 * EG, EG, idx);
          oa[row] = r.a;
          ob[row] = r.b;
          oc[row] = r.c;
          od[row] = r.d;
        }
    }
}
