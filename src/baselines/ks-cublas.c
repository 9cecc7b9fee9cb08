/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuBLAS gemv with a ones vector: the library baseline of paper 003's row
 * sums.  cuBLAS (with cuBLASLt, hundreds of MB) is opened with dlopen on
 * first use, as ks-cusolver.c opens cuSOLVER, so nothing else loads it. */
#define G_LOG_DOMAIN "ks-cublas"

#include "ks-cublas.h"
#include "ks-compute-error.h"
#include "ks-cuda.h"
#include "ks-cuda-lib.h"

#include <glib/gi18n-lib.h>
#include <cuda_runtime_api.h>
#include <cublas_api.h>

#define KS_CUBLAS_SONAME "libcublas.so." G_STRINGIFY (CUBLAS_VER_MAJOR)

typedef struct {
  __typeof__ (cublasCreate_v2)    *create;
  __typeof__ (cublasDestroy_v2)   *destroy;
  __typeof__ (cublasSetStream_v2) *set_stream;
  __typeof__ (cublasSgemv_v2)     *sgemv;
  __typeof__ (cublasDgemv_v2)     *dgemv;
} KsCublas;

G_LOCK_DEFINE_STATIC (cublas);
static KsCublas api;
static char *failure;
static cublasHandle_t handle;
static int handle_ordinal = -1;

/* The values, the ones and the sums of the last call, kept for the next. */
typedef struct {
  void        *a, *ones, *y;
  cudaEvent_t  start, end;
  guint64      v, w;
  gboolean     fp64;
  int          ordinal;   /* -1: nothing held */
} Buffers;

static Buffers held = { .ordinal = -1 };

static gboolean
load_locked (GError **error)
{
  static gboolean tried;

  if (!tried)
    {
      void *lib;

      tried = TRUE;
      if ((lib = ks_cuda_lib_open (KS_CUBLAS_SONAME, &failure)) != NULL)
        {
#define SYM(field, name) ks_cuda_lib_sym (lib, KS_CUBLAS_SONAME, name, (void **) &api.field, &failure)
          SYM (create, "cublasCreate_v2");
          SYM (destroy, "cublasDestroy_v2");
          SYM (set_stream, "cublasSetStream_v2");
          SYM (sgemv, "cublasSgemv_v2");
          SYM (dgemv, "cublasDgemv_v2");
#undef SYM
        }
    }
  if (failure)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED, _("cuBLAS: %s"), failure);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_cublas_available (GError **error)
{
  gboolean ok;

  G_LOCK (cublas);
  ok = load_locked (error);
  G_UNLOCK (cublas);
  return ok;
}


static gboolean
check_blas (cublasStatus_t  status,
            const char     *what,
            GError        **error)
{
  if (status == CUBLAS_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("%s failed: cublasStatus %d"), what, (int) status);
  return FALSE;
}

static void
buffers_clear_locked (void)
{
  if (held.ordinal < 0)
    return;
  cudaSetDevice (held.ordinal);
  cudaFree (held.a);
  cudaFree (held.ones);
  cudaFree (held.y);
  if (held.start)
    cudaEventDestroy (held.start);
  if (held.end)
    cudaEventDestroy (held.end);
  held = (Buffers) { .ordinal = -1 };
}

/* A handle belongs to the device current when it was made. */
static gboolean
ensure_handle_locked (int      ordinal,
                      GError **error)
{
  if (handle != NULL && handle_ordinal == ordinal)
    return TRUE;
  if (handle != NULL)
    {
      buffers_clear_locked ();
      cudaSetDevice (handle_ordinal);
      api.destroy (handle);
      handle = NULL;
      handle_ordinal = -1;
    }
  if (!ks_cuda_lib_check (cudaSetDevice (ordinal), "Selecting the CUDA device", error) ||
      !check_blas (api.create (&handle), "cublasCreate", error))
    {
      handle = NULL;
      return FALSE;
    }
  handle_ordinal = ordinal;
  return TRUE;
}

