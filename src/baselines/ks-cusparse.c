/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cuSPARSE's tridiagonal solvers (gtsv2StridedBatch, gtsvInterleavedBatch,
 * gtsv2_nopivot): the library paper 002's kernels are measured against.
 * Opened with dlopen on first use, as cuSOLVER is, so that nothing else
 * loads it and a machine without it still runs everything else. */
#define G_LOG_DOMAIN "ks-cusparse"

#include "ks-cusparse.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>

#ifdef KS_HAVE_CUDA
#include "ks-cuda.h"

#include <cuda_runtime_api.h>
/* The header marks its older API deprecated, used here or not. */
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>
#include <dlfcn.h>

#define KS_CUSPARSE_SONAME "libcusparse.so." G_STRINGIFY (CUSPARSE_VER_MAJOR)

typedef struct {
  __typeof__ (cusparseCreate)    *create;
  __typeof__ (cusparseDestroy)   *destroy;
  __typeof__ (cusparseSetStream) *set_stream;
  __typeof__ (cusparseSgtsv2StridedBatch_bufferSizeExt)    *s_strided_size;
  __typeof__ (cusparseDgtsv2StridedBatch_bufferSizeExt)    *d_strided_size;
  __typeof__ (cusparseSgtsv2StridedBatch)                  *s_strided;
  __typeof__ (cusparseDgtsv2StridedBatch)                  *d_strided;
  __typeof__ (cusparseSgtsvInterleavedBatch_bufferSizeExt) *s_interleaved_size;
  __typeof__ (cusparseDgtsvInterleavedBatch_bufferSizeExt) *d_interleaved_size;
  __typeof__ (cusparseSgtsvInterleavedBatch)               *s_interleaved;
  __typeof__ (cusparseDgtsvInterleavedBatch)               *d_interleaved;
  __typeof__ (cusparseSgtsv2_nopivot_bufferSizeExt)        *s_nopivot_size;
  __typeof__ (cusparseDgtsv2_nopivot_bufferSizeExt)        *d_nopivot_size;
  __typeof__ (cusparseSgtsv2_nopivot)                      *s_nopivot;
  __typeof__ (cusparseDgtsv2_nopivot)                      *d_nopivot;
} KsCusparse;

G_LOCK_DEFINE_STATIC (cusparse);
static KsCusparse api;
static char *failure;

/* Kept between calls of one shape, so a repetition times no allocation. */
static struct {
  cusparseHandle_t handle;
  int              ordinal;   /* -1: nothing held */
  void            *dl, *d, *du, *x, *work;
  gsize            array_bytes, work_bytes;
  cudaEvent_t      start, end;
} held = { .ordinal = -1 };

static gboolean
load_locked (GError **error)
{
  static gboolean tried;

  if (!tried)
    {
      g_autofree char *path = g_build_filename (KS_CUDA_LIBDIR, KS_CUSPARSE_SONAME, NULL);
      void *lib;

      tried = TRUE;
      if (!(lib = dlopen (KS_CUSPARSE_SONAME, RTLD_NOW | RTLD_LOCAL)))
        lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);
      if (lib == NULL)
        failure = g_strdup_printf ("cannot open %s: %s", KS_CUSPARSE_SONAME, dlerror ());
#define SYM(field, name) \
      if (failure == NULL && !(api.field = dlsym (lib, name))) \
        failure = g_strdup_printf ("%s has no %s", KS_CUSPARSE_SONAME, name);
      SYM (create, "cusparseCreate");
      SYM (destroy, "cusparseDestroy");
      SYM (set_stream, "cusparseSetStream");
      SYM (s_strided_size, "cusparseSgtsv2StridedBatch_bufferSizeExt");
      SYM (d_strided_size, "cusparseDgtsv2StridedBatch_bufferSizeExt");
      SYM (s_strided, "cusparseSgtsv2StridedBatch");
      SYM (d_strided, "cusparseDgtsv2StridedBatch");
      SYM (s_interleaved_size, "cusparseSgtsvInterleavedBatch_bufferSizeExt");
      SYM (d_interleaved_size, "cusparseDgtsvInterleavedBatch_bufferSizeExt");
      SYM (s_interleaved, "cusparseSgtsvInterleavedBatch");
      SYM (d_interleaved, "cusparseDgtsvInterleavedBatch");
      SYM (s_nopivot_size, "cusparseSgtsv2_nopivot_bufferSizeExt");
      SYM (d_nopivot_size, "cusparseDgtsv2_nopivot_bufferSizeExt");
      SYM (s_nopivot, "cusparseSgtsv2_nopivot");
      SYM (d_nopivot, "cusparseDgtsv2_nopivot");
#undef SYM
    }
  if (failure)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED, _("cuSPARSE: %s"), failure);
      return FALSE;
    }
  return TRUE;
}

/* A CUDA runtime status as the compute layer words it. */
#define check(status, what, error) ks_cuda_check_status ((int) (status), (what), (error))

