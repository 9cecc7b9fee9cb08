/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-ticks.c: view ranges and nice tick values on linear, log10 and
 * log2 axes. */
#define G_LOG_DOMAIN "ks-plot-ticks"

#include "ks-plot-private.h"

/* Narrower than this, relative to its magnitude, a range's tick labels
 * would all read the same (and a step of a few ULPs takes more ticks than
 * a double can count).  Never narrower than NARROW_ABS either, so that the
 * step between ticks stays a normal double. */
#define NARROW_REL 1e-9
#define NARROW_ABS 2e-300

gboolean
ks_plot_range_widen_narrow (double      *a,
                            double      *b,
                            KsPlotScale  log)
{
  double span = *b - *a, mid, d;
  gboolean narrow;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (!isfinite (*a) || !isfinite (*b))
    return FALSE;
  if (log)
    narrow = !(span > NARROW_REL);   /* f-space: a relative span already */
  else
    narrow = !(span > MAX (MAX (fabs (*a), fabs (*b)) * NARROW_REL, NARROW_ABS));
  if (!narrow)
    return FALSE;

  mid = *a * 0.5 + *b * 0.5;
  if (log)
    d = 0.5;   /* half a decade each way keeps one decade tick in view */
  else if (mid != 0.0)
    d = MAX (fabs (mid) * 0.1, NARROW_ABS);
  else
    d = 1.0;
  *a = MAX (mid - d, -G_MAXDOUBLE);
  *b = MIN (mid + d, G_MAXDOUBLE);
  return TRUE;
}

/* The view interval in f-space (log10 of the values on a log axis). */
void
ks_plot_view_range (gboolean     found,
                    double       lo,
                    double       hi,
                    double       fixed_min,
                    double       fixed_max,
                    KsPlotScale  log,
                    double      *out_a,
                    double      *out_b)
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
      if (!ks_plot_range_widen_narrow (&a, &b, log))
        {
          /* From the halves: b - a overflows for -1e308..1e308. */
          double pad = (b * 0.5 - a * 0.5) * 0.1;

          a = MAX (a - pad, -G_MAXDOUBLE);
          b = MIN (b + pad, G_MAXDOUBLE);
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
        b = MIN (a + (log ? 1.0 : (a != 0.0 ? fabs (a) : 1.0)), G_MAXDOUBLE);
      else if (has_max && !has_min)
        a = MAX (b - (log ? 1.0 : (b != 0.0 ? fabs (b) : 1.0)), -G_MAXDOUBLE);
    }
  /* Also a fixed range of a few ULPs, as narrow as equal ends. */
  ks_plot_range_widen_narrow (&a, &b, log);

  if (!isfinite (a) || !isfinite (b) || !(b > a))
    {
      a = 0.0;
      b = 1.0;
    }

  *out_a = a;
  *out_b = b;
}

static void
tick_clear (gpointer data)
{
  Tick *t = data;

  g_clear_pointer (&t->label, g_free);
}

GArray *
ks_plot_ticks_new (void)
{
  GArray *ticks = g_array_new (FALSE, TRUE, sizeof (Tick));

  g_array_set_clear_func (ticks, tick_clear);
  return ticks;
}

