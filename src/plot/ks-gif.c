/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-gif.c: animated GIFs of rendered frames (see ks-gif.h). */
#define G_LOG_DOMAIN "ks-plot"

#include "ks-gif.h"
#include "ks-plot-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#ifdef KS_HAVE_GIFLIB
#include <gif_lib.h>
#endif

struct _KsGifWriter {
  char   *path;
  char   *tmp;        /* the file being written, renamed to path when complete */
  guint   width;
  guint   height;
  guint   delay_cs;
  guint   frames;
#ifdef KS_HAVE_GIFLIB
  GifFileType *gif;
  GifByteType *red, *green, *blue, *index;
#endif
};

gboolean
ks_gif_available (GError **error)
{
#ifdef KS_HAVE_GIFLIB
  return TRUE;
#else
  g_set_error_literal (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT,
                       _("Animated GIFs need giflib, which this build lacks (Debian: libgif-dev, then "
                         "build again); the PNG frames are written all the same"));
  return FALSE;
#endif
}

#ifdef KS_HAVE_GIFLIB
static gboolean
gif_fail (KsGifWriter *w, int code, GError **error)
{
  const char *why = GifErrorString (code);

  g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the animation %s: %s"), w->path,
               why != NULL ? why : "giflib error");
  return FALSE;
}

/* The NETSCAPE2.0 block that makes viewers loop the animation forever. */
static gboolean
put_loop (KsGifWriter *w, GError **error)
{
  static GifByteType app[] = "NETSCAPE2.0";
  static GifByteType loop[] = { 1, 0, 0 };

  if (EGifPutExtensionLeader (w->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock (w->gif, 11, app) == GIF_ERROR ||
      EGifPutExtensionBlock (w->gif, 3, loop) == GIF_ERROR ||
      EGifPutExtensionTrailer (w->gif) == GIF_ERROR)
    return gif_fail (w, w->gif->Error, error);
  return TRUE;
}
#endif

KsGifWriter *
ks_gif_writer_new (const char *path, guint width, guint height, guint delay_cs, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!ks_gif_available (error))
    return NULL;
  if (width < 1 || height < 1 || width > KS_PLOT_EXPORT_MAX_SIZE || height > KS_PLOT_EXPORT_MAX_SIZE)
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE, _("An animation of %u x %u pixels: each side must be 1 to %d"),
                   width, height, KS_PLOT_EXPORT_MAX_SIZE);
      return NULL;
    }
#ifdef KS_HAVE_GIFLIB
  {
    g_autoptr(KsGifWriter) w = g_new0 (KsGifWriter, 1);
    int fd, code = 0;
    const gsize pixels = (gsize) width * height;

    w->path = g_strdup (path);
    w->width = width;
    w->height = height;
    w->delay_cs = delay_cs;
    if (!ks_plot_check_replace (path, error))
      return NULL;
    w->tmp = g_strdup_printf ("%s.XXXXXX", path);
    /* 0666 less the umask, as a file made by open() would have. */
    if ((fd = g_mkstemp_full (w->tmp, O_RDWR, 0666)) < 0)
      {
        const int err = errno;
        g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the animation %s: %s"), path,
                     g_strerror (err));
        g_clear_pointer (&w->tmp, g_free);
        return NULL;
      }
    if (!(w->gif = EGifOpenFileHandle (fd, &code)))
      {
        close (fd);
        gif_fail (w, code, error);
        return NULL;
      }
    EGifSetGifVersion (w->gif, true);
    if (EGifPutScreenDesc (w->gif, (int) width, (int) height, 8, 0, NULL) == GIF_ERROR)
      {
        gif_fail (w, w->gif->Error, error);
        return NULL;
      }
    if (!put_loop (w, error))
      return NULL;
    w->red = g_malloc (pixels);
    w->green = g_malloc (pixels);
    w->blue = g_malloc (pixels);
    w->index = g_malloc (pixels);
    return g_steal_pointer (&w);
  }
#endif
  return NULL;
}

