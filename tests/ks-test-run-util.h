/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-run-util.h: runs made by hand, for the tests that feed a
 * description's summary or judge points no device measured. */
#pragma once

#include "ks-run.h"

/* A device entry "backend:index" named name; returns its index. */
static inline guint
ks_test_run_add_device (KsRun      *run,
                        const char *name,
                        const char *backend,
                        const char *platform)
{
  KsRunDevice *d = ks_run_device_new ();

  d->id = g_strdup_printf ("%s:%u", backend, run->devices->len);
  d->name = g_strdup (name);
  d->backend = g_strdup (backend);
  d->platform = g_strdup (platform);
  g_ptr_array_add (run->devices, d);
  return run->devices->len - 1;
}
