/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-axis-button.h: the button beside a swept number's field.
 *
 * Its popover writes the field's axis for the user: From, To and Step spin
 * buttons give "from:to:step" (read back from the field when it opens, if
 * the field holds one range), and the description's presets (KsParamSpec
 * presets: "1 and powers of two up to 256") put their axis in the field.
 * The field stays the one truth: what is typed there runs, and the form
 * checks it as it checks any axis. */
#pragma once

#include <gtk/gtk.h>

#include "ks-experiment-desc.h"

G_BEGIN_DECLS

#define KS_TYPE_AXIS_BUTTON (ks_axis_button_get_type ())
G_DECLARE_FINAL_TYPE (KsAxisButton, ks_axis_button, KS, AXIS_BUTTON, GtkMenuButton)

/* For a sweepable INT or REAL spec whose field is entry (not owned). */
GtkWidget     *ks_axis_button_new           (const KsParamSpec *spec,
                                             GtkEntry          *entry);
/* The popover's From (0), To (1) and Step (2) spin buttons; setting one
 * writes the range into the field. */
GtkSpinButton *ks_axis_button_get_spin      (KsAxisButton      *self,
                                             guint              which);
/* Reads the field into the spin buttons (as opening the popover does). */
void           ks_axis_button_sync          (KsAxisButton      *self);
/* The presets the menu offers: the spec's. */
guint          ks_axis_button_get_n_presets (KsAxisButton      *self);
/* Puts preset index's axis into the field, as choosing it in the menu does. */
void           ks_axis_button_choose_preset (KsAxisButton      *self,
                                             guint              index);

G_END_DECLS
