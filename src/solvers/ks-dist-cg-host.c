/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-dist-cg-host.c: see ks-dist-cg.h.  The host part's CG, classic and
 * pipelined, on the cores' OpenMP team. */
#define G_LOG_DOMAIN "ks-dist-cg"

#include "ks-dist-cg.h"
#include "ks-dist-cg-private.h"

#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static void
spmv_rows (const guint  *row_ptr,
           const guint  *col,
           const double *val,
           const double *x,
           double       *y,
           guint         first,
           guint         end)
{
#pragma omp parallel for if (end - first > 20000) schedule (static)
  for (guint i = first; i < end; i++)
    {
      double sum = 0;

      for (guint k = row_ptr[i]; k < row_ptr[i + 1]; k++)
        sum += val[k] * x[col[k]];
      y[i] = sum;
    }
}

static double
dot (const double *a,
     const double *b,
     guint         n)
{
  double sum = 0;

#pragma omp parallel for if (n > 20000) reduction (+:sum) schedule (static)
  for (guint i = 0; i < n; i++)
    sum += a[i] * b[i];
  return sum;
}

/* x += alpha p, r -= alpha q and the new r.r in one pass, on the cores'
 * team as the SpMV and the dots: one thread alone doing these updates
 * made the host part of one process 2.7 times slower than the GPU part it
 * should keep pace with (issue 28: relative 0.37 at lambda 24 on the
 * H200; under mpirun a rank is one core anyway). */
static double
update_xr (double       *x,
           double       *r,
           const double *p,
           const double *q,
           double        alpha,
           guint         n)
{
  double sum = 0;

#pragma omp parallel for if (n > 20000) reduction (+:sum) schedule (static)
  for (guint i = 0; i < n; i++)
    {
      const double v = r[i] - alpha * q[i];

      x[i] += alpha * p[i];
      r[i] = v;
      sum += v * v;
    }
  return sum;
}

/* The host CG's waits for the other parts (a halo's finish, a sum). */
typedef enum {
  WAIT_HALO,
  WAIT_SUM,          /* allreduce */
  WAIT_SUM_FINISH,   /* iallreduce_finish */
} WaitKind;

static gboolean
exchange_wait (KsExchange *ex,
               WaitKind    kind,
               double     *values,
               guint       n,
               GError    **error)
{
  switch (kind)
    {
    case WAIT_HALO:
      return ks_exchange_finish (ex, values, error);
    case WAIT_SUM:
      return ks_exchange_allreduce (ex, values, n, error);
    default:
      return ks_exchange_iallreduce_finish (ex, values, n, error);
    }
}

static inline void
relax (void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause ();
#elif defined(__aarch64__)
  __asm__ __volatile__ ("yield");
#endif
}

/* A wait for the other parts, with the host team spinning beside this
 * thread (KS_DIST_TUNE_SPIN).  Left idle in libgomp's pool between the
 * parallel regions, the workers went to sleep during the wait (libgomp
 * spins only briefly when the process has more threads than cores, as it
 * has beside the CUDA runtime's and the device parts'), and waking them
 * at each of the iteration's regions cost the host part more than its
 * work: at 3 M cells on the H200 host (16 cores), relative 0.91-0.93 of
 * the GPU alone, 1.00-1.02 with OMP_WAIT_POLICY=ACTIVE, which a library
 * cannot set once libgomp has started (tests/device/hybrid-omp.sh, issue
 * 28).  Spinning only here keeps the pool's idle behaviour for the rest
 * of the program (a GUI). */
static gboolean
team_wait (KsExchange *ex,
           WaitKind    kind,
           double     *values,
           guint       n,
           GError    **error)
{
#ifdef _OPENMP
  if (ex->team_spins && ex->part->n_owned > 20000 && omp_get_max_threads () > 1)
    {
      gboolean ok = FALSE;
      gint done = 0;

#pragma omp parallel
      {
        if (omp_get_thread_num () == 0)
          {
            ok = exchange_wait (ex, kind, values, n, error);
            g_atomic_int_set (&done, 1);
          }
        else
          /* Yielding now and then: where the cores are oversubscribed (a
           * test machine), the thread waited for may need this core. */
          for (guint i = 1; !g_atomic_int_get (&done); i++)
            if (i % 64 == 0)
              g_thread_yield ();
            else
              relax ();
      }
      return ok;
    }
#endif
  return exchange_wait (ex, kind, values, n, error);
}

