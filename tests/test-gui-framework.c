/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The grouped sidebar and the generic experiment page, under a real X
 * server (run-xvfb.sh), through the test experiment declared only in
 * tests/ (ks-exp-test.c, "test-sweep") and registered before the window
 * exists: nothing in src/gui knows it, yet it gets a page with its form,
 * table, plot, paper numbers, settings, sessions and exports.  It measures
 * arithmetic, so every value is known (ks-exp-test.h): repetition k
 * (0-based from the point's start, warm-ups included) of a point measures
 * size × scale × factor (square 1, tall 2, wide 3) × (2 when fast) + k;
 * its label "block-at-N" holds size N until the run is stopped.  Run with
 * LANGUAGE=ru too (test-gui-framework-ru).  Real experiments' descriptions
 * on the generic page are test-gui-framework-real's. */
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-engine.h"
#include "ks-exp-test.h"
#include "ks-experiment-page.h"
#include "ks-registry.h"
#include "ks-run-table.h"
#include "ks-sidebar.h"
#include "test-gui-util.h"

/* --- helpers --------------------------------------------------------------------- */

/* test-gui-util.h's, by their short names here. */
#define test_page ks_test_sweep_page
#define test_form ks_test_sweep_form
#define set_field ks_test_sweep_set_field

static char *
field (const char *name)
{
  return ks_param_form_get_text (test_form (), name);
}

static const char *
host_id (void)
{
  KsDevice *host = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_HOST);
  g_assert_nonnull (host);
  return ks_device_get_id (host);
}

static const KsRunPoint *
find_point (const KsRun *run,
            gint64       size,
            const char  *shape)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      if (ks_run_point_get_number (run, p, "size") == size
          && g_strcmp0 (g_variant_get_string (ks_run_point_get_param (run, p, "shape"), NULL), shape) == 0)
        return p;
    }
  return NULL;
}

/* --- tests ----------------------------------------------------------------------- */

/* Five papers, each a group, a sixth for the test's own paper; the
 * hand-made pages in theirs; a group folds and unfolds; a page shown by
 * other means (a session, the tests) unfolds its group. */
/* Where the width goes: every visible widget wider than 200 pixels at its
 * least, nested, for the log of a window found too wide. */
static void
log_wide_widgets (GtkWidget *w, gpointer depth)
{
  int min, nat;

  gtk_widget_get_preferred_width (w, &min, &nat);
  if (min <= 200 || !gtk_widget_get_visible (w))
    return;
  g_test_message ("%*s%s min %d nat %d", GPOINTER_TO_INT (depth) * 2, "", G_OBJECT_TYPE_NAME (w), min, nat);
  if (GTK_IS_CONTAINER (w) && GPOINTER_TO_INT (depth) < 16)
    gtk_container_forall (GTK_CONTAINER (w), log_wide_widgets, GINT_TO_POINTER (GPOINTER_TO_INT (depth) + 1));
}

