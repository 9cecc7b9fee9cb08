/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-kernel-source.h"
#include "ks-compute-error.h"
#include "ks-kernels-resources.h"

#include <glib/gi18n-lib.h>
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

#define KS_KERNEL_RESOURCE_PATH "/org/kernelscope/Kernelscope/kernels/"

static char *override_dir;
G_LOCK_DEFINE_STATIC (override_dir);

/* The resources live in a static library; registering them by hand keeps
 * the linker from dropping them and works for the CLI, GUI and tests alike. */
static void
ensure_resources (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      ks_kernels_register_resource ();
      g_once_init_leave (&registered, 1);
    }
}

void
ks_kernel_source_set_dir (const char *dir)
{
  G_LOCK (override_dir);
  g_free (override_dir);
  override_dir = (dir && *dir) ? g_strdup (dir) : NULL;
  G_UNLOCK (override_dir);
}

const char *
ks_kernel_source_get_dir (void)
{
  const char *dir;

  G_LOCK (override_dir);
  dir = override_dir;
  G_UNLOCK (override_dir);
  if (dir == NULL)
    {
      dir = g_getenv ("KERNELSCOPE_KERNEL_DIR");
      if (dir != NULL && *dir == '\0')
        dir = NULL;
    }
  return dir;
}

GBytes *
ks_kernel_source_load (const char *name,
                       GError    **error)
{
  const char *dir;
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;
  GBytes *bytes;

  g_return_val_if_fail (name != NULL, NULL);

  dir = ks_kernel_source_get_dir ();
  if (dir != NULL)
    {
      char *contents = NULL;
      gsize length = 0;

      path = g_build_filename (dir, name, NULL);
      if (!g_file_get_contents (path, &contents, &length, &local_error))
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_KERNEL_SOURCE,
                       _("Cannot read kernel source %s from the kernel folder: %s"),
                       name, local_error->message);
          return NULL;
        }
      return g_bytes_new_take (contents, length);
    }

  ensure_resources ();
  path = g_strconcat (KS_KERNEL_RESOURCE_PATH, name, NULL);
  bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &local_error);
  if (bytes == NULL)
    g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_KERNEL_SOURCE,
                 _("No built-in kernel source named %s: %s"), name, local_error->message);
  return bytes;
}

/* Appends name's text to out, its includes expanded; seen holds the files
 * already in out (each is included once, as with #pragma once). */
static gboolean
expand (const char  *name,
        GString     *out,
        GHashTable  *seen,
        guint        depth,
        GError     **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GRegex) include = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *text = NULL;

  if (depth > 8)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_KERNEL_SOURCE,
                   _("Kernel source %s: includes nest more than 8 deep"), name);
      return FALSE;
    }
  if (!(bytes = ks_kernel_source_load (name, error)))
    return FALSE;
  g_hash_table_add (seen, g_strdup (name));
  text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  lines = g_strsplit (text, "\n", -1);
  include = g_regex_new ("^\\s*#\\s*include\\s*\"([^\"/]+)\"", 0, 0, NULL);

  g_string_append_printf (out, "#line 1 \"%s\"\n", name);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;
      g_autofree char *header = NULL;

      if (!g_regex_match (include, lines[i], 0, &match))
        {
          /* The text after the last newline is no line of its own. */
          if (lines[i + 1] != NULL || *lines[i] != '\0')
            g_string_append_printf (out, "%s\n", lines[i]);
          continue;
        }
      header = g_match_info_fetch (match, 1);
      if (!g_hash_table_contains (seen, header))
        {
          g_autoptr(GError) local_error = NULL;

          if (!expand (header, out, seen, depth + 1, &local_error))
            {
              g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                          _("%s, line %u: "), name, i + 1);
              return FALSE;
            }
        }
      /* Back in this file, on the line after the include. */
      g_string_append_printf (out, "#line %u \"%s\"\n", i + 2, name);
    }
  return TRUE;
}

char *
ks_kernel_source_load_expanded (const char  *name,
                                GError     **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (name != NULL, NULL);

  if (!expand (name, out, seen, 0, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

gboolean
ks_kernel_source_locate (const char  *expanded,
                         guint        line,
                         char       **out_file,
                         guint       *out_line)
{
  g_autofree char *file = NULL;
  guint here = 0, mapped = 0;
  const char *p = expanded;

  g_return_val_if_fail (expanded != NULL && out_file != NULL && out_line != NULL, FALSE);

  /* here counts lines of the expanded text; mapped is what the line after
   * the last mark is in its file. */
  for (here = 1; here < line && *p; here++)
    {
      const char *end = strchr (p, '\n');
      guint n = 0;
      char name[256];

      if (sscanf (p, "#line %u \"%255[^\"]\"", &n, name) == 2)
        {
          g_free (file);
          file = g_strdup (name);
          mapped = n;
        }
      else if (file != NULL)
        mapped++;
      if (end == NULL)
        break;
      p = end + 1;
    }
  if (file == NULL || here != line)
    return FALSE;
  *out_file = g_steal_pointer (&file);
  *out_line = mapped;
  return TRUE;
}
