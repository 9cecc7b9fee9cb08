/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-hybrid-pin.h: the one-process hybrid's threads on cores of their own
 * (KS_DIST_TUNE_PIN): each device part's thread, which waits on its
 * device and at every sum, on one of the last cores this process may use;
 * the host part's OpenMP team one thread to a core on the others.  Linux
 * only (sched_getaffinity); elsewhere nothing is pinned. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint  n_cpus;        /* this process's cores; 0: nothing is pinned */
  guint  n_devices;     /* device threads, each a core of the last ones */
  int   *cpus;          /* the cores' numbers */
} KsHybridPin;

/* n_devices device threads beside the host part's team: pins nothing
 * where fewer than n_devices + 1 cores are allowed. */
void ks_hybrid_pin_init   (KsHybridPin *pin,
                           guint        n_devices);
/* In device thread j (0 ..): onto its core. */
void ks_hybrid_pin_device (const KsHybridPin *pin,
                           guint              j);
/* In the host part's thread: its OpenMP team sized to the other cores
 * and each thread onto one; the team's size, or 0 when nothing was
 * pinned. */
int  ks_hybrid_pin_host   (const KsHybridPin *pin);
/* In the host part's thread, after the solve: its team may run on every
 * core again (it is the application's own team); frees pin's cores. */
void ks_hybrid_pin_clear  (KsHybridPin *pin);

G_END_DECLS
