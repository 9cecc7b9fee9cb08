/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "Inside the kernel" (ks-access-view.c) on the pages of papers 001-003
 * under Xvfb on a 1024 x 768 screen: collapsed at first; expanded, the
 * slider's count is the access model's for that step (counted here
 * through ks-access.h, not written down), the variant follows the form,
 * play advances the step and stops with the view, the measured time of
 * the same point shows once the page has run it, and nothing is cut off
 * (nor, under LANGUAGE=ru, left in English, the picture's words
 * included).  Screenshots: $KERNELSCOPE_SCREENSHOT_DIR/access-PAGE.png
 * (-ru.png in Russian). */
#define G_LOG_DOMAIN "test-gui-access"

#include "test-gui-util.h"
#include "test-gui-pages.h"
#include "ks-access-plot.h"
#include "ks-access-view.h"
#include "ks-exp-micro.h"
#include "ks-param-form.h"
#include "ks-plot-view.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

static GtkWidget *
find_type (GtkWidget *w,
           GType      type)
{
  GtkWidget *found = NULL;
  g_autoptr(GList) children = NULL;

  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
    return w;
  if (!GTK_IS_CONTAINER (w))
    return NULL;
  children = gtk_container_get_children (GTK_CONTAINER (w));
  for (GList *l = children; l && !found; l = l->next)
    found = find_type (l->data, type);
  return found;
}

/* The page shown at 1024 x 768, its view expanded. */
static KsAccessView *
open_view (const char *id)
{
  GtkWidget *page = GTK_WIDGET (ks_window_get_page (window, id));
  KsAccessView *view;
  GtkWidget *expander;

  g_assert_nonnull (page);
  ks_window_show_page (window, id);
  view = KS_ACCESS_VIEW (find_type (page, KS_TYPE_ACCESS_VIEW));
  g_assert_nonnull (view);
  expander = gtk_widget_get_parent (GTK_WIDGET (view));
  g_assert_true (GTK_IS_EXPANDER (expander));
  /* Collapsed until asked: the plot keeps its room. */
  g_assert_false (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (view)));
  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  spin (300);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  return view;
}

/* Does text hold number as a whole number (not within a larger one)? */
static gboolean
has_number (const char *text,
            const char *number)
{
  for (const char *at = strstr (text, number); at; at = strstr (at + 1, number))
    if ((at == text || !g_ascii_isdigit (at[-1])) && !g_ascii_isdigit (at[strlen (number)]))
      return TRUE;
  return FALSE;
}

/* The view's count at position pos against the model's, built here from
 * the view's point. */
static void
check_count (KsAccessView *view,
             guint         pos)
{
  const KsAccessPoint *point = ks_access_view_get_point (view);
  const gboolean warps = ks_access_view_walks_warps (view);
  const guint warp = ks_access_view_get_warp (view), line = ks_access_view_get_line (view);
  g_auto(KsAccessModel) model = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL, *number = NULL;
  double ideal;
  guint lines;

  g_assert_nonnull (point);
  g_assert_true (ks_access_model_build (point, &model, &error));
  g_assert_no_error (error);
  lines = ks_access_step_lines (&model, warp, warps ? pos : 0, warps ? 0 : pos, line, &ideal);
  ks_access_view_set_position (view, pos);
  spin (50);
  g_assert_cmpuint (ks_access_view_get_position (view), ==, pos);
  expected = ks_access_view_format_count (pos, warps, lines, ideal, line);
  g_assert_cmpstr (ks_access_view_get_count_text (view), ==, expected);
  number = g_strdup_printf ("%u", lines);
  g_assert_true (has_number (ks_access_view_get_count_text (view), number));
}

/* Two places of the slider whose counts differ, where the kernel has
 * them: the label follows the slider. */
static void
check_slider (KsAccessView *view,
              guint         a,
              guint         b)
{
  g_autofree char *at_a = NULL;

  g_assert_cmpuint (ks_access_view_get_n_positions (view), >, MAX (a, b));
  check_count (view, a);
  at_a = g_strdup (ks_access_view_get_count_text (view));
  check_count (view, b);
  g_assert_cmpstr (at_a, !=, ks_access_view_get_count_text (view));
}

