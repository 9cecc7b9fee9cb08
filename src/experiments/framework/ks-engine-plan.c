/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine-plan.c: which points a run measures, on which device, checked
 * before the first one: values, defaults that depend on the device (said
 * out loud), the devices, and the number of points, counted in 64 bits and
 * refused above KS_MAX_POINTS before anything is allocated. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-engine-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

void
ks_engine_plan_free (KsEnginePlan *plan)
{
  if (plan == NULL)
    return;
  for (guint i = 0; i < plan->n_params; i++)
    g_clear_pointer (&plan->axes[i], g_ptr_array_unref);
  g_free (plan->axes);
  g_clear_pointer (&plan->base, ks_config_free);
  g_clear_pointer (&plan->left_out, g_ptr_array_unref);
  g_clear_object (&plan->device);
  g_free (plan);
}

/* --- the cursor ---------------------------------------------------------------- */

struct _KsEngineCursor {
  const KsEnginePlan *plan;
  guint              *idx;
  gboolean            started;
  KsConfig           *config;
};

KsEngineCursor *
ks_engine_cursor_new (const KsEnginePlan *plan)
{
  KsEngineCursor *cursor = g_new0 (KsEngineCursor, 1);

  cursor->plan = plan;
  cursor->idx = g_new0 (guint, MAX (plan->n_params, 1));
  cursor->config = ks_config_copy (plan->base);
  return cursor;
}

void
ks_engine_cursor_free (KsEngineCursor *cursor)
{
  if (cursor == NULL)
    return;
  g_free (cursor->idx);
  ks_config_free (cursor->config);
  g_free (cursor);
}

static guint
axis_len (const KsEnginePlan *plan,
          guint               i)
{
  return plan->axes[i] ? plan->axes[i]->len : 1;
}

/* The odometer: the last parameter turns fastest.  FALSE past the end. */
static gboolean
advance (KsEngineCursor *cursor)
{
  const KsEnginePlan *plan = cursor->plan;

  if (!cursor->started)
    return cursor->started = TRUE;
  for (guint k = plan->n_params; k-- > 0;)
    {
      if (++cursor->idx[k] < axis_len (plan, k))
        return TRUE;
      cursor->idx[k] = 0;
    }
  return FALSE;
}

/* Fills the config at the current indices and clears what does not apply
 * there.  FALSE when it repeats an earlier point: a parameter that does not
 * apply is not swept. */
static gboolean
fill (KsEngineCursor *cursor)
{
  const KsEnginePlan *plan = cursor->plan;
  const KsExperimentDesc *desc = ks_config_get_desc (plan->base);
  gboolean changed = TRUE;

  for (guint i = 0; i < plan->n_params; i++)
    ks_config_put_value (cursor->config, i, plan->axes[i] ? plan->axes[i]->pdata[cursor->idx[i]] : NULL);
  /* A condition may hang on a parameter that itself does not apply. */
  for (guint pass = 0; changed && pass <= plan->n_params; pass++)
    {
      changed = FALSE;
      for (guint i = 0; i < plan->n_params; i++)
        if (ks_config_value (cursor->config, i) &&
            !ks_config_applies (cursor->config, &desc->params[i], plan->backend))
          {
            ks_config_put_value (cursor->config, i, NULL);
            changed = TRUE;
          }
    }
  for (guint i = 0; i < plan->n_params; i++)
    if (cursor->idx[i] > 0 && ks_config_value (cursor->config, i) == NULL)
      return FALSE;
  return TRUE;
}

gboolean
ks_engine_cursor_next (KsEngineCursor *cursor)
{
  while (advance (cursor))
    if (fill (cursor))
      return TRUE;
  return FALSE;
}

const KsConfig *
ks_engine_cursor_get (KsEngineCursor *cursor)
{
  return cursor->config;
}

const guint *
ks_engine_cursor_get_indices (KsEngineCursor *cursor)
{
  return cursor->idx;
}

/* --- preparing --------------------------------------------------------------------- */

static void
strv_add (GStrv      *strv,
          const char *text)
{
  guint n = g_strv_length (*strv);

  *strv = g_renew (char *, *strv, n + 2);
  (*strv)[n] = g_strdup (text);
  (*strv)[n + 1] = NULL;
}

static void
add_note (KsEngine   *self,
          const char *note)
{
  strv_add (&self->notes, note);
}

