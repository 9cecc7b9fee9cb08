/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NVRTC: the kernels/ sources (*.cl) compiled at run time for the CUDA backend.
 *
 * NVRTC is opened with dlopen on the first compile instead of being linked:
 * a NEEDED libnvrtc.so.13 would stop kernelscope and kernelscope-cli from
 * starting at all on a machine that has the NVIDIA driver but not the
 * toolkit.  There the CUDA devices still list, and only a build fails, with
 * the reason.  nvrtc.h is used for its types only. */
#define G_LOG_DOMAIN "ks-cuda"

#include "ks-cuda.h"
#include "ks-compute-error.h"
#include "ks-kernel-source.h"

#include <glib/gi18n-lib.h>
#include <dlfcn.h>
#include <nvrtc.h>

typedef struct {
  __typeof__ (nvrtcGetErrorString)    *get_error_string;
  __typeof__ (nvrtcCreateProgram)     *create_program;
  __typeof__ (nvrtcDestroyProgram)    *destroy_program;
  __typeof__ (nvrtcCompileProgram)    *compile_program;
  __typeof__ (nvrtcGetProgramLogSize) *get_program_log_size;
  __typeof__ (nvrtcGetProgramLog)     *get_program_log;
  __typeof__ (nvrtcGetCUBINSize)      *get_cubin_size;
  __typeof__ (nvrtcGetCUBIN)          *get_cubin;
} KsNvrtc;

G_LOCK_DEFINE_STATIC (nvrtc);
static KsNvrtc nvrtc_api;
static char *nvrtc_failure;

/* The toolkit this was built with first, then the one before it (a cubin
 * from an older NVRTC still loads), then whatever the unversioned name is;
 * each by the loader's search path, then from the toolkit's own lib64 in
 * case that is not on the path. */
static void *
open_nvrtc (GString *tried)
{
  static const char *names[] = { "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so" };
  const char *override = g_getenv ("KERNELSCOPE_NVRTC");  /* test hook: one name only */
  void *lib;

  if (override)
    {
      g_string_append (tried, override);
      return dlopen (override, RTLD_NOW | RTLD_LOCAL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (KS_CUDA_LIBDIR, names[i], NULL);

      g_string_append_printf (tried, "%s%s", tried->len ? ", " : "", names[i]);
      if ((lib = dlopen (names[i], RTLD_NOW | RTLD_LOCAL)) ||
          (lib = dlopen (path, RTLD_NOW | RTLD_LOCAL)))
        return lib;
    }
  g_string_append_printf (tried, " (also in %s)", KS_CUDA_LIBDIR);
  return NULL;
}

static gboolean
load_nvrtc (GError **error)
{
  static gboolean tried;
  gboolean ok;

  G_LOCK (nvrtc);
  if (!tried)
    {
      g_autoptr(GString) names = g_string_new (NULL);
      void *lib;

      tried = TRUE;
      if (!(lib = open_nvrtc (names)))
        nvrtc_failure = g_strdup_printf ("NVRTC (libnvrtc.so) not found: install the CUDA toolkit's "
                                         "NVRTC (tried %s)", names->str);
      else
        {
#define SYM(field, name) \
          if (nvrtc_failure == NULL && !(nvrtc_api.field = dlsym (lib, name))) \
            nvrtc_failure = g_strdup_printf ("NVRTC (%s) has no %s: install the CUDA toolkit's NVRTC", \
                                             names->str, name);
          SYM (get_error_string, "nvrtcGetErrorString");
          SYM (create_program, "nvrtcCreateProgram");
          SYM (destroy_program, "nvrtcDestroyProgram");
          SYM (compile_program, "nvrtcCompileProgram");
          SYM (get_program_log_size, "nvrtcGetProgramLogSize");
          SYM (get_program_log, "nvrtcGetProgramLog");
          SYM (get_cubin_size, "nvrtcGetCUBINSize");
          SYM (get_cubin, "nvrtcGetCUBIN");
#undef SYM
        }
    }
  ok = nvrtc_failure == NULL;
  if (!ok)
    g_set_error_literal (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED, nvrtc_failure);
  G_UNLOCK (nvrtc);
  return ok;
}

/* The NVRTC options from the OpenCL-style ones the solvers pass ("-DKS_REAL=float"),
 * plus the prelude and the device's own architecture (a cubin, not PTX, so a
 * toolkit newer than the driver still loads). */
static GPtrArray *
nvrtc_options (int          cc_major,
               int          cc_minor,
               const char  *options,
               GError     **error)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) argv = NULL;
  int argc = 0;

  g_ptr_array_add (args, g_strdup_printf ("--gpu-architecture=sm_%d%d", cc_major, cc_minor));
  g_ptr_array_add (args, g_strdup ("--pre-include=cuda-prelude.h"));
  g_ptr_array_add (args, g_strdup ("-DKS_CUDA=1"));
  if (options && *options && !g_shell_parse_argv (options, &argc, &argv, error))
    {
      g_ptr_array_unref (args);
      return NULL;
    }
  for (int i = 0; i < argc; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  return args;
}

