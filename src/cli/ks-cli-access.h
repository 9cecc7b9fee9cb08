/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-access.h: between the access command's parts (ks-cli-access.c:
 * the point and the counts; ks-cli-access-plot.c: the options, the
 * device and the picture). */
#pragma once

#include "ks-access.h"

#include <glib.h>

G_BEGIN_DECLS

/* A number option not given (0 and negatives are given, and checked). */
#define KS_CLI_ACCESS_UNSET G_MININT

typedef struct {
  char    *scheme, *method, *layout, *domain, *rule, *precision, *plot, *device_query;
  int      height, width, n, systems, level;   /* KS_CLI_ACCESS_UNSET: not given */
  int      group_size, warp, line, step, warp_index;   /* warp, line unset: the device's, else 32, 128 */
} AccessOptions;

/* Fills o from the command line, leaving the EXPERIMENT in *argv. */
int      ks_cli_access_parse  (AccessOptions *o,
                               int           *argc,
                               char        ***argv);
/* -d: the device's warp and cache line where it says them and --warp or
 * --line was not given; then 32 and 128. */
int      ks_cli_access_device (AccessOptions *o);
gboolean ks_cli_access_plot   (const KsAccessModel *m,
                               const KsAccessPoint *p,
                               const AccessOptions *o,
                               const char          *experiment,
                               GError             **error);

G_END_DECLS
