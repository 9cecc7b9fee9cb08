/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-private.h: what the files of the plot renderer share and the
 * rest of the program never sees: the model's structs, the layout (where
 * everything goes), text, ticks and the drawing helpers.  One concern per
 * file: ks-plot-model.c, -theme.c, -text.c, -ticks.c, -layout.c, -legend.c,
 * -hit.c, -draw.c, -labels.c, -series.c, -render.c, -export.c. */
#pragma once

#include "ks-plot.h"

#include <math.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Model                                                                    */

typedef struct {
  char     *name;
  GArray   *points;   /* KsPlotPoint; labels owned */
  gboolean  dashed;
} Series;

typedef struct {
  double  x;
  char   *label;
} VLine;

struct _KsPlot {
  char      *title;
  char      *caption;
  char      *x_label;
  char      *y_label;
  char      *highlight_legend;
  gboolean   log_x, log_y;
  double     x_min, x_max, y_min, y_max;
  GPtrArray *series;   /* Series* */
  GArray    *vlines;   /* VLine */

  /* Hit-testing gets no theme, yet text sizes move the plot area; so it lays
   * out with the font of the most recent render, which is what is on screen.
   * Locked because an export thread may render while the GUI hit-tests. */
  GMutex     font_lock;
  char      *font_family;
  double     font_size;
};

gboolean ks_plot_model_has_points (KsPlot *plot);

static inline gboolean
nonempty (const char *s)
{
  return s != NULL && *s != '\0';
}

/* ------------------------------------------------------------------------ */
/* Text                                                                     */

/* Font sizes relative to the theme's base size. */
#define SCALE_TITLE   1.25
#define SCALE_AXIS    1.0
#define SCALE_TICK    0.9
#define SCALE_LEGEND  0.9
#define SCALE_POINT   0.8
#define SCALE_CAPTION 0.8

#define TEXT_DPI 96.0

typedef struct {
  PangoContext *ctx;
  const char   *family;
  double        size;   /* points */
} TextStyle;

PangoContext *ks_plot_text_context_new (cairo_t         *cr);
PangoLayout  *ks_plot_text_new         (const TextStyle *ts,
                                        const char      *text,
                                        double           scale,
                                        gboolean         bold);
void          ks_plot_text_size        (PangoLayout     *layout,
                                        double          *w,
                                        double          *h);
void          ks_plot_text_measure     (const TextStyle *ts,
                                        const char      *text,
                                        double           scale,
                                        gboolean         bold,
                                        double          *w,
                                        double          *h);
void          ks_plot_text_limit_width (PangoLayout     *layout,
                                        double           max_w);

/* ------------------------------------------------------------------------ */
/* Ranges and ticks                                                         */

/* f-space: the axis coordinate in which the scale is linear (log10 of the
 * value on a log axis). */
static inline gboolean
usable (double   v,
        gboolean log)
{
  return isfinite (v) && (!log || v > 0.0);
}

static inline double
fwd (double   v,
     gboolean log)
{
  return log ? log10 (v) : v;
}

static inline double
inv (double   f,
     gboolean log)
{
  return log ? pow (10.0, f) : f;
}

typedef struct {
  double    value;   /* data units */
  char     *label;   /* NULL: unlabelled */
  gboolean  major;   /* long tick and a grid line */
} Tick;

typedef struct {
  gboolean log;
  double   f0, f1;   /* view interval in f-space */
} Axis;

static inline double
axis_frac (const Axis *ax,
           double      v)
{
  return (fwd (v, ax->log) - ax->f0) / (ax->f1 - ax->f0);
}

void    ks_plot_view_range   (gboolean         found,
                              double           lo,
                              double           hi,
                              double           fixed_min,
                              double           fixed_max,
                              gboolean         log,
                              double          *out_a,
                              double          *out_b);
GArray *ks_plot_ticks_choose (const TextStyle *ts,
                              const Axis      *ax,
                              double           length,
                              gboolean         horizontal,
                              double          *out_max_w,
                              double          *out_max_h);

/* ------------------------------------------------------------------------ */
/* Layout                                                                   */

