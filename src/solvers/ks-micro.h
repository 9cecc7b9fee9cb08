/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-micro.h: paper 001's micro-benchmarks (Manushin 2012, an OpenCL
 * tutorial with measurements) on any OpenCL or CUDA device, each checked
 * against a plain C reference on the host, which is also timed: the
 * paper's tables have a CPU column beside the GPU's.
 *
 *   hello  the sum of two short arrays (section 4.1): the host loop, the
 *          kernel alone, the kernel with its transfers, and what building
 *          the program costs (kernels/micro-hello.cl).
 *   loops  compute-bound loops on shorts: the SIMD loop on short ..
 *          short16 (section 4.2, Tables 3-4; kernels/micro-simd.cl) and the
 *          built-in functions against plain expressions (section 4.3,
 *          Table 5; kernels/micro-builtins.cl).
 *   math   precise and native_ math functions: their time and their error
 *          against the host's double precision (kernels/micro-math.cl).
 *   filter a 9-tap filter over rows of bytes with four ways of holding its
 *          buffers (section 4.4, Table 6; kernels/micro-filter.cl).
 *   scale  an image downscaled 2x, rows then columns, by work-items that
 *          each walk a row or each make one byte, with the row's ends
 *          handled three ways (section 4.5, Table 7;
 *          kernels/micro-downscale.cl).
 *
 * Times: device events for kernels and transfers (NVIDIA's OpenCL ticks
 * in whole microseconds: KsDeviceInfo.timer_resolution_ns), the host's
 * monotonic clock in nanoseconds for the host loop and for the wall time
 * of a transfer round trip.  A host loop shorter than a clock tick is
 * repeated until it is not, and its time divided. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"
#include "ks-runtime.h"

G_BEGIN_DECLS

/* The host's monotonic clock in milliseconds, with nanosecond ticks. */
double   ks_micro_now_ms       (void);
/* One launch over global items (the driver's group), waited for: the
 * kernel's device time (events) and the launch-and-wait wall time. */
gboolean ks_micro_launch_timed (KsRuntime *rt,
                                KsKernel  *kernel,
                                gsize      global,
                                double    *kernel_ms,
                                double    *wall_ms,
                                GError   **error);

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

/* --- loops: compute-bound kernels on shorts --------------------------------------- */

/* Paper 001's SIMD loop (section 4.2) on short .. short16 and its
 * built-ins loop (section 4.3) with and without mad_sat, abs_diff and
 * hadd: each work-item runs a loop `iterations` times on its own element
 * (or vector of elements), one program per width or variant, built on
 * first use.  The results of a few elements spread over the array are
 * computed on the host too (each costs the whole loop). */

#define KS_MICRO_SIMD_N_WIDTHS 5   /* 1, 2, 4, 8, 16 */
#define KS_MICRO_LOOP_CHECKED  64  /* elements of a point compared with the host, at most */

typedef struct _KsMicroLoop KsMicroLoop;

typedef struct {
  double  kernel_ms;   /* device events */
  double  wall_ms;     /* launch and wait, host clock */
  guint64 checked;     /* elements compared with the host */
  guint64 wrong;       /* of those, the ones that differ */
} KsMicroLoopResult;

/* The runtime on device (OpenCL or CUDA). */
KsMicroLoop  *ks_micro_loop_new              (KsDevice           *device,
                                              GError            **error);
void          ks_micro_loop_free             (KsMicroLoop        *self);
KsDevice     *ks_micro_loop_get_device       (KsMicroLoop        *self);
/* The SIMD loop: width 1, 2, 4, 8 or 16 shorts per work-item, so items *
 * width elements.  Builds the width's program (a device that cannot is
 * KS_COMPUTE_ERROR_BUILD_FAILED with the compiler's log), fills and
 * uploads the input, computes the host's results for the checked
 * elements.  Out of the device's memory: KS_COMPUTE_ERROR_OUT_OF_MEMORY. */
gboolean      ks_micro_loop_prepare_simd     (KsMicroLoop        *self,
                                              guint               width,
                                              guint64             items,
                                              guint               iterations,
                                              GError            **error);
