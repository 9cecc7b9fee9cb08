/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-figure.c: the generic figure's bars, right axis, reference lines
 * and the paper's numbers (ks-figure.c), from a description declared here
 * and runs built by hand, so every number on the plot is known. */
#define G_LOG_DOMAIN "ks-test"

#include "ks-figure.h"
#include "ks-registry.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static const KsChoice method_choices[] = {
  { "thomas", "Thomas", NULL, 0 },
  { "sericr", "SERICR", NULL, 1 },
  { "paracr", "PARACR", NULL, 2 },
  { NULL }
};

static const KsChoice precision_choices[] = {
  { "float", "float", NULL, 0 },
  { "double", "double", NULL, 1 },
  { NULL }
};

static const KsParamSpec params[] = {
  { .name = "method", .label = "Method", .help = "Which solver", .type = KS_PARAM_CHOICE,
    .choices = method_choices, .default_value = "thomas,sericr,paracr", .sweepable = TRUE },
  { .name = "n", .label = "Systems", .help = "How many", .type = KS_PARAM_INT,
    .default_value = "1024", .min = 1, .max = 1 << 24, .sweepable = TRUE },
  { .name = "precision", .label = "Precision", .help = "float or double", .type = KS_PARAM_CHOICE,
    .choices = precision_choices, .default_value = "float" },
};

enum { COL_TIME, COL_SPEEDUP, COL_GBS };

