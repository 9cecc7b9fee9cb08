/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-private.h: what ks-heat.c (the scheme, the host assembly, the
 * partial offload) and ks-heat-device.c (the whole step on the device)
 * share. */
#pragma once

#include "ks-heat.h"

G_BEGIN_DECLS

/* The most cells around one node (a node block lives on the stack). */
#define KS_HEAT_MAX_NODE_CELLS 64u

typedef struct _KsHeatDevice KsHeatDevice;

struct _KsHeat {
  KsMesh       *mesh;
  KsHeatParams  p;
  double       *t;        /* the temperature now (see host_stale) */
  double       *t0;       /* the initial one, for reset */
  double        part_busy_s[KS_HYBRID_N_PARTS];   /* the step's so far (KsHeatStepStats) */
  double        part_iterate_s[KS_HYBRID_N_PARTS];   /* and so on */
  double        part_halo_s[KS_HYBRID_N_PARTS];
  double        part_sums_s[KS_HYBRID_N_PARTS];
  double       *mass;     /* rho * area * c_v per cell */
  double        release_x;  /* where the energy goes in: the origin, or the */
  double        release_y;  /* centroid of the mesh's middle cell (note) */
  char         *note;
  KsCsr        *a;
  /* Per node v, a dense block over the cells around it (node_offsets,
   * node_cells): the geometry part of the node energy's Hessian, and where
   * each entry lands in a->val. */
  gsize        *block_off;
  double       *block;
  guint        *block_pos;
  double       *edge_w;   /* boundary edges: length / distance to the cell centroid */
  /* Per physical group of the mesh: its condition (p.boundary and
   * p.t_boundary unless ks_heat_set_group_boundary said otherwise). */
  KsHeatBoundary *group_kind;
  double       *group_tb;
  double        e0;       /* the energy at the start */
  double        inflow;   /* through the fixed walls since the start */
  guint         step;
  double        time;
  gboolean      matrix_ready;   /* n = 0: the matrix never changes */
  KsCgDevice   *cg;
  gboolean      own_cg;   /* FALSE: borrowed (ks_heat_set_cg) */
  gboolean      uploaded; /* the CG holds a's values (the partial offload's) */
  KsHeatOffload offload;
  KsHeatDevice *dev;      /* the whole step's state on cg's device, made at its first step */
  gboolean      host_stale;  /* the device holds a newer T than t */
  KsHybridCg   *hybrid;   /* borrowed (ks_heat_set_hybrid); beats cg and offload */
};

/* tau D w of boundary edge e (its group fixed) beside a cell at t. */
double   ks_heat_edge_coef        (const KsHeat   *h,
                                   guint           e,
                                   double          t);
/* KS_SOLVER_ERROR_NOT_CONVERGED for the nonlinear iterations of this step. */
void     ks_heat_set_picard_error (KsHeat         *h,
                                   GError        **error,
                                   double          change,
                                   double          tmax);

/* The whole step on h->cg's device (KS_HEAT_OFFLOAD_WHOLE); on failure the
 * state is as before.  Fills everything of out but step, time and step_s. */
gboolean ks_heat_device_step     (KsHeat          *h,
                                  KsHeatStepStats *out,
                                  GError         **error);
/* The device's T into h->t. */
gboolean ks_heat_device_download (KsHeat          *h,
                                  GError         **error);
void     ks_heat_device_free     (KsHeatDevice    *dev);
/* The device's T must be uploaded again (a reset). */
void     ks_heat_device_invalidate (KsHeatDevice  *dev);

G_END_DECLS
