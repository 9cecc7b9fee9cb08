/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gui-size.c: the Gauss time-vs-size page (the generic page of
 * gauss-size) in the real window: a sweep through Ctrl+R with its prime
 * N+1 highlights and tooltips, Stop keeping what was measured, the
 * recorded H200 runs beside the user's, a value typed and run at once,
 * Export and Copy following the plot, a device lost mid-sweep, and the
 * window closed mid-run.  Part of test-gui (test-gui.c has main). */
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "ks-axis-button.h"
#include "ks-devices-page.h"
#include "ks-exp-gauss.h"
#include "ks-experiment-page.h"
#include "ks-gauss-solve-page.h"
#include "ks-gui-paths.h"
#include "ks-ogs.h"
#include "ks-run.h"
#include "test-gui-util.h"
#include "test-gui.h"

static gboolean
expected_prime (guint n)
{
  return ks_is_prime (n + 1);
}

void
test_size_sweep (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  g_autofree char *png = g_build_filename (tmpdir, "size.png", NULL);
  g_autofree char *svg = g_build_filename (tmpdir, "size.svg", NULL);
  g_autofree char *pdf = g_build_filename (tmpdir, "size.pdf", NULL);
  g_autofree char *csv = g_build_filename (tmpdir, "size.csv", NULL);
  g_autofree char *svg_text = NULL;
  g_autofree char *png_head = NULL;
  g_autoptr(GError) error = NULL;
  KsPlot *plot;
  guint highlighted = 0, primes = 0;
  gsize len;

  if (!need_pocl ())
    return;
  /* Alt+1: paper 000's first page (the single solve); the sweep is next. */
  press_key (GDK_KEY_1, GDK_MOD1_MASK);
  press_key (GDK_KEY_Page_Down, GDK_CONTROL_MASK);
  g_assert_true (ks_window_get_visible_page (window) == KS_PAGE (page));
  set_sizes (page, "20", "60", "1");
  {
    g_autofree char *n = get_param (page, "n");
    g_assert_cmpstr (n, ==, "20:60");   /* a step of 1 goes unsaid, as on the CLI */
  }
  set_reps (page, 1);
  set_param (page, "local", "driver");
  /* On a machine without a GPU the page already shows what an H200 does
   * (a recorded run, dashed); the user's run comes beside it. */
  ks_experiment_page_find_recorded (page);
  g_assert_nonnull (ks_experiment_page_get_recorded_paths (page));

  /* Ctrl+R through the X server, as a user presses it.  (With PoCL's
   * kernel cache warm the sweep may be over before the key is released.) */
  g_assert_cmpuint (own_runs (page), ==, 0);
  /* Before any run the verdict is the recorded run's, and says so. */
  {
    g_autofree char *verdict = ks_experiment_page_get_verdict_text (page);

    g_test_message ("before the run: %s", verdict);
    g_assert_nonnull (strstr (verdict, "Recorded run on NVIDIA H200"));
    g_assert_nonnull (strstr (verdict, "prime N+1"));
  }
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 300));
  g_assert_cmpuint (own_runs (page), ==, 1);
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");

  plot = page_plot ("gauss-size");
  /* The user's run is the first curve, the recorded ones follow. */
  g_assert_cmpuint (own_series (plot), ==, 0);
  g_assert_cmpuint (ks_plot_series_get_n_points (plot, 0), ==, 41);
  for (guint s = 1; s < ks_plot_get_n_series (plot); s++)
    g_assert_nonnull (strstr (ks_plot_series_get_name (plot, s), "recorded"));
  for (guint i = 0; i < 41; i++)
    {
      const KsPlotPoint *p = ks_plot_series_get_point (plot, 0, i);
      gboolean hl = (p->flags & KS_PLOT_POINT_HIGHLIGHT) != 0;

      g_assert_cmpint (hl, ==, expected_prime ((guint) p->x));
      g_assert_cmpfloat (p->y, >, 0);
      highlighted += hl;
      primes += expected_prime (20 + i);
    }
  g_assert_cmpuint (highlighted, ==, primes);
  g_assert_cmpuint (highlighted, >, 5);
  /* After it, this run's verdict alone, whichever way it goes here. */
  {
    g_autofree char *verdict = ks_experiment_page_get_verdict_text (page);

    g_test_message ("after the run: %s", verdict);
    g_assert_null (strstr (verdict, "Recorded"));
    g_assert_true (g_str_has_prefix (verdict, "Holds here. On this device prime N+1 takes ")
                   || g_str_has_prefix (verdict, "Does not hold here. On this device prime N+1 takes "));
  }

  /* The tooltip of a prime point explains it. */
  {
    KsPlotView *view = ks_page_get_plot_view (KS_PAGE (page));
    double w = gtk_widget_get_allocated_width (GTK_WIDGET (view));
    double h = gtk_widget_get_allocated_height (GTK_WIDGET (view));
    gboolean checked = FALSE;

    for (guint i = 0; i < 41 && !checked; i++)
      {
        const KsPlotPoint *p = ks_plot_series_get_point (plot, 0, i);
        double px, py;
        g_autofree char *tip = NULL;

        if (!(p->flags & KS_PLOT_POINT_HIGHLIGHT))
          continue;
        g_assert_true (ks_plot_data_to_device (plot, w, h, p->x, p->y, &px, &py));
        tip = ks_plot_view_tooltip_at (view, px, py);
        g_assert_nonnull (tip);
        if (strstr (tip, "prime") != NULL)
          {
            g_autofree char *n1 = g_strdup_printf ("%u", (guint) p->x + 1);
            g_assert_nonnull (strstr (tip, n1));
            checked = TRUE;
          }
      }
    g_assert_true (checked);

    /* Over the legend, the tooltip is the entry's whole text. */
    checked = FALSE;
    for (double y = 0; y < h && !checked; y += 3)
      for (double x = 0; x < w && !checked; x += 3)
        {
          g_autofree char *entry = ks_plot_legend_text_at (plot, w, h, x, y);
          g_autofree char *tip = NULL;
          g_autofree char *want = NULL;

          if (entry == NULL || ks_plot_hit_test (plot, w, h, x, y, 8, NULL, NULL))
            continue;
          tip = ks_plot_view_tooltip_at (view, x, y);
          want = g_markup_escape_text (entry, -1);
          g_assert_cmpstr (tip, ==, want);
          checked = TRUE;
        }
    g_assert_true (checked);
  }

  /* Without a mouse: the arrows walk the points from the first, and the
   * cursor's text is the tooltip's, "prime" on a prime point; Left steps
   * back.  (The screenshot shows the cursor on the first prime point.) */
  {
    KsPlotView *view = ks_page_get_plot_view (KS_PAGE (page));
    guint s = 0, i = 0, steps = 0;
    gboolean found = FALSE;

    gtk_widget_grab_focus (GTK_WIDGET (view));
    spin (50);
    press_key (GDK_KEY_Right, 0);
    g_assert_true (ks_plot_view_get_cursor (view, &s, &i));
    g_assert_cmpuint (i, ==, 0);
    while (!found && steps++ < 41)
      {
        const KsPlotPoint *p = ks_plot_series_get_point (plot, s, i);

        if (p->flags & KS_PLOT_POINT_HIGHLIGHT)
          {
            g_autofree char *text = ks_plot_view_get_cursor_text (view);
            g_autofree char *n1 = g_strdup_printf ("%u", (guint) p->x + 1);

            g_assert_nonnull (strstr (text, "prime"));
            g_assert_nonnull (strstr (text, n1));
            found = TRUE;
          }
        else
          {
            press_key (GDK_KEY_Right, 0);
            g_assert_true (ks_plot_view_get_cursor (view, &s, &i));
          }
      }
    g_assert_true (found);
    g_assert_cmpuint (i, >, 0);
    press_key (GDK_KEY_Left, 0);
    {
      guint back = 0;
      g_assert_true (ks_plot_view_get_cursor (view, NULL, &back));
      g_assert_cmpuint (back, ==, i - 1);
    }
    press_key (GDK_KEY_Right, 0);
  }
  screenshot ("gauss-size.png");

  /* Export: the same renderer as the CLI, in every format. */
  g_assert_true (ks_window_export_plot (window, png, &error));
  g_assert_no_error (error);
  g_assert_true (ks_window_export_plot (window, svg, &error));
  g_assert_true (ks_window_export_plot (window, pdf, &error));
  g_assert_true (ks_window_export_data (window, csv, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (png, &png_head, &len, NULL));
  g_assert_cmpuint (len, >, 5000);
  g_assert_cmpint (memcmp (png_head, "\x89PNG", 4), ==, 0);
  g_assert_true (g_file_get_contents (svg, &svg_text, &len, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));
  g_assert_cmpuint (len, >, 5000);
  g_assert_true (g_file_test (pdf, G_FILE_TEST_IS_REGULAR));
  {
    g_autofree char *text = NULL;
    g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
    /* n = 59 on the PoCL device: 60 is not prime (device, n, ...) */
    g_assert_nonnull (strstr (text, ",59,"));
  }
  /* An unknown extension is refused with a message, not written. */
  {
    g_autofree char *bad = g_build_filename (tmpdir, "size.bmp", NULL);
    g_assert_false (ks_window_export_plot (window, bad, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  }
}

static gboolean
two_points_in (void)
{
  KsPlot *plot = page_plot ("gauss-size");
  return own_series (plot) >= 1 && ks_plot_series_get_n_points (plot, own_series (plot)) >= 2;
}

void
test_stop_keeps_points (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  const KsRun *results;
  guint runs_before;

  if (!need_pocl ())
    return;
  runs_before = own_runs (page);
  set_sizes (page, "100", "600", "10");
  set_param (page, "local", "split");
  set_param (page, "wg", "16");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (ks_window_get_running (window));
  g_assert_true (wait_for (two_points_in, 120));
  press_key (GDK_KEY_Escape, 0);
  g_assert_true (wait_for (not_running, 120));

  g_assert_cmpuint (own_runs (page), ==, runs_before + 1);
  results = ks_experiment_page_get_newest (page);
  g_assert_false (results->complete);
  g_assert_cmpuint (results->points->len, >=, 2);
  g_assert_cmpuint (results->points->len, <, 51);
  /* The window says it stopped, in words, and nothing was lost: the first
   * run is still in the plot, dashed, beside the stopped one. */
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "Stopped"));
  g_assert_cmpuint (own_series (page_plot ("gauss-size")), ==, 1);

  /* Up / Down move the keyboard's point to the next curve, at the point
   * nearest in n; past the first curve it stays.  (The cursor may still be
   * where the size-sweep test left it, on any curve: Down to the first.
   * Recorded curves may follow the user's two.) */
  {
    KsPlotView *view = ks_page_get_plot_view (KS_PAGE (page));
    KsPlot *plot = page_plot ("gauss-size");
    guint s = 0, i = 0, s2 = 0, i2 = 0, other;
    guint toward, back;
    double x0, best = INFINITY;

    gtk_widget_grab_focus (GTK_WIDGET (view));
    spin (50);
    press_key (GDK_KEY_Right, 0);
    for (guint k = 0; k < ks_plot_get_n_series (plot); k++)
      press_key (GDK_KEY_Down, 0);
    g_assert_true (ks_plot_view_get_cursor (view, &s, &i));
    g_assert_cmpuint (s, ==, 0);
    other = 1;
    toward = GDK_KEY_Up;
    back = GDK_KEY_Down;
    x0 = ks_plot_series_get_point (plot, s, i)->x;
    press_key (toward, 0);
    g_assert_true (ks_plot_view_get_cursor (view, &s2, &i2));
    g_assert_cmpuint (s2, ==, other);
    for (guint k = 0; k < ks_plot_series_get_n_points (plot, other); k++)
      best = MIN (best, fabs (ks_plot_series_get_point (plot, other, k)->x - x0));
    g_assert_cmpfloat (fabs (ks_plot_series_get_point (plot, other, i2)->x - x0), ==, best);
    press_key (back, 0);
    g_assert_true (ks_plot_view_get_cursor (view, &s2, NULL));
    g_assert_cmpuint (s2, ==, s);
    press_key (back, 0);
    g_assert_true (ks_plot_view_get_cursor (view, &s2, NULL));
    g_assert_cmpuint (s2, ==, s);
  }
}

