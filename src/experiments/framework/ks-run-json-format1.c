/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run-json-format1.c: format 1, the results files the Gauss pages wrote
 * before experiments had descriptions, read straight into a KsRun of the
 * description the file names (gauss-size or gauss-wg).
 *
 * The shipped runs were converted to format 2 (issue 29); this stays so
 * that a run a user saved then, alone or inside a session, still opens.
 * Its members map by name onto the description's parameters, columns and
 * device information: "median_ms", "min_ms" and "max_ms" are time_ms and
 * its spread, "kernel_ms" {"gauss_fwd": ...} the columns NAME_ms,
 * "fwd_local" [x, y] fwd_local_x and _y, "prediction" {"ogs", "usable"}
 * ogs_predicted and ogs_usable, and the run-wide "launch" the graph and
 * blocked switches. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-run-json-private.h"
#include "ks-types.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

static JsonNode *
get_node (JsonObject  *o,
          const char  *name,
          JsonNodeType type,
          gboolean     nullable,
          GError     **error)
{
  JsonNode *node = json_object_get_member (o, name);

  if (node == NULL || (JSON_NODE_HOLDS_NULL (node) && !nullable))
    return ks_run_json_fail (error, _("The results file has no \"%s\""), name), NULL;
  if (!JSON_NODE_HOLDS_NULL (node) && JSON_NODE_TYPE (node) != type)
    return ks_run_json_fail (error, _("In the results file, \"%s\" has the wrong type"), name), NULL;
  return node;
}

static JsonObject *
get_object (JsonObject *o,
            const char *name,
            GError    **error)
{
  JsonNode *node = get_node (o, name, JSON_NODE_OBJECT, FALSE, error);

  return node ? json_node_get_object (node) : NULL;
}

