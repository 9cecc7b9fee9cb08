/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-tridiag-split.c: thomas-split's launch (see the header and
 * kernels/tridiag-split.cl). */
#define G_LOG_DOMAIN "ks-tridiag"

#include "ks-tridiag-split.h"
#include "ks-compute-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Rows a piece holds at most (an item's registers: four arrays of M), by
 * build: 16 first (half the items and a reduced system of half the rows:
 * 0.307 ms against 0.368 for 5,000 x 4095 in float on the H200,
 * data/reference/bench/h200-split-2026-11-28c.txt), 8 where the 16-row
 * build's registers leave its group too few items. */
static const guint piece_rows[] = { 16, 8 };
#define N_BUILDS G_N_ELEMENTS (piece_rows)
/* Groups at most this large, a multiple of the 32 of a warp. */
#define SPLIT_MAX_GROUP 1024u

/* One level of the partition of a system no group holds (see
 * kernels/tridiag-split.cl, tridiag_split_reduce): its rows, its system
 * and its solution; level 0's are the caller's, not owned. */
typedef struct {
  guint     m;
  KsBuffer *in[4];
  KsBuffer *x;
} Level;
#define MAX_LEVELS 12
/* The partition's groups: 256 items of 16 rows, a chunk of 4,096 rows
 * reduced to 512 (fewer items where the kernel's group is smaller). */
#define LEVEL_ROWS  16u
#define LEVEL_ITEMS 256u

/* Builds by [streamed][piece_rows index]: the streamed one first where
 * it is wanted (see kernels/tridiag-split.cl, KS_SPLIT_STREAM). */
struct _KsTridiagSplit
{
  KsRuntime   *rt;
  KsPrecision  precision;
  KsProgram   *program[2][N_BUILDS];
  KsKernel    *kernel[2][N_BUILDS];
  guint        rows;       /* piece_rows[] forced (ks_tridiag_split_set_rows); 0: the smallest that fits */
  int          stream;     /* ks_tridiag_split_set_stream: -1 where the device copies without registers */
  guint        groups;     /* forced groups; 0: as many as the device holds at once (streamed) */
  Level        level[MAX_LEVELS];   /* the partition's, for level_n unknowns */
  guint        n_levels;            /* levels reduced (the last one solved in a group) */
  guint        level_n;
  guint        level_items;
  KsKernel    *reduce, *expand;     /* in the 16-row build's program */
  /* The streamed builds for one group size (-DKS_SPLIT_T: offsets the
   * compiler folds), by piece_rows index, for the last size launched. */
  KsProgram   *fixed_program[N_BUILDS];
  KsKernel    *fixed_kernel[N_BUILDS];
  guint        fixed_items[N_BUILDS];
  int          fixed;               /* KS_SPLIT_FIXED: 1 always, 0 never, else on CUDA (see fixed_for) */
  /* The occupancy last asked of the backend (a CUDA call, per kernel and
   * shape): a launch of the same shape asks nothing. */
  KsKernel    *resident_kernel;
  guint        resident_items;
  guint64      resident_bytes;
  guint        resident;
};

KsTridiagSplit *
ks_tridiag_split_new (KsRuntime   *rt,
                      KsPrecision  precision)
{
  KsTridiagSplit *self = g_new0 (KsTridiagSplit, 1);
  const char *fixed;

  self->rt = ks_runtime_ref (rt);
  self->precision = precision;
  self->stream = -1;
  fixed = g_getenv ("KS_SPLIT_FIXED");
  self->fixed = g_strcmp0 (fixed, "1") == 0 ? 1 : g_strcmp0 (fixed, "0") == 0 ? 0 : -1;
  return self;
}

static void
free_levels (KsTridiagSplit *self)
{
  for (guint k = 1; k <= self->n_levels && k < MAX_LEVELS; k++)
    {
      for (guint i = 0; i < 4; i++)
        g_clear_pointer (&self->level[k].in[i], ks_buffer_unref);
      g_clear_pointer (&self->level[k].x, ks_buffer_unref);
    }
  memset (self->level, 0, sizeof self->level);
  self->n_levels = 0;
  self->level_n = 0;
}

