/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-cuda-runtime.c: the CUDA backend of ks-runtime.h, through the CUDA
 * runtime API: a queue is a non-blocking stream, a marker an event, a
 * program a cudaLibrary of NVRTC's cubin.  Every call's status is checked
 * but releases', which have nothing left to report to. */
#define G_LOG_DOMAIN "ks-cuda"

#include "ks-cuda.h"
#include "ks-cuda-private.h"
#include "ks-compute-error.h"
#include "ks-runtime-private.h"

#include <cuda.h>
#include <glib/gi18n-lib.h>
#include <string.h>

KsCudaRuntime *
ks_cuda_rt (KsRuntime *rt)
{
  return rt->backend_data;
}

cudaStream_t
ks_cuda_stream (KsQueue *queue)
{
  return queue->handle;
}

/* The runtime API's current device is per thread, and the sweep engine runs
 * in a worker thread: say which device before each call that needs it. */
gboolean
ks_cuda_use_device (KsRuntime *rt,
                    GError   **error)
{
  return ks_cuda_check (cudaSetDevice (ks_cuda_rt (rt)->ordinal), "Selecting the CUDA device", error);
}

KsCudaTimer *
ks_cuda_timer_take (KsCudaRuntime *c,
                    GError       **error)
{
  KsCudaTimer *t;

  if (c->timer_pool->len > 0)
    return g_ptr_array_steal_index_fast (c->timer_pool, c->timer_pool->len - 1);

  t = g_new0 (KsCudaTimer, 1);
  t->owner = c;
  if (!ks_cuda_check (cudaEventCreate (&t->start), "Creating a timing event", error))
    {
      g_free (t);
      return NULL;
    }
  if (!ks_cuda_check (cudaEventCreate (&t->end), "Creating a timing event", error))
    {
      cudaEventDestroy (t->start);
      g_free (t);
      return NULL;
    }
  return t;
}

void
ks_cuda_timer_give_back (KsCudaTimer *t)
{
  if (t)
    g_ptr_array_add (t->owner->timer_pool, t);
}

/* Each local-memory argument starts at a multiple of this in the launch's
 * dynamic shared memory: enough for any vector type. */
#define LOCAL_ALIGN 16

typedef struct {
  cudaLibrary_t library;
  /* ks_global_offset[6] of cuda-prelude.h: the launch's global offset,
   * then its true global size (the grid is padded); NULL: none. */
  size_t       *offset_symbol;
  size_t        geometry[6];     /* what it holds now, if geometry_epoch is the runtime's */
  guint         geometry_epoch;
} KsCudaProgram;

/* Arguments are kept by value until a launch, which copies them. */
typedef struct {
  gsize   size;     /* of value; 0: not set */
  gsize   local;    /* > 0: a local-memory argument of that many bytes */
  guint8 *value;
} KsCudaArg;

typedef struct {
  cudaKernel_t fn;
  GArray      *args;         /* of KsCudaArg, by index */
  gsize        dynamic_max;  /* cudaFuncAttributeMaxDynamicSharedMemorySize set so far; 0: the default */
} KsCudaKernel;

static void
timer_free (gpointer data)
{
  KsCudaTimer *t = data;

  cudaEventDestroy (t->start);
  cudaEventDestroy (t->end);
  g_free (t);
}

static void
cuda_runtime_free (KsRuntime *rt)
{
  KsCudaRuntime *c = ks_cuda_rt (rt);

  g_ptr_array_unref (c->timer_pool);
  g_free (c);
}

static gboolean
cuda_queue_new (KsRuntime *rt,
                KsQueue   *queue,
                GError   **error)
{
  cudaStream_t stream = NULL;

  if (!ks_cuda_use_device (rt, error) ||
      !ks_cuda_check (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking), "Opening a CUDA stream", error))
    return FALSE;
  queue->handle = stream;
  return TRUE;
}

static void
cuda_queue_free (KsQueue *queue)
{
  cudaSetDevice (ks_cuda_rt (queue->rt)->ordinal);
  cudaStreamSynchronize (queue->handle);
  cudaStreamDestroy (queue->handle);
}