static void
test_sidebar (void)
{
  KsSidebar *sidebar = child_of (window, KS_TYPE_WINDOW, "sidebar");

  g_assert_true (KS_IS_EXPERIMENT_PAGE (test_page ()));
  g_assert_null (ks_sidebar_get_page_group (sidebar, "devices"));
  g_assert_cmpstr (ks_sidebar_get_page_group (sidebar, "gauss-solve"), ==, "000");
  g_assert_cmpstr (ks_sidebar_get_page_group (sidebar, "gauss-size"), ==, "000");
  g_assert_cmpstr (ks_sidebar_get_page_group (sidebar, "gauss-wg"), ==, "000");
  g_assert_cmpstr (ks_sidebar_get_page_group (sidebar, "test-sweep"), ==, "009");
  for (guint p = 0; p <= 4; p++)
    {
      g_autofree char *id = g_strdup_printf ("%03u", p);
      g_assert_true (ks_sidebar_get_expanded (sidebar, id));
    }

  ks_window_show_page (window, "devices");
  ks_sidebar_set_expanded (sidebar, "000", FALSE);
  spin (200);
  g_assert_false (ks_sidebar_page_visible (sidebar, "gauss-wg"));
  g_assert_true (ks_sidebar_page_visible (sidebar, "test-sweep"));
  ks_window_show_page (window, "gauss-wg");
  spin (200);
  g_assert_true (ks_sidebar_get_expanded (sidebar, "000"));
  g_assert_true (ks_sidebar_page_visible (sidebar, "gauss-wg"));

  /* The folded groups are remembered: a new window folds what the last
   * one closed with folded. */
  {
    GSettings *settings = ks_page_get_settings (KS_PAGE (test_page ()));
    const char *folded[] = { "003", NULL };
    g_auto(GStrv) saved = NULL;
    KsWindow *other;

    g_settings_set_strv (settings, "sidebar-folded", folded);
    other = ks_window_new (GTK_APPLICATION (app), ks_application_get_device_list (app), settings);
    g_assert_false (ks_sidebar_get_expanded (child_of (other, KS_TYPE_WINDOW, "sidebar"), "003"));
    g_assert_true (ks_sidebar_get_expanded (child_of (other, KS_TYPE_WINDOW, "sidebar"), "004"));
    ks_sidebar_set_expanded (child_of (other, KS_TYPE_WINDOW, "sidebar"), "004", FALSE);
    gtk_widget_show (GTK_WIDGET (other));
    spin (200);
    gtk_window_close (GTK_WINDOW (other));
    spin (200);
    saved = g_settings_get_strv (settings, "sidebar-folded");
    g_assert_cmpuint (g_strv_length (saved), ==, 2);
    g_assert_cmpstr (saved[0], ==, "003");
    g_assert_cmpstr (saved[1], ==, "004");
    g_settings_reset (settings, "sidebar-folded");
    gtk_window_present (GTK_WINDOW (window));
    spin (200);
  }

  /* A projector: the sidebar scrolls rather than pushing the window off it. */
  gtk_window_resize (GTK_WINDOW (window), 1024, 718);
  ks_window_show_page (window, "test-sweep");
  spin (600);
  {
    int w, h;

    /* Every page fits the projector's width, in both languages: the
     * stack is as wide as its widest page (the Devices page and the Gauss
     * forms were 1130 and 1028 pixels in Russian). */
    int min_w, nat_w;

    gtk_window_get_size (GTK_WINDOW (window), &w, &h);
    gtk_widget_get_preferred_width (GTK_WIDGET (window), &min_w, &nat_w);
    g_test_message ("at 1024 x 718: %d x %d, the least width %d", w, h, min_w);
    /* A real screen's window manager adds a frame, and another machine's
     * device names and font hinting a few pixels: the least width keeps
     * 24 pixels of the 1024 free. */
    if (w > 1024 || min_w > 1000)
      log_wide_widgets (GTK_WIDGET (window), 0);
    g_assert_cmpint (w, <=, 1024);
    g_assert_cmpint (min_w, <=, 1000);
  }
  ks_test_shot ("sidebar-1024x768");
  gtk_window_resize (GTK_WINDOW (window), 1200, 780);
  spin (300);
}


/* One widget per type, limits and units from the description; what a
 * condition or the device rules out is greyed out with the reason. */