static const KsColumnSpec columns[] = {
  [COL_TIME] = { "time_ms", "time", "ms", "per solve", KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_SPEEDUP] = { "speedup", "speed-up", NULL, "against the host", KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_GBS] = { "gbs", "bandwidth", "GB/s", "bytes moved per second", KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
};

static const KsFigureSpec figures[] = {
  { .id = "bars", .title = "Speed-up by method", .x = "method", .y = "speedup", .categorical_x = TRUE,
    .show_paper = TRUE },
  { .id = "lines", .title = "Time vs systems", .x = "n", .y = "time_ms", .series_by = "method",
    .y2 = "gbs", .hline_info = "limit_ms", .hline_label = "limit %g ms", .log2_x = TRUE,
    .show_paper = TRUE },
};

static const KsPaperValue paper_values[] = {
  { "method=thomas", "speedup", 1.26, NULL, "Table 2", NULL },
  { "method=paracr", "speedup", 1.97, NULL, "Table 3", NULL },
  /* Double: a float run leaves it out. */
  { "method=sericr precision=double", "speedup", 0.27, NULL, "Table 2", NULL },
  /* On the line figure: a point at its x, and a run-wide number as a line. */
  { "method=thomas n=2048", "time_ms", 7.5, "ms", "Fig. 3", NULL },
  { "method=sericr", "time_ms", 9.0, "ms", "text", NULL },
  /* Another unit: not drawn against ms. */
  { "method=thomas n=1024", "time_ms", 1.0, "s", "Fig. 3", NULL },
};

/* Never called: the runs are built by hand; validation wants them. */
static gpointer
never_set_up (const KsExperimentDesc *desc,
              KsDevice               *device,
              const KsConfig         *base,
              GCancellable           *cancellable,
              GError                **error)
{
  g_assert_not_reached ();
}

static gboolean
never_measure (gpointer        state,
               const KsConfig *point,
               double         *values,
               GCancellable   *cancellable,
               GError        **error)
{
  g_assert_not_reached ();
}

static const KsExperimentDesc figure_desc = {
  .id = "test-figure", .title = "figure test", .paper = "002", .paper_title = "a paper",
  .summary = "figure test", .claim = "bars and lines",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = G_N_ELEMENTS (columns),
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .paper_values = paper_values, .n_paper_values = G_N_ELEMENTS (paper_values),
  .set_up = never_set_up, .measure_one_rep = never_measure,
};

static void
add_point (KsRun      *run,
           const char *method,
           gint64      n,
           double      time_ms,
           const char *error)
{
  KsRunPoint *p = ks_run_point_new (run);

  p->params[0] = g_variant_ref_sink (g_variant_new_string (method));
  p->params[1] = g_variant_ref_sink (g_variant_new_int64 (n));
  p->params[2] = g_variant_ref_sink (g_variant_new_string ("float"));
  if (error)
    p->error = g_strdup (error);
  else
    {
      p->values[COL_TIME] = time_ms;
      p->lo[COL_TIME] = time_ms * 0.9;
      p->hi[COL_TIME] = time_ms * 1.1;
      p->values[COL_SPEEDUP] = 10.0 / time_ms;
      p->values[COL_GBS] = n / time_ms;
      p->reps = 3;
    }
  ks_run_add_point (run, p);
}

/* PARACR first and SERICR refused at 2048: the categories still follow
 * the choices' order, and a refused point draws nothing. */
static KsRun *
made_run (const char *device_name,
          double      limit_ms)
{
  KsRun *run = ks_run_new (&figure_desc);
  KsRunDevice *d = ks_run_device_new ();

  d->id = g_strdup ("host");
  d->name = g_strdup (device_name);
  d->backend = g_strdup ("host");
  ks_run_device_set_info (d, "limit_ms", limit_ms);
  g_ptr_array_add (run->devices, d);
  run->date = g_strdup ("2026-11-24T03:00:00Z");
  g_strfreev (run->axes);
  run->axes = g_strsplit ("method n", " ", -1);
  run->complete = TRUE;
  add_point (run, "paracr", 1024, 4.0, NULL);
  add_point (run, "thomas", 1024, 2.0, NULL);
  add_point (run, "thomas", 2048, 5.0, NULL);
  add_point (run, "paracr", 2048, 8.0, NULL);
  add_point (run, "sericr", 2048, NAN, "does not fit");
  return run;
}

static guint
find_series (KsPlot     *plot,
             const char *name)
{
  for (guint i = 0; i < ks_plot_get_n_series (plot); i++)
    if (strcmp (ks_plot_series_get_name (plot, i), name) == 0)
      return i;
  for (guint i = 0; i < ks_plot_get_n_series (plot); i++)
    g_printerr ("have \"%s\"\n", ks_plot_series_get_name (plot, i));
  g_error ("no series \"%s\"", name);
}

static void
test_validate (void)
{
  g_autoptr(GError) error = NULL;
  KsFigureSpec bad_figures[] = { figures[1] };
  KsExperimentDesc bad = figure_desc;

  ks_experiment_desc_validate (&figure_desc, &error);
  g_assert_no_error (error);

  bad.figures = bad_figures;
  bad.n_figures = 1;
  bad_figures[0].y2 = "no_such_column";
  g_assert_false (ks_experiment_desc_validate (&bad, &error));
  g_assert_nonnull (strstr (error->message, "right axis"));
  g_clear_error (&error);
  bad_figures[0].y2 = "gbs";
  bad_figures[0].categorical_x = TRUE;
  g_assert_false (ks_experiment_desc_validate (&bad, &error));
  g_assert_nonnull (strstr (error->message, "bars and a right axis"));
}

/* A column x standing for a swept parameter (x_param): the parameter's
 * values make no curves of their own, so each method is one curve along
 * its bandwidths; without x_param each n would be a curve of one point.
 * x_param needs x to be a column and itself a parameter. */
static void
test_x_param (void)
{
  KsFigureSpec by_gbs = { .id = "by-gbs", .title = "Time vs bandwidth", .x = "gbs", .x_param = "n",
                          .y = "time_ms", .series_by = "method" };
  const KsFigureSpec *figure = &by_gbs;
  g_autoptr(KsRun) run = made_run ("CPU", 1.0);
  g_autoptr(KsPlot) with = ks_figure_plot_new (figure, &run, 1, NULL);
  g_autoptr(KsPlot) without = NULL;
  g_autoptr(GError) error = NULL;
  KsFigureSpec bad_figures[1];
  KsExperimentDesc bad = figure_desc;
  guint thomas;

  thomas = find_series (with, "Method = Thomas");
  g_assert_cmpuint (ks_plot_series_get_n_points (with, thomas), ==, 2);
  g_assert_cmpfloat (ks_plot_series_get_point (with, thomas, 0)->x, ==, 1024 / 2.0);
  g_assert_cmpfloat (ks_plot_series_get_point (with, thomas, 1)->x, ==, 2048 / 5.0);
  by_gbs.x_param = NULL;
  without = ks_figure_plot_new (figure, &run, 1, NULL);
  g_assert_cmpuint (ks_plot_get_n_series (without), >, ks_plot_get_n_series (with));
  g_assert_cmpuint (ks_plot_series_get_n_points (without, find_series (without, "Method = Thomas, Systems = 1024")), ==,
                    1);

  bad_figures[0] = figures[1];
  bad.figures = bad_figures;
  bad.n_figures = 1;
  bad_figures[0].x_param = "n";   /* x is n itself, a parameter */
  g_assert_false (ks_experiment_desc_validate (&bad, &error));
  g_assert_nonnull (strstr (error->message, "x_param"));
  g_clear_error (&error);
  bad_figures[0].x = "gbs";
  bad_figures[0].x_param = "no_such_param";
  g_assert_false (ks_experiment_desc_validate (&bad, &error));
  g_assert_nonnull (strstr (error->message, "x_param"));
  g_clear_error (&error);
  bad_figures[0].x_param = "n";
  g_assert_true (ks_experiment_desc_validate (&bad, &error));
  g_assert_no_error (error);
}

/* Two runs of the same device told apart by the setting they differ in
 * (no axis: one value a run), each curve named with it; runs of different
 * devices are named by their devices alone; the earlier run is dashed. */
static void
test_run_names (void)
{
  KsRun *runs[2] = { made_run ("CPU", 1.0), made_run ("CPU", 1.0) };
  g_autoptr(KsPlot) plot = NULL;
  g_autoptr(KsPlot) devices = NULL;

  for (guint i = 0; i < runs[1]->points->len; i++)
    {
      KsRunPoint *p = runs[1]->points->pdata[i];
      g_variant_unref (p->params[2]);
      p->params[2] = g_variant_ref_sink (g_variant_new_string ("double"));
    }
  plot = ks_figure_plot_new (&figures[1], runs, 2, NULL);
  find_series (plot, "CPU (host), Precision = float, Method = Thomas");
  find_series (plot, "CPU (host), Precision = double, Method = Thomas");
  ks_run_unref (runs[1]);
  runs[1] = made_run ("GPU", 1.0);
  devices = ks_figure_plot_new (&figures[1], runs, 2, NULL);
  find_series (devices, "GPU (host), Method = Thomas");
  /* The earlier run stays dashed beside the newest, drawn solid. */
  g_assert_true (ks_plot_series_get_dashed (devices, find_series (devices, "CPU (host), Method = Thomas")));
  g_assert_false (ks_plot_series_get_dashed (devices, find_series (devices, "GPU (host), Method = Thomas")));
  ks_run_unref (runs[0]);
  ks_run_unref (runs[1]);
}

/* One GPU through CUDA and through OpenCL in one run: the curves say
 * which backend, not the same device name twice. */
static void
test_twin_devices (void)
{
  g_autoptr(KsRun) run = made_run ("GPU", 1.0);
  g_autoptr(KsPlot) plot = NULL;
  KsRunDevice *cuda = run->devices->pdata[0];
  KsRunDevice *ocl = ks_run_device_new ();
  KsRunPoint *p;

  g_free (cuda->backend);
  cuda->backend = g_strdup ("cuda");
  ocl->id = g_strdup ("opencl:0:0");
  ocl->name = g_strdup ("GPU");
  ocl->backend = g_strdup ("opencl");
  ocl->platform = g_strdup ("NVIDIA CUDA");
  g_ptr_array_add (run->devices, ocl);
  add_point (run, "thomas", 1024, 3.0, NULL);
  p = run->points->pdata[run->points->len - 1];
  p->device = 1;
  plot = ks_figure_plot_new (&figures[1], &run, 1, NULL);
  find_series (plot, "Method = Thomas · GPU (CUDA)");
  find_series (plot, "Method = Thomas · GPU (NVIDIA OpenCL)");
}

static void
test_bars (void)
{
  g_autoptr(KsRun) run = made_run ("CPU", 1.0);
  g_autoptr(KsPlot) plot = ks_figure_plot_new (&figures[0], &run, 1, NULL);
  const char * const *categories = ks_plot_get_x_categories (plot);
  const KsPlotPoint *p;
  guint measured, paper;

  /* Choice order, labels, and only what was measured or the paper gives:
   * SERICR's one point was refused and its paper number is for double. */
  g_assert_nonnull (categories);
  g_assert_cmpuint (g_strv_length ((char **) categories), ==, 2);
  g_assert_cmpstr (categories[0], ==, "Thomas");
  g_assert_cmpstr (categories[1], ==, "PARACR");

  /* A bar per point: one series per value of the other axis, n. */
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 3);
  measured = find_series (plot, "Systems = 1024");
  paper = find_series (plot, "paper");
  g_assert_cmpint (ks_plot_series_get_kind (plot, measured), ==, KS_PLOT_SERIES_BARS);
  g_assert_cmpint (ks_plot_series_get_kind (plot, paper), ==, KS_PLOT_SERIES_BARS);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, measured), ==, 2);
  p = ks_plot_series_get_point (plot, measured, 0);
  g_assert_cmpfloat (p->x, ==, 1);   /* PARACR, measured first */
  g_assert_cmpfloat (p->y, ==, 10.0 / 4.0);
  p = ks_plot_series_get_point (plot, find_series (plot, "Systems = 2048"), 0);
  g_assert_cmpfloat (p->x, ==, 0);
  g_assert_cmpfloat (p->y, ==, 2.0);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, paper), ==, 2);
  p = ks_plot_series_get_point (plot, paper, 0);
  g_assert_cmpfloat (p->x, ==, 0);
  g_assert_cmpfloat (p->y, ==, 1.26);
  p = ks_plot_series_get_point (plot, paper, 1);
  g_assert_cmpfloat (p->x, ==, 1);
  g_assert_cmpfloat (p->y, ==, 1.97);
}

