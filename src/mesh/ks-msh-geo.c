/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-msh-geo.c: meshing a .geo file with the gmsh program.
 *
 * A .geo file is a program: it can run shell commands and write or read
 * any file.  Unless the caller trusts it, its text is scanned first and a
 * statement that does such a thing is refused with its line (gmsh's
 * grammar, src/parser/Gmsh.y: the Command rule and Printf's redirection).
 * "Delete" is not among them: it deletes geometry or variables in gmsh's
 * memory only.
 *
 * gmsh runs in a process group of its own, killed whole when the caller
 * cancels or after a time limit, and killed by the kernel if we die first
 * (PR_SET_PDEATHSIG).  Its mesh is written into an anonymous memory file
 * (memfd), so no temporary folder is left behind even by a SIGKILL; its
 * output is read as bytes and shown escaped. */
#define G_LOG_DOMAIN "ks-msh"
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* memfd_create */
#endif

#include "ks-msh.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#ifdef __linux__
#include <sys/mman.h>
#include <sys/prctl.h>
#endif

G_STATIC_ASSERT (KS_MSH_GMSH_TIMEOUT > 0);

/* --- the scan -------------------------------------------------------------------- */

static const struct {
  const char *word;
  const char *why;
} unsafe[] = {
  { "System", N_("runs a shell command") },
  { "SystemCall", N_("runs a shell command") },
  { "NonBlockingSystemCall", N_("runs a shell command") },
  { "OnelabRun", N_("runs a program") },
  { "Save", N_("writes a file") },
  { "Print", N_("writes a file") },
  { "CreateDir", N_("creates a folder") },
  { "Include", N_("reads another file, which is not checked") },
  { "Merge", N_("reads another file, which is not checked") },
  { "MergeWithBoundingBox", N_("reads another file, which is not checked") },
  { "ShapeFromFile", N_("reads another file, which is not checked") },
  { "ListFromFile", N_("reads another file, which is not checked") },
  { "Plugin", N_("runs a gmsh plugin (some write files)") },
  { "SendToServer", N_("sends data to a server") },
};

/* Skips a comment or a string at p (counting its lines); p itself when
 * there is none. */
static const char *
skip_inert (const char *p, const char *end, guint *line)
{
  const char *q = p;

  if (p + 1 < end && p[0] == '/' && p[1] == '/')
    while (q < end && *q != '\n' && *q != '\r')
      q++;
  else if (p + 1 < end && p[0] == '/' && p[1] == '*')
    {
      for (q = p + 2; q < end && !(q[0] == '*' && q + 1 < end && q[1] == '/'); q++)
        *line += *q == '\n';
      q = MIN (q + 2, end);
    }
  else if (*p == '"' || *p == '\'')
    {
      for (q = p + 1; q < end && *q != *p; q++)
        *line += *q == '\n';
      q = MIN (q + 1, end);
    }
  return q;
}

/* After "Printf": its parenthesis, then '>' sends it to a file. */
static gboolean
printf_to_file (const char *p, const char *end)
{
  guint depth = 0, ignored = 0;

  while (p < end)
    {
      const char *q = skip_inert (p, end, &ignored);
      if (q != p)
        {
          p = q;
          continue;
        }
      if (*p == '(')
        depth++;
      else if (*p == ')' && depth > 0 && --depth == 0)
        break;
      else if (*p == ';')
        return FALSE;
      p++;
    }
  for (p++; p < end && g_ascii_isspace (*p); p++)
    ;
  return p < end && *p == '>';
}

gboolean
ks_msh_check_geo (const char *text, gsize length, const char *name, GError **error)
{
  const char *p = text, *end = text + length;
  guint line = 1;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  while (p < end)
    {
      const char *q = skip_inert (p, end, &line), *why = NULL;
      g_autofree char *word = NULL;

      if (q != p || !(g_ascii_isalpha (*p) || *p == '_'))
        {
          line += q == p && *p == '\n';
          p = q != p ? q : p + 1;
          continue;
        }
      for (q = p; q < end && (g_ascii_isalnum (*q) || *q == '_'); q++)
        ;
      word = g_strndup (p, q - p);
      for (guint i = 0; i < G_N_ELEMENTS (unsafe) && why == NULL; i++)
        if (g_str_equal (word, unsafe[i].word))
          why = _(unsafe[i].why);
      if (why == NULL && g_str_has_prefix (word, "Executable"))
        why = _("names a program for gmsh to run");
      if (why == NULL && g_str_equal (word, "Printf") && printf_to_file (q, end))
        why = _("writes a file (Printf to a file)");
      if (why != NULL)
        {
          g_autofree char *shown = ks_mesh_escape_text (word, -1, 40);
          g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_UNSAFE,
                       _("%s:%u: \"%s\" %s.  A .geo file is a program that can run commands and write files, "
                         "so one that does is not run; if you trust this file, pass --trust-geo "
                         "(\"Trust the .geo file\" on the form)"),
                       name, line, shown, why);
          return FALSE;
        }
      p = q;
    }
  return TRUE;
}

