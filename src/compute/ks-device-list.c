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

/* A word that names a kind of device rather than one: its backend
 * ("opencl", "cuda", "host") or its type ("cpu", "gpu"). */
static gboolean
kind_matches (KsDevice   *device,
              const char *query)
{
  return g_ascii_strcasecmp (ks_backend_to_string (ks_device_get_backend (device)), query) == 0 ||
         g_ascii_strcasecmp (ks_device_type_to_string (ks_device_get_info (device)->type), query) == 0;
}

static gboolean
contains (const char *text,
          const char *lower_query)
{
  g_autofree char *lower = text ? g_ascii_strdown (text, -1) : NULL;

  return lower != NULL && strstr (lower, lower_query) != NULL;
}

/* Part of what a user may call the device: its name, its vendor, its
 * platform's name, vendor and ICD suffix (PoCL 3's platform is "Portable
 * Computing Language": "pocl" is in its vendor and suffix only). */
static gboolean
name_matches (KsDevice   *device,
              const char *query)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  g_autofree char *q = g_ascii_strdown (query, -1);

  return contains (info->name, q) || contains (info->vendor, q) || contains (info->platform_name, q) ||
         contains (info->platform_aliases, q);
}

/* One line per device of devices: its index in the list, id and name. */
static void
append_devices (GString      *s,
                KsDeviceList *self,
                GPtrArray    *devices)
{
  for (guint i = 0; i < devices->len; i++)
    {
      KsDevice *device = g_ptr_array_index (devices, i);
      guint index = 0;

      g_ptr_array_find (self->devices, device, &index);
      g_string_append_printf (s, "\n  %u  %-14s %s", index, ks_device_get_id (device),
                              ks_device_get_name (device));
    }
}

/* The devices for which match (device, query) holds. */
static GPtrArray *
filter (KsDeviceList *self,
        const char   *query,
        gboolean    (*match) (KsDevice *, const char *))
{
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < self->devices->len; i++)
    if (match (g_ptr_array_index (self->devices, i), query))
      g_ptr_array_add (found, g_ptr_array_index (self->devices, i));
  return found;
}

const char *
ks_device_list_lookup_rule (void)
{
  return _("A device is named by its id (opencl:0:0, cuda:0, host), by its index in the device\n"
           "list, by a kind (opencl, cuda, host, cpu, gpu) when one device is of that kind, or by\n"
           "part of its name, its vendor or its platform's name, vendor or ICD suffix (pocl, nvidia,\n"
           "H200), case-insensitive. A kind is tried before a part of a name; a name that fits\n"
           "several devices is refused with their ids.");
}

KsDevice *
ks_device_list_lookup (KsDeviceList *self,
                       const char   *query,
                       GError      **error)
{
  g_autoptr(GString) available = g_string_new (NULL);
  g_autoptr(GPtrArray) matches = NULL;
  g_autofree char *q = NULL;
  char *end = NULL;
  guint64 index;

  g_return_val_if_fail (KS_IS_DEVICE_LIST (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  append_devices (available, self, self->devices);
  q = g_strstrip (g_strdup (query));
  /* "" is part of every name: it used to say "more than one device". */
  if (*q == '\0')
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE,
                   _("The device name is empty: name a device by its id, index or part of its name. "
                     "Devices:%s"), available->str);
      return NULL;
    }

  for (guint i = 0; i < self->devices->len; i++)
    {
      KsDevice *device = g_ptr_array_index (self->devices, i);
      if (g_ascii_strcasecmp (ks_device_get_id (device), q) == 0)
        return device;
    }

  index = g_ascii_strtoull (q, &end, 10);
  if (end != q && *end == '\0')
    {
      if (index < self->devices->len)
        return g_ptr_array_index (self->devices, index);
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE,
                   _("No device %s: the list has %u. Devices:%s"), q, self->devices->len, available->str);
      return NULL;
    }

  matches = filter (self, q, kind_matches);
  if (matches->len == 0)
    {
      g_ptr_array_unref (matches);
      matches = filter (self, q, name_matches);
    }
  if (matches->len == 1)
    return g_ptr_array_index (matches, 0);

  if (matches->len > 1)
    {
      g_autoptr(GString) which = g_string_new (NULL);

      append_devices (which, self, matches);
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE,
                   _("\"%s\" matches %u devices; name one by its id:%s"), q, matches->len, which->str);
    }
  else
    g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_NO_DEVICE,
                 _("No device \"%s\" on this machine. Devices:%s"), q, available->str);
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
