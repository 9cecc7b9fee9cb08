/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hybrid-cg.c: a GPU part and a CPU part of one matrix, split by
 * lambda, solved at once by the distributed CG (see ks-hybrid-cg.h). */
#define G_LOG_DOMAIN "ks-solvers"

#include "ks-hybrid-cg.h"
#include "ks-hybrid-cg-private.h"
#include "ks-balance.h"
#include "ks-halo.h"
#include "ks-hybrid-pin.h"
#include "ks-solver-error.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const KsHybridWorld *the_world;

void
ks_hybrid_world_set (const KsHybridWorld *world)
{
  g_return_if_fail (world == NULL ||
                    (world->rank < world->n_ranks && world->exchange_new && world->sum && world->max && world->abort));
  the_world = world;
}

const KsHybridWorld *
ks_hybrid_world_get (void)
{
  return the_world;
}

static void
part_clear (Part *p)
{
  g_clear_pointer (&p->row_ptr, g_free);
  g_clear_pointer (&p->col, g_free);
  g_clear_pointer (&p->from, g_free);
  g_clear_pointer (&p->val, g_free);
  g_clear_pointer (&p->b, g_free);
  g_clear_pointer (&p->x, g_free);
  g_clear_pointer (&p->x0, g_free);
}

void
ks_hybrid_clear_split (KsHybridCg *h)
{
  for (guint p = 0; p < G_N_ELEMENTS (h->parts); p++)
    part_clear (&h->parts[p]);
  g_clear_pointer (&h->halo, ks_halo_free);
  h->n_parts = h->n_local = 0;
}

void
ks_hybrid_cg_free (KsHybridCg *h)
{
  if (h == NULL)
    return;
  ks_hybrid_clear_split (h);
  for (guint p = 0; p < KS_HYBRID_MAX_GPUS; p++)
    g_clear_pointer (&h->gpus[p], ks_dist_cg_device_free);
  g_clear_pointer (&h->cpu, ks_dist_cg_device_free);

  g_clear_object (&h->setup.gpu);
  g_clear_object (&h->setup.cpu);
  g_free (h->row_ptr);
  g_free (h->col);
  g_free (h->centres);
  g_free (h->kind);
  g_free (h->part_of);
  g_free (h);
}

KsHybridCg *
ks_hybrid_cg_new (const KsHybridSetup *setup,
                  GError             **error)
{
  g_autoptr(KsHybridCg) h = NULL;

  const KsHybridWorld *world = setup == NULL || setup->alone ? NULL
                               : setup->world != NULL ? setup->world : ks_hybrid_world_get ();
  gboolean want_gpu = TRUE, want_cpu = TRUE;

  g_return_val_if_fail (setup != NULL, NULL);
  g_return_val_if_fail (setup->gpu == NULL || KS_IS_DEVICE (setup->gpu), NULL);
  g_return_val_if_fail (setup->cpu == NULL || KS_IS_DEVICE (setup->cpu), NULL);

  if (world != NULL)
    {
      if (setup->gpu_ranks > world->n_ranks)
        {
          g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                       _("%u GPU ranks asked for, but the run has %u ranks in all"), setup->gpu_ranks, world->n_ranks);
          return NULL;
        }
      want_gpu = world->rank < setup->gpu_ranks;
      want_cpu = !want_gpu;
    }
  if (want_gpu && setup->gpu == NULL)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The hybrid's GPU part needs an OpenCL or CUDA device"));
      return NULL;
    }
  h = g_new0 (KsHybridCg, 1);
  h->world = world;
  h->setup = *setup;
  h->setup.gpu = setup->gpu ? g_object_ref (setup->gpu) : NULL;
  h->setup.cpu = setup->cpu ? g_object_ref (setup->cpu) : NULL;
  if (setup->n_more_gpus + 1 > KS_HYBRID_MAX_GPUS || (world != NULL && setup->n_more_gpus > 0))
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   world != NULL ? _("Under mpirun each rank drives one GPU: give one GPU rank per GPU")
                                 : _("%u GPUs in one process; at most %u"),
                   setup->n_more_gpus + 1, KS_HYBRID_MAX_GPUS);
      return NULL;
    }
  h->setup.more_gpus = NULL;
  if (want_gpu)
    for (guint g = 0; g <= setup->n_more_gpus; g++)
      {
        KsDevice *device = g == 0 ? setup->gpu : setup->more_gpus[g - 1];
        if (!(h->gpus[h->n_gpus++] = ks_dist_cg_device_new (device, setup->precision, error)))
          return NULL;
      }
  if (want_cpu && setup->cpu != NULL && !(h->cpu = ks_dist_cg_device_new (setup->cpu, setup->precision, error)))
    return NULL;
  return g_steal_pointer (&h);
}

