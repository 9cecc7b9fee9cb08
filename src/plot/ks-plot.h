/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot.h: a cairo-only plot model and its renderer.
 *
 * The model is plain data (series of points drawn as lines or grouped bars,
 * highlighted points with labels, reference lines, bands, annotations, axis
 * settings, a colour-mapped mesh, a grid-of-blocks diagram).
 * ks_plot_render() draws it on any cairo_t; the CLI, the GUI widget and the
 * export menu all call it, so a PNG, an SVG, a PDF and the screen show the
 * same picture.  No GTK here; the code is split by concern under src/plot/
 * (ks-plot-private.h names the files).
 *
 * Threads: a KsPlot is used from one thread at a time.  The GUI sets the
 * model, renders, hit-tests and exports on its main thread; the CLI does
 * all of it on its own thread.  Nothing in the model is locked (a render
 * reads the series, the mesh and the labels as plain fields, and
 * ks_plot_set_mesh frees the mesh a render would be reading), so a caller
 * that renders elsewhere (an export on a worker thread) must hand the plot
 * over and not touch it until that thread is done, or build a second
 * KsPlot.  Locking every setter and reader would cost each frame and
 * nothing uses it.  Different KsPlots may be used on different threads. */
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
  KS_PLOT_ERROR_SIZE,     /* width or height below 1 or above KS_PLOT_EXPORT_MAX_SIZE */
  KS_PLOT_ERROR_MESH,     /* a mesh cell names a node that does not exist */
} KsPlotError;

/* The largest width or height ks_plot_export() takes, in pixels or points:
 * a square PNG that size already takes 800 MB of memory, cairo refuses
 * images past 32767 and PDF readers pages past 14400 points (200 inches). */
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
void        ks_plot_series_set_dashed (KsPlot       *plot,
                                       guint         series,
                                       gboolean      dashed);
/* An overlay (a run recorded elsewhere, drawn over the user's) does not
 * set the automatic ranges of a plot whose other series have points: a
 * recorded run at N = 1000 never shrinks the user's run at N = 20..60 to a
 * blob; it is drawn where it falls in view.  Categorical plots ignore it
 * (every bar shows).  ks_plot_set_fit_overlays (TRUE) lets overlays set
 * the ranges too ("zoom to recorded"). */
void        ks_plot_series_set_overlay (KsPlot      *plot,
                                       guint         series,
                                       gboolean      overlay);
/* Series of one group (a recorded run's curves) share one legend entry,
 * `group`, drawn as a dashed grey line: thirty recorded curves would bury
 * the data.  Their tooltips still name each.  NULL: the series' own. */
void        ks_plot_series_set_group  (KsPlot       *plot,
                                       guint         series,
                                       const char   *group);
/* Drops a series' points (a curve the user hid): it keeps its index, so
 * the others keep their colours, and it is left out of the legend and the
 * ranges. */
void        ks_plot_series_clear_points (KsPlot     *plot,
                                         guint       series);
void        ks_plot_set_fit_overlays  (KsPlot       *plot,
                                       gboolean      fit);
gboolean    ks_plot_get_fit_overlays  (KsPlot       *plot);
/* Does the plot have an overlay series with points beside another series
 * with points (where ks_plot_set_fit_overlays matters)? */
gboolean    ks_plot_has_overlays_beside_data (KsPlot *plot);
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

/* ------------------------------------------------------------------------ */
/* Axes beyond linear and log10                                              */

typedef enum {
  KS_PLOT_SCALE_LINEAR = 0,
  KS_PLOT_SCALE_LOG10  = 1,   /* what ks_plot_set_log_x/y (TRUE) sets */
  KS_PLOT_SCALE_LOG2   = 2,   /* ticks at powers of two: group sizes, counts */
} KsPlotScale;

void        ks_plot_set_x_scale       (KsPlot       *plot,
                                       KsPlotScale   scale);
void        ks_plot_set_y_scale       (KsPlot       *plot,
                                       KsPlotScale   scale);

/* A second y axis on the right (time and GB/s in one figure): series moved
 * there with ks_plot_series_set_y2() are scaled by it.  It is drawn when a
 * series with points uses it. */
void        ks_plot_set_y2_label      (KsPlot       *plot,
                                       const char   *label);
void        ks_plot_set_y2_range      (KsPlot       *plot,
                                       double        min,
                                       double        max);
void        ks_plot_series_set_y2     (KsPlot       *plot,
                                       guint         series,
                                       gboolean      right);

/* Min/max error bars from each point's y_lo..y_hi; on by default. */
void        ks_plot_set_error_bars    (KsPlot       *plot,
                                       gboolean      show);

/* ------------------------------------------------------------------------ */
/* Bars on a categorical axis                                               */

