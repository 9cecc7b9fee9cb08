/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run-json-values.c: a point of a results file from its members'
 * values, as both readers (the tree of ks-run-json.c, the scanner of
 * ks-run-json-points.c) give them: one set of checks, one set of
 * messages. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-run-json-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

gboolean
ks_run_json_fail (GError    **error,
                  const char *format,
                  ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, KS_RUN_ERROR, KS_RUN_ERROR_PARSE, message);
  return FALSE;
}

/* A number, or one of the strings a number JSON cannot spell is written as. */
gboolean
ks_run_json_value_number (const KsJsonValue *v,
                          const char        *name,
                          double            *out,
                          GError           **error)
{
  switch (v->kind)
    {
    case KS_JSON_ABSENT:
    case KS_JSON_NULL:
      return *out = NAN, TRUE;
    case KS_JSON_DOUBLE:
      return *out = v->d, TRUE;
    case KS_JSON_INT:
      return *out = (double) v->i, TRUE;
    case KS_JSON_BOOL:
      return *out = v->b, TRUE;
    case KS_JSON_STRING:
      if (strcmp (v->s, "nan") == 0)
        return *out = NAN, TRUE;
      if (strcmp (v->s, "inf") == 0 || strcmp (v->s, "-inf") == 0)
        return *out = v->s[0] == '-' ? -INFINITY : INFINITY, TRUE;
      break;
    case KS_JSON_OTHER:
    default:
      break;
    }
  return ks_run_json_fail (error, _("In the results file, \"%s\" must be a number"), name);
}

/* Whether v is what the last point read: the point then shares its value
 * (compared as read: asking the GVariant took a lock each time). */
static gboolean
same_param (const struct KsRunJsonLast *last,
            const KsJsonValue          *v)
{
  if (last->variant == NULL || last->value.kind != v->kind)
    return FALSE;
  switch (v->kind)
    {
    case KS_JSON_INT:
      return last->value.i == v->i;
    case KS_JSON_BOOL:
      return !last->value.b == !v->b;
    case KS_JSON_DOUBLE:
      return memcmp (&last->value.d, &v->d, sizeof v->d) == 0;
    case KS_JSON_STRING:
      return strcmp (last->text, v->s) == 0;
    default:
      return FALSE;
    }
}

static void
remember_param (struct KsRunJsonLast *last,
                const KsJsonValue    *v,
                GVariant             *variant)
{
  g_clear_pointer (&last->variant, g_variant_unref);
  g_clear_pointer (&last->text, g_free);
  last->variant = g_variant_ref (variant);
  last->value = *v;
  if (v->kind == KS_JSON_STRING)
    last->text = g_strdup (v->s);
  last->value.s = NULL;
}

static GVariant *
param_value (const KsParamSpec *spec,
             const KsJsonValue *v,
             GError           **error)
{
  double d;

  switch (spec->type)
    {
    case KS_PARAM_INT:
      if (v->kind != KS_JSON_INT)
        return ks_run_json_fail (error, _("In the results file, \"%s\" must be a whole number"), spec->name), NULL;
      return g_variant_ref_sink (g_variant_new_int64 (v->i));
    case KS_PARAM_REAL:
      if (!ks_run_json_value_number (v, spec->name, &d, error))
        return NULL;
      return g_variant_ref_sink (g_variant_new_double (d));
    case KS_PARAM_BOOL:
      if (v->kind != KS_JSON_BOOL)
        return ks_run_json_fail (error, _("In the results file, \"%s\" must be true or false"), spec->name), NULL;
      return g_variant_ref_sink (g_variant_new_boolean (v->b));
    case KS_PARAM_CHOICE:
    case KS_PARAM_TEXT:
    case KS_PARAM_FILE:
    default:
      if (v->kind != KS_JSON_STRING)
        return ks_run_json_fail (error, _("In the results file, \"%s\" must be a string"), spec->name), NULL;
      if (spec->type == KS_PARAM_CHOICE)
        {
          g_autoptr(GError) local_error = NULL;
          g_autoptr(GVariant) known = ks_param_parse_value (spec, v->s, &local_error);
          if (known == NULL)
            return ks_run_json_fail (error, _("In the results file, \"%s\" has an unknown value \"%s\""),
                               spec->name, v->s), NULL;
        }
      return g_variant_ref_sink (g_variant_new_string (v->s));
    }
}

/* A parameter's value; null or absent where it does not apply. */
static gboolean
parse_param (const KsParamSpec    *spec,
             const KsJsonValue    *v,
             struct KsRunJsonLast *last,
             GVariant            **out,
             GError              **error)
{
  *out = NULL;
  if (v->kind == KS_JSON_ABSENT || v->kind == KS_JSON_NULL)
    return TRUE;
  if (same_param (last, v))
    {
      *out = g_variant_ref (last->variant);
      return TRUE;
    }
  if (!(*out = param_value (spec, v, error)))
    return FALSE;
  remember_param (last, v, *out);
  return TRUE;
}

