/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real window under a real X server (Xvfb, see run-xvfb.sh): the app is
 * started as a user starts it, keys go through the X server, runs happen on
 * PoCL, and what the plot holds is checked point by point.  With
 * KERNELSCOPE_SCREENSHOT_DIR set, each page is photographed from the X
 * server into that folder (data/screenshots/ in the repository).  The
 * Gauss sweep pages' tests are in test-gui-size.c and test-gui-wg.c
 * (test-gui.h says what the three files share). */
#include <gtk/gtk.h>
#include <gdk/gdkx.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "ks-application.h"
#include "ks-devices-page.h"
#include "ks-gauss-solve-page.h"
#include "ks-help-dialog.h"
#include "ks-gui-paths.h"
#include "ks-axis-button.h"
#include "ks-experiment-page.h"
#include "ks-ogs.h"
#include "ks-exp-gauss.h"
#include "ks-run.h"
#include "ks-run-table.h"
#include "ks-window.h"
#include "test-gui-util.h"
#include "test-gui.h"

GtkWidget *spare_window;   /* a second window, destroyed at the end */

KsExperimentPage *
sweep_page (const char *name)
{
  return KS_EXPERIMENT_PAGE (ks_window_get_page (window, name));
}

/* A field of the page's form, as the CLI would take it. */
void
set_param (KsExperimentPage *page,
           const char       *name,
           const char       *text)
{
  g_assert_true (ks_param_form_set_text (ks_experiment_page_get_form (page), name, text));
}

char *
get_param (KsExperimentPage *page,
           const char       *name)
{
  return ks_param_form_get_text (ks_experiment_page_get_form (page), name);
}

/* The size sweep's range, through the From / To / Step of n's range
 * button, as a user sets it. */
void
set_sizes (KsExperimentPage *page,
           const char       *from,
           const char       *to,
           const char       *step)
{
  KsAxisButton *axis = KS_AXIS_BUTTON (ks_param_form_get_axis_button (ks_experiment_page_get_form (page), "n"));
  const char *values[] = { from, to, step };

  /* To first, so a From above the old To never makes the field refuse. */
  gtk_spin_button_set_value (ks_axis_button_get_spin (axis, 1), 1000000);
  for (guint i = 0; i < 3; i++)
    gtk_spin_button_set_value (ks_axis_button_get_spin (axis, i), g_ascii_strtod (values[i], NULL));
}

/* Repetitions, with one warm-up as the old pages had. */
void
set_reps (KsExperimentPage *page,
          guint             reps)
{
  ks_experiment_page_set_repetitions (page, 1, reps);
}

/* The runs the user measured (a machine without a GPU also shows a
 * recorded run before anything is measured). */
guint
own_runs (KsExperimentPage *page)
{
  guint n = 0;

  for (guint i = 0; i < ks_experiment_page_get_n_runs (page); i++)
    n += !ks_experiment_page_run_is_recorded (page, i);
  return n;
}

/* The points of the user's own curves (recorded ones are named so). */
guint
own_points (KsPlot *plot,
            guint  *n_series)
{
  guint n = 0, points = 0;

  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    if (strstr (ks_plot_series_get_name (plot, s), "recorded") == NULL)
      n++, points += ks_plot_series_get_n_points (plot, s);
  if (n_series != NULL)
    *n_series = n;
  return points;
}

/* The plot's curve of the user's newest run (the user's runs come first,
 * recorded ones after them). */
guint
own_series (KsPlot *plot)
{
  guint last = 0;

  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    if (strstr (ks_plot_series_get_name (plot, s), "recorded") == NULL)
      last = s;
  return last;
}

KsPlot *
page_plot (const char *name)
{
  return ks_plot_view_get_plot (ks_page_get_plot_view (ks_window_get_page (window, name)));
}

const char *
pocl_id (void)
{
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL);
  return d ? ks_device_get_id (d) : NULL;
}

/* Every run needs PoCL; without it the test says so and skips. */
gboolean
need_pocl (void)
{
  if (pocl_id () != NULL)
    return TRUE;
  g_test_skip ("no OpenCL device (PoCL) on this machine");
  return FALSE;
}

/* The short driver-policy size sweep several tests run: n = 20..60, one
 * solve a point, on the size page. */
void
prepare_short_sweep (KsExperimentPage *page)
{
  ks_window_show_page (window, "gauss-size");
  set_sizes (page, "20", "60", "1");
  set_reps (page, 1);
  set_param (page, "local", "driver");
}

