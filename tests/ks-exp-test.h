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

/* Its parameters' indices, in params[] order (ks_config_int (c, KS_EXP_TEST_P_SIZE)). */
enum {
  KS_EXP_TEST_P_SIZE, KS_EXP_TEST_P_SHAPE, KS_EXP_TEST_P_DEPTH, KS_EXP_TEST_P_SCALE, KS_EXP_TEST_P_FAST,
  KS_EXP_TEST_P_LABEL, KS_EXP_TEST_P_SOURCE, KS_EXP_TEST_P_INPUT, KS_EXP_TEST_P_LANES, KS_EXP_TEST_N_PARAMS
};

/* The shapes' ids (KsChoice.id), not their order among the choices. */
typedef enum {
  KS_EXP_TEST_WIDE = 7,
  KS_EXP_TEST_SQUARE = 11,
  KS_EXP_TEST_TALL = 13,
} KsExpTestShape;

/* The value repetition k measures (see above). */
double ks_exp_test_value (gint64      size,
                          const char *shape,
                          double      scale,
                          gboolean    fast,
                          guint       k);

/* Registers ks_exp_test once (a second call is a no-op). */
void   ks_exp_test_register (void);

G_END_DECLS