/* The cells' graph without the diagonal (what METIS wants; the halo takes
 * either). */
static void
graph_of (const KsHybridCg *h,
          guint           **out_xadj,
          guint           **out_adjncy)
{
  guint *xadj = g_new (guint, h->n + 1);
  guint *adjncy = g_new (guint, MAX (h->nnz, 1));
  guint k = 0;

  xadj[0] = 0;
  for (guint i = 0; i < h->n; i++)
    {
      for (guint j = h->row_ptr[i]; j < h->row_ptr[i + 1]; j++)
        if (h->col[j] != i)
          adjncy[k++] = h->col[j];
      xadj[i + 1] = k;
    }
  *out_xadj = xadj;
  *out_adjncy = adjncy;
}

/* Part k's local rows, and where each local entry's value lives in the
 * whole matrix: the local rows are built from a "matrix" whose values are
 * the entries' own indices (exact in a double below 2^53), so the
 * renumbering and sorting of ks_halo_local_rows is done once, and a solve
 * only gathers. */
static void
build_part (KsHybridCg     *h,
            guint           slot,
            guint           k,
            KsHybridPart    kind,
            KsDistCgDevice *device)
{
  Part *p = &h->parts[slot];
  const KsHaloPart *hp = ks_halo_get_part (h->halo, k);
  g_autofree double *index = g_new (double, MAX (h->nnz, 1));
  double *local_index = NULL;

  for (guint j = 0; j < h->nnz; j++)
    index[j] = j;
  ks_halo_local_rows (h->halo, k, h->row_ptr, h->col, index, &p->row_ptr, &p->col, &local_index);
  p->index = k;
  p->from = g_new (gsize, MAX (p->row_ptr[hp->n_owned], 1));
  for (guint j = 0; j < p->row_ptr[hp->n_owned]; j++)
    p->from[j] = (gsize) local_index[j];
  g_free (local_index);
  p->val = g_new (double, MAX (p->row_ptr[hp->n_owned], 1));
  p->b = g_new (double, MAX (hp->n_owned, 1));
  p->x = g_new0 (double, MAX (hp->n_owned + hp->n_virtual, 1));
  p->kind = kind;
  /* A part without cells (lambda 0 on a GPU rank) only joins the sums:
   * the host code does that without buffers of no size. */
  p->device = hp->n_owned > 0 ? device : NULL;
  p->precision = p->device ? h->setup.precision : KS_PRECISION_DOUBLE;
}

/* Splits the pattern at lambda, or as given[] says (each cell's part,
 * numbered as ks_hybrid_cg_set_parts says; checked by the caller). */
