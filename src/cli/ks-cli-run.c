/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli list / run ID: any registered experiment, through the
 * generic engine, with options generated from its description. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli-run.h"
#include "ks-cli-sigint.h"
#include "ks-engine.h"
#include "ks-figure.h"
#include "ks-image.h"
#include "ks-kernel-source.h"
#include "ks-registry.h"
#include "ks-verdict.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* --- list ------------------------------------------------------------------------- */

static void
print_list (FILE *out)
{
  g_autoptr(GPtrArray) papers = ks_registry_list_papers ();

  for (guint i = 0; i < papers->len; i++)
    {
      const KsPaperGroup *group = papers->pdata[i];

      fprintf (out, "%s%s  %s\n", i ? "\n" : "", group->id, group->title ? _(group->title) : "");
      /* A paper of the course without experiments yet: what is coming. */
      if (group->experiments->len == 0 && group->coming != NULL)
        fprintf (out, "  %s\n", _(group->coming));
      for (guint k = 0; k < group->experiments->len; k++)
        {
          const KsExperimentDesc *desc = group->experiments->pdata[k];
          fprintf (out, "  %-20s %s\n", desc->id, _(desc->summary ? desc->summary : desc->title));
        }
    }
}

int
ks_cli_list (int    argc,
             char **argv)
{
  if (argc > 1 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      g_print ("Usage: kernelscope-cli list\n\nEvery experiment, grouped by the paper it comes from; "
               "\"kernelscope-cli run ID --help\" tells more about one.\n");
      return KS_CLI_OK;
    }
  if (argc > 1)
    {
      g_printerr ("kernelscope-cli: list takes no arguments\n");
      return KS_CLI_USAGE;
    }
  print_list (stdout);
  return KS_CLI_OK;
}

/* --- progress, table ------------------------------------------------------------------ */

typedef struct {
  GMainLoop    *loop;
  GCancellable *cancellable;
  GError       *error;
  gboolean      quiet;
  gboolean      ok;
} RunState;

static void
append_axes (GString          *s,
             const KsRun      *run,
             const KsRunPoint *p)
{
  for (guint a = 0; run->axes[a]; a++)
    {
      GVariant *v = ks_run_point_get_param (run, p, run->axes[a]);
      g_autofree char *text = v ? ks_param_value_to_string (v) : g_strdup ("-");
      g_string_append_printf (s, " %s = %-6s", run->axes[a], text);
    }
  if (run->devices->len > 1)
    g_string_append_printf (s, " %s", ((KsRunDevice *) run->devices->pdata[p->device])->id);
}

static void
on_point (KsEngine         *engine,
          const KsRunPoint *p,
          guint64           done,
          guint64           total,
          RunState         *state)
{
  const KsRun *run = ks_engine_get_run (engine);
  const KsExperimentDesc *desc = run->desc;
  g_autoptr(GString) s = g_string_new (NULL);

  if (state->quiet)
    return;
  g_string_append_printf (s, "[%4" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "]", done, total);
  append_axes (s, run, p);
  if (p->error)
    g_string_append_printf (s, " skipped: %s", p->error);
  else if (desc->n_columns > 0)
    {
      const KsColumnSpec *c = &desc->columns[0];
      g_string_append_printf (s, " %10.4g %s", p->values[0], c->unit ? c->unit : "");
      if (c->reduce == KS_REDUCE_MEDIAN_RANGE)
        g_string_append_printf (s, " (min %.4g, max %.4g)", p->lo[0], p->hi[0]);
      for (guint i = 0; i < desc->n_columns; i++)
        if (desc->columns[i].kind == KS_COLUMN_BOOL && p->values[i] > 0)
          g_string_append_printf (s, "  %s", _(desc->columns[i].label));
    }
  g_string_append_printf (s, "  ~%.0f s left", MAX (ks_engine_get_seconds_left (engine), 0.0));
  g_printerr ("%s\n", s->str);
}

