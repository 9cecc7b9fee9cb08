/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-eta.c: the time-left estimate (ks-eta.h) over the sweeps a Gauss
 * run makes, and the benches' list parser (ks-uint-list.h). */
#include "ks-eta.h"
#include "ks-uint-list.h"

#include <math.h>
#include <string.h>

static void
test_parse_list (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) a = ks_parse_uint_list ("100:400:100", 1, 1000, &error);
  g_autoptr(GArray) b = ks_parse_uint_list (" 1, 32:128:32 ,64", 1, 1000, &error);
  g_autoptr(GArray) bad = NULL;
  const char *bad_inputs[] = { "", "abc", "10:5", "1:10:0", "1:2:3:4", "-5", "5,,6", "2000",
                               "18446744073709551616" };

  g_assert_no_error (error);
  g_assert_cmpuint (a->len, ==, 4);
  g_assert_cmpuint (g_array_index (a, guint, 3), ==, 400);
  /* Sorted, duplicates (64) removed. */
  g_assert_cmpuint (b->len, ==, 5);
  g_assert_cmpuint (g_array_index (b, guint, 0), ==, 1);
  g_assert_cmpuint (g_array_index (b, guint, 2), ==, 64);
  g_assert_cmpuint (g_array_index (b, guint, 4), ==, 128);

  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      bad = ks_parse_uint_list (bad_inputs[i], 1, 1000, &error);
      g_assert_null (bad);
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      /* An empty range or a zero step says so, not "not a number". */
      if (strcmp (bad_inputs[i], "10:5") == 0)
        g_assert_nonnull (strstr (error->message, "the range is empty"));
      if (strcmp (bad_inputs[i], "1:10:0") == 0)
        g_assert_nonnull (strstr (error->message, "the step must be at least 1"));
      /* 2^64 is a number too large, not "not a number". */
      if (strcmp (bad_inputs[i], "18446744073709551616") == 0)
        g_assert_nonnull (strstr (error->message, "values must lie between 1 and 1000"));
      g_clear_error (&error);
    }
}

/* Every group of the first size, then the next: the order the engine
 * measures a sweep of sizes x groups in. */
static KsEta *
plan_of (const guint *sizes,
         guint        n_sizes,
         guint        n_groups)
{
  g_autofree double *size = g_new (double, n_sizes * n_groups);
  g_autofree guint *group = g_new (guint, n_sizes * n_groups);
  guint k = 0;

  for (guint i = 0; i < n_sizes; i++)
    for (guint j = 0; j < n_groups; j++, k++)
      {
        size[k] = sizes[i];
        group[k] = j;
      }
  return ks_eta_new_plan (k, size, group, n_groups);
}

/* Feeds the first `measured` points of sizes x groups with costs from
 * cost(n, group), on a clock that starts with startup_s of kernel
 * building, and returns the estimator's fraction; *truth gets the true
 * share of the time done. */
static double
eta_run (const guint *sizes, guint n_sizes, const guint *wgs, guint n_wgs,
         double (*cost) (guint n, guint wg), guint measured, double startup_s, double *truth)
{
  g_autoptr(KsEta) eta = NULL;
  double done = 0, all = 0, left_s = -1;
  guint k = 0;

  eta = plan_of (sizes, n_sizes, MAX (n_wgs, 1));
  g_assert_cmpfloat (ks_eta_get_fraction (eta), ==, 0);
  g_assert_cmpfloat (ks_eta_get_remaining_ms (eta), <, 0);
  for (guint i = 0; i < n_sizes; i++)
    for (guint j = 0; j < MAX (n_wgs, 1); j++, k++)
      {
        guint wg = n_wgs ? wgs[j] : 0;
        double c = cost (sizes[i], wg);

        all += c;
        if (k < measured)
          {
            done += c;
            ks_eta_add_cost (eta, FALSE, c, startup_s + done / 1000);
          }
      }
  *truth = (startup_s + done / 1000) / (startup_s + all / 1000);
  /* Where the fraction is exact, so are the seconds left: the remaining
   * cost, whatever the startup took. */
  left_s = ks_eta_get_seconds_left (eta);
  if (fabs (ks_eta_get_fraction (eta) - *truth) < 1e-9)
    g_assert_cmpfloat_with_epsilon (left_s, (all - done) / 1000, 1e-9 * all);
  return ks_eta_get_fraction (eta);
}

static double cost_cubic (guint n, guint wg)   { return 1e-6 * n * n * n; }
static double cost_linear (guint n, guint wg)  { return 0.04 * n; }
/* Groups of one item cost 100 times the others, at every size. */
static double cost_wg_one (guint n, guint wg)  { return (wg == 1 ? 100.0 : 1.0) * 1e-6 * n * n * n; }
/* Linear, but n = 1030 (N+1 = 1031, prime) costs 13 times its neighbours,
 * as NVIDIA's OpenCL runs it in groups of one item on an H200. */
