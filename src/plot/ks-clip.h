/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-clip.h: a clip of a plot's frames (the heat page's recording), each
 * written on a thread of its own: numbered PNG frames into a folder and
 * one animation, an animated GIF (ks-gif.h) or a WebM or MP4 video
 * (ks-video.h).  The caller renders the plot (the plot is its thread's)
 * and hands the image over; the writing thread does the slow part (PNG's
 * compression, the GIF's colour reduction, the encoder), so the animation
 * being recorded keeps its pace.  The queue between them holds a few
 * frames: a writer that falls behind holds the caller back rather than
 * the memory growing. */
#pragma once

#include <glib.h>

#include "ks-plot.h"

G_BEGIN_DECLS

typedef enum {
  KS_CLIP_GIF,
  KS_CLIP_WEBM,
  KS_CLIP_MP4,
  KS_CLIP_N_FORMATS
} KsClipFormat;

/* "gif", "webm", "mp4". */
const char *ks_clip_format_extension (KsClipFormat  format);
/* What a user is offered: "WebM video", ... (translated). */
const char *ks_clip_format_label     (KsClipFormat  format);
/* The format a file name's extension says (any case); FALSE: none. */
gboolean    ks_clip_format_from_path (const char   *path,
                                      KsClipFormat *format);
/* Whether this build and machine write format (giflib; GStreamer and its
 * plugins), KS_PLOT_ERROR_FORMAT saying what to install otherwise. */
gboolean    ks_clip_format_available (KsClipFormat  format,
                                      GError      **error);

typedef struct _KsClip KsClip;

/* A clip of width x height frames shown fps a second: the animation at
 * path in format (path NULL: the PNG frames alone), the frames as
 * frame-NUMBER.png in frames_dir (NULL: none; the folder must exist). */
KsClip  *ks_clip_new        (const char   *path,
                             KsClipFormat  format,
                             const char   *frames_dir,
                             guint         width,
                             guint         height,
                             guint         fps,
                             GError      **error);
/* plot rendered now, on the calling thread, in the light theme, and
 * queued as frame number; FALSE with the writing thread's first error
 * once one failed (the frames after it are not written). */
gboolean ks_clip_add_plot   (KsClip       *clip,
                             KsPlot       *plot,
                             guint         number,
                             GError      **error);
/* The frames queued so far. */
guint    ks_clip_get_frames (KsClip       *clip);
/* Waits for the queue to be written, then finishes the animation (which
 * replaces path only then); FALSE with the first error. */
gboolean ks_clip_finish     (KsClip       *clip,
                             GError      **error);
/* Stops the thread; an unfinished animation is dropped (the PNG frames
 * written stay). */
void     ks_clip_free       (KsClip       *clip);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsClip, ks_clip_free)

G_END_DECLS
