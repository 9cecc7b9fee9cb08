/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-private.h: what the files of the plot renderer share and the
 * rest of the program never sees: the model's structs, the layout (where
 * everything goes), text, ticks and the drawing helpers.  One concern per
 * file: ks-plot-model.c (the model), -theme.c, -text.c, -ticks.c (ranges
 * and ticks), -extent.c (what the data spans), -layout.c (margins, axes,
 * positions), -cache.c (the layout kept while nothing changes), -legend.c,
 * -hit.c (device <-> data), -draw.c (helpers, axes, frame text), -labels.c
 * (label placement), -series.c (lines, error bars, highlighted points),
 * -bars.c, -marks.c (reference lines, bands, annotations), -mesh.c and
 * -raster.c (the colour-mapped mesh; ks-plot-mesh-private.h), -blocks.c
 * (block diagram), -render.c (the order of drawing), -export.c. */
#pragma once

#include "ks-plot.h"

#include <math.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* Model                                                                    */

typedef struct {
  char             *name;
  GArray           *points;   /* KsPlotPoint; labels owned */
  gboolean          dashed;
  gboolean          y2;       /* on the right axis */
  gboolean          overlay;  /* see ks_plot_series_set_overlay() */
  char             *group;    /* one legend entry for all of a group; NULL: its own */
  KsPlotSeriesKind  kind;
} Series;

/* A vertical (x) or horizontal (y) reference line. */
typedef struct {
  double  value;
  char   *label;
} RefLine;

typedef enum {
  BAND_X,        /* a..b across the whole height */
  BAND_SERIES,   /* between series a (lower) and b (upper) */
} BandKind;

typedef struct {
  BandKind  kind;
  double    a, b;
  char     *label;
} Band;

typedef struct {
  double  x, y;
  char   *text;
} Annotation;

typedef struct _KsPlotMesh KsPlotMesh;

typedef struct {
  guint domain_x, domain_y, block_x, block_y;
} Blocks;

typedef struct _Layout Layout;

struct _KsPlot {
  char        *title;
  char        *caption;
  char        *x_label;
  char        *y_label;
  char        *y2_label;
  char        *highlight_legend;
  KsPlotScale  x_scale, y_scale, y2_scale;
  double       x_min, x_max, y_min, y_max, y2_min, y2_max;
  gboolean     error_bars;
  gboolean     bars_auto_log; /* see ks_plot_set_bars_auto_log() */
  gboolean     equal_aspect;
  gboolean     fit_overlays;  /* see ks_plot_set_fit_overlays() */
  char       **categories;    /* x is categorical when set */
  GPtrArray   *series;        /* Series* */
  GArray      *vlines;        /* RefLine */
  GArray      *hlines;        /* RefLine */
  GArray      *bands;         /* Band */
  GArray      *annotations;   /* Annotation */
  KsPlotMesh  *mesh;
  Blocks      *blocks;

  /* Set by ks_plot_export() while it renders: the mesh draws an export
   * through a pixel map of its own, leaving the screen's in place. */
  gboolean     exporting;

  /* Hit-testing gets no theme, yet text sizes move the plot area; so it lays
   * out with the font of the most recent render, which is what is on screen.
   * A KsPlot is used from one thread at a time (ks-plot.h); the lock costs
   * nothing measurable and keeps the font and the cache below consistent
   * should two renders ever overlap, but the rest of the model is not
   * locked, so it does not make such use safe. */
  GMutex       font_lock;
  char        *font_family;
  double       font_size;

  /* The most recent layout, reused while nothing changed: a hover, a key
   * press or a new frame of a mesh with a fixed colour range does not lay
   * the plot out again. */
  gint         generation;    /* bumped by every change to the model */
  GMutex       cache_lock;
  Layout      *cache;
};

void     ks_plot_changed          (KsPlot *plot);
/* Something to draw: points, a mesh or a block diagram. */
gboolean ks_plot_model_has_points (KsPlot *plot);

/* For g_array_sort of doubles. */
static inline int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

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
void          ks_plot_text_wrap        (PangoLayout     *layout,
                                        double           max_w,
                                        int              lines);

/* ------------------------------------------------------------------------ */
/* Ranges and ticks                                                         */

/* f-space: the axis coordinate in which the scale is linear (log10 or
 * log2 of the value on a log axis).  A KsPlotScale is also "is it log". */
