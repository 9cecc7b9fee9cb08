/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gauss-figures.c: the shipped Gauss runs draw as they did.
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
 * figure words them its own way. */
#include "ks-figure.h"
#include "ks-run.h"

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
all_structures (const char *dir)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);
      g_autofree char *one = structure_of (path);
      g_string_append (out, one);
    }
  return g_string_free (out, FALSE);
}

static void
test_structure (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", NULL);
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "gauss-figures.txt", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = all_structures (dir);
  g_auto(GStrv) want = NULL;
  g_auto(GStrv) have = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (fixture, &expected, NULL, &error));
  g_assert_no_error (error);
  want = g_strsplit (expected, "\n", -1);
  have = g_strsplit (got, "\n", -1);
  /* Line by line, so a failure names the run and the series. */
  for (guint i = 0; want[i] && have[i]; i++)
    g_assert_cmpstr (have[i], ==, want[i]);
  g_assert_cmpuint (g_strv_length (have), ==, g_strv_length (want));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C");
  /* --write DIR: print the structure of DIR's files (the fixture). */
  if (argc == 3 && strcmp (argv[1], "--write") == 0)
    {
      g_autofree char *all = all_structures (argv[2]);
      g_print ("%s", all);
      return 0;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gauss-figures/structure", test_structure);
  return g_test_run ();
}