static gboolean
cuda_build_program (KsRuntime  *rt,
                    KsProgram  *program,
                    const char *source_name,
                    const char *source,
                    gsize       length,
                    const char *options,
                    GError    **error)
{
  const KsDeviceInfo *info = ks_device_get_info (rt->device);
  g_autoptr(GBytes) cubin = NULL;
  g_autofree KsCudaProgram *p = g_new0 (KsCudaProgram, 1);
  void *symbol = NULL;
  size_t symbol_size = 0;

  if (!ks_cuda_use_device (rt, error) ||
      !(cubin = ks_cuda_compile (source_name, source, length, options, info->cc_major, info->cc_minor,
                                 &program->build_log, error)))
    return FALSE;
  if (!ks_cuda_check (cudaLibraryLoadData (&p->library, g_bytes_get_data (cubin, NULL), NULL, NULL, 0,
                                           NULL, NULL, 0),
                      "Loading the compiled kernels", error))
    return FALSE;
  /* The prelude defines it in a program built with -DKS_GLOBAL_OFFSET;
   * other programs take no offsets (get_global_id stays free of a load). */
  if (cudaLibraryGetGlobal (&symbol, &symbol_size, p->library, "ks_global_offset") == cudaSuccess &&
      symbol_size == 6 * sizeof (size_t))
    p->offset_symbol = symbol;
  else
    (void) cudaGetLastError ();
  program->handle = g_steal_pointer (&p);
  return TRUE;
}

static void
cuda_program_free (KsProgram *program)
{
  KsCudaProgram *p = program->handle;

  cudaLibraryUnload (p->library);
  g_free (p);
}

static void
arg_clear (gpointer data)
{
  KsCudaArg *a = data;
  g_clear_pointer (&a->value, g_free);
}

static gboolean
cuda_create_kernel (KsProgram  *program,
                    KsKernel   *kernel,
                    GError    **error)
{
  const KsDeviceInfo *info = ks_device_get_info (program->rt->device);
  KsCudaProgram *p = program->handle;
  KsCudaKernel *k;
  struct cudaFuncAttributes attr;
  cudaKernel_t fn = NULL;
  cudaError_t status;

  /* The attributes and the occupancy are per device, and the current
   * device is per thread: a sweep's worker thread may not be on ours. */
  if (!ks_cuda_use_device (program->rt, error))
    return FALSE;
  status = cudaLibraryGetKernel (&fn, p->library, kernel->name);
  if (status != cudaSuccess)
    {
      (void) cudaGetLastError ();
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED,
                   _("The program has no usable kernel %s (%s)"), kernel->name, cudaGetErrorName (status));
      return FALSE;
    }
  if (!ks_cuda_check (cudaFuncGetAttributes (&attr, (const void *) fn), "Reading a kernel's limits", error))
    return FALSE;

  k = g_new0 (KsCudaKernel, 1);
  k->fn = fn;
  k->args = g_array_new (FALSE, TRUE, sizeof (KsCudaArg));
  g_array_set_clear_func (k->args, arg_clear);
  kernel->handle = k;
  kernel->info.max_work_group_size = attr.maxThreadsPerBlock;
  kernel->info.preferred_multiple = info->warp_size ? info->warp_size : 32;
  kernel->info.local_mem_bytes = attr.sharedSizeBytes;
  kernel->info.private_mem_bytes = attr.localSizeBytes;
  kernel->info.registers = attr.numRegs;
  kernel->info.suggested_local = ks_cuda_occupancy_block_size (fn, attr.maxThreadsPerBlock,
                                                       (int) kernel->info.preferred_multiple);
  ks_cuda_read_params (fn, kernel);
  return TRUE;
}

static void
cuda_kernel_free (KsKernel *kernel)
{
  KsCudaKernel *k = kernel->handle;

  g_array_unref (k->args);
  g_free (k);
}

