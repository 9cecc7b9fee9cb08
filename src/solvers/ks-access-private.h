/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-private.h: between ks-access.c (the launch, the counting) and
 * ks-access-kernels.c (one function per kernel). */
#pragma once

#include "ks-access.h"

typedef struct {
  guint   dims;
  guint64 global[3], local[3];
  guint64 sides[3];   /* 003: the domain right-aligned, as the solver passes n1 n2 n3 */
  KsIndexLayout layout;   /* 003 */
} KsAccessLaunch;

typedef struct {
  const KsAccessLaunch *launch;
  GArray  *out;
  guint32  item;
  guint32  steps;
} KsAccessSink;

/* Appends the accesses of the item at global id gid (3 values) to the
 * sink in program order; FALSE where the item returns at once (idle). */
typedef gboolean (*KsAccessItemFunc) (const KsAccessPoint *point,
                                      const guint64       *gid,
                                      KsAccessSink        *sink);

KsAccessItemFunc ks_access_item_func (KsAccessKernel kernel);