static gboolean
check_sparse (cusparseStatus_t  status,
              const char       *what,
              GError          **error)
{
  if (status == CUSPARSE_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("%s failed: cusparseStatus %d"), what, (int) status);
  return FALSE;
}

static void
clear_locked (void)
{
  if (held.ordinal < 0)
    return;
  cudaSetDevice (held.ordinal);
  cudaFree (held.dl);
  cudaFree (held.d);
  cudaFree (held.du);
  cudaFree (held.x);
  cudaFree (held.work);
  if (held.start)
    cudaEventDestroy (held.start);
  if (held.end)
    cudaEventDestroy (held.end);
  if (held.handle)
    api.destroy (held.handle);
  held = (__typeof__ (held)) { .ordinal = -1 };
}

/* The handle, events and four arrays of array_bytes on the device, kept
 * when they fit; refused with the numbers before allocating when the
 * device has not the memory. */
static gboolean
ensure_locked (int      ordinal,
               gsize    array_bytes,
               GError **error)
{
  size_t free_bytes = 0, total_bytes = 0;

  if (held.ordinal == ordinal && held.array_bytes >= array_bytes)
    return check (cudaSetDevice (ordinal), "Selecting the CUDA device", error);
  clear_locked ();
  if (!check (cudaSetDevice (ordinal), "Selecting the CUDA device", error) ||
      !check (cudaMemGetInfo (&free_bytes, &total_bytes), "Reading the free device memory", error))
    return FALSE;
  if ((guint64) array_bytes * 4 > free_bytes)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("cuSPARSE's copy of the systems needs %.1f MiB of device memory; %.1f MiB is free"),
                   array_bytes * 4 / 1048576.0, free_bytes / 1048576.0);
      return FALSE;
    }
  held.ordinal = ordinal;
  held.array_bytes = array_bytes;
  if (!check_sparse (api.create (&held.handle), "cusparseCreate", error) ||
      !check_sparse (api.set_stream (held.handle, NULL), "cusparseSetStream", error) ||
      !check (cudaMalloc (&held.dl, array_bytes), "Allocating dl", error) ||
      !check (cudaMalloc (&held.d, array_bytes), "Allocating d", error) ||
      !check (cudaMalloc (&held.du, array_bytes), "Allocating du", error) ||
      !check (cudaMalloc (&held.x, array_bytes), "Allocating x", error) ||
      !check (cudaEventCreate (&held.start), "Creating an event", error) ||
      !check (cudaEventCreate (&held.end), "Creating an event", error))
    {
      clear_locked ();
      return FALSE;
    }
  return TRUE;
}

/* One diagonal in the solve's precision and layout. */
static gpointer
pack (const double *src,
      guint         n,
      guint         systems,
      gboolean      interleaved,
      gboolean      fp64)
{
  const gsize total = (gsize) n * systems;
  gpointer out = g_malloc (total * (fp64 ? sizeof (double) : sizeof (float)));

  for (gsize k = 0; k < total; k++)
    {
      const gsize to = interleaved ? (k % n) * systems + k / n : k;
      if (fp64)
        ((double *) out)[to] = src[k];
      else
        ((float *) out)[to] = (float) src[k];
    }
  return out;
}

/* The workspace the algorithm asks for, then the call between the events. */
static gboolean
call_locked (KsCusparseTridiag algorithm,
             gboolean          fp64,
             int               m,
             int               batch,
             GError          **error)
{
  const int algo = algorithm == KS_CUSPARSE_INTERLEAVED_LU ? 1 : 0;
  size_t size = 0;
  cusparseStatus_t st;

  switch (algorithm)
    {
    case KS_CUSPARSE_GTSV2_STRIDED:
      st = fp64 ? api.d_strided_size (held.handle, m, held.dl, held.d, held.du, held.x, batch, m, &size)
                : api.s_strided_size (held.handle, m, held.dl, held.d, held.du, held.x, batch, m, &size);
      break;
    case KS_CUSPARSE_GTSV2_NOPIVOT:
      st = fp64 ? api.d_nopivot_size (held.handle, m, 1, held.dl, held.d, held.du, held.x, m, &size)
                : api.s_nopivot_size (held.handle, m, 1, held.dl, held.d, held.du, held.x, m, &size);
      break;
    default:
      st = fp64 ? api.d_interleaved_size (held.handle, algo, m, held.dl, held.d, held.du, held.x, batch, &size)
                : api.s_interleaved_size (held.handle, algo, m, held.dl, held.d, held.du, held.x, batch, &size);
      break;
    }
  if (!check_sparse (st, "the cuSPARSE workspace query", error))
    return FALSE;
  if (size > held.work_bytes)
    {
      cudaFree (held.work);
      held.work = NULL;
      held.work_bytes = 0;
      if (!check (cudaMalloc (&held.work, size), "Allocating the cuSPARSE workspace", error))
        return FALSE;
      held.work_bytes = size;
    }
  if (!check (cudaEventRecord (held.start, NULL), "Recording the start event", error))
    return FALSE;
  switch (algorithm)
    {
    case KS_CUSPARSE_GTSV2_STRIDED:
      st = fp64 ? api.d_strided (held.handle, m, held.dl, held.d, held.du, held.x, batch, m, held.work)
                : api.s_strided (held.handle, m, held.dl, held.d, held.du, held.x, batch, m, held.work);
      break;
    case KS_CUSPARSE_GTSV2_NOPIVOT:
      st = fp64 ? api.d_nopivot (held.handle, m, 1, held.dl, held.d, held.du, held.x, m, held.work)
                : api.s_nopivot (held.handle, m, 1, held.dl, held.d, held.du, held.x, m, held.work);
      break;
    default:
      st = fp64 ? api.d_interleaved (held.handle, algo, m, held.dl, held.d, held.du, held.x, batch, held.work)
                : api.s_interleaved (held.handle, algo, m, held.dl, held.d, held.du, held.x, batch, held.work);
      break;
    }
  return check_sparse (st, "the cuSPARSE solve", error) &&
         check (cudaEventRecord (held.end, NULL), "Recording the end event", error);
}
#endif /* KS_HAVE_CUDA */

