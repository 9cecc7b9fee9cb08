/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-gif: the animated GIF writer (src/plot/ks-gif.h): frames in, a GIF89a
 * out whose blocks a reader walks (the screen, the loop extension, one
 * graphics control block and image per frame, each frame's own palette
 * holding its colours), the target replaced only when complete, and the
 * errors: no frame, a frame of another size, a folder that does not exist.
 * Skipped where the build has no giflib (the message checked instead). */
#define G_LOG_DOMAIN "test-gif"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "ks-gif.h"

typedef struct {
  guint width, height;
  guint frames;
  gboolean loops;
  guint delay_cs;
  gboolean palette_has[3];   /* the frames' colours red, green, blue, each in its frame's palette */
} GifWalk;

/* Walks the blocks of a GIF file as a reader does (no decoding of the
 * image data: its sub-blocks are skipped). */
static gboolean
walk (const guchar *d, gsize n, GifWalk *out)
{
  gsize p = 13;

  memset (out, 0, sizeof *out);
  if (n < 13 || memcmp (d, "GIF89a", 6) != 0)
    return FALSE;
  out->width = d[6] | d[7] << 8;
  out->height = d[8] | d[9] << 8;
  if (d[10] & 0x80)
    p += 3u << ((d[10] & 7) + 1);
  while (p < n)
    {
      if (d[p] == 0x3b)
        return TRUE;
      if (d[p] == 0x21)
        {
          const guchar label = d[p + 1];
          p += 2;
          if (label == 0xff && d[p] == 11 && memcmp (d + p + 1, "NETSCAPE2.0", 11) == 0)
            out->loops = TRUE;
          if (label == 0xf9 && d[p] == 4)
            out->delay_cs = d[p + 2] | d[p + 3] << 8;
          while (p < n && d[p] != 0)
            p += d[p] + 1u;
          p++;
          continue;
        }
      if (d[p] == 0x2c)
        {
          const guchar flags = d[p + 9];
          p += 10;
          if (flags & 0x80)
            {
              const guint colours = 1u << ((flags & 7) + 1);
              for (guint c = 0; c < colours && out->frames < 3; c++)
                {
                  const guchar *rgb = d + p + 3 * c;
                  /* Frame k is all colour k; giflib's median cut keeps 5
                   * bits of each primary, so 255 may come back as 248. */
                  if ((rgb[0] >= 240) == (out->frames == 0) && (rgb[1] >= 240) == (out->frames == 1) &&
                      (rgb[2] >= 240) == (out->frames == 2) && rgb[0] + rgb[1] + rgb[2] < 270)
                    out->palette_has[out->frames] = TRUE;
                }
              p += 3 * colours;
            }
          p++;   /* the LZW minimum code size */
          while (p < n && d[p] != 0)
            p += d[p] + 1u;
          p++;
          out->frames++;
          continue;
        }
      return FALSE;
    }
  return FALSE;
}

static cairo_surface_t *
solid (guint w, guint h, double r, double g, double b)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) w, (int) h);
  cairo_t *cr = cairo_create (s);

  cairo_set_source_rgb (cr, r, g, b);
  cairo_paint (cr);
  cairo_destroy (cr);
  return s;
}

static void
test_frames (void)
{
  g_autofree char *dir = g_dir_make_tmp ("ks-test-gif-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "a.gif", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsGifWriter) w = NULL;
  g_autofree guchar *data = NULL;
  gsize len = 0;
  GifWalk walked;

  if (!ks_gif_available (&error))
    {
      g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT);
      g_assert_nonnull (strstr (error->message, "libgif-dev"));
      g_test_skip ("built without giflib");
      return;
    }
  /* The target is replaced only by a complete animation. */
  g_assert_true (g_file_set_contents (path, "old", -1, NULL));
  w = ks_gif_writer_new (path, 40, 30, 7, &error);
  g_assert_no_error (error);
  for (guint k = 0; k < 3; k++)
    {
      cairo_surface_t *s = solid (40, 30, k == 0, k == 1, k == 2);
      g_assert_true (ks_gif_writer_add_surface (w, s, &error));
      g_assert_no_error (error);
      cairo_surface_destroy (s);
      g_assert_true (g_file_get_contents (path, (char **) &data, &len, NULL));
      g_assert_cmpmem (data, len, "old", 3);
      g_clear_pointer (&data, g_free);
    }
  {
    /* Another size: refused, saying both. */
    cairo_surface_t *s = solid (41, 30, 1, 1, 1);
    g_assert_false (ks_gif_writer_add_surface (w, s, &error));
    g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
    g_assert_nonnull (strstr (error->message, "41 x 30"));
    g_clear_error (&error);
    cairo_surface_destroy (s);
  }
  g_assert_cmpuint (ks_gif_writer_get_frames (w), ==, 3);
  g_assert_true (ks_gif_writer_finish (w, &error));
  g_assert_no_error (error);
  g_clear_pointer (&w, ks_gif_writer_free);

  g_assert_true (g_file_get_contents (path, (char **) &data, &len, NULL));
  g_assert_true (walk (data, len, &walked));
  g_assert_cmpuint (walked.width, ==, 40);
  g_assert_cmpuint (walked.height, ==, 30);
  g_assert_cmpuint (walked.frames, ==, 3);
  g_assert_true (walked.loops);
  g_assert_cmpuint (walked.delay_cs, ==, 7);
  g_assert_true (walked.palette_has[0] && walked.palette_has[1] && walked.palette_has[2]);
  g_remove (path);

  /* No frame: nothing written; dropped unfinished: nothing left behind. */
  w = ks_gif_writer_new (path, 4, 4, 10, &error);
  g_assert_false (ks_gif_writer_finish (w, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY);
  g_clear_error (&error);
  g_clear_pointer (&w, ks_gif_writer_free);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    g_assert_null (g_dir_read_name (d));
  }
  g_rmdir (dir);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;

  if (!ks_gif_available (NULL))
    {
      g_test_skip ("built without giflib");
      return;
    }
  g_assert_null (ks_gif_writer_new ("/nonexistent-ks-dir/a.gif", 4, 4, 10, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "/nonexistent-ks-dir/a.gif"));
  g_clear_error (&error);
  g_assert_null (ks_gif_writer_new ("a.gif", 0, 4, 10, &error));
  g_assert_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gif/frames", test_frames);
  g_test_add_func ("/gif/errors", test_errors);
  return g_test_run ();
}
