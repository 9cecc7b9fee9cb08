/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The paper's optimal-group rule, its arithmetic, and the cores table. */
#include "ks-cores-table.h"
#include "ks-ogs.h"

#include <string.h>

static void
test_primes (void)
{
  const guint64 primes[] = { 2, 3, 5, 7, 11, 13, 101, 467, 1031, 2003, 7919, 1000003 };
  const guint64 composites[] = { 0, 1, 4, 9, 25, 49, 91, 1001, 2009, 7917, 1000001, 4294967297ULL };
  guint count = 0;

  for (guint i = 0; i < G_N_ELEMENTS (primes); i++)
    g_assert_true (ks_is_prime (primes[i]));
  for (guint i = 0; i < G_N_ELEMENTS (composites); i++)
    g_assert_false (ks_is_prime (composites[i]));

  /* 168 primes below 1000: the count catches an off-by-one at any divisor. */
  for (guint64 n = 0; n < 1000; n++)
    count += ks_is_prime (n);
  g_assert_cmpuint (count, ==, 168);
}

static void
test_gcd_lcm (void)
{
  g_assert_cmpuint (ks_gcd (32, 48), ==, 16);
  g_assert_cmpuint (ks_lcm (32, 48), ==, 96);
  g_assert_cmpuint (ks_lcm (32, 128), ==, 128);
  g_assert_cmpuint (ks_lcm (8, 1), ==, 8);
  g_assert_cmpuint (ks_lcm (0, 5), ==, 0);
  g_assert_cmpuint (ks_gcd (17, 0), ==, 17);
}

/* The paper's GT 555M: 144 cores on 3 units, PWGSM 32 -> 192. */
static void
test_paper_example (void)
{
  KsOgsPrediction p;
  g_autofree char *text = NULL;

  g_assert_true (ks_ogs_predict (32, 48, 3, 1024, &p));
  g_assert_cmpuint (p.total_cores, ==, 144);
  g_assert_cmpuint (p.lcm, ==, 96);
  g_assert_cmpuint (p.ogs, ==, 192);
  g_assert_false (p.exceeds_limit);
  g_assert_cmpuint (p.usable, ==, 192);

  text = ks_ogs_explain (&p);
  g_assert_nonnull (strstr (text, "LCM(preferred multiple 32, 48 cores per unit) = 96"));
  g_assert_nonnull (strstr (text, "is 192"));
}

/* "Greater than" the total is strict: a total that is itself a multiple
 * moves to the next one. */
static void
test_strictly_above (void)
{
  KsOgsPrediction p;

  g_assert_true (ks_ogs_predict (32, 64, 3, 1024, &p));   /* 192 cores, lcm 64 */
  g_assert_cmpuint (p.ogs, ==, 256);
}

/* An H200 (132 SMs x 128 cores): the rule asks for more than a group may
 * hold, and says so. */
static void
test_exceeds_limit (void)
{
  KsOgsPrediction p;
  g_autofree char *text = NULL;

  g_assert_true (ks_ogs_predict (32, 128, 132, 1024, &p));
  g_assert_cmpuint (p.total_cores, ==, 16896);
  g_assert_cmpuint (p.ogs, ==, 17024);
  g_assert_true (p.exceeds_limit);
  g_assert_cmpuint (p.usable, ==, 1024);
  text = ks_ogs_explain (&p);
  g_assert_nonnull (strstr (text, "cannot be followed"));

  /* lcm above the limit: fall back to multiples of PWGSM. */
  g_assert_true (ks_ogs_predict (32, 96, 100, 64, &p));
  g_assert_cmpuint (p.usable, ==, 64);
}

static void
test_unknown_inputs (void)
{
  KsOgsPrediction p;

  g_assert_false (ks_ogs_predict (0, 48, 3, 1024, &p));
  g_assert_false (ks_ogs_predict (32, 0, 3, 1024, &p));
  g_assert_false (ks_ogs_predict (32, 48, 0, 1024, &p));
}

static void
test_cores_table (void)
{
  const char *source = NULL;

  g_assert_cmpuint (ks_cores_per_sm_for_compute_capability (2, 1), ==, 48);   /* GT 555M */
  g_assert_cmpuint (ks_cores_per_sm_for_compute_capability (2, 0), ==, 32);
  g_assert_cmpuint (ks_cores_per_sm_for_compute_capability (8, 0), ==, 64);   /* A100 */
  g_assert_cmpuint (ks_cores_per_sm_for_compute_capability (8, 6), ==, 128);
  g_assert_cmpuint (ks_cores_per_sm_for_compute_capability (9, 0), ==, 128);  /* H100/H200 */
  g_assert_cmpuint (ks_cores_per_sm_for_compute_capability (4, 0), ==, 0);

  g_assert_cmpuint (ks_cores_per_cu_lookup ("NVIDIA Corporation", "NVIDIA H200", FALSE, TRUE, 9, 0, &source), ==, 128);
  g_assert_nonnull (strstr (source, "compute capability"));
  g_assert_cmpuint (ks_cores_per_cu_lookup ("AuthenticAMD", "pthread", TRUE, FALSE, -1, -1, &source), ==, 1);
  g_assert_cmpuint (ks_cores_per_cu_lookup ("Advanced Micro Devices, Inc.", "gfx90a", FALSE, TRUE, -1, -1, &source), ==, 64);
  g_assert_cmpuint (ks_cores_per_cu_lookup ("Mystery", "X", FALSE, TRUE, -1, -1, &source), ==, 0);
  g_assert_nonnull (strstr (source, "unknown"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ogs/primes", test_primes);
  g_test_add_func ("/ogs/gcd-lcm", test_gcd_lcm);
  g_test_add_func ("/ogs/paper-example", test_paper_example);
  g_test_add_func ("/ogs/strictly-above", test_strictly_above);
  g_test_add_func ("/ogs/exceeds-limit", test_exceeds_limit);
  g_test_add_func ("/ogs/unknown-inputs", test_unknown_inputs);
  g_test_add_func ("/ogs/cores-table", test_cores_table);
  return g_test_run ();
}
