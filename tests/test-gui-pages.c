/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every page of the sidebar on a 1024 x 768 projector (run-xvfb.sh with
 * KS_XVFB_SCREEN=1024x768x24), showing a run: a generated page its first
 * recorded run, a hand-made page a run small enough for CI on PoCL (the
 * host where there is no OpenCL device).  Fails where a widget lies
 * outside the window or is cut by what holds it (the form scrolls down,
 * never sideways), where a widget is given less than its least size, where
 * a cut-short label has no tooltip to read it whole, and where the window
 * cannot shrink to 1000 pixels (a window manager's frame and another
 * machine's hinting keep the last 24 free).  Under LANGUAGE=ru
 * (test-gui-pages-ru) it also reads every text the page shows, the plot's
 * included, and fails on an English word.  Each page is checked after its
 * run with the pages before it run in the same window, and the widest page
 * (pictures beside the plot) once more after a run of its own beside its
 * recorded one, then the page after it.
 *
 * KERNELSCOPE_SCREENSHOT_DIR: one PNG per page, PAGE-en.png or PAGE-ru.png.
 * KERNELSCOPE_GALLERY=1 (tests/gallery.sh): each page runs with its
 * defaults instead, as a user pressing Run would (minutes, not for CI). */
#define G_LOG_DOMAIN "test-gui-pages"

#include "test-gui-util.h"
#include "ks-session.h"
#include "test-gui-pages.h"

#include <glib/gi18n.h>
#include <string.h>

#include "ks-gauss-solve-page.h"
#include "ks-heat-page.h"
#include "ks-index-map-page.h"
#include "ks-recorded.h"
#include "ks-roofline-page.h"
#include "ks-tridiag-solve-page.h"

#define SCREEN_W 1024
#define SCREEN_H 768
/* What the window may need at least, leaving a window manager's frame
 * and another machine's font hinting room. */
#define LEAST_W  1000

static gboolean
russian (void)
{
  const char *lang = g_getenv ("LANGUAGE");
  return lang != NULL && g_str_has_prefix (lang, "ru");
}

static gboolean
gallery (void)
{
  return g_strcmp0 (g_getenv ("KERNELSCOPE_GALLERY"), "1") == 0;
}

/* --- a run on every page --------------------------------------------------------- */

static KsPage *waiting_page;

static gboolean
page_idle (void)
{
  return !ks_page_get_running (waiting_page) && !ks_window_get_running (window);
}

static KsDevice *
run_device (void)
{
  KsDeviceList *list = ks_application_get_device_list (app);
  KsDevice *d = ks_device_list_find_backend (list, KS_BACKEND_OPENCL);

  return d != NULL ? d : ks_device_list_find_backend (list, KS_BACKEND_HOST);
}

static void
start_and_wait (KsPage *page)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_window_set_device_id (window, ks_device_get_id (run_device ())));
  g_assert_true (ks_page_start (page, ks_window_get_device (window), NULL, &error));
  g_assert_no_error (error);
  waiting_page = page;
  /* A gallery's default runs take up to a minute or two each here. */
  g_assert_true (wait_for (page_idle, gallery () ? 900 : 120));
  /* The gallery photographs what a default run shows, a failure included. */
  if (gallery () && *ks_window_get_error_text (window) != '\0')
    g_test_message ("the default run ended with “%s”", ks_window_get_error_text (window));
  else
    g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
}

static gboolean
recorded_found (void)
{
  g_autoptr(GPtrArray) paths = ks_experiment_page_get_recorded_paths (KS_EXPERIMENT_PAGE (waiting_page));
  return paths != NULL;
}

/* A generated page: its first recorded run (what the page shows on a
 * machine without a GPU before anything is measured), or in the gallery
 * a run of its defaults. */
static void
show_experiment_run (KsExperimentPage *page)
{
  g_autoptr(GPtrArray) recorded = NULL;
  g_autoptr(GError) error = NULL;

  if (gallery ())
    {
      start_and_wait (KS_PAGE (page));
      return;
    }
  /* The page looks for them when first shown, in a worker thread. */
  waiting_page = KS_PAGE (page);
  g_assert_true (wait_for (recorded_found, 60));
  recorded = ks_experiment_page_get_recorded_paths (page);
  g_assert_cmpuint (recorded->len, >, 0);
  if (ks_experiment_page_get_n_runs (page) == 0)
    g_assert_true (ks_experiment_page_add_recorded (page, recorded->pdata[0], &error));
  g_assert_no_error (error);
  g_assert_nonnull (ks_experiment_page_get_newest (page));
}

