/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-dist-cg.h: conjugate gradients over parts of a matrix that exchange
 * their halo (paper 004, sections 4-5).
 *
 * Each part holds its rows renumbered by ks-halo.h (interior, exchange,
 * virtual) and runs the loop the paper prints with its exchanges:
 *
 *   SendRecv[p]  (started; the interior rows' q = A p runs meanwhile)
 *   q = A p      (the exchange rows once the virtual values are in)
 *   Allreduce[p.q];  alpha = rho / p.q;  x += alpha p;  r -= alpha q
 *   Allreduce[r.r];  p = (rho' / rho) p + r
 *
 * What carries the exchange is a KsExchange: MPI between processes
 * (ks-mpi-exchange.h, where the build has MPI), or threads of one process
 * (ks_exchange_local_new: the GPU and CPU parts of the hybrid, and the
 * tests).  A part does not know what the others run on: the paper's
 * design.  This file is the host part (plain C); a device part follows
 * the same loop through the compute seam. */
#pragma once

#include <glib.h>

#include "ks-device.h"
#include "ks-halo.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef struct _KsExchange KsExchange;

typedef struct {
  /* Starts sending x's owned values the neighbours hold as virtual and
   * receiving theirs into x's virtual range; x stays untouched by the
   * caller until finish. */
  gboolean (*start)     (KsExchange *self,
                         double     *x,
                         GError    **error);
  gboolean (*finish)    (KsExchange *self,
                         double     *x,
                         GError    **error);
  /* values[0..n) summed over every part, in place; every part gets the
   * same sums. */
  gboolean (*allreduce) (KsExchange *self,
                         double     *values,
                         guint       n,
                         GError    **error);
  /* A part that fails says so: the others' waits end with an error
   * instead of waiting for it forever.  May be NULL (MPI: the failing
   * rank's exit ends the job). */
  void     (*abort)     (KsExchange *self);
  void     (*free)      (KsExchange *self);
  /* A sum started now and waited for later, with work in between (the
   * pipelined CG's one reduction per iteration, behind its SpMV); values
   * stay untouched until finish.  May be NULL: the sum is then done,
   * blocking, at finish. */
  gboolean (*iallreduce_start)  (KsExchange *self,
                                 double     *values,
                                 guint       n,
                                 GError    **error);
  gboolean (*iallreduce_finish) (KsExchange *self,
                                 double     *values,
                                 guint       n,
                                 GError    **error);
} KsExchangeVTable;

struct _KsExchange {
  const KsExchangeVTable *vtable;
  const KsHaloPart       *part;
  /* Microseconds spent in finish and the sums (waiting for the other
   * parts, and the copies), added up by the ks_exchange_ calls: a part's
   * own work is its iterations' time less the growth of this. */
  gint64                  wait_us;
  /* Of wait_us, the part in finish: the halo's (the rest is the sums'). */
  gint64                  halo_wait_us;
  /* Both counters as the solve's iterations began (set by the solvers
   * through ks_exchange_begin_iterations): what the iterations alone
   * waited, without the set-up's waits (a device part's uploads keep a
   * host part waiting, which a short solve's iterations would not). */
  gint64                  iterate_wait_us;
  gint64                  iterate_halo_wait_us;
  /* KS_DIST_TUNE_SPIN, set by the host CG for its solve. */
  gboolean                team_spins;
};

void     ks_exchange_begin_iterations (KsExchange *ex);

gboolean ks_exchange_start     (KsExchange *ex,
                                double     *x,
                                GError    **error);
gboolean ks_exchange_finish    (KsExchange *ex,
                                double     *x,
                                GError    **error);
gboolean ks_exchange_allreduce (KsExchange *ex,
                                double     *values,
                                guint       n,
                                GError    **error);
gboolean ks_exchange_iallreduce_start  (KsExchange *ex,
                                        double     *values,
                                        guint       n,
                                        GError    **error);
gboolean ks_exchange_iallreduce_finish (KsExchange *ex,
                                        double     *values,
                                        guint       n,
                                        GError    **error);
void     ks_exchange_abort     (KsExchange *ex);
void     ks_exchange_free      (KsExchange *ex);

/* Parts of one process, one thread each: a group of n_parts exchanges
 * over the same halo, taken by index (ks_exchange_local_get); each thread
 * uses its own.  Sums add the parts' values in part order, so a run gives
 * the same bits every time.  The group owns its exchanges; free it after
 * the threads are done. */
typedef struct _KsExchangeGroup KsExchangeGroup;

KsExchangeGroup *ks_exchange_group_new  (const KsHalo    *halo);
KsExchange      *ks_exchange_group_get  (KsExchangeGroup *group,
                                         guint            part);
void             ks_exchange_group_free (KsExchangeGroup *group);

/* The coupling's overheads, each switchable so that its gain can be
 * measured alone (issue 28, item 7).  0 is the plain loop. */
typedef enum {
  /* Threads of one process: a sum waits once (not twice), a halo
   * exchange's start does not wait for the other parts (only its finish
   * does), and waits spin briefly before they sleep
   * (ks_exchange_group_set_tune). */
  KS_DIST_TUNE_SUMS    = 1 << 0,
  /* A device part: its halo read and written on a second queue while the
   * interior rows' SpMV runs, alpha and beta written without waiting, and
   * r -= alpha q fused with r.r, x += alpha p with p = r + beta p. */
  KS_DIST_TUNE_OVERLAP = 1 << 1,
  /* A host part's pipelined CG: the next iteration's two sums from the
   * update's own pass (the classic CG's r.r is always fused with r's). */
  KS_DIST_TUNE_HOST    = 1 << 2,
  /* The hybrid: each device part's thread on a core of its own, the host
   * part's OpenMP threads one to a core on the others. */
  KS_DIST_TUNE_PIN     = 1 << 3,
  /* Not in ALL: the hybrid runs the pipelined CG as if asked for (one
   * sum per iteration; for measuring it where the caller cannot ask). */
  KS_DIST_TUNE_PIPELINED = 1 << 4,
  /* With OVERLAP, a device part's exchange rows' SpMV on the halo queue
   * too, beside the interior rows, rather than behind them. */
  KS_DIST_TUNE_XROWS   = 1 << 5,
  /* A host part's OpenMP team spins beside the thread that waits for the
   * other parts, instead of idling in libgomp's pool (ks-dist-cg.c says
   * why). */
  KS_DIST_TUNE_SPIN    = 1 << 6,
  KS_DIST_TUNE_ALL     = KS_DIST_TUNE_SUMS | KS_DIST_TUNE_OVERLAP | KS_DIST_TUNE_HOST | KS_DIST_TUNE_PIN |
                         KS_DIST_TUNE_XROWS | KS_DIST_TUNE_SPIN,
} KsDistTune;

/* KS_HYBRID_TUNE: unset or empty means "all", the fastest on the H200
 * (tests/device/hybrid-tune.sh at 3 M cells, data/reference/
 * h200-cuda-heat-hybrid-3m-tune.txt: the best point 0.949 of the GPU
 * alone's speed against 0.894 with none, 0.920 against 0.877 at the lambda
 * nearest lambda_b); "none" is the plain loop of
 * h200-cuda-heat-hybrid-*-async.*, and a comma list of sums, overlap,
 * host, pin, pipelined, xrows, spin picks; "all,-pin" leaves one out.  Each is correct
 * (test-hybrid).  An unknown word is warned about once and ignored. */
KsDistTune ks_dist_tune_from_env (void);
/* The same from words (NULL: unset). */
KsDistTune ks_dist_tune_parse    (const char *words);

/* Before the threads start.  With KS_DIST_TUNE_SUMS a part must not
 * change the owned values it gave an exchange until it has passed a
 * later sum (every CG here changes them only after one). */
void             ks_exchange_group_set_tune (KsExchangeGroup *group,
                                             KsDistTune       tune);

typedef struct {
  double   tol;        /* ||r|| <= tol ||b|| */
  guint    max_iter;
  /* The pipelined CG (Ghysels & Vanroose 2014; PETSc's KSPPIPECG): one
   * sum per iteration instead of two, started before the SpMV and waited
   * for after it, at the price of three more vectors and recurrences that
   * drift a little further from the true residual. */
  gboolean pipelined;
  KsDistTune tune;     /* 0 (the default): none */
} KsDistCgOptions;

typedef struct {
  guint  iterations;
  double residual;   /* ||r|| / ||b|| */
  /* Wall seconds of the iterations: from r = b - A x0 done to the
   * solution on the host (a device part's last download included, its
   * uploads not).  The parts meet at every sum, so theirs are alike. */
  double iterate_s;
} KsDistCgResult;

/* One part's CG on the host.  row_ptr/col/val: the part's rows from
 * ks_halo_local_rows (n_owned rows, local columns); b: n_owned values;
 * x: n_owned + n_virtual values, the guess on entry (its owned range;
 * the virtual range is filled here), the part's solution on return.
 * Every part calls it at once, with the same options.  Not converging in
 * max_iter is KS_SOLVER_ERROR_NOT_CONVERGED; p.q <= 0 (a matrix that is
 * not positive definite) KS_SOLVER_ERROR_BREAKDOWN. */
gboolean ks_dist_cg_solve_host (KsExchange            *ex,
                                const guint           *row_ptr,
                                const guint           *col,
                                const double          *val,
                                const double          *b,
                                double                *x,
                                const KsDistCgOptions *options,
                                KsDistCgResult        *out,
                                GError               **error);

/* The same part on an OpenCL or CUDA device (kernels/heat-cg.cl on
 * slices of the part's vectors), float or double.  The arguments are
 * those of ks_dist_cg_solve_host; the part's values travel to the device
 * and x back. */
typedef struct _KsDistCgDevice KsDistCgDevice;

KsDistCgDevice *ks_dist_cg_device_new   (KsDevice              *device,
                                         KsPrecision            precision,
                                         GError               **error);
void            ks_dist_cg_device_free  (KsDistCgDevice        *dev);
gboolean        ks_dist_cg_solve_device (KsDistCgDevice        *dev,
                                         KsExchange            *ex,
                                         const guint           *row_ptr,
                                         const guint           *col,
                                         const double          *val,
                                         const double          *b,
                                         double                *x,
                                         const KsDistCgOptions *options,
                                         KsDistCgResult        *out,
                                         GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsExchangeGroup, ks_exchange_group_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsDistCgDevice, ks_dist_cg_device_free)

G_END_DECLS
