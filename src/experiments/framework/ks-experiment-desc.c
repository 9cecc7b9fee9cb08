/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-desc.c: parameter values (one value, or an axis of them),
 * finding parameters, columns and figures by name, and the checks a
 * description must pass.  Points (KsConfig) are in ks-config.c. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-experiment-desc.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (ks-experiment-error-quark, ks_experiment_error)

const GVariantType *
ks_param_type_get_variant_type (KsParamType type)
{
  switch (type)
    {
    case KS_PARAM_INT:  return G_VARIANT_TYPE_INT64;
    case KS_PARAM_REAL: return G_VARIANT_TYPE_DOUBLE;
    case KS_PARAM_BOOL: return G_VARIANT_TYPE_BOOLEAN;
    case KS_PARAM_CHOICE:
    case KS_PARAM_TEXT:
    case KS_PARAM_FILE:
    default:            return G_VARIANT_TYPE_STRING;
    }
}

const char *
ks_param_type_to_string (KsParamType type)
{
  static const char *const names[] = { "int", "real", "choice", "bool", "text", "file" };

  g_return_val_if_fail ((guint) type < G_N_ELEMENTS (names), NULL);
  return names[type];
}

void
ks_figure_options_init (KsFigureOptions *options)
{
  g_return_if_fail (options != NULL);
  options->min_x = -INFINITY;
  options->log_y = FALSE;
}

/* --- one value ------------------------------------------------------------- */

static gboolean
has_limits (const KsParamSpec *spec)
{
  return spec->min != 0.0 || spec->max != 0.0;
}

static gboolean
check_limits (const KsParamSpec *spec,
              double             v,
              const char        *text,
              GError           **error)
{
  if (has_limits (spec) && (v < spec->min || v > spec->max))
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--%s %s: the value must lie between %.15g and %.15g"), ks_param_spec_option (spec), text,
                   spec->min, spec->max);
      return FALSE;
    }
  return TRUE;
}

/* text as a whole number within lo..hi: FALSE with *too_far set where it
 * is one beyond them (2^64 is no gint64 either), which is not "not a
 * number". */
static gboolean
parse_whole (const char *text,
             gint64      lo,
             gint64      hi,
             gint64     *out,
             gboolean   *too_far)
{
  g_autoptr(GError) local = NULL;

  if (g_ascii_string_to_signed (text, 10, lo, hi, out, &local))
    return TRUE;
  *too_far = g_error_matches (local, G_NUMBER_PARSER_ERROR, G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS);
  return FALSE;
}

/* A whole number beyond what the option takes: too large (or too small),
 * with the limit, the parameter's own where it has one. */
typedef enum {
  TOO_FAR_WHOLE,   /* a gint64 */
  TOO_FAR_POW2,    /* 2^0 .. 2^62 */
  TOO_FAR_REAL,    /* a double */
} TooFar;

static void
set_too_far (const KsParamSpec *spec,
             const char        *text,
             TooFar             kind,
             GError           **error)
{
  gboolean small = text[0] == '-' || g_str_has_prefix (text, "2^-");
  char limit[G_ASCII_DTOSTR_BUF_SIZE];

  if (has_limits (spec))
    g_ascii_formatd (limit, sizeof limit, "%.15g", small ? spec->min : spec->max);
  else if (kind == TOO_FAR_POW2)
    g_strlcpy (limit, small ? "2^0" : "2^62", sizeof limit);
  else if (kind == TOO_FAR_REAL)
    g_ascii_formatd (limit, sizeof limit, "%.6g", small ? -G_MAXDOUBLE : G_MAXDOUBLE);
  else
    g_snprintf (limit, sizeof limit, "%" G_GINT64_FORMAT, small ? G_MININT64 : G_MAXINT64);
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
               small ? _("--%s: %s is too small: the least it takes is %s")
                     : _("--%s: %s is too large: the most it takes is %s"),
               ks_param_spec_option (spec), text, limit);
}

