/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-session-read.c: the session reader (ks-session.h).  Everything is
 * checked while the model is built, so a caller applies only a session
 * that is whole: a damaged part never leaves a window half loaded. */
#define G_LOG_DOMAIN "ks-session"

#include "ks-session.h"
#include "ks-session-private.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "ks-json-guard.h"

/* What a node is, for "must be ..., not ..." messages. */
static const char *
node_kind (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("a list");
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return _("text");
    case G_TYPE_BOOLEAN:
      return _("true or false");
    default:
      return _("a number");
    }
}

static gboolean
holds_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* A member that must be text; NULL in *out where it is absent. */
static gboolean
get_string (const KsSessionPage *page,
            JsonObject          *o,
            const char          *name,
            const char         **out,
            GError             **error)
{
  JsonNode *node = json_object_get_member (o, name);

  *out = NULL;
  if (node == NULL)
    return TRUE;
  if (!holds_string (node))
    {
      if (page != NULL)
        return ks_session_page_fail (page, error, _("“%s” must be text, not %s"), name, node_kind (node));
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID, _("“%s” must be text, not %s"),
                   name, node_kind (node));
      return FALSE;
    }
  *out = json_node_get_string (node);
  return TRUE;
}

/* A whole number within [min, max]: a JSON integer, or a number without a
 * fraction (the pages once wrote the plot's limit as 2.0). */
static gboolean
get_whole (const KsSessionPage *page,
           JsonNode            *node,
           const char          *name,
           gint64               min,
           gint64               max,
           gint64              *out,
           GError             **error)
{
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  double d = type == G_TYPE_DOUBLE ? json_node_get_double (node) : 0;

  if (type == G_TYPE_INT64 && json_node_get_int (node) >= min && json_node_get_int (node) <= max)
    {
      *out = json_node_get_int (node);
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE && d == floor (d) && d >= min && d <= max)
    {
      *out = (gint64) d;
      return TRUE;
    }
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      double v = type == G_TYPE_INT64 ? (double) json_node_get_int (node) : d;
      /* Whole numbers in full (2^64 as 18446744073709551616, which the
       * JSON guard reads as a real rather than as -1). */
      const char *given = v == floor (v) && fabs (v) < 1e21 ? g_ascii_formatd (buf, sizeof buf, "%.0f", v)
                          : g_ascii_dtostr (buf, sizeof buf, v);

      if (v > max)
        return ks_session_page_fail (page, error, _("“%s” is %s: too large, the most it takes is %lld"), name,
                                     given, (long long) max);
      if (v < min)
        return ks_session_page_fail (page, error, _("“%s” is %s: too small, the least it takes is %lld"), name,
                                     given, (long long) min);
      return ks_session_page_fail (page, error, _("“%s” must be a whole number from %lld to %lld, not %s"), name,
                                   (long long) min, (long long) max, given);
    }
  return ks_session_page_fail (page, error, _("“%s” must be a number, not %s"), name, node_kind (node));
}

/* An object's text members as name -> text (anything else is an error). */
static GHashTable *
string_members (const KsSessionPage *page,
                JsonObject          *o,
                GError             **error)
{
  g_autoptr(GHashTable) out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GList) names = json_object_get_members (o);

  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *v = json_object_get_member (o, l->data);

      if (!holds_string (v))
        {
          ks_session_page_fail (page, error, _("the parameter “%s” must be text as the command line takes it, not %s"),
                                (const char *) l->data, node_kind (v));
          return NULL;
        }
      g_hash_table_insert (out, g_strdup (l->data), g_strdup (json_node_get_string (v)));
    }
  return g_steal_pointer (&out);
}

/* The Gauss pages' own fields before the generic page, through the
 * description; "@reps", "@warmup" and "@min_x" are the page's. */
