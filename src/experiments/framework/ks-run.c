/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run.c: a run's points and devices; writing them as CSV.  The JSON
 * format is in ks-run-json.c. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-run.h"
#include "ks-io-file.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (ks-run-error-quark, ks_run_error)

KsRun *
ks_run_new (const KsExperimentDesc *desc)
{
  KsRun *run;

  g_return_val_if_fail (desc != NULL, NULL);

  run = g_new0 (KsRun, 1);
  g_atomic_ref_count_init (&run->ref_count);
  run->desc = desc;
  run->settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  run->axes = g_new0 (char *, 1);
  run->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_run_device_free);
  run->points = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_run_point_free);
  return run;
}

KsRun *
ks_run_ref (KsRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  g_atomic_ref_count_inc (&run->ref_count);
  return run;
}

void
ks_run_unref (KsRun *run)
{
  g_return_if_fail (run != NULL);
  if (!g_atomic_ref_count_dec (&run->ref_count))
    return;
  g_free (run->date);
  g_free (run->command);
  g_hash_table_unref (run->settings);
  g_strfreev (run->axes);
  g_ptr_array_unref (run->devices);
  g_ptr_array_unref (run->points);
  g_free (run->stop_reason);
  g_free (run);
}

KsRunDevice *
ks_run_device_new (void)
{
  KsRunDevice *device = g_new0 (KsRunDevice, 1);

  device->info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return device;
}

void
ks_run_device_free (KsRunDevice *device)
{
  if (device == NULL)
    return;
  g_free (device->id);
  g_free (device->name);
  g_free (device->platform);
  g_free (device->driver);
  g_free (device->backend);
  g_hash_table_unref (device->info);
  g_free (device);
}

void
ks_run_device_set_info (KsRunDevice *device,
                        const char  *name,
                        double       value)
{
  g_return_if_fail (device != NULL && name != NULL);
  g_hash_table_replace (device->info, g_strdup (name), g_memdup2 (&value, sizeof value));
}

double
ks_run_device_get_info (const KsRunDevice *device,
                        const char        *name)
{
  const double *v;

  g_return_val_if_fail (device != NULL, NAN);
  v = name ? g_hash_table_lookup (device->info, name) : NULL;
  return v ? *v : NAN;
}

void
ks_run_device_copy_info (KsRunDevice       *to,
                         const KsRunDevice *from)
{
  GHashTableIter iter;
  gpointer key, value;

  g_return_if_fail (to != NULL && from != NULL);
  g_hash_table_iter_init (&iter, from->info);
  while (g_hash_table_iter_next (&iter, &key, &value))
    ks_run_device_set_info (to, key, *(double *) value);
}

guint
ks_run_add_device (KsRun    *run,
                   KsDevice *device)
{
  const KsDeviceInfo *info;
  KsRunDevice *d;

  g_return_val_if_fail (run != NULL, 0);
  g_return_val_if_fail (KS_IS_DEVICE (device), 0);

  info = ks_device_get_info (device);
  d = ks_run_device_new ();
  d->id = g_strdup (info->id);
  d->name = g_strdup (info->name);
  d->platform = g_strdup (info->platform_name);
  d->driver = g_strdup (info->driver_version);
  d->backend = g_strdup (ks_backend_to_string (info->backend));
  g_ptr_array_add (run->devices, d);
  return run->devices->len - 1;
}

/* A point and its arrays in one block: params, then values, lo and hi
 * (a run of 10^6 points was four million allocations to make and free). */
static KsRunPoint *
point_alloc (guint n_params,
             guint n_columns)
{
  gsize head = (sizeof (KsRunPoint) + sizeof (double) - 1) / sizeof (double) * sizeof (double);
  gsize params = MAX (n_params, 1) * sizeof (GVariant *);
  gsize columns = MAX (n_columns, 1);
  KsRunPoint *point;

  params = (params + sizeof (double) - 1) / sizeof (double) * sizeof (double);
  point = g_malloc0 (head + params + 3 * columns * sizeof (double));
  point->params = (GVariant **) ((char *) point + head);
  point->values = (double *) ((char *) point + head + params);
  point->lo = point->values + columns;
  point->hi = point->lo + columns;
  /* For ks_run_point_free and _copy, which have no run. */
  point->n_params = n_params;
  point->n_columns = n_columns;
  return point;
}