static KsCudaArg *
arg_slot (KsKernel *kernel,
          guint     index)
{
  KsCudaKernel *k = kernel->handle;

  if (index >= k->args->len)
    g_array_set_size (k->args, index + 1);
  return &g_array_index (k->args, KsCudaArg, index);
}

static gboolean
cuda_set_arg (KsKernel   *kernel,
              guint       index,
              gsize       size,
              const void *value,
              GError    **error)
{
  KsCudaArg *a = arg_slot (kernel, index);

  if (a->size != size)
    {
      g_free (a->value);
      a->value = g_malloc (size);
      a->size = size;
    }
  memcpy (a->value, value, size);
  a->local = 0;
  return TRUE;
}

static gboolean
cuda_set_arg_local (KsKernel  *kernel,
                    guint      index,
                    gsize      size,
                    GError   **error)
{
  KsCudaArg *a = arg_slot (kernel, index);

  /* The value, an offset into the dynamic shared memory, is laid out at
   * launch: another local argument may still change size. */
  g_clear_pointer (&a->value, g_free);
  a->size = sizeof (size_t);
  a->local = size;
  return TRUE;
}

static gboolean
cuda_set_arg_buffer (KsKernel  *kernel,
                     guint      index,
                     KsBuffer  *buffer,
                     GError   **error)
{
  void *ptr = buffer->handle;
  return cuda_set_arg (kernel, index, sizeof ptr, &ptr, error);
}

/* CUDA's grid is counted in blocks, OpenCL's range in items: round up, and
 * let the kernels' bounds tests drop the padding.  No local size is the
 * DRIVER policy; CUDA has no driver choice, so it takes the occupancy API's
 * block size, capped at the range rounded up to a warp (a 1024-thread block
 * for a 102-column row would leave 90% of it idle), in dimension 0. */
static gboolean
launch_shape (KsKernel             *kernel,
              const KsLaunchConfig *config,
              dim3                 *grid,
              dim3                 *block,
              GError              **error)
{
  const gsize warp = MAX (kernel->info.preferred_multiple, 1);
  const gsize *global = config->global;
  const gsize sms = ks_device_get_info (kernel->program->rt->device)->compute_units;
  gsize b[3] = { 1, 1, 1 }, g[3] = { 1, 1, 1 };
  gboolean has_local = FALSE;
  static const gsize grid_limit[3] = { G_MAXINT32, 65535, 65535 };

  for (guint d = 0; d < config->dims; d++)
    has_local |= config->local[d] != 0;
  for (guint d = 0; d < config->dims; d++)
    {
      if (has_local)
        b[d] = config->local[d];
      else if (d == 0)
        {
          b[d] = MIN (kernel->info.suggested_local ? kernel->info.suggested_local : warp,
                      (global[0] + warp - 1) / warp * warp);
          /* A short 1D range in blocks of the occupancy's size leaves most
           * SMs idle (micro-access's direct scheme: 1080 rows in 2 blocks
           * of 1024 on the H200's 132 SMs, 4x slower than NVIDIA's OpenCL,
           * whose driver picks small groups): narrower blocks, in whole
           * warps, until every SM has one. */
          if (config->dims == 1 && sms > 0)
            {
              const gsize per_sm = ((global[0] + sms - 1) / sms + warp - 1) / warp * warp;
              b[d] = MAX (MIN (b[d], per_sm), MIN (warp, b[d]));
            }
        }
      else if (global[d] > grid_limit[d])
        /* OpenCL takes 65,536 rows along y with one item per group in y;
         * CUDA's grid stops at 65,535 blocks there, so the block grows in
         * that dimension instead (micro-access's 65,536-row image). */
        b[d] = (global[d] + grid_limit[d] - 1) / grid_limit[d];
    }
  if (!has_local && kernel->info.max_work_group_size > 0 &&
      b[0] * b[1] * b[2] > kernel->info.max_work_group_size)
    {
      /* Narrower in x, in whole warps where it can, to stay within the
       * kernel's threads per block. */
      gsize room = MAX (kernel->info.max_work_group_size / (b[1] * b[2]), 1);
      b[0] = room >= warp ? room / warp * warp : room;
    }
  for (guint d = 0; d < config->dims; d++)
    {
      g[d] = (global[d] + b[d] - 1) / b[d];
      if (g[d] > grid_limit[d])
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE,
                       _("%s: %lu blocks in dimension %u, CUDA allows %lu"),
                       kernel->name, (unsigned long) g[d], d, (unsigned long) grid_limit[d]);
          return FALSE;
        }
    }
  *grid = (dim3) { (unsigned) g[0], (unsigned) g[1], (unsigned) g[2] };
  *block = (dim3) { (unsigned) b[0], (unsigned) b[1], (unsigned) b[2] };
  return TRUE;
}