static gboolean
heat_ready (void)
{
  return ks_heat_page_is_ready (KS_HEAT_PAGE (waiting_page));
}

static gboolean
heat_stepped (void)
{
  return ks_heat_page_get_shown_step (KS_HEAT_PAGE (waiting_page)) >= 3;
}

static void
show_heat_run (KsHeatPage *page)
{
  waiting_page = KS_PAGE (page);
  if (!gallery ())
    ks_heat_page_set_mesh (page, "quad", "square", 400);
  g_assert_true (wait_for (heat_ready, gallery () ? 300 : 60));
  ks_heat_page_set_playing (page, TRUE);
  g_assert_true (wait_for (heat_stepped, 120));
  ks_heat_page_set_playing (page, FALSE);
}

/* Three small tridiagonal systems of 8 unknowns, as the page reads them. */
static void
show_tridiag_run (KsTridiagSolvePage *page)
{
  g_autofree char *matrix = g_build_filename (tmpdir, "pages-a.mtx", NULL);
  g_autofree char *rhs = g_build_filename (tmpdir, "pages-b.mtx", NULL);
  g_autoptr(GString) a = g_string_new ("%%MatrixMarket matrix coordinate real general\n24 24 66\n");
  g_autoptr(GString) b = g_string_new ("%%MatrixMarket matrix array real general\n24 1\n");

  for (guint r = 1; r <= 24; r++)
    {
      g_string_append_printf (a, "%u %u 4\n", r, r);
      if ((r - 1) % 8 != 0)
        g_string_append_printf (a, "%u %u -1\n", r, r - 1);
      if (r % 8 != 0)
        g_string_append_printf (a, "%u %u -1\n", r, r + 1);
      g_string_append_printf (b, "%u\n", r % 5);
    }
  g_assert_true (g_file_set_contents (matrix, a->str, -1, NULL));
  g_assert_true (g_file_set_contents (rhs, b->str, -1, NULL));
  ks_tridiag_solve_page_set_input (page, matrix, rhs, 3, NULL);
  start_and_wait (KS_PAGE (page));
}

static void
show_run (const char *name)
{
  KsPage *page = ks_window_get_page (window, name);

  if (KS_IS_EXPERIMENT_PAGE (page))
    show_experiment_run (KS_EXPERIMENT_PAGE (page));
  else if (KS_IS_HEAT_PAGE (page))
    show_heat_run (KS_HEAT_PAGE (page));
  else if (KS_IS_TRIDIAG_SOLVE_PAGE (page))
    show_tridiag_run (KS_TRIDIAG_SOLVE_PAGE (page));
  else if (KS_IS_GAUSS_SOLVE_PAGE (page))
    {
      if (!gallery ())
        ks_gauss_solve_page_set_size (KS_GAUSS_SOLVE_PAGE (page), 64);
      start_and_wait (page);
    }
  else if (KS_IS_INDEX_MAP_PAGE (page))
    start_and_wait (page);
  else if (KS_IS_ROOFLINE_PAGE (page))
    ks_roofline_page_find_recorded (KS_ROOFLINE_PAGE (page));
  /* The Devices page measures nothing by itself: its list is what it shows. */
}

/* --- the checks ------------------------------------------------------------------ */

static GPtrArray *
page_names (void)
{
  GtkWidget *stack = child_of (window, KS_TYPE_WINDOW, "stack");
  g_autoptr(GList) children = gtk_container_get_children (GTK_CONTAINER (stack));
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = children; l != NULL; l = l->next)
    {
      char *name = NULL;
      gtk_container_child_get (GTK_CONTAINER (stack), l->data, "name", &name, NULL);
      g_ptr_array_add (names, name);
    }
  return names;
}

