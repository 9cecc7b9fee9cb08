/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-dist-cg-device.c: one part of the distributed CG (ks-dist-cg.h) on an
 * OpenCL or CUDA device, with the kernels of kernels/heat-cg.cl on slices
 * of the part's vectors.
 *
 * Unlike ks-cg-device.c, whose scalars never leave the device, a part
 * needs every dot product summed with the other parts', so each iteration
 * reads two partial-sum arrays (a few KiB) and writes alpha and beta back.
 * The halo: p's exchange range is read before the interior rows' SpMV is
 * launched, so that SpMV runs on the device while the host exchanges; the
 * virtual values are written after it and the exchange rows' SpMV follows. */
#define G_LOG_DOMAIN "ks-dist-cg"

#include "ks-dist-cg.h"
#include "ks-dist-cg-private.h"

#include "ks-compute-error.h"
#include "ks-runtime.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* As in heat-cg.cl. */
enum { S_RHO, S_PQ, S_ALPHA, S_BETA, S_BB, S_TOL2, S_THRESH, N_SCALARS };
enum { ST_DONE, ST_ACTIVE, ST_ITERS, ST_BREAKDOWN, N_STATE };
enum { K_SPMV, K_DOT, K_AXPY, K_XPAY, N_KERNELS };
static const char * const kernel_names[N_KERNELS] = { "cg_spmv", "cg_dot", "cg_axpy", "cg_xpay" };

struct _KsDistCgDevice {
  KsDevice    *device;
  KsPrecision  precision;
  gsize        real_size;
  KsRuntime   *rt;
  KsProgram   *program;
  KsKernel    *k[N_KERNELS];
  gsize        local;
};

typedef struct {
  KsDistCgDevice *dev;
  guint           n, all, groups;
  KsBuffer       *row_ptr, *col, *val, *x, *b, *r, *p, *q, *partial, *scalars, *state;
  void           *stage;      /* all values in the device's precision */
  double         *partials;
  /* alpha and beta as written to scalars, untouched until the queue has
   * read them (the next blocking read comes first): the write returns at
   * once, instead of a round trip to the device twice an iteration. */
  union { double d[N_SCALARS]; float f[N_SCALARS]; } held;
} Part;

void
ks_dist_cg_device_free (KsDistCgDevice *dev)
{
  if (dev == NULL)
    return;
  for (guint i = 0; i < N_KERNELS; i++)
    g_clear_pointer (&dev->k[i], ks_kernel_unref);
  g_clear_pointer (&dev->program, ks_program_unref);
  g_clear_pointer (&dev->rt, ks_runtime_unref);
  g_clear_object (&dev->device);
  g_free (dev);
}

KsDistCgDevice *
ks_dist_cg_device_new (KsDevice    *device,
                       KsPrecision  precision,
                       GError     **error)
{
  g_autoptr(KsDistCgDevice) dev = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s has no double precision (cl_khr_fp64); choose float"), ks_device_get_name (device));
      return NULL;
    }
  dev = g_new0 (KsDistCgDevice, 1);
  dev->device = g_object_ref (device);
  dev->precision = precision;
  dev->real_size = ks_precision_size (precision);
  if (!(dev->rt = ks_runtime_new (device, error)) ||
      !(dev->program = ks_runtime_build_program (dev->rt, "heat-cg.cl",
                                                 precision == KS_PRECISION_DOUBLE ? "-DKS_REAL=double -DKS_FP64"
                                                                                  : "-DKS_REAL=float",
                                                 error)))
    return NULL;
  dev->local = 256;
  for (guint i = 0; i < N_KERNELS; i++)
    {
      if (!(dev->k[i] = ks_program_create_kernel (dev->program, kernel_names[i], error)))
        return NULL;
      if (ks_kernel_get_max_work_group_size (dev->k[i]) > 0)
        dev->local = MIN (dev->local, ks_kernel_get_max_work_group_size (dev->k[i]));
    }
  ks_runtime_set_timing (dev->rt, FALSE);
  return g_steal_pointer (&dev);
}