/* A note about the user's own options: also among the warnings. */
static void
add_warning (KsEngine   *self,
             const char *note)
{
  strv_add (&self->notes, note);
  strv_add (&self->warnings, note);
}

static gboolean
backend_allowed (guint     mask,
                 KsBackend backend)
{
  return mask == KS_BACKENDS_ALL || (mask & (1u << backend));
}

static char *
backends_words (guint mask)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint b = KS_BACKEND_HOST; b <= KS_BACKEND_CUDA; b++)
    if (mask & (1u << b))
      g_string_append_printf (s, "%s%s", s->len ? _(" or ") : "", ks_backend_to_string (b));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The value that the files the caller gave imply for spec (a choice),
 * which the caller left out: the one value their "when" names (--file F
 * applies only with --source file, so it says --source file), into *by
 * the first of them; NULL where none does or two disagree.  Only a file:
 * naming one says what the user wants, where a number given beside its
 * condition (--depth without --shape tall) may be a slip, which the
 * "is not used" warning names. */
static const char *
implied_value (KsEngine *self, const KsParamSpec *spec, const KsParamSpec **by)
{
  const KsExperimentDesc *desc = self->desc;
  const char *value = NULL;

  *by = NULL;
  for (guint j = 0; j < desc->n_params; j++)
    {
      const KsParamSpec *other = &desc->params[j];
      if (!self->given[j] || g_strcmp0 (other->when.param, spec->name) != 0 ||
          other->when.values[0] == NULL || other->when.values[1] != NULL)
        continue;
      /* Given parameters that apply under different choices (--file
       * beside --cells) imply nothing. */
      if (value != NULL && strcmp (value, other->when.values[0]) != 0)
        return NULL;
      value = other->when.values[0];
      if (*by == NULL && other->type == KS_PARAM_FILE)
        *by = other;
    }
  return *by != NULL ? value : NULL;
}

/* One parameter's values on plan's device when the caller left it to its
 * default (or to what a parameter given implies: implied_value); NULL axis
 * (and TRUE) where it does not apply. */
static gboolean
resolve_default (KsEngine          *self,
                 KsEnginePlan      *plan,
                 const KsParamSpec *spec,
                 GPtrArray        **axis,
                 GError           **error)
{
  gboolean applies = ks_config_applies (plan->base, spec, plan->backend);
  g_autofree char *why = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;
  const KsParamSpec *by = NULL;
  const char *implied;

  *axis = NULL;
  /* A device default only where the parameter means something here. */
  text = ks_param_default_text (spec, applies ? plan->device : NULL, plan->base, &why, &local_error);
  if (local_error)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  /* Only where the default is one other choice (not a sweep that holds
   * the implied value too): where the given parameter would go unused. */
  implied = spec->type == KS_PARAM_CHOICE ? implied_value (self, spec, &by) : NULL;
  if (implied != NULL && text != NULL && strchr (text, ',') == NULL && strcmp (text, implied) != 0)
    {
      g_free (text);
      g_free (why);
      text = g_strdup (implied);
      why = g_strdup_printf (_("implied by --%s"), ks_param_spec_option (by));
    }
  if (text == NULL)
    {
      if (!applies)
        return TRUE;
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID, _("%s needs --%s"),
                   self->desc->id, ks_param_spec_option (spec));
      return FALSE;
    }
  if (!(*axis = ks_param_parse_axis (spec, text, error)))
    return FALSE;
  if (why)
    {
      g_autofree char *note = g_strdup_printf ("--%s %s: %s", ks_param_spec_option (spec),
                                               text, why);
      add_note (self, note);
    }
  g_hash_table_replace (self->run->settings, g_strdup (spec->name), g_steal_pointer (&text));
  return TRUE;
}

/* Whether the value given for spec is left out on plan's device rather
 * than refused: it means nothing there, and the front end asked for that
 * or another of the run's devices takes it (-d pocl -d host --range
 * shrinking compares the host's only range with the GPU's). */
static gboolean
leave_out_here (KsEngine           *self,
                const KsEnginePlan *plan,
                const KsParamSpec  *spec)
{
  if (backend_allowed (spec->backends, plan->backend))
    return FALSE;
  if (self->leave_out_foreign)
    return TRUE;
  for (guint d = 0; d < self->devices->len; d++)
    if (backend_allowed (spec->backends, ks_device_get_backend (self->devices->pdata[d])))
      return TRUE;
  return FALSE;
}

