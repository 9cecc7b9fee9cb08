/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Real experiments' descriptions on the generic experiment page, under a
 * real X server (run-xvfb.sh): gauss-wg's recorded H200 runs offered and
 * drawn, then a small gauss-wg run on PoCL with its predicted optimum and
 * group-size hint; paper 002's tridiag-batch page generated from its
 * description alone, with the paper's speed-ups beside the measured ones.
 * The test experiment's own page (tests/ks-exp-test.c) is
 * test-gui-framework's; it is registered here too, as the window shows it
 * between these tests. */
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ks-exp-test.h"
#include "ks-experiment-page.h"
#include "ks-registry.h"
#include "ks-sidebar.h"
#include "test-gui-util.h"

/* A real description on the generic page: gauss-wg's recorded H200 runs
 * (converted from format 1 by issue 29) are offered, and on a
 * machine without a GPU drawn before anything is measured; its figure's
 * "leave out below" (the paper's Fig. 4 hides wg = 1) is a field. */
static void
test_real_description (void)
{
  const KsExperimentDesc *desc = ks_registry_lookup ("gauss-wg");
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (ks_window_get_page (window, "test-sweep"))));
  g_autoptr(GPtrArray) paths = NULL;
  KsExperimentPage *page;
  GtkWidget *min_x;
  guint all, fewer;

  g_assert_nonnull (desc);
  page = KS_EXPERIMENT_PAGE (ks_experiment_page_new (desc));
  gtk_widget_show (GTK_WIDGET (page));
  gtk_stack_add_named (stack, GTK_WIDGET (page), "generic-gauss-wg");
  /* Beside the hand-made page it may one day replace, for the screenshot. */
  ks_sidebar_add_page (child_of (window, KS_TYPE_WINDOW, "sidebar"), "000", "generic-gauss-wg",
                       "Gauss: time vs group size (generic page)");
  ks_experiment_page_find_recorded (page);
  paths = ks_experiment_page_get_recorded_paths (page);
  g_assert_nonnull (paths);
  g_test_message ("%u recorded gauss-wg runs", paths->len);
  g_assert_cmpuint (paths->len, >, 0);
  min_x = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "min_x_spin");
  g_assert_true (gtk_widget_get_visible (min_x));
  /* gauss-wg needs work-groups: on the host the page says so before Run. */
  ks_page_device_changed (KS_PAGE (page), ks_device_list_find_backend (ks_application_get_device_list (app),
                                                                       KS_BACKEND_HOST));
  g_test_message ("on the host: %s", ks_experiment_page_get_notes (page));
  g_assert_cmpstr (ks_experiment_page_get_notes (page), !=, "");
  if (!ks_test_has_gpu ())
    {
      /* One of them, not sixty curves at once; the rest are in the menu. */
      g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, 1);
      all = total_points (ks_test_page_plot (page));
      g_assert_cmpuint (all, >, 0);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (min_x), 2);
      fewer = total_points (ks_test_page_plot (page));
      g_test_message ("points: %u, without wg = 1: %u", all, fewer);
      g_assert_cmpuint (fewer, <, all);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (min_x), 0);
    }
  gtk_stack_set_visible_child (stack, GTK_WIDGET (page));
  spin (500);
  ks_test_shot ("experiment-page-recorded");
  ks_window_show_page (window, "test-sweep");
}

static KsExperimentPage *generic_page;

static gboolean
generic_done (void)
{
  return !ks_page_get_running (KS_PAGE (generic_page));
}

static gboolean
hint_known (void)
{
  GtkWidget *wg = ks_param_form_get_field (ks_experiment_page_get_form (generic_page), "wg");
  const char *text = gtk_entry_get_placeholder_text (GTK_ENTRY (wg));

  return text != NULL && g_ascii_isdigit (text[0]);
}

/* Runs page on PoCL with the settings pairs (name, text, ..., NULL), no
 * warm-up and one repetition, and waits for it; NULL when there is no
 * PoCL here (the caller skips), else the run. */
static KsRun *
run_on_pocl (KsExperimentPage *page,
             ...)
{
  KsParamForm *form = ks_experiment_page_get_form (page);
  g_autoptr(GError) error = NULL;
  const char *name;
  va_list args;

  if (ks_test_pocl_id () == NULL)
    return NULL;
  g_assert_true (ks_window_set_device_id (window, ks_test_pocl_id ()));
  gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (page))), GTK_WIDGET (page));
  va_start (args, page);
  while ((name = va_arg (args, const char *)))
    {
      const char *text = va_arg (args, const char *);
      g_assert_true (ks_param_form_set_text (form, name, text));
    }
  va_end (args);
  ks_experiment_page_set_repetitions (page, 0, 1);
  /* The page is the test's, not the window's (which listens to its own
   * pages only): started and followed directly. */
  g_assert_true (ks_page_start (KS_PAGE (page), ks_window_get_device (window), NULL, &error));
  g_assert_no_error (error);
  generic_page = page;
  g_assert_true (wait_for (generic_done, 120));
  return ks_experiment_page_get_newest (page);
}

/* The real gauss-wg description run on the generic page (PoCL): what the
 * hand-made page shows comes out of the description too: the predicted
 * optimum as a line, the driver's groups in each point's words. */
