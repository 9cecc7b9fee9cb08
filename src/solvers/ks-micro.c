/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro.c: the clock and the timed launch paper 001's micro-benchmarks
 * share (ks-micro.h). */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-micro.h"

#include <time.h>

double
ks_micro_now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

gboolean
ks_micro_launch_timed (KsRuntime *rt,
                       KsKernel  *kernel,
                       gsize      global,
                       double    *kernel_ms,
                       double    *wall_ms,
                       GError   **error)
{
  double t0;

  g_return_val_if_fail (rt != NULL && kernel != NULL, FALSE);

  ks_kernel_reset_timing (kernel);
  t0 = ks_micro_now_ms ();
  if (!ks_runtime_launch (rt, kernel, 1, &global, NULL, error) || !ks_runtime_finish (rt, error))
    {
      ks_runtime_discard_timings (rt);
      return FALSE;
    }
  *wall_ms = ks_micro_now_ms () - t0;
  if (!ks_runtime_collect_timings (rt, error))
    return FALSE;
  *kernel_ms = ks_kernel_get_time_ns (kernel) / 1e6;
  return TRUE;
}
