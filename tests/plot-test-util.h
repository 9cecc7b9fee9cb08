/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plot-test-util.h: what the plot tests (test-plot, test-plot-render,
 * test-plot-marks, test-plot-mesh-marks, test-plot-ranges) share: a plot
 * rendered to pixels and read back, the plot area and data positions found
 * through the public API alone, two example plots and small file helpers. */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "ks-plot.h"

G_BEGIN_DECLS

typedef struct {
  int left, top, right, bottom;
} Area;

cairo_surface_t *render_image    (KsPlot            *plot,
                                  int                width,
                                  int                height,
                                  const KsPlotTheme *theme);
/* 0..255 channels of an opaque pixel. */
void             pixel_at        (cairo_surface_t   *surface,
                                  int                x,
                                  int                y,
                                  int               *r,
                                  int               *g,
                                  int               *b);
gboolean         pixel_is        (cairo_surface_t   *surface,
                                  int                x,
                                  int                y,
                                  const KsPlotColor *c,
                                  int                tol);
/* Is there a pixel of colour c within radius pixels of (x, y)? */
gboolean         color_near      (cairo_surface_t   *surface,
                                  double             x,
                                  double             y,
                                  int                radius,
                                  const KsPlotColor *c,
                                  int                tol);
guint            count_color     (cairo_surface_t   *surface,
                                  const KsPlotColor *c,
                                  int                tol);
guint            count_not_color (cairo_surface_t   *surface,
                                  const KsPlotColor *c);
/* top over under, as the renderer blends it */
KsPlotColor      blend           (const KsPlotColor *top,
                                  const KsPlotColor *under);
/* The plot area, found through device_to_data (TRUE exactly inside). */
Area             plot_area       (KsPlot            *plot,
                                  int                width,
                                  int                height);
/* Inverse of device_to_data by bisection. */
void             data_to_device  (KsPlot            *plot,
                                  int                width,
                                  int                height,
                                  double             x,
                                  double             y,
                                  double            *out_px,
                                  double            *out_py);
/* Runs of pixels of colour c along a column (vertical) or row. */
guint            count_runs      (cairo_surface_t   *surface,
                                  gboolean           vertical,
                                  int                fixed,
                                  int                from,
                                  int                to,
                                  const KsPlotColor *c,
                                  int                tol);
/* Positions of the runs' first pixels along a column. */
GArray          *run_starts      (cairo_surface_t   *surface,
                                  int                column,
                                  int                from,
                                  int                to,
                                  const KsPlotColor *c,
                                  int                tol);

/* strstr for binary data (PDF streams hold NUL bytes). */
gboolean         mem_contains    (const char        *data,
                                  gsize              len,
                                  const char        *needle);
char            *read_file       (const char        *path,
                                  gsize             *len);
/* What is in dir, sorted, for checking that no temporary file was left. */
char            *dir_listing     (const char        *dir);
void             remove_dir      (const char        *dir);

/* A titled, labelled line of 21 points, y = x on 0..100 (name: its series). */
KsPlot          *line_plot       (const char        *name);
/* Two series over n = 100..149; the points where N+1 is prime stand out,
 * flagged KS_PLOT_POINT_HIGHLIGHT (and labelled) when highlight is TRUE. */
KsPlot          *highlight_plot  (gboolean           highlight);

G_END_DECLS
