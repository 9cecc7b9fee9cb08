/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-video.c: WebM and MP4 clips of rendered frames (see ks-video.h). */
#define G_LOG_DOMAIN "ks-plot"

#include "ks-video.h"
#include "ks-plot-private.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#ifdef KS_HAVE_GSTREAMER
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#endif

/* How long finish waits for the encoder to drain (a few frames behind). */
#define FINISH_TIMEOUT_S 120

struct _KsVideoWriter {
  char   *path;
  char   *tmp;        /* the file being written, renamed to path when complete */
  guint   width;
  guint   height;
  guint   fps;
  guint   frames;
#ifdef KS_HAVE_GSTREAMER
  GstElement *pipeline;
  GstElement *src;
  GstBus     *bus;
#endif
};

#ifdef KS_HAVE_GSTREAMER
/* The elements each format needs, and the Debian package that has them. */
static const struct {
  const char *elements[4];
  const char *encode;    /* the pipeline after the conversion to I420 */
  const char *package;
} formats[] = {
  [KS_VIDEO_WEBM] = { { "vp8enc", "webmmux", NULL },
                      /* deadline 1: as fast as it goes (the default, "best", is minutes a clip) */
                      "vp8enc deadline=1 cpu-used=4 target-bitrate=2000000 keyframe-max-dist=30 ! webmmux",
                      "gstreamer1.0-plugins-good" },
  [KS_VIDEO_MP4] = { { "x264enc", "mp4mux", NULL },
                     "x264enc speed-preset=veryfast bitrate=2000 key-int-max=30 ! mp4mux",
                     "gstreamer1.0-plugins-ugly" },
};

static gboolean
gst_ready (GError **error)
{
  static gsize done;
  static GError *failed;

  if (g_once_init_enter (&done))
    {
      gst_init_check (NULL, NULL, &failed);
      g_once_init_leave (&done, 1);
    }
  if (failed != NULL)
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT, _("GStreamer could not start: %s"), failed->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
has_element (const char *name)
{
  GstElementFactory *factory = gst_element_factory_find (name);

  if (factory == NULL)
    return FALSE;
  gst_object_unref (factory);
  return TRUE;
}
#endif

gboolean
ks_video_available (KsVideoFormat format, GError **error)
{
  g_return_val_if_fail (format == KS_VIDEO_WEBM || format == KS_VIDEO_MP4, FALSE);
#ifdef KS_HAVE_GSTREAMER
  {
    static const char *const common[] = { "appsrc", "videoconvert", "filesink", NULL };

    if (!gst_ready (error))
      return FALSE;
    for (guint i = 0; common[i] != NULL; i++)
      if (!has_element (common[i]))
        {
          g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT,
                       _("Videos need GStreamer's %s, which is not installed (Debian: gstreamer1.0-plugins-base)"),
                       common[i]);
          return FALSE;
        }
    for (guint i = 0; formats[format].elements[i] != NULL; i++)
      if (!has_element (formats[format].elements[i]))
        {
          g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT,
                       _("%s needs GStreamer's %s, which is not installed (Debian: %s)"),
                       format == KS_VIDEO_WEBM ? "WebM" : "MP4", formats[format].elements[i],
                       formats[format].package);
          return FALSE;
        }
    return TRUE;
  }
#else
  g_set_error_literal (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT,
                       _("Videos need GStreamer, which this build lacks (Debian: libgstreamer1.0-dev and "
                         "libgstreamer-plugins-base1.0-dev, then build again)"));
  return FALSE;
#endif
}

#ifdef KS_HAVE_GSTREAMER
static gboolean
write_error (KsVideoWriter *w, const char *why, GError **error)
{
  g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the video %s: %s"), w->path, why);
  return FALSE;
}

/* The first error the pipeline posted (NULL: none); timeout_ns > 0 waits
 * that long for it or for the end of the stream. */
static gboolean
check_bus (KsVideoWriter *w, GstClockTime timeout_ns, gboolean *at_end, GError **error)
{
  g_autoptr(GstMessage) msg = gst_bus_timed_pop_filtered (w->bus, timeout_ns, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  g_autoptr(GError) gst_error = NULL;

  if (msg == NULL)
    return TRUE;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS)
    {
      if (at_end != NULL)
        *at_end = TRUE;
      return TRUE;
    }
  gst_message_parse_error (msg, &gst_error, NULL);
  return write_error (w, gst_error->message, error);
}