static void
test_form_fields (void)
{
  KsParamForm *form = test_form ();
  g_autofree char *why = NULL;
  GtkWidget *depth = ks_param_form_get_field (form, "depth");
  GtkWidget *lanes = ks_param_form_get_field (form, "lanes");
  GtkAdjustment *adj;

  g_assert_true (ks_window_set_device_id (window, host_id ()));
  ks_window_show_page (window, "test-sweep");
  spin (200);
  g_assert_true (GTK_IS_ENTRY (ks_param_form_get_field (form, "size")));
  g_assert_true (GTK_IS_COMBO_BOX (ks_param_form_get_field (form, "shape")));
  g_assert_true (gtk_combo_box_get_has_entry (GTK_COMBO_BOX (ks_param_form_get_field (form, "shape"))));
  /* Swept numbers are entries with their range button; one value a spin
   * button with the description's limits. */
  g_assert_true (GTK_IS_ENTRY (depth) && !GTK_IS_SPIN_BUTTON (depth));
  g_assert_nonnull (ks_param_form_get_axis_button (form, "depth"));
  g_assert_nonnull (ks_param_form_get_axis_button (form, "size"));
  g_assert_null (ks_param_form_get_axis_button (form, "scale"));
  g_assert_true (GTK_IS_SPIN_BUTTON (ks_param_form_get_field (form, "scale")));
  g_assert_true (GTK_IS_SWITCH (ks_param_form_get_field (form, "fast")));
  g_assert_true (GTK_IS_SPIN_BUTTON (lanes));
  adj = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (lanes));
  g_assert_cmpfloat (gtk_adjustment_get_lower (adj), ==, 1);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), ==, 64);
  g_assert_nonnull (gtk_widget_get_ancestor (ks_param_form_get_field (form, "label"), GTK_TYPE_EXPANDER));
  g_assert_null (gtk_widget_get_ancestor (ks_param_form_get_field (form, "size"), GTK_TYPE_EXPANDER));

  /* depth applies to tall shapes only. */
  set_field ("shape", "square");
  g_assert_false (ks_param_form_applies (form, "depth", &why));
  g_assert_nonnull (why);
  g_assert_cmpstr (why, !=, "");
  g_assert_false (gtk_widget_get_sensitive (depth));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (depth), why));
  g_clear_pointer (&why, g_free);
  set_field ("shape", "square,tall");
  g_assert_true (ks_param_form_applies (form, "depth", NULL));
  g_assert_true (gtk_widget_get_sensitive (depth));

  /* lanes means nothing on the host. */
  g_assert_false (ks_param_form_applies (form, "lanes", &why));
  g_assert_false (gtk_widget_get_sensitive (ks_param_form_get_field (form, "lanes")));

  /* An axis that does not parse: the reason beside the field, and Run
   * refuses before anything is measured. */
  set_field ("size", "5:x");
  g_assert_cmpstr (ks_param_form_get_field_error (form, "size"), !=, "");
  g_test_message ("size 5:x: %s", ks_param_form_get_field_error (form, "size"));
  ks_test_shot ("experiment-form-error");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  spin (200);
  g_assert_false (ks_window_get_running (window));
  g_assert_cmpstr (ks_window_get_error_text (window), !=, "");
  /* The banner is the page's: another page shown, it goes. */
  ks_window_show_page (window, "devices");
  spin (50);
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
  ks_window_show_page (window, "test-sweep");
  set_field ("size", "1:6");
  g_assert_cmpstr (ks_param_form_get_field_error (form, "size"), ==, "");
}

/* Fill the form, run with Ctrl+R: every point in the table, the plot and
 * the files, with the values the arithmetic says; the paper's number
 * beside the run's. */