static void
test_bars_recorded (void)
{
  g_autoptr(KsRun) live = ks_run_new (&figure_desc);
  g_autoptr(KsRun) recorded = made_run ("H200", 0.5);
  g_autoptr(KsPlot) plot = NULL;
  const char * const *categories;
  guint series;

  /* Nothing measured yet: the paper's categories (its double SERICR
   * number cannot be matched to a run without points), then the recorded
   * run's own appended after them. */
  add_point (live, "sericr", 1024, NAN, "refused");
  g_ptr_array_add (live->devices, ks_run_device_new ());
  add_point (recorded, "sericr", 1024, 3.0, NULL);
  plot = ks_figure_plot_new (&figures[0], &live, 1, NULL);
  categories = ks_plot_get_x_categories (plot);
  g_assert_cmpuint (g_strv_length ((char **) categories), ==, 2);
  g_assert_cmpstr (categories[1], ==, "PARACR");
  ks_figure_add_recorded (&figures[0], plot, recorded, NULL);
  categories = ks_plot_get_x_categories (plot);
  g_assert_cmpuint (g_strv_length ((char **) categories), ==, 3);
  g_assert_cmpstr (categories[1], ==, "PARACR");
  g_assert_cmpstr (categories[2], ==, "SERICR");
  series = find_series (plot, "recorded: H200 (host), Systems = 1024");
  g_assert_cmpint (ks_plot_series_get_kind (plot, series), ==, KS_PLOT_SERIES_BARS);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, series), ==, 3);
  g_assert_cmpfloat (ks_plot_series_get_point (plot, series, 2)->x, ==, 2);
}

