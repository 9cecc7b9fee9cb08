/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-results.h"
#include "ks-json-guard.h"
#include "ks-run-json-private.h"
#include "ks-io-file.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (ks-results-error-quark, ks_results_error)

/* Bumped when the JSON layout changes incompatibly. */
#define KS_RESULTS_FORMAT 1

const char *
ks_experiment_kind_to_string (KsExperimentKind kind)
{
  return kind == KS_EXPERIMENT_GAUSS_WG ? "gauss-wg" : "gauss-size";
}

gboolean
ks_experiment_kind_from_string (const char       *s,
                                KsExperimentKind *out)
{
  if (g_strcmp0 (s, "gauss-size") == 0)
    *out = KS_EXPERIMENT_GAUSS_SIZE;
  else if (g_strcmp0 (s, "gauss-wg") == 0)
    *out = KS_EXPERIMENT_GAUSS_WG;
  else
    return FALSE;
  return TRUE;
}

KsPoint *
ks_point_new (void)
{
  return g_new0 (KsPoint, 1);
}

void
ks_point_free (KsPoint *point)
{
  if (point == NULL)
    return;
  g_free (point->error);
  g_free (point);
}

KsResults *
ks_results_new (KsExperimentKind kind)
{
  KsResults *results = g_new0 (KsResults, 1);

  results->kind = kind;
  results->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_point_free);
  return results;
}

void
ks_results_free (KsResults *results)
{
  if (results == NULL)
    return;
  g_free (results->device_id);
  g_free (results->device_name);
  g_free (results->platform);
  g_free (results->driver);
  g_free (results->date);
  g_free (results->command);
  g_free (results->stop_reason);
  g_ptr_array_unref (results->points);
  g_free (results);
}

void
ks_results_add_point (KsResults     *results,
                      const KsPoint *point)
{
  KsPoint *copy;

  g_return_if_fail (results != NULL && point != NULL);

  copy = g_memdup2 (point, sizeof *point);
  copy->error = g_strdup (point->error);
  g_ptr_array_add (results->points, copy);
}

const KsPoint *
ks_results_best_for_n (const KsResults *results,
                       guint            n)
{
  const KsPoint *best = NULL;

  g_return_val_if_fail (results != NULL, NULL);

  for (guint i = 0; i < results->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (results->points, i);
      if (p->n == n && p->error == NULL && (best == NULL || p->median_ms < best->median_ms))
        best = p;
    }
  return best;
}

GArray *
ks_results_get_sizes (const KsResults *results)
{
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (results != NULL, sizes);

  for (guint i = 0; i < results->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (results->points, i);
      gboolean seen = FALSE;

      for (guint j = 0; j < sizes->len && !seen; j++)
        seen = g_array_index (sizes, guint, j) == p->n;
      if (!seen)
        g_array_append_val (sizes, p->n);
    }
  return sizes;
}

/* --- CSV ------------------------------------------------------------------- */

static void
append_double (GString *s,
               double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    return;  /* empty cell */
  g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", v));
}

static void
append_csv_text (GString    *s,
                 const char *text)
{
  if (text == NULL)
    return;
  g_string_append_c (s, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (s, '"');
      g_string_append_c (s, *p == '\n' ? ' ' : *p);
    }
  g_string_append_c (s, '"');
}

