/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro-filter.c: paper 001's buffer strategies (section 4.4, Table 6):
 * a 9-tap filter over rows of bytes (kernels/micro-filter.cl) whose frame
 * goes to the device and back four ways, each phase timed apart. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _KsMicroFilter {
  KsDevice      *device;
  KsRuntime     *rt;
  KsProgram     *program;
  KsKernel      *kernel;
  guint8        *frame, *result;   /* the application's own (pageable) memory */
  gsize          bytes;
  KsBuffer      *in, *out;         /* kept by every strategy but CREATE */
  KsMicroBuffers strategy;
  guint          rows, width;
  gboolean       prepared;
};

void
ks_micro_filter_host_row (const guint8 *in,
                          guint8       *out,
                          guint         width)
{
  static const int taps[9] = { 1, 8, 28, 56, 70, 56, 28, 8, 1 };

  for (int j = 0; j < (int) width; j++)
    {
      int acc = 128;

      for (int k = -4; k <= 4; k++)
        acc += taps[k + 4] * in[CLAMP (j + k, 0, (int) width - 1)];
      out[j] = (guint8) (acc >> 8);
    }
}

void
ks_micro_filter_free (KsMicroFilter *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->in, ks_buffer_unref);
  g_clear_pointer (&self->out, ks_buffer_unref);
  g_clear_pointer (&self->frame, g_free);
  g_clear_pointer (&self->result, g_free);
  g_clear_pointer (&self->kernel, ks_kernel_unref);
  g_clear_pointer (&self->program, ks_program_unref);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self);
}

KsDevice *
ks_micro_filter_get_device (KsMicroFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->device;
}

KsMicroFilter *
ks_micro_filter_new (KsDevice *device,
                     GError  **error)
{
  g_autoptr(KsMicroFilter) self = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  self = g_new0 (KsMicroFilter, 1);
  self->device = g_object_ref (device);
  if (!(self->rt = ks_runtime_new (device, error)) ||
      !(self->program = ks_runtime_build_program (self->rt, "micro-filter.cl", NULL, error)) ||
      !(self->kernel = ks_program_create_kernel (self->program, "micro_filter", error)))
    return NULL;
  return g_steal_pointer (&self);
}

static KsBufferFlags
strategy_flags (KsMicroBuffers strategy)
{
  return strategy == KS_MICRO_BUFFERS_PINNED ? KS_BUFFER_HOST_PINNED
         : strategy == KS_MICRO_BUFFERS_ZERO_COPY ? KS_BUFFER_ZERO_COPY : 0;
}

static gboolean
alloc_pair (KsMicroFilter *self,
            KsBufferFlags  flags,
            GError       **error)
{
  return (self->in = ks_runtime_alloc_full (self->rt, self->bytes, flags | KS_BUFFER_READ_ONLY, error)) &&
         (self->out = ks_runtime_alloc_full (self->rt, self->bytes, flags | KS_BUFFER_WRITE_ONLY, error));
}

gboolean
ks_micro_filter_prepare (KsMicroFilter *self,
                         KsMicroBuffers strategy,
                         guint          rows,
                         guint          width,
                         GError       **error)
{
  gsize bytes;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (strategy < KS_MICRO_N_BUFFERS, FALSE);

  self->prepared = FALSE;
  g_clear_pointer (&self->in, ks_buffer_unref);
  g_clear_pointer (&self->out, ks_buffer_unref);
  if (rows == 0 || width < 1 || (guint64) rows * width > G_MAXSIZE / 2)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%u rows of %u bytes: both must be at least 1"), rows, width);
      return FALSE;
    }
  bytes = (gsize) rows * width;
  if (bytes != self->bytes)
    {
      g_clear_pointer (&self->frame, g_free);
      g_clear_pointer (&self->result, g_free);
      self->bytes = 0;
      if (!(self->frame = g_try_malloc (bytes)) || !(self->result = g_try_malloc (bytes)))
        {
          g_clear_pointer (&self->frame, g_free);
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                       _("The host cannot hold two frames of %.1f MiB"), bytes / 1048576.0);
          return FALSE;
        }
      self->bytes = bytes;
    }
  /* A frame with edges and texture, the same for a given size everywhere. */
  for (gsize i = 0; i < bytes; i++)
    self->frame[i] = (guint8) ((i * 7 + (i / width) * 13 + (i % 97 == 0 ? 200 : 0)) & 0xff);
  if (strategy != KS_MICRO_BUFFERS_CREATE && !alloc_pair (self, strategy_flags (strategy), error))
    {
      g_clear_pointer (&self->in, ks_buffer_unref);
      return FALSE;
    }
  self->strategy = strategy;
  self->rows = rows;
  self->width = width;
  self->prepared = TRUE;
  return TRUE;
}