static void
test_window_opens (void)
{
  const char *pages[] = { "devices", "gauss-solve", "gauss-size", "gauss-wg" };

  g_assert_nonnull (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window)));
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    g_assert_nonnull (ks_window_get_page (window, pages[i]));
  if (!need_pocl ())
    return;
  g_assert_true (ks_window_set_device_id (window, pocl_id ()));
  g_assert_cmpstr (ks_device_get_id (ks_window_get_device (window)), ==, pocl_id ());
}

static gboolean
bandwidth_known (void)
{
  return ks_device_get_bandwidth (ks_window_get_device (window)) > 0;
}

static gboolean
probe_done (void)
{
  return !ks_devices_page_get_measuring (KS_DEVICES_PAGE (ks_window_get_page (window, "devices")));
}

static void
test_devices_page (void)
{
  KsDevicesPage *page = KS_DEVICES_PAGE (ks_window_get_page (window, "devices"));
  KsDevice *device;
  KsOgsPrediction p;

  press_key (GDK_KEY_0, GDK_MOD1_MASK);   /* Alt+0: Devices */
  g_assert_true (ks_window_get_visible_page (window) == KS_PAGE (page));
  device = ks_devices_page_get_selected (page);
  g_assert_true (device == ks_window_get_device (window));
  /* What the page shows is the rule on the device's own numbers. */
  if (ks_ogs_predict (ks_device_get_preferred_multiple (device), ks_device_get_cores_per_cu (device),
                      ks_device_get_info (device)->compute_units,
                      ks_device_get_info (device)->max_work_group_size, &p))
    g_assert_cmpuint (ks_devices_page_get_prediction (page), ==, p.ogs);
  /* The bandwidth probe runs off the main thread and lands in the page. */
  if (ks_device_get_backend (device) != KS_BACKEND_HOST)
    {
      ks_devices_page_measure_bandwidth (page);
      /* While the probe runs, no experiment may start beside it. */
      g_assert_true (ks_devices_page_get_measuring (page));
      g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "run"));
      g_assert_true (wait_for (bandwidth_known, 120));
      g_assert_true (wait_for (probe_done, 30));
      g_test_message ("triad bandwidth of %s: %.1f GB/s", ks_device_get_name (device),
                      ks_device_get_bandwidth (device));
    }
  screenshot ("devices.png");
}

static GtkWidget *
find_toplevel (GType type)
{
  GList *all = gtk_window_list_toplevels ();
  GtkWidget *found = NULL;

  for (GList *l = all; l && !found; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type) && gtk_widget_get_visible (l->data))
      found = l->data;
  g_list_free (all);
  return found;
}

static void
test_clipboard_and_dialogs (void)
{
  GtkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (window), GDK_SELECTION_CLIPBOARD);
  g_autoptr(GdkPixbuf) image = NULL;
  GtkWidget *w;

  if (!need_pocl ())
    return;
  /* Ctrl+Shift+C puts the plot on the clipboard, read back through X. */
  ks_window_show_page (window, "gauss-size");
  press_key (GDK_KEY_C, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  image = gtk_clipboard_wait_for_image (clipboard);
  g_assert_nonnull (image);
  g_assert_cmpint (gdk_pixbuf_get_width (image), >=, 800);
  /* ...and the window confirms it, quietly. */
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "clipboard"));

  /* F1: help for the page; the About dialog; the shortcuts window. */
  press_key (GDK_KEY_F1, 0);
  w = find_toplevel (KS_TYPE_HELP_DIALOG);
  g_assert_nonnull (w);
  gtk_widget_destroy (w);
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  spin (300);
  w = find_toplevel (GTK_TYPE_ABOUT_DIALOG);
  g_assert_nonnull (w);
  gtk_widget_destroy (w);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  spin (300);
  w = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
  g_assert_nonnull (w);
  gtk_widget_hide (w);
  spin (100);
}

static gboolean
solve_done (void)
{
  return !ks_window_get_running (window);
}

