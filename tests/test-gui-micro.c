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

#include <string.h>

/* name.png, or name-ru.png under LANGUAGE=ru (the Russian run). */
static void
shot (const char *name)
{
  const char *lang = g_getenv ("LANGUAGE");
  g_autofree char *file = g_strdup_printf ("%s%s.png", name, lang && g_str_has_prefix (lang, "ru") ? "-ru" : "");

  screenshot (file);
}

static const char *
pocl_id (void)
{
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL);
  return d ? ks_device_get_id (d) : NULL;
}

static KsExperimentPage *running_page;

static gboolean
page_done (void)
{
  return !ks_page_get_running (KS_PAGE (running_page));
}

static KsPlot *
plot_of (KsExperimentPage *page)
{
  return ks_plot_view_get_plot (ks_page_get_plot_view (KS_PAGE (page)));
}

static KsImageStrip *
strip_of (KsExperimentPage *page)
{
  GObject *strip = gtk_widget_get_template_child (GTK_WIDGET (page), KS_TYPE_EXPERIMENT_PAGE, "image_strip");

  g_assert_nonnull (strip);
  return KS_IMAGE_STRIP (strip);
}

/* Runs page on PoCL with the form's fields set to settings (name, text,
 * ..., NULL), one timed repetition, and waits for it. */
static void
run_page (KsExperimentPage   *page,
          const char * const *settings)
{
  KsParamForm *form = ks_experiment_page_get_form (page);
  g_autoptr(GError) error = NULL;

  g_assert_true (ks_window_set_device_id (window, pocl_id ()));
  for (guint i = 0; settings[i]; i += 2)
    g_assert_true (ks_param_form_set_text (form, settings[i], settings[i + 1]));
  ks_experiment_page_set_repetitions (page, 0, 1);
  g_assert_true (ks_page_start (KS_PAGE (page), ks_window_get_device (window), NULL, &error));
  g_assert_no_error (error);
  running_page = page;
  g_assert_true (wait_for (page_done, 120));
}

/* Five bars and the vector widths in the table, the paper's per element
 * beside them; no pictures there. */
static void
test_micro_simd_page (void)
{
  KsExperimentPage *page = KS_EXPERIMENT_PAGE (ks_window_get_page (window, "micro-simd"));
  const char *settings[] = { "items", "64", "iterations", "20000", NULL };
  KsRun *run;

  if (pocl_id () == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_nonnull (page);
  ks_window_show_page (window, "micro-simd");
  run_page (page, settings);
  run = ks_experiment_page_get_newest (page);
  g_assert_cmpuint (run->points->len, ==, 5);
  /* The first figure, the time per element: this run's bars and the
   * paper's three machines (Table 3 per element, at any size). */
  g_assert_cmpuint (ks_plot_get_n_series (plot_of (page)), ==, 4);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (strip_of (page))));
  shot ("micro-simd");
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

  if (pocl_id () == NULL)
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

  run_page (page, settings);
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
  shot ("micro-access");
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
