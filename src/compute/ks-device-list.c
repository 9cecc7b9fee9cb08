/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-device-list.h"
#include "ks-compute-error.h"
#include "ks-host.h"
#include "ks-opencl.h"
#ifdef KS_HAVE_CUDA
#include "ks-cuda.h"
#endif
#include "ks-runtime.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _KsDeviceList
{
  GObject    parent_instance;
  GPtrArray *devices;
  GPtrArray *notes;   /* NULL-terminated strv */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KsDeviceList, ks_device_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return KS_TYPE_DEVICE;
}

static guint
get_n_items (GListModel *model)
{
  return KS_DEVICE_LIST (model)->devices->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  KsDeviceList *self = KS_DEVICE_LIST (model);

  if (position >= self->devices->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->devices, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
ks_device_list_finalize (GObject *object)
{
  KsDeviceList *self = KS_DEVICE_LIST (object);

  g_ptr_array_unref (self->devices);
  g_ptr_array_unref (self->notes);
  G_OBJECT_CLASS (ks_device_list_parent_class)->finalize (object);
}

static void
ks_device_list_class_init (KsDeviceListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ks_device_list_finalize;
}

static void
ks_device_list_init (KsDeviceList *self)
{
  self->devices = g_ptr_array_new_with_free_func (g_object_unref);
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

gboolean
ks_device_probe_preferred_multiple (KsDevice  *device,
                                    GError   **error)
{
  g_autoptr(KsRuntime) rt = NULL;
  g_autoptr(KsProgram) program = NULL;
  g_autoptr(KsKernel) kernel = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (device), FALSE);

  if (ks_device_get_backend (device) == KS_BACKEND_HOST)
    return TRUE;

  if (!(rt = ks_runtime_new (device, error)) ||
      !(program = ks_runtime_build_program (rt, "probe.cl", NULL, error)) ||
      !(kernel = ks_program_create_kernel (program, "ks_probe", error)))
    return FALSE;

  ks_device_set_preferred_multiple (device, ks_kernel_get_preferred_multiple (kernel));
  return TRUE;
}

KsDeviceList *
ks_device_list_new (void)
{
  KsDeviceList *self = g_object_new (KS_TYPE_DEVICE_LIST, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *note = NULL;
  guint first_opencl;

  /* OpenCL devices first: they are what the experiments are about. */
  first_opencl = self->devices->len;
  if (ks_opencl_enumerate (self->devices, &note, &error))
    g_ptr_array_add (self->notes, g_strdup_printf (_("OpenCL: %s"), note));
  else
    g_ptr_array_add (self->notes, g_strdup_printf (_("OpenCL: %s"), error->message));
  g_clear_error (&error);

  for (guint i = first_opencl; i < self->devices->len; i++)
    {
      KsDevice *device = g_ptr_array_index (self->devices, i);

      if (!ks_device_probe_preferred_multiple (device, &error))
        {
          g_ptr_array_add (self->notes,
                           g_strdup_printf ("%s: could not build the probe kernel: %s",
                                            ks_device_get_id (device), error->message));
          g_clear_error (&error);
        }
    }

#ifdef KS_HAVE_CUDA
  ks_cuda_enumerate (self->devices, self->notes);
#else
  g_ptr_array_add (self->notes, g_strdup (_("CUDA: not built into this binary (meson option cuda)")));
#endif

  g_ptr_array_add (self->devices, ks_host_device_new ());
  g_ptr_array_add (self->notes, g_strdup (_("Host: plain C + OpenMP on this CPU")));
  g_ptr_array_add (self->notes, NULL);

  return self;
}

guint
ks_device_list_get_n_devices (KsDeviceList *self)
{
  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), 0);
  return self->devices->len;
}

KsDevice *
ks_device_list_get_device (KsDeviceList *self,
                           guint         index)
{
  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), NULL);
  g_return_val_if_fail (index < self->devices->len, NULL);
  return g_ptr_array_index (self->devices, index);
}

const char * const *
ks_device_list_get_notes (KsDeviceList *self)
{
  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), NULL);
  return (const char * const *) self->notes->pdata;
}

static gboolean
name_matches (KsDevice   *device,
              const char *query)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  g_autofree char *q = g_ascii_strdown (query, -1);
  g_autofree char *haystack = g_ascii_strdown (info->name, -1);
  g_autofree char *platform = g_ascii_strdown (info->platform_name, -1);

  return strstr (haystack, q) != NULL || strstr (platform, q) != NULL;
}

KsDevice *
ks_device_list_lookup (KsDeviceList *self,
                       const char   *query,
                       GError      **error)
{
  g_autoptr(GString) available = g_string_new (NULL);
  KsDevice *match = NULL;
  guint n_matches = 0;
  char *end = NULL;
  guint64 index;

  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  for (guint i = 0; i < self->devices->len; i++)
    {
      KsDevice *device = g_ptr_array_index (self->devices, i);
      if (g_ascii_strcasecmp (ks_device_get_id (device), query) == 0)
        return device;
    }

  index = g_ascii_strtoull (query, &end, 10);
  if (end != query && *end == '\0')
    {
      if (index < self->devices->len)
        return g_ptr_array_index (self->devices, index);
    }
  else
    {
      for (guint i = 0; i < self->devices->len; i++)
        {
          KsDevice *device = g_ptr_array_index (self->devices, i);
          if (name_matches (device, query))
            {
              if (match == NULL)
                match = device;
              n_matches++;
            }
        }
      if (n_matches == 1)
        return match;
    }

  for (guint i = 0; i < self->devices->len; i++)
    {
      KsDevice *device = g_ptr_array_index (self->devices, i);
      g_string_append_printf (available, "\n  %u  %-14s %s", i, ks_device_get_id (device),
                              ks_device_get_name (device));
    }
  g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE,
               n_matches > 1 ? _("\"%s\" matches more than one device; use its id. Devices:%s")
                             : _("No device \"%s\" on this machine. Devices:%s"),
               query, available->str);
  return NULL;
}

KsDevice *
ks_device_list_find_backend (KsDeviceList *self,
                             KsBackend     backend)
{
  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), NULL);

  for (guint i = 0; i < self->devices->len; i++)
    {
      KsDevice *device = g_ptr_array_index (self->devices, i);
      if (ks_device_get_backend (device) == backend)
        return device;
    }
  return NULL;
}

KsDevice *
ks_device_list_get_default (KsDeviceList *self,
                            const char  **out_reason)
{
  KsDevice *device;

  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), NULL);

  for (guint i = 0; i < self->devices->len; i++)
    {
      KsDevice *d = g_ptr_array_index (self->devices, i);
      if (ks_device_get_info (d)->type == KS_DEVICE_TYPE_GPU)
        {
          if (out_reason)
            *out_reason = "the first GPU";
          return d;
        }
    }
  if ((device = ks_device_list_find_backend (self, KS_BACKEND_OPENCL)))
    {
      if (out_reason)
        *out_reason = "no GPU found: the first OpenCL device (the CPU through PoCL)";
      return device;
    }
  if (out_reason)
    *out_reason = "no OpenCL device found: the host backend (plain C + OpenMP)";
  return ks_device_list_find_backend (self, KS_BACKEND_HOST);
}
