/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro.h: paper 001's micro-benchmarks (Manushin 2012, an OpenCL
 * tutorial with measurements) on any OpenCL or CUDA device, each checked
 * against a plain C reference on the host, which is also timed: the
 * paper's tables have a CPU column beside the GPU's.
 *
 *   hello  the sum of two short arrays (section 4.1): the host loop, the
 *          kernel alone, the kernel with its transfers, and what building
 *          the program costs (kernels/micro-hello.cl).
 *
 * Times: device events for kernels and transfers (NVIDIA's OpenCL ticks
 * in whole microseconds: KsDeviceInfo.timer_resolution_ns), the host's
 * monotonic clock in nanoseconds for the host loop and for the wall time
 * of a transfer round trip.  A host loop shorter than a clock tick is
 * repeated until it is not, and its time divided. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"

G_BEGIN_DECLS

/* The host's monotonic clock in milliseconds, with nanosecond ticks. */
double ks_micro_now_ms (void);

/* --- hello: vector addition ---------------------------------------------------- */

typedef enum {
  KS_MICRO_HELLO_HOST,       /* the plain C loop on one host core */
  KS_MICRO_HELLO_KERNEL,     /* the kernel alone (device events), inputs already on the device */
  KS_MICRO_HELLO_TRANSFERS,  /* upload both inputs, the kernel, download: the host's wall clock */
  KS_MICRO_HELLO_BUILD,      /* building the program and creating the kernel, no cache */
} KsMicroHelloTiming;

typedef struct _KsMicroHello KsMicroHello;

typedef struct {
  double ms;               /* what the timing measures (above) */
  double upload_ms;        /* TRANSFERS: both uploads, device events */
  double kernel_ms;        /* KERNEL, TRANSFERS: the kernel, device events */
  double download_ms;      /* TRANSFERS: the download, device events */
  double first_launch_ms;  /* BUILD: the first launch after the build (PoCL compiles its
                            * work-group function there), wall clock */
  guint  host_repeats;     /* HOST: how often the loop ran inside the timed stretch */
  guint64 wrong;           /* elements that differ from the host reference (0, or a bug) */
} KsMicroHelloResult;

/* The kernel built on device (OpenCL or CUDA; the host backend has no
 * runtime: KS_COMPUTE_ERROR_UNSUPPORTED). */
KsMicroHello *ks_micro_hello_new        (KsDevice           *device,
                                         GError            **error);
void          ks_micro_hello_free       (KsMicroHello       *self);
KsDevice     *ks_micro_hello_get_device (KsMicroHello       *self);
/* Arrays of n shorts on the host and the device, the inputs generated
 * (the same for a given n everywhere) and uploaded.  A length the device
 * cannot hold is KS_COMPUTE_ERROR_OUT_OF_MEMORY, saying the limit. */
gboolean      ks_micro_hello_set_length (KsMicroHello       *self,
                                         guint64             n,
                                         GError            **error);
/* One timed repetition; every timing but BUILD checks the output against
 * the host's sum (out->wrong). */
gboolean      ks_micro_hello_run        (KsMicroHello       *self,
                                         KsMicroHelloTiming  timing,
                                         KsMicroHelloResult *out,
                                         GError            **error);
/* The reference: output[i] = left[i] + right[i]. */
void          ks_micro_hello_host       (const gint16       *left,
                                         const gint16       *right,
                                         gint16             *output,
                                         gsize               n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroHello, ks_micro_hello_free)

G_END_DECLS
