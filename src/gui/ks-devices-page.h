/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-devices-page.h: every device of every backend, its properties, and the
 * inputs and result of the paper's optimal work-group rule. */
#pragma once

#include "ks-page.h"
#include "ks-device-list.h"

G_BEGIN_DECLS

#define KS_TYPE_DEVICES_PAGE (ks_devices_page_get_type ())
G_DECLARE_FINAL_TYPE (KsDevicesPage, ks_devices_page, KS, DEVICES_PAGE, KsPage)

void      ks_devices_page_set_device_list (KsDevicesPage *self,
                                           KsDeviceList  *devices);
/* The device whose details are shown. */
KsDevice *ks_devices_page_get_selected    (KsDevicesPage *self);
/* The predicted optimum shown, 0 when the rule's inputs are unknown. */
guint64   ks_devices_page_get_prediction  (KsDevicesPage *self);

/* What "Measure Memory Bandwidth" does: the triad probe, off the main thread. */
void      ks_devices_page_measure_bandwidth (KsDevicesPage *self);

/* Is the bandwidth probe running?  (property "measuring") */
gboolean  ks_devices_page_get_measuring     (KsDevicesPage *self);
/* The window runs an experiment: no probe and no edits that a sweep reads. */
void      ks_devices_page_set_run_active    (KsDevicesPage *self,
                                             gboolean       active);

G_END_DECLS