gboolean
ks_results_write_csv (const KsResults *results,
                      const char      *path,
                      GError         **error)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (results != NULL && path != NULL, FALSE);

  /* The header on the first line and no comment lines: a spreadsheet and
   * pandas.read_csv open it as it is.  The context (device, settings, the
   * prediction, whether the run was complete) lives in the JSON. */
  g_string_append (s, "n,n_plus_1_prime,local_policy,wg,median_ms,min_ms,max_ms,kernels_ms,"
                      "fwd_pre_ms,fwd_ms,bwd_prepare_ms,bwd_ms,launches,residual,"
                      "fwd_local0,fwd_local1,fwd_groups0,fwd_groups1,launch,capture_ms,error\n");
  for (guint i = 0; i < results->points->len; i++)
    {
      const KsPoint *p = g_ptr_array_index (results->points, i);

      g_string_append_printf (s, "%u,%d,%s,%u,", p->n, p->n1_prime ? 1 : 0,
                              ks_local_policy_to_string (p->local), p->wg);
      if (p->error == NULL)
        {
          append_double (s, p->median_ms); g_string_append_c (s, ',');
          append_double (s, p->min_ms); g_string_append_c (s, ',');
          append_double (s, p->max_ms); g_string_append_c (s, ',');
          append_double (s, p->kernels_ms); g_string_append_c (s, ',');
          for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
            {
              append_double (s, p->kernel_ms[k]);
              g_string_append_c (s, ',');
            }
          g_string_append_printf (s, "%u,", p->launches);
          append_double (s, p->residual);
          g_string_append_printf (s, ",%u,%u,%u,%u,%s,", p->fwd_local[0], p->fwd_local[1],
                                  p->fwd_groups[0], p->fwd_groups[1],
                                  ks_launch_mode_to_string (results->launch));
          append_double (s, p->capture_ms);
          g_string_append_c (s, ',');
        }
      else
        {
          g_string_append_printf (s, ",,,,,,,,,,,,,,%s,,", ks_launch_mode_to_string (results->launch));
          append_csv_text (s, p->error);
        }
      g_string_append_c (s, '\n');
    }

  if (!ks_io_write_file (path, s->str, s->len, &local_error))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_IO,
                   _("Cannot write %s: %s"), path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* --- JSON ------------------------------------------------------------------ */

static void
add_double_member (JsonBuilder *b,
                   const char  *name,
                   double       v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  json_builder_set_member_name (b, name);
  if (isnan (v))
    {
      json_builder_add_null_value (b);
      return;
    }
  /* JsonGenerator writes %.17g and appends ".0" where it sees no point:
   * 1e+308 becomes 1e+308.0, which nothing reads back.  Such numbers, and
   * the infinities JSON has no spelling for, go as strings that
   * get_double reads back exactly. */
  g_ascii_formatd (buf, sizeof buf, "%.17g", v);
  if (isinf (v) || (strchr (buf, 'e') && !strchr (buf, '.')))
    json_builder_add_string_value (b, isinf (v) ? (v > 0 ? "inf" : "-inf") : g_ascii_dtostr (buf, sizeof buf, v));
  else
    json_builder_add_double_value (b, v);
}

static void
add_string_member (JsonBuilder *b,
                   const char  *name,
                   const char  *v)
{
  json_builder_set_member_name (b, name);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

static void
add_int_member (JsonBuilder *b,
                const char  *name,
                gint64       v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_device (JsonBuilder     *b,
            const KsResults *results)
{
  json_builder_set_member_name (b, "device");
  json_builder_begin_object (b);
  add_string_member (b, "id", results->device_id);
  add_string_member (b, "name", results->device_name);
  add_string_member (b, "platform", results->platform);
  add_string_member (b, "driver", results->driver);
  add_int_member (b, "pwgsm", results->pwgsm);
  add_int_member (b, "cores_per_cu", results->cores_per_cu);
  add_int_member (b, "compute_units", results->compute_units);
  json_builder_end_object (b);
}

static void
add_settings (JsonBuilder     *b,
              const KsResults *results)
{
  json_builder_set_member_name (b, "parameters");
  json_builder_begin_object (b);
  add_string_member (b, "precision", ks_precision_to_string (results->precision));
  add_string_member (b, "range", ks_range_policy_to_string (results->range));
  add_string_member (b, "local", ks_local_policy_to_string (results->local));
  add_int_member (b, "wg", results->wg);
  add_string_member (b, "launch", ks_launch_mode_to_string (results->launch));
  add_int_member (b, "warmup", results->warmup);
  add_int_member (b, "reps", results->reps);
  add_int_member (b, "seed", results->seed);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "prediction");
  json_builder_begin_object (b);
  add_int_member (b, "ogs", (gint64) results->ogs_predicted);
  add_int_member (b, "usable", (gint64) results->ogs_usable);
  json_builder_end_object (b);
}

static void
add_int_pair (JsonBuilder *b,
              const char  *name,
              const guint *pair)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  json_builder_add_int_value (b, pair[0]);
  json_builder_add_int_value (b, pair[1]);
  json_builder_end_array (b);
}

