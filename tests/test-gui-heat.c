/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui-heat: the heat page (paper 004's animation) in the real window
 * under Xvfb: a small mesh built on the worker, played, paused at three
 * moments with a screenshot each (into $KERNELSCOPE_SCREENSHOT_DIR), the
 * frame exported as PNG and SVG, the time series as CSV with the energy
 * constant, reset, and a bad .msh file shown in the error bar with its
 * line and element. */
#define G_LOG_DOMAIN "test-gui-heat"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-clip.h"
#include "ks-heat-page.h"
#include "ks-run.h"
#include "test-gui-util.h"

static KsHeatPage *page;
static guint target_step;

static gboolean
page_ready (void)
{
  return ks_heat_page_is_ready (page);
}

static gboolean
reached_step (void)
{
  return ks_heat_page_get_shown_step (page) >= target_step;
}

static gboolean
at_start (void)
{
  return ks_heat_page_is_ready (page) && ks_heat_page_get_shown_step (page) == 0;
}

static gboolean
error_shown (void)
{
  return strstr (ks_window_get_error_text (window), "element") != NULL;
}

static void
play_until (guint step, const char *shot)
{
  target_step = step;
  ks_heat_page_set_playing (page, TRUE);
  g_assert_true (wait_for (reached_step, 120));
  ks_heat_page_set_playing (page, FALSE);
  spin (200);
  if (shot != NULL)
    screenshot (shot);
}

/* The time series as Export Data writes it (CSV), line by line. */
static GStrv
exported_lines (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = g_build_filename (tmpdir, name, NULL);
  g_autofree char *text = NULL;

  g_assert_true (ks_window_export_data (window, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  return g_strsplit (text, "\n", -1);
}

static void
test_animation (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *png = g_build_filename (tmpdir, "heat-frame.png", NULL);
  g_autofree char *svg = g_build_filename (tmpdir, "heat-frame.svg", NULL);
  g_auto(GStrv) lines = NULL;
  double e0 = NAN;
  guint rows = 0;

  ks_window_show_page (window, "heat-live");
  page = KS_HEAT_PAGE (ks_window_get_page (window, "heat-live"));
  g_assert_nonnull (page);
  ks_heat_page_set_mesh (page, "mixed", "disc", 3000);
  g_assert_true (wait_for (page_ready, 60));
  spin (300);
  screenshot ("heat-0-start.png");

  play_until (5, "heat-1-step5.png");
  play_until (25, "heat-2-step25.png");
  play_until (60, "heat-3-step60.png");

  /* The frame, as every plot exports. */
  g_assert_true (ks_window_export_plot (window, png, &error));
  g_assert_no_error (error);
  g_assert_true (ks_window_export_plot (window, svg, &error));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR) && g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  if (g_getenv ("KERNELSCOPE_SCREENSHOT_DIR"))
    {
      g_autofree char *keep = g_build_filename (g_getenv ("KERNELSCOPE_SCREENSHOT_DIR"), "heat-export.png", NULL);
      g_autofree char *data = NULL;
      gsize len = 0;
      g_assert_true (g_file_get_contents (png, &data, &len, NULL));
      g_assert_true (g_file_set_contents (keep, data, len, NULL));
    }

  /* The time series: one row per step drawn, the energy conserved. */
  lines = exported_lines ("heat-series.csv");
  g_assert_cmpstr (lines[0], ==, "step,time,cg_iterations,cg_residual,energy,t_max,step_ms,inflow");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      const double e = g_ascii_strtod (f[4], NULL);
      if (isnan (e0))
        e0 = e;
      /* Each step conserves it to the CG's tolerance (1e-8 on the page):
       * a few hundred steps drift by about that many times it. */
      g_assert_cmpfloat (fabs (e - e0), <=, 1e-5 * e0);
      g_assert_cmpuint (g_ascii_strtoull (f[2], NULL, 10), >, 0);
      rows++;
    }
  /* Every step is in the series, drawn or not (a frame replaces an undrawn one). */
  g_test_message ("%u steps in the series, energy %.12g", rows, e0);
  g_assert_cmpuint (rows, >=, 60);

  /* One step, then back to the release. */
  ks_heat_page_step (page);
  target_step = 61;
  g_assert_true (wait_for (reached_step, 60));
  ks_heat_page_reset (page);
  g_assert_true (wait_for (at_start, 30));
}

static double want_ratio;

/* The split drawn is the one asked for: device cells over CPU cells. */
static gboolean
split_at_ratio (void)
{
  guint64 gpu = 0, cpu = 0;

  return ks_heat_page_get_split (page, &gpu, &cpu) && cpu > 0 &&
         fabs ((double) gpu / cpu - want_ratio) <= 0.02 * want_ratio;
}

static double live_lambda_b = NAN;

static gboolean
split_gone (void)
{
  return !ks_heat_page_get_split (page, NULL, NULL);
}

/* Each part's time a CG iteration and where it went, the sums' and
 * halo's share among it. */
static gboolean
legend_timed (void)
{
  const char *legend = ks_heat_page_get_legend (page);

  return legend != NULL && strstr (legend, "ms a CG iteration: its own work") != NULL &&
         strstr (legend, "waiting at the sums") != NULL && strstr (legend, "at the halo") != NULL;
}

/* A screenshot for the README, at a projector's 1024 x 768, the header
 * bar included (the window's size leaves it out). */
static void
readme_shot (const char *name)
{
  GtkWidget *bar = gtk_window_get_titlebar (GTK_WINDOW (window));
  int w, h;

  gtk_window_get_size (GTK_WINDOW (window), &w, &h);
  gtk_window_resize (GTK_WINDOW (window), 1024, 768 - gtk_widget_get_allocated_height (bar));
  spin (300);
  screenshot (name);
  gtk_window_resize (GTK_WINDOW (window), w, h);
  spin (100);
}

static gboolean
best_measured (void)
{
  return !isnan (ks_heat_page_get_best_lambda (page, NULL));
}

static gboolean
best_gone (void)
{
  return !best_measured ();
}

/* The slider's "measured best": the lambda of the least time per CG
 * iteration among those played (1 and 8 here), with its time. */
static void
check_measured_best (void)
{
  double iter_s = NAN;
  const double best = ks_heat_page_get_best_lambda (page, &iter_s);

  g_test_message ("measured best: lambda %.3g, %.3g ms a CG iteration", best, 1e3 * iter_s);
  g_assert_true (fabs (best - 1.0) <= 0.02 || fabs (best - 8.0) <= 0.16);
  g_assert_cmpfloat (iter_s, >, 0);
  g_assert_nonnull (strstr (ks_heat_page_get_legend (page), "the measured best"));
}

/* Paper 004's hybrid on the page: the device (PoCL here) and the host's
 * cores split the cells at lambda, the CPU part hatched and the legend
 * saying each part's cells and time; switching the split on or off goes
 * on from the step shown (the series and the play state kept), and the
 * slider moves the split between steps. */
static void
test_hybrid (void)
{
  GtkWidget *scale = child_of (page, KS_TYPE_HEAT_PAGE, "lambda_scale");
  guint at;

  if (!ks_window_set_device_id (window, "opencl:0:0"))
    {
      g_test_skip ("no OpenCL device for the hybrid's device part");
      return;
    }
  ks_heat_page_set_mesh (page, "quad", "square", 4096);
  g_assert_true (wait_for (at_start, 60));
  /* The slider is live before the split is on (its lambda is the one the
   * split starts with): no greyed state to stay in; lambda is a label of
   * its own (the theme dims a scale's value). */
  g_assert_true (gtk_widget_is_sensitive (scale));
  g_assert_false (gtk_scale_get_draw_value (GTK_SCALE (scale)));
  play_until (3, "heat-5a-before-split.png");
  at = ks_heat_page_get_shown_step (page);
  want_ratio = 1.0;
  ks_heat_page_set_hybrid (page, TRUE, 1.0);
  g_assert_true (wait_for (split_at_ratio, 120));
  spin (100);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (child_of (page, KS_TYPE_HEAT_PAGE, "lambda_label"))), ==,
                   "lambda 1.00");
  /* Not reset: the step and its time series are still there. */
  g_assert_cmpuint (ks_heat_page_get_shown_step (page), >=, at);
  g_assert_cmpuint (total_points (ks_heat_page_get_time_plot (page)), >=, at);
  g_assert_true (gtk_widget_is_sensitive (scale));
  g_assert_nonnull (ks_heat_page_get_legend (page));
  g_assert_nonnull (strstr (ks_heat_page_get_legend (page), "Hatched: the CPU part"));
  play_until (at + 3, "heat-5-hybrid-lambda1.png");
  g_assert_true (legend_timed ());
  g_test_message ("%s", ks_heat_page_get_legend (page));
  g_assert_true (best_measured ());
  live_lambda_b = ks_heat_page_get_lambda_b (page);
  want_ratio = 8.0;
  ks_heat_page_set_hybrid (page, TRUE, 8.0);
  g_assert_true (wait_for (split_at_ratio, 60));
  play_until (ks_heat_page_get_shown_step (page) + 2, NULL);
  check_measured_best ();
  readme_shot ("heat-split.png");
  /* Switched off while playing: the animation goes on from where it was. */
  at = ks_heat_page_get_shown_step (page);
  target_step = at + 2;
  ks_heat_page_set_playing (page, TRUE);
  ks_heat_page_set_hybrid (page, FALSE, 8.0);
  g_assert_true (wait_for (split_gone, 60));
  g_assert_true (wait_for (reached_step, 60));
  ks_heat_page_set_playing (page, FALSE);
  g_assert_null (ks_heat_page_get_legend (page));
  g_assert_cmpuint (total_points (ks_heat_page_get_time_plot (page)), >=, at + 2);
  spin (200);
  screenshot ("heat-6-hybrid-off.png");
  ks_heat_page_reset (page);
  g_assert_true (wait_for (at_start, 60));
  /* Another mesh: the best measured on this one does not hold there. */
  g_assert_true (best_measured ());
  ks_heat_page_set_mesh (page, "quad", "square", 1024);
  g_assert_true (wait_for (best_gone, 60));
  g_assert_true (wait_for (at_start, 60));
}