static void
print_table (const KsRun *run)
{
  const KsExperimentDesc *desc = run->desc;
  g_autoptr(GString) s = g_string_new ("\n");

  for (guint a = 0; run->axes[a]; a++)
    g_string_append_printf (s, "%10s ", run->axes[a]);
  for (guint i = 0; i < desc->n_columns; i++)
    if (!desc->columns[i].hidden && desc->columns[i].kind != KS_COLUMN_BOOL)
      {
        g_autofree char *head = desc->columns[i].unit ? g_strdup_printf ("%s %s", desc->columns[i].name,
                                                                          desc->columns[i].unit)
                                                      : g_strdup (desc->columns[i].name);
        g_string_append_printf (s, "%14s ", head);
      }
  /* Several -d: each row says whose it is, last, so that the columns
   * before it stand where a one-device run has them. */
  if (run->devices->len > 1)
    g_string_append (s, "device");
  g_string_append_c (s, '\n');
  for (guint k = 0; k < run->points->len; k++)
    {
      const KsRunPoint *p = run->points->pdata[k];

      for (guint a = 0; run->axes[a]; a++)
        {
          GVariant *v = ks_run_point_get_param (run, p, run->axes[a]);
          g_autofree char *text = v ? ks_param_value_to_string (v) : g_strdup ("-");
          g_string_append_printf (s, "%10s ", text);
        }
      if (p->error)
        {
          g_string_append_printf (s, "%s%s%s\n", p->error, run->devices->len > 1 ? " " : "",
                                  run->devices->len > 1 ? ((KsRunDevice *) run->devices->pdata[p->device])->id : "");
          continue;
        }
      for (guint i = 0; i < desc->n_columns; i++)
        if (!desc->columns[i].hidden && desc->columns[i].kind != KS_COLUMN_BOOL)
          g_string_append_printf (s, "%14.6g ", p->values[i]);
      for (guint i = 0; i < desc->n_columns; i++)
        if (desc->columns[i].kind == KS_COLUMN_BOOL && p->values[i] > 0)
          g_string_append_printf (s, "%s ", _(desc->columns[i].label));
      if (run->devices->len > 1)
        g_string_append (s, ((KsRunDevice *) run->devices->pdata[p->device])->id);
      g_string_append_c (s, '\n');
    }
  g_print ("%s", s->str);
}

/* Whether the paper's claim holds on each device, and what to run where
 * this run cannot say (ks-verdict.h), with the options that run it. */
static void
print_verdicts (const KsRun *run)
{
  for (guint d = 0; d < run->devices->len; d++)
    {
      g_autoptr(KsVerdict) v = ks_run_judge (run, d);
      const KsRunDevice *device = run->devices->pdata[d];
      GHashTableIter iter;
      gpointer name, value;

      if (v == NULL)
        continue;
      g_print ("\nVerdict on %s: %s\n", device->name, v->text);
      if (v->values == NULL)
        continue;
      g_print ("  %s:", v->suggestion);
      g_hash_table_iter_init (&iter, v->values);
      while (g_hash_table_iter_next (&iter, &name, &value))
        {
          int i = ks_experiment_desc_find_param (run->desc, name);

          g_print (" --%s %s", i >= 0 ? ks_param_spec_option (&run->desc->params[i]) : (const char *) name,
                   (const char *) value);
        }
      g_print ("\n");
    }
}

/* The paper's own numbers beside what this run measured. */
static void
print_paper (const KsRun *run)
{
  const KsExperimentDesc *desc = run->desc;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (desc->n_paper_values == 0)
    return;
  g_print ("\nThe paper's numbers beside this run's:\n");
  for (guint i = 0; i < desc->n_paper_values; i++)
    {
      const KsPaperValue *v = &desc->paper_values[i];

      g_print ("  %s%s%s = %s%s%s (%s)\n", v->column, v->where && *v->where ? " at " : "",
               v->where ? v->where : "", ks_run_format_double (buf, v->value), v->unit ? " " : "",
               v->unit ? v->unit : "", v->source ? _(v->source) : "");
      if (v->note)
        g_print ("    %s\n", _(v->note));
      for (guint d = 0; d < run->devices->len; d++)
        {
          double m = ks_run_measured_for (run, v, d);
          const KsRunDevice *device = run->devices->pdata[d];

          if (isnan (m))
            g_print ("    %s: not measured here\n", device->name);
          else
            g_print ("    %s: %s%s%s\n", device->name, ks_run_format_double (buf, m), v->unit ? " " : "",
                     v->unit ? v->unit : "");
        }
    }
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  RunState *state = user_data;

  state->ok = ks_engine_run_finish (KS_ENGINE (source), result, &state->error);
  g_main_loop_quit (state->loop);
}

static gboolean
on_sigint (gpointer user_data)
{
  RunState *state = user_data;

  g_printerr ("\nStopping: keeping the points measured so far…\n");
  g_cancellable_cancel (state->cancellable);
  return G_SOURCE_CONTINUE;
}

/* --- setting up ------------------------------------------------------------------------- */

