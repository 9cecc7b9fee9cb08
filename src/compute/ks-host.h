/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-host.h: the host backend: this machine's CPU running plain C with
 * OpenMP.  It is the baseline every table compares against and the
 * reference every kernel's answer is checked with. */
#pragma once

#include "ks-device.h"

G_BEGIN_DECLS

KsDevice *ks_host_device_new (void);

G_END_DECLS