KsRunPoint *
ks_run_point_new (const KsRun *run)
{
  KsRunPoint *point;

  g_return_val_if_fail (run != NULL, NULL);

  point = point_alloc (run->desc->n_params, run->desc->n_columns);
  for (guint i = 0; i < run->desc->n_columns; i++)
    point->values[i] = point->lo[i] = point->hi[i] = NAN;
  return point;
}

KsRunPoint *
ks_run_point_copy (const KsRunPoint *point)
{
  KsRunPoint *copy;
  gsize columns;

  g_return_val_if_fail (point != NULL, NULL);

  columns = point->n_columns * sizeof (double);
  copy = point_alloc (point->n_params, point->n_columns);
  copy->device = point->device;
  copy->reps = point->reps;
  for (guint i = 0; i < point->n_params; i++)
    copy->params[i] = point->params[i] ? g_variant_ref (point->params[i]) : NULL;
  memcpy (copy->values, point->values, columns);
  memcpy (copy->lo, point->lo, columns);
  memcpy (copy->hi, point->hi, columns);
  copy->error = g_strdup (point->error);
  return copy;
}

void
ks_run_point_free (KsRunPoint *point)
{
  if (point == NULL)
    return;
  for (guint i = 0; i < point->n_params; i++)
    g_clear_pointer (&point->params[i], g_variant_unref);
  g_free (point->error);
  g_free (point);   /* its arrays with it */
}

void
ks_run_add_point (KsRun      *run,
                  KsRunPoint *point)
{
  g_return_if_fail (run != NULL && point != NULL);
  g_return_if_fail (point->n_params == run->desc->n_params);
  g_ptr_array_add (run->points, point);
}

void
ks_run_derive (const KsRun *run,
               KsRunPoint  *point)
{
  g_return_if_fail (run != NULL && point != NULL);

  for (guint i = 0; i < run->desc->n_columns; i++)
    {
      const KsColumnSpec *c = &run->desc->columns[i];
      if (c->derive != NULL)
        point->values[i] = c->derive (run, point, c);
    }
}

void
ks_run_derive_all (KsRun *run)
{
  g_return_if_fail (run != NULL);

  for (guint i = 0; i < run->points->len; i++)
    {
      KsRunPoint *p = run->points->pdata[i];
      if (p->error == NULL)
        ks_run_derive (run, p);
    }
}

GVariant *
ks_run_point_get_param (const KsRun      *run,
                        const KsRunPoint *point,
                        const char       *name)
{
  int i;

  g_return_val_if_fail (run != NULL && point != NULL, NULL);
  i = ks_experiment_desc_find_param (run->desc, name);
  return i < 0 ? NULL : point->params[i];
}

int
ks_run_point_choice (const KsRun      *run,
                     const KsRunPoint *point,
                     guint             param)
{
  const KsChoice *c;

  g_return_val_if_fail (run != NULL && point != NULL, -1);
  g_return_val_if_fail (param < run->desc->n_params && run->desc->params[param].type == KS_PARAM_CHOICE, -1);
  if (point->params[param] == NULL)
    return -1;
  c = ks_param_find_choice (&run->desc->params[param], g_variant_get_string (point->params[param], NULL));
  return c ? c->id : -1;
}