static void
test_single_solve (void)
{
  KsGaussSolvePage *page = KS_GAUSS_SOLVE_PAGE (ks_window_get_page (window, "gauss-solve"));
  const KsGaussResult *r;

  if (!need_pocl ())
    return;
  ks_window_show_page (window, "gauss-solve");
  ks_gauss_solve_page_set_size (page, 300);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (solve_done, 120));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
  r = ks_gauss_solve_page_get_result (page);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->n, ==, 300);
  g_assert_cmpfloat (r->residual, <, 1e-3);
  g_assert_cmpuint (r->fwd_local[0], >, 0);
  g_assert_cmpfloat (r->kernel_ms[1], >, 0);
  screenshot ("gauss-solve.png");

  /* Stopped mid-solve: the last figures stay, and the window does not
   * claim that a point was kept (it once said "the 1 point ... is kept"). */
  ks_gauss_solve_page_set_size (page, 3000);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (ks_window_get_running (window));
  spin (300);
  press_key (GDK_KEY_Escape, 0);
  g_assert_true (wait_for (solve_done, 120));
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "nothing new was measured"));
  g_assert_cmpuint (ks_gauss_solve_page_get_result (page)->n, ==, 300);

  /* The blocked kernels from the launch list: 3 x 10 - 1 launches at
   * n = 300, and the paper's kernels marked as not run. */
  {
    GtkWidget *launch = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (page), KS_TYPE_GAUSS_SOLVE_PAGE,
                                                                     "launch_combo");

    ks_gauss_solve_page_set_size (page, 300);
    g_assert_true (gtk_combo_box_set_active_id (GTK_COMBO_BOX (launch), "blocked"));
    press_key (GDK_KEY_r, GDK_CONTROL_MASK);
    g_assert_true (wait_for (solve_done, 120));
    g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
    r = ks_gauss_solve_page_get_result (page);
    g_assert_cmpint (r->launch, ==, KS_LAUNCH_BLOCKED);
    g_assert_cmpuint (r->launches, ==, 29);
    g_assert_cmpfloat (r->residual, <, 1e-3);
    screenshot ("gauss-solve-blocked.png");
    /* The host launches nothing: back to the paper's loops, the list greyed. */
    g_assert_true (ks_window_set_device_id (window, "host"));
    g_assert_cmpstr (gtk_combo_box_get_active_id (GTK_COMBO_BOX (launch)), ==, "stream");
    g_assert_false (gtk_widget_get_sensitive (launch));
    g_assert_true (ks_window_set_device_id (window, pocl_id ()));
    g_assert_true (gtk_widget_get_sensitive (launch));
  }

  /* The host runs plain loops: the group fields are greyed out and a line
   * says why; back on PoCL they return. */
  {
    GtkWidget *local = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (page), KS_TYPE_GAUSS_SOLVE_PAGE,
                                                                    "local_combo");
    GtkWidget *note = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (page), KS_TYPE_GAUSS_SOLVE_PAGE,
                                                                   "host_note");

    g_assert_true (ks_window_set_device_id (window, "host"));
    g_assert_false (gtk_widget_get_sensitive (local));
    g_assert_true (gtk_widget_get_visible (note));
    g_assert_true (ks_window_set_device_id (window, pocl_id ()));
    g_assert_true (gtk_widget_get_sensitive (local));
    g_assert_false (gtk_widget_get_visible (note));
  }
  ks_gauss_solve_page_set_size (page, 300);
}

/* Runs the page with the kernels read from dir (broken ones) and returns
 * what the window says, which must mention the compiler's error. */
static const char *
run_with_kernels_from (const char *dir,
                       const char *page)
{
  const char *text;

  g_setenv ("KERNELSCOPE_KERNEL_DIR", dir, TRUE);
  ks_window_show_page (window, page);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (solve_done, 120));
  g_unsetenv ("KERNELSCOPE_KERNEL_DIR");
  text = ks_window_get_error_text (window);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "error"));
  return text;
}

static void
test_build_failure_shown (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "broken-kernels", NULL);
  g_autofree char *file = g_build_filename (dir, "gauss.cl", NULL);
  const char *text;

  if (!need_pocl ())
    return;
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_set_contents (file, "__kernel void gauss_fwd(__global float *a) { this is not C; }\n",
                                      -1, NULL));
  /* In the window, in words, with the compiler's log under Details. */
  text = run_with_kernels_from (dir, "gauss-solve");
  g_assert_nonnull (strstr (text, "\n"));
  /* The log names the user's file and line, not PoCL's copy in its cache. */
  g_assert_null (strstr (text, "tempfile_"));
  g_assert_nonnull (strstr (text, "gauss.cl:1:"));
  {
    /* The screenshot shows the log itself, as a user who opens Details sees it. */
    GtkExpander *details = GTK_EXPANDER (gtk_widget_get_template_child (GTK_WIDGET (window), KS_TYPE_WINDOW,
                                                                        "info_details_expander"));
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (details)));
    gtk_expander_set_expanded (details, TRUE);
    spin (300);
    screenshot ("error-build-log.png");
    gtk_expander_set_expanded (details, FALSE);
  }

  /* The same failure in a sweep: said in the window, and the run that
   * measured nothing is not left behind as an empty entry in the list. */
  {
    KsExperimentPage *sweep = sweep_page ("gauss-size");
    guint runs = ks_experiment_page_get_n_runs (sweep);

    set_sizes (sweep, "20", "24", "1");
    run_with_kernels_from (dir, "gauss-size");
    g_assert_cmpuint (ks_experiment_page_get_n_runs (sweep), ==, runs);
  }
}