static gboolean
build_pipeline (KsVideoWriter *w, KsVideoFormat format, GError **error)
{
  g_autofree char *launch = g_strdup_printf ("appsrc name=src ! videoconvert ! video/x-raw,format=I420 ! %s "
                                             "! filesink name=sink", formats[format].encode);
  g_autoptr(GError) gst_error = NULL;
  g_autoptr(GstCaps) caps = NULL;
  g_autoptr(GstElement) sink = NULL;

  w->pipeline = gst_parse_launch (launch, &gst_error);
  if (w->pipeline == NULL || gst_error != NULL)
    return write_error (w, gst_error != NULL ? gst_error->message : "gst_parse_launch", error);
  w->src = gst_bin_get_by_name (GST_BIN (w->pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (w->pipeline), "sink");
  /* Cairo's RGB24 is BGRx in memory on a little-endian machine. */
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
                              G_BYTE_ORDER == G_LITTLE_ENDIAN ? "BGRx" : "xRGB", "width", G_TYPE_INT,
                              (int) w->width, "height", G_TYPE_INT, (int) w->height, "framerate",
                              GST_TYPE_FRACTION, (int) w->fps, 1, NULL);
  /* block: a push waits while four frames are queued, so a slow encoder
   * holds the frames back rather than the memory growing. */
  g_object_set (w->src, "caps", caps, "format", GST_FORMAT_TIME, "block", TRUE, "max-bytes",
                (guint64) 4 * w->width * w->height * 4, NULL);
  g_object_set (sink, "location", w->tmp, NULL);
  w->bus = gst_element_get_bus (w->pipeline);
  if (gst_element_set_state (w->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    return check_bus (w, 0, NULL, error) && write_error (w, _("the encoder did not start"), error);
  return TRUE;
}
#endif

KsVideoWriter *
ks_video_writer_new (const char *path, KsVideoFormat format, guint width, guint height, guint fps, GError **error)
{
  g_return_val_if_fail (path != NULL && fps > 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!ks_video_available (format, error))
    return NULL;
  if (width < 2 || height < 2 || width % 2 != 0 || height % 2 != 0 || width > KS_PLOT_EXPORT_MAX_SIZE ||
      height > KS_PLOT_EXPORT_MAX_SIZE)
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE,
                   _("A video of %u x %u pixels: each side must be even, 2 to %d"), width, height,
                   KS_PLOT_EXPORT_MAX_SIZE);
      return NULL;
    }
#ifdef KS_HAVE_GSTREAMER
  {
    g_autoptr(KsVideoWriter) w = g_new0 (KsVideoWriter, 1);
    int fd;

    w->path = g_strdup (path);
    w->width = width;
    w->height = height;
    w->fps = fps;
    if (!ks_plot_check_replace (path, error))
      return NULL;
    w->tmp = g_strdup_printf ("%s.XXXXXX", path);
    if ((fd = g_mkstemp_full (w->tmp, O_RDWR, 0666)) < 0)
      {
        const int err = errno;
        g_clear_pointer (&w->tmp, g_free);
        write_error (w, g_strerror (err), error);
        return NULL;
      }
    close (fd);
    if (!build_pipeline (w, format, error))
      return NULL;
    return g_steal_pointer (&w);
  }
#endif
  return NULL;
}

gboolean
ks_video_writer_add_surface (KsVideoWriter *w, cairo_surface_t *surface, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  if (!ks_plot_check_frame (surface, w->width, w->height, error))
    return FALSE;
#ifdef KS_HAVE_GSTREAMER
  {
    const gsize stride = cairo_image_surface_get_stride (surface);
    GstBuffer *buffer;

    g_return_val_if_fail (w->pipeline != NULL && stride == 4 * (gsize) w->width, FALSE);
    cairo_surface_flush (surface);
    /* The surface's pixels themselves, released with the buffer. */
    buffer = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, cairo_image_surface_get_data (surface),
                                          stride * w->height, 0, stride * w->height,
                                          cairo_surface_reference (surface), (GDestroyNotify) cairo_surface_destroy);
    GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (w->frames, GST_SECOND, w->fps);
    GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (1, GST_SECOND, w->fps);
    if (gst_app_src_push_buffer (GST_APP_SRC (w->src), buffer) != GST_FLOW_OK)
      return check_bus (w, 0, NULL, error) && write_error (w, _("the encoder stopped"), error);
    w->frames++;
    return check_bus (w, 0, NULL, error);
  }
#else
  return ks_video_available (KS_VIDEO_WEBM, error);
#endif
}

gboolean
ks_video_writer_finish (KsVideoWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
#ifdef KS_HAVE_GSTREAMER
  {
    gboolean at_end = FALSE;

    g_return_val_if_fail (w->pipeline != NULL && w->tmp != NULL, FALSE);
    if (w->frames == 0)
      {
        g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY, _("The video %s has no frames"), w->path);
        return FALSE;
      }
    gst_app_src_end_of_stream (GST_APP_SRC (w->src));
    if (!check_bus (w, (GstClockTime) FINISH_TIMEOUT_S * GST_SECOND, &at_end, error))
      return FALSE;
    if (!at_end)
      return write_error (w, _("the encoder did not finish in time"), error);
    gst_element_set_state (w->pipeline, GST_STATE_NULL);
    if (!ks_plot_check_replace (w->path, error))
      return FALSE;
    if (g_rename (w->tmp, w->path) != 0)
      {
        const int err = errno;
        return write_error (w, g_strerror (err), error);
      }
    g_clear_pointer (&w->tmp, g_free);
    return TRUE;
  }
#else
  return ks_video_available (KS_VIDEO_WEBM, error);
#endif
}

void
ks_video_writer_free (KsVideoWriter *w)
{
  if (w == NULL)
    return;
#ifdef KS_HAVE_GSTREAMER
  if (w->pipeline != NULL)
    gst_element_set_state (w->pipeline, GST_STATE_NULL);
  g_clear_pointer (&w->bus, gst_object_unref);
  g_clear_pointer (&w->src, gst_object_unref);
  g_clear_pointer (&w->pipeline, gst_object_unref);
#endif
  if (w->tmp != NULL)
    g_unlink (w->tmp);
  g_free (w->tmp);
  g_free (w->path);
  g_free (w);
}
