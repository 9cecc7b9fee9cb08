/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro-simd.c: paper 001's SIMD loop (kernels/micro-simd.cl) on
 * short .. short16, one program per width, checked against the host. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const guint widths[KS_MICRO_SIMD_N_WIDTHS] = { 1, 2, 4, 8, 16 };

struct _KsMicroSimd {
  KsDevice  *device;
  KsRuntime *rt;
  KsProgram *programs[KS_MICRO_SIMD_N_WIDTHS];
  KsKernel  *kernels[KS_MICRO_SIMD_N_WIDTHS];
  KsBuffer  *input, *output;
  gsize      buffer_bytes;
  gint16    *host_output;
  /* The point: */
  int        w;                                   /* width index */
  guint64    items;
  guint      iterations;
  guint64    checked[KS_MICRO_SIMD_CHECKED];       /* element indices */
  gint16     expected[KS_MICRO_SIMD_CHECKED];
  guint      n_checked;
};

int
ks_micro_simd_width_index (guint width)
{
  for (int i = 0; i < KS_MICRO_SIMD_N_WIDTHS; i++)
    if (widths[i] == width)
      return i;
  return -1;
}

/* As the kernel's scalar form: the arithmetic in int, stored as a short. */
gint16
ks_micro_simd_host (gint16 input,
                    guint  iterations)
{
  gint16 result = 0;

  for (guint i = 0; i < iterations; i++)
    result = (gint16) (result + (((((input - result) * 5) + 2) / 7) - 4));
  return result;
}

/* Within +-1000: no intermediate of the loop leaves a short (micro-simd.cl). */
static gint16
input_at (guint64 i)
{
  return (gint16) ((i * 37) % 2001) - 1000;
}

void
ks_micro_simd_free (KsMicroSimd *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < KS_MICRO_SIMD_N_WIDTHS; i++)
    {
      g_clear_pointer (&self->kernels[i], ks_kernel_unref);
      g_clear_pointer (&self->programs[i], ks_program_unref);
    }
  g_clear_pointer (&self->input, ks_buffer_unref);
  g_clear_pointer (&self->output, ks_buffer_unref);
  g_clear_pointer (&self->host_output, g_free);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self);
}

KsDevice *
ks_micro_simd_get_device (KsMicroSimd *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->device;
}

KsMicroSimd *
ks_micro_simd_new (KsDevice *device,
                   GError  **error)
{
  g_autoptr(KsMicroSimd) self = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  self = g_new0 (KsMicroSimd, 1);
  self->device = g_object_ref (device);
  self->w = -1;
  if (!(self->rt = ks_runtime_new (device, error)))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
ensure_kernel (KsMicroSimd *self,
               int          w,
               GError     **error)
{
  g_autofree char *options = NULL;

  if (self->kernels[w])
    return TRUE;
  options = g_strdup_printf ("-DKS_MICRO_WIDTH=%u", widths[w]);
  if (!(self->programs[w] = ks_runtime_build_program (self->rt, "micro-simd.cl", options, error)))
    {
      g_prefix_error (error, _("short%u does not build on %s: "), widths[w], ks_device_get_name (self->device));
      return FALSE;
    }
  self->kernels[w] = ks_program_create_kernel (self->programs[w], "micro_simd", error);
  return self->kernels[w] != NULL;
}

/* Device buffers as large as the point needs, kept when they already are. */
static gboolean
ensure_buffers (KsMicroSimd *self,
                gsize        bytes,
                GError     **error)
{
  if (self->buffer_bytes >= bytes)
    return TRUE;
  g_clear_pointer (&self->input, ks_buffer_unref);
  g_clear_pointer (&self->output, ks_buffer_unref);
  g_clear_pointer (&self->host_output, g_free);
  self->buffer_bytes = 0;
  if (!(self->host_output = g_try_malloc (bytes)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold %.1f MiB of results"), bytes / 1048576.0);
      return FALSE;
    }
  if (!(self->input = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_READ_ONLY, error)) ||
      !(self->output = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_WRITE_ONLY, error)))
    return FALSE;
  self->buffer_bytes = bytes;
  return TRUE;
}

gboolean
ks_micro_simd_prepare (KsMicroSimd *self,
                       guint        width,
                       guint64      items,
                       guint        iterations,
                       GError     **error)
{
  int w = ks_micro_simd_width_index (width);
  guint64 elements = items * width;
  g_autofree gint16 *input = NULL;
  gsize bytes;

  g_return_val_if_fail (self != NULL, FALSE);

  self->w = -1;
  if (w < 0 || items == 0 || items > G_MAXUINT32 || elements > G_MAXSIZE / sizeof (gint16))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%llu work-items of short%u: the width must be 1, 2, 4, 8 or 16 and the items 1 .. %u"),
                   (unsigned long long) items, width, G_MAXUINT32);
      return FALSE;
    }
  bytes = (gsize) elements * sizeof (gint16);
  if (!ensure_kernel (self, w, error) || !ensure_buffers (self, bytes, error))
    return FALSE;
  if (!(input = g_try_malloc (bytes)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold %.1f MiB of input"), bytes / 1048576.0);
      return FALSE;
    }
  for (guint64 i = 0; i < elements; i++)
    input[i] = input_at (i);
  if (!ks_runtime_write (self->rt, self->input, 0, bytes, input, error))
    return FALSE;

  /* The checked elements: spread evenly, the first and the last among them. */
  self->n_checked = (guint) MIN (elements, KS_MICRO_SIMD_CHECKED);
  for (guint k = 0; k < self->n_checked; k++)
    {
      guint64 i = self->n_checked == 1 ? 0 : k * (elements - 1) / (self->n_checked - 1);

      self->checked[k] = i;
      self->expected[k] = ks_micro_simd_host (input_at (i), iterations);
    }
  self->w = w;
  self->items = items;
  self->iterations = iterations;
  return TRUE;
}

gboolean
ks_micro_simd_run (KsMicroSimd       *self,
                   KsMicroSimdResult *out,
                   GError           **error)
{
  KsKernel *kernel;
  guint items;
  gsize global;
  gsize bytes;
  double t0;

  g_return_val_if_fail (self != NULL && self->w >= 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  kernel = self->kernels[self->w];
  items = (guint) self->items;
  global = (gsize) self->items;
  bytes = (gsize) self->items * widths[self->w] * sizeof (gint16);
  ks_kernel_reset_timing (kernel);
  if (!ks_kernel_set_arg_buffer (kernel, 0, self->input, error) ||
      !ks_kernel_set_arg_buffer (kernel, 1, self->output, error) ||
      !ks_kernel_set_arg (kernel, 2, sizeof items, &items, error) ||
      !ks_kernel_set_arg (kernel, 3, sizeof self->iterations, &self->iterations, error))
    return FALSE;
  t0 = ks_micro_now_ms ();
  if (!ks_runtime_launch (self->rt, kernel, 1, &global, NULL, error) ||
      !ks_runtime_finish (self->rt, error))
    {
      ks_runtime_discard_timings (self->rt);
      return FALSE;
    }
  out->wall_ms = ks_micro_now_ms () - t0;
  if (!ks_runtime_collect_timings (self->rt, error))
    return FALSE;
  out->kernel_ms = ks_kernel_get_time_ns (kernel) / 1e6;
  if (!ks_runtime_read (self->rt, self->output, 0, bytes, self->host_output, error))
    return FALSE;
  out->checked = self->n_checked;
  for (guint k = 0; k < self->n_checked; k++)
    out->wrong += self->host_output[self->checked[k]] != self->expected[k];
  return TRUE;
}
