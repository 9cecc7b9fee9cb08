/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The index-domain mapping of paper 003 against its own formulas, written
 * here again as the paper prints them (integer C, (N + 1023) / 1024), for
 * many shapes around every limit; the counts' invariants; every bad domain. */
#define G_LOG_DOMAIN "test-index-map"

#include "ks-index-map.h"

#include <locale.h>

typedef struct {
  guint64 grid[3], block[3];
  gboolean none;
} Launch;

static const guint64 sizes[] = {
  1, 2, 3, 31, 32, 33, 100, 511, 512, 513, 600, 1000, 1023, 1024, 1025, 2000, 3000, 4097,
  65534, 65535, 65536, 100000, 1048576, G_GUINT64_CONSTANT (67107840), G_GUINT64_CONSTANT (67107841),
  G_GUINT64_CONSTANT (4397912473600), G_GUINT64_CONSTANT (4397912473601),
};

static guint64
pow2_at_least (guint64 n)
{
  guint64 p = 1;
  while (p < n)
    p *= 2;
  return p;
}

/* The paper's formulas, D(N) and D(N1, N2) with N2 <= 1024 or no side
 * within 1024, and D(N1, N2, N3) with N3 <= 1024.  text: the thread count
 * is the next power of two and the 2D split divides N2 (its text and
 * worked example); else as printed. */
static Launch
paper_formula (guint dims, const guint64 *n, gboolean text)
{
  Launch l = { { 1, 1, 1 }, { 1, 1, 1 }, FALSE };

  if (dims == 1)
    {
      guint64 N = n[0];
      l.block[0] = 1024;
      if ((N + 1023) / 1024 <= 65535)
        l.grid[0] = (N + 1023) / 1024;
      else
        {
          l.grid[0] = ((N + 1023) / 1024 + 65534) / 65535;
          l.grid[1] = 65535;
          l.none = l.grid[0] > 65535;
        }
    }
  else if (dims == 2 && n[1] <= 1024)
    {
      l.block[0] = text ? pow2_at_least (n[1]) : n[1];
      if (n[0] <= 65535)
        l.grid[0] = n[0];
      else
        {
          l.grid[0] = (n[0] + 65534) / 65535;
          l.grid[1] = 65535;
          l.none = l.grid[0] > 65535;
        }
    }
  else if (dims == 2 && n[0] > 1024 && n[0] <= 65535)
    {
      l.grid[0] = n[0];
      l.grid[1] = ((text ? n[1] : n[0]) + 1023) / 1024;
      l.block[0] = 1024;
      l.none = l.grid[1] > 65535;
    }
  else if (dims == 3 && n[2] <= 1024 && n[0] <= 65535 && n[1] <= 65535)
    {
      l.grid[0] = n[0];
      l.grid[1] = n[1];
      l.block[0] = text ? pow2_at_least (n[2]) : n[2];
    }
  else
    l.none = TRUE;
  return l;
}

static void
check_counts (const KsIndexMapping *m)
{
  g_assert_cmpuint (m->threads, ==, m->grid[0] * m->grid[1] * m->grid[2] * m->block[0] * m->block[1] * m->block[2]);
  g_assert_cmpuint (m->covered + m->idle, ==, m->threads);
  g_assert_cmpuint (m->covered + m->uncovered, ==, m->points);
  g_assert_cmpuint (m->block[0] * m->block[1] * m->block[2], <=, 1024);
  g_assert_nonnull (m->launch);
  g_assert_nonnull (m->why);
}

static void
compare (const KsIndexDomain *dom, KsIndexRule rule, gboolean text)
{
  Launch want = paper_formula (dom->dims, dom->n, text);
  g_auto(KsIndexMapping) m = { 0 };

  ks_index_map (dom, rule, 0, &m);
  /* D(N1, N2) with only N1 within 1024: the text mirrors the N2 rule, the
   * formulas print nothing. */
  if (dom->dims == 2 && dom->n[1] > 1024 && dom->n[0] <= 1024)
    {
      gboolean fits = dom->n[1] <= 65535 || (dom->n[1] + 65534) / 65535 <= 65535;

      g_assert_true (m.mapped == (text && fits));
      if (m.mapped)
        {
          g_assert_cmpuint (m.block[0], ==, pow2_at_least (dom->n[0]));
          g_assert_cmpint (m.thread_side, ==, 0);
          g_assert_cmpuint (m.uncovered, ==, 0);
          check_counts (&m);
        }
      return;
    }
  g_assert_true (m.mapped == !want.none);
  if (!m.mapped)
    {
      g_assert_nonnull (m.why);
      return;
    }
  for (guint d = 0; d < 3; d++)
    {
      g_assert_cmpuint (m.grid[d], ==, want.grid[d]);
      g_assert_cmpuint (m.block[d], ==, want.block[d]);
    }
  check_counts (&m);
  if (text)
    g_assert_cmpuint (m.uncovered, ==, 0);
}