/* The problem's fields and a fixed wall: heat comes in through the
 * generated mesh's one group, "boundary", and the exported series keeps
 * the energy balance (energy - inflow constant). */
static void
test_walls (void)
{
  g_auto(GStrv) lines = NULL;
  double start = NAN, last_in = 0;

  ks_heat_page_set_mesh (page, "quad", "square", 400);
  ks_heat_page_set_problem (page, 2, 3, 1e-10);
  ks_heat_page_set_group_boundary (page, "boundary", TRUE, 0.5);
  g_assert_true (wait_for (at_start, 60));
  /* Ten single steps, not play: a 400-cell step takes a millisecond, and
   * played on past the first steps the spot (3 over an area of 4) warms
   * the walls' cells above 0.5, and heat flows out. */
  for (guint k = 0; k < 10; k++)
    ks_heat_page_step (page);
  target_step = 10;
  g_assert_true (wait_for (reached_step, 60));
  spin (200);
  screenshot ("heat-7-walls.png");
  lines = exported_lines ("heat-walls.csv");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      const double e = g_ascii_strtod (f[4], NULL), in = g_ascii_strtod (f[7], NULL);
      if (isnan (start))
        start = e - in;
      g_assert_cmpfloat (fabs (e - in - start), <=, 1e-7 * start);
      last_in = in;
    }
  g_test_message ("energy at the start %.10g (3 released), %.6g in through the walls", start, last_in);
  g_assert_cmpfloat (fabs (start - 3), <=, 1e-9);
  g_assert_cmpfloat (last_in, >, 0);
  ks_heat_page_set_group_boundary (page, "boundary", FALSE, 0);
  ks_heat_page_set_problem (page, 1, 1, 1e-8);
}

