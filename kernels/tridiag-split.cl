/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The builds test-cuda compiles through NVRTC, one per "|":
 * ks-nvrtc: -DKS_REAL=float -DKS_SPLIT_M=8 | -DKS_REAL=double -DKS_FP64 -DKS_SPLIT_M=8
 *   | -DKS_REAL=float -DKS_SPLIT_M=16 | -DKS_REAL=double -DKS_FP64 -DKS_SPLIT_M=16
 *   | -DKS_REAL=float -DKS_SPLIT_M=16 -DKS_SPLIT_STREAM | -DKS_REAL=double -DKS_FP64 -DKS_SPLIT_M=16 -DKS_SPLIT_STREAM
 *   | -DKS_REAL=float -DKS_SPLIT_M=16 -DKS_SPLIT_STREAM -DKS_SPLIT_T=256 */
/* thomas-split: a small batch of tridiagonal systems, each split among the
 * items of one work-group (not one of the paper's methods; issue 30).
 *
 * One item per system (Thomas) leaves a GPU idle when the batch is small:
 * 5,000 systems are 5,000 items on a device that holds a quarter of a
 * million.  Here a group of T items takes one system, cut into pieces of
 * M = KS_SPLIT_M consecutive rows, one per item (the partition method:
 * Wang 1981; Laszlo, Giles & Appleyard 2016):
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
 *     reduction, two rows an item, until its rows fall into independent
 *     systems of KS_SPLIT_TAIL rows, which Thomas finishes (one an item);
 *  4. each item recovers its rows from its two unknowns, and x goes out
 *     coalesced through local memory.
 *
 * Every item holds exactly M rows: the system is padded to T M rows with
 * identity rows (b = 1, the rest 0), which change nothing since a system's
 * last row has c = 0, and then no row of the sweeps asks "is this row
 * mine?": with that question at every row NVCC kept both values of every
 * register (200 registers an item for M = 16; one group an SM).
 *
 * The batch is one system after another (element i of system s at s n + i).
 * A group takes systems g, g + G, ... (G groups): one each where the grid
 * has a group a system.  Local memory: W, max(N + N / 32 + 1, 15 T) reals
 * for N = T M, the staged array (see SPLIT_AT), then the reduced system's
 * three arrays of 2 T, twice, with pads (split_reduce), then x on its way
 * out.
 *
 * Built with -DKS_SPLIT_STREAM a group streams through its systems: the
 * next system's four arrays are copied into local memory (S, four arrays
 * of N + N / 32 + 1 reals after W) while this one is solved, so that a
 * group never waits for its loads with nothing else to do.  One item per
 * piece keeps few groups resident (2 of 256 items on the H200): without
 * it, a group loads, then computes, then stores, and at 40,000 systems the
 * memory sat idle half the time (46.7 % of triad, issue 30).  The copy is
 * CUDA's cp.async (sm_80 and later: global to shared memory without
 * registers), with L2 told to fetch the whole 128-byte line (1 % faster
 * at 40,000 x 4095, 1.088-1.090 against 1.100-1.103 ms; 256 bytes gained
 * less, h200-split-lean-2026-11-29.txt); elsewhere a plain copy that
 * keeps the order but not the overlap.
 *
 * No pivoting, as the paper's methods: a zero (or NaN) pivot is reported in
 * info[s] as 1 + a row near it.
 *
 * Built with -DKS_REAL=float or -DKS_REAL=double -DKS_FP64, and
 * -DKS_SPLIT_M=rows a piece holds (the registers each item keeps: 8 or 16). */

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
 * every 32, so that items reading pieces of 8 or 16 consecutive rows hit
 * different banks.  A piece never crosses a skipped slot (M divides 32):
 * row t M + k lies at SPLIT_AT (t M) + k. */
#define SPLIT_AT(j) ((j) + (j) / 32)

