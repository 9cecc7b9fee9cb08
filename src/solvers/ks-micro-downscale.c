/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro-downscale.c: paper 001's memory access pattern (section 4.5,
 * Table 7): an image downscaled 2x by a 9-tap filter, rows then columns
 * (kernels/micro-downscale.cl), by two mappings of work-items with three
 * ways with the rows' ends, each result compared byte for byte with the
 * host's. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"
#include "ks-solver-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define PAD 4   /* the taps reach 4 bytes past a row's end */

struct _KsMicroScale {
  KsDevice      *device;
  KsRuntime     *rt;
  KsProgram     *programs[KS_MICRO_N_EDGES];
  KsKernel      *kernels[KS_MICRO_N_EDGES][2];   /* [edges][mapping] */
  KsBuffer      *image, *half, *result;          /* the input, after the rows, after the columns */
  guint8        *plain;                          /* the input without padding, for a person to see */
  guint8        *expected, *got;
  KsMicroMapping mapping;
  KsMicroEdges   edges;
  guint          width, height;
  gboolean       prepared;
};

/* Rows of len bytes, every second position filtered (ends clamped), the
 * result transposed: out[j * rows + r]. */
static void
downscale_rows_host (const guint8 *in,
                     guint         rows,
                     guint         len,
                     guint8       *out)
{
  static const int taps[9] = { 1, 8, 28, 56, 70, 56, 28, 8, 1 };

  for (guint r = 0; r < rows; r++)
    for (guint j = 0; j < len / 2; j++)
      {
        int acc = 128;

        for (int k = 0; k < 9; k++)
          acc += taps[k] * in[(gsize) r * len + CLAMP ((int) (2 * j) + k - 4, 0, (int) len - 1)];
        out[(gsize) j * rows + r] = (guint8) (acc >> 8);
      }
}

void
ks_micro_scale_host (const guint8 *image,
                     guint         width,
                     guint         height,
                     guint8       *result)
{
  g_autofree guint8 *half = g_malloc ((gsize) (width / 2) * height);

  downscale_rows_host (image, height, width, half);
  downscale_rows_host (half, width / 2, height, result);
}

void
ks_micro_scale_free (KsMicroScale *self)
{
  if (self == NULL)
    return;
  for (guint e = 0; e < KS_MICRO_N_EDGES; e++)
    {
      g_clear_pointer (&self->kernels[e][0], ks_kernel_unref);
      g_clear_pointer (&self->kernels[e][1], ks_kernel_unref);
      g_clear_pointer (&self->programs[e], ks_program_unref);
    }
  g_clear_pointer (&self->image, ks_buffer_unref);
  g_clear_pointer (&self->half, ks_buffer_unref);
  g_clear_pointer (&self->result, ks_buffer_unref);
  g_clear_pointer (&self->plain, g_free);
  g_clear_pointer (&self->expected, g_free);
  g_clear_pointer (&self->got, g_free);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self);
}

KsDevice *
ks_micro_scale_get_device (KsMicroScale *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->device;
}

KsMicroScale *
ks_micro_scale_new (KsDevice *device,
                    GError  **error)
{
  g_autoptr(KsMicroScale) self = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  self = g_new0 (KsMicroScale, 1);
  self->device = g_object_ref (device);
  if (!(self->rt = ks_runtime_new (device, error)))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
ensure_kernels (KsMicroScale *self,
                KsMicroEdges  edges,
                GError      **error)
{
  g_autofree char *options = NULL;

  if (self->programs[edges])
    return TRUE;
  options = g_strdup_printf ("-DKS_MICRO_EDGE=%d", edges);
  if (!(self->programs[edges] = ks_runtime_build_program (self->rt, "micro-downscale.cl", options, error)))
    return FALSE;
  return (self->kernels[edges][KS_MICRO_DIRECT] = ks_program_create_kernel (self->programs[edges],
                                                                            "micro_downscale_direct", error)) &&
         (self->kernels[edges][KS_MICRO_GROUPED] = ks_program_create_kernel (self->programs[edges],
                                                                             "micro_downscale_grouped", error));
}

/* A test card: gradients, a checkerboard and rings, so that every byte of
 * the filter's reach matters. */
static guint8 *
make_image (guint width,
            guint height,
            guint pad)
{
  const guint stride = width + 2 * pad;
  guint8 *image = g_try_malloc ((gsize) stride * height);

  if (image == NULL)
    return NULL;
  for (guint y = 0; y < height; y++)
    {
      guint8 *row = image + (gsize) y * stride + pad;

      for (guint x = 0; x < width; x++)
        {
          int dx = (int) x - (int) width / 2, dy = (int) y - (int) height / 2;

          row[x] = (guint8) (x * 255 / width / 2 + ((x / 16 + y / 16) % 2) * 64 + ((dx * dx + dy * dy) / 97) % 61);
        }
      for (guint p = 1; p <= pad; p++)
        {
          row[-(int) p] = row[0];
          row[width - 1 + p] = row[width - 1];
        }
    }
  return image;
}

gboolean
ks_micro_scale_prepare (KsMicroScale  *self,
                        KsMicroMapping mapping,
                        KsMicroEdges   edges,
                        guint          width,
                        guint          height,
                        GError       **error)
{
  const guint pad = edges == KS_MICRO_EDGE_PADDING ? PAD : 0;
  g_autofree guint8 *image = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (edges < KS_MICRO_N_EDGES, FALSE);

  self->prepared = FALSE;
  if (width < 10 || height < 10 || width % 2 || height % 2 || width > 1u << 20 || height > 1u << 20)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("A %u x %u image cannot be halved by the 9-tap filter: both sides must be even and "
                     "between 10 and %u"), width, height, 1u << 20);
      return FALSE;
    }
  if (!ensure_kernels (self, edges, error))
    return FALSE;
  g_clear_pointer (&self->image, ks_buffer_unref);
  g_clear_pointer (&self->half, ks_buffer_unref);
  g_clear_pointer (&self->result, ks_buffer_unref);
  g_clear_pointer (&self->plain, g_free);
  g_clear_pointer (&self->expected, g_free);
  g_clear_pointer (&self->got, g_free);
  if (!(image = make_image (width, height, pad)) || !(self->plain = make_image (width, height, 0)) ||
      !(self->expected = g_try_malloc ((gsize) (width / 2) * (height / 2))) ||
      !(self->got = g_try_malloc ((gsize) (width / 2) * (height / 2))))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold a %u x %u image three times"), width, height);
      return FALSE;
    }
  if (!(self->image = ks_runtime_alloc_full (self->rt, (gsize) (width + 2 * pad) * height, KS_BUFFER_READ_ONLY,
                                             error)) ||
      !(self->half = ks_runtime_alloc (self->rt, (gsize) (width / 2) * (height + 2 * pad), error)) ||
      !(self->result = ks_runtime_alloc_full (self->rt, (gsize) (width / 2) * (height / 2), KS_BUFFER_WRITE_ONLY,
                                              error)) ||
      !ks_runtime_write (self->rt, self->image, 0, (gsize) (width + 2 * pad) * height, image, error))
    return FALSE;
  ks_micro_scale_host (self->plain, width, height, self->expected);
  /* Nothing ran yet: no result to show until ks_micro_scale_run. */
  memset (self->got, 0, (gsize) (width / 2) * (height / 2));
  self->mapping = mapping;
  self->edges = edges;
  self->width = width;
  self->height = height;
  self->prepared = TRUE;
  return TRUE;
}

