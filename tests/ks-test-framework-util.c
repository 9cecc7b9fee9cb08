/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-framework-util.c: see ks-test-framework-util.h. */
#include "ks-test-framework-util.h"

#include "ks-exp-test.h"

static KsDeviceList *devices;

KsDevice *
host (void)
{
  KsDevice *device = ks_device_list_lookup (devices, "host", NULL);
  g_assert_nonnull (device);
  return device;
}

KsEngine *
engine_with (const char *const *settings,
             guint               warmup,
             guint               reps)
{
  KsEngine *engine = ks_engine_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; settings && settings[i]; i += 2)
    g_assert_true (ks_engine_set (engine, settings[i], settings[i + 1], &error));
  g_assert_true (ks_engine_set_repetitions (engine, warmup, reps, &error));
  ks_engine_add_device (engine, host ());
  return engine;
}

void
ks_test_framework_init (int    *argc,
                        char ***argv)
{
  g_test_init (argc, argv, NULL);
  ks_exp_test_register ();
  devices = ks_device_list_new ();
}

int
ks_test_framework_run (void)
{
  int status = g_test_run ();

  g_object_unref (devices);
  return status;
}