static gboolean
parse_int (const KsParamSpec *spec,
           const char        *text,
           gint64            *out,
           GError           **error)
{
  gboolean too_far = FALSE;

  if (!parse_whole (text, G_MININT64, G_MAXINT64, out, &too_far))
    {
      if (too_far)
        set_too_far (spec, text, TOO_FAR_WHOLE, error);
      else
        g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                     _("--%s: \"%s\" is not a whole number"), ks_param_spec_option (spec), text);
      return FALSE;
    }
  return check_limits (spec, (double) *out, text, error);
}

static gboolean
parse_real (const KsParamSpec *spec,
            const char        *text,
            double            *out,
            GError           **error)
{
  char *end = NULL;

  *out = g_ascii_strtod (text, &end);
  /* 1e999 is a number, only too large for a double ("inf" is none). */
  if (*text != '\0' && end != NULL && *end == '\0' && isinf (*out)
      && g_ascii_strncasecmp (text + (*text == '-' || *text == '+'), "inf", 3) != 0)
    {
      set_too_far (spec, text, TOO_FAR_REAL, error);
      return FALSE;
    }
  if (*text == '\0' || end == NULL || *end != '\0' || !isfinite (*out))
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--%s: \"%s\" is not a number"), ks_param_spec_option (spec), text);
      return FALSE;
    }
  return check_limits (spec, *out, text, error);
}

static gboolean
parse_bool (const char *text,
            gboolean   *out)
{
  static const char *const yes[] = { "true", "yes", "on", "1" };
  static const char *const no[] = { "false", "no", "off", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        return *out = TRUE, TRUE;
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        return *out = FALSE, TRUE;
    }
  return FALSE;
}

static char *
choice_list (const KsParamSpec *spec)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (const KsChoice *c = spec->choices; c && c->value; c++)
    g_string_append_printf (s, "%s%s", s->len ? ", " : "", c->value);
  return g_string_free (g_steal_pointer (&s), FALSE);
}


const char *
ks_param_spec_option (const KsParamSpec *spec)
{
  g_autofree char *dashed = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  if (spec->cli_name != NULL)
    return spec->cli_name;
  /* Interned: the messages that print it free nothing. */
  dashed = g_strdelimit (g_strdup (spec->name), "_", '-');
  return g_intern_string (dashed);
}

GVariant *
ks_param_parse_value (const KsParamSpec *spec,
                      const char        *text,
                      GError           **error)
{
  g_autofree char *t = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  t = g_strstrip (g_strdup (text));
  switch (spec->type)
    {
    case KS_PARAM_INT:
      {
        gint64 v;
        return parse_int (spec, t, &v, error) ? g_variant_ref_sink (g_variant_new_int64 (v)) : NULL;
      }
    case KS_PARAM_REAL:
      {
        double v;
        return parse_real (spec, t, &v, error) ? g_variant_ref_sink (g_variant_new_double (v)) : NULL;
      }
    case KS_PARAM_BOOL:
      {
        gboolean v;
        if (!parse_bool (t, &v))
          {
            g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                         _("--%s must be true or false, not \"%s\""), ks_param_spec_option (spec), t);
            return NULL;
          }
        return g_variant_ref_sink (g_variant_new_boolean (v));
      }
    case KS_PARAM_CHOICE:
      for (const KsChoice *c = spec->choices; c && c->value; c++)
        if (strcmp (c->value, t) == 0)
          return g_variant_ref_sink (g_variant_new_string (t));
      {
        g_autofree char *list = choice_list (spec);
        g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                     _("--%s must be one of %s, not \"%s\""), ks_param_spec_option (spec), list, t);
      }
      return NULL;
    case KS_PARAM_FILE:
      if (!g_file_test (t, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       g_file_test (t, G_FILE_TEST_EXISTS)
                         ? _("--%s %s: not a regular file")
                         : _("--%s %s: no such file"), ks_param_spec_option (spec), t);
          return NULL;
        }
      return g_variant_ref_sink (g_variant_new_string (t));
    case KS_PARAM_TEXT:
    default:
      return g_variant_ref_sink (g_variant_new_string (text));
    }
}