/* The two-GPU run recorded on the x2 host, added from the page's recorded
 * runs before any run of the user's: its verdict reads the one-GPU twin
 * (another file) for Table 3's scaling (screenshot heat-hybrid-2gpus.png). */
static void
test_hybrid_page_two_gpus (void)
{
  KsExperimentPage *hp = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "heat-hybrid"));
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference",
                                                 "h200x2-mpi32-heat-hybrid-67m-g2.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *verdict = NULL;

  ks_window_show_page (window, "heat-hybrid");
  g_assert_true (ks_experiment_page_add_recorded (hp, path, &error));
  g_assert_no_error (error);
  spin (200);
  verdict = ks_experiment_page_get_verdict_text (hp);
  g_test_message ("%s", verdict);
  g_assert_nonnull (strstr (verdict, "67108864"));
  /* 3556.4 / 1833.1 us an iteration, the GPUs alone (in either language). */
  g_assert_nonnull (strstr (verdict, " 1.94 "));
  ks_test_shot ("heat-hybrid-2gpus");
}

/* Paper 004's Figs. 6-7 page, generated from heat-hybrid's description,
 * run on PoCL with the host as the CPU part: a curve per mesh, lambda_b's
 * line and the two bounds (screenshot heat-hybrid.png). */
static void
test_hybrid_page (void)
{
  KsExperimentPage *hp = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "heat-hybrid"));
  const char *settings[] = { "cells", "256,1024", "lambda", "0.5,2", NULL };
  KsRun *run;

  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) for the GPU part");
      return;
    }
  g_assert_nonnull (hp);
  ks_window_show_page (window, "heat-hybrid");
  ks_test_run_page (hp, settings);
  run = ks_experiment_page_get_newest (hp);
  g_assert_cmpuint (run->points->len, ==, 4);
  for (guint i = 0; i < run->points->len; i++)
    g_assert_null (((KsRunPoint *) run->points->pdata[i])->error);
  /* Two meshes, two curves; the lines are not series.  (The recorded
   * H200 run a machine without a GPU shows first has curves of its own:
   * whether it is there depends on how soon the page found it.) */
  {
    KsPlot *plot = ks_test_page_plot (hp);
    guint own = 0;

    for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
      own += strstr (ks_plot_series_get_name (plot, s), "recorded") == NULL;
    g_assert_cmpuint (own, ==, 2);
  }
  /* lambda_b is one figure, found one way, on both pages. */
  if (!isnan (live_lambda_b))
    {
      const double run_b = ks_run_device_get_info (run->devices->pdata[0], "lambda_b");

      g_test_message ("lambda_b: %.6g on the live page, %.6g in the run", live_lambda_b, run_b);
      g_assert_cmpfloat (run_b, ==, live_lambda_b);
    }
  spin (200);
  ks_test_shot ("heat-hybrid");
  ks_window_show_page (window, "heat-live");
}