gboolean
ks_hybrid_split (KsHybridCg  *h,
                 double       lambda,
                 const guint *given,
                 GError     **error)
{
  /* One process: its GPUs' parts, then the CPU's. */
  const guint ranks = h->world ? h->world->n_ranks : h->n_gpus + 1;
  const guint r_gpu = h->world ? h->setup.gpu_ranks : h->n_gpus;
  g_autofree guint64 *counts = g_new0 (guint64, ranks);
  g_autofree guint64 *active = g_new0 (guint64, ranks);
  g_autofree KsHybridPart *kinds = g_new0 (KsHybridPart, ranks);
  g_autofree KsDistCgDevice **devices = g_new0 (KsDistCgDevice *, ranks);
  g_autofree guint *rank_of = g_new0 (guint, ranks);   /* each halo part's numbering in counts[] */
  g_autofree guint *slot_of = g_new0 (guint, ranks);   /* and back */
  g_autofree guint *xadj = NULL;
  g_autofree guint *adjncy = NULL;
  g_autofree guint *part = g_new (guint, h->n);
  guint n_parts = 0;

  if (given != NULL)
    {
      guint64 on_gpus = 0;

      for (guint i = 0; i < h->n; i++)
        {
          counts[given[i]]++;
          on_gpus += given[i] < r_gpu;
        }
      lambda = ks_balance_lambda_of (on_gpus, r_gpu, h->n - on_gpus);
    }
  else if (isnan (lambda) || lambda < 0)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The balancing coefficient lambda is %g: it must be 0 (the CPU alone) or more "
                     "(inf: the GPU alone)"), lambda);
      return FALSE;
    }
  else if (!ks_balance_split (h->n, r_gpu, ranks - r_gpu, lambda, counts, error))
    return FALSE;
  /* In one process the parts without cells are left out; ranks keep
   * theirs (part r is rank r's, cells or not). */
  for (guint k = 0; k < ranks; k++)
    if (counts[k] > 0 || h->world != NULL)
      {
        active[n_parts] = counts[k];
        kinds[n_parts] = k < r_gpu ? KS_HYBRID_GPU : KS_HYBRID_CPU;
        devices[n_parts] = h->world ? (k < r_gpu ? h->gpus[0] : h->cpu) : (k < r_gpu ? h->gpus[k] : h->cpu);
        rank_of[n_parts] = k;
        slot_of[k] = n_parts++;
      }
  graph_of (h, &xadj, &adjncy);
  if (given != NULL)
    {
      for (guint i = 0; i < h->n; i++)
        part[i] = slot_of[given[i]];
      h->edge_cut = ks_partition_edge_cut (h->n, xadj, adjncy, part);
    }
  else if (!ks_partition_cells (h->setup.method, h->n, xadj, adjncy, h->centres, n_parts, active, part,
                                &h->edge_cut, error))
    return FALSE;
  ks_hybrid_clear_split (h);
  if (!(h->halo = ks_halo_new (h->n, h->row_ptr, h->col, part, n_parts, error)))
    return FALSE;
  h->n_parts = n_parts;
  memset (h->cells, 0, sizeof h->cells);
  for (guint k = 0; k < n_parts; k++)
    h->cells[kinds[k]] += ks_halo_get_part (h->halo, k)->n_owned;
  if (h->world != NULL)
    build_part (h, h->n_local++, h->world->rank, kinds[h->world->rank], devices[h->world->rank]);
  else
    for (guint k = 0; k < n_parts; k++)
      build_part (h, h->n_local++, k, kinds[k], devices[k]);
  for (guint i = 0; i < h->n; i++)
    {
      h->kind[i] = kinds[part[i]];
      h->part_of[i] = rank_of[part[i]];
    }
  h->lambda = lambda;
  h->given = given != NULL;
  return TRUE;
}

void
ks_hybrid_keep_pattern (KsHybridCg   *h,
                        const KsCsr  *a,
                        const double *centres)
{
  ks_hybrid_clear_split (h);
  g_free (h->row_ptr);
  g_free (h->col);
  g_free (h->centres);
  g_free (h->kind);
  g_free (h->part_of);
  h->n = a->n_rows;
  h->nnz = a->nnz;
  h->row_ptr = g_memdup2 (a->row_ptr, sizeof (guint) * (a->n_rows + 1));
  h->col = g_memdup2 (a->col, sizeof (guint) * MAX (a->nnz, 1));
  h->centres = g_memdup2 (centres, sizeof (double) * 2 * a->n_rows);
  h->kind = g_new0 (guint, a->n_rows);
  h->part_of = g_new0 (guint, a->n_rows);
}