static inline gboolean
usable (double      v,
        KsPlotScale scale)
{
  return isfinite (v) && (scale == KS_PLOT_SCALE_LINEAR || v > 0.0);
}

static inline double
fwd (double      v,
     KsPlotScale scale)
{
  switch (scale)
    {
    case KS_PLOT_SCALE_LOG10: return log10 (v);
    case KS_PLOT_SCALE_LOG2:  return log2 (v);
    case KS_PLOT_SCALE_LINEAR:
    default:                  return v;
    }
}

static inline double
inv (double      f,
     KsPlotScale scale)
{
  switch (scale)
    {
    case KS_PLOT_SCALE_LOG10: return pow (10.0, f);
    case KS_PLOT_SCALE_LOG2:  return exp2 (f);
    case KS_PLOT_SCALE_LINEAR:
    default:                  return f;
    }
}

typedef struct {
  double    value;   /* data units */
  char     *label;   /* NULL: unlabelled */
  gboolean  major;   /* long tick and a grid line */
} Tick;

typedef struct {
  KsPlotScale log;      /* LINEAR (0), LOG10 or LOG2 */
  double      f0, f1;   /* view interval in f-space */
} Axis;

/* Where f lies from f0 (0) to f1 (1).  A linear range across most of the
 * doubles (-1e308..1e308) is wider than the largest double: its halves
 * are not. */
static inline double
range_frac (double f0,
            double f1,
            double f)
{
  double span = f1 - f0;

  if (G_LIKELY (isfinite (span)))
    return (f - f0) / span;
  return (f * 0.5 - f0 * 0.5) / (f1 * 0.5 - f0 * 0.5);
}

/* The inverse of range_frac: the f at fraction t. */
static inline double
range_at (double f0,
          double f1,
          double t)
{
  double span = f1 - f0;

  if (G_LIKELY (isfinite (span)))
    return f0 + t * span;
  return CLAMP (2.0 * (f0 * 0.5 + t * (f1 * 0.5 - f0 * 0.5)), -G_MAXDOUBLE, G_MAXDOUBLE);
}

static inline double
axis_frac (const Axis *ax,
           double      v)
{
  return range_frac (ax->f0, ax->f1, fwd (v, ax->log));
}

/* The most ticks an axis gets, whatever its range: the choice measures
 * every label, so it must stay small. */
#define KS_PLOT_TICKS_MAX 1000

/* A range too narrow for distinct tick labels (a few ULPs of its
 * magnitude, or none at all) widened around its middle; FALSE if it was
 * wide enough.  On a log axis a and b are in f-space. */
gboolean ks_plot_range_widen_narrow (double      *a,
                                     double      *b,
                                     KsPlotScale  log);

void    ks_plot_view_range   (gboolean         found,
                              double           lo,
                              double           hi,
                              double           fixed_min,
                              double           fixed_max,
                              KsPlotScale      log,
                              double          *out_a,
                              double          *out_b);
GArray *ks_plot_ticks_new    (void);
void    ks_plot_ticks_add    (GArray          *ticks,
                              double           value,
                              const char      *label,
                              gboolean         major);
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

typedef enum {
  ENTRY_SERIES,
  ENTRY_HIGHLIGHT,   /* the highlight marker */
  ENTRY_BAND,
} EntryKind;

typedef struct {
  EntryKind kind;
  guint     index;   /* series or band (a group's first series) */
  char     *text;    /* what it says: never the same as another entry's */
  gboolean  group;   /* stands for every series of index's group */
  char     *shown;   /* what is drawn: text less the name the legend's title has (NULL: text) */
} LegendEntry;

/* Where the legend goes: in a corner of the plot area while it is short
 * and hides no data, else outside it, right of it or (on a narrow plot)
 * below it, and the plot area shrinks to make room. */
typedef enum {
  LEGEND_INSIDE,
  LEGEND_RIGHT,
  LEGEND_BELOW,
} LegendPlace;

/* More entries than this go outside the plot area whatever they cover. */
#define LEGEND_MAX_INSIDE 6

typedef struct {
  GArray *entries;      /* LegendEntry */
  char   *title;        /* "method" where every curve's entry began "method = " */
  LegendPlace place;
  double  row_h, col_w, sample_w, text_max_w, inner;
  double  title_h;      /* the title's row, 0 without */
  guint   rows, cols;
  Rect    box;
  Rect    corner[2];    /* upper right, upper left */
  guint   covered[2];   /* how much data each would hide */
} Legend;

