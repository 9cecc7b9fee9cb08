/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Paper 001's pages, generated from their descriptions, run on PoCL with
 * small sizes under Xvfb: the SIMD page's five bars, and the access
 * pattern page with the input picture and the device's result beside its
 * plot (the description's images hook).  Screenshots go to
 * $KERNELSCOPE_SCREENSHOT_DIR (micro-simd.png, micro-access.png; -ru.png
 * under LANGUAGE=ru). */
#define G_LOG_DOMAIN "test-gui-micro"

#include "test-gui-util.h"
#include "ks-experiment-page.h"
#include "ks-image-strip.h"
#include "ks-param-form.h"

#include <glib/gi18n.h>
#include <string.h>

static KsImageStrip *
strip_of (KsExperimentPage *page)
{
  GObject *strip = gtk_widget_get_template_child (GTK_WIDGET (page), KS_TYPE_EXPERIMENT_PAGE, "image_strip");

  g_assert_nonnull (strip);
  return KS_IMAGE_STRIP (strip);
}

/* Five bars and the vector widths in the table, the paper's per element
 * beside them; no pictures there. */
static void
test_micro_simd_page (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "micro-simd"));
  const char *settings[] = { "items", "64", "iterations", "20000", NULL };
  KsRun *run;

  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_nonnull (page);
  ks_window_show_page (window, "micro-simd");
  ks_test_run_page (page, settings);
  run = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (run->points->len, ==, 5);
  /* The first figure, the time per element: this run's bars and the
   * paper's three machines (Table 3 per element, at any size). */
  {
    /* A machine without a GPU may show a recorded run beside it: its
     * curves are named so and not counted. */
    KsPlot *plot = ks_test_page_plot (page);
    g_auto(GStrv) prefix = g_strsplit (_("recorded: %s"), "%s", 2);
    guint own = 0;

    for (guint s = 0; s < ks_plot_get_n_series (plot); s++)
      own += !g_str_has_prefix (ks_plot_series_get_name (plot, s), prefix[0]);
    g_assert_cmpuint (own, ==, 4);
  }
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (strip_of (page))));
  ks_test_shot ("micro-simd");
}

/* The access pattern at 480 x 200 and 480 x 270: before the run the strip
 * says where the pictures will come; after it, the last point's input and
 * result are drawn beside the plot, captioned with the device and the
 * point. */
static void
test_micro_access_page (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "micro-access"));
  const char *settings[] = { "height", "200,270", "width", "480", NULL };
  KsImageStrip *strip;
  KsRun *run;
  int wrong;

  if (ks_test_pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_nonnull (page);
  strip = strip_of (page);
  ks_window_show_page (window, "micro-access");
  spin (100);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (strip)));
  g_assert_cmpuint (ks_image_strip_get_n_images (strip), ==, 0);

  ks_test_run_page (page, settings);
  spin (200);
  run = ks_experiment_page_get_newest (page);
  wrong = ks_experiment_desc_find_column (run->desc, "wrong");
  g_assert_cmpuint (run->points->len, ==, 6);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[wrong], ==, 0);
    }
  g_assert_cmpuint (ks_image_strip_get_n_images (strip), ==, 2);
  /* Drawn at a size one can see, beside a plot that kept most of the room. */
  g_assert_cmpint (gtk_widget_get_allocated_width (GTK_WIDGET (strip)), >=, 200);
  g_assert_cmpint (gtk_widget_get_allocated_width (GTK_WIDGET (ks_page_get_plot_view (KS_PAGE (page)))), >,
                   gtk_widget_get_allocated_width (GTK_WIDGET (strip)));
  ks_test_shot ("micro-access");
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;

  g_test_add_func ("/gui-micro/simd-page", test_micro_simd_page);
  g_test_add_func ("/gui-micro/access-page", test_micro_access_page);

  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