/* Up to sharedMemPerBlock every kernel may; beyond it (up to the opt-in
 * maximum, rt->local_mem_limit) only a kernel that asked, once. */
static gboolean
opt_in (KsRuntime *rt,
        KsKernel  *kernel,
        gsize      shared,
        GError   **error)
{
  KsCudaKernel *k = kernel->handle;
  const KsDeviceInfo *info = ks_device_get_info (rt->device);

  if (shared + kernel->info.local_mem_bytes > info->local_mem &&
      shared + kernel->info.local_mem_bytes <= rt->local_mem_limit && shared > k->dynamic_max)
    {
      if (!ks_cuda_check (cudaFuncSetAttribute ((const void *) k->fn,
                                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared),
                          "Opting in to more shared memory", error))
        return FALSE;
      k->dynamic_max = shared;
    }
  return TRUE;
}

/* The occupancy calculator counts a block asking for more dynamic shared
 * memory than the kernel opted in to as not fitting at all: opt in first. */
static guint
cuda_resident_groups (KsKernel *kernel,
                      gsize     local_size,
                      gsize     local_bytes)
{
  KsCudaKernel *k = kernel->handle;
  KsRuntime *rt = kernel->program->rt;
  int blocks = 0;

  if (!ks_cuda_use_device (rt, NULL) || !opt_in (rt, kernel, local_bytes, NULL) ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor (&blocks, (const void *) k->fn, (int) local_size,
                                                     local_bytes) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return 0;
    }
  return (guint) MAX (blocks, 0);
}

/* The pointers cudaLaunchKernel wants, one per argument, with each local
 * argument's offset into the dynamic shared memory (in offsets[]). */
static gboolean
launch_args (KsRuntime  *rt,
             KsKernel   *kernel,
             void      **ptrs,
             size_t     *offsets,
             gsize      *out_shared,
             GError    **error)
{
  KsCudaKernel *k = kernel->handle;
  const KsDeviceInfo *info = ks_device_get_info (rt->device);
  gsize shared = 0;

  for (guint i = 0; i < k->args->len; i++)
    {
      KsCudaArg *a = &g_array_index (k->args, KsCudaArg, i);

      if (a->size == 0)   /* ks_kernel_check_args said so already; kept as a guard */
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                       "Launching %s: argument %u was never set", kernel->name, i);
          return FALSE;
        }
      if (a->local == 0)
        {
          ptrs[i] = a->value;
          continue;
        }
      shared = (shared + LOCAL_ALIGN - 1) / LOCAL_ALIGN * LOCAL_ALIGN;
      offsets[i] = shared;
      ptrs[i] = &offsets[i];
      shared += a->local;
    }
  if (!opt_in (rt, kernel, shared, error))
    return FALSE;
  if (shared + kernel->info.local_mem_bytes > MAX (info->local_mem, rt->local_mem_limit))
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%s needs %lu bytes of shared memory per block (%lu of its own, %lu for local "
                     "arguments); %s has %lu"),
                   kernel->name, (unsigned long) (shared + kernel->info.local_mem_bytes),
                   (unsigned long) kernel->info.local_mem_bytes, (unsigned long) shared,
                   info->name, (unsigned long) MAX (info->local_mem, rt->local_mem_limit));
      return FALSE;
    }
  *out_shared = shared;
  return TRUE;
}