gboolean
ks_gif_writer_add_surface (KsGifWriter *w, cairo_surface_t *surface, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
  if (!ks_plot_check_frame (surface, w->width, w->height, error))
    return FALSE;
#ifdef KS_HAVE_GIFLIB
  {
    const guchar *data;
    const int stride = cairo_image_surface_get_stride (surface);
    GifColorType colors[256] = { { 0 } };
    GraphicsControlBlock gcb = { DISPOSAL_UNSPECIFIED, false, (int) w->delay_cs, NO_TRANSPARENT_COLOR };
    GifByteType ext[4];
    ColorMapObject *map;
    int size = 256;
    gboolean ok;

    cairo_surface_flush (surface);
    data = cairo_image_surface_get_data (surface);
    for (guint y = 0; y < w->height; y++)
      {
        const guint32 *row = (const guint32 *) (data + (gsize) y * stride);
        for (guint x = 0; x < w->width; x++)
          {
            const gsize k = (gsize) y * w->width + x;
            w->red[k] = (row[x] >> 16) & 0xff;
            w->green[k] = (row[x] >> 8) & 0xff;
            w->blue[k] = row[x] & 0xff;
          }
      }
    /* One palette per frame: the colour scale moves with the temperatures. */
    if (GifQuantizeBuffer (w->width, w->height, &size, w->red, w->green, w->blue, w->index, colors) == GIF_ERROR)
      {
        g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the animation %s: %s"), w->path,
                     _("its colours could not be reduced to 256"));
        return FALSE;
      }
    if (!(map = GifMakeMapObject (256, colors)))
      return gif_fail (w, E_GIF_ERR_NOT_ENOUGH_MEM, error);
    EGifGCBToExtension (&gcb, ext);
    ok = EGifPutExtension (w->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) != GIF_ERROR &&
         EGifPutImageDesc (w->gif, 0, 0, (int) w->width, (int) w->height, false, map) != GIF_ERROR;
    for (guint y = 0; ok && y < w->height; y++)
      ok = EGifPutLine (w->gif, w->index + (gsize) y * w->width, (int) w->width) != GIF_ERROR;
    GifFreeMapObject (map);
    if (!ok)
      return gif_fail (w, w->gif->Error, error);
    w->frames++;
    return TRUE;
  }
#else
  return ks_gif_available (error);
#endif
}

gboolean
ks_gif_writer_add_plot (KsGifWriter *w, KsPlot *plot, GError **error)
{
  cairo_surface_t *surface;
  gboolean ok;

  g_return_val_if_fail (w != NULL && plot != NULL, FALSE);
  surface = ks_plot_render_frame (plot, w->width, w->height);
  ok = ks_gif_writer_add_surface (w, surface, error);
  cairo_surface_destroy (surface);
  return ok;
}

guint
ks_gif_writer_get_frames (KsGifWriter *w)
{
  g_return_val_if_fail (w != NULL, 0);
  return w->frames;
}

gboolean
ks_gif_writer_finish (KsGifWriter *w, GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);
#ifdef KS_HAVE_GIFLIB
  {
    int code = 0;

    g_return_val_if_fail (w->gif != NULL, FALSE);
    if (w->frames == 0)
      {
        g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY, _("The animation %s has no frames"), w->path);
        return FALSE;
      }
    if (EGifCloseFile (g_steal_pointer (&w->gif), &code) == GIF_ERROR)
      return gif_fail (w, code, error);
    if (!ks_plot_check_replace (w->path, error))
      return FALSE;
    if (g_rename (w->tmp, w->path) != 0)
      {
        const int err = errno;
        g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE, _("Cannot write the animation %s: %s"), w->path,
                     g_strerror (err));
        return FALSE;
      }
    g_clear_pointer (&w->tmp, g_free);
    return TRUE;
  }
#else
  return ks_gif_available (error);
#endif
}

void
ks_gif_writer_free (KsGifWriter *w)
{
  if (w == NULL)
    return;
#ifdef KS_HAVE_GIFLIB
  if (w->gif != NULL)
    EGifCloseFile (w->gif, NULL);
  g_free (w->red);
  g_free (w->green);
  g_free (w->blue);
  g_free (w->index);
#endif
  if (w->tmp != NULL)
    g_remove (w->tmp);
  g_free (w->tmp);
  g_free (w->path);
  g_free (w);
}
