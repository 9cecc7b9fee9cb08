/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot.c: the plot model and its cairo/pango renderer.
 *
 * Everything that decides where things go (ranges, ticks, margins) lives in
 * layout_compute(), which render, hit-testing and device_to_data all call, so
 * a click lands on the point that was drawn under it. */
#define G_LOG_DOMAIN "ks-plot"

#include "ks-plot.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>
#ifdef G_OS_UNIX
#include <unistd.h>
#else
#include <io.h>
#endif

G_DEFINE_QUARK (ks-plot-error-quark, ks_plot_error)

/* ------------------------------------------------------------------------ */
/* Themes                                                                   */

#define HEX(h) { (((h) >> 16) & 0xff) / 255.0, (((h) >> 8) & 0xff) / 255.0, \
                 ((h) & 0xff) / 255.0, 1.0 }

/* Okabe–Ito without its vermillion (too close to the highlight red) and its
 * yellow (unreadable on white), with brown, grey and wine instead. */
static const KsPlotTheme light_theme = {
  .background = HEX (0xffffff),
  .foreground = HEX (0x222222),
  .grid       = { 0.0, 0.0, 0.0, 0.10 },
  .highlight  = HEX (0xd62728),
  .marker     = HEX (0x6a3d9a),
  .series     = {
    HEX (0x0072b2), HEX (0xe69f00), HEX (0x009e73), HEX (0xcc79a7),
    HEX (0x56b4e9), HEX (0x8c510a), HEX (0x555555), HEX (0x882255),
  },
  .font_family = "Sans",
  .font_size   = 10.0,
};

/* Brighter counterparts (yellow back in, as it reads well here) that keep
 * their contrast on dark grey. */
static const KsPlotTheme dark_theme = {
  .background = HEX (0x2b2b2b),
  .foreground = HEX (0xe6e6e6),
  .grid       = { 1.0, 1.0, 1.0, 0.12 },
  .highlight  = HEX (0xff5c5c),
  .marker     = HEX (0xc9a0ff),
  .series     = {
    HEX (0x56b4e9), HEX (0xe69f00), HEX (0x2ec99e), HEX (0xe58fc2),
    HEX (0xf0e442), HEX (0xbbbbbb), HEX (0x9a8cff), HEX (0xd2b48c),
  },
  .font_family = "Sans",
  .font_size   = 10.0,
};

const KsPlotTheme *
ks_plot_theme_light (void)
{
  return &light_theme;
}

const KsPlotTheme *
ks_plot_theme_dark (void)
{
  return &dark_theme;
}

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

static void
point_clear (gpointer data)
{
  KsPlotPoint *p = data;

  g_clear_pointer (&p->label, g_free);
}

static void
vline_clear (gpointer data)
{
  VLine *v = data;

  g_clear_pointer (&v->label, g_free);
}

static void
series_free (gpointer data)
{
  Series *s = data;

  g_free (s->name);
  g_array_unref (s->points);
  g_free (s);
}

KsPlot *
ks_plot_new (void)
{
  KsPlot *plot = g_atomic_rc_box_new0 (KsPlot);

  plot->x_min = plot->x_max = NAN;
  plot->y_min = plot->y_max = NAN;
  plot->series = g_ptr_array_new_with_free_func (series_free);
  plot->vlines = g_array_new (FALSE, TRUE, sizeof (VLine));
  g_array_set_clear_func (plot->vlines, vline_clear);
  g_mutex_init (&plot->font_lock);

  return plot;
}

KsPlot *
ks_plot_ref (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, NULL);

  return g_atomic_rc_box_acquire (plot);
}

static void
plot_clear (gpointer data)
{
  KsPlot *plot = data;

  g_free (plot->title);
  g_free (plot->caption);
  g_free (plot->x_label);
  g_free (plot->y_label);
  g_free (plot->highlight_legend);
  g_ptr_array_unref (plot->series);
  g_array_unref (plot->vlines);
  g_mutex_clear (&plot->font_lock);
  g_free (plot->font_family);
}

void
ks_plot_unref (KsPlot *plot)
{
  g_return_if_fail (plot != NULL);

  g_atomic_rc_box_release_full (plot, plot_clear);
}

static void
replace_string (char       **field,
                const char  *value)
{
  char *copy = g_strdup (value);

  g_free (*field);
  *field = copy;
}

void
ks_plot_set_title (KsPlot     *plot,
                   const char *title)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->title, title);
}

const char *
ks_plot_get_title (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, NULL);

  return plot->title;
}

void
ks_plot_set_caption (KsPlot     *plot,
                     const char *caption)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->caption, caption);
}

void
ks_plot_set_axis_labels (KsPlot     *plot,
                         const char *x_label,
                         const char *y_label)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->x_label, x_label);
  replace_string (&plot->y_label, y_label);
}

void
ks_plot_set_log_x (KsPlot   *plot,
                   gboolean  log_x)
{
  g_return_if_fail (plot != NULL);

  plot->log_x = !!log_x;
}

void
ks_plot_set_log_y (KsPlot   *plot,
                   gboolean  log_y)
{
  g_return_if_fail (plot != NULL);

  plot->log_y = !!log_y;
}

void
ks_plot_set_x_range (KsPlot *plot,
                     double  min,
                     double  max)
{
  g_return_if_fail (plot != NULL);

  plot->x_min = min;
  plot->x_max = max;
}

void
ks_plot_set_y_range (KsPlot *plot,
                     double  min,
                     double  max)
{
  g_return_if_fail (plot != NULL);

  plot->y_min = min;
  plot->y_max = max;
}

void
ks_plot_set_highlight_legend (KsPlot     *plot,
                              const char *text)
{
  g_return_if_fail (plot != NULL);

  replace_string (&plot->highlight_legend, text);
}

guint
ks_plot_add_series (KsPlot     *plot,
                    const char *name)
{
  Series *s;

  g_return_val_if_fail (plot != NULL, 0);

  s = g_new0 (Series, 1);
  s->name = g_strdup (name);
  s->points = g_array_new (FALSE, TRUE, sizeof (KsPlotPoint));
  g_array_set_clear_func (s->points, point_clear);
  g_ptr_array_add (plot->series, s);

  return plot->series->len - 1;
}

void
ks_plot_series_set_dashed (KsPlot   *plot,
                           guint     series,
                           gboolean  dashed)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  ((Series *) g_ptr_array_index (plot->series, series))->dashed = !!dashed;
}

void
ks_plot_series_set_name (KsPlot     *plot,
                         guint       series,
                         const char *name)
{
  Series *ser;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  ser = g_ptr_array_index (plot->series, series);
  g_free (ser->name);
  ser->name = g_strdup (name);
}

void
ks_plot_add_point (KsPlot *plot,
                   guint   series,
                   double  x,
                   double  y)
{
  ks_plot_add_point_full (plot, series, x, y, NAN, NAN, KS_PLOT_POINT_NONE, NULL);
}

void
ks_plot_add_point_full (KsPlot           *plot,
                        guint             series,
                        double            x,
                        double            y,
                        double            y_lo,
                        double            y_hi,
                        KsPlotPointFlags  flags,
                        const char       *label)
{
  Series *s;
  KsPlotPoint p = { x, y, y_lo, y_hi, flags, g_strdup (label) };

  g_return_if_fail (plot != NULL);
  g_return_if_fail (series < plot->series->len);

  s = g_ptr_array_index (plot->series, series);
  g_array_append_val (s->points, p);
}

void
ks_plot_add_vline (KsPlot     *plot,
                   double      x,
                   const char *label)
{
  VLine v = { x, g_strdup (label) };

  g_return_if_fail (plot != NULL);

  g_array_append_val (plot->vlines, v);
}

guint
ks_plot_get_n_series (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0);

  return plot->series->len;
}

const char *
ks_plot_series_get_name (KsPlot *plot,
                         guint   series)
{
  g_return_val_if_fail (plot != NULL, NULL);
  g_return_val_if_fail (series < plot->series->len, NULL);

  return ((Series *) g_ptr_array_index (plot->series, series))->name;
}

guint
ks_plot_series_get_n_points (KsPlot *plot,
                             guint   series)
{
  g_return_val_if_fail (plot != NULL, 0);
  g_return_val_if_fail (series < plot->series->len, 0);

  return ((Series *) g_ptr_array_index (plot->series, series))->points->len;
}

const KsPlotPoint *
ks_plot_series_get_point (KsPlot *plot,
                          guint   series,
                          guint   index)
{
  Series *s;

  g_return_val_if_fail (plot != NULL, NULL);
  g_return_val_if_fail (series < plot->series->len, NULL);

  s = g_ptr_array_index (plot->series, series);
  g_return_val_if_fail (index < s->points->len, NULL);

  return &g_array_index (s->points, KsPlotPoint, index);
}

guint
ks_plot_get_n_vlines (KsPlot *plot)
{
  g_return_val_if_fail (plot != NULL, 0);

  return plot->vlines->len;
}