/* OpenCL's global offset and true global size on CUDA: the prelude's
 * ks_global_offset, which every launch of the program reads.  With one
 * queue in the runtime the words that change are set by cuMemsetD32Async
 * on the launch's stream: ordered after the launches before and before this
 * one, no host wait, and recordable into a graph (memset nodes).  With
 * several queues another one may be running the program: then the change
 * waits for every queue and is refused inside a capture, where nothing can
 * wait. */
static gboolean
set_geometry (KsQueue              *queue,
              KsKernel             *kernel,
              const KsLaunchConfig *config,
              GError              **error)
{
  KsRuntime *rt = queue->rt;
  KsCudaProgram *p = kernel->program->handle;
  KsCudaMemsetD32Fn d32 = ks_cuda_memset_d32 ();
  size_t want[6] = { 0, 0, 0, 1, 1, 1 };
  gboolean offset = FALSE, alone, known;

  for (guint d = 0; d < config->dims; d++)
    {
      want[d] = config->offset[d];
      want[3 + d] = config->global[d];
      offset |= config->offset[d] != 0;
    }
  if (p->offset_symbol == NULL)
    {
      if (!offset)
        return TRUE;
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s: on CUDA a global offset needs the program built with -DKS_GLOBAL_OFFSET "
                     "(CUDA has none of its own; the prelude then reads one from constant memory)"),
                   kernel->name);
      return FALSE;
    }
  /* An epoch behind: what the device holds is unknown, every word is written. */
  known = p->geometry_epoch == ks_cuda_rt (rt)->geometry_epoch;
  if (known && memcmp (want, p->geometry, sizeof want) == 0)
    return TRUE;

  g_mutex_lock (&rt->lock);
  alone = rt->queues->len == 1;
  g_mutex_unlock (&rt->lock);
  if (alone && d32 != NULL)
    {
      const guint32 *words = (const guint32 *) want, *had = (const guint32 *) p->geometry;

      for (guint i = 0; i < 2 * G_N_ELEMENTS (want); i++)   /* 32-bit words */
        if ((!known || words[i] != had[i]) &&
            d32 ((CUdeviceptr) (guintptr) ((guint32 *) p->offset_symbol + i), words[i], 1,
                 (CUstream) ks_cuda_stream (queue)) != CUDA_SUCCESS)
          {
            g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                         "%s: setting the global offset and size failed", kernel->name);
            return FALSE;
          }
    }
  else if (rt->capturing)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s: a new global offset or size cannot be set while a CUDA graph is being "
                     "recorded with more than one queue open"),
                   kernel->name);
      return FALSE;
    }
  else if (!ks_runtime_finish (rt, error) ||
           !ks_cuda_check (cudaMemcpy (p->offset_symbol, want, sizeof want, cudaMemcpyHostToDevice),
                           "Setting the global offset", error))
    return FALSE;
  memcpy (p->geometry, want, sizeof want);
  p->geometry_epoch = ks_cuda_rt (rt)->geometry_epoch;
  return TRUE;
}

/* A plain launch, or for a kernel that waits for its predecessor itself
 * one that may start while the predecessor finishes (programmatic stream
 * serialization).  Not while recording a graph, where it is a programmatic
 * edge: the fused CG's three kernels ran faster so from a stream (1.05 M
 * rows 0.0793 -> 0.0763 ms an iteration on an H200) but slower from a graph
 * (0.0757 -> 0.0791; 4.2 M rows 0.253 -> 0.280), whose launches cost little
 * already.  data/reference/bench/h200-pdl-2026-11-29.txt has the runs. */
