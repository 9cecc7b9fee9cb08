/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment.h: what the bench commands (src/cli/ks-cli-bench*.c) still
 * include from the Gauss model that issue 29 retired: the list parser and
 * the solver's policies.  It goes when the benches become descriptions. */
#pragma once

#include "ks-gauss.h"
#include "ks-uint-list.h"