static gboolean
plot_has_points (KsPlot *plot)
{
  for (guint i = 0; i < plot->series->len; i++)
    if (((Series *) g_ptr_array_index (plot->series, i))->points->len > 0)
      return TRUE;
  return FALSE;
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

static PangoContext *
text_context_new (cairo_t *cr)
{
  PangoContext *ctx = pango_cairo_create_context (cr);
  cairo_font_options_t *opts = cairo_font_options_create ();

  /* Unhinted metrics measure the same on every surface, so the layout that
   * hit_test computes on a scratch image matches what the GUI drew, and a
   * PNG matches its PDF.  A fixed resolution does the same for font sizes. */
  cairo_font_options_set_hint_metrics (opts, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options (ctx, opts);
  cairo_font_options_destroy (opts);
  pango_cairo_context_set_resolution (ctx, TEXT_DPI);
  pango_context_set_round_glyph_positions (ctx, FALSE);

  return ctx;
}

typedef struct {
  PangoContext *ctx;
  const char   *family;
  double        size;   /* points */
} TextStyle;

static PangoLayout *
text_new (const TextStyle *ts,
          const char      *text,
          double           scale,
          gboolean         bold)
{
  PangoLayout *layout = pango_layout_new (ts->ctx);
  g_autoptr(PangoFontDescription) desc = pango_font_description_new ();

  pango_font_description_set_family (desc, ts->family);
  pango_font_description_set_size (desc, (int) lround (ts->size * scale * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, desc);
  pango_layout_set_text (layout, text != NULL ? text : "", -1);

  return layout;
}

static void
text_size (PangoLayout *layout,
           double      *w,
           double      *h)
{
  PangoRectangle logical;

  pango_layout_get_extents (layout, NULL, &logical);
  if (w != NULL)
    *w = (double) logical.width / PANGO_SCALE;
  if (h != NULL)
    *h = (double) logical.height / PANGO_SCALE;
}

static void
text_measure (const TextStyle *ts,
              const char      *text,
              double           scale,
              gboolean         bold,
              double          *w,
              double          *h)
{
  g_autoptr(PangoLayout) layout = text_new (ts, text, scale, bold);

  text_size (layout, w, h);
}

/* Keeps a single line from running past max_w device units. */
static void
text_limit_width (PangoLayout *layout,
                  double       max_w)
{
  pango_layout_set_width (layout, (int) floor (MAX (max_w, 1.0) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
}

static gboolean
nonempty (const char *s)
{
  return s != NULL && *s != '\0';
}

/* ------------------------------------------------------------------------ */
/* Ranges and ticks                                                         */

static gboolean
usable (double   v,
        gboolean log)
{
  return isfinite (v) && (!log || v > 0.0);
}

static double
fwd (double   v,
     gboolean log)
{
  return log ? log10 (v) : v;
}

static double
inv (double   f,
     gboolean log)
{
  return log ? pow (10.0, f) : f;
}

/* Widens a degenerate or empty f-space interval to something drawable. */
static void
widen_degenerate (double   *a,
                  double   *b,
                  gboolean  log)
{
  double d;

  if (log)
    d = 0.5;   /* half a decade each way keeps one decade tick in view */
  else if (*a != 0.0)
    d = fabs (*a) * 0.1;
  else
    d = 1.0;
  *a -= d;
  *b += d;
}

/* The view interval in f-space (log10 of the values on a log axis). */
static void
view_range (gboolean  found,
            double    lo,
            double    hi,
            double    fixed_min,
            double    fixed_max,
            gboolean  log,
            double   *out_a,
            double   *out_b)
{
  double a, b;
  gboolean has_min = usable (fixed_min, log);
  gboolean has_max = usable (fixed_max, log);

  if (!found)
    {
      a = 0.0;
      b = 1.0;
    }
  else
    {
      a = fwd (lo, log);
      b = fwd (hi, log);
      /* Spans this small would only give ticks whose labels all read the same. */
      if (b - a <= fabs (a) * 1e-9)
        widen_degenerate (&a, &b, log);
      else
        {
          double pad = (b - a) * 0.05;
          a -= pad;
          b += pad;
        }
    }

  if (has_min)
    a = fwd (fixed_min, log);
  if (has_max)
    b = fwd (fixed_max, log);

  if (!(b > a))
    {
      if (has_min && has_max && b < a)
        {
          double t = a;
          a = b;
          b = t;
        }
      else if (has_min && !has_max)
        b = a + (log ? 1.0 : (a != 0.0 ? fabs (a) : 1.0));
      else if (has_max && !has_min)
        a = b - (log ? 1.0 : (b != 0.0 ? fabs (b) : 1.0));
      if (!(b > a))
        widen_degenerate (&a, &b, log);
    }

  if (!isfinite (a) || !isfinite (b) || !(b > a))
    {
      a = 0.0;
      b = 1.0;
    }

  *out_a = a;
  *out_b = b;
}

typedef struct {
  double    value;   /* data units */
  char     *label;   /* NULL: unlabelled */
  gboolean  major;   /* long tick and a grid line */
} Tick;

static void
tick_clear (gpointer data)
{
  Tick *t = data;

  g_clear_pointer (&t->label, g_free);
}

static GArray *
ticks_new (void)
{
  GArray *ticks = g_array_new (FALSE, TRUE, sizeof (Tick));

  g_array_set_clear_func (ticks, tick_clear);
  return ticks;
}

static void
ticks_add (GArray     *ticks,
           double      value,
           const char *label,
           gboolean    major)
{
  Tick t = { value, g_strdup (label), major };

  g_array_append_val (ticks, t);
}

/* Smallest of 1, 2, 2.5, 5 x 10^k that is >= raw. */
static double
nice_step (double raw)
{
  static const double mant[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };
  double mag = pow (10.0, floor (log10 (raw)));

  for (guint i = 0; i < G_N_ELEMENTS (mant); i++)
    if (raw <= mant[i] * mag * (1.0 + 1e-9))
      return mant[i] * mag;
  return 10.0 * mag;
}

/* Decimals that show every multiple of step exactly (0.25 -> 2, 50 -> 0). */
static int
step_decimals (double step)
{
  int d;

  for (d = 0; d < 15; d++)
    {
      double s = step * pow (10.0, d);
      if (round (s) >= 1.0 && fabs (s - round (s)) <= 1e-6 * s)
        break;
    }
  return d;
}

static GArray *
ticks_linear (double a,
              double b,
              double step)
{
  GArray *ticks = ticks_new ();
  double k0 = ceil (a / step - 1e-9);
  double k1 = floor (b / step + 1e-9);
  double maxabs = MAX (fabs (a), fabs (b));
  int decimals = step_decimals (step);
  char fmt[16];

  if (!(k1 - k0 >= 0.0 && k1 - k0 < 1000.0))
    return ticks;

  /* Fixed notation unless it would get long; exponent notation otherwise,
   * with enough digits that neighbouring ticks still differ. */
  if (maxabs >= 1e6 || decimals > 4)
    {
      int digits = (int) floor (log10 (maxabs)) - (int) floor (log10 (step)) + 1;
      if (step_decimals (step / pow (10.0, floor (log10 (step)))) > 0)
        digits++;
      g_snprintf (fmt, sizeof fmt, "%%.%dg", CLAMP (digits, 1, 15));
    }
  else
    g_snprintf (fmt, sizeof fmt, "%%.%df", decimals);

  for (double k = k0; k <= k1; k++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      double v = k * step;

      if (fabs (v) < step * 1e-9)
        v = 0.0;   /* no "-0" or "1e-17" at the origin */
      g_ascii_formatd (buf, sizeof buf, fmt, v);
      ticks_add (ticks, v, buf, TRUE);
    }

  return ticks;
}

static void
format_log_label (char   *buf,
                  gsize   len,
                  double  v)
{
  /* %g gives 0.001 ... 100000 and switches to 1e-05 / 1e+06 beyond that. */
  g_ascii_formatd (buf, len, "%g", v);
}

typedef enum {
  LOG_LABEL_DECADES,   /* 10^k, every stride-th */
  LOG_LABEL_125,       /* 1, 2 and 5 x 10^k */
  LOG_LABEL_ALL,       /* 1..9 x 10^k */
} LogLabels;

/* Decade ticks and minor ticks at 2..9 when there is room for them, with
 * labels as `which` says. */
static GArray *
ticks_log (double    fa,
           double    fb,
           int       stride,
           LogLabels which,
           gboolean  minor)
{
  GArray *ticks = ticks_new ();
  double k0 = floor (fa), k1 = ceil (fb);

  if (!(k1 - k0 >= 0.0 && k1 - k0 < 700.0))
    return ticks;

  for (double k = k0; k <= k1; k++)
    {
      for (int m = 1; m <= 9; m++)
        {
          double v = m * pow (10.0, k);
          double f = log10 (v);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          if (f < fa - 1e-9 || f > fb + 1e-9)
            continue;
          if (m == 1 && fmod (fabs (k), stride) == 0.0)
            {
              format_log_label (buf, sizeof buf, v);
              ticks_add (ticks, v, buf, TRUE);
            }
          else if ((which == LOG_LABEL_125 && (m == 2 || m == 5))
                   || which == LOG_LABEL_ALL)
            {
              format_log_label (buf, sizeof buf, v);
              ticks_add (ticks, v, buf, TRUE);
            }
          else if (m == 1 || minor)
            ticks_add (ticks, v, NULL, m == 1);
        }
    }

  return ticks;
}

static guint
ticks_n_labelled (GArray *ticks)
{
  guint n = 0;

  for (guint i = 0; i < ticks->len; i++)
    if (g_array_index (ticks, Tick, i).label != NULL)
      n++;
  return n;
}

typedef struct {
  gboolean log;
  double   f0, f1;   /* view interval in f-space */
} Axis;

static double
axis_frac (const Axis *ax,
           double      v)
{
  return (fwd (v, ax->log) - ax->f0) / (ax->f1 - ax->f0);
}

/* Do the labels keep clear of one another at this axis length?  Also
 * reports the largest label so margins can be sized from it. */
static gboolean
ticks_fit (const TextStyle *ts,
           GArray          *ticks,
           const Axis      *ax,
           double           length,
           gboolean         horizontal,
           double          *out_max_w,
           double          *out_max_h)
{
  double max_w = 0.0, max_h = 0.0, need;
  double prev = NAN, min_gap = INFINITY;

  for (guint i = 0; i < ticks->len; i++)
    {
      Tick *t = &g_array_index (ticks, Tick, i);
      double w, h, pos;

      if (t->label == NULL)
        continue;
      text_measure (ts, t->label, SCALE_TICK, FALSE, &w, &h);
      max_w = MAX (max_w, w);
      max_h = MAX (max_h, h);
      pos = axis_frac (ax, t->value) * length;
      if (!isnan (prev))
        min_gap = MIN (min_gap, fabs (pos - prev));
      prev = pos;
    }

  if (out_max_w != NULL)
    *out_max_w = max_w;
  if (out_max_h != NULL)
    *out_max_h = max_h;

  need = horizontal ? max_w + ts->size * TEXT_DPI / 72.0 : max_h * 1.6;
  return min_gap >= need;
}

/* Nice ticks for one axis of the given pixel length, aiming for 5-8
 * labels but never so many that they touch. */
static GArray *
ticks_choose (const TextStyle *ts,
              const Axis      *ax,
              double           length,
              gboolean         horizontal,
              double          *out_max_w,
              double          *out_max_h)
{
  GArray *ticks = NULL;
  double em = ts->size * TEXT_DPI / 72.0;
  double min_px = horizontal ? 7.0 * em : 3.5 * em;

  length = MAX (length, 1.0);

  if (ax->log)
    {
      double decades = ax->f1 - ax->f0;
      double ppd = length / decades;
      gboolean minor = ppd >= 25.0;
      static const int strides[] = { 1, 2, 3, 5, 10, 20, 50, 100, 200 };

      for (guint i = 0; i < G_N_ELEMENTS (strides); i++)
        {
          /* Skip strides that cannot fit without measuring each label:
           * a range of hundreds of decades would take a while. */
          if (strides[i] * ppd < (horizontal ? 2.0 : 1.2) * em
              && i + 1 < G_N_ELEMENTS (strides))
            continue;
          g_clear_pointer (&ticks, g_array_unref);
          ticks = ticks_log (ax->f0, ax->f1, strides[i], LOG_LABEL_DECADES, minor);
          if (ticks_fit (ts, ticks, ax, length, horizontal, out_max_w, out_max_h))
            break;
        }

      /* Within a decade or two, 1-2-5 (or all digit) labels say more than
       * one or two decade marks. */
      for (LogLabels which = LOG_LABEL_125;
           which <= LOG_LABEL_ALL && ticks_n_labelled (ticks) < 3; which++)
        {
          GArray *more = ticks_log (ax->f0, ax->f1, 1, which, minor);

          if (ticks_n_labelled (more) > ticks_n_labelled (ticks)
              && ticks_fit (ts, more, ax, length, horizontal, NULL, NULL))
            {
              g_array_unref (ticks);
              ticks = more;
            }
          else
            g_array_unref (more);
        }

      /* Two labels are enough across decades (1 and 10 say the scale), but
       * not for a zoom into less than one: 1 and 2 alone on 0.6..4.4 leave
       * most of the curve unreadable. */
      if (ticks_n_labelled (ticks) >= 3 || (ticks_n_labelled (ticks) >= 2 && decades >= 1.0))
        {
          ticks_fit (ts, ticks, ax, length, horizontal, out_max_w, out_max_h);
          return ticks;
        }
      g_clear_pointer (&ticks, g_array_unref);
      /* A narrow range: plain linear ticks, placed on the log scale, read
       * best. */
    }

  {
    double a = inv (ax->f0, ax->log), b = inv (ax->f1, ax->log);
    int target = CLAMP ((int) floor (length / min_px), 2, 8);
    double step = nice_step ((b - a) / target);

    for (int tries = 0; tries < 30; tries++)
      {
        g_clear_pointer (&ticks, g_array_unref);
        ticks = ticks_linear (a, b, step);
        if (ticks_fit (ts, ticks, ax, length, horizontal, out_max_w, out_max_h)
            || ticks->len <= 2)
          break;
        step = nice_step (step * 1.01);
      }
  }

  return ticks;
}

/* ------------------------------------------------------------------------ */
/* Layout                                                                   */

typedef struct {
  double x, y, w, h;
} Rect;

static gboolean
rect_overlaps (const Rect *a,
               const Rect *b)
{
  return a->x < b->x + b->w && b->x < a->x + a->w
      && a->y < b->y + b->h && b->y < a->y + a->h;
}

static gboolean
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
  gboolean   has_legend;
  Legend     lg;
} Layout;

static void
layout_clear (Layout *lo)
{
  g_clear_pointer (&lo->xticks, g_array_unref);
  g_clear_pointer (&lo->yticks, g_array_unref);
  g_clear_pointer (&lo->dps, g_ptr_array_unref);
  g_clear_pointer (&lo->lg.entries, g_array_unref);
}

static double
dev_x (const Layout *lo,
       double        v)
{
  return lo->left + axis_frac (&lo->x, v) * (lo->right - lo->left);
}

static double
dev_y (const Layout *lo,
       double        v)
{
  return lo->bottom - axis_frac (&lo->y, v) * (lo->bottom - lo->top);
}

static void
data_extent (KsPlot       *plot,
             const Layout *lo,
             gboolean      want_y,
             gboolean     *found,
             double       *lo_out,
             double       *hi_out)
{
  double mn = INFINITY, mx = -INFINITY;
  gboolean log = want_y ? plot->log_y : plot->log_x;

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      for (guint i = 0; i < ser->points->len; i++)
        {
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, i);

          if (!want_y)
            {
              if (usable (p->x, log))
                {
                  mn = MIN (mn, p->x);
                  mx = MAX (mx, p->x);
                }
              continue;
            }

          /* With the x range zoomed, fit y to what is in view. */
          if (!usable (p->x, plot->log_x))
            continue;
          {
            double fx = fwd (p->x, plot->log_x);
            if (fx < lo->x.f0 || fx > lo->x.f1)
              continue;
          }
          if (usable (p->y, log))
            {
              mn = MIN (mn, p->y);
              mx = MAX (mx, p->y);
            }
          if (usable (p->y_lo, log))
            mn = MIN (mn, p->y_lo);
          if (usable (p->y_hi, log))
            mx = MAX (mx, p->y_hi);
        }
    }

  /* Keep marker lines in view even when they lie beyond the data. */
  if (!want_y)
    for (guint i = 0; i < plot->vlines->len; i++)
      {
        double x = g_array_index (plot->vlines, VLine, i).x;
        if (usable (x, log))
          {
            mn = MIN (mn, x);
            mx = MAX (mx, x);
          }
      }

  *found = mn <= mx;
  *lo_out = mn;
  *hi_out = mx;
}

static void
layout_compute_once (KsPlot          *plot,
                     const TextStyle *ts,
                     double           width,
                     double           height,
                     gboolean         caption_beside,
                     double           y_top,
                     Layout          *lo)
{
  double title_h = 0, xlabel_h = 0, ylabel_h = 0;
  double caption_w = 0, caption_h = 0;
  double bottom_margin, ytick_w = 0, right_margin;
  gboolean found;
  double mn, mx;

  memset (lo, 0, sizeof *lo);
  lo->width = width;
  lo->height = height;
  lo->em = ts->size * TEXT_DPI / 72.0;
  lo->pad = round (lo->em * 0.8);
  lo->gap = round (lo->em * 0.5);
  lo->tick_len = 5.0;
  lo->has_data = plot_has_points (plot);

  lo->x.log = plot->log_x;
  data_extent (plot, lo, FALSE, &found, &mn, &mx);
  view_range (found, mn, mx, plot->x_min, plot->x_max, plot->log_x,
              &lo->x.f0, &lo->x.f1);
  lo->y.log = plot->log_y;
  data_extent (plot, lo, TRUE, &found, &mn, &mx);
  view_range (found, mn, mx, plot->y_min, plot->y_max, plot->log_y,
              &lo->y.f0, &lo->y.f1);
  if (isfinite (y_top) && y_top > lo->y.f0)
    lo->y.f1 = y_top;

  text_measure (ts, "0123456789.e+-", SCALE_TICK, FALSE, NULL, &lo->tick_h);
  if (nonempty (plot->title))
    text_measure (ts, plot->title, SCALE_TITLE, TRUE, NULL, &title_h);
  if (nonempty (plot->x_label))
    text_measure (ts, plot->x_label, SCALE_AXIS, FALSE, NULL, &xlabel_h);
  if (nonempty (plot->y_label))
    text_measure (ts, plot->y_label, SCALE_AXIS, FALSE, NULL, &ylabel_h);
  if (nonempty (plot->caption))
    text_measure (ts, plot->caption, SCALE_CAPTION, FALSE, &caption_w, &caption_h);

  /* Nothing to sit beside without an x label. */
  if (xlabel_h == 0)
    caption_beside = FALSE;
  lo->caption_beside = caption_beside;

  /* Top: title, then room for half of the topmost y tick label. */
  lo->title_y = lo->pad;
  lo->top = ceil (lo->pad + (title_h > 0 ? title_h + lo->gap : 0) + lo->tick_h / 2);

  bottom_margin = lo->pad + lo->tick_len + 3 + lo->tick_h;
  if (xlabel_h > 0)
    bottom_margin += lo->gap + xlabel_h;
  if (caption_h > 0 && !caption_beside)
    bottom_margin += lo->gap * 0.5 + caption_h;
  lo->bottom = floor (height - bottom_margin);
  if (lo->bottom < lo->top + 1)
    lo->bottom = lo->top + 1;

  lo->yticks = ticks_choose (ts, &lo->y, lo->bottom - lo->top, FALSE, &ytick_w, NULL);

  lo->left = ceil (lo->pad + (ylabel_h > 0 ? ylabel_h + lo->gap : 0)
                   + ytick_w + 4 + lo->tick_len);
  right_margin = lo->pad + lo->em;

  /* The outermost x labels hang over the plot area by half their width;
   * widen the margins until they stay on the canvas.  The ticks depend on
   * the width, so this takes a pass or two. */
  for (int pass = 0; pass < 4; pass++)
    {
      double length, over_l = 0, over_r = 0;
      gboolean changed = FALSE;

      lo->right = floor (width - right_margin);
      if (lo->right < lo->left + 1)
        lo->right = lo->left + 1;
      length = lo->right - lo->left;

      g_clear_pointer (&lo->xticks, g_array_unref);
      lo->xticks = ticks_choose (ts, &lo->x, length, TRUE, NULL, NULL);

      for (guint i = 0; i < lo->xticks->len; i++)
        {
          Tick *t = &g_array_index (lo->xticks, Tick, i);
          double w, pos;

          if (t->label == NULL)
            continue;
          text_measure (ts, t->label, SCALE_TICK, FALSE, &w, NULL);
          pos = lo->left + axis_frac (&lo->x, t->value) * length;
          over_l = MAX (over_l, lo->pad - (pos - w / 2));
          over_r = MAX (over_r, pos + w / 2 - (width - lo->pad));
        }
      if (over_l > 0.5)
        {
          lo->left += ceil (over_l);
          changed = TRUE;
        }
      if (over_r > 0.5)
        {
          right_margin += ceil (over_r);
          changed = TRUE;
        }
      if (!changed)
        break;
    }

  lo->xlabel_y = lo->bottom + 1 + lo->tick_len + 3 + lo->tick_h + lo->gap;
  lo->caption_x = width - lo->pad - caption_w;
  if (caption_beside)
    lo->caption_y = lo->xlabel_y + xlabel_h - caption_h;
  else
    lo->caption_y = height - lo->pad - caption_h;
}

static int
devpoint_cmp_x (const void *a,
                const void *b)
{
  const DevPoint *p = a, *q = b;

  if (p->ok != q->ok)
    return p->ok ? -1 : 1;
  if (p->x < q->x)
    return -1;
  if (p->x > q->x)
    return 1;
  return p->index < q->index ? -1 : p->index > q->index;
}

/* One array per series, sorted by x so lines join points in x order;
 * unusable points (NaN, or <= 0 on a log axis) go last with ok = FALSE. */
static GPtrArray *
dev_points_compute (KsPlot       *plot,
                    const Layout *lo)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_array_sized_new (FALSE, FALSE, sizeof (DevPoint), ser->points->len);

      for (guint i = 0; i < ser->points->len; i++)
        {
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, i);
          DevPoint d = { 0, 0, i, FALSE };

          if (usable (p->x, lo->x.log) && usable (p->y, lo->y.log))
            {
              d.x = dev_x (lo, p->x);
              d.y = dev_y (lo, p->y);
              d.ok = isfinite (d.x) && isfinite (d.y);
            }
          g_array_append_val (dp, d);
        }
      qsort (dp->data, dp->len, sizeof (DevPoint), devpoint_cmp_x);
      g_ptr_array_add (all, dp);
    }

  return all;
}


