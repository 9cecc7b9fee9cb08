/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-sigint.h: Ctrl+C for a command that measures.
 *
 * Between ks_cli_sigint_begin () and ks_cli_sigint_end () a SIGINT is
 * caught by a handler of ours that writes to a self-pipe: a main loop
 * watches it (ks_cli_sigint_watch), and a step that runs without one asks
 * ks_cli_sigint_pending ().  Begun before the devices are opened, so that
 * PoCL's LLVM, which installs SIGINT handlers of its own and restores the
 * ones it found, finds ours: a Ctrl+C that reaches LLVM's handler is
 * raised again to ours, never to what the process started with (SIG_IGN
 * in a script's background job, which once lost a Ctrl+C in CI). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean ks_cli_sigint_begin   (GError     **error);
/* Puts our handler back where someone replaced it (LLVM). */
void     ks_cli_sigint_ensure  (void);
/* Was Ctrl+C pressed since the last look?  Reads the pipe empty. */
gboolean ks_cli_sigint_pending (void);
/* Calls func (data) on the thread-default main context at each Ctrl+C,
 * and keeps the handler ours every 100 ms; remove with ks_cli_sigint_unwatch. */
void     ks_cli_sigint_watch   (GSourceFunc  func,
                                gpointer     data);
void     ks_cli_sigint_unwatch (void);
/* The default action again; the pipe closed. */
void     ks_cli_sigint_end     (void);

G_END_DECLS