/* The group's items, T.  A build for one group size (-DKS_SPLIT_T, a
 * multiple of 32: the host's streamed builds) makes every local and global
 * offset below a constant the compiler folds into the instructions: at
 * 40,000 x 4095 on the H200 the kernel issued 2,456 instructions a warp
 * and system with T read at run time, most of them integer address
 * arithmetic (Nsight Compute: issue slots 59.5 % busy, the integer pipe
 * the busiest; tests/device/ncu-profile.sh).  Row t + k T of the staged
 * system then lies whole skipped slots further on than row t.  Every
 * kernel of such a build takes groups of KS_SPLIT_T items. */
#ifdef KS_SPLIT_T
#define SPLIT_T() ((uint) KS_SPLIT_T)
#define SPLIT_AT_K(t, k) (SPLIT_AT (t) + (k) * (KS_SPLIT_T + KS_SPLIT_T / 32))
/* Whether row t + k T is one of the n: for every item, where the whole
 * round is (a test the group takes alike), else for the first ones. */
#define SPLIT_IN(t, k) (((k) + 1) * KS_SPLIT_T <= n || (t) + (k) * KS_SPLIT_T < n)
#else
#define SPLIT_T() ((uint) get_local_size (0))
#define SPLIT_AT_K(t, k) SPLIT_AT ((t) + (k) * T)
#define SPLIT_IN(t, k) ((t) + (k) * T < n)
#endif

/* Float divides with the hardware's approximate division (within 2 ulp)
 * rather than the IEEE sequence (a reciprocal, a Newton step and a
 * fix-up branch): the sweeps and the reduced system's PARACR divide at
 * every row, and the exact sequence held the kernel back by a third
 * (0.311 against 0.219 ms for 5,000 x 4095 on the H200, the residual the
 * same, 3.32e-07; data/reference/bench/h200-split-2026-11-28c.txt).
 * On CUDA the divide is x times rcp.approx.ftz (within 1 ulp, one MUFU
 * instruction): __fdividef's scaling of tiny divisors cost three more
 * instructions a divide (a PARACR step 84 -> 70 instructions, the sweeps
 * 319 -> 239: tests/device/sass.sh).  A subnormal pivot then counts as
 * zero: x goes infinite or NaN there.  Double keeps the exact division. */
#ifdef KS_FP64
#define SPLIT_DIV(x, y) ((x) / (y))
#elif defined (KS_CUDA)
KS_FN float
split_rcp (float y)
{
  float r;

  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f" (r) : "f" (y));
  return r;
}
#define SPLIT_DIV(x, y) ((x) * split_rcp (y))
#else
#define SPLIT_DIV(x, y) native_divide ((x), (y))
#endif

KS_FN int
split_bad (real p)
{
  return !(fabs (p) > (real) 0);   /* zero or NaN */
}

/* A zero pivot at row1 - 1 of a level (scale: the level's rows mapped
 * onto the system's, 1 for the system itself).  Below the first level a
 * pivot is reported only where none is yet: a zero pivot above fills
 * every level below with NaN, and the first level's row is the one to
 * say. */
KS_FN void
split_report (__global int *info,
              const ulong   row1,
              const uint    scale)
{
  if (scale > 1)
    atomic_cmpxchg (info, 0, (int) min ((row1 - 1) * scale + 1, (ulong) 0x7fffffff));
  else
    ks_report_row (info, (int) row1);
}

/* The item's share of one of the batch's arrays for system `base`,
 * coalesced: values t, t + T, ... into v, `fill` past the system's n rows.
 * Unrolled to M loads, so that the four arrays' 4 M loads are all in
 * flight at once: issued one array at a time in a loop the compiler
 * cannot unroll, each load's latency came in turn, and a group spent most
 * of its time waiting on them (issue 30). */
#define SPLIT_LOAD(src, v, fill)                                 \
  do                                                             \
    {                                                            \
      _Pragma ("unroll")                                         \
      for (uint k_ = 0; k_ < M; k_++)                            \
        {                                                        \
          const uint j_ = t + k_ * T;                            \
          v[k_] = j_ < n ? src[base + j_] : (real) (fill);       \
        }                                                        \
    }                                                            \
  while (0)