static void
find_menu_button (GtkWidget *widget,
                  gpointer   data)
{
  GtkWidget **found = data;

  if (*found != NULL)
    return;
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget))
      && gtk_widget_is_ancestor (widget, GTK_WIDGET (ks_window_get_page (window, "gauss-size"))))
    *found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_menu_button, data);
}

static gboolean
size_recorded_found (void)
{
  g_autoptr(GPtrArray) paths = ks_experiment_page_get_recorded_paths (sweep_page ("gauss-size"));
  return paths != NULL;
}

void
test_recorded_overlay (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  g_autofree char *dir = ks_gui_reference_dir ();
  g_autofree char *size_file = NULL, *wg_file = NULL;
  g_autoptr(GError) error = NULL;
  guint runs;

  g_assert_nonnull (dir);
  /* The menu lists the shipped runs of this experiment. */
  {
    GtkWidget *button = NULL;
    GMenuModel *menu, *section;

    ks_window_show_page (window, "gauss-size");
    find_menu_button (GTK_WIDGET (window), &button);
    g_assert_nonnull (button);
    menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));
    /* The recorded runs (found when the page was first shown), then "Other File…". */
    g_assert_true (wait_for (size_recorded_found, 60));
    g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 2);
    /* The button where a user sees it: the runs of the tests before push
     * it below the form's visible part, and GTK shows a popover of a
     * button out of view without mapping it (the screenshot's pointer
     * warp then sends the popover events: a critical of GTK's). */
    {
      GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
                           child_of (page, KS_TYPE_EXPERIMENT_PAGE, "form_scroller")));

      gtk_info_bar_set_revealed (GTK_INFO_BAR (child_of (window, KS_TYPE_WINDOW, "info_bar")), FALSE);
      spin (300);
      gtk_adjustment_set_value (v, gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v));
      spin (300);
    }
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
    spin (200);
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)))));
    section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
    g_assert_nonnull (section);
    g_assert_cmpint (g_menu_model_get_n_items (section), >=, 3);
    g_object_unref (section);
    section = g_menu_model_get_item_link (menu, 1, G_MENU_LINK_SECTION);
    g_assert_cmpint (g_menu_model_get_n_items (section), ==, 1);
    {
      g_autofree char *action = NULL;
      g_assert_true (g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action));
      g_assert_cmpstr (action, ==, "experiment.add-file");
    }
    g_object_unref (section);
    screenshot ("recorded-menu.png");
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), FALSE);
  }
  size_file = g_build_filename (dir, "h200-opencl-gauss-size-driver.json", NULL);
  wg_file = g_build_filename (dir, "h200-opencl-gauss-wg-1000-4000.json", NULL);
  runs = ks_experiment_page_get_n_runs (page);
  /* Through the page's "Add Recorded Run" menu action. */
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (page), "experiment"),
                                  "add-recorded", g_variant_new_string (size_file));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs + 1);
  {
    KsPlot *plot = page_plot ("gauss-size");
    const char *name = ks_plot_series_get_name (plot, ks_plot_get_n_series (plot) - 1);
    g_assert_nonnull (strstr (name, "recorded"));
    g_assert_nonnull (strstr (name, "H200"));
  }
  /* A run of the other experiment is refused with a reason. */
  g_assert_false (ks_experiment_page_add_recorded (page, wg_file, &error));
  g_assert_error (error, KS_RUN_ERROR, KS_RUN_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "group size"));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs + 1);
}

