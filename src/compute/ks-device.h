/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-device.h: one compute device of any backend, with the properties the
 * experiments need.  Plain data lives in KsDeviceInfo; the GObject carries the
 * user's override of cores per compute unit and the backend's handle. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  KS_BACKEND_HOST,    /* plain C + OpenMP on this machine's CPU: the reference */
  KS_BACKEND_OPENCL,  /* any OpenCL platform through the ICD loader */
  KS_BACKEND_CUDA,    /* NVIDIA CUDA (driver API + NVRTC) */
} KsBackend;

typedef enum {
  KS_DEVICE_TYPE_CPU,
  KS_DEVICE_TYPE_GPU,
  KS_DEVICE_TYPE_ACCELERATOR,
  KS_DEVICE_TYPE_OTHER,
} KsDeviceType;

/* The element types whose vector widths a device reports. */
typedef enum {
  KS_VECTOR_CHAR,
  KS_VECTOR_SHORT,
  KS_VECTOR_INT,
  KS_VECTOR_LONG,
  KS_VECTOR_FLOAT,
  KS_VECTOR_DOUBLE,
  KS_VECTOR_HALF,
  KS_VECTOR_N_TYPES
} KsVectorType;

const char *ks_vector_type_to_string (KsVectorType type);
const char *ks_backend_to_string     (KsBackend    backend);
const char *ks_device_type_to_string (KsDeviceType type);

typedef struct {
  KsBackend    backend;
  KsDeviceType type;
  char        *id;               /* "host", "opencl:P:D", "cuda:D" */
  char        *name;
  char        *vendor;
  char        *platform_name;    /* OpenCL platform, "Host", "CUDA" */
  /* Other names of the platform a user may type (device lookup): the
   * OpenCL platform's vendor and ICD suffix ("The pocl project POCL" for
   * PoCL, whose platform name is "Portable Computing Language"); NULL
   * where there are none. */
  char        *platform_aliases;
  char        *driver_version;
  char        *version;          /* e.g. "OpenCL 3.0 PoCL ..." */
  guint        compute_units;
  gsize        max_work_group_size;
  gsize        max_work_item_sizes[3];
  gsize        preferred_multiple;  /* from a built kernel; 0 = not known yet */
  guint64      local_mem;
  guint64      global_mem;
  guint64      max_alloc;
  guint64      cache_bytes;      /* CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; 0 = not known */
  guint        cache_line;       /* CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE; CUDA 128; 0 = not known */
  gboolean     has_fp64;
  int          cc_major;         /* NVIDIA compute capability, -1 if none */
  int          cc_minor;
  guint        table_cores_per_cu;   /* from ks-cores-table; 0 = unknown */
  const char  *table_cores_source;
  double       bandwidth_gbs;    /* measured; 0 = not measured */
  /* Reported by CUDA (0 where the backend does not say). */
  guint        warp_size;
  guint        memory_bus_bits;
  double       peak_bandwidth_gbs;  /* 2 x memory clock x bus width: the data sheet's number */
  /* CL_DEVICE_PREFERRED_ / NATIVE_VECTOR_WIDTH_<type>, by KsVectorType
   * (CUDA: 1, a scalar instruction set, 0 where the type is missing);
   * 0: not known (the host). */
  guint        vector_width_preferred[KS_VECTOR_N_TYPES];
  guint        vector_width_native[KS_VECTOR_N_TYPES];
  /* The device clock's tick (CL_DEVICE_PROFILING_TIMER_RESOLUTION; CUDA
   * events: about 0.5 us, its documented resolution; the host's monotonic
   * clock: 1 us): no time shorter than this means anything. */
  gsize        timer_resolution_ns;
  gboolean     has_fp16;         /* cl_khr_fp16; CUDA compute capability 5.3 and up */
  /* A view's offset must be a multiple of this (CL_DEVICE_MEM_BASE_ADDR_ALIGN,
   * in bytes here); 1 where any offset goes (CUDA). */
  gsize        mem_base_addr_align;
} KsDeviceInfo;

#define KS_TYPE_DEVICE (ks_device_get_type ())
G_DECLARE_FINAL_TYPE (KsDevice, ks_device, KS, DEVICE, GObject)

/* For backends only: takes ownership of the strings in info. */
KsDevice           *ks_device_new                  (const KsDeviceInfo *info,
                                                    gpointer            backend_handle,
                                                    gpointer            platform_handle);

const KsDeviceInfo *ks_device_get_info             (KsDevice *self);
const char         *ks_device_get_id               (KsDevice *self);
const char         *ks_device_get_name             (KsDevice *self);
KsBackend           ks_device_get_backend          (KsDevice *self);
gpointer            ks_device_get_backend_handle   (KsDevice *self);
gpointer            ks_device_get_platform_handle  (KsDevice *self);

/* Cores per compute unit: the user's override when set, else the table's. */
guint               ks_device_get_cores_per_cu     (KsDevice *self);
const char         *ks_device_get_cores_source     (KsDevice *self);
/* 0 clears the override. */
void                ks_device_set_cores_per_cu     (KsDevice *self,
                                                    guint     cores_per_cu);

/* The preferred multiple and the bandwidth are written after the device is
 * listed, often on a worker thread (a solver being built, the bandwidth
 * probe): a reader on another thread, such as the GUI's main thread, uses
 * the getters, which take the device's lock, and not the fields of
 * ks_device_get_info().  The cores per unit take the same lock. */
void                ks_device_set_preferred_multiple (KsDevice *self,
                                                    gsize     multiple);
gsize               ks_device_get_preferred_multiple (KsDevice *self);
/* The measured memory bandwidth (ks-bench-probes.c), shown by the device list. */
void                ks_device_set_bandwidth        (KsDevice *self,
                                                    double    gbs);
double              ks_device_get_bandwidth        (KsDevice *self);
/* A one-line description for progress messages and plot captions. */
char               *ks_device_describe             (KsDevice *self);

G_END_DECLS
