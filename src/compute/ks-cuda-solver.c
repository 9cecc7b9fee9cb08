/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuSOLVER's dense LU (getrf + getrs): the library the paper's kernels are
 * measured against.  cuSOLVER pulls in cuBLAS and cuBLASLt (about 1 GB of
 * shared objects), so it is opened with dlopen on first use instead of being
 * linked: every other command, and every test, starts without loading it. */
#define G_LOG_DOMAIN "ks-cuda"

#include "ks-cuda.h"
#include "ks-compute-error.h"

#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#include <dlfcn.h>

#define KS_CUSOLVER_SONAME "libcusolver.so." G_STRINGIFY (CUSOLVER_VER_MAJOR)

typedef struct {
  __typeof__ (cusolverDnCreate)            *create;
  __typeof__ (cusolverDnSetStream)         *set_stream;
  __typeof__ (cusolverDnSgetrf_bufferSize) *sgetrf_buffer_size;
  __typeof__ (cusolverDnDgetrf_bufferSize) *dgetrf_buffer_size;
  __typeof__ (cusolverDnSgetrf)            *sgetrf;
  __typeof__ (cusolverDnDgetrf)            *dgetrf;
  __typeof__ (cusolverDnSgetrs)            *sgetrs;
  __typeof__ (cusolverDnDgetrs)            *dgetrs;
} KsCusolver;

G_LOCK_DEFINE_STATIC (cusolver);
static KsCusolver cusolver_api;
static char *cusolver_failure;
static cusolverDnHandle_t cusolver_handle;  /* one per process: creating it costs ~100 ms */
static int cusolver_handle_ordinal = -1;

static gboolean
load_cusolver_locked (GError **error)
{
  static gboolean tried;
  void *lib;

  if (!tried)
    {
      g_autofree char *path = g_build_filename (KS_CUDA_LIBDIR, KS_CUSOLVER_SONAME, NULL);

      /* The loader's search path first, then the toolkit's own lib64. */
      tried = TRUE;
      lib = dlopen (KS_CUSOLVER_SONAME, RTLD_NOW | RTLD_LOCAL);
      if (lib == NULL)
        lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);
      if (lib == NULL)
        cusolver_failure = g_strdup_printf ("cannot open %s: %s", KS_CUSOLVER_SONAME, dlerror ());
      else
        {
#define SYM(field, name) \
          if (cusolver_failure == NULL && !(cusolver_api.field = dlsym (lib, name))) \
            cusolver_failure = g_strdup_printf ("%s has no %s", KS_CUSOLVER_SONAME, name);
          SYM (create, "cusolverDnCreate");
          SYM (set_stream, "cusolverDnSetStream");
          SYM (sgetrf_buffer_size, "cusolverDnSgetrf_bufferSize");
          SYM (dgetrf_buffer_size, "cusolverDnDgetrf_bufferSize");
          SYM (sgetrf, "cusolverDnSgetrf");
          SYM (dgetrf, "cusolverDnDgetrf");
          SYM (sgetrs, "cusolverDnSgetrs");
          SYM (dgetrs, "cusolverDnDgetrs");
#undef SYM
        }
    }
  if (cusolver_failure)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED, "cuSOLVER: %s", cusolver_failure);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check (cudaError_t  status,
       const char  *what,
       GError     **error)
{
  if (status == cudaSuccess)
    return TRUE;
  (void) cudaGetLastError ();
  g_set_error (error, KS_COMPUTE_ERROR,
               status == cudaErrorMemoryAllocation ? KS_COMPUTE_ERROR_OUT_OF_MEMORY : KS_COMPUTE_ERROR_FAILED,
               "%s failed: %s (%s)", what, cudaGetErrorName (status), cudaGetErrorString (status));
  return FALSE;
}

static gboolean
check_solver (cusolverStatus_t  status,
              const char       *what,
              GError          **error)
{
  if (status == CUSOLVER_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, "%s failed: cusolverStatus %d", what, (int) status);
  return FALSE;
}

typedef struct {
  void        *a, *b, *work;
  int         *ipiv, *info;
  cudaEvent_t  start, end;
} DenseBuffers;

static void
dense_buffers_clear (DenseBuffers *d)
{
  cudaFree (d->a);
  cudaFree (d->b);
  cudaFree (d->work);
  cudaFree (d->ipiv);
  cudaFree (d->info);
  if (d->start)
    cudaEventDestroy (d->start);
  if (d->end)
    cudaEventDestroy (d->end);
}

/* getrf + getrs on the device; the row-major host matrix is A^T to a
 * column-major library, so getrs solves with the transpose. */