static gboolean
plot_has_highlight (KsPlot *plot)
{
  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      for (guint i = 0; i < ser->points->len; i++)
        if (g_array_index (ser->points, KsPlotPoint, i).flags & KS_PLOT_POINT_HIGHLIGHT)
          return TRUE;
    }
  return FALSE;
}

static const char *
legend_entry_text (KsPlot            *plot,
                   const LegendEntry *e)
{
  if (e->highlight)
    return plot->highlight_legend;
  return ((Series *) g_ptr_array_index (plot->series, e->series))->name;
}

/* How much data (points, and samples along the lines) lies under r. */
static guint
coverage (GPtrArray  *dps,
          const Rect *r)
{
  guint n = 0;

  for (guint s = 0; s < dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          DevPoint *e = i + 1 < dp->len ? &g_array_index (dp, DevPoint, i + 1) : NULL;

          if (!d->ok)
            continue;
          if (d->x >= r->x && d->x <= r->x + r->w && d->y >= r->y && d->y <= r->y + r->h)
            n += 4;
          if (e != NULL && e->ok)
            {
              double len = hypot (e->x - d->x, e->y - d->y);
              int k = (int) MIN (ceil (len / 6.0), 1000.0);

              for (int j = 1; j < k; j++)
                {
                  double x = d->x + (e->x - d->x) * j / k;
                  double y = d->y + (e->y - d->y) * j / k;
                  if (x >= r->x && x <= r->x + r->w && y >= r->y && y <= r->y + r->h)
                    n++;
                }
            }
        }
    }
  return n;
}

