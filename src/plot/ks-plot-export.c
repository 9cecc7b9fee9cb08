/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-export.c: PNG, SVG and PDF files written atomically. */
#define G_LOG_DOMAIN "ks-plot-export"

#include "ks-plot-private.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#ifdef G_OS_UNIX
#include <unistd.h>
#else
#include <io.h>
#endif

G_DEFINE_QUARK (ks-plot-error-quark, ks_plot_error)

/* Export                                                                   */

gboolean
ks_plot_format_from_filename (const char   *filename,
                              KsPlotFormat *out_format,
                              GError      **error)
{
  static const struct {
    const char   *ext;
    KsPlotFormat  format;
  } formats[] = {
    { ".png", KS_PLOT_FORMAT_PNG },
    { ".svg", KS_PLOT_FORMAT_SVG },
    { ".pdf", KS_PLOT_FORMAT_PDF },
  };
  g_autofree char *lower = NULL;

  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  lower = g_ascii_strdown (filename, -1);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (g_str_has_suffix (lower, formats[i].ext))
      {
        if (out_format != NULL)
          *out_format = formats[i].format;
        return TRUE;
      }

  g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_FORMAT,
               _("Cannot tell the image format of “%s”: the name must end in "
                 ".png, .svg or .pdf"), filename);
  return FALSE;
}

typedef struct {
  int fd;
  int saved_errno;   /* of the first failed write, 0 if none */
} WriteSink;

static cairo_status_t
write_sink (void                *closure,
            const unsigned char *data,
            unsigned int         length)
{
  WriteSink *sink = closure;

  while (length > 0)
    {
      gssize n = write (sink->fd, data, length);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (sink->saved_errno == 0)
            sink->saved_errno = errno;
          return CAIRO_STATUS_WRITE_ERROR;
        }
      data += n;
      length -= (unsigned int) n;
    }
  return CAIRO_STATUS_SUCCESS;
}

static void
set_write_error (GError         **error,
                 const char      *filename,
                 cairo_status_t   status,
                 int              saved_errno)
{
  g_autofree char *display = g_filename_display_name (filename);

  /* cairo only says "error while writing to output stream"; errno says why. */
  g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE,
               _("Could not write the plot to “%s”: %s"), display,
               saved_errno != 0 ? g_strerror (saved_errno)
                                : cairo_status_to_string (status));
}

gboolean
ks_plot_check_replace (const char  *filename,
                       GError     **error)
{
  GStatBuf st;

  if (g_lstat (filename, &st) == 0 &&
      (!S_ISREG (st.st_mode) || (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0))
    {
      g_autofree char *display = g_filename_display_name (filename);
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_WRITE,
                   _("“%s” is a link, a device, a folder, a pipe or a read-only file: it is not replaced"),
                   display);
      return FALSE;
    }
  return TRUE;
}

static void
render_page (KsPlot            *plot,
             cairo_surface_t   *surface,
             double             width,
             double             height,
             const KsPlotTheme *theme)
{
  cairo_t *cr = cairo_create (surface);

  /* A mesh keeps the screen's pixel map apart from the export's. */
  plot->exporting = TRUE;
  ks_plot_render (plot, cr, width, height, theme);
  plot->exporting = FALSE;
  cairo_show_page (cr);
  cairo_destroy (cr);
}

gboolean
ks_plot_check_frame (cairo_surface_t *surface, guint width, guint height, GError **error)
{
  g_return_val_if_fail (surface != NULL && cairo_surface_get_type (surface) == CAIRO_SURFACE_TYPE_IMAGE, FALSE);
  g_return_val_if_fail (cairo_image_surface_get_format (surface) == CAIRO_FORMAT_ARGB32 ||
                        cairo_image_surface_get_format (surface) == CAIRO_FORMAT_RGB24, FALSE);

  if ((guint) cairo_image_surface_get_width (surface) != width ||
      (guint) cairo_image_surface_get_height (surface) != height)
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE,
                   _("A frame of %d x %d pixels in an animation of %u x %u"), cairo_image_surface_get_width (surface),
                   cairo_image_surface_get_height (surface), width, height);
      return FALSE;
    }
  return TRUE;
}

cairo_surface_t *
ks_plot_render_frame (KsPlot *plot, guint width, guint height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);

  /* A mesh keeps the screen's pixel map apart from the export's. */
  plot->exporting = TRUE;
  ks_plot_render (plot, cr, width, height, ks_plot_theme_light ());
  plot->exporting = FALSE;
  cairo_destroy (cr);
  return surface;
}

/* What no export can write, refused before the temporary file exists:
 * beyond the limit cairo fails an assertion (SVG) or an allocation; below
 * 1 (or NAN) is what a caller's size arithmetic gives when it overflowed. */