static gboolean
plan_axes (KsEngine     *self,
           KsEnginePlan *plan,
           GError      **error)
{
  const KsExperimentDesc *desc = self->desc;

  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];

      if (self->given[i] && leave_out_here (self, plan, spec))
        {
          /* The default stands in the base, as where the caller gave
           * nothing (every point clears it); the run's settings keep what
           * was given.  A front end that asked says it its own way. */
          g_autofree char *text = ks_param_default_text (spec, NULL, plan->base, NULL, NULL);

          g_ptr_array_insert (plan->left_out, plan->left_out->len - 1, (gpointer) spec->name);
          if (!self->leave_out_foreign)
            {
              g_autofree char *where = backends_words (spec->backends);
              g_autofree char *note = g_strdup_printf (_("--%s is left out on %s, a %s device: it applies only on "
                                                         "%s devices"),
                                                       ks_param_spec_option (spec), ks_device_get_name (plan->device),
                                                       ks_backend_to_string (plan->backend), where);
              add_warning (self, note);
            }
          if (text != NULL && !(plan->axes[i] = ks_param_parse_axis (spec, text, error)))
            return FALSE;
        }
      else if (self->given[i])
        {
          plan->axes[i] = g_ptr_array_ref (self->given[i]);
          g_hash_table_replace (self->run->settings, g_strdup (spec->name), g_strdup (self->given_text[i]));
          /* Refuse outright what this device cannot take, rather than
           * silently measure without it. */
          if (!backend_allowed (spec->backends, plan->backend))
            {
              g_autofree char *where = backends_words (spec->backends);
              g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                           _("--%s applies only on %s devices; %s is a %s device"),
                           ks_param_spec_option (spec), where,
                           ks_device_get_name (plan->device), ks_backend_to_string (plan->backend));
              return FALSE;
            }
        }
      else if (!resolve_default (self, plan, spec, &plan->axes[i], error))
        return FALSE;
      /* Later defaults may depend on this one's first value. */
      ks_config_put_value (plan->base, i, plan->axes[i] ? plan->axes[i]->pdata[0] : NULL);
    }
  return TRUE;
}

/* A value the caller set that no point will use, said rather than dropped. */
static void
note_unused (KsEngine     *self,
             KsEnginePlan *plan)
{
  const KsExperimentDesc *desc = self->desc;

  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];
      int other = spec->when.param ? ks_experiment_desc_find_param (desc, spec->when.param) : -1;
      g_autofree char *note = NULL;
      g_autofree char *values = NULL;

      if (!self->given[i] || other < 0 || axis_len (plan, other) != 1 ||
          g_ptr_array_find (plan->left_out, spec->name, NULL) ||
          ks_config_applies (plan->base, spec, plan->backend))
        continue;
      values = g_strjoinv ("|", (char **) spec->when.values);
      note = g_strdup_printf (_("--%s is not used: it applies only when --%s is %s"),
                              ks_param_spec_option (spec),
                              ks_param_spec_option (&desc->params[other]),
                              values);
      add_warning (self, note);
    }
}

/* The product of the axes in 64 bits, refused above KS_MAX_POINTS before
 * a point is made; then the points themselves, without the repeats. */
static gboolean
count_points (KsEngine     *self,
              KsEnginePlan *plan,
              GError      **error)
{
  g_autoptr(GString) product = g_string_new (NULL);
  g_autoptr(KsEngineCursor) cursor = NULL;
  guint64 bound = 1;

  for (guint i = 0; i < plan->n_params; i++)
    {
      guint len = axis_len (plan, i);

      if (len > 1)
        g_string_append_printf (product, "%s%s %u", product->len ? " × " : "", self->desc->params[i].name, len);
      bound = bound > KS_MAX_POINTS ? bound : bound * len;
    }
  if (bound > KS_MAX_POINTS)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_TOO_LARGE,
                   _("The sweep has more than %d points (%s); make an axis shorter"), KS_MAX_POINTS, product->str);
      return FALSE;
    }
  cursor = ks_engine_cursor_new (plan);
  while (ks_engine_cursor_next (cursor))
    plan->n_points++;
  return TRUE;
}

/* The time-left estimate's plan: each point's size and group (the other
 * parameters' combination, apart per device). */
