/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-clip: a plot's frames written on the clip's own thread
 * (src/plot/ks-clip.h) as numbered PNGs and one WebM (or MP4, or GIF)
 * video: ten small frames in, a file whose container a reader recognises
 * (WebM's EBML magic, MP4's ftyp box) and the length (ten frames at 10
 * a second: one second; a WebM's with its size through GStreamer's
 * discoverer, an MP4's from its movie header); a clip dropped unfinished leaves no file; a writing thread's
 * failure reaches the caller.  A format whose library or plugins this
 * machine lacks is skipped, saying which. */
#define G_LOG_DOMAIN "test-clip"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ks-clip.h"
#include "ks-plot-private.h"
#include "ks-video.h"

#ifdef KS_TEST_HAVE_PBUTILS
#include <gst/pbutils/pbutils.h>
#endif

#define W 64
#define H 48
#define FRAMES 10
#define FPS 10

static char *tmpdir;

/* The files the tests wrote, two levels deep at most, and the folder. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);

  for (const char *name; dir != NULL && (name = g_dir_read_name (dir)) != NULL;)
    {
      g_autofree char *p = g_build_filename (path, name, NULL);

      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        remove_tree (p);
      else
        g_unlink (p);
    }
  g_rmdir (path);
}

static KsPlot *
make_plot (void)
{
  KsPlot *plot = ks_plot_new ();
  const guint s = ks_plot_add_series (plot, "frames");

  ks_plot_add_point (plot, s, 0, 0);
  ks_plot_add_point (plot, s, 1, 1);
  return plot;
}

/* FRAMES frames of a growing curve into path (and PNGs into dir). */
static gboolean
write_clip (const char *path, KsClipFormat format, const char *dir, GError **error)
{
  g_autoptr(KsClip) clip = ks_clip_new (path, format, dir, W, H, FPS, error);
  g_autoptr(KsPlot) plot = make_plot ();

  if (clip == NULL)
    return FALSE;
  for (guint i = 0; i < FRAMES; i++)
    {
      ks_plot_add_point (plot, 0, 2 + i, (i * 7) % 5);
      if (!ks_clip_add_plot (clip, plot, 100 + i, error))
        return FALSE;
    }
  g_assert_cmpuint (ks_clip_get_frames (clip), ==, FRAMES);
  return ks_clip_finish (clip, error);
}

/* Size and length as GStreamer reads them back. */
static void
check_discovered (const char *path)
{
#ifdef KS_TEST_HAVE_PBUTILS
  g_autoptr(GError) error = NULL;
  g_autoptr(GstDiscoverer) disc = gst_discoverer_new (10 * GST_SECOND, &error);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autoptr(GstDiscovererInfo) info = NULL;
  GList *videos;
  double seconds;

  g_assert_no_error (error);
  info = gst_discoverer_discover_uri (disc, uri, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gst_discoverer_info_get_result (info), ==, GST_DISCOVERER_OK);
  seconds = gst_discoverer_info_get_duration (info) / (double) GST_SECOND;
  g_test_message ("%s: %.3f s", path, seconds);
  g_assert_cmpfloat_with_epsilon (seconds, (double) FRAMES / FPS, 0.15);
  videos = gst_discoverer_info_get_video_streams (info);
  g_assert_cmpuint (g_list_length (videos), ==, 1);
  g_assert_cmpuint (gst_discoverer_video_info_get_width (videos->data), ==, W);
  g_assert_cmpuint (gst_discoverer_video_info_get_height (videos->data), ==, H);
  gst_discoverer_stream_info_list_free (videos);
#else
  g_test_message ("no gstreamer-pbutils: %s's length is not read back", path);
#endif
}

/* An MP4's length from its movie header (mvhd: the timescale and the
 * duration in it), read without a decoder: GStreamer's discoverer wants
 * an H.264 decoder (gstreamer1.0-libav) that the encoder does not. */
static double
mp4_seconds (const guchar *d, gsize n)
{
  for (gsize p = 4; p + 32 <= n; p++)
    if (memcmp (d + p, "mvhd", 4) == 0)
      {
        const guchar *b = d + p + 4;
        const gboolean v1 = b[0] == 1;
        const guchar *t = b + (v1 ? 20 : 12);
        const guint32 scale = (guint32) t[0] << 24 | t[1] << 16 | t[2] << 8 | t[3];
        guint64 duration = 0;

        for (guint k = 0; k < (v1 ? 8u : 4u); k++)
          duration = duration << 8 | t[4 + k];
        return scale > 0 ? (double) duration / scale : NAN;
      }
  return NAN;
}

/* Every frame's PNG, numbered as given. */
static void
check_frames (const char *dir)
{
  for (guint i = 0; i < FRAMES; i++)
    {
      g_autofree char *name = g_strdup_printf ("frame-%06u.png", 100 + i);
      g_autofree char *png = g_build_filename (dir, name, NULL);

      g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
    }
}

static void
test_video (gconstpointer data)
{
  const KsClipFormat format = GPOINTER_TO_UINT (data);
  const char *ext = ks_clip_format_extension (format);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("clip.%s", ext);
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autofree char *dir = g_build_filename (tmpdir, ext, NULL);
  g_autofree char *bytes = NULL;
  gsize len = 0;

  if (!ks_clip_format_available (format, &error))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (write_clip (path, format, dir, &error));
  g_assert_no_error (error);
  check_frames (dir);
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_assert_cmpuint (len, >, 64);
  if (format == KS_CLIP_WEBM)
    g_assert_cmpmem (bytes, 4, "\x1a\x45\xdf\xa3", 4);   /* EBML */
  else if (format == KS_CLIP_MP4)
    g_assert_cmpmem (bytes + 4, 4, "ftyp", 4);
  else
    g_assert_cmpmem (bytes, 6, "GIF89a", 6);
  if (format == KS_CLIP_WEBM)
    check_discovered (path);
  if (format == KS_CLIP_MP4)
    g_assert_cmpfloat_with_epsilon (mp4_seconds ((const guchar *) bytes, len), (double) FRAMES / FPS, 0.15);
}

/* The clip's fast PNG writer gives the very pixels cairo's own does
 * (the channels in their order), read back by cairo. */
static void
test_png (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsPlot) plot = make_plot ();
  g_autofree char *ours = g_build_filename (tmpdir, "ours.png", NULL);
  g_autofree char *theirs = g_build_filename (tmpdir, "theirs.png", NULL);
  cairo_surface_t *frame = ks_plot_render_frame (plot, W, H);
  cairo_surface_t *a, *b;

  g_assert_true (ks_plot_write_frame_png (frame, ours, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cairo_surface_write_to_png (frame, theirs), ==, CAIRO_STATUS_SUCCESS);
  a = cairo_image_surface_create_from_png (ours);
  b = cairo_image_surface_create_from_png (theirs);
  g_assert_cmpint (cairo_surface_status (a), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (a), ==, W);
  g_assert_cmpint (cairo_image_surface_get_height (a), ==, H);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        const guint32 pa = ((const guint32 *) (cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a)))[x];
        const guint32 pb = ((const guint32 *) (cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b)))[x];
        g_assert_cmphex (pa & 0xffffff, ==, pb & 0xffffff);
      }
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  cairo_surface_destroy (frame);
  g_assert_false (ks_plot_write_frame_png (frame = ks_plot_render_frame (plot, W, H), "/nonexistent/dir/x.png",
                                           &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE);
  cairo_surface_destroy (frame);
}

