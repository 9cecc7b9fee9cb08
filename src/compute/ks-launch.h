/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-launch.h: the paper's local-size policies for any kernel.
 *
 * DRIVER leaves the group size to the driver (CUDA: the occupancy API's
 * block); EXPLICIT pads the range up to a multiple of the user's group, the
 * extra items exiting on the kernel's bounds test; SPLIT launches the
 * largest multiple of the group and then the remainder as one group of its
 * own size, so no item is padded and no group is odd-sized but the last.
 * A plan says which launches a policy makes; a kernel that takes its first
 * index from get_global_id() runs a plan with ks_queue_launch_policy (the
 * remainder at a global offset), and one that takes it as an argument (the
 * Gauss kernels) sets it from each part's first index. */
#pragma once

#include <glib.h>

#include "ks-runtime.h"
#include "ks-types.h"

G_BEGIN_DECLS

typedef struct {
  guint n_parts;             /* 0 (an empty range), 1 or 2 */
  struct {
    KsLaunchConfig config;   /* offset all 0: the caller adds its own */
    gsize          first;    /* the part's first index along dimension 0 */
  } parts[2];
} KsLaunchPlan;

/* The launches policy makes over global (dims 1-3; the policy shapes
 * dimension 0, the others get a local size of 1 under EXPLICIT and SPLIT).
 * wg is the group size for EXPLICIT and SPLIT; 0 there is
 * KS_COMPUTE_ERROR_WORK_GROUP_SIZE. */
gboolean ks_launch_plan       (KsLocalPolicy  policy,
                               guint          wg,
                               guint          dims,
                               const gsize   *global,
                               KsLaunchPlan  *plan,
                               GError       **error);

/* Runs the plan of policy over global on queue, the second part at a
 * global offset of its first index (get_global_id() counts on; on CUDA the
 * program must be built with -DKS_GLOBAL_OFFSET, see KsLaunchConfig).
 * Cost on CUDA: each part changes the program's offset and size in
 * constant memory.  With one queue in the runtime that is a few
 * cuMemsetD32Async on the stream per part (no host wait, recordable into a
 * graph); with more queues open it waits for every queue and a blocking
 * copy, and inside a capture it is refused.  A kernel that takes its first
 * index as an argument (the Gauss kernels) pays none of this. */
gboolean ks_queue_launch_policy (KsQueue      *queue,
                                 KsKernel     *kernel,
                                 KsLocalPolicy policy,
                                 guint         wg,
                                 guint         dims,
                                 const gsize  *global,
                                 GError      **error);

G_END_DECLS
