/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-tridiag"

#include "ks-tridiag.h"
#include "ks-compute-error.h"
#include "ks-cusparse.h"
#include "ks-host.h"
#include "ks-lapack.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

static const char *method_names[KS_TRIDIAG_N_METHODS] = {
  "thomas-global", "thomas-local", "thomas-interleaved",
  "sericr-global", "sericr-local",
  "paracr-global", "paracr-full", "paracr-partial", "paracr-interleaved", "paracr-steps",
  "thomas-coalesced", "thomas-transposed", "paracr-thomas", "thomas-split",
  "cpu-thomas", "cpu-sericr", "omp-thomas", "lapack-gtsv",
  "cusparse-strided", "cusparse-thomas", "cusparse-lu", "cusparse-nopivot",
};

const char *
ks_tridiag_method_to_string (KsTridiagMethod method)
{
  g_return_val_if_fail (method < KS_TRIDIAG_N_METHODS, NULL);
  return method_names[method];
}

gboolean
ks_tridiag_method_from_string (const char      *s,
                               KsTridiagMethod *out)
{
  g_return_val_if_fail (s != NULL && out != NULL, FALSE);
  for (guint i = 0; i < KS_TRIDIAG_N_METHODS; i++)
    if (g_ascii_strcasecmp (s, method_names[i]) == 0)
      {
        *out = (KsTridiagMethod) i;
        return TRUE;
      }
  return FALSE;
}

gboolean
ks_tridiag_method_is_host (KsTridiagMethod method)
{
  return method >= KS_TRIDIAG_CPU_THOMAS && method <= KS_TRIDIAG_LAPACK_GTSV;
}

gboolean
ks_tridiag_method_is_cusparse (KsTridiagMethod method)
{
  return method >= KS_TRIDIAG_CUSPARSE_STRIDED && method < KS_TRIDIAG_N_METHODS;
}

gboolean
ks_tridiag_method_pivots (KsTridiagMethod method)
{
  return method == KS_TRIDIAG_LAPACK_GTSV || method == KS_TRIDIAG_CUSPARSE_LU;
}

gboolean
ks_tridiag_cusparse_solve (KsDevice             *device,
                           const KsTridiagBatch *batch,
                           KsTridiagMethod       method,
                           KsPrecision           precision,
                           double               *x,
                           double               *device_ms,
                           GError              **error)
{
  g_return_val_if_fail (batch != NULL && x != NULL && device_ms != NULL, FALSE);
  g_return_val_if_fail (ks_tridiag_method_is_cusparse (method), FALSE);

  return ks_cusparse_tridiag_solve (device, (KsCusparseTridiag) (method - KS_TRIDIAG_CUSPARSE_STRIDED),
                                    precision == KS_PRECISION_DOUBLE, batch->n, batch->systems,
                                    batch->a, batch->b, batch->c, batch->d, x, device_ms, error);
}

gboolean
ks_tridiag_method_needs_2k1 (KsTridiagMethod method)
{
  return method == KS_TRIDIAG_SERICR_GLOBAL || method == KS_TRIDIAG_SERICR_LOCAL ||
         method == KS_TRIDIAG_CPU_SERICR;
}

KsTridiagMethod
ks_tridiag_method_baseline (KsTridiagMethod method)
{
  switch (method)
    {
    case KS_TRIDIAG_SERICR_GLOBAL:
    case KS_TRIDIAG_SERICR_LOCAL:
    case KS_TRIDIAG_PARACR_GLOBAL:
    case KS_TRIDIAG_PARACR_FULL:
    case KS_TRIDIAG_PARACR_PARTIAL:
    case KS_TRIDIAG_PARACR_INTERLEAVED:
    case KS_TRIDIAG_PARACR_STEPS:
    case KS_TRIDIAG_PARACR_THOMAS:
    case KS_TRIDIAG_CPU_SERICR:
      return KS_TRIDIAG_CPU_SERICR;
    default:
      return KS_TRIDIAG_CPU_THOMAS;
    }
}

guint
ks_tridiag_padded_size (guint n)
{
  guint64 p = 1;
  while (p - 1 < n)
    p *= 2;
  return (guint) MIN (p - 1, G_MAXUINT);
}

/* --- the batch ------------------------------------------------------------- */