void
ks_tridiag_split_free (KsTridiagSplit *self)
{
  if (self == NULL)
    return;
  for (guint st = 0; st < 2; st++)
    for (guint i = 0; i < N_BUILDS; i++)
      {
        g_clear_pointer (&self->kernel[st][i], ks_kernel_unref);
        g_clear_pointer (&self->program[st][i], ks_program_unref);
      }
  for (guint i = 0; i < N_BUILDS; i++)
    {
      g_clear_pointer (&self->fixed_kernel[i], ks_kernel_unref);
      g_clear_pointer (&self->fixed_program[i], ks_program_unref);
    }
  free_levels (self);
  g_clear_pointer (&self->reduce, ks_kernel_unref);
  g_clear_pointer (&self->expand, ks_kernel_unref);
  g_clear_pointer (&self->rt, ks_runtime_unref);
  g_free (self);
}

/* Items and local bytes for n with pieces of at most m rows in groups of
 * at most max_group (streamed: with the next system's four arrays staged
 * beside): FALSE where they do not fit local bytes. */
static gboolean
shape (guint     n,
       guint     m,
       gsize     max_group,
       guint64   local,
       gsize     real,
       gboolean  streamed,
       guint    *pieces,
       guint    *items,
       guint64  *bytes)
{
  guint64 rows, staged;

  *pieces = (n + m - 1) / m;
  *items = MAX ((*pieces + 31) / 32 * 32, 32u);
  if (*items > max_group)
    *items = *pieces;
  /* The staged system padded to items x m rows (a slot skipped every 32
   * rows), then the reduced one's three arrays of 2 items, twice (PARACR
   * from one copy into the other), with three pads of items
   * (kernels/tridiag-split.cl, split_reduce). */
  staged = (guint64) *items * m + (guint64) *items * m / 32 + 1;
  rows = MAX (staged, 15 * (guint64) *items);
  if (streamed)
    rows += 4 * staged;
  *bytes = rows * real;
  return *pieces <= max_group && *bytes <= local;
}

static guint64
local_budget (KsDevice *device)
{
  const guint64 local = ks_device_get_info (device)->local_mem;

  return local ? local : 48 * 1024;
}

/* The largest n some build's shape takes (shape() holds for every n up
 * to it), for the message. */
static guint
largest_n (gsize   group,
           guint64 local,
           gsize   real)
{
  guint best = 0, pieces, items;
  guint64 bytes;

  for (guint i = 0; i < N_BUILDS; i++)
    {
      guint lo = 0, hi = piece_rows[i] * (guint) group;

      while (lo < hi)
        {
          const guint mid = lo + (hi - lo + 1) / 2;

          if (shape (mid, piece_rows[i], group, local, real, FALSE, &pieces, &items, &bytes))
            lo = mid;
          else
            hi = mid - 1;
        }
      best = MAX (best, lo);
    }
  return best;
}

/* Rows of the level below one of m rows, reduced by groups of `items`
 * items of LEVEL_ROWS rows: two a piece, the last chunk padded. */
static guint64
level_below (guint64 m,
             guint   items)
{
  const guint64 chunk = (guint64) items * LEVEL_ROWS;

  return 2 * (guint64) items * ((m + chunk - 1) / chunk);
}

/* Whether some build puts n unknowns in one group of device. */
static gboolean
fits_group (KsDevice    *device,
            KsPrecision  precision,
            guint64      n)
{
  const gsize group = MIN (MAX (ks_device_get_info (device)->max_work_group_size, 1), SPLIT_MAX_GROUP);
  guint pieces, items;
  guint64 bytes;

  for (guint i = 0; i < N_BUILDS; i++)
    if (n <= G_MAXUINT &&
        shape ((guint) n, piece_rows[i], group, local_budget (device), ks_precision_size (precision), FALSE,
               &pieces, &items, &bytes))
      return TRUE;
  return FALSE;
}