char *
ks_param_default_text (const KsParamSpec *spec,
                       KsDevice          *device,
                       const KsConfig    *base,
                       char             **why,
                       GError           **error)
{
  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (device == NULL || KS_IS_DEVICE (device), NULL);

  if (why)
    *why = NULL;
  if (spec->device_default && device && base)
    {
      g_autofree char *reason = NULL;
      char *text = spec->device_default (spec, device, base, &reason, error);

      if (text && why)
        *why = reason ? g_steal_pointer (&reason) : g_strdup (_("the default for this device"));
      return text;
    }
  return g_strdup (spec->default_value);
}

char *
ks_param_value_to_string (GVariant *value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (value != NULL, NULL);

  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (value));
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    return g_strdup (g_ascii_dtostr (buf, sizeof buf, g_variant_get_double (value)));
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    return g_strdup (g_variant_get_boolean (value) ? "true" : "false");
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    return g_variant_dup_string (value, NULL);
  return g_variant_print (value, FALSE);
}

char *
ks_param_value_label (const KsParamSpec *spec,
                      const char        *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  if (spec != NULL && spec->type == KS_PARAM_CHOICE)
    for (const KsChoice *c = spec->choices; c != NULL && c->value != NULL; c++)
      if (strcmp (c->value, value) == 0 && c->label != NULL)
        return g_strdup (_(c->label));
  if (spec != NULL && spec->type == KS_PARAM_BOOL)
    return g_strdup (strcmp (value, "true") == 0 ? _("yes") : strcmp (value, "false") == 0 ? _("no") : value);
  return g_strdup (value);
}

char *
ks_experiment_desc_pair_label (const KsExperimentDesc *desc,
                               const char             *name,
                               const char             *value)
{
  int p;
  g_autofree char *shown = NULL;

  g_return_val_if_fail (desc != NULL && name != NULL && value != NULL, NULL);
  p = ks_experiment_desc_find_param (desc, name);
  shown = ks_param_value_label (p >= 0 ? &desc->params[p] : NULL, value);
  return g_strdup_printf ("%s = %s", p >= 0 ? _(desc->params[p].label) : name, shown);
}

char *
ks_experiment_desc_where_label (const KsExperimentDesc *desc,
                                const char             *where)
{
  g_auto(GStrv) pairs = NULL;
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (desc != NULL && where != NULL, NULL);
  pairs = g_strsplit (where, " ", -1);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      char *eq = strchr (pairs[i], '=');
      g_autofree char *pair = NULL;

      if (*pairs[i] == '\0')
        continue;
      if (eq != NULL)
        *eq = '\0';
      pair = eq != NULL ? ks_experiment_desc_pair_label (desc, pairs[i], eq + 1) : g_strdup (pairs[i]);
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", pair);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* --- axes ------------------------------------------------------------------- */

/* One part of an integer axis: "a", "a:b", "a:b:step", "2^a" or "2^a:2^b".
 * Fills from, to, step (or the powers' exponents with pow2 set) and
 * counts its values without making them. */
typedef struct {
  gint64   from, to, step;
  gboolean pow2;
  guint64  count;
} IntPart;

static gboolean
parse_int_part (const KsParamSpec *spec,
                const char        *part,
                IntPart           *p,
                GError           **error)
{
  g_auto(GStrv) f = g_strsplit (part, ":", -1);
  guint n = g_strv_length (f);
  gboolean pow2 = n >= 1 && n <= 2 && g_str_has_prefix (g_strstrip (f[0]), "2^");
  gint64 v[3] = { 0, 0, 1 };

  if (n < 1 || n > 3)
    goto bad;
  for (guint i = 0; i < n; i++)
    {
      const char *t = g_strstrip (f[i]);
      gboolean too_far = FALSE;

      if (pow2 && !g_str_has_prefix (t, "2^"))
        goto bad;
      if (!parse_whole (pow2 ? t + 2 : t, pow2 ? 0 : G_MININT64, pow2 ? 62 : G_MAXINT64, &v[i], &too_far))
        {
          if (!too_far)
            goto bad;
          set_too_far (spec, t, pow2 ? TOO_FAR_POW2 : TOO_FAR_WHOLE, error);
          return FALSE;
        }
    }
  if (n == 1)
    v[1] = v[0];
  if (!pow2 && n == 3 && v[2] <= 0)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--%s %s: the step must be at least 1"), ks_param_spec_option (spec), part);
      return FALSE;
    }
  if (v[1] < v[0])
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("--%s %s: the range is empty (it starts above its end)"), ks_param_spec_option (spec), part);
      return FALSE;
    }
  p->pow2 = pow2;
  p->from = v[0];
  p->to = v[1];
  p->step = pow2 ? 1 : v[2];
  /* Unsigned: to - from may exceed G_MAXINT64. */
  p->count = ((guint64) p->to - (guint64) p->from) / (guint64) p->step + 1;
  return TRUE;

