/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli.h: what the commands of kernelscope-cli share. */
#pragma once

#include <glib.h>

#include "ks-device-list.h"
#include "ks-experiment-desc.h"
#include "ks-io-file.h"
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
/* solve tridiag, in ks-cli-tridiag.c. */
int       ks_cli_solve_tridiag (int argc, char **argv);
int       ks_cli_list    (int argc, char **argv);
int       ks_cli_map     (int argc, char **argv);
int       ks_cli_access  (int argc, char **argv);
/* roofline, in ks-cli-roofline.c. */
int       ks_cli_roofline (int argc, char **argv);
/* The whole program, for kernelscope-cli's main () and for test programs
 * that register experiments of their own first. */
int       ks_cli_main    (int argc, char **argv);

/* Under mpirun, every rank but the first runs the same command as a
 * follower: it measures its part of each point and prints and writes
 * nothing, so one rank speaks for the run. */
void      ks_cli_set_follower (gboolean follower);
gboolean  ks_cli_is_follower  (void);

/* Under mpirun: how the ranks were started ("mpirun -np 16"), put before
 * every recorded command, since the same command in one process measures
 * something else.  NULL: one process. */
void      ks_cli_set_launcher (const char *launcher);

/* prefix and argv[1..] as one shell-quoted line, after the launcher if
 * any: the command recorded with results, so that they can be made again. */
char     *ks_cli_join_argv   (const char   *prefix,
                              int           argc,
                              char        **argv);

/* --cores-per-cu as given (NULL: not given, *out = 0): a whole number of
 * cores from 1 to KS_CLI_MAX_CORES_PER_CU.  Every command that takes the
 * option checks it here, so all refuse the same values alike. */
#define KS_CLI_MAX_CORES_PER_CU 65536
gboolean  ks_cli_parse_cores_per_cu (const char *text,
                                     guint      *out,
                                     GError    **error);

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

/* Loads each of files (a run saved as JSON, any format; a file not found
 * as given is looked up among the shipped reference runs by name); an
 * overlay says so on stderr.  A run of another experiment than desc (NULL:
 * any, but all alike) is a G_OPTION_ERROR.  An empty array for no files. */
GPtrArray *ks_cli_load_runs   (const KsExperimentDesc *desc,
                               char                  **files,
                               gboolean                overlay,
                               GError                **error);
/* The path a run file named on the command line is read from: as given,
 * else the shipped reference run of that name, if any. */
char      *ks_cli_resolve_run_path (const char        *file);
/* Refuses outputs the command must not write (ks_io_check_outputs: a
 * link, a device or folder, a read-only file, a missing folder, one of
 * inputs, two outputs naming one file); inputs NULL-terminated, may be
 * NULL, each resolved as ks_cli_resolve_run_path.  An output whose path
 * is NULL is skipped. */
gboolean   ks_cli_check_outputs (const KsIoOutput    *outputs,
                                 guint                n_outputs,
                                 char               **inputs,
                                 GError             **error);
/* One output, named by its path alone. */
gboolean   ks_cli_check_output (const char            *path,
                                char                 **inputs,
                                GError               **error);

G_END_DECLS
