/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-clip.c: a clip's frames written on a thread of their own (see
 * ks-clip.h). */
#define G_LOG_DOMAIN "ks-plot"

#include "ks-clip.h"
#include "ks-gif.h"
#include "ks-plot-private.h"
#include "ks-video.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#ifdef KS_HAVE_LIBPNG
#include <png.h>
#endif

/* Frames waiting for the writing thread: enough to ride out one slow
 * frame (a key frame, a full disk cache), few enough to stay small (a
 * frame of 800 x 640 is 2 MB). */
#define QUEUE_MAX 4

typedef struct {
  cairo_surface_t *surface;
  guint            number;
} ClipFrame;

struct _KsClip {
  char          *frames_dir;
  guint          width;
  guint          height;
  guint          frames;
  KsGifWriter   *gif;
  KsVideoWriter *video;
  GThread       *thread;
  /* Under lock: the queue, and what the two threads tell each other. */
  GMutex         lock;
  GCond          cond;
  GQueue         queue;      /* ClipFrame *, at most QUEUE_MAX */
  gboolean       closing;    /* no more frames: the thread ends once the queue is written */
  GError        *error;      /* the writing thread's first */
};

static const struct {
  const char *extension;
  const char *label;
} formats[KS_CLIP_N_FORMATS] = {
  [KS_CLIP_GIF] = { "gif", N_("Animated GIF (256 colours)") },
  [KS_CLIP_WEBM] = { "webm", N_("WebM video (VP8)") },
  [KS_CLIP_MP4] = { "mp4", N_("MP4 video (H.264)") },
};

const char *
ks_clip_format_extension (KsClipFormat format)
{
  g_return_val_if_fail (format < KS_CLIP_N_FORMATS, NULL);
  return formats[format].extension;
}

const char *
ks_clip_format_label (KsClipFormat format)
{
  g_return_val_if_fail (format < KS_CLIP_N_FORMATS, NULL);
  return _(formats[format].label);
}

gboolean
ks_clip_format_from_path (const char *path, KsClipFormat *format)
{
  const char *dot;

  g_return_val_if_fail (path != NULL && format != NULL, FALSE);
  dot = strrchr (path, '.');
  for (guint f = 0; dot != NULL && f < KS_CLIP_N_FORMATS; f++)
    if (g_ascii_strcasecmp (dot + 1, formats[f].extension) == 0)
      {
        *format = f;
        return TRUE;
      }
  return FALSE;
}

gboolean
ks_clip_format_available (KsClipFormat format, GError **error)
{
  g_return_val_if_fail (format < KS_CLIP_N_FORMATS, FALSE);
  return format == KS_CLIP_GIF ? ks_gif_available (error)
                               : ks_video_available (format == KS_CLIP_WEBM ? KS_VIDEO_WEBM : KS_VIDEO_MP4, error);
}

static void
clip_frame_free (ClipFrame *f)
{
  cairo_surface_destroy (f->surface);
  g_free (f);
}

#ifdef KS_HAVE_LIBPNG
static void
png_failed (png_structp png, png_const_charp message)
{
  g_strlcpy (png_get_error_ptr (png), message, 256);
  png_longjmp (png, 1);
}

/* cairo's PNG writer compresses as zlib's default does: 42 ms of an
 * 800 x 640 frame against 10 for the video's encoder, the clip's
 * slowest part.  zlib's fastest level makes the file about a third
 * larger in a quarter of the time. */
