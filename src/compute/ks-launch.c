/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-launch.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static void
add_part (KsLaunchPlan *plan,
          guint         dims,
          const gsize  *global,
          gsize         count0,
          gsize         local0,
          gsize         first)
{
  KsLaunchConfig *c = &plan->parts[plan->n_parts].config;

  memset (c, 0, sizeof *c);
  c->dims = dims;
  for (guint d = 0; d < dims; d++)
    {
      c->global[d] = d == 0 ? count0 : global[d];
      c->local[d] = local0 == 0 ? 0 : d == 0 ? local0 : 1;
    }
  plan->parts[plan->n_parts].first = first;
  plan->n_parts++;
}

gboolean
ks_launch_plan (KsLocalPolicy  policy,
                guint          wg,
                guint          dims,
                const gsize   *global,
                KsLaunchPlan  *plan,
                GError       **error)
{
  gsize count0;

  g_return_val_if_fail (dims >= 1 && dims <= 3 && global != NULL && plan != NULL, FALSE);

  plan->n_parts = 0;
  count0 = global[0];
  if (policy != KS_LOCAL_DRIVER && wg == 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                   _("The %s policy needs a work-group size of at least 1"),
                   ks_local_policy_to_string (policy));
      return FALSE;
    }
  for (guint d = 0; d < dims; d++)
    if (global[d] == 0)
      return TRUE;

  switch (policy)
    {
    case KS_LOCAL_DRIVER:
      add_part (plan, dims, global, count0, 0, 0);
      return TRUE;

    case KS_LOCAL_EXPLICIT:
      /* Padding the range up to a multiple of the group lets every group
       * size run on every size; the extra items exit on the kernel's
       * bounds test. */
      add_part (plan, dims, global, (count0 + wg - 1) / wg * wg, wg, 0);
      return TRUE;

    case KS_LOCAL_SPLIT:
      {
        gsize main_part = count0 / wg * wg;

        if (main_part > 0)
          add_part (plan, dims, global, main_part, wg, 0);
        /* The remainder runs as one group per row, of exactly its size. */
        if (count0 > main_part)
          add_part (plan, dims, global, count0 - main_part, count0 - main_part, main_part);
        return TRUE;
      }

    default:
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("Unknown local-size policy %d"), (int) policy);
      return FALSE;
    }
}

gboolean
ks_queue_launch_policy (KsQueue      *queue,
                        KsKernel     *kernel,
                        KsLocalPolicy policy,
                        guint         wg,
                        guint         dims,
                        const gsize  *global,
                        GError      **error)
{
  KsLaunchPlan plan;

  g_return_val_if_fail (queue != NULL && kernel != NULL, FALSE);

  if (!ks_launch_plan (policy, wg, dims, global, &plan, error))
    return FALSE;
  for (guint i = 0; i < plan.n_parts; i++)
    {
      plan.parts[i].config.offset[0] = plan.parts[i].first;
      if (!ks_queue_launch (queue, kernel, &plan.parts[i].config, error))
        return FALSE;
    }
  return TRUE;
}