KsTridiagBatch *
ks_tridiag_batch_new (guint    n,
                      guint    systems,
                      GError **error)
{
  g_autoptr(KsTridiagBatch) self = NULL;
  const char *source = NULL;
  const guint64 total = (guint64) n * systems;

  if (n == 0 || systems == 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("a batch needs at least one system of at least one unknown (got %u systems of %u)"),
                   systems, n);
      return NULL;
    }
  /* The four diagonals and, beside them, the solution the caller will
   * make; in double, since n x systems x 40 may pass 2^64. */
  const double need = (double) total * 5 * sizeof (double);
  const guint64 available = ks_host_memory_available (&source);

  if (need >= (double) G_MAXSIZE || (available && need > (double) available))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%u systems of %u unknowns need %.1f MiB of host memory, but only %.1f MiB is available (%s)"),
                   systems, n, need / 1048576.0, available / 1048576.0, source ? source : "?");
      return NULL;
    }
  self = g_new0 (KsTridiagBatch, 1);
  self->n = n;
  self->systems = systems;
  self->a = g_new0 (double, total);
  self->b = g_new0 (double, total);
  self->c = g_new0 (double, total);
  self->d = g_new0 (double, total);
  return g_steal_pointer (&self);
}

void
ks_tridiag_batch_free (KsTridiagBatch *self)
{
  if (self == NULL)
    return;
  g_free (self->a);
  g_free (self->b);
  g_free (self->c);
  g_free (self->d);
  g_free (self);
}

void
ks_tridiag_batch_fill_random (KsTridiagBatch *self,
                              guint32         seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  const gsize total = (gsize) self->n * self->systems;

  g_return_if_fail (self != NULL);
  for (gsize k = 0; k < total; k++)
    {
      const guint i = (guint) (k % self->n);
      self->a[k] = i == 0 ? 0.0 : g_rand_double_range (rand, -1.0, 1.0);
      self->c[k] = i == self->n - 1 ? 0.0 : g_rand_double_range (rand, -1.0, 1.0);
      /* Dominant by a margin of 1 to 2, with either sign. */
      self->b[k] = (fabs (self->a[k]) + fabs (self->c[k]) + g_rand_double_range (rand, 1.0, 2.0)) *
                   (g_rand_boolean (rand) ? 1.0 : -1.0);
      self->d[k] = g_rand_double_range (rand, -1.0, 1.0);
    }
}

double
ks_tridiag_batch_residual (const KsTridiagBatch *self,
                           const double         *x,
                           guint                 sample)
{
  const guint n = self->n;
  double worst = 0.0;

  g_return_val_if_fail (self != NULL && x != NULL, NAN);
  if (sample == 0 || sample > self->systems)
    sample = self->systems;
  for (guint k = 0; k < sample; k++)
    {
      /* Evenly spread, the first and the last system always in. */
      const guint s = sample == 1 ? 0 : (guint) ((guint64) k * (self->systems - 1) / (sample - 1));
      const gsize o = (gsize) s * n;
      for (guint i = 0; i < n; i++)
        {
          double r = self->b[o + i] * x[o + i] - self->d[o + i];
          if (i > 0)
            r += self->a[o + i] * x[o + i - 1];
          if (i + 1 < n)
            r += self->c[o + i] * x[o + i + 1];
          /* NaN is the worst residual of all. */
          if (!(fabs (r) <= worst))
            worst = fabs (r);
        }
    }
  return worst;
}

gboolean
ks_tridiag_batch_is_dominant (const KsTridiagBatch *self,
                              guint                *system,
                              guint                *row)
{
  const gsize total = (gsize) self->n * self->systems;

  g_return_val_if_fail (self != NULL, FALSE);
  for (gsize k = 0; k < total; k++)
    if (fabs (self->b[k]) < fabs (self->a[k]) + fabs (self->c[k]))
      {
        if (system)
          *system = (guint) (k / self->n);
        if (row)
          *row = (guint) (k % self->n);
        return FALSE;
      }
  return TRUE;
}

/* --- the host solvers, in float and double ---------------------------------- */

/* Thomas on one system; the forward sweep keeps c' in cp and d' in x.
 * Returns 0, or 1 + the row of a zero pivot. */
#define DEFINE_THOMAS(T)                                                           \
  static guint                                                                     \
  thomas_##T (guint n, const T *a, const T *b, const T *c, const T *d, T *cp, T *x) \
  {                                                                                \
    T cprev = 0, dprev = 0;                                                        \
    for (guint i = 0; i < n; i++)                                                  \
      {                                                                            \
        const T den = b[i] - a[i] * cprev;                                         \
        if (!(fabs (den) > 0))                                                     \
          return i + 1;                                                            \
        cprev = c[i] / den;                                                        \
        dprev = (d[i] - a[i] * dprev) / den;                                       \
        cp[i] = cprev;                                                             \
        x[i] = dprev;                                                              \
      }                                                                            \
    for (guint i = n - 1; i-- > 0;)                                                \
      x[i] -= cp[i] * x[i + 1];                                                    \
    return 0;                                                                      \
  }