static cudaError_t
launch_kernel (KsRuntime     *rt,
               KsCudaRuntime *c,
               KsKernel      *kernel,
               dim3           grid,
               dim3           block,
               void         **ptrs,
               gsize          shared,
               cudaStream_t   s)
{
  const void *fn = ((KsCudaKernel *) kernel->handle)->fn;
  cudaLaunchAttribute early = { .id = cudaLaunchAttributeProgrammaticStreamSerialization };
  cudaLaunchConfig_t config = { .gridDim = grid, .blockDim = block, .dynamicSmemBytes = shared,
                                .stream = s, .attrs = &early, .numAttrs = 1 };

  if (!kernel->waits_previous || !(rt->capturing ? c->early_in_graph : c->early_launch))
    return cudaLaunchKernel (fn, grid, block, ptrs, shared, s);
  early.val.programmaticStreamSerializationAllowed = 1;
  return cudaLaunchKernelExC (&config, fn, ptrs);
}

static gboolean
cuda_launch (KsQueue              *queue,
             KsKernel             *kernel,
             const KsLaunchConfig *config,
             gpointer             *out_event,
             GError              **error)
{
  KsRuntime *rt = queue->rt;
  KsCudaRuntime *c = ks_cuda_rt (rt);
  KsCudaKernel *k = kernel->handle;
  cudaStream_t s = ks_cuda_stream (queue);
  KsCudaTimer *t = NULL;
  /* In a capture with graph kernel timing the pair becomes two event
   * record nodes of the graph (external, so a replay records them). */
  gboolean in_graph = rt->capturing && rt->graph_kernel_timing;
  gboolean timed = (!rt->untimed && !rt->capturing) || in_graph;
  const unsigned flags = in_graph ? cudaEventRecordExternal : cudaEventRecordDefault;
  void **ptrs = g_newa (void *, k->args->len + 1);
  size_t *offsets = g_newa (size_t, k->args->len + 1);
  gsize shared = 0;
  dim3 grid, block;
  cudaError_t status;

  /* The device first: launch_args may set a per-device kernel attribute. */
  if (!launch_shape (kernel, config, &grid, &block, error) ||
      !ks_cuda_use_device (rt, error) ||
      !launch_args (rt, kernel, ptrs, offsets, &shared, error) ||
      !set_geometry (queue, kernel, config, error))
    return FALSE;

  if (timed && !(t = ks_cuda_timer_take (c, error)))
    return FALSE;
  if (t && !ks_cuda_check (cudaEventRecordWithFlags (t->start, s, flags), "Recording a timing event", error))
    {
      ks_cuda_timer_give_back (t);
      return FALSE;
    }

  if (c->fail_after && ++c->launches > c->fail_after)
    status = cudaErrorDevicesUnavailable;
  else
    status = launch_kernel (rt, c, kernel, grid, block, ptrs, shared, s);
  if (status != cudaSuccess)
    {
      g_autofree char *what = g_strdup_printf ("Launching %s with %u x %u x %u blocks of %u x %u x %u",
                                               kernel->name, grid.x, grid.y, grid.z,
                                               block.x, block.y, block.z);
      ks_cuda_timer_give_back (t);
      return ks_cuda_check (status, what, error);
    }
  if (t && !ks_cuda_check (cudaEventRecordWithFlags (t->end, s, flags), "Recording a timing event", error))
    {
      ks_cuda_timer_give_back (t);
      return FALSE;
    }
  *out_event = t;
  return TRUE;
}

static gboolean
cuda_finish (KsQueue *queue,
             GError **error)
{
  return ks_cuda_use_device (queue->rt, error) &&
         ks_cuda_check (cudaStreamSynchronize (ks_cuda_stream (queue)), "Waiting for the device", error);
}

/* Markers are timed events unless the runtime is untimed: an untimed
 * event costs less, and an untimed solve paces itself with them. */
static gpointer
cuda_marker (KsQueue *queue,
             GError **error)
{
  cudaEvent_t event = NULL;

  if (!ks_cuda_use_device (queue->rt, error) ||
      !ks_cuda_check (cudaEventCreateWithFlags (&event, queue->rt->untimed ? cudaEventDisableTiming
                                                                           : cudaEventDefault),
                      "Marking the stream", error))
    return NULL;
  if (!ks_cuda_check (cudaEventRecord (event, ks_cuda_stream (queue)), "Marking the stream", error))
    {
      cudaEventDestroy (event);
      return NULL;
    }
  return event;
}

