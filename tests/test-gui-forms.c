/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Forms that behave, in the real window under Xvfb (run-xvfb.sh): the
 * mouse wheel over the scrolled form scrolls it and changes no value it
 * passes (a spin button or combo takes the wheel only when focused); a
 * run whose every point fails adds no entry to "Runs in the plot"; "Also
 * run on" the host beside an OpenCL device runs each with the values that
 * mean something there and says which it left out, on the test experiment
 * (tests/ks-exp-test.c, its GPU-only "GPU lanes") and on gauss-size's own
 * defaults (its GPU-only "Global range"); no page shows command-line
 * syntax ("--wg-list") where a field's label says it. */
#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <string.h>

#include "ks-engine.h"
#include "ks-exp-test.h"
#include "ks-experiment-page.h"
#include "ks-help-dialog.h"
#include "ks-registry.h"
#include "test-gui-util.h"

#define test_page ks_test_sweep_page
#define test_form ks_test_sweep_form
#define set_field ks_test_sweep_set_field

static KsDevice *
host (void)
{
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_HOST);

  g_assert_nonnull (d);
  return d;
}

/* --- the wheel ------------------------------------------------------------------ */

static guint seen;

static gboolean
count_scroll_cb (GtkWidget *widget,
                 GdkEvent  *event,
                 gpointer   data)
{
  seen++;
  return FALSE;
}

/* A wheel notch down over widget's middle, through the X server (button
 * 5, as a mouse sends it), the pointer first moved there. */
static void
wheel_down_over (GtkWidget *widget)
{
  GdkWindow *w = gtk_widget_get_window (GTK_WIDGET (window));
  int x, y;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_translate_coordinates (widget, GTK_WIDGET (window),
                                                   gtk_widget_get_allocated_width (widget) / 2,
                                                   gtk_widget_get_allocated_height (widget) / 2, &x, &y));
  g_assert_true (gdk_test_simulate_button (w, x, y, 5, 0, GDK_BUTTON_PRESS));
  g_assert_true (gdk_test_simulate_button (w, x, y, 5, 0, GDK_BUTTON_RELEASE));
  spin (200);
}

/* The widget in view, the form scrolled back to its top, no focus. */
static void
unfocus_and_show (GtkAdjustment *adj)
{
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  gtk_adjustment_set_value (adj, gtk_adjustment_get_lower (adj));
  spin (200);
}

static void
test_wheel (void)
{
  KsExperimentPage *page = test_page ();
  GtkWidget *scroller = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "form_scroller");
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  GtkWidget *reps = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "reps_spin");
  GtkWidget *scale = ks_param_form_get_field (test_form (), "scale");
  GtkWidget *source = ks_param_form_get_field (test_form (), "source");
  gulong id;

  ks_window_show_page (window, "test-sweep");
  /* Short enough that the form scrolls. */
  gtk_window_resize (GTK_WINDOW (window), 1024, 480);
  spin (600);
  g_test_message ("form: %g of %g shown", gtk_adjustment_get_page_size (adj), gtk_adjustment_get_upper (adj));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
  g_assert_true (GTK_IS_SPIN_BUTTON (scale));
  g_assert_true (GTK_IS_COMBO_BOX (source));
  ks_experiment_page_set_repetitions (page, 0, 3);
  set_field ("scale", "1.5");
  id = g_signal_connect (scroller, "scroll-event", G_CALLBACK (count_scroll_cb), NULL);

  /* Unfocused: the values stay, the event reaches the form's scroller and
   * the form moves. */
  seen = 0;
  for (guint i = 0; i < 3; i++)
    {
      GtkWidget *over[] = { reps, scale, source };

      unfocus_and_show (adj);
      wheel_down_over (over[i]);
      g_test_message ("after a notch over %s: scrolled to %g", G_OBJECT_TYPE_NAME (over[i]),
                      gtk_adjustment_get_value (adj));
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, gtk_adjustment_get_lower (adj));
    }
  g_assert_cmpuint (seen, ==, 3);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (reps)), ==, 3);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (scale)), ==, 1.5);
  g_assert_cmpstr (gtk_combo_box_get_active_id (GTK_COMBO_BOX (source)), ==, "generated");

  /* Focused, the wheel is the spin button's, as GTK has it: the same
   * notch, through the same server, turns it. */
  unfocus_and_show (adj);
  gtk_widget_grab_focus (reps);
  spin (100);
  wheel_down_over (reps);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (reps)), ==, 2);

  g_signal_handler_disconnect (scroller, id);
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  gtk_window_resize (GTK_WINDOW (window), 1200, 780);
  spin (300);
}