#define LEGEND_MARGIN 8.0

static gboolean
legend_build (KsPlot          *plot,
              const TextStyle *ts,
              const Layout    *lo,
              GPtrArray       *dps,
              Legend          *lg)
{
  double text_h = 0, text_w = 0, margin = LEGEND_MARGIN, area_w, area_h;
  guint per_col;

  memset (lg, 0, sizeof *lg);
  lg->entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      LegendEntry e = { FALSE, s };

      if (nonempty (ser->name) && ser->points->len > 0)
        g_array_append_val (lg->entries, e);
    }
  if (nonempty (plot->highlight_legend) && plot_has_highlight (plot))
    {
      LegendEntry e = { TRUE, 0 };
      g_array_append_val (lg->entries, e);
    }
  if (lg->entries->len == 0)
    return FALSE;

  for (guint i = 0; i < lg->entries->len; i++)
    {
      double w, h;

      text_measure (ts, legend_entry_text (plot, &g_array_index (lg->entries, LegendEntry, i)),
                    SCALE_LEGEND, FALSE, &w, &h);
      text_w = MAX (text_w, w);
      text_h = MAX (text_h, h);
    }

  lg->inner = round (lo->em * 0.5);
  lg->row_h = ceil (MAX (text_h, 2 * HIGHLIGHT_R) + 2);
  lg->sample_w = round (lo->em * 2.2);
  area_w = lo->right - lo->left - 2 * margin;
  area_h = lo->bottom - lo->top - 2 * margin;

  /* A long legend wraps into columns rather than running off the plot,
   * and a tall one too, while it stays narrow enough, so that it fits
   * in a corner without hiding the data. */
  per_col = (guint) MAX (1.0, floor ((area_h - 2 * lg->inner) / lg->row_h));
  lg->cols = (lg->entries->len + per_col - 1) / per_col;
  while (lg->cols < lg->entries->len)
    {
      guint rows = (lg->entries->len + lg->cols - 1) / lg->cols;
      guint cols = lg->cols + 1;
      double wider = 2 * lg->inner + cols * (lg->sample_w + lg->inner + text_w)
                     + (cols - 1) * lo->em;

      if (2 * lg->inner + rows * lg->row_h <= 0.3 * area_h || wider > 0.5 * area_w)
        break;
      lg->cols = cols;
    }
  lg->rows = (lg->entries->len + lg->cols - 1) / lg->cols;

  lg->text_max_w = text_w;
  {
    double max_text = (area_w - 2 * lg->inner - (lg->cols - 1) * lo->em) / lg->cols
                      - lg->sample_w - lg->inner;
    if (lg->text_max_w > max_text)
      lg->text_max_w = MAX (max_text, lo->em);
  }
  lg->col_w = lg->sample_w + lg->inner + lg->text_max_w;
  lg->box.w = ceil (2 * lg->inner + lg->cols * lg->col_w + (lg->cols - 1) * lo->em);
  lg->box.h = ceil (2 * lg->inner + lg->rows * lg->row_h);
  lg->box.y = lo->top + margin;

  lg->corner[0] = lg->box;
  lg->corner[0].x = lo->right - margin - lg->box.w;
  lg->corner[1] = lg->box;
  lg->corner[1].x = lo->left + margin;
  for (int c = 0; c < 2; c++)
    lg->covered[c] = coverage (dps, &lg->corner[c]);

  /* Upper right unless upper left hides less of the data. */
  lg->box = lg->corner[lg->covered[1] < lg->covered[0] ? 1 : 0];
  return TRUE;
}

