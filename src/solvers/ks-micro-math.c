/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro-math.c: OpenCL's precise and native_ math functions
 * (kernels/micro-math.cl): their time, and their error against the host's
 * double precision on inputs spread over each function's domain. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static const char *const names[KS_MICRO_N_FUNCTIONS] = { "sin", "cos", "exp", "log", "sqrt", "rsqrt" };

struct _KsMicroMath {
  KsDevice  *device;
  KsRuntime *rt;
  KsProgram *programs[KS_MICRO_N_FUNCTIONS][2];
  KsKernel  *values[KS_MICRO_N_FUNCTIONS][2];
  KsKernel  *timing[KS_MICRO_N_FUNCTIONS][2];
  KsBuffer  *x, *y;
  gsize      bytes;
  KsKernel  *kernel;       /* the prepared point's timing kernel */
  guint      n, iterations;
  double     max_ulp, max_abs, max_rel;
};

const char *
ks_micro_function_name (KsMicroFunction fn)
{
  g_return_val_if_fail (fn < KS_MICRO_N_FUNCTIONS, NULL);
  return names[fn];
}

void
ks_micro_function_domain (KsMicroFunction fn,
                          double         *lo,
                          double         *hi)
{
  switch (fn)
    {
    case KS_MICRO_SIN:
    case KS_MICRO_COS:
      *lo = -G_PI, *hi = G_PI;
      return;
    case KS_MICRO_EXP:
      *lo = -10, *hi = 10;
      return;
    default:
      *lo = 1.0 / 1024, *hi = 1024;
      return;
    }
}

double
ks_micro_function_host (KsMicroFunction fn,
                        double          x)
{
  switch (fn)
    {
    case KS_MICRO_SIN:   return sin (x);
    case KS_MICRO_COS:   return cos (x);
    case KS_MICRO_EXP:   return exp (x);
    case KS_MICRO_LOG:   return log (x);
    case KS_MICRO_SQRT:  return sqrt (x);
    case KS_MICRO_RSQRT: return 1.0 / sqrt (x);
    default:             return NAN;
    }
}

void
ks_micro_math_free (KsMicroMath *self)
{
  if (self == NULL)
    return;
  for (guint f = 0; f < KS_MICRO_N_FUNCTIONS; f++)
    for (guint v = 0; v < 2; v++)
      {
        g_clear_pointer (&self->values[f][v], ks_kernel_unref);
        g_clear_pointer (&self->timing[f][v], ks_kernel_unref);
        g_clear_pointer (&self->programs[f][v], ks_program_unref);
      }
  g_clear_pointer (&self->x, ks_buffer_unref);
  g_clear_pointer (&self->y, ks_buffer_unref);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self);
}

KsDevice *
ks_micro_math_get_device (KsMicroMath *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->device;
}

KsMicroMath *
ks_micro_math_new (KsDevice *device,
                   GError  **error)
{
  g_autoptr(KsMicroMath) self = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  self = g_new0 (KsMicroMath, 1);
  self->device = g_object_ref (device);
  if (!(self->rt = ks_runtime_new (device, error)))
    return NULL;
  return g_steal_pointer (&self);
}

static gboolean
ensure_program (KsMicroMath    *self,
                KsMicroFunction fn,
                int             native,
                GError        **error)
{
  g_autofree char *options = NULL;

  if (self->timing[fn][native])
    return TRUE;
  options = g_strdup_printf ("-DKS_MICRO_F=%s%s", native ? "native_" : "", names[fn]);
  return (self->programs[fn][native] = ks_runtime_build_program (self->rt, "micro-math.cl", options, error)) &&
         (self->values[fn][native] = ks_program_create_kernel (self->programs[fn][native], "micro_math_values",
                                                                error)) &&
         (self->timing[fn][native] = ks_program_create_kernel (self->programs[fn][native], "micro_math_time",
                                                                error));
}

/* The distance between a float and the next one away from zero. */
static double
ulp_of (float f)
{
  float a = fabsf (f);

  return (double) nextafterf (a, INFINITY) - a;
}

