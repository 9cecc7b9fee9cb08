/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-lib.c: opening the CUDA libraries the baselines use, and their
 * errors (see the header). */
#define G_LOG_DOMAIN "ks-cuda-lib"

#include "ks-cuda-lib.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>
#include <dlfcn.h>

void *
ks_cuda_lib_open (const char  *soname,
                  char       **failure)
{
  g_autofree char *path = g_build_filename (KS_CUDA_LIBDIR, soname, NULL);
  void *lib;

  g_return_val_if_fail (soname != NULL && failure != NULL, NULL);

  lib = dlopen (soname, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    *failure = g_strdup_printf ("cannot open %s: %s", soname, dlerror ());
  return lib;
}

void
ks_cuda_lib_sym (void        *lib,
                 const char  *soname,
                 const char  *name,
                 void       **out,
                 char       **failure)
{
  g_return_if_fail (lib != NULL && name != NULL && out != NULL && failure != NULL);

  if (*failure == NULL && !(*out = dlsym (lib, name)))
    *failure = g_strdup_printf ("%s has no %s", soname, name);
}

gboolean
ks_cuda_lib_check (cudaError_t  status,
                   const char  *what,
                   GError     **error)
{
  if (status == cudaSuccess)
    return TRUE;
  (void) cudaGetLastError ();
  g_set_error (error, KS_COMPUTE_ERROR,
               status == cudaErrorMemoryAllocation ? KS_COMPUTE_ERROR_OUT_OF_MEMORY : KS_COMPUTE_ERROR_FAILED,
               _("%s failed: %s (%s)"), what, cudaGetErrorName (status), cudaGetErrorString (status));
  return FALSE;
}