static int
status_for (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return KS_CLI_CANCELLED;
  if (error && (error->domain == G_OPTION_ERROR ||
                (error->domain == KS_EXPERIMENT_ERROR && error->code != KS_EXPERIMENT_ERROR_NOTHING &&
                 error->code != KS_EXPERIMENT_ERROR_REFUSED)))
    return KS_CLI_USAGE;
  return KS_CLI_FAILED;
}

/* One of --from/--to/--step as a whole number: a single value of spec's
 * (--from, --to), or a step from 1 up. */
static gboolean
range_bound (const KsParamSpec *spec,
             const char        *option,
             const char        *text,
             gint64            *out,
             GError           **error)
{
  g_autoptr(GVariant) v = NULL;

  if (text == NULL)
    return TRUE;
  if (option != NULL)
    {
      if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, out, NULL))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--%s: \"%s\" is not a whole number"),
                       option, text);
          return FALSE;
        }
      if (*out < 1)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--%s %s: the step must be at least 1"),
                       option, text);
          return FALSE;
        }
      return TRUE;
    }
  /* One value, as the parameter takes it: "3,7" is no end. */
  if (!(v = ks_param_parse_value (spec, text, error)))
    return FALSE;
  *out = g_variant_get_int64 (v);
  return TRUE;
}

/* --from/--to/--step as the axis of their parameter, made here value by
 * value: no text between them and the engine.  Missing ones from the
 * parameter's default (a missing --to is at least --from). */
static GPtrArray *
range_axis (const KsParamSpec *spec,
            KsCliRunOptions   *o,
            GError           **error)
{
  g_autoptr(GPtrArray) defaults = ks_param_parse_axis (spec, spec->default_value ? spec->default_value : "1", error);
  g_autoptr(GPtrArray) axis = NULL;
  gint64 first, last, step = 1;
  guint64 count;

  if (defaults == NULL)
    return NULL;
  first = g_variant_get_int64 (defaults->pdata[0]);
  last = g_variant_get_int64 (defaults->pdata[defaults->len - 1]);
  if (!range_bound (spec, NULL, o->from, &first, error))
    return NULL;
  last = MAX (first, last);
  if (!range_bound (spec, NULL, o->to, &last, error) || !range_bound (spec, "step", o->step, &step, error))
    return NULL;
  if (last < first)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--from %lld --to %lld: the range is empty (it starts above its end)"), (long long) first,
                   (long long) last);
      return NULL;
    }
  count = ((guint64) last - (guint64) first) / (guint64) step + 1;
  if (count > KS_MAX_AXIS_VALUES)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_TOO_LARGE,
                   _("--%s has too many values"), ks_param_spec_option (spec));
      return NULL;
    }
  axis = g_ptr_array_new_full ((guint) count, (GDestroyNotify) g_variant_unref);
  for (guint64 k = 0; k < count; k++)
    g_ptr_array_add (axis, g_variant_ref_sink (g_variant_new_int64 (first + (gint64) (k * (guint64) step))));
  return g_steal_pointer (&axis);
}

static gboolean
set_params (KsEngine        *engine,
            KsCliRunOptions *o,
            GError         **error)
{
  const KsExperimentDesc *desc = ks_engine_get_desc (engine);

  for (guint i = 0; i < desc->n_params; i++)
    {
      const KsParamSpec *spec = &desc->params[i];
      const char *text = o->values[i];
      g_autoptr(GPtrArray) range = NULL;

      if ((int) i == o->range_param && (o->from || o->to || o->step))
        {
          if (text)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           ("--%s and --from/--to/--step say the same thing: give one of them"),
                           spec->cli_name ? spec->cli_name : spec->name);
              return FALSE;
            }
          if (!(range = range_axis (spec, o, error)))
            return FALSE;
        }
      else if (o->flags[i])
        {
          range = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
          g_ptr_array_add (range, g_variant_ref_sink (g_variant_new_boolean (TRUE)));
        }
      if (range ? !ks_engine_set_axis (engine, i, range, error)
                : text && !ks_engine_set (engine, spec->name, text, error))
        return FALSE;
    }
  if (o->reps < 0 || o->warmup < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, ("--reps and --warmup must not be negative"));
      return FALSE;
    }
  if (!ks_cli_parse_cores_per_cu (o->cores_per_cu_text, &o->cores_per_cu, error))
    return FALSE;
  return ks_engine_set_repetitions (engine, (guint) o->warmup, (guint) o->reps, error);
}

