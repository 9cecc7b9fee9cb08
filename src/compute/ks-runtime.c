/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-runtime.c: runtimes, programs, kernels, buffers and the timers; the
 * queues, transfers and launches are in ks-runtime-queue.c, graphs in
 * ks-runtime-graph.c. */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-runtime-private.h"
#include "ks-compute-error.h"
#include "ks-kernel-source.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

KsRuntime *
ks_runtime_new (KsDevice  *device,
                GError   **error)
{
  g_autofree KsRuntime *rt = NULL;
  gboolean ok = FALSE;

  g_return_val_if_fail (KS_IS_DEVICE (device), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  rt = g_new0 (KsRuntime, 1);
  g_atomic_ref_count_init (&rt->ref);
  rt->device = g_object_ref (device);
  rt->pending = g_array_new (FALSE, FALSE, sizeof (KsPendingEvent));
  rt->timers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  rt->queues = g_ptr_array_new ();
  g_mutex_init (&rt->lock);
  rt->queue = g_new0 (KsQueue, 1);
  g_atomic_ref_count_init (&rt->queue->ref);
  rt->queue->rt = rt;
  rt->queue->is_default = TRUE;
  g_ptr_array_add (rt->queues, rt->queue);
  /* The backend may raise it (CUDA's opt-in shared memory). */
  rt->local_mem_limit = ks_device_get_info (device)->local_mem;

  switch (ks_device_get_backend (device))
    {
    case KS_BACKEND_OPENCL:
      ok = ks_opencl_runtime_init (rt, error);
      break;
#ifdef KS_HAVE_CUDA
    case KS_BACKEND_CUDA:
      ok = ks_cuda_runtime_init (rt, error);
      break;
#endif
    case KS_BACKEND_HOST:
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("The host backend runs plain C + OpenMP, not kernels: it has no runtime, "
                     "queues or device buffers (use an OpenCL device, such as PoCL on this CPU, "
                     "for kernels from kernels/)"));
      break;
    default:
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("The %s backend does not run kernels from kernels/"),
                   ks_backend_to_string (ks_device_get_backend (device)));
      break;
    }
  if (ok)
    return g_steal_pointer (&rt);

  g_free (rt->queue);
  g_ptr_array_unref (rt->queues);
  g_mutex_clear (&rt->lock);
  g_hash_table_unref (rt->timers);
  g_array_unref (rt->pending);
  g_object_unref (rt->device);
  return NULL;
}

void
ks_runtime_free_events (KsRuntime *rt,
                        GArray    *events,
                        gboolean   owns_kernels)
{
  /* Copied out first: the last unref of a kernel walks rt->pending, never
   * this array, but keep the array consistent while it runs anyway. */
  g_autoptr(GArray) copy = g_array_copy (events);

  g_array_set_size (events, 0);
  for (guint i = 0; i < copy->len; i++)
    {
      KsPendingEvent *pe = &g_array_index (copy, KsPendingEvent, i);

      if (pe->event)
        rt->vtable->event_free (pe->event);
      if (owns_kernels && pe->kernel)
        ks_kernel_unref (pe->kernel);
    }
}

KsRuntime *
ks_runtime_ref (KsRuntime *rt)
{
  g_return_val_if_fail (rt != NULL, NULL);
  g_atomic_ref_count_inc (&rt->ref);
  return rt;
}

void
ks_runtime_unref (KsRuntime *rt)
{
  if (rt == NULL || !g_atomic_ref_count_dec (&rt->ref))
    return;

  ks_runtime_discard_timings (rt);
  ks_runtime_pace_reset (rt);
  g_array_unref (rt->pending);
  g_hash_table_unref (rt->timers);
  if (rt->capture_events)
    {
      ks_runtime_free_events (rt, rt->capture_events, TRUE);
      g_array_unref (rt->capture_events);
    }
  g_clear_pointer (&rt->capture_programs, g_ptr_array_unref);
  /* Every other queue held a reference: only the default one is left. */
  g_assert (rt->queues->len == 1);
  rt->vtable->queue_free (rt->queue);
  g_free (rt->queue);
  g_ptr_array_unref (rt->queues);
  g_mutex_clear (&rt->lock);
  rt->vtable->runtime_free (rt);
  g_object_unref (rt->device);
  g_free (rt);
}