static void
add_point (JsonBuilder     *b,
           const KsResults *results,
           const KsPoint   *p)
{
  json_builder_begin_object (b);
  add_int_member (b, "n", p->n);
  json_builder_set_member_name (b, "n_plus_1_prime");
  json_builder_add_boolean_value (b, p->n1_prime);
  add_string_member (b, "local", ks_local_policy_to_string (p->local));
  add_int_member (b, "wg", p->wg);
  add_int_member (b, "reps", p->reps);
  add_double_member (b, "median_ms", p->median_ms);
  add_double_member (b, "min_ms", p->min_ms);
  add_double_member (b, "max_ms", p->max_ms);
  add_double_member (b, "kernels_ms", p->kernels_ms);
  json_builder_set_member_name (b, "kernel_ms");
  json_builder_begin_object (b);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    add_double_member (b, ks_gauss_kernel_name (k), p->kernel_ms[k]);
  json_builder_end_object (b);
  add_int_member (b, "launches", p->launches);
  add_double_member (b, "residual", p->residual);
  add_int_pair (b, "fwd_local", p->fwd_local);
  add_int_pair (b, "fwd_groups", p->fwd_groups);
  if (results->launch == KS_LAUNCH_GRAPH)
    add_double_member (b, "capture_ms", p->capture_ms);
  add_string_member (b, "error", p->error);
  json_builder_end_object (b);
}

char *
ks_results_to_json (const KsResults *results)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (results != NULL, NULL);

  json_builder_begin_object (b);
  add_int_member (b, "format", KS_RESULTS_FORMAT);
  add_string_member (b, "experiment", ks_experiment_kind_to_string (results->kind));
  add_device (b, results);
  add_string_member (b, "date", results->date);
  add_string_member (b, "command", results->command);
  add_settings (b, results);
  json_builder_set_member_name (b, "complete");
  json_builder_add_boolean_value (b, results->complete);
  add_string_member (b, "stop_reason", results->stop_reason);

  json_builder_set_member_name (b, "points");
  json_builder_begin_array (b);
  for (guint i = 0; i < results->points->len; i++)
    add_point (b, results, g_ptr_array_index (results->points, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

/* Reading: every member is checked for its type, so a damaged file gives a
 * message naming what is wrong instead of zeros. */

static gboolean
get_member (JsonObject  *o,
            const char  *name,
            GType        type,
            JsonNode   **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (o, name);

  if (node == NULL || (type != G_TYPE_NONE && JSON_NODE_HOLDS_NULL (node)))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("The results file has no \"%s\""), name);
      return FALSE;
    }
  if (type == G_TYPE_NONE)
    {
      *out = node;
      return TRUE;
    }
  if ((type == JSON_TYPE_OBJECT && !JSON_NODE_HOLDS_OBJECT (node)) ||
      (type == JSON_TYPE_ARRAY && !JSON_NODE_HOLDS_ARRAY (node)) ||
      (type != JSON_TYPE_OBJECT && type != JSON_TYPE_ARRAY &&
       (!JSON_NODE_HOLDS_VALUE (node) ||
        (type == G_TYPE_STRING && json_node_get_value_type (node) != G_TYPE_STRING) ||
        (type == G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_DOUBLE &&
         json_node_get_value_type (node) != G_TYPE_INT64) ||
        (type == G_TYPE_INT64 && json_node_get_value_type (node) != G_TYPE_INT64) ||
        (type == G_TYPE_BOOLEAN && json_node_get_value_type (node) != G_TYPE_BOOLEAN))))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("In the results file, \"%s\" has the wrong type"), name);
      return FALSE;
    }
  *out = node;
  return TRUE;
}

static gboolean
get_int (JsonObject *o, const char *name, gint64 min, gint64 max, gint64 *out, GError **error)
{
  JsonNode *node;

  if (!get_member (o, name, G_TYPE_INT64, &node, error))
    return FALSE;
  *out = json_node_get_int (node);
  if (*out < min || *out > max)
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("In the results file, \"%s\" = %lld is out of range"), name, (long long) *out);
      return FALSE;
    }
  return TRUE;
}

