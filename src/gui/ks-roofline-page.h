/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-roofline-page.h: the Roofline page.
 *
 * Every loaded run of an experiment that counts its bytes and operations
 * (this session's, from the experiment pages; the recorded ones shipped
 * in data/reference; files the user adds) as points against each device's
 * measured triad line (ks-roofline.h), several devices on one plot, each
 * point's bound in its tooltip.  Run measures the triad of the device in
 * the header bar, for runs of it that recorded none. */
#pragma once

#include "ks-page.h"
#include "ks-roofline.h"

G_BEGIN_DECLS

#define KS_TYPE_ROOFLINE_PAGE (ks_roofline_page_get_type ())
G_DECLARE_FINAL_TYPE (KsRooflinePage, ks_roofline_page, KS, ROOFLINE_PAGE, KsPage)

/* Reads the recorded runs now, in this thread (tests; the page itself
 * does so on a worker thread when first shown), and redraws. */
void        ks_roofline_page_find_recorded (KsRooflinePage *self);
/* Gathers this session's runs from the window's experiment pages again
 * and redraws (the page does so whenever it is shown). */
void        ks_roofline_page_refresh       (KsRooflinePage *self);
/* Adds a run read from a results file, ticked. */
gboolean    ks_roofline_page_add_file      (KsRooflinePage *self,
                                            const char     *path,
                                            GError        **error);
/* The model behind the plot (its point texts are the tooltips). */
KsRoofline *ks_roofline_page_get_roofline  (KsRooflinePage *self);
/* What the page says under the plot: the devices without a triad. */
const char *ks_roofline_page_get_notes     (KsRooflinePage *self);

G_END_DECLS
