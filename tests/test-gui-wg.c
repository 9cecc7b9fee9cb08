/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui-wg.c: the Gauss time-vs-group-size page (gauss-wg on the
 * generic page) in the real window, and the sessions and settings of both
 * Gauss pages, old formats included.  Part of test-gui (test-gui.c has
 * main). */
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "ks-axis-button.h"
#include "ks-devices-page.h"
#include "ks-exp-gauss.h"
#include "ks-experiment-page.h"
#include "ks-gauss-solve-page.h"
#include "ks-gui-paths.h"
#include "ks-run.h"
#include "test-gui-util.h"
#include "test-gui.h"

void
test_session (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  g_autofree char *good = g_build_filename (tmpdir, "session.json", NULL);
  g_autofree char *cut = g_build_filename (tmpdir, "cut.json", NULL);
  g_autofree char *bad_run = g_build_filename (tmpdir, "bad-run.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  guint runs = ks_experiment_page_get_n_runs (page);
  gsize len;

  g_assert_cmpuint (runs, >, 0);
  g_assert_true (ks_window_save_session (window, good, &error));
  g_assert_no_error (error);

  /* Reopening gives back every run and the form. */
  {
    g_autofree char *n = get_param (page, "n");

    set_param (page, "n", "33:40");
    g_assert_true (ks_window_load_session (window, good, &error));
    g_assert_no_error (error);
    g_free (n), n = get_param (page, "n");
    g_assert_cmpstr (n, !=, "33:40");
  }
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);
  g_assert_cmpuint (total_points (page_plot ("gauss-size")), >, 41);

  /* A truncated file: a clear error, the open session untouched. */
  g_assert_true (g_file_get_contents (good, &text, &len, NULL));
  g_assert_true (g_file_set_contents (cut, text, len / 2, NULL));
  g_assert_false (ks_window_load_session (window, cut, &error));
  g_assert_nonnull (error);
  g_test_message ("truncated: %s", error->message);
  /* Plain words first; the parser's position on the next line (Details). */
  g_assert_nonnull (strstr (error->message, "damaged or incomplete"));
  g_assert_nonnull (strchr (error->message, '\n'));
  g_clear_error (&error);
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);

  /* Well-formed JSON with a damaged run on the second page to load: the
   * pages loaded before it are rolled back too. */
  {
    g_autofree char *damaged = g_strdup_printf (
      "{\"format\":\"kernelscope-session\",\"version\":1,\"pages\":{"
      "\"gauss-solve\":{\"n\":77},"
      "\"gauss-size\":{\"params\":{},\"runs\":[{\"results\":{\"format\":1,\"points\":\"oops\"}}]}}}");
    g_assert_true (g_file_set_contents (bad_run, damaged, -1, NULL));
  }
  g_assert_false (ks_window_load_session (window, bad_run, &error));
  g_assert_nonnull (error);
  g_test_message ("damaged run: %s", error->message);
  g_assert_nonnull (strstr (error->message, "part of it is damaged"));
  g_clear_error (&error);
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);

  /* Nested past what any session has: refused before json-glib recurses
   * into it, as damaged; a FIFO: refused at once, not read without end. */
  {
    g_autofree char *deep = g_build_filename (tmpdir, "deep-session.json", NULL);
    g_autofree char *fifo = g_build_filename (tmpdir, "fifo-session.json", NULL);
    g_autofree char *text = g_strnfill (200000, '[');

    g_assert_true (g_file_set_contents (deep, text, -1, NULL));
    g_assert_false (ks_window_load_session (window, deep, &error));
    g_test_message ("deep: %s", error->message);
    g_assert_nonnull (strstr (error->message, "damaged"));
    g_clear_error (&error);
    g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
    g_assert_false (ks_window_load_session (window, fifo, &error));
    g_test_message ("fifo: %s", error->message);
    g_assert_nonnull (strstr (error->message, "cannot be read"));
    g_clear_error (&error);
    g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);
  }

  /* Not a session at all. */
  g_assert_false (ks_window_load_session (window, "/nonexistent/session.json", &error));
  g_assert_nonnull (error);
}

/* A session the Gauss pages saved before they were generic pages: their
 * own fields ("from", "preset", "hide-one", ...) and format-1 runs under
 * "results" (tests/fuzz-corpus/session/old-gauss-pages.json, also a seed of
 * the session fuzzer).  It opens on the generic pages, every field in its place. */