static gboolean
get_double (JsonObject *o, const char *name, double *out, GError **error)
{
  JsonNode *node = json_object_get_member (o, name);

  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    {
      *out = NAN;
      return TRUE;
    }
  /* A number add_double_member had to write as a string. */
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (node);
      char *end = NULL;

      *out = strcmp (text, "inf") == 0 ? INFINITY : strcmp (text, "-inf") == 0 ? -INFINITY
                                                                               : g_ascii_strtod (text, &end);
      if (end != NULL && (end == text || *end != '\0' || !isfinite (*out)))
        {
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("In the results file, \"%s\" has the wrong type"), name);
          return FALSE;
        }
      return TRUE;
    }
  if (!get_member (o, name, G_TYPE_DOUBLE, &node, error))
    return FALSE;
  *out = json_node_get_double (node);
  return TRUE;
}

static gboolean
get_string (JsonObject *o, const char *name, gboolean nullable, char **out, GError **error)
{
  JsonNode *node = json_object_get_member (o, name);

  if (nullable && (node == NULL || JSON_NODE_HOLDS_NULL (node)))
    {
      *out = NULL;
      return TRUE;
    }
  if (!get_member (o, name, G_TYPE_STRING, &node, error))
    return FALSE;
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

static gboolean
get_object (JsonObject *o, const char *name, JsonObject **out, GError **error)
{
  JsonNode *node;

  if (!get_member (o, name, JSON_TYPE_OBJECT, &node, error))
    return FALSE;
  *out = json_node_get_object (node);
  return TRUE;
}

static gboolean
parse_enum (JsonObject *o, const char *name, gboolean (*from_string) (const char *, gpointer),
            gpointer out, GError **error)
{
  g_autofree char *s = NULL;

  if (!get_string (o, name, FALSE, &s, error))
    return FALSE;
  if (!from_string (s, out))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("In the results file, \"%s\" has an unknown value \"%s\""), name, s);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_point (JsonObject *o,
             KsPoint    *p,
             GError    **error)
{
  JsonObject *kernels;
  JsonNode *node;
  gint64 v;

  if (!get_int (o, "n", 1, G_MAXINT, &v, error)) return FALSE;
  p->n = v;
  if (!get_member (o, "n_plus_1_prime", G_TYPE_BOOLEAN, &node, error)) return FALSE;
  p->n1_prime = json_node_get_boolean (node);
  if (!parse_enum (o, "local", (gpointer) ks_local_policy_from_string, &p->local, error)) return FALSE;
  if (!get_int (o, "wg", 0, G_MAXINT, &v, error)) return FALSE;
  p->wg = v;
  if (!get_int (o, "reps", 0, G_MAXINT, &v, error)) return FALSE;
  p->reps = v;
  if (!get_double (o, "median_ms", &p->median_ms, error) ||
      !get_double (o, "min_ms", &p->min_ms, error) ||
      !get_double (o, "max_ms", &p->max_ms, error) ||
      !get_double (o, "kernels_ms", &p->kernels_ms, error) ||
      !get_double (o, "residual", &p->residual, error) ||
      !get_object (o, "kernel_ms", &kernels, error))
    return FALSE;
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    if (!get_double (kernels, ks_gauss_kernel_name (k), &p->kernel_ms[k], error))
      return FALSE;
  if (!get_int (o, "launches", 0, G_MAXINT, &v, error)) return FALSE;
  p->launches = v;
  for (guint pass = 0; pass < 2; pass++)
    {
      const char *name = pass == 0 ? "fwd_local" : "fwd_groups";
      guint *dst = pass == 0 ? p->fwd_local : p->fwd_groups;
      JsonArray *arr;

      if (!get_member (o, name, JSON_TYPE_ARRAY, &node, error))
        return FALSE;
      arr = json_node_get_array (node);
      if (json_array_get_length (arr) != 2)
        {
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("In the results file, \"%s\" must have 2 numbers"), name);
          return FALSE;
        }
      /* Whole numbers only: ["a", "b"], [1.5, 2.7] or [null, null] is a
       * damaged file, not zeros or a GLib critical. */
      for (guint k = 0; k < 2; k++)
        {
          JsonNode *e = json_array_get_element (arr, k);

          if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_INT64 ||
              json_node_get_int (e) < 0 || json_node_get_int (e) > G_MAXINT)
            {
              g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                           _("In the results file, \"%s\" must have 2 whole numbers"), name);
              return FALSE;
            }
          dst[k] = (guint) json_node_get_int (e);
        }
    }
  /* Only graph runs have it. */
  if (json_object_has_member (o, "capture_ms") && !get_double (o, "capture_ms", &p->capture_ms, error))
    return FALSE;
  if (!get_string (o, "error", TRUE, &p->error, error))
    return FALSE;
  if (p->error == NULL && !(p->median_ms >= 0.0))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("In the results file, the point n = %u has no time"), p->n);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_device (JsonObject  *root,
              KsResults   *results,
              GError     **error)
{
  JsonObject *device;
  gint64 v;

  if (!get_object (root, "device", &device, error) ||
      !get_string (device, "id", FALSE, &results->device_id, error) ||
      !get_string (device, "name", FALSE, &results->device_name, error) ||
      !get_string (device, "platform", TRUE, &results->platform, error) ||
      !get_string (device, "driver", TRUE, &results->driver, error))
    return FALSE;
  if (!get_int (device, "pwgsm", 0, G_MAXINT, &v, error)) return FALSE;
  results->pwgsm = v;
  if (!get_int (device, "cores_per_cu", 0, G_MAXINT, &v, error)) return FALSE;
  results->cores_per_cu = v;
  if (!get_int (device, "compute_units", 0, G_MAXINT, &v, error)) return FALSE;
  results->compute_units = v;
  return TRUE;
}