/* --- running gmsh ------------------------------------------------------------------ */

static guint
gmsh_timeout (void)
{
  const char *s = g_getenv ("KS_GMSH_TIMEOUT");
  guint64 v = 0;

  if (s != NULL && g_ascii_string_to_unsigned (s, 10, 1, 24 * 3600, &v, NULL))
    return (guint) v;
  return KS_MSH_GMSH_TIMEOUT;
}

static void
child_setup (gpointer data)
{
  /* Async-signal-safe calls only: between fork and exec. */
  setpgid (0, 0);
#ifdef __linux__
  prctl (PR_SET_PDEATHSIG, SIGKILL);
#endif
}

typedef struct {
  GCancellable *stop;       /* ours: the caller's cancellable or the time limit */
  GBytes       *out;
  GError       *error;
  gboolean      done;
  gboolean      timed_out;
} Run;

static void
on_communicated (GObject *source, GAsyncResult *result, gpointer data)
{
  Run *run = data;

  g_subprocess_communicate_finish (G_SUBPROCESS (source), result, &run->out, NULL, &run->error);
  run->done = TRUE;
}

static gboolean
on_time_limit (gpointer data)
{
  Run *run = data;

  run->timed_out = TRUE;
  g_cancellable_cancel (run->stop);
  return G_SOURCE_REMOVE;
}

static void
forward_cancel (GCancellable *cancellable, gpointer stop)
{
  g_cancellable_cancel (stop);
}

/* Waits for gmsh (its output into run) on a main context of this thread's
 * own; stopped early, gmsh and everything it started are killed. */
static void
wait_gmsh (GSubprocess *proc, GCancellable *cancellable, Run *run)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GSource) limit = g_timeout_source_new_seconds (gmsh_timeout ());
  gulong handler = 0;

  g_main_context_push_thread_default (context);
  g_source_set_callback (limit, on_time_limit, run, NULL);
  g_source_attach (limit, context);
  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (forward_cancel), run->stop, NULL);
  g_subprocess_communicate_async (proc, NULL, run->stop, on_communicated, run);
  while (!run->done)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (limit);
  g_cancellable_disconnect (cancellable, handler);
  g_main_context_pop_thread_default (context);
  if (g_cancellable_is_cancelled (run->stop))
    {
      const char *id = g_subprocess_get_identifier (proc);
      if (id != NULL)
        kill (-(pid_t) atoi (id), SIGKILL);
      g_subprocess_force_exit (proc);
    }
  g_subprocess_wait (proc, NULL, NULL);
}

/* gmsh's "Error" lines (at most 6), which name the .geo file and its
 * line, each escaped; NULL when there are none. */
static char *
error_lines (const char *data, gsize n)
{
  g_autofree char *text = g_strndup (data, n);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GString) out = g_string_new (NULL);
  guint found = 0;

  for (guint i = 0; lines[i] != NULL && found < 6; i++)
    if (g_str_has_prefix (lines[i], "Error"))
      {
        g_autofree char *e = ks_mesh_escape_text (g_strchomp (lines[i]), -1, 300);
        g_string_append_printf (out, "%s%s", found++ > 0 ? "\n" : "", e);
      }
  return found > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

/* gmsh's errors, else its last lines (each escaped): not its closing
 * "Writing mesh.msh" lines, which name our temporary file. */
static char *
output_tail (GBytes *out)
{
  gsize n = 0;
  const char *data = out != NULL ? g_bytes_get_data (out, &n) : NULL;
  const char *from = n > 600 ? data + n - 600 : data;
  g_autofree char *tail = NULL;
  g_auto(GStrv) lines = NULL;

  if (data == NULL)
    return g_strdup ("");
  if ((tail = error_lines (data, n)) != NULL)
    return g_steal_pointer (&tail);
  if (from != data && memchr (from, '\n', data + n - from) != NULL)
    from = (const char *) memchr (from, '\n', data + n - from) + 1;
  tail = g_strndup (from, data + n - from);
  lines = g_strsplit (g_strchomp (tail), "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *e = ks_mesh_escape_text (lines[i], -1, 300);
      g_free (lines[i]);
      lines[i] = e;
    }
  return g_strjoinv ("\n", lines);
}

/* Where gmsh writes its mesh: an anonymous memory file where the system has
 * them (nothing to remove, whatever happens to us), else a temporary
 * folder removed afterwards. */
typedef struct {
  int   fd;      /* the memory file, or -1 */
  char *dir;
  char *path;    /* what gmsh is told */
} Output;