static gboolean
add_devices (KsEngine        *engine,
             KsDeviceList    *list,
             KsCliRunOptions *o,
             GError         **error)
{
  KsDevice *device;

  if (o->devices == NULL)
    {
      if (!(device = ks_cli_pick_device (list, NULL, o->cores_per_cu, o->quiet, error)))
        return FALSE;
      ks_engine_add_device (engine, device);
      return TRUE;
    }
  for (guint i = 0; o->devices[i]; i++)
    {
      if (!(device = ks_cli_pick_device (list, o->devices[i], o->cores_per_cu, o->quiet, error)))
        return FALSE;
      ks_engine_add_device (engine, device);
    }
  return TRUE;
}

/* --images DIR: a folder that exists or can be made, and that can be
 * written; made now, so that a bad one stops the run before it starts. */
static gboolean
check_images_dir (const char  *dir,
                  GError     **error)
{
  if (g_file_test (dir, G_FILE_TEST_EXISTS) && !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--images %s is not a folder", dir);
      return FALSE;
    }
  if (g_mkdir_with_parents (dir, 0777) != 0 || g_access (dir, W_OK) != 0)
    {
      int saved = errno;
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--images %s cannot be written: %s", dir,
                   g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/* Each device's last pictures as DIR/ID-dN-NAME.png. */
static int
write_images (KsEngine        *engine,
              KsCliRunOptions *o)
{
  const KsExperimentDesc *desc = ks_engine_get_desc (engine);
  const KsRun *run = ks_engine_get_run (engine);
  int status = KS_CLI_OK;

  for (guint d = 0; d < run->devices->len; d++)
    {
      GPtrArray *images = ks_engine_get_images (engine, d);

      for (guint i = 0; images && i < images->len; i++)
        {
          const KsImage *image = images->pdata[i];
          g_autofree char *base = g_strdup_printf ("%s-d%u-%s.png", desc->id, d, image->name);
          g_autofree char *path = g_build_filename (o->images, base, NULL);
          g_autoptr(GError) error = NULL;

          if (!ks_image_write_png (image, path, &error))
            status = ks_cli_fail (KS_CLI_FAILED, error);
          else if (!o->quiet)
            g_printerr ("Picture written to %s (%s)\n", path, image->label);
        }
    }
  return status;
}

/* The command's own files, for the engine to check with the experiment's
 * (--file, --frames, --gif, --save-partition ...). */
static void
add_files (KsEngine        *engine,
           KsCliRunOptions *o)
{
  const char *options[] = { "--csv", "--json", "--plot" };
  const char *outputs[] = { o->csv, o->json, o->plot };
  g_autofree char *images = g_strdup_printf ("%s-d*-*.png", ks_engine_get_desc (engine)->id);
  const char *names[] = { images, NULL };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (outputs[i])
      ks_engine_add_output (engine, options[i], outputs[i], NULL);
  if (o->images)
    ks_engine_add_output (engine, "--images", o->images, names);
  for (guint i = 0; o->overlays && o->overlays[i]; i++)
    {
      g_autofree char *path = ks_cli_resolve_run_path (o->overlays[i]);
      ks_engine_add_input (engine, path);
    }
}

/* Everything a run reads or writes besides the devices, checked before the
 * first measurement (and before any device opens): the outputs can be
 * written, no output is an input or another output, every overlay loads
 * and is of this experiment. */
static gboolean
check_files (KsEngine               *engine,
             KsCliRunOptions        *o,
             GPtrArray             **overlays,
             KsFigureOptions        *figure_options,
             GError                **error)
{
  const KsExperimentDesc *desc = ks_engine_get_desc (engine);
  KsPlotFormat format;

  ks_figure_options_init (figure_options);
  figure_options->log_y = o->log_y;
  if (o->min_x)
    {
      char *end = NULL;
      figure_options->min_x = g_ascii_strtod (o->min_x, &end);
      if (end == o->min_x || *end != '\0' || isnan (figure_options->min_x))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, ("\"%s\" is not a number"), o->min_x);
          return FALSE;
        }
    }
  if (o->plot_width < 200 || o->plot_width > 10000)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, ("--plot-size must lie between 200 and 10000"));
      return FALSE;
    }
  if (o->figure && ks_experiment_desc_find_figure (desc, o->figure) < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, ("%s has no figure \"%s\""), desc->id, o->figure);
      return FALSE;
    }
  if (o->plot && !ks_plot_format_from_filename (o->plot, &format, error))
    return FALSE;
  if (o->overlays && !o->plot)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   ("--overlay draws on the plot: give --plot FILE too"));
      return FALSE;
    }
  if (!(*overlays = ks_cli_load_runs (desc, o->overlays, TRUE, error)))
    return FALSE;
  add_files (engine, o);
  return ks_engine_check_files (engine, error) && (o->images == NULL || check_images_dir (o->images, error));
}

