/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-session.c: see ks-session.h.  The model, its setters (which check
 * what they keep) and the writer; the reader is ks-session-read.c. */
#define G_LOG_DOMAIN "ks-session"

#include "ks-session.h"
#include "ks-session-private.h"
#include "ks-io-file.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "ks-registry.h"

G_DEFINE_QUARK (ks-session-error-quark, ks_session_error)

/* --- the window's hand-made pages ------------------------------------------- */

/* Their fields, checked as the CLI checks a parameter (the limits are the
 * pages' own spin buttons and combo boxes).  The titles are the window's,
 * for messages.  Every page of the window's own table (ks-window-pages.c)
 * is here: a window with a page the session does not know cannot save. */
static const KsChoice precision_choices[] = { { "float" }, { "double" }, { NULL } };
static const KsChoice range_choices[] = { { "fixed" }, { "shrinking" }, { NULL } };
static const KsChoice local_choices[] = { { "driver" }, { "explicit" }, { "split" }, { NULL } };
static const KsChoice launch_choices[] = { { "stream" }, { "graph" }, { "blocked" }, { NULL } };
static const KsChoice rule_choices[] = { { "paper" }, { "printed" }, { "today" }, { "occupancy" }, { NULL } };

static const KsParamSpec solve_fields[] = {
  { .name = "n", .type = KS_PARAM_INT, .min = 2, .max = 20000 },
  { .name = "wg", .type = KS_PARAM_INT, .min = 1, .max = 4096 },
  { .name = "precision", .type = KS_PARAM_CHOICE, .choices = precision_choices },
  { .name = "range", .type = KS_PARAM_CHOICE, .choices = range_choices },
  { .name = "local", .type = KS_PARAM_CHOICE, .choices = local_choices },
  { .name = "launch", .type = KS_PARAM_CHOICE, .choices = launch_choices },
};

static const KsParamSpec map_fields[] = {
  { .name = "domain", .type = KS_PARAM_TEXT },
  { .name = "rule", .type = KS_PARAM_CHOICE, .choices = rule_choices },
  /* 0: no block suggested yet. */
  { .name = "block", .type = KS_PARAM_INT, .min = 0, .max = 4096 },
};

static const KsHandMadePage hand_made[] = {
  { "devices",       NULL,  N_("Devices"),                   NULL,         0 },
  { "roofline",      NULL,  N_("Roofline"),                  NULL,         0 },
  { "gauss-solve",   "000", N_("Gauss: single solve"),       solve_fields, G_N_ELEMENTS (solve_fields) },
  { "index-map",     "003", N_("Index domain onto blocks"),  map_fields,   G_N_ELEMENTS (map_fields) },
  { "heat-live",     "004", N_("Heat: live animation"),      NULL,         0 },
  { "tridiag-solve", "002", N_("Tridiagonal: your systems"), NULL,         0 },
};

const KsHandMadePage *
ks_session_hand_made_pages (guint *n_pages)
{
  *n_pages = G_N_ELEMENTS (hand_made);
  return hand_made;
}

const KsHandMadePage *
ks_session_find_hand_made (const char *id)
{
  for (guint i = 0; i < G_N_ELEMENTS (hand_made); i++)
    if (g_strcmp0 (hand_made[i].id, id) == 0)
      return &hand_made[i];
  return NULL;
}

const KsParamSpec *
ks_session_page_find_spec (const KsSessionPage *page,
                           const char          *name)
{
  const KsHandMadePage *h;
  int i;

  if (page->desc != NULL)
    return (i = ks_experiment_desc_find_param (page->desc, name)) >= 0 ? &page->desc->params[i] : NULL;
  h = ks_session_find_hand_made (page->id);
  for (guint f = 0; h != NULL && f < h->n_fields; f++)
    if (g_strcmp0 (h->fields[f].name, name) == 0)
      return &h->fields[f];
  return NULL;
}

gboolean
ks_session_page_id_known (const char *id)
{
  g_return_val_if_fail (id != NULL, FALSE);
  /* A hand-made page stands for a description of the same id, if any. */
  return ks_session_find_hand_made (id) != NULL || ks_registry_lookup (id) != NULL;
}

char *
ks_session_page_title (const char *id)
{
  const KsHandMadePage *h;
  const KsExperimentDesc *desc;

  g_return_val_if_fail (id != NULL, NULL);
  if ((h = ks_session_find_hand_made (id)) != NULL)
    return g_strdup (_(h->title));
  if ((desc = ks_registry_lookup (id)) != NULL)
    return g_strdup (_(desc->title));
  return g_strdup (id);
}

/* --- the model ----------------------------------------------------------------- */

static void
session_run_free (KsSessionRun *r)
{
  g_clear_pointer (&r->run, ks_run_unref);
  g_free (r);
}

static void
session_page_free (KsSessionPage *page)
{
  g_free (page->id);
  g_hash_table_unref (page->values);
  g_free (page->also_on);
  g_free (page->figure);
  g_clear_pointer (&page->runs, g_ptr_array_unref);
  g_clear_pointer (&page->cores_per_cu, g_hash_table_unref);
  g_free (page);
}