typedef struct {
  double x, y, w, h;
} Rect;

static inline gboolean
rect_overlaps (const Rect *a,
               const Rect *b)
{
  return a->x < b->x + b->w && b->x < a->x + a->w
      && a->y < b->y + b->h && b->y < a->y + a->h;
}

static inline gboolean
rect_contains (const Rect *outer,
               const Rect *inner)
{
  return inner->x >= outer->x && inner->y >= outer->y
      && inner->x + inner->w <= outer->x + outer->w
      && inner->y + inner->h <= outer->y + outer->h;
}

/* Marker sizes, in device units; markers are hidden on series with more
 * than MAX_MARKED points, where they would merge into a thick line. */
#define MARKER_R        2.8
#define HIGHLIGHT_R     6.0
#define BEST_R          6.5
#define MAX_MARKED      200

typedef struct {
  double x, y;     /* device */
  guint  index;    /* into the series' points */
  gboolean ok;     /* drawable on these axes */
} DevPoint;

typedef struct {
  gboolean highlight;   /* the highlight-marker entry */
  guint    series;
} LegendEntry;

typedef struct {
  GArray *entries;      /* LegendEntry */
  double  row_h, col_w, sample_w, text_max_w, inner;
  guint   rows, cols;
  Rect    box;
  Rect    corner[2];    /* upper right, upper left */
  guint   covered[2];   /* how much data each would hide */
} Legend;

typedef struct {
  double   width, height;
  double   left, top, right, bottom;   /* plot area, whole device units */
  Axis     x, y;
  GArray  *xticks, *yticks;
  gboolean has_data;

  double   em, pad, gap, tick_len;
  double   tick_h;            /* height of a tick label */
  double   title_y;
  double   xlabel_y;
  double   caption_x, caption_y;
  gboolean caption_beside;    /* on the x-label row, right-aligned */

  GPtrArray *dps;             /* per series: DevPoint sorted by x */
  struct _KsPlotDataIndex *data_index;   /* the same, by position */
  gboolean   has_legend;
  Legend     lg;
} Layout;

static inline double
dev_x (const Layout *lo,
       double        v)
{
  return lo->left + axis_frac (&lo->x, v) * (lo->right - lo->left);
}

static inline double
dev_y (const Layout *lo,
       double        v)
{
  return lo->bottom - axis_frac (&lo->y, v) * (lo->bottom - lo->top);
}

/* Calls func for every drawable point of every series, with the next point
 * along the line when that one is drawable too (else NULL). */
typedef void (*KsPlotDpFunc) (const DevPoint *d,
                              const DevPoint *e,
                              gpointer        data);

void ks_plot_dps_foreach             (GPtrArray       *dps,
                                      KsPlotDpFunc     func,
                                      gpointer         data);
void ks_plot_layout_clear            (Layout          *lo);
void ks_plot_layout_compute          (KsPlot          *plot,
                                      const TextStyle *ts,
                                      double           width,
                                      double           height,
                                      Layout          *lo);
void ks_plot_layout_compute_detached (KsPlot          *plot,
                                      double           width,
                                      double           height,
                                      Layout          *lo);

/* ------------------------------------------------------------------------ */
/* Legend                                                                   */

gboolean ks_plot_legend_build (KsPlot            *plot,
                               const TextStyle   *ts,
                               const Layout      *lo,
                               Legend            *lg);
void     ks_plot_legend_draw  (cairo_t           *cr,
                               KsPlot            *plot,
                               const TextStyle   *ts,
                               Legend            *lg,
                               const Layout      *lo,
                               const KsPlotTheme *theme);

/* ------------------------------------------------------------------------ */
/* Drawing helpers                                                          */

