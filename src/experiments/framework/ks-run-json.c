/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run-json.c: the self-describing results file (format 2).
 *
 * Written by hand rather than by JsonGenerator, which writes 1e308 as
 * "1e+308.0" (a number it cannot read back): every number goes through
 * ks_run_format_double (the shortest text that reads back exactly), and the values JSON
 * has no spelling for (infinity, not-a-number) are written as the strings
 * "inf", "-inf" and "nan" and read back as such.  Read with json-glib, every
 * field checked for its type; a wrong one is an error that names it. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-run.h"
#include "ks-run-json-private.h"
#include "ks-json-guard.h"
#include "ks-registry.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

/* A results file nests four deep; anything far deeper is not one, and
 * json-glib's recursive parser would overflow the stack on 100,000. */

/* --- writing ------------------------------------------------------------------ */

static void
json_string (GString    *s,
             const char *text)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *quoted = NULL;
  const char *p;

  if (text == NULL)
    {
      g_string_append (s, "null");
      return;
    }
  /* Most strings need no escaping: a generator per string made writing a
   * large run slow. */
  for (p = text; *p && *p != '"' && *p != '\\' && (guchar) *p >= 0x20; p++)
    ;
  if (*p == '\0')
    {
      g_string_append_c (s, '"');
      g_string_append (s, text);
      g_string_append_c (s, '"');
      return;
    }
  node = json_node_new (JSON_NODE_VALUE);
  json_node_set_string (node, text);
  quoted = json_to_string (node, FALSE);
  g_string_append (s, quoted);
}

static void
json_number (GString *s,
             double   v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v))
    g_string_append (s, "\"nan\"");
  else if (isinf (v))
    g_string_append (s, v > 0 ? "\"inf\"" : "\"-inf\"");
  else if (v == 0 && signbit (v))
    g_string_append (s, "-0.0");   /* "-0" would read back as the integer 0 */
  else
    g_string_append (s, ks_run_format_double (buf, v));
}

static void
json_key (GString    *s,
          const char *indent,
          const char *key,
          gboolean    first)
{
  g_string_append_printf (s, "%s\n%s", first ? "" : ",", indent);
  json_string (s, key);
  g_string_append (s, ": ");
}

static void
json_column_value (GString            *s,
                   const KsColumnSpec *c,
                   double              v)
{
  char buf[32];

  if (c->kind == KS_COLUMN_BOOL && !isnan (v))
    g_string_append (s, v != 0 ? "true" : "false");
  else if (c->kind == KS_COLUMN_INT && isfinite (v) && fabs (v) < 9e15)
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.0f", v));
  else
    json_number (s, v);
}

static void
json_variant (GString  *s,
              GVariant *v)
{
  if (v == NULL)
    g_string_append (s, "null");
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    json_string (s, g_variant_get_string (v, NULL));
  else if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    json_number (s, g_variant_get_double (v));
  else
    {
      g_autofree char *text = ks_param_value_to_string (v);
      g_string_append (s, text);
    }
}

static const char *
reduction_name (KsReduction r)
{
  static const char *const names[] = { "median", "median+min+max", "min", "max", "mean", "sum", "last" };
  return (guint) r < G_N_ELEMENTS (names) ? names[r] : "?";
}

