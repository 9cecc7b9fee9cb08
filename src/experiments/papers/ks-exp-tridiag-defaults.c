/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-tridiag-defaults.c: the methods paper 002's experiments and
 * bench-tridiag pick for a device when none are given (their method
 * parameter's device_default). */
#include "ks-exp-tridiag-defaults.h"
#include "ks-exp-tridiag.h"
#include "ks-tridiag.h"

#include <glib/gi18n-lib.h>

/* The methods when none are given: cuSPARSE's join on a CUDA device, the
 * batched ones for many systems, gtsv2_nopivot for one. */
char *
ks_exp_tridiag_default_methods (const KsParamSpec *spec,
                                KsDevice          *device,
                                const KsConfig    *base,
                                char             **why,
                                GError           **error)
{
  const gboolean batch = ks_config_get_desc (base) != &ks_exp_tridiag_large;

  if (ks_device_get_backend (device) != KS_BACKEND_CUDA)
    {
      *why = g_strdup (_("the paper's methods and the CPU baselines; cuSPARSE's join them on a CUDA device"));
      return g_strdup (spec->default_value);
    }
  *why = g_strdup (_("the paper's methods, the CPU baselines and, on this CUDA device, cuSPARSE's"));
  return g_strconcat (spec->default_value, batch ? ",cusparse-strided,cusparse-thomas,cusparse-lu" : ",cusparse-nopivot",
                      NULL);
}

/* bench-tridiag's methods when none are given: its default, cuSPARSE's
 * only on a CUDA device (elsewhere they are refused, each point saying
 * why, when asked for: a first run on a CPU opened with refused points),
 * and gtsv2_nopivot only for one system (the first --systems 1: it
 * refuses a batch). */
char *
ks_exp_tridiag_bench_default_methods (const KsParamSpec *spec,
                                      KsDevice          *device,
                                      const KsConfig    *base,
                                      char             **why,
                                      GError           **error)
{
  g_auto(GStrv) all = g_strsplit (spec->default_value, ",", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  const gboolean cuda = ks_device_get_backend (device) == KS_BACKEND_CUDA;
  GVariant *systems = ks_config_get (base, "systems");
  const gboolean one = systems != NULL && g_variant_get_int64 (systems) == 1;
  KsTridiagMethod method;

  for (guint i = 0; all[i] != NULL; i++)
    if (!ks_tridiag_method_from_string (all[i], &method) || !ks_tridiag_method_is_cusparse (method) ||
        (cuda && (one || method != KS_TRIDIAG_CUSPARSE_NOPIVOT)))
      g_ptr_array_add (kept, all[i]);
  g_ptr_array_add (kept, NULL);
  *why = g_strdup (!cuda ? _("the kernels and the host's methods; cuSPARSE's join them on a CUDA device")
                   : one ? _("every method: cuSPARSE's run on this CUDA device")
                         : _("every method but gtsv2_nopivot, cuSPARSE's solver for one system (--systems 1)"));
  return g_strjoinv (",", (char **) kept->pdata);
}