static void
test_dark_theme (void)
{
  KsPlotView *view = ks_page_get_plot_view (ks_window_get_page (window, "gauss-size"));
  KsPlotTheme light, dark;

  ks_window_show_page (window, "gauss-size");
  ks_plot_view_get_theme (view, &light);
  g_action_group_change_action_state (G_ACTION_GROUP (app), "dark-style", g_variant_new_boolean (TRUE));
  spin (300);
  ks_plot_view_get_theme (view, &dark);
  g_action_group_change_action_state (G_ACTION_GROUP (app), "dark-style", g_variant_new_boolean (FALSE));
  spin (300);
  /* Adwaita dark: a dark background with light text, read from the theme. */
  if (dark.background.r + dark.background.g + dark.background.b
      >= light.background.r + light.background.g + light.background.b)
    {
      g_test_skip ("this GTK theme has no dark variant");
      return;
    }
  g_assert_cmpfloat (dark.foreground.r + dark.foreground.g + dark.foreground.b, >,
                     dark.background.r + dark.background.g + dark.background.b + 1.0);
}

static void
test_dark_screenshot (void)
{
  if (g_getenv ("KERNELSCOPE_SCREENSHOT_DIR") == NULL)
    return;
  ks_window_show_page (window, "gauss-size");
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  g_action_group_change_action_state (G_ACTION_GROUP (app), "dark-style", g_variant_new_boolean (TRUE));
  screenshot ("gauss-size-dark.png");
  g_action_group_change_action_state (G_ACTION_GROUP (app), "dark-style", g_variant_new_boolean (FALSE));
}

/* F9 for a projector: the sidebar and the form step aside, the plot takes
 * their width; F9 again brings them back. */
static void
test_presenting (void)
{
  GtkWidget *sidebar = (GtkWidget *) gtk_widget_get_template_child (GTK_WIDGET (window), KS_TYPE_WINDOW,
                                                                    "sidebar");
  GtkWidget *plot = GTK_WIDGET (ks_page_get_plot_view (ks_window_get_page (window, "gauss-size")));
  int before, during;

  ks_window_show_page (window, "gauss-size");
  spin (200);
  before = gtk_widget_get_allocated_width (plot);
  press_key (GDK_KEY_F9, 0);
  spin (300);
  during = gtk_widget_get_allocated_width (plot);
  g_test_message ("plot width %d -> %d", before, during);
  g_assert_false (gtk_widget_get_visible (sidebar));
  g_assert_false (ks_page_get_controls_visible (ks_window_get_page (window, "gauss-wg")));
  g_assert_cmpint (during, >, before + 300);
  screenshot ("gauss-size-presenting.png");
  press_key (GDK_KEY_F9, 0);
  spin (300);
  g_assert_true (gtk_widget_get_visible (sidebar));
  g_assert_true (ks_page_get_controls_visible (ks_window_get_page (window, "gauss-size")));
  g_assert_cmpint (gtk_widget_get_allocated_width (plot), ==, before);
}

gboolean running (void) { return ks_window_get_running (window); }

gboolean
action_enabled (const char *name)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (window), name);
}

/* The Save dialog of "Export …", answered with name. */
static void
answer_chooser_in (const char *folder,
                   const char *name)
{
  GtkWidget *dialog;

  spin (300);
  dialog = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (dialog);
  /* The name before the folder, and answered at once: the name entry
   * completes "fig" to a "fig.png" already in a folder it has listed. */
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  spin (300);
}

static void
answer_chooser (const char *name)
{
  answer_chooser_in (tmpdir, name);
}

/* "Export Plot as PNG…" with a name without an ending writes a PNG named
 * so, and "Export Data as CSV…" a CSV: the menu's format decides, not a
 * guess from the name (a CSV once came out as JSON, a PNG as an error). */