static void
part_clear (Part *p)
{
  KsBuffer **buffers[] = { &p->row_ptr, &p->col, &p->val, &p->x, &p->b, &p->r, &p->p, &p->q,
                           &p->partial, &p->scalars, &p->state };

  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], ks_buffer_unref);
  g_free (p->stage);
  g_free (p->partials);
}

/* n doubles into the device's precision in the stage. */
static const void *
to_real (Part *p, const double *src, gsize n)
{
  if (p->dev->precision == KS_PRECISION_DOUBLE)
    return src;
  for (gsize i = 0; i < n; i++)
    ((float *) p->stage)[i] = (float) src[i];
  return p->stage;
}

static gboolean
write_reals (Part *p, KsBuffer *buffer, gsize first, const double *src, gsize n, GError **error)
{
  return n == 0 || ks_runtime_write (p->dev->rt, buffer, first * p->dev->real_size, n * p->dev->real_size,
                                     to_real (p, src, n), error);
}

static gboolean
read_reals (Part *p, KsBuffer *buffer, gsize first, double *dst, gsize n, GError **error)
{
  if (n == 0)
    return TRUE;
  if (p->dev->precision == KS_PRECISION_DOUBLE)
    return ks_runtime_read (p->dev->rt, buffer, first * sizeof (double), n * sizeof (double), dst, error);
  if (!ks_runtime_read (p->dev->rt, buffer, first * sizeof (float), n * sizeof (float), p->stage, error))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    dst[i] = ((float *) p->stage)[i];
  return TRUE;
}

static KsBuffer *
alloc (Part *p, gsize bytes, GError **error)
{
  return ks_runtime_alloc (p->dev->rt, MAX (bytes, 8), error);
}

static gboolean
upload (Part         *p,
        const guint  *row_ptr,
        const guint  *col,
        const double *val,
        const double *b,
        const double *x,
        GError      **error)
{
  KsRuntime *rt = p->dev->rt;
  const gsize rs = p->dev->real_size, nnz = row_ptr[p->n];
  const gint32 state[N_STATE] = { 0, 1, 0, 0 };   /* never done, always active: the host decides */

  p->groups = (guint) MAX (1, MIN ((p->n + p->dev->local - 1) / p->dev->local, 1024));
  p->stage = g_malloc (MAX (MAX (p->all, nnz), N_SCALARS) * rs + 8);
  p->partials = g_new (double, p->groups);
  return (p->row_ptr = alloc (p, sizeof (guint) * (p->n + 1), error)) &&
         (p->col = alloc (p, sizeof (guint) * nnz, error)) &&
         (p->val = alloc (p, rs * nnz, error)) &&
         (p->x = alloc (p, rs * p->all, error)) && (p->b = alloc (p, rs * p->n, error)) &&
         (p->r = alloc (p, rs * p->n, error)) && (p->p = alloc (p, rs * p->all, error)) &&
         (p->q = alloc (p, rs * p->n, error)) && (p->partial = alloc (p, rs * p->groups, error)) &&
         (p->scalars = alloc (p, rs * N_SCALARS, error)) &&
         (p->state = alloc (p, sizeof state, error)) &&
         ks_runtime_write (rt, p->row_ptr, 0, sizeof (guint) * (p->n + 1), row_ptr, error) &&
         (nnz == 0 || ks_runtime_write (rt, p->col, 0, sizeof (guint) * nnz, col, error)) &&
         write_reals (p, p->val, 0, val, nnz, error) &&
         write_reals (p, p->b, 0, b, p->n, error) &&
         write_reals (p, p->x, 0, x, p->all, error) &&
         ks_runtime_write (rt, p->state, 0, sizeof state, state, error);
}

static gboolean
launch_rows (Part *p, guint kernel, guint rows, GError **error)
{
  const gsize global = rows;
  return rows == 0 || ks_runtime_launch (p->dev->rt, p->dev->k[kernel], 1, &global, NULL, error);
}

/* q[first, end) = (A in)[first, end) */
static gboolean
spmv (Part *p, KsBuffer *in, guint first, guint end, GError **error)
{
  return end <= first ||
         (ks_kernel_set_args (p->dev->k[K_SPMV], error, KS_ARG_INT, (int) (end - first), KS_ARG_INT, (int) first,
                              KS_ARG_BUFFER, p->row_ptr, KS_ARG_BUFFER, p->col, KS_ARG_BUFFER, p->val,
                              KS_ARG_BUFFER, in, KS_ARG_BUFFER, p->q, KS_ARG_BUFFER, p->state, KS_ARG_END) &&
          launch_rows (p, K_SPMV, end - first, error));
}