static int
longest_first (gconstpointer a,
               gconstpointer b)
{
  return (int) strlen (*(char **) b) - (int) strlen (*(char **) a);
}

static void
add_name (GPtrArray  *names,
          const char *name)
{
  if (name != NULL && *name != '\0')
    g_ptr_array_add (names, g_strdup (name));
}

/* The names no translation changes: this machine's devices and platforms,
 * and those of the runs the page shows, longest first (a name holding another
 * goes whole). */
static GPtrArray *
proper_names (KsPage *page)
{
  KsDeviceList *list = ks_application_get_device_list (app);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      const KsDeviceInfo *info = ks_device_get_info (ks_device_list_get_device (list, i));
      add_name (names, info->name);
      add_name (names, info->platform_name);
    }
  for (guint r = 0; KS_IS_EXPERIMENT_PAGE (page) && r < ks_experiment_page_get_n_runs (KS_EXPERIMENT_PAGE (page)); r++)
    {
      KsRun *run = ks_experiment_page_get_run (KS_EXPERIMENT_PAGE (page), r);
      for (guint d = 0; d < run->devices->len; d++)
        {
          const KsRunDevice *dev = run->devices->pdata[d];
          add_name (names, dev->name);
          add_name (names, dev->platform);
          add_name (names, dev->driver);
        }
      /* A recorded run's refusals are in the words of the machine that
       * recorded it. */
      for (guint i = 0; ks_experiment_page_run_is_recorded (KS_EXPERIMENT_PAGE (page), r) && i < run->points->len; i++)
        add_name (names, ((KsRunPoint *) run->points->pdata[i])->error);
    }
  /* The roofline draws every recorded run of its papers. */
  if (KS_IS_ROOFLINE_PAGE (page))
    {
      g_autoptr(GPtrArray) recorded = ks_recorded_list (NULL);

      for (guint r = 0; r < recorded->len; r++)
        {
          const KsRun *run = ((KsRecorded *) recorded->pdata[r])->run;

          for (guint d = 0; d < run->devices->len; d++)
            add_name (names, ((const KsRunDevice *) run->devices->pdata[d])->name);
        }
    }
  g_ptr_array_sort (names, longest_first);
  g_ptr_array_add (names, NULL);
  return names;
}

/* The window as it shows page name now: it fits the screen, it could
 * shrink to LEAST_W, nothing is cut off, and in Russian no English word
 * shows; shot (NULL: none) is the screenshot's name. */
static void
check_window (const char *name,
              const char *shot)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  GtkWidget *bar = gtk_window_get_titlebar (GTK_WINDOW (window));
  GtkWidget *content = gtk_bin_get_child (GTK_BIN (window));
  int min_w, bar_w, min_h, bar_h;
  GdkRectangle area;

  ks_test_pages_fit_screen (SCREEN_W, SCREEN_H, &area);
  gtk_widget_get_preferred_width (content, &min_w, NULL);
  gtk_widget_get_preferred_width (bar, &bar_w, NULL);
  gtk_widget_get_preferred_height_for_width (content, area.width, &min_h, NULL);
  gtk_widget_get_preferred_height_for_width (bar, area.width, &bar_h, NULL);
  min_w = MAX (min_w, bar_w);
  min_h += bar_h;
  g_test_message ("%s: %d x %d, at least %d x %d", name, area.width, area.height, min_w, min_h);
  if (area.width > SCREEN_W || area.height > SCREEN_H)
    g_string_append_printf (problems, "the window is %d x %d, larger than the %d x %d screen\n",
                            area.width, area.height, SCREEN_W, SCREEN_H);
  if (min_w > LEAST_W || min_h > SCREEN_H)
    {
      g_string_append_printf (problems, "the window needs at least %d x %d (%d x %d allowed)\n",
                              min_w, min_h, LEAST_W, SCREEN_H);
      ks_test_pages_log_wide (GTK_WIDGET (window), problems);
    }
  ks_test_pages_check_layout (GTK_WIDGET (window), &area, problems);
  if (russian ())
    {
      g_autoptr(GPtrArray) names = proper_names (ks_window_get_page (window, name));
      ks_test_pages_check_russian (GTK_WIDGET (window), ks_page_get_plot_view (ks_window_get_page (window, name)),
                                   (const char * const *) names->pdata, problems);
    }
  if (shot != NULL)
    screenshot (shot);
  if (problems->len > 0)
    {
      g_test_message ("page %s:\n%s", name, problems->str);
      g_test_fail_printf ("page %s at %d x %d: %s", name, SCREEN_W, SCREEN_H, problems->str);
    }
}