/* One pass: rows of len bytes, in with in_pad on each side, out transposed. */
static gboolean
pass (KsMicroScale *self,
      KsBuffer     *in,
      KsBuffer     *out,
      int           rows,
      int           len,
      int           in_pad,
      int           out_pad,
      double       *kernel_ms,
      double       *wall_ms,
      GError      **error)
{
  KsKernel *kernel = self->kernels[self->edges][self->mapping];
  const int in_stride = len + 2 * in_pad, out_stride = rows + 2 * out_pad;
  const int args[] = { rows, len, in_stride, in_pad, out_stride, out_pad };
  KsLaunchConfig config = { .dims = self->mapping == KS_MICRO_GROUPED ? 2 : 1 };
  double t0;

  if (!ks_kernel_set_arg_buffer (kernel, 0, in, error) || !ks_kernel_set_arg_buffer (kernel, 1, out, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (args); i++)
    if (!ks_kernel_set_arg (kernel, 2 + i, sizeof args[i], &args[i], error))
      return FALSE;
  if (self->mapping == KS_MICRO_GROUPED)
    config.global[0] = len / 2, config.global[1] = rows;
  else
    config.global[0] = rows;
  ks_kernel_reset_timing (kernel);
  t0 = ks_micro_now_ms ();
  if (!ks_queue_launch (ks_runtime_get_queue (self->rt), kernel, &config, error) ||
      !ks_runtime_finish (self->rt, error))
    {
      ks_runtime_discard_timings (self->rt);
      return FALSE;
    }
  *wall_ms += ks_micro_now_ms () - t0;
  if (!ks_runtime_collect_timings (self->rt, error))
    return FALSE;
  *kernel_ms += ks_kernel_get_time_ns (kernel) / 1e6;
  return TRUE;
}

gboolean
ks_micro_scale_run (KsMicroScale       *self,
                    KsMicroScaleResult *out,
                    GError            **error)
{
  const int pad = self->edges == KS_MICRO_EDGE_PADDING ? PAD : 0;
  const gsize bytes = (gsize) (self->width / 2) * (self->height / 2);

  g_return_val_if_fail (self != NULL && self->prepared, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  /* Rows: height rows of width bytes into width / 2 rows of height
   * (padded for the second pass); columns: those into height / 2 rows of
   * width / 2, the right way round. */
  if (!pass (self, self->image, self->half, (int) self->height, (int) self->width, pad, pad,
             &out->kernel_ms, &out->wall_ms, error) ||
      !pass (self, self->half, self->result, (int) self->width / 2, (int) self->height, pad, 0,
             &out->kernel_ms, &out->wall_ms, error) ||
      !ks_runtime_read (self->rt, self->result, 0, bytes, self->got, error))
    return FALSE;
  for (gsize i = 0; i < bytes; i++)
    out->wrong += self->got[i] != self->expected[i];
  return TRUE;
}

const guint8 *
ks_micro_scale_peek_input (KsMicroScale *self,
                           guint        *width,
                           guint        *height)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (!self->prepared)
    return NULL;
  if (width)
    *width = self->width;
  if (height)
    *height = self->height;
  return self->plain;
}

const guint8 *
ks_micro_scale_peek_result (KsMicroScale *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->prepared ? self->got : NULL;
}