/* A string member; *out NULL where it is null and nullable. */
static gboolean
get_text (JsonObject  *o,
          const char  *name,
          gboolean     nullable,
          const char **out,
          GError     **error)
{
  JsonNode *node = get_node (o, name, JSON_NODE_VALUE, nullable, error);

  *out = NULL;
  if (node == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    return ks_run_json_fail (error, _("In the results file, \"%s\" has the wrong type"), name);
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_number (JsonObject *o,
            const char *name,
            double     *out,
            GError    **error)
{
  KsJsonValue v;

  ks_run_json_value_from_node (json_object_get_member (o, name), &v);
  if (v.kind == KS_JSON_ABSENT)
    return ks_run_json_fail (error, _("The results file has no \"%s\""), name);
  return ks_run_json_value_number (&v, name, out, error);
}

/* A whole number in [0, max]. */
static gboolean
get_whole (JsonObject *o,
           const char *name,
           double      max,
           double     *out,
           GError    **error)
{
  if (!get_number (o, name, out, error))
    return FALSE;
  if (!(*out >= 0 && *out <= max && *out == floor (*out)))
    return ks_run_json_fail (error, _("In the results file, \"%s\" must be a whole number from 0 to %.0f"),
                             name, max);
  return TRUE;
}

/* text must be one of the choices of the description's parameter param
 * (or "driver", which a group-size sweep's file may name). */
static gboolean
check_choice (const KsExperimentDesc *desc,
              const char             *param,
              const char             *text,
              GError                **error)
{
  int k = ks_experiment_desc_find_param (desc, param);

  if (g_strcmp0 (text, "driver") == 0 && g_str_equal (param, "local"))
    return TRUE;
  for (const KsChoice *c = k >= 0 ? desc->params[k].choices : NULL; c && c->value; c++)
    if (g_strcmp0 (c->value, text) == 0)
      return TRUE;
  return ks_run_json_fail (error, _("In the results file, \"%s\" has an unknown value \"%s\""), param,
                           text ? text : "null");
}

static void
set_param (KsRun      *run,
           KsRunPoint *p,
           const char *name,
           GVariant   *v)
{
  int k = ks_experiment_desc_find_param (run->desc, name);

  g_variant_ref_sink (v);
  if (k >= 0)
    {
      g_clear_pointer (&p->params[k], g_variant_unref);
      p->params[k] = g_steal_pointer (&v);
    }
  g_clear_pointer (&v, g_variant_unref);
}

static gboolean
set_column (KsRun      *run,
            KsRunPoint *p,
            const char *column,
            JsonObject *o,
            const char *member,
            GError    **error)
{
  int c = ks_experiment_desc_find_column (run->desc, column);
  double v;

  if (!get_number (o, member, &v, error))
    return FALSE;
  if (c >= 0)
    p->values[c] = v;
  return TRUE;
}

/* "fwd_local" / "fwd_groups": two whole numbers, as columns NAME_x, NAME_y. */
static gboolean
set_pair (KsRun      *run,
          KsRunPoint *p,
          JsonObject *o,
          const char *name,
          GError    **error)
{
  JsonNode *node = get_node (o, name, JSON_NODE_ARRAY, FALSE, error);
  JsonArray *a = node ? json_node_get_array (node) : NULL;

  if (a == NULL)
    return FALSE;
  if (json_array_get_length (a) != 2)
    return ks_run_json_fail (error, _("In the results file, \"%s\" must have 2 whole numbers"), name);
  for (guint i = 0; i < 2; i++)
    {
      JsonNode *e = json_array_get_element (a, i);
      g_autofree char *column = g_strdup_printf ("%s_%c", name, i ? 'y' : 'x');
      int c = ks_experiment_desc_find_column (run->desc, column);

      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64 || json_node_get_int (e) < 0)
        return ks_run_json_fail (error, _("In the results file, \"%s\" must have 2 whole numbers"), name);
      if (c >= 0)
        p->values[c] = json_node_get_int (e);
    }
  return TRUE;
}

/* What a measured point holds beside its parameters. */
static gboolean
read_measured (KsRun      *run,
               KsRunPoint *p,
               JsonObject *o,
               GError    **error)
{
  int time = ks_experiment_desc_find_column (run->desc, "time_ms");
  JsonObject *kernels = get_object (o, "kernel_ms", error);
  g_autoptr(GList) names = NULL;

  if (kernels == NULL || time < 0 || !set_column (run, p, "time_ms", o, "median_ms", error) ||
      !get_number (o, "min_ms", &p->lo[time], error) || !get_number (o, "max_ms", &p->hi[time], error) ||
      !set_column (run, p, "kernels_ms", o, "kernels_ms", error) ||
      !set_column (run, p, "residual", o, "residual", error) ||
      !set_column (run, p, "launches", o, "launches", error) ||
      !set_pair (run, p, o, "fwd_local", error) || !set_pair (run, p, o, "fwd_groups", error))
    return FALSE;
  names = json_object_get_members (kernels);
  for (GList *l = names; l; l = l->next)
    {
      g_autofree char *column = g_strdup_printf ("%s_ms", (const char *) l->data);

      if (!set_column (run, p, column, kernels, l->data, error))
        return FALSE;
    }
  p->values[ks_experiment_desc_find_column (run->desc, "capture_ms")] = 0;
  if (json_object_has_member (o, "capture_ms") && !set_column (run, p, "capture_ms", o, "capture_ms", error))
    return FALSE;
  ks_run_derive (run, p);
  return TRUE;
}

/* The run-wide settings each point repeats. */
typedef struct {
  const char  *precision, *range, *local;
  KsLaunchMode launch;
  double       seed;
  gboolean     wg_sweep;   /* gauss-wg: the group size is an axis */
} Settings;

static KsRunPoint *
read_point (KsRun          *run,
            const Settings *s,
            JsonNode       *node,
            GError        **error)
{
  g_autoptr(KsRunPoint) p = ks_run_point_new (run);
  JsonObject *o = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *local, *message;
  double n, wg, reps;

  if (o == NULL)
    return ks_run_json_fail (error, _("In the results file, a point is not an object")), NULL;
  if (!get_whole (o, "n", G_MAXINT, &n, error) || !get_text (o, "local", FALSE, &local, error) ||
      !check_choice (run->desc, "local", local, error) || !get_whole (o, "wg", G_MAXINT, &wg, error) ||
      !get_whole (o, "reps", G_MAXINT, &reps, error) || !get_text (o, "error", TRUE, &message, error))
    return NULL;
  set_param (run, p, "n", g_variant_new_int64 ((gint64) n));
  set_param (run, p, "precision", g_variant_new_string (s->precision));
  set_param (run, p, "range", g_variant_new_string (s->range));
  /* A driver's choice in a group-size sweep is none of its choices. */
  if (strcmp (local, "driver") != 0 || !s->wg_sweep)
    set_param (run, p, "local", g_variant_new_string (local));
  if (strcmp (local, "driver") != 0)
    set_param (run, p, "wg", g_variant_new_int64 ((gint64) wg));
  set_param (run, p, "graph", g_variant_new_boolean (s->launch == KS_LAUNCH_GRAPH));
  set_param (run, p, "blocked", g_variant_new_boolean (s->launch == KS_LAUNCH_BLOCKED));
  set_param (run, p, "seed", g_variant_new_int64 ((gint64) s->seed));
  p->reps = (guint) reps;
  p->error = g_strdup (message);
  if (message == NULL && !read_measured (run, p, o, error))
    return NULL;
  return g_steal_pointer (&p);
}

static gboolean
read_device (KsRun      *run,
             JsonObject *root,
             GError    **error)
{
  JsonObject *o = get_object (root, "device", error);
  JsonObject *prediction = get_object (root, "prediction", error);
  g_autoptr(KsRunDevice) d = ks_run_device_new ();
  const char *id, *name, *platform, *driver;
  const char *numbers[] = { "pwgsm", "cores_per_cu", "compute_units" };
  double v, ogs, usable;

  if (o == NULL || prediction == NULL || !get_text (o, "id", FALSE, &id, error) ||
      !get_text (o, "name", FALSE, &name, error) || !get_text (o, "platform", TRUE, &platform, error) ||
      !get_text (o, "driver", TRUE, &driver, error) ||
      !get_whole (prediction, "ogs", G_MAXINT64, &ogs, error) ||
      !get_whole (prediction, "usable", G_MAXINT64, &usable, error))
    return FALSE;
  d->id = g_strdup (id);
  d->name = g_strdup (name);
  d->platform = g_strdup (platform);
  d->driver = g_strdup (driver);
  d->backend = g_strdup (g_str_has_prefix (id, "cuda:") ? "cuda" : strcmp (id, "host") == 0 ? "host" : "opencl");
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      if (!get_whole (o, numbers[i], G_MAXINT, &v, error))
        return FALSE;
      ks_run_device_set_info (d, numbers[i], v);
    }
  /* 0: the rule could not predict on that device. */
  if (ogs > 0)
    {
      ks_run_device_set_info (d, "ogs_predicted", ogs);
      ks_run_device_set_info (d, "ogs_usable", usable);
    }
  g_ptr_array_add (run->devices, g_steal_pointer (&d));
  return TRUE;
}

