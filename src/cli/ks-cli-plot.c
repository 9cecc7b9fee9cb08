/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli plot: draw saved results (JSON from run --json, any
 * experiment, any format) again, one or several in the same axes, e.g. the
 * driver's group size against split, or a run on this machine against one
 * recorded on a GPU server. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-figure.h"
#include "ks-recorded.h"
#include "ks-reference.h"
#include "ks-registry.h"

#include <math.h>

static void
list_recorded (void)
{
  g_autoptr(GPtrArray) recorded = ks_recorded_list (NULL);

  g_print ("Recorded runs in %s:\n", ks_reference_dir () ? ks_reference_dir () : "(none found)");
  for (guint i = 0; i < recorded->len; i++)
    {
      const KsRecorded *r = g_ptr_array_index (recorded, i);
      g_autofree char *base = g_path_get_basename (r->path);
      g_print ("  %-44s %-10s %4u points  %s\n", base, r->run->desc->id, r->run->points->len, r->label);
    }
}

/* The options of the figures that leave out small x (--min-wg), from every
 * registered description, all setting one value. */
static void
add_min_x_entries (GOptionContext *context,
                   char          **min_x)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  g_autoptr(GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < all->len; i++)
    {
      const KsExperimentDesc *desc = all->pdata[i];

      for (guint f = 0; f < desc->n_figures; f++)
        {
          const KsFigureSpec *fig = &desc->figures[f];
          GOptionEntry e = { fig->min_x_option, 0, 0, G_OPTION_ARG_STRING, min_x, fig->min_x_help, "X" };

          if (fig->min_x_option == NULL || !g_hash_table_add (seen, (gpointer) fig->min_x_option))
            continue;
          e.description = fig->min_x_help ? fig->min_x_help : "";
          g_array_append_val (entries, e);
        }
    }
  g_option_context_add_main_entries (context, (const GOptionEntry *) entries->data, GETTEXT_PACKAGE);
}

static gboolean
parse_min_x (const char      *text,
             KsFigureOptions *options,
             GError         **error)
{
  char *end = NULL;

  if (text == NULL)
    return TRUE;
  options->min_x = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || isnan (options->min_x))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "\"%s\" is not a number", text);
      return FALSE;
    }
  return TRUE;
}

/* Why the figure draws nothing from the files, each named: the export's
 * own "the plot has no points" says neither which file nor why. */