gboolean
ks_cusparse_available (GError **error)
{
#ifdef KS_HAVE_CUDA
  gboolean ok;

  G_LOCK (cusparse);
  ok = load_locked (error);
  G_UNLOCK (cusparse);
  return ok;
#else
  g_set_error_literal (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                       _("cuSPARSE: built without the CUDA toolkit"));
  return FALSE;
#endif
}

void
ks_cusparse_release (void)
{
#ifdef KS_HAVE_CUDA
  G_LOCK (cusparse);
  clear_locked ();
  G_UNLOCK (cusparse);
#endif
}

gboolean
ks_cusparse_tridiag_solve (KsDevice          *device,
                           KsCusparseTridiag  algorithm,
                           gboolean           fp64,
                           guint              n,
                           guint              systems,
                           const double      *a,
                           const double      *b,
                           const double      *c,
                           const double      *d,
                           double            *x,
                           double            *device_ms,
                           GError           **error)
{
#ifdef KS_HAVE_CUDA
  const gboolean interleaved = algorithm == KS_CUSPARSE_INTERLEAVED_THOMAS || algorithm == KS_CUSPARSE_INTERLEAVED_LU;
  const gsize rs = fp64 ? sizeof (double) : sizeof (float);
  const gsize total = (gsize) n * systems;
  const double *diagonals[4] = { a, b, c, d };
  void *targets[4];
  g_autofree void *hx = NULL;
  float ms = 0.0f;
  gboolean ok = FALSE;

  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);
  g_return_val_if_fail (a && b && c && d && x && device_ms, FALSE);

  if (ks_device_get_backend (device) != KS_BACKEND_CUDA)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("cuSPARSE runs on CUDA devices; %s is not one"), ks_device_get_name (device));
      return FALSE;
    }
  if (algorithm == KS_CUSPARSE_GTSV2_NOPIVOT && systems != 1)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("cuSPARSE gtsv2_nopivot solves one system; %u were given"), systems);
      return FALSE;
    }
  if (n < 3 || n > G_MAXINT || systems > G_MAXINT || total > G_MAXINT)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("cuSPARSE takes 3 to %d unknowns in all (int indices); %u systems of %u is outside"),
                   G_MAXINT, systems, n);
      return FALSE;
    }

  G_LOCK (cusparse);
  if (!load_locked (error) || !ensure_locked (ks_cuda_device_ordinal (device), total * rs, error))
    goto out;
  targets[0] = held.dl;
  targets[1] = held.d;
  targets[2] = held.du;
  targets[3] = held.x;
  for (guint i = 0; i < 4; i++)
    {
      g_autofree void *host = pack (diagonals[i], n, systems, interleaved, fp64);
      if (!check (cudaMemcpy (targets[i], host, total * rs, cudaMemcpyHostToDevice), "Copying a diagonal", error))
        goto out;
    }
  if (!call_locked (algorithm, fp64, (int) n, (int) systems, error) ||
      !check (cudaEventSynchronize (held.end), "Waiting for cuSPARSE", error) ||
      !check (cudaEventElapsedTime (&ms, held.start, held.end), "Reading the solve's time", error))
    goto out;
  hx = g_malloc (total * rs);
  if (!check (cudaMemcpy (hx, held.x, total * rs, cudaMemcpyDeviceToHost), "Copying x back", error))
    goto out;
  for (gsize k = 0; k < total; k++)
    {
      const gsize from = interleaved ? (k % n) * systems + k / n : k;
      x[k] = fp64 ? ((double *) hx)[from] : ((float *) hx)[from];
    }
  *device_ms = ms;
  ok = TRUE;

out:
  if (!ok)
    clear_locked ();
  G_UNLOCK (cusparse);
  return ok;
#else
  return ks_cusparse_available (error);
#endif
}