/* The outputs of a run that measured something. */
static int
write_outputs (const KsExperimentDesc *desc,
               KsRun                  *run,
               KsCliRunOptions        *o,
               GPtrArray              *overlays,
               const KsFigureOptions  *figure_options)
{
  g_autoptr(GError) error = NULL;
  const KsFigureSpec *figure = o->figure ? &desc->figures[ks_experiment_desc_find_figure (desc, o->figure)] : NULL;
  int status = KS_CLI_OK;

  if (o->csv && !ks_run_write_csv (run, o->csv, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
  if (o->json && !ks_run_write_json (run, o->json, &error))
    status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
  if (o->plot)
    {
      g_autoptr(KsPlot) plot = ks_figure_plot_new (figure, &run, 1, figure_options);

      for (guint i = 0; i < overlays->len; i++)
        ks_figure_add_recorded (figure, plot, overlays->pdata[i], figure_options);
      if (!ks_plot_export (plot, o->plot, o->plot_width, o->plot_width * 5 / 8, NULL, &error))
        status = ks_cli_fail (KS_CLI_FAILED, error), g_clear_error (&error);
      else if (!o->quiet)
        g_printerr ("Plot written to %s\n", o->plot);
    }
  return status;
}

static int
run_usage (const char *id)
{
  if (id)
    g_printerr ("kernelscope-cli: unknown experiment \"%s\"; the experiments are:\n", id);
  else
    g_printerr ("kernelscope-cli: run needs an experiment; the experiments are:\n");
  print_list (stderr);
  return KS_CLI_USAGE;
}

static void
print_plan (KsEngine        *engine,
            KsCliRunOptions *o)
{
  const char * const *notes = ks_engine_get_notes (engine);
  const char * const *warnings = ks_engine_get_warnings (engine);

  /* -q hides progress, not what is wrong with the user's own options. */
  for (guint i = 0; warnings[i]; i++)
    g_printerr ("kernelscope-cli: warning: %s\n", warnings[i]);
  if (o->quiet)
    return;
  for (guint i = 0; notes[i]; i++)
    if (!g_strv_contains (warnings, notes[i]))
      g_printerr ("%s\n", notes[i]);
  g_printerr ("Running %s: %" G_GUINT64_FORMAT " points, %d warm-up + %d timed runs each\n",
              ks_engine_get_desc (engine)->id, ks_engine_get_n_points (engine), o->warmup, o->reps);
}

/* Runs the engine on a main loop that Ctrl+C cancels (ks-cli-sigint.h,
 * begun by the caller); the run keeps every point measured. */
static gboolean
run_engine (KsEngine  *engine,
            gboolean   quiet,
            GError   **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  RunState state = { loop, cancellable, NULL, quiet, FALSE };

  g_signal_connect (engine, "point-measured", G_CALLBACK (on_point), &state);
  /* LLVM compiles the kernels while the engine sets up: our handler back
   * after each point too, not only every 100 ms. */
  g_signal_connect_swapped (engine, "point-measured", G_CALLBACK (ks_cli_sigint_ensure), NULL);
  ks_cli_sigint_watch (on_sigint, &state);
  ks_engine_run_async (engine, cancellable, on_run_done, &state);
  g_main_loop_run (loop);
  ks_cli_sigint_unwatch ();
  if (!state.ok)
    g_propagate_error (error, state.error);
  return state.ok;
}

/* The command line's parameters, files and devices into engine, and its
 * plan checked; a status other than KS_CLI_OK where one is refused. */
static int
set_up_engine (KsEngine         *engine,
               KsDeviceList     *list,
               KsCliRunOptions  *o,
               GPtrArray       **overlays,
               KsFigureOptions  *figure_options)
{
  g_autoptr(GError) error = NULL;

  if (!set_params (engine, o, &error))
    return ks_cli_fail (status_for (error), error);
  /* A file that cannot be read or written is a bad command line. */
  if (!check_files (engine, o, overlays, figure_options, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (!add_devices (engine, list, o, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (!ks_engine_prepare (engine, &error))
    return ks_cli_fail (status_for (error), error);
  return KS_CLI_OK;
}

/* "run" without an experiment: --help lists them, anything else is a usage error. */
static int
run_without_id (int    argc,
                char **argv)
{
  if (argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      g_print ("Usage: kernelscope-cli run ID [OPTION...]\n\nThe experiments:\n\n");
      print_list (stdout);
      g_print ("\n\"kernelscope-cli run ID --help\" lists the options of one.\n");
      return KS_CLI_OK;
    }
  return run_usage (NULL);
}

/* After the run (rank 0's): the table, the summary, the verdicts, the
 * paper's numbers and the files; the run's status, or the files'. */
static int
report_run (const KsExperimentDesc *desc,
            KsEngine               *engine,
            KsCliRunOptions        *o,
            GPtrArray              *overlays,
            KsFigureOptions        *figure_options,
            int                     status)
{
  KsRun *run = ks_engine_get_run (engine);
  guint measured;

  measured = ks_run_count_measured (run);
  /* A run that measured nothing replaces no file the user has. */
  if (measured == 0)
    {
      if (o->csv || o->json || o->plot || o->images)
        g_printerr ("kernelscope-cli: nothing was measured, so no file was written\n");
      return status == KS_CLI_OK ? KS_CLI_FAILED : status;
    }
  if (status != KS_CLI_OK)
    g_printerr ("kernelscope-cli: %s; writing the %u points measured\n",
                run->stop_reason ? run->stop_reason : "stopped", measured);
  if (!o->no_table)
    print_table (run);
  if (desc->summarize)
    {
      g_autoptr(GString) summary = g_string_new (NULL);
      desc->summarize (run, summary);
      g_print ("%s", summary->str);
    }
  print_verdicts (run);
  print_paper (run);
  {
    int written = write_outputs (desc, run, o, overlays, figure_options);
    status = status == KS_CLI_OK ? written : status;
    if (o->images)
      {
        written = write_images (engine, o);
        status = status == KS_CLI_OK ? written : status;
      }
  }

  return status;
}

int
ks_cli_run (int    argc,
            char **argv)
{
  const KsExperimentDesc *desc;
  KsCliRunOptions o;
  KsFigureOptions figure_options;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(KsEngine) engine = NULL;
  g_autoptr(GPtrArray) overlays = NULL;
  g_autofree char *command = ks_cli_join_argv ("kernelscope-cli run", argc, argv);
  int status = KS_CLI_OK;

  if (argc < 2 || argv[1][0] == '-')
    return run_without_id (argc, argv);
  if (!(desc = ks_registry_lookup (argv[1])))
    return run_usage (argv[1]);

  context = ks_cli_run_options_init (&o, desc);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (argc > 2)
    {
      g_printerr ("kernelscope-cli: unexpected argument \"%s\"\n", argv[2]);
      status = KS_CLI_USAGE;
      goto out;
    }
  /* Under mpirun only rank 0 speaks (ks-cli-main.c). */
  if (ks_cli_is_follower ())
    o.quiet = TRUE;
  if (o.kernel_dir)
    ks_kernel_source_set_dir (o.kernel_dir);
  /* Ctrl+C is ours from before the devices open (ks-cli-sigint.h says why). */
  if (!ks_cli_sigint_begin (&error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }

  engine = ks_engine_new (desc);
  ks_engine_set_command (engine, command);
  list = ks_device_list_new ();
  if ((status = set_up_engine (engine, list, &o, &overlays, &figure_options)) != KS_CLI_OK)
    goto out;
  if (!ks_cli_is_follower ())
    print_plan (engine, &o);
  /* Pressed while the devices opened and the sweep was checked: nothing
   * was measured, so nothing is written. */
  ks_cli_sigint_ensure ();
  if (ks_cli_sigint_pending ())
    {
      if (!ks_cli_is_follower ())
        g_printerr ("\nStopped before the first measurement: nothing was measured, so no file was written\n");
      status = KS_CLI_CANCELLED;
      goto out;
    }

  if (!run_engine (engine, o.quiet || ks_cli_is_follower (), &error))
    {
      status = status_for (error);
      if (!ks_cli_is_follower ())
        g_printerr ("kernelscope-cli: %s\n", error->message);
    }
  if (!ks_cli_is_follower ())
    status = report_run (desc, engine, &o, overlays, &figure_options, status);

out:
  ks_cli_sigint_end ();
  ks_cli_run_options_clear (&o);
  return status;
}