static void
test_run_and_export (void)
{
  KsExperimentPage *page = test_page ();
  g_autofree char *csv = g_build_filename (tmpdir, "gui-test.csv", NULL);
  g_autofree char *json = g_build_filename (tmpdir, "gui-test.json", NULL);
  g_autofree char *png = g_build_filename (tmpdir, "gui-test.png", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) loaded = NULL;
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autofree char *tooltip = NULL;
  const KsRunPoint *p;
  KsRun *run;

  g_assert_true (ks_window_set_device_id (window, host_id ()));
  ks_window_show_page (window, "test-sweep");
  set_field ("size", "1:6");
  set_field ("shape", "square,tall");
  set_field ("scale", "1.5");
  ks_experiment_page_set_repetitions (page, 1, 2);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 60));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");

  run = ks_experiment_page_get_newest (page);
  g_assert_nonnull (run);
  g_assert_true (run->complete);
  g_assert_cmpuint (run->points->len, ==, 12);
  g_assert_cmpuint (ks_run_count_measured (run), ==, 12);
  g_assert_cmpuint (total_points (ks_test_page_plot (page)), ==, 12);
  model = ks_experiment_page_get_table (page);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 12);

  /* size 2, square, scale 1.5, one warm-up: the timed repetitions are
   * k = 1 and 2, so 4 and 5. */
  p = find_point (run, 2, "square");
  g_assert_nonnull (p);
  g_assert_cmpfloat (p->lo[0], ==, 4);
  g_assert_cmpfloat (p->hi[0], ==, 5);
  p = find_point (run, 3, "tall");
  g_assert_cmpfloat (p->lo[0], ==, 10);
  g_assert_cmpfloat_with_epsilon (ks_run_measured_for (run, &ks_exp_test.paper_values[0], 0),
                                  find_point (run, 2, "square")->values[0], 1e-12);

  /* The row's tooltip: the point, its value and the description's words. */
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  gtk_tree_model_get (model, &iter,
                      gtk_tree_view_get_tooltip_column (GTK_TREE_VIEW (child_of (page, KS_TYPE_EXPERIMENT_PAGE,
                                                                                 "table_view"))),
                      &tooltip, -1);
  g_test_message ("row tooltip: %s", tooltip);
  g_assert_nonnull (strstr (tooltip, "measured 2 times"));
  ks_test_shot ("experiment-page");

  /* The same window actions as every page: CSV with one header line and
   * no comments, JSON that reads back, the plot as PNG. */
  g_assert_true (ks_window_export_as (window, "data", "csv", csv, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  lines = g_strsplit (g_strstrip (text), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 13);
  g_assert_true (g_str_has_prefix (lines[0], "device,size,shape,"));
  g_assert_nonnull (strstr (lines[0], "value_ms"));
  g_assert_true (ks_window_export_as (window, "data", "json", json, NULL, &error));
  g_assert_no_error (error);
  loaded = ks_run_load_json (json, &error);
  g_assert_no_error (error);
  g_assert_true (loaded->desc == &ks_exp_test);
  g_assert_cmpuint (loaded->points->len, ==, 12);
  g_assert_true (ks_window_export_as (window, "plot", "png", png, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
}

/* Several devices in one run: the header bar's, then the ones ticked under
 * "Also run on"; each a curve of the same figure, the command that makes
 * the run again naming both, the choice kept in the settings. */
static void
test_several_devices (void)
{
  KsExperimentPage *page = test_page ();
  const char *also[] = { ks_test_pocl_id (), NULL };
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) mine = NULL;
  const char *kept = NULL;
  KsRun *run;
  guint per_device[2] = { 0, 0 };

  if (also[0] == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) beside the host");
      return;
    }
  g_assert_true (ks_window_set_device_id (window, host_id ()));
  ks_window_show_page (window, "test-sweep");
  set_field ("size", "1:3");
  set_field ("shape", "square");
  ks_experiment_page_set_repetitions (page, 0, 1);
  ks_experiment_page_set_also_on (page, also);
  /* Only this run in the plot. */
  gtk_button_clicked (GTK_BUTTON (child_of (page, KS_TYPE_EXPERIMENT_PAGE, "clear_button")));
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 60));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");

  run = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (run->devices->len, ==, 2);
  g_assert_cmpstr (((KsRunDevice *) run->devices->pdata[0])->id, ==, host_id ());
  g_assert_cmpstr (((KsRunDevice *) run->devices->pdata[1])->id, ==, ks_test_pocl_id ());
  for (guint i = 0; i < run->points->len; i++)
    per_device[((KsRunPoint *) run->points->pdata[i])->device]++;
  g_assert_cmpuint (per_device[0], ==, 3);
  g_assert_cmpuint (per_device[1], ==, 3);
  g_assert_nonnull (strstr (run->command, host_id ()));
  g_assert_nonnull (strstr (run->command, ks_test_pocl_id ()));
  /* The table says which device measured each row. */
  {
    GtkTreeView *view = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "table_view");
    GtkTreeModel *model = ks_experiment_page_get_table (page);
    GtkTreeIter iter;
    g_autofree char *first = NULL;

    g_assert_cmpstr (gtk_tree_view_column_get_title (gtk_tree_view_get_column (view, 0)), ==, "device");
    g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, 5));
    gtk_tree_model_get (model, &iter, 0, &first, -1);
    g_assert_cmpstr (first, ==, ((KsRunDevice *) run->devices->pdata[1])->name);
  }
    /* One curve per device (one shape). */
  g_assert_cmpuint (ks_plot_get_n_series (ks_test_page_plot (page)), ==, 2);
  g_assert_cmpuint (total_points (ks_test_page_plot (page)), ==, 6);
  ks_test_shot ("experiment-page-two-devices");

  all = g_settings_get_value (ks_page_get_settings (KS_PAGE (page)), "experiment-params");
  mine = g_variant_lookup_value (all, "test-sweep", G_VARIANT_TYPE ("a{ss}"));
  g_assert_true (g_variant_lookup (mine, "@also_on", "&s", &kept));
  g_assert_cmpstr (kept, ==, ks_test_pocl_id ());

  /* The header bar's device is never its own "also". */
  g_assert_true (ks_window_set_device_id (window, ks_test_pocl_id ()));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), >, 0);
  ks_experiment_page_set_also_on (page, NULL);
  g_assert_true (ks_window_set_device_id (window, host_id ()));
}