static void
test_export_chosen_format (void)
{
  g_autofree char *png = g_build_filename (tmpdir, "fig.png", NULL);
  g_autofree char *csv = g_build_filename (tmpdir, "table.csv", NULL);
  g_autofree char *json = g_build_filename (tmpdir, "table.json", NULL);
  g_autofree char *base = NULL;
  g_autofree char *text = NULL;
  GtkWidget *question;
  gsize len;

  if (!need_pocl ())
    return;
  ks_window_show_page (window, "gauss-size");
  /* A run of this page's own to export, whatever the tests before left
   * (a session opened over it, or nothing when run alone): a recorded
   * run alone is no data of this page's. */
  {
    KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "gauss-size"));
    const char *settings[] = { "n", "20:24", NULL };

    if (!ks_page_has_data (KS_PAGE (page)))
      ks_test_run_page (page, settings);
    g_assert_true (ks_page_has_data (KS_PAGE (page)));
  }
  g_assert_true (action_enabled ("export-plot"));

  g_action_group_activate_action (G_ACTION_GROUP (window), "export-plot", g_variant_new_string ("png"));
  answer_chooser ("fig");
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_true (g_file_get_contents (png, &text, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_cmpint (memcmp (text, "\x89PNG", 4), ==, 0);
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "fig.png"));
  g_clear_pointer (&text, g_free);

  g_action_group_activate_action (G_ACTION_GROUP (window), "export-data", g_variant_new_string ("csv"));
  answer_chooser ("table");
  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  g_assert_false (g_file_test (json, G_FILE_TEST_EXISTS));
  g_assert_true (text[0] != '{');
  g_assert_nonnull (strstr (text, ","));
  g_clear_pointer (&text, g_free);

  /* "fig" where a "fig.png" is: the chooser asked about "fig" only, so
   * the window asks before it replaces "fig.png".  (Driven past the
   * chooser, whose name entry completes "fig" to "fig.png" by itself.) */
  base = g_build_filename (tmpdir, "fig", NULL);
  g_assert_true (g_file_set_contents (png, "old", -1, NULL));
  ks_window_export_chosen (window, "plot", "png", base);
  spin (200);
  question = find_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (question);
  gtk_dialog_response (GTK_DIALOG (question), GTK_RESPONSE_CANCEL);
  spin (200);
  g_assert_true (g_file_get_contents (png, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, "old");
  g_clear_pointer (&text, g_free);
  ks_window_export_chosen (window, "plot", "png", base);
  spin (200);
  question = find_toplevel (GTK_TYPE_MESSAGE_DIALOG);
  g_assert_nonnull (question);
  gtk_dialog_response (GTK_DIALOG (question), GTK_RESPONSE_ACCEPT);
  spin (200);
  g_assert_true (g_file_get_contents (png, &text, &len, NULL));
  g_assert_cmpint (memcmp (text, "\x89PNG", 4), ==, 0);
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "fig.png"));

  /* The name as the menu's format has it is kept as typed. */
  {
    g_autofree char *kept = ks_window_export_file_name ("/x/Fig.PNG", "png");
    g_autofree char *added = ks_window_export_file_name ("/x/fig.svg", "png");
    g_assert_cmpstr (kept, ==, "/x/Fig.PNG");
    g_assert_cmpstr (added, ==, "/x/fig.svg.png");
  }
}

static gboolean
stack_settled (void)
{
  return !gtk_stack_get_transition_running (GTK_STACK (child_of (window, KS_TYPE_WINDOW, "stack")));
}

/* No two mnemonics the user can reach at once share a key, on any page, in
 * English and in Russian (run with LANGUAGE=ru): with two, Alt+key only
 * moves the focus between them and activates neither. */