/* "parameters" and "prediction". */
static gboolean
parse_settings (JsonObject  *root,
                KsResults   *results,
                GError     **error)
{
  JsonObject *params, *prediction;
  gint64 v;

  if (!get_object (root, "parameters", &params, error) ||
      !parse_enum (params, "precision", (gpointer) ks_precision_from_string, &results->precision, error) ||
      !parse_enum (params, "range", (gpointer) ks_range_policy_from_string, &results->range, error) ||
      !parse_enum (params, "local", (gpointer) ks_local_policy_from_string, &results->local, error))
    return FALSE;
  if (!get_int (params, "wg", 0, G_MAXINT, &v, error)) return FALSE;
  results->wg = v;
  /* Files written before graph mode have no "launch": they were streams. */
  results->launch = KS_LAUNCH_STREAM;
  if (json_object_has_member (params, "launch") &&
      !parse_enum (params, "launch", (gpointer) ks_launch_mode_from_string, &results->launch, error))
    return FALSE;
  if (!get_int (params, "warmup", 0, G_MAXINT, &v, error)) return FALSE;
  results->warmup = v;
  if (!get_int (params, "reps", 0, G_MAXINT, &v, error)) return FALSE;
  results->reps = v;
  if (!get_int (params, "seed", 0, G_MAXUINT32, &v, error)) return FALSE;
  results->seed = v;

  if (!get_object (root, "prediction", &prediction, error)) return FALSE;
  if (!get_int (prediction, "ogs", 0, G_MAXINT64, &v, error)) return FALSE;
  results->ogs_predicted = v;
  if (!get_int (prediction, "usable", 0, G_MAXINT64, &v, error)) return FALSE;
  results->ogs_usable = v;
  return TRUE;
}

static gboolean
parse_points (JsonObject  *root,
              KsResults   *results,
              GError     **error)
{
  JsonNode *node;
  JsonArray *points;

  if (!get_member (root, "points", JSON_TYPE_ARRAY, &node, error))
    return FALSE;
  points = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (points); i++)
    {
      JsonNode *pn = json_array_get_element (points, i);
      KsPoint *p;

      if (!JSON_NODE_HOLDS_OBJECT (pn))
        {
          g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                       _("Point %u of the results file is not an object"), i + 1);
          return FALSE;
        }
      p = ks_point_new ();
      if (!parse_point (json_node_get_object (pn), p, error))
        {
          g_prefix_error (error, _("Point %u: "), i + 1);
          ks_point_free (p);
          return FALSE;
        }
      g_ptr_array_add (results->points, p);
    }
  return TRUE;
}