/* Makes x categorical: category i sits at x = i and is labelled names[i]
 * (a NULL-terminated array; NULL makes x numeric again).  Points give x as
 * the category index. */
void        ks_plot_set_x_categories  (KsPlot             *plot,
                                       const char * const *names);

typedef enum {
  KS_PLOT_SERIES_LINE = 0,   /* line through the points, markers when few */
  KS_PLOT_SERIES_BARS = 1,   /* one bar per point; bar series are grouped side by side */
  KS_PLOT_SERIES_POINTS = 2, /* a marker per point and no line: a scatter (the roofline's points) */
} KsPlotSeriesKind;

void        ks_plot_series_set_kind   (KsPlot           *plot,
                                       guint             series,
                                       KsPlotSeriesKind  kind);
/* Bars on the left axis whose values (all positive) span more than 100x
 * get a log y axis of their own accord, or the small ones would be flat
 * lines; on by default, off keeps the scale ks_plot_set_log_y() gave. */
void        ks_plot_set_bars_auto_log (KsPlot       *plot,
                                       gboolean      auto_log);

/* ------------------------------------------------------------------------ */
/* Reference lines, bands and annotations                                   */

/* A horizontal line across the plot at y (on the left axis), with a label. */
void        ks_plot_add_hline         (KsPlot       *plot,
                                       double        y,
                                       const char   *label);
/* A shaded band from x0 to x1 across the whole height. */
void        ks_plot_add_x_band        (KsPlot       *plot,
                                       double        x0,
                                       double        x1,
                                       const char   *label);
/* A shaded band between two curves (e.g. lower and upper bounds), over
 * the x range both cover, in the colour of series_lo; the label goes in
 * the legend. */
void        ks_plot_add_series_band   (KsPlot       *plot,
                                       guint         series_lo,
                                       guint         series_hi,
                                       const char   *label);
/* Text anchored to the data point (x, y): a dot there and the text beside
 * it, placed clear of other labels where it can be. */
void        ks_plot_add_annotation    (KsPlot       *plot,
                                       double        x,
                                       double        y,
                                       const char   *text);

/* ------------------------------------------------------------------------ */
/* A colour-mapped mesh                                                     */

typedef enum {
  KS_PLOT_COLORMAP_VIRIDIS   = 0,   /* perceptually uniform, dark blue to yellow */
  KS_PLOT_COLORMAP_INFERNO   = 1,   /* perceptually uniform, black to pale yellow */
  KS_PLOT_COLORMAP_DIVERGING = 2,   /* blue, white at the middle of the range, red */
} KsPlotColormap;

/* The colour of t in 0..1 (clamped) on the map. */
KsPlotColor ks_plot_colormap_color    (KsPlotColormap  map,
                                       double          t);

/* The fourth node of a triangle in a cell list of four nodes per cell. */
#define KS_PLOT_MESH_TRIANGLE G_MAXUINT32

/* Plain arrays, copied: xy holds x, y of each node; cells four node
 * indices per cell (triangles end in KS_PLOT_MESH_TRIANGLE).  The mesh is
 * drawn in the plot area with x and y at the same scale (equal aspect), a
 * value per cell through a colour map and a colour bar on the right.
 * Replaces an earlier mesh; values start as NAN (not drawn). */
gboolean    ks_plot_set_mesh          (KsPlot         *plot,
                                       const double   *xy,
                                       guint           n_nodes,
                                       const guint32  *cells,
                                       guint           n_cells,
                                       GError        **error);
/* One value per cell, copied; NAN leaves a cell unpainted.  This is all a
 * frame of an animation changes: the cells' pixels are found once per view
 * size, so a new frame is only a colour lookup. */
void        ks_plot_set_mesh_values   (KsPlot         *plot,
                                       const double   *values);
/* A part id per cell (which device solves it), or NULL: the borders
 * between parts are outlined. */
void        ks_plot_set_mesh_parts    (KsPlot         *plot,
                                       const guint32  *parts);
/* The cells of one part (an id set_mesh_parts gave) drawn hatched, so two
 * parts tell apart on any colour map; G_MAXUINT32 (the default): none. */
void        ks_plot_set_mesh_hatched_part (KsPlot     *plot,
                                       guint32         part);
void        ks_plot_set_mesh_colormap (KsPlot         *plot,
                                       KsPlotColormap  map);
/* The values at the ends of the colour bar; NAN for automatic (the values'
 * min and max).  An animation fixes it, so colours mean the same in every
 * frame. */
void        ks_plot_set_mesh_range    (KsPlot         *plot,
                                       double          min,
                                       double          max);
void        ks_plot_set_mesh_edges    (KsPlot         *plot,
                                       gboolean        show);
gboolean    ks_plot_get_mesh_edges    (KsPlot         *plot);
/* The colour bar's label, e.g. "T (K)". */
void        ks_plot_set_mesh_label    (KsPlot         *plot,
                                       const char     *label);
