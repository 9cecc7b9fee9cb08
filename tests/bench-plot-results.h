/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-plot-results.h: bench-plot's results mode (bench-plot-results.c). */
#pragma once

#include <glib.h>

/* Writes a gauss-size run of n_points (to keep, kept, if not NULL), then
 * times reading it, its figure, its PNG and a redraw; 0 on success. */
int bench_results (guint       n_points,
                   const char *keep);
