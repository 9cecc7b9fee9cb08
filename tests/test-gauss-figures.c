/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gauss-figures.c: the shipped Gauss runs draw, and read, as they did.
 *
 * data/reference held 19 Gauss runs in format 1, drawn by the old Gauss
 * model's own plots.  Issue 29 converted them to format 2 and drew them
 * through the generic figure fields instead.  tests/gauss-figures.txt is
 * the structure of each run's pictures (its own figure, and drawn over
 * another run as recorded) as the old code drew them from the format-1
 * files, written by this program's --write before that code went: the
 * series, each one's points (count and sums of x and y), dashes, the
 * highlighted points (N+1 prime), the best point of each curve and the
 * vertical lines.  The names and labels are not compared: the generic
 * figure words them its own way.
 *
 * tests/gauss-words.txt is what the descriptions said about the same runs
 * before summarize, describe_point and judge were rewritten on KsRun
 * (written by --write words with that code): for each run its summary, its
 * verdict, and the words about every tenth point and its first five
 * refused ones. */
#include "ks-figure.h"
#include "ks-run.h"
#include "ks-verdict.h"

#include <locale.h>
#include <string.h>

static const char *const files[] = {
  "h200-cuda-fig2-driver-1000-1100.json", "h200-cuda-fig2-driver.json", "h200-cuda-fig2-graph.json",
  "h200-cuda-fig2-split256.json", "h200-cuda-fig3-wg.json", "h200-cuda-fig5-wg-graph.json",
  "h200-cuda-fig5-wg-n10000.json", "h200-cuda-fig5-wg.json", "h200-cuda-fig5-wg1.json",
  "h200-opencl-fig2-driver.json", "h200-opencl-fig2-split256.json", "h200-opencl-fig3-wg.json",
  "h200-opencl-fig5-wg-n10000.json", "h200-opencl-fig5-wg.json", "h200-opencl-fig5-wg1.json",
  "h200-opencl-gauss-size-1000-1100-driver.json", "h200-opencl-gauss-size-driver.json",
  "h200-opencl-gauss-size-split256.json", "h200-opencl-gauss-wg-1000-4000.json",
};

/* The marks of one kind (flag) of a series, as their x. */
static void
append_marked (GString    *out,
               KsPlot     *plot,
               guint       s,
               guint       flag,
               const char *what)
{
  g_string_append_printf (out, " %s [", what);
  for (guint i = 0, n = 0; i < ks_plot_series_get_n_points (plot, s); i++)
    {
      const KsPlotPoint *p = ks_plot_series_get_point (plot, s, i);
      if (p->flags & flag)
        g_string_append_printf (out, "%s%g", n++ ? " " : "", p->x);
    }
  g_string_append (out, "]");
}

static void
append_structure (GString    *out,
                  const char *what,
                  KsPlot     *plot,
                  guint       first)
{
  g_string_append_printf (out, "  %s: %u series, %u vlines\n", what, ks_plot_get_n_series (plot) - first,
                          ks_plot_get_n_vlines (plot));
  for (guint s = first; s < ks_plot_get_n_series (plot); s++)
    {
      double sx = 0, sy = 0;
      guint n = ks_plot_series_get_n_points (plot, s);

      for (guint i = 0; i < n; i++)
        {
          sx += ks_plot_series_get_point (plot, s, i)->x;
          sy += ks_plot_series_get_point (plot, s, i)->y;
        }
      g_string_append_printf (out, "    %u points, x %.10g, y %.10g%s", n, sx, sy,
                              ks_plot_series_get_dashed (plot, s) ? ", dashed" : "");
      append_marked (out, plot, s, KS_PLOT_POINT_HIGHLIGHT, "highlight");
      append_marked (out, plot, s, KS_PLOT_POINT_BEST, "best");
      g_string_append_c (out, '\n');
    }
}

/* The file's own figure, and the figure with it drawn as recorded over an
 * empty run of its experiment (what --overlay and the pages do). */
static char *
structure_of (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = ks_run_load_json (path, &error);
  g_autoptr(KsRun) empty = NULL;
  g_autoptr(KsPlot) own = NULL;
  g_autoptr(KsPlot) over = NULL;
  g_autofree char *base = g_path_get_basename (path);
  GString *out = g_string_new (NULL);
  KsFigureOptions options;

  g_assert_no_error (error);
  empty = ks_run_new (run->desc);
  ks_figure_options_init (&options);
  g_string_append_printf (out, "%s (%s)\n", base, run->desc->id);
  own = ks_figure_plot_new (NULL, &run, 1, &options);
  append_structure (out, "own", own, 0);
  over = ks_figure_plot_new (NULL, &empty, 1, &options);
  ks_figure_add_recorded (NULL, over, run, &options);
  append_structure (out, "recorded", over, 0);
  return g_string_free (out, FALSE);
}

static char *
words_of (const char *path)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = ks_run_load_json (path, &error);
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(KsVerdict) verdict = NULL;
  g_autofree char *base = g_path_get_basename (path);
  guint refused = 0;

  g_assert_no_error (error);
  g_string_append_printf (out, "== %s\n", base);
  run->desc->summarize (run, summary);
  g_string_append_printf (out, "summary:%s\n", summary->str);
  verdict = run->desc->judge (run, 0);
  g_string_append_printf (out, "verdict: %d %s | %s\n", verdict->kind, verdict->text,
                          verdict->suggestion ? verdict->suggestion : "-");
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      g_autofree char *about = NULL;

      if (i % 10 != 0 && (p->error == NULL || refused >= 5))
        continue;
      refused += p->error != NULL;
      about = run->desc->describe_point (run, p);
      g_string_append_printf (out, "point %u: %s\n", i, about ? about : "(none)");
    }
  return g_string_free (out, FALSE);
}