/* The values and a vector of w ones on the device, uploaded once per shape. */
static gboolean
ensure_buffers_locked (int          ordinal,
                       gboolean     fp64,
                       guint64      v,
                       guint64      w,
                       const void  *vals,
                       GError     **error)
{
  const gsize rs = fp64 ? sizeof (double) : sizeof (float);
  g_autofree void *ones = NULL;

  if (held.ordinal == ordinal && held.v == v && held.w == w && held.fp64 == fp64)
    return TRUE;
  buffers_clear_locked ();
  held = (Buffers) { .ordinal = ordinal, .v = v, .w = w, .fp64 = fp64 };
  ones = g_malloc (w * rs);
  for (guint64 j = 0; j < w; j++)
    fp64 ? (((double *) ones)[j] = 1.0) : (((float *) ones)[j] = 1.0f);
  if (!ks_cuda_lib_check (cudaMalloc (&held.a, v * w * rs), "Allocating the values", error) ||
      !ks_cuda_lib_check (cudaMalloc (&held.ones, w * rs), "Allocating the ones", error) ||
      !ks_cuda_lib_check (cudaMalloc (&held.y, v * rs), "Allocating the sums", error) ||
      !ks_cuda_lib_check (cudaEventCreate (&held.start), "Creating an event", error) ||
      !ks_cuda_lib_check (cudaEventCreate (&held.end), "Creating an event", error) ||
      !ks_cuda_lib_check (cudaMemcpy (held.a, vals, v * w * rs, cudaMemcpyHostToDevice), "Copying the values", error) ||
      !ks_cuda_lib_check (cudaMemcpy (held.ones, ones, w * rs, cudaMemcpyHostToDevice), "Copying the ones", error))
    {
      buffers_clear_locked ();
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_cublas_row_sums (KsDevice    *device,
                    gboolean     fp64,
                    guint64      v,
                    guint64      w,
                    const void  *vals,
                    double      *sums,
                    double      *device_ms,
                    GError     **error)
{
  const gsize rs = fp64 ? sizeof (double) : sizeof (float);
  g_autofree void *y = NULL;
  const double one = 1.0, zero = 0.0;
  const float onef = 1.0f, zerof = 0.0f;
  float ms = 0;
  int ordinal;
  gboolean ok = FALSE;
  cublasStatus_t status;

  g_return_val_if_fail (ks_device_get_backend (device) == KS_BACKEND_CUDA, FALSE);
  g_return_val_if_fail (vals != NULL && sums != NULL && device_ms != NULL, FALSE);

  if (v > G_MAXINT || w > G_MAXINT)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("cuBLAS gemv takes at most 2^31 - 1 rows and columns, not %llu × %llu"),
                   (unsigned long long) v, (unsigned long long) w);
      return FALSE;
    }
  y = g_malloc (v * rs);
  ordinal = ks_cuda_device_ordinal (device);
  G_LOCK (cublas);
  if (!load_locked (error) || !ensure_handle_locked (ordinal, error) ||
      !ks_cuda_lib_check (cudaSetDevice (ordinal), "Selecting the CUDA device", error) ||
      !ensure_buffers_locked (ordinal, fp64, v, w, vals, error) ||
      !check_blas (api.set_stream (handle, NULL), "cublasSetStream", error))
    goto out;

  /* Row-major v x w is column-major w x v (lda w): its transpose times the
   * ones is each row's sum. */
  if (!ks_cuda_lib_check (cudaEventRecord (held.start, NULL), "Recording the start event", error))
    goto out;
  status = fp64 ? api.dgemv (handle, CUBLAS_OP_T, (int) w, (int) v, &one, held.a, (int) w, held.ones, 1, &zero,
                             held.y, 1)
                : api.sgemv (handle, CUBLAS_OP_T, (int) w, (int) v, &onef, held.a, (int) w, held.ones, 1, &zerof,
                             held.y, 1);
  if (!check_blas (status, "gemv", error) ||
      !ks_cuda_lib_check (cudaEventRecord (held.end, NULL), "Recording the end event", error) ||
      !ks_cuda_lib_check (cudaMemcpy (y, held.y, v * rs, cudaMemcpyDeviceToHost), "Copying the sums back", error) ||
      !ks_cuda_lib_check (cudaEventElapsedTime (&ms, held.start, held.end), "Reading gemv's time", error))
    {
      buffers_clear_locked ();
      goto out;
    }
  *device_ms = ms;
  for (guint64 i = 0; i < v; i++)
    sums[i] = fp64 ? ((double *) y)[i] : ((float *) y)[i];
  ok = TRUE;

out:
  G_UNLOCK (cublas);
  return ok;
}