/* v (SPLIT_LOAD's) through local memory l into this item's M rows r. */
#define SPLIT_TRANSPOSE(v, r)                                    \
  do                                                             \
    {                                                            \
      _Pragma ("unroll")                                         \
      for (uint k_ = 0; k_ < M; k_++)                            \
        l[SPLIT_AT_K (t, k_)] = v[k_];                           \
      barrier (CLK_LOCAL_MEM_FENCE);                             \
      _Pragma ("unroll")                                         \
      for (uint k_ = 0; k_ < M; k_++)                            \
        r[k_] = l[SPLIT_AT (t * M) + k_];                        \
      barrier (CLK_LOCAL_MEM_FENCE);                             \
    }                                                            \
  while (0)

/* The system at base (its n rows, identity past them) into this item's
 * M rows ra, rb, rc, rd: all four arrays' loads in flight, then each
 * through local memory l. */
#define SPLIT_ROWS_IN()                                          \
  do                                                             \
    {                                                            \
      real va[M], vb[M], vc[M], vd[M];                           \
                                                                 \
      SPLIT_LOAD (a, va, 0);                                     \
      SPLIT_LOAD (b, vb, 1);                                     \
      SPLIT_LOAD (c, vc, 0);                                     \
      SPLIT_LOAD (d, vd, 0);                                     \
      SPLIT_TRANSPOSE (va, ra);                                  \
      SPLIT_TRANSPOSE (vb, rb);                                  \
      SPLIT_TRANSPOSE (vc, rc);                                  \
      SPLIT_TRANSPOSE (vd, rd);                                  \
    }                                                            \
  while (0)

#ifdef KS_SPLIT_STREAM
#ifdef KS_FP64
#define SPLIT_BYTES "8"
#else
#define SPLIT_BYTES "4"
#endif
#if defined (KS_CUDA) && __CUDA_ARCH__ >= 800
#define SPLIT_COPY(dst, src)                                                      \
  asm volatile ("cp.async.ca.shared.global.L2::128B [%0], [%1], " SPLIT_BYTES ";" \
                :: "r" ((unsigned) __cvta_generic_to_shared (dst)), "l" (src) : "memory")
#define SPLIT_COMMIT() asm volatile ("cp.async.commit_group;" ::: "memory")
#define SPLIT_WAIT()   asm volatile ("cp.async.wait_group 0;" ::: "memory")
#else
#define SPLIT_COPY(dst, src) (*(dst) = *(src))
#define SPLIT_COMMIT()       ((void) 0)
#define SPLIT_WAIT()         ((void) 0)
#endif

/* System `base`'s four arrays into S (four arrays of P reals, each laid
 * out as SPLIT_AT says, identity rows past n), coalesced; they are there
 * after SPLIT_WAIT and a barrier.  Where T is a constant (KS_SPLIT_T)
 * the copies' addresses are one pointer and a constant apart.  Where the
 * system fills every round of rows but perhaps the last (n >= (M - 1) T)
 * the rounds before it copy unguarded, one array after another: with a
 * guard on every round NVCC recomputed the four 64-bit addresses inside
 * each round's branch, 41 instructions a round, a third of the kernel's
 * (issue 30, h200-split-lean-2026-11-29.txt). */
