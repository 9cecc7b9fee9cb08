/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Roofline page under Xvfb: the recorded H200 runs of papers 002-004
 * drawn as named points against the H200's triad, and a fresh run on PoCL
 * from the tridiagonal page joining them, its device's missing triad said
 * under the plot.  With $KERNELSCOPE_SCREENSHOT_DIR it also measures PoCL's
 * triad (Run: a second or two) and takes roofline.png (roofline-ru.png
 * under LANGUAGE=ru). */
#define G_LOG_DOMAIN "test-gui-roofline"

#include "test-gui-util.h"
#include "ks-roofline-page.h"

#include <glib/gi18n.h>
#include <string.h>

static KsRooflinePage *
roofline_page (void)
{
  KsPage *page = ks_window_get_page (window, "roofline");

  g_assert_true (KS_IS_ROOFLINE_PAGE (page));
  return KS_ROOFLINE_PAGE (page);
}

static KsPlot *
page_plot (void)
{
  return ks_plot_view_get_plot (ks_page_get_plot_view (KS_PAGE (roofline_page ())));
}

/* The series whose name holds all of words, or G_MAXUINT. */
static guint
find_series (const char *a,
             const char *b)
{
  KsPlot *plot = page_plot ();

  for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
    if (strstr (ks_plot_series_get_name (plot, s), a) && strstr (ks_plot_series_get_name (plot, s), b))
      return s;
  return G_MAXUINT;
}

static gboolean
page_idle (void)
{
  return !ks_page_get_running (KS_PAGE (roofline_page ()));
}

/* Opened with the recorded runs: tridiagonal, index and heat points on
 * the H200, each named in its tooltip with its bound against the heat
 * runs' triad, and the H200's line. */
static void
test_roofline_recorded (void)
{
  KsRooflinePage *page = roofline_page ();
  KsRoofline *roofline;
  guint tridiag, heat, line;
  g_autofree char *tip = NULL;

  ks_window_show_page (window, "roofline");
  ks_roofline_page_find_recorded (page);
  roofline = ks_roofline_page_get_roofline (page);
  g_assert_cmpuint (ks_roofline_count_points (roofline), >, 100);
  tridiag = find_series (_("Tridiagonal: many systems"), "NVIDIA H200 (CUDA)");
  heat = find_series (_("Heat: time per step vs cells"), "NVIDIA H200 (CUDA)");
  line = find_series ("NVIDIA H200 (CUDA): ", C_("unit", "GB/s"));
  g_assert_cmpuint (tridiag, !=, G_MAXUINT);
  g_assert_cmpuint (heat, !=, G_MAXUINT);
  g_assert_cmpuint (line, !=, G_MAXUINT);
  g_assert_cmpint (ks_plot_series_get_kind (page_plot (), tridiag), ==, KS_PLOT_SERIES_POINTS);
  g_assert_cmpuint (ks_plot_series_get_n_points (page_plot (), tridiag), >, 10);
  tip = ks_roofline_point_text (roofline, tridiag, 0);
  g_assert_true (g_str_has_prefix (tip, _("Tridiagonal: many systems")));
  g_assert_nonnull (strstr (tip, "NVIDIA H200 (CUDA)"));
  {
    g_auto(GStrv) bound = g_strsplit (_("memory-bound, %.*f %% of triad"), ",", 2);
    g_assert_nonnull (strstr (tip, bound[0]));
  }
}

/* A run of this session on PoCL joins the recorded ones: its own series,
 * without "recorded", and a note that its device has no triad yet. */
static void
test_roofline_session_run (void)
{
  KsExperimentPage *tridiag = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "tridiag-batch"));
  const char *settings[] = { "n", "63", "systems", "200,800", "method", "thomas-global,thomas-interleaved,paracr-global",
                             NULL };
  KsRooflinePage *page = roofline_page ();
  KsRun *run;
  const char *pocl_name;
  guint s;

  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  ks_window_show_page (window, "tridiag-batch");
  ks_test_run_page (tridiag, settings);
  run = ks_experiment_page_get_newest (tridiag);
  pocl_name = ((KsRunDevice *) run->devices->pdata[0])->name;
  ks_window_show_page (window, "roofline");
  ks_roofline_page_find_recorded (page);
  s = find_series (_("Tridiagonal: many systems"), pocl_name);
  g_assert_cmpuint (s, !=, G_MAXUINT);
  g_assert_null (strstr (ks_plot_series_get_name (page_plot (), s), _("recorded")));
  g_assert_cmpuint (ks_plot_series_get_n_points (page_plot (), s), ==, 6);
  if (ks_device_get_bandwidth (ks_window_get_device (window)) <= 0)
    g_assert_nonnull (strstr (ks_roofline_page_get_notes (page), pocl_name));

  if (g_getenv ("KERNELSCOPE_SCREENSHOT_DIR") != NULL)
    {
      g_autoptr(GError) error = NULL;

      /* Run: PoCL's triad, and its line beside the H200's. */
      g_assert_true (ks_page_start (KS_PAGE (page), ks_window_get_device (window), NULL, &error));
      g_assert_no_error (error);
      g_assert_true (wait_for (page_idle, 120));
      g_assert_null (strstr (ks_roofline_page_get_notes (page), pocl_name));
      g_assert_cmpuint (find_series (pocl_name, C_("unit", "GB/s")), !=, G_MAXUINT);
      /* At a projector's 1024 x 768, the header bar included. */
      gtk_window_resize (GTK_WINDOW (window), 1024,
                         768 - gtk_widget_get_allocated_height (gtk_window_get_titlebar (GTK_WINDOW (window))));
      spin (300);
      ks_test_shot ("roofline");
    }
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui-roofline/recorded", test_roofline_recorded);
  g_test_add_func ("/gui-roofline/session-run", test_roofline_session_run);

  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