/* This part's a.b, summed on the host in double from the groups' partial sums. */
static gboolean
dot (Part *p, KsBuffer *a, KsBuffer *b, double *out, GError **error)
{
  const gsize global = (gsize) p->groups * p->dev->local;

  *out = 0;
  if (p->n == 0)
    return TRUE;
  if (!ks_kernel_set_args (p->dev->k[K_DOT], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, a, KS_ARG_BUFFER, b,
                           KS_ARG_BUFFER, p->partial, KS_ARG_LOCAL, p->dev->local * p->dev->real_size,
                           KS_ARG_END) ||
      !ks_runtime_launch (p->dev->rt, p->dev->k[K_DOT], 1, &global, &p->dev->local, error) ||
      !read_reals (p, p->partial, 0, p->partials, p->groups, error))
    return FALSE;
  for (guint g = 0; g < p->groups; g++)
    *out += p->partials[g];
  return TRUE;
}

/* Enqueued, not waited for: src must stay untouched until the queue's next
 * blocking read has returned. */
static gboolean
write_async (Part *p, KsBuffer *buffer, gsize offset, gsize bytes, const void *src, GError **error)
{
  return bytes == 0 || ks_queue_write (ks_runtime_get_queue (p->dev->rt), buffer, offset, bytes, src,
                                       KS_TRANSFER_NON_BLOCKING, NULL, error);
}

static gboolean
set_scalar (Part *p, guint which, double value, GError **error)
{
  if (p->dev->precision == KS_PRECISION_DOUBLE)
    p->held.d[which] = value;
  else
    p->held.f[which] = (float) value;
  return write_async (p, p->scalars, which * p->dev->real_size, p->dev->real_size,
                      p->dev->precision == KS_PRECISION_DOUBLE ? (const void *) &p->held.d[which]
                                                               : (const void *) &p->held.f[which],
                      error);
}

static gboolean
axpy (Part *p, KsBuffer *y, KsBuffer *v, int sign, GError **error)
{
  return ks_kernel_set_args (p->dev->k[K_AXPY], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, y,
                             KS_ARG_BUFFER, v, KS_ARG_INT, sign, KS_ARG_BUFFER, p->scalars,
                             KS_ARG_BUFFER, p->state, KS_ARG_END) &&
         launch_rows (p, K_AXPY, p->n, error);
}

/* The virtual values from the exchange into in, enqueued behind the
 * interior rows without waiting for them (double: host is untouched until
 * the dot's read; float goes through the stage, and waits). */
static gboolean
write_virtual (Part *p, KsBuffer *in, const double *values, guint first, guint n, GError **error)
{
  if (p->dev->precision == KS_PRECISION_DOUBLE)
    return write_async (p, in, first * sizeof (double), n * sizeof (double), values, error);
  return write_reals (p, in, first, values, n, error);
}

/* q = A in: in's exchange range to the neighbours first, then the interior
 * rows launched, the halo exchanged while they run, the virtual values
 * written, the exchange rows launched. */
static gboolean
spmv_exchanged (Part        *p,
                KsExchange  *ex,
                KsBuffer    *in,
                double      *host,
                GError     **error)
{
  const KsHaloPart *part = ex->part;

  return read_reals (p, in, part->n_interior, host + part->n_interior, part->n_owned - part->n_interior, error) &&
         spmv (p, in, 0, part->n_interior, error) &&
         ks_exchange_start (ex, host, error) &&
         ks_exchange_finish (ex, host, error) &&
         write_virtual (p, in, host + part->n_owned, part->n_owned, part->n_virtual, error) &&
         spmv (p, in, part->n_interior, part->n_owned, error);
}