KsSession *
ks_session_new (void)
{
  KsSession *self = g_new0 (KsSession, 1);

  self->pages = g_ptr_array_new_with_free_func ((GDestroyNotify) session_page_free);
  return self;
}

void
ks_session_free (KsSession *self)
{
  if (self == NULL)
    return;
  g_free (self->saved);
  g_free (self->device);
  g_free (self->page);
  g_ptr_array_unref (self->pages);
  g_free (self);
}

KsSessionPage *
ks_session_find_page (const KsSession *self,
                      const char      *id)
{
  g_return_val_if_fail (self != NULL && id != NULL, NULL);

  for (guint i = 0; i < self->pages->len; i++)
    if (g_strcmp0 (((KsSessionPage *) self->pages->pdata[i])->id, id) == 0)
      return self->pages->pdata[i];
  return NULL;
}

KsSessionPage *
ks_session_add_page (KsSession  *self,
                     const char *id,
                     GError    **error)
{
  KsSessionPage *page;

  g_return_val_if_fail (self != NULL && id != NULL, NULL);

  if (!ks_session_page_id_known (id))
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID,
                   _("there is no page “%s” in this version of Kernelscope"), id);
      return NULL;
    }
  if (ks_session_find_page (self, id) != NULL)
    {
      g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID,
                   _("the page “%s” is in the session twice"), id);
      return NULL;
    }
  page = g_new0 (KsSessionPage, 1);
  page->id = g_strdup (id);
  page->desc = ks_session_find_hand_made (id) ? NULL : ks_registry_lookup (id);
  page->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  page->warmup = 1;
  page->reps = 3;
  g_ptr_array_add (self->pages, page);
  return page;
}

/* A page's error names its page (by title) first. */
gboolean
ks_session_page_fail (const KsSessionPage *page,
                      GError             **error,
                      const char          *format,
                      ...)
{
  g_autofree char *title = ks_session_page_title (page->id);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID, _("page “%s”: %s"), title, message);
  return FALSE;
}

gboolean
ks_session_page_set_value (KsSessionPage *page,
                           const char    *name,
                           const char    *text,
                           GError       **error)
{
  const KsParamSpec *spec;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) axis = NULL;
  g_autoptr(GVariant) value = NULL;

  g_return_val_if_fail (page != NULL && name != NULL && text != NULL, FALSE);

  if ((spec = ks_session_page_find_spec (page, name)) == NULL)
    return ks_session_page_fail (page, error, _("it has no field “%s”"), name);
  /* Empty where the form may leave it so; a file is checked when a run
   * starts, not here (a session outlives the files it names). */
  if (*text == '\0' ? spec->device_default == NULL && spec->type != KS_PARAM_TEXT && spec->type != KS_PARAM_FILE
                    : spec->type != KS_PARAM_FILE)
    {
      if (*text == '\0')
        g_set_error (&local_error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID, _("a value is needed"));
      else if (spec->sweepable)
        axis = ks_param_parse_axis (spec, text, &local_error);
      else
        value = ks_param_parse_value (spec, text, &local_error);
      if (local_error != NULL)
        return ks_session_page_fail (page, error, "%s: %s", name, local_error->message);
    }
  g_hash_table_insert (page->values, g_strdup (name), g_strdup (text));
  return TRUE;
}

gboolean
ks_session_page_set_repetitions (KsSessionPage *page,
                                 guint          warmup,
                                 guint          reps,
                                 guint          min_x,
                                 GError       **error)
{
  g_return_val_if_fail (page != NULL, FALSE);

  if (reps < 1 || reps > KS_MAX_REPS || warmup > KS_MAX_WARMUP || min_x > KS_SESSION_MAX_MIN_X)
    return ks_session_page_fail (page, error,
                                 _("the repetitions must lie between 1 and %d, the warm-up between 0 "
                                   "and %d and the plot's lower limit between 0 and %d (not %u, %u, %u)"),
                                 KS_MAX_REPS, KS_MAX_WARMUP, KS_SESSION_MAX_MIN_X, reps, warmup, min_x);
  page->warmup = warmup;
  page->reps = reps;
  page->min_x = min_x;
  return TRUE;
}

void
ks_session_page_keep_runs (KsSessionPage *page)
{
  g_return_if_fail (page != NULL && page->desc != NULL);

  if (page->runs == NULL)
    page->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) session_run_free);
}

gboolean
ks_session_page_add_run (KsSessionPage *page,
                         KsRun         *run,
                         gboolean       recorded,
                         gboolean       visible,
                         GError       **error)
{
  KsSessionRun *r;

  g_return_val_if_fail (page != NULL && run != NULL, FALSE);

  if (page->desc == NULL || run->desc != page->desc)
    return ks_session_page_fail (page, error, _("run %u is a run of “%s”"),
                                 page->runs ? page->runs->len + 1 : 1, _(run->desc->title));
  ks_session_page_keep_runs (page);
  r = g_new0 (KsSessionRun, 1);
  r->run = ks_run_ref (run);
  r->recorded = recorded;
  r->visible = visible;
  g_ptr_array_add (page->runs, r);
  return TRUE;
}

