/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cusparse-cg.c: the library CG of ks-cusparse-cg.h: cuSPARSE's SpMV and
 * cuBLAS's level-1 calls, opened at run time. */
#define G_LOG_DOMAIN "ks-cusparse-cg"

#include "ks-cusparse-cg.h"
#include "ks-compute-error.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#ifdef KS_HAVE_CUDA
#include "ks-cuda.h"
#include "ks-cuda-lib.h"

#include <cuda_runtime_api.h>
#include <cublas_api.h>
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#define SPARSE_SONAME "libcusparse.so." G_STRINGIFY (CUSPARSE_VER_MAJOR)
#define BLAS_SONAME "libcublas.so." G_STRINGIFY (CUBLAS_VER_MAJOR)

static struct {
  __typeof__ (cusparseCreate)           *sp_create;
  __typeof__ (cusparseDestroy)          *sp_destroy;
  __typeof__ (cusparseCreateCsr)        *create_csr;
  __typeof__ (cusparseDestroySpMat)     *destroy_mat;
  __typeof__ (cusparseCreateDnVec)      *create_vec;
  __typeof__ (cusparseDestroyDnVec)     *destroy_vec;
  __typeof__ (cusparseSpMV_bufferSize)  *spmv_size;
  __typeof__ (cusparseSpMV)             *spmv;
  __typeof__ (cublasCreate_v2)          *bl_create;
  __typeof__ (cublasDestroy_v2)         *bl_destroy;
  __typeof__ (cublasDdot_v2)            *ddot;
  __typeof__ (cublasSdot_v2)            *sdot;
  __typeof__ (cublasDaxpy_v2)           *daxpy;
  __typeof__ (cublasSaxpy_v2)           *saxpy;
  __typeof__ (cublasDscal_v2)           *dscal;
  __typeof__ (cublasSscal_v2)           *sscal;
} api;

G_LOCK_DEFINE_STATIC (load);
static char *failure;

struct _KsCusparseCg {
  int                   ordinal;
  gboolean              fp64;
  gsize                 rs;
  cusparseHandle_t      sp;
  cublasHandle_t        bl;
  guint                 n;
  guint                 nnz;
  void                 *row_ptr, *col, *val, *x, *b, *r, *p, *q, *work;
  gsize                 work_bytes;
  cusparseSpMatDescr_t  mat;
  cusparseDnVecDescr_t  vx, vr, vp, vq;
};

static gboolean
load (GError **error)
{
  static gboolean tried;
  gboolean ok;

  G_LOCK (load);
  if (!tried)
    {
      void *sp, *bl;

      tried = TRUE;
      if ((sp = ks_cuda_lib_open (SPARSE_SONAME, &failure)) != NULL)
        {
#define SYM(field, name) ks_cuda_lib_sym (sp, SPARSE_SONAME, name, (void **) &api.field, &failure)
          SYM (sp_create, "cusparseCreate");
          SYM (sp_destroy, "cusparseDestroy");
          SYM (create_csr, "cusparseCreateCsr");
          SYM (destroy_mat, "cusparseDestroySpMat");
          SYM (create_vec, "cusparseCreateDnVec");
          SYM (destroy_vec, "cusparseDestroyDnVec");
          SYM (spmv_size, "cusparseSpMV_bufferSize");
          SYM (spmv, "cusparseSpMV");
#undef SYM
        }
      if (failure == NULL && (bl = ks_cuda_lib_open (BLAS_SONAME, &failure)) != NULL)
        {
#define SYM(field, name) ks_cuda_lib_sym (bl, BLAS_SONAME, name, (void **) &api.field, &failure)
          SYM (bl_create, "cublasCreate_v2");
          SYM (bl_destroy, "cublasDestroy_v2");
          SYM (ddot, "cublasDdot_v2");
          SYM (sdot, "cublasSdot_v2");
          SYM (daxpy, "cublasDaxpy_v2");
          SYM (saxpy, "cublasSaxpy_v2");
          SYM (dscal, "cublasDscal_v2");
          SYM (sscal, "cublasSscal_v2");
#undef SYM
        }
    }
  ok = failure == NULL;
  if (!ok)
    g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED, _("The library CG: %s"), failure);
  G_UNLOCK (load);
  return ok;
}

#define check(status, what, error) ks_cuda_lib_check ((status), (what), (error))