double
ks_run_point_get_number (const KsRun      *run,
                         const KsRunPoint *point,
                         const char       *name)
{
  int i;
  GVariant *v;

  g_return_val_if_fail (run != NULL && point != NULL, NAN);

  if ((i = ks_experiment_desc_find_column (run->desc, name)) >= 0)
    return point->values[i];
  if ((i = ks_experiment_desc_find_param (run->desc, name)) < 0 || !(v = point->params[i]))
    return NAN;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    return (double) g_variant_get_int64 (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_DOUBLE))
    return g_variant_get_double (v);
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN))
    return g_variant_get_boolean (v);
  if (run->desc->params[i].type == KS_PARAM_CHOICE)
    {
      const char *s = g_variant_get_string (v, NULL);
      guint k = 0;

      for (const KsChoice *c = run->desc->params[i].choices; c->value; c++, k++)
        if (strcmp (c->value, s) == 0)
          return k;
    }
  return NAN;
}

gboolean
ks_run_point_matches (const KsRun      *run,
                      const KsRunPoint *point,
                      const char       *where)
{
  g_auto(GStrv) pairs = NULL;

  g_return_val_if_fail (run != NULL && point != NULL, FALSE);

  pairs = g_strsplit (where ? where : "", " ", -1);
  for (guint i = 0; pairs[i]; i++)
    {
      g_auto(GStrv) kv = g_strsplit (pairs[i], "=", 2);
      GVariant *have;
      g_autofree char *text = NULL;

      if (kv[0] == NULL || kv[0][0] == '\0')
        continue;
      if (kv[1] == NULL || !(have = ks_run_point_get_param (run, point, kv[0])))
        return FALSE;
      text = ks_param_value_to_string (have);
      if (strcmp (text, kv[1]) != 0)
        return FALSE;
    }
  return TRUE;
}

double
ks_run_measured_for (const KsRun        *run,
                     const KsPaperValue *paper,
                     guint               device)
{
  g_return_val_if_fail (run != NULL && paper != NULL, NAN);

  if (device >= run->devices->len)
    return NAN;
  if (ks_experiment_desc_find_column (run->desc, paper->column) < 0)
    return ks_run_device_get_info (run->devices->pdata[device], paper->column);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      if (p->device == device && p->error == NULL && ks_run_point_matches (run, p, paper->where))
        return ks_run_point_get_number (run, p, paper->column);
    }
  return NAN;
}

guint
ks_run_count_measured (const KsRun *run)
{
  guint n = 0;

  g_return_val_if_fail (run != NULL, 0);
  for (guint i = 0; i < run->points->len; i++)
    n += ((KsRunPoint *) run->points->pdata[i])->error == NULL;
  return n;
}

const char *
ks_run_device_get_backend_label (const KsRunDevice *d)
{
  if (g_strcmp0 (d->backend, "cuda") == 0)
    return "CUDA";
  if (g_strcmp0 (d->backend, "host") == 0)
    return _("host");
  if (d->platform && strstr (d->platform, "NVIDIA"))
    return "NVIDIA OpenCL";
  return d->platform ? d->platform : "?";
}

char *
ks_run_get_name (const KsRun *run)
{
  g_autoptr(GString) s = g_string_new (NULL);

  const char *driven = NULL;

  g_return_val_if_fail (run != NULL, NULL);
  /* A CUDA graph run is some 3x faster than the same kernels launched one
   * by one: a switch like that names how the devices were driven
   * (KsParamSpec.names_run). */
  for (guint k = 0; run->points->len && k < run->desc->n_params; k++)
    {
      const KsParamSpec *spec = &run->desc->params[k];
      GVariant *v = ((const KsRunPoint *) run->points->pdata[0])->params[k];

      if (spec->names_run && v && g_variant_is_of_type (v, G_VARIANT_TYPE_BOOLEAN) && g_variant_get_boolean (v))
        driven = _(spec->label);
    }
  for (guint i = 0; i < run->devices->len; i++)
    {
      const KsRunDevice *d = run->devices->pdata[i];
      g_string_append_printf (s, "%s%s (%s)", i ? " + " : "", d->name ? d->name : "?",
                              driven ? driven : ks_run_device_get_backend_label (d));
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

const char *
ks_run_format_double (char  *buf,
                      double v)
{
  g_return_val_if_fail (buf != NULL, NULL);

  /* %.17g always round-trips, but 0.1 reads 0.10000000000000001: take the
   * shortest that does. */
  for (int digits = 15; digits < 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, format, v);
      if (g_ascii_strtod (buf, NULL) == v)
        return buf;
    }
  return g_ascii_dtostr (buf, G_ASCII_DTOSTR_BUF_SIZE, v);
}

/* --- CSV ------------------------------------------------------------------------ */

static void
csv_field (GString    *s,
           const char *text)
{
  if (s->len > 0 && s->str[s->len - 1] != '\n')
    g_string_append_c (s, ',');
  if (text == NULL)
    return;
  if (strpbrk (text, ",\"\n\r"))
    {
      g_string_append_c (s, '"');
      for (const char *p = text; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (s, '"');
          g_string_append_c (s, *p);
        }
      g_string_append_c (s, '"');
    }
  else
    g_string_append (s, text);
}

/* A column's value as the CSV writes it: exact (g_ascii_dtostr), empty
 * where unknown. */
static void
csv_number (GString      *s,
            KsColumnKind  kind,
            double        v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v))
    csv_field (s, "");
  else if (kind == KS_COLUMN_BOOL)
    csv_field (s, v != 0 ? "1" : "0");
  else if (isinf (v))
    csv_field (s, v > 0 ? "inf" : "-inf");
  else
    csv_field (s, ks_run_format_double (buf, v));
}

