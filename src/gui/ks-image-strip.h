/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-image-strip.h: the pictures of a run's last point beside its plot.
 *
 * A column of captioned pictures (KsImage, ks-image.h: an image filter's
 * input and result), each scaled to the strip's width keeping its
 * proportions; the generic experiment page shows one where the
 * description has an images hook.  The strip keeps its own reference to
 * the pictures it draws. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KS_TYPE_IMAGE_STRIP (ks_image_strip_get_type ())
G_DECLARE_FINAL_TYPE (KsImageStrip, ks_image_strip, KS, IMAGE_STRIP, GtkBox)

/* images: a GPtrArray of KsImage (a reference is taken), or NULL to show
 * the placeholder; caption (may be NULL) says whose they are. */
void       ks_image_strip_set_images   (KsImageStrip *self,
                                        GPtrArray    *images,
                                        const char   *caption);
/* How many pictures it shows now. */
guint      ks_image_strip_get_n_images (KsImageStrip *self);

G_END_DECLS
