/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-compute-error.h"

G_DEFINE_QUARK (ks-compute-error-quark, ks_compute_error)