static gboolean
two_points_in (void)
{
  KsRun *run = ks_experiment_page_get_newest (test_page ());
  return ks_window_get_running (window) && run != NULL && !ks_experiment_page_run_is_recorded (test_page (), 0)
         && run->points->len >= 2 && run->complete == FALSE && run->n_planned == 60;
}

/* Esc in the middle keeps every point measured, and says so. */
static void
test_stop (void)
{
  KsExperimentPage *page = test_page ();
  guint runs = ks_experiment_page_get_n_runs (page);
  KsRun *run;

  set_field ("size", "1:60");
  set_field ("shape", "square");
  set_field ("label", "block-at-3");   /* sizes 1 and 2, then size 3 until stopped */
  ks_experiment_page_set_repetitions (page, 0, 1);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (two_points_in, 30));
  press_key (GDK_KEY_Escape, 0);
  g_assert_true (wait_for (not_running, 30));
  run = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs + 1);
  g_assert_false (run->complete);
  g_assert_cmpuint (run->points->len, >=, 2);
  g_assert_cmpuint (run->points->len, <, 60);
  g_assert_cmpuint (total_points (ks_test_page_plot (page)), >=, 2);
  g_test_message ("stopped: %s", ks_window_get_error_text (window));
  g_assert_cmpstr (ks_window_get_error_text (window), !=, "");
  set_field ("label", "none");
}