static gboolean
write_png (cairo_surface_t *surface, const char *path, GError **error)
{
  const int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  const int stride = cairo_image_surface_get_stride (surface);
  guchar *data = cairo_image_surface_get_data (surface);
  char why[256] = "";
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, why, png_failed, NULL);
  png_infop info = png != NULL ? png_create_info_struct (png) : NULL;
  FILE *volatile fp = NULL;
  gboolean ok = FALSE;

  cairo_surface_flush (surface);
  if (info != NULL && setjmp (png_jmpbuf (png)) == 0)
    {
      if ((fp = g_fopen (path, "wb")) == NULL)
        g_strlcpy (why, g_strerror (errno), sizeof why);
      else
        {
          png_init_io (png, fp);
          png_set_IHDR (png, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                        PNG_FILTER_TYPE_DEFAULT);
          png_set_compression_level (png, 1);
          png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
          png_write_info (png, info);
          /* cairo's pixels are 32-bit words 0xXXRRGGBB: B G R X in memory here. */
          if (G_BYTE_ORDER == G_LITTLE_ENDIAN)
            png_set_bgr (png);
          png_set_filler (png, 0, G_BYTE_ORDER == G_LITTLE_ENDIAN ? PNG_FILLER_AFTER : PNG_FILLER_BEFORE);
          for (int y = 0; y < h; y++)
            png_write_row (png, data + (gsize) y * stride);
          png_write_end (png, NULL);
          ok = fclose (fp) == 0;
          fp = NULL;
          if (!ok)
            g_strlcpy (why, g_strerror (errno), sizeof why);
        }
    }
  if (fp != NULL)
    fclose (fp);
  png_destroy_write_struct (&png, &info);
  if (!ok)
    g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the frame %s: %s"), path,
                 why[0] != '\0' ? why : "libpng");
  return ok;
}
#else
static gboolean
write_png (cairo_surface_t *surface, const char *path, GError **error)
{
  const cairo_status_t status = cairo_surface_write_to_png (surface, path);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the frame %s: %s"), path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
#endif

gboolean
ks_plot_write_frame_png (cairo_surface_t *surface, const char *path, GError **error)
{
  g_return_val_if_fail (surface != NULL && path != NULL, FALSE);
  g_return_val_if_fail (cairo_image_surface_get_format (surface) == CAIRO_FORMAT_RGB24, FALSE);
  return write_png (surface, path, error);
}

/* One frame into the folder and the animation (the writing thread). */
static gboolean
write_frame (KsClip *clip, ClipFrame *f, GError **error)
{
  if (clip->frames_dir != NULL)
    {
      g_autofree char *name = g_strdup_printf ("frame-%06u.png", f->number);
      g_autofree char *path = g_build_filename (clip->frames_dir, name, NULL);

      if (!ks_plot_write_frame_png (f->surface, path, error))
        return FALSE;
    }
  if (clip->gif != NULL)
    return ks_gif_writer_add_surface (clip->gif, f->surface, error);
  if (clip->video != NULL)
    return ks_video_writer_add_surface (clip->video, f->surface, error);
  return TRUE;
}

static gpointer
writer_main (gpointer data)
{
  KsClip *clip = data;
  gboolean failed = FALSE;

  g_mutex_lock (&clip->lock);
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      ClipFrame *f;

      while (g_queue_is_empty (&clip->queue) && !clip->closing)
        g_cond_wait (&clip->cond, &clip->lock);
      if ((f = g_queue_pop_head (&clip->queue)) == NULL)
        break;
      /* A place in the queue is free. */
      g_cond_broadcast (&clip->cond);
      g_mutex_unlock (&clip->lock);
      /* After a failure the frames are only taken off the queue. */
      if (!failed)
        failed = !write_frame (clip, f, &error);
      clip_frame_free (f);
      g_mutex_lock (&clip->lock);
      if (error != NULL && clip->error == NULL)
        {
          clip->error = g_steal_pointer (&error);
          g_cond_broadcast (&clip->cond);
        }
    }
  g_mutex_unlock (&clip->lock);
  return NULL;
}