static gboolean
upgrade_legacy (KsSessionPage *page,
                GHashTable    *values,
                GError       **error)
{
  const char *own[] = { "@warmup", "@reps", "@min_x" };
  gint64 numbers[] = { page->warmup, page->reps, page->min_x };

  if (page->desc->upgrade_values != NULL)
    page->desc->upgrade_values (page->desc, values);
  for (guint i = 0; i < G_N_ELEMENTS (own); i++)
    {
      const char *text = g_hash_table_lookup (values, own[i]);
      char *end = NULL;

      if (text == NULL)
        continue;
      numbers[i] = g_ascii_strtoll (text, &end, 10);
      if (end == text || *end != '\0' || numbers[i] < 0 || numbers[i] > G_MAXUINT)
        return ks_session_page_fail (page, error, _("“%s” must be a whole number, not “%s”"), own[i] + 1, text);
      g_hash_table_remove (values, own[i]);
    }
  return ks_session_page_set_repetitions (page, numbers[0], numbers[1], numbers[2], error);
}

static gboolean
read_values (KsSessionPage *page,
             JsonObject    *o,
             GError       **error)
{
  JsonNode *values = json_object_get_member (o, "values");
  /* Only where there are no "values": the Gauss pages' sessions before the generic page. */
  JsonNode *params = values == NULL ? json_object_get_member (o, "params") : NULL;
  JsonNode *node = values ? values : params;
  g_autoptr(GHashTable) given = NULL;
  GHashTableIter iter;
  gpointer name, text;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return ks_session_page_fail (page, error, _("“%s” must be an object of parameters, not %s"),
                                 values ? "values" : "params", node_kind (node));
  if (!(given = string_members (page, json_node_get_object (node), error)))
    return FALSE;
  if (params != NULL && !upgrade_legacy (page, given, error))
    return FALSE;
  g_hash_table_iter_init (&iter, given);
  while (g_hash_table_iter_next (&iter, &name, &text))
    if (!ks_session_page_set_value (page, name, text, error))
      return FALSE;
  return TRUE;
}

static gboolean
get_bool (const KsSessionPage *page,
          JsonObject          *o,
          const char          *name,
          gboolean             fallback,
          guint                run,
          gboolean            *out,
          GError             **error)
{
  JsonNode *node = json_object_get_member (o, name);

  *out = fallback;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return ks_session_page_fail (page, error, _("run %u: “%s” must be true or false, not %s"), run, name,
                                 node_kind (node));
  *out = json_node_get_boolean (node);
  return TRUE;
}

static gboolean
read_runs (KsSessionPage *page,
           JsonNode      *node,
           GError       **error)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return ks_session_page_fail (page, error, _("“runs” must be a list, not %s"), node_kind (node));
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      /* "results": a format-1 run of the Gauss pages before the generic
       * page, read by ks-run-json-format1.c. */
      JsonNode *run_node = o ? json_object_get_member (o, json_object_has_member (o, "run") ? "run" : "results")
                             : NULL;
      g_autofree char *json = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autoptr(KsRun) run = NULL;
      gboolean recorded, visible;

      if (o == NULL)
        return ks_session_page_fail (page, error, _("run %u must be an object, not %s"), i + 1,
                                     node_kind (element));
      if (run_node == NULL)
        return ks_session_page_fail (page, error, _("run %u has no results"), i + 1);
      if (!get_bool (page, o, "recorded", FALSE, i + 1, &recorded, error)
          || !get_bool (page, o, "visible", TRUE, i + 1, &visible, error))
        return FALSE;
      json = json_to_string (run_node, FALSE);
      if (!(run = ks_run_from_json (json, -1, &local_error)))
        return ks_session_page_fail (page, error, _("run %u: %s"), i + 1, local_error->message);
      if (!ks_session_page_add_run (page, run, recorded, visible, error))
        return FALSE;
    }
  /* A list of none is a page whose runs were all removed: saved, empty. */
  ks_session_page_keep_runs (page);
  return TRUE;
}