/* A session gives back the form and every run of the generic page. */
static void
test_session (void)
{
  KsExperimentPage *page = test_page ();
  g_autofree char *path = g_build_filename (tmpdir, "framework-session.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *size = field ("size");
  guint runs = ks_experiment_page_get_n_runs (page);
  guint points = ks_experiment_page_get_newest (page)->points->len;
  g_autofree char *restored = NULL;

  g_assert_cmpuint (runs, >=, 2);
  g_assert_true (ks_window_save_session (window, path, &error));
  g_assert_no_error (error);
  set_field ("size", "7");
  gtk_button_clicked (child_of (page, KS_TYPE_EXPERIMENT_PAGE, "clear_button"));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-data"));

  g_assert_true (ks_window_load_session (window, path, &error));
  g_assert_no_error (error);
  restored = field ("size");
  g_assert_cmpstr (restored, ==, size);
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);
  g_assert_cmpuint (ks_experiment_page_get_newest (page)->points->len, ==, points);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-data"));

  /* A field the session could not read back is not saved: the error names
   * it, and the file on disk is the one saved before. */
  {
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;

    g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
    set_field ("size", "0:3");
    g_assert_false (ks_window_save_session (window, path, &error));
    g_test_message ("%s", error->message);
    g_assert_error (error, KS_SESSION_ERROR, KS_SESSION_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "size"));
    g_clear_error (&error);
    g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
    g_assert_cmpstr (before, ==, after);
    set_field ("size", size);
  }
}

/* The form is remembered per experiment in one settings key, and a new
 * page of the same experiment starts from it. */
static void
test_settings (void)
{
  GSettings *settings = ks_page_get_settings (KS_PAGE (test_page ()));
  g_autoptr(GVariant) all = NULL;
  g_autoptr(GVariant) mine = NULL;
  const char *size = NULL;
  GtkWidget *other;
  g_autofree char *text = NULL;

  g_assert_nonnull (settings);
  set_field ("size", "3:9:3");
  all = g_settings_get_value (settings, "experiment-params");
  mine = g_variant_lookup_value (all, "test-sweep", G_VARIANT_TYPE ("a{ss}"));
  g_assert_nonnull (mine);
  g_assert_true (g_variant_lookup (mine, "size", "&s", &size));
  g_assert_cmpstr (size, ==, "3:9:3");

  other = g_object_ref_sink (ks_experiment_page_new (&ks_exp_test));
  ks_page_set_settings (KS_PAGE (other), settings);
  text = ks_param_form_get_text (ks_experiment_page_get_form (KS_EXPERIMENT_PAGE (other)), "size");
  g_assert_cmpstr (text, ==, "3:9:3");
  gtk_widget_destroy (other);
  g_object_unref (other);
}

/* A run recorded elsewhere, in the reference folder: offered on the page,
 * and on a machine without a GPU drawn before anything is measured. */
static void
test_recorded (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "reference", NULL);
  g_autofree char *path = g_build_filename (dir, "elsewhere-gui-test.json", NULL);
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) paths = NULL;
  GtkWidget *page;

  g_assert_true (ks_engine_set (engine, "size", "1:5", &error));
  ks_engine_add_device (engine, ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_HOST));
  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (ks_run_write_json (ks_engine_get_run (engine), path, &error));
  g_setenv ("KERNELSCOPE_REFERENCE_DIR", dir, TRUE);

  page = g_object_ref_sink (ks_experiment_page_new (&ks_exp_test));
  g_assert_null (ks_experiment_page_get_recorded_paths (KS_EXPERIMENT_PAGE (page)));
  ks_experiment_page_find_recorded (KS_EXPERIMENT_PAGE (page));
  paths = ks_experiment_page_get_recorded_paths (KS_EXPERIMENT_PAGE (page));
  g_assert_cmpuint (paths->len, ==, 1);
  g_assert_cmpstr (paths->pdata[0], ==, path);
  if (ks_test_has_gpu ())
    g_assert_cmpuint (ks_experiment_page_get_n_runs (KS_EXPERIMENT_PAGE (page)), ==, 0);
  else
    {
      g_assert_cmpuint (ks_experiment_page_get_n_runs (KS_EXPERIMENT_PAGE (page)), ==, 1);
      g_assert_true (ks_experiment_page_run_is_recorded (KS_EXPERIMENT_PAGE (page), 0));
      g_assert_cmpuint (total_points (ks_test_page_plot (KS_EXPERIMENT_PAGE (page))), ==, 5);
    }
  /* The menu's entry adds it (again) on demand. */
  g_action_group_activate_action (gtk_widget_get_action_group (page, "experiment"), "add-recorded",
                                  g_variant_new_string (path));
  g_assert_true (ks_experiment_page_run_is_recorded (KS_EXPERIMENT_PAGE (page),
                                                     ks_experiment_page_get_n_runs (KS_EXPERIMENT_PAGE (page)) - 1));
  gtk_widget_destroy (page);
  g_object_unref (page);
  g_unsetenv ("KERNELSCOPE_REFERENCE_DIR");
}

