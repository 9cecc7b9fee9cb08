/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-test-runtime-util.c: see ks-test-runtime-util.h. */
#include "ks-test-runtime-util.h"

#include "ks-kernel-source.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

KsDeviceList *devices;
char         *kernel_dir;

void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->device = ks_device_list_lookup (devices, data, &error);
  g_assert_no_error (error);
  f->rt = ks_runtime_new (f->device, &error);
  g_assert_no_error (error);
  /* Offsets on CUDA are opt-in (KsLaunchConfig); on OpenCL the option is inert. */
  f->program = ks_runtime_build_program (f->rt, "test-runtime.cl", "-DKS_GLOBAL_OFFSET", &error);
  g_assert_no_error (error);
}

void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  /* In the "wrong" order on purpose: references keep what is needed. */
  g_clear_pointer (&f->rt, ks_runtime_unref);
  g_clear_pointer (&f->program, ks_program_unref);
}

KsKernel *
kernel (Fixture    *f,
        const char *name)
{
  g_autoptr(GError) error = NULL;
  KsKernel *k = ks_program_create_kernel (f->program, name, &error);

  g_assert_no_error (error);
  return k;
}

KsBuffer *
alloc (Fixture       *f,
       gsize          size,
       KsBufferFlags  flags)
{
  g_autoptr(GError) error = NULL;
  KsBuffer *b = ks_runtime_alloc_full (f->rt, size, flags, &error);

  g_assert_no_error (error);
  return b;
}

/* The launch is refused with code, and the message contains says. */
void
launch_refused (Fixture              *f,
                KsKernel             *k,
                const KsLaunchConfig *cfg,
                gint                  code,
                const char           *says)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (ks_queue_launch (ks_runtime_get_queue (f->rt), k, cfg, &error));
  g_assert_error (error, KS_COMPUTE_ERROR, code);
  g_assert_nonnull (strstr (error->message, says));
}

/* The test kernels and the built-in kernels/ks-common.h and
 * cuda-prelude.h (which NVRTC pre-includes) side by side in a folder of
 * their own, which becomes the kernel folder. */
static void
copy_builtin (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = ks_kernel_source_load (name, &error);
  g_autofree char *path = g_build_filename (kernel_dir, name, NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
}

static void
prepare_kernels (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) test = NULL;
  g_autofree char *path = NULL;

  test = g_resources_lookup_data ("/org/kernelscope/Kernelscope/tests/test-runtime.cl", 0, &error);
  g_assert_no_error (error);
  kernel_dir = g_dir_make_tmp ("ks-test-runtime-XXXXXX", &error);
  g_assert_no_error (error);
  copy_builtin ("ks-common.h");
  copy_builtin ("cuda-prelude.h");
  path = g_build_filename (kernel_dir, "test-runtime.cl", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (test, NULL), g_bytes_get_size (test), NULL));
  ks_kernel_source_set_dir (kernel_dir);
}

static void
remove_kernels (void)
{
  const char *files[] = { "ks-common.h", "cuda-prelude.h", "test-runtime.cl", "broken/cuda-prelude.h", "broken/broken.h", "broken/main.cl", "broken" };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (kernel_dir, files[i], NULL);
      g_remove (path);
    }
  g_rmdir (kernel_dir);
}

static void
no_device (void)
{
  g_test_skip ("no OpenCL or CUDA device here (install pocl-opencl-icd for the CPU one)");
}

int
ks_test_runtime_main (int                       *argc,
                      char                    ***argv,
                      const KsTestRuntimeCase   *cases,
                      guint                      n_cases,
                      void                     (*more) (guint kernel_devices))
{
  guint kernel_devices = 0;
  int status;

  g_test_init (argc, argv, NULL);
  devices = ks_device_list_new ();
  prepare_kernels ();
  /* The test data is the device's own id: the list outlives g_test_run,
   * and a g_strdup'd copy was never freed (LeakSanitizer said so). */
  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    {
      KsDevice *d = ks_device_list_get_device (devices, i);

      if (ks_device_get_backend (d) == KS_BACKEND_HOST)
        continue;
      kernel_devices++;
      for (guint t = 0; t < n_cases; t++)
        {
          g_autofree char *path = g_strdup_printf ("/runtime/%s/%s", ks_device_get_id (d), cases[t].name);
          g_test_add (path, Fixture, ks_device_get_id (d), fixture_set_up, cases[t].func,
                      fixture_tear_down);
        }
    }
  if (kernel_devices == 0)
    g_test_add_func ("/runtime/no-device", no_device);
  if (more != NULL)
    more (kernel_devices);

  status = g_test_run ();
  remove_kernels ();
  g_clear_object (&devices);
  return status;
}