gboolean
ks_dist_cg_solve_device (KsDistCgDevice        *dev,
                         KsExchange            *ex,
                         const guint           *row_ptr,
                         const guint           *col,
                         const double          *val,
                         const double          *b,
                         double                *x,
                         const KsDistCgOptions *options,
                         KsDistCgResult        *out,
                         GError               **error)
{
  Part part = { dev };
  g_autofree double *host = NULL;
  double sums[2], rho = 0, b_norm, pq, rho_new;
  gboolean ok;
  gint64 begin;
  guint it = 0;

  g_return_val_if_fail (dev != NULL && ex != NULL && ex->part != NULL && options != NULL, FALSE);

  if (options->pipelined)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The pipelined CG runs on host parts only; this part is on %s"),
                   ks_device_get_name (dev->device));
      ks_exchange_abort (ex);
      return FALSE;
    }
  part.n = ex->part->n_owned;
  part.all = ex->part->n_owned + ex->part->n_virtual;
  host = g_new0 (double, MAX (part.all, 1));
  /* r = b - A x, p = r (the x's virtual values come through the exchange). */
  memcpy (host, x, sizeof (double) * part.n);
  ok = upload (&part, row_ptr, col, val, b, x, error) &&
       spmv_exchanged (&part, ex, part.x, host, error);
  if (ok)
    {
      /* r = b - q, then p = r, on the host side of the copy: both are
       * O(n) once; the iterations stay on the device. */
      g_autofree double *bq = g_new (double, MAX (part.n, 1));
      g_autofree double *qq = g_new (double, MAX (part.n, 1));

      ok = read_reals (&part, part.q, 0, qq, part.n, error);
      for (guint i = 0; ok && i < part.n; i++)
        bq[i] = b[i] - qq[i];
      ok = ok && write_reals (&part, part.r, 0, bq, part.n, error) && write_reals (&part, part.p, 0, bq, part.n, error);
      sums[0] = sums[1] = 0;
      for (guint i = 0; ok && i < part.n; i++)
        {
          sums[0] += bq[i] * bq[i];
          sums[1] += b[i] * b[i];
        }
    }
  ok = ok && ks_exchange_allreduce (ex, sums, 2, error);
  if (ok)
    {
      rho = sums[0];
      b_norm = sqrt (sums[1]) > 0 ? sqrt (sums[1]) : 1;
    }
  begin = g_get_monotonic_time ();
  while (ok && sqrt (rho) > options->tol * b_norm)
    {
      if (it == options->max_iter)
        {
          ks_dist_cg_set_not_converged (error, it, sqrt (rho) / b_norm, options->tol);
          ok = FALSE;
          break;
        }
      ok = spmv_exchanged (&part, ex, part.p, host, error) &&
           dot (&part, part.p, part.q, &pq, error) &&
           ks_exchange_allreduce (ex, &pq, 1, error);
      if (ok && !(pq > 0))
        {
          ks_dist_cg_set_breakdown (error, it, pq);
          ok = FALSE;
        }
      ok = ok && set_scalar (&part, S_ALPHA, rho / pq, error) &&
           axpy (&part, part.x, part.p, 1, error) &&
           axpy (&part, part.r, part.q, -1, error) &&
           dot (&part, part.r, part.r, &rho_new, error) &&
           ks_exchange_allreduce (ex, &rho_new, 1, error) &&
           set_scalar (&part, S_BETA, rho_new / rho, error) &&
           ks_kernel_set_args (dev->k[K_XPAY], error, KS_ARG_INT, (int) part.n, KS_ARG_BUFFER, part.p,
                               KS_ARG_BUFFER, part.r, KS_ARG_BUFFER, part.scalars, KS_ARG_BUFFER, part.state,
                               KS_ARG_END) &&
           launch_rows (&part, K_XPAY, part.n, error);
      if (ok)
        rho = rho_new;
      it++;
    }
  ok = ok && read_reals (&part, part.x, 0, x, part.n, error);
  if (!ok)
    {
      /* Writes still queued read part.held and host, about to go. */
      ks_runtime_finish (dev->rt, NULL);
      ks_exchange_abort (ex);
    }
  if (ok && out)
    {
      out->iterations = it;
      out->residual = sqrt (rho) / b_norm;
      out->iterate_s = (g_get_monotonic_time () - begin) / 1e6;
    }
  part_clear (&part);
  return ok;
}
