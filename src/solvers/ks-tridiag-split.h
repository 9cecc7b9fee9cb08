/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-tridiag-split.h: thomas-split's launch (kernels/tridiag-split.cl),
 * for ks-tridiag.c: a small batch, each system split among the items of
 * one work-group, Thomas per piece, then the reduced system of the pieces'
 * first and last unknowns by PARACR in local memory. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"
#include "ks-runtime.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef struct _KsTridiagSplit KsTridiagSplit;

/* Nothing is built until the first launch (one program per piece size). */
KsTridiagSplit *ks_tridiag_split_new    (KsRuntime        *rt,
                                         KsPrecision       precision);
void            ks_tridiag_split_free   (KsTridiagSplit   *self);
/* Whether `systems` systems of n unknowns can be solved on device: each
 * in one work-group (pieces of 8 or 16 rows, one an item; the staged
 * system in local memory), or, for one system larger than that, by the
 * partition level by level; else KS_COMPUTE_ERROR_UNSUPPORTED with the
 * largest n a group holds. */
gboolean        ks_tridiag_split_check  (KsDevice         *device,
                                         KsPrecision       precision,
                                         guint             n,
                                         guint             systems,
                                         GError          **error);
/* One solve of systems systems of n unknowns (one after another) from in
 * (a, b, c, d) into x; zero pivots into info (zeroed before).  The
 * group's size into local_size.  One system no group holds is
 * partitioned level by level (work buffers kept while n stays). */
gboolean        ks_tridiag_split_launch (KsTridiagSplit   *self,
                                         KsQueue          *queue,
                                         KsBuffer *const  *in,
                                         KsBuffer         *x,
                                         KsBuffer         *info,
                                         guint             n,
                                         guint             systems,
                                         guint            *local_size,
                                         GError          **error);
/* Pieces of at most rows rows (8 or 16) whatever fits best; 0: the
 * smallest that fits the kernel's group (the default).  For tests to run
 * both builds on any device. */
void            ks_tridiag_split_set_rows (KsTridiagSplit *self,
                                           guint           rows);
/* stream 1: each group streams through several systems, staging the
 * next while it solves one (-DKS_SPLIT_STREAM); 0: a group a system; -1
 * (the default): streamed on CUDA, where the copy needs no registers.
 * groups: the grid's groups forced (each takes every groups-th system);
 * 0: as many as the device holds at once when streamed (a system each
 * where the backend cannot say).  For tests to run both builds and the
 * loop over systems on any device. */
void            ks_tridiag_split_set_stream (KsTridiagSplit *self,
                                             int             stream,
                                             guint           groups);
/* The last launch's device time (0 before any, and after reset). */
guint64         ks_tridiag_split_time_ns (KsTridiagSplit  *self);
void            ks_tridiag_split_reset_timing (KsTridiagSplit *self);

G_END_DECLS
