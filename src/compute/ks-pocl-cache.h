/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-pocl-cache.h: why PoCL may show no device.  PoCL keeps compiled
 * kernels in a cache folder and gives up on every device when it cannot
 * create that folder (CL_DEVICE_NOT_FOUND, on stderr only under
 * POCL_DEBUG), and fails every build when it cannot write in it (another
 * user's cache): the device list says so, and what to do. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The folder PoCL 3 caches kernels in: POCL_CACHE_DIR, else
 * $XDG_CACHE_HOME/pocl/kcache, else $HOME/.cache/pocl/kcache, else
 * /tmp/pocl/kcache. */
char     *ks_pocl_cache_dir      (void);
/* NULL when PoCL can create and write its cache folder; else a sentence
 * naming the folder, what is wrong with it, and the fix.  Creates the
 * folder where PoCL would (as PoCL itself does when it starts). */
char     *ks_pocl_cache_problem  (void);
/* Whether a platform (its name and aliases, KsDeviceInfo) is PoCL. */
gboolean  ks_pocl_is_platform    (const char *platform_name,
                                  const char *platform_aliases);

G_END_DECLS
