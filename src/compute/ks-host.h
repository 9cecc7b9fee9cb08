/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-host.h: the host backend: this machine's CPU running plain C with
 * OpenMP.  It is the baseline every table compares against and the
 * reference every kernel's answer is checked with. */
#pragma once

#include "ks-device.h"

G_BEGIN_DECLS

KsDevice *ks_host_device_new (void);

/* The host memory a new allocation can take without pushing others into
 * swap: MemAvailable of /proc/meminfo, else sysconf (_SC_AVPHYS_PAGES)
 * (free pages only, a lower bound); 0 when neither answers.  Where a
 * memory cgroup (a container, a systemd slice; v1 or v2) leaves less, its
 * headroom (limit - usage + inactive file cache) instead, the least over
 * the process's cgroup and its ancestors.  KERNELSCOPE_TEST_CGROUP_ROOT
 * replaces /sys/fs/cgroup for the tests.  *out_source
 * (may be NULL) says which, for messages.  The test hook
 * KERNELSCOPE_TEST_HOST_MEMORY_AVAILABLE (bytes) replaces both, so tests
 * can meet the limit without allocating near it. */
guint64   ks_host_memory_available (const char **out_source);

/* The host's CPU time so far, all CPUs together, and the part of it the
 * hypervisor gave to other guests (Linux's steal time: the first line of
 * /proc/stat, in clock ticks).  FALSE where there is no such file; the
 * difference of two calls is what happened between them. */
gboolean  ks_host_cpu_ticks (guint64 *total,
                             guint64 *steal);

G_END_DECLS