void
ks_plot_ticks_add (GArray     *ticks,
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
  GArray *ticks = ks_plot_ticks_new ();
  double k0 = ceil (a / step - 1e-9);
  double k1 = floor (b / step + 1e-9);
  double maxabs = MAX (fabs (a), fabs (b));
  int decimals, n;
  char fmt[16];

  /* Beyond 2^52 steps from zero, k + 1 is k again: a range that narrow
   * has no distinct ticks (and counting them would never end). */
  if (!(step > 0.0 && isfinite (step))
      || !(k1 - k0 >= 0.0 && k1 - k0 < KS_PLOT_TICKS_MAX)
      || !(fabs (k0) < 0x1p52 && fabs (k1) < 0x1p52))
    return ticks;
  n = (int) (k1 - k0);
  decimals = step_decimals (step);

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

  for (int i = 0; i <= n; i++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      double v = (k0 + i) * step;

      if (fabs (v) < step * 1e-9)
        v = 0.0;   /* no "-0" or "1e-17" at the origin */
      g_ascii_formatd (buf, sizeof buf, fmt, v);
      ks_plot_ticks_add (ticks, v, buf, TRUE);
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
  GArray *ticks = ks_plot_ticks_new ();
  /* The decades a double has, whatever the axis says. */
  double k0 = MAX (floor (fa), -324.0), k1 = MIN (ceil (fb), 308.0);
  int per_decade = which == LOG_LABEL_ALL ? 9 : which == LOG_LABEL_125 ? 3 : 1;

  if (!(fa <= fb && k1 >= k0))
    return ticks;
  if (minor && (k1 - k0 + 1) * 9 > KS_PLOT_TICKS_MAX)
    minor = FALSE;
  if ((k1 - k0 + 1) * (minor ? 9 : per_decade) > KS_PLOT_TICKS_MAX)
    return ticks;

  for (int k = (int) k0; k <= (int) k1; k++)
    {
      for (int m = 1; m <= 9; m++)
        {
          double v = m * pow (10.0, k);
          double f = log10 (v);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          if (f < fa - 1e-9 || f > fb + 1e-9 || !(v > 0.0 && isfinite (v)))
            continue;
          if (m == 1 && k % stride == 0)
            {
              format_log_label (buf, sizeof buf, v);
              ks_plot_ticks_add (ticks, v, buf, TRUE);
            }
          else if ((which == LOG_LABEL_125 && (m == 2 || m == 5))
                   || which == LOG_LABEL_ALL)
            {
              format_log_label (buf, sizeof buf, v);
              ks_plot_ticks_add (ticks, v, buf, TRUE);
            }
          else if (m == 1 || minor)
            ks_plot_ticks_add (ticks, v, NULL, m == 1);
        }
    }

  return ticks;
}

/* "2^k" with the exponent in superscript digits, for powers of two that
 * %g would print as 1.04858e+06. */
static char *
format_power_of_two (int k)
{
  static const char *const sup[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  GString *s = g_string_new ("2");
  g_autofree char *digits = g_strdup_printf ("%d", ABS (k));

  if (k < 0)
    g_string_append (s, "⁻");
  for (const char *d = digits; *d != '\0'; d++)
    g_string_append (s, sup[*d - '0']);
  return g_string_free (s, FALSE);
}

/* Ticks at the powers of two 2^k for k a multiple of stride, labelled as
 * plain numbers (0.25, 1, 64, 1024) while they are short. */
static GArray *
ticks_log2 (double fa,
            double fb,
            int    stride)
{
  GArray *ticks = ks_plot_ticks_new ();
  /* The powers of two a double has, whatever the axis says. */
  double k0 = MAX (ceil (fa - 1e-9), -1074.0), k1 = MIN (floor (fb + 1e-9), 1023.0);
  gboolean minor = k1 - k0 < KS_PLOT_TICKS_MAX;

  if (!(fa <= fb && k1 >= k0) || (k1 - k0) / stride >= KS_PLOT_TICKS_MAX)
    return ticks;
  for (int k = (int) k0; k <= (int) k1; k++)
    {
      if (k % stride != 0)
        {
          if (minor)
            ks_plot_ticks_add (ticks, exp2 (k), NULL, FALSE);
          continue;
        }
      if (k >= -8 && k < 20)
        {
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (buf, sizeof buf, "%.10g", exp2 (k));
          ks_plot_ticks_add (ticks, exp2 (k), buf, TRUE);
        }
      else
        {
          g_autofree char *label = format_power_of_two (k);

          ks_plot_ticks_add (ticks, exp2 (k), label, TRUE);
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
      ks_plot_text_measure (ts, t->label, SCALE_TICK, FALSE, &w, &h);
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

/* Linear ticks (also on a log axis spanning less than a decade or two):
 * the finest nice step whose labels keep apart. */
static GArray *
choose_linear (const TextStyle *ts,
               const Axis      *ax,
               double           length,
               gboolean         horizontal,
               double          *out_max_w,
               double          *out_max_h)
{
  GArray *ticks = NULL;
  double em = ts->size * TEXT_DPI / 72.0;
  double min_px = horizontal ? 7.0 * em : 3.5 * em;
  double a = inv (ax->f0, ax->log), b = inv (ax->f1, ax->log);
  int target = CLAMP ((int) floor (length / min_px), 2, 8);
  double step = nice_step (b / target - a / target);   /* b - a may overflow */

  for (int tries = 0; tries < 30; tries++)
    {
      GArray *coarser = ticks_linear (a, b, step);

      /* Near the largest doubles the next step overflows: keep the last. */
      if (coarser->len == 0 && ticks != NULL)
        {
          g_array_unref (coarser);
          break;
        }
      g_clear_pointer (&ticks, g_array_unref);
      ticks = coarser;
      if (ticks_fit (ts, ticks, ax, length, horizontal, out_max_w, out_max_h)
          || ticks->len <= 2)
        break;
      step = nice_step (step * 1.01);
    }
  return ticks;
}

/* Nice ticks for one axis of the given pixel length, aiming for 5-8
 * labels but never so many that they touch. */
GArray *
ks_plot_ticks_choose (const TextStyle *ts,
                      const Axis      *ax,
                      double           length,
                      gboolean         horizontal,
                      double          *out_max_w,
                      double          *out_max_h)
{
  GArray *ticks = NULL;
  double em = ts->size * TEXT_DPI / 72.0;

  length = MAX (length, 1.0);

  if (ax->log == KS_PLOT_SCALE_LOG2)
    {
      static const int strides[] = { 1, 2, 3, 4, 5, 10, 20, 50, 100, 200, 500 };

      for (guint i = 0; i < G_N_ELEMENTS (strides); i++)
        {
          g_clear_pointer (&ticks, g_array_unref);
          ticks = ticks_log2 (ax->f0, ax->f1, strides[i]);
          if (ticks_fit (ts, ticks, ax, length, horizontal, out_max_w, out_max_h))
            break;
        }
      if (ticks_n_labelled (ticks) >= 2)
        return ticks;
      g_clear_pointer (&ticks, g_array_unref);
      /* Less than a doubling in view: linear ticks, as for log10 below. */
    }
  else if (ax->log)
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

  return choose_linear (ts, ax, length, horizontal, out_max_w, out_max_h);
}