/* Topmost device y of the data within [x0, x1], lines included. */
static double
data_top_between (GPtrArray *dps,
                  double     x0,
                  double     x1)
{
  double top = INFINITY;

  for (guint s = 0; s < dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          DevPoint *e = i + 1 < dp->len ? &g_array_index (dp, DevPoint, i + 1) : NULL;

          if (!d->ok)
            continue;
          if (d->x >= x0 && d->x <= x1)
            top = MIN (top, d->y);
          /* A segment crossing the span without a point inside it. */
          if (e != NULL && e->ok && e->x > d->x && d->x < x1 && e->x > x0)
            {
              double xa = MAX (x0, d->x), xb = MIN (x1, e->x);
              double ya = d->y + (e->y - d->y) * (xa - d->x) / (e->x - d->x);
              double yb = d->y + (e->y - d->y) * (xb - d->x) / (e->x - d->x);
              top = MIN (top, MIN (ya, yb));
            }
        }
    }
  return top;
}

/* When the legend would hide data in both corners, raising the top of an
 * automatic y range makes room for it.  Returns the new top in f-space, or
 * NAN when no change is needed or it would squash the data too much. */
static double
legend_headroom (const Layout *lo)
{
  double h = lo->bottom - lo->top;
  double span = lo->y.f1 - lo->y.f0;
  double best = INFINITY;

  if (!lo->has_legend || lo->lg.covered[0] == 0 || lo->lg.covered[1] == 0)
    return NAN;

  for (int c = 0; c < 2; c++)
    {
      const Rect *r = &lo->lg.corner[c];
      double top = data_top_between (lo->dps, r->x - 4, r->x + r->w + 4);
      double target = r->y + r->h + 6;
      double fd;

      if (!isfinite (top) || top >= target)
        return NAN;   /* should not happen with covered > 0; be safe */
      if (lo->bottom - target < h * 0.4)
        continue;
      fd = lo->y.f0 + (lo->bottom - top) / h * span;
      best = MIN (best, lo->y.f0 + (fd - lo->y.f0) * h / (lo->bottom - target));
    }

  /* Squeezing the data into less than ~60% of the height costs more than
   * a partly hidden curve. */
  if (!isfinite (best) || best - lo->y.f0 > span * 1.7)
    return NAN;
  return best;
}

static void
layout_compute_frame (KsPlot          *plot,
                      const TextStyle *ts,
                      double           width,
                      double           height,
                      double           y_top,
                      Layout          *lo)
{
  double xlabel_w = 0, caption_w = 0;

  layout_compute_once (plot, ts, width, height, TRUE, y_top, lo);
  if (!lo->caption_beside)
    return;

  /* The caption shares the x-label row only if the two keep apart. */
  text_measure (ts, plot->caption, SCALE_CAPTION, FALSE, &caption_w, NULL);
  text_measure (ts, plot->x_label, SCALE_AXIS, FALSE, &xlabel_w, NULL);
  if (nonempty (plot->caption)
      && (lo->left + lo->right) / 2 + xlabel_w / 2 + 2 * lo->em > lo->caption_x)
    {
      layout_clear (lo);
      layout_compute_once (plot, ts, width, height, FALSE, y_top, lo);
    }
}

/* Margins, ranges, ticks, data positions and the legend: everything that
 * render draws and hit-testing must agree with. */
static void
layout_compute (KsPlot          *plot,
                const TextStyle *ts,
                double           width,
                double           height,
                Layout          *lo)
{
  double y_top = NAN;

  for (int pass = 0; pass < 2; pass++)
    {
      layout_compute_frame (plot, ts, width, height, y_top, lo);
      lo->dps = dev_points_compute (plot, lo);
      lo->has_legend = legend_build (plot, ts, lo, lo->dps, &lo->lg);

      if (pass > 0 || usable (plot->y_max, plot->log_y))
        break;
      y_top = legend_headroom (lo);
      if (isnan (y_top))
        break;
      layout_clear (lo);
    }
}

/* For hit-testing and device_to_data, which have no cairo_t of their own. */
static void
layout_compute_detached (KsPlot *plot,
                         double  width,
                         double  height,
                         Layout *lo)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autofree char *family = NULL;
  TextStyle ts;

  g_mutex_lock (&plot->font_lock);
  family = g_strdup (plot->font_family != NULL ? plot->font_family : "Sans");
  ts.size = plot->font_size > 0 ? plot->font_size : 10.0;
  g_mutex_unlock (&plot->font_lock);

  ts.ctx = text_context_new (cr);
  ts.family = family;
  layout_compute (plot, &ts, width, height, lo);

  g_object_unref (ts.ctx);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* ------------------------------------------------------------------------ */
/* Hit-testing                                                              */

gboolean
ks_plot_hit_test (KsPlot *plot,
                  double  width,
                  double  height,
                  double  px,
                  double  py,
                  double  radius,
                  guint  *out_series,
                  guint  *out_index)
{
  Layout lo;
  GPtrArray *dps;
  double best = radius * radius;
  gboolean hit = FALSE;
  guint hit_s = 0, hit_i = 0;

  g_return_val_if_fail (plot != NULL, FALSE);

  if (!(width > 0 && height > 0 && radius >= 0))
    return FALSE;

  layout_compute_detached (plot, width, height, &lo);
  dps = lo.dps;

  for (guint s = 0; s < dps->len; s++)
    {
      GArray *dp = g_ptr_array_index (dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          double d2;

          /* Points outside the view are clipped away, so not clickable. */
          if (!d->ok || d->x < lo.left - 0.5 || d->x > lo.right + 0.5
              || d->y < lo.top - 0.5 || d->y > lo.bottom + 0.5)
            continue;
          d2 = (d->x - px) * (d->x - px) + (d->y - py) * (d->y - py);
          /* <= so that of coinciding points the one drawn on top wins. */
          if (d2 <= best)
            {
              best = d2;
              hit = TRUE;
              hit_s = s;
              hit_i = d->index;
            }
        }
    }

  layout_clear (&lo);

  if (hit)
    {
      if (out_series != NULL)
        *out_series = hit_s;
      if (out_index != NULL)
        *out_index = hit_i;
    }
  return hit;
}

gboolean
ks_plot_device_to_data (KsPlot *plot,
                        double  width,
                        double  height,
                        double  px,
                        double  py,
                        double *out_x,
                        double *out_y)
{
  Layout lo;
  gboolean inside;

  g_return_val_if_fail (plot != NULL, FALSE);

  if (!(width > 0 && height > 0))
    return FALSE;

  layout_compute_detached (plot, width, height, &lo);
  inside = px >= lo.left && px <= lo.right && py >= lo.top && py <= lo.bottom;
  if (inside)
    {
      double fx = lo.x.f0 + (px - lo.left) / (lo.right - lo.left) * (lo.x.f1 - lo.x.f0);
      double fy = lo.y.f0 + (lo.bottom - py) / (lo.bottom - lo.top) * (lo.y.f1 - lo.y.f0);

      if (out_x != NULL)
        *out_x = inv (fx, lo.x.log);
      if (out_y != NULL)
        *out_y = inv (fy, lo.y.log);
    }
  layout_clear (&lo);

  return inside;
}

gboolean
ks_plot_data_to_device (KsPlot *plot,
                        double  width,
                        double  height,
                        double  x,
                        double  y,
                        double *out_px,
                        double *out_py)
{
  Layout lo;
  gboolean inside;
  double fx, fy, px, py;

  g_return_val_if_fail (plot != NULL, FALSE);

  if (!(width > 0 && height > 0) || !usable (x, plot->log_x) || !usable (y, plot->log_y))
    return FALSE;

  layout_compute_detached (plot, width, height, &lo);
  fx = fwd (x, lo.x.log);
  fy = fwd (y, lo.y.log);
  px = lo.left + (fx - lo.x.f0) / (lo.x.f1 - lo.x.f0) * (lo.right - lo.left);
  py = lo.bottom - (fy - lo.y.f0) / (lo.y.f1 - lo.y.f0) * (lo.bottom - lo.top);
  inside = px >= lo.left && px <= lo.right && py >= lo.top && py <= lo.bottom;
  if (out_px != NULL)
    *out_px = px;
  if (out_py != NULL)
    *out_py = py;
  layout_clear (&lo);

  return inside;
}

/* ------------------------------------------------------------------------ */
/* Drawing helpers                                                          */

static void
set_color (cairo_t           *cr,
           const KsPlotColor *c,
           double             alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

/* Centre of the pixel a 1-unit line at v should run through, so grid lines
 * and ticks come out crisp on raster surfaces. */
static double
snap (double v)
{
  return floor (v) + 0.5;
}

/* Liang–Barsky: clips the segment to the rectangle; FALSE if nothing is
 * left.  Keeps far-away points of a zoomed plot out of cairo's fixed-point
 * range, where they would wrap around. */
static gboolean
clip_segment (const Rect *r,
              double     *x0,
              double     *y0,
              double     *x1,
              double     *y1)
{
  double dx = *x1 - *x0, dy = *y1 - *y0;
  double t0 = 0.0, t1 = 1.0;
  double p[4] = { -dx, dx, -dy, dy };
  double q[4] = { *x0 - r->x, r->x + r->w - *x0, *y0 - r->y, r->y + r->h - *y0 };

  for (int i = 0; i < 4; i++)
    {
      if (p[i] == 0.0)
        {
          if (q[i] < 0.0)
            return FALSE;
        }
      else
        {
          double t = q[i] / p[i];

          if (p[i] < 0.0)
            {
              if (t > t1)
                return FALSE;
              t0 = MAX (t0, t);
            }
          else
            {
              if (t < t0)
                return FALSE;
              t1 = MIN (t1, t);
            }
        }
    }

  {
    double ox = *x0, oy = *y0;

    *x0 = ox + t0 * dx;
    *y0 = oy + t0 * dy;
    *x1 = ox + t1 * dx;
    *y1 = oy + t1 * dy;
  }
  return TRUE;
}

static void
path_diamond (cairo_t *cr,
              double   x,
              double   y,
              double   r)
{
  cairo_move_to (cr, x, y - r);
  cairo_line_to (cr, x + r, y);
  cairo_line_to (cr, x, y + r);
  cairo_line_to (cr, x - r, y);
  cairo_close_path (cr);
}

static gboolean
series_shows_markers (Series *ser)
{
  return ser->points->len <= MAX_MARKED;
}

/* Series beyond the palette's length repeat its colours with hollow
 * markers, so the ninth curve is still told apart from the first. */
static void
draw_marker (cairo_t           *cr,
             double             x,
             double             y,
             guint              series_index,
             const KsPlotTheme *theme)
{
  const KsPlotColor *c = &theme->series[series_index % G_N_ELEMENTS (theme->series)];

  cairo_new_path (cr);
  cairo_arc (cr, x, y, MARKER_R, 0, 2 * G_PI);
  if ((series_index / G_N_ELEMENTS (theme->series)) % 2 == 0)
    {
      set_color (cr, c, 1.0);
      cairo_fill (cr);
    }
  else
    {
      set_color (cr, &theme->background, 1.0);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.3);
      set_color (cr, c, 1.0);
      cairo_stroke (cr);
    }
}