KsDevice *
ks_runtime_get_device (KsRuntime *rt)
{
  g_return_val_if_fail (rt != NULL, NULL);
  return rt->device;
}

guint64
ks_runtime_get_local_mem_limit (KsRuntime *rt)
{
  g_return_val_if_fail (rt != NULL, 0);
  return rt->local_mem_limit;
}

/* --- programs ---------------------------------------------------------------- */

typedef struct {
  const char *source_name;
  const char *expanded;
} Locating;

static gboolean
locate_cb (const GMatchInfo *match,
           GString          *out,
           gpointer          data)
{
  const Locating *l = data;
  g_autofree char *name = g_match_info_fetch (match, 1);
  g_autofree char *number = g_match_info_fetch (match, 2);
  g_autofree char *file = NULL;
  guint line = 0;

  if (ks_kernel_source_locate (l->expanded, (guint) g_ascii_strtoull (number, NULL, 10), &file, &line))
    g_string_append_printf (out, "%s:%u", file, line);
  else
    g_string_append_printf (out, "%s:%s", l->source_name, number);
  return FALSE;
}

/* Compilers that honour #line name the real files already.  PoCL compiles
 * a copy in its cache (".../pocl-cache/tempfile_Ab12Cd.cl:5:3:"),
 * Oclgrind calls it "input.cl" (others "<kernel>"): their line numbers count the expanded
 * text, which the #line marks map back to the file and line the user
 * edits. */
static void
name_the_source (GError     *error,
                 const char *source_name,
                 const char *expanded)
{
  g_autoptr(GRegex) other = g_regex_new ("(<kernel>|<source>|[^\\s:'\"(]*(?:tempfile_[A-Za-z0-9_]+|input)\\.cl):([0-9]+)",
                                         0, 0, NULL);
  Locating l = { source_name, expanded };
  char *named = other ? g_regex_replace_eval (other, error->message, -1, 0, 0, locate_cb, &l, NULL)
                      : NULL;

  if (named != NULL)
    {
      g_free (error->message);
      error->message = named;
    }
}

KsProgram *
ks_runtime_build_program (KsRuntime  *rt,
                          const char *source_name,
                          const char *options,
                          GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(KsProgram) program = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (rt != NULL, NULL);
  g_return_val_if_fail (source_name != NULL, NULL);

  if (!(text = ks_kernel_source_load_expanded (source_name, error)))
    return NULL;

  program = g_new0 (KsProgram, 1);
  g_atomic_ref_count_init (&program->ref);
  program->rt = ks_runtime_ref (rt);
  if (!rt->vtable->build_program (rt, program, source_name, text, strlen (text),
                                  options ? options : "", &local_error))
    {
      /* The build log is the whole point of the message: keep it. */
      if (g_error_matches (local_error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_BUILD_FAILED))
        name_the_source (local_error, source_name, text);
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", source_name);
      return NULL;
    }
  return g_steal_pointer (&program);
}

KsProgram *
ks_program_ref (KsProgram *program)
{
  g_return_val_if_fail (program != NULL, NULL);
  g_atomic_ref_count_inc (&program->ref);
  return program;
}

void
ks_program_unref (KsProgram *program)
{
  if (program == NULL || !g_atomic_ref_count_dec (&program->ref))
    return;
  if (program->handle)
    program->rt->vtable->program_free (program);
  g_free (program->build_log);
  ks_runtime_unref (program->rt);
  g_free (program);
}

/* --- kernels ----------------------------------------------------------------- */