static gboolean
check_sparse (cusparseStatus_t status, const char *what, GError **error)
{
  if (status == CUSPARSE_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("%s failed: cusparseStatus %d"), what, (int) status);
  return FALSE;
}

static gboolean
check_blas (cublasStatus_t status, const char *what, GError **error)
{
  if (status == CUBLAS_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED, _("%s failed: cublasStatus %d"), what, (int) status);
  return FALSE;
}

static void
clear_matrix (KsCusparseCg *cg)
{
  void **buffers[] = { &cg->row_ptr, &cg->col, &cg->val, &cg->x, &cg->b, &cg->r, &cg->p, &cg->q, &cg->work };
  cusparseDnVecDescr_t *vecs[] = { &cg->vx, &cg->vr, &cg->vp, &cg->vq };

  cudaSetDevice (cg->ordinal);
  if (cg->mat)
    api.destroy_mat (cg->mat);
  cg->mat = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (vecs); i++)
    {
      if (*vecs[i])
        api.destroy_vec (*vecs[i]);
      *vecs[i] = NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (buffers); i++)
    {
      cudaFree (*buffers[i]);
      *buffers[i] = NULL;
    }
  cg->work_bytes = 0;
  cg->n = cg->nnz = 0;
}

/* The value of a scalar argument in the solve's precision. */
typedef union { double d; float f; } Scalar;

static const void *
scalar (const KsCusparseCg *cg, Scalar *s, double v)
{
  if (cg->fp64)
    s->d = v;
  else
    s->f = (float) v;
  return s;
}

static gboolean
dot (KsCusparseCg *cg, void *a, void *b, double *out, GError **error)
{
  float f = 0;
  cublasStatus_t st = cg->fp64 ? api.ddot (cg->bl, (int) cg->n, a, 1, b, 1, out)
                               : api.sdot (cg->bl, (int) cg->n, a, 1, b, 1, &f);
  if (!cg->fp64)
    *out = f;
  return check_blas (st, "cublasDot", error);
}

/* y += a x */
static gboolean
axpy (KsCusparseCg *cg, double a, void *x, void *y, GError **error)
{
  Scalar s;
  return check_blas (cg->fp64 ? api.daxpy (cg->bl, (int) cg->n, scalar (cg, &s, a), x, 1, y, 1)
                              : api.saxpy (cg->bl, (int) cg->n, scalar (cg, &s, a), x, 1, y, 1),
                     "cublasAxpy", error);
}

static gboolean
scal (KsCusparseCg *cg, double a, void *x, GError **error)
{
  Scalar s;
  return check_blas (cg->fp64 ? api.dscal (cg->bl, (int) cg->n, scalar (cg, &s, a), x, 1)
                              : api.sscal (cg->bl, (int) cg->n, scalar (cg, &s, a), x, 1),
                     "cublasScal", error);
}

/* y = alpha A x + beta y */
static gboolean
spmv (KsCusparseCg *cg, double alpha, cusparseDnVecDescr_t x, double beta, cusparseDnVecDescr_t y, GError **error)
{
  Scalar a, b;
  return check_sparse (api.spmv (cg->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, scalar (cg, &a, alpha), cg->mat, x,
                                 scalar (cg, &b, beta), y, cg->fp64 ? CUDA_R_64F : CUDA_R_32F,
                                 CUSPARSE_SPMV_ALG_DEFAULT, cg->work),
                       "cusparseSpMV", error);
}

static gboolean
upload_real (KsCusparseCg *cg, void *dst, const double *src, gsize n, GError **error)
{
  g_autofree float *f = NULL;

  if (cg->fp64)
    return check (cudaMemcpy (dst, src, n * sizeof (double), cudaMemcpyHostToDevice), "Copying to the device", error);
  f = g_new (float, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    f[i] = (float) src[i];
  return check (cudaMemcpy (dst, f, n * sizeof (float), cudaMemcpyHostToDevice), "Copying to the device", error);
}
#endif /* KS_HAVE_CUDA */

KsCusparseCg *
ks_cusparse_cg_new (KsDevice *device, gboolean fp64, GError **error)
{
#ifdef KS_HAVE_CUDA
  g_autoptr(KsCusparseCg) cg = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (ks_device_get_backend (device) != KS_BACKEND_CUDA)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("The library CG (cuSPARSE + cuBLAS) runs on CUDA devices; %s is not one"),
                   ks_device_get_name (device));
      return NULL;
    }
  if (!load (error))
    return NULL;
  cg = g_new0 (KsCusparseCg, 1);
  cg->ordinal = ks_cuda_device_ordinal (device);
  cg->fp64 = fp64;
  cg->rs = fp64 ? sizeof (double) : sizeof (float);
  if (!check (cudaSetDevice (cg->ordinal), "Selecting the CUDA device", error) ||
      !check_sparse (api.sp_create (&cg->sp), "cusparseCreate", error) ||
      !check_blas (api.bl_create (&cg->bl), "cublasCreate", error))
    return NULL;
  return g_steal_pointer (&cg);