static void
test_mnemonics (void)
{
  const char *pages[] = { "devices", "gauss-solve", "gauss-size", "gauss-wg" };
  GtkWidget *stop = child_of (window, KS_TYPE_WINDOW, "stop_button");
  g_autoptr(GError) details = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED,
                                                   "first line\nmore under Details");
  g_autoptr(GString) clashes = g_string_new (NULL);

  g_assert_false (ks_window_get_running (window));
  /* Everything that can be on screen: Stop beside Run, the error bar with
   * its Details, Reset Zoom. */
  gtk_widget_show (stop);
  ks_window_show_error (window, "error", details);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      KsPage *page = ks_window_get_page (window, pages[i]);
      GtkWidget *zoom = KS_IS_EXPERIMENT_PAGE (page) ? child_of (page, KS_TYPE_EXPERIMENT_PAGE, "reset_zoom_button")
                                                     : NULL;
      g_autoptr(GHashTable) keys = g_hash_table_new (NULL, NULL);

      ks_window_show_page (window, pages[i]);
      if (zoom != NULL)
        gtk_widget_show (zoom);
      spin (400);
      /* Mid-crossfade both pages are mapped (a loaded machine is slow). */
      g_assert_true (wait_for (stack_settled, 10));
      collect_mnemonics (GTK_WIDGET (window), keys, clashes);
      g_test_message ("%s: %u mnemonics", pages[i], g_hash_table_size (keys));
      g_assert_cmpuint (g_hash_table_size (keys), >=, 5);
      if (zoom != NULL)
        gtk_widget_set_visible (zoom, ks_plot_view_get_zoomed (ks_page_get_plot_view (page)));
    }
  gtk_widget_hide (stop);
  gtk_info_bar_set_revealed (GTK_INFO_BAR (child_of (window, KS_TYPE_WINDOW, "info_bar")), FALSE);
  ks_window_show_page (window, "gauss-size");
  g_assert_cmpstr (clashes->str, ==, "");
}

/* The cores per compute unit typed on the Devices page survive a restart
 * (a GSettings key, here the memory backend) and travel in sessions. */
static void
test_cores_remembered (void)
{
  KsDevicesPage *page = KS_DEVICES_PAGE (ks_window_get_page (window, "devices"));
  GSettings *settings = ks_page_get_settings (KS_PAGE (page));
  KsDeviceList *list = ks_application_get_device_list (app);
  KsDevice *device;
  GtkWidget *cores = child_of (page, KS_TYPE_DEVICES_PAGE, "cores_spin");
  g_autofree char *session = g_build_filename (tmpdir, "cores.json", NULL);
  g_autofree char *clear = g_build_filename (tmpdir, "cores-clear.json", NULL);
  g_autoptr(GVariant) dict = NULL;
  g_autoptr(GError) error = NULL;
  guint table, saved = 0;

  g_assert_nonnull (settings);
  ks_window_show_page (window, "devices");
  device = ks_devices_page_get_selected (page);
  g_assert_true (device == ks_window_get_device (window));
  table = ks_device_get_cores_per_cu (device);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (cores), table + 5);
  g_assert_cmpuint (ks_device_get_cores_per_cu (device), ==, table + 5);
  dict = g_settings_get_value (settings, "cores-per-cu");
  g_assert_true (g_variant_lookup (dict, ks_device_get_id (device), "u", &saved));
  g_assert_cmpuint (saved, ==, table + 5);

  /* A restart: the device forgets, a new page reads the setting back. */
  ks_device_set_cores_per_cu (device, 0);
  g_assert_cmpuint (ks_device_get_cores_per_cu (device), ==, table);
  {
    GtkWidget *fresh = g_object_ref_sink (g_object_new (KS_TYPE_DEVICES_PAGE, NULL));

    ks_page_set_settings (KS_PAGE (fresh), settings);
    ks_devices_page_set_device_list (KS_DEVICES_PAGE (fresh), list);
    g_assert_cmpuint (ks_device_get_cores_per_cu (device), ==, table + 5);
    gtk_widget_destroy (fresh);
    g_object_unref (fresh);
  }

  /* In a session, and back from it. */
  g_assert_true (ks_window_save_session (window, session, &error));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (cores), table + 9);
  g_assert_cmpuint (ks_device_get_cores_per_cu (device), ==, table + 9);
  g_assert_true (ks_window_load_session (window, session, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ks_device_get_cores_per_cu (device), ==, table + 5);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (cores)), ==, (int) table + 5);

  /* A session without overrides gives the table's value back. */
  g_assert_true (g_file_set_contents (clear, "{\"format\":\"kernelscope-session\",\"version\":1,"
                                      "\"pages\":{\"devices\":{\"cores-per-cu\":{}}}}", -1, NULL));
  g_assert_true (ks_window_load_session (window, clear, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ks_device_get_cores_per_cu (device), ==, table);
  g_clear_pointer (&dict, g_variant_unref);
  dict = g_settings_get_value (settings, "cores-per-cu");
  g_assert_cmpuint (g_variant_n_children (dict), ==, 0);
  ks_window_show_page (window, "gauss-size");
}