/* The top level: its format and experiment, checked before anything else. */
static KsResults *
parse_kind (JsonParser  *parser,
            GError     **error)
{
  g_autofree char *kind = NULL;
  KsResults *results;
  JsonObject *root;
  gint64 v;

  if (json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("Not a Kernelscope results file: the top level is not an object"));
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));
  if (!get_int (root, "format", 1, G_MAXINT, &v, error))
    return NULL;
  if (v > KS_RESULTS_FORMAT)
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("The results file has format %lld; this Kernelscope reads up to %d"),
                   (long long) v, KS_RESULTS_FORMAT);
      return NULL;
    }
  if (!get_string (root, "experiment", FALSE, &kind, error))
    return NULL;
  results = ks_results_new (KS_EXPERIMENT_GAUSS_SIZE);
  if (!ks_experiment_kind_from_string (kind, &results->kind))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("Unknown experiment \"%s\" in the results file"), kind);
      ks_results_free (results);
      return NULL;
    }
  return results;
}

static KsResults *
results_from_tree (const char *data,
                   gssize      length,
                   GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(KsResults) results = NULL;
  JsonObject *root;
  JsonNode *node;

  if (!ks_json_parser_load_data (parser, data, length, &local_error))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_PARSE,
                   _("Not a valid JSON file: %s"), local_error->message);
      return NULL;
    }
  if (!(results = parse_kind (parser, error)))
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  if (!parse_device (root, results, error) ||
      !get_string (root, "date", TRUE, &results->date, error) ||
      !get_string (root, "command", TRUE, &results->command, error) ||
      !parse_settings (root, results, error))
    return NULL;
  if (!get_member (root, "complete", G_TYPE_BOOLEAN, &node, error))
    return NULL;
  results->complete = json_node_get_boolean (node);
  if (!get_string (root, "stop_reason", TRUE, &results->stop_reason, error) ||
      !parse_points (root, results, error))
    return NULL;
  return g_steal_pointer (&results);
}

KsResults *
ks_results_from_json (const char *data,
                      gssize      length,
                      GError    **error)
{
  gsize start, end;

  g_return_val_if_fail (data != NULL, NULL);

  if (length < 0)
    length = strlen (data);
  /* The file without its points through json-glib, the points through
   * the scanner; anything either finds amiss, and json-glib reads the
   * whole file, for the message. */
  if (ks_run_json_find_member (data, length, "points", &start, &end))
    {
      g_autoptr(GString) rest = g_string_sized_new (length - (end - start) + 3);
      g_autoptr(KsResults) results = NULL;

      g_string_append_len (rest, data, start);
      g_string_append (rest, "[]");
      g_string_append_len (rest, data + end, length - end);
      if ((results = results_from_tree (rest->str, rest->len, NULL)) &&
          ks_results_scan_points (results, data + start, end - start))
        return g_steal_pointer (&results);
    }
  return results_from_tree (data, length, error);
}

KsResults *
ks_results_load_json (const char *path,
                      GError    **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize length = 0;
  GStatBuf st;

  /* A FIFO would block the read, /dev/zero never end it. */
  if (g_stat (path, &st) == 0 && (!S_ISREG (st.st_mode) || st.st_size > KS_RESULTS_MAX_FILE_SIZE))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_IO,
                   !S_ISREG (st.st_mode) ? _("Cannot read %s: not a regular file")
                                         : _("Cannot read %s: larger than a results file can be"), path);
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &length, &local_error))
    {
      g_set_error (error, KS_RESULTS_ERROR, KS_RESULTS_ERROR_IO,
                   _("Cannot read %s: %s"), path, local_error->message);
      return NULL;
    }
  {
    KsResults *results = ks_results_from_json (data, length, error);
    if (results == NULL)
      g_prefix_error (error, "%s: ", path);
    return results;
  }
}