KS_FN void
split_stage (__global const real *a,
             __global const real *b,
             __global const real *c,
             __global const real *d,
             KS_LOCAL_PTR (real)  S,
             const uint           P,
             const ulong          base,
             const uint           n,
             const uint           t,
             const uint           T)
{
  __global const real *pa = a + base + t, *pb = b + base + t, *pc = c + base + t, *pd = d + base + t;
  KS_LOCAL_PTR (real) s = S + SPLIT_AT_K (t, 0);

  if (n >= (M - 1) * T)
    {
      _Pragma ("unroll")
      for (uint k = 0; k + 1 < M; k++)
        SPLIT_COPY (&s[SPLIT_AT_K (t, k) - SPLIT_AT_K (t, 0)], &pa[k * T]);
      _Pragma ("unroll")
      for (uint k = 0; k + 1 < M; k++)
        SPLIT_COPY (&s[P + SPLIT_AT_K (t, k) - SPLIT_AT_K (t, 0)], &pb[k * T]);
      _Pragma ("unroll")
      for (uint k = 0; k + 1 < M; k++)
        SPLIT_COPY (&s[2 * P + SPLIT_AT_K (t, k) - SPLIT_AT_K (t, 0)], &pc[k * T]);
      _Pragma ("unroll")
      for (uint k = 0; k + 1 < M; k++)
        SPLIT_COPY (&s[3 * P + SPLIT_AT_K (t, k) - SPLIT_AT_K (t, 0)], &pd[k * T]);
    }
  _Pragma ("unroll")
  for (uint k = 0; k < M; k++)
    {
      KS_LOCAL_PTR (real) s = S + SPLIT_AT_K (t, k);

      if (k + 1 < M && n >= (M - 1) * T)
        continue;
      if (SPLIT_IN (t, k))
        {
          SPLIT_COPY (&s[0], &pa[k * T]);
          SPLIT_COPY (&s[P], &pb[k * T]);
          SPLIT_COPY (&s[2 * P], &pc[k * T]);
          SPLIT_COPY (&s[3 * P], &pd[k * T]);
        }
      else
        s[0] = 0, s[P] = 1, s[2 * P] = 0, s[3 * P] = 0;
    }
  SPLIT_COMMIT ();
}
#endif

/* Step 2: the piece's M rows eliminated down to its first and last (see
 * the top); the reduced system's two rows into f* and l*.  Returns 1 + a
 * row near a zero pivot, or 0. */