KsClip *
ks_clip_new (const char *path, KsClipFormat format, const char *frames_dir, guint width, guint height, guint fps,
             GError **error)
{
  g_autoptr(KsClip) clip = NULL;

  g_return_val_if_fail (format < KS_CLIP_N_FORMATS && fps > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  clip = g_new0 (KsClip, 1);
  g_mutex_init (&clip->lock);
  g_cond_init (&clip->cond);
  g_queue_init (&clip->queue);
  clip->frames_dir = g_strdup (frames_dir);
  clip->width = width;
  clip->height = height;
  if (path != NULL && format == KS_CLIP_GIF &&
      !(clip->gif = ks_gif_writer_new (path, width, height, MAX (1, 100 / fps), error)))
    return NULL;
  if (path != NULL && format != KS_CLIP_GIF &&
      !(clip->video = ks_video_writer_new (path, format == KS_CLIP_WEBM ? KS_VIDEO_WEBM : KS_VIDEO_MP4, width,
                                           height, fps, error)))
    return NULL;
  if (!(clip->thread = g_thread_try_new ("ks-clip", writer_main, clip, error)))
    return NULL;
  return g_steal_pointer (&clip);
}

/* The thread's first error, under the lock. */
static gboolean
failed (KsClip *clip, GError **error)
{
  if (clip->error == NULL)
    return FALSE;
  if (error != NULL)
    *error = g_error_copy (clip->error);
  return TRUE;
}

gboolean
ks_clip_add_plot (KsClip *clip, KsPlot *plot, guint number, GError **error)
{
  ClipFrame *f;
  gboolean ok;

  g_return_val_if_fail (clip != NULL && plot != NULL && clip->thread != NULL, FALSE);
  g_mutex_lock (&clip->lock);
  ok = !failed (clip, error);
  g_mutex_unlock (&clip->lock);
  if (!ok)
    return FALSE;
  f = g_new0 (ClipFrame, 1);
  f->number = number;
  f->surface = ks_plot_render_frame (plot, clip->width, clip->height);
  g_mutex_lock (&clip->lock);
  while (g_queue_get_length (&clip->queue) >= QUEUE_MAX && clip->error == NULL)
    g_cond_wait (&clip->cond, &clip->lock);
  ok = !failed (clip, error);
  if (ok)
    {
      g_queue_push_tail (&clip->queue, f);
      clip->frames++;
      g_cond_broadcast (&clip->cond);
    }
  g_mutex_unlock (&clip->lock);
  if (!ok)
    clip_frame_free (f);
  return ok;
}

guint
ks_clip_get_frames (KsClip *clip)
{
  g_return_val_if_fail (clip != NULL, 0);
  return clip->frames;
}

/* The thread told to end once the queue is empty (drop: at once), and
 * joined. */
static void
stop_thread (KsClip *clip, gboolean drop)
{
  if (clip->thread == NULL)
    return;
  g_mutex_lock (&clip->lock);
  clip->closing = TRUE;
  if (drop)
    g_queue_clear_full (&clip->queue, (GDestroyNotify) clip_frame_free);
  g_cond_broadcast (&clip->cond);
  g_mutex_unlock (&clip->lock);
  g_thread_join (g_steal_pointer (&clip->thread));
}

gboolean
ks_clip_finish (KsClip *clip, GError **error)
{
  g_return_val_if_fail (clip != NULL, FALSE);
  stop_thread (clip, FALSE);
  if (failed (clip, error))
    return FALSE;
  if (clip->gif != NULL)
    return ks_gif_writer_finish (clip->gif, error);
  if (clip->video != NULL)
    return ks_video_writer_finish (clip->video, error);
  return TRUE;
}

void
ks_clip_free (KsClip *clip)
{
  if (clip == NULL)
    return;
  stop_thread (clip, TRUE);
  g_queue_clear_full (&clip->queue, (GDestroyNotify) clip_frame_free);
  g_clear_pointer (&clip->gif, ks_gif_writer_free);
  g_clear_pointer (&clip->video, ks_video_writer_free);
  g_clear_error (&clip->error);
  g_free (clip->frames_dir);
  g_mutex_clear (&clip->lock);
  g_cond_clear (&clip->cond);
  g_free (clip);
}