gboolean
ks_hybrid_cg_set_pattern (KsHybridCg   *h,
                          const KsCsr  *a,
                          const double *centres,
                          double        lambda,
                          GError      **error)
{
  g_return_val_if_fail (h != NULL && a != NULL && centres != NULL, FALSE);
  g_return_val_if_fail (a->n_rows == a->n_cols && a->n_rows > 0, FALSE);

  h->scattered = FALSE;
  h->sys_a = NULL;
  h->sys_b = h->sys_x0 = NULL;
  ks_hybrid_keep_pattern (h, a, centres);
  return ks_hybrid_split (h, lambda, NULL, error);
}

gboolean
ks_hybrid_cg_set_lambda (KsHybridCg *h,
                         double      lambda,
                         GError    **error)
{
  g_return_val_if_fail (h != NULL && (h->row_ptr != NULL || h->scattered), FALSE);

  if (lambda == h->lambda && !h->given)
    return TRUE;
  return h->scattered ? ks_hybrid_scatter_split (h, lambda, NULL, error) : ks_hybrid_split (h, lambda, NULL, error);
}

gboolean
ks_hybrid_cg_set_parts (KsHybridCg  *h,
                        const guint *parts,
                        guint        n,
                        GError     **error)
{
  const guint ranks = h->world ? h->world->n_ranks : h->n_gpus + 1;

  g_return_val_if_fail (h != NULL && (h->row_ptr != NULL || h->scattered) && parts != NULL, FALSE);

  if (n != h->n)
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("Parts given for %u cells, but the matrix has %u rows"), n, h->n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if (parts[i] >= ranks)
      {
        g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                     _("Cell %u is given part %u, but there are %u parts"), i, parts[i], ranks);
        return FALSE;
      }
  return h->scattered ? ks_hybrid_scatter_split (h, NAN, parts, error) : ks_hybrid_split (h, NAN, parts, error);
}

const guint *
ks_hybrid_cg_get_part_of (KsHybridCg *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return h->part_of;
}

double
ks_hybrid_cg_get_lambda (KsHybridCg *h)
{
  g_return_val_if_fail (h != NULL, NAN);
  return h->lambda;
}

const guint *
ks_hybrid_cg_get_parts (KsHybridCg *h)
{
  g_return_val_if_fail (h != NULL, NULL);
  return h->kind;
}

guint64
ks_hybrid_cg_get_cells (KsHybridCg  *h,
                        KsHybridPart part)
{
  g_return_val_if_fail (h != NULL && part < KS_HYBRID_N_PARTS, 0);
  return h->cells[part];
}

guint
ks_hybrid_cg_get_n_parts (KsHybridCg *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->n_parts;
}

guint64
ks_hybrid_cg_get_edge_cut (KsHybridCg *h)
{
  g_return_val_if_fail (h != NULL, 0);
  return h->edge_cut;
}

/* --- the solve: one thread per part --------------------------------------- */

typedef struct {
  Part                  *part;
  KsExchange            *ex;
  const KsDistCgOptions *options;
  guint                  others_on_devices;  /* this process's device parts beside this one */
  const KsHybridPin     *pin;      /* KS_DIST_TUNE_PIN: the cores; NULL: not pinned */
  guint                  device_slot;        /* a device part's: which of the last cores */
  KsDistCgResult         result;
  double                 wait_s;   /* of the solve, in the exchange's finish and sums */
  double                 halo_s;   /* of wait_s, in the finish */
  double                 iterate_wait_s;  /* wait_s and halo_s in the iterations alone */
  double                 iterate_halo_s;
  double                 solve_s;  /* the whole solve's wall time */
  GError                *error;
} Run;