static gboolean
read_experiment_page (KsSessionPage *page,
                      JsonObject    *o,
                      GError       **error)
{
  const char *numbers[] = { "warmup", "reps", "min_x" };
  const gint64 max[] = { KS_MAX_WARMUP, KS_MAX_REPS, KS_SESSION_MAX_MIN_X };
  gint64 got[] = { page->warmup, page->reps, page->min_x };
  const char *experiment, *also_on, *figure;
  JsonNode *runs;

  if (!get_string (page, o, "experiment", &experiment, error)
      || !get_string (page, o, "also_on", &also_on, error)
      || !get_string (page, o, "figure", &figure, error))
    return FALSE;
  if (experiment != NULL && g_strcmp0 (experiment, page->desc->id) != 0)
    return ks_session_page_fail (page, error, _("it holds the experiment “%s”, not “%s”"), experiment,
                                 page->desc->id);
  if (figure != NULL && *figure != '\0' && ks_experiment_desc_find_figure (page->desc, figure) < 0)
    return ks_session_page_fail (page, error, _("it has no figure “%s”"), figure);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      JsonNode *node = json_object_get_member (o, numbers[i]);
      if (node != NULL && !get_whole (page, node, numbers[i], i == 1 ? 1 : 0, max[i], &got[i], error))
        return FALSE;
    }
  if (!ks_session_page_set_repetitions (page, got[0], got[1], got[2], error))
    return FALSE;
  /* After the repetitions: an old form's "@reps" and "@min_x" are its own. */
  if (!read_values (page, o, error))
    return FALSE;
  page->also_on = g_strdup (also_on);
  page->figure = g_strdup (figure);
  runs = json_object_get_member (o, "runs");
  return runs == NULL || read_runs (page, runs, error);
}

static gboolean
read_cores (KsSessionPage *page,
            JsonNode      *node,
            GError       **error)
{
  g_autoptr(GList) ids = NULL;
  JsonObject *cores;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return ks_session_page_fail (page, error,
                                 _("“cores-per-cu” must be an object of device identifiers and numbers"));
  cores = json_node_get_object (node);
  /* An empty object is a session that clears every override. */
  ks_session_page_keep_cores (page);
  ids = json_object_get_members (cores);
  for (GList *l = ids; l != NULL; l = l->next)
    {
      JsonNode *v = json_object_get_member (cores, l->data);
      gint64 n = 0;

      if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_INT64)
        n = json_node_get_int (v);
      if (!ks_session_page_set_cores (page, l->data, (guint) CLAMP (n, 0, KS_SESSION_MAX_CORES + 1), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_hand_made_page (KsSessionPage *page,
                     JsonObject    *o,
                     GError       **error)
{
  const KsHandMadePage *h = ks_session_find_hand_made (page->id);
  JsonNode *cores = json_object_get_member (o, "cores-per-cu");

  for (guint i = 0; i < h->n_fields; i++)
    {
      const KsParamSpec *spec = &h->fields[i];
      JsonNode *node = json_object_get_member (o, spec->name);
      g_autofree char *text = NULL;

      if (node == NULL)
        continue;
      if (spec->type == KS_PARAM_INT)
        {
          gint64 n;

          if (!get_whole (page, node, spec->name, (gint64) spec->min, (gint64) spec->max, &n, error))
            return FALSE;
          text = g_strdup_printf ("%" G_GINT64_FORMAT, n);
        }
      else if (holds_string (node))
        text = g_strdup (json_node_get_string (node));
      else
        return ks_session_page_fail (page, error, _("“%s” must be text, not %s"), spec->name, node_kind (node));
      if (!ks_session_page_set_value (page, spec->name, text, error))
        return FALSE;
    }
  /* Only the Devices page keeps them; elsewhere a member this version skips. */
  return cores == NULL || g_strcmp0 (page->id, "devices") != 0 || read_cores (page, cores, error);
}

static gboolean
read_pages (KsSession  *self,
            JsonObject *pages,
            GError    **error)
{
  g_autoptr(GList) ids = json_object_get_members (pages);

  for (GList *l = ids; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (pages, l->data);
      KsSessionPage *page;

      if (!(page = ks_session_add_page (self, l->data, error)))
        return FALSE;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return ks_session_page_fail (page, error, _("it must be an object, not %s"), node_kind (node));
      if (page->desc != NULL ? !read_experiment_page (page, json_node_get_object (node), error)
                             : !read_hand_made_page (page, json_node_get_object (node), error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_root (KsSession  *self,
           JsonNode   *node,
           GError    **error)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  JsonNode *version = root ? json_object_get_member (root, "version") : NULL;
  JsonNode *pages = root ? json_object_get_member (root, "pages") : NULL;
  const char *format = NULL, *saved, *device, *page;

  if (root == NULL || !get_string (NULL, root, "format", &format, NULL)
      || g_strcmp0 (format, KS_SESSION_FORMAT) != 0)
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_NOT_SESSION,
                   _("it is not a Kernelscope session (it has no “format”: “%s”)"), KS_SESSION_FORMAT);
      return FALSE;
    }
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) || json_node_get_value_type (version) != G_TYPE_INT64
      || json_node_get_int (version) < 1)
    {
      g_autofree char *given = version == NULL ? g_strdup (_("missing"))
        : JSON_NODE_HOLDS_VALUE (version) && json_node_get_value_type (version) == G_TYPE_INT64
        ? g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (version)) : g_strdup (node_kind (version));

      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID,
                   _("its “version” must be a whole number from 1, not %s"), given);
      return FALSE;
    }
  if (json_node_get_int (version) > KS_SESSION_VERSION)
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_VERSION,
                   _("it was written by a newer Kernelscope (session format %lld; this one reads format %d)"),
                   (long long) json_node_get_int (version), KS_SESSION_VERSION);
      return FALSE;
    }
  if (!get_string (NULL, root, "saved", &saved, error) || !get_string (NULL, root, "device", &device, error)
      || !get_string (NULL, root, "page", &page, error))
    return FALSE;
  if (page != NULL && !ks_session_page_id_known (page))
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID,
                   _("its visible page “%s” is not in this version of Kernelscope"), page);
      return FALSE;
    }
  if (pages == NULL || !JSON_NODE_HOLDS_OBJECT (pages))
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID, _("it has no pages"));
      return FALSE;
    }
  self->saved = g_strdup (saved);
  self->device = g_strdup (device);
  self->page = g_strdup (page);
  return read_pages (self, json_node_get_object (pages), error);
}

