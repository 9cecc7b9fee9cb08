/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-kernel-source.h"
#include "ks-compute-error.h"
#include "ks-kernels-resources.h"

#include <glib/gi18n-lib.h>
#include <gio/gio.h>

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