/* The framework's own test experiment (tests/ks-exp-test.c) gets a page
 * too: its file parameter a file chooser that applies only with source =
 * file (and then needs a file), its text parameter an entry folded away,
 * and a point its measuring function refuses listed with the reason while
 * the sweep goes on. */
static void
test_framework_experiment (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "test-sweep"));
  KsParamForm *form;
  KsRun *run;
  guint refused = 0;

  g_assert_nonnull (page);
  form = ks_experiment_page_get_form (page);
  g_assert_true (GTK_IS_FILE_CHOOSER_BUTTON (ks_param_form_get_field (form, "input")));
  g_assert_false (ks_param_form_applies (form, "input", NULL));
  g_assert_true (ks_param_form_set_text (form, "source", "file"));
  g_assert_true (ks_param_form_applies (form, "input", NULL));
  g_assert_cmpstr (ks_param_form_get_field_error (form, "input"), !=, "");
  g_assert_true (ks_param_form_set_text (form, "source", "generated"));
  g_assert_true (GTK_IS_ENTRY (ks_param_form_get_field (form, "label")));
  g_assert_nonnull (gtk_widget_get_ancestor (ks_param_form_get_field (form, "label"), GTK_TYPE_EXPANDER));

  g_assert_true (ks_window_set_device_id (window, host_id ()));
  ks_window_show_page (window, "test-sweep");
  g_assert_true (ks_param_form_set_text (form, "size", "1:4"));
  g_assert_true (ks_param_form_set_text (form, "shape", "wide"));
  ks_experiment_page_set_repetitions (page, 0, 1);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 30));
  run = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (run->points->len, ==, 4);
  for (guint i = 0; i < run->points->len; i++)
    if (((KsRunPoint *) run->points->pdata[i])->error != NULL)
      {
        refused++;
        g_assert_cmpfloat (ks_run_point_get_number (run, run->points->pdata[i], "size"), ==, 3);
      }
  g_assert_cmpuint (refused, ==, 1);
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "1 of 4"));
  ks_test_shot ("experiment-page-refused");
}

/* F9 (presenting): the sidebar and the generated form step aside for the
 * plot, and come back. */
static void
test_presenting (void)
{
  KsExperimentPage *page = test_page ();
  GtkWidget *sidebar = child_of (window, KS_TYPE_WINDOW, "sidebar");
  GtkWidget *form = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "form_scroller");
  GtkWidget *plot = GTK_WIDGET (ks_page_get_plot_view (KS_PAGE (page)));
  int before;

  ks_window_show_page (window, "test-sweep");
  spin (200);
  before = gtk_widget_get_allocated_width (plot);
  press_key (GDK_KEY_F9, 0);
  spin (300);
  g_assert_false (gtk_widget_get_visible (sidebar));
  g_assert_false (gtk_widget_get_visible (form));
  g_assert_cmpint (gtk_widget_get_allocated_width (plot), >, before + 300);
  press_key (GDK_KEY_F9, 0);
  spin (300);
  g_assert_true (gtk_widget_get_visible (sidebar));
  g_assert_true (gtk_widget_get_visible (form));
  g_assert_cmpint (gtk_widget_get_allocated_width (plot), ==, before);
}

static gboolean
running (void)
{
  return ks_window_get_running (window);
}

/* Closing the window in the middle of a generated page's run: the page
 * outlives it until the worker is off the device, then everything goes
 * (the application's hold is released, nothing touches the freed window). */
