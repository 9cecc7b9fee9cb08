/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-bench.c: what the bench descriptions share. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-bench.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>

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

char *
ks_exp_bench_default_methods (const KsParamSpec *spec,
                              KsDevice          *device,
                              const KsConfig    *base,
                              char             **why,
                              GError           **error)
{
  const guint mine = 1u << ks_device_get_backend (device);
  g_auto(GStrv) all = g_strsplit (spec->default_value, ",", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();

  for (guint i = 0; all[i] != NULL; i++)
    {
      const KsChoice *c = ks_param_find_choice (spec, all[i]);

      if (c != NULL && (c->backends == 0 || (c->backends & mine)))
        g_ptr_array_add (kept, all[i]);
    }
  if (kept->len == g_strv_length (all))
    {
      *why = g_strdup (_("every method: on a CUDA device the CUDA graph and the CUDA libraries run too"));
      return g_strdup (spec->default_value);
    }
  *why = g_strdup (_("the methods this device runs: the CUDA graph and the CUDA libraries run on CUDA devices only"));
  g_ptr_array_add (kept, NULL);
  return g_strjoinv (",", (char **) kept->pdata);
}
