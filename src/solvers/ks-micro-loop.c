/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro-loop.c: paper 001's compute-bound loops on shorts, the SIMD
 * loop on short .. short16 (kernels/micro-simd.cl) and the built-ins loop
 * (kernels/micro-builtins.cl), one program per width or variant, checked
 * against the host. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const guint widths[KS_MICRO_SIMD_N_WIDTHS] = { 1, 2, 4, 8, 16 };

/* The programs: the SIMD widths, then the built-ins loop plain and with
 * the built-ins. */
enum { PROGRAM_PLAIN = KS_MICRO_SIMD_N_WIDTHS, PROGRAM_BUILTINS, N_PROGRAMS };

struct _KsMicroLoop {
  KsDevice  *device;
  KsRuntime *rt;
  KsProgram *programs[N_PROGRAMS];
  KsKernel  *kernels[N_PROGRAMS];
  KsBuffer  *input, *output;
  gsize      buffer_bytes;
  gint16    *host_output;
  /* The point: */
  int        program;                             /* the prepared one; -1: none */
  guint      width;                               /* shorts per work-item */
  guint64    items;
  guint      iterations;
  guint64    checked[KS_MICRO_LOOP_CHECKED];       /* element indices */
  gint16     expected[KS_MICRO_LOOP_CHECKED];
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

/* As the kernel's two bodies, the 16 copies of each as 16 steps. */
gint16
ks_micro_builtins_host (gint16   input,
                        gboolean builtins,
                        guint    iterations)
{
  const int first = 5, second = 2, third = 7, fourth = 4;
  gint16 result = input;

  for (guint i = 0; i < iterations; i++)
    for (guint k = 0; k < 16; k++)
      if (builtins)
        {
          int r = result * first + second;
          int d;

          result = (gint16) CLAMP (r, G_MININT16, G_MAXINT16);            /* mad_sat */
          d = result - third;
          result = (gint16) (guint16) (d < 0 ? -d : d);                   /* abs_diff: a ushort */
          result = (gint16) ((result + fourth) >> 1);                     /* hadd */
        }
      else
        {
          int d;

          result = (gint16) (result * first + second);
          d = result - third;
          result = (gint16) (guint) (d < 0 ? -d : d);                     /* abs: a uint */
          result = (gint16) ((result + fourth) >> 1);
        }
  return result;
}

/* Within +-1000: no intermediate of the loop leaves a short (micro-simd.cl). */
static gint16
input_at (guint64 i)
{
  return (gint16) ((i * 37) % 2001) - 1000;
}

void
ks_micro_loop_free (KsMicroLoop *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < N_PROGRAMS; i++)
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
ks_micro_loop_get_device (KsMicroLoop *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->device;
}

KsMicroLoop *
ks_micro_loop_new (KsDevice *device,
                   GError  **error)
{
  g_autoptr(KsMicroLoop) self = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  self = g_new0 (KsMicroLoop, 1);
  self->device = g_object_ref (device);
  self->program = -1;
  if (!(self->rt = ks_runtime_new (device, error)))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
ensure_kernel (KsMicroLoop *self,
               int          program,
               GError     **error)
{
  g_autofree char *options = NULL;
  const char *source = program < PROGRAM_PLAIN ? "micro-simd.cl" : "micro-builtins.cl";

  if (self->kernels[program])
    return TRUE;
  options = program < PROGRAM_PLAIN ? g_strdup_printf ("-DKS_MICRO_WIDTH=%u", widths[program])
                                    : g_strdup_printf ("-DKS_MICRO_BUILTINS=%d", program == PROGRAM_BUILTINS);
  if (!(self->programs[program] = ks_runtime_build_program (self->rt, source, options, error)))
    {
      if (program < PROGRAM_PLAIN)
        g_prefix_error (error, _("short%u does not build on %s: "), widths[program], ks_device_get_name (self->device));
      return FALSE;
    }
  self->kernels[program] = ks_program_create_kernel (self->programs[program],
                                                     program < PROGRAM_PLAIN ? "micro_simd" : "micro_builtins", error);
  return self->kernels[program] != NULL;
}

/* Device buffers as large as the point needs, kept when they already are. */
static gboolean
ensure_buffers (KsMicroLoop *self,
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

/* The point: the program built, the input uploaded, the host's results
 * for the checked elements (host (input, iterations, data)). */
static gboolean
prepare (KsMicroLoop *self,
         int          program,
         guint        width,
         guint64      items,
         guint        iterations,
         gint16     (*host) (gint16 input, guint iterations, gpointer data),
         gpointer     data,
         GError     **error)
{
  guint64 elements = items * width;
  g_autofree gint16 *input = NULL;
  gsize bytes;

  self->program = -1;
  if (items == 0 || items > G_MAXUINT32 || elements > G_MAXSIZE / sizeof (gint16))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%llu work-items of short%u: the items must lie in 1 .. %u"),
                   (unsigned long long) items, width, G_MAXUINT32);
      return FALSE;
    }
  bytes = (gsize) elements * sizeof (gint16);
  if (!ensure_kernel (self, program, error) || !ensure_buffers (self, bytes, error))
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
  self->n_checked = (guint) MIN (elements, KS_MICRO_LOOP_CHECKED);
  for (guint k = 0; k < self->n_checked; k++)
    {
      guint64 i = self->n_checked == 1 ? 0 : k * (elements - 1) / (self->n_checked - 1);

      self->checked[k] = i;
      self->expected[k] = host (input_at (i), iterations, data);
    }
  self->program = program;
  self->width = width;
  self->items = items;
  self->iterations = iterations;
  return TRUE;
}

static gint16
simd_host (gint16   input,
           guint    iterations,
           gpointer data)
{
  return ks_micro_simd_host (input, iterations);
}

static gint16
builtins_host (gint16   input,
               guint    iterations,
               gpointer data)
{
  return ks_micro_builtins_host (input, GPOINTER_TO_INT (data), iterations);
}

gboolean
ks_micro_loop_prepare_simd (KsMicroLoop *self,
                            guint        width,
                            guint64      items,
                            guint        iterations,
                            GError     **error)
{
  int w = ks_micro_simd_width_index (width);

  g_return_val_if_fail (self != NULL, FALSE);

  if (w < 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("There is no short%u: the width must be 1, 2, 4, 8 or 16"), width);
      return FALSE;
    }
  return prepare (self, w, width, items, iterations, simd_host, NULL, error);
}