static void
draw_highlight_marker (cairo_t           *cr,
                       double             x,
                       double             y,
                       const KsPlotTheme *theme)
{
  cairo_new_path (cr);
  path_diamond (cr, x, y, HIGHLIGHT_R);
  set_color (cr, &theme->highlight, 1.0);
  cairo_fill_preserve (cr);
  /* A thin background rim keeps neighbouring diamonds apart. */
  cairo_set_line_width (cr, 1.0);
  set_color (cr, &theme->background, 0.9);
  cairo_stroke (cr);
}

static void
set_series_line (cairo_t *cr,
                 Series  *ser)
{
  static const double dash[] = { 6.0, 4.0 };

  cairo_set_line_width (cr, ser->points->len > MAX_MARKED ? 1.4 : 1.7);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  if (ser->dashed)
    cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  else
    cairo_set_dash (cr, NULL, 0, 0);
}

static void
show_text (cairo_t     *cr,
           PangoLayout *layout,
           double       x,
           double       y)
{
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

/* A label on a translucent patch of background, readable over curves. */
static void
show_boxed_text (cairo_t           *cr,
                 PangoLayout       *layout,
                 const Rect        *r,
                 const KsPlotColor *text_color,
                 const KsPlotTheme *theme)
{
  cairo_new_path (cr);
  cairo_rectangle (cr, r->x, r->y, r->w, r->h);
  set_color (cr, &theme->background, 0.8);
  cairo_fill (cr);
  set_color (cr, text_color, 1.0);
  show_text (cr, layout, r->x + 2, r->y + 1);
}

static gboolean
rect_free_of (const Rect *r,
              GArray     *taken)
{
  for (guint i = 0; i < taken->len; i++)
    if (rect_overlaps (r, &g_array_index (taken, Rect, i)))
      return FALSE;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Legend drawing                                                           */

static void
legend_draw (cairo_t           *cr,
             KsPlot            *plot,
             const TextStyle   *ts,
             Legend            *lg,
             const Layout      *lo,
             const KsPlotTheme *theme)
{
  Rect *b = &lg->box;

  cairo_new_path (cr);
  cairo_rectangle (cr, b->x + 0.5, b->y + 0.5, b->w - 1, b->h - 1);
  set_color (cr, &theme->background, 0.88);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, 1.0);
  cairo_set_dash (cr, NULL, 0, 0);
  set_color (cr, &theme->foreground, 0.3);
  cairo_stroke (cr);

  for (guint i = 0; i < lg->entries->len; i++)
    {
      LegendEntry *e = &g_array_index (lg->entries, LegendEntry, i);
      guint col = i / lg->rows, row = i % lg->rows;
      double x = b->x + lg->inner + col * (lg->col_w + lo->em);
      double y = b->y + lg->inner + row * lg->row_h;
      double cy = y + lg->row_h / 2;
      g_autoptr(PangoLayout) text = NULL;
      double th;

      if (e->highlight)
        draw_highlight_marker (cr, x + lg->sample_w / 2, cy, theme);
      else
        {
          Series *ser = g_ptr_array_index (plot->series, e->series);

          cairo_new_path (cr);
          set_series_line (cr, ser);
          set_color (cr, &theme->series[e->series % G_N_ELEMENTS (theme->series)], 1.0);
          cairo_move_to (cr, x, cy);
          cairo_line_to (cr, x + lg->sample_w, cy);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          if (series_shows_markers (ser))
            draw_marker (cr, x + lg->sample_w / 2, cy, e->series, theme);
        }

      text = text_new (ts, legend_entry_text (plot, e), SCALE_LEGEND, FALSE);
      text_limit_width (text, lg->text_max_w);
      text_size (text, NULL, &th);
      set_color (cr, &theme->foreground, 1.0);
      show_text (cr, text, x + lg->sample_w + lg->inner, cy - th / 2);
    }
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

/* The first candidate box, around a marker at (x, y) with radius r, that
 * is inside the plot area, clear of everything placed so far and of the
 * data; with may_cover, failing that, the one that hides the least data. */
static gboolean
place_label (double      x,
             double      y,
             double      r,
             double      w,
             double      h,
             const Rect *area,
             GArray     *taken,
             GPtrArray  *dps,
             gboolean    may_cover,
             Rect       *out)
{
  guint least = G_MAXUINT;

  double g = 2.0;
  Rect cands[] = {
    { x - w / 2,     y - r - g - h, w, h },   /* above */
    { x + r,         y - r - h,     w, h },   /* above right */
    { x - r - w,     y - r - h,     w, h },   /* above left */
    { x + r + g,     y - h / 2,     w, h },   /* right */
    { x - r - g - w, y - h / 2,     w, h },   /* left */
    { x - w / 2,     y + r + g,     w, h },   /* below */
    { x + r,         y + r,         w, h },   /* below right */
    { x - r - w,     y + r,         w, h },   /* below left */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cands); i++)
    {
      /* A little air between labels keeps neighbours legible. */
      Rect spaced = { cands[i].x - 2, cands[i].y - 1, w + 4, h + 2 };

      guint covered;

      if (!rect_contains (area, &cands[i]) || !rect_free_of (&spaced, taken))
        continue;
      covered = coverage (dps, &cands[i]);
      if (covered == 0)
        {
          *out = cands[i];
          return TRUE;
        }
      if (may_cover && covered < least)
        {
          least = covered;
          *out = cands[i];
        }
    }
  return least != G_MAXUINT;
}

typedef struct {
  double x, y;
  guint  series;
  KsPlotPoint *p;
} Special;

static int
special_cmp (const void *a,
             const void *b)
{
  const Special *s = a, *t = b;
  gboolean sb = (s->p->flags & KS_PLOT_POINT_BEST) != 0;
  gboolean tb = (t->p->flags & KS_PLOT_POINT_BEST) != 0;

  /* Best points first: there is one per series and each matters; then the
   * highlights left to right, which spreads the labels that fit evenly. */
  if (sb != tb)
    return sb ? -1 : 1;
  if (s->x != t->x)
    return s->x < t->x ? -1 : 1;
  return s->y < t->y ? -1 : s->y > t->y;
}

static void
draw_axes (cairo_t           *cr,
           const TextStyle   *ts,
           const Layout      *lo,
           const KsPlotTheme *theme)
{
  double w = lo->right - lo->left, h = lo->bottom - lo->top;

  /* Grid at the major ticks. */
  cairo_set_line_width (cr, 1.0);
  cairo_set_dash (cr, NULL, 0, 0);
  set_color (cr, &theme->grid, 1.0);
  cairo_new_path (cr);
  for (guint i = 0; i < lo->xticks->len; i++)
    {
      Tick *t = &g_array_index (lo->xticks, Tick, i);
      double x = snap (dev_x (lo, t->value));

      if (t->major && x > lo->left + 1 && x < lo->right - 1)
        {
          cairo_move_to (cr, x, lo->top);
          cairo_line_to (cr, x, lo->bottom);
        }
    }
  for (guint i = 0; i < lo->yticks->len; i++)
    {
      Tick *t = &g_array_index (lo->yticks, Tick, i);
      double y = snap (dev_y (lo, t->value));

      if (t->major && y > lo->top + 1 && y < lo->bottom - 1)
        {
          cairo_move_to (cr, lo->left, y);
          cairo_line_to (cr, lo->right, y);
        }
    }
  cairo_stroke (cr);

  /* Frame just outside the plot area, so clipped data never covers it. */
  set_color (cr, &theme->foreground, 0.85);
  cairo_rectangle (cr, lo->left - 0.5, lo->top - 0.5, w + 1, h + 1);
  cairo_stroke (cr);

  /* Ticks point outwards and keep the data area clean. */
  for (guint i = 0; i < lo->xticks->len; i++)
    {
      Tick *t = &g_array_index (lo->xticks, Tick, i);
      double x = snap (dev_x (lo, t->value));
      double len = t->major ? lo->tick_len : lo->tick_len * 0.6;

      cairo_move_to (cr, x, lo->bottom + 1);
      cairo_line_to (cr, x, lo->bottom + 1 + len);
    }
  for (guint i = 0; i < lo->yticks->len; i++)
    {
      Tick *t = &g_array_index (lo->yticks, Tick, i);
      double y = snap (dev_y (lo, t->value));
      double len = t->major ? lo->tick_len : lo->tick_len * 0.6;

      cairo_move_to (cr, lo->left - 1, y);
      cairo_line_to (cr, lo->left - 1 - len, y);
    }
  cairo_stroke (cr);

  set_color (cr, &theme->foreground, 1.0);
  for (guint i = 0; i < lo->xticks->len; i++)
    {
      Tick *t = &g_array_index (lo->xticks, Tick, i);
      g_autoptr(PangoLayout) text = NULL;
      double tw;

      if (t->label == NULL)
        continue;
      text = text_new (ts, t->label, SCALE_TICK, FALSE);
      text_size (text, &tw, NULL);
      show_text (cr, text, dev_x (lo, t->value) - tw / 2,
                 lo->bottom + 1 + lo->tick_len + 3);
    }
  for (guint i = 0; i < lo->yticks->len; i++)
    {
      Tick *t = &g_array_index (lo->yticks, Tick, i);
      g_autoptr(PangoLayout) text = NULL;
      double tw, th;

      if (t->label == NULL)
        continue;
      text = text_new (ts, t->label, SCALE_TICK, FALSE);
      text_size (text, &tw, &th);
      show_text (cr, text, lo->left - 1 - lo->tick_len - 4 - tw,
                 dev_y (lo, t->value) - th / 2);
    }
}

static int
cmp_gap (gconstpointer a,
         gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The widest step between neighbouring points a line may bridge: ten times
 * the series' median step.  A sweep of two size ranges (n = 1000..1031 and
 * 2000..2012) then shows two curves, not a line across 1000 sizes nobody
 * measured; evenly or gradually spaced points (100, 200, 500, 1000, 2000)
 * stay joined.  Steps are taken in data space (log10 on a log axis), so
 * zooming does not change which points are joined. */
static double
series_gap_limit (Series    *ser,
                  GArray    *dp,
                  gboolean   log_x)
{
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (double));
  double prev = NAN;

  for (guint i = 0; i < dp->len; i++)
    {
      DevPoint *d = &g_array_index (dp, DevPoint, i);
      double x;

      if (!d->ok)
        continue;
      x = g_array_index (ser->points, KsPlotPoint, d->index).x;
      x = log_x ? log10 (x) : x;
      if (!isnan (prev) && x > prev)
        {
          double gap = x - prev;
          g_array_append_val (gaps, gap);
        }
      prev = x;
    }
  if (gaps->len < 4)
    return INFINITY;
  g_array_sort (gaps, cmp_gap);
  return 10.0 * g_array_index (gaps, double, gaps->len / 2);
}