static void
test_real_description_run (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "generic-gauss-wg"));
  KsParamForm *form;
  KsRun *run;
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autofree char *tooltip = NULL;

  g_assert_nonnull (page);
  form = ks_experiment_page_get_form (page);
  if (!(run = run_on_pocl (page, "n", "64", "wg", "1,8,16", NULL)))
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_false (ks_experiment_page_run_is_recorded (page, ks_experiment_page_get_n_runs (page) - 1));
  g_assert_cmpuint (run->points->len, ==, 3);
  g_assert_cmpuint (ks_plot_get_n_vlines (ks_test_page_plot (page)), >, 0);
  model = ks_experiment_page_get_table (page);
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  gtk_tree_model_get (model, &iter,
                      gtk_tree_view_get_tooltip_column (GTK_TREE_VIEW (child_of (page, KS_TYPE_EXPERIMENT_PAGE,
                                                                                 "table_view"))),
                      &tooltip, -1);
  g_test_message ("%s", tooltip);
  g_assert_nonnull (strstr (tooltip, "64"));
  g_test_message ("notes: %s", ks_experiment_page_get_notes (page));
  g_test_message ("graph applies on PoCL: %d", ks_param_form_applies (form, "graph", NULL));
  /* Before any run, an empty group-size field said what it would take on
   * this device (the kernel's limit needs the kernels: a worker found it). */
  ks_page_device_changed (KS_PAGE (page), ks_window_get_device (window));
  g_assert_true (ks_param_form_set_text (form, "wg", ""));
  g_assert_true (wait_for (hint_known, 60));
  g_test_message ("wg left empty: %s", gtk_entry_get_placeholder_text (GTK_ENTRY (ks_param_form_get_field (form, "wg"))));
  g_assert_true (g_str_has_prefix (gtk_entry_get_placeholder_text (GTK_ENTRY (ks_param_form_get_field (form, "wg"))),
                                   "1,"));
  /* Why, in the form's words: no "(no --wg-list given)" in the window. */
  {
    g_autofree char *tip = gtk_widget_get_tooltip_text (ks_param_form_get_field (form, "wg"));

    g_test_message ("wg's tooltip: %s", tip);
    g_assert_nonnull (strstr (tip, "(no “Work-group sizes” given)"));
    g_assert_null (strstr (tip, "--"));
  }
  ks_window_show_page (window, "test-sweep");
}

/* Paper 002's page, generated from its description alone (nothing in
 * src/gui knows it): a small sweep on PoCL, then the grouped bars with the
 * paper's speed-ups beside the measured ones. */
static void
test_tridiag_page (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "tridiag-batch"));
  KsRun *run;
  KsPlot *plot;
  gboolean paper = FALSE;

  g_assert_nonnull (page);
  if (!(run = run_on_pocl (page, "n", "31", "systems", "8,32", "method",
                           "cpu-thomas,cpu-sericr,thomas-global,thomas-interleaved,sericr-global,paracr-partial",
                           NULL)))
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_cmpuint (run->points->len, ==, 12);
  for (guint i = 0; i < run->points->len; i++)
    g_assert_null (((KsRunPoint *) run->points->pdata[i])->error);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (child_of (page, KS_TYPE_EXPERIMENT_PAGE, "figure_combo")),
                               "speedup-bars");
  spin (200);
  plot = ks_test_page_plot (page);
  for (guint k = 0; k < ks_plot_get_n_series (plot); k++)
    paper |= g_str_has_prefix (ks_plot_series_get_name (plot, k), _("paper"));
  g_assert_true (paper);
  ks_test_shot ("tridiag-batch");
  ks_window_show_page (window, "gui-test");
}

static KsExperimentPage *bench_page;

static gboolean
bench_methods_picked (void)
{
  g_autofree char *text = ks_param_form_get_text (ks_experiment_page_get_form (bench_page), "method");

  return g_strcmp0 (text, "kernels,blocked,lapack") == 0;
}

static gboolean
bench_methods_changed (void)
{
  g_autofree char *text = ks_param_form_get_text (ks_experiment_page_get_form (bench_page), "method");

  return g_strcmp0 (text, "kernels,lapack") != 0;
}

/* A method list the user has not touched follows the device, as the
 * CLI's default does: on PoCL bench gauss's first run refuses nothing
 * (no CUDA graph, no cuSOLVER).  A list the user typed stays as typed
 * when the device is looked at again. */
static void
test_device_default_methods (void)
{
  KsParamForm *form;
  g_autofree char *kept = NULL;

  bench_page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "bench-gauss"));
  g_assert_nonnull (bench_page);
  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  form = ks_experiment_page_get_form (bench_page);
  g_assert_true (ks_window_set_device_id (window, ks_test_pocl_id ()));
  ks_window_show_page (window, "bench-gauss");
  ks_page_device_changed (KS_PAGE (bench_page), ks_window_get_device (window));
  g_assert_true (wait_for (bench_methods_picked, 60));
  /* The device's pick takes well under a second here (no kernel to
   * build): three seconds without a change is the user's text kept. */
  g_assert_true (ks_param_form_set_text (form, "method", "kernels,lapack"));
  ks_page_device_changed (KS_PAGE (bench_page), ks_window_get_device (window));
  g_assert_false (wait_for (bench_methods_changed, 3));
  kept = ks_param_form_get_text (form, "method");
  g_assert_cmpstr (kept, ==, "kernels,lapack");
  ks_window_show_page (window, "test-sweep");
}

int
main (int argc, char **argv)
{
  int status;

  /* Before the window exists: the registry is where its pages come from. */
  ks_exp_test_register ();
  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui-framework/real-description", test_real_description);
  g_test_add_func ("/gui-framework/real-description-run", test_real_description_run);
  g_test_add_func ("/gui-framework/tridiag-page", test_tridiag_page);
  g_test_add_func ("/gui-framework/device-default-methods", test_device_default_methods);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