static void
write_description (GString     *s,
                   const KsRun *run)
{
  const KsExperimentDesc *desc = run->desc;

  json_key (s, "  ", "parameters", FALSE);
  g_string_append (s, "[");
  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *p = &desc->params[i];

      g_string_append_printf (s, "%s\n    {", i ? "," : "");
      json_key (s, "      ", "name", TRUE), json_string (s, p->name);
      json_key (s, "      ", "label", FALSE), json_string (s, p->label);
      json_key (s, "      ", "type", FALSE), json_string (s, ks_param_type_to_string (p->type));
      json_key (s, "      ", "unit", FALSE), json_string (s, p->unit);
      json_key (s, "      ", "value", FALSE), json_string (s, g_hash_table_lookup (run->settings, p->name));
      g_string_append (s, "\n    }");
    }
  g_string_append (s, "\n  ]");

  json_key (s, "  ", "columns", FALSE);
  g_string_append (s, "[");
  for (guint i = 0; i < desc->n_columns; i++)
    {
      const KsColumnSpec *c = &desc->columns[i];

      g_string_append_printf (s, "%s\n    {", i ? "," : "");
      json_key (s, "      ", "name", TRUE), json_string (s, c->name);
      json_key (s, "      ", "label", FALSE), json_string (s, c->label);
      json_key (s, "      ", "unit", FALSE), json_string (s, c->unit);
      json_key (s, "      ", "reduction", FALSE),
        json_string (s, c->derive ? "derived" : reduction_name (c->reduce));
      g_string_append (s, "\n    }");
    }
  g_string_append (s, "\n  ]");

  json_key (s, "  ", "paper_values", FALSE);
  g_string_append (s, "[");
  for (guint i = 0; i < desc->n_paper_values; i++)
    {
      const KsPaperValue *v = &desc->paper_values[i];

      g_string_append_printf (s, "%s\n    {", i ? "," : "");
      json_key (s, "      ", "where", TRUE), json_string (s, v->where);
      json_key (s, "      ", "column", FALSE), json_string (s, v->column);
      json_key (s, "      ", "value", FALSE), json_number (s, v->value);
      json_key (s, "      ", "unit", FALSE), json_string (s, v->unit);
      json_key (s, "      ", "source", FALSE), json_string (s, v->source);
      json_key (s, "      ", "note", FALSE), json_string (s, v->note);
      if (v->label)
        json_key (s, "      ", "label", FALSE), json_string (s, v->label);
      g_string_append (s, "\n    }");
    }
  g_string_append (s, "\n  ]");
}

static void
write_devices (GString     *s,
               const KsRun *run)
{
  json_key (s, "  ", "devices", FALSE);
  g_string_append (s, "[");
  for (guint i = 0; i < run->devices->len; i++)
    {
      const KsRunDevice *d = run->devices->pdata[i];
      g_autoptr(GList) keys = g_list_sort (g_hash_table_get_keys (d->info), (GCompareFunc) strcmp);
      gboolean first = TRUE;

      g_string_append_printf (s, "%s\n    {", i ? "," : "");
      json_key (s, "      ", "id", TRUE), json_string (s, d->id);
      json_key (s, "      ", "name", FALSE), json_string (s, d->name);
      json_key (s, "      ", "platform", FALSE), json_string (s, d->platform);
      json_key (s, "      ", "driver", FALSE), json_string (s, d->driver);
      json_key (s, "      ", "backend", FALSE), json_string (s, d->backend);
      json_key (s, "      ", "info", FALSE), g_string_append (s, "{");
      for (GList *l = keys; l; l = l->next, first = FALSE)
        {
          json_key (s, "        ", l->data, first);
          json_number (s, ks_run_device_get_info (d, l->data));
        }
      g_string_append (s, first ? "}" : "\n      }");
      g_string_append (s, "\n    }");
    }
  g_string_append (s, "\n  ]");
}

static void
write_point (GString          *s,
             const KsRun      *run,
             const KsRunPoint *p)
{
  const KsExperimentDesc *desc = run->desc;

  g_string_append (s, "\n    {\"device\": ");
  g_string_append_printf (s, "%u", p->device);
  for (guint i = 0; i < desc->n_params; i++)
    {
      g_string_append (s, ", ");
      json_string (s, desc->params[i].name);
      g_string_append (s, ": ");
      json_variant (s, p->params[i]);
    }
  for (guint i = 0; i < desc->n_columns && p->error == NULL; i++)
    {
      const KsColumnSpec *c = &desc->columns[i];

      g_string_append_printf (s, ", \"%s\": ", c->name);
      json_column_value (s, c, p->values[i]);
      if (c->reduce == KS_REDUCE_MEDIAN_RANGE && c->derive == NULL)
        {
          g_string_append_printf (s, ", \"%s_min\": ", c->name);
          json_column_value (s, c, p->lo[i]);
          g_string_append_printf (s, ", \"%s_max\": ", c->name);
          json_column_value (s, c, p->hi[i]);
        }
    }
  g_string_append_printf (s, ", \"reps\": %u, \"error\": ", p->reps);
  json_string (s, p->error);
  g_string_append (s, "}");
}