#else
  g_set_error_literal (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                       _("The library CG (cuSPARSE + cuBLAS): built without the CUDA toolkit"));
  return NULL;
#endif
}

void
ks_cusparse_cg_free (KsCusparseCg *cg)
{
  if (cg == NULL)
    return;
#ifdef KS_HAVE_CUDA
  clear_matrix (cg);
  if (cg->sp)
    api.sp_destroy (cg->sp);
  if (cg->bl)
    api.bl_destroy (cg->bl);
#endif
  g_free (cg);
}

gboolean
ks_cusparse_cg_set_matrix (KsCusparseCg *cg,
                           guint         n,
                           guint         nnz,
                           const guint  *row_ptr,
                           const guint  *col,
                           const double *val,
                           GError      **error)
{
  g_return_val_if_fail (cg != NULL && row_ptr != NULL && col != NULL && val != NULL, FALSE);
#ifdef KS_HAVE_CUDA
  {
    const cudaDataType type = cg->fp64 ? CUDA_R_64F : CUDA_R_32F;
    void **vectors[] = { &cg->x, &cg->b, &cg->r, &cg->p, &cg->q };
    cusparseDnVecDescr_t *descrs[] = { &cg->vx, NULL, &cg->vr, &cg->vp, &cg->vq };
    size_t free_bytes = 0, total_bytes = 0, need;
    Scalar one, zero;

    if (n == 0 || nnz > G_MAXINT32 || n > G_MAXINT32)
      {
        g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                     _("The library CG takes 1 to %d rows and non-zeros (32-bit indices); this matrix has %u rows and %u non-zeros"),
                     G_MAXINT32, n, nnz);
        return FALSE;
      }
    clear_matrix (cg);
    need = sizeof (guint) * ((gsize) n + 1 + nnz) + cg->rs * ((gsize) nnz + 5 * (gsize) n);
    if (!check (cudaMemGetInfo (&free_bytes, &total_bytes), "Reading the free device memory", error))
      return FALSE;
    if (need > free_bytes)
      {
        g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                     _("The library CG needs %.1f MiB of device memory; %.1f MiB is free"),
                     need / 1048576.0, free_bytes / 1048576.0);
        return FALSE;
      }
    if (!check (cudaMalloc (&cg->row_ptr, sizeof (guint) * (n + 1)), "Allocating the row offsets", error) ||
        !check (cudaMalloc (&cg->col, sizeof (guint) * MAX (nnz, 1)), "Allocating the columns", error) ||
        !check (cudaMalloc (&cg->val, cg->rs * MAX (nnz, 1)), "Allocating the values", error) ||
        !check (cudaMemcpy (cg->row_ptr, row_ptr, sizeof (guint) * (n + 1), cudaMemcpyHostToDevice),
                "Copying the row offsets", error) ||
        !check (cudaMemcpy (cg->col, col, sizeof (guint) * nnz, cudaMemcpyHostToDevice), "Copying the columns", error) ||
        !upload_real (cg, cg->val, val, nnz, error))
      goto fail;
    for (guint i = 0; i < G_N_ELEMENTS (vectors); i++)
      {
        if (!check (cudaMalloc (vectors[i], cg->rs * n), "Allocating a vector", error))
          goto fail;
        if (descrs[i] != NULL &&
            !check_sparse (api.create_vec (descrs[i], n, *vectors[i], type), "cusparseCreateDnVec", error))
          goto fail;
      }
    if (!check_sparse (api.create_csr (&cg->mat, n, n, nnz, cg->row_ptr, cg->col, cg->val, CUSPARSE_INDEX_32I,
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
                       "cusparseCreateCsr", error) ||
        !check_sparse (api.spmv_size (cg->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, scalar (cg, &one, 1.0), cg->mat, cg->vp,
                                      scalar (cg, &zero, 0.0), cg->vq, type, CUSPARSE_SPMV_ALG_DEFAULT,
                                      &cg->work_bytes),
                       "cusparseSpMV_bufferSize", error) ||
        !check (cudaMalloc (&cg->work, MAX (cg->work_bytes, 16)), "Allocating the SpMV workspace", error))
      goto fail;
    cg->n = n;
    cg->nnz = nnz;
    return TRUE;

  fail:
    clear_matrix (cg);
    return FALSE;
  }