/* The partition saved by one run (--save-partition's field) and read back
 * by the next from the form's file chooser: the same cells on each part;
 * lambda's field says it does not apply then (screenshot
 * heat-hybrid-partition-file.png, the advanced fields open). */
static void
test_hybrid_partition_file (void)
{
  KsExperimentPage *hp = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "heat-hybrid"));
  KsParamForm *form = ks_experiment_page_get_form (hp);
  g_autofree char *part = g_build_filename (tmpdir, "hybrid.part", NULL);
  const char *save[] = { "cells", "256", "lambda", "3", "partition", "geometric", "save_partition", part, NULL };
  const char *read[] = { "save_partition", "", "partition", "file", "partition_file", part, NULL };
  const KsRunPoint *saved, *again;
  g_autoptr(KsRun) first = NULL;
  GtkWidget *expander;

  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) for the GPU part");
      return;
    }
  ks_window_show_page (window, "heat-hybrid");
  /* The tolerance, 1e-15 to 0.5, is typed as the CLI takes it: a spin
   * button's three decimals showed 1e-8 as "0.000". */
  g_assert_true (GTK_IS_ENTRY (ks_param_form_get_field (form, "tol")));
  g_assert_false (GTK_IS_SPIN_BUTTON (ks_param_form_get_field (form, "tol")));
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (ks_param_form_get_field (form, "tol"))), ==, "1e-8");
  ks_test_run_page (hp, save);
  first = ks_run_ref (ks_experiment_page_get_newest (hp));
  g_assert_true (g_file_test (part, G_FILE_TEST_IS_REGULAR));
  ks_test_run_page (hp, read);
  g_assert_false (ks_param_form_applies (form, "lambda", NULL));
  g_assert_true (ks_param_form_applies (form, "partition_file", NULL));
  saved = first->points->pdata[0];
  again = ks_experiment_page_get_newest (hp)->points->pdata[0];
  g_assert_null (saved->error);
  g_assert_null (again->error);
  for (guint c = 0; c < first->desc->n_columns; c++)
    if (g_str_has_suffix (first->desc->columns[c].name, "_cells") || g_str_equal (first->desc->columns[c].name, "iterations"))
      g_assert_cmpfloat (saved->values[c], ==, again->values[c]);
  expander = gtk_widget_get_ancestor (ks_param_form_get_field (form, "partition_file"), GTK_TYPE_EXPANDER);
  g_assert_nonnull (expander);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  spin (200);
  ks_test_shot ("heat-hybrid-partition-file");
  gtk_expander_set_expanded (GTK_EXPANDER (expander), FALSE);
  g_assert_true (ks_param_form_set_text (form, "partition", "geometric"));
  ks_window_show_page (window, "heat-live");
}

