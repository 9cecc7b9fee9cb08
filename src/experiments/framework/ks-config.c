/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-config.c: a point of an experiment, one value per parameter. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-experiment-desc.h"
#include "ks-engine-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _KsConfig {
  const KsExperimentDesc *desc;
  GVariant              **values;
};

KsConfig *
ks_config_new (const KsExperimentDesc *desc)
{
  KsConfig *config;

  g_return_val_if_fail (desc != NULL, NULL);

  config = g_new0 (KsConfig, 1);
  config->desc = desc;
  config->values = g_new0 (GVariant *, MAX (desc->n_params, 1));
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
  g_free (config);
}

const KsExperimentDesc *
ks_config_get_desc (const KsConfig *config)
{
  g_return_val_if_fail (config != NULL, NULL);
  return config->desc;
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
      g_autofree char *text = NULL;
      g_autoptr(GVariant) checked = NULL;

      if (!g_variant_is_of_type (owned, ks_param_type_get_variant_type (spec->type)))
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--%s takes a %s value, not %s"), ks_param_spec_option (spec), ks_param_type_to_string (spec->type),
                       g_variant_get_type_string (owned));
          return FALSE;
        }
      /* The same checks as text from the CLI: limits, choices, files. */
      text = ks_param_value_to_string (owned);
      if (!(checked = ks_param_parse_value (spec, text, error)))
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

static GVariant *
get_typed (const KsConfig *config,
           const char     *name,
           KsParamType     type)
{
  int i;

  g_return_val_if_fail (config != NULL, NULL);
  i = ks_experiment_desc_find_param (config->desc, name);
  if (i < 0)
    {
      g_critical ("%s has no parameter \"%s\"", config->desc->id, name);
      return NULL;
    }
  if (ks_param_type_get_variant_type (config->desc->params[i].type) != ks_param_type_get_variant_type (type))
    {
      g_critical ("%s: parameter \"%s\" is a %s, not a %s", config->desc->id, name,
                  ks_param_type_to_string (config->desc->params[i].type), ks_param_type_to_string (type));
      return NULL;
    }
  return config->values[i];
}

gint64
ks_config_get_int (const KsConfig *config,
                   const char     *name)
{
  GVariant *v = get_typed (config, name, KS_PARAM_INT);
  return v ? g_variant_get_int64 (v) : 0;
}

double
ks_config_get_real (const KsConfig *config,
                    const char     *name)
{
  GVariant *v = get_typed (config, name, KS_PARAM_REAL);
  return v ? g_variant_get_double (v) : 0.0;
}

gboolean
ks_config_get_bool (const KsConfig *config,
                    const char     *name)
{
  GVariant *v = get_typed (config, name, KS_PARAM_BOOL);
  return v ? g_variant_get_boolean (v) : FALSE;
}

const char *
ks_config_get_string (const KsConfig *config,
                      const char     *name)
{
  GVariant *v = get_typed (config, name, KS_PARAM_TEXT);
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
  /* A condition on a parameter that does not apply itself fails. */
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
