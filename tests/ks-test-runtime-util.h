/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-runtime-util.h: what the runtime seam's test programs share
 * (test-runtime, test-runtime-buffers, test-runtime-queues,
 * test-runtime-programs): the device list, the test kernels
 * (tests/kernels/test-runtime.cl, compiled into each binary) copied with
 * the built-in headers into a folder of their own, a fixture holding a
 * runtime and the test program on one device, and the registration of a
 * table of cases once per kernel-running device as /runtime/DEVICE-ID/WHAT
 * (without any such device, /runtime/no-device skips, saying why). */
#pragma once

#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-runtime.h"

#include <glib.h>

G_BEGIN_DECLS

extern KsDeviceList *devices;
/* The folder the kernels were copied to: the kernel folder while tests run. */
extern char         *kernel_dir;

typedef struct {
  float scale[8];
  float shift;
} RtParams;   /* as in test-runtime.cl */

/* A runtime, the test program and one kernel of it, on the device whose id
 * the test was registered with. */
typedef struct {
  KsDevice  *device;
  KsRuntime *rt;
  KsProgram *program;
} Fixture;

typedef struct {
  const char *name;
  void (*func) (Fixture *, gconstpointer);
} KsTestRuntimeCase;

#define OK(call) G_STMT_START { g_autoptr(GError) e_ = NULL; gboolean ok_ = (call); \
                                g_assert_no_error (e_); g_assert_true (ok_); } G_STMT_END
/* For calls written with an "&e_" error argument. */
#define E (&e_)

void      fixture_set_up    (Fixture       *f,
                             gconstpointer  data);
void      fixture_tear_down (Fixture       *f,
                             gconstpointer  data);
KsKernel *kernel            (Fixture       *f,
                             const char    *name);
KsBuffer *alloc             (Fixture       *f,
                             gsize          size,
                             KsBufferFlags  flags);
/* The launch is refused with code, and the message contains says. */
void      launch_refused    (Fixture              *f,
                             KsKernel             *k,
                             const KsLaunchConfig *cfg,
                             gint                  code,
                             const char           *says);

/* A test program's main: g_test_init, the device list and the kernel
 * folder; each case once per kernel-running device (without one,
 * /runtime/no-device, which skips); then more, where not NULL, adds the
 * program's other tests, told how many such devices there are; g_test_run,
 * and the kernel folder and the device list let go. */
int       ks_test_runtime_main (int                       *argc,
                                char                    ***argv,
                                const KsTestRuntimeCase   *cases,
                                guint                      n_cases,
                                void                     (*more) (guint kernel_devices));

G_END_DECLS