static gboolean
cuda_marker_wait (KsRuntime *rt,
                  gpointer   marker,
                  GError   **error)
{
  return ks_cuda_check (cudaEventSynchronize (marker), "Waiting for the device", error);
}

static gboolean
cuda_queue_wait (KsQueue  *queue,
                 gpointer  marker,
                 GError  **error)
{
  return ks_cuda_use_device (queue->rt, error) &&
         ks_cuda_check (cudaStreamWaitEvent (ks_cuda_stream (queue), marker, 0),
                        "Ordering a stream after another", error);
}

static gboolean
cuda_marker_elapsed_ns (KsRuntime *rt,
                        gpointer   from,
                        gpointer   to,
                        guint64   *out_ns,
                        GError   **error)
{
  float ms = 0.0f;

  if (!ks_cuda_check (cudaEventElapsedTime (&ms, from, to), "Reading a device time", error))
    return FALSE;
  *out_ns = ms > 0.0f ? (guint64) (ms * 1e6) : 0;
  return TRUE;
}

static void
cuda_marker_free (gpointer marker)
{
  cudaEventDestroy (marker);
}

static gboolean
cuda_event_elapsed_ns (KsRuntime *rt,
                       gpointer   event,
                       guint64   *out_ns,
                       GError   **error)
{
  KsCudaTimer *t = event;
  return cuda_marker_elapsed_ns (rt, t->start, t->end, out_ns, error);
}

static void
cuda_event_free (gpointer event)
{
  ks_cuda_timer_give_back (event);
}

static gboolean
cuda_capture_begin (KsRuntime *rt,
                    GError   **error)
{
  /* The graph must set every program's geometry itself. */
  ks_cuda_rt (rt)->geometry_epoch++;
  /* Thread-local: another thread's unrelated CUDA call must not break the capture. */
  return ks_cuda_use_device (rt, error) &&
         ks_cuda_check (cudaStreamBeginCapture (ks_cuda_stream (rt->queue), cudaStreamCaptureModeThreadLocal),
                        "Starting to record a CUDA graph", error);
}

static gpointer
cuda_capture_end (KsRuntime *rt,
                  GError   **error)
{
  cudaStream_t s = ks_cuda_stream (rt->queue);
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  gboolean ok;

  /* The recorded geometry writes have not run: the host's copy is stale. */
  ks_cuda_rt (rt)->geometry_epoch++;
  if (!ks_cuda_check (cudaStreamEndCapture (s, &graph), "Recording a CUDA graph", error))
    return NULL;
  ok = ks_cuda_check (cudaGraphInstantiate (&exec, graph, 0), "Instantiating the CUDA graph", error);
  cudaGraphDestroy (graph);
  /* Without the upload here, the first replay would pay it: a one-off cost
   * that belongs with the capture, not with a replay's time. */
  if (ok && !(ks_cuda_check (cudaGraphUpload (exec, s), "Uploading the CUDA graph", error) &&
              ks_cuda_check (cudaStreamSynchronize (s), "Uploading the CUDA graph", error)))
    {
      cudaGraphExecDestroy (exec);
      return NULL;
    }
  return ok ? exec : NULL;
}

/* A capture that failed or was cancelled half-way: leave capture mode
 * (the stream is unusable in it) and drop what was recorded, without the
 * instantiation and upload a graph that will never run would cost. */
static void
cuda_capture_abort (KsRuntime *rt)
{
  cudaGraph_t graph = NULL;

  ks_cuda_rt (rt)->geometry_epoch++;
  cudaSetDevice (ks_cuda_rt (rt)->ordinal);
  if (cudaStreamEndCapture (ks_cuda_stream (rt->queue), &graph) != cudaSuccess)
    (void) cudaGetLastError ();
  if (graph)
    cudaGraphDestroy (graph);
}