/* The mesh cell under device position (px, py) when the plot is rendered
 * at width x height, and its value (NAN when it has none), for tooltips.
 * FALSE outside every cell or without a mesh.  The first call indexes the
 * mesh (a grid of buckets, ~0.1 s at 10^6 cells); each call after that
 * looks at the few cells of one bucket. */
gboolean    ks_plot_mesh_cell_at      (KsPlot         *plot,
                                       double          width,
                                       double          height,
                                       double          px,
                                       double          py,
                                       guint          *out_cell,
                                       double         *out_value);
/* Whether the plot holds a mesh (something to draw and export without a series). */
gboolean    ks_plot_has_mesh          (KsPlot         *plot);

/* ------------------------------------------------------------------------ */
/* A grid-of-blocks diagram                                                 */

/* Draws an index domain of domain_x x domain_y threads launched as blocks
 * (work-groups) of block_x x block_y: the grid of blocks, the threads past
 * the domain's edge shaded as idle, the block and grid sizes labelled.  A
 * 1D launch has domain_y = block_y = 1.  Replaces the axes and series. */
void        ks_plot_set_blocks        (KsPlot         *plot,
                                       guint           domain_x,
                                       guint           domain_y,
                                       guint           block_x,
                                       guint           block_y);

guint              ks_plot_get_n_series      (KsPlot *plot);
const char        *ks_plot_series_get_name   (KsPlot *plot,
                                              guint   series);
guint              ks_plot_series_get_n_points (KsPlot *plot,
                                              guint   series);
gboolean           ks_plot_series_get_dashed (KsPlot *plot,
                                              guint   series);
/* Valid until the next point is added to that series. */
const KsPlotPoint *ks_plot_series_get_point  (KsPlot *plot,
                                              guint   series,
                                              guint   index);
guint              ks_plot_get_n_vlines      (KsPlot *plot);
/* Is there anything to draw: a point of a series, a mesh cell, or a block
 * diagram?  What ks_plot_export() refuses as KS_PLOT_ERROR_EMPTY otherwise. */
gboolean           ks_plot_has_data          (KsPlot *plot);
guint              ks_plot_get_n_hlines      (KsPlot *plot);
/* The category names ks_plot_set_x_categories() gave, NULL-terminated;
 * NULL while x is numeric. */
const char * const *ks_plot_get_x_categories (KsPlot *plot);
/* TRUE when the series draws against the right y axis. */
gboolean           ks_plot_series_get_y2     (KsPlot *plot,
                                              guint   series);
KsPlotSeriesKind   ks_plot_series_get_kind   (KsPlot *plot,
                                              guint   series);

/* Draw the whole plot (background, axes, ticks, grid, series, markers,
 * legend, title, caption) into the rectangle (0,0)-(width,height) of cr.
 * theme NULL = light.  Text sizes are in points at 96 dpi, so a PNG of
 * width x height pixels and a PDF of width x height points look alike. */
void        ks_plot_render            (KsPlot            *plot,
                                       cairo_t           *cr,
                                       double             width,
                                       double             height,
                                       const KsPlotTheme *theme);

/* Every text ks_plot_render() draws at width x height (title, axis labels,
 * ticks, legend entries, annotations, bar labels), in drawing order, as
 * given (whole where it is drawn cut short): what a test reads to find an
 * untranslated word in the window.  Free with g_strfreev(). */
GStrv       ks_plot_get_drawn_texts   (KsPlot            *plot,
                                       double             width,
                                       double             height);

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
/* The whole text of the legend entry drawn at (px, py), which the legend
 * may show cut short with an ellipsis, for a tooltip; NULL off the legend.
 * Laid out as ks_plot_hit_test() does.  Free with g_free(). */
char       *ks_plot_legend_text_at    (KsPlot       *plot,
                                       double        width,
                                       double        height,
                                       double        px,
                                       double        py);
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

/* Where point `index` of `series` is drawn: like ks_plot_data_to_device
 * with the point's x and y, but on the series' own axis (the right one for
 * ks_plot_series_set_y2) and at its own bar in a group of bars.  For the
 * keyboard cursor and tooltips.  FALSE when the point is not drawn or lies
 * outside the plot area (the outputs are still set for a drawable one). */
gboolean    ks_plot_point_to_device   (KsPlot       *plot,
                                       double        width,
                                       double        height,
                                       guint         series,
                                       guint         index,
                                       double       *out_px,
                                       double       *out_py);

gboolean    ks_plot_format_from_filename (const char   *filename,
                                          KsPlotFormat *out_format,
                                          GError      **error);
/* Writes the plot to filename; the format comes from the extension
 * (.png, .svg, .pdf).  width/height in points (PNG: pixels), 1 to
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