/* Hockney's serial cyclic reduction on one system of n = 2^k - 1 unknowns,
 * in place on a, b, c, d (copies): the same levels as kernels/tridiag.cl. */
#define DEFINE_SERICR(T)                                                           \
  static guint                                                                     \
  sericr_##T (guint n, T *a, T *b, T *c, T *d, T *x)                               \
  {                                                                                \
    for (guint h = 1; 2 * h < n + 1; h *= 2)                                       \
      for (guint i = 2 * h - 1; i < n; i += 2 * h)                                 \
        {                                                                          \
          const guint l = i - h, u = i + h;                                        \
          T alpha, gamma;                                                          \
          if (!(fabs (b[l]) > 0) || !(fabs (b[u]) > 0))                            \
            return i + 1;                                                          \
          alpha = -a[i] / b[l];                                                    \
          gamma = -c[i] / b[u];                                                    \
          b[i] += alpha * c[l] + gamma * a[u];                                     \
          d[i] += alpha * d[l] + gamma * d[u];                                     \
          a[i] = alpha * a[l];                                                     \
          c[i] = gamma * c[u];                                                     \
        }                                                                          \
    for (guint h = (n + 1) / 2; h >= 1; h /= 2)                                    \
      for (guint i = h - 1; i < n; i += 2 * h)                                     \
        {                                                                          \
          const T xl = i >= h ? x[i - h] : 0, xu = i + h < n ? x[i + h] : 0;       \
          if (!(fabs (b[i]) > 0))                                                  \
            return i + 1;                                                          \
          x[i] = (d[i] - a[i] * xl - c[i] * xu) / b[i];                            \
        }                                                                          \
    return 0;                                                                      \
  }

DEFINE_THOMAS (float)
DEFINE_THOMAS (double)
DEFINE_SERICR (float)
DEFINE_SERICR (double)

/* The batch in T, each system padded to stride unknowns with identity rows
 * (b = 1, the rest 0: decoupled, since c = 0 on a system's last row). */
typedef struct {
  guint  stride;
  void  *a, *b, *c, *d, *x, *cp;
} HostCopy;

#define DEFINE_HOST_SOLVE(T)                                                                \
  static void                                                                               \
  copy_in_##T (const KsTridiagBatch *batch, HostCopy *h)                                    \
  {                                                                                         \
    const gsize total = (gsize) h->stride * batch->systems;                                 \
    T *a = h->a = g_new0 (T, total), *b = h->b = g_new0 (T, total);                         \
    T *c = h->c = g_new0 (T, total), *d = h->d = g_new0 (T, total);                         \
    h->x = g_new0 (T, total);                                                               \
    h->cp = g_new0 (T, total);                                                              \
    for (guint s = 0; s < batch->systems; s++)                                              \
      for (guint i = 0; i < h->stride; i++)                                                 \
        {                                                                                   \
          const gsize k = (gsize) s * h->stride + i, src = (gsize) s * batch->n + i;        \
          const gboolean in = i < batch->n;                                                 \
          a[k] = in ? (T) batch->a[src] : 0;                                                \
          b[k] = in ? (T) batch->b[src] : 1;                                                \
          c[k] = in ? (T) batch->c[src] : 0;                                                \
          d[k] = in ? (T) batch->d[src] : 0;                                                \
        }                                                                                   \
  }                                                                                         \
                                                                                            \
  static guint                                                                              \
  solve_##T (KsTridiagMethod method, const HostCopy *h, guint systems, guint *bad_system)   \
  {                                                                                         \
    T *a = h->a, *b = h->b, *c = h->c, *d = h->d, *x = h->x, *cp = h->cp;                   \
    const guint n = h->stride;                                                              \
    guint bad = 0;                                                                          \
    if (method == KS_TRIDIAG_OMP_THOMAS)                                                    \
      {                                                                                     \
        /* The first bad system in order, whichever thread met it. */                      \
        guint first = G_MAXUINT;                                                            \
        _Pragma ("omp parallel for schedule(static)")                                       \
        for (guint s = 0; s < systems; s++)                                                 \
          {                                                                                 \
            const gsize o = (gsize) s * n;                                                  \
            guint r = thomas_##T (n, a + o, b + o, c + o, d + o, cp + o, x + o);            \
            if (r)                                                                          \
              {                                                                             \
                _Pragma ("omp critical")                                                    \
                if (s < first)                                                              \
                  {                                                                         \
                    first = s;                                                              \
                    bad = r;                                                                \
                  }                                                                         \
              }                                                                             \
          }                                                                                 \
        *bad_system = first;                                                                \
        return bad;                                                                         \
      }                                                                                     \
    for (guint s = 0; s < systems && !bad; s++)                                             \
      {                                                                                     \
        const gsize o = (gsize) s * n;                                                      \
        *bad_system = s;                                                                    \
        bad = method == KS_TRIDIAG_CPU_SERICR                                               \
                ? sericr_##T (n, a + o, b + o, c + o, d + o, x + o)                         \
                : thomas_##T (n, a + o, b + o, c + o, d + o, cp + o, x + o);                \
      }                                                                                     \
    return bad;                                                                             \
  }                                                                                         \
                                                                                            \
  static void                                                                               \
  copy_out_##T (const KsTridiagBatch *batch, const HostCopy *h, double *x)                  \
  {                                                                                         \
    const T *hx = h->x;                                                                     \
    for (guint s = 0; s < batch->systems; s++)                                              \
      for (guint i = 0; i < batch->n; i++)                                                  \
        x[(gsize) s * batch->n + i] = hx[(gsize) s * h->stride + i];                        \
  }