static void
test_paper_formulas (void)
{
  guint shapes = 0;

  for (guint a = 0; a < G_N_ELEMENTS (sizes); a++)
    {
      gint64 s1[1] = { sizes[a] };
      KsIndexDomain dom;

      g_assert_true (ks_index_domain_init (&dom, 1, s1, NULL));
      compare (&dom, KS_INDEX_RULE_PAPER, TRUE);
      compare (&dom, KS_INDEX_RULE_PAPER_PRINTED, FALSE);
      shapes++;
      for (guint b = 0; b < G_N_ELEMENTS (sizes); b++)
        {
          gint64 s2[2] = { sizes[a], sizes[b] };
          gint64 s3[3] = { MIN (sizes[a], 70000), MIN (sizes[b], 70000), 0 };

          if (ks_index_domain_init (&dom, 2, s2, NULL))
            {
              compare (&dom, KS_INDEX_RULE_PAPER, TRUE);
              compare (&dom, KS_INDEX_RULE_PAPER_PRINTED, FALSE);
              shapes++;
            }
          for (guint c = 0; c < G_N_ELEMENTS (sizes) && sizes[c] < 5000; c++)
            {
              s3[2] = sizes[c];
              g_assert_true (ks_index_domain_init (&dom, 3, s3, NULL));
              compare (&dom, KS_INDEX_RULE_PAPER, TRUE);
              compare (&dom, KS_INDEX_RULE_PAPER_PRINTED, FALSE);
              shapes++;
            }
        }
    }
  g_test_message ("%u shapes compared with the paper's formulas", shapes);
  g_assert_cmpuint (shapes, >, 5000);
}

/* The worked example: 2000 x 3000 is dim3(2000, 3) blocks of 1024 as the
 * text means it; as printed, dim3(2000, 2) leaves 952 of every row's 3000
 * points unreached. */
static void
test_worked_example (void)
{
  KsIndexDomain dom;
  g_auto(KsIndexMapping) paper = { 0 };
  g_auto(KsIndexMapping) printed = { 0 };
  g_auto(KsIndexMapping) today = { 0 };

  g_assert_true (ks_index_domain_parse ("2000x3000", &dom, NULL));
  ks_index_map (&dom, KS_INDEX_RULE_PAPER, 0, &paper);
  g_assert_true (paper.mapped);
  g_assert_cmpstr (paper.launch, ==, "<<<dim3(2000, 3), 1024>>>");
  g_assert_cmpuint (paper.threads, ==, 2000 * 3072);
  g_assert_cmpuint (paper.idle, ==, 2000 * 72);
  g_assert_cmpuint (paper.uncovered, ==, 0);

  ks_index_map (&dom, KS_INDEX_RULE_PAPER_PRINTED, 0, &printed);
  g_assert_cmpstr (printed.launch, ==, "<<<dim3(2000, 2), 1024>>>");
  g_assert_cmpuint (printed.uncovered, ==, 2000 * 952);
  g_assert_cmpuint (printed.idle, ==, 0);
  g_assert_false (ks_index_mapping_same_launch (&paper, &printed));

  ks_index_map (&dom, KS_INDEX_RULE_TODAY, 0, &today);
  g_assert_true (ks_index_mapping_same_launch (&paper, &today));
}

/* Today's limits: gridDim.x up to 2^31 - 1, so D(N) stays 1D far past the
 * paper's split; threads rounded to the warp, not to a power of two. */
static void
test_today (void)
{
  KsIndexDomain dom;
  g_auto(KsIndexMapping) m = { 0 };
  g_auto(KsIndexMapping) p = { 0 };
  g_auto(KsIndexMapping) m2 = { 0 };
  g_auto(KsIndexMapping) m3 = { 0 };

  g_assert_true (ks_index_domain_parse ("100000000", &dom, NULL));
  ks_index_map (&dom, KS_INDEX_RULE_TODAY, 0, &m);
  ks_index_map (&dom, KS_INDEX_RULE_PAPER, 0, &p);
  g_assert_cmpstr (m.launch, ==, "<<<97657, 1024>>>");
  g_assert_cmpstr (p.launch, ==, "<<<dim3(2, 65535), 1024>>>");
  g_assert_cmpuint (p.idle, >, m.idle);
  check_counts (&m);
  check_counts (&p);

  g_assert_true (ks_index_domain_parse ("100000 x 600", &dom, NULL));
  ks_index_map (&dom, KS_INDEX_RULE_TODAY, 0, &m2);
  g_assert_cmpstr (m2.launch, ==, "<<<100000, 608>>>");
  g_assert_cmpuint (m2.idle, ==, 100000 * 8);

  g_assert_true (ks_index_domain_parse ("D(4, 5, 3000)", &dom, NULL));
  ks_index_map (&dom, KS_INDEX_RULE_TODAY, 0, &m3);
  g_assert_cmpstr (m3.launch, ==, "<<<dim3(4, 5, 3), 1024>>>");
  g_assert_cmpuint (m3.uncovered, ==, 0);
  check_counts (&m3);
}

