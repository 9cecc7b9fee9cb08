/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float -DKS_SPLIT_M=8 | -DKS_REAL=double -DKS_FP64 -DKS_SPLIT_M=8
 *   | -DKS_REAL=float -DKS_SPLIT_M=16 | -DKS_REAL=double -DKS_FP64 -DKS_SPLIT_M=16 */
/* thomas-split: a small batch of tridiagonal systems, each split among the
 * items of one work-group (not one of the paper's methods; issue 30).
 *
 * One item per system (Thomas) leaves a GPU idle when the batch is small:
 * 5,000 systems are 5,000 items on a device that holds a quarter of a
 * million.  Here a group of T items takes one system, cut into `pieces`
 * consecutive pieces of at most KS_SPLIT_M rows, one per item (the
 * partition method: Wang 1981; Laszlo, Giles & Appleyard 2016):
 *
 *  1. the system's a, b, c, d come in coalesced, one array at a time
 *     through local memory, and each item keeps its piece in registers;
 *  2. each item eliminates its piece down to its first and last rows
 *     (a modified Thomas: a forward sweep expressing every row through the
 *     piece's first unknown, a backward one through its last), so that
 *     row 0 couples only to the previous piece's last unknown and to its
 *     own last, and the last row to its own first and the next piece's
 *     first: 2 x pieces unknowns in a tridiagonal system of their own;
 *  3. that reduced system is solved in local memory by parallel cyclic
 *     reduction, two rows an item, log2(2T) steps;
 *  4. each item recovers its rows from its two unknowns, and x goes out
 *     coalesced through local memory.
 *
 * The batch is one system after another (element i of system s at s n + i).
 * Local memory: max(n + n / 32 + 1, 16 T) reals, the staged array (see
 * SPLIT_AT), then the reduced system's four arrays of 2 T, twice.  Pieces hold
 * at least 2 rows (the host sizes them so) except when n = 1.  No
 * pivoting, as the paper's methods: a zero (or NaN) pivot is reported in
 * info[s] as 1 + a row near it.
 *
 * Built with -DKS_REAL=float or -DKS_REAL=double -DKS_FP64, and
 * -DKS_SPLIT_M=rows a piece holds at most (the registers each item keeps). */

#include "ks-common.h"

#ifndef KS_REAL
#define KS_REAL float
#endif
#ifndef KS_SPLIT_M
#define KS_SPLIT_M 8
#endif
typedef KS_REAL real;
#define M KS_SPLIT_M
/* Where row j of the staged system lies in local memory: one slot skipped
 * every 32, so that items reading pieces of 8 consecutive rows (32 items,
 * 256 rows) hit 32 different banks, not 4. */
#define SPLIT_AT(j) ((j) + (j) / 32)

/* Float divides with the hardware's approximate division (within 2 ulp)
 * rather than the IEEE sequence (a reciprocal, a Newton step and a
 * fix-up branch): the sweeps and the reduced system's PARACR divide at
 * every row, and the exact sequence held the kernel back by a third
 * (0.311 against 0.219 ms for 5,000 x 4095 on the H200, the residual the
 * same, 3.32e-07; data/reference/bench/h200-split-2026-11-28c.txt).
 * Double keeps the exact division. */
#ifdef KS_FP64
#define SPLIT_DIV(x, y) ((x) / (y))
#elif defined (KS_CUDA)
#define SPLIT_DIV(x, y) __fdividef ((x), (y))
#else
#define SPLIT_DIV(x, y) native_divide ((x), (y))
#endif

KS_FN int
split_bad (real p)
{
  return !(fabs (p) > (real) 0);   /* zero or NaN */
}

/* The item's share of one of the batch's arrays for system `base`,
 * coalesced: values t, t + T, ... into v.  Unrolled to M loads (n <= T M:
 * the host sizes the pieces so), so that the four arrays' 4 M loads are
 * all in flight at once: issued one array at a time in a loop the
 * compiler cannot unroll, each load's latency came in turn, and a group
 * spent most of its time waiting on them (issue 30). */