static void
check_fits (const char *id,
            KsAccessView *view)
{
  g_autoptr(GString) problems = g_string_new (NULL);
  const char *lang = g_getenv ("LANGUAGE");
  GdkRectangle area;

  GtkWidget *content = gtk_bin_get_child (GTK_BIN (window));
  GtkWidget *bar = gtk_window_get_titlebar (GTK_WINDOW (window));
  int min_h, bar_h;

  ks_test_pages_fit_screen (1024, 768, &area);
  gtk_widget_get_preferred_height_for_width (content, area.width, &min_h, NULL);
  gtk_widget_get_preferred_height_for_width (bar, area.width, &bar_h, NULL);
  g_test_message ("%s: %d x %d, at least %d high", id, area.width, area.height, min_h + bar_h);
  /* Expanded, the view must still let the window fit the screen. */
  if (area.height > 768 || min_h + bar_h > 768)
    g_string_append_printf (problems, "the window needs %d pixels of height (%d x %d now)\n", min_h + bar_h,
                            area.width, area.height);
  ks_test_pages_check_layout (GTK_WIDGET (window), &area, problems);
  if (lang && g_str_has_prefix (lang, "ru"))
    {
      KsPlotView *plot = KS_PLOT_VIEW (find_type (GTK_WIDGET (view), KS_TYPE_PLOT_VIEW));
      const char *names[] = { ks_device_get_name (ks_window_get_device (window)), NULL };

      ks_test_pages_check_russian (gtk_widget_get_parent (GTK_WIDGET (view)), plot, names, problems);
    }
  if (problems->len > 0)
    g_test_fail_printf ("%s's view at 1024 x 768: %s", id, problems->str);
}

static KsAccessView *playing_view;

static gboolean
moved (void)
{
  return ks_access_view_get_position (playing_view) != 0;
}

/* Paper 001: direct-functions touches a line per item in each row step;
 * the form's scheme picks the variant; play advances the step. */
static void
test_micro_access (void)
{
  KsAccessView *view = open_view ("micro-access");
  KsParamForm *form = ks_experiment_page_get_form (KS_EXPERIMENT_PAGE (ks_window_get_page (window, "micro-access")));

  g_assert_true (ks_param_form_set_text (form, "scheme", "direct-clamping"));
  g_assert_true (ks_param_form_set_text (form, "height", "1080"));
  spin (50);
  g_assert_cmpuint (ks_access_view_get_variant (view), ==, 2);
  g_assert_false (ks_access_view_walks_warps (view));
  check_slider (view, 3, 9);
  /* Grouped: one row's bytes side by side, far fewer lines. */
  g_assert_true (ks_param_form_set_text (form, "scheme", "grouped-padding"));
  spin (50);
  g_assert_cmpuint (ks_access_view_get_variant (view), ==, 4);
  check_count (view, 1);
  /* A variant picked by hand stays while the form still has it. */
  g_assert_true (ks_param_form_set_text (form, "scheme", "direct-functions,grouped-functions"));
  ks_access_view_set_variant (view, 3);
  g_assert_true (ks_param_form_set_text (form, "height", "540"));
  spin (50);
  g_assert_cmpuint (ks_access_view_get_variant (view), ==, 3);
  g_assert_cmpuint (ks_access_view_get_point (view)->rows, ==, 540);
  g_assert_cmpstr (ks_access_view_get_time_text (view), ==,
                   _("Not measured yet: Run measures this point's time, which the count explains"));

  ks_access_view_set_position (view, 0);
  ks_access_view_set_playing (view, TRUE);
  playing_view = view;
  g_assert_true (wait_for (moved, 5));
  ks_access_view_set_playing (view, FALSE);
  check_count (view, ks_access_view_get_position (view));
  /* For the picture: the direct scheme's row step, a line per item. */
  ks_access_view_set_variant (view, 0);
  check_count (view, 3);
  check_fits ("micro-access", view);
  ks_test_shot ("access-micro-access");
}

/* Paper 002: Thomas natural reads a line per system, interleaved one line
 * for the warp; PARACR's levels walk the warps (no loop); the time of a
 * run's same point beside the count. */
static void
test_tridiag_batch (void)
{
  KsAccessView *view = open_view ("tridiag-batch");
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "tridiag-batch"));
  KsParamForm *form = ks_experiment_page_get_form (page);
  const char *settings[] = { "n", "63", "systems", "64", "method", "thomas-coalesced", "precision", "float", NULL };

  g_assert_true (ks_param_form_set_text (form, "method", "thomas-coalesced"));
  spin (50);
  g_assert_cmpint (ks_access_view_get_point (view)->kernel, ==, KS_ACCESS_THOMAS_INTERLEAVED);
  check_slider (view, 0, 2);
  ks_access_view_set_variant (view, 0);
  check_count (view, 5);
  ks_access_view_set_variant (view, 5);
  g_assert_cmpint (ks_access_view_get_point (view)->kernel, ==, KS_ACCESS_PARACR_INTERLEAVED);
  g_assert_true (ks_access_view_walks_warps (view));
  check_count (view, 1);
  /* 65,535 rows a system: refused at once, not modelled for seconds;
   * the play it had stops. */
  ks_access_view_set_playing (view, TRUE);
  g_assert_true (ks_param_form_set_text (form, "n", "65535"));
  spin (50);
  g_assert_false (ks_access_view_get_playing (view));
  g_assert_null (ks_access_view_get_point (view));
  g_assert_cmpuint (ks_access_view_get_n_positions (view), ==, 1);
  g_assert_nonnull (strstr (ks_access_view_get_count_text (view), "kernelscope-cli access"));
  g_assert_true (ks_param_form_set_text (form, "n", "63"));
  spin (50);
  g_assert_nonnull (ks_access_view_get_point (view));
  ks_access_view_set_variant (view, 1);

  if (ks_test_pocl_id () == NULL)
    g_test_message ("no OpenCL device (PoCL): the measured time is not checked");
  else
    {
      KsRun *run;
      int col;
      g_autofree char *expected = NULL;

      ks_test_run_page (page, settings);
      run = ks_experiment_page_get_newest (page);
      col = ks_experiment_desc_find_column (run->desc, "time_ms");
      g_assert_cmpuint (run->points->len, ==, 1);
      expected = g_strdup_printf (_("Measured at this point: %.3g ms on %s"),
                                  ((KsRunPoint *) run->points->pdata[0])->values[col],
                                  ((KsRunDevice *) run->devices->pdata[0])->name);
      g_assert_cmpstr (ks_access_view_get_time_text (view), ==, expected);
    }
  check_fits ("tridiag-batch", view);
  ks_test_shot ("access-tridiag-batch");
}