static gboolean
factor_and_solve (cudaStream_t  stream,
                  gboolean      fp64,
                  int           n,
                  DenseBuffers *d,
                  GError      **error)
{
  KsCusolver *api = &cusolver_api;
  int lwork = 0;

  if (!check_solver (fp64 ? api->dgetrf_buffer_size (cusolver_handle, n, n, d->a, n, &lwork)
                          : api->sgetrf_buffer_size (cusolver_handle, n, n, d->a, n, &lwork),
                     "getrf_bufferSize", error) ||
      !check (cudaMalloc (&d->work, (size_t) MAX (lwork, 1) * (fp64 ? sizeof (double) : sizeof (float))),
              "Allocating the cuSOLVER workspace", error))
    return FALSE;

  cudaEventRecord (d->start, stream);
  if (!check_solver (fp64 ? api->dgetrf (cusolver_handle, n, n, d->a, n, d->work, d->ipiv, d->info)
                          : api->sgetrf (cusolver_handle, n, n, d->a, n, d->work, d->ipiv, d->info),
                     "getrf", error) ||
      !check_solver (fp64 ? api->dgetrs (cusolver_handle, CUBLAS_OP_T, n, 1, d->a, n, d->ipiv, d->b, n, d->info)
                          : api->sgetrs (cusolver_handle, CUBLAS_OP_T, n, 1, d->a, n, d->ipiv, d->b, n, d->info),
                     "getrs", error))
    return FALSE;
  cudaEventRecord (d->end, stream);
  return TRUE;
}

gboolean
ks_cuda_dense_solve (KsDevice     *device,
                     gboolean      fp64,
                     guint         n,
                     const double *a,
                     const double *b,
                     double       *x,
                     double       *device_ms,
                     double       *wall_ms,
                     GError      **error)
{
  const gsize rs = fp64 ? sizeof (double) : sizeof (float);
  const gsize nn = (gsize) n * n;
  g_autofree void *ha = g_malloc (nn * rs);
  g_autofree void *hb = g_malloc ((gsize) n * rs);
  DenseBuffers d = { 0 };
  int ordinal, info = 0;
  float ms = 0.0f;
  gint64 t0, t1;
  gboolean ok = FALSE;

  g_return_val_if_fail (ks_device_get_backend (device) == KS_BACKEND_CUDA, FALSE);
  g_return_val_if_fail (n > 0 && n <= G_MAXINT, FALSE);

  for (gsize i = 0; i < nn; i++)
    fp64 ? (((double *) ha)[i] = a[i]) : (((float *) ha)[i] = (float) a[i]);
  for (guint i = 0; i < n; i++)
    fp64 ? (((double *) hb)[i] = b[i]) : (((float *) hb)[i] = (float) b[i]);

  ordinal = ks_cuda_device_ordinal (device);
  G_LOCK (cusolver);
  if (!load_cusolver_locked (error) || !check (cudaSetDevice (ordinal), "Selecting the CUDA device", error))
    goto out;
  if (cusolver_handle_ordinal != ordinal)
    {
      /* The handle belongs to the device current when it was made. */
      cusolver_handle = NULL;
      if (!check_solver (cusolver_api.create (&cusolver_handle), "cusolverDnCreate", error))
        goto out;
      cusolver_handle_ordinal = ordinal;
    }
  /* The default stream: cuSOLVER's own synchronisation is then the solve's. */
  cusolver_api.set_stream (cusolver_handle, NULL);

  t0 = g_get_monotonic_time ();
  if (!check (cudaMalloc (&d.a, nn * rs), "Allocating the matrix", error) ||
      !check (cudaMalloc (&d.b, (gsize) n * rs), "Allocating the right-hand side", error) ||
      !check (cudaMalloc ((void **) &d.ipiv, (gsize) n * sizeof (int)), "Allocating the pivots", error) ||
      !check (cudaMalloc ((void **) &d.info, sizeof (int)), "Allocating the status", error) ||
      !check (cudaEventCreate (&d.start), "Creating an event", error) ||
      !check (cudaEventCreate (&d.end), "Creating an event", error) ||
      !check (cudaMemcpy (d.a, ha, nn * rs, cudaMemcpyHostToDevice), "Copying the matrix", error) ||
      !check (cudaMemcpy (d.b, hb, (gsize) n * rs, cudaMemcpyHostToDevice), "Copying b", error) ||
      !factor_and_solve (NULL, fp64, (int) n, &d, error) ||
      !check (cudaMemcpy (hb, d.b, (gsize) n * rs, cudaMemcpyDeviceToHost), "Copying x back", error) ||
      !check (cudaMemcpy (&info, d.info, sizeof info, cudaMemcpyDeviceToHost), "Copying the status", error))
    goto out;
  t1 = g_get_monotonic_time ();

  if (info != 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   "cuSOLVER getrf: U(%d,%d) is exactly zero: the matrix is singular", info, info);
      goto out;
    }
  cudaEventElapsedTime (&ms, d.start, d.end);
  *device_ms = ms;
  *wall_ms = (t1 - t0) / 1000.0;
  for (guint i = 0; i < n; i++)
    x[i] = fp64 ? ((double *) hb)[i] : ((float *) hb)[i];
  ok = TRUE;

out:
  dense_buffers_clear (&d);
  G_UNLOCK (cusolver);
  return ok;
}