static void
test_occupancy (void)
{
  KsIndexDomain dom;
  g_auto(KsIndexMapping) none = { 0 };
  g_auto(KsIndexMapping) m = { 0 };

  g_assert_true (ks_index_domain_parse ("2000×3000", &dom, NULL));
  ks_index_map (&dom, KS_INDEX_RULE_OCCUPANCY, 0, &none);
  g_assert_false (none.mapped);
  g_assert_nonnull (none.why);
  ks_index_map (&dom, KS_INDEX_RULE_OCCUPANCY, 768, &m);
  g_assert_true (m.mapped);
  g_assert_cmpstr (m.launch, ==, "<<<7813, 768>>>");
  g_assert_cmpuint (m.idle, ==, 7813 * 768 - 6000000);
  g_assert_cmpint (m.thread_side, ==, -1);
  check_counts (&m);
}

static void
expect_error (const char *text, int code, const char *needle)
{
  g_autoptr(GError) error = NULL;
  KsIndexDomain dom;

  g_assert_false (ks_index_domain_parse (text, &dom, &error));
  g_assert_error (error, KS_INDEX_MAP_ERROR, code);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s”: “%s” lacks “%s”", text, error->message, needle);
}

static void
test_bad_domains (void)
{
  g_autoptr(GError) error = NULL;
  KsIndexDomain dom;
  gint64 sides[2] = { 3, -7 };

  expect_error ("", KS_INDEX_MAP_ERROR_PARSE, "N1xN2");
  expect_error ("2000x", KS_INDEX_MAP_ERROR_PARSE, "“”");
  expect_error ("1x2x3x4", KS_INDEX_MAP_ERROR_PARSE, "1 to 3");
  expect_error ("20a0", KS_INDEX_MAP_ERROR_PARSE, "20a0");
  expect_error ("0x5", KS_INDEX_MAP_ERROR_SIDE, "N1 of the domain is 0");
  expect_error ("5x-3", KS_INDEX_MAP_ERROR_SIDE, "N2 of the domain is -3");
  expect_error ("99999999999999999999", KS_INDEX_MAP_ERROR_OVERFLOW, "9223372036854775807");
  expect_error ("4294967296x4294967296", KS_INDEX_MAP_ERROR_OVERFLOW, "18446744073709551615");
  expect_error ("4294967296x4294967295x2", KS_INDEX_MAP_ERROR_OVERFLOW, "N3");

  g_assert_false (ks_index_domain_init (&dom, 2, sides, &error));
  g_assert_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_SIDE);
  g_clear_error (&error);

  /* 2000 x 3000 doubles are 48 MB: refused by a 32 MiB buffer limit,
   * taken by a 64 MiB one; past 2^64 bytes is said as such. */
  g_assert_true (ks_index_domain_parse ("2000x3000", &dom, NULL));
  g_assert_true (ks_index_domain_check_memory (&dom, 8, 64 << 20, 1 << 30, "Test", NULL));
  g_assert_false (ks_index_domain_check_memory (&dom, 8, 32 << 20, 1 << 30, "Test", &error));
  g_assert_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_MEMORY);
  g_assert_nonnull (strstr (error->message, "Test takes at most 32.0"));
  g_assert_nonnull (strstr (error->message, "6000000 points"));
  g_clear_error (&error);
  g_assert_true (ks_index_domain_parse ("4294967296x4294967295", &dom, NULL));
  g_assert_false (ks_index_domain_check_memory (&dom, 8, 0, 1 << 30, NULL, &error));
  g_assert_nonnull (strstr (error->message, "16 EiB"));
}

/* Domains the paper has no rule for are said so, not mapped wrongly. */
static void
test_unmapped (void)
{
  static const char *const domains[] = { "70000x2000", "4x5x2000", "70000x3x4", "4397912473601000" };
  g_auto(KsIndexMapping) today = { 0 };
  KsIndexDomain dom;

  for (guint i = 0; i < G_N_ELEMENTS (domains); i++)
    {
      g_auto(KsIndexMapping) m = { 0 };

      g_assert_true (ks_index_domain_parse (domains[i], &dom, NULL));
      ks_index_map (&dom, KS_INDEX_RULE_PAPER, 0, &m);
      g_assert_false (m.mapped);
      g_assert_nonnull (m.why);
      g_assert_null (m.launch);
    }
  /* Today the first one fits: N1 = 70000 along gridDim.x. */
  g_assert_true (ks_index_domain_parse ("70000x2000", &dom, NULL));
  ks_index_map (&dom, KS_INDEX_RULE_TODAY, 0, &today);
  g_assert_cmpstr (today.launch, ==, "<<<dim3(70000, 2), 1024>>>");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index-map/paper-formulas", test_paper_formulas);
  g_test_add_func ("/index-map/worked-example", test_worked_example);
  g_test_add_func ("/index-map/today", test_today);
  g_test_add_func ("/index-map/occupancy", test_occupancy);
  g_test_add_func ("/index-map/bad-domains", test_bad_domains);
  g_test_add_func ("/index-map/unmapped", test_unmapped);
  return g_test_run ();
}