static gpointer
device_writer (gpointer data)
{
  KsDevice *device = data;

  for (guint i = 1; i <= 20000; i++)
    {
      ks_device_set_bandwidth (device, i);
      ks_device_set_preferred_multiple (device, i % 64 + 1);
    }
  return NULL;
}

/* A solver built on a worker thread writes the device's preferred multiple
 * and the bandwidth probe its bandwidth while the main thread shows them:
 * both go through the device's lock (run under ThreadSanitizer, the old
 * plain fields were a data race). */
static void
test_device_info_threads (void)
{
  KsDevicesPage *page = KS_DEVICES_PAGE (ks_window_get_page (window, "devices"));
  KsDevice *device = ks_window_get_device (window);
  double bandwidth = ks_device_get_bandwidth (device);
  gsize multiple = ks_device_get_preferred_multiple (device);
  KsDevice *host = ks_device_list_lookup (ks_application_get_device_list (app), "host", NULL);
  GThread *writer;

  g_assert_nonnull (host);

  ks_window_show_page (window, "devices");
  writer = g_thread_new ("device-writer", device_writer, device);
  for (guint i = 0; i < 50; i++)
    {
      double b = ks_device_get_bandwidth (device);
      gsize m = ks_device_get_preferred_multiple (device);

      g_assert_cmpfloat (b, >=, 0);
      g_assert_cmpfloat (b, <=, 20000);
      g_assert_cmpuint (m, <=, 64);
      /* The page reads them as it shows the device's details. */
      ks_page_device_changed (KS_PAGE (page), host);
      ks_page_device_changed (KS_PAGE (page), device);
      g_assert_true (ks_devices_page_get_selected (page) == device);
    }
  g_thread_join (writer);
  g_assert_cmpfloat (ks_device_get_bandwidth (device), ==, 20000);
  ks_device_set_bandwidth (device, bandwidth);
  ks_device_set_preferred_multiple (device, multiple);
  ks_page_device_changed (KS_PAGE (page), device);
  ks_window_show_page (window, "gauss-size");
}

/* A device asked for (by a session, or by the setting from last time) that
 * this machine does not have: the window says which, and which one it uses;
 * the setting is kept for the day the device is back. */
static void
test_device_missing (void)
{
  GSettings *settings = ks_page_get_settings (ks_window_get_page (window, "devices"));
  g_autofree char *path = g_build_filename (tmpdir, "other-machine.json", NULL);
  g_autoptr(GError) error = NULL;
  KsDevice *before = ks_window_get_device (window);
  const char *text;

  g_assert_true (g_file_set_contents (path, "{\"format\":\"kernelscope-session\",\"version\":1,"
                                      "\"device\":\"cuda:7\",\"pages\":{}}", -1, NULL));
  g_assert_true (ks_window_load_session (window, path, &error));
  g_assert_no_error (error);
  text = ks_window_get_error_text (window);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "cuda:7"));
  g_assert_nonnull (strstr (text, ks_device_get_id (before)));
  g_assert_true (ks_window_get_device (window) == before);

  /* At start-up, from the setting. */
  {
    g_autofree char *kept = NULL;
    KsWindow *other;

    g_settings_set_string (settings, "device", "cuda:7");
    other = ks_window_new (GTK_APPLICATION (app), ks_application_get_device_list (app), settings);
    text = ks_window_get_error_text (other);
    g_test_message ("%s", text);
    g_assert_nonnull (strstr (text, "cuda:7"));
    g_assert_nonnull (ks_window_get_device (other));
    g_assert_nonnull (strstr (text, ks_device_get_id (ks_window_get_device (other))));
    kept = g_settings_get_string (settings, "device");
    g_assert_cmpstr (kept, ==, "cuda:7");
    /* Kept (hidden) until the end: GTK 3.24 leaves a dangling widget behind
     * a destroyed GtkApplicationWindow's help overlay, and the next theme
     * change (test_dark_theme) trips over it; a plain
     * gtk_application_window_new() shows the same. */
    spare_window = GTK_WIDGET (other);
  }
  g_settings_set_string (settings, "device", ks_device_get_id (before));
  ks_window_show_page (window, "gauss-size");
}