static char *
why_nothing_drawn (GPtrArray          *runs,
                   char              **files,
                   const KsFigureSpec *figure)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < runs->len; i++)
    {
      const KsRun *run = runs->pdata[i];
      const KsFigureSpec *f = figure ? figure : run->desc->n_figures > 0 ? &run->desc->figures[0] : NULL;
      const char *first_error = NULL;
      guint ok = 0;

      for (guint k = 0; k < run->points->len; k++)
        {
          const KsRunPoint *p = run->points->pdata[k];

          if (p->error == NULL)
            ok++;
          else if (first_error == NULL)
            first_error = p->error;
        }
      if (s->len > 0)
        g_string_append (s, "; ");
      if (run->devices->len == 0)
        g_string_append_printf (s, "%s holds no devices and no points (nothing was measured)", files[i]);
      else if (run->points->len == 0)
        g_string_append_printf (s, "%s holds %u device(s) but no points (nothing was measured)", files[i],
                                run->devices->len);
      else if (ok == 0)
        g_string_append_printf (s, "every point of %s was refused (the first: %s)", files[i], first_error);
      else
        g_string_append_printf (s, "none of the %u points of %s has both %s and %s for the figure", ok, files[i],
                                f ? f->x : "x", f ? f->y : "y");
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* The figure of runs (extra overlaid, recorded) drawn into out; the exit
 * status.  files: the runs' names, for saying why nothing was drawn. */
static int
draw_runs (const KsFigureSpec    *figure,
           GPtrArray             *runs,
           GPtrArray             *extra,
           const KsFigureOptions *options,
           const char            *title,
           const char            *out,
           int                    width,
           char                 **files)
{
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(GError) error = NULL;

  plot = ks_figure_plot_new (figure, (KsRun * const *) runs->pdata, runs->len, options);
  for (guint i = 0; i < extra->len; i++)
    ks_figure_add_recorded (figure, plot, extra->pdata[i], options);
  if (extra->len)
    ks_plot_set_caption (plot, NULL);
  if (title)
    ks_plot_set_title (plot, title);
  if (!ks_plot_has_data (plot))
    {
      g_autofree char *why = why_nothing_drawn (runs, files, figure);

      g_printerr ("kernelscope-cli: nothing to plot, so %s was not written: %s\n", out, why);
      return KS_CLI_FAILED;
    }
  if (!ks_plot_export (plot, out, width, width * 5 / 8, NULL, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  g_printerr ("Plot written to %s\n", out);
  return KS_CLI_OK;
}

int
ks_cli_plot (int    argc,
             char **argv)
{
  g_autofree char *out = NULL, *title = NULL, *min_x = NULL, *figure_id = NULL;
  int width = 1200;
  gboolean log_y = FALSE, recorded = FALSE;
  g_auto(GStrv) overlays = NULL;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "The plot to write: FILE.png, FILE.svg or FILE.pdf", "FILE" },
    { "title", 't', 0, G_OPTION_ARG_STRING, &title, "Title instead of the experiment's", "TEXT" },
    { "figure", 0, 0, G_OPTION_ARG_STRING, &figure_id, "Which of the experiment's figures. Default: the first", "ID" },
    { "plot-size", 0, 0, G_OPTION_ARG_INT, &width, "Width, 200 to 10000 (the height follows at 5:8). Default: 1200", "PX" },
    { "log-y", 0, 0, G_OPTION_ARG_NONE, &log_y, "Logarithmic y axis", NULL },
    { "overlay", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &overlays,
      "Draw a recorded run dashed and labelled \"recorded: DEVICE (BACKEND)\"; a shipped run may be "
      "named without its folder (see --list-recorded); repeatable", "FILE.json" },
    { "list-recorded", 0, 0, G_OPTION_ARG_NONE, &recorded, "List the recorded runs shipped with Kernelscope", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("RESULTS.json... - draw saved results, overlaid");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) runs = NULL;
  g_autoptr(GPtrArray) extra = NULL;
  const KsFigureSpec *figure = NULL;
  KsFigureOptions options;
  KsPlotFormat format;

  g_option_context_add_main_entries (context, entries, NULL);
  add_min_x_entries (context, &min_x);
  g_option_context_set_description (context,
    "Each file is one run saved with \"run ... --json\" (or a recorded one). All must be of the same\n"
    "experiment; each becomes its own curve(s), named after its device and policy.\n"
    "Example: kernelscope-cli plot driver.json split.json -o compare.svg");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (recorded)
    {
      list_recorded ();
      return KS_CLI_OK;
    }
  if (argc < 2 || out == NULL)
    {
      g_printerr ("kernelscope-cli: plot needs at least one RESULTS.json and --out FILE\n");
      return KS_CLI_USAGE;
    }
  ks_figure_options_init (&options);
  options.log_y = log_y;
  if (width < 200 || width > 10000)
    g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--plot-size must lie between 200 and 10000");
  if (error || !parse_min_x (min_x, &options, &error) || !ks_plot_format_from_filename (out, &format, &error) ||
      !ks_cli_check_output (out, argv + 1, &error) || !ks_cli_check_output (out, overlays, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);

  if (!(runs = ks_cli_load_runs (NULL, argv + 1, FALSE, &error)))
    return ks_cli_fail (error->domain == G_OPTION_ERROR ? KS_CLI_USAGE : KS_CLI_FAILED, error);
  if (!(extra = ks_cli_load_runs (((KsRun *) runs->pdata[0])->desc, overlays, TRUE, &error)))
    return ks_cli_fail (error->domain == G_OPTION_ERROR ? KS_CLI_USAGE : KS_CLI_FAILED, error);
  if (figure_id)
    {
      const KsExperimentDesc *desc = ((KsRun *) runs->pdata[0])->desc;
      int f = ks_experiment_desc_find_figure (desc, figure_id);

      if (f < 0)
        {
          g_printerr ("kernelscope-cli: %s has no figure \"%s\"\n", desc->id, figure_id);
          return KS_CLI_USAGE;
        }
      figure = &desc->figures[f];
    }

  return draw_runs (figure, runs, extra, &options, title, out, width, argv + 1);
}