static gboolean
cuda_graph_launch (KsRuntime *rt,
                   gpointer   graph,
                   gpointer  *out_event,
                   GError   **error)
{
  cudaStream_t s = ks_cuda_stream (rt->queue);
  KsCudaTimer *t = NULL;

  if (!ks_cuda_use_device (rt, error))
    return FALSE;
  /* The replay may set the programs' geometry to what it recorded. */
  ks_cuda_rt (rt)->geometry_epoch++;
  if (out_event && !(t = ks_cuda_timer_take (ks_cuda_rt (rt), error)))
    return FALSE;
  if ((t && !ks_cuda_check (cudaEventRecord (t->start, s), "Recording a timing event", error)) ||
      !ks_cuda_check (cudaGraphLaunch (graph, s), "Replaying the CUDA graph", error) ||
      (t && !ks_cuda_check (cudaEventRecord (t->end, s), "Recording a timing event", error)))
    {
      ks_cuda_timer_give_back (t);
      return FALSE;
    }
  if (t)
    *out_event = t;
  return TRUE;
}

static void
cuda_graph_free (gpointer graph)
{
  cudaGraphExecDestroy (graph);
}

static const KsRuntimeVTable cuda_vtable = {
  .runtime_free = cuda_runtime_free,
  .queue_new = cuda_queue_new,
  .queue_free = cuda_queue_free,
  .build_program = cuda_build_program,
  .program_free = cuda_program_free,
  .create_kernel = cuda_create_kernel,
  .kernel_free = cuda_kernel_free,
  .set_arg = cuda_set_arg,
  .set_arg_local = cuda_set_arg_local,
  .set_arg_buffer = cuda_set_arg_buffer,
  .alloc = ks_cuda_alloc,
  .view = ks_cuda_view,
  .buffer_free = ks_cuda_buffer_free,
  .write = ks_cuda_write,
  .read = ks_cuda_read,
  .copy = ks_cuda_copy,
  .fill = ks_cuda_fill,
  .map = ks_cuda_map,
  .unmap = ks_cuda_unmap,
  .launch = cuda_launch,
  .finish = cuda_finish,
  .event_elapsed_ns = cuda_event_elapsed_ns,
  .event_free = cuda_event_free,
  .marker = cuda_marker,
  .marker_wait = cuda_marker_wait,
  .queue_wait = cuda_queue_wait,
  .marker_elapsed_ns = cuda_marker_elapsed_ns,
  .marker_free = cuda_marker_free,
  .capture_begin = cuda_capture_begin,
  .capture_end = cuda_capture_end,
  .capture_abort = cuda_capture_abort,
  .graph_launch = cuda_graph_launch,
  .graph_free = cuda_graph_free,
  .resident_groups = cuda_resident_groups,
};

gboolean
ks_cuda_runtime_init (KsRuntime *rt,
                      GError   **error)
{
  g_autofree KsCudaRuntime *c = g_new0 (KsCudaRuntime, 1);
  const char *fail_after;

  c->ordinal = ks_cuda_device_ordinal (rt->device);
  rt->backend_data = c;
  if (!cuda_queue_new (rt, rt->queue, error))
    {
      rt->backend_data = NULL;
      return FALSE;
    }
  c->timer_pool = g_ptr_array_new_with_free_func (timer_free);
  {
    int optin = 0;

    /* The H200's ~227 KiB against sharedMemPerBlock's 48: a launch that
     * needs more opts in (launch_args). */
    if (cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, c->ordinal) == cudaSuccess &&
        (guint64) optin > rt->local_mem_limit)
      rt->local_mem_limit = (guint64) optin;
    else
      (void) cudaGetLastError ();
  }

  c->early_launch = ks_device_get_info (rt->device)->cc_major >= 9 && g_strcmp0 (g_getenv ("KS_PDL"), "0") != 0;
  c->early_in_graph = c->early_launch && g_strcmp0 (g_getenv ("KS_PDL"), "graph") == 0;
  fail_after = g_getenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS");
  if (fail_after)
    c->fail_after = (guint) g_ascii_strtoull (fail_after, NULL, 10);

  rt->vtable = &cuda_vtable;
  rt->backend_data = g_steal_pointer (&c);
  return TRUE;
}
