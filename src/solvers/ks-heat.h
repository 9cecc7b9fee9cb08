/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat.h: paper 004's heat problem on a mesh of triangles and
 * quadrilaterals (Anisov, Vaziev, Ushakov 2020): rho de/dt + div F = 0,
 * F = -D grad T, D = D0 T^n, e = c_v T, an instantaneous point release of
 * energy (Zeldovich & Raizer's nonlinear heat wave), insulated or
 * fixed-temperature boundaries.
 *
 * The scheme.  Cell-centred finite volumes, implicit in time, linearised as
 * in the paper's equation (3); with e = c_v T it reads, per cell i and
 * nonlinear iteration nu,
 *   m_i c_v T_i^{nu+1} + tau sum_k a_ik(T^nu) (T_i^{nu+1} - T_k^{nu+1}) = m_i c_v T_i^n
 * with fluxes between cells that share a node (the paper's stencil).  The
 * coefficients a_ik come from an energy, which makes the matrix symmetric
 * positive definite by construction: around each node v, the cells sharing
 * it have a least-squares gradient g_v of their temperatures, and
 *   E = sum_v D_v [ V_v |g_v|^2 + beta |T - (mean + g_v . (x - mean x))|^2 ]
 * (V_v: a share of the cells' area; the second term, zero for a linear
 * field, damps the checkerboard that a node gradient cannot see).  A is
 * the Hessian of E/2, so a_ik = a_ki >= ... and every row sums to zero:
 * insulated boundaries conserve energy to the CG tolerance.  A
 * fixed-temperature boundary adds a two-point flux through each boundary
 * edge.  D_v = D0 (mean T around v)^n, with T^nu: Picard iterations until
 * T stops changing (one for n = 0).
 *
 * The linear systems are solved by CG (ks-cg.h) on the host or on a device.
 * On a device the whole step runs there by default, as the paper advises
 * (kernels/heat-step.cl assembles the values and the right-hand side on the
 * fixed pattern uploaded once; only a few scalars per nonlinear iteration
 * cross the bus, and T comes back when asked for); the "partial offload"
 * assembles on the host and copies the matrix and the vectors at every
 * solve, to measure what the paper says that costs (up to 22 % at 1 M
 * cells, 41 % at 78 M). */
#pragma once

#include <glib.h>

#include "ks-cg.h"
#include "ks-csr.h"
#include "ks-device.h"
#include "ks-hybrid-cg.h"
#include "ks-mesh.h"

G_BEGIN_DECLS

typedef enum {
  KS_HEAT_BOUNDARY_INSULATED,  /* F.n = 0 */
  KS_HEAT_BOUNDARY_FIXED,      /* T = t_boundary */
} KsHeatBoundary;

typedef enum {
  KS_HEAT_OFFLOAD_WHOLE,    /* assembly, CG and the step's numbers on the device */
  KS_HEAT_OFFLOAD_PARTIAL,  /* assembly on the host, the matrix and vectors copied per solve */
} KsHeatOffload;

const char *ks_heat_offload_to_string    (KsHeatOffload  offload);

typedef struct {
  double         n;             /* D = d0 T^n; 0: the linear heat equation */
  double         d0;
  double         density;       /* rho */
  double         cv;            /* e = cv T */
  double         energy;        /* released at the origin */
  double         tau;           /* time step */
  /* 0: all the energy in the cell nearest the origin at t = 0; > 0: start
   * from the exact solution at t0 (the Gaussian, or Zeldovich-Raizer). */
  double         t0;
  KsHeatBoundary boundary;
  double         t_boundary;
  double         cg_tol;
  guint          cg_max_iter;
  guint          picard_max;    /* nonlinear iterations per step */
  double         picard_tol;    /* max |T^{nu+1} - T^nu| <= tol max |T| */
} KsHeatParams;

/* The defaults: n = 0, d0 = 1, density = cv = energy = 1, tau = 1e-4,
 * t0 = 0, insulated, CG to 1e-10 in at most 2000 iterations, 20 Picard
 * iterations to 1e-6. */
void        ks_heat_params_init          (KsHeatParams  *params);
/* Every value in range, else KS_SOLVER_ERROR_INVALID naming it and the range. */
gboolean    ks_heat_params_check         (const KsHeatParams *params,
                                          GError      **error);

typedef struct {
  guint   step;
  double  time;
  guint   picard;         /* nonlinear iterations this step */
  guint   cg_iterations;  /* summed over them */
  double  cg_residual;    /* the last solve's */
  double  cg_bytes;       /* moved by the CG, by paper 004's Table 1 */
  double  energy;         /* sum m c_v T after the step */
  double  inflow;         /* the energy in through the fixed walls this step,
                           * sum tau D w (T_b - T): energy - inflow is the
                           * energy before the step, to the CG tolerance */
  double  t_max;
  double  t_min;
  double  assemble_s;     /* wall seconds of the assembly (on the host, or the device's kernels) */
  double  solve_s;        /* seconds in CG (uploads included) */
  double  iterate_s;      /* of which the CG iterations alone (KsCgResult.iterate_s) */
  double  step_s;
  /* One-off work this step did, in step_s: the device's heat kernels
   * built and the mesh uploaded (the first step on a device), so a plot
   * of the time per step can leave it out. */
  double  setup_s;
  /* With a hybrid (ks_heat_set_hybrid): each kind of part's own work in
   * the CG, summed over the step's solves (KsHybridResult.busy_s); NAN
   * where a kind has no cells, 0 without a hybrid. */
  double  part_busy_s[KS_HYBRID_N_PARTS];
  /* Likewise summed: each kind's CG iterations (KsHybridResult.part_s),
   * and of them its waits in the halo's finish and in the sums (halo_s,
   * sums_s): the coupling's share of an iteration, part by part. */
  double  part_iterate_s[KS_HYBRID_N_PARTS];
  double  part_halo_s[KS_HYBRID_N_PARTS];
  double  part_sums_s[KS_HYBRID_N_PARTS];
} KsHeatStepStats;

typedef struct _KsHeat KsHeat;

KsHeat       *ks_heat_new               (KsMesh             *mesh,
                                         const KsHeatParams *params,
                                         GError            **error);
void          ks_heat_free              (KsHeat             *heat);
/* NULL or a host device: the host CG; else that device's, in precision
 * and variant.  May be changed between steps. */
gboolean      ks_heat_set_device        (KsHeat             *heat,
                                         KsDevice           *device,
                                         KsPrecision         precision,
                                         KsCgVariant         variant,
                                         GError            **error);
/* The same with a CG the caller built and keeps alive as long as heat
 * uses it (NULL: the host), so that several problems share one device's
 * kernels (the experiment builds them once per device, not per mesh). */
void          ks_heat_set_cg            (KsHeat             *heat,
                                         KsCgDevice         *cg);
/* Paper 004's hybrid: the linear systems solved by hybrid (borrowed: kept
 * alive by the caller as long as heat uses it; NULL: back to the CG of
 * set_device/set_cg), split at lambda over this mesh's matrix.  Change
 * lambda between steps with ks_hybrid_cg_set_lambda. */
gboolean      ks_heat_set_hybrid        (KsHeat             *heat,
                                         KsHybridCg         *hybrid,
                                         double              lambda,
                                         GError            **error);
/* Where a device CG assembles (KS_HEAT_OFFLOAD_WHOLE by default); no
 * meaning on the host.  May be changed between steps. */
void          ks_heat_set_offload       (KsHeat             *heat,
                                         KsHeatOffload       offload);
/* The condition on the boundary edges of the mesh's physical group named
 * group (a Gmsh $PhysicalNames name; "boundary" on a generated mesh): the
 * others keep theirs (params' boundary and t_boundary at first).  An unknown
 * group or a temperature out of [0, 1e12] is KS_SOLVER_ERROR_INVALID naming
 * the groups there are.  Takes effect at the next step. */
gboolean      ks_heat_set_group_boundary (KsHeat            *heat,
                                          const char        *group,
                                          KsHeatBoundary     boundary,
                                          double             t_boundary,
                                          GError           **error);
/* The energy balance since the start (or the last reset): the released
 * energy (plus the background), what came in through the fixed walls, and
 * their sum, which the energy now equals to the CG tolerance. */
double        ks_heat_get_initial_energy (KsHeat            *heat);
double        ks_heat_get_inflow         (KsHeat            *heat);
/* One time step; on failure (CG not converged) the state is as before. */
gboolean      ks_heat_step              (KsHeat             *heat,
                                         KsHeatStepStats    *out,
                                         GError            **error);
void          ks_heat_reset             (KsHeat             *heat);
KsMesh       *ks_heat_get_mesh          (KsHeat             *heat);
/* After a whole step on the device the host's copy of T is brought back
 * only when asked for: by this call (which says what failed), or by the
 * functions below that read T (which log a warning if the device fails). */
gboolean      ks_heat_sync              (KsHeat             *heat,
                                         GError            **error);
const double *ks_heat_get_temperature   (KsHeat             *heat);
double        ks_heat_get_time          (KsHeat             *heat);
guint         ks_heat_get_step          (KsHeat             *heat);
/* Where the energy is released: the origin, or where the origin lies
 * outside the mesh the centroid of the cell nearest the mesh's centre,
 * which the note (else NULL) says, for the caller to show once. */
void          ks_heat_get_release       (KsHeat             *heat,
                                         double             *x,
                                         double             *y);
const char   *ks_heat_get_note          (KsHeat             *heat);
double        ks_heat_total_energy      (KsHeat             *heat);
/* The heat front: the largest centroid distance from the release point
 * (ks_heat_get_release) of a cell hotter than fraction of the hottest. */
double        ks_heat_front_radius      (KsHeat             *heat,
                                         double              fraction);
/* The mean squared distance from the release point, weighted by energy. */
double        ks_heat_second_moment     (KsHeat             *heat);

/* The matrix and right-hand side of one linear step at temperatures t_nu
 * from t_old (for the tests: symmetry, definiteness, row sums). */
KsCsr        *ks_heat_assemble          (KsHeat             *heat,
                                         const double       *t_nu,
                                         const double       *t_old,
                                         double             *rhs);

/* The same assembled by the device CG's kernels (heat-step.cl), values
 * and right-hand side read back: for the tests against the host's.  Needs
 * a device set (ks_heat_set_device, ks_heat_set_cg); NULL with error else. */
KsCsr        *ks_heat_assemble_device   (KsHeat             *heat,
                                         const double       *t_nu,
                                         const double       *t_old,
                                         double             *rhs,
                                         GError            **error);

/* The exact solution of the point release in the plane: the Gaussian heat
 * kernel for n = 0, Zeldovich-Raizer's (Barenblatt's) self-similar wave for
 * n > 0, at time t > 0 and radius r (no boundaries). */
double        ks_heat_exact             (const KsHeatParams *params,
                                         double              t,
                                         double              r);
/* Its front radius for n > 0, r_f ~ t^(1/(2n+2)); for n = 0, the radius
 * 2 sqrt(chi t) where the Gaussian has fallen to 1/e of its centre. */
double        ks_heat_exact_front       (const KsHeatParams *params,
                                         double              t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsHeat, ks_heat_free)

G_END_DECLS