static void
test_close_mid_run (void)
{
  set_field ("size", "1:50");
  set_field ("shape", "square");
  set_field ("label", "block-at-2");   /* held there until the window's close stops it */
  ks_experiment_page_set_repetitions (test_page (), 0, 1);
  ks_window_show_page (window, "test-sweep");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (running, 30));
  spin (300);
  gtk_window_close (GTK_WINDOW (window));
  window = NULL;
  /* Long enough for the point in flight to end and the task to return. */
  spin (1500);
  g_assert_null (gtk_application_get_active_window (GTK_APPLICATION (app)));
}

/* No two mnemonics on the generated page share a key, in either language. */
static void
test_mnemonics (void)
{
  g_autoptr(GHashTable) keys = g_hash_table_new (NULL, NULL);
  g_autoptr(GString) clashes = g_string_new (NULL);

  ks_window_show_page (window, "test-sweep");
  spin (300);
  collect_mnemonics (GTK_WIDGET (window), keys, clashes);
  g_test_message ("gui-test: %u mnemonics", g_hash_table_size (keys));
  g_assert_cmpuint (g_hash_table_size (keys), >=, 5);
  g_assert_cmpstr (clashes->str, ==, "");
  /* Every field of the generated form is reached with Alt and a letter. */
  for (guint i = 0; i < ks_exp_test.n_params; i++)
    {
      GtkWidget *field = ks_param_form_get_field (test_form (), ks_exp_test.params[i].name);
      GList *labels = gtk_widget_list_mnemonic_labels (field);
      guint key = labels ? gtk_label_get_mnemonic_keyval (labels->data) : GDK_KEY_VoidSymbol;

      g_test_message ("%s: Alt+%s", ks_exp_test.params[i].name, gdk_keyval_name (key));
      g_assert_cmpuint (key, !=, GDK_KEY_VoidSymbol);
      g_list_free (labels);
    }
}

/* Under LANGUAGE=ru the page's own words are Russian (the description's
 * are the test's, untranslated). */
static void
test_translation (void)
{
  const char *lang = g_getenv ("LANGUAGE");
  GtkWidget *expander = child_of (test_page (), KS_TYPE_EXPERIMENT_PAGE, "claim_label");
  const char *label;

  expander = gtk_widget_get_parent (expander);
  label = gtk_expander_get_label (GTK_EXPANDER (expander));
  if (lang == NULL || !g_str_has_prefix (lang, "ru"))
    {
      g_assert_cmpstr (label, ==, "What the _paper claims");
      return;
    }
  g_assert_cmpstr (label, !=, "What the _paper claims");
}

int
main (int argc, char **argv)
{
  gboolean russian = g_getenv ("LANGUAGE") != NULL && g_str_has_prefix (g_getenv ("LANGUAGE"), "ru");
  int status;

  /* Before the window exists: the registry is where its pages come from. */
  ks_exp_test_register ();
  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui-framework/sidebar", test_sidebar);
  g_test_add_func ("/gui-framework/form-fields", test_form_fields);
  g_test_add_func ("/gui-framework/run-and-export", test_run_and_export);
  g_test_add_func ("/gui-framework/mnemonics", test_mnemonics);
  g_test_add_func ("/gui-framework/translation", test_translation);
  if (!russian)
    {
      g_test_add_func ("/gui-framework/several-devices", test_several_devices);
      g_test_add_func ("/gui-framework/stop", test_stop);
      g_test_add_func ("/gui-framework/session", test_session);
      g_test_add_func ("/gui-framework/settings", test_settings);
      g_test_add_func ("/gui-framework/recorded", test_recorded);
      g_test_add_func ("/gui-framework/framework-experiment", test_framework_experiment);
      g_test_add_func ("/gui-framework/presenting", test_presenting);
      g_test_add_func ("/gui-framework/close-mid-run", test_close_mid_run);
    }
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