static gboolean
check_export (KsPlot   *plot,
              double    width,
              double    height,
              GError  **error)
{
  if (!(width >= 1 && height >= 1
        && width <= KS_PLOT_EXPORT_MAX_SIZE && height <= KS_PLOT_EXPORT_MAX_SIZE))
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_SIZE,
                   _("A plot of %.0f × %.0f cannot be exported: each side must be "
                     "between 1 and %d"), width, height, KS_PLOT_EXPORT_MAX_SIZE);
      return FALSE;
    }
  if (!ks_plot_model_has_points (plot))
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY,
                   _("Nothing to export: the plot has no points"));
      return FALSE;
    }
  return TRUE;
}

/* The page drawn into sink in format; cairo's status. */
static cairo_status_t
write_format (KsPlot            *plot,
              KsPlotFormat       format,
              double             width,
              double             height,
              const KsPlotTheme *theme,
              WriteSink         *sink)
{
  cairo_surface_t *surface = NULL;
  cairo_status_t status;

  switch (format)
    {
    case KS_PLOT_FORMAT_PNG:
      {
        int w = (int) ceil (width), h = (int) ceil (height);

        surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
        status = cairo_surface_status (surface);
        if (status == CAIRO_STATUS_SUCCESS)
          {
            render_page (plot, surface, w, h, theme);
            status = cairo_surface_write_to_png_stream (surface, write_sink, sink);
          }
      }
      break;

    case KS_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_sink, sink, width, height);
      status = cairo_surface_status (surface);
      if (status == CAIRO_STATUS_SUCCESS)
        {
          /* Pinned, as cairo's default unit changed between releases. */
          cairo_svg_surface_set_document_unit (surface, CAIRO_SVG_UNIT_PT);
          render_page (plot, surface, width, height, theme);
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
      break;

    case KS_PLOT_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_sink, sink, width, height);
      status = cairo_surface_status (surface);
      if (status == CAIRO_STATUS_SUCCESS)
        {
          if (nonempty (plot->title))
            cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, plot->title);
          cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "Kernelscope");
          render_page (plot, surface, width, height, theme);
          cairo_surface_finish (surface);
          status = cairo_surface_status (surface);
        }
      break;

    default:
      g_assert_not_reached ();
    }
  cairo_surface_destroy (surface);
  return status;
}

/* The temporary file synced, closed and renamed over filename (removed
 * where anything failed). */
static gboolean
put_in_place (const char     *tmp_path,
              const char     *filename,
              WriteSink      *sink,
              cairo_status_t  status,
              GError        **error)
{
#ifdef G_OS_UNIX
  if (status == CAIRO_STATUS_SUCCESS && fsync (sink->fd) != 0)
    {
      sink->saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }
#endif
  if (close (sink->fd) != 0 && status == CAIRO_STATUS_SUCCESS)
    {
      sink->saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }

  if (status == CAIRO_STATUS_SUCCESS && !ks_plot_check_replace (filename, error))
    {
      g_unlink (tmp_path);
      return FALSE;
    }
  if (status == CAIRO_STATUS_SUCCESS && g_rename (tmp_path, filename) != 0)
    {
      sink->saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }

  if (status != CAIRO_STATUS_SUCCESS)
    {
      set_write_error (error, filename, status, sink->saved_errno);
      g_unlink (tmp_path);
      return FALSE;
    }
  return TRUE;
}

gboolean
ks_plot_export (KsPlot            *plot,
                const char        *filename,
                double             width,
                double             height,
                const KsPlotTheme *theme,
                GError           **error)
{
  KsPlotFormat format;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp_name = NULL;
  g_autofree char *tmp_path = NULL;
  WriteSink sink = { -1, 0 };

  g_return_val_if_fail (plot != NULL, FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!ks_plot_format_from_filename (filename, &format, error) || !check_export (plot, width, height, error))
    return FALSE;
  if (theme == NULL)
    theme = ks_plot_theme_light ();
  if (!ks_plot_check_replace (filename, error))
    return FALSE;

  /* Written beside the target and renamed over it, so a failed export
   * never leaves a truncated file or destroys the previous one. */
  dir = g_path_get_dirname (filename);
  base = g_path_get_basename (filename);
  tmp_name = g_strdup_printf (".%s.XXXXXX", base);
  tmp_path = g_build_filename (dir, tmp_name, NULL);
  sink.fd = g_mkstemp_full (tmp_path, O_RDWR, 0666);
  if (sink.fd < 0)
    {
      set_write_error (error, filename, CAIRO_STATUS_WRITE_ERROR, errno);
      return FALSE;
    }
  return put_in_place (tmp_path, filename, &sink, write_format (plot, format, width, height, theme, &sink),
                       error);
}