static gboolean
read_settings (KsRun      *run,
               JsonObject *root,
               Settings   *s,
               GError    **error)
{
  JsonObject *o = get_object (root, "parameters", error);
  const char *launch = NULL;
  double warmup, reps;

  if (o == NULL || !get_text (o, "precision", FALSE, &s->precision, error) ||
      !check_choice (run->desc, "precision", s->precision, error) ||
      !get_text (o, "range", FALSE, &s->range, error) || !check_choice (run->desc, "range", s->range, error) ||
      !get_text (o, "local", FALSE, &s->local, error) || !check_choice (run->desc, "local", s->local, error) ||
      !get_whole (o, "warmup", G_MAXINT, &warmup, error) || !get_whole (o, "reps", G_MAXINT, &reps, error) ||
      !get_whole (o, "seed", G_MAXUINT32, &s->seed, error))
    return FALSE;
  /* Files from before graph mode have no "launch": streams. */
  s->launch = KS_LAUNCH_STREAM;
  if (json_object_has_member (o, "launch") &&
      (!get_text (o, "launch", FALSE, &launch, error) || !ks_launch_mode_from_string (launch, &s->launch)))
    return launch == NULL ? FALSE
                          : ks_run_json_fail (error, _("In the results file, \"%s\" has an unknown value \"%s\""),
                                              "launch", launch);
  run->warmup = (guint) warmup;
  run->reps = (guint) reps;
  g_hash_table_replace (run->settings, g_strdup ("precision"), g_strdup (s->precision));
  g_hash_table_replace (run->settings, g_strdup ("range"), g_strdup (s->range));
  g_hash_table_replace (run->settings, g_strdup ("local"), g_strdup (s->local));
  g_hash_table_replace (run->settings, g_strdup ("seed"), g_strdup_printf ("%.0f", s->seed));
  g_hash_table_replace (run->settings, g_strdup ("graph"), g_strdup (s->launch == KS_LAUNCH_GRAPH ? "true" : "false"));
  if (ks_experiment_desc_find_param (run->desc, "blocked") >= 0)
    g_hash_table_replace (run->settings, g_strdup ("blocked"),
                          g_strdup (s->launch == KS_LAUNCH_BLOCKED ? "true" : "false"));
  return TRUE;
}