/* --- a run that fails ----------------------------------------------------------- */

static guint
n_children (GtkWidget *container)
{
  g_autoptr(GList) children = gtk_container_get_children (GTK_CONTAINER (container));
  return g_list_length (children);
}

/* Every point refused: the window says why, and "Runs in the plot" has no
 * new (empty) entry; the table still lists the run before it. */
static void
test_failed_run_adds_nothing (void)
{
  KsExperimentPage *page = test_page ();
  GtkWidget *runs_list = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "runs_list");
  guint runs, rows;
  KsRun *before;

  ks_window_show_page (window, "test-sweep");
  g_assert_true (ks_window_set_device_id (window, ks_device_get_id (host ())));
  set_field ("size", "1:2");
  ks_experiment_page_set_repetitions (page, 0, 1);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 30));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
  runs = ks_experiment_page_get_n_runs (page);
  rows = n_children (runs_list);
  before = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (runs, >, 0);

  set_field ("label", "refuse-all");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 30));
  g_test_message ("refused: %s", ks_window_get_error_text (window));
  g_assert_cmpstr (ks_window_get_error_text (window), !=, "");
  g_assert_cmpuint (ks_experiment_page_get_n_runs (page), ==, runs);
  g_assert_cmpuint (n_children (runs_list), ==, rows);
  g_assert_true (ks_experiment_page_get_newest (page) == before);
  set_field ("label", "none");
}

/* --- "Also run on" --------------------------------------------------------------- */

/* The form's values are the OpenCL device's, "GPU lanes" among them; the
 * host, ticked beside it, runs without it and the page says so in a line. */
static void
test_also_on_host (void)
{
  KsExperimentPage *page = test_page ();
  const char *also[] = { ks_device_get_id (host ()), NULL };
  KsRun *run;
  guint per_device[2] = { 0, 0 };
  const char *notes;

  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) beside the host");
      return;
    }
  ks_window_show_page (window, "test-sweep");
  g_assert_true (ks_window_set_device_id (window, ks_test_pocl_id ()));
  set_field ("size", "1:2");
  set_field ("lanes", "8");
  ks_experiment_page_set_repetitions (page, 0, 1);
  ks_experiment_page_set_also_on (page, also);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (not_running, 60));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");

  run = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (run->devices->len, ==, 2);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      g_assert_null (p->error);
      per_device[p->device]++;
    }
  g_assert_cmpuint (per_device[0], ==, 2);
  g_assert_cmpuint (per_device[1], ==, 2);
  notes = ks_experiment_page_get_notes (page);
  g_test_message ("notes: %s", notes);
  g_assert_nonnull (strstr (notes, _("GPU lanes")));
  g_assert_nonnull (strstr (notes, ks_device_get_name (host ())));
  /* One line, whatever else the notes say. */
  {
    g_auto(GStrv) lines = g_strsplit (notes, "\n", -1);
    guint with = 0;

    for (guint i = 0; lines[i] != NULL; i++)
      with += strstr (lines[i], _("GPU lanes")) != NULL;
    g_assert_cmpuint (with, ==, 1);
  }
  ks_experiment_page_set_also_on (page, NULL);
  set_field ("lanes", "4");
}

/* gauss-size's page with its defaults as an OpenCL device's form gives
 * them (its GPU-only "Global range" and "Group size policy" among them):
 * on the host they are left out, named, and the run goes ahead. */
static void
test_gauss_defaults_on_host (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "gauss-size"));
  KsParamForm *form;
  g_autoptr(KsEngine) engine = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *left_out;

  g_assert_nonnull (page);
  form = ks_experiment_page_get_form (page);
  engine = ks_engine_new (ks_param_form_get_desc (form));
  ks_param_form_set_backend (form, KS_BACKEND_OPENCL);
  g_assert_true (ks_param_form_apply (form, engine, &error));
  g_assert_no_error (error);
  g_assert_true (ks_engine_is_set (engine, "range"));
  ks_engine_add_device (engine, host ());
  ks_engine_set_leave_out_foreign (engine, TRUE);
  g_assert_true (ks_engine_set_repetitions (engine, 0, 1, &error));
  g_assert_true (ks_engine_prepare (engine, &error));
  g_assert_no_error (error);
  left_out = ks_engine_get_left_out (engine, 0);
  g_assert_true (g_strv_contains (left_out, "range"));
  g_assert_true (g_strv_contains (left_out, "local"));
  g_assert_false (g_strv_contains (left_out, "n"));
  g_assert_cmpuint (ks_engine_get_n_points (engine), >, 0);

  /* Without it, as the command line has it, the host refuses. */
  {
    g_autoptr(KsEngine) strict = ks_engine_new (ks_param_form_get_desc (form));

    g_assert_true (ks_param_form_apply (form, strict, &error));
    ks_engine_add_device (strict, host ());
    g_assert_false (ks_engine_prepare (strict, &error));
    g_assert_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID);
  }
}