static double cost_outlier (guint n, guint wg) { return (n == 1030 ? 13.0 : 1.0) * 0.05 * n; }

static void
test_eta (void)
{
  const guint sizes[] = { 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000 };
  const guint two[] = { 1000, 2000 };
  const guint wgs[] = { 1, 32, 64, 128, 256 };
  double truth, f;

  /* Cost as n^3 (the arithmetic) or as n (launch-bound, a GPU below
   * n = 1000): the exponent is fitted, and the share done is exact. */
  f = eta_run (sizes, 10, NULL, 0, cost_cubic, 4, 0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  f = eta_run (sizes, 10, NULL, 0, cost_linear, 4, 0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  /* Two seconds of kernel building before the first point: the clock
   * after it says how long a ms of cost takes, so the time left is not
   * inflated by the slow start. */
  f = eta_run (sizes, 10, NULL, 0, cost_cubic, 4, 2.0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  g_assert_cmpfloat (truth, >, 0.15);   /* weights of n^3 would have said 0.03 */

  /* Group-size sweep: wg = 1 first, 100 times dearer.  Once the first size
   * is measured every group has its own cost, and the second size is
   * predicted exactly (the exponent is still the default 3 here, which is
   * right for this cost). */
  f = eta_run (two, 2, wgs, 5, cost_wg_one, 5, 0, &truth);
  g_assert_cmpfloat_with_epsilon (f, truth, 1e-9);
  /* After wg = 1 alone the rest of the first size is predicted at its cost:
   * pessimistic, never claiming more than is done. */
  f = eta_run (two, 2, wgs, 5, cost_wg_one, 1, 0, &truth);
  g_assert_cmpfloat (f, <=, truth);
  g_assert_cmpfloat (f, >, 0);

  /* Right after a 13x outlier the rest is still predicted from its
   * neighbours: the newest point alone would have predicted every other
   * point at 13 times its cost and said 0.10 done where 0.60 is.  (What
   * error is left comes from the exponent: sizes this close together are
   * no basis for a fit, so it stays at 3.) */
  {
    guint around[30];

    for (guint i = 0; i < 30; i++)
      around[i] = 1018 + i;
    f = eta_run (around, 30, NULL, 0, cost_outlier, 13, 0, &truth);
    g_assert_cmpfloat (fabs (f - truth), <, 0.01);
    f = eta_run (around, 30, NULL, 0, cost_outlier, 15, 0, &truth);
    g_assert_cmpfloat (fabs (f - truth), <, 0.01);
  }

  /* Ten methods at 64 systems, then the same ten at 1024 systems, the
   * cost linear in the systems.  With the default exponent (3) the ten
   * left are predicted at 4096 times their cost at 64; told the cost is
   * linear (the engine passes an experiment's size_exponent: tridiag's
   * is 1), the time left is the truth after the first size already. */
  for (guint linear = 0; linear <= 1; linear++)
    {
      const guint bench[] = { 64, 1024 };
      g_autoptr(KsEta) eta = plan_of (bench, 2, 10);
      double clock = 0, left = 0;

      if (linear)
        ks_eta_set_exponent (eta, 1);
      for (guint j = 0; j < 10; j++)
        {
          const double c = 20 + 50 * j;   /* ms, the whole point */

          clock += c / 1000;
          ks_eta_add_cost (eta, FALSE, c, clock);
          left += (linear ? 16 : 4096) * c / 1000;
        }
      g_assert_cmpfloat_with_epsilon (ks_eta_get_seconds_left (eta), left, 1e-6 * left);
    }

  /* A group the device refused costs nothing now and is not predicted to
   * cost anything at the next size either. */
  {
    g_autoptr(KsEta) eta = plan_of (two, 2, 2);

    ks_eta_add_cost (eta, FALSE, 50, 0.05);
    ks_eta_add_cost (eta, TRUE, 0, 0.05);
    /* Left: wg = 1 at n = 2000, 8 x 50 ms; the refused group adds nothing. */
    g_assert_cmpfloat_with_epsilon (ks_eta_get_remaining_ms (eta), 400, 1e-9);
    ks_eta_add_cost (eta, FALSE, 50, 0.45);
    ks_eta_add_cost (eta, TRUE, 0, 0.45);
    g_assert_cmpfloat (ks_eta_get_fraction (eta), ==, 1);
    g_assert_cmpfloat (ks_eta_get_remaining_ms (eta), ==, 0);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/eta/parse-list", test_parse_list);
  g_test_add_func ("/eta/estimate", test_eta);
  return g_test_run ();
}
