/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-gauss-size-page.h"

#include <glib/gi18n.h>

struct _KsGaussSizePage {
  KsSweepPage parent_instance;
};

G_DEFINE_TYPE (KsGaussSizePage, ks_gauss_size_page, KS_TYPE_SWEEP_PAGE)

static const char *
ks_gauss_size_page_get_help (KsPage *page)
{
  return _("Measures the time of one solve for every matrix size in the range (the paper's Fig. 2).\n\n"
           "The update kernel runs on an (N+1) × N range. When the local size is left to the "
           "driver, it must pick a group size that divides N+1. If N+1 is prime, only 1 and N+1 "
           "do, and a driver that cannot use N+1 falls back to groups of one work-item: those "
           "sizes are far slower than their neighbours. They are drawn in their own colour; "
           "hover over a point to see what the driver ran.\n\n"
           "Run again with the split policy to compare: earlier runs stay in the plot, dashed.");
}

static void
ks_gauss_size_page_class_init (KsGaussSizePageClass *klass)
{
  KsSweepPageClass *sweep_class = KS_SWEEP_PAGE_CLASS (klass);

  sweep_class->kind = KS_EXPERIMENT_GAUSS_SIZE;
  sweep_class->settings_prefix = "size-";
  KS_PAGE_CLASS (klass)->get_help = ks_gauss_size_page_get_help;
}

static void
ks_gauss_size_page_init (KsGaussSizePage *self)
{
}
