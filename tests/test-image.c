/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pictures experiments show of their last point (ks-image.h): copied
 * as given, thinned past the limit, drawn as cairo surfaces and written as
 * PNG files that read back to the same pixels. */
#include "ks-image.h"

#include <glib/gstdio.h>
#include <string.h>

/* A picture whose every pixel says where it is. */
static guint8 *
make_grey (guint  width,
           guint  height,
           gsize  stride)
{
  guint8 *p = g_malloc0 (stride * height);

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++)
      p[(gsize) y * stride + x] = (guint8) (x * 7 + y * 13);
  return p;
}

static void
test_copy (void)
{
  g_autofree guint8 *pixels = make_grey (5, 3, 8);   /* rows with a gap of 3 bytes */
  g_autoptr(KsImage) image = ks_image_new ("in", "Input, 5 x 3", KS_IMAGE_GREY, pixels, 5, 3, 8);
  const guint8 *kept = g_bytes_get_data (image->pixels, NULL);

  g_assert_cmpstr (image->name, ==, "in");
  g_assert_cmpstr (image->label, ==, "Input, 5 x 3");
  g_assert_cmpuint (image->step, ==, 1);
  g_assert_cmpuint (image->width, ==, 5);
  g_assert_cmpuint (image->height, ==, 3);
  g_assert_cmpuint (g_bytes_get_size (image->pixels), ==, 15);
  for (guint y = 0; y < 3; y++)
    g_assert_cmpmem (kept + y * 5, 5, pixels + y * 8, 5);
  /* A copy: changing the source later changes nothing. */
  memset (pixels, 0, 24);
  g_assert_cmpuint (kept[5 + 1], ==, 7 + 13);
}

/* 3000 x 2000 is 6 Mpixel: every second row and column, 1500 x 1000. */
static void
test_thinned (void)
{
  const guint w = 3000, h = 2000;
  g_autofree guint8 *pixels = make_grey (w, h, w);
  g_autoptr(KsImage) image = ks_image_new ("big", "Big", KS_IMAGE_GREY, pixels, w, h, w);
  const guint8 *kept = g_bytes_get_data (image->pixels, NULL);

  g_assert_cmpuint (image->step, ==, 2);
  g_assert_cmpuint (image->width, ==, 1500);
  g_assert_cmpuint (image->height, ==, 1000);
  g_assert_cmpuint (image->full_width, ==, w);
  g_assert_cmpuint (image->full_height, ==, h);
  g_assert_cmpuint ((guint64) image->width * image->height, <=, KS_IMAGE_MAX_PIXELS);
  g_assert_nonnull (strstr (image->label, "2"));
  g_assert_true (g_str_has_prefix (image->label, "Big ("));
  for (guint y = 0; y < image->height; y += 97)
    for (guint x = 0; x < image->width; x += 89)
      g_assert_cmpuint (kept[(gsize) y * image->width + x], ==, pixels[(gsize) (2 * y) * w + 2 * x]);

  /* Odd sides round up: 2049 x 2049 keeps rows and columns 0, 2, .. 2048. */
  {
    g_autofree guint8 *odd = make_grey (2049, 2049, 2049);
    g_autoptr(KsImage) thin = ks_image_new ("odd", "Odd", KS_IMAGE_GREY, odd, 2049, 2049, 2049);

    g_assert_cmpuint (thin->step, ==, 2);
    g_assert_cmpuint (thin->width, ==, 1025);
    g_assert_cmpuint (thin->height, ==, 1025);
  }
}

static void
test_surface (void)
{
  const guint8 rgba[] = { 255, 0, 0, 255,   0, 255, 0, 128,   10, 20, 30, 0 };
  const guint8 grey[] = { 0, 128, 255 };
  g_autoptr(KsImage) colour = ks_image_new ("c", "C", KS_IMAGE_RGBA, rgba, 3, 1, 12);
  g_autoptr(KsImage) mono = ks_image_new ("g", "G", KS_IMAGE_GREY, grey, 3, 1, 3);
  cairo_surface_t *s = ks_image_to_surface (colour);
  const guint32 *px = (const guint32 *) cairo_image_surface_get_data (s);

  g_assert_cmpint (cairo_image_surface_get_format (s), ==, CAIRO_FORMAT_ARGB32);
  g_assert_cmphex (px[0], ==, 0xffff0000u);
  g_assert_cmphex (px[1], ==, 0x80008000u);   /* premultiplied: 255 * 128 / 255 */
  g_assert_cmphex (px[2], ==, 0x00000000u);
  cairo_surface_destroy (s);

  s = ks_image_to_surface (mono);
  px = (const guint32 *) cairo_image_surface_get_data (s);
  g_assert_cmpint (cairo_image_surface_get_format (s), ==, CAIRO_FORMAT_RGB24);
  g_assert_cmphex (px[0] & 0xffffff, ==, 0x000000);
  g_assert_cmphex (px[1] & 0xffffff, ==, 0x808080);
  g_assert_cmphex (px[2] & 0xffffff, ==, 0xffffff);
  cairo_surface_destroy (s);
}

static void
test_png (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("ks-image-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "pic.png", NULL);
  g_autofree char *nowhere = g_build_filename (dir, "missing", "pic.png", NULL);
  g_autofree guint8 *pixels = make_grey (31, 17, 31);
  g_autoptr(KsImage) image = ks_image_new ("pic", "Pic", KS_IMAGE_GREY, pixels, 31, 17, 31);
  cairo_surface_t *back;
  const guint8 *data;
  int stride;

  g_assert_no_error (error);
  g_assert_true (ks_image_write_png (image, path, &error));
  g_assert_no_error (error);
  back = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (back), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (back), ==, 31);
  g_assert_cmpint (cairo_image_surface_get_height (back), ==, 17);
  data = cairo_image_surface_get_data (back);
  stride = cairo_image_surface_get_stride (back);
  for (guint y = 0; y < 17; y++)
    for (guint x = 0; x < 31; x++)
      g_assert_cmpuint (((const guint32 *) (data + y * stride))[x] & 0xff, ==, pixels[y * 31 + x]);
  cairo_surface_destroy (back);

  /* A folder that is not there: an error naming the path, nothing written. */
  g_assert_false (ks_image_write_png (image, nowhere, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "missing"));
  g_assert_false (g_file_test (nowhere, G_FILE_TEST_EXISTS));

  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/image/copy", test_copy);
  g_test_add_func ("/image/thinned", test_thinned);
  g_test_add_func ("/image/surface", test_surface);
  g_test_add_func ("/image/png", test_png);

  return g_test_run ();
}