KsRun *
ks_run_json_read_format1 (const KsExperimentDesc *desc,
                          JsonObject             *root,
                          GError                **error)
{
  g_autoptr(KsRun) run = NULL;
  const char *axes_wg[] = { "n", "wg", NULL }, *axes_n[] = { "n", NULL };
  const char *date, *command, *stop;
  int wg = ks_experiment_desc_find_param (desc, "wg");
  gboolean wg_sweep = wg >= 0 && desc->params[wg].sweepable;
  JsonNode *complete, *points;
  Settings s;

  if (ks_experiment_desc_find_column (desc, "time_ms") < 0 || ks_experiment_desc_find_param (desc, "local") < 0)
    return ks_run_json_fail (error, _("The results file has format 1, which %s never had"), desc->id), NULL;
  run = ks_run_new (desc);
  s.wg_sweep = wg_sweep;
  if (!read_device (run, root, error) || !read_settings (run, root, &s, error) ||
      !get_text (root, "date", TRUE, &date, error) || !get_text (root, "command", TRUE, &command, error) ||
      !get_text (root, "stop_reason", TRUE, &stop, error) ||
      !(complete = get_node (root, "complete", JSON_NODE_VALUE, FALSE, error)) ||
      !(points = get_node (root, "points", JSON_NODE_ARRAY, FALSE, error)))
    return NULL;
  if (json_node_get_value_type (complete) != G_TYPE_BOOLEAN)
    return ks_run_json_fail (error, _("In the results file, \"%s\" has the wrong type"), "complete"), NULL;
  run->date = g_strdup (date);
  run->command = g_strdup (command);
  run->stop_reason = g_strdup (stop);
  run->complete = json_node_get_boolean (complete);
  g_strfreev (run->axes);
  run->axes = g_strdupv ((char **) (wg_sweep ? axes_wg : axes_n));
  for (guint i = 0; i < json_array_get_length (json_node_get_array (points)); i++)
    {
      KsRunPoint *p = read_point (run, &s, json_array_get_element (json_node_get_array (points), i), error);

      if (p == NULL)
        return NULL;
      ks_run_add_point (run, p);
    }
  run->n_planned = run->points->len;
  return g_steal_pointer (&run);
}
