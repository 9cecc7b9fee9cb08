/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gauss"

#include "ks-gauss-blocked.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>

/* The update's tile is 16 x 16 items (gauss_blk_update); the panel and the
 * back substitution take up to this many, at least a block's 32. */
#define UPDATE_SIDE 16
#define GROUP       256
/* Blocks between looks at the GCancellable (as the paper's method looks
 * every 16 steps: a Stop is felt within a fraction of a second). */
#define CANCEL_CHECK_BLOCKS 4

enum { PANEL, UPDATE, BACK, N_KERNELS };

static const char *names[N_KERNELS] = { "gauss_blk_panel", "gauss_blk_update", "gauss_blk_back" };

struct _KsGaussBlocked
{
  KsRuntime   *rt;
  KsPrecision  precision;
  KsProgram   *program;
  KsKernel    *kernels[N_KERNELS];
  gsize        group;      /* the panel's and the back substitution's items */
  KsBuffer    *diag;       /* the factored diagonal blocks, n x KS_GAUSS_BLOCK */
  gsize        diag_rows;
  guint        launches;
};

void
ks_gauss_blocked_free (KsGaussBlocked *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->diag, ks_buffer_free);
  for (guint i = 0; i < N_KERNELS; i++)
    g_clear_pointer (&self->kernels[i], ks_kernel_free);
  g_clear_pointer (&self->program, ks_program_free);
  g_free (self);
}

KsGaussBlocked *
ks_gauss_blocked_new (KsRuntime    *rt,
                      KsPrecision   precision,
                      GError      **error)
{
  g_autoptr(KsGaussBlocked) self = g_new0 (KsGaussBlocked, 1);
  g_autofree char *options = g_strdup_printf ("%s -DKS_GB=%d",
                                              precision == KS_PRECISION_DOUBLE ? "-DKS_REAL=double -DKS_FP64"
                                                                               : "-DKS_REAL=float",
                                              KS_GAUSS_BLOCK);
  gsize group = GROUP;

  self->rt = rt;
  self->precision = precision;
  if (!(self->program = ks_runtime_build_program (rt, "gauss-blocked.cl", options, error)))
    return NULL;
  for (guint i = 0; i < N_KERNELS; i++)
    {
      if (!(self->kernels[i] = ks_program_create_kernel (self->program, names[i], error)))
        return NULL;
      group = MIN (group, ks_kernel_get_max_work_group_size (self->kernels[i]));
    }
  if (ks_kernel_get_max_work_group_size (self->kernels[UPDATE]) < UPDATE_SIDE * UPDATE_SIDE ||
      group < KS_GAUSS_BLOCK)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                   _("The blocked Gauss method needs work-groups of %d items; this device's kernels "
                     "take at most %lu"),
                   UPDATE_SIDE * UPDATE_SIDE, (unsigned long) group);
      return NULL;
    }
  self->group = group;
  return g_steal_pointer (&self);
}

static gboolean
set_real (KsGaussBlocked *self,
          KsKernel       *kernel,
          guint           index,
          double          value,
          GError        **error)
{
  const float f = (float) value;

  return self->precision == KS_PRECISION_DOUBLE ? ks_kernel_set_arg (kernel, index, sizeof value, &value, error)
                                                : ks_kernel_set_arg (kernel, index, sizeof f, &f, error);
}

static gboolean
launch (KsGaussBlocked        *self,
        guint                  k,
        const KsLaunchConfig  *config,
        GError               **error)
{
  self->launches++;
  return ks_queue_launch (ks_runtime_get_queue (self->rt), self->kernels[k], config, error);
}

/* Block kb's panel and, where a trailing matrix is left (b's column at
 * least), its update. */
static gboolean
enqueue_block (KsGaussBlocked  *self,
               int              n,
               int              kb,
               GError         **error)
{
  const gsize L = self->group;
  const int nb = MIN (KS_GAUSS_BLOCK, n - kb), c0 = kb + nb;
  const gsize rows = (gsize) (n - c0), cols = (gsize) (n + 1 - c0);
  const int row_groups = (int) ((rows + L - 1) / L);
  const gsize groups = (gsize) row_groups + (cols + L - 1) / L;
  const KsLaunchConfig panel = { 1, { groups * L, 1, 1 }, { L, 1, 1 }, { 0 } };
  const gsize tiles_x = (cols + 63) / 64, tiles_y = (rows + 63) / 64;
  const KsLaunchConfig update = { 2, { tiles_x * UPDATE_SIDE, tiles_y * UPDATE_SIDE, 1 },
                                  { UPDATE_SIDE, UPDATE_SIDE, 1 }, { 0 } };

  if (!ks_kernel_set_arg (self->kernels[PANEL], 3, sizeof kb, &kb, error) ||
      !ks_kernel_set_arg (self->kernels[PANEL], 4, sizeof row_groups, &row_groups, error) ||
      !launch (self, PANEL, &panel, error))
    return FALSE;
  if (rows == 0)
    return TRUE;   /* the last block: b's column is the panel's */
  return ks_kernel_set_arg (self->kernels[UPDATE], 2, sizeof kb, &kb, error) &&
         launch (self, UPDATE, &update, error);
}