void
test_old_session (void)
{
  KsExperimentPage *size = sweep_page ("gauss-size");
  KsExperimentPage *wg = sweep_page ("gauss-wg");
  g_autofree char *saved = g_build_filename (tmpdir, "before-old.json", NULL);
  g_autofree char *old = g_test_build_filename (G_TEST_DIST, "fuzz-corpus", "session", "old-gauss-pages.json", NULL);
  g_autofree char *dir = ks_gui_reference_dir ();
  g_autofree char *recorded = g_build_filename (dir, "h200-opencl-gauss-size-driver.json", NULL);
  g_autoptr(KsRun) expected = NULL;
  g_autoptr(GError) error = NULL;
  const struct { const char *name, *size_value, *wg_value; } fields[] = {
    { "n", "30:40:2", "64,128" }, { "local", "split", "explicit" }, { "wg", "16", "1,8,16" },
    { "precision", "double", "double" }, { "range", "shrinking", "shrinking" }, { "graph", "true", "true" },
  };

  g_assert_true (ks_window_save_session (window, saved, &error));
  expected = ks_run_load_json (recorded, &error);
  g_assert_no_error (error);
  g_assert_true (ks_window_load_session (window, old, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *a = get_param (size, fields[i].name);
      g_autofree char *b = get_param (wg, fields[i].name);

      g_assert_cmpstr (a, ==, fields[i].size_value);
      g_assert_cmpstr (b, ==, fields[i].wg_value);
    }
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (child_of (size, KS_TYPE_EXPERIMENT_PAGE,
                                                                                  "reps_spin"))), ==, 4);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (child_of (wg, KS_TYPE_EXPERIMENT_PAGE,
                                                                                  "reps_spin"))), ==, 2);
  /* "hide wg = 1": the plot from 2. */
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (child_of (wg, KS_TYPE_EXPERIMENT_PAGE,
                                                                                  "min_x_spin"))), ==, 2);
  /* The format-1 run, read through the description, whole. */
  g_assert_cmpuint (ks_experiment_page_get_n_runs (size), ==, 1);
  g_assert_false (ks_experiment_page_run_is_recorded (size, 0));
  g_assert_cmpuint (ks_experiment_page_get_run (size, 0)->points->len, ==, expected->points->len);
  g_assert_cmpuint (ks_experiment_page_get_n_runs (wg), ==, 0);

  g_assert_true (ks_window_load_session (window, saved, &error));
  g_assert_no_error (error);
}

/* The old pages' own GSettings keys ("size-from", "wg-preset", ...) move
 * onto experiment-params the first time a generic page binds them. */
void
test_old_settings (void)
{
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;
  GtkWidget *size = g_object_ref_sink (ks_experiment_page_new (&ks_exp_gauss_size));
  GtkWidget *wg = g_object_ref_sink (ks_experiment_page_new (&ks_exp_gauss_wg));
  GtkWidget *fresh = g_object_ref_sink (ks_experiment_page_new (&ks_exp_gauss_size));
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) mine = NULL;
  const char *n = NULL;

  /* The app's schema (from the build folder) on a fresh memory backend:
   * a user who never opened the generic pages. */
  g_object_get (ks_page_get_settings (ks_window_get_page (window, "gauss-size")), "settings-schema", &schema, NULL);
  settings = g_settings_new_full (schema, backend, NULL);
  g_settings_set_uint (settings, "size-from", 50);
  g_settings_set_uint (settings, "size-step", 5);   /* size-to stays at its default, 400 */
  g_settings_set_string (settings, "size-local", "explicit");
  g_settings_set_uint (settings, "size-wg", 32);
  g_settings_set_string (settings, "size-launch", "graph");
  g_settings_set_uint (settings, "size-reps", 7);
  g_settings_set_string (settings, "wg-preset", "custom");
  g_settings_set_string (settings, "wg-custom", "1,8,16");
  g_settings_set_boolean (settings, "wg-hide-one", TRUE);
  g_settings_set_string (settings, "wg-sizes", "500");

  ks_page_set_settings (KS_PAGE (size), settings);
  ks_page_set_settings (KS_PAGE (wg), settings);
  {
    g_autofree char *a = get_param (KS_EXPERIMENT_PAGE (size), "n");
    g_autofree char *b = get_param (KS_EXPERIMENT_PAGE (size), "local");
    g_autofree char *c = get_param (KS_EXPERIMENT_PAGE (size), "wg");
    g_autofree char *d = get_param (KS_EXPERIMENT_PAGE (size), "graph");
    g_autofree char *e = get_param (KS_EXPERIMENT_PAGE (wg), "wg");
    g_autofree char *f = get_param (KS_EXPERIMENT_PAGE (wg), "n");

    g_assert_cmpstr (a, ==, "50:400:5");
    g_assert_cmpstr (b, ==, "explicit");
    g_assert_cmpstr (c, ==, "32");
    g_assert_cmpstr (d, ==, "true");
    g_assert_cmpstr (e, ==, "1,8,16");
    g_assert_cmpstr (f, ==, "500");
  }
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (child_of (size, KS_TYPE_EXPERIMENT_PAGE,
                                                                                  "reps_spin"))), ==, 7);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (child_of (wg, KS_TYPE_EXPERIMENT_PAGE,
                                                                                  "min_x_spin"))), ==, 2);
  /* Moved, once: the one key holds them now, and a page opened later
   * reads them from there. */
  all = g_settings_get_value (settings, "experiment-params");
  mine = g_variant_lookup_value (all, "gauss-size", G_VARIANT_TYPE ("a{ss}"));
  g_assert_nonnull (mine);
  g_assert_true (g_variant_lookup (mine, "n", "&s", &n));
  g_assert_cmpstr (n, ==, "50:400:5");
  g_settings_set_uint (settings, "size-from", 60);
  ks_page_set_settings (KS_PAGE (fresh), settings);
  {
    g_autofree char *a = get_param (KS_EXPERIMENT_PAGE (fresh), "n");
    g_assert_cmpstr (a, ==, "50:400:5");
  }
  gtk_widget_destroy (size);
  gtk_widget_destroy (wg);
  gtk_widget_destroy (fresh);
  g_object_unref (size);
  g_object_unref (wg);
  g_object_unref (fresh);
}