static void
type_text (const char *text)
{
  for (const char *c = text; *c; c++)
    press_key (gdk_unicode_to_keyval ((guchar) *c), 0);
}

/* A number typed into a field and followed straight by Ctrl+R is the one
 * the run uses: GTK only takes a spin button's text on Enter or when the
 * focus leaves, and Ctrl+R does neither. */
void
test_typed_value_then_run (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  GtkWidget *from = ks_param_form_get_field (ks_experiment_page_get_form (page), "n");
  const KsRun *results;

  if (!need_pocl ())
    return;
  prepare_short_sweep (page);
  spin (200);
  gtk_widget_grab_focus (from);
  gtk_editable_select_region (GTK_EDITABLE (from), 0, -1);
  type_text ("58:60");
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (from)), ==, "58:60");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 120));
  results = ks_experiment_page_get_newest (page);
  g_assert_nonnull (results);
  g_assert_cmpuint (results->points->len, ==, 3);   /* 58, 59, 60 */
  g_assert_cmpfloat (ks_run_point_get_number (results, results->points->pdata[0], "n"), ==, 58);

  /* The single solve too. */
  {
    KsGaussSolvePage *solve = KS_GAUSS_SOLVE_PAGE (ks_window_get_page (window, "gauss-solve"));
    GtkWidget *n = child_of (solve, KS_TYPE_GAUSS_SOLVE_PAGE, "n_spin");

    ks_window_show_page (window, "gauss-solve");
    ks_gauss_solve_page_set_size (solve, 300);
    spin (200);
    gtk_widget_grab_focus (n);
    gtk_editable_select_region (GTK_EDITABLE (n), 0, -1);
    type_text ("123");
    press_key (GDK_KEY_r, GDK_CONTROL_MASK);
    g_assert_true (wait_for (not_running, 120));
    g_assert_nonnull (ks_gauss_solve_page_get_result (solve));
    g_assert_cmpuint (ks_gauss_solve_page_get_result (solve)->n, ==, 123);
    ks_gauss_solve_page_set_size (solve, 300);
  }
  /* No field left focused with its text selected for the screenshots. */
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  ks_window_show_page (window, "gauss-size");
}

