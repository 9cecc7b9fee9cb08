/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-device.h"

#include <glib/gi18n-lib.h>

struct _KsDevice
{
  GObject      parent_instance;
  KsDeviceInfo info;
  gpointer     backend_handle;
  gpointer     platform_handle;
  guint        user_cores_per_cu;
  /* Guards what changes after the device is listed (the preferred multiple
   * learnt by a solver built on a worker thread, the bandwidth measured by
   * a probe on one, the user's cores per unit) against a reader on
   * another thread: the GUI's main thread, an experiment's worker. */
  GMutex       lock;
};

G_DEFINE_FINAL_TYPE (KsDevice, ks_device, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CORES_PER_CU,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
ks_backend_to_string (KsBackend backend)
{
  switch (backend)
    {
    case KS_BACKEND_HOST: return "host";
    case KS_BACKEND_OPENCL: return "opencl";
    case KS_BACKEND_CUDA: return "cuda";
    default: return "unknown";
    }
}

const char *
ks_device_type_to_string (KsDeviceType type)
{
  switch (type)
    {
    case KS_DEVICE_TYPE_CPU: return "CPU";
    case KS_DEVICE_TYPE_GPU: return "GPU";
    case KS_DEVICE_TYPE_ACCELERATOR: return "accelerator";
    default: return "other";
    }
}

const char *
ks_vector_type_to_string (KsVectorType type)
{
  static const char *names[KS_VECTOR_N_TYPES] = {
    "char", "short", "int", "long", "float", "double", "half",
  };

  g_return_val_if_fail (type < KS_VECTOR_N_TYPES, NULL);
  return names[type];
}

static void
ks_device_finalize (GObject *object)
{
  KsDevice *self = KS_DEVICE (object);

  g_free (self->info.id);
  g_free (self->info.name);
  g_free (self->info.vendor);
  g_free (self->info.platform_name);
  g_free (self->info.platform_aliases);
  g_free (self->info.driver_version);
  g_free (self->info.version);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (ks_device_parent_class)->finalize (object);
}

static void
ks_device_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  KsDevice *self = KS_DEVICE (object);

  switch (prop_id)
    {
    case PROP_CORES_PER_CU:
      g_value_set_uint (value, ks_device_get_cores_per_cu (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_device_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  KsDevice *self = KS_DEVICE (object);

  switch (prop_id)
    {
    case PROP_CORES_PER_CU:
      ks_device_set_cores_per_cu (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_device_class_init (KsDeviceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = ks_device_finalize;
  object_class->get_property = ks_device_get_property;
  object_class->set_property = ks_device_set_property;

  /* Writable so the GUI can bind an editable spin button to it. */
  properties[PROP_CORES_PER_CU] =
    g_param_spec_uint ("cores-per-cu", NULL, NULL,
                       0, 1 << 20, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
ks_device_init (KsDevice *self)
{
  self->info.cc_major = -1;
  self->info.cc_minor = -1;
  g_mutex_init (&self->lock);
}

KsDevice *
ks_device_new (const KsDeviceInfo *info,
               gpointer            backend_handle,
               gpointer            platform_handle)
{
  KsDevice *self;

  g_return_val_if_fail (info != NULL, NULL);
  g_return_val_if_fail (info->id != NULL, NULL);

  self = g_object_new (KS_TYPE_DEVICE, NULL);
  self->info = *info;
  if (self->info.table_cores_source == NULL)
    self->info.table_cores_source = N_("unknown");
  self->backend_handle = backend_handle;
  self->platform_handle = platform_handle;
  return self;
}

const KsDeviceInfo *
ks_device_get_info (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);
  return &self->info;
}

const char *
ks_device_get_id (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);
  return self->info.id;
}

const char *
ks_device_get_name (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);
  return self->info.name;
}

KsBackend
ks_device_get_backend (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), KS_BACKEND_HOST);
  return self->info.backend;
}

gpointer
ks_device_get_backend_handle (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);
  return self->backend_handle;
}

gpointer
ks_device_get_platform_handle (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);
  return self->platform_handle;
}

guint
ks_device_get_cores_per_cu (KsDevice *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (self), 0);
  locker = g_mutex_locker_new (&self->lock);
  return self->user_cores_per_cu ? self->user_cores_per_cu : self->info.table_cores_per_cu;
}

const char *
ks_device_get_cores_source (KsDevice *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);
  locker = g_mutex_locker_new (&self->lock);
  return self->user_cores_per_cu ? N_("set by the user") : self->info.table_cores_source;
}

void
ks_device_set_cores_per_cu (KsDevice *self,
                            guint     cores_per_cu)
{
  g_return_if_fail (KS_IS_DEVICE (self));

  g_mutex_lock (&self->lock);
  if (self->user_cores_per_cu == cores_per_cu)
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  self->user_cores_per_cu = cores_per_cu;
  g_mutex_unlock (&self->lock);
  /* Outside the lock: a handler may read the device again. */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CORES_PER_CU]);
}

void
ks_device_set_preferred_multiple (KsDevice *self,
                                  gsize     multiple)
{
  g_return_if_fail (KS_IS_DEVICE (self));
  g_mutex_lock (&self->lock);
  self->info.preferred_multiple = multiple;
  g_mutex_unlock (&self->lock);
}

gsize
ks_device_get_preferred_multiple (KsDevice *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (self), 0);
  locker = g_mutex_locker_new (&self->lock);
  return self->info.preferred_multiple;
}

void
ks_device_set_bandwidth (KsDevice *self,
                         double    gbs)
{
  g_return_if_fail (KS_IS_DEVICE (self));
  g_mutex_lock (&self->lock);
  self->info.bandwidth_gbs = gbs;
  g_mutex_unlock (&self->lock);
}

double
ks_device_get_bandwidth (KsDevice *self)
{
  g_autoptr(GMutexLocker) locker = NULL;

  g_return_val_if_fail (KS_IS_DEVICE (self), 0);
  locker = g_mutex_locker_new (&self->lock);
  return self->info.bandwidth_gbs;
}

char *
ks_device_describe (KsDevice *self)
{
  g_return_val_if_fail (KS_IS_DEVICE (self), NULL);

  return g_strdup_printf ("%s (%s, %s %s)",
                          self->info.name,
                          self->info.id,
                          self->info.platform_name ? self->info.platform_name : "",
                          self->info.driver_version ? self->info.driver_version : "");
}