static gboolean
pace (KsGaussBlocked *self,
      GCancellable   *cancellable,
      GError        **error)
{
  return !g_cancellable_set_error_if_cancelled (cancellable, error) && ks_runtime_pace (self->rt, error) &&
         !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static gboolean
set_args (KsGaussBlocked *self,
          int             n,
          KsBuffer       *a,
          KsBuffer       *x,
          KsBuffer       *info,
          double          tiny,
          GError        **error)
{
  KsKernel **k = self->kernels;

  return ks_kernel_set_arg_buffer (k[PANEL], 0, a, error) &&
         ks_kernel_set_arg_buffer (k[PANEL], 1, self->diag, error) &&
         ks_kernel_set_arg (k[PANEL], 2, sizeof n, &n, error) &&
         ks_kernel_set_arg_buffer (k[PANEL], 5, info, error) &&
         set_real (self, k[PANEL], 6, tiny, error) &&
         ks_kernel_set_arg_buffer (k[UPDATE], 0, a, error) &&
         ks_kernel_set_arg (k[UPDATE], 1, sizeof n, &n, error) &&
         ks_kernel_set_arg_buffer (k[BACK], 0, a, error) &&
         ks_kernel_set_arg_buffer (k[BACK], 1, self->diag, error) &&
         ks_kernel_set_arg_buffer (k[BACK], 2, x, error) &&
         ks_kernel_set_arg (k[BACK], 3, sizeof n, &n, error);
}

gboolean
ks_gauss_blocked_enqueue (KsGaussBlocked *self,
                          int             n,
                          KsBuffer       *a,
                          KsBuffer       *x,
                          KsBuffer       *info,
                          double          tiny,
                          GCancellable   *cancellable,
                          GError        **error)
{
  const gsize rs = self->precision == KS_PRECISION_DOUBLE ? sizeof (double) : sizeof (float);
  const int last = (n - 1) / KS_GAUSS_BLOCK * KS_GAUSS_BLOCK;

  g_return_val_if_fail (self != NULL && n >= 1, FALSE);

  self->launches = 0;
  if ((gsize) n > self->diag_rows)
    {
      g_clear_pointer (&self->diag, ks_buffer_free);
      self->diag_rows = 0;
      if (!(self->diag = ks_runtime_alloc (self->rt, (gsize) n * KS_GAUSS_BLOCK * rs, error)))
        return FALSE;
      self->diag_rows = n;
    }
  if (!set_args (self, n, a, x, info, tiny, error))
    return FALSE;
  for (int kb = 0, b = 0; kb < n; kb += KS_GAUSS_BLOCK, b++)
    if ((b % CANCEL_CHECK_BLOCKS == 0 && !pace (self, cancellable, error)) || !enqueue_block (self, n, kb, error))
      return FALSE;
  /* Back substitution, the last block first; one group at least (it
   * stores the block's unknowns), else one item per row above kb. */
  for (int kb = last, b = 0; kb >= 0; kb -= KS_GAUSS_BLOCK, b++)
    {
      const gsize groups = MAX (((gsize) kb + self->group - 1) / self->group, 1);
      const KsLaunchConfig back = { 1, { groups * self->group, 1, 1 }, { self->group, 1, 1 }, { 0 } };

      if ((b % CANCEL_CHECK_BLOCKS == 0 && !pace (self, cancellable, error)) ||
          !ks_kernel_set_arg (self->kernels[BACK], 4, sizeof kb, &kb, error) || !launch (self, BACK, &back, error))
        return FALSE;
    }
  return TRUE;
}

guint
ks_gauss_blocked_get_launches (KsGaussBlocked *self)
{
  return self->launches;
}

guint64
ks_gauss_blocked_get_time_ns (KsGaussBlocked *self)
{
  guint64 ns = 0;

  for (guint i = 0; i < N_KERNELS; i++)
    ns += ks_kernel_get_time_ns (self->kernels[i]);
  return ns;
}

void
ks_gauss_blocked_reset_timing (KsGaussBlocked *self)
{
  for (guint i = 0; i < N_KERNELS; i++)
    ks_kernel_reset_timing (self->kernels[i]);
}