static void
test_page (gconstpointer data)
{
  const char *name = data;
  g_autofree char *shot = g_strdup_printf ("%s-%s.png", name, russian () ? "ru" : "en");

  ks_window_show_page (window, name);
  g_test_timer_start ();
  spin (200);
  show_run (name);
  g_test_message ("run shown after %.1f s", g_test_timer_elapsed ());
  check_window (name, shot);
  g_test_message ("checked after %.1f s", g_test_timer_elapsed ());
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  g_autoptr(GList) children = NULL;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l != NULL; l = l->next)
    {
      GtkWidget *found = find_type (l->data, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The points the page's plot has for the curves named name. */
static guint
curve_points (KsPage     *page,
              const char *name)
{
  KsPlot *plot = ks_plot_view_get_plot (ks_page_get_plot_view (page));
  guint n = 0, found = 0;

  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    if (g_strcmp0 (ks_plot_series_get_name (plot, s), name) == 0)
      {
        n += ks_plot_series_get_n_points (plot, s);
        found++;
      }
  g_assert_cmpuint (found, ==, 1);
  return n;
}

/* Points the page's plot leaves out of view on an 800 x 500 canvas: of
 * the recorded curves (named by the tick boxes checks) or of the others. */
static guint
points_out_of_view (KsPage *page,
                    GList  *checks,
                    gboolean recorded)
{
  KsPlot *plot = ks_plot_view_get_plot (ks_page_get_plot_view (page));
  guint out = 0;

  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    {
      gboolean listed = FALSE;

      for (GList *l = checks; l != NULL && !listed; l = l->next)
        listed = g_strcmp0 (ks_plot_series_get_name (plot, s), gtk_button_get_label (l->data)) == 0;
      for (guint i = 0; listed == recorded && i < ks_plot_series_get_n_points (plot, s); i++)
        {
          double px, py;

          if (!ks_plot_point_to_device (plot, 800, 500, s, i, &px, &py))
            out++;
        }
    }
  return out;
}

/* The page's own run sets the axes, the recorded curves falling where they
 * may; "Fit Recorded" brings every recorded point into view, and the
 * page's own stay there. */
static void
check_fit_recorded (KsExperimentPage *page,
                    GList            *checks)
{
  GtkWidget *fit = child_of (page, KS_TYPE_EXPERIMENT_PAGE, "zoom_recorded_button");

  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (fit)));
  g_assert_cmpuint (points_out_of_view (KS_PAGE (page), checks, FALSE), ==, 0);
  g_assert_cmpuint (points_out_of_view (KS_PAGE (page), checks, TRUE), >, 0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (fit), TRUE);
  g_assert_cmpuint (points_out_of_view (KS_PAGE (page), checks, TRUE), ==, 0);
  g_assert_cmpuint (points_out_of_view (KS_PAGE (page), checks, FALSE), ==, 0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (fit), FALSE);
  g_assert_cmpuint (points_out_of_view (KS_PAGE (page), checks, TRUE), >, 0);
}

/* A recorded run of several curves (one legend entry) lists them under
 * its row in "Runs in the plot", each with a tick box that hides it
 * alone; the list is left open for the layout's check. */
static void
check_recorded_curves (KsExperimentPage *page)
{
  GtkWidget *expander = find_type (child_of (page, KS_TYPE_EXPERIMENT_PAGE, "runs_list"), GTK_TYPE_EXPANDER);
  g_autoptr(GList) checks = NULL;
  const char *first, *second;

  g_assert_nonnull (expander);
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  checks = gtk_container_get_children (GTK_CONTAINER (gtk_bin_get_child (GTK_BIN (expander))));
  g_assert_cmpuint (g_list_length (checks), >=, 2);
  first = gtk_button_get_label (checks->data);
  second = gtk_button_get_label (checks->next->data);
  g_assert_cmpuint (curve_points (KS_PAGE (page), first), >, 0);
  gtk_toggle_button_set_active (checks->data, FALSE);
  g_assert_cmpuint (curve_points (KS_PAGE (page), first), ==, 0);
  g_assert_cmpuint (curve_points (KS_PAGE (page), second), >, 0);
  gtk_toggle_button_set_active (checks->data, TRUE);
  g_assert_cmpuint (curve_points (KS_PAGE (page), first), >, 0);
  check_fit_recorded (page, checks);
}