GBytes *
ks_cuda_compile (const char  *source_name,
                 const char  *source,
                 gsize        length,
                 const char  *options,
                 int          cc_major,
                 int          cc_minor,
                 char       **out_log,
                 GError     **error)
{
  g_autoptr(GBytes) prelude = NULL;
  g_autoptr(GPtrArray) args = NULL;
  g_autofree char *text = g_strndup (source, length);
  g_autofree char *prelude_text = NULL;
  g_autofree char *log = NULL;
  const char *header_names[] = { "cuda-prelude.h" };
  const char *headers[1];
  nvrtcProgram prog = NULL;
  nvrtcResult status;
  size_t log_size = 0, cubin_size = 0;
  char *cubin;

  g_return_val_if_fail (source != NULL, NULL);

  if (!load_nvrtc (error) ||
      !(prelude = ks_kernel_source_load ("cuda-prelude.h", error)) ||
      !(args = nvrtc_options (cc_major, cc_minor, options, error)))
    return NULL;
  prelude_text = g_strndup (g_bytes_get_data (prelude, NULL), g_bytes_get_size (prelude));
  headers[0] = prelude_text;

  /* The program is named after its file, so NVRTC's messages say
   * "gauss.cl(12): error" (and the #line marks of an expanded include name
   * the header), not a made-up name. */
  status = nvrtc_api.create_program (&prog, text, source_name ? source_name : "kernel.cl", 1, headers,
                                     header_names);
  if (status != NVRTC_SUCCESS)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("NVRTC could not take the program: %s"), nvrtc_api.get_error_string (status));
      return NULL;
    }
  status = nvrtc_api.compile_program (prog, (int) args->len, (const char * const *) args->pdata);
  if (nvrtc_api.get_program_log_size (prog, &log_size) == NVRTC_SUCCESS && log_size > 1)
    {
      log = g_malloc0 (log_size + 1);
      nvrtc_api.get_program_log (prog, log);
      g_strstrip (log);
    }
  if (out_log)
    *out_log = g_strdup (log ? log : "");
  if (status != NVRTC_SUCCESS)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("NVRTC refused the program for sm_%d%d (%s). Build log:\n%s"), cc_major, cc_minor,
                   nvrtc_api.get_error_string (status), log && *log ? log : "(NVRTC gave no log)");
      nvrtc_api.destroy_program (&prog);
      return NULL;
    }
  if (nvrtc_api.get_cubin_size (prog, &cubin_size) != NVRTC_SUCCESS || cubin_size == 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("NVRTC produced no binary for sm_%d%d"), cc_major, cc_minor);
      nvrtc_api.destroy_program (&prog);
      return NULL;
    }
  cubin = g_malloc (cubin_size);
  nvrtc_api.get_cubin (prog, cubin);
  nvrtc_api.destroy_program (&prog);
  return g_bytes_new_take (cubin, cubin_size);
}