bad:
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
               _("--%s: \"%s\" is not a number, a list (100,200), a range from:to[:step] "
                 "(100:1000:10) or powers of two 2^a:2^b"), ks_param_spec_option (spec), part);
  return FALSE;
}

static int
compare_variant_number (gconstpointer a,
                        gconstpointer b)
{
  GVariant *x = *(GVariant * const *) a, *y = *(GVariant * const *) b;

  if (g_variant_is_of_type (x, G_VARIANT_TYPE_INT64))
    {
      gint64 i = g_variant_get_int64 (x), j = g_variant_get_int64 (y);
      return (i > j) - (i < j);
    }
  else
    {
      double i = g_variant_get_double (x), j = g_variant_get_double (y);
      return (i > j) - (i < j);
    }
}

static gboolean
too_many (const KsParamSpec *spec,
          guint64            count,
          GError           **error)
{
  if (count <= KS_MAX_AXIS_VALUES)
    return FALSE;
  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_TOO_LARGE,
               _("--%s has %llu values; a run may sweep at most %d"),
               ks_param_spec_option (spec), (unsigned long long) count, KS_MAX_AXIS_VALUES);
  return TRUE;
}

static gboolean
add_int_parts (const KsParamSpec *spec,
               GStrv              parts,
               GPtrArray         *values,
               GError           **error)
{
  guint n = g_strv_length (parts);
  g_autofree IntPart *p = g_new0 (IntPart, n);
  guint64 total = 0;

  /* Count everything before making a single value. */
  for (guint i = 0; i < n; i++)
    {
      if (!parse_int_part (spec, g_strstrip (parts[i]), &p[i], error))
        return FALSE;
      total += MIN (p[i].count, (guint64) KS_MAX_AXIS_VALUES + 1);
      if (too_many (spec, total, error))
        return FALSE;
    }
  for (guint i = 0; i < n; i++)
    for (guint64 k = 0; k < p[i].count; k++)
      {
        gint64 v = p[i].pow2 ? (gint64) 1 << (p[i].from + (gint64) k) : p[i].from + (gint64) k * p[i].step;
        g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, v);

        if (!check_limits (spec, (double) v, text, error))
          return FALSE;
        g_ptr_array_add (values, g_variant_ref_sink (g_variant_new_int64 (v)));
      }
  return TRUE;
}

