/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-config.c: a point of an experiment, one value per parameter. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-experiment-desc.h"
#include "ks-engine-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

struct _KsConfig {
  const KsExperimentDesc *desc;
  GVariant              **values;
  int                    *when;    /* per parameter: the index of its when.param, or -1 */
};

/* Conditions name another parameter: found once, not at every point. */
static int *
find_conditions (const KsExperimentDesc *desc)
{
  int *when = g_new (int, MAX (desc->n_params, 1));

  for (guint i = 0; i < desc->n_params; i++)
    when[i] = desc->params[i].when.param ? ks_experiment_desc_find_param (desc, desc->params[i].when.param) : -1;
  return when;
}

KsConfig *
ks_config_new (const KsExperimentDesc *desc)
{
  KsConfig *config;

  g_return_val_if_fail (desc != NULL, NULL);

  config = g_new0 (KsConfig, 1);
  config->desc = desc;
  config->values = g_new0 (GVariant *, MAX (desc->n_params, 1));
  config->when = find_conditions (desc);
  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];
      g_autoptr(GPtrArray) axis = NULL;

      /* A sweepable default may be a list: a point starts at its first value. */
      if (spec->default_value && (axis = ks_param_parse_axis (spec, spec->default_value, NULL)) && axis->len > 0)
        config->values[i] = g_variant_ref (axis->pdata[0]);
    }
  return config;
}

KsConfig *
ks_config_copy (const KsConfig *config)
{
  KsConfig *copy;

  g_return_val_if_fail (config != NULL, NULL);

  copy = g_new0 (KsConfig, 1);
  copy->desc = config->desc;
  copy->values = g_new0 (GVariant *, MAX (config->desc->n_params, 1));
  copy->when = g_memdup2 (config->when, sizeof (int) * MAX (config->desc->n_params, 1));
  for (guint i = 0; i < config->desc->n_params; i++)
    copy->values[i] = config->values[i] ? g_variant_ref (config->values[i]) : NULL;
  return copy;
}

void
ks_config_free (KsConfig *config)
{
  if (config == NULL)
    return;
  for (guint i = 0; i < config->desc->n_params; i++)
    g_clear_pointer (&config->values[i], g_variant_unref);
  g_free (config->values);
  g_free (config->when);
  g_free (config);
}

const KsExperimentDesc *
ks_config_get_desc (const KsConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return config->desc;
}

gboolean
ks_param_check_value (const KsParamSpec *spec,
                      GVariant          *value,
                      GError           **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (spec != NULL && value != NULL, FALSE);

  if (!g_variant_is_of_type (value, ks_param_type_get_variant_type (spec->type)))
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--%s takes a %s value, not %s"), ks_param_spec_option (spec), ks_param_type_to_string (spec->type),
                   g_variant_get_type_string (value));
      return FALSE;
    }
  switch (spec->type)
    {
    case KS_PARAM_INT:
    case KS_PARAM_REAL:
      {
        double v = spec->type == KS_PARAM_INT ? (double) g_variant_get_int64 (value) : g_variant_get_double (value);
        gboolean within = (spec->min == 0.0 && spec->max == 0.0) || (v >= spec->min && v <= spec->max);

        if (isfinite (v) && within)
          return TRUE;
        /* Spelt as on the command line only when it is refused. */
        text = ks_param_value_to_string (value);
        if (!isfinite (v))
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--%s: \"%s\" is not a number"), ks_param_spec_option (spec), text);
        else
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--%s %s: the value must lie between %.15g and %.15g"), ks_param_spec_option (spec), text,
                       spec->min, spec->max);
        return FALSE;
      }
    case KS_PARAM_CHOICE:
    case KS_PARAM_FILE:
      {
        /* The same checks and words as for text. */
        g_autoptr(GVariant) checked = ks_param_parse_value (spec, g_variant_get_string (value, NULL), error);
        return checked != NULL;
      }
    case KS_PARAM_BOOL:
    case KS_PARAM_TEXT:
    default:
      return TRUE;
    }
}