gboolean
ks_tridiag_split_check (KsDevice    *device,
                        KsPrecision  precision,
                        guint        n,
                        guint        systems,
                        GError     **error)
{
  const gsize real = ks_precision_size (precision);
  const gsize group = MIN (MAX (ks_device_get_info (device)->max_work_group_size, 1), SPLIT_MAX_GROUP);
  const guint64 local = local_budget (device);
  guint64 m = n;

  if (fits_group (device, precision, n))
    return TRUE;
  /* One system: partitioned level by level until a level fits a group
   * (groups of at least 32 items shrink every level past 64 rows). */
  if (systems == 1 && group >= 32)
    {
      for (guint k = 0; k < MAX_LEVELS && !fits_group (device, precision, m); k++)
        m = level_below (m, 32);
      if (fits_group (device, precision, m))
        return TRUE;
    }
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("thomas-split puts a system in one work-group: on %s at most %u unknowns in %s (one system "
                 "of any size is partitioned); for %u systems of %u choose thomas-coalesced or paracr-thomas"),
               ks_device_get_name (device), largest_n (group, local, real), ks_precision_to_string (precision),
               systems, n);
  return FALSE;
}

/* Build i's program (streamed or not; for `items` a group, 0: any) and
 * its kernel into *program and *kernel. */
static gboolean
build (KsTridiagSplit  *self,
       gboolean         streamed,
       guint            i,
       guint            items,
       KsProgram      **program,
       KsKernel       **kernel,
       GError         **error)
{
  g_autofree char *fixed = items ? g_strdup_printf (" -DKS_SPLIT_T=%u", items) : g_strdup ("");
  g_autofree char *options = g_strdup_printf ("%s -DKS_SPLIT_M=%u%s%s", self->precision == KS_PRECISION_DOUBLE
                                                                         ? "-DKS_REAL=double -DKS_FP64"
                                                                         : "-DKS_REAL=float",
                                              piece_rows[i], streamed ? " -DKS_SPLIT_STREAM" : "", fixed);

  if (!(*program = ks_runtime_build_program (self->rt, "tridiag-split.cl", options, error)) ||
      !(*kernel = ks_program_create_kernel (*program, "tridiag_split", error)))
    {
      g_clear_pointer (program, ks_program_unref);
      return FALSE;
    }
  return TRUE;
}

static KsKernel *
kernel_for (KsTridiagSplit *self,
            guint           streamed,
            guint           i,
            GError        **error)
{
  if (!self->kernel[streamed][i] &&
      !build (self, streamed, i, 0, &self->program[streamed][i], &self->kernel[streamed][i], error))
    return NULL;
  return self->kernel[streamed][i];
}

/* The streamed build i for groups of `items` (a multiple of 32), or
 * `generic` where it is not wanted or its registers take fewer items.
 * Wanted on CUDA, where the streamed kernel was held by its
 * instructions (1.30 -> 1.17 ms under Nsight Compute at 40,000 x 4095 on
 * the H200); not on a CPU's OpenCL, whose builds cost seconds each
 * (test-tridiag on PoCL: 48 s against 12 with a build for every size).
 * KS_SPLIT_FIXED=1 asks for it everywhere (the tests on PoCL), 0 nowhere
 * (an A/B knob). */
static KsKernel *
fixed_for (KsTridiagSplit *self,
           guint           i,
           guint           items,
           KsKernel       *generic,
           GError        **error)
{
  const gboolean cuda = ks_device_get_backend (ks_runtime_get_device (self->rt)) == KS_BACKEND_CUDA;

  if (!(self->fixed > 0 || (self->fixed < 0 && cuda)) || items % 32 != 0)
    return generic;
  if (self->fixed_items[i] != items)
    {
      g_clear_pointer (&self->fixed_kernel[i], ks_kernel_unref);
      g_clear_pointer (&self->fixed_program[i], ks_program_unref);
      self->fixed_items[i] = 0;
      if (!build (self, TRUE, i, items, &self->fixed_program[i], &self->fixed_kernel[i], error))
        return NULL;
      self->fixed_items[i] = items;
    }
  return ks_kernel_get_max_work_group_size (self->fixed_kernel[i]) >= items ? self->fixed_kernel[i] : generic;
}

/* Whether to stream: where asked, else on CUDA (its cp.async copies
 * without registers; a plain copy gains nothing). */