/* The built-ins loop, one short per work-item: builtins TRUE for
 * mad_sat/abs_diff/hadd, FALSE for the plain expressions. */
gboolean      ks_micro_loop_prepare_builtins (KsMicroLoop        *self,
                                              gboolean            builtins,
                                              guint64             items,
                                              guint               iterations,
                                              GError            **error);
/* One launch of the prepared loop, timed and checked. */
gboolean      ks_micro_loop_run              (KsMicroLoop        *self,
                                              KsMicroLoopResult  *out,
                                              GError            **error);
/* The index of a width (1 -> 0, ..., 16 -> 4), or -1. */
int           ks_micro_simd_width_index      (guint               width);
/* The loops for one element on the host, with the kernels' semantics. */
gint16        ks_micro_simd_host             (gint16              input,
                                              guint               iterations);
gint16        ks_micro_builtins_host         (gint16              input,
                                              gboolean            builtins,
                                              guint               iterations);

/* --- math: precise and native_ functions ------------------------------------------ */

typedef enum {
  KS_MICRO_SIN,
  KS_MICRO_COS,
  KS_MICRO_EXP,
  KS_MICRO_LOG,
  KS_MICRO_SQRT,
  KS_MICRO_RSQRT,
  KS_MICRO_N_FUNCTIONS
} KsMicroFunction;

typedef struct _KsMicroMath KsMicroMath;

typedef struct {
  double kernel_ms;     /* the timing kernel, device events */
  double wall_ms;       /* launch and wait, host clock */
  double max_ulp;       /* the worst error in units of the last place of the float nearest the truth */
  double max_abs;       /* the worst |f(x) - truth| */
  double max_rel;       /* the worst |f(x) - truth| / |truth| */
} KsMicroMathResult;

/* "sin", ..., the OpenCL name. */
const char   *ks_micro_function_name   (KsMicroFunction     fn);
/* The inputs the function is measured on, lo .. hi (sin, cos: -pi .. pi;
 * exp: -10 .. 10; log, sqrt, rsqrt: 2^-10 .. 2^10). */
void          ks_micro_function_domain (KsMicroFunction     fn,
                                        double             *lo,
                                        double             *hi);
/* The truth, in double on the host. */
double        ks_micro_function_host   (KsMicroFunction     fn,
                                        double              x);

KsMicroMath  *ks_micro_math_new        (KsDevice           *device,
                                        GError            **error);
void          ks_micro_math_free       (KsMicroMath        *self);
KsDevice     *ks_micro_math_get_device (KsMicroMath        *self);
/* n inputs spread over the function's domain, its program (precise or
 * native) built on first use, the values computed once on the device and
 * their errors against the host's (in the results of every run). */
gboolean      ks_micro_math_prepare    (KsMicroMath        *self,
                                        KsMicroFunction     fn,
                                        gboolean            native,
                                        guint64             n,
                                        guint               iterations,
                                        GError            **error);
/* One timed launch of the timing kernel (iterations evaluations per item). */
gboolean      ks_micro_math_run        (KsMicroMath        *self,
                                        KsMicroMathResult  *out,
                                        GError            **error);

/* --- filter: buffer strategies ------------------------------------------------------ */

typedef enum {
  KS_MICRO_BUFFERS_CREATE,     /* device buffers allocated and freed in every call */
  KS_MICRO_BUFFERS_REUSE,      /* allocated once; written and read every call */
  KS_MICRO_BUFFERS_PINNED,     /* KS_BUFFER_HOST_PINNED, once: the frame copied into the mapped twin */
  KS_MICRO_BUFFERS_ZERO_COPY,  /* KS_BUFFER_ZERO_COPY, once: the kernel reads host memory */
  KS_MICRO_N_BUFFERS
} KsMicroBuffers;

typedef struct _KsMicroFilter KsMicroFilter;

/* One call: the frame in, the filter, the result out.  The phases are
 * waited for one by one, each on the host clock, so they add up to ms. */
