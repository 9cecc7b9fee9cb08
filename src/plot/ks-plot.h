/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot.h: a cairo-only plot model and its renderer.
 *
 * The model is plain data (series of points, highlighted points with labels,
 * vertical marker lines, axis settings).  ks_plot_render() draws it on any
 * cairo_t; the CLI, the GUI widget and the export menu all call it, so a PNG,
 * an SVG, a PDF and the screen show the same picture.  No GTK here. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

#define KS_PLOT_ERROR (ks_plot_error_quark ())
GQuark ks_plot_error_quark (void);

typedef enum {
  KS_PLOT_ERROR_FORMAT,   /* unknown file extension / format */
  KS_PLOT_ERROR_WRITE,    /* cairo could not write the file */
  KS_PLOT_ERROR_EMPTY,    /* nothing to draw (no series with points) */
  KS_PLOT_ERROR_SIZE,     /* width or height beyond KS_PLOT_EXPORT_MAX_SIZE */
} KsPlotError;

/* The largest width or height ks_plot_export() takes, in pixels or points:
 * a PNG that size already needs 1 GiB of memory, cairo refuses images past
 * 32767 and PDF readers pages past 14400 points (200 inches). */
#define KS_PLOT_EXPORT_MAX_SIZE 14400

typedef enum {
  KS_PLOT_FORMAT_PNG,
  KS_PLOT_FORMAT_SVG,
  KS_PLOT_FORMAT_PDF,
} KsPlotFormat;

typedef struct {
  double r, g, b, a;
} KsPlotColor;

/* Colours and fonts.  The GUI fills one from the GTK style context (dark
 * theme stays readable); exports use ks_plot_theme_light(). */
typedef struct {
  KsPlotColor background;
  KsPlotColor foreground;   /* text, axes, ticks */
  KsPlotColor grid;
  KsPlotColor highlight;    /* highlighted points (e.g. prime N+1) */
  KsPlotColor marker;       /* vertical marker lines (e.g. predicted optimum) */
  KsPlotColor series[8];    /* palette, cycled */
  const char *font_family;  /* NULL = "Sans" */
  double      font_size;    /* in points; 0 = 10 */
} KsPlotTheme;

const KsPlotTheme *ks_plot_theme_light (void);
const KsPlotTheme *ks_plot_theme_dark  (void);

typedef enum {
  KS_PLOT_POINT_NONE      = 0,
  KS_PLOT_POINT_HIGHLIGHT = 1 << 0,  /* own colour and marker, label drawn */
  KS_PLOT_POINT_BEST      = 1 << 1,  /* the measured best of its series: ring marker, label drawn */
} KsPlotPointFlags;

typedef struct {
  double           x, y;
  double           y_lo, y_hi;   /* spread (min/max); NAN when none */
  KsPlotPointFlags flags;
  char            *label;        /* drawn next to highlighted/best points; may be NULL */
} KsPlotPoint;

typedef struct _KsPlot KsPlot;

KsPlot     *ks_plot_new               (void);
KsPlot     *ks_plot_ref               (KsPlot       *plot);
void        ks_plot_unref             (KsPlot       *plot);

void        ks_plot_set_title         (KsPlot       *plot,
                                       const char   *title);
const char *ks_plot_get_title         (KsPlot       *plot);
void        ks_plot_set_caption       (KsPlot       *plot,
                                       const char   *caption);
void        ks_plot_set_axis_labels   (KsPlot       *plot,
                                       const char   *x_label,
                                       const char   *y_label);
void        ks_plot_set_log_x         (KsPlot       *plot,
                                       gboolean      log_x);
void        ks_plot_set_log_y         (KsPlot       *plot,
                                       gboolean      log_y);
/* Fixed view range (zoom).  NAN for either bound means automatic. */
void        ks_plot_set_x_range       (KsPlot       *plot,
                                       double        min,
                                       double        max);
void        ks_plot_set_y_range       (KsPlot       *plot,
                                       double        min,
                                       double        max);
