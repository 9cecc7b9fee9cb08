/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-engine-files.c: what a run reads and writes besides the devices,
 * checked together before the first measurement (see ks-engine.h). */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-engine-private.h"
#include "ks-io-file.h"


typedef struct {
  char *option;
  char *path;
  GStrv names;
} KsEngineFile;

static void
engine_file_free (gpointer data)
{
  KsEngineFile *f = data;

  g_free (f->option);
  g_free (f->path);
  g_strfreev (f->names);
  g_free (f);
}

void
ks_engine_add_output (KsEngine           *self,
                      const char         *option,
                      const char         *path,
                      const char * const *names)
{
  KsEngineFile *f;

  g_return_if_fail (KS_IS_ENGINE (self));
  g_return_if_fail (path != NULL);

  if (self->extra_outputs == NULL)
    self->extra_outputs = g_ptr_array_new_with_free_func (engine_file_free);
  f = g_new0 (KsEngineFile, 1);
  f->option = g_strdup (option);
  f->path = g_strdup (path);
  f->names = g_strdupv ((char **) names);
  g_ptr_array_add (self->extra_outputs, f);
}

void
ks_engine_add_input (KsEngine   *self,
                     const char *path)
{
  g_return_if_fail (KS_IS_ENGINE (self));
  g_return_if_fail (path != NULL);

  if (self->extra_inputs == NULL)
    self->extra_inputs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->extra_inputs, g_strdup (path));
}

/* The parameters' files: every FILE parameter given is an input (even
 * one its condition leaves unused: an output of the same name is a
 * mistake all the same), every output parameter not "" an output. */
static void
collect_params (KsEngine  *self,
                GArray    *outputs,
                GPtrArray *inputs,
                GPtrArray *options)
{
  const KsExperimentDesc *desc = self->desc;

  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];
      GPtrArray *given = self->given[i];

      if (spec->type != KS_PARAM_FILE && spec->output == KS_OUTPUT_NONE)
        continue;
      for (guint k = 0; given != NULL && k < given->len; k++)
        {
          const char *value = g_variant_get_string (given->pdata[k], NULL);
          KsIoOutput o = { value, NULL, spec->output_names };

          if (spec->type == KS_PARAM_FILE)
            g_ptr_array_add (inputs, (gpointer) value);
          else if (*value != '\0')
            {
              o.option = g_strdup_printf ("--%s", ks_param_spec_option (spec));
              g_ptr_array_add (options, (gpointer) o.option);
              g_array_append_val (outputs, o);
            }
        }
    }
}

gboolean
ks_engine_check_files (KsEngine  *self,
                       GError   **error)
{
  g_autoptr(GArray) outputs = g_array_new (FALSE, TRUE, sizeof (KsIoOutput));
  g_autoptr(GPtrArray) inputs = g_ptr_array_new ();
  g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (KS_IS_ENGINE (self), FALSE);

  collect_params (self, outputs, inputs, options);
  for (guint i = 0; self->extra_outputs != NULL && i < self->extra_outputs->len; i++)
    {
      const KsEngineFile *f = self->extra_outputs->pdata[i];
      KsIoOutput o = { f->path, f->option, (const char * const *) f->names };
      g_array_append_val (outputs, o);
    }
  for (guint i = 0; self->extra_inputs != NULL && i < self->extra_inputs->len; i++)
    g_ptr_array_add (inputs, self->extra_inputs->pdata[i]);
  g_ptr_array_add (inputs, NULL);
  if (ks_io_check_outputs ((const KsIoOutput *) (gpointer) outputs->data, outputs->len,
                           (const char * const *) inputs->pdata, &local))
    return TRUE;
  g_set_error_literal (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID, local->message);
  return FALSE;
}