static gint
cmp_uint (gconstpointer a, gconstpointer b)
{
  const guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

/* The steps in a frames folder, in order; each step once. */
static GArray *
frame_steps (const char *dir)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) frames = g_dir_open (dir, 0, &error);
  GArray *steps = g_array_new (FALSE, FALSE, sizeof (guint));

  g_assert_no_error (error);
  for (const char *name; (name = g_dir_read_name (frames)) != NULL;)
    if (g_str_has_prefix (name, "frame-") && g_str_has_suffix (name, ".png"))
      {
        guint step = (guint) g_ascii_strtoull (name + 6, NULL, 10);
        g_array_append_val (steps, step);
      }
  g_array_sort (steps, cmp_uint);
  return steps;
}

/* Every step from the first frame to the last, none missing. */
static void
assert_contiguous (GArray *steps)
{
  g_assert_cmpuint (steps->len, >=, 2);
  for (guint i = 1; i < steps->len; i++)
    g_assert_cmpuint (g_array_index (steps, guint, i), ==, g_array_index (steps, guint, i - 1) + 1);
}

static gboolean
message_shown (void)
{
  return ks_heat_page_get_message (page) != NULL;
}

/* Recording: the button says Stop while it records; every step played
 * goes into an animated GIF (opened again by gdk-pixbuf) and numbered
 * PNGs beside it, at the colour scale of the first frame; stopped, the
 * page says where the clip went. */