gboolean
ks_micro_loop_prepare_builtins (KsMicroLoop *self,
                                gboolean     builtins,
                                guint64      items,
                                guint        iterations,
                                GError     **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return prepare (self, builtins ? PROGRAM_BUILTINS : PROGRAM_PLAIN, 1, items, iterations, builtins_host,
                  GINT_TO_POINTER (builtins != FALSE), error);
}

gboolean
ks_micro_loop_run (KsMicroLoop       *self,
                   KsMicroLoopResult *out,
                   GError           **error)
{
  KsKernel *kernel;
  guint items;
  gsize global;
  gsize bytes;

  g_return_val_if_fail (self != NULL && self->program >= 0, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  kernel = self->kernels[self->program];
  items = (guint) self->items;
  global = (gsize) self->items;
  bytes = (gsize) self->items * self->width * sizeof (gint16);
  if (!ks_kernel_set_arg_buffer (kernel, 0, self->input, error) ||
      !ks_kernel_set_arg_buffer (kernel, 1, self->output, error) ||
      !ks_kernel_set_arg (kernel, 2, sizeof items, &items, error) ||
      !ks_kernel_set_arg (kernel, 3, sizeof self->iterations, &self->iterations, error) ||
      !ks_micro_launch_timed (self->rt, kernel, global, &out->kernel_ms, &out->wall_ms, error))
    return FALSE;
  if (!ks_runtime_read (self->rt, self->output, 0, bytes, self->host_output, error))
    return FALSE;
  out->checked = self->n_checked;
  for (guint k = 0; k < self->n_checked; k++)
    out->wrong += self->host_output[self->checked[k]] != self->expected[k];
  return TRUE;
}
