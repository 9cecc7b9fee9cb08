/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-roofline.c: "kernelscope-cli roofline RUN.json... -o r.png": saved
 * runs of any experiments and devices as points against each device's
 * measured triad (ks-roofline.h), the same plot as the window's Roofline
 * page, and a line per point saying its bound. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-bench-probes.h"
#include "ks-recorded.h"
#include "ks-roofline.h"

#include <math.h>
#include <string.h>

/* Probes the devices of this machine that the runs name (by name and
 * backend) and that no run gave a triad. */
static void
probe_missing (KsRoofline *roofline)
{
  g_autoptr(GPtrArray) missing = ks_roofline_missing_triads (roofline);
  g_autoptr(KsDeviceList) list = NULL;

  if (missing->len == 0)
    return;
  list = ks_device_list_new ();
  for (guint m = 0; m < missing->len; m++)
    {
      const KsRunDevice *dev = missing->pdata[m];

      for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
        {
          KsDevice *device = ks_device_list_get_device (list, i);
          KsBandwidth bw = { 0 };
          g_autoptr(GError) error = NULL;

          if (g_strcmp0 (ks_device_get_name (device), dev->name) != 0 ||
              g_strcmp0 (ks_backend_to_string (ks_device_get_backend (device)), dev->backend) != 0)
            continue;
          g_printerr ("Measuring the triad of %s (%s)...\n", dev->name, ks_run_device_get_backend_label (dev));
          if (ks_bench_probe_bandwidth (device, KS_PROBE_SIZE_BALANCE, 0, 5, &bw, &error))
            ks_roofline_set_triad (roofline, dev->name, dev->backend, bw.triad_gbs);
          else
            g_printerr ("kernelscope-cli: no triad for %s: %s\n", dev->name, error->message);
          break;
        }
    }
}

/* The shipped runs: every one teaches its devices' triads; those on the
 * roofline are drawn, labelled as recorded. */
static void
add_recorded (KsRoofline *roofline)
{
  g_autoptr(GPtrArray) recorded = ks_recorded_list (NULL);

  for (guint i = 0; i < recorded->len; i++)
    {
      KsRecorded *r = recorded->pdata[i];

      ks_roofline_add_run (roofline, r->run, "recorded");
    }
}

static void
print_points (KsRoofline *roofline,
              KsPlot     *plot)
{
  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    {
      g_autofree char *first = ks_roofline_point_text (roofline, s, 0);

      g_print ("%s\n", ks_plot_series_get_name (plot, s));
      for (guint i = 0; first != NULL && i < ks_plot_series_get_n_points (plot, s); i++)
        {
          g_autofree char *text = ks_roofline_point_text (roofline, s, i);
          g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
          g_autofree char *one = g_strjoinv ("; ", lines + 2);

          g_print ("  %s: %s\n", lines[0], one);
        }
    }
}

int
ks_cli_roofline (int    argc,
                 char **argv)
{
  g_autofree char *out = NULL;
  gboolean recorded = FALSE, probe = FALSE;
  int width = 1200;
  const GOptionEntry entries[] = {
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "The plot to write: FILE.png, FILE.svg or FILE.pdf", "FILE" },
    { "recorded", 0, 0, G_OPTION_ARG_NONE, &recorded,
      "Add every recorded run shipped with Kernelscope that is on the roofline", NULL },
    { "probe", 0, 0, G_OPTION_ARG_NONE, &probe,
      "Measure the triad of each device of this machine a run names without one (about a second each)", NULL },
    { "plot-size", 0, 0, G_OPTION_ARG_INT, &width, "Width, 200 to 10000 (the height follows at 5:8). Default: 1200", "PX" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[RUN.json...] - saved runs against each device's floor");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRoofline) roofline = ks_roofline_new ();
  g_autoptr(KsPlot) plot = NULL;
  KsPlotFormat format;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Each point is one point of a run (any experiment whose description counts its bytes and operations):\n"
    "x its operations per byte, y its operations per second. Each device's line is its triad bandwidth\n"
    "times the intensity: the floor. A device's triad comes from the run, else from another run of the\n"
    "same device, else from --probe. Runs of several devices share the plot.\n"
    "Example: kernelscope-cli roofline mine.json --recorded -o roofline.png");
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if ((argc < 2 && !recorded) || out == NULL)
    {
      g_printerr ("kernelscope-cli: roofline needs RUN.json files or --recorded, and --out FILE\n");
      return KS_CLI_USAGE;
    }
  if (width < 200 || width > 10000)
    g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--plot-size must lie between 200 and 10000");
  if (error || !ks_plot_format_from_filename (out, &format, &error) || !ks_cli_check_output (out, argv + 1, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);

  for (int i = 1; i < argc; i++)
    {
      g_autofree char *path = ks_cli_resolve_run_path (argv[i]);
      g_autoptr(KsRun) run = ks_run_load_json (path, &error);

      if (run == NULL)
        return ks_cli_fail (KS_CLI_FAILED, error);
      if (!ks_roofline_add_run (roofline, run, NULL))
        g_printerr ("kernelscope-cli: %s is a %s run, which does not count its bytes and operations: left out\n",
                    argv[i], run->desc->id);
    }
  if (recorded)
    add_recorded (roofline);
  if (probe)
    probe_missing (roofline);
  else
    {
      g_autoptr(GPtrArray) missing = ks_roofline_missing_triads (roofline);

      for (guint m = 0; m < missing->len; m++)
        {
          const KsRunDevice *dev = missing->pdata[m];

          g_printerr ("No triad for %s (%s): its points have no fraction of the floor; --probe measures it "
                      "where this machine has the device.\n", dev->name, ks_run_device_get_backend_label (dev));
        }
    }
  plot = ks_roofline_plot_new (roofline);
  if (!ks_plot_has_data (plot))
    {
      g_printerr ("kernelscope-cli: no point to draw, so %s was not written\n", out);
      return KS_CLI_FAILED;
    }
  print_points (roofline, plot);
  if (!ks_plot_export (plot, out, width, width * 5 / 8, NULL, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  g_printerr ("Plot written to %s\n", out);
  return KS_CLI_OK;
}