char *
ks_run_to_json (const KsRun *run)
{
  g_autoptr(GString) s = g_string_new ("{");
  g_autoptr(GList) keys = NULL;
  gboolean first = TRUE;

  g_return_val_if_fail (run != NULL, NULL);

  json_key (s, "  ", "format", TRUE), g_string_append_printf (s, "%d", KS_RUN_FORMAT);
  json_key (s, "  ", "experiment", FALSE), json_string (s, run->desc->id);
  json_key (s, "  ", "title", FALSE), json_string (s, run->desc->title);
  json_key (s, "  ", "paper", FALSE), json_string (s, run->desc->paper);
  json_key (s, "  ", "date", FALSE), json_string (s, run->date);
  json_key (s, "  ", "command", FALSE), json_string (s, run->command);
  json_key (s, "  ", "warmup", FALSE), g_string_append_printf (s, "%u", run->warmup);
  json_key (s, "  ", "reps", FALSE), g_string_append_printf (s, "%u", run->reps);
  json_key (s, "  ", "complete", FALSE), g_string_append (s, run->complete ? "true" : "false");
  json_key (s, "  ", "stop_reason", FALSE), json_string (s, run->stop_reason);
  json_key (s, "  ", "points_planned", FALSE), g_string_append_printf (s, "%" G_GUINT64_FORMAT, run->n_planned);

  json_key (s, "  ", "settings", FALSE), g_string_append (s, "{");
  keys = g_list_sort (g_hash_table_get_keys (run->settings), (GCompareFunc) strcmp);
  for (GList *l = keys; l; l = l->next, first = FALSE)
    {
      json_key (s, "    ", l->data, first);
      json_string (s, g_hash_table_lookup (run->settings, l->data));
    }
  g_string_append (s, first ? "}" : "\n  }");

  json_key (s, "  ", "axes", FALSE), g_string_append (s, "[");
  for (guint i = 0; run->axes[i]; i++)
    {
      g_string_append (s, i ? ", " : "");
      json_string (s, run->axes[i]);
    }
  g_string_append (s, "]");

  write_description (s, run);
  write_devices (s, run);

  json_key (s, "  ", "points", FALSE), g_string_append (s, "[");
  for (guint i = 0; i < run->points->len; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      write_point (s, run, run->points->pdata[i]);
    }
  g_string_append (s, run->points->len ? "\n  ]\n}\n" : "]\n}\n");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* --- reading ------------------------------------------------------------------ */

/* A member that must be there (and not null, unless nullable: then *out is
 * NULL) with the JSON type wanted. */
static gboolean
member (JsonObject  *o,
        const char  *name,
        JsonNodeType type,
        GType        value_type,
        gboolean     nullable,
        JsonNode   **out,
        GError     **error)
{
  JsonNode *node = json_object_get_member (o, name);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return nullable || ks_run_json_fail (error, _("The results file has no \"%s\""), name);
  if (JSON_NODE_TYPE (node) != type ||
      (type == JSON_NODE_VALUE && json_node_get_value_type (node) != value_type &&
       !(value_type == G_TYPE_DOUBLE && json_node_get_value_type (node) == G_TYPE_INT64)))
    return ks_run_json_fail (error, _("In the results file, \"%s\" has the wrong type"), name);
  *out = node;
  return TRUE;
}

static gboolean
get_string (JsonObject *o, const char *name, gboolean nullable, char **out, GError **error)
{
  JsonNode *node;

  if (!member (o, name, JSON_NODE_VALUE, G_TYPE_STRING, nullable, &node, error))
    return FALSE;
  *out = node ? g_strdup (json_node_get_string (node)) : NULL;
  return TRUE;
}

static gboolean
get_uint (JsonObject *o, const char *name, guint64 max, guint64 *out, GError **error)
{
  JsonNode *node;
  gint64 v;

  if (!member (o, name, JSON_NODE_VALUE, G_TYPE_INT64, FALSE, &node, error))
    return FALSE;
  v = json_node_get_int (node);
  if (v < 0 || (guint64) v > max)
    return ks_run_json_fail (error, _("In the results file, \"%s\" = %lld is out of range"), name, (long long) v);
  *out = (guint64) v;
  return TRUE;
}

/* --- a point's values, from either reader ------------------------------------------ */

void
ks_run_json_value_from_node (JsonNode    *node,
                             KsJsonValue *v)
{
  memset (v, 0, sizeof *v);
  if (node == NULL)
    v->kind = KS_JSON_ABSENT;
  else if (JSON_NODE_HOLDS_NULL (node))
    v->kind = KS_JSON_NULL;
  else if (!JSON_NODE_HOLDS_VALUE (node))
    v->kind = KS_JSON_OTHER;
  else
    switch (json_node_get_value_type (node))
      {
      case G_TYPE_INT64:
        v->kind = KS_JSON_INT, v->i = json_node_get_int (node);
        break;
      case G_TYPE_DOUBLE:
        v->kind = KS_JSON_DOUBLE, v->d = json_node_get_double (node);
        break;
      case G_TYPE_BOOLEAN:
        v->kind = KS_JSON_BOOL, v->b = json_node_get_boolean (node);
        break;
      case G_TYPE_STRING:
        v->kind = KS_JSON_STRING, v->s = json_node_get_string (node);
        break;
      default:
        v->kind = KS_JSON_OTHER;
        break;
      }
}

static gboolean
node_number (JsonNode *node, const char *name, double *out, GError **error)
{
  KsJsonValue v;

  ks_run_json_value_from_node (node, &v);
  return ks_run_json_value_number (&v, name, out, error);
}

/* A point of the tree: its members into values, one per slot. */
static gboolean
parse_point (KsRun          *run,
             KsRunJsonSlots *slots,
             JsonObject     *o,
             KsRunPoint     *p,
             gboolean       *written,
             GError        **error)
{
  g_autofree KsJsonValue *values = g_new (KsJsonValue, slots->n);

  for (guint i = 0; i < slots->n; i++)
    ks_run_json_value_from_node (json_object_get_member (o, slots->names[i]), &values[i]);
  for (guint c = 0; c < run->desc->n_columns; c++)
    written[c] |= values[ks_run_json_column_slot (slots, c)].kind != KS_JSON_ABSENT;
  return ks_run_json_point_from_values (run, slots, values, p, error);
}

static gboolean
parse_devices (KsRun      *run,
               JsonArray  *devices,
               GError    **error)
{
  for (guint i = 0; i < json_array_get_length (devices); i++)
    {
      JsonNode *n = json_array_get_element (devices, i);
      g_autoptr(KsRunDevice) d = ks_run_device_new ();
      JsonNode *info;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        return ks_run_json_fail (error, _("Device %u of the results file is not an object"), i + 1);
      if (!get_string (json_node_get_object (n), "id", FALSE, &d->id, error) ||
          !get_string (json_node_get_object (n), "name", FALSE, &d->name, error) ||
          !get_string (json_node_get_object (n), "platform", TRUE, &d->platform, error) ||
          !get_string (json_node_get_object (n), "driver", TRUE, &d->driver, error) ||
          !get_string (json_node_get_object (n), "backend", TRUE, &d->backend, error))
        return FALSE;
      info = json_object_get_member (json_node_get_object (n), "info");
      if (info && JSON_NODE_HOLDS_OBJECT (info))
        {
          g_autoptr(GList) names = json_object_get_members (json_node_get_object (info));
          for (GList *l = names; l; l = l->next)
            {
              double v;
              if (!node_number (json_object_get_member (json_node_get_object (info), l->data), l->data, &v, error))
                return FALSE;
              ks_run_device_set_info (d, l->data, v);
            }
        }
      g_ptr_array_add (run->devices, g_steal_pointer (&d));
    }
  return TRUE;
}

static gboolean
parse_header (KsRun      *run,
              JsonObject *root,
              GError    **error)
{
  JsonNode *node;
  guint64 v;

  if (!get_string (root, "date", TRUE, &run->date, error) ||
      !get_string (root, "command", TRUE, &run->command, error) ||
      !get_string (root, "stop_reason", TRUE, &run->stop_reason, error))
    return FALSE;
  if (!get_uint (root, "warmup", G_MAXUINT, &v, error))
    return FALSE;
  run->warmup = (guint) v;
  if (!get_uint (root, "reps", G_MAXUINT, &v, error))
    return FALSE;
  run->reps = (guint) v;
  if (!get_uint (root, "points_planned", G_MAXUINT64 >> 1, &run->n_planned, error))
    return FALSE;
  if (!member (root, "complete", JSON_NODE_VALUE, G_TYPE_BOOLEAN, FALSE, &node, error))
    return FALSE;
  run->complete = json_node_get_boolean (node);

  if ((node = json_object_get_member (root, "settings")) && JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(GList) names = json_object_get_members (json_node_get_object (node));
      for (GList *l = names; l; l = l->next)
        {
          char *text = NULL;
          if (!get_string (json_node_get_object (node), l->data, TRUE, &text, error))
            return FALSE;
          if (text)
            g_hash_table_replace (run->settings, g_strdup (l->data), text);
        }
    }
  if ((node = json_object_get_member (root, "axes")) && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (a); i++)
        {
          JsonNode *e = json_array_get_element (a, i);
          if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_STRING ||
              ks_experiment_desc_find_param (run->desc, json_node_get_string (e)) < 0)
            return ks_run_json_fail (error, _("In the results file, \"axes\" names something that is not a parameter"));
          g_strv_builder_add (b, json_node_get_string (e));
        }
      g_strfreev (run->axes);
      run->axes = g_strv_builder_end (b);
    }
  return TRUE;
}