DEFINE_HOST_SOLVE (float)
DEFINE_HOST_SOLVE (double)

static void
host_copy_clear (HostCopy *h)
{
  g_free (h->a);
  g_free (h->b);
  g_free (h->c);
  g_free (h->d);
  g_free (h->x);
  g_free (h->cp);
}

/* The size a method solves: n, or n padded to 2^k - 1 for SERICR when pad;
 * 0 with an error when SERICR cannot take n and pad is FALSE. */
static guint
solve_size (KsTridiagMethod method,
            guint           n,
            gboolean        pad,
            GError        **error)
{
  const guint padded = ks_tridiag_padded_size (n);

  if (!ks_tridiag_method_needs_2k1 (method) || padded == n)
    return n;
  if (pad)
    return padded;
  g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
               _("%s needs systems of 2^k - 1 unknowns; %u is not (the next is %u: let it pad, or choose "
                 "Thomas or PARACR)"),
               ks_tridiag_method_to_string (method), n, padded);
  return 0;
}

gboolean
ks_tridiag_host_solve (const KsTridiagBatch *batch,
                       KsTridiagMethod       method,
                       KsPrecision           precision,
                       gboolean              pad,
                       double               *x,
                       double               *wall_ms,
                       GError              **error)
{
  const gboolean fp64 = precision == KS_PRECISION_DOUBLE;
  HostCopy h = { 0 };
  guint bad, bad_system = 0;
  gint64 t0;
  double ms;

  g_return_val_if_fail (batch != NULL && x != NULL, FALSE);
  g_return_val_if_fail (ks_tridiag_method_is_host (method), FALSE);

  if (method == KS_TRIDIAG_LAPACK_GTSV)
    {
      if (!ks_lapack_gtsv_batch (fp64, batch->n, batch->systems, batch->a, batch->b, batch->c,
                                 batch->d, x, &ms, error))
        return FALSE;
      if (wall_ms)
        *wall_ms = ms;
      return TRUE;
    }

  if (!(h.stride = solve_size (method, batch->n, pad, error)))
    return FALSE;
  if (fp64)
    copy_in_double (batch, &h);
  else
    copy_in_float (batch, &h);
  t0 = g_get_monotonic_time ();
  bad = fp64 ? solve_double (method, &h, batch->systems, &bad_system)
             : solve_float (method, &h, batch->systems, &bad_system);
  ms = (g_get_monotonic_time () - t0) / 1000.0;
  if (!bad)
    {
      if (fp64)
        copy_out_double (batch, &h, x);
      else
        copy_out_float (batch, &h, x);
    }
  host_copy_clear (&h);
  if (bad)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_ZERO_PIVOT,
                   _("%s met a zero pivot in system %u at row %u (it does not pivot: the system may be "
                     "singular or far from diagonally dominant)"),
                   ks_tridiag_method_to_string (method), bad_system, bad - 1);
      return FALSE;
    }
  if (wall_ms)
    *wall_ms = ms;
  return TRUE;
}
