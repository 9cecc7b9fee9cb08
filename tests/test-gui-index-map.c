/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The index-map page of paper 003 under Xvfb: a domain typed, its launches
 * shown with the text-versus-formula disagreement, a bad domain refused in
 * the page, and Run asking PoCL for its block.  Screenshots go to
 * $KERNELSCOPE_SCREENSHOT_DIR (index-map.png, index-map-bad.png,
 * index-map-device.png; -ru.png under LANGUAGE=ru). */
#define G_LOG_DOMAIN "test-gui-index-map"

#include "test-gui-util.h"
#include "ks-index-map.h"
#include "ks-index-map-page.h"

#include <string.h>

static KsIndexMapPage *
map_page (void)
{
  return KS_INDEX_MAP_PAGE (ks_window_get_page (window, "index-map"));
}

static void
test_worked_example (void)
{
  KsIndexMapPage *page = map_page ();
  KsPlot *plot;

  g_assert_nonnull (page);
  ks_window_show_page (window, "index-map");
  ks_index_map_page_set_domain (page, "2000x3000");
  spin (200);
  g_assert_nonnull (strstr (ks_index_map_page_get_mapping_text (page, KS_INDEX_RULE_PAPER),
                            "<<<dim3(2000, 3), 1024>>>"));
  g_assert_nonnull (strstr (ks_index_map_page_get_mapping_text (page, KS_INDEX_RULE_PAPER),
                            "6144000"));
  g_assert_nonnull (strstr (ks_index_map_page_get_mapping_text (page, KS_INDEX_RULE_PAPER_PRINTED),
                            "1904000"));
  plot = ks_plot_view_get_plot (ks_page_get_plot_view (KS_PAGE (page)));
  g_assert_nonnull (plot);
  ks_test_shot ("index-map");

  /* The grid of blocks is data: Export Plot writes it. */
  {
    g_autofree char *png = g_build_filename (tmpdir, "index-map.png", NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *head = NULL;
    gsize len = 0;

    g_assert_true (ks_plot_view_has_data (ks_page_get_plot_view (KS_PAGE (page))));
    g_assert_true (ks_window_export_plot (window, png, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (png, &head, &len, NULL));
    g_assert_cmpuint (len, >, 8);
    g_assert_cmpint (memcmp (head, "\x89PNG", 4), ==, 0);
  }
}

static void
test_bad_domain (void)
{
  KsIndexMapPage *page = map_page ();

  ks_window_show_page (window, "index-map");
  ks_index_map_page_set_domain (page, "2000x0");
  spin (200);
  ks_test_shot ("index-map-bad");
  /* The launches of the last good domain are kept but greyed out. */
  g_assert_nonnull (strstr (ks_index_map_page_get_mapping_text (page, KS_INDEX_RULE_PAPER), "2000"));
  ks_index_map_page_set_domain (page, "2000x3000");
  spin (100);
}

static gboolean
done (void)
{
  return !ks_window_get_running (window);
}

static void
test_ask_device (void)
{
  KsIndexMapPage *page = map_page ();
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL);

  if (d == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_true (ks_window_set_device_id (window, ks_device_get_id (d)));
  ks_window_show_page (window, "index-map");
  ks_index_map_page_set_domain (page, "2000x3000");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (200);
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
  g_assert_nonnull (strstr (ks_index_map_page_get_mapping_text (page, KS_INDEX_RULE_OCCUPANCY), "<<<"));
  ks_test_shot ("index-map-device");

  /* Too big for the device's memory: said in the window. */
  ks_index_map_page_set_domain (page, "100000x100000x1000");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (200);
  g_test_message ("%s", ks_window_get_error_text (window));
  g_assert_nonnull (strstr (ks_window_get_error_text (window), "100000 × 100000 × 1000"));
  ks_index_map_page_set_domain (page, "2000x3000");
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;
  g_test_add_func ("/gui-index-map/worked-example", test_worked_example);
  g_test_add_func ("/gui-index-map/bad-domain", test_bad_domain);
  g_test_add_func ("/gui-index-map/ask-device", test_ask_device);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
