/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-options.c: the options and --help of "run ID", generated from the
 * experiment's description: one option per parameter (its CLI name, its
 * help, its default, its choices, and how to sweep it), --from/--to/--step
 * for a parameter that asks for them, and the figure's options. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli-run.h"

#include <glib/gi18n.h>
#include <string.h>

static char *
option_name (const KsParamSpec *spec)
{
  return g_strdup (ks_param_spec_option (spec));
}

/* A flag (--graph) where a bool is off by default and takes one value. */
gboolean
ks_cli_param_is_flag (const KsParamSpec *spec)
{
  return spec->type == KS_PARAM_BOOL && !spec->sweepable && g_strcmp0 (spec->default_value, "true") != 0;
}

static char *
param_help (const KsParamSpec *spec)
{
  g_autoptr(GString) s = g_string_new (_(spec->help ? spec->help : spec->label));

  if (spec->type == KS_PARAM_CHOICE)
    {
      g_string_append (s, (". One of:"));
      for (const KsChoice *c = spec->choices; c->value; c++)
        g_string_append_printf (s, " %s%s", c->value, c[1].value ? "," : "");
    }
  if (spec->sweepable && spec->type != KS_PARAM_CHOICE && spec->type != KS_PARAM_BOOL)
    g_string_append (s, spec->type == KS_PARAM_INT
                        ? (". Sweep it with a list (1,2,5), a range from:to[:step] or powers 2^a:2^b")
                        : (". Sweep it with a list (0.5,1) or a range from:to:step"));
  else if (spec->sweepable)
    g_string_append (s, (". Several values, comma-separated, are swept"));
  if (spec->unit)
    g_string_append_printf (s, (". Unit: %s"), spec->unit);
  if (spec->when.param)
    {
      g_autofree char *values = g_strjoinv ("|", (char **) spec->when.values);
      g_string_append_printf (s, (". Only when --%s is %s"), spec->when.param, values);
    }
  if (spec->backends == KS_BACKENDS_CUDA)
    g_string_append (s, (". CUDA devices only"));
  else if (spec->backends == KS_BACKENDS_GPU)
    g_string_append (s, (". OpenCL and CUDA devices only"));
  if (spec->device_default)
    g_string_append (s, (". Default: chosen for the device, and said"));
  else if (spec->default_value && !ks_cli_param_is_flag (spec))
    g_string_append_printf (s, (". Default: %s"), spec->default_value);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static const char *
param_arg (const KsParamSpec *spec)
{
  switch (spec->type)
    {
    case KS_PARAM_INT:    return spec->sweepable ? "LIST" : "N";
    case KS_PARAM_REAL:   return spec->sweepable ? "LIST" : "X";
    case KS_PARAM_BOOL:   return "true|false";
    case KS_PARAM_FILE:   return "FILE";
    case KS_PARAM_TEXT:   return "TEXT";
    case KS_PARAM_CHOICE:
    default:              return NULL;   /* the choices, set by the caller */
    }
}

void
ks_cli_run_options_clear (KsCliRunOptions *o)
{
  if (o->values)
    for (guint i = 0; i < o->n_params; i++)
      g_free (o->values[i]);
  g_free (o->values);
  g_free (o->flags);
  g_clear_pointer (&o->strings, g_ptr_array_unref);
  g_clear_pointer (&o->entries, g_array_unref);
  g_free (o->from);
  g_free (o->to);
  g_free (o->step);
  g_free (o->min_x);
  g_strfreev (o->devices);
  g_free (o->cores_per_cu_text);
  g_free (o->kernel_dir);
  g_free (o->csv);
  g_free (o->json);
  g_free (o->plot);
  g_free (o->images);
  g_free (o->figure);
  g_strfreev (o->overlays);
}

/* Keeps a string for the entries, which hold pointers. */
static const char *
keep (KsCliRunOptions *o,
      char            *s)
{
  g_ptr_array_add (o->strings, s);
  return s;
}

static void
add_entry (KsCliRunOptions *o,
           const char      *long_name,
           char             short_name,
           GOptionArg       arg,
           gpointer         data,
           const char      *help,
           const char      *arg_description)
{
  GOptionEntry e = { long_name, short_name, 0, arg, data, help, arg_description };
  g_array_append_val (o->entries, e);
}

static void
add_param_entries (KsCliRunOptions        *o,
                   const KsExperimentDesc *desc)
{
  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];
      const char *arg = param_arg (spec);
      g_autoptr(GString) choices = g_string_new (NULL);

      if (spec->type == KS_PARAM_CHOICE)
        {
          for (const KsChoice *c = spec->choices; c->value; c++)
            g_string_append_printf (choices, "%s%s", choices->len ? "|" : "", c->value);
          arg = keep (o, g_strdup (choices->str));
        }
      if (ks_cli_param_is_flag (spec))
        add_entry (o, keep (o, option_name (spec)), spec->short_name, G_OPTION_ARG_NONE, &o->flags[i],
                   keep (o, param_help (spec)), NULL);
      else
        add_entry (o, keep (o, option_name (spec)), spec->short_name, G_OPTION_ARG_STRING, &o->values[i],
                   keep (o, param_help (spec)), arg);
      if (spec->cli_range)
        {
          g_autofree char *name = option_name (spec);

          o->range_param = (int) i;
          add_entry (o, "from", 0, G_OPTION_ARG_STRING, &o->from,
                     keep (o, g_strdup_printf (("First value of --%s (with --to and --step)"), name)), "N");
          add_entry (o, "to", 0, G_OPTION_ARG_STRING, &o->to,
                     keep (o, g_strdup_printf (("Last value of --%s"), name)), "N");
          add_entry (o, "step", 0, G_OPTION_ARG_STRING, &o->step,
                     keep (o, g_strdup_printf (("Step between the values of --%s. Default: 1"), name)), "N");
        }
    }
}

