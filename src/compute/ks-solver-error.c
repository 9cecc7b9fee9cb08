/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-solver-error.h"

G_DEFINE_QUARK (ks-solver-error-quark, ks_solver_error)
