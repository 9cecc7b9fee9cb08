/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuSOLVER's dense LU (getrf + getrs): the library the paper's kernels are
 * measured against.  cuSOLVER pulls in cuBLAS and cuBLASLt (about 1 GB of
 * shared objects), so it is opened with dlopen on first use instead of being
 * linked: every other command, and every test, starts without loading it. */
#define G_LOG_DOMAIN "ks-cusolver"

#include "ks-cusolver.h"
#include "ks-compute-error.h"
#include "ks-cuda.h"
#include "ks-cuda-lib.h"
#include "ks-solver-error.h"   /* singular is the same news from any solver */

#include <glib/gi18n-lib.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#define KS_CUSOLVER_SONAME "libcusolver.so." G_STRINGIFY (CUSOLVER_VER_MAJOR)

typedef struct {
  __typeof__ (cusolverDnCreate)            *create;
  __typeof__ (cusolverDnDestroy)           *destroy;
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
static cusolverDnHandle_t cusolver_handle;  /* one at a time: creating it costs ~100 ms */
static int cusolver_handle_ordinal = -1;

static gboolean
load_cusolver_locked (GError **error)
{
  static gboolean tried;
  void *lib;

  if (!tried)
    {
      tried = TRUE;
      if ((lib = ks_cuda_lib_open (KS_CUSOLVER_SONAME, &cusolver_failure)) != NULL)
        {
#define SYM(field, name) \
          ks_cuda_lib_sym (lib, KS_CUSOLVER_SONAME, name, (void **) &cusolver_api.field, &cusolver_failure)
          SYM (create, "cusolverDnCreate");
          SYM (destroy, "cusolverDnDestroy");
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
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED, _("cuSOLVER: %s"), cusolver_failure);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_cusolver_dense_available (GError **error)
{
  gboolean ok;

  G_LOCK (cusolver);
  ok = load_cusolver_locked (error);
  G_UNLOCK (cusolver);
  return ok;
}


static gboolean
check_solver (cusolverStatus_t  status,
              const char       *what,
              GError          **error)
{
  if (status == CUSOLVER_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("%s failed: cusolverStatus %d"), what, (int) status);
  return FALSE;
}

/* Kept between solves of the same n, precision and device, like the kernel
 * solvers' buffers, so that a solve's wall time holds no allocation, no
 * event creation and no workspace query for either: the ratio column
 * compares like with like.  info[0] is getrf's status, info[1] getrs's:
 * one shared status would let getrs overwrite getrf's "singular". */
typedef struct {
  void        *a, *b, *work;
  int         *ipiv, *info;
  cudaEvent_t  start, end;
  guint        n;
  gboolean     fp64;
  int          ordinal;   /* -1: nothing held */
} DenseBuffers;

static DenseBuffers dense = { .ordinal = -1 };

static void
dense_buffers_clear_locked (void)
{
  DenseBuffers *d = &dense;

  if (d->ordinal < 0)
    return;
  /* The buffers belong to the device they were made on. */
  cudaSetDevice (d->ordinal);
  cudaFree (d->a);
  cudaFree (d->b);
  cudaFree (d->work);
  cudaFree (d->ipiv);
  cudaFree (d->info);
  if (d->start)
    cudaEventDestroy (d->start);
  if (d->end)
    cudaEventDestroy (d->end);
  *d = (DenseBuffers) { .ordinal = -1 };
}

void
ks_cusolver_dense_release (void)
{
  G_LOCK (cusolver);
  dense_buffers_clear_locked ();
  G_UNLOCK (cusolver);
}

/* A cuSOLVER handle belongs to the device current when it was made: on
 * another device, the old one is destroyed under its own. */
static gboolean
ensure_handle_locked (int      ordinal,
                      GError **error)
{
  if (cusolver_handle != NULL && cusolver_handle_ordinal == ordinal)
    return TRUE;
  if (cusolver_handle != NULL)
    {
      dense_buffers_clear_locked ();
      cudaSetDevice (cusolver_handle_ordinal);
      cusolver_api.destroy (cusolver_handle);
      cusolver_handle = NULL;
      cusolver_handle_ordinal = -1;
    }
  if (!ks_cuda_lib_check (cudaSetDevice (ordinal), "Selecting the CUDA device", error) ||
      !check_solver (cusolver_api.create (&cusolver_handle), "cusolverDnCreate", error))
    {
      cusolver_handle = NULL;
      return FALSE;
    }
  cusolver_handle_ordinal = ordinal;
  return TRUE;
}

static gboolean
ensure_buffers_locked (int        ordinal,
                       gboolean   fp64,
                       guint      n,
                       GError   **error)
{
  DenseBuffers *d = &dense;
  const gsize rs = fp64 ? sizeof (double) : sizeof (float);
  int lwork = 0;

  if (d->ordinal == ordinal && d->n == n && d->fp64 == fp64)
    return TRUE;
  dense_buffers_clear_locked ();
  d->ordinal = ordinal;
  d->n = n;
  d->fp64 = fp64;
  if (!ks_cuda_lib_check (cudaMalloc (&d->a, (gsize) n * n * rs), "Allocating the matrix", error) ||
      !ks_cuda_lib_check (cudaMalloc (&d->b, (gsize) n * rs), "Allocating the right-hand side", error) ||
      !ks_cuda_lib_check (cudaMalloc ((void **) &d->ipiv, (gsize) n * sizeof (int)), "Allocating the pivots", error) ||
      !ks_cuda_lib_check (cudaMalloc ((void **) &d->info, 2 * sizeof (int)), "Allocating the status", error) ||
      !ks_cuda_lib_check (cudaEventCreate (&d->start), "Creating an event", error) ||
      !ks_cuda_lib_check (cudaEventCreate (&d->end), "Creating an event", error) ||
      !check_solver (fp64 ? cusolver_api.dgetrf_buffer_size (cusolver_handle, (int) n, (int) n, d->a, (int) n, &lwork)
                          : cusolver_api.sgetrf_buffer_size (cusolver_handle, (int) n, (int) n, d->a, (int) n, &lwork),
                     "getrf_bufferSize", error) ||
      !ks_cuda_lib_check (cudaMalloc (&d->work, (gsize) MAX (lwork, 1) * rs), "Allocating the cuSOLVER workspace", error))
    {
      dense_buffers_clear_locked ();
      return FALSE;
    }
  return TRUE;
}

/* getrf + getrs on the device; the row-major host matrix is A^T to a
 * column-major library, so getrs solves with the transpose.  Both run
 * whatever getrf finds: stopping in between would need a round trip to the
 * host inside the timed part; getrs's answer is dropped when getrf's
 * status says singular. */
static gboolean
factor_and_solve_locked (gboolean  fp64,
                         int       n,
                         GError  **error)
{
  KsCusolver *api = &cusolver_api;
  DenseBuffers *d = &dense;

  if (!ks_cuda_lib_check (cudaEventRecord (d->start, NULL), "Recording the start event", error) ||
      !check_solver (fp64 ? api->dgetrf (cusolver_handle, n, n, d->a, n, d->work, d->ipiv, &d->info[0])
                          : api->sgetrf (cusolver_handle, n, n, d->a, n, d->work, d->ipiv, &d->info[0]),
                     "getrf", error) ||
      !check_solver (fp64 ? api->dgetrs (cusolver_handle, CUBLAS_OP_T, n, 1, d->a, n, d->ipiv, d->b, n, &d->info[1])
                          : api->sgetrs (cusolver_handle, CUBLAS_OP_T, n, 1, d->a, n, d->ipiv, d->b, n, &d->info[1]),
                     "getrs", error))
    return FALSE;
  return ks_cuda_lib_check (cudaEventRecord (d->end, NULL), "Recording the end event", error);
}

/* What the two statuses mean, getrf's first: a singular U makes getrs's
 * answer meaningless whatever getrs says. */
static gboolean
check_info (const int info[2],
            GError  **error)
{
  if (info[0] > 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_SINGULAR,
                   _("cuSOLVER getrf: U(%d,%d) is exactly zero: the matrix is singular"), info[0], info[0]);
      return FALSE;
    }
  if (info[0] < 0 || info[1] != 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("cuSOLVER %s: parameter %d had an illegal value"),
                   info[0] < 0 ? "getrf" : "getrs", -(info[0] < 0 ? info[0] : info[1]));
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_cusolver_dense_solve (KsDevice     *device,
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
  int ordinal, info[2] = { 0, 0 };
  float ms = 0.0f;
  gint64 t0, t1;
  gboolean ok = FALSE;

  g_return_val_if_fail (ks_device_get_backend (device) == KS_BACKEND_CUDA, FALSE);
  g_return_val_if_fail (n > 0 && n <= G_MAXINT, FALSE);

  /* Into the solver's precision before the clock starts, as for the
   * kernel solvers and LAPACK in "bench gauss". */
  for (gsize i = 0; i < nn; i++)
    fp64 ? (((double *) ha)[i] = a[i]) : (((float *) ha)[i] = (float) a[i]);
  for (guint i = 0; i < n; i++)
    fp64 ? (((double *) hb)[i] = b[i]) : (((float *) hb)[i] = (float) b[i]);

  ordinal = ks_cuda_device_ordinal (device);
  G_LOCK (cusolver);
  if (!load_cusolver_locked (error) ||
      !ensure_handle_locked (ordinal, error) ||
      !ks_cuda_lib_check (cudaSetDevice (ordinal), "Selecting the CUDA device", error) ||
      !ensure_buffers_locked (ordinal, fp64, n, error))
    goto out;
  /* The default stream: cuSOLVER's own synchronisation is then the solve's. */
  if (!check_solver (cusolver_api.set_stream (cusolver_handle, NULL), "cusolverDnSetStream", error))
    goto out;

  /* Upload + getrf + getrs + download, as the kernel rows' wall time. */
  t0 = g_get_monotonic_time ();
  if (!ks_cuda_lib_check (cudaMemcpy (dense.a, ha, nn * rs, cudaMemcpyHostToDevice), "Copying the matrix", error) ||
      !ks_cuda_lib_check (cudaMemcpy (dense.b, hb, (gsize) n * rs, cudaMemcpyHostToDevice), "Copying b", error) ||
      !factor_and_solve_locked (fp64, (int) n, error) ||
      !ks_cuda_lib_check (cudaMemcpy (hb, dense.b, (gsize) n * rs, cudaMemcpyDeviceToHost), "Copying x back", error) ||
      !ks_cuda_lib_check (cudaMemcpy (info, dense.info, sizeof info, cudaMemcpyDeviceToHost), "Copying the status", error))
    {
      /* Whatever state they are in, they are not trusted again. */
      dense_buffers_clear_locked ();
      goto out;
    }
  t1 = g_get_monotonic_time ();

  if (!check_info (info, error) ||
      !ks_cuda_lib_check (cudaEventElapsedTime (&ms, dense.start, dense.end), "Reading the solve's time", error))
    goto out;
  *device_ms = ms;
  *wall_ms = (t1 - t0) / 1000.0;
  for (guint i = 0; i < n; i++)
    x[i] = fp64 ? ((double *) hb)[i] : ((float *) hb)[i];
  ok = TRUE;

out:
  G_UNLOCK (cusolver);
  return ok;
}
