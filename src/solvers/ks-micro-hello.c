/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro-hello.c: paper 001's "Hello world", the sum of two short arrays
 * (kernels/micro-hello.cl), timed four ways against its host loop. */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _KsMicroHello {
  KsDevice  *device;
  KsRuntime *rt;
  KsProgram *program;
  KsKernel  *kernel;
  KsBuffer  *left, *right, *output;   /* device arrays of n shorts */
  gint16    *host_left, *host_right, *host_output, *reference;
  guint64    n;
  guint      builds;                   /* the nonce of the next uncached build */
};

/* Not inlined into the timing loop, so that each repetition really runs
 * (the compiler cannot prove the stores of one call dead by the next). */
G_GNUC_NO_INLINE void
ks_micro_hello_host (const gint16 *left,
                     const gint16 *right,
                     gint16       *output,
                     gsize         n)
{
  for (gsize i = 0; i < n; i++)
    output[i] = (gint16) (left[i] + right[i]);
}

static void
free_arrays (KsMicroHello *self)
{
  g_clear_pointer (&self->left, ks_buffer_unref);
  g_clear_pointer (&self->right, ks_buffer_unref);
  g_clear_pointer (&self->output, ks_buffer_unref);
  g_clear_pointer (&self->host_left, g_free);
  g_clear_pointer (&self->host_right, g_free);
  g_clear_pointer (&self->host_output, g_free);
  g_clear_pointer (&self->reference, g_free);
  self->n = 0;
}

void
ks_micro_hello_free (KsMicroHello *self)
{
  if (self == NULL)
    return;
  free_arrays (self);
  g_clear_pointer (&self->kernel, ks_kernel_unref);
  g_clear_pointer (&self->program, ks_program_unref);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_clear_object (&self->device);
  g_free (self);
}

KsDevice *
ks_micro_hello_get_device (KsMicroHello *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->device;
}

static gboolean
build (KsMicroHello *self,
       const char   *options,
       KsProgram   **program,
       KsKernel    **kernel,
       GError      **error)
{
  if (!(*program = ks_runtime_build_program (self->rt, "micro-hello.cl", options, error)))
    return FALSE;
  return (*kernel = ks_program_create_kernel (*program, "micro_hello", error)) != NULL;
}

KsMicroHello *
ks_micro_hello_new (KsDevice *device,
                    GError  **error)
{
  g_autoptr(KsMicroHello) self = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);

  self = g_new0 (KsMicroHello, 1);
  self->device = g_object_ref (device);
  self->builds = g_random_int ();
  if (!(self->rt = ks_runtime_new (device, error)) ||
      !build (self, NULL, &self->program, &self->kernel, error))
    return NULL;
  return g_steal_pointer (&self);
}

gboolean
ks_micro_hello_set_length (KsMicroHello *self,
                           guint64       n,
                           GError      **error)
{
  const guint64 limit = G_MAXUINT32;
  gsize bytes;

  g_return_val_if_fail (self != NULL, FALSE);

  /* The kernel indexes with a uint. */
  if (n == 0 || n > limit)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("A length of %llu elements is outside 1 .. %llu"),
                   (unsigned long long) n, (unsigned long long) limit);
      return FALSE;
    }
  if (n == self->n)
    return TRUE;
  free_arrays (self);
  bytes = (gsize) n * sizeof (gint16);
  /* Four host arrays: said plainly rather than an abort in g_malloc. */
  if (!(self->host_left = g_try_malloc (bytes)) || !(self->host_right = g_try_malloc (bytes)) ||
      !(self->host_output = g_try_malloc (bytes)) || !(self->reference = g_try_malloc (bytes)))
    {
      free_arrays (self);
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("The host cannot hold four arrays of %llu shorts (%.1f MiB)"),
                   (unsigned long long) n, 4.0 * bytes / 1048576.0);
      return FALSE;
    }
  if (!(self->left = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_READ_ONLY, error)) ||
      !(self->right = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_READ_ONLY, error)) ||
      !(self->output = ks_runtime_alloc_full (self->rt, bytes, KS_BUFFER_WRITE_ONLY, error)))
    {
      free_arrays (self);
      return FALSE;
    }
  /* Sums stay within a short: no overflow for any backend to treat its own way. */
  for (guint64 i = 0; i < n; i++)
    {
      self->host_left[i] = (gint16) ((i * 7 + 3) % 20001) - 10000;
      self->host_right[i] = (gint16) ((i * 13 + 5) % 20011) - 10000;
    }
  ks_micro_hello_host (self->host_left, self->host_right, self->reference, n);
  if (!ks_runtime_write (self->rt, self->left, 0, bytes, self->host_left, error) ||
      !ks_runtime_write (self->rt, self->right, 0, bytes, self->host_right, error))
    {
      free_arrays (self);
      return FALSE;
    }
  self->n = n;
  return TRUE;
}

static gboolean
set_args (KsMicroHello *self,
          KsKernel     *kernel,
          GError      **error)
{
  guint n = (guint) self->n;

  return ks_kernel_set_arg_buffer (kernel, 0, self->left, error) &&
         ks_kernel_set_arg_buffer (kernel, 1, self->right, error) &&
         ks_kernel_set_arg_buffer (kernel, 2, self->output, error) &&
         ks_kernel_set_arg (kernel, 3, sizeof n, &n, error);
}

static guint64
count_wrong (const KsMicroHello *self,
             const gint16       *output)
{
  guint64 wrong = 0;

  for (guint64 i = 0; i < self->n; i++)
    wrong += output[i] != self->reference[i];
  return wrong;
}