static void
test_record (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *gif = g_build_filename (tmpdir, "heat-anim.gif", NULL);
  g_autofree char *dir = g_build_filename (tmpdir, "heat-anim-frames", NULL);
  GtkWidget *button = child_of (page, KS_TYPE_HEAT_PAGE, "record_button");
  g_autoptr(GdkPixbufAnimation) anim = NULL;
  g_autoptr(GArray) steps = NULL;
  double lo0, hi0, lo, hi;

  ks_heat_page_reset (page);
  g_assert_true (wait_for (at_start, 30));
  /* The page may have been at step 0 already: the reset's frame too is
   * drawn before the clip starts. */
  spin (300);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Record…");
  g_assert_true (ks_heat_page_start_recording (page, gif, &error));
  g_assert_no_error (error);
  g_assert_true (ks_heat_page_get_recording (page));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "● Stop recording");
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (button), "destructive-action"));
  ks_heat_page_get_color_range (page, &lo0, &hi0);
  g_assert_true (isfinite (lo0) && hi0 > lo0);
  play_until (ks_heat_page_get_shown_step (page) + 12, "heat-8-recording.png");
  /* The spot spreads and cools; the clip's scale stays the first frame's. */
  ks_heat_page_get_color_range (page, &lo, &hi);
  g_assert_cmpfloat (lo, ==, lo0);
  g_assert_cmpfloat (hi, ==, hi0);
  g_assert_true (ks_heat_page_stop_recording (page, &error));
  g_assert_no_error (error);
  g_assert_false (ks_heat_page_get_recording (page));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Record…");
  g_assert_false (gtk_style_context_has_class (gtk_widget_get_style_context (button), "destructive-action"));
  g_test_message ("%u frames recorded; %s", ks_heat_page_get_recorded_frames (page), ks_heat_page_get_message (page));
  g_assert_true (message_shown ());
  g_assert_nonnull (strstr (ks_heat_page_get_message (page), gif));
  g_assert_nonnull (strstr (ks_heat_page_get_message (page), "frames recorded"));
  spin (200);
  screenshot ("heat-9-recorded.png");
  steps = frame_steps (dir);
  g_assert_cmpuint (steps->len, ==, ks_heat_page_get_recorded_frames (page));
  g_assert_cmpuint (steps->len, >=, 13);
  assert_contiguous (steps);
  anim = gdk_pixbuf_animation_new_from_file (gif, &error);
  if (error != NULL && g_error_matches (error, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_UNKNOWN_TYPE))
    {
      g_test_message ("no GIF loader for gdk-pixbuf here: %s", error->message);
      return;
    }
  g_assert_no_error (error);
  g_assert_false (gdk_pixbuf_animation_is_static_image (anim));
  g_assert_cmpint (gdk_pixbuf_animation_get_width (anim), ==, 800);
  g_assert_cmpint (gdk_pixbuf_animation_get_height (anim), ==, 640);
}

/* A WebM clip (where GStreamer and its VP8 plugin are here): written on
 * the clip's thread, a WebM file (its EBML magic) and every step's PNG;
 * the page photographed while it records. */
static void
test_record_webm (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *webm = g_build_filename (tmpdir, "heat-clip.webm", NULL);
  g_autofree char *dir = g_build_filename (tmpdir, "heat-clip-frames", NULL);
  g_autofree char *bytes = NULL;
  g_autoptr(GArray) steps = NULL;
  gsize len = 0;

  if (!ks_clip_format_available (KS_CLIP_WEBM, &error))
    {
      g_test_skip (error->message);
      return;
    }
  ks_heat_page_set_edges (page, TRUE);
  g_assert_true (ks_heat_page_start_recording (page, webm, &error));
  g_assert_no_error (error);
  play_until (ks_heat_page_get_shown_step (page) + 10, NULL);
  readme_shot ("heat-recording.png");
  g_assert_true (ks_heat_page_stop_recording (page, &error));
  g_assert_no_error (error);
  ks_heat_page_set_edges (page, FALSE);
  g_assert_nonnull (strstr (ks_heat_page_get_message (page), webm));
  g_assert_true (g_file_get_contents (webm, &bytes, &len, NULL));
  g_assert_cmpuint (len, >, 4);
  g_assert_cmpmem (bytes, 4, "\x1a\x45\xdf\xa3", 4);
  steps = frame_steps (dir);
  g_assert_cmpuint (steps->len, ==, ks_heat_page_get_recorded_frames (page));
  g_assert_cmpuint (steps->len, >=, 11);
  assert_contiguous (steps);
}

/* Steps a second over n steps of the page as it is. */
static double
steps_per_second (guint n)
{
  const guint from = ks_heat_page_get_shown_step (page);
  const gint64 begin = g_get_monotonic_time ();
  double rate;

  target_step = from + n;
  ks_heat_page_set_playing (page, TRUE);
  g_assert_true (wait_for (reached_step, 300));
  rate = (ks_heat_page_get_shown_step (page) - from) / ((g_get_monotonic_time () - begin) / 1e6);
  ks_heat_page_set_playing (page, FALSE);
  spin (200);
  return rate;
}