static gboolean wg_done (void) { return !ks_window_get_running (window); }

void
test_wg_sweep (void)
{
  KsExperimentPage *page = sweep_page ("gauss-wg");
  KsParamForm *form = ks_experiment_page_get_form (page);
  KsPlotView *view = ks_page_get_plot_view (KS_PAGE (page));
  KsAxisButton *presets = KS_AXIS_BUTTON (ks_param_form_get_axis_button (form, "wg"));
  GtkWidget *min_x = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "min_x_spin");
  g_autofree char *why = NULL;
  KsPlot *plot;
  guint best = 0, with_one, n_own = 0;

  if (!need_pocl ())
    return;
  /* Alt+1: paper 000's first page (the single solve); the group-size
   * sweep is two pages on. */
  press_key (GDK_KEY_1, GDK_MOD1_MASK);
  press_key (GDK_KEY_Page_Down, GDK_CONTROL_MASK);
  press_key (GDK_KEY_Page_Down, GDK_CONTROL_MASK);
  g_assert_true (ks_window_get_visible_page (window) == KS_PAGE (page));

  /* The group-size presets put their sweep into the field, which stays
   * editable for a list of one's own; the first is the device's default
   * (the field left empty, its placeholder saying what it will be). */
  g_assert_cmpuint (ks_axis_button_get_n_presets (presets), ==, 4);
  ks_axis_button_choose_preset (presets, 1);
  {
    g_autofree char *wg = get_param (page, "wg");
    g_assert_cmpstr (wg, ==, "2^0:2^8");
  }
  ks_axis_button_choose_preset (presets, 0);
  {
    g_autofree char *wg = get_param (page, "wg");
    g_assert_cmpstr (wg, ==, "");
  }
  g_assert_true (gtk_widget_get_sensitive (ks_param_form_get_field (form, "wg")));

  /* CUDA graphs on an OpenCL device: not offered, with the reason. */
  set_param (page, "graph", "true");
  g_assert_false (ks_param_form_applies (form, "graph", &why));
  g_assert_nonnull (strstr (why, "CUDA"));
  g_assert_false (gtk_widget_get_sensitive (ks_param_form_get_field (form, "graph")));
  set_param (page, "graph", "false");

  /* A group list the parser refuses: said beside the field and in the
   * window, nothing runs. */
  set_param (page, "n", "32");
  set_param (page, "wg", "0,abc");
  g_assert_cmpstr (ks_param_form_get_field_error (form, "wg"), !=, "");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_false (ks_window_get_running (window));
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "Work-group sizes"));

  set_param (page, "n", "64,128");
  set_param (page, "wg", "1,2,4,8,16,32,64");
  set_reps (page, 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (min_x), 0);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (wg_done, 300));
  g_assert_cmpuint (own_runs (page), ==, 1);
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");

  plot = page_plot ("gauss-wg");
  /* Two curves of the user's (first), then what the H200 showed, if shown. */
  with_one = own_points (plot, &n_own);
  g_assert_cmpuint (n_own, ==, 2);
  g_assert_cmpuint (with_one, ==, 14);
  for (guint s = 0; s < 2; s++)
    for (guint i = 0; i < ks_plot_series_get_n_points (plot, s); i++)
      best += (ks_plot_series_get_point (plot, s, i)->flags & KS_PLOT_POINT_BEST) != 0;
  g_assert_cmpuint (best, ==, 2);   /* one measured best per curve */
  /* The paper's predicted optimum, on this device's numbers. */
  g_assert_cmpuint (ks_plot_get_n_vlines (plot), ==, 1);

  /* Fig. 4: without wg = 1 (plot from 2). */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (min_x), 2);
  g_assert_cmpuint (own_points (page_plot ("gauss-wg"), NULL), ==, with_one - 2);

  /* The keyboard zooms too: + halves the view around its middle, 0 resets. */
  gtk_widget_grab_focus (GTK_WIDGET (view));
  press_key (GDK_KEY_plus, 0);
  g_assert_true (ks_plot_view_get_zoomed (view));
  press_key (GDK_KEY_0, 0);
  g_assert_false (ks_plot_view_get_zoomed (view));

  /* Fig. 6: zoom into 8..64 and back. */
  ks_plot_view_zoom (view, 8, 64);
  g_assert_true (ks_plot_view_get_zoomed (view));
  screenshot ("gauss-wg-zoomed.png");
  ks_plot_view_reset_zoom (view);
  g_assert_false (ks_plot_view_get_zoomed (view));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (min_x), 0);
  screenshot ("gauss-wg.png");
}