/* The host loop, repeated until the stretch is long enough for the clock
 * (0.2 ms: thousands of ticks), its time divided by the repeats. */
static void
run_host (KsMicroHello       *self,
          KsMicroHelloResult *out)
{
  double t0, elapsed;
  guint repeats = 1;

  for (;;)
    {
      t0 = ks_micro_now_ms ();
      for (guint r = 0; r < repeats; r++)
        ks_micro_hello_host (self->host_left, self->host_right, self->host_output, self->n);
      elapsed = ks_micro_now_ms () - t0;
      if (elapsed >= 0.2 || repeats >= (1u << 20))
        break;
      repeats *= 2;
    }
  out->ms = elapsed / repeats;
  out->host_repeats = repeats;
  out->wrong = count_wrong (self, self->host_output);
}

static gboolean
run_kernel (KsMicroHello       *self,
            KsMicroHelloResult *out,
            GError            **error)
{
  gsize global = (gsize) self->n;

  ks_kernel_reset_timing (self->kernel);
  if (!set_args (self, self->kernel, error) ||
      !ks_runtime_launch (self->rt, self->kernel, 1, &global, NULL, error) ||
      !ks_runtime_collect_timings (self->rt, error))
    return FALSE;
  out->kernel_ms = out->ms = ks_kernel_get_time_ns (self->kernel) / 1e6;
  /* The check reads back outside the timed launch. */
  if (!ks_runtime_read (self->rt, self->output, 0, (gsize) self->n * sizeof (gint16), self->host_output, error))
    return FALSE;
  out->wrong = count_wrong (self, self->host_output);
  return TRUE;
}

/* As the paper's ArraySumm: two non-blocking uploads, the launch, a
 * blocking download, on one in-order queue. */
static gboolean
run_transfers (KsMicroHello       *self,
               KsMicroHelloResult *out,
               GError            **error)
{
  KsQueue *q = ks_runtime_get_queue (self->rt);
  const gsize bytes = (gsize) self->n * sizeof (gint16);
  KsLaunchConfig config = { .dims = 1, .global = { (gsize) self->n } };
  guint64 ns = 0;
  double t0;

  memset (self->host_output, 0, bytes);
  ks_kernel_reset_timing (self->kernel);
  ks_runtime_reset_timers (self->rt);
  if (!set_args (self, self->kernel, error))
    return FALSE;
  t0 = ks_micro_now_ms ();
  if (!ks_queue_write (q, self->left, 0, bytes, self->host_left, KS_TRANSFER_NON_BLOCKING, "upload", error) ||
      !ks_queue_write (q, self->right, 0, bytes, self->host_right, KS_TRANSFER_NON_BLOCKING, "upload", error) ||
      !ks_queue_launch (q, self->kernel, &config, error) ||
      !ks_queue_read (q, self->output, 0, bytes, self->host_output, KS_TRANSFER_BLOCKING, "download", error))
    {
      ks_runtime_finish (self->rt, NULL);
      ks_runtime_discard_timings (self->rt);
      return FALSE;
    }
  out->ms = ks_micro_now_ms () - t0;
  if (!ks_runtime_collect_timings (self->rt, error))
    return FALSE;
  out->kernel_ms = ks_kernel_get_time_ns (self->kernel) / 1e6;
  if (ks_runtime_get_timer (self->rt, "upload", &ns, NULL))
    out->upload_ms = ns / 1e6;
  if (ks_runtime_get_timer (self->rt, "download", &ns, NULL))
    out->download_ms = ns / 1e6;
  out->wrong = count_wrong (self, self->host_output);
  return TRUE;
}

/* A build no cache can answer (a fresh -DKS_MICRO_NONCE), then its first
 * launch over the current arrays. */
static gboolean
run_build (KsMicroHello       *self,
           KsMicroHelloResult *out,
           GError            **error)
{
  g_autoptr(KsProgram) program = NULL;
  g_autoptr(KsKernel) kernel = NULL;
  g_autofree char *options = g_strdup_printf ("-DKS_MICRO_NONCE=%u", self->builds++);
  gsize global = (gsize) self->n;
  double t0;

  t0 = ks_micro_now_ms ();
  if (!build (self, options, &program, &kernel, error))
    return FALSE;
  out->ms = ks_micro_now_ms () - t0;
  t0 = ks_micro_now_ms ();
  if (!set_args (self, kernel, error) ||
      !ks_runtime_launch (self->rt, kernel, 1, &global, NULL, error) ||
      !ks_runtime_finish (self->rt, error))
    return FALSE;
  out->first_launch_ms = ks_micro_now_ms () - t0;
  ks_runtime_discard_timings (self->rt);
  return TRUE;
}

gboolean
ks_micro_hello_run (KsMicroHello       *self,
                    KsMicroHelloTiming  timing,
                    KsMicroHelloResult *out,
                    GError            **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (self->n == 0 && !ks_micro_hello_set_length (self, 1, error))
    return FALSE;
  switch (timing)
    {
    case KS_MICRO_HELLO_HOST:
      run_host (self, out);
      return TRUE;
    case KS_MICRO_HELLO_KERNEL:
      return run_kernel (self, out, error);
    case KS_MICRO_HELLO_TRANSFERS:
      return run_transfers (self, out, error);
    case KS_MICRO_HELLO_BUILD:
      return run_build (self, out, error);
    }
  g_return_val_if_reached (FALSE);
}