struct _Layout {
  /* What it was computed for: the cache's key. */
  gint     generation;
  char    *family;
  double   font_size;

  double   width, height;
  double   left, top, right, bottom;   /* plot area, whole device units */
  Axis     x, y, y2;
  Axis     cb;                /* a mesh's colour bar: its value range */
  GArray  *xticks, *yticks, *y2ticks, *cbticks;
  gboolean has_data;
  gboolean has_y2;            /* a series with points uses the right axis */
  gboolean blocks;            /* a block diagram: no axes */

  double   em, pad, gap, tick_len;
  double   tick_h;            /* height of a tick label */
  double   title_y;
  double   title_w;           /* the width the title may take, on up to 2 lines */
  double   xlabel_y;
  double   caption_x, caption_y;
  gboolean caption_beside;    /* on the x-label row, right-aligned */
  Rect     colorbar;          /* a mesh's colour bar; w = 0 without */
  guint    n_categories;      /* x is categorical when > 0 */
  guint    n_bar_series;
  double   bar_slot;          /* device width of one category (or x step) */

  GPtrArray *dps;             /* per series: DevPoint sorted by x */
  struct _KsPlotDataIndex *data_index;   /* the same, by position */
  gboolean   has_legend;
  Legend     lg;
};

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

/* On the axis a series uses. */
static inline const Axis *
series_axis (const Layout *lo,
             const Series *ser)
{
  return ser->y2 && lo->has_y2 ? &lo->y2 : &lo->y;
}

static inline double
dev_y_on (const Layout *lo,
          const Axis   *ax,
          double        v)
{
  return lo->bottom - axis_frac (ax, v) * (lo->bottom - lo->top);
}

/* Calls func for every drawable point of every series, with the next point
 * along the line when that one is drawable too (else NULL). */
typedef void (*KsPlotDpFunc) (const DevPoint *d,
                              const DevPoint *e,
                              gpointer        data);

void ks_plot_dps_foreach (GPtrArray    *dps,
                          KsPlotDpFunc  func,
                          gpointer      data);
/* The layout of the plot at width x height in the text style ts (NULL:
 * the font of the most recent render), from the cache when the model, size
 * and font are what it was computed for.  Release with
 * ks_plot_layout_unref(). */
Layout *ks_plot_layout_get   (KsPlot          *plot,
                              const TextStyle *ts,
                              double           width,
                              double           height);
void    ks_plot_layout_unref (Layout          *lo);
/* How many layouts were computed in this process (for tests of the cache). */
guint   ks_plot_layout_n_computed (void);

/* ks-plot-layout.c */
void    ks_plot_layout_compute (KsPlot          *plot,
                                const TextStyle *ts,
                                double           width,
                                double           height,
                                Layout          *lo);
void    ks_plot_layout_clear   (Layout          *lo);
/* ks-plot-extent.c: the span of what is drawn against axis 'x', 'y' or
 * '2' (the right one); FALSE when nothing is. */
gboolean ks_plot_data_extent   (KsPlot          *plot,
                                const Layout    *lo,
                                char             which,
                                double          *out_lo,
                                double          *out_hi);

/* ------------------------------------------------------------------------ */
/* Legend                                                                   */

/* For a legend outside the plot area: right of it or below it, and the
 * room it takes off the canvas's width (*w) or height (*h). */
LegendPlace ks_plot_legend_reserve (KsPlot          *plot,
                                    const TextStyle *ts,
                                    double           width,
                                    double           height,
                                    double          *w,
                                    double          *h);
void     ks_plot_legend_clear (Legend            *lg);
gboolean ks_plot_legend_build (KsPlot            *plot,
                               const TextStyle   *ts,
                               const Layout      *lo,
                               LegendPlace        place,
                               Legend            *lg);
void     ks_plot_legend_draw  (cairo_t           *cr,
                               KsPlot            *plot,
                               const TextStyle   *ts,
                               const Legend      *lg,
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
                                        const KsPlotColor *c);
void     ks_plot_draw_highlight_marker (cairo_t           *cr,
                                        double             x,
                                        double             y,
                                        const KsPlotColor *c,
                                        const KsPlotTheme *theme);