static gboolean
add_real_parts (const KsParamSpec *spec,
                GStrv              parts,
                GPtrArray         *values,
                GError           **error)
{
  for (guint i = 0; parts[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit (g_strstrip (parts[i]), ":", -1);
      guint n = g_strv_length (f);
      double v[3];
      guint64 count;

      if (n != 1 && n != 3)
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--%s: \"%s\" is not a number, a list (0.5,1) or a range from:to:step (0.5:2:0.5)"),
                       ks_param_spec_option (spec), parts[i]);
          return FALSE;
        }
      for (guint j = 0; j < n; j++)
        {
          KsParamSpec unlimited = *spec;

          /* The step is not a value: no limits on it. */
          if (j == 2)
            unlimited.min = unlimited.max = 0;
          if (!parse_real (&unlimited, g_strstrip (f[j]), &v[j], error))
            return FALSE;
        }
      if (n == 1)
        {
          g_ptr_array_add (values, g_variant_ref_sink (g_variant_new_double (v[0])));
          continue;
        }
      if (!(v[2] > 0) || v[1] < v[0])
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       v[1] < v[0] ? _("--%s %s: the range is empty (it starts above its end)")
                                   : _("--%s %s: the step must be above 0"), ks_param_spec_option (spec), parts[i]);
          return FALSE;
        }
      /* A little slack so that 0:1:0.1 ends at 1 despite rounding. */
      count = (guint64) floor ((v[1] - v[0]) / v[2] + 1e-9) + 1;
      if (too_many (spec, count + values->len, error))
        return FALSE;
      for (guint64 k = 0; k < count; k++)
        g_ptr_array_add (values, g_variant_ref_sink (g_variant_new_double (v[0] + (double) k * v[2])));
    }
  return TRUE;
}

GPtrArray *
ks_param_parse_axis (const KsParamSpec *spec,
                     const char        *text,
                     GError           **error)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (text != NULL, NULL);

  if (!spec->sweepable || spec->type == KS_PARAM_TEXT || spec->type == KS_PARAM_FILE)
    {
      GVariant *v = ks_param_parse_value (spec, text, error);
      if (v == NULL)
        return NULL;
      g_ptr_array_add (values, v);
      return g_steal_pointer (&values);
    }

  parts = g_strsplit (text, ",", -1);
  if (parts[0] == NULL || g_strv_length (parts) > KS_MAX_AXIS_VALUES)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, parts[0] ? KS_EXPERIMENT_ERROR_TOO_LARGE
                                                         : KS_EXPERIMENT_ERROR_INVALID,
                   parts[0] ? _("--%s has too many values") : _("--%s is empty"), ks_param_spec_option (spec));
      return NULL;
    }
  if (spec->type == KS_PARAM_INT && !add_int_parts (spec, parts, values, error))
    return NULL;
  if (spec->type == KS_PARAM_REAL && !add_real_parts (spec, parts, values, error))
    return NULL;
  if (spec->type == KS_PARAM_CHOICE || spec->type == KS_PARAM_BOOL)
    for (guint i = 0; parts[i]; i++)
      {
        GVariant *v = ks_param_parse_value (spec, parts[i], error);
        gboolean seen = FALSE;

        if (v == NULL)
          return NULL;
        for (guint j = 0; j < values->len && !seen; j++)
          seen = g_variant_equal (v, values->pdata[j]);
        if (seen)
          g_variant_unref (v);
        else
          g_ptr_array_add (values, v);
      }

  /* Numbers ascending without duplicates: the figures draw in x order. */
  if (spec->type == KS_PARAM_INT || spec->type == KS_PARAM_REAL)
    {
      g_ptr_array_sort (values, compare_variant_number);
      for (guint i = 1; i < values->len;)
        if (g_variant_equal (values->pdata[i], values->pdata[i - 1]))
          g_ptr_array_remove_index (values, i);
        else
          i++;
    }
  return g_steal_pointer (&values);
}

/* --- finding by name -------------------------------------------------------- */