typedef char *(*DescribeFunc) (const char *path);

/* What describe says about each shipped Gauss run in dir, in order. */
static char *
describe_all (const char   *dir,
              DescribeFunc  describe)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);
      g_autofree char *one = describe (path);
      g_string_append (out, one);
    }
  return g_string_free (out, FALSE);
}

/* The shipped runs described as the fixture has them, line by line, so a
 * failure names the run and the series or the point. */
static void
assert_fixture (const char   *fixture_name,
                DescribeFunc  describe)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, fixture_name, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = describe_all (dir, describe);
  g_auto(GStrv) want = NULL;
  g_auto(GStrv) have = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (fixture, &expected, NULL, &error));
  g_assert_no_error (error);
  want = g_strsplit (expected, "\n", -1);
  have = g_strsplit (got, "\n", -1);
  for (guint i = 0; want[i] && have[i]; i++)
    g_assert_cmpstr (have[i], ==, want[i]);
  g_assert_cmpuint (g_strv_length (have), ==, g_strv_length (want));
}

static void
test_structure (void)
{
  assert_fixture ("gauss-figures.txt", structure_of);
}

static void
test_words (void)
{
  assert_fixture ("gauss-words.txt", words_of);
}

/* A highlighted point names its own n (the format once printed x as
 * "N+1 = %g", one less than N+1); a predicted optimum beyond a run's
 * sweep draws no line. */
static void
test_labels (void)
{
  g_autofree char *size_path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                      "h200-opencl-gauss-size-1000-1100-driver.json", NULL);
  g_autofree char *wg1_path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                     "h200-cuda-fig5-wg1.json", NULL);
  g_autoptr(KsRun) size = ks_run_load_json (size_path, NULL);
  g_autoptr(KsRun) wg1 = ks_run_load_json (wg1_path, NULL);
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(KsPlot) wg1_plot = NULL;
  gboolean seen = FALSE;

  g_assert_nonnull (size);
  g_assert_nonnull (wg1);
  plot = ks_figure_plot_new (NULL, &size, 1, NULL);
  for (guint i = 0; i < ks_plot_series_get_n_points (plot, 0); i++)
    {
      const KsPlotPoint *p = ks_plot_series_get_point (plot, 0, i);

      if (p->x == 1030)
        {
          g_assert_true (p->flags & KS_PLOT_POINT_HIGHLIGHT);
          g_assert_cmpstr (p->label, ==, "n = 1030");
          seen = TRUE;
        }
    }
  g_assert_true (seen);
  g_assert_cmpfloat (ks_run_device_get_info (wg1->devices->pdata[0], "ogs_usable"), ==, 1024);
  wg1_plot = ks_figure_plot_new (NULL, &wg1, 1, NULL);
  g_assert_cmpuint (ks_plot_get_n_vlines (wg1_plot), ==, 0);
  /* Each run's own curves decide: beside a sweep up to 1024, the wg = 1
   * run still draws no line of its own. */
  {
    g_autofree char *fig3_path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                        "h200-cuda-fig3-wg.json", NULL);
    g_autoptr(KsRun) fig3 = ks_run_load_json (fig3_path, NULL);
    KsRun *both[] = { fig3, wg1 };
    g_autoptr(KsPlot) two = ks_figure_plot_new (NULL, both, 2, NULL);

    g_assert_cmpuint (ks_plot_get_n_vlines (two), ==, 1);
  }
}

/* The roofline's count for a converted run: the augmented matrix and x
 * in float, 2/3 n^3 + 3/2 n^2 operations, over the device time. */
static void
test_work (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", "h200-cuda-fig2-graph.json",
                                                 NULL);
  g_autoptr(KsRun) run = ks_run_load_json (path, NULL);
  const KsRunPoint *point;
  KsWork work = { 0 };
  double n;

  g_assert_nonnull (run);
  g_assert_nonnull (run->desc->work);
  point = g_ptr_array_index (run->points, 0);
  n = ks_run_point_get_number (run, point, "n");
  g_assert_true (run->desc->work (run, point, &work));
  g_assert_cmpfloat_with_epsilon (work.bytes, 4 * (n * (n + 1) + n), 1e-6);
  g_assert_cmpfloat_with_epsilon (work.ops, 2.0 / 3.0 * n * n * n + 1.5 * n * n, 1e-6);
  g_assert_cmpfloat (work.seconds, >, 0);
  g_assert_cmpfloat (work.seconds, <=, ks_run_point_get_number (run, point, "time_ms") * 1e-3);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C");
  /* --write figures|words DIR: print what a fixture holds of DIR's files. */
  if (argc == 4 && strcmp (argv[1], "--write") == 0)
    {
      g_autofree char *all = describe_all (argv[3], strcmp (argv[2], "words") == 0 ? words_of : structure_of);
      g_print ("%s", all);
      return 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gauss-figures/structure", test_structure);
  g_test_add_func ("/gauss-figures/labels", test_labels);
  g_test_add_func ("/gauss-figures/words", test_words);
  g_test_add_func ("/gauss-figures/work", test_work);
  return g_test_run ();
}