/* q = A p, the interior rows while p's virtual values travel. */
static gboolean
spmv_exchanged (KsExchange   *ex,
                const guint  *row_ptr,
                const guint  *col,
                const double *val,
                double       *p,
                double       *q,
                GError      **error)
{
  const KsHaloPart *part = ex->part;

  if (!ks_exchange_start (ex, p, error))
    return FALSE;
  spmv_rows (row_ptr, col, val, p, q, 0, part->n_interior);
  if (!team_wait (ex, WAIT_HALO, p, 0, error))
    return FALSE;
  spmv_rows (row_ptr, col, val, p, q, part->n_interior, part->n_owned);
  return TRUE;
}

/* The start both host CGs share: r = b - A x into r (and q, its scratch),
 * r.r and ||b|| summed over the parts in one reduction (||b|| = 1 when b
 * = 0: the answer is x = 0, and ||r|| is absolute). */
static gboolean
start_residual (KsExchange   *ex,
                const guint  *row_ptr,
                const guint  *col,
                const double *val,
                const double *b,
                double       *x,
                double       *r,
                double       *q,
                double       *rho,
                double       *b_norm,
                GError      **error)
{
  const guint n = ex->part->n_owned;
  double sums[2];

  if (!spmv_exchanged (ex, row_ptr, col, val, x, q, error))
    return FALSE;
#pragma omp parallel for if (n > 20000) schedule (static)
  for (guint i = 0; i < n; i++)
    r[i] = b[i] - q[i];
  sums[0] = dot (r, r, n);
  sums[1] = dot (b, b, n);
  if (!ks_exchange_allreduce (ex, sums, 2, error))
    return FALSE;
  *rho = sums[0];
  *b_norm = sums[1] > 0 ? sqrt (sums[1]) : 1;
  return TRUE;
}

/* What a converged solve reports. */
static void
set_result (KsDistCgResult *out, guint iterations, double residual, gint64 begin)
{
  if (out == NULL)
    return;
  out->iterations = iterations;
  out->residual = residual;
  out->iterate_s = (g_get_monotonic_time () - begin) / 1e6;
}

static gboolean
solve_host (KsExchange            *ex,
            const guint           *row_ptr,
            const guint           *col,
            const double          *val,
            const double          *b,
            double                *x,
            const KsDistCgOptions *options,
            KsDistCgResult        *out,
            GError               **error)
{
  guint n, all;
  g_autofree double *r = NULL;
  g_autofree double *p = NULL;
  g_autofree double *q = NULL;
  double rho, b_norm;
  gint64 begin;
  guint it;

  g_return_val_if_fail (ex != NULL && ex->part != NULL && options != NULL, FALSE);

  n = ex->part->n_owned;
  all = n + ex->part->n_virtual;
  r = g_new0 (double, MAX (n, 1));
  p = g_new0 (double, MAX (all, 1));
  q = g_new0 (double, MAX (n, 1));

  if (!start_residual (ex, row_ptr, col, val, b, x, r, q, &rho, &b_norm, error))
    return FALSE;
  memcpy (p, r, sizeof (double) * n);

  begin = g_get_monotonic_time ();
  ks_exchange_begin_iterations (ex);
  for (it = 0; sqrt (rho) > options->tol * b_norm; it++)
    {
      double pq, alpha, rho_new;

      if (it == options->max_iter)
        {
          ks_dist_cg_set_not_converged (error, it, sqrt (rho) / b_norm, options->tol);
          return FALSE;
        }
      if (!spmv_exchanged (ex, row_ptr, col, val, p, q, error))
        return FALSE;
      pq = dot (p, q, n);
      if (!team_wait (ex, WAIT_SUM, &pq, 1, error))
        return FALSE;
      if (!(pq > 0))
        {
          ks_dist_cg_set_breakdown (error, it, pq);
          return FALSE;
        }
      alpha = rho / pq;
      rho_new = update_xr (x, r, p, q, alpha, n);
      if (!team_wait (ex, WAIT_SUM, &rho_new, 1, error))
        return FALSE;
      {
        const double beta = rho_new / rho;

#pragma omp parallel for if (n > 20000) schedule (static)
        for (guint i = 0; i < n; i++)
          p[i] = r[i] + beta * p[i];
      }
      rho = rho_new;
    }
  set_result (out, it, sqrt (rho) / b_norm, begin);
  return TRUE;
}