static gboolean
output_open (Output *o, GSubprocessLauncher *launcher, GError **error)
{
#ifdef __linux__
  o->fd = memfd_create ("ks-gmsh-mesh", MFD_CLOEXEC);
  if (o->fd >= 0)
    {
      int child = dup (o->fd);
      if (child >= 0)
        {
          g_subprocess_launcher_take_fd (launcher, child, 3);
          o->path = g_strdup ("/proc/self/fd/3");
          return TRUE;
        }
      close (o->fd);
    }
#endif
  o->fd = -1;
  if ((o->dir = g_dir_make_tmp ("ks-gmsh-XXXXXX", error)) == NULL)
    return FALSE;
  o->path = g_build_filename (o->dir, "mesh.msh", NULL);
  return TRUE;
}

/* The mesh gmsh wrote (NULL: none), and nothing of it left behind. */
static GBytes *
output_close (Output *o)
{
  GByteArray *bytes = NULL;

  if (o->fd >= 0)
    {
      char buf[65536];
      ssize_t got;
      bytes = g_byte_array_new ();
      lseek (o->fd, 0, SEEK_SET);
      while ((got = read (o->fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0)
          g_byte_array_append (bytes, (const guint8 *) buf, got);
      close (o->fd);
    }
  else if (o->path != NULL)
    {
      char *data = NULL;
      gsize n = 0;
      if (g_file_get_contents (o->path, &data, &n, NULL))
        bytes = g_byte_array_new_take ((guint8 *) data, n);
      g_remove (o->path);
      g_rmdir (o->dir);
    }
  g_free (o->dir);
  g_free (o->path);
  if (bytes != NULL && bytes->len == 0)
    g_clear_pointer (&bytes, g_byte_array_unref);
  return bytes != NULL ? g_byte_array_free_to_bytes (bytes) : NULL;
}

/* Runs gmsh on path: its mesh, or an error saying why there is none. */
static GBytes *
run_gmsh (const char *gmsh, const char *path, GCancellable *cancellable, GError **error)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  g_autoptr(GBytes) mesh = NULL;
  Output o = { -1, NULL, NULL };
  Run run = { stop, NULL, NULL, FALSE, FALSE };

  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);
  if (!output_open (&o, launcher, error))
    return NULL;
  proc = g_subprocess_launcher_spawn (launcher, &run.error, gmsh, "-2", "-format", "msh41", "-o", o.path, path, NULL);
  if (proc != NULL)
    wait_gmsh (proc, cancellable, &run);
  mesh = output_close (&o);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    ;
  else if (run.timed_out)
    g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOOL,
                 _("gmsh did not finish meshing %s within %u s and was stopped (an endless loop in the file, "
                   "or a mesh too fine to make in that time); to allow longer, set KS_GMSH_TIMEOUT=SECONDS"),
                 path, gmsh_timeout ());
  else if (proc == NULL || run.error != NULL)
    g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOOL, _("gmsh could not run: %s"),
                 run.error != NULL ? run.error->message : "?");
  else if (!g_subprocess_get_successful (proc) || mesh == NULL)
    {
      g_autofree char *tail = output_tail (run.out);
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOOL, _("gmsh failed on %s:\n%s"), path, tail);
    }
  g_clear_pointer (&run.out, g_bytes_unref);
  g_clear_error (&run.error);
  return error != NULL && *error != NULL ? NULL : g_steal_pointer (&mesh);
}

KsMesh *
ks_msh_mesh_geo (const char *path, gboolean trusted, GCancellable *cancellable, GError **error)
{
  g_autofree char *gmsh = g_find_program_in_path ("gmsh");
  g_autofree char *text = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autofree char *meshed = NULL;
  g_autoptr(GBytes) mesh = NULL;
  g_autoptr(GError) local = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (gmsh == NULL)
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_TOOL,
                   _("%s: a .geo file is meshed by the gmsh program, which is not installed "
                     "(Debian: apt install gmsh); or mesh it elsewhere and open the .msh file"), path);
      return NULL;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_IO, _("%s: no such file, or not a regular file"), path);
      return NULL;
    }
  if (!g_file_get_contents (path, &text, &length, &local))
    {
      g_set_error (error, KS_MESH_ERROR, KS_MESH_ERROR_IO, "%s", local->message);
      return NULL;
    }
  base = g_path_get_basename (path);
  name = ks_mesh_escape_text (base, -1, 200);
  if ((!trusted && !ks_msh_check_geo (text, length, name, error)) ||
      !(mesh = run_gmsh (gmsh, path, cancellable, error)))
    return NULL;
  /* The .geo's name, not the temporary file's; and what a message's line
   * number counts: the mesh's lines, not the .geo's. */
  meshed = g_strdup_printf (_("%s (meshed by gmsh)"), name);
  return ks_msh_read_data (g_bytes_get_data (mesh, NULL), g_bytes_get_size (mesh), meshed, 0, error);
}
