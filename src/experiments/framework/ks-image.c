/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-image.c: the pictures experiments show of their last point. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-image.h"
#include "ks-io-file.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static guint
bytes_per_pixel (KsImageFormat format)
{
  return format == KS_IMAGE_RGBA ? 4 : 1;
}

/* The smallest k whose every-k-th row and column fits the limit. */
static guint
thinning_step (guint width,
               guint height)
{
  guint k = 1;

  while ((guint64) ((width + k - 1) / k) * ((height + k - 1) / k) > KS_IMAGE_MAX_PIXELS)
    k++;
  return k;
}

KsImage *
ks_image_new (const char    *name,
              const char    *label,
              KsImageFormat  format,
              const guint8  *pixels,
              guint          width,
              guint          height,
              gsize          stride)
{
  const guint bpp = bytes_per_pixel (format);
  KsImage *image;
  guint8 *kept, *out;

  g_return_val_if_fail (name != NULL && label != NULL, NULL);
  g_return_val_if_fail (format == KS_IMAGE_GREY || format == KS_IMAGE_RGBA, NULL);
  g_return_val_if_fail (pixels != NULL && width > 0 && height > 0, NULL);
  g_return_val_if_fail (stride >= (gsize) width * bpp, NULL);

  image = g_new0 (KsImage, 1);
  image->name = g_strdup (name);
  image->format = format;
  image->full_width = width;
  image->full_height = height;
  image->step = thinning_step (width, height);
  image->width = (width + image->step - 1) / image->step;
  image->height = (height + image->step - 1) / image->step;
  image->label = image->step == 1 ? g_strdup (label)
                 /* TRANSLATORS: a picture's label, then how it was thinned to be shown */
                 : g_strdup_printf (_("%s (one row and column in %u)"), label, image->step);

  out = kept = g_malloc ((gsize) image->width * image->height * bpp);
  for (guint y = 0; y < height; y += image->step)
    {
      const guint8 *row = pixels + (gsize) y * stride;

      if (image->step == 1)
        memcpy (out, row, (gsize) width * bpp);
      else
        for (guint x = 0; x < width; x += image->step)
          memcpy (out + (gsize) (x / image->step) * bpp, row + (gsize) x * bpp, bpp);
      out += (gsize) image->width * bpp;
    }
  image->pixels = g_bytes_new_take (kept, (gsize) image->width * image->height * bpp);
  return image;
}

void
ks_image_free (KsImage *image)
{
  if (image == NULL)
    return;
  g_free (image->name);
  g_free (image->label);
  g_bytes_unref (image->pixels);
  g_free (image);
}

cairo_surface_t *
ks_image_to_surface (const KsImage *image)
{
  cairo_surface_t *surface;
  const guint8 *in;
  guint8 *data;
  int stride;

  g_return_val_if_fail (image != NULL, NULL);

  surface = cairo_image_surface_create (image->format == KS_IMAGE_RGBA ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
                                        (int) image->width, (int) image->height);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return surface;   /* an error surface: drawing it draws nothing, writing it says why */
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  in = g_bytes_get_data (image->pixels, NULL);
  for (guint y = 0; y < image->height; y++)
    {
      guint32 *row = (guint32 *) (data + (gsize) y * stride);

      for (guint x = 0; x < image->width; x++)
        if (image->format == KS_IMAGE_GREY)
          {
            guint32 g = *in++;
            row[x] = 0xff000000u | g << 16 | g << 8 | g;
          }
        else
          {
            /* Cairo's ARGB32 is premultiplied, in native-endian words. */
            guint32 a = in[3];
            guint32 r = in[0] * a / 255, g = in[1] * a / 255, b = in[2] * a / 255;

            row[x] = a << 24 | r << 16 | g << 8 | b;
            in += 4;
          }
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

static cairo_status_t
append_png (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

gboolean
ks_image_write_png (const KsImage *image,
                    const char    *path,
                    GError       **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  g_autoptr(GByteArray) png = g_byte_array_new ();

  g_return_val_if_fail (image != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  surface = ks_image_to_surface (image);
  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png_stream (surface, append_png, png);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot make a PNG of %s (%u x %u): %s"),
                   image->name, image->width, image->height, cairo_status_to_string (status));
      return FALSE;
    }
  /* g_file_set_contents writes a temporary file and renames it. */
  return ks_io_write_file (path, (const char *) png->data, (gssize) png->len, error);
}