/* A derived column that no point of the file has was added to the
 * experiment after the file was written: it is derived now, from what the
 * file has, as the run would have derived it (a column the file has keeps
 * the values written, NaN included). */
static void
derive_missing (KsRun *run, const gboolean *written)
{
  const KsExperimentDesc *desc = run->desc;

  for (guint c = 0; c < desc->n_columns; c++)
    {
      const KsColumnSpec *column = &desc->columns[c];

      if (column->derive == NULL || written[c])
        continue;
      for (guint i = 0; i < run->points->len; i++)
        {
          KsRunPoint *p = run->points->pdata[i];
          p->values[c] = column->derive (run, p, column);
        }
    }
}

static gboolean
parse_points (KsRun          *run,
              KsRunJsonSlots *slots,
              JsonArray      *points,
              gboolean       *written,
              GError        **error)
{
  for (guint i = 0; i < json_array_get_length (points); i++)
    {
      JsonNode *pn = json_array_get_element (points, i);
      g_autoptr(KsRunPoint) p = ks_run_point_new (run);

      if (!JSON_NODE_HOLDS_OBJECT (pn))
        return ks_run_json_fail (error, _("Point %u of the results file is not an object"), i + 1);
      if (!parse_point (run, slots, json_node_get_object (pn), p, written, error))
        {
          g_prefix_error (error, _("Point %u: "), i + 1);
          return FALSE;
        }
      ks_run_add_point (run, g_steal_pointer (&p));
    }
  return TRUE;
}

