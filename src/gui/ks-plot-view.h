/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-view.h: a KsPlot on screen.
 *
 * Draws with ks_plot_render(), the renderer the CLI and the exports use, in
 * colours taken from the GTK style context (so a dark theme stays readable).
 * Hovering a point shows a tooltip (the arrow keys walk the points and show
 * the same text without a mouse), dragging across the plot zooms into that
 * x range (the paper's Fig. 6), and the view exports and copies itself. */
#pragma once

#include <gtk/gtk.h>
#include "ks-plot.h"

G_BEGIN_DECLS

#define KS_TYPE_PLOT_VIEW (ks_plot_view_get_type ())
G_DECLARE_FINAL_TYPE (KsPlotView, ks_plot_view, KS, PLOT_VIEW, GtkDrawingArea)

/* Returns the tooltip text (Pango markup) for a point, or NULL for none. */
typedef char *(*KsPlotTooltipFunc) (KsPlot  *plot,
                                    guint    series,
                                    guint    index,
                                    gpointer user_data);

/* Takes a reference.  The zoom, if any, carries over to the new plot. */
void       ks_plot_view_set_plot         (KsPlotView        *self,
                                          KsPlot            *plot);
KsPlot    *ks_plot_view_get_plot         (KsPlotView        *self);
void       ks_plot_view_set_tooltip_func (KsPlotView        *self,
                                          KsPlotTooltipFunc  func,
                                          gpointer           user_data);
/* Text drawn over an empty plot, e.g. "Press Run". */
void       ks_plot_view_set_placeholder  (KsPlotView        *self,
                                          const char        *text);
void       ks_plot_view_set_zoomable     (KsPlotView        *self,
                                          gboolean           zoomable);
gboolean   ks_plot_view_get_zoomed       (KsPlotView        *self);
/* Zoom to [x0, x1]; NAN, NAN shows everything. */
void       ks_plot_view_zoom             (KsPlotView        *self,
                                          double             x0,
                                          double             x1);
void       ks_plot_view_reset_zoom       (KsPlotView        *self);
/* The tooltip (markup) for the point drawn near (x, y), or the whole text
 * of the legend entry there (the legend may cut it short), or NULL. */
char      *ks_plot_view_tooltip_at       (KsPlotView        *self,
                                          double             x,
                                          double             y);
/* The keyboard's point (Left / Right along a curve, Up / Down between
 * curves, while the view has the focus): its tooltip is drawn beside it.
 * FALSE while there is none. */
gboolean   ks_plot_view_get_cursor       (KsPlotView        *self,
                                          guint             *series,
                                          guint             *index);
/* Its tooltip (markup), or NULL. */
char      *ks_plot_view_get_cursor_text  (KsPlotView        *self);
/* Does the plot have at least one point? */
gboolean   ks_plot_view_has_data         (KsPlotView        *self);
/* The theme the view draws with, read from its style context. */
void       ks_plot_view_get_theme        (KsPlotView        *self,
                                          KsPlotTheme       *theme);
/* PNG, SVG or PDF by extension, in the light theme, at the size on screen
 * (at least 800 x 500) so the file shows what the window shows. */
gboolean   ks_plot_view_export           (KsPlotView        *self,
                                          const char        *path,
                                          GError           **error);
GdkPixbuf *ks_plot_view_render_pixbuf    (KsPlotView        *self);

G_END_DECLS