static gpointer
run_part (gpointer data)
{
  Run *run = data;
  Part *p = run->part;
  const gint64 waited = run->ex->wait_us, begin = g_get_monotonic_time ();
  const gint64 halo_waited = run->ex->halo_wait_us;

#ifdef _OPENMP
  const int threads = omp_get_max_threads ();

  /* The host part leaves a core to each device part's thread in this
   * process (it feeds its device and waits at every sum), as the paper
   * leaves the GPU processes' cores out of R_CPU; pinned, that core is
   * the device thread's alone. */
  if (run->pin != NULL && p->device != NULL)
    ks_hybrid_pin_device (run->pin, run->device_slot);
  else if (p->device == NULL && run->others_on_devices > 0 &&
           (run->pin == NULL || ks_hybrid_pin_host (run->pin) == 0))
    omp_set_num_threads (MAX (1, omp_get_num_procs () - (int) run->others_on_devices));
#endif

  /* A solve failing before its iterations waited none in them. */
  ks_exchange_begin_iterations (run->ex);
  if (p->device != NULL)
    ks_dist_cg_solve_device (p->device, run->ex, p->row_ptr, p->col, p->val, p->b, p->x, run->options,
                             &run->result, &run->error);
  else
    ks_dist_cg_solve_host (run->ex, p->row_ptr, p->col, p->val, p->b, p->x, run->options, &run->result,
                           &run->error);
  run->wait_s = (run->ex->wait_us - waited) / 1e6;
  run->halo_s = (run->ex->halo_wait_us - halo_waited) / 1e6;
  run->iterate_wait_s = (run->ex->wait_us - run->ex->iterate_wait_us) / 1e6;
  run->iterate_halo_s = (run->ex->halo_wait_us - run->ex->iterate_halo_wait_us) / 1e6;
  run->solve_s = (g_get_monotonic_time () - begin) / 1e6;
#ifdef _OPENMP
  omp_set_num_threads (threads);
#endif
  return NULL;
}

static gboolean
same_pattern (const KsHybridCg *h,
              const KsCsr      *a)
{
  return a->n_rows == h->n && a->nnz == h->nnz &&
         memcmp (a->row_ptr, h->row_ptr, sizeof (guint) * (h->n + 1)) == 0 &&
         memcmp (a->col, h->col, sizeof (guint) * h->nnz) == 0;
}

/* The first error that says why; a part that only saw another stop
 * (cancelled) says less. */