KsKernel *
ks_program_create_kernel (KsProgram  *program,
                          const char *name,
                          GError    **error)
{
  KsKernel *kernel;

  g_return_val_if_fail (program != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  kernel = g_new0 (KsKernel, 1);
  g_atomic_ref_count_init (&kernel->ref);
  kernel->program = ks_program_ref (program);
  kernel->name = (char *) g_intern_string (name);
  kernel->args = g_array_new (FALSE, TRUE, sizeof (KsArgState));
  if (!program->rt->vtable->create_kernel (program, kernel, error))
    {
      /* The backend may have made its handle before a later query failed. */
      if (kernel->handle)
        program->rt->vtable->kernel_free (kernel);
      g_free (kernel->param_sizes);
      g_array_unref (kernel->args);
      ks_program_unref (kernel->program);
      g_free (kernel);
      return NULL;
    }
  if (kernel->n_params > 0)
    g_array_set_size (kernel->args, kernel->n_params);
  return kernel;
}

KsKernel *
ks_kernel_ref (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  g_atomic_ref_count_inc (&kernel->ref);
  return kernel;
}

void
ks_kernel_unref (KsKernel *kernel)
{
  KsRuntime *rt;

  if (kernel == NULL || !g_atomic_ref_count_dec (&kernel->ref))
    return;

  /* Never leave a dangling kernel pointer in the pending list. */
  rt = kernel->program->rt;
  for (guint i = rt->pending->len; i > 0; i--)
    {
      KsPendingEvent *pe = &g_array_index (rt->pending, KsPendingEvent, i - 1);
      if (pe->kernel == kernel)
        {
          if (pe->event)
            rt->vtable->event_free (pe->event);
          g_array_remove_index (rt->pending, i - 1);
        }
    }

  if (kernel->handle)
    rt->vtable->kernel_free (kernel);
  g_free (kernel->param_sizes);
  g_array_unref (kernel->args);
  ks_program_unref (kernel->program);
  g_free (kernel);
}

const char *
ks_kernel_get_name (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  return kernel->name;
}

const KsKernelInfo *
ks_kernel_get_info (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  return &kernel->info;
}

gsize
ks_kernel_get_max_work_group_size (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->info.max_work_group_size;
}

void
ks_kernel_set_waits_previous (KsKernel *kernel,
                              gboolean  waits)
{
  g_return_if_fail (kernel != NULL);
  kernel->waits_previous = waits;
}

gsize
ks_kernel_get_preferred_multiple (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->info.preferred_multiple;
}

gsize
ks_kernel_get_suggested_local_size (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->info.suggested_local;
}

guint
ks_kernel_get_resident_groups (KsKernel *kernel,
                               gsize     local_size,
                               gsize     local_bytes)
{
  const KsRuntimeVTable *vtable;

  g_return_val_if_fail (kernel != NULL && local_size > 0, 0);
  vtable = kernel->program->rt->vtable;
  return vtable->resident_groups ? vtable->resident_groups (kernel, local_size, local_bytes) : 0;
}

/* The index is one of the kernel's parameters, and a value's size is the
 * parameter's where the backend knows it (OpenCL's clSetKernelArg checks
 * both itself; CUDA's launch would read past a short value). */
static gboolean
check_param (KsKernel  *kernel,
             guint      index,
             gsize      size,
             GError   **error)
{
  if (kernel->n_params > 0 && index >= kernel->n_params)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("Kernel %s has %u arguments: there is no argument %u"),
                   kernel->name, kernel->n_params, index);
      return FALSE;
    }
  if (size > 0 && kernel->param_sizes != NULL && index < kernel->n_params &&
      kernel->param_sizes[index] != size)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                   _("Argument %u of kernel %s takes %lu bytes, not %lu"),
                   index, kernel->name, (unsigned long) kernel->param_sizes[index], (unsigned long) size);
      return FALSE;
    }
  return TRUE;
}

/* Records what the backend accepted. */
static gboolean
arg_was_set (KsKernel *kernel,
             guint     index,
             gsize     local)
{
  KsArgState *a;

  if (index >= kernel->args->len)
    g_array_set_size (kernel->args, index + 1);
  a = &g_array_index (kernel->args, KsArgState, index);
  a->set = TRUE;
  a->local = local;
  return TRUE;
}

gboolean
ks_kernel_set_arg (KsKernel   *kernel,
                   guint       index,
                   gsize       size,
                   const void *value,
                   GError    **error)
{
  g_return_val_if_fail (kernel != NULL, FALSE);
  g_return_val_if_fail (size > 0 && value != NULL, FALSE);
  return check_param (kernel, index, size, error) &&
         kernel->program->rt->vtable->set_arg (kernel, index, size, value, error) &&
         arg_was_set (kernel, index, 0);
}

