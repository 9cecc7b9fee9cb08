/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-test.h: an experiment declared only in tests/, to prove that a
 * description alone gives the engine, the CLI, the files and the figure.
 * Its measurements are arithmetic, so every value can be checked exactly:
 * the repetition k (0-based, warm-ups included, from prepare) of a point
 * measures value_ms = size × scale × shape factor (square 1, tall 2,
 * wide 3) × (2 when --fast) + k. */
#pragma once

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

extern const KsExperimentDesc ks_exp_test;

/* The value repetition k measures (see above). */
double ks_exp_test_value (gint64      size,
                          const char *shape,
                          double      scale,
                          gboolean    fast,
                          guint       k);

/* Registers ks_exp_test once (a second call is a no-op). */
void   ks_exp_test_register (void);

G_END_DECLS