/* The command the page records for such a run (--lanes 8 with both
 * devices) makes it again: with a device that takes it among the run's,
 * the engine leaves it out on the host with a warning rather than refuse;
 * with the host alone it still refuses. */
static void
test_recorded_command_runs (void)
{
  const char *pocl = ks_test_pocl_id ();
  KsDevice *gpu;
  g_autoptr(KsEngine) both = ks_engine_new (&ks_exp_test);
  g_autoptr(KsEngine) alone = ks_engine_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;
  const char * const *warnings;

  if (pocl == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) beside the host");
      return;
    }
  gpu = ks_device_list_lookup (ks_application_get_device_list (app), pocl, NULL);
  g_assert_true (ks_engine_set (both, "lanes", "8", &error));
  ks_engine_add_device (both, gpu);
  ks_engine_add_device (both, host ());
  g_assert_true (ks_engine_prepare (both, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length ((char **) ks_engine_get_left_out (both, 0)), ==, 0);
  g_assert_true (g_strv_contains (ks_engine_get_left_out (both, 1), "lanes"));
  warnings = ks_engine_get_warnings (both);
  g_assert_nonnull (warnings);
  g_assert_nonnull (warnings[0]);
  g_test_message ("%s", warnings[0]);
  g_assert_nonnull (strstr (warnings[0], "--lanes is left out on"));

  g_assert_true (ks_engine_set (alone, "lanes", "8", &error));
  ks_engine_add_device (alone, host ());
  g_assert_false (ks_engine_prepare (alone, &error));
  g_assert_nonnull (strstr (error->message, "--lanes applies only on"));
}

/* --- no command-line syntax in the window ----------------------------------------- */

/* "--wg-list" standing as an option (not "a--b", not a dash rule). */
static gboolean
has_option_syntax (const char *text)
{
  static GRegex *option;

  if (option == NULL)
    option = g_regex_new ("(^|[^[:alnum:]-])--[a-z]", 0, 0, NULL);
  return text != NULL && g_regex_match (option, text, 0, NULL);
}

static void
collect_option_syntax (GtkWidget *widget,
                       gpointer   data)
{
  GString *found = data;
  g_autofree char *tip = gtk_widget_get_tooltip_text (widget);

  if (has_option_syntax (tip))
    g_string_append_printf (found, "tooltip of %s: %s\n", G_OBJECT_TYPE_NAME (widget), tip);
  if (GTK_IS_LABEL (widget) && has_option_syntax (gtk_label_get_text (GTK_LABEL (widget))))
    g_string_append_printf (found, "label: %s\n", gtk_label_get_text (GTK_LABEL (widget)));
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_option_syntax, data);
}

/* Every described experiment's page: its fields' help (the tooltips),
 * the claim and F1's help name fields by their labels, never as "--wg";
 * and the same texts from the descriptions, in either words, name no
 * option the page does not reword. */
static void
test_no_cli_syntax (void)
{
  g_autoptr(GPtrArray) all = ks_registry_list ();
  g_autoptr(GString) found = g_string_new (NULL);
  guint pages = 0;

  for (guint i = 0; i < all->len; i++)
    {
      const KsExperimentDesc *desc = all->pdata[i];
      KsPage *page = ks_window_get_page (window, desc->id);

      if (!KS_IS_EXPERIMENT_PAGE (page))
        continue;
      pages++;
      collect_option_syntax (GTK_WIDGET (page), found);
      {
        g_autofree char *help = ks_help_dialog_page_markup (page, NULL);

        if (has_option_syntax (help))
          g_string_append_printf (found, "help of %s: %s\n", desc->id, help);
      }
      for (guint k = 0; k < desc->n_params; k++)
        {
          const KsParamSpec *spec = &desc->params[k];
          g_autofree char *help = spec->help ? ks_param_form_reword (desc, _(spec->help)) : NULL;

          if (has_option_syntax (help))
            g_string_append_printf (found, "%s's %s: %s\n", desc->id, spec->name, help);
        }
    }
  g_test_message ("%u pages", pages);
  g_assert_cmpuint (pages, >=, 10);
  g_assert_cmpstr (found->str, ==, "");
}