gboolean
ks_kernel_set_arg_buffer (KsKernel  *kernel,
                          guint      index,
                          KsBuffer  *buffer,
                          GError   **error)
{
  g_return_val_if_fail (kernel != NULL, FALSE);
  g_return_val_if_fail (buffer != NULL, FALSE);
  g_return_val_if_fail (buffer->rt == kernel->program->rt, FALSE);
  return check_param (kernel, index, sizeof (void *), error) &&
         kernel->program->rt->vtable->set_arg_buffer (kernel, index, buffer, error) &&
         arg_was_set (kernel, index, 0);
}

gboolean
ks_kernel_set_arg_local (KsKernel  *kernel,
                         guint      index,
                         gsize      size,
                         GError   **error)
{
  KsRuntime *rt;

  g_return_val_if_fail (kernel != NULL, FALSE);
  g_return_val_if_fail (size > 0, FALSE);

  rt = kernel->program->rt;
  if (rt->local_mem_limit && size > rt->local_mem_limit)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("Argument %u of %s asks for %lu bytes of local memory; %s has %lu per group"),
                   index, kernel->name, (unsigned long) size, ks_device_get_name (rt->device),
                   (unsigned long) rt->local_mem_limit);
      return FALSE;
    }
  /* A local argument is an offset (CUDA) or a pointer (OpenCL): no size check. */
  return check_param (kernel, index, 0, error) &&
         rt->vtable->set_arg_local (kernel, index, size, error) &&
         arg_was_set (kernel, index, size);
}

gboolean
ks_kernel_check_args (KsKernel  *kernel,
                      GError   **error)
{
  KsRuntime *rt = kernel->program->rt;
  guint64 local = kernel->info.local_mem_bytes;
  guint n = MAX (kernel->n_params, kernel->args->len);

  for (guint i = 0; i < n; i++)
    {
      const KsArgState *a = i < kernel->args->len ? &g_array_index (kernel->args, KsArgState, i) : NULL;

      if (a == NULL || !a->set)
        {
          g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_FAILED,
                       _("Launching %s: argument %u was never set"), kernel->name, i);
          return FALSE;
        }
      local += a->local;
    }
  /* The sum, not each argument alone: OpenCL would say CL_OUT_OF_RESOURCES. */
  if (rt->local_mem_limit && local > rt->local_mem_limit)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("%s needs %lu bytes of local memory per group (%lu of its own, the rest for local "
                     "arguments); %s has %lu"),
                   kernel->name, (unsigned long) local, (unsigned long) kernel->info.local_mem_bytes,
                   ks_device_get_name (rt->device), (unsigned long) rt->local_mem_limit);
      return FALSE;
    }
  return TRUE;
}

guint64
ks_kernel_get_time_ns (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->time_ns;
}

guint
ks_kernel_get_launches (KsKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, 0);
  return kernel->launches;
}

void
ks_kernel_reset_timing (KsKernel *kernel)
{
  g_return_if_fail (kernel != NULL);
  kernel->time_ns = 0;
  kernel->launches = 0;
}

/* --- buffers ----------------------------------------------------------------- */

KsBuffer *
ks_runtime_alloc_full (KsRuntime     *rt,
                       gsize          size,
                       KsBufferFlags  flags,
                       GError       **error)
{
  const KsDeviceInfo *info;
  KsBuffer *buffer;

  g_return_val_if_fail (rt != NULL, NULL);
  g_return_val_if_fail (size > 0, NULL);
  g_return_val_if_fail ((flags & KS_BUFFER_READ_ONLY) == 0 || (flags & KS_BUFFER_WRITE_ONLY) == 0, NULL);
  g_return_val_if_fail ((flags & KS_BUFFER_HOST_PINNED) == 0 || (flags & KS_BUFFER_ZERO_COPY) == 0, NULL);

  info = ks_device_get_info (rt->device);
  if (info->max_alloc && size > info->max_alloc)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY,
                   _("A buffer of %.1f MiB does not fit on %s: the largest allocation it allows is %.1f MiB"),
                   size / 1048576.0, info->name, info->max_alloc / 1048576.0);
      return NULL;
    }

  buffer = g_new0 (KsBuffer, 1);
  g_atomic_ref_count_init (&buffer->ref);
  buffer->rt = ks_runtime_ref (rt);
  buffer->size = size;
  buffer->flags = flags;
  if (!rt->vtable->alloc (rt, buffer, error))
    {
      ks_runtime_unref (buffer->rt);
      g_free (buffer);
      return NULL;
    }
  return buffer;
}