/* The animation's pace with and without a recording, on the page's
 * default mesh (50,000 quadrilaterals on the disc): measured by hand
 * (KS_MEASURE_RECORDING=1), not a timed test. */
static void
test_record_speed (void)
{
  static const char *const names[] = { "speed.gif", "speed.webm", "speed.mp4" };

  if (g_getenv ("KS_MEASURE_RECORDING") == NULL)
    {
      g_test_skip ("set KS_MEASURE_RECORDING=1 to measure the pace while recording");
      return;
    }
  ks_heat_page_set_mesh (page, "quad", "disc", 50000);
  g_assert_true (wait_for (at_start, 60));
  steps_per_second (3);
  g_test_message ("on %s", ks_device_get_name (ks_window_get_device (window)));
  g_test_message ("not recording: %.2f steps/s", steps_per_second (30));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = g_build_filename (tmpdir, names[i], NULL);
      double rate;

      g_assert_true (ks_heat_page_start_recording (page, path, &error));
      rate = steps_per_second (30);
      g_assert_true (ks_heat_page_stop_recording (page, &error));
      g_assert_no_error (error);
      g_test_message ("recording %s: %.2f steps/s", names[i], rate);
    }
}

/* Reset while recording ends the clip: the jump back to step 0 is not in
 * it, and the message says so. */
static void
test_record_reset (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *gif = g_build_filename (tmpdir, "heat-reset.gif", NULL);
  g_autofree char *dir = g_build_filename (tmpdir, "heat-reset-frames", NULL);
  g_autoptr(GArray) steps = NULL;

  play_until (ks_heat_page_get_shown_step (page) + 2, NULL);
  g_assert_true (ks_heat_page_start_recording (page, gif, &error));
  g_assert_no_error (error);
  play_until (ks_heat_page_get_shown_step (page) + 5, NULL);
  ks_heat_page_reset (page);
  g_assert_true (wait_for (at_start, 30));
  spin (100);
  g_assert_false (ks_heat_page_get_recording (page));
  g_assert_true (message_shown ());
  g_assert_nonnull (strstr (ks_heat_page_get_message (page), "reset"));
  steps = frame_steps (dir);
  assert_contiguous (steps);
  g_assert_cmpuint (g_array_index (steps, guint, 0), >, 0);
}

/* The first step on a device builds its kernels (seconds, against
 * milliseconds a step): the time plot leaves that out and says it in its
 * title, so the first point is not the build. */
static void
test_build_time (void)
{
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) first = NULL;
  g_autofree char *was = g_strdup (ks_device_get_id (ks_window_get_device (window)));
  const KsPlotPoint *p;

  if (!ks_window_set_device_id (window, "opencl:0:0"))
    {
      g_test_skip ("no OpenCL device to build kernels on");
      return;
    }
  ks_heat_page_set_mesh (page, "tri", "square", 900);
  g_assert_true (wait_for (at_start, 60));
  ks_heat_page_step (page);
  ks_heat_page_step (page);
  target_step = 2;
  g_assert_true (wait_for (reached_step, 60));
  spin (100);
  lines = exported_lines ("heat-build.csv");
  first = g_strsplit (lines[1], ",", -1);
  p = ks_plot_series_get_point (ks_heat_page_get_time_plot (page), 0, 0);
  g_test_message ("step 1: %s ms in all, %g ms plotted; %s", first[6], p->y,
                  ks_plot_get_title (ks_heat_page_get_time_plot (page)));
  g_assert_cmpfloat (p->x, ==, 1);
  g_assert_cmpfloat (p->y, <, g_ascii_strtod (first[6], NULL));
  g_assert_nonnull (strstr (ks_plot_get_title (ks_heat_page_get_time_plot (page)), "Kernel build"));
  g_assert_true (ks_window_set_device_id (window, was));
}