KS_FN uint
split_eliminate (real *ra, const real *rb, real *rc, real *rd,
                 const uint start,
                 real *fa, real *fc, real *fd, real *la, real *lc, real *ld)
{
  uint bad = 0;

  /* Forward: rows 0 and 1 normalised, every later row through row 0's
   * unknown (a) and its successor (c). */
  _Pragma ("unroll")
  for (uint k = 0; k < M; k++)
    {
      const real den = k < 2 ? rb[k] : rb[k] - ra[k] * rc[k - 1];
      const real r = SPLIT_DIV ((real) 1, den);

      if (split_bad (den) && bad == 0)
        bad = start + k + 1;
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
  /* Backward: rows M - 3 .. 1 through row 0's unknown and the last's. */
  _Pragma ("unroll")
  for (int k = M - 3; k >= 1; k--)
    {
      rd[k] -= rc[k] * rd[k + 1];
      ra[k] -= rc[k] * ra[k + 1];
      rc[k] = -rc[k] * rc[k + 1];
    }
  /* Row 0 through the previous piece's last unknown and this one's last. */
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
   * piece's first) and 2t + 1 (its last), each with b = 1. */
  *fa = ra[0], *fc = rc[0], *fd = rd[0];
  *la = ra[M - 1], *lc = rc[M - 1], *ld = rd[M - 1];
  return bad;
}

/* One PARACR step for a row the item holds (a, c, d; b = 1: every row
 * of the reduced system is kept divided by its diagonal), freed of its
 * neighbours at distance h, rows lo and hi, read at q[lo] and q[hi] (a at
 * q, c at q + R, d at q + 2 R) and coupled to those at 2h, divided by its
 * new diagonal again.  Kept so, a step reads three values of each
 * neighbour, not four, and divides once, not twice: 70 -> 42
 * instructions a step (tests/device/sass.sh), where the steps took half
 * the kernel's stall samples on the H200, and 40,000 x 4095 in float
 * 0.992-0.998 ms against 1.087-1.095 (issue 30; h200-split-pcr-2026-11-
 * 29.txt).  A neighbour past either end is not asked about: its
 * coefficient (a of the first h rows, c of the last h) is zero, and the
 * row read there is one of the others or a zeroed pad, finite, so it adds
 * nothing. */
#define SPLIT_PCR(q, lo, hi, a, c, d)                                         \
  do                                                                          \
    {                                                                         \
      const int lo_ = (lo), hi_ = (hi), R_ = (int) R;                          \
      const real alo_ = (q)[lo_], clo_ = (q)[R_ + lo_], dlo_ = (q)[2 * R_ + lo_]; \
      const real ahi_ = (q)[hi_], chi_ = (q)[R_ + hi_], dhi_ = (q)[2 * R_ + hi_]; \
      const real r_ = SPLIT_DIV ((real) 1, (real) 1 - (a) * clo_ - (c) * ahi_); \
                                                                              \
      (d) = r_ * ((d) - (a) * dlo_ - (c) * dhi_);                             \
      (a) = -r_ * (a) * alo_;                                                 \
      (c) = -r_ * (c) * chi_;                                                 \
    }                                                                         \
  while (0)

/* The Thomas tail of step 3 (KS_SPLIT_TAIL rows, 0 for none): PARACR
 * stops where its rows couple at distance R / KS_SPLIT_TAIL, the reduced
 * system then being that many independent systems of KS_SPLIT_TAIL rows
 * (every R / KS_SPLIT_TAIL-th row), and the group's first items solve one
 * each by Thomas in local memory.  PARACR's last steps are its dearest in
 * local-memory traffic for the rows they free; the tail trades them for a
 * sequential sweep the group's other warps wait out.  On the H200, 40,000
 * x 4095 in float: tails of 4, 8, 16 and 32 rows 1.287, 1.278, 1.299 and
 * 1.410 ms against 1.302 without (issue 30, target 3; two rounds each,
 * data/reference/bench/h200-split-tail-2026-11-29.txt). */
#ifndef KS_SPLIT_TAIL
#ifdef KS_SPLIT_T
/* With the group size a constant PARACR's steps unroll, their offsets
 * folded, and to the end it measured faster than the tail: 1.158-1.162
 * ms against 1.181-1.187 with a tail of 8 rows (40,000 x 4095, the same
 * residual; h200-split-fixed-2026-11-29.txt). */
#define KS_SPLIT_TAIL 0
#else
#define KS_SPLIT_TAIL 8
#endif
#endif

/* The tail's S subsystems (system t: every S-th row of R from row t; S <=
 * T, R not necessarily a multiple of S) solved in local memory l (3 R
 * reals, free on entry): the item's rows 2t and 2t + 1 come in as f* and
 * l* (b = 1) and leave decoupled, d = x (not finite where the sweep met
 * a zero or NaN pivot). */
KS_FN void
split_tail (KS_LOCAL_PTR (real) l,
            const uint          t,
            const uint          T,
            const uint          S,
            real *fa, real *fc, real *fd,
            real *la, real *lc, real *ld)
{
  const uint R = 2 * T;

  l[2 * t] = *fa, l[R + 2 * t] = *fc, l[2 * R + 2 * t] = *fd;
  l[2 * t + 1] = *la, l[R + 2 * t + 1] = *lc, l[2 * R + 2 * t + 1] = *ld;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (t < S)
    {
      real cp = 0, dp = 0, x;

      /* Forward: c and d of row j over its pivot, in place. */
      for (uint j = t; j < R; j += S)
        {
          const real aj = l[j];
          const real r = SPLIT_DIV ((real) 1, (real) 1 - aj * cp);

          cp = l[R + j] * r;
          dp = (l[2 * R + j] - aj * dp) * r;
          l[R + j] = cp, l[2 * R + j] = dp;
        }
      /* Backward from the last row (whose d is its x): x into d. */
      x = dp;
      for (int j = (int) (t + (R - 1 - t) / S * S) - (int) S; j >= 0; j -= (int) S)
        {
          x = l[2 * R + j] - l[R + j] * x;
          l[2 * R + j] = x;
        }
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  *fd = l[2 * R + 2 * t], *ld = l[2 * R + 2 * t + 1];
  *fa = *fc = *la = *lc = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Step 3: PARACR on the R = 2 T rows of the reduced system, rows 2t and
 * 2t + 1 the item's (its piece's first and last; b = 1), held in
 * registers from step to step and written where the others read them:
 * three arrays (a, c, d) of R, twice, one copy read while the other is
 * written, so that a step needs one barrier.  In each array the even
 * rows come first, then the odd ones (row 2t at t, 2t + 1 at T + t):
 * every step's reads are then consecutive across a warp, where rows in
 * order had two items on each bank.  A pad of T reals, zeroed, before,
 * between and after the two copies takes the reads past a copy's ends (a
 * neighbour lies at most h / 2 < T places past its half; reads past the
 * a or c array of a copy land in its next array, written in the same
 * step): a copy is never read where another step writes it, which
 * Oclgrind's race check would report.  l0: 15 T reals.  On return f* and
 * l* hold the two rows with
 * their neighbours eliminated (a = c = 0, d = x; with the Thomas tail
 * too); x is not finite where a pivot was zero. */
KS_FN void
split_reduce (KS_LOCAL_PTR (real) l0,
              const uint          t,
              const uint          T,
              real *fa, real *fc, real *fd,
              real *la, real *lc, real *ld)
{
  const uint R = 2 * T;
  KS_LOCAL_PTR (real) q0 = l0 + T + t;   /* row 2t of copy 0's a */
  uint o = 0;   /* the copy written and read this step: at q0 + o */
  uint h = 1;

  /* The system's first row has no predecessor and its last no
   * successor, whatever a and c their arrays hold there. */
  if (t == 0)
    *fa = 0;
  if (t == T - 1)
    *lc = 0;
  l0[t] = 0, l0[7 * T + t] = 0, l0[14 * T + t] = 0;
  /* With a tail (of 4 rows or more), PARACR stops at the first coupling
   * distance h that leaves systems of at most KS_SPLIT_TAIL rows: then
   * h <= T, an item for each of them.  No bit tricks on h: Oclgrind has
   * no popcount. */
  _Pragma ("unroll")
  for (; h < R && (KS_SPLIT_TAIL < 4 || h * KS_SPLIT_TAIL < R); h *= 2)
    {
      KS_LOCAL_PTR (real) q = q0 + o;

      q[0] = *fa, q[R] = *fc, q[2 * R] = *fd;
      q[T] = *la, q[R + T] = *lc, q[2 * R + T] = *ld;
      barrier (CLK_LOCAL_MEM_FENCE);
      /* Row 2t's neighbours 2t -+ h: odd rows 2t - 1 and 2t + 1 at h = 1,
       * even ones t -+ h / 2 after; row 2t + 1's: even 2t, 2t + 2 at h =
       * 1, odd ones after. */
      if (h == 1)
        {
          SPLIT_PCR (q, (int) T - 1, (int) T, *fa, *fc, *fd);
          SPLIT_PCR (q, 0, 1, *la, *lc, *ld);
        }
      else
        {
          SPLIT_PCR (q, -(int) (h / 2), (int) (h / 2), *fa, *fc, *fd);
          SPLIT_PCR (q, (int) (T - h / 2), (int) (T + h / 2), *la, *lc, *ld);
        }
      o ^= 7 * T;
    }
  /* The other copy's last reads are done before l0 is used again. */
  barrier (CLK_LOCAL_MEM_FENCE);
  if (h < R)
    split_tail (l0, t, T, h, fa, fc, fd, la, lc, ld);
}

/* Step 4: every row of the item's piece from its first and last unknowns,
 * out through local memory l (free on entry and on return) to x, its
 * first n rows, coalesced.  Where the system fills every round of rows
 * but perhaps the last (n >= (M - 1) T, as in every benchmark) the
 * rounds before it store unguarded: a guard on each was an ISETP and a
 * predicate each in NVCC's code. */
KS_FN void
split_out (KS_LOCAL_PTR (real) l,
           const real *ra, const real *rc, const real *rd,
           const real first, const real last,
           const uint t, const uint T, const uint n,
           __global real *x)
{
  KS_LOCAL_PTR (real) mine = l + SPLIT_AT (t * M);
  __global real *px = x + t;

  mine[0] = first;
  _Pragma ("unroll")
  for (uint k = 1; k + 1 < M; k++)
    mine[k] = rd[k] - ra[k] * first - rc[k] * last;
  mine[M - 1] = last;
  barrier (CLK_LOCAL_MEM_FENCE);
  if (n >= (M - 1) * T)
    {
      _Pragma ("unroll")
      for (uint k = 0; k + 1 < M; k++)
        px[k * T] = l[SPLIT_AT_K (t, k)];
    }
  else
    {
      _Pragma ("unroll")
      for (uint k = 0; k + 1 < M; k++)
        if (SPLIT_IN (t, k))
          px[k * T] = l[SPLIT_AT_K (t, k)];
    }
  if (SPLIT_IN (t, M - 1))
    px[(M - 1) * T] = l[SPLIT_AT_K (t, M - 1)];
  /* l is read above until every item is past here. */
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Steps 3 and 4 for one system whose pieces split_eliminate reduced (the
 * item's rows in r*, its two rows of the reduced system in f* and l*, bad
 * its zero pivot): x out at x (its n rows, coalesced, through l), a zero
 * pivot into *info.  Every item of the group calls it; l is free on entry
 * and on return. */
KS_FN void
split_finish (KS_LOCAL_PTR (real) l,
              const real *ra, const real *rc, const real *rd,
              const real fa, const real fc, const real fd,
              const real la, const real lc, const real ld,
              uint bad,
              const uint t, const uint T, const uint n,
              __global real *x, __global int *info, const uint scale)
{
  real ra2 = fa, rc2 = fc, rd2 = fd, la2 = la, lc2 = lc, ld2 = ld;

  split_reduce (l, t, T, &ra2, &rc2, &rd2, &la2, &lc2, &ld2);
  if (!(isfinite (rd2) && isfinite (ld2)) && bad == 0)
    bad = t * M + 1;
  split_out (l, ra, rc, rd, rd2, ld2, t, T, n, x);
  /* A zero pivot in the padding cannot be (its rows are identity), but one
   * in a system's own rows can reach past n through the reduced system. */
  if (bad)
    split_report (info, min (bad, n), scale);
}

/* The streamed float build keeps two groups of 256 items (n = 4096 in
 * pieces of 16 rows) resident on CUDA (80 registers an item in the build
 * for 256 items, none spilled, with NVRTC 13; local memory holds it to
 * two); in double two groups' staging would not fit an SM's shared
 * memory anyway. */
#if defined (KS_CUDA) && defined (KS_SPLIT_STREAM) && KS_SPLIT_M == 16 && !defined (KS_FP64)
#define SPLIT_BOUNDS __launch_bounds__ (256, 2)
#else
#define SPLIT_BOUNDS
#endif

__kernel void SPLIT_BOUNDS
tridiag_split (__global const real *a,
               __global const real *b,
               __global const real *c,
               __global const real *d,
               __global real       *x,
               __global int        *info,
               const uint           n,
               const uint           systems,
               const uint           scale,
               KS_LOCAL_PARAM (real, l))
{
  KS_LOCAL_BIND (real, l);
  const uint t = (uint) get_local_id (0), T = SPLIT_T ();
  const uint G = (uint) get_num_groups (0);
  real ra[M], rb[M], rc[M], rd[M];
#ifdef KS_SPLIT_STREAM
  const uint N = T * M, P = N + N / 32 + 1;
  KS_LOCAL_PTR (real) S = l + max (P, 15 * T);

  if (get_group_id (0) < systems)
    split_stage (a, b, c, d, S, P, (ulong) get_group_id (0) * n, n, t, T);
#endif

  for (uint s = (uint) get_group_id (0); s < systems; s += G)
    {
      const ulong base = (ulong) s * n;
      real fa, fc, fd, la, lc, ld;
      uint bad;

#ifdef KS_SPLIT_STREAM
      SPLIT_WAIT ();
      barrier (CLK_LOCAL_MEM_FENCE);
      _Pragma ("unroll")
      for (uint k = 0; k < M; k++)
        {
          KS_LOCAL_PTR (real) row = S + SPLIT_AT (t * M) + k;

          ra[k] = row[0], rb[k] = row[P], rc[k] = row[2 * P], rd[k] = row[3 * P];
        }
      bad = split_eliminate (ra, rb, rc, rd, t * M, &fa, &fc, &fd, &la, &lc, &ld);
      /* The next system's copy starts once every item has its rows (here
       * rather than before the sweep: the same time on the H200, 1.425 ms
       * for 40,000 x 4095 either way, and again 1.181 against 1.189 with
       * the build for one group size, h200-split-fixed-2026-11-29.txt). */
      barrier (CLK_LOCAL_MEM_FENCE);
      if (s + G < systems)
        split_stage (a, b, c, d, S, P, base + (ulong) G * n, n, t, T);
#else
      SPLIT_ROWS_IN ();
      bad = split_eliminate (ra, rb, rc, rd, t * M, &fa, &fc, &fd, &la, &lc, &ld);
#endif
      split_finish (l, ra, rc, rd, fa, fc, fd, la, lc, ld, bad, t, T, n, x + base, &info[s], scale);
    }
}

/* --- one system larger than a group: the partition, level by level ------ *
 *
 * A system of m rows (one level) is cut into chunks of T M rows, a group
 * each, and every item reduces its piece as above; instead of solving the
 * group's reduced system in local memory, tridiag_split_reduce writes the
 * pieces' two rows out: a tridiagonal system of 2 T rows a chunk (b = 1),
 * one eighth of the level at M = 16, which the next level reduces again
 * until it fits one group (tridiag_split with one system).  Then
 * tridiag_split_expand, level by level back up, reduces each piece again
 * (reading its rows once more costs less than writing and reading back
 * the sweeps' three arrays) and recovers its rows from the two unknowns
 * the level below solved.  Every level reads its system once on the way
 * down and once on the way up: about 40 bytes an unknown in float for
 * the whole solve, against paracr-thomas's ~186 (issue 30, target 2).
 * The rows past m are identity rows, as in a group; a zero pivot as
 * split_report says. */
__kernel void
tridiag_split_reduce (__global const real *a,
                      __global const real *b,
                      __global const real *c,
                      __global const real *d,
                      __global real       *a2,
                      __global real       *b2,
                      __global real       *c2,
                      __global real       *d2,
                      __global int        *info,
                      const uint           m,
                      const uint           scale,
                      KS_LOCAL_PARAM (real, l))
{
  KS_LOCAL_BIND (real, l);
  const uint t = (uint) get_local_id (0), T = SPLIT_T ();
  const ulong base = (ulong) get_group_id (0) * T * M;
  const uint n = (uint) min ((ulong) T * M, m - base);   /* this chunk's own rows */
  const ulong p = (ulong) get_group_id (0) * T + t;       /* the piece */
  real ra[M], rb[M], rc[M], rd[M];
  real fa, fc, fd, la, lc, ld;
  uint bad;

  SPLIT_ROWS_IN ();
  bad = split_eliminate (ra, rb, rc, rd, t * M, &fa, &fc, &fd, &la, &lc, &ld);
  a2[2 * p] = fa, b2[2 * p] = 1, c2[2 * p] = fc, d2[2 * p] = fd;
  a2[2 * p + 1] = la, b2[2 * p + 1] = 1, c2[2 * p + 1] = lc, d2[2 * p + 1] = ld;
  if (bad)
    split_report (info, base + bad, scale);
}

/* The way back up: the level's rows from x2, the solution of the system
 * tridiag_split_reduce wrote (two unknowns a piece), into x. */
__kernel void
tridiag_split_expand (__global const real *a,
                      __global const real *b,
                      __global const real *c,
                      __global const real *d,
                      __global const real *x2,
                      __global real       *x,
                      const uint           m,
                      KS_LOCAL_PARAM (real, l))
{
  KS_LOCAL_BIND (real, l);
  const uint t = (uint) get_local_id (0), T = SPLIT_T ();
  const ulong base = (ulong) get_group_id (0) * T * M;
  const uint n = (uint) min ((ulong) T * M, m - base);
  const ulong p = (ulong) get_group_id (0) * T + t;
  real ra[M], rb[M], rc[M], rd[M];
  real fa, fc, fd, la, lc, ld;

  SPLIT_ROWS_IN ();
  (void) split_eliminate (ra, rb, rc, rd, t * M, &fa, &fc, &fd, &la, &lc, &ld);
  split_out (l, ra, rc, rd, x2[2 * p], x2[2 * p + 1], t, T, n, x + base);
}