void
test_refused_group (void)
{
  KsExperimentPage *page = sweep_page ("gauss-wg");
  const KsRun *results;

  if (!need_pocl ())
    return;
  ks_window_show_page (window, "gauss-wg");
  /* 65536 items per group: no device allows it.  That point fails, the
   * sweep goes on, and the window says so in words. */
  set_param (page, "n", "32");
  set_param (page, "wg", "4,65536");
  set_reps (page, 1);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (wg_done, 120));
  results = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (results->points->len, ==, 2);
  g_assert_null (((KsRunPoint *) results->points->pdata[0])->error);
  g_assert_nonnull (((KsRunPoint *) results->points->pdata[1])->error);
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "1 of 2"));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "65536"));
}

static gboolean
wg_live_has_line (void)
{
  KsPlot *plot = page_plot ("gauss-wg");
  return ks_plot_get_n_vlines (plot) > 0 || !ks_window_get_running (window);
}

/* While a group-size sweep runs: the predicted optimum is drawn as soon as
 * the curves reach it (it once appeared only at the end), the run uses the
 * form as it was when Run was pressed (not when its kernels were built),
 * and "Use This Device" is greyed out with the reason. */
void
test_wg_live (void)
{
  KsExperimentPage *page = sweep_page ("gauss-wg");
  KsDevicesPage *devices = KS_DEVICES_PAGE (ks_window_get_page (window, "devices"));
  GtkWidget *use = child_of (devices, KS_TYPE_DEVICES_PAGE, "use_button");
  g_autofree char *tip = NULL;
  const KsRun *results;

  if (!need_pocl ())
    return;
  g_assert_true (gtk_widget_get_sensitive (use));
  ks_window_show_page (window, "gauss-wg");
  set_param (page, "n", "300,400");
  set_param (page, "wg", "");   /* the device's: 1 and the multiples of its preferred multiple */
  set_param (page, "precision", "float");
  set_reps (page, 1);
  g_action_group_activate_action (G_ACTION_GROUP (window), "run", NULL);
  g_assert_true (ks_window_get_running (window));
  /* The form is greyed out while it runs; changed anyway while the
   * kernels build, this run must not see it. */
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (ks_experiment_page_get_form (page))));
  set_reps (page, 2);
  set_param (page, "precision", "double");

  g_assert_false (gtk_widget_get_sensitive (use));
  tip = gtk_widget_get_tooltip_text (use);
  g_assert_nonnull (tip);
  g_test_message ("Use This Device during a run: %s", tip);

  g_assert_true (wait_for (wg_live_has_line, 120));
  g_assert_true (ks_window_get_running (window));
  g_assert_cmpuint (ks_plot_get_n_vlines (page_plot ("gauss-wg")), ==, 1);
  press_key (GDK_KEY_Escape, 0);
  g_assert_true (wait_for (not_running, 120));

  results = ks_experiment_page_get_newest (page);
  g_assert_nonnull (results);
  g_assert_cmpuint (results->reps, ==, 1);
  g_assert_cmpstr (g_hash_table_lookup (results->settings, "precision"), ==, "float");
  g_assert_cmpuint (ks_plot_get_n_vlines (page_plot ("gauss-wg")), ==, 1);
  g_assert_true (gtk_widget_get_sensitive (use));
  set_reps (page, 1);
  set_param (page, "precision", "float");
}
