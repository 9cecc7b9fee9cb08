/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro.c: what paper 001's descriptions share: refusing one
 * point, and the measuring functions of the loop experiments (micro-simd,
 * micro-builtins) over KsMicroLoop, whose first columns are the same. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-micro.h"
#include "ks-compute-error.h"
#include "ks-micro.h"
#include "ks-run.h"

gboolean
ks_exp_micro_refuse_point (GError **error)
{
  if (error && *error && (g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY) ||
                          g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED) ||
                          g_error_matches (*error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED)))
    {
      (*error)->domain = KS_EXPERIMENT_ERROR;
      (*error)->code = KS_EXPERIMENT_ERROR_REFUSED;
    }
  return FALSE;
}

gpointer
ks_exp_micro_loop_set_up (const KsExperimentDesc *desc,
                          KsDevice               *device,
                          const KsConfig         *base,
                          GCancellable           *cancellable,
                          GError                **error)
{
  return ks_micro_loop_new (device, error);
}

gboolean
ks_exp_micro_loop_measure (gpointer        state,
                           const KsConfig *point,
                           double         *values,
                           GCancellable   *cancellable,
                           GError        **error)
{
  KsMicroLoopResult r;

  if (!ks_micro_loop_run (state, &r, error))
    return FALSE;
  values[KS_EXP_MICRO_COL_TIME] = r.kernel_ms;
  values[KS_EXP_MICRO_COL_WALL] = r.wall_ms;
  values[KS_EXP_MICRO_COL_CHECKED] = r.checked;
  values[KS_EXP_MICRO_COL_WRONG] = r.wrong;
  return TRUE;
}

/* The clock's tick: a kernel shorter than it measures nothing (NVIDIA's
 * OpenCL: 1 us). */
void
ks_exp_micro_describe_timer (KsDevice    *device,
                             KsRunDevice *out)
{
  ks_run_device_set_info (out, "timer_resolution_ns", ks_device_get_info (device)->timer_resolution_ns);
}

void
ks_exp_micro_loop_describe_device (gpointer        state,
                                   const KsConfig *base,
                                   KsRunDevice    *out)
{
  ks_exp_micro_describe_timer (ks_micro_loop_get_device (state), out);
}

void
ks_exp_micro_loop_tear_down (gpointer state)
{
  ks_micro_loop_free (state);
}