static void
test_formats (void)
{
  KsClipFormat f = KS_CLIP_N_FORMATS;

  g_assert_true (ks_clip_format_from_path ("/a/b.WebM", &f) && f == KS_CLIP_WEBM);
  g_assert_true (ks_clip_format_from_path ("b.mp4", &f) && f == KS_CLIP_MP4);
  g_assert_true (ks_clip_format_from_path ("b.gif", &f) && f == KS_CLIP_GIF);
  g_assert_false (ks_clip_format_from_path ("b.png", &f));
  g_assert_false (ks_clip_format_from_path ("webm", &f));
}

/* Dropped before finish: the target never appears, nor a temporary file. */
static void
test_dropped (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "dropped.webm", NULL);
  g_autoptr(KsPlot) plot = make_plot ();
  g_autoptr(GDir) d = NULL;
  KsClip *clip;

  if (!ks_clip_format_available (KS_CLIP_WEBM, &error))
    {
      g_test_skip (error->message);
      return;
    }
  clip = ks_clip_new (path, KS_CLIP_WEBM, NULL, W, H, FPS, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    g_assert_true (ks_clip_add_plot (clip, plot, i, &error));
  ks_clip_free (clip);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  d = g_dir_open (tmpdir, 0, NULL);
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    g_assert_false (g_str_has_prefix (name, "dropped.webm"));
}

/* The writing thread fails (its frames folder is gone): the caller hears
 * of it, by the next frames or by finish, with the file named. */
static void
test_thread_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_build_filename (tmpdir, "gone", NULL);
  g_autoptr(KsPlot) plot = make_plot ();
  g_autoptr(KsClip) clip = ks_clip_new (NULL, KS_CLIP_GIF, dir, W, H, FPS, &error);
  gboolean ok = TRUE;

  g_assert_no_error (error);
  for (guint i = 0; i < 50 && ok; i++)
    ok = ks_clip_add_plot (clip, plot, i, &error);
  if (ok)
    ok = ks_clip_finish (clip, &error);
  g_assert_false (ok);
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "gone"));
}

static void
test_odd_size (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "odd.webm", NULL);

  if (!ks_video_available (KS_VIDEO_WEBM, &error))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_null (ks_video_writer_new (path, KS_VIDEO_WEBM, 65, 48, FPS, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("test-clip-XXXXXX", NULL);
  g_test_add_func ("/clip/formats", test_formats);
  g_test_add_func ("/clip/png", test_png);
  g_test_add_data_func ("/clip/webm", GUINT_TO_POINTER (KS_CLIP_WEBM), test_video);
  g_test_add_data_func ("/clip/mp4", GUINT_TO_POINTER (KS_CLIP_MP4), test_video);
  g_test_add_data_func ("/clip/gif", GUINT_TO_POINTER (KS_CLIP_GIF), test_video);
  g_test_add_func ("/clip/dropped", test_dropped);
  g_test_add_func ("/clip/thread-error", test_thread_error);
  g_test_add_func ("/clip/odd-size", test_odd_size);
  status = g_test_run ();
  remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
