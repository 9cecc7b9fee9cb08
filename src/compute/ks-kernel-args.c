/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-kernel-args.c: ks_kernel_set_args, every argument of a launch in one
 * call (see ks-runtime.h), so solvers stop writing their own. */
#define G_LOG_DOMAIN "ks-runtime"

#include "ks-runtime.h"

#include "ks-compute-error.h"

#include <stdarg.h>

gboolean
ks_kernel_set_args (KsKernel *kernel,
                    GError  **error,
                    ...)
{
  va_list ap;
  gboolean ok = TRUE;
  KsArgKind kind;

  g_return_val_if_fail (kernel != NULL, FALSE);

  va_start (ap, error);
  for (guint i = 0; ok && (kind = va_arg (ap, int)) != KS_ARG_END; i++)
    switch (kind)
      {
      case KS_ARG_BUFFER:
        ok = ks_kernel_set_arg_buffer (kernel, i, va_arg (ap, KsBuffer *), error);
        break;
      case KS_ARG_INT:
        {
          gint32 v = va_arg (ap, int);
          ok = ks_kernel_set_arg (kernel, i, sizeof v, &v, error);
        }
        break;
      case KS_ARG_UINT:
        {
          guint32 v = va_arg (ap, unsigned int);
          ok = ks_kernel_set_arg (kernel, i, sizeof v, &v, error);
        }
        break;
      case KS_ARG_LONG:
        {
          gint64 v = va_arg (ap, gint64);
          ok = ks_kernel_set_arg (kernel, i, sizeof v, &v, error);
        }
        break;
      case KS_ARG_FLOAT:
        {
          float v = (float) va_arg (ap, double);
          ok = ks_kernel_set_arg (kernel, i, sizeof v, &v, error);
        }
        break;
      case KS_ARG_DOUBLE:
        {
          double v = va_arg (ap, double);
          ok = ks_kernel_set_arg (kernel, i, sizeof v, &v, error);
        }
        break;
      case KS_ARG_LOCAL:
        ok = ks_kernel_set_arg_local (kernel, i, va_arg (ap, gsize), error);
        break;
      default:
        /* A programming error: a value where a tag belongs, or no KS_ARG_END. */
        g_critical ("ks_kernel_set_args: argument %u has no kind (%d): the list lacks KS_ARG_END?", i, kind);
        g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, "argument %u has no kind", i);
        ok = FALSE;
        break;
      }
  va_end (ap);
  return ok;
}
