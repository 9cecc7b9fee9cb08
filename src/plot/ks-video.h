/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-video.h: a video (WebM: VP8, or MP4: H.264) made of rendered frames
 * (the heat animation, paper 004), through GStreamer: appsrc, videoconvert
 * to I420, vp8enc or x264enc, webmmux or mp4mux, a file.  Unlike a GIF's
 * 256 colours a frame keeps the palette's smooth gradient.  Written to a
 * temporary file beside the target and renamed over it by
 * ks_video_writer_finish(), so the target is only ever replaced by a whole
 * clip.  GStreamer is optional at build time (meson's "video" feature) and
 * its plugins at run time: without them every call says which package
 * brings them (KS_PLOT_ERROR_FORMAT). */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  KS_VIDEO_WEBM,   /* VP8 in WebM (gstreamer1.0-plugins-good) */
  KS_VIDEO_MP4,    /* H.264 in MP4 (x264enc: gstreamer1.0-plugins-ugly) */
} KsVideoFormat;

typedef struct _KsVideoWriter KsVideoWriter;

/* Whether this build and this machine's GStreamer plugins write format;
 * KS_PLOT_ERROR_FORMAT naming what is missing otherwise. */
gboolean       ks_video_available          (KsVideoFormat     format,
                                            GError          **error);
/* A clip of width x height frames (even sides, 2 to
 * KS_PLOT_EXPORT_MAX_SIZE, else KS_PLOT_ERROR_SIZE), fps frames a second.
 * A file that cannot be made is KS_PLOT_ERROR_WRITE naming it. */
KsVideoWriter *ks_video_writer_new         (const char       *path,
                                            KsVideoFormat     format,
                                            guint             width,
                                            guint             height,
                                            guint             fps,
                                            GError          **error);
/* One frame: an image surface of the writer's size (CAIRO_FORMAT_RGB24 or
 * ARGB32, alpha ignored), taken by reference (not to be drawn on again).
 * Blocks while the encoder is a few frames behind.  An error of the
 * encoder (a disk full) is told here or by finish. */
gboolean       ks_video_writer_add_surface (KsVideoWriter    *writer,
                                            cairo_surface_t  *surface,
                                            GError          **error);
/* Ends the stream, waits for the encoder and puts the file in place;
 * FALSE (and the target untouched) when no frame was added or it failed. */
gboolean       ks_video_writer_finish      (KsVideoWriter    *writer,
                                            GError          **error);
/* Frees; an unfinished clip is dropped (its temporary file removed). */
void           ks_video_writer_free        (KsVideoWriter    *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsVideoWriter, ks_video_writer_free)

G_END_DECLS
