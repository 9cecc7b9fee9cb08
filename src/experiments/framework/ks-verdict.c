/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-verdict.c: see ks-verdict.h. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-verdict.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <stdarg.h>
#include <string.h>

KsVerdict *
ks_verdict_new (KsVerdictKind kind,
                const char   *format,
                ...)
{
  KsVerdict *v = g_new0 (KsVerdict, 1);
  va_list args;

  g_return_val_if_fail (format != NULL, NULL);

  v->kind = kind;
  va_start (args, format);
  v->text = g_strdup_vprintf (format, args);
  va_end (args);
  return v;
}

void
ks_verdict_append (KsVerdict  *verdict,
                   const char *format,
                   ...)
{
  g_autofree char *more = NULL;
  char *joined;
  va_list args;

  g_return_if_fail (verdict != NULL && format != NULL);

  va_start (args, format);
  more = g_strdup_vprintf (format, args);
  va_end (args);
  joined = g_strconcat (verdict->text, " ", more, NULL);
  g_free (verdict->text);
  verdict->text = joined;
}

void
ks_verdict_suggest (KsVerdict  *verdict,
                    const char *label,
                    const char *first_name,
                    ...)
{
  va_list args;

  g_return_if_fail (verdict != NULL && label != NULL && first_name != NULL);

  g_free (verdict->suggestion);
  verdict->suggestion = g_strdup (label);
  g_clear_pointer (&verdict->values, g_hash_table_unref);
  verdict->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_start (args, first_name);
  for (const char *name = first_name; name != NULL; name = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);

      g_hash_table_insert (verdict->values, g_strdup (name), g_strdup (value));
    }
  va_end (args);
}

void
ks_verdict_free (KsVerdict *verdict)
{
  if (verdict == NULL)
    return;
  g_free (verdict->text);
  g_free (verdict->suggestion);
  g_clear_pointer (&verdict->values, g_hash_table_unref);
  g_free (verdict);
}

const char *
ks_verdict_kind_label (KsVerdictKind kind)
{
  switch (kind)
    {
    case KS_VERDICT_HOLDS:
      return _("Holds here");
    case KS_VERDICT_FAILS:
      return _("Does not hold here");
    case KS_VERDICT_UNTESTED:
    default:
      return _("Not tested by this run");
    }
}

const char *
ks_verdict_kind_to_string (KsVerdictKind kind)
{
  switch (kind)
    {
    case KS_VERDICT_HOLDS:
      return "holds";
    case KS_VERDICT_FAILS:
      return "fails";
    case KS_VERDICT_UNTESTED:
    default:
      return "untested";
    }
}

KsVerdict *
ks_run_judge (const KsRun *run,
              guint        device)
{
  g_return_val_if_fail (run != NULL && device < run->devices->len, NULL);

  if (run->desc == NULL || run->desc->judge == NULL)
    return NULL;
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      if (p->device == device && p->error == NULL)
        return run->desc->judge (run, device);
    }
  return NULL;
}

gboolean
ks_run_device_is_cpu (const KsRun *run,
                      guint        device)
{
  const KsRunDevice *d;

  g_return_val_if_fail (run != NULL && device < run->devices->len, FALSE);

  d = run->devices->pdata[device];
  /* Recorded runs keep no device type, only names: PoCL's platform and
   * CPUs' names say it. */
  return g_strcmp0 (d->backend, "host") == 0
         || (d->platform && strstr (d->platform, "Portable Computing Language"))
         || (d->name && (strstr (d->name, "CPU") || strstr (d->name, "cpu-")));
}