void     ks_plot_set_series_line       (cairo_t           *cr,
                                        Series            *ser);
extern const cairo_user_data_key_t ks_plot_drawn_texts_key;
void     ks_plot_show_text             (cairo_t           *cr,
                                        PangoLayout       *layout,
                                        double             x,
                                        double             y);
void     ks_plot_show_boxed_text       (cairo_t           *cr,
                                        PangoLayout       *layout,
                                        const Rect        *r,
                                        const KsPlotColor *text_color,
                                        const KsPlotTheme *theme);
void     ks_plot_draw_vaxis            (cairo_t           *cr,
                                        const TextStyle   *ts,
                                        const Layout      *lo,
                                        const Axis        *ax,
                                        GArray            *ticks,
                                        double             edge,
                                        int                side,
                                        const KsPlotTheme *theme);
void     ks_plot_show_vertical_label   (cairo_t           *cr,
                                        const TextStyle   *ts,
                                        const Layout      *lo,
                                        const char        *str,
                                        double             x,
                                        gboolean           right);
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
/* Series                                                                   */

void ks_plot_draw_series   (cairo_t           *cr,
                            KsPlot            *plot,
                            const Layout      *lo,
                            GPtrArray         *dps,
                            const KsPlotTheme *theme);
void ks_plot_draw_specials (cairo_t           *cr,
                            KsPlot            *plot,
                            const TextStyle   *ts,
                            const Layout      *lo,
                            const Rect        *area,
                            KsPlotObstacles   *taken,
                            const KsPlotTheme *theme);

/* ks-plot-decimate.c: whether a series of dp (sorted by x) has more than
 * two points per pixel column of area, and is drawn decimated; then its
 * line's points cut down to the first, lowest, highest and last of each
 * pixel column, which draw the same pixels (breaks where the line breaks:
 * points with ok FALSE). */
gboolean ks_plot_decimates     (GArray      *dp,
                                const Rect  *area);
GArray  *ks_plot_decimate_line (GArray      *dp,
                                GArray      *points,
                                KsPlotScale  log_x,
                                double       gap_limit);

/* Error bars of one pixel column merged where they overlap: the same
 * union of pixels from fewer strokes. */
typedef struct {
  double x, top, bottom;
} KsPlotBarSpan;

typedef struct {
  double        column;
  guint         n;
  KsPlotBarSpan cur;
} KsPlotBarSpans;

void     ks_plot_bar_spans_init   (KsPlotBarSpans *s);
gboolean ks_plot_bar_spans_add    (KsPlotBarSpans *s,
                                   double          x,
                                   double          y0,
                                   double          y1,
                                   KsPlotBarSpan  *out);
gboolean ks_plot_bar_spans_finish (KsPlotBarSpans *s,
                                   KsPlotBarSpan  *out);

/* ------------------------------------------------------------------------ */
/* Bars                                                                     */

/* Counts the bar series and sizes their slot; before the points are placed. */
void   ks_plot_bars_prepare    (KsPlot            *plot,
                                Layout            *lo);
/* The left axis's scale: the model's, or log10 for bars across more than
 * two orders of magnitude (ks_plot_set_bars_auto_log). */
KsPlotScale ks_plot_bars_y_scale (KsPlot          *plot);
/* Each bar's value label's box where it is drawn (NULL: none fits), per
 * series and point as in lo->dps; each clear of the others and of taken,
 * which gets them.  Free with g_ptr_array_unref. */
GPtrArray *ks_plot_bar_value_boxes (KsPlot          *plot,
                                    const TextStyle *ts,
                                    const Layout    *lo,
                                    KsPlotObstacles *taken);
/* A category's name laid out in its slot of width slot: on up to two
 * lines broken at spaces, never inside a word nor with a hyphen; a name
 * whose word does not fit is cut short with an ellipsis instead. */
PangoLayout *ks_plot_category_label_new (const TextStyle *ts,
                                         const char      *name,
                                         double           slot);
/* Device width of one unit of a categorical x axis. */
double ks_plot_category_width  (const Layout      *lo);
/* How far right of its x a bar of this series stands (0: not a bar). */
double ks_plot_bar_offset      (KsPlot            *plot,
                                const Layout      *lo,
                                guint              series);
void   ks_plot_draw_bars       (cairo_t           *cr,
                                KsPlot            *plot,
                                const Layout      *lo,
                                const KsPlotTheme *theme);