/* The page with pictures beside its plot after a run of its own far from
 * its recorded run: "Fit Recorded" shows, and beside "Add Recorded Run"
 * and "Clear" it widened the Russian window to 1094 pixels, for this page
 * and every later one (what the gallery's default runs found and a
 * recorded run alone never showed).  Checked after the pages before have
 * run in this window, then on the next page. */
static void
test_run_beside_recorded (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "micro-access"));

  ks_window_show_page (window, "micro-access");
  spin (200);
  if (!gallery ())
    show_experiment_run (page);
  g_assert_true (ks_param_form_set_text (ks_experiment_page_get_form (page), "height", "64,128"));
  ks_experiment_page_set_repetitions (page, 0, 1);
  start_and_wait (KS_PAGE (page));
  /* The case itself: the recorded run lies beside this one. */
  g_assert_true (gtk_widget_get_visible (child_of (page, KS_TYPE_EXPERIMENT_PAGE, "zoom_recorded_button")));
  check_recorded_curves (page);
  check_window ("micro-access", NULL);
  ks_window_show_page (window, "tridiag-solve");
  spin (200);
  check_window ("tridiag-solve", NULL);
}

/* Every page is there: the test cannot pass by finding none.  The
 * sidebar names a subject one way: "Heat:" once as "Тепло:" and once as
 * "Теплопроводность:" read as two subjects. */
static void
test_all_pages (void)
{
  g_autoptr(GPtrArray) names = page_names ();
  g_autoptr(GPtrArray) subjects = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *stack = child_of (window, KS_TYPE_WINDOW, "stack");

  g_assert_cmpuint (names->len, >=, 19);
  g_assert_true (g_ptr_array_find_with_equal_func (names, "devices", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (names, "heat-live", g_str_equal, NULL));
  /* Every hand-made page a session can hold is in the window, under its
   * title: both read one table. */
  {
    guint n;
    const KsHandMadePage *hand = ks_session_hand_made_pages (&n);

    g_assert_cmpuint (n, >=, 5);
    for (guint i = 0; i < n; i++)
      {
        GtkWidget *page = gtk_stack_get_child_by_name (GTK_STACK (stack), hand[i].id);
        g_autofree char *title = NULL;

        g_assert_nonnull (page);
        gtk_container_child_get (GTK_CONTAINER (stack), page, "title", &title, NULL);
        g_assert_cmpstr (title, ==, _(hand[i].title));
      }
  }
  for (guint i = 0; i < names->len; i++)
    {
      GtkWidget *page = gtk_stack_get_child_by_name (GTK_STACK (stack), names->pdata[i]);
      g_autofree char *title = NULL;

      gtk_container_child_get (GTK_CONTAINER (stack), page, "title", &title, NULL);
      if (strchr (title, ':') != NULL)
        g_ptr_array_add (subjects, g_strndup (title, strchr (title, ':') - title));
    }
  for (guint i = 0; i < subjects->len; i++)
    for (guint j = 0; j < subjects->len; j++)
      if (strcmp (subjects->pdata[i], subjects->pdata[j]) != 0)
        g_assert_false (g_str_has_prefix (subjects->pdata[i], subjects->pdata[j]));
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) names = NULL;
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;
  gtk_window_move (GTK_WINDOW (window), 0, 0);

  names = page_names ();
  g_test_add_func ("/gui-pages/all", test_all_pages);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/gui-pages/%s", (char *) names->pdata[i]);
      g_test_add_data_func (path, names->pdata[i], test_page);
    }
  g_test_add_func ("/gui-pages/run-beside-recorded", test_run_beside_recorded);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