/* The pipelined CG, unpreconditioned (Ghysels & Vanroose's Algorithm 4):
 *   r = b - A x, w = A r
 *   loop: gamma = r.r, delta = w.r   (one sum, started)
 *         q = A w                    (while it travels)
 *         beta = gamma / gamma_old, alpha = gamma / (delta - beta gamma / alpha_old)
 *         z = q + beta z, s = w + beta s, p = r + beta p
 *         x += alpha p, r -= alpha s, w -= alpha z
 * The same iterates as the classic CG in exact arithmetic. */
static gboolean
solve_host_pipelined (KsExchange            *ex,
                      const guint           *row_ptr,
                      const guint           *col,
                      const double          *val,
                      const double          *b,
                      double                *x,
                      const KsDistCgOptions *options,
                      KsDistCgResult        *out,
                      GError               **error)
{
  const guint n = ex->part->n_owned, all = n + ex->part->n_virtual;
  g_autofree double *r = g_new0 (double, MAX (all, 1));   /* exchanged: A r */
  g_autofree double *w = g_new0 (double, MAX (all, 1));   /* exchanged: A w */
  g_autofree double *q = g_new0 (double, MAX (n, 1));
  g_autofree double *z = g_new0 (double, MAX (n, 1));
  g_autofree double *s = g_new0 (double, MAX (n, 1));
  g_autofree double *p = g_new0 (double, MAX (n, 1));
  const gboolean fused = (options->tune & KS_DIST_TUNE_HOST) != 0;
  double sums[2], next[2], gamma = 0, gamma_old = 1, alpha = 1, b_norm;
  gint64 begin;
  guint it;

  /* r.r comes again with w.r in the first iteration's one sum. */
  if (!start_residual (ex, row_ptr, col, val, b, x, r, q, &gamma, &b_norm, error))
    return FALSE;
  /* w = A r */
  if (!spmv_exchanged (ex, row_ptr, col, val, r, w, error))
    return FALSE;

  begin = g_get_monotonic_time ();
  ks_exchange_begin_iterations (ex);
  for (it = 0;; it++)
    {
      double beta, delta, rr = 0, wr = 0;

      /* KS_DIST_TUNE_HOST: the sums from the last update's pass. */
      if (!(fused && it > 0))
        {
          next[0] = dot (r, r, n);
          next[1] = dot (w, r, n);
        }
      memcpy (sums, next, sizeof sums);
      if (!ks_exchange_iallreduce_start (ex, sums, 2, error) ||
          !spmv_exchanged (ex, row_ptr, col, val, w, q, error) ||
          !team_wait (ex, WAIT_SUM_FINISH, sums, 2, error))
        return FALSE;
      gamma = sums[0];
      delta = sums[1];
      if (!(sqrt (gamma) > options->tol * b_norm))
        break;
      if (it == options->max_iter)
        {
          ks_dist_cg_set_not_converged (error, it, sqrt (gamma) / b_norm, options->tol);
          return FALSE;
        }
      beta = it > 0 ? gamma / gamma_old : 0.0;
      if (it > 0)
        delta -= beta * gamma / alpha;
      if (!(delta > 0))
        {
          ks_dist_cg_set_breakdown (error, it, delta);
          return FALSE;
        }
      alpha = gamma / delta;
#pragma omp parallel for if (n > 20000) reduction (+:rr, wr) schedule (static)
      for (guint i = 0; i < n; i++)
        {
          z[i] = q[i] + beta * z[i];
          s[i] = w[i] + beta * s[i];
          p[i] = r[i] + beta * p[i];
          x[i] += alpha * p[i];
          r[i] -= alpha * s[i];
          w[i] -= alpha * z[i];
          rr += r[i] * r[i];
          wr += w[i] * r[i];
        }
      next[0] = rr;
      next[1] = wr;
      gamma_old = gamma;
    }
  set_result (out, it, sqrt (gamma) / b_norm, begin);
  return TRUE;
}

gboolean
ks_dist_cg_solve_host (KsExchange            *ex,
                       const guint           *row_ptr,
                       const guint           *col,
                       const double          *val,
                       const double          *b,
                       double                *x,
                       const KsDistCgOptions *options,
                       KsDistCgResult        *out,
                       GError               **error)
{
  g_return_val_if_fail (ex != NULL && ex->part != NULL && options != NULL, FALSE);

  ex->team_spins = (options->tune & KS_DIST_TUNE_SPIN) != 0;
  if (options->pipelined ? solve_host_pipelined (ex, row_ptr, col, val, b, x, options, out, error)
                         : solve_host (ex, row_ptr, col, val, b, x, options, out, error))
    return TRUE;
  /* The others are told, or they would wait for this part forever. */
  ks_exchange_abort (ex);
  return FALSE;
}