static gboolean
wants_stream (KsTridiagSplit *self)
{
  if (self->stream >= 0)
    return self->stream > 0;
  return ks_device_get_backend (ks_runtime_get_device (self->rt)) == KS_BACKEND_CUDA;
}

/* The first build (streamed ones first where wanted, then the smallest
 * pieces) whose shape fits the kernel's own group limit (its registers
 * can make it lower than the device's) and local memory. */
static KsKernel *
pick (KsTridiagSplit *self,
      guint           n,
      guint          *pieces,
      guint          *items,
      guint64        *bytes,
      gboolean       *streamed,
      guint          *build_index,
      GError        **error)
{
  const gsize real = ks_precision_size (self->precision);

  for (int st = wants_stream (self) ? 1 : 0; st >= 0; st--)
    {
      const guint64 local = st ? ks_runtime_get_local_mem_limit (self->rt)
                               : local_budget (ks_runtime_get_device (self->rt));

      for (guint i = 0; i < N_BUILDS; i++)
        {
          KsKernel *k;

          if (self->rows && self->rows != piece_rows[i])
            continue;
          if (!(k = kernel_for (self, (guint) st, i, error)))
            return NULL;
          if (shape (n, piece_rows[i], MIN (ks_kernel_get_max_work_group_size (k), SPLIT_MAX_GROUP), local, real,
                     st, pieces, items, bytes))
            {
              *streamed = st;
              *build_index = i;
              return k;
            }
        }
    }
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
               _("thomas-split's kernel takes too small a work-group on %s for systems of %u unknowns; "
                 "choose thomas-coalesced or paracr-thomas"),
               ks_device_get_name (ks_runtime_get_device (self->rt)), n);
  return NULL;
}

/* Groups of kernel's shape one compute unit holds (0: the backend
 * cannot say), asked once per kernel and shape. */
static guint
resident_groups (KsTridiagSplit *self,
                 KsKernel       *kernel,
                 guint           items,
                 guint64         bytes)
{
  if (kernel != self->resident_kernel || items != self->resident_items || bytes != self->resident_bytes)
    {
      self->resident = ks_kernel_get_resident_groups (kernel, items, bytes);
      self->resident_kernel = kernel;
      self->resident_items = items;
      self->resident_bytes = bytes;
    }
  return self->resident;
}

/* Groups for a batch: a system each, or streamed as many as the device
 * holds at once (each then takes every G-th system), or as forced. */
static guint
groups_for (KsTridiagSplit *self,
            KsKernel       *kernel,
            gboolean        streamed,
            guint           items,
            guint64         bytes,
            guint           systems)
{
  guint resident;

  if (self->groups)
    return MIN (self->groups, systems);
  if (!streamed)
    return systems;
  resident = resident_groups (self, kernel, items, bytes) *
             MAX (ks_device_get_info (ks_runtime_get_device (self->rt))->compute_units, 1u);
  return resident ? MIN (resident, systems) : systems;
}

/* Systems that fit one group each: one launch. */
static gboolean
launch_groups (KsTridiagSplit  *self,
               KsQueue         *queue,
               KsBuffer *const *in,
               KsBuffer        *x,
               KsBuffer        *info,
               guint            n,
               guint            systems,
               guint32          scale,
               guint           *local_size,
               GError         **error)
{
  KsLaunchConfig config = { 1 };
  KsKernel *kernel;
  guint pieces = 0, items = 0, arg = 0, i = 0;
  guint64 bytes = 0;
  gboolean streamed = FALSE;

  if (!(kernel = pick (self, n, &pieces, &items, &bytes, &streamed, &i, error)) ||
      (streamed && !(kernel = fixed_for (self, i, items, kernel, error))))
    return FALSE;
  config.local[0] = items;
  config.global[0] = (gsize) groups_for (self, kernel, streamed, items, bytes, systems) * items;
  *local_size = items;
  g_debug ("thomas-split: %u systems of %u, %s, %zu groups of %u items, %u resident a unit (streamed), %" G_GUINT64_FORMAT
           " bytes of local memory", systems, n, streamed ? "streamed" : "a group a system", config.global[0] / items,
           items, streamed ? resident_groups (self, kernel, items, bytes) : 0, bytes);
  for (guint i = 0; i < 4; i++)
    if (!ks_kernel_set_arg_buffer (kernel, arg++, in[i], error))
      return FALSE;
  return ks_kernel_set_arg_buffer (kernel, arg++, x, error) &&
         ks_kernel_set_arg_buffer (kernel, arg++, info, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &n, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &systems, error) &&
         ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &scale, error) &&
         ks_kernel_set_arg_local (kernel, arg++, bytes, error) &&
         ks_queue_launch (queue, kernel, &config, error);
}

