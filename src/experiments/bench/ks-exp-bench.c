/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-bench.c: what the bench descriptions share. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-bench.h"
#include "ks-compute-error.h"

gboolean
ks_exp_bench_refuse_point (GError **error)
{
  /* A build failure is not among them: it is a bug to see, not a device's limit. */
  if (error && *error && (g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY) ||
                          g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED)))
    {
      (*error)->domain = KS_EXPERIMENT_ERROR;
      (*error)->code = KS_EXPERIMENT_ERROR_REFUSED;
    }
  return FALSE;
}

gpointer
ks_exp_bench_device_set_up (const KsExperimentDesc *desc,
                            KsDevice               *device,
                            const KsConfig         *base,
                            GCancellable           *cancellable,
                            GError                **error)
{
  return g_object_ref (device);
}
