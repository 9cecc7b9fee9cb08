/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-ogs.h: the paper's rule for the optimal work-group size, and the
 * primality test behind its outliers.
 *
 * Baranov & Vlatskaya: the optimal group size is the least common multiple
 * of the preferred work-group multiple (PWGSM) and the cores per compute
 * unit that exceeds the device's total number of cores.  Their GT 555M:
 * 144 cores on 3 units (48 each), PWGSM 32: LCM = 96, and the first
 * multiple of 96 above 144 is 192, the measured optimum. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean ks_is_prime (guint64 n);
guint64  ks_gcd      (guint64 a,
                      guint64 b);
guint64  ks_lcm      (guint64 a,
                      guint64 b);

typedef struct {
  guint    pwgsm;
  guint    cores_per_cu;
  guint    compute_units;
  guint64  total_cores;
  guint64  lcm;            /* LCM(pwgsm, cores_per_cu) */
  guint64  ogs;            /* the rule: least multiple of lcm above total_cores */
  gsize    max_work_group_size;
  gboolean exceeds_limit;  /* ogs > max_work_group_size: the rule cannot be followed */
  guint64  usable;         /* ogs, or when it exceeds the limit the largest multiple of
                            * lcm (else of pwgsm) that the device allows */
} KsOgsPrediction;

/* FALSE (and no prediction) when an input is unknown (0). */
gboolean ks_ogs_predict (guint            pwgsm,
                         guint            cores_per_cu,
                         guint            compute_units,
                         gsize            max_work_group_size,
                         KsOgsPrediction *out);
/* "LCM(32, 48) = 96 ... = 192", in words a student can follow. */
char    *ks_ogs_explain (const KsOgsPrediction *prediction);

G_END_DECLS