/* The options every experiment shares. */
static void
add_common_entries (KsCliRunOptions        *o,
                    const KsExperimentDesc *desc)
{
  add_entry (o, "device", 'd', G_OPTION_ARG_STRING_ARRAY, &o->devices,
             ("Device: an id (opencl:0:0, cuda:0, host), an index from \"devices\", a kind one device is of "
               "(cuda, opencl, gpu, cpu, host), or part of its name, vendor or platform (pocl, nvidia, H200); "
               "repeat it to run the sweep on several devices, each a curve. Default: the first GPU, else "
               "the CPU through PoCL, else the host"), "DEVICE");
  add_entry (o, "cores-per-cu", 0, G_OPTION_ARG_STRING, &o->cores_per_cu_text,
             ("Cores per compute unit for the optimal-group rule, when the built-in table is wrong or silent"), "N");
  add_entry (o, "kernel-dir", 0, G_OPTION_ARG_FILENAME, &o->kernel_dir,
             ("Load kernels/*.cl from DIR (an edited copy) instead of the built-in sources"), "DIR");
  /* -d, -r and -q (and -h) are every run's: KS_RUN_SHORT_NAMES keeps the
   * parameters off them. */
  add_entry (o, "reps", 'r', G_OPTION_ARG_INT, &o->reps,
             ("Timed repetitions per point (the columns reduce them: median, min and max...). Default: 3"), "N");
  add_entry (o, "warmup", 0, G_OPTION_ARG_INT, &o->warmup, ("Untimed runs before each point. Default: 1"), "N");
  add_entry (o, "csv", 0, G_OPTION_ARG_FILENAME, &o->csv,
             ("Write the points to a CSV file (its first line is the header)"), "FILE");
  add_entry (o, "json", 0, G_OPTION_ARG_FILENAME, &o->json,
             ("Write the points with their context (devices, parameters, units, the command) to a JSON file"),
             "FILE");
  add_entry (o, "plot", 0, G_OPTION_ARG_FILENAME, &o->plot, ("Draw the figure to FILE.png, FILE.svg or FILE.pdf"),
             "FILE");
  if (desc->n_figures > 1)
    add_entry (o, "figure", 0, G_OPTION_ARG_STRING, &o->figure, ("Which figure --plot draws. Default: the first"),
               "ID");
  add_entry (o, "plot-size", 0, G_OPTION_ARG_INT, &o->plot_width,
             ("Plot width, 200 to 10000 (the height follows at 5:8). Default: 1200"), "PX");
  add_entry (o, "overlay", 0, G_OPTION_ARG_FILENAME_ARRAY, &o->overlays,
             ("Draw a recorded run of this experiment (run --json, or a shipped one named without its folder) "
               "over the plot, dashed and labelled \"recorded\"; repeatable"), "FILE.json");
  if (desc->images)
    add_entry (o, "images", 0, G_OPTION_ARG_FILENAME, &o->images,
               ("Write the pictures of each device's last measured point (e.g. the input and the result) "
                "as PNG files ID-dN-NAME.png into DIR (made if missing; N: the device's place in the run)"),
               "DIR");
  add_entry (o, "log-y", 0, G_OPTION_ARG_NONE, &o->log_y, ("Logarithmic y axis"), NULL);
  for (guint i = 0; i < desc->n_figures; i++)
    if (desc->figures[i].min_x_option)
      {
        add_entry (o, desc->figures[i].min_x_option, 0, G_OPTION_ARG_STRING, &o->min_x,
                   _(desc->figures[i].min_x_help), "X");
        break;
      }
  add_entry (o, "no-table", 0, G_OPTION_ARG_NONE, &o->no_table, ("Print only the summary, not every point"), NULL);
  add_entry (o, "quiet", 'q', G_OPTION_ARG_NONE, &o->quiet, ("No progress on stderr"), NULL);
}

GOptionContext *
ks_cli_run_options_init (KsCliRunOptions        *o,
                         const KsExperimentDesc *desc)
{
  GOptionContext *context;
  g_autofree char *summary = NULL;
  g_autoptr(GString) description = g_string_new (NULL);
  const GOptionEntry end = { NULL };

  memset (o, 0, sizeof *o);
  o->n_params = desc->n_params;
  o->values = g_new0 (char *, MAX (desc->n_params, 1));
  o->flags = g_new0 (gboolean, MAX (desc->n_params, 1));
  o->strings = g_ptr_array_new_with_free_func (g_free);
  o->entries = g_array_new (FALSE, FALSE, sizeof (GOptionEntry));
  o->range_param = -1;
  o->reps = 3;
  o->warmup = 1;
  o->plot_width = 1200;

  add_param_entries (o, desc);
  add_common_entries (o, desc);
  g_array_append_val (o->entries, end);

  summary = g_strdup_printf ("%s - %s", desc->id, _(desc->title));
  context = g_option_context_new (summary);
  g_option_context_add_main_entries (context, (const GOptionEntry *) o->entries->data, GETTEXT_PACKAGE);
  g_string_append_printf (description, "%s\n\n", _(desc->claim ? desc->claim : desc->summary));
  g_string_append (description, ("Each parameter is also a key of the CSV and JSON files. Progress goes to "
                                  "stderr; Ctrl+C stops the sweep and keeps (and writes) what was measured; a "
                                  "run that measured nothing writes nothing and exits 1."));
  if (desc->example)
    g_string_append_printf (description, ("\nExample:\n  kernelscope-cli run %s %s"), desc->id, desc->example);
  g_option_context_set_description (context, description->str);
  return context;
}
