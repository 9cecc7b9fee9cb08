/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cli-sigint.c: see ks-cli-sigint.h. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli-sigint.h"

#include <errno.h>
#include <glib-unix.h>
#include <signal.h>
#include <unistd.h>

static int sigint_pipe[2] = { -1, -1 };
static guint watch_id, check_id;

static void
sigint_handler (int signum)
{
  int saved = errno;
  char c = 1;

  if (write (sigint_pipe[1], &c, 1) < 0)
    {
      /* The pipe is full: a Ctrl+C is already waiting to be seen. */
    }
  errno = saved;
}

void
ks_cli_sigint_ensure (void)
{
  struct sigaction current, ours = { 0 };

  if (sigint_pipe[1] < 0)
    return;
  if (sigaction (SIGINT, NULL, &current) == 0 && current.sa_handler == sigint_handler)
    return;
  ours.sa_handler = sigint_handler;
  sigemptyset (&ours.sa_mask);
  ours.sa_flags = SA_RESTART;
  sigaction (SIGINT, &ours, NULL);
}

gboolean
ks_cli_sigint_begin (GError **error)
{
  g_return_val_if_fail (sigint_pipe[0] < 0, FALSE);

  if (!g_unix_open_pipe (sigint_pipe, FD_CLOEXEC, error) ||
      !g_unix_set_fd_nonblocking (sigint_pipe[0], TRUE, error) ||
      !g_unix_set_fd_nonblocking (sigint_pipe[1], TRUE, error))
    {
      ks_cli_sigint_end ();
      return FALSE;
    }
  ks_cli_sigint_ensure ();
  return TRUE;
}

gboolean
ks_cli_sigint_pending (void)
{
  gboolean any = FALSE;
  char buf[16];
  ssize_t got;

  while (sigint_pipe[0] >= 0 && (got = read (sigint_pipe[0], buf, sizeof buf)) > 0)
    any = TRUE;
  return any;
}

typedef struct {
  GSourceFunc func;
  gpointer    data;
} Watch;

static gboolean
on_pipe (gint         fd,
         GIOCondition condition,
         gpointer     user_data)
{
  Watch *w = user_data;

  if (ks_cli_sigint_pending ())
    w->func (w->data);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_check (gpointer user_data)
{
  ks_cli_sigint_ensure ();
  return G_SOURCE_CONTINUE;
}

void
ks_cli_sigint_watch (GSourceFunc func,
                     gpointer    data)
{
  Watch *w = g_new0 (Watch, 1);

  g_return_if_fail (sigint_pipe[0] >= 0 && watch_id == 0);

  w->func = func;
  w->data = data;
  ks_cli_sigint_ensure ();
  watch_id = g_unix_fd_add_full (G_PRIORITY_DEFAULT, sigint_pipe[0], G_IO_IN, on_pipe, w, g_free);
  check_id = g_timeout_add (100, on_check, NULL);
}

void
ks_cli_sigint_unwatch (void)
{
  if (watch_id != 0)
    g_source_remove (watch_id);
  if (check_id != 0)
    g_source_remove (check_id);
  watch_id = check_id = 0;
}

void
ks_cli_sigint_end (void)
{
  struct sigaction restore = { 0 };

  ks_cli_sigint_unwatch ();
  if (sigint_pipe[0] < 0 && sigint_pipe[1] < 0)
    return;
  restore.sa_handler = SIG_DFL;
  sigemptyset (&restore.sa_mask);
  sigaction (SIGINT, &restore, NULL);
  for (guint i = 0; i < 2; i++)
    {
      if (sigint_pipe[i] >= 0)
        close (sigint_pipe[i]);
      sigint_pipe[i] = -1;
    }
}