KsBuffer *
ks_runtime_alloc (KsRuntime  *rt,
                  gsize       size,
                  GError    **error)
{
  return ks_runtime_alloc_full (rt, size, KS_BUFFER_READ_WRITE, error);
}

KsBuffer *
ks_buffer_new_view (KsBuffer  *buffer,
                    gsize      offset,
                    gsize      size,
                    GError   **error)
{
  KsBuffer *root, *view;
  gsize align;

  g_return_val_if_fail (buffer != NULL, NULL);
  g_return_val_if_fail (size > 0 && offset <= buffer->size && size <= buffer->size - offset, NULL);

  /* A view of a view is a view of the root: OpenCL has no sub-buffer of a
   * sub-buffer. */
  root = buffer->parent ? buffer->parent : buffer;
  offset += buffer->offset;
  align = ks_device_get_info (buffer->rt->device)->mem_base_addr_align;
  if (ks_device_get_backend (buffer->rt->device) == KS_BACKEND_OPENCL && align > 1 && offset % align != 0)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("A view at byte %lu of a buffer: %s places views only at multiples of %lu bytes"),
                   (unsigned long) offset, ks_device_get_name (buffer->rt->device), (unsigned long) align);
      return NULL;
    }

  view = g_new0 (KsBuffer, 1);
  g_atomic_ref_count_init (&view->ref);
  view->rt = ks_runtime_ref (buffer->rt);
  view->parent = ks_buffer_ref (root);
  view->offset = offset;
  view->size = size;
  view->flags = root->flags;
  if (!buffer->rt->vtable->view (view, error))
    {
      ks_buffer_unref (view->parent);
      ks_runtime_unref (view->rt);
      g_free (view);
      return NULL;
    }
  return view;
}

KsBuffer *
ks_buffer_ref (KsBuffer *buffer)
{
  g_return_val_if_fail (buffer != NULL, NULL);
  g_atomic_ref_count_inc (&buffer->ref);
  return buffer;
}

void
ks_buffer_unref (KsBuffer *buffer)
{
  if (buffer == NULL || !g_atomic_ref_count_dec (&buffer->ref))
    return;
  if (buffer->maps != NULL)
    g_warning ("A buffer of %lu bytes was freed while still mapped", (unsigned long) buffer->size);
  /* buffer_free also drops the backend's map records (and host copies). */
  if (buffer->handle)
    buffer->rt->vtable->buffer_free (buffer);
  if (buffer->parent)
    ks_buffer_unref (buffer->parent);
  ks_runtime_unref (buffer->rt);
  g_free (buffer);
}

gsize
ks_buffer_get_size (KsBuffer *buffer)
{
  g_return_val_if_fail (buffer != NULL, 0);
  return buffer->size;
}

KsBufferFlags
ks_buffer_get_flags (KsBuffer *buffer)
{
  g_return_val_if_fail (buffer != NULL, 0);
  return buffer->flags;
}

/* --- timing -------------------------------------------------------------------- */

void
ks_runtime_add_pending (KsRuntime  *rt,
                        KsKernel   *kernel,
                        const char *timer,
                        gpointer    event)
{
  KsPendingEvent pe = { kernel, timer ? g_intern_string (timer) : NULL, event };
  g_array_append_val (rt->pending, pe);
}