/* Host memory to a mapped buffer or back, waited for: the mapped
 * strategies' transfer. */
static gboolean
copy_mapped (KsMicroFilter *self,
             KsBuffer      *buffer,
             gboolean       to_device,
             GError       **error)
{
  KsQueue *q = ks_runtime_get_queue (self->rt);
  void *mapped = ks_queue_map (q, buffer, 0, self->bytes, to_device ? KS_MAP_WRITE : KS_MAP_READ, error);

  if (mapped == NULL)
    return FALSE;
  if (to_device)
    memcpy (mapped, self->frame, self->bytes);
  else
    memcpy (self->result, mapped, self->bytes);
  return ks_queue_unmap (q, buffer, mapped, error) && ks_runtime_finish (self->rt, error);
}

static void
check (KsMicroFilter       *self,
       KsMicroFilterResult *out)
{
  g_autofree guint8 *row = g_malloc (self->width);
  guint n = MIN (self->rows, 64);

  for (guint k = 0; k < n; k++)
    {
      guint r = n == 1 ? 0 : (guint) ((guint64) k * (self->rows - 1) / (n - 1));
      const guint8 *got = self->result + (gsize) r * self->width;

      ks_micro_filter_host_row (self->frame + (gsize) r * self->width, row, self->width);
      for (guint j = 0; j < self->width; j++)
        out->wrong += got[j] != row[j];
    }
  out->checked = n;
}

gboolean
ks_micro_filter_run (KsMicroFilter       *self,
                     KsMicroFilterResult *out,
                     GError             **error)
{
  const gboolean mapped = self->strategy == KS_MICRO_BUFFERS_PINNED || self->strategy == KS_MICRO_BUFFERS_ZERO_COPY;
  double t0, t;

  g_return_val_if_fail (self != NULL && self->prepared, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  memset (self->result, 0, self->bytes);
  t0 = t = ks_micro_now_ms ();
  if (self->strategy == KS_MICRO_BUFFERS_CREATE)
    {
      if (!alloc_pair (self, 0, error))
        {
          g_clear_pointer (&self->in, ks_buffer_unref);
          return FALSE;
        }
      out->alloc_ms = ks_micro_now_ms () - t;
      t = ks_micro_now_ms ();
    }
  if (!(mapped ? copy_mapped (self, self->in, TRUE, error)
               : ks_runtime_write (self->rt, self->in, 0, self->bytes, self->frame, error)) ||
      !ks_kernel_set_arg_buffer (self->kernel, 0, self->in, error) ||
      !ks_kernel_set_arg_buffer (self->kernel, 1, self->out, error) ||
      !ks_kernel_set_arg (self->kernel, 2, sizeof self->rows, &self->rows, error) ||
      !ks_kernel_set_arg (self->kernel, 3, sizeof self->width, &self->width, error))
    return FALSE;
  out->upload_ms = ks_micro_now_ms () - t;
  if (!ks_micro_launch_timed (self->rt, self->kernel, self->rows, &out->kernel_ms, &out->launch_ms, error))
    return FALSE;
  t = ks_micro_now_ms ();
  if (!(mapped ? copy_mapped (self, self->out, FALSE, error)
               : ks_runtime_read (self->rt, self->out, 0, self->bytes, self->result, error)))
    return FALSE;
  out->download_ms = ks_micro_now_ms () - t;
  if (self->strategy == KS_MICRO_BUFFERS_CREATE)
    {
      t = ks_micro_now_ms ();
      g_clear_pointer (&self->in, ks_buffer_unref);
      g_clear_pointer (&self->out, ks_buffer_unref);
      out->alloc_ms += ks_micro_now_ms () - t;
    }
  out->ms = ks_micro_now_ms () - t0;
  check (self, out);
  return TRUE;
}