typedef struct {
  double  ms;            /* the whole call */
  double  alloc_ms;      /* CREATE: allocating and freeing the buffers */
  double  upload_ms;     /* the frame to the device: a write, or map + copy + unmap */
  double  kernel_ms;     /* the filter, device events */
  double  launch_ms;     /* the filter, launch and wait on the host clock */
  double  download_ms;   /* the result back: a read, or map + copy + unmap */
  guint64 checked;       /* rows compared with the host's filter */
  guint64 wrong;         /* bytes of those rows that differ */
} KsMicroFilterResult;

KsMicroFilter *ks_micro_filter_new        (KsDevice            *device,
                                           GError             **error);
void           ks_micro_filter_free       (KsMicroFilter       *self);
KsDevice      *ks_micro_filter_get_device (KsMicroFilter       *self);
/* A frame of rows x width bytes (generated, the same everywhere), the
 * strategy's buffers where it keeps them.  A device without zero-copy
 * buffers (a discrete GPU through OpenCL) is KS_COMPUTE_ERROR_UNSUPPORTED;
 * one that cannot hold the frame KS_COMPUTE_ERROR_OUT_OF_MEMORY. */
gboolean       ks_micro_filter_prepare    (KsMicroFilter       *self,
                                           KsMicroBuffers       strategy,
                                           guint                rows,
                                           guint                width,
                                           GError             **error);
gboolean       ks_micro_filter_run        (KsMicroFilter       *self,
                                           KsMicroFilterResult *out,
                                           GError             **error);
/* The reference for one row. */
void           ks_micro_filter_host_row   (const guint8        *in,
                                           guint8              *out,
                                           guint                width);

/* --- scale: the memory access pattern ------------------------------------------------ */

typedef enum {
  KS_MICRO_DIRECT,    /* one work-item per row */
  KS_MICRO_GROUPED,   /* one work-item per output byte, neighbours along the row */
} KsMicroMapping;

typedef enum {
  KS_MICRO_EDGE_FUNCTIONS,  /* a clamped function at the ends, a free one inside */
  KS_MICRO_EDGE_PADDING,    /* 4 copies of the end bytes on each side of every row */
  KS_MICRO_EDGE_CLAMPING,   /* every index clamped */
  KS_MICRO_N_EDGES
} KsMicroEdges;

typedef struct _KsMicroScale KsMicroScale;

typedef struct {
  double  kernel_ms;   /* both passes, device events */
  double  wall_ms;     /* both passes, launch and wait on the host clock */
  guint64 wrong;       /* bytes of the result that differ from the host's */
} KsMicroScaleResult;

KsMicroScale *ks_micro_scale_new        (KsDevice           *device,
                                         GError            **error);
void          ks_micro_scale_free       (KsMicroScale       *self);
KsDevice     *ks_micro_scale_get_device (KsMicroScale       *self);
/* An image of width x height bytes (generated, the same everywhere) on
 * the device, padded for PADDING, and the host's result.  Both sides must
 * be even and at least 10 (the taps reach 4 bytes each way), else
 * KS_SOLVER_ERROR_INVALID naming the side. */
gboolean      ks_micro_scale_prepare    (KsMicroScale       *self,
                                         KsMicroMapping      mapping,
                                         KsMicroEdges        edges,
                                         guint               width,
                                         guint               height,
                                         GError            **error);
/* Both passes, timed, and the whole result compared with the host's. */
gboolean      ks_micro_scale_run        (KsMicroScale       *self,
                                         KsMicroScaleResult *out,
                                         GError            **error);
/* After prepare: the input, width x height bytes row-major (the same
 * bytes the device reads, without the padding), and the result of the
 * last run, (width / 2) x (height / 2) (zero before the first), each owned
 * by self and valid until the next prepare; NULL before a prepare. */
const guint8 *ks_micro_scale_peek_input (KsMicroScale       *self,
                                         guint              *width,
                                         guint              *height);
const guint8 *ks_micro_scale_peek_result (KsMicroScale      *self);
/* The reference: width x height to (width / 2) x (height / 2), row-major. */
void          ks_micro_scale_host       (const guint8       *image,
                                         guint               width,
                                         guint               height,
                                         guint8             *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroScale, ks_micro_scale_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroFilter, ks_micro_filter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroMath, ks_micro_math_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroHello, ks_micro_hello_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsMicroLoop, ks_micro_loop_free)

G_END_DECLS