/* Whether m unknowns fit one group of the kernels built here. */
static gboolean
fits_kernels (KsTridiagSplit *self,
              guint64         m)
{
  g_autoptr(GError) ignored = NULL;
  guint pieces, items;
  guint64 bytes;
  gboolean streamed;
  guint i;

  return m <= G_MAXUINT && pick (self, (guint) m, &pieces, &items, &bytes, &streamed, &i, &ignored) != NULL;
}

/* The partition's kernels, its groups' items, and its levels for n
 * unknowns (buffers kept while n stays). */
static gboolean
plan_levels (KsTridiagSplit *self,
             guint           n,
             GError        **error)
{
  const gsize real = ks_precision_size (self->precision);
  guint64 m = n;
  gsize group;

  if (self->reduce == NULL &&
      (!kernel_for (self, 0, 0, error) ||
       !(self->reduce = ks_program_create_kernel (self->program[0][0], "tridiag_split_reduce", error)) ||
       !(self->expand = ks_program_create_kernel (self->program[0][0], "tridiag_split_expand", error))))
    return FALSE;
  if (self->level_n == n)
    return TRUE;
  free_levels (self);
  group = MIN (ks_kernel_get_max_work_group_size (self->reduce), ks_kernel_get_max_work_group_size (self->expand));
  self->level_items = MIN (LEVEL_ITEMS, group / 32 * 32);
  while (self->level_items > 32 &&
         ((guint64) self->level_items * LEVEL_ROWS * 33 / 32 + 1) * real > local_budget (ks_runtime_get_device (self->rt)))
    self->level_items -= 32;
  for (guint k = 1; !fits_kernels (self, m); k++)
    {
      if (k >= MAX_LEVELS || self->level_items < 32)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                       _("thomas-split cannot partition %u unknowns on %s; choose paracr-thomas"), n,
                       ks_device_get_name (ks_runtime_get_device (self->rt)));
          free_levels (self);
          return FALSE;
        }
      m = level_below (m, self->level_items);
      self->level[k].m = (guint) m;
      self->n_levels = k;
      for (guint i = 0; i < 5; i++)
        {
          KsBuffer *buffer = ks_runtime_alloc (self->rt, (gsize) m * real, error);

          if (buffer == NULL)
            {
              free_levels (self);
              return FALSE;
            }
          *(i < 4 ? &self->level[k].in[i] : &self->level[k].x) = buffer;
        }
    }
  self->level_n = n;
  return TRUE;
}

/* One launch of reduce (x2 NULL) or expand over level k's system. */
static gboolean
launch_level (KsTridiagSplit *self,
              KsQueue        *queue,
              guint           k,
              KsBuffer       *info,
              GError        **error)
{
  const gsize real = ks_precision_size (self->precision);
  const guint T = self->level_items, m = self->level[k].m;
  KsKernel *kernel = info ? self->reduce : self->expand;
  KsLaunchConfig config = { 1 };
  guint arg = 0;

  config.local[0] = T;
  config.global[0] = (gsize) ((m + (guint64) T * LEVEL_ROWS - 1) / ((guint64) T * LEVEL_ROWS)) * T;
  for (guint i = 0; i < 4; i++)
    if (!ks_kernel_set_arg_buffer (kernel, arg++, self->level[k].in[i], error))
      return FALSE;
  if (info)
    {
      const guint32 scale = (self->level[0].m + m - 1) / m;

      for (guint i = 0; i < 4; i++)
        if (!ks_kernel_set_arg_buffer (kernel, arg++, self->level[k + 1].in[i], error))
          return FALSE;
      if (!ks_kernel_set_arg_buffer (kernel, arg++, info, error) ||
          !ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &m, error) ||
          !ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &scale, error))
        return FALSE;
    }
  else if (!ks_kernel_set_arg_buffer (kernel, arg++, self->level[k + 1].x, error) ||
           !ks_kernel_set_arg_buffer (kernel, arg++, self->level[k].x, error) ||
           !ks_kernel_set_arg (kernel, arg++, sizeof (guint32), &m, error))
    return FALSE;
  return ks_kernel_set_arg_local (kernel, arg++, ((gsize) T * LEVEL_ROWS * 33 / 32 + 1) * real, error) &&
         ks_queue_launch (queue, kernel, &config, error);
}