char *
ks_run_to_csv (const KsRun *run)
{
  const KsExperimentDesc *desc;
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_val_if_fail (run != NULL, NULL);
  desc = run->desc;

  csv_field (s, "device");
  for (guint i = 0; i < desc->n_params; i++)
    csv_field (s, desc->params[i].name);
  for (guint i = 0; i < desc->n_columns; i++)
    {
      csv_field (s, desc->columns[i].name);
      if (desc->columns[i].reduce == KS_REDUCE_MEDIAN_RANGE && desc->columns[i].derive == NULL)
        {
          g_autofree char *lo = g_strconcat (desc->columns[i].name, "_min", NULL);
          g_autofree char *hi = g_strconcat (desc->columns[i].name, "_max", NULL);
          csv_field (s, lo);
          csv_field (s, hi);
        }
    }
  csv_field (s, "error");
  g_string_append_c (s, '\n');

  for (guint k = 0; k < run->points->len; k++)
    {
      const KsRunPoint *p = run->points->pdata[k];
      const KsRunDevice *d = p->device < run->devices->len ? run->devices->pdata[p->device] : NULL;

      /* The first field of a line, never empty: csv_field adds no comma there. */
      csv_field (s, d && d->id ? d->id : "?");
      for (guint i = 0; i < desc->n_params; i++)
        {
          g_autofree char *v = p->params[i] ? ks_param_value_to_string (p->params[i]) : NULL;
          csv_field (s, v ? v : "");
        }
      for (guint i = 0; i < desc->n_columns; i++)
        {
          csv_number (s, desc->columns[i].kind, p->values[i]);
          if (desc->columns[i].reduce == KS_REDUCE_MEDIAN_RANGE && desc->columns[i].derive == NULL)
            {
              csv_number (s, desc->columns[i].kind, p->lo[i]);
              csv_number (s, desc->columns[i].kind, p->hi[i]);
            }
        }
      csv_field (s, p->error ? p->error : "");
      g_string_append_c (s, '\n');
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static gboolean
write_file (const char  *path,
            const char  *data,
            GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!ks_io_write_file (path, data, -1, &local_error))
    {
      g_set_error (error, KS_RUN_ERROR, KS_RUN_ERROR_IO, _("Cannot write %s: %s"), path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_run_write_csv (const KsRun *run,
                  const char  *path,
                  GError     **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (run != NULL && path != NULL, FALSE);
  data = ks_run_to_csv (run);
  return write_file (path, data, error);
}

gboolean
ks_run_write_json (const KsRun *run,
                   const char  *path,
                   GError     **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (run != NULL && path != NULL, FALSE);
  data = ks_run_to_json (run);
  return write_file (path, data, error);
}
