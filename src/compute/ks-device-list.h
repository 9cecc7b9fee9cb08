/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-device-list.h: one list of devices across every backend (a GListModel
 * of KsDevice), and the choice of a default with the reason for it. */
#pragma once

#include <gio/gio.h>

#include "ks-device.h"

G_BEGIN_DECLS

#define KS_TYPE_DEVICE_LIST (ks_device_list_get_type ())
G_DECLARE_FINAL_TYPE (KsDeviceList, ks_device_list, KS, DEVICE_LIST, GObject)

/* Enumerates the host, every OpenCL device and (when built) every CUDA
 * device.  Never fails for lack of a backend: the host device is always
 * there; what each backend found is in ks_device_list_get_notes(). */
KsDeviceList *ks_device_list_new          (void);
guint         ks_device_list_get_n_devices (KsDeviceList *self);
KsDevice     *ks_device_list_get_device   (KsDeviceList *self,
                                           guint         index);
/* By the rule of ks_device_list_lookup_rule(): an id ("opencl:0:0",
 * "host"), a list index ("1"), a kind ("cuda", "cpu") that one device is
 * of, or a case-insensitive part of its name, vendor or platform ("pocl",
 * "H200").  Errors (KS_COMPUTE_ERROR_NO_DEVICE) say why: an empty name,
 * no match, or several (with their ids). */
KsDevice     *ks_device_list_lookup       (KsDeviceList *self,
                                           const char   *query,
                                           GError      **error);
/* The lookup rule in a few lines of at most 95 characters, for --help texts. */
const char   *ks_device_list_lookup_rule  (void);
/* The first device of backend, or NULL. */
KsDevice     *ks_device_list_find_backend (KsDeviceList *self,
                                           KsBackend     backend);
/* The first GPU, else the first OpenCL CPU device (PoCL), else the host;
 * *out_reason says which rule chose it. */
KsDevice     *ks_device_list_get_default  (KsDeviceList *self,
                                           const char  **out_reason);
/* One line per backend: what it found or why it found nothing. */
const char * const *ks_device_list_get_notes (KsDeviceList *self);

/* Builds a tiny kernel on device and reads
 * CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE from it into the device's info. */
gboolean      ks_device_probe_preferred_multiple (KsDevice  *device,
                                                  GError   **error);

G_END_DECLS