/* Whether axis holds whole numbers from k on by one step for at least
 * three values: *end is the last of them. */
static gboolean
int_run (GPtrArray *axis,
         guint      k,
         guint     *end)
{
  gint64 step;

  if (k + 2 >= axis->len || !g_variant_is_of_type (axis->pdata[k], G_VARIANT_TYPE_INT64))
    return FALSE;
  step = g_variant_get_int64 (axis->pdata[k + 1]) - g_variant_get_int64 (axis->pdata[k]);
  if (step <= 0)
    return FALSE;
  for (*end = k + 1; *end + 1 < axis->len &&
       g_variant_get_int64 (axis->pdata[*end + 1]) - g_variant_get_int64 (axis->pdata[*end]) == step;)
    (*end)++;
  return *end >= k + 2;
}

char *
ks_param_axis_to_string (GPtrArray *axis)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (axis != NULL, NULL);
  for (guint k = 0, end; k < axis->len; k++)
    {
      g_autofree char *first = ks_param_value_to_string (axis->pdata[k]);

      if (out->len > 0)
        g_string_append_c (out, ',');
      g_string_append (out, first);
      /* Runs of whole numbers as the CLI writes them: a million values
       * stay a short setting. */
      if (int_run (axis, k, &end))
        {
          gint64 step = g_variant_get_int64 (axis->pdata[k + 1]) - g_variant_get_int64 (axis->pdata[k]);

          g_string_append_printf (out, ":%" G_GINT64_FORMAT, g_variant_get_int64 (axis->pdata[end]));
          if (step != 1)
            g_string_append_printf (out, ":%" G_GINT64_FORMAT, step);
          k = end;
        }
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static int
find_or_fail (const KsExperimentDesc *desc,
              const char             *name,
              GError                **error)
{
  int i = ks_experiment_desc_find_param (desc, name);

  if (i < 0)
    g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_UNKNOWN,
                 _("%s has no parameter \"%s\""), desc->id, name);
  return i;
}

gboolean
ks_config_set (KsConfig    *config,
               const char  *name,
               GVariant    *value,
               GError     **error)
{
  int i;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if ((i = find_or_fail (config->desc, name, error)) < 0)
    return FALSE;
  if (value != NULL)
    {
      const KsParamSpec *spec = &config->desc->params[i];
      g_autoptr(GVariant) owned = g_variant_ref_sink (value);

      if (!ks_param_check_value (spec, owned, error))
        return FALSE;
      g_clear_pointer (&config->values[i], g_variant_unref);
      config->values[i] = g_steal_pointer (&owned);
      return TRUE;
    }
  g_clear_pointer (&config->values[i], g_variant_unref);
  return TRUE;
}

gboolean
ks_config_set_string (KsConfig    *config,
                      const char  *name,
                      const char  *text,
                      GError     **error)
{
  int i;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (name != NULL && text != NULL, FALSE);

  if ((i = find_or_fail (config->desc, name, error)) < 0)
    return FALSE;
  {
    GVariant *v = ks_param_parse_value (&config->desc->params[i], text, error);
    if (v == NULL)
      return FALSE;
    g_clear_pointer (&config->values[i], g_variant_unref);
    config->values[i] = v;
  }
  return TRUE;
}

GVariant *
ks_config_get (const KsConfig *config,
               const char     *name)
{
  int i;

  g_return_val_if_fail (config != NULL, NULL);
  i = ks_experiment_desc_find_param (config->desc, name);
  return i < 0 ? NULL : config->values[i];
}

const KsChoice *
ks_param_find_choice (const KsParamSpec *spec,
                      const char        *value)
{
  g_return_val_if_fail (spec != NULL && value != NULL, NULL);
  for (const KsChoice *c = spec->choices; c && c->value; c++)
    if (strcmp (c->value, value) == 0)
      return c;
  return NULL;
}

GVariant *
ks_config_value (const KsConfig *config,
                 guint           param)
{
  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (param < config->desc->n_params, NULL);
  return config->values[param];
}