static GtkWidget *
find_in (GtkWidget  *widget,
         GType       type,
         const char *data_key)
{
  GtkWidget *found = NULL;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type)
      && (data_key == NULL || g_object_get_data (G_OBJECT (widget), data_key) != NULL))
    return widget;
  if (GTK_IS_CONTAINER (widget))
    {
      GList *children = gtk_container_get_children (GTK_CONTAINER (widget));
      for (GList *l = children; l && !found; l = l->next)
        found = find_in (l->data, type, data_key);
      g_list_free (children);
    }
  return found;
}

/* Export and Copy follow what the plot holds: a recorded run added to an
 * empty page enables them, Clear disables them again, and so do hiding and
 * removing the last run. */
void
test_actions_follow_plot (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  GtkWidget *runs_list = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "runs_list");
  g_autofree char *saved = g_build_filename (tmpdir, "before-clear.json", NULL);
  g_autofree char *dir = ks_gui_reference_dir ();
  g_autofree char *recorded = g_build_filename (dir, "h200-opencl-gauss-size-driver.json", NULL);
  g_autoptr(GError) error = NULL;
  guint runs;
  GtkWidget *check, *remove;

  ks_window_show_page (window, "gauss-size");
  g_assert_true (ks_window_save_session (window, saved, &error));
  runs = ks_experiment_page_get_n_runs (page);

  gtk_button_clicked (GTK_BUTTON (child_of (page, KS_TYPE_EXPERIMENT_PAGE, "clear_button")));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, 0);
  g_assert_false (action_enabled ("export-plot"));
  g_assert_false (action_enabled ("export-data"));
  g_assert_false (action_enabled ("copy-plot"));

  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (page), "experiment"),
                                  "add-recorded", g_variant_new_string (recorded));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, 1);
  g_assert_true (action_enabled ("export-plot"));
  g_assert_true (action_enabled ("export-data"));
  g_assert_true (action_enabled ("copy-plot"));

  /* Hidden, the run is still there to export as data, but not to draw. */
  check = find_in (runs_list, GTK_TYPE_CHECK_BUTTON, "run");
  g_assert_nonnull (check);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check), FALSE);
  g_assert_false (action_enabled ("export-plot"));
  g_assert_false (action_enabled ("copy-plot"));
  check = find_in (runs_list, GTK_TYPE_CHECK_BUTTON, "run");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check), TRUE);
  g_assert_true (action_enabled ("export-plot"));

  {
    /* The remove button is the plain button beside the check. */
    GList *rows = gtk_container_get_children (GTK_CONTAINER (runs_list));
    GtkWidget *box = gtk_bin_get_child (GTK_BIN (rows->data));
    GList *parts = gtk_container_get_children (GTK_CONTAINER (box));

    remove = g_list_last (parts)->data;
    g_list_free (parts);
    g_list_free (rows);
  }
  g_assert_true (GTK_IS_BUTTON (remove) && !GTK_IS_TOGGLE_BUTTON (remove));
  gtk_button_clicked (GTK_BUTTON (remove));
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, 0);
  g_assert_false (action_enabled ("export-plot"));
  g_assert_false (action_enabled ("export-data"));

  /* Back as it was for the tests after this one. */
  g_assert_true (ks_window_load_session (window, saved, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);
  g_assert_true (action_enabled ("export-plot") == (runs > 0));
}