/* points_text: the text of the points array, for the scanner (root's
 * "points" is then empty); NULL: the tree's. */
static KsRun *
parse_run (const KsExperimentDesc *desc,
           JsonObject             *root,
           const char             *points_text,
           gsize                   points_length,
           GError                **error)
{
  g_autoptr(KsRun) run = ks_run_new (desc);
  g_autoptr(KsRunJsonSlots) slots = ks_run_json_slots_new (desc);
  g_autofree gboolean *written = g_new0 (gboolean, MAX (desc->n_columns, 1));
  JsonNode *node;

  if (!parse_header (run, root, error))
    return NULL;
  if (!member (root, "devices", JSON_NODE_ARRAY, G_TYPE_INVALID, FALSE, &node, error) ||
      !parse_devices (run, json_node_get_array (node), error))
    return NULL;
  if (!member (root, "points", JSON_NODE_ARRAY, G_TYPE_INVALID, FALSE, &node, error))
    return NULL;
  if (points_text != NULL)
    {
      if (slots->duplicates || !ks_run_json_scan_points (run, slots, points_text, points_length, written))
        return ks_run_json_fail (error, "the points are not plain"), NULL;
    }
  else if (!parse_points (run, slots, json_node_get_array (node), written, error))
    return NULL;
  derive_missing (run, written);
  return g_steal_pointer (&run);
}

