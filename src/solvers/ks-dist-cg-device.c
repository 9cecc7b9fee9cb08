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
 * virtual values are written after it and the exchange rows' SpMV follows.
 *
 * Waits for the device per iteration (what limits a small device part's
 * iteration beside a host part, issue 28): the classic CG plain, three
 * blocking reads (the halo after the last update, two partial sums; the
 * writes of the virtual values, alpha and beta are not waited for); with
 * KS_DIST_TUNE_OVERLAP two (the halo's read runs on a second queue beside
 * the interior SpMV); the pipelined CG with it, one (its two sums'
 * partials and the halo together). */
#define G_LOG_DOMAIN "ks-dist-cg"

#include "ks-dist-cg.h"
#include "ks-dist-cg-private.h"
#include "ks-cg-private.h"

#include "ks-compute-error.h"
#include "ks-runtime.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/* As in heat-cg.cl. */
enum { S_RHO, S_PQ, S_ALPHA, S_BETA, S_BB, S_TOL2, S_THRESH, N_SCALARS };
enum { ST_DONE, ST_ACTIVE, ST_ITERS, ST_BREAKDOWN, N_STATE };
enum { K_SPMV, K_DOT, K_AXPY, K_XPAY, K_UPDATE_R, K_UPDATE_XP, K_DOT2, K_PIPE_UPDATE, N_KERNELS };
static const char * const kernel_names[N_KERNELS] = {
  "cg_spmv", "cg_dot", "cg_axpy", "cg_xpay", "cg_update_r", "cg_update_xp", "cg_dot2", "cg_pipe_update",
};

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
  guint           n, all, groups, n_interior;
  KsBuffer       *row_ptr, *col, *val, *x, *b, *r, *p, *q, *partial, *scalars, *state;
  KsBuffer       *w, *s, *z;  /* the pipelined CG's */
  void           *stage;      /* all values in the device's precision */
  double         *partials;   /* two sums' */
  /* The host's side of the halo (owned + virtual), two that alternate:
   * with KS_DIST_TUNE_SUMS a neighbour may still read exchange k's values
   * while this part reads exchange k + 1's (the pipelined CG's two in a
   * row, with no sum between them). */
  double         *hosts[2];
  guint           n_exchanges;
  /* KS_DIST_TUNE_OVERLAP: the halo's queue, and alpha and beta in the
   * device's precision, written without waiting (each slot is rewritten
   * only after a blocking read on the same queue, so its last write is
   * done). */
  KsQueue        *halo_queue;
  gboolean        xrows;      /* KS_DIST_TUNE_XROWS: exchange rows on the halo queue */
  union { double d[2]; float f[2]; } slots;
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
      !(dev->program = ks_runtime_build_program (dev->rt, "heat-cg.cl", ks_cg_program_options (device, precision),
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
                           &p->partial, &p->scalars, &p->state, &p->w, &p->s, &p->z };

  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    g_clear_pointer (buffers[i], ks_buffer_unref);
  g_clear_pointer (&p->halo_queue, ks_queue_unref);
  g_free (p->stage);
  g_free (p->partials);
  g_free (p->hosts[0]);
  g_free (p->hosts[1]);
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

/* Blocking, on queue (NULL: the default one). */
static gboolean
write_reals_on (Part *p, KsQueue *queue, KsBuffer *buffer, gsize first, const double *src, gsize n, GError **error)
{
  const gsize rs = p->dev->real_size;

  return n == 0 || ks_queue_write (queue ? queue : ks_runtime_get_queue (p->dev->rt), buffer, first * rs, n * rs,
                                   to_real (p, src, n), KS_TRANSFER_BLOCKING, NULL, error);
}

static gboolean
write_reals (Part *p, KsBuffer *buffer, gsize first, const double *src, gsize n, GError **error)
{
  return write_reals_on (p, NULL, buffer, first, src, n, error);
}

static gboolean
read_reals_on (Part *p, KsQueue *queue, KsBuffer *buffer, gsize first, double *dst, gsize n, GError **error)
{
  const gsize rs = p->dev->real_size;

  if (n == 0)
    return TRUE;
  if (queue == NULL)
    queue = ks_runtime_get_queue (p->dev->rt);
  if (p->dev->precision == KS_PRECISION_DOUBLE)
    return ks_queue_read (queue, buffer, first * rs, n * rs, dst, KS_TRANSFER_BLOCKING, NULL, error);
  if (!ks_queue_read (queue, buffer, first * rs, n * rs, p->stage, KS_TRANSFER_BLOCKING, NULL, error))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    dst[i] = ((float *) p->stage)[i];
  return TRUE;
}

static gboolean
read_reals (Part *p, KsBuffer *buffer, gsize first, double *dst, gsize n, GError **error)
{
  return read_reals_on (p, NULL, buffer, first, dst, n, error);
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
  /* Two sums' partials, and behind them the pipelined CG's w's exchange
   * range (pipe_sums_and_halo). */
  p->partials = g_new (double, 2 * p->groups + p->n - p->n_interior);
  return (p->row_ptr = alloc (p, sizeof (guint) * (p->n + 1), error)) &&
         (p->col = alloc (p, sizeof (guint) * nnz, error)) &&
         (p->val = alloc (p, rs * nnz, error)) &&
         (p->x = alloc (p, rs * p->all, error)) && (p->b = alloc (p, rs * p->n, error)) &&
         (p->r = alloc (p, rs * p->all, error)) && (p->p = alloc (p, rs * p->all, error)) &&
         (p->q = alloc (p, rs * p->n, error)) && (p->partial = alloc (p, rs * (2 * p->groups + p->n - p->n_interior), error)) &&
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

/* q[first, end) = (A in)[first, end), on queue (NULL: the default). */
static gboolean
spmv_on (Part *p, KsQueue *queue, KsBuffer *in, guint first, guint end, GError **error)
{
  const KsLaunchConfig config = { .dims = 1, .global = { end - first } };

  if (end <= first)
    return TRUE;
  if (!ks_kernel_set_args (p->dev->k[K_SPMV], error, KS_ARG_INT, (int) (end - first), KS_ARG_INT, (int) first,
                           KS_ARG_BUFFER, p->row_ptr, KS_ARG_BUFFER, p->col, KS_ARG_BUFFER, p->val,
                           KS_ARG_BUFFER, in, KS_ARG_BUFFER, p->q, KS_ARG_BUFFER, p->state, KS_ARG_END))
    return FALSE;
  return queue == NULL ? launch_rows (p, K_SPMV, end - first, error)
                       : ks_queue_launch (queue, p->dev->k[K_SPMV], &config, error);
}

static gboolean
spmv (Part *p, KsBuffer *in, guint first, guint end, GError **error)
{
  return spmv_on (p, NULL, in, first, end, error);
}

/* The groups' partial sums of the last reduction, summed on the host in
 * double (the read waits for the queue: one of the iteration's two waits
 * for the device). */
static gboolean
read_sum (Part *p, double *out, GError **error)
{
  *out = 0;
  if (!read_reals (p, p->partial, 0, p->partials, p->groups, error))
    return FALSE;
  for (guint g = 0; g < p->groups; g++)
    *out += p->partials[g];
  return TRUE;
}

/* This part's a.b. */
static gboolean
dot (Part *p, KsBuffer *a, KsBuffer *b, double *out, GError **error)
{
  const gsize global = (gsize) p->groups * p->dev->local;

  *out = 0;
  return p->n == 0 ||
         (ks_kernel_set_args (p->dev->k[K_DOT], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, a, KS_ARG_BUFFER, b,
                              KS_ARG_BUFFER, p->partial, KS_ARG_LOCAL, p->dev->local * p->dev->real_size,
                              KS_ARG_END) &&
          ks_runtime_launch (p->dev->rt, p->dev->k[K_DOT], 1, &global, &p->dev->local, error) &&
          read_sum (p, out, error));
}

/* scalars[which] = value without waiting, from slot (0: alpha, 1: beta):
 * the write returns at once, instead of a round trip to the device twice
 * an iteration. */
static gboolean
set_scalar_async (Part *p, guint which, guint slot, double value, GError **error)
{
  const void *src = &p->slots.d[slot];

  if (p->dev->precision == KS_PRECISION_DOUBLE)
    p->slots.d[slot] = value;
  else
    {
      p->slots.f[slot] = (float) value;
      src = &p->slots.f[slot];
    }
  return ks_queue_write (ks_runtime_get_queue (p->dev->rt), p->scalars, which * p->dev->real_size,
                         p->dev->real_size, src, KS_TRANSFER_NON_BLOCKING, NULL, error);
}

static gboolean
axpy (Part *p, KsBuffer *y, KsBuffer *v, int sign, GError **error)
{
  return ks_kernel_set_args (p->dev->k[K_AXPY], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, y,
                             KS_ARG_BUFFER, v, KS_ARG_INT, sign, KS_ARG_BUFFER, p->scalars,
                             KS_ARG_BUFFER, p->state, KS_ARG_END) &&
         launch_rows (p, K_AXPY, p->n, error);
}

/* q = A in: in's exchange range to the neighbours first, then the interior
 * rows launched, the halo exchanged while they run, the virtual values
 * written, the exchange rows launched. */
static double *
next_host (Part *p)
{
  return p->hosts[p->n_exchanges++ & 1];
}

static gboolean
spmv_exchanged (Part        *p,
                KsExchange  *ex,
                KsBuffer    *in,
                GError     **error)
{
  const KsHaloPart *part = ex->part;
  double *host = next_host (p);

  /* The virtual values enqueued behind the interior rows without waiting
   * for them (double: host is untouched until the dot's read; float goes
   * through the stage, and waits). */
  return read_reals (p, in, part->n_interior, host + part->n_interior, part->n_owned - part->n_interior, error) &&
         spmv (p, in, 0, part->n_interior, error) &&
         ks_exchange_start (ex, host, error) &&
         ks_exchange_finish (ex, host, error) &&
         (p->dev->precision != KS_PRECISION_DOUBLE
            ? write_reals (p, in, part->n_owned, host + part->n_owned, part->n_virtual, error)
            : part->n_virtual == 0 ||
              ks_queue_write (ks_runtime_get_queue (p->dev->rt), in, part->n_owned * sizeof (double),
                              part->n_virtual * sizeof (double), host + part->n_owned, KS_TRANSFER_NON_BLOCKING,
                              NULL, error)) &&
         spmv (p, in, part->n_interior, part->n_owned, error);
}

/* After the exchange: in's virtual values written on the halo queue
 * (not waited for: host's virtual range, and the stage in float, stay
 * untouched until the default queue, which waits for this queue, has been
 * read back), then the exchange rows' SpMV there too, beside the interior
 * rows still running on the default queue, which waits for it.  Launched
 * on the default queue behind the interior rows, the exchange rows' small
 * SpMV and the wait for the copy came between the interior SpMV and the
 * dot product: the GPU part's own extra time in the hybrid (issue 28);
 * without KS_DIST_TUNE_XROWS they still do, for measuring the change. */
static gboolean
write_virtual_then_rest (Part        *p,
                         KsExchange  *ex,
                         KsBuffer    *in,
                         double      *host,
                         GError     **error)
{
  const KsHaloPart *part = ex->part;
  const gsize rs = p->dev->real_size;
  g_autoptr(KsEvent) done = NULL;

  if (part->n_virtual > 0 &&
      !ks_queue_write (p->halo_queue, in, part->n_owned * rs, part->n_virtual * rs,
                       to_real (p, host + part->n_owned, part->n_virtual), KS_TRANSFER_NON_BLOCKING, NULL, error))
    return FALSE;
  if (part->n_virtual == 0 && part->n_owned == part->n_interior)
    return TRUE;
  if (p->xrows && !spmv_on (p, p->halo_queue, in, part->n_interior, part->n_owned, error))
    return FALSE;
  return (done = ks_queue_record (p->halo_queue, error)) != NULL &&
         ks_queue_wait (ks_runtime_get_queue (p->dev->rt), done, error) &&
         (p->xrows || spmv (p, in, part->n_interior, part->n_owned, error));
}

/* KS_DIST_TUNE_OVERLAP's: the interior rows launched first; in's
 * exchange range read on the halo queue once the work before is done (so
 * the copy runs beside the interior SpMV, and the host waits for the copy
 * alone); the virtual values written there too, and the exchange rows
 * launched after them.  The interior rows read no virtual value. */
static gboolean
spmv_overlapped (Part        *p,
                 KsExchange  *ex,
                 KsBuffer    *in,
                 GError     **error)
{
  const KsHaloPart *part = ex->part;
  double *host = next_host (p);
  g_autoptr(KsEvent) ready = ks_queue_record (ks_runtime_get_queue (p->dev->rt), error);

  if (ready == NULL || !ks_queue_wait (p->halo_queue, ready, error) ||
      !spmv (p, in, 0, part->n_interior, error) ||
      !read_reals_on (p, p->halo_queue, in, part->n_interior, host + part->n_interior,
                      part->n_owned - part->n_interior, error) ||
      !ks_exchange_start (ex, host, error) || !ks_exchange_finish (ex, host, error))
    return FALSE;
  return write_virtual_then_rest (p, ex, in, host, error);
}

/* r -= alpha q with the partial sums of r.r in one pass; this part's r.r. */
static gboolean
update_r (Part *p, double *rho, GError **error)
{
  const gsize global = (gsize) p->groups * p->dev->local;

  *rho = 0;
  return p->n == 0 ||
         (ks_kernel_set_args (p->dev->k[K_UPDATE_R], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, p->r,
                              KS_ARG_BUFFER, p->q, KS_ARG_BUFFER, p->partial, KS_ARG_BUFFER, p->scalars,
                              KS_ARG_BUFFER, p->state, KS_ARG_LOCAL, p->dev->local * p->dev->real_size,
                              KS_ARG_END) &&
          ks_runtime_launch (p->dev->rt, p->dev->k[K_UPDATE_R], 1, &global, &p->dev->local, error) &&
          read_sum (p, rho, error));
}

/* x += alpha p, then p = r + beta p. */
static gboolean
update_xp (Part *p, GError **error)
{
  return ks_kernel_set_args (p->dev->k[K_UPDATE_XP], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, p->x,
                             KS_ARG_BUFFER, p->p, KS_ARG_BUFFER, p->r, KS_ARG_BUFFER, p->scalars,
                             KS_ARG_BUFFER, p->state, KS_ARG_END) &&
         launch_rows (p, K_UPDATE_XP, p->n, error);
}

/* One iteration, the plain way: three waits for the device (the halo's
 * read, each dot product's partial sums). */
static gboolean
iterate_plain (Part *p, KsExchange *ex, double *rho, guint it, GError **error)
{
  double pq, rho_new;

  if (!spmv_exchanged (p, ex, p->p, error) || !dot (p, p->p, p->q, &pq, error) ||
      !ks_exchange_allreduce (ex, &pq, 1, error))
    return FALSE;
  if (!(pq > 0))
    {
      ks_dist_cg_set_breakdown (error, it, pq);
      return FALSE;
    }
  if (!set_scalar_async (p, S_ALPHA, 0, *rho / pq, error) || !axpy (p, p->x, p->p, 1, error) ||
      !axpy (p, p->r, p->q, -1, error) || !dot (p, p->r, p->r, &rho_new, error) ||
      !ks_exchange_allreduce (ex, &rho_new, 1, error) ||
      !set_scalar_async (p, S_BETA, 1, rho_new / *rho, error) ||
      !ks_kernel_set_args (p->dev->k[K_XPAY], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, p->p,
                           KS_ARG_BUFFER, p->r, KS_ARG_BUFFER, p->scalars, KS_ARG_BUFFER, p->state, KS_ARG_END) ||
      !launch_rows (p, K_XPAY, p->n, error))
    return FALSE;
  *rho = rho_new;
  return TRUE;
}

/* With KS_DIST_TUNE_OVERLAP: the halo beside the interior SpMV, and the
 * two sums' reads the only waits; alpha and beta go unwaited, x's update
 * waits for beta to share p's read with p = r + beta p. */
static gboolean
iterate_overlapped (Part *p, KsExchange *ex, double *rho, guint it, GError **error)
{
  double pq, rho_new;

  if (!spmv_overlapped (p, ex, p->p, error) || !dot (p, p->p, p->q, &pq, error) ||
      !ks_exchange_allreduce (ex, &pq, 1, error))
    return FALSE;
  if (!(pq > 0))
    {
      ks_dist_cg_set_breakdown (error, it, pq);
      return FALSE;
    }
  if (!set_scalar_async (p, S_ALPHA, 0, *rho / pq, error) || !update_r (p, &rho_new, error) ||
      !ks_exchange_allreduce (ex, &rho_new, 1, error) ||
      !set_scalar_async (p, S_BETA, 1, rho_new / *rho, error) || !update_xp (p, error))
    return FALSE;
  *rho = rho_new;
  return TRUE;
}

/* r = b - A x, p = r (the x's virtual values come through the exchange);
 * r.r and b.b summed over the parts. */
static gboolean
start_residual (Part         *p,
                KsExchange   *ex,
                const guint  *row_ptr,
                const guint  *col,
                const double *val,
                const double *b,
                const double *x,
                double       *rho,
                double       *b_norm,
                GError      **error)
{
  g_autofree double *bq = g_new (double, MAX (p->n, 1));
  double sums[2] = { 0, 0 };

  if (!upload (p, row_ptr, col, val, b, x, error) || !spmv_exchanged (p, ex, p->x, error) ||
      !read_reals (p, p->q, 0, bq, p->n, error))
    return FALSE;
  /* r = b - q, then p = r, on the host side of the copy: both are O(n)
   * once; the iterations stay on the device. */
  for (guint i = 0; i < p->n; i++)
    {
      bq[i] = b[i] - bq[i];
      sums[0] += bq[i] * bq[i];
      sums[1] += b[i] * b[i];
    }
  if (!write_reals (p, p->r, 0, bq, p->n, error) || !write_reals (p, p->p, 0, bq, p->n, error) ||
      !ks_exchange_allreduce (ex, sums, 2, error))
    return FALSE;
  *rho = sums[0];
  *b_norm = sqrt (sums[1]) > 0 ? sqrt (sums[1]) : 1;
  return TRUE;
}

/* --- the pipelined CG (Ghysels & Vanroose's Algorithm 4, as the host
 * part's in ks-dist-cg.c): one sum per iteration, started before q = A w
 * and waited for after it; one wait for the device (the two sums'
 * partials) and one write (alpha and beta) an iteration. */

static gboolean
launch_groups (Part *p, guint kernel, GError **error)
{
  const gsize global = (gsize) p->groups * p->dev->local;

  return ks_runtime_launch (p->dev->rt, p->dev->k[kernel], 1, &global, &p->dev->local, error);
}

/* r.r and w.r from the last cg_dot2 or cg_pipe_update's partials. */
static gboolean
read_sums2 (Part *p, double sums[2], GError **error)
{
  sums[0] = sums[1] = 0;
  if (p->n == 0)
    return TRUE;
  if (!read_reals (p, p->partial, 0, p->partials, 2 * p->groups, error))
    return FALSE;
  for (guint g = 0; g < p->groups; g++)
    {
      sums[0] += p->partials[g];
      sums[1] += p->partials[p->groups + g];
    }
  return TRUE;
}

static gboolean
spmv_halo (Part *p, KsExchange *ex, KsBuffer *in, gboolean overlap, GError **error)
{
  return overlap ? spmv_overlapped (p, ex, in, error) : spmv_exchanged (p, ex, in, error);
}

/* With KS_DIST_TUNE_OVERLAP, the pipelined iteration's one wait for the
 * device: q = A w's interior rows launched; on the halo queue, once the
 * last update is done, w's exchange range copied behind the two sums'
 * partials and both read at once; the sum started, the halo exchanged,
 * the exchange rows launched. */
static gboolean
pipe_sums_and_halo (Part *p, KsExchange *ex, double sums[2], GError **error)
{
  const KsHaloPart *part = ex->part;
  const gsize rs = p->dev->real_size, tail = 2 * p->groups, n_ex = part->n_owned - part->n_interior;
  g_autoptr(KsEvent) ready = ks_queue_record (ks_runtime_get_queue (p->dev->rt), error);
  double *host = next_host (p);

  if (ready == NULL || !ks_queue_wait (p->halo_queue, ready, error) ||
      !spmv (p, p->w, 0, part->n_interior, error) ||
      (n_ex > 0 && !ks_queue_copy (p->halo_queue, p->w, part->n_interior * rs, p->partial, tail * rs, n_ex * rs,
                                   NULL, error)) ||
      !read_reals_on (p, p->halo_queue, p->partial, 0, p->partials, tail + n_ex, error))
    return FALSE;
  sums[0] = sums[1] = 0;
  for (guint g = 0; g < p->groups; g++)
    {
      sums[0] += p->partials[g];
      sums[1] += p->partials[p->groups + g];
    }
  memcpy (host + part->n_interior, p->partials + tail, sizeof (double) * n_ex);
  return ks_exchange_iallreduce_start (ex, sums, 2, error) && ks_exchange_start (ex, host, error) &&
         ks_exchange_finish (ex, host, error) && write_virtual_then_rest (p, ex, p->w, host, error);
}

/* After start_residual: s = z = 0, w = A r, and r.r, w.r's partials. */
static gboolean
pipe_setup (Part *p, KsExchange *ex, gboolean overlap, GError **error)
{
  static const double zero = 0;   /* 0 in float too: all its bytes are 0 */
  KsQueue *queue = ks_runtime_get_queue (p->dev->rt);
  const gsize rs = p->dev->real_size;

  if (!(p->w = alloc (p, rs * p->all, error)) || !(p->s = alloc (p, rs * p->n, error)) ||
      !(p->z = alloc (p, rs * p->n, error)) || !spmv_halo (p, ex, p->r, overlap, error))
    return FALSE;
  return p->n == 0 ||
         (ks_queue_fill (queue, p->s, &zero, rs, 0, rs * p->n, NULL, error) &&
          ks_queue_fill (queue, p->z, &zero, rs, 0, rs * p->n, NULL, error) &&
          ks_queue_copy (queue, p->q, 0, p->w, 0, rs * p->n, NULL, error) &&
          ks_kernel_set_args (p->dev->k[K_DOT2], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, p->r,
                              KS_ARG_BUFFER, p->w, KS_ARG_BUFFER, p->partial,
                              KS_ARG_LOCAL, p->dev->local * rs, KS_ARG_END) &&
          launch_groups (p, K_DOT2, error));
}

/* alpha and beta (adjacent scalars) in one write, then the vector step. */
static gboolean
pipe_update (Part *p, double alpha, double beta, GError **error)
{
  const void *src = p->slots.d;

  G_STATIC_ASSERT (S_BETA == S_ALPHA + 1);
  if (p->dev->precision == KS_PRECISION_DOUBLE)
    {
      p->slots.d[0] = alpha;
      p->slots.d[1] = beta;
    }
  else
    {
      p->slots.f[0] = (float) alpha;
      p->slots.f[1] = (float) beta;
    }
  return p->n == 0 ||
         (ks_queue_write (ks_runtime_get_queue (p->dev->rt), p->scalars, S_ALPHA * p->dev->real_size,
                          2 * p->dev->real_size, src, KS_TRANSFER_NON_BLOCKING, NULL, error) &&
          ks_kernel_set_args (p->dev->k[K_PIPE_UPDATE], error, KS_ARG_INT, (int) p->n, KS_ARG_BUFFER, p->x,
                              KS_ARG_BUFFER, p->r, KS_ARG_BUFFER, p->w, KS_ARG_BUFFER, p->p,
                              KS_ARG_BUFFER, p->s, KS_ARG_BUFFER, p->z, KS_ARG_BUFFER, p->q,
                              KS_ARG_BUFFER, p->scalars, KS_ARG_BUFFER, p->partial,
                              KS_ARG_LOCAL, p->dev->local * p->dev->real_size, KS_ARG_END) &&
          launch_groups (p, K_PIPE_UPDATE, error));
}

/* The iterations; *it and *gamma (r.r) as they end. */
static gboolean
solve_pipelined (Part                  *p,
                 KsExchange            *ex,
                 const KsDistCgOptions *options,
                 double                 b_norm,
                 guint                 *it,
                 double                *gamma,
                 GError               **error)
{
  const gboolean overlap = (options->tune & KS_DIST_TUNE_OVERLAP) != 0;
  double sums[2], gamma_old = 1, alpha = 1;

  if (!pipe_setup (p, ex, overlap, error))
    return FALSE;
  for (*it = 0;; (*it)++)
    {
      double beta, delta;

      if (overlap ? !pipe_sums_and_halo (p, ex, sums, error)
                  : (!read_sums2 (p, sums, error) || !ks_exchange_iallreduce_start (ex, sums, 2, error) ||
                     !spmv_exchanged (p, ex, p->w, error)))
        return FALSE;
      if (!ks_exchange_iallreduce_finish (ex, sums, 2, error))
        return FALSE;
      *gamma = sums[0];
      delta = sums[1];
      if (!(sqrt (*gamma) > options->tol * b_norm))
        return TRUE;
      if (*it == options->max_iter)
        {
          ks_dist_cg_set_not_converged (error, *it, sqrt (*gamma) / b_norm, options->tol);
          return FALSE;
        }
      beta = *it > 0 ? *gamma / gamma_old : 0.0;
      if (*it > 0)
        delta -= beta * *gamma / alpha;
      if (!(delta > 0))
        {
          ks_dist_cg_set_breakdown (error, *it, delta);
          return FALSE;
        }
      alpha = *gamma / delta;
      if (!pipe_update (p, alpha, beta, error))
        return FALSE;
      gamma_old = *gamma;
    }
}

/* The classic CG's iterations. */
static gboolean
solve_classic (Part                  *p,
               KsExchange            *ex,
               const KsDistCgOptions *options,
               double                 b_norm,
               guint                 *it,
               double                *rho,
               GError               **error)
{
  const gboolean overlap = (options->tune & KS_DIST_TUNE_OVERLAP) != 0;

  for (*it = 0; sqrt (*rho) > options->tol * b_norm; (*it)++)
    {
      if (*it == options->max_iter)
        {
          ks_dist_cg_set_not_converged (error, *it, sqrt (*rho) / b_norm, options->tol);
          return FALSE;
        }
      if (!(overlap ? iterate_overlapped (p, ex, rho, *it, error) : iterate_plain (p, ex, rho, *it, error)))
        return FALSE;
    }
  return TRUE;
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
  double rho = 0, b_norm = 1;
  gboolean ok;
  gint64 begin;
  guint it = 0;

  g_return_val_if_fail (dev != NULL && ex != NULL && ex->part != NULL && options != NULL, FALSE);

  part.n = ex->part->n_owned;
  part.xrows = (options->tune & KS_DIST_TUNE_XROWS) != 0;
  part.n_interior = ex->part->n_interior;
  part.all = ex->part->n_owned + ex->part->n_virtual;
  part.hosts[0] = g_new0 (double, MAX (part.all, 1));
  part.hosts[1] = g_new0 (double, MAX (part.all, 1));
  ok = (!(options->tune & KS_DIST_TUNE_OVERLAP) || (part.halo_queue = ks_runtime_new_queue (dev->rt, error))) &&
       start_residual (&part, ex, row_ptr, col, val, b, x, &rho, &b_norm, error);
  begin = g_get_monotonic_time ();
  ks_exchange_begin_iterations (ex);
  ok = ok && (options->pipelined ? solve_pipelined (&part, ex, options, b_norm, &it, &rho, error)
                                 : solve_classic (&part, ex, options, b_norm, &it, &rho, error));
  ok = ok && read_reals (&part, part.x, 0, x, part.n, error);
  if (!ok)
    {
      /* Writes still queued (both queues) read part's slots and hosts,
       * about to go. */
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