void
ks_session_page_keep_cores (KsSessionPage *page)
{
  g_return_if_fail (page != NULL && g_strcmp0 (page->id, "devices") == 0);

  if (page->cores_per_cu == NULL)
    page->cores_per_cu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

gboolean
ks_session_page_set_cores (KsSessionPage *page,
                           const char    *device_id,
                           guint          cores,
                           GError       **error)
{
  g_return_val_if_fail (page != NULL && device_id != NULL, FALSE);

  if (g_strcmp0 (page->id, "devices") != 0)
    return ks_session_page_fail (page, error, _("only the Devices page keeps cores per compute unit"));
  if (cores < 1 || cores > KS_SESSION_MAX_CORES)
    return ks_session_page_fail (page, error,
                                 _("cores per compute unit of “%s” must be a number from 1 to 1024"),
                                 device_id);
  ks_session_page_keep_cores (page);
  g_hash_table_insert (page->cores_per_cu, g_strdup (device_id), GUINT_TO_POINTER (cores));
  return TRUE;
}

/* --- the writer ------------------------------------------------------------------ */

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
write_experiment_page (JsonBuilder         *b,
                       const KsSessionPage *page)
{
  add_string (b, "experiment", page->desc->id);
  /* In the description's order, so the same session writes the same text. */
  json_builder_set_member_name (b, "values");
  json_builder_begin_object (b);
  for (guint i = 0; i < page->desc->n_params; i++)
    {
      const char *text = g_hash_table_lookup (page->values, page->desc->params[i].name);
      if (text != NULL)
        add_string (b, page->desc->params[i].name, text);
    }
  json_builder_end_object (b);
  add_int (b, "reps", page->reps);
  add_int (b, "warmup", page->warmup);
  add_int (b, "min_x", page->min_x);
  if (page->also_on != NULL)
    add_string (b, "also_on", page->also_on);
  if (page->figure != NULL)
    add_string (b, "figure", page->figure);
  if (page->runs == NULL)
    return;
  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < page->runs->len; i++)
    {
      const KsSessionRun *r = page->runs->pdata[i];
      g_autofree char *json = ks_run_to_json (r->run);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "recorded");
      json_builder_add_boolean_value (b, r->recorded);
      json_builder_set_member_name (b, "visible");
      json_builder_add_boolean_value (b, r->visible);
      json_builder_set_member_name (b, "run");
      /* ks_run_to_json writes what json-glib reads (numbers that read back
       * exactly, infinity as a string), so this cannot fail. */
      json_builder_add_value (b, json_from_string (json, NULL));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
write_hand_made_page (JsonBuilder         *b,
                      const KsSessionPage *page)
{
  const KsHandMadePage *h = ks_session_find_hand_made (page->id);

  for (guint i = 0; i < h->n_fields; i++)
    {
      const KsParamSpec *spec = &h->fields[i];
      const char *text = g_hash_table_lookup (page->values, spec->name);

      if (text == NULL)
        continue;
      /* Numbers as numbers, as the pages always wrote them. */
      if (spec->type == KS_PARAM_INT)
        add_int (b, spec->name, g_ascii_strtoll (text, NULL, 10));
      else
        add_string (b, spec->name, text);
    }
  if (page->cores_per_cu != NULL)
    {
      g_autoptr(GList) ids = g_list_sort (g_hash_table_get_keys (page->cores_per_cu), (GCompareFunc) g_strcmp0);

      json_builder_set_member_name (b, "cores-per-cu");
      json_builder_begin_object (b);
      for (GList *l = ids; l != NULL; l = l->next)
        add_int (b, l->data, GPOINTER_TO_UINT (g_hash_table_lookup (page->cores_per_cu, l->data)));
      json_builder_end_object (b);
    }
}

char *
ks_session_to_json (const KsSession *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (b);
  add_string (b, "format", KS_SESSION_FORMAT);
  add_int (b, "version", KS_SESSION_VERSION);
  if (self->saved != NULL)
    add_string (b, "saved", self->saved);
  if (self->device != NULL)
    add_string (b, "device", self->device);
  if (self->page != NULL)
    add_string (b, "page", self->page);
  json_builder_set_member_name (b, "pages");
  json_builder_begin_object (b);
  for (guint i = 0; i < self->pages->len; i++)
    {
      const KsSessionPage *page = self->pages->pdata[i];

      json_builder_set_member_name (b, page->id);
      json_builder_begin_object (b);
      if (page->desc != NULL)
        write_experiment_page (b, page);
      else
        write_hand_made_page (b, page);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  return json_to_string (root, TRUE);
}

gboolean
ks_session_save (const KsSession *self,
                 const char      *path,
                 GError         **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  text = ks_session_to_json (self);
  return ks_io_write_file (path, text, -1, error);
}
