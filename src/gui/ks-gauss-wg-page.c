/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-gauss-wg-page.h"

#include <glib/gi18n.h>

struct _KsGaussWgPage {
  KsSweepPage parent_instance;
};

G_DEFINE_TYPE (KsGaussWgPage, ks_gauss_wg_page, KS_TYPE_SWEEP_PAGE)

static const char *
ks_gauss_wg_page_get_help (KsPage *page)
{
  return _("Measures the time of one solve for each work-group size, one curve per matrix "
           "size (the paper's Figs. 3 to 6).\n\n"
           "The vertical line is the paper's prediction: the least multiple of "
           "LCM(preferred multiple, cores per compute unit) that covers every core of the "
           "device. The ring on each curve marks the measured best.\n\n"
           "Groups of one work-item are very slow; hide them to see the rest (Fig. 4). "
           "Drag across the plot to zoom into a range of group sizes (Fig. 6); "
           "double-click or press 0 to see everything again.");
}

static void
ks_gauss_wg_page_class_init (KsGaussWgPageClass *klass)
{
  KsSweepPageClass *sweep_class = KS_SWEEP_PAGE_CLASS (klass);

  sweep_class->kind = KS_EXPERIMENT_GAUSS_WG;
  sweep_class->settings_prefix = "wg-";
  KS_PAGE_CLASS (klass)->get_help = ks_gauss_wg_page_get_help;
}

static void
ks_gauss_wg_page_init (KsGaussWgPage *self)
{
}
