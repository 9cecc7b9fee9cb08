/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-view.h: "Inside the kernel": one step of a kernel's access
 * model (ks-access.h) on an experiment page, beside the page's measured
 * time of the same point.
 *
 * Memory as a strip of cache lines of the device's size, each work-item of
 * one warp a mark where it touches (index-fill: the mapping's blocks over
 * the domain); the cache lines (transactions) the warp costs against the
 * ideal; a slider over the steps of the kernel's loop (over the group's
 * warps where the kernel has no loop) and a play button.  The variant
 * (direct or grouped, natural or interleaved, a PARACR level, ...) comes
 * from the description's access hook, chosen to match the form's values. */
#pragma once

#include <gtk/gtk.h>

#include "ks-access.h"
#include "ks-device.h"
#include "ks-experiment-desc.h"
#include "ks-run.h"

G_BEGIN_DECLS

#define KS_TYPE_ACCESS_VIEW (ks_access_view_get_type ())
G_DECLARE_FINAL_TYPE (KsAccessView, ks_access_view, KS, ACCESS_VIEW, GtkBox)

/* desc must have an access hook. */
GtkWidget  *ks_access_view_new             (const KsExperimentDesc *desc);
/* The form's values (name -> text, as ks_param_form_get_values gives
 * them; a reference is taken): the variants are made again, the chosen
 * one kept where it still matches the form, else the first that does. */
void        ks_access_view_set_values      (KsAccessView           *self,
                                            GHashTable             *values);
/* The warp width and cache line come from device where it says them
 * (else 32 items and 128 bytes); NULL for those defaults. */
void        ks_access_view_set_device      (KsAccessView           *self,
                                            KsDevice               *device);
/* The run whose time of the variant's point is shown (NULL: none). */
void        ks_access_view_set_run         (KsAccessView           *self,
                                            KsRun                  *run);

/* What the view shows, for the tests: the variant's point (NULL where it
 * cannot be modelled), the warp width and line size, the position of the
 * slider and how many there are, whether the slider walks the warps (a
 * kernel without a loop) rather than the steps. */
const KsAccessPoint *ks_access_view_get_point       (KsAccessView *self);
guint       ks_access_view_get_warp        (KsAccessView           *self);
guint       ks_access_view_get_line        (KsAccessView           *self);
guint       ks_access_view_get_position    (KsAccessView           *self);
guint       ks_access_view_get_n_positions (KsAccessView           *self);
gboolean    ks_access_view_walks_warps     (KsAccessView           *self);
void        ks_access_view_set_position    (KsAccessView           *self,
                                            guint                   position);
/* The variant shown, by the hook's index; setting it picks it as the user does. */
guint       ks_access_view_get_variant     (KsAccessView           *self);
void        ks_access_view_set_variant     (KsAccessView           *self,
                                            guint                   variant);
/* The count's and the measured time's lines as shown. */
const char *ks_access_view_get_count_text  (KsAccessView           *self);
const char *ks_access_view_get_time_text   (KsAccessView           *self);
/* The line of the count for a position, as the view words it. */
char       *ks_access_view_format_count    (guint                   position,
                                            gboolean                warps,
                                            guint                   lines,
                                            double                  ideal,
                                            guint                   line);
gboolean    ks_access_view_get_playing     (KsAccessView           *self);
void        ks_access_view_set_playing     (KsAccessView           *self,
                                            gboolean                playing);

G_END_DECLS
