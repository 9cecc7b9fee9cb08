/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli plot: draw saved results (JSON from run --json) again,
 * one or several in the same axes, e.g. the driver's group size against
 * split, or a run on this machine against one recorded on a GPU server. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-reference.h"
#include "ks-results-plot.h"

int
ks_cli_plot (int    argc,
             char **argv)
{
  char *out = NULL, *title = NULL;
  int width = 1200, min_wg = 0;
  gboolean log_y = FALSE, list_recorded = FALSE;
  g_auto(GStrv) overlays = NULL;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "The plot to write: FILE.png, FILE.svg or FILE.pdf", "FILE" },
    { "title", 't', 0, G_OPTION_ARG_STRING, &title, "Title instead of the experiment's", "TEXT" },
    { "plot-size", 0, 0, G_OPTION_ARG_INT, &width, "Width (the height follows at 5:8). Default: 1200", "PX" },
    { "log-y", 0, 0, G_OPTION_ARG_NONE, &log_y, "Logarithmic time axis", NULL },
    { "overlay", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &overlays,
      "Draw a recorded run dashed and labelled \"recorded: DEVICE (BACKEND)\"; a shipped run may be "
      "named without its folder (see --list-recorded); repeatable", "FILE.json" },
    { "list-recorded", 0, 0, G_OPTION_ARG_NONE, &list_recorded, "List the recorded runs shipped with Kernelscope", NULL },
    { "min-wg", 0, 0, G_OPTION_ARG_INT, &min_wg, "Work-group plots: leave out groups smaller than N (Fig. 4 hides wg = 1)", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("RESULTS.json... - draw saved results, overlaid");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) ks_results_free);
  int status = KS_CLI_OK;
  KsPlotFormat format;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Each file is one run saved with \"run ... --json\". All must be of the same experiment\n"
    "(gauss-size or gauss-wg); each becomes its own curve(s), named after its device and policy.\n"
    "Example: kernelscope-cli plot driver.json split.json -o compare.svg");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (list_recorded)
    {
      g_autoptr(GPtrArray) refs = ks_reference_list ();

      g_print ("Recorded runs in %s:\n", ks_reference_dir () ? ks_reference_dir () : "(none found)");
      for (guint i = 0; i < refs->len; i++)
        {
          const KsReference *ref = g_ptr_array_index (refs, i);
          g_autofree char *base = g_path_get_basename (ref->path);
          g_print ("  %-44s %-10s %4u points  %s\n", base, ks_experiment_kind_to_string (ref->kind),
                   ref->n_points, ref->label);
        }
      goto out;
    }
  if (argc < 2 || out == NULL)
    {
      g_printerr ("kernelscope-cli: plot needs at least one RESULTS.json and --out FILE\n");
      status = KS_CLI_USAGE;
      goto out;
    }
  if (width < 200 || min_wg < 0 || !ks_plot_format_from_filename (out, &format, &error))
    {
      if (error == NULL)
        g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--plot-size must be at least 200");
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }

  for (int i = 1; i < argc; i++)
    {
      KsResults *r = ks_results_load_json (argv[i], &error);
      if (r == NULL)
        {
          status = ks_cli_fail (KS_CLI_FAILED, error);
          goto out;
        }
      if (all->len > 0 && r->kind != ((KsResults *) all->pdata[0])->kind)
        {
          g_printerr ("kernelscope-cli: %s is a %s run, %s a %s run: they do not share axes\n",
                      argv[i], ks_experiment_kind_to_string (r->kind), argv[1],
                      ks_experiment_kind_to_string (((KsResults *) all->pdata[0])->kind));
          ks_results_free (r);
          status = KS_CLI_USAGE;
          goto out;
        }
      g_ptr_array_add (all, r);
    }

  plot = ks_results_plot_new_compare ((const KsResults * const *) all->pdata, all->len, (guint) min_wg);
  if (!ks_cli_add_overlays (plot, ((KsResults *) all->pdata[0])->kind, overlays, (guint) min_wg, &error))
    {
      status = ks_cli_fail (KS_CLI_USAGE, error);
      goto out;
    }
  if (overlays)
    ks_plot_set_caption (plot, NULL);
  if (title)
    ks_plot_set_title (plot, title);
  if (log_y)
    ks_plot_set_log_y (plot, TRUE);
  if (!ks_plot_export (plot, out, width, width * 5 / 8, NULL, &error))
    {
      status = ks_cli_fail (KS_CLI_FAILED, error);
      goto out;
    }
  g_printerr ("Plot written to %s\n", out);

out:
  g_free (out);
  g_free (title);
  return status;
}
