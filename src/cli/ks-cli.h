/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli.h: what the commands of kernelscope-cli share. */
#pragma once

#include <glib.h>

#include "ks-device-list.h"
#include "ks-plot.h"

G_BEGIN_DECLS

/* Exit statuses. */
enum {
  KS_CLI_OK        = 0,
  KS_CLI_FAILED    = 1,   /* the command ran and failed; the message says why */
  KS_CLI_USAGE     = 2,   /* bad command line */
  KS_CLI_CANCELLED = 130, /* stopped by Ctrl+C; what was measured is kept */
};

int       ks_cli_devices (int argc, char **argv);
int       ks_cli_solve   (int argc, char **argv);
int       ks_cli_run     (int argc, char **argv);
int       ks_cli_plot    (int argc, char **argv);
int       ks_cli_bench   (int argc, char **argv);

/* prefix and argv[1..] as one shell-quoted line: the command recorded with
 * results, so that they can be made again. */
char     *ks_cli_join_argv   (const char   *prefix,
                              int           argc,
                              char        **argv);

/* Picks the device named by query (NULL: the default) and says on stderr
 * which one and why.  cores_per_cu > 0 overrides the table. */
KsDevice *ks_cli_pick_device (KsDeviceList *list,
                              const char   *query,
                              guint         cores_per_cu,
                              gboolean      quiet,
                              GError      **error);
/* Prints "kernelscope-cli: message" on stderr and returns status. */
int       ks_cli_fail        (int           status,
                              const GError *error);

/* Draws each recorded run of files over plot (dashed, "recorded: ...").  A
 * file not found as given is looked up among the shipped reference runs by
 * name.  A run of another experiment than kind is a G_OPTION_ERROR. */
gboolean  ks_cli_add_overlays (KsPlot            *plot,
                               int                kind,
                               char             **files,
                               guint              min_wg,
                               GError           **error);

G_END_DECLS