static gboolean
measure_errors (KsMicroMath    *self,
                KsMicroFunction fn,
                int             native,
                const float    *x,
                GError        **error)
{
  KsKernel *kernel = self->values[fn][native];
  g_autofree float *y = g_try_malloc (self->bytes);
  gsize global = self->n;

  if (y == NULL)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold %.1f MiB of results"), self->bytes / 1048576.0);
      return FALSE;
    }
  if (!ks_kernel_set_arg_buffer (kernel, 0, self->x, error) ||
      !ks_kernel_set_arg_buffer (kernel, 1, self->y, error) ||
      !ks_kernel_set_arg (kernel, 2, sizeof self->n, &self->n, error) ||
      !ks_runtime_launch (self->rt, kernel, 1, &global, NULL, error) ||
      !ks_runtime_read (self->rt, self->y, 0, self->bytes, y, error))
    return FALSE;
  ks_runtime_discard_timings (self->rt);
  self->max_ulp = self->max_abs = self->max_rel = 0;
  for (guint i = 0; i < self->n; i++)
    {
      double truth = ks_micro_function_host (fn, x[i]);
      double err = fabs ((double) y[i] - truth);

      /* A NaN or infinity where the truth is finite is an error without
       * bound: it shows as infinity. */
      if (!isfinite (y[i]))
        err = INFINITY;
      self->max_abs = MAX (self->max_abs, err);
      self->max_rel = MAX (self->max_rel, truth != 0 ? err / fabs (truth) : err);
      self->max_ulp = MAX (self->max_ulp, err / ulp_of ((float) truth));
    }
  return TRUE;
}

gboolean
ks_micro_math_prepare (KsMicroMath    *self,
                       KsMicroFunction fn,
                       gboolean        native,
                       guint64         n,
                       guint           iterations,
                       GError        **error)
{
  g_autofree float *x = NULL;
  double lo, hi;
  gsize bytes;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (fn < KS_MICRO_N_FUNCTIONS, FALSE);

  self->kernel = NULL;
  if (n == 0 || n > G_MAXUINT32)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%llu work-items: they must lie in 1 .. %u"), (unsigned long long) n, G_MAXUINT32);
      return FALSE;
    }
  bytes = (gsize) n * sizeof (float);
  if (!ensure_program (self, fn, native != FALSE, error))
    return FALSE;
  if (self->bytes != bytes)
    {
      g_clear_pointer (&self->x, ks_buffer_unref);
      g_clear_pointer (&self->y, ks_buffer_unref);
      self->bytes = 0;
      if (!(self->x = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_READ_ONLY, error)) ||
          !(self->y = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_WRITE_ONLY, error)))
        return FALSE;
      self->bytes = bytes;
    }
  if (!(x = g_try_malloc (bytes)))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold %.1f MiB of input"), bytes / 1048576.0);
      return FALSE;
    }
  ks_micro_function_domain (fn, &lo, &hi);
  for (guint64 i = 0; i < n; i++)
    x[i] = (float) (lo + (hi - lo) * (i + 0.5) / n);
  if (!ks_runtime_write (self->rt, self->x, 0, bytes, x, error))
    return FALSE;
  self->n = (guint) n;
  self->iterations = iterations;
  self->kernel = self->timing[fn][native != FALSE];
  if (!measure_errors (self, fn, native != FALSE, x, error))
    {
      self->kernel = NULL;
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_micro_math_run (KsMicroMath       *self,
                   KsMicroMathResult *out,
                   GError           **error)
{
  g_return_val_if_fail (self != NULL && self->kernel != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!ks_kernel_set_arg_buffer (self->kernel, 0, self->x, error) ||
      !ks_kernel_set_arg_buffer (self->kernel, 1, self->y, error) ||
      !ks_kernel_set_arg (self->kernel, 2, sizeof self->n, &self->n, error) ||
      !ks_kernel_set_arg (self->kernel, 3, sizeof self->iterations, &self->iterations, error) ||
      !ks_micro_launch_timed (self->rt, self->kernel, self->n, &out->kernel_ms, &out->wall_ms, error))
    return FALSE;
  out->max_ulp = self->max_ulp;
  out->max_abs = self->max_abs;
  out->max_rel = self->max_rel;
  return TRUE;
}