/* Paper 003: the mapping has no loop: the slider walks the first block's
 * warps; the 3-d shape's idle threads, the 2-d one's last block. */
static void
test_index_fill (void)
{
  KsAccessView *view = open_view ("index-fill");
  KsParamForm *form = ks_experiment_page_get_form (KS_EXPERIMENT_PAGE (ks_window_get_page (window, "index-fill")));

  g_assert_true (ks_param_form_set_text (form, "shape", "3d"));
  g_assert_true (ks_param_form_set_text (form, "method", "mapped"));
  g_assert_true (ks_param_form_set_text (form, "w", "3000"));
  g_assert_true (ks_param_form_set_text (form, "n3", "10"));
  spin (50);
  g_assert_cmpint (ks_access_view_get_point (view)->kernel, ==, KS_ACCESS_INDEX_MAPPED);
  g_assert_cmpuint (ks_access_view_get_point (view)->domain.dims, ==, 3);
  g_assert_true (ks_access_view_walks_warps (view));
  check_count (view, 0);
  /* n3 = 7 does not divide w: said on the view, nothing drawn. */
  g_assert_true (ks_param_form_set_text (form, "n3", "7"));
  spin (50);
  g_assert_null (ks_access_view_get_point (view));
  g_assert_cmpuint (ks_access_view_get_n_positions (view), ==, 1);
  g_assert_nonnull (strstr (ks_access_view_get_count_text (view), _("the form's sizes make no launch of this variant")));
  g_assert_true (ks_param_form_set_text (form, "n3", "10"));
  g_assert_true (ks_param_form_set_text (form, "shape", "2d"));
  spin (50);
  g_assert_cmpuint (ks_access_view_get_point (view)->domain.dims, ==, 2);
  check_slider (view, 0, ks_access_view_get_n_positions (view) - 1);
  check_fits ("index-fill", view);
  ks_test_shot ("access-index-fill");
}

/* The picture's words follow the language, the CLI's title (--plot)
 * included: under LANGUAGE=ru none is English. */
static void
test_plot_words (void)
{
  const char *lang = g_getenv ("LANGUAGE");
  g_autofree char *title = ks_access_plot_title ("micro-access", KS_ACCESS_MICRO_DIRECT, 0, 3, 289, 128, 2.5);
  g_autofree char *english = ks_test_pages_english_words (title);

  g_assert_nonnull (strstr (title, " 289"));
  if (lang && g_str_has_prefix (lang, "ru"))
    g_assert_null (english);
  else
    g_assert_cmpstr (title, ==, "micro-access micro-direct, warp 0, step 3: 289 transactions of 128 bytes, ideal 2.5");
}

/* Destroyed while playing: its timeout ends with it. */
static void
test_destroy_playing (void)
{
  GtkWidget *top = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  GtkWidget *view = ks_access_view_new (&ks_exp_micro_access);

  g_object_ref (view);
  gtk_container_add (GTK_CONTAINER (top), view);
  gtk_widget_show_all (top);
  spin (100);
  ks_access_view_set_playing (KS_ACCESS_VIEW (view), TRUE);
  g_assert_true (ks_access_view_get_playing (KS_ACCESS_VIEW (view)));
  gtk_widget_destroy (top);
  g_assert_false (ks_access_view_get_playing (KS_ACCESS_VIEW (view)));
  g_object_unref (view);
  spin (700);
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui-access/micro-access", test_micro_access);
  g_test_add_func ("/gui-access/tridiag-batch", test_tridiag_batch);
  g_test_add_func ("/gui-access/index-fill", test_index_fill);
  g_test_add_func ("/gui-access/destroy-playing", test_destroy_playing);
  g_test_add_func ("/gui-access/plot-words", test_plot_words);

  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