/* The value at index param where the parameter there has a value of
 * type's GVariant type; a critical for a read the description cannot
 * answer, which is a mistake in the measuring function. */
static GVariant *
get_typed (const KsConfig *config,
           guint           param,
           KsParamType     type)
{
  const KsParamSpec *spec;

  g_return_val_if_fail (config != NULL, NULL);
  if (param >= config->desc->n_params)
    {
      g_critical ("%s has no parameter %u (it has %u)", config->desc->id, param, config->desc->n_params);
      return NULL;
    }
  spec = &config->desc->params[param];
  if (ks_param_type_get_variant_type (spec->type) != ks_param_type_get_variant_type (type))
    {
      g_critical ("%s: parameter \"%s\" is a %s, not a %s", config->desc->id, spec->name,
                  ks_param_type_to_string (spec->type), ks_param_type_to_string (type));
      return NULL;
    }
  return config->values[param];
}

gint64
ks_config_int (const KsConfig *config,
               guint           param)
{
  GVariant *v = get_typed (config, param, KS_PARAM_INT);
  return v ? g_variant_get_int64 (v) : 0;
}

double
ks_config_real (const KsConfig *config,
                guint           param)
{
  GVariant *v = get_typed (config, param, KS_PARAM_REAL);
  return v ? g_variant_get_double (v) : 0.0;
}

gboolean
ks_config_bool (const KsConfig *config,
                guint           param)
{
  GVariant *v = get_typed (config, param, KS_PARAM_BOOL);
  return v ? g_variant_get_boolean (v) : FALSE;
}

int
ks_config_choice (const KsConfig *config,
                  guint           param)
{
  GVariant *v = get_typed (config, param, KS_PARAM_CHOICE);
  const KsChoice *c;

  if (v == NULL)
    return -1;
  if (config->desc->params[param].type != KS_PARAM_CHOICE)
    {
      g_critical ("%s: parameter \"%s\" is no choice", config->desc->id, config->desc->params[param].name);
      return -1;
    }
  /* The value was checked against the choices when it was set. */
  c = ks_param_find_choice (&config->desc->params[param], g_variant_get_string (v, NULL));
  return c ? c->id : -1;
}

const char *
ks_config_text (const KsConfig *config,
                guint           param)
{
  GVariant *v = get_typed (config, param, KS_PARAM_TEXT);
  return v ? g_variant_get_string (v, NULL) : NULL;
}

gboolean
ks_config_applies (const KsConfig    *config,
                   const KsParamSpec *spec,
                   KsBackend          backend)
{
  GVariant *other;
  g_autofree char *text = NULL;

  g_return_val_if_fail (config != NULL && spec != NULL, FALSE);

  if (spec->backends != KS_BACKENDS_ALL && !(spec->backends & (1u << backend)))
    return FALSE;
  if (spec->when.param == NULL)
    return TRUE;
  /* A condition on a parameter that does not apply itself fails.  A spec
   * of the config's own description has its condition's index at hand. */
  if (spec >= config->desc->params && spec < config->desc->params + config->desc->n_params)
    {
      int k = config->when[spec - config->desc->params];
      other = k >= 0 ? config->values[k] : NULL;
    }
  else
    other = ks_config_get (config, spec->when.param);
  if (other == NULL)
    return FALSE;
  text = ks_param_value_to_string (other);
  for (guint i = 0; i < G_N_ELEMENTS (spec->when.values) && spec->when.values[i]; i++)
    if (strcmp (spec->when.values[i], text) == 0)
      return TRUE;
  return FALSE;
}

/* For the engine (ks-engine-private.h): no checks, the value came from a
 * parsed axis.  NULL clears. */
void
ks_config_put_value (KsConfig *config,
                      guint     index,
                      GVariant *value)
{
  g_assert (index < config->desc->n_params);
  g_clear_pointer (&config->values[index], g_variant_unref);
  config->values[index] = value ? g_variant_ref (value) : NULL;
}
