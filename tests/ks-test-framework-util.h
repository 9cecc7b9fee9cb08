/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-framework-util.h: what test-framework and test-framework-files
 * share: the device list and its host device, and an engine for the test
 * experiment (tests/ks-exp-test.c) set up on the host. */
#pragma once

#include "ks-device-list.h"
#include "ks-engine.h"

G_BEGIN_DECLS

/* The host device of the device list. */
KsDevice *host                        (void);
/* The test experiment's engine on the host: settings are name, value
 * pairs ending in NULL (or NULL), then warm-up and timed repetitions. */
KsEngine *engine_with                 (const char *const *settings,
                                       guint               warmup,
                                       guint               reps);
/* g_test_init, the test experiment registered, the device list. */
void      ks_test_framework_init      (int    *argc,
                                       char ***argv);
/* g_test_run, then the device list let go. */
int       ks_test_framework_run       (void);

G_END_DECLS
