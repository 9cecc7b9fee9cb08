/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-image.h: a picture an experiment shows of the point it just measured
 * (an image filter's input and its result), for a person to look at beside
 * the numbers: the description's images hook (ks-experiment-desc.h) makes
 * them, the engine hands each device's last ones to its listeners
 * (ks_engine_get_images), the GUI page draws them beside the plot, and
 * "kernelscope-cli run ID --images DIR" writes them as PNG.
 *
 * Plain data, immutable once made, so that it may cross from the engine's
 * worker to the main context.  A picture larger than KS_IMAGE_MAX_PIXELS
 * keeps every k-th row and column (k as small as fits; the label says so):
 * a run of 65,536 rows would otherwise copy a hundred megabytes per point
 * only to be shown in a few hundred pixels. */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

#define KS_IMAGE_MAX_PIXELS (1u << 22)   /* 4 Mpixel: a 2048 x 2048 picture, 16 MiB as RGBA */

typedef enum {
  KS_IMAGE_GREY,   /* one byte per pixel, 0 black .. 255 white */
  KS_IMAGE_RGBA,   /* four bytes per pixel, R G B A, not premultiplied */
} KsImageFormat;

typedef struct {
  char         *name;         /* "input": part of a file name; not translated */
  char         *label;        /* translated: what it shows, with its size */
  KsImageFormat format;
  guint         width, height;            /* as kept (after thinning) */
  guint         full_width, full_height;  /* the picture's own size */
  guint         step;         /* 1: every pixel kept; k: every k-th row and column */
  GBytes       *pixels;       /* height rows of width pixels, no gaps */
} KsImage;

/* Copies height rows of width pixels, stride bytes apart, from pixels,
 * thinned to at most KS_IMAGE_MAX_PIXELS.  label is taken as given
 * (translate it first); a thinned picture's label gets "(every Nth row
 * and column)" appended. */
KsImage *ks_image_new        (const char    *name,
                              const char    *label,
                              KsImageFormat  format,
                              const guint8  *pixels,
                              guint          width,
                              guint          height,
                              gsize          stride);
void     ks_image_free       (KsImage       *image);
/* A new cairo image surface of the picture (RGB24 for grey, ARGB32 for
 * RGBA): for drawing it, scaled, and for PNG. */
cairo_surface_t *ks_image_to_surface (const KsImage *image);
/* Writes the picture as a PNG file, replaced only by a complete one. */
gboolean ks_image_write_png  (const KsImage *image,
                              const char    *path,
                              GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsImage, ks_image_free)

G_END_DECLS
