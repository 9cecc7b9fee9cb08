/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro.h: paper 001's micro-benchmarks (Manushin 2012, an OpenCL
 * tutorial with measurements) on any OpenCL or CUDA device, each checked
 * against a plain C reference on the host, which is also timed: the
 * paper's tables have a CPU column beside the GPU's.
 *
 *   hello  the sum of two short arrays (section 4.1): the host loop, the
 *          kernel alone, the kernel with its transfers, and what building
 *          the program costs (kernels/micro-hello.cl).
 *   simd   a compute-bound loop on short, short2, ..., short16 (section
 *          4.2, Tables 3-4): one program per width (kernels/micro-simd.cl).
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

/* --- simd: the paper's loop on short vectors ------------------------------------ */

#define KS_MICRO_SIMD_N_WIDTHS 5   /* 1, 2, 4, 8, 16 */
/* Host references are computed for at most this many elements of a point,
 * spread over the array (first and last included): each costs the whole
 * loop, 2^20 iterations by default. */
#define KS_MICRO_SIMD_CHECKED 64

typedef struct _KsMicroSimd KsMicroSimd;

typedef struct {
  double  kernel_ms;   /* device events */
  double  wall_ms;     /* launch and wait, host clock */
  guint64 checked;     /* elements compared with the host */
  guint64 wrong;       /* of those, the ones that differ */
} KsMicroSimdResult;

/* The runtime on device; programs are built per width on first use. */
KsMicroSimd  *ks_micro_simd_new         (KsDevice           *device,
                                         GError            **error);
void          ks_micro_simd_free        (KsMicroSimd        *self);
KsDevice     *ks_micro_simd_get_device  (KsMicroSimd        *self);
/* width: 1, 2, 4, 8 or 16 shorts per work-item; items work-items, so
 * items * width elements.  Builds the width's program (a device that
 * cannot is KS_COMPUTE_ERROR_BUILD_FAILED with the compiler's log), fills
 * and uploads the input, computes the host's results for the checked
 * elements.  Out of the device's memory: KS_COMPUTE_ERROR_OUT_OF_MEMORY. */
gboolean      ks_micro_simd_prepare     (KsMicroSimd        *self,
                                         guint               width,
                                         guint64             items,
                                         guint               iterations,
                                         GError            **error);
gboolean      ks_micro_simd_run         (KsMicroSimd        *self,
                                         KsMicroSimdResult  *out,
                                         GError            **error);
/* The index of a width (1 -> 0, ..., 16 -> 4), or -1. */
int           ks_micro_simd_width_index (guint               width);
/* The loop for one element on the host. */
gint16        ks_micro_simd_host        (gint16              input,
                                         guint               iterations);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroHello, ks_micro_hello_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroSimd, ks_micro_simd_free)

G_END_DECLS