static void
draw_series (cairo_t           *cr,
             KsPlot            *plot,
             const Layout      *lo,
             GPtrArray         *dps,
             const KsPlotTheme *theme)
{
  /* Lines may run a little past the area so their ends are not cut
   * square by the clip; the clip does the rest. */
  Rect area = { lo->left, lo->top, lo->right - lo->left, lo->bottom - lo->top };
  Rect lines = { area.x - 20, area.y - 20, area.w + 40, area.h + 40 };

  for (guint s = 0; s < dps->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (dps, s);
      const KsPlotColor *c = &theme->series[s % G_N_ELEMENTS (theme->series)];
      gboolean pen = FALSE;
      double last_x = 0, last_y = 0, gap_limit;

      /* Spread bars under the line. */
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_set_line_width (cr, 1.0);
      set_color (cr, c, 0.6);
      cairo_new_path (cr);
      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);
          double y0, y1, x;

          if (!d->ok || d->x < area.x - 5 || d->x > area.x + area.w + 5)
            continue;
          if (!isfinite (p->y_lo) || !isfinite (p->y_hi))
            continue;
          /* On a log axis a non-positive bound means "down to the floor". */
          y0 = usable (p->y_lo, lo->y.log) ? dev_y (lo, p->y_lo) : lines.y + lines.h;
          y1 = usable (p->y_hi, lo->y.log) ? dev_y (lo, p->y_hi) : lines.y + lines.h;
          y0 = CLAMP (y0, lines.y, lines.y + lines.h);
          y1 = CLAMP (y1, lines.y, lines.y + lines.h);
          x = d->x;
          cairo_move_to (cr, x, y0);
          cairo_line_to (cr, x, y1);
          if (series_shows_markers (ser))
            {
              cairo_move_to (cr, x - 2.5, y0);
              cairo_line_to (cr, x + 2.5, y0);
              cairo_move_to (cr, x - 2.5, y1);
              cairo_line_to (cr, x + 2.5, y1);
            }
        }
      cairo_stroke (cr);

      set_series_line (cr, ser);
      set_color (cr, c, 1.0);
      cairo_new_path (cr);
      gap_limit = series_gap_limit (ser, dp, lo->x.log);
      for (guint i = 0; i + 1 < dp->len; i++)
        {
          DevPoint *a = &g_array_index (dp, DevPoint, i);
          DevPoint *b = &g_array_index (dp, DevPoint, i + 1);
          double x0 = a->x, y0 = a->y, x1 = b->x, y1 = b->y;
          double xa = g_array_index (ser->points, KsPlotPoint, a->index).x;
          double xb = g_array_index (ser->points, KsPlotPoint, b->index).x;
          double gap = lo->x.log ? log10 (xb) - log10 (xa) : xb - xa;

          if (!a->ok || !b->ok || gap > gap_limit || !clip_segment (&lines, &x0, &y0, &x1, &y1))
            {
              pen = FALSE;
              continue;
            }
          if (!pen || x0 != last_x || y0 != last_y)
            cairo_move_to (cr, x0, y0);
          cairo_line_to (cr, x1, y1);
          pen = TRUE;
          last_x = x1;
          last_y = y1;
        }
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);

      if (series_shows_markers (ser))
        for (guint i = 0; i < dp->len; i++)
          {
            DevPoint *d = &g_array_index (dp, DevPoint, i);

            if (d->ok && d->x > area.x - 10 && d->x < area.x + area.w + 10
                && d->y > area.y - 10 && d->y < area.y + area.h + 10)
              draw_marker (cr, d->x, d->y, s, theme);
          }
    }
}

