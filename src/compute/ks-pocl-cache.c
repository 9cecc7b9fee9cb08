/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-pocl-cache.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

char *
ks_pocl_cache_dir (void)
{
  const char *dir = g_getenv ("POCL_CACHE_DIR");
  const char *xdg = g_getenv ("XDG_CACHE_HOME");
  const char *home = g_getenv ("HOME");

  /* The order of pocl_cache_init_topdir () in PoCL 3. */
  if (dir && *dir)
    return g_strdup (dir);
  if (xdg && *xdg)
    return g_build_filename (xdg, "pocl", "kcache", NULL);
  if (home)
    return g_build_filename (home, ".cache", "pocl", "kcache", NULL);
  return g_strdup ("/tmp/pocl/kcache");
}

char *
ks_pocl_cache_problem (void)
{
  g_autofree char *dir = ks_pocl_cache_dir ();
  g_autofree char *probe = NULL;
  g_autofree char *why = NULL;
  int fd;

  if (g_file_test (dir, G_FILE_TEST_EXISTS) && !g_file_test (dir, G_FILE_TEST_IS_DIR))
    why = g_strdup (_("it is not a folder"));
  else if (g_mkdir_with_parents (dir, 0700) != 0)
    why = g_strdup_printf (_("it cannot be created: %s"), g_strerror (errno));
  else
    {
      /* Only a real write says whether we may: root passes access (), a
       * read-only file system does not say so in the mode bits. */
      probe = g_build_filename (dir, "kernelscope-probe-XXXXXX", NULL);
      if ((fd = g_mkstemp (probe)) < 0)
        why = g_strdup_printf (_("it cannot be written: %s"), g_strerror (errno));
      else
        {
          close (fd);
          g_unlink (probe);
          return NULL;
        }
    }
  return g_strdup_printf (_("PoCL cannot use its kernel cache %s (%s), so it shows no device or builds "
                            "nothing: set POCL_CACHE_DIR to a folder you can write, e.g. "
                            "POCL_CACHE_DIR=/tmp/pocl-$USER, or fix the folder's owner (another "
                            "user's cache?)"),
                          dir, why);
}

gboolean
ks_pocl_is_platform (const char *platform_name,
                     const char *platform_aliases)
{
  g_autofree char *aliases = platform_aliases ? g_ascii_strdown (platform_aliases, -1) : NULL;

  return (platform_name && strstr (platform_name, "Portable Computing Language")) ||
         (aliases && strstr (aliases, "pocl"));
}
