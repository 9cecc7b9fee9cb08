/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gif.h: an animated GIF made of rendered frames (the heat animation,
 * paper 004), through giflib: each frame quantised to its own 256-colour
 * palette (giflib's median cut), shown for a fixed delay, the whole looping
 * forever.  Written to a temporary file beside the target and renamed over
 * it by ks_gif_writer_finish(), so the target is only ever replaced by a
 * complete animation.  giflib is optional at build time: without it every
 * call says so (KS_PLOT_ERROR_FORMAT). */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-plot.h"

G_BEGIN_DECLS

typedef struct _KsGifWriter KsGifWriter;

/* Whether this build writes GIFs; KS_PLOT_ERROR_FORMAT saying why not. */
gboolean     ks_gif_available         (GError           **error);
/* An animation of width x height frames (1 to KS_PLOT_EXPORT_MAX_SIZE,
 * else KS_PLOT_ERROR_SIZE), each shown delay_cs hundredths of a second.
 * A file that cannot be made is KS_PLOT_ERROR_WRITE naming it. */
KsGifWriter *ks_gif_writer_new        (const char        *path,
                                       guint              width,
                                       guint              height,
                                       guint              delay_cs,
                                       GError           **error);
/* One frame from an image surface of the writer's size (CAIRO_FORMAT_ARGB32
 * or RGB24; alpha is ignored: frames are opaque). */
gboolean     ks_gif_writer_add_surface (KsGifWriter      *writer,
                                        cairo_surface_t  *surface,
                                        GError          **error);
/* One frame: plot rendered at the writer's size in the light theme. */
gboolean     ks_gif_writer_add_plot   (KsGifWriter       *writer,
                                       KsPlot            *plot,
                                       GError           **error);
guint        ks_gif_writer_get_frames (KsGifWriter       *writer);
/* Closes the file and puts it in place; FALSE (and the target untouched)
 * when no frame was added or a write failed. */
gboolean     ks_gif_writer_finish     (KsGifWriter       *writer,
                                       GError           **error);
/* Frees; an unfinished animation is dropped (its temporary file removed). */
void         ks_gif_writer_free       (KsGifWriter       *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsGifWriter, ks_gif_writer_free)

G_END_DECLS
