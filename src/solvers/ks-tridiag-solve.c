/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One solve, any method: what solve tridiag and the pages call, choosing
 * the method where none is named (ks-tridiag.h's last section). */
#define G_LOG_DOMAIN "ks-tridiag"

#include "ks-tridiag.h"
#include "ks-tridiag-split.h"

/* A batch is small, for thomas-split, below this many systems per compute
 * unit.  Measured on the H200 (132 units; data/reference/bench/
 * h200-split-2026-11-28c.txt, n = 4095 in float, pieces of 16 rows):
 * thomas-split 0.222 / 0.838 / 1.248 / 1.651 ms at 5,000 / 20,000 /
 * 30,000 / 40,000 systems against thomas-coalesced's 0.860 / 1.065 /
 * 1.332 / 1.500 (one item per system leaves the machine waiting on each
 * system's dependent loads until the batch fills it; split's time grows
 * with the batch): they cross near 33,000 systems, 250 per unit.
 * KS_TRIDIAG_SMALL_BATCH_PER_CU (224) keeps the rule on the safe side of
 * that crossing.  The streamed build CUDA runs since (h200-split-2026-11-
 * 28d.txt) is faster at 40,000 too (1.295 against 1.499 ms), but OpenCL
 * runs the unstreamed one (2.04-2.14 ms at 40,000 on the same GPU), so
 * the rule stays where both hold.  One system no group holds is
 * partitioned: 0.278 ms for 2^24 - 1 against paracr-thomas's 1.534. */
KsTridiagMethod
ks_tridiag_default_method (KsDevice    *device,
                           KsPrecision  precision,
                           guint        n,
                           guint        systems)
{
  const KsDeviceInfo *info;

  g_return_val_if_fail (KS_IS_DEVICE (device), KS_TRIDIAG_OMP_THOMAS);

  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    return KS_TRIDIAG_OMP_THOMAS;
  info = ks_device_get_info (device);
  if ((guint64) systems < (guint64) KS_TRIDIAG_SMALL_BATCH_PER_CU * MAX (info->compute_units, 1) &&
      ks_tridiag_split_check (device, precision, n, systems, NULL))
    return KS_TRIDIAG_THOMAS_SPLIT;
  return systems > 1 ? KS_TRIDIAG_THOMAS_COALESCED : KS_TRIDIAG_PARACR_THOMAS;
}

gboolean
ks_tridiag_solve (KsDevice             *device,
                  const KsTridiagBatch *batch,
                  KsTridiagMethod       method,
                  KsPrecision           precision,
                  gboolean              pad,
                  double               *x,
                  double               *ms,
                  GError              **error)
{
  g_autoptr(KsTridiagSolver) solver = NULL;
  KsTridiagResult result;

  g_return_val_if_fail (KS_IS_DEVICE (device) && batch != NULL && x != NULL && ms != NULL, FALSE);
  g_return_val_if_fail (method < KS_TRIDIAG_N_METHODS, FALSE);

  if (ks_tridiag_method_is_host (method))
    return ks_tridiag_host_solve (batch, method, precision, pad, x, ms, error);
  if (ks_tridiag_method_is_cusparse (method))
    return ks_tridiag_cusparse_solve (device, batch, method, precision, x, ms, error);
  if (!(solver = ks_tridiag_solver_new (device, precision, error)) ||
      !ks_tridiag_solver_load (solver, batch, method, pad, error) ||
      !ks_tridiag_solver_run (solver, &result, error) ||
      !ks_tridiag_solver_read (solver, x, error))
    return FALSE;
  *ms = result.kernel_ms;
  return TRUE;
}