static void
plan_eta (KsEngine *self)
{
  const KsExperimentDesc *desc = self->desc;
  int size = desc->size_param ? ks_experiment_desc_find_param (desc, desc->size_param) : -1;
  g_autofree double *sizes = g_new0 (double, MAX (self->total, 1));
  g_autofree guint *groups = g_new0 (guint, MAX (self->total, 1));
  guint k = 0, offset = 0;

  for (guint d = 0; d < self->plans->len; d++)
    {
      KsEnginePlan *plan = self->plans->pdata[d];
      g_autoptr(KsEngineCursor) cursor = ks_engine_cursor_new (plan);
      guint n_groups = 1;

      for (guint i = 0; i < plan->n_params; i++)
        if ((int) i != size)
          n_groups *= axis_len (plan, i);
      while (ks_engine_cursor_next (cursor))
        {
          const guint *idx = ks_engine_cursor_get_indices (cursor);
          guint g = 0;

          for (guint i = 0; i < plan->n_params; i++)
            if ((int) i != size)
              g = g * axis_len (plan, i) + idx[i];
          sizes[k] = size >= 0 ? g_variant_get_int64 (plan->axes[size]->pdata[idx[size]]) : 1;
          groups[k++] = offset + g;
        }
      offset += n_groups;
    }
  self->eta = ks_eta_new_plan ((guint) self->total, sizes, groups, offset);
  /* Most experiments' points cost as their size (a bench of 16 times the
   * systems took 16 times as long); Gauss elimination says 3. */
  ks_eta_set_exponent (self->eta, desc->size_exponent > 0 ? desc->size_exponent : 1.0);
}

static void
record_axes (KsEngine *self)
{
  g_autoptr(GStrvBuilder) axes = g_strv_builder_new ();

  for (guint i = 0; i < self->desc->n_params; i++)
    for (guint d = 0; d < self->plans->len; d++)
      if (axis_len (self->plans->pdata[d], i) > 1)
        {
          g_strv_builder_add (axes, self->desc->params[i].name);
          break;
        }
  g_strfreev (self->run->axes);
  self->run->axes = g_strv_builder_end (axes);
  self->run->warmup = self->warmup;
  self->run->reps = self->reps;
  self->run->n_planned = self->total;
  g_free (self->run->command);
  self->run->command = g_strdup (self->command);
}

gboolean
ks_engine_prepare (KsEngine  *self,
                   GError   **error)
{
  const KsExperimentDesc *desc;

  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);

  desc = self->desc;
  if (self->prepared)
    return TRUE;
  if (self->devices->len == 0)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID, _("No device to run %s on"), desc->id);
      return FALSE;
    }
  /* Before the description's check, which may make the frames' folder. */
  if (!ks_engine_check_files (self, error))
    return FALSE;
  g_ptr_array_set_size (self->plans, 0);
  self->total = 0;
  for (guint d = 0; d < self->devices->len; d++)
    {
      KsEnginePlan *plan = g_new0 (KsEnginePlan, 1);

      g_ptr_array_add (self->plans, plan);
      plan->device = g_object_ref (self->devices->pdata[d]);
      plan->backend = ks_device_get_backend (plan->device);
      plan->n_params = desc->n_params;
      plan->axes = g_new0 (GPtrArray *, MAX (desc->n_params, 1));
      plan->base = ks_config_new (desc);
      plan->left_out = g_ptr_array_new ();
      g_ptr_array_add (plan->left_out, NULL);
      if (!backend_allowed (desc->backends, plan->backend))
        {
          g_autofree char *where = backends_words (desc->backends);
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("%s runs on %s devices; %s is a %s device"), desc->id, where,
                       ks_device_get_name (plan->device), ks_backend_to_string (plan->backend));
          return FALSE;
        }
      /* The description's own check first: it says best what is wrong. */
      if (!plan_axes (self, plan, error) ||
          (desc->check && !desc->check (desc, plan->device, plan->base, error)) ||
          !count_points (self, plan, error))
        return FALSE;
      note_unused (self, plan);
      self->total += plan->n_points;
      if (self->total > KS_MAX_POINTS)
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_TOO_LARGE,
                       _("The sweep has more than %d points over its devices; make an axis shorter"),
                       KS_MAX_POINTS);
          return FALSE;
        }
    }
  plan_eta (self);
  record_axes (self);
  self->prepared = TRUE;
  return TRUE;
}
