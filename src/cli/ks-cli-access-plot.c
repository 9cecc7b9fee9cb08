/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli access: its options, the device's warp, and the picture
 * (drawn by ks-access-plot.h, which the window's pages share), titled and
 * written to --plot. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-cli-access.h"
#include "ks-access-plot.h"

int
ks_cli_access_parse (AccessOptions *o,
                     int           *argc,
                     char        ***argv)
{
  GOptionEntry entries[] = {
    { "scheme", 0, 0, G_OPTION_ARG_STRING, &o->scheme,
      "micro-access: direct-functions (default), direct-padding, direct-clamping, grouped-functions, "
      "grouped-padding, grouped-clamping", "S" },
    { "height", 0, 0, G_OPTION_ARG_INT, &o->height, "micro-access: rows of the image (1080)", "N" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o->width, "micro-access: bytes per row (1920)", "N" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o->method, "tridiag-batch: thomas (default), thomas-staged (the page's Thomas) or paracr", "M" },
    { "layout", 0, 0, G_OPTION_ARG_STRING, &o->layout, "tridiag-batch: natural (default) or interleaved", "L" },
    { "level", 0, 0, G_OPTION_ARG_INT, &o->level, "tridiag-batch, paracr: the level, stride 2^level (0)", "K" },
    { "n", 0, 0, G_OPTION_ARG_INT, &o->n, "tridiag-batch: unknowns per system (4095)", "N" },
    { "systems", 0, 0, G_OPTION_ARG_INT, &o->systems, "tridiag-batch: systems (5000)", "N" },
    { "domain", 0, 0, G_OPTION_ARG_STRING, &o->domain, "index-fill: the domain, e.g. 2000x3000 (default)", "D" },
    { "rule", 0, 0, G_OPTION_ARG_STRING, &o->rule, "index-fill: paper (default), printed, today, occupancy "
      "(occupancy takes its block from --group-size)", "R" },
    { "precision", 0, 0, G_OPTION_ARG_STRING, &o->precision, "float (default) or double values", "P" },
    { "group-size", 0, 0, G_OPTION_ARG_INT, &o->group_size, "Work-items per group (64; index-fill: the rule's)",
      "N" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device_query,
      "Take the warp width and the cache line from this device where it says them", "DEVICE" },
    { "warp", 0, 0, G_OPTION_ARG_INT, &o->warp, "Items that run one instruction together (32)", "N" },
    { "line", 0, 0, G_OPTION_ARG_INT, &o->line, "Cache line bytes: 32, 64 or 128 (default: -d's, else 128)",
      "BYTES" },
    { "step", 0, 0, G_OPTION_ARG_INT, &o->step, "The step (iteration of the kernel's loop) shown (0)", "K" },
    { "warp-index", 0, 0, G_OPTION_ARG_INT, &o->warp_index, "Which warp of the first group (0)", "W" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &o->plot, "Draw the step (PNG, SVG or PDF)", "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;

  context = g_option_context_new ("EXPERIMENT - the addresses one warp touches, step by step (papers 001-003)");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "EXPERIMENT is micro-access (001: direct or grouped, three edge schemes), tridiag-batch (002:\n"
    "Thomas or one PARACR level, natural or interleaved layout) or index-fill (003: the domain's\n"
    "mapping onto blocks, idle threads marked).  The model redoes the kernel's index arithmetic for\n"
    "the first work-group and counts the cache lines (transactions) each access of a warp touches\n"
    "against the ideal, the bytes it uses over the line size.\n"
    "Example: kernelscope-cli access micro-access --scheme direct-clamping --step 3 --plot a.png");
  if (!g_option_context_parse (context, argc, argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  return KS_CLI_OK;
}

int
ks_cli_access_device (AccessOptions *o)
{
  g_autoptr(KsDeviceList) list = NULL;
  g_autoptr(GError) error = NULL;
  KsDevice *dev;

  if (o->device_query)
    {
      const KsDeviceInfo *info;

      list = ks_device_list_new ();
      if (!(dev = ks_cli_pick_device (list, o->device_query, 0, FALSE, &error)))
        return ks_cli_fail (KS_CLI_USAGE, error);
      info = ks_device_get_info (dev);
      if (o->warp == KS_CLI_ACCESS_UNSET && info->warp_size > 0)
        o->warp = (int) info->warp_size;
      if (o->line == KS_CLI_ACCESS_UNSET && info->cache_line > 0)
        o->line = (int) info->cache_line;
    }
  if (o->warp == KS_CLI_ACCESS_UNSET)
    o->warp = 32;
  if (o->line == KS_CLI_ACCESS_UNSET)
    o->line = 128;
  return KS_CLI_OK;
}

gboolean
ks_cli_access_plot (const KsAccessModel *m,
                    const KsAccessPoint *p,
                    const AccessOptions *o,
                    const char          *experiment,
                    GError             **error)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autofree char *title = NULL;
  double ideal;
  const guint lines = ks_access_step_lines (m, (guint) o->warp, (guint) o->warp_index, (guint) o->step,
                                            (guint) o->line, &ideal);

  /* Translated, as the other plots' words are (LANGUAGE=ru). */
  title = ks_access_plot_title (experiment, p->kernel, (guint) o->warp_index, (guint) o->step, lines,
                                (guint) o->line, ideal);
  ks_plot_set_title (plot, title);
  if (!ks_access_plot_step (plot, m, p, (guint) o->warp, (guint) o->warp_index, (guint) o->step, (guint) o->line,
                            error))
    return FALSE;
  return ks_plot_export (plot, o->plot, 900, 500, NULL, error);
}