int
ks_experiment_desc_find_param (const KsExperimentDesc *desc,
                               const char             *name)
{
  g_return_val_if_fail (desc != NULL, -1);
  for (guint i = 0; name && i < desc->n_params; i++)
    if (strcmp (desc->params[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
ks_experiment_desc_find_column (const KsExperimentDesc *desc,
                                const char             *name)
{
  g_return_val_if_fail (desc != NULL, -1);
  for (guint i = 0; name && i < desc->n_columns; i++)
    if (strcmp (desc->columns[i].name, name) == 0)
      return (int) i;
  return -1;
}

int
ks_experiment_desc_find_figure (const KsExperimentDesc *desc,
                                const char             *id)
{
  g_return_val_if_fail (desc != NULL, -1);
  for (guint i = 0; id && i < desc->n_figures; i++)
    if (strcmp (desc->figures[i].id, id) == 0)
      return (int) i;
  return -1;
}

/* Every unit a description may give: a unit is a key of the files ("ms")
 * and is shown translated ("мс"), so a new one is added here, for the
 * translators, or the description is refused (ks_experiment_desc_validate). */
static const char *const known_units[] = {
  NC_("unit", "ms"), NC_("unit", "us"), NC_("unit", "ns"), NC_("unit", "s"),
  NC_("unit", "B"), NC_("unit", "bytes"), NC_("unit", "MiB"), NC_("unit", "GB/s"),
  NC_("unit", "G/s"), NC_("unit", "M/s"), NC_("unit", "flop/B"), NC_("unit", "ulp"),
  NC_("unit", "x"), NC_("unit", "%"), NC_("unit", "steps"), NC_("unit", "shorts"),
};

static gboolean
unit_known (const char *unit)
{
  for (guint i = 0; unit != NULL && i < G_N_ELEMENTS (known_units); i++)
    if (strcmp (known_units[i], unit) == 0)
      return TRUE;
  return unit == NULL;
}

const char *
ks_unit_label (const char *unit)
{
  const char *label;

  if (unit == NULL || *unit == '\0')
    return unit;
  label = g_dpgettext2 (GETTEXT_PACKAGE, "unit", unit);
  /* The files' key is ASCII; where no translation says otherwise a reader
   * sees microseconds with the micro sign, in the window and the plots. */
  return strcmp (label, "us") == 0 ? "\302\265s" : label;
}

char *
ks_experiment_desc_name_label (const KsExperimentDesc *desc,
                               const char             *name)
{
  int c, p, d = -1;
  const char *label = name, *unit = NULL;

  g_return_val_if_fail (desc != NULL && name != NULL, NULL);
  c = ks_experiment_desc_find_column (desc, name);
  p = ks_experiment_desc_find_param (desc, name);
  for (guint i = 0; c < 0 && p < 0 && i < desc->n_device_info; i++)
    if (strcmp (desc->device_info[i].name, name) == 0)
      d = (int) i;
  if (c >= 0)
    label = desc->columns[c].label, unit = desc->columns[c].unit;
  else if (p >= 0)
    label = desc->params[p].label, unit = desc->params[p].unit;
  else if (d >= 0)
    label = desc->device_info[d].label, unit = desc->device_info[d].unit;
  /* A name nobody labelled is shown as it is, not looked up in the
   * catalogue.  (Not by comparing pointers: the compiler may merge a name
   * and its label when they are the same text, "residual".) */
  if (c >= 0 || p >= 0 || d >= 0)
    label = _(label);
  return unit ? g_strdup_printf ("%s, %s", label, ks_unit_label (unit)) : g_strdup (label);
}

/* --- validation -------------------------------------------------------------- */

static gboolean
bad_desc (GError    **error,
          const char *id,
          const char *format,
          const char *name)
{
  g_autofree char *what = g_strdup_printf (format, name);

  g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
               "experiment %s: %s", id ? id : "(no id)", what);
  return FALSE;
}

static gboolean
valid_name (const char *name)
{
  if (name == NULL || !g_ascii_islower (name[0]))
    return FALSE;
  for (const char *p = name; *p; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '_')
      return FALSE;
  /* The points' own keys in the files. */
  return strcmp (name, "device") != 0 && strcmp (name, "error") != 0 && strcmp (name, "reps") != 0;
}

/* Parameter i's -X is its own: a letter no other parameter and no option
 * of every run takes. */
static gboolean
short_name_free (const KsExperimentDesc *desc,
                 guint                   i)
{
  char c = desc->params[i].short_name;

  if (!g_ascii_isalpha (c) || strchr (KS_RUN_SHORT_NAMES, c) != NULL)
    return FALSE;
  for (guint j = 0; j < desc->n_params; j++)
    if (j != i && desc->params[j].short_name == c)
      return FALSE;
  return TRUE;
}

/* A choice's id is what the measuring functions see: two alike would be
 * one choice to them (as are ids left 0). */
static gboolean
choice_ids_unique (const KsParamSpec *p)
{
  for (const KsChoice *c = p->choices; c->value; c++)
    for (const KsChoice *d = p->choices; d != c; d++)
      if (d->id == c->id)
        return FALSE;
  return TRUE;
}

static gboolean
validate_params (const KsExperimentDesc *desc,
                 GError                **error)
{
  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *p = &desc->params[i];

      if (!valid_name (p->name) || p->label == NULL)
        return bad_desc (error, desc->id, "parameter \"%s\" needs a name of a-z, 0-9, _ "
                         "(not device, error or reps) and a label", p->name);
      if (ks_experiment_desc_find_param (desc, p->name) != (int) i ||
          ks_experiment_desc_find_column (desc, p->name) >= 0)
        return bad_desc (error, desc->id, "the name \"%s\" is used twice", p->name);
      if (p->type == KS_PARAM_CHOICE && (p->choices == NULL || p->choices[0].value == NULL))
        return bad_desc (error, desc->id, "choice parameter \"%s\" has no choices", p->name);
      if (p->type == KS_PARAM_CHOICE && !choice_ids_unique (p))
        return bad_desc (error, desc->id, "the choices of \"%s\" need an id each (their enum), none twice", p->name);
      if (p->short_name != 0 && !short_name_free (desc, i))
        return bad_desc (error, desc->id, "the short option of \"%s\" must be a letter that no other "
                         "parameter and no option of every run (-d, -h, -q, -r) takes", p->name);
      if (p->when.param && (ks_experiment_desc_find_param (desc, p->when.param) < 0 ||
                            strcmp (p->when.param, p->name) == 0))
        return bad_desc (error, desc->id, "parameter \"%s\" applies when a parameter it lacks has a value",
                         p->name);
      if (p->output != KS_OUTPUT_NONE &&
          (p->type != KS_PARAM_TEXT || p->sweepable || (p->output == KS_OUTPUT_FOLDER) != (p->output_names != NULL)))
        return bad_desc (error, desc->id, "output \"%s\" must be a TEXT parameter that is not swept, with "
                         "output_names where it is a folder", p->name);
      if (p->default_value && p->type != KS_PARAM_FILE)
        {
          g_autoptr(GPtrArray) axis = ks_param_parse_axis (p, p->default_value, NULL);
          if (axis == NULL)
            return bad_desc (error, desc->id, "the default of \"%s\" is not one of its values", p->name);
        }
      for (const KsChoice *c = p->presets; c != NULL && c->value != NULL; c++)
        {
          g_autoptr(GPtrArray) axis = NULL;

          if (!p->sweepable || c->label == NULL || (*c->value == '\0' && p->device_default == NULL)
              || (*c->value != '\0' && !(axis = ks_param_parse_axis (p, c->value, NULL))))
            return bad_desc (error, desc->id, "a preset of \"%s\" needs a label and an axis it takes "
                             "(\"\" only with a device default), on a sweepable parameter", p->name);
        }
    }
  return TRUE;
}

static gboolean
validate_units (const KsExperimentDesc *desc,
                GError                **error)
{
  const char *unknown = NULL;

  for (guint i = 0; i < desc->n_params && unknown == NULL; i++)
    unknown = unit_known (desc->params[i].unit) ? NULL : desc->params[i].unit;
  for (guint i = 0; i < desc->n_columns && unknown == NULL; i++)
    unknown = unit_known (desc->columns[i].unit) ? NULL : desc->columns[i].unit;
  for (guint i = 0; i < desc->n_device_info && unknown == NULL; i++)
    unknown = unit_known (desc->device_info[i].unit) ? NULL : desc->device_info[i].unit;
  for (guint i = 0; i < desc->n_paper_values && unknown == NULL; i++)
    unknown = unit_known (desc->paper_values[i].unit) ? NULL : desc->paper_values[i].unit;
  if (unknown != NULL)
    return bad_desc (error, desc->id, "the unit \"%s\" is not in known_units[] "
                     "(ks-experiment-desc.c), where the translators find it", unknown);
  return TRUE;
}

static gboolean
validate_columns (const KsExperimentDesc *desc,
                  GError                **error)
{
  for (guint i = 0; i < desc->n_columns; i++)
    {
      const KsColumnSpec *c = &desc->columns[i];

      if (!valid_name (c->name) || c->label == NULL)
        return bad_desc (error, desc->id, "column \"%s\" needs a name of a-z, 0-9, _ "
                         "(not device, error or reps) and a label", c->name);
      if (ks_experiment_desc_find_column (desc, c->name) != (int) i)
        return bad_desc (error, desc->id, "the column \"%s\" is declared twice", c->name);
    }
  return TRUE;
}

static gboolean
names_something (const KsExperimentDesc *desc,
                 const char             *name)
{
  return ks_experiment_desc_find_param (desc, name) >= 0 || ks_experiment_desc_find_column (desc, name) >= 0;
}

static gboolean
validate_figures (const KsExperimentDesc *desc,
                  GError                **error)
{
  for (guint i = 0; i < desc->n_figures; i++)
    {
      const KsFigureSpec *f = &desc->figures[i];
      int h = ks_experiment_desc_find_column (desc, f->highlight);

      if (f->id == NULL || ks_experiment_desc_find_figure (desc, f->id) != (int) i)
        return bad_desc (error, desc->id, "figure \"%s\" needs an id of its own", f->id);
      if (!names_something (desc, f->x) || ks_experiment_desc_find_column (desc, f->y) < 0)
        return bad_desc (error, desc->id, "figure \"%s\" needs an x (a parameter or column) and a y "
                         "(a column) the experiment has", f->id);
      if (f->x_param && (ks_experiment_desc_find_param (desc, f->x_param) < 0 ||
                         ks_experiment_desc_find_column (desc, f->x) < 0))
        return bad_desc (error, desc->id, "figure \"%s\": x_param names a parameter that a column x stands for",
                         f->id);
      if (f->series_by && ks_experiment_desc_find_param (desc, f->series_by) < 0)
        return bad_desc (error, desc->id, "figure \"%s\" draws a curve per value of a parameter it lacks",
                         f->id);
      if (f->y2 && ks_experiment_desc_find_column (desc, f->y2) < 0)
        return bad_desc (error, desc->id, "figure \"%s\" draws a right axis of a column it lacks", f->id);
      if (f->y2 && f->categorical_x)
        return bad_desc (error, desc->id, "figure \"%s\" has bars and a right axis: draw two figures",
                         f->id);
      if (f->highlight && (h < 0 || desc->columns[h].kind != KS_COLUMN_BOOL))
        return bad_desc (error, desc->id, "figure \"%s\" highlights by a column that is not a BOOL one",
                         f->id);
    }
  return TRUE;
}

gboolean
ks_experiment_desc_validate (const KsExperimentDesc *desc,
                             GError                **error)
{
  g_return_val_if_fail (desc != NULL, FALSE);

  if (desc->id == NULL || desc->title == NULL || desc->paper == NULL)
    return bad_desc (error, desc->id, "%s", "an id, a title and a paper are needed");
  if (desc->set_up == NULL || desc->measure_one_rep == NULL)
    return bad_desc (error, desc->id, "%s", "set_up and measure_one_rep are needed");
  if (desc->size_param && ks_experiment_desc_find_param (desc, desc->size_param) < 0)
    return bad_desc (error, desc->id, "the size parameter \"%s\" is not one of its parameters",
                     desc->size_param);
  return validate_params (desc, error) && validate_columns (desc, error) && validate_units (desc, error)
         && validate_figures (desc, error);
}

