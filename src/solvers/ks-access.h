/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access.h: which addresses each work-item of a kernel touches, step by
 * step, and how many cache lines each warp's access costs.
 *
 * One function per kernel redoes the kernel's own index arithmetic on the
 * host (kernels/micro-downscale.cl, thomas_global, thomas_staged and paracr_step of
 * kernels/tridiag.cl, index_fill_mapped of kernels/index.cl), for any
 * work-group size and warp width; tests/test-access.c runs the kernels
 * built with -DKS_TRACE on PoCL and compares every address.  An access is
 * (item, step, slot): the step is the iteration of the item's loop (0 for a
 * kernel without one), the slot the memory instruction within it, so the
 * items of a warp that run one instruction together share (step, slot). */
#pragma once

#include <glib.h>

#include "ks-index-map.h"

G_BEGIN_DECLS

typedef enum {
  KS_ACCESS_MICRO_DIRECT,        /* 001: one item per row */
  KS_ACCESS_MICRO_GROUPED,       /* 001: one item per output byte */
  KS_ACCESS_THOMAS_NATURAL,      /* 002: one item per system, systems one after another */
  KS_ACCESS_THOMAS_INTERLEAVED,  /* 002: element i of every system together */
  KS_ACCESS_PARACR_NATURAL,      /* 002: one PARACR level (paracr_step), natural layout */
  KS_ACCESS_PARACR_INTERLEAVED,  /* 002: the same, interleaved */
  KS_ACCESS_INDEX_MAPPED,        /* 003: index_fill_mapped under a rule's launch */
  KS_ACCESS_THOMAS_STAGED_NATURAL,      /* 002: thomas_staged (chunks through local memory) */
  KS_ACCESS_THOMAS_STAGED_INTERLEAVED,  /* 002: the same, interleaved */
  KS_ACCESS_N_KERNELS
} KsAccessKernel;

typedef struct {
  KsAccessKernel kernel;
  guint          group;      /* work-items per group along dimension 0 (003: the mapping's block) */
  /* 001: one row pass of `rows` rows of `len` bytes, edges as KsMicroEdges. */
  guint          rows, len, edges;
  /* 002: systems of n unknowns of elem bytes; PARACR's level (h = 2^level). */
  guint          n, systems, elem, level;
  /* 003: the domain and the rule (elem as above). */
  KsIndexDomain  domain;
  KsIndexRule    rule;
  /* Model only the first `groups` work-groups (0: all): a full image is
   * millions of accesses, one group shows the pattern. */
  guint          groups;
} KsAccessPoint;

typedef struct {
  guint32 item;     /* the linear global id, dimension 0 fastest */
  guint32 step;     /* the iteration of the item's loop */
  guint16 slot;     /* the memory instruction within the iteration */
  guint8  buffer;   /* the kernel's buffer argument, counted from 0 */
  guint8  write;
  guint32 size;     /* bytes */
  guint64 offset;   /* bytes from the buffer's start */
} KsAccess;

typedef struct {
  guint   dims;
  guint64 global[3], local[3];   /* the launch (global rounded up to whole groups) */
  guint   n_buffers;
  const char *buffers[8];        /* the kernel's buffer names */
  GArray *accesses;              /* KsAccess, each item's in program order, items ascending */
  guint8 *idle;                  /* per modelled item: TRUE where it touches nothing by design */
  guint   n_items;               /* items modelled (the first `groups` groups) */
  guint   steps;                 /* 1 + the largest step */
} KsAccessModel;

const char  *ks_access_kernel_to_string (KsAccessKernel kernel);   /* "micro-direct", ... */

/* Fills out (clear it with ks_access_model_clear); FALSE with a message
 * naming the value when the point cannot be launched. */
gboolean     ks_access_model_build  (const KsAccessPoint *point,
                                     KsAccessModel       *out,
                                     GError             **error);
void         ks_access_model_clear  (KsAccessModel       *model);

/* The warp (of `warp` items) an item belongs to, counted over the launch:
 * warps never straddle two groups. */
guint        ks_access_warp_of      (const KsAccessModel *model,
                                     guint32              item,
                                     guint                warp);

typedef struct {
  guint  items;     /* items of the warp with an access in this (step, slot) */
  guint  lines;     /* distinct cache lines they touch: the transactions */
  double ideal;     /* distinct bytes used / line size */
} KsAccessCount;

/* The lines warp `w` touches in one step, slot by slot (one entry per slot
 * that any of its items uses; out is cleared first). */
void         ks_access_count_step   (const KsAccessModel *model,
                                     guint                warp,
                                     guint                w,
                                     guint                step,
                                     guint                line,
                                     GArray              *out);
/* The sums over every modelled warp and step: transactions and ideal. */
void         ks_access_count_total  (const KsAccessModel *model,
                                     guint                warp,
                                     guint                line,
                                     guint64             *lines,
                                     double              *ideal);
/* The (item, step) pairs with an access: what compares variants that spread
 * the same work over different loops (a direct item's step is one output
 * of paper 001's filter, as a grouped item's whole run is). */
guint64      ks_access_item_steps   (const KsAccessModel *model);
/* Lines touched by n accesses (a plain helper: the textbook cases). */
guint        ks_access_count_lines  (const KsAccess      *acc,
                                     guint                n,
                                     guint                line,
                                     double              *ideal);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KsAccessModel, ks_access_model_clear)

G_END_DECLS