/* data through json-glib; with points_text, only a format-2 file is read
 * (the caller reads any other whole). */
static KsRun *
read_tree (const char *data,
           gsize       length,
           const char *points_text,
           gsize       points_length,
           GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *id = NULL;
  const KsExperimentDesc *desc;
  JsonObject *root;
  guint64 format;

  if (ks_json_depth (data, length, KS_JSON_MAX_DEPTH) > KS_JSON_MAX_DEPTH)
    return ks_run_json_fail (error, _("Not a Kernelscope results file: nested more than %d deep"), KS_JSON_MAX_DEPTH),
           NULL;
  if (!ks_json_parser_load_data (parser, data, length, &local_error))
    return ks_run_json_fail (error, _("Not a valid JSON file: %s"), local_error->message), NULL;
  if (json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return ks_run_json_fail (error, _("Not a Kernelscope results file: the top level is not an object")), NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  if (!get_uint (root, "format", G_MAXINT, &format, error) || !get_string (root, "experiment", FALSE, &id, error))
    return NULL;
  if (format > KS_RUN_FORMAT || format < 1)
    return ks_run_json_fail (error, _("The results file has format %llu; this Kernelscope reads 1 to %d"),
                       (unsigned long long) format, KS_RUN_FORMAT), NULL;
  if (!(desc = ks_registry_lookup (id)))
    {
      g_set_error (error, KS_RUN_ERROR, KS_RUN_ERROR_UNKNOWN, _("Unknown experiment \"%s\" in the results file"), id);
      return NULL;
    }
  /* Format 1 (the Gauss pages' own) is read whole, by names of its own. */
  if (format < KS_RUN_FORMAT && points_text != NULL)
    return ks_run_json_fail (error, "an older format: read whole"), NULL;
  if (format < KS_RUN_FORMAT)
    return ks_run_json_read_format1 (desc, root, error);
  return parse_run (desc, root, points_text, points_length, error);
}

KsRun *
ks_run_from_json (const char *data,
                  gssize      length,
                  GError    **error)
{
  gsize start, end;
  KsRun *run;

  g_return_val_if_fail (data != NULL, NULL);

  if (length < 0)
    length = strlen (data);
  /* The file without its points through json-glib, the points through the
   * scanner; anything either finds amiss, and the whole file is read again
   * by json-glib alone, which says what it is. */
  if (ks_run_json_find_member (data, length, "points", &start, &end))
    {
      g_autoptr(GString) rest = g_string_sized_new (length - (end - start) + 3);

      g_string_append_len (rest, data, start);
      g_string_append (rest, "[]");
      g_string_append_len (rest, data + end, length - end);
      if ((run = read_tree (rest->str, rest->len, data + start, end - start, NULL)))
        return run;
    }
  return read_tree (data, length, NULL, 0, error);
}

KsRun *
ks_run_load_json (const char *path,
                  GError    **error)
{
  g_autoptr(GMappedFile) file = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *data;
  GStatBuf st;
  KsRun *run;

  g_return_val_if_fail (path != NULL, NULL);

  /* A FIFO would block the read, /dev/zero never end it. */
  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size > KS_RUN_MAX_FILE_SIZE)
    {
      g_set_error (error, KS_RUN_ERROR, KS_RUN_ERROR_IO,
                   !g_file_test (path, G_FILE_TEST_EXISTS) ? _("Cannot read %s: no such file")
                   : !S_ISREG (st.st_mode) ? _("Cannot read %s: not a regular file")
                   : _("Cannot read %s: larger than a results file can be"), path);
      return NULL;
    }
  /* Mapped rather than copied: a run of 10^6 points is ~570 MB. */
  if (!(file = g_mapped_file_new (path, FALSE, &local_error)))
    {
      g_set_error (error, KS_RUN_ERROR, KS_RUN_ERROR_IO, _("Cannot read %s: %s"), path, local_error->message);
      return NULL;
    }
  data = g_mapped_file_get_contents (file);
  run = ks_run_from_json (data ? data : "", data ? (gssize) g_mapped_file_get_length (file) : 0, error);
  if (run == NULL)
    g_prefix_error (error, "%s: ", path);
  return run;
}