KsSession *
ks_session_from_json (const char *data,
                      gssize      length,
                      GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KsSession) self = ks_session_new ();
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (!ks_json_parser_load_data (parser, data ? data : "", length, &local_error))
    {
      g_set_error_literal (error, KS_SESSION_ERROR, KS_SESSION_ERROR_DAMAGED, local_error->message);
      return NULL;
    }
  /* json-glib takes an empty text (or only spaces) as a document without a root. */
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_DAMAGED, _("it is empty"));
      return NULL;
    }
  if (!read_root (self, json_parser_get_root (parser), error))
    return NULL;
  return g_steal_pointer (&self);
}

KsSession *
ks_session_load (const char *path,
                 GError    **error)
{
  g_autofree char *display = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) local_error = NULL;
  KsSession *self;
  gsize length;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  /* Through the guarded door every user-given JSON takes: no FIFO, no
   * device, nothing above 512 MiB, no nesting deeper than the files have. */
  if (!(data = ks_json_read_file (path, &length, &local_error)))
    {
      /* A file that is not there or not ours to read: the message names
       * it already; a pipe or a file too large: say that it was not read. */
      if (local_error->domain == G_FILE_ERROR)
        g_set_error_literal (error, KS_SESSION_ERROR, KS_SESSION_ERROR_READ, local_error->message);
      else
        g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_READ, _("%s cannot be read: %s"), display,
                     local_error->message);
      return NULL;
    }
  if ((self = ks_session_from_json (data, length, &local_error)) != NULL)
    return self;
  /* The plain words first; the parser's line and column, or the part that
   * is wrong, on the next line (the window's Details). */
  switch (local_error->code)
    {
    case KS_SESSION_ERROR_DAMAGED:
      g_set_error (error, KS_SESSION_ERROR, local_error->code,
                   _("%s is damaged or incomplete (it is not well-formed JSON).\n%s"), display, local_error->message);
      break;
    case KS_SESSION_ERROR_NOT_SESSION:
      g_set_error (error, KS_SESSION_ERROR, local_error->code, _("%s is not a Kernelscope session file."), display);
      break;
    case KS_SESSION_ERROR_VERSION:
      g_set_error (error, KS_SESSION_ERROR, local_error->code, _("%s cannot be opened: %s."), display,
                   local_error->message);
      break;
    default:
      g_set_error (error, KS_SESSION_ERROR, local_error->code,
                   _("%s is a Kernelscope session, but part of it is damaged.\n%s"), display, local_error->message);
      break;
    }
  return NULL;
}