/* A member that must be a whole number from 0 to max. */
static gboolean
value_uint (const KsJsonValue *v, const char *name, guint64 max, guint64 *out, GError **error)
{
  if (v->kind == KS_JSON_ABSENT || v->kind == KS_JSON_NULL)
    return ks_run_json_fail (error, _("The results file has no \"%s\""), name);
  if (v->kind != KS_JSON_INT)
    return ks_run_json_fail (error, _("In the results file, \"%s\" has the wrong type"), name);
  if (v->i < 0 || (guint64) v->i > max)
    return ks_run_json_fail (error, _("In the results file, \"%s\" = %lld is out of range"), name, (long long) v->i);
  *out = (guint64) v->i;
  return TRUE;
}

gboolean
ks_run_json_point_from_values (KsRun             *run,
                               KsRunJsonSlots    *slots,
                               const KsJsonValue *values,
                               KsRunPoint        *p,
                               GError           **error)
{
  const KsExperimentDesc *desc = run->desc;
  const KsJsonValue *e = &values[KS_RUN_SLOT_ERROR];
  guint64 v;

  if (!value_uint (&values[KS_RUN_SLOT_DEVICE], "device", run->devices->len ? run->devices->len - 1 : 0, &v, error))
    return FALSE;
  p->device = (guint) v;
  if (!value_uint (&values[KS_RUN_SLOT_REPS], "reps", G_MAXUINT, &v, error))
    return FALSE;
  p->reps = (guint) v;
  if (e->kind != KS_JSON_ABSENT && e->kind != KS_JSON_NULL && e->kind != KS_JSON_STRING)
    return ks_run_json_fail (error, _("In the results file, \"%s\" has the wrong type"), "error");
  p->error = e->kind == KS_JSON_STRING ? g_strdup (e->s) : NULL;
  for (guint i = 0; i < desc->n_params; i++)
    if (!parse_param (&desc->params[i], &values[KS_RUN_SLOT_PARAMS + i], &slots->last[i], &p->params[i], error))
      return FALSE;
  for (guint i = 0; i < desc->n_columns; i++)
    {
      guint slot = ks_run_json_column_slot (slots, i);

      if (!ks_run_json_value_number (&values[slot], slots->names[slot], &p->values[i], error) ||
          !ks_run_json_value_number (&values[slot + 1], slots->names[slot + 1], &p->lo[i], error) ||
          !ks_run_json_value_number (&values[slot + 2], slots->names[slot + 2], &p->hi[i], error))
        return FALSE;
    }
  return TRUE;
}

KsRunJsonSlots *
ks_run_json_slots_new (const KsExperimentDesc *desc)
{
  KsRunJsonSlots *slots = g_new0 (KsRunJsonSlots, 1);
  guint k = KS_RUN_SLOT_PARAMS;

  slots->n_params = desc->n_params;
  slots->n = KS_RUN_SLOT_PARAMS + desc->n_params + 3 * desc->n_columns;
  slots->names = g_new0 (char *, slots->n + 1);
  slots->lengths = g_new0 (gsize, slots->n);
  slots->last = g_new0 (struct KsRunJsonLast, MAX (desc->n_params, 1));
  slots->index = g_hash_table_new (g_str_hash, g_str_equal);
  slots->names[KS_RUN_SLOT_DEVICE] = g_strdup ("device");
  slots->names[KS_RUN_SLOT_REPS] = g_strdup ("reps");
  slots->names[KS_RUN_SLOT_ERROR] = g_strdup ("error");
  for (guint i = 0; i < desc->n_params; i++)
    slots->names[k++] = g_strdup (desc->params[i].name);
  for (guint i = 0; i < desc->n_columns; i++)
    {
      slots->names[k++] = g_strdup (desc->columns[i].name);
      slots->names[k++] = g_strconcat (desc->columns[i].name, "_min", NULL);
      slots->names[k++] = g_strconcat (desc->columns[i].name, "_max", NULL);
    }
  /* Backwards, so that a name two slots share reads into the first. */
  for (guint i = slots->n; i-- > 0;)
    {
      slots->lengths[i] = strlen (slots->names[i]);
      slots->duplicates |= !g_hash_table_insert (slots->index, slots->names[i], GUINT_TO_POINTER (i + 1));
    }
  return slots;
}

void
ks_run_json_slots_free (KsRunJsonSlots *slots)
{
  if (slots == NULL)
    return;
  for (guint i = 0; i < slots->n_params; i++)
    {
      g_clear_pointer (&slots->last[i].variant, g_variant_unref);
      g_free (slots->last[i].text);
    }
  g_free (slots->last);
  g_hash_table_unref (slots->index);
  g_strfreev (slots->names);
  g_free (slots->lengths);
  g_free (slots);
}