static GError *
first_error (Run *runs, guint n)
{
  GError *first = NULL;

  for (guint k = 0; k < n; k++)
    if (runs[k].error != NULL && first == NULL && !g_error_matches (runs[k].error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
      first = g_steal_pointer (&runs[k].error);
  for (guint k = 0; k < n; k++)
    if (runs[k].error != NULL && first == NULL)
      first = g_steal_pointer (&runs[k].error);
  for (guint k = 0; k < n; k++)
    g_clear_error (&runs[k].error);
  return first;
}

gboolean
ks_hybrid_cg_solve (KsHybridCg        *h,
                    const KsCsr       *a,
                    const double      *b,
                    double            *x,
                    const KsCgOptions *options,
                    KsHybridResult    *out,
                    GError           **error)
{
  g_return_val_if_fail (h != NULL && a != NULL && b != NULL && x != NULL && options != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (h->halo == NULL || h->scattered || !same_pattern (h, a))
    {
      g_set_error (error, KS_SOLVER_ERROR, KS_SOLVER_ERROR_INVALID,
                   _("The hybrid solver was split for another matrix (%u rows, %u entries; this one has %u and %u)"),
                   h->n, h->nnz, a->n_rows, a->nnz);
      return FALSE;
    }
  return ks_hybrid_solve_parts (h, a, b, x, x, options, out, error);
}

/* Each part's values, right-hand side and guess: gathered from the whole
 * system, or (a part rank 0 sent) its own. */
static void
fill_part (Part             *p,
           const KsHaloPart *hp,
           const KsCsr      *a,
           const double     *b,
           const double     *x_in)
{
  if (p->from == NULL)
    {
      memcpy (p->x, p->x0, sizeof (double) * hp->n_owned);
      return;
    }
  for (guint j = 0; j < p->row_ptr[hp->n_owned]; j++)
    p->val[j] = a->val[p->from[j]];
  for (guint l = 0; l < hp->n_owned; l++)
    {
      p->b[l] = b[hp->global[l]];
      p->x[l] = x_in[hp->global[l]];
    }
}

/* *most, or v where *most is NAN (no part of the kind yet). */
static void
keep_most (double *most,
           double  v)
{
  *most = isnan (*most) ? v : MAX (*most, v);
}

/* The most over the ranks; NAN where no rank has one. */
static void
world_most (KsHybridCg *h,
            double     *v)
{
  *v = h->world->max (h->world->data, isnan (*v) ? -1 : *v);
  if (*v < 0)
    *v = NAN;
}

/* This process's parts' results in one, and their cells' solution in x
 * (not when scattered: ks_hybrid_gather_solution). */
static void
tally_parts (KsHybridCg     *h,
             const Run      *runs,
             double         *x,
             KsHybridResult *res)
{
  for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
    res->part_s[q] = res->busy_s[q] = res->halo_s[q] = res->sums_s[q] = res->iterate_halo_s[q] =
      res->iterate_sums_s[q] = NAN;
  if (h->world != NULL && !h->scattered)
    memset (x, 0, sizeof (double) * h->n);
  for (guint k = 0; k < h->n_local; k++)
    {
      const Part *p = &h->parts[k];
      const KsHaloPart *hp = ks_halo_get_part (h->halo, p->index);
      const double rows = hp->n_owned;

      if (!h->scattered)
        for (guint l = 0; l < hp->n_owned; l++)
          x[hp->global[l]] = p->x[l];
      res->iterations = runs[k].result.iterations;
      res->residual = runs[k].result.residual;
      res->iterate_s = MAX (res->iterate_s, runs[k].result.iterate_s);
      res->part_s[p->kind] = isnan (res->part_s[p->kind]) ? runs[k].result.iterate_s
                                                         : MAX (res->part_s[p->kind], runs[k].result.iterate_s);
      if (rows > 0)
        {
          const double busy = MAX (runs[k].solve_s - runs[k].wait_s, 0.0);
          res->busy_s[p->kind] = isnan (res->busy_s[p->kind]) ? busy : MAX (res->busy_s[p->kind], busy);
          keep_most (&res->halo_s[p->kind], runs[k].halo_s);
          keep_most (&res->sums_s[p->kind], runs[k].wait_s - runs[k].halo_s);
          keep_most (&res->iterate_halo_s[p->kind], runs[k].iterate_halo_s);
          keep_most (&res->iterate_sums_s[p->kind], runs[k].iterate_wait_s - runs[k].iterate_halo_s);
        }
      if (rows > 0)
        res->bytes += ks_cg_bytes_per_row (KS_CG_BASE, p->precision, p->row_ptr[hp->n_owned] / rows) * rows *
                     runs[k].result.iterations;
    }
}

/* Under a world: every rank's cells, and the slowest rank's time (the
 * others waited for it at every sum). */
static gboolean
combine_ranks (KsHybridCg     *h,
               double         *x,
               KsHybridResult *res,
               GError        **error)
{
  /* Every rank's cells, and the slowest rank's time: the others
   * waited for it at every sum.  The zeros of the other ranks' cells
   * add nothing, so the sum is exact. */
  if (h->scattered ? x != NULL && !ks_hybrid_gather_solution (h, x, error)
                   : !h->world->sum (h->world->data, x, h->n, error))
    return FALSE;
  if (!h->world->sum (h->world->data, &res->bytes, 1, error))
    return FALSE;
  res->iterate_s = h->world->max (h->world->data, res->iterate_s);
  for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
    {
      res->part_s[q] = h->world->max (h->world->data, isnan (res->part_s[q]) ? -1 : res->part_s[q]);
      res->busy_s[q] = h->world->max (h->world->data, isnan (res->busy_s[q]) ? -1 : res->busy_s[q]);
    }
  for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
    {
      if (res->part_s[q] < 0)
        res->part_s[q] = NAN;
      if (res->busy_s[q] < 0)
        res->busy_s[q] = NAN;
    }
  for (guint q = 0; q < KS_HYBRID_N_PARTS; q++)
    {
      world_most (h, &res->halo_s[q]);
      world_most (h, &res->sums_s[q]);
      world_most (h, &res->iterate_halo_s[q]);
      world_most (h, &res->iterate_sums_s[q]);
    }
  return TRUE;
}

/* Pinned only with a host part beside device parts in this process,
 * and not where the "GPU" is the CPU (PoCL): its workers would be born
 * on the device thread's one core. */
static void
pin_runs (KsHybridCg            *h,
          const KsDistCgOptions *dist,
          Run                   *runs,
          KsHybridPin           *pin)
{
  guint slot = 0;

  if (!(dist->tune & KS_DIST_TUNE_PIN) || h->world != NULL || h->n_local <= 1 ||
      ks_device_get_info (h->setup.gpu)->type == KS_DEVICE_TYPE_CPU)
    return;
  for (guint k = 0; k < h->n_local; k++)
    if (h->parts[k].device != NULL)
      runs[k].device_slot = slot++;
  if (slot < h->n_local)
    ks_hybrid_pin_init (pin, slot);
  for (guint k = 0; k < h->n_local && pin->n_cpus > 0; k++)
    runs[k].pin = pin;
}

gboolean
ks_hybrid_solve_parts (KsHybridCg        *h,
                       const KsCsr       *a,
                       const double      *b,
                       const double      *x_in,
                       double            *x,
                       const KsCgOptions *options,
                       KsHybridResult    *out,
                       GError           **error)
{
  const KsDistTune tune = ks_dist_tune_from_env ();
  const KsDistCgOptions dist = { options->tol, options->max_iter,
                                 h->setup.pipelined || (tune & KS_DIST_TUNE_PIPELINED), tune };
  KsHybridPin pin = { 0 };
  g_autoptr(KsExchangeGroup) group = NULL;
  KsExchange *ranked = NULL;
  Run runs[KS_HYBRID_MAX_GPUS + 1] = { { 0 } };
  GThread *threads[KS_HYBRID_MAX_GPUS + 1] = { 0 };
  KsHybridResult res = { 0 };
  GError *first;
  guint host = 0;

  if (h->world != NULL)
    ranked = h->world->exchange_new (h->world->data, h->halo, h->world->rank);
  else
    {
      group = ks_exchange_group_new (h->halo);
      ks_exchange_group_set_tune (group, dist.tune);
    }
  for (guint k = 0; k < h->n_local; k++)
    {
      Part *p = &h->parts[k];

      fill_part (p, ks_halo_get_part (h->halo, p->index), a, b, x_in);
      runs[k] = (Run) { p, ranked ? ranked : ks_exchange_group_get (group, p->index), &dist };
    }
  for (guint k = 0; k < h->n_local; k++)
    for (guint j = 0; j < h->n_local; j++)
      runs[k].others_on_devices += j != k && h->parts[j].device != NULL;
  pin_runs (h, &dist, runs, &pin);
  /* The device parts' threads mostly wait on their devices; the host
   * part runs on this thread, whose OpenMP workers (from the assembly,
   * the triad probe) become its team.  On a thread of its own it made a
   * second team beside them, 31 OpenMP threads on the H200 host's 16
   * cores (libgomp then spins less before sleeping, so each of the host
   * CG's four parallel regions an iteration likely woke its team): 2574
   * us an iteration at lambda 16 on 4 M cells that way, 1300-1522 this
   * way; 6269 against 3771-4348 at lambda 4, 526 against 447-469 at 64. */
  for (guint k = 0; k < h->n_local; k++)
    if (h->parts[k].device == NULL)
      host = k;
  for (guint k = 0; k < h->n_local; k++)
    if (k != host)
      threads[k] = g_thread_new ("ks-hybrid-part", run_part, &runs[k]);
  run_part (&runs[host]);
  for (guint k = 0; k < h->n_local; k++)
    if (k != host)
      g_thread_join (threads[k]);
  ks_hybrid_pin_clear (&pin);
  if (ranked != NULL)
    ks_exchange_free (ranked);

  if ((first = first_error (runs, h->n_local)) != NULL)
    {
      /* Not converging and breaking down are seen alike by every rank
       * (they follow from the sums); anything else is this rank's own. */
      if (h->world != NULL && first->domain != KS_SOLVER_ERROR)
        h->world->abort (h->world->data, first);
      g_propagate_error (error, first);
      return FALSE;
    }

  tally_parts (h, runs, x, &res);
  if (h->world != NULL && !combine_ranks (h, x, &res, error))
    return FALSE;
  if (out)
    *out = res;
  return TRUE;
}