static void
test_translation (void)
{
  /* Run with LANGUAGE=ru by the "ru" test: the sidebar speaks Russian. */
  const char *lang = g_getenv ("LANGUAGE");
  GtkWidget *stack = gtk_widget_get_parent (GTK_WIDGET (ks_window_get_page (window, "devices")));
  g_autofree char *title = NULL;

  gtk_container_child_get (GTK_CONTAINER (stack), GTK_WIDGET (ks_window_get_page (window, "devices")),
                           "title", &title, NULL);
  if (lang == NULL || !g_str_has_prefix (lang, "ru"))
    {
      g_assert_cmpstr (title, ==, "Devices");
      return;
    }
  g_assert_cmpstr (title, ==, "Устройства");
  /* Labels from the descriptions, a column whose label is its name and a
   * device-info number among them. */
  {
    g_autofree char *residual = ks_run_name_label (&ks_exp_gauss_size, "residual");
    g_autofree char *ogs = ks_run_name_label (&ks_exp_gauss_wg, "ogs_predicted");

    g_assert_cmpstr (residual, ==, "невязка");
    g_assert_cmpstr (ogs, ==, "предсказанный оптимальный размер группы");
  }
  ks_window_show_page (window, "devices");
  screenshot ("devices-ru.png");
  ks_window_show_page (window, "gauss-size");
  screenshot ("gauss-size-ru.png");

  /* The core's messages are translated too: a damaged session file is
   * refused in Russian, in the window. */
  {
    g_autofree char *cut = g_build_filename (tmpdir, "cut-ru.json", NULL);
    g_autoptr(GError) error = NULL;

    g_assert_true (g_file_set_contents (cut, "{\"format\":\"kernelscope-session\",\"pag", -1, NULL));
    g_assert_false (ks_window_load_session (window, cut, &error));
    g_assert_nonnull (error);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, "повреждён"));
    ks_window_show_error (window, dgettext (GETTEXT_PACKAGE, "Could not open the session; the open session is unchanged"),
                          error);
    spin (300);
    screenshot ("error-ru.png");
  }

  /* ...and so are the plot renderer's (shown when an export fails). */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (ks_plot_format_from_filename ("fig.bmp", NULL, &error));
    g_test_message ("%s", error->message);
    g_assert_null (strstr (error->message, "Cannot tell"));
    g_assert_nonnull (strstr (error->message, "fig.bmp"));
  }
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui/window-opens", test_window_opens);
  g_test_add_func ("/gui/mnemonics", test_mnemonics);
  g_test_add_func ("/gui/old-settings", test_old_settings);
  if (g_getenv ("LANGUAGE") != NULL && g_str_has_prefix (g_getenv ("LANGUAGE"), "ru"))
    g_test_add_func ("/gui/translation", test_translation);
  else
    {
      g_test_add_func ("/gui/devices-page", test_devices_page);
      g_test_add_func ("/gui/size-sweep", test_size_sweep);
      g_test_add_func ("/gui/presenting", test_presenting);
      g_test_add_func ("/gui/clipboard-and-dialogs", test_clipboard_and_dialogs);
      g_test_add_func ("/gui/stop-keeps-points", test_stop_keeps_points);
      g_test_add_func ("/gui/recorded-overlay", test_recorded_overlay);
      g_test_add_func ("/gui/session", test_session);
      g_test_add_func ("/gui/old-session", test_old_session);
      g_test_add_func ("/gui/typed-value-then-run", test_typed_value_then_run);
      g_test_add_func ("/gui/export-chosen-format", test_export_chosen_format);
      g_test_add_func ("/gui/actions-follow-plot", test_actions_follow_plot);
      g_test_add_func ("/gui/single-solve", test_single_solve);
      g_test_add_func ("/gui/build-failure-shown", test_build_failure_shown);
      g_test_add_func ("/gui/wg-sweep", test_wg_sweep);
      g_test_add_func ("/gui/refused-group", test_refused_group);
      g_test_add_func ("/gui/wg-live", test_wg_live);
      g_test_add_func ("/gui/cores-remembered", test_cores_remembered);
      g_test_add_func ("/gui/device-missing", test_device_missing);
      g_test_add_func ("/gui/device-info-threads", test_device_info_threads);
      g_test_add_func ("/gui/device-lost", test_device_lost);
      g_test_add_func ("/gui/dark-theme", test_dark_theme);
      g_test_add_func ("/gui/dark-screenshot", test_dark_screenshot);
      g_test_add_func ("/gui/translation", test_translation);
      g_test_add_func ("/gui/close-mid-run", test_close_mid_run);
    }
  status = g_test_run ();
  if (spare_window != NULL)
    gtk_widget_destroy (spare_window);
  ks_test_gui_shutdown ();
  return status;
}