/* The mesh's edges on demand, kept for the next mesh. */
static void
test_edges (void)
{
  ks_heat_page_set_edges (page, TRUE);
  g_assert_true (ks_heat_page_get_edges (page));
  ks_heat_page_set_mesh (page, "mixed", "disc", 600);
  g_assert_true (wait_for (at_start, 60));
  spin (200);
  g_assert_true (ks_heat_page_get_edges (page));
  screenshot ("heat-10-edges.png");
  play_until (8, NULL);
  /* The last test's clip said where it went: not part of this picture. */
  gtk_info_bar_response (GTK_INFO_BAR (child_of (page, KS_TYPE_HEAT_PAGE, "message_bar")), GTK_RESPONSE_CLOSE);
  readme_shot ("heat-edges.png");
  ks_heat_page_set_edges (page, FALSE);
  g_assert_false (ks_heat_page_get_edges (page));
}

static gboolean
notes_shown (void)
{
  return ks_heat_page_get_notes (page) != NULL;
}

static gboolean
notes_gone (void)
{
  return ks_heat_page_get_notes (page) == NULL;
}

/* What reading a mesh changed is said on the page: a cell given
 * clockwise turned, and the release point, the origin lying outside this
 * mesh, moved to the cell nearest its middle. */
static void
test_mesh_notes (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "far.msh", NULL);

  /* A square at (10, 10) cut into four triangles, the last clockwise. */
  g_assert_true (g_file_set_contents (path,
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n5\n1 10 10 0\n2 11 10 0\n3 11 11 0\n4 10 11 0\n"
    "5 10.5 10.5 0\n$EndNodes\n$Elements\n4\n1 2 2 1 1 1 2 5\n2 2 2 1 1 2 3 5\n3 2 2 1 1 3 4 5\n"
    "4 2 2 1 1 1 4 5\n$EndElements\n", -1, NULL));
  ks_heat_page_set_file (page, path);
  g_assert_true (wait_for (notes_shown, 60));
  g_test_message ("%s", ks_heat_page_get_notes (page));
  g_assert_nonnull (strstr (ks_heat_page_get_notes (page), "clockwise"));
  g_assert_nonnull (strstr (ks_heat_page_get_notes (page), "outside the mesh"));
  spin (200);
  screenshot ("heat-11-notes.png");
  /* The generated mesh has nothing to say. */
  ks_heat_page_set_file (page, NULL);
  g_assert_true (wait_for (notes_gone, 60));
  g_assert_true (wait_for (at_start, 60));
}

static void
test_bad_file (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "bad.msh", NULL);

  g_assert_true (g_file_set_contents (path,
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
    "$Elements\n1\n1 2 2 1 1 1 2 7\n$EndElements\n", -1, NULL));
  ks_heat_page_set_file (page, path);
  g_assert_true (wait_for (error_shown, 30));
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "bad.msh:12: element 1 names node 7"));
  screenshot ("heat-4-bad-file.png");
  ks_heat_page_set_file (page, NULL);
  g_assert_true (wait_for (at_start, 60));
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;
  g_test_add_func ("/gui-heat/animation", test_animation);
  g_test_add_func ("/gui-heat/hybrid", test_hybrid);
  g_test_add_func ("/gui-heat/walls", test_walls);
  g_test_add_func ("/gui-heat/hybrid-page-two-gpus", test_hybrid_page_two_gpus);
  g_test_add_func ("/gui-heat/hybrid-page", test_hybrid_page);
  g_test_add_func ("/gui-heat/hybrid-partition-file", test_hybrid_partition_file);
  g_test_add_func ("/gui-heat/record", test_record);
  g_test_add_func ("/gui-heat/record-webm", test_record_webm);
  g_test_add_func ("/gui-heat/record-reset", test_record_reset);
  g_test_add_func ("/gui-heat/record-speed", test_record_speed);
  g_test_add_func ("/gui-heat/build-time", test_build_time);
  g_test_add_func ("/gui-heat/edges", test_edges);
  g_test_add_func ("/gui-heat/mesh-notes", test_mesh_notes);
  g_test_add_func ("/gui-heat/bad-file", test_bad_file);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