static void
test_lines (void)
{
  g_autoptr(KsRun) run = made_run ("CPU", 1.5);
  g_autoptr(KsPlot) plot = ks_figure_plot_new (&figures[1], &run, 1, NULL);
  guint thomas, thomas_gbs, paper;
  const KsPlotPoint *p;

  g_assert_null (ks_plot_get_x_categories (plot));
  /* Curves of y, each with its y2 twin on the right axis, and the paper's
   * Thomas point; SERICR's run-wide number and the limit are lines. */
  g_assert_cmpuint (ks_plot_get_n_series (plot), ==, 5);
  thomas = find_series (plot, "Method = Thomas");
  thomas_gbs = find_series (plot, "Method = Thomas · bandwidth");
  paper = find_series (plot, "paper, Method = Thomas");
  g_assert_false (ks_plot_series_get_y2 (plot, thomas));
  g_assert_true (ks_plot_series_get_y2 (plot, thomas_gbs));
  g_assert_cmpint (ks_plot_series_get_kind (plot, thomas), ==, KS_PLOT_SERIES_LINE);
  p = ks_plot_series_get_point (plot, thomas_gbs, 1);
  g_assert_cmpfloat (p->x, ==, 2048);
  g_assert_cmpfloat (p->y, ==, 2048 / 5.0);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, paper), ==, 1);   /* not the one in seconds */
  p = ks_plot_series_get_point (plot, paper, 0);
  g_assert_cmpfloat (p->x, ==, 2048);
  g_assert_cmpfloat (p->y, ==, 7.5);
  g_assert_cmpuint (ks_plot_get_n_hlines (plot), ==, 2);
}

/* Each figure draws and exports; the files are left in the build folder
 * for a person to open. */
static void
test_export (void)
{
  g_autoptr(KsRun) run = made_run ("CPU", 1.5);
  g_autoptr(KsRun) recorded = made_run ("H200", 0.5);

  for (guint f = 0; f < G_N_ELEMENTS (figures); f++)
    for (guint k = 0; k < 3; k++)
      {
        const char *ext[] = { "png", "svg", "pdf" };
        g_autoptr(KsPlot) plot = ks_figure_plot_new (&figures[f], &run, 1, NULL);
        g_autoptr(GError) error = NULL;
        g_autofree char *name = g_strdup_printf ("test-figure-%s.%s", figures[f].id, ext[k]);
        g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);
        GStatBuf st;

        ks_figure_add_recorded (&figures[f], plot, recorded, NULL);
        g_assert_true (ks_plot_export (plot, path, 800, 500, NULL, &error));
        g_assert_no_error (error);
        g_assert_cmpint (g_stat (path, &st), ==, 0);
        g_assert_cmpint (st.st_size, >, 1000);
      }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/figure/validate", test_validate);
  g_test_add_func ("/figure/x-param", test_x_param);
  g_test_add_func ("/figure/run-names", test_run_names);
  g_test_add_func ("/figure/twin-devices", test_twin_devices);
  g_test_add_func ("/figure/bars", test_bars);
  g_test_add_func ("/figure/bars-recorded", test_bars_recorded);
  g_test_add_func ("/figure/lines", test_lines);
  g_test_add_func ("/figure/export", test_export);
  return g_test_run ();
}