#define SPLIT_LOAD(src, v)                                       \
  do                                                             \
    {                                                            \
      _Pragma ("unroll")                                         \
      for (uint k_ = 0; k_ < M; k_++)                            \
        {                                                        \
          const uint j_ = t + k_ * T;                            \
          v[k_] = j_ < n ? src[base + j_] : (real) 0;            \
        }                                                        \
    }                                                            \
  while (0)

/* v (SPLIT_LOAD's) through local memory l into this item's `len` rows
 * from `start`, r. */
#define SPLIT_TRANSPOSE(v, r)                                    \
  do                                                             \
    {                                                            \
      _Pragma ("unroll")                                         \
      for (uint k_ = 0; k_ < M; k_++)                            \
        if (t + k_ * T < n)                                      \
          l[SPLIT_AT (t + k_ * T)] = v[k_];                      \
      barrier (CLK_LOCAL_MEM_FENCE);                             \
      _Pragma ("unroll")                                         \
      for (uint k_ = 0; k_ < M; k_++)                            \
        r[k_] = k_ < len ? l[SPLIT_AT (start + k_)] : (real) 0;  \
      barrier (CLK_LOCAL_MEM_FENCE);                             \
    }                                                            \
  while (0)

__kernel void
tridiag_split (__global const real *a,
               __global const real *b,
               __global const real *c,
               __global const real *d,
               __global real       *x,
               __global int        *info,
               const uint           n,
               const uint           pieces,
               KS_LOCAL_PARAM (real, l))
{
  KS_LOCAL_BIND (real, l);
  const uint t = (uint) get_local_id (0), T = (uint) get_local_size (0);
  const uint s = (uint) get_group_id (0);
  const ulong base = (ulong) s * n;
  const uint q = n / pieces, rem = n % pieces;
  const uint len = t < pieces ? q + (t < rem ? 1u : 0u) : 0u;
  const uint start = t < pieces ? t * q + (t < rem ? t : rem) : 0u;
  const uint R = 2 * T;   /* rows of the reduced system, identity past 2 pieces */
  uint o = 0;             /* the reduced system's copy in use: at l + o */
  KS_LOCAL_PTR (real) A = l;
  KS_LOCAL_PTR (real) B = l + R;
  KS_LOCAL_PTR (real) C = l + 2 * R;
  KS_LOCAL_PTR (real) D = l + 3 * R;
  real ra[M], rb[M], rc[M], rd[M];
  real fa = 0, fb = 1, fc = 0, fd = 0, la = 0, lb = 1, lc = 0, ld = 0;
  uint bad = 0;

  {
    real va[M], vb[M], vc[M], vd[M];

    SPLIT_LOAD (a, va);
    SPLIT_LOAD (b, vb);
    SPLIT_LOAD (c, vc);
    SPLIT_LOAD (d, vd);
    SPLIT_TRANSPOSE (va, ra);
    SPLIT_TRANSPOSE (vb, rb);
    SPLIT_TRANSPOSE (vc, rc);
    SPLIT_TRANSPOSE (vd, rd);
  }

  /* Forward: rows 0 and 1 normalised, every later row through row 0's
   * unknown (a) and its successor (c). */
  _Pragma ("unroll")
  for (uint k = 0; k < M; k++)
    if (k < len)
      {
        real den = k < 2 ? rb[k] : rb[k] - ra[k] * rc[k - (k > 0)];
        real r;

        if (split_bad (den) && bad == 0)
          bad = start + k + 1;
        r = SPLIT_DIV ((real) 1, den);
        if (k < 2)
          {
            ra[k] *= r;
            rd[k] *= r;
          }
        else
          {
            rd[k] = r * (rd[k] - ra[k] * rd[k - 1]);
            ra[k] = -r * ra[k] * ra[k - 1];
          }
        rc[k] *= r;
      }
  /* Backward: rows len - 3 .. 1 through row 0's unknown and the last's. */
  _Pragma ("unroll")
  for (int k = M - 3; k >= 1; k--)
    if ((uint) k + 2 < len)
      {
        rd[k] -= rc[k] * rd[k + 1];
        ra[k] -= rc[k] * ra[k + 1];
        rc[k] = -rc[k] * rc[k + 1];
      }
  /* Row 0 through the previous piece's last unknown and this one's last
   * (with two rows, row 1 is this one's last already). */
  if (len >= 3)
    {
      const real den = (real) 1 - rc[0] * ra[1];
      const real r = SPLIT_DIV ((real) 1, den);

      if (split_bad (den) && bad == 0)
        bad = start + 1;
      rd[0] = r * (rd[0] - rc[0] * rd[1]);
      ra[0] = r * ra[0];
      rc[0] = -r * rc[0] * rc[1];
    }

  /* The two rows this item gives the reduced system: unknowns 2t (the
   * piece's first) and 2t + 1 (its last); an idle item's are x = 0.  One
   * row (n = 1): the first is the system's only equation, the last says
   * last = first. */
  if (len >= 1)
    {
      fa = ra[0];
      fc = len >= 2 ? rc[0] : (real) 0;
      fd = rd[0];
      if (len == 1)
        la = -1;
    }
  _Pragma ("unroll")
  for (uint k = 1; k < M; k++)
    if (k + 1 == len)
      {
        la = ra[k];
        lc = rc[k];
        ld = rd[k];
      }
  A[2 * t] = fa, B[2 * t] = fb, C[2 * t] = fc, D[2 * t] = fd;
  A[2 * t + 1] = la, B[2 * t + 1] = lb, C[2 * t + 1] = lc, D[2 * t + 1] = ld;
  barrier (CLK_LOCAL_MEM_FENCE);

  /* PARACR on the R rows: at each step row i is freed of its neighbours
   * at distance h and coupled to those at 2h.  From one copy of the four
   * arrays into the other (at l + o and l + (o ^ 4 R)), so that a step
   * needs one barrier, not two. */
  for (uint h = 1; h < R; h *= 2)
    {
      KS_LOCAL_PTR (real) nA = l + (o ^ 4 * R);
      KS_LOCAL_PTR (real) nB = nA + R;
      KS_LOCAL_PTR (real) nC = nA + 2 * R;
      KS_LOCAL_PTR (real) nD = nA + 3 * R;

      for (uint e = 0; e < 2; e++)
        {
          const uint i = 2 * t + e;
          real na = 0, nb = B[i], nc = 0, nd = D[i];

          if (i >= h)
            {
              const real k1 = SPLIT_DIV (A[i], B[i - h]);

              na = -A[i - h] * k1;
              nb -= C[i - h] * k1;
              nd -= D[i - h] * k1;
            }
          if (i + h < R)
            {
              const real k2 = SPLIT_DIV (C[i], B[i + h]);

              nc = -C[i + h] * k2;
              nb -= A[i + h] * k2;
              nd -= D[i + h] * k2;
            }
          nA[i] = na, nB[i] = nb, nC[i] = nc, nD[i] = nd;
        }
      barrier (CLK_LOCAL_MEM_FENCE);
      o ^= 4 * R;
      A = nA, B = nB, C = nC, D = nD;
    }

  {
    const real first = D[2 * t] / B[2 * t], last = D[2 * t + 1] / B[2 * t + 1];

    if (len > 0 && (split_bad (B[2 * t]) || split_bad (B[2 * t + 1])) && bad == 0)
      bad = start + 1;
    barrier (CLK_LOCAL_MEM_FENCE);
    /* Every row of the piece from its first and last unknowns, out
     * through local memory. */
    _Pragma ("unroll")
    for (uint k = 0; k < M; k++)
      if (k < len)
        l[SPLIT_AT (start + k)] = k == 0 ? first : k + 1 == len ? last : rd[k] - ra[k] * first - rc[k] * last;
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  _Pragma ("unroll")
  for (uint k = 0; k < M; k++)
    if (t + k * T < n)
      x[base + t + k * T] = l[SPLIT_AT (t + k * T)];
  if (bad)
    ks_report_row (&info[s], (int) bad);
}