gboolean
ks_runtime_collect_timings (KsRuntime  *rt,
                            GError    **error)
{
  g_autofree guint64 *times = NULL;

  g_return_val_if_fail (rt != NULL, FALSE);

  if (!ks_runtime_finish (rt, error))
    {
      ks_runtime_discard_timings (rt);
      return FALSE;
    }

  /* Every time is read before any is added: a failure half-way leaves
   * the kernels and timers as they were, not partly updated. */
  times = g_new0 (guint64, rt->pending->len + 1);
  for (guint i = 0; i < rt->pending->len; i++)
    if (!rt->vtable->event_elapsed_ns (rt, g_array_index (rt->pending, KsPendingEvent, i).event,
                                       &times[i], error))
      {
        ks_runtime_discard_timings (rt);
        return FALSE;
      }
  for (guint i = 0; i < rt->pending->len; i++)
    {
      KsPendingEvent *pe = &g_array_index (rt->pending, KsPendingEvent, i);
      KsTimer *timer;
      const guint64 ns = times[i];

      if (pe->kernel)
        {
          pe->kernel->time_ns += ns;
          pe->kernel->launches++;
        }
      if (pe->timer == NULL)
        continue;
      if (!(timer = g_hash_table_lookup (rt->timers, pe->timer)))
        g_hash_table_insert (rt->timers, (gpointer) pe->timer, (timer = g_new0 (KsTimer, 1)));
      timer->ns += ns;
      timer->count++;
    }
  ks_runtime_discard_timings (rt);
  return TRUE;
}

void
ks_runtime_discard_timings (KsRuntime *rt)
{
  g_return_if_fail (rt != NULL);

  for (guint i = 0; i < rt->pending->len; i++)
    {
      KsPendingEvent *pe = &g_array_index (rt->pending, KsPendingEvent, i);
      if (pe->event)
        rt->vtable->event_free (pe->event);
    }
  g_array_set_size (rt->pending, 0);
}

void
ks_runtime_set_timing (KsRuntime *rt,
                       gboolean   timing)
{
  g_return_if_fail (rt != NULL);
  rt->untimed = !timing;
}

gboolean
ks_runtime_get_timer (KsRuntime  *rt,
                      const char *name,
                      guint64    *out_ns,
                      guint      *out_count)
{
  KsTimer *timer;

  g_return_val_if_fail (rt != NULL && name != NULL, FALSE);

  timer = g_hash_table_lookup (rt->timers, g_intern_string (name));
  if (out_ns)
    *out_ns = timer ? timer->ns : 0;
  if (out_count)
    *out_count = timer ? timer->count : 0;
  return timer != NULL;
}

static int
compare_names (const void *a,
               const void *b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

char **
ks_runtime_list_timers (KsRuntime *rt)
{
  g_autofree const char **names = NULL;
  char **copy;
  guint n = 0;

  g_return_val_if_fail (rt != NULL, NULL);

  names = (const char **) g_hash_table_get_keys_as_array (rt->timers, &n);
  copy = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    copy[i] = g_strdup (names[i]);
  qsort (copy, n, sizeof (char *), compare_names);
  return copy;
}

void
ks_runtime_reset_timers (KsRuntime *rt)
{
  g_return_if_fail (rt != NULL);
  g_hash_table_remove_all (rt->timers);
}

/* --- pacing -------------------------------------------------------------------- */

gboolean
ks_runtime_pace (KsRuntime  *rt,
                 GError    **error)
{
  gpointer mark;

  g_return_val_if_fail (rt != NULL, FALSE);
  if (rt->capturing)
    return TRUE;
  if (rt->marks[0] != NULL)
    {
      gpointer older = g_steal_pointer (&rt->marks[0]);
      gboolean ok = rt->vtable->marker_wait (rt, older, error);

      rt->vtable->marker_free (older);
      if (!ok)
        return FALSE;
    }
  if (!(mark = rt->vtable->marker (rt->queue, error)))
    return FALSE;
  rt->marks[0] = rt->marks[1];
  rt->marks[1] = mark;
  return TRUE;
}

void
ks_runtime_pace_reset (KsRuntime *rt)
{
  g_return_if_fail (rt != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (rt->marks); i++)
    if (rt->marks[i] != NULL)
      rt->vtable->marker_free (g_steal_pointer (&rt->marks[i]));
}