void   ks_plot_draw_bar_values (cairo_t           *cr,
                                KsPlot            *plot,
                                const TextStyle   *ts,
                                const Layout      *lo,
                                KsPlotObstacles   *taken,
                                const KsPlotTheme *theme);

/* ------------------------------------------------------------------------ */
/* Reference lines, bands, annotations                                      */

/* Shading of a band, in the legend too. */
#define BAND_ALPHA 0.22

void               ks_plot_draw_ref_lines   (cairo_t           *cr,
                                             KsPlot            *plot,
                                             const Layout      *lo,
                                             const KsPlotTheme *theme);
void               ks_plot_draw_ref_labels  (cairo_t           *cr,
                                             KsPlot            *plot,
                                             const TextStyle   *ts,
                                             const Layout      *lo,
                                             const Rect        *area,
                                             KsPlotObstacles   *taken,
                                             const KsPlotTheme *theme);
const KsPlotColor *ks_plot_band_color       (KsPlot            *plot,
                                             guint              band,
                                             const KsPlotTheme *theme);
void               ks_plot_draw_bands       (cairo_t           *cr,
                                             KsPlot            *plot,
                                             const Layout      *lo,
                                             const KsPlotTheme *theme);
void               ks_plot_draw_annotations (cairo_t           *cr,
                                             KsPlot            *plot,
                                             const TextStyle   *ts,
                                             const Layout      *lo,
                                             const Rect        *area,
                                             KsPlotObstacles   *taken,
                                             const KsPlotTheme *theme);

/* ------------------------------------------------------------------------ */
/* Mesh (ks-plot-mesh.c, ks-plot-raster.c) and colour bar                   */

void        ks_plot_mesh_free        (KsPlotMesh        *mesh);
gboolean    ks_plot_mesh_bounds      (KsPlotMesh        *mesh,
                                      double            *x0,
                                      double            *x1,
                                      double            *y0,
                                      double            *y1);
/* The values at the colour bar's ends; FALSE without any value. */
gboolean    ks_plot_mesh_value_range (KsPlotMesh        *mesh,
                                      double            *vmin,
                                      double            *vmax);
const char *ks_plot_mesh_get_label   (KsPlotMesh        *mesh);
void        ks_plot_draw_mesh        (cairo_t           *cr,
                                      KsPlot            *plot,
                                      const Layout      *lo,
                                      const KsPlotTheme *theme);
void        ks_plot_draw_colorbar    (cairo_t           *cr,
                                      KsPlot            *plot,
                                      const TextStyle   *ts,
                                      const Layout      *lo,
                                      const KsPlotTheme *theme);

/* ------------------------------------------------------------------------ */
/* Block diagram (ks-plot-blocks.c)                                         */

void ks_plot_draw_blocks (cairo_t           *cr,
                          KsPlot            *plot,
                          const TextStyle   *ts,
                          const Layout      *lo,
                          const KsPlotTheme *theme);

/* ------------------------------------------------------------------------ */
/* Export (ks-plot-export.c)                                                */

/* The last look before a file is renamed over filename: never a link, a
 * device, a folder or a pipe, nor a read-only file (KS_PLOT_ERROR_WRITE).
 * The callers check their outputs first (ks_io_check_outputs, a layer
 * this one cannot use); this holds where that check is hours old. */
gboolean ks_plot_check_replace (const char  *filename,
                                GError     **error);

/* An animation's frame (ks-gif.c, ks-video.c): an image surface
 * (g_return_val_if_fail on another kind) of width x height, else
 * KS_PLOT_ERROR_SIZE saying both sizes. */
gboolean ks_plot_check_frame   (cairo_surface_t *surface,
                                guint            width,
                                guint            height,
                                GError         **error);
/* plot rendered as an export is (the light theme, the mesh's export
 * pixel map) on a new opaque image of width x height. */
cairo_surface_t *ks_plot_render_frame (KsPlot *plot,
                                       guint   width,
                                       guint   height);
/* Such a frame (RGB24) as a PNG file, quickly (ks-clip.c: zlib's fastest
 * level where the build has libpng, cairo's writer otherwise). */
gboolean ks_plot_write_frame_png (cairo_surface_t *surface,
                                  const char      *path,
                                  GError         **error);

G_END_DECLS