/* The form hands its widgets' values to the engine as they are: a real
 * spin button's third arrives bit for bit, a whole one as a gint64, a
 * combo's choice (read back as its id) and a switch as a boolean; only
 * the text a user types (the size's axis) is parsed, by the engine. */
static void
test_typed_values (void)
{
  KsParamForm *form = test_form ();
  GtkSpinButton *scale = GTK_SPIN_BUTTON (ks_param_form_get_field (form, "scale"));
  g_autoptr(KsEngine) engine = ks_engine_new (&ks_exp_test);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsConfig) config = ks_config_new (&ks_exp_test);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const KsRunPoint *p;
  KsRun *run;
  double third;

  ks_param_form_set_backend (form, KS_BACKEND_HOST);
  set_field ("size", "2");
  set_field ("source", "generated");
  set_field ("fast", "true");
  gtk_spin_button_set_value (scale, 1.0 / 3);
  third = gtk_spin_button_get_value (scale);
  g_assert_cmpfloat_with_epsilon (third, 1.0 / 3, 1e-2);
  g_assert_true (ks_param_form_apply (form, engine, &error));
  g_assert_no_error (error);
  ks_engine_add_device (engine, host ());
  g_assert_true (ks_engine_set_repetitions (engine, 0, 1, &error));
  g_assert_true (ks_engine_run (engine, NULL, &error));
  g_assert_no_error (error);

  run = ks_engine_get_run (engine);
  g_assert_cmpuint (run->points->len, ==, 1);
  p = run->points->pdata[0];
  g_assert_true (g_variant_get_double (ks_run_point_get_param (run, p, "scale")) == third);
  g_assert_cmpstr (g_hash_table_lookup (run->settings, "scale"), ==, g_ascii_dtostr (buf, sizeof buf, third));
  g_assert_cmpint (g_variant_get_int64 (ks_run_point_get_param (run, p, "size")), ==, 2);
  g_assert_true (g_variant_get_boolean (ks_run_point_get_param (run, p, "fast")));
  g_assert_true (ks_config_set (config, "source", ks_run_point_get_param (run, p, "source"), NULL));
  g_assert_cmpint (ks_config_choice (config, KS_EXP_TEST_P_SOURCE), ==, 0);
  /* What the measuring function saw: size x scale x 2 (fast). */
  g_assert_cmpfloat (ks_run_point_get_number (run, p, "value_ms"), ==, ks_exp_test_value (2, "square", third, TRUE, 0));
  set_field ("fast", "false");
}

/* The engine's refusal, in the command line's words, as the window shows
 * it: the field's label instead of "--range". */
static void
test_engine_message_reworded (void)
{
  const KsExperimentDesc *desc = ks_registry_lookup ("gauss-size");
  g_autoptr(KsEngine) engine = ks_engine_new (desc);
  g_autoptr(GError) error = NULL;
  g_autofree char *label = g_strdup_printf ("“%s”", _("Global range"));

  g_assert_true (ks_engine_set (engine, "range", "fixed", &error));
  ks_engine_add_device (engine, host ());
  g_assert_false (ks_engine_prepare (engine, &error));
  g_assert_nonnull (strstr (error->message, "--range"));
  ks_param_form_reword_error (desc, error);
  g_test_message ("%s", error->message);
  g_assert_false (has_option_syntax (error->message));
  g_assert_nonnull (strstr (error->message, label));
  /* The repetitions are fields too; an option the form lacks stays. */
  {
    g_autofree char *reps = ks_param_form_reword (desc, "--reps 3, --warmup 1, a--b, --trust-geo");

    g_assert_cmpstr (reps, ==, "“Repetitions” 3, “Warm-up” 1, a--b, --trust-geo");
  }
}

int
main (int argc, char **argv)
{
  int status;

  ks_exp_test_register ();
  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui-forms/wheel", test_wheel);
  g_test_add_func ("/gui-forms/failed-run-adds-nothing", test_failed_run_adds_nothing);
  g_test_add_func ("/gui-forms/also-on-host", test_also_on_host);
  g_test_add_func ("/gui-forms/gauss-defaults-on-host", test_gauss_defaults_on_host);
  g_test_add_func ("/gui-forms/recorded-command-runs", test_recorded_command_runs);
  g_test_add_func ("/gui-forms/no-cli-syntax", test_no_cli_syntax);
  g_test_add_func ("/gui-forms/engine-message-reworded", test_engine_message_reworded);
  g_test_add_func ("/gui-forms/typed-values", test_typed_values);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
