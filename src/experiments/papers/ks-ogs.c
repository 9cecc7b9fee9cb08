/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-ogs.h"

#include <glib/gi18n-lib.h>

gboolean
ks_is_prime (guint64 n)
{
  if (n < 2)
    return FALSE;
  if (n % 2 == 0)
    return n == 2;
  if (n % 3 == 0)
    return n == 3;
  for (guint64 d = 5; d <= n / d; d += 6)
    if (n % d == 0 || n % (d + 2) == 0)
      return FALSE;
  return TRUE;
}

guint64
ks_gcd (guint64 a,
        guint64 b)
{
  while (b != 0)
    {
      guint64 t = a % b;
      a = b;
      b = t;
    }
  return a;
}

guint64
ks_lcm (guint64 a,
        guint64 b)
{
  if (a == 0 || b == 0)
    return 0;
  return a / ks_gcd (a, b) * b;
}

gboolean
ks_ogs_predict (guint            pwgsm,
                guint            cores_per_cu,
                guint            compute_units,
                gsize            max_work_group_size,
                KsOgsPrediction *out)
{
  g_return_val_if_fail (out != NULL, FALSE);

  *out = (KsOgsPrediction) { 0 };
  if (pwgsm == 0 || cores_per_cu == 0 || compute_units == 0)
    return FALSE;

  out->pwgsm = pwgsm;
  out->cores_per_cu = cores_per_cu;
  out->compute_units = compute_units;
  out->total_cores = (guint64) cores_per_cu * compute_units;
  out->lcm = ks_lcm (pwgsm, cores_per_cu);
  /* "Greater than the total number of cores": strictly above. */
  out->ogs = (out->total_cores / out->lcm + 1) * out->lcm;
  out->max_work_group_size = max_work_group_size;
  out->exceeds_limit = max_work_group_size > 0 && out->ogs > max_work_group_size;
  out->usable = out->ogs;
  if (out->exceeds_limit)
    {
      guint64 step = out->lcm <= max_work_group_size ? out->lcm : pwgsm;
      out->usable = step <= max_work_group_size ? max_work_group_size / step * step : max_work_group_size;
    }
  return TRUE;
}

char *
ks_ogs_explain (const KsOgsPrediction *p)
{
  GString *s;

  g_return_val_if_fail (p != NULL, NULL);

  s = g_string_new (NULL);
  /* Plain %lu rather than G_GUINT64_FORMAT: xgettext cannot see through
   * macros, and the translators need the whole sentence. */
  g_string_append_printf (s,
                          _("%u compute units × %u cores = %lu cores; "
                            "LCM(preferred multiple %u, %u cores per unit) = %lu; "
                            "the first multiple of %lu above %lu is %lu"),
                          p->compute_units, p->cores_per_cu, (unsigned long) p->total_cores,
                          p->pwgsm, p->cores_per_cu, (unsigned long) p->lcm,
                          (unsigned long) p->lcm, (unsigned long) p->total_cores,
                          (unsigned long) p->ogs);
  if (p->exceeds_limit)
    g_string_append_printf (s,
                            _(", more than the %lu items a group may have on this device, so the "
                              "rule cannot be followed here; the largest allowed multiple is %lu"),
                            (unsigned long) p->max_work_group_size, (unsigned long) p->usable);
  return g_string_free (s, FALSE);
}