#else
  return ks_cusparse_cg_new (NULL, FALSE, error) != NULL;
#endif
}

gboolean
ks_cusparse_cg_solve (KsCusparseCg *cg,
                      const double *b,
                      double       *x,
                      double        tol,
                      guint         max_iter,
                      guint        *iterations,
                      double       *residual,
                      double       *iterate_s,
                      GError      **error)
{
  g_return_val_if_fail (cg != NULL && b != NULL && x != NULL && iterations && residual && iterate_s, FALSE);
#ifdef KS_HAVE_CUDA
  {
    double bb = 0, rho = 0, rho_new = 0, pq = 0;
    guint it = 0;
    gint64 begin;

    g_return_val_if_fail (cg->n > 0, FALSE);
    /* r = b - A x, p = r, rho = r.r */
    if (!check (cudaSetDevice (cg->ordinal), "Selecting the CUDA device", error) ||
        !upload_real (cg, cg->b, b, cg->n, error) || !upload_real (cg, cg->x, x, cg->n, error) ||
        !check (cudaMemcpy (cg->r, cg->b, cg->rs * cg->n, cudaMemcpyDeviceToDevice), "Copying b", error) ||
        !spmv (cg, -1.0, cg->vx, 1.0, cg->vr, error) ||
        !check (cudaMemcpy (cg->p, cg->r, cg->rs * cg->n, cudaMemcpyDeviceToDevice), "Copying r", error) ||
        !dot (cg, cg->b, cg->b, &bb, error) || !dot (cg, cg->r, cg->r, &rho, error) ||
        !check (cudaDeviceSynchronize (), "Waiting for the device", error))
      return FALSE;
    begin = g_get_monotonic_time ();
    while (it < max_iter && rho > tol * tol * bb)
      {
        /* q = A p; alpha = rho / p.q; x += alpha p; r -= alpha q;
         * rho' = r.r; p = (rho' / rho) p + r */
        if (!spmv (cg, 1.0, cg->vp, 0.0, cg->vq, error) || !dot (cg, cg->p, cg->q, &pq, error))
          return FALSE;
        if (!(pq > 0))
          {
            g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                         _("The library CG broke down at iteration %u: p.Ap = %g"), it + 1, pq);
            return FALSE;
          }
        if (!axpy (cg, rho / pq, cg->p, cg->x, error) || !axpy (cg, -rho / pq, cg->q, cg->r, error) ||
            !dot (cg, cg->r, cg->r, &rho_new, error) ||
            !scal (cg, rho_new / rho, cg->p, error) || !axpy (cg, 1.0, cg->r, cg->p, error))
          return FALSE;
        rho = rho_new;
        it++;
      }
    if (!check (cudaDeviceSynchronize (), "Waiting for the device", error))
      return FALSE;
    *iterate_s = (g_get_monotonic_time () - begin) / 1e6;
    *iterations = it;
    *residual = bb > 0 ? sqrt (rho / bb) : 0;
    if (cg->fp64)
      return check (cudaMemcpy (x, cg->x, sizeof (double) * cg->n, cudaMemcpyDeviceToHost), "Copying x back", error);
    {
      g_autofree float *f = g_new (float, cg->n);
      if (!check (cudaMemcpy (f, cg->x, sizeof (float) * cg->n, cudaMemcpyDeviceToHost), "Copying x back", error))
        return FALSE;
      for (guint i = 0; i < cg->n; i++)
        x[i] = f[i];
    }
    return TRUE;
  }
#else
  return ks_cusparse_cg_new (NULL, FALSE, error) != NULL;
#endif
}
