/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-run.h: what "run ID" (ks-cli-run.c) and its generated options
 * (ks-cli-options.c) share. */
#pragma once

#include "ks-cli.h"
#include "ks-experiment-desc.h"

G_BEGIN_DECLS

typedef struct {
  guint      n_params;
  char     **values;       /* per parameter: the text given, or NULL */
  gboolean  *flags;        /* per parameter: a flag given (bool parameters off by default) */
  int        range_param;  /* the parameter --from/--to/--step build, or -1 */
  char      *from, *to, *step;
  char      *min_x;        /* the figure's min-x option (--min-wg) */
  char     **devices;
  char      *cores_per_cu_text;   /* --cores-per-cu as given */
  guint      cores_per_cu;        /* ... checked (ks_cli_parse_cores_per_cu); 0: not given */
  char      *kernel_dir;
  int        reps, warmup;
  char      *csv, *json, *plot, *figure;
  int        plot_width;
  char     **overlays;
  char      *images;       /* --images DIR: the last point's pictures (the description's images hook) */
  gboolean   log_y, no_table, quiet;
  /* private: what the entries point into */
  GPtrArray *strings;
  GArray    *entries;
} KsCliRunOptions;

/* A context whose entries write into o, and whose --help is desc's. */
GOptionContext *ks_cli_run_options_init  (KsCliRunOptions        *o,
                                          const KsExperimentDesc *desc);
void            ks_cli_run_options_clear (KsCliRunOptions        *o);
gboolean        ks_cli_param_is_flag     (const KsParamSpec      *spec);

G_END_DECLS