/* One system no group holds: reduced level by level, the last level
 * solved in a group, then expanded back up (kernels/tridiag-split.cl). */
static gboolean
launch_levels (KsTridiagSplit  *self,
               KsQueue         *queue,
               KsBuffer *const *in,
               KsBuffer        *x,
               KsBuffer        *info,
               guint            n,
               guint           *local_size,
               GError         **error)
{
  guint L;

  if (!plan_levels (self, n, error))
    return FALSE;
  L = self->n_levels;
  self->level[0].m = n;
  for (guint i = 0; i < 4; i++)
    self->level[0].in[i] = in[i];
  self->level[0].x = x;
  for (guint k = 0; k < L; k++)
    if (!launch_level (self, queue, k, info, error))
      return FALSE;
  if (!launch_groups (self, queue, self->level[L].in, self->level[L].x, info, self->level[L].m, 1,
                      (n + self->level[L].m - 1) / self->level[L].m, local_size, error))
    return FALSE;
  for (guint k = L; k-- > 0;)
    if (!launch_level (self, queue, k, NULL, error))
      return FALSE;
  *local_size = self->level_items;
  return TRUE;
}

gboolean
ks_tridiag_split_launch (KsTridiagSplit  *self,
                         KsQueue         *queue,
                         KsBuffer *const *in,
                         KsBuffer        *x,
                         KsBuffer        *info,
                         guint            n,
                         guint            systems,
                         guint           *local_size,
                         GError         **error)
{
  if (systems == 1 && !fits_kernels (self, n))
    return launch_levels (self, queue, in, x, info, n, local_size, error);
  return launch_groups (self, queue, in, x, info, n, systems, 1, local_size, error);
}

void
ks_tridiag_split_set_rows (KsTridiagSplit *self,
                           guint           rows)
{
  self->rows = rows;
}

void
ks_tridiag_split_set_stream (KsTridiagSplit *self,
                             int             stream,
                             guint           groups)
{
  self->stream = stream;
  self->groups = groups;
}

guint64
ks_tridiag_split_time_ns (KsTridiagSplit *self)
{
  guint64 ns = 0;

  for (guint st = 0; st < 2; st++)
    for (guint i = 0; i < N_BUILDS; i++)
      ns += self->kernel[st][i] ? ks_kernel_get_time_ns (self->kernel[st][i]) : 0;
  for (guint i = 0; i < N_BUILDS; i++)
    ns += self->fixed_kernel[i] ? ks_kernel_get_time_ns (self->fixed_kernel[i]) : 0;
  ns += self->reduce ? ks_kernel_get_time_ns (self->reduce) : 0;
  ns += self->expand ? ks_kernel_get_time_ns (self->expand) : 0;
  return ns;
}

void
ks_tridiag_split_reset_timing (KsTridiagSplit *self)
{
  for (guint st = 0; st < 2; st++)
    for (guint i = 0; i < N_BUILDS; i++)
      if (self->kernel[st][i])
        ks_kernel_reset_timing (self->kernel[st][i]);
  for (guint i = 0; i < N_BUILDS; i++)
    if (self->fixed_kernel[i])
      ks_kernel_reset_timing (self->fixed_kernel[i]);
  if (self->reduce)
    ks_kernel_reset_timing (self->reduce);
  if (self->expand)
    ks_kernel_reset_timing (self->expand);
}
