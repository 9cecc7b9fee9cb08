/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-index-map-device.c: the occupancy suggestion and the memory check of
 * paper 003's calculator, through the compute seam. */
#define G_LOG_DOMAIN "ks-index-map"

#include "ks-index-map-device.h"
#include "ks-compute-error.h"
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const char *
build_options (KsPrecision precision)
{
  return precision == KS_PRECISION_DOUBLE ? "-DKS_REAL=double -DKS_FP64" : "-DKS_REAL=float";
}

gboolean
ks_index_suggest_block (KsDevice          *device,
                        KsPrecision        precision,
                        KsIndexSuggestion *out,
                        GError           **error)
{
  g_autoptr(KsRuntime) rt = NULL;
  g_autoptr(KsProgram) program = NULL;
  g_autoptr(KsKernel) kernel = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s runs loops, not blocks of threads: pick an OpenCL or CUDA device for a suggested block size"),
                   ks_device_get_name (device));
      return FALSE;
    }
  if (precision == KS_PRECISION_DOUBLE && !ks_device_get_info (device)->has_fp64)
    precision = KS_PRECISION_FLOAT;   /* the kernel's registers hardly differ; the suggestion is what counts */
  if (!(rt = ks_runtime_new (device, error)) ||
      !(program = ks_runtime_build_program (rt, "index.cl", build_options (precision), error)) ||
      !(kernel = ks_program_create_kernel (program, "index_fill_mapped", error)))
    return FALSE;

  ks_index_suggest_for_kernel (device, kernel, out);
  return TRUE;
}

void
ks_index_suggest_for_kernel (KsDevice          *device,
                             KsKernel          *kernel,
                             KsIndexSuggestion *out)
{
  const KsKernelInfo *info;

  g_return_if_fail (KS_IS_DEVICE (device) && kernel != NULL && out != NULL);

  memset (out, 0, sizeof *out);
  info = ks_kernel_get_info (kernel);
  out->kernel_max = info->max_work_group_size;
  if (ks_device_get_backend (device) == KS_BACKEND_CUDA && info->suggested_local > 0)
    {
      out->block = info->suggested_local;
      out->source = g_strdup_printf (_("the CUDA occupancy API: the block of whole warps with the most "
                                       "threads resident per multiprocessor, as cudaOccupancyMaxPotentialBlockSize "
                                       "finds it (kernel limit %llu, %u registers per thread)"),
                                     (unsigned long long) out->kernel_max, info->registers);
    }
  else
    {
      guint64 multiple = MAX (info->preferred_multiple, 1);

      out->block = MAX (info->max_work_group_size / multiple * multiple, 1);
      out->source = g_strdup_printf (_("OpenCL has no occupancy API: the kernel's largest work-group "
                                       "(CL_KERNEL_WORK_GROUP_SIZE %llu) rounded down to its "
                                       "preferred multiple (%llu)"),
                                     (unsigned long long) out->kernel_max, (unsigned long long) multiple);
    }
}

void
ks_index_suggestion_clear (KsIndexSuggestion *suggestion)
{
  g_return_if_fail (suggestion != NULL);

  g_clear_pointer (&suggestion->source, g_free);
}

gboolean
ks_index_domain_check_device (const KsIndexDomain *domain,
                              KsDevice            *device,
                              KsPrecision          precision,
                              GError             **error)
{
  const KsDeviceInfo *info;

  g_return_val_if_fail (domain != NULL, FALSE);
  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);

  info = ks_device_get_info (device);
  return ks_index_domain_check_memory (domain, ks_precision_size (precision), info->max_alloc,
                                       info->global_mem, info->name, error);
}