static inline void
set_color (cairo_t           *cr,
           const KsPlotColor *c,
           double             alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

/* Centre of the pixel a 1-unit line at v should run through, so grid lines
 * and ticks come out crisp on raster surfaces. */
static inline double
snap (double v)
{
  return floor (v) + 0.5;
}

gboolean ks_plot_clip_segment          (const Rect        *r,
                                        double            *x0,
                                        double            *y0,
                                        double            *x1,
                                        double            *y1);
gboolean ks_plot_series_shows_markers  (Series            *ser);
void     ks_plot_draw_marker           (cairo_t           *cr,
                                        double             x,
                                        double             y,
                                        guint              series_index,
                                        const KsPlotTheme *theme);
void     ks_plot_draw_highlight_rim    (cairo_t           *cr,
                                        double             x,
                                        double             y,
                                        const KsPlotTheme *theme);
void     ks_plot_draw_highlight_fill   (cairo_t           *cr,
                                        double             x,
                                        double             y,
                                        const KsPlotTheme *theme);
void     ks_plot_draw_highlight_marker (cairo_t           *cr,
                                        double             x,
                                        double             y,
                                        const KsPlotTheme *theme);
void     ks_plot_set_series_line       (cairo_t           *cr,
                                        Series            *ser);
void     ks_plot_show_text             (cairo_t           *cr,
                                        PangoLayout       *layout,
                                        double             x,
                                        double             y);
void     ks_plot_show_boxed_text       (cairo_t           *cr,
                                        PangoLayout       *layout,
                                        const Rect        *r,
                                        const KsPlotColor *text_color,
                                        const KsPlotTheme *theme);
void     ks_plot_draw_axes             (cairo_t           *cr,
                                        const TextStyle   *ts,
                                        const Layout      *lo,
                                        const KsPlotTheme *theme);
void     ks_plot_draw_frame_text       (cairo_t           *cr,
                                        KsPlot            *plot,
                                        const TextStyle   *ts,
                                        const Layout      *lo,
                                        const KsPlotTheme *theme);

/* ------------------------------------------------------------------------ */
/* Label placement                                                          */

/* Boxes placed so far (labels, markers, the legend), by position. */
typedef struct _KsPlotObstacles KsPlotObstacles;

KsPlotObstacles *ks_plot_obstacles_new     (const Rect      *bounds);
void             ks_plot_obstacles_free    (KsPlotObstacles *ob);
void             ks_plot_obstacles_add     (KsPlotObstacles *ob,
                                            const Rect      *r);
gboolean         ks_plot_obstacles_free_of (KsPlotObstacles *ob,
                                            const Rect      *r);

/* The data drawn in the plot area, by position, for "how much data would
 * this box hide?" */
typedef struct _KsPlotDataIndex KsPlotDataIndex;

KsPlotDataIndex *ks_plot_data_index_new      (GPtrArray             *dps,
                                              const Rect            *area);
void             ks_plot_data_index_free     (KsPlotDataIndex       *di);
guint            ks_plot_data_index_coverage (const KsPlotDataIndex *di,
                                              const Rect            *r);

gboolean ks_plot_place_label (double                 x,
                              double                 y,
                              double                 r,
                              double                 w,
                              double                 h,
                              const Rect            *area,
                              KsPlotObstacles       *taken,
                              const KsPlotDataIndex *data,
                              gboolean               may_cover,
                              Rect                  *out);

/* ------------------------------------------------------------------------ */
/* Series and marker lines                                                  */

void ks_plot_draw_series      (cairo_t           *cr,
                               KsPlot            *plot,
                               const Layout      *lo,
                               GPtrArray         *dps,
                               const KsPlotTheme *theme);
void ks_plot_draw_vlines      (cairo_t           *cr,
                               KsPlot            *plot,
                               const Layout      *lo,
                               const KsPlotTheme *theme);
void ks_plot_draw_vline_labels (cairo_t           *cr,
                                KsPlot            *plot,
                                const TextStyle   *ts,
                                const Layout      *lo,
                                const Rect        *area,
                                KsPlotObstacles   *taken,
                                const KsPlotTheme *theme);
void ks_plot_draw_specials    (cairo_t           *cr,
                               KsPlot            *plot,
                               const TextStyle   *ts,
                               const Layout      *lo,
                               const Rect        *area,
                               KsPlotObstacles   *taken,
                               const KsPlotTheme *theme);

G_END_DECLS