/* The device goes away mid-sweep (the OpenCL runtime's test hook makes every
 * launch after the 600th fail as CL_DEVICE_NOT_AVAILABLE): the window says
 * so, and the points measured before stay in the plot and the table. */
void
test_device_lost (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");
  const KsRun *results;

  if (!need_pocl ())
    return;
  prepare_short_sweep (page);
  g_setenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS", "600", TRUE);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 120));
  g_unsetenv ("KERNELSCOPE_SIMULATE_DEVICE_LOSS");

  results = ks_experiment_page_get_newest (page);
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_false (results->complete);
  g_assert_cmpuint (results->points->len, >=, 1);
  g_assert_cmpuint (results->points->len, <, 41);
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "error"));
  g_assert_cmpuint (ks_plot_series_get_n_points (page_plot ("gauss-size"), own_series (page_plot ("gauss-size"))),
                    >=, 1);
}

/* Closing the window mid-run stops the run; the engine's callbacks that
 * arrive after the pages are gone must find nothing to touch. */
void
test_close_mid_run (void)
{
  KsExperimentPage *page = sweep_page ("gauss-size");

  if (!need_pocl ())
    return;
  ks_window_show_page (window, "gauss-size");
  set_sizes (page, "400", "800", "4");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (running, 30));
  gtk_window_close (GTK_WINDOW (window));
  window = NULL;
  /* Long enough for the solve in flight to end and its callback to run. */
  spin (4000);
}