/* Legend text for the highlight marker, e.g. "N+1 prime"; NULL hides it. */
void        ks_plot_set_highlight_legend (KsPlot    *plot,
                                       const char   *text);

/* Returns the index of the new series. */
guint       ks_plot_add_series        (KsPlot       *plot,
                                       const char   *name);
/* A dashed line, e.g. for a recorded reference run overlaid on a live one. */
/* A new legend name for an existing series. */
void        ks_plot_series_set_name   (KsPlot       *plot,
                                       guint         series,
                                       const char   *name);
void        ks_plot_series_set_dashed (KsPlot       *plot,
                                       guint         series,
                                       gboolean      dashed);
void        ks_plot_add_point         (KsPlot       *plot,
                                       guint         series,
                                       double        x,
                                       double        y);
void        ks_plot_add_point_full    (KsPlot       *plot,
                                       guint         series,
                                       double        x,
                                       double        y,
                                       double        y_lo,
                                       double        y_hi,
                                       KsPlotPointFlags flags,
                                       const char   *label);
/* A vertical line across the plot area at x, with a label (e.g. "predicted OGS = 192"). */
void        ks_plot_add_vline         (KsPlot       *plot,
                                       double        x,
                                       const char   *label);

guint              ks_plot_get_n_series      (KsPlot *plot);
const char        *ks_plot_series_get_name   (KsPlot *plot,
                                              guint   series);
guint              ks_plot_series_get_n_points (KsPlot *plot,
                                              guint   series);
/* Valid until the next point is added to that series. */
const KsPlotPoint *ks_plot_series_get_point  (KsPlot *plot,
                                              guint   series,
                                              guint   index);
guint              ks_plot_get_n_vlines      (KsPlot *plot);

/* Draw the whole plot (background, axes, ticks, grid, series, markers,
 * legend, title, caption) into the rectangle (0,0)-(width,height) of cr.
 * theme NULL = light.  Text sizes are in points at 96 dpi, so a PNG of
 * width x height pixels and a PDF of width x height points look alike. */
void        ks_plot_render            (KsPlot            *plot,
                                       cairo_t           *cr,
                                       double             width,
                                       double             height,
                                       const KsPlotTheme *theme);

/* Which point is drawn within radius device units of (px, py) when the plot
 * is rendered at width x height?  For tooltips and clicks in the GUI.  The
 * nearest one wins; points outside the view do not count.  This and
 * ks_plot_device_to_data() lay the plot out with the font of the plot's most
 * recent ks_plot_render() (the light theme's before any), since the theme's
 * font size moves the plot area. */
gboolean    ks_plot_hit_test          (KsPlot       *plot,
                                       double        width,
                                       double        height,
                                       double        px,
                                       double        py,
                                       double        radius,
                                       guint        *out_series,
                                       guint        *out_index);
/* The data value at a device position (for drag-to-zoom). FALSE outside the plot area. */
gboolean    ks_plot_device_to_data    (KsPlot       *plot,
                                       double        width,
                                       double        height,
                                       double        px,
                                       double        py,
                                       double       *out_x,
                                       double       *out_y);

/* The inverse: where a data value is drawn. FALSE outside the plot area. */
gboolean    ks_plot_data_to_device    (KsPlot       *plot,
                                       double        width,
                                       double        height,
                                       double        x,
                                       double        y,
                                       double       *out_px,
                                       double       *out_py);

gboolean    ks_plot_format_from_filename (const char   *filename,
                                          KsPlotFormat *out_format,
                                          GError      **error);
/* Writes the plot to filename; the format comes from the extension
 * (.png, .svg, .pdf).  width/height in points (PNG: pixels), at most
 * KS_PLOT_EXPORT_MAX_SIZE (else KS_PLOT_ERROR_SIZE, before any file is
 * made). theme NULL = light. */
gboolean    ks_plot_export            (KsPlot            *plot,
                                       const char        *filename,
                                       double             width,
                                       double             height,
                                       const KsPlotTheme *theme,
                                       GError           **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsPlot, ks_plot_unref)

G_END_DECLS