static void
draw_vlines (cairo_t           *cr,
             KsPlot            *plot,
             const Layout      *lo,
             const KsPlotTheme *theme)
{
  static const double dash[] = { 5.0, 4.0 };

  /* Two device units on a pixel boundary: crisp on raster surfaces. */
  cairo_set_line_width (cr, 2.0);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  set_color (cr, &theme->marker, 1.0);
  cairo_new_path (cr);
  for (guint i = 0; i < plot->vlines->len; i++)
    {
      VLine *v = &g_array_index (plot->vlines, VLine, i);
      double x;

      if (!usable (v->x, lo->x.log))
        continue;
      x = round (dev_x (lo, v->x));
      if (x < lo->left || x > lo->right)
        continue;
      cairo_move_to (cr, x, lo->top);
      cairo_line_to (cr, x, lo->bottom);
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
draw_vline_labels (cairo_t           *cr,
                   KsPlot            *plot,
                   const TextStyle   *ts,
                   const Layout      *lo,
                   const Rect        *area,
                   GArray            *taken,
                   const KsPlotTheme *theme)
{
  for (guint i = 0; i < plot->vlines->len; i++)
    {
      VLine *v = &g_array_index (plot->vlines, VLine, i);
      g_autoptr(PangoLayout) text = NULL;
      double x, w, h;
      gboolean placed = FALSE;
      Rect r = { 0 };

      if (!nonempty (v->label) || !usable (v->x, lo->x.log))
        continue;
      x = dev_x (lo, v->x);
      if (x < lo->left || x > lo->right)
        continue;

      text = text_new (ts, v->label, SCALE_LEGEND, FALSE);
      text_size (text, &w, &h);
      w += 4;
      h += 2;

      /* At the top beside the line, else further down (below a legend or an
       * earlier marker's label). */
      for (double y = lo->top + 4; !placed && y + h <= lo->bottom - 2; y += 2)
        {
          Rect right = { x + 4, y, w, h }, left = { x - 4 - w, y, w, h };

          if (rect_contains (area, &right) && rect_free_of (&right, taken))
            r = right, placed = TRUE;
          else if (rect_contains (area, &left) && rect_free_of (&left, taken))
            r = left, placed = TRUE;
        }
      if (!placed)
        continue;

      show_boxed_text (cr, text, &r, &theme->marker, theme);
      g_array_append_val (taken, r);
    }
}

static void
draw_specials (cairo_t           *cr,
               KsPlot            *plot,
               const TextStyle   *ts,
               const Layout      *lo,
               GPtrArray         *dps,
               const Rect        *area,
               GArray            *taken,
               const KsPlotTheme *theme)
{
  g_autoptr(GArray) specials = g_array_new (FALSE, FALSE, sizeof (Special));

  for (guint s = 0; s < dps->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      GArray *dp = g_ptr_array_index (dps, s);

      for (guint i = 0; i < dp->len; i++)
        {
          DevPoint *d = &g_array_index (dp, DevPoint, i);
          KsPlotPoint *p = &g_array_index (ser->points, KsPlotPoint, d->index);
          Special sp = { d->x, d->y, s, p };

          if (!d->ok || !(p->flags & (KS_PLOT_POINT_HIGHLIGHT | KS_PLOT_POINT_BEST)))
            continue;
          if (d->x < area->x - 10 || d->x > area->x + area->w + 10
              || d->y < area->y - 10 || d->y > area->y + area->h + 10)
            continue;
          g_array_append_val (specials, sp);
        }
    }
  qsort (specials->data, specials->len, sizeof (Special), special_cmp);

  /* Markers first, and in the obstacle list, so no label covers one. */
  for (guint i = 0; i < specials->len; i++)
    {
      Special *sp = &g_array_index (specials, Special, i);
      double r = 0;

      if (sp->p->flags & KS_PLOT_POINT_BEST)
        {
          const KsPlotColor *c = &theme->series[sp->series % G_N_ELEMENTS (theme->series)];

          draw_marker (cr, sp->x, sp->y, sp->series, theme);
          cairo_new_path (cr);
          cairo_arc (cr, sp->x, sp->y, BEST_R, 0, 2 * G_PI);
          cairo_set_line_width (cr, 2.0);
          set_color (cr, c, 1.0);
          cairo_stroke (cr);
          r = BEST_R + 1;
        }
      if (sp->p->flags & KS_PLOT_POINT_HIGHLIGHT)
        {
          draw_highlight_marker (cr, sp->x, sp->y, theme);
          r = MAX (r, HIGHLIGHT_R);
        }
      {
        Rect m = { sp->x - r, sp->y - r, 2 * r, 2 * r };
        g_array_append_val (taken, m);
      }
    }

  for (guint i = 0; i < specials->len; i++)
    {
      Special *sp = &g_array_index (specials, Special, i);
      g_autoptr(PangoLayout) text = NULL;
      gboolean best = (sp->p->flags & KS_PLOT_POINT_BEST) != 0;
      double w, h, r = best ? BEST_R + 1 : HIGHLIGHT_R;
      Rect box;

      if (!nonempty (sp->p->label))
        continue;
      text = text_new (ts, sp->p->label, SCALE_POINT, FALSE);
      text_size (text, &w, &h);
      /* Labels go where they hide no data.  A best point's label may cover
       * a line if it must, as each series has only one; other labels that
       * do not fit are left out, as a crowd reads worse than a few. */
      if (!place_label (sp->x, sp->y, r, w + 4, h + 2, area, taken, dps, best, &box))
        continue;
      show_boxed_text (cr, text, &box,
                       best ? &theme->foreground : &theme->highlight, theme);
      g_array_append_val (taken, box);
    }
}

/* One line centred over the plot area, pushed in where it would clip. */
static void
show_centred (cairo_t         *cr,
              const TextStyle *ts,
              const Layout    *lo,
              const char      *str,
              double           scale,
              gboolean         bold,
              double           cx,
              double           max_w,
              double           y)
{
  g_autoptr(PangoLayout) text = text_new (ts, str, scale, bold);
  double w;

  text_limit_width (text, max_w);
  text_size (text, &w, NULL);
  show_text (cr, text, CLAMP (cx - w / 2, lo->pad, lo->width - lo->pad - w), y);
}

static void
draw_frame_text (cairo_t           *cr,
                 KsPlot            *plot,
                 const TextStyle   *ts,
                 const Layout      *lo,
                 const KsPlotTheme *theme)
{
  double cx = (lo->left + lo->right) / 2;
  double max_w = lo->width - 2 * lo->pad;

  set_color (cr, &theme->foreground, 1.0);

  if (nonempty (plot->title))
    show_centred (cr, ts, lo, plot->title, SCALE_TITLE, TRUE, cx, max_w, lo->title_y);
  if (nonempty (plot->x_label))
    show_centred (cr, ts, lo, plot->x_label, SCALE_AXIS, FALSE, cx, max_w, lo->xlabel_y);

  if (nonempty (plot->y_label))
    {
      g_autoptr(PangoLayout) text = text_new (ts, plot->y_label, SCALE_AXIS, FALSE);
      double w, cy = (lo->top + lo->bottom) / 2;

      text_limit_width (text, lo->height - 2 * lo->pad);
      text_size (text, &w, NULL);
      cairo_save (cr);
      cairo_translate (cr, lo->pad, CLAMP (cy + w / 2, lo->pad + w, lo->height - lo->pad));
      cairo_rotate (cr, -G_PI / 2);
      pango_cairo_update_layout (cr, text);
      show_text (cr, text, 0, 0);
      cairo_restore (cr);
      pango_cairo_update_context (cr, ts->ctx);
    }

  if (nonempty (plot->caption))
    {
      g_autoptr(PangoLayout) text = text_new (ts, plot->caption, SCALE_CAPTION, FALSE);
      double w;

      text_limit_width (text, max_w);
      text_size (text, &w, NULL);
      set_color (cr, &theme->foreground, 0.6);
      show_text (cr, text, MAX (lo->width - lo->pad - w, lo->pad), lo->caption_y);
    }
}

void
ks_plot_render (KsPlot            *plot,
                cairo_t           *cr,
                double             width,
                double             height,
                const KsPlotTheme *theme)
{
  TextStyle ts;
  Layout lo;
  g_autoptr(GArray) taken = NULL;
  Rect area;

  g_return_if_fail (plot != NULL);
  g_return_if_fail (cr != NULL);

  if (theme == NULL)
    theme = ks_plot_theme_light ();
  if (!(width > 0 && height > 0))
    return;

  ts.family = theme->font_family != NULL ? theme->font_family : "Sans";
  ts.size = theme->font_size > 0 ? theme->font_size : 10.0;

  g_mutex_lock (&plot->font_lock);
  if (g_strcmp0 (plot->font_family, ts.family) != 0)
    {
      g_free (plot->font_family);
      plot->font_family = g_strdup (ts.family);
    }
  plot->font_size = ts.size;
  g_mutex_unlock (&plot->font_lock);

  cairo_save (cr);
  ts.ctx = text_context_new (cr);
  layout_compute (plot, &ts, width, height, &lo);
  area = (Rect) { lo.left, lo.top, lo.right - lo.left, lo.bottom - lo.top };

  cairo_new_path (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  set_color (cr, &theme->background, 1.0);
  cairo_fill (cr);

  draw_axes (cr, &ts, &lo, theme);

  taken = g_array_new (FALSE, FALSE, sizeof (Rect));
  if (lo.has_legend)
    g_array_append_val (taken, lo.lg.box);

  cairo_save (cr);
  cairo_new_path (cr);
  cairo_rectangle (cr, area.x, area.y, area.w, area.h);
  cairo_clip (cr);

  draw_vlines (cr, plot, &lo, theme);
  draw_series (cr, plot, &lo, lo.dps, theme);
  draw_vline_labels (cr, plot, &ts, &lo, &area, taken, theme);
  draw_specials (cr, plot, &ts, &lo, lo.dps, &area, taken, theme);
  if (lo.has_legend)
    legend_draw (cr, plot, &ts, &lo.lg, &lo, theme);

  if (!lo.has_data)
    {
      g_autoptr(PangoLayout) text = text_new (&ts, _("No data"), SCALE_AXIS, FALSE);
      double w, h;

      text_size (text, &w, &h);
      set_color (cr, &theme->foreground, 0.5);
      show_text (cr, text, area.x + (area.w - w) / 2, area.y + (area.h - h) / 2);
    }
  cairo_restore (cr);

  draw_frame_text (cr, plot, &ts, &lo, theme);

  layout_clear (&lo);
  g_object_unref (ts.ctx);
  cairo_restore (cr);
}

/* ------------------------------------------------------------------------ */
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

static void
render_page (KsPlot            *plot,
             cairo_surface_t   *surface,
             double             width,
             double             height,
             const KsPlotTheme *theme)
{
  cairo_t *cr = cairo_create (surface);

  ks_plot_render (plot, cr, width, height, theme);
  cairo_show_page (cr);
  cairo_destroy (cr);
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
  cairo_surface_t *surface = NULL;
  cairo_status_t status;
  WriteSink sink = { -1, 0 };

  g_return_val_if_fail (plot != NULL, FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (width >= 1 && height >= 1, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!ks_plot_format_from_filename (filename, &format, error))
    return FALSE;

  if (!plot_has_points (plot))
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY,
                   _("Nothing to export: the plot has no points"));
      return FALSE;
    }

  if (theme == NULL)
    theme = ks_plot_theme_light ();

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
            status = cairo_surface_write_to_png_stream (surface, write_sink, &sink);
          }
      }
      break;

    case KS_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_sink, &sink, width, height);
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
      surface = cairo_pdf_surface_create_for_stream (write_sink, &sink, width, height);
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

#ifdef G_OS_UNIX
  if (status == CAIRO_STATUS_SUCCESS && fsync (sink.fd) != 0)
    {
      sink.saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }
#endif
  if (close (sink.fd) != 0 && status == CAIRO_STATUS_SUCCESS)
    {
      sink.saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }

  if (status == CAIRO_STATUS_SUCCESS && g_rename (tmp_path, filename) != 0)
    {
      sink.saved_errno = errno;
      status = CAIRO_STATUS_WRITE_ERROR;
    }

  if (status != CAIRO_STATUS_SUCCESS)
    {
      set_write_error (error, filename, status, sink.saved_errno);
      g_unlink (tmp_path);
      return FALSE;
    }

  return TRUE;
}
