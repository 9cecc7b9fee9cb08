/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-legend.c: the legend: its entries, the corner that hides the
 * least data, and its drawing. */
#define G_LOG_DOMAIN "ks-plot-legend"

#include "ks-plot-private.h"

#include <string.h>

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
entry_name (KsPlot            *plot,
            const LegendEntry *e)
{
  switch (e->kind)
    {
    case ENTRY_HIGHLIGHT:
      return plot->highlight_legend;
    case ENTRY_BAND:
      return g_array_index (plot->bands, Band, e->index).label;
    case ENTRY_SERIES:
    default:
      {
        const Series *ser = g_ptr_array_index (plot->series, e->index);

        return e->group ? ser->group : ser->name;
      }
    }
}

static void
entry_clear (gpointer data)
{
  g_free (((LegendEntry *) data)->text);
  g_free (((LegendEntry *) data)->shown);
}

static const char *
entry_shown (const LegendEntry *e)
{
  return e->shown != NULL ? e->shown : e->text;
}

static void
add_entry (GArray    *entries,
           KsPlot    *plot,
           EntryKind  kind,
           guint      index,
           gboolean   group)
{
  LegendEntry e = { kind, index, NULL, group };
  const char *name = entry_name (plot, &e);

  /* Two runs of one name would read as one: the later ones are numbered. */
  e.text = g_strdup (name);
  for (guint n = 2, i = 0; i < entries->len; i++)
    if (strcmp (g_array_index (entries, LegendEntry, i).text, e.text) == 0)
      {
        g_free (e.text);
        e.text = g_strdup_printf ("%s (%u)", name, n++);
        i = G_MAXUINT;   /* and check the numbered text afresh */
      }
  g_array_append_val (entries, e);
}

static gboolean
group_listed (KsPlot       *plot,
              const GArray *entries,
              const char   *group)
{
  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);

      if (e->group && strcmp (((Series *) g_ptr_array_index (plot->series, e->index))->group, group) == 0)
        return TRUE;
    }
  return FALSE;
}

static GArray *
collect_entries (KsPlot *plot)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));

  g_array_set_clear_func (entries, entry_clear);
  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);

      if (ser->group != NULL && ser->points->len > 0)
        {
          if (!group_listed (plot, entries, ser->group))
            add_entry (entries, plot, ENTRY_SERIES, s, TRUE);
        }
      else if (nonempty (ser->name) && ser->points->len > 0)
        add_entry (entries, plot, ENTRY_SERIES, s, FALSE);
    }
  if (nonempty (plot->highlight_legend) && plot_has_highlight (plot))
    add_entry (entries, plot, ENTRY_HIGHLIGHT, 0, FALSE);
  for (guint i = 0; i < plot->bands->len; i++)
    if (nonempty (g_array_index (plot->bands, Band, i).label))
      add_entry (entries, plot, ENTRY_BAND, i, FALSE);
  return entries;
}

/* An entry that stands for one curve of its own ("method = thomas"), not
 * a group, the highlight marker or a band. */
static gboolean
entry_is_curve (const LegendEntry *e)
{
  return e->kind == ENTRY_SERIES && !e->group;
}

/* "method" where text is "method = thomas" or "paper, method = thomas":
 * a parameter's name, after at most one qualifier ("recorded: ..., n = 4"
 * names none). */
static char *
leading_name (const char *text)
{
  const char *eq = strstr (text, " = ");
  const char *start = text, *comma = strstr (text, ", ");

  if (eq == NULL)
    return NULL;
  if (comma != NULL && comma < eq)
    start = comma + 2;
  if (eq == start || strpbrk (start, ",:;=") < eq + 1 || strpbrk (text, ":;=") < start)
    return NULL;
  return g_strndup (start, eq - start);
}

/* Where prefix ("method = ") stands in text: at its start or after one
 * qualifier ("paper, "); NULL elsewhere or with nothing after it. */
static const char *
find_prefix (const char *text,
             const char *prefix)
{
  const char *comma = strstr (text, ", ");
  const char *at = NULL;

  if (g_str_has_prefix (text, prefix))
    at = text;
  else if (comma != NULL && g_str_has_prefix (comma + 2, prefix) && strpbrk (text, ":;=") > comma)
    at = comma + 2;
  return at != NULL && at[strlen (prefix)] != '\0' ? at : NULL;
}

/* Where every curve's entry names one parameter first ("method = thomas",
 * or "paper, method = thomas" for the paper's values beside them), the
 * name becomes the legend's title and the entries show only the values: a
 * narrow plot keeps its width for the data, and "method = " is read once.
 * Two curves at least (one alone keeps its whole text); the highlight, the
 * bands and a recorded run's group keep theirs. */
static char *
pull_shared_name (GArray *entries)
{
  g_autofree char *name = NULL;
  g_autofree char *prefix = NULL;
  guint curves = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      const LegendEntry *e = &g_array_index (entries, LegendEntry, i);

      if (!entry_is_curve (e))
        continue;
      if (name == NULL && (name = leading_name (e->text)) == NULL)
        return NULL;
      if (prefix == NULL)
        prefix = g_strconcat (name, " = ", NULL);
      if (find_prefix (e->text, prefix) == NULL)
        return NULL;
      curves++;
    }
  if (curves < 2)
    return NULL;
  for (guint i = 0; i < entries->len; i++)
    {
      LegendEntry *e = &g_array_index (entries, LegendEntry, i);
      const char *at;

      if (!entry_is_curve (e))
        continue;
      at = find_prefix (e->text, prefix);
      e->shown = g_strdup_printf ("%.*s%s", (int) (at - e->text), e->text, at + strlen (prefix));
    }
  return g_steal_pointer (&name);
}

void
ks_plot_legend_clear (Legend *lg)
{
  g_clear_pointer (&lg->entries, g_array_unref);
  g_clear_pointer (&lg->title, g_free);
}

#define LEGEND_MARGIN 8.0

/* The entries and the size of one row; text_max_w is the widest text. */
static gboolean
legend_measure (KsPlot          *plot,
                const TextStyle *ts,
                double           em,
                Legend          *lg)
{
  double text_h = 0, text_w = 0;

  memset (lg, 0, sizeof *lg);
  lg->entries = collect_entries (plot);
  if (lg->entries->len == 0)
    return FALSE;
  lg->title = pull_shared_name (lg->entries);
  for (guint i = 0; i < lg->entries->len; i++)
    {
      double w, h;

      ks_plot_text_measure (ts, entry_shown (&g_array_index (lg->entries, LegendEntry, i)),
                            SCALE_LEGEND, FALSE, &w, &h);
      text_w = MAX (text_w, w);
      text_h = MAX (text_h, h);
    }
  lg->inner = round (em * 0.5);
  lg->row_h = ceil (MAX (text_h, 2 * HIGHLIGHT_R) + 2);
  lg->sample_w = round (em * 2.2);
  lg->text_max_w = text_w;
  lg->title_h = lg->title != NULL ? lg->row_h : 0;
  return TRUE;
}

static void
legend_box_size (Legend *lg,
                 double  em)
{
  lg->cols = MAX (1u, MIN (lg->cols, lg->entries->len));
  lg->rows = (lg->entries->len + lg->cols - 1) / lg->cols;
  lg->col_w = lg->sample_w + lg->inner + lg->text_max_w;
  lg->box.w = ceil (2 * lg->inner + lg->cols * lg->col_w + (lg->cols - 1) * em);
  lg->box.h = ceil (2 * lg->inner + lg->title_h + lg->rows * lg->row_h);
}

/* The text width that lets cols columns fit across across_w. */
static double
text_width_for (const Legend *lg,
                guint         cols,
                double        across_w,
                double        em)
{
  return (across_w - 2 * lg->inner - (cols - 1) * em) / cols - lg->sample_w - lg->inner;
}

/* Columns and text width of a legend outside the plot area on a canvas
 * of width x height.  Right of the plot: as many columns as its height
 * needs, a long text cut at a quarter of the width.  Below it: as many
 * columns as fit across, narrower ones while it would take more than
 * 40% of the height. */
static void
legend_shape_outside (Legend      *lg,
                      LegendPlace  place,
                      double       em,
                      double       width,
                      double       height)
{
  double pad = round (em * 0.8), across = width - 2 * pad;
  guint n = lg->entries->len;

  if (place == LEGEND_RIGHT)
    {
      /* About the plot area's height: the title, x ticks and label off. */
      double avail_h = MAX (height - 2 * pad - 6 * em, lg->row_h);
      guint per_col = (guint) MAX (1.0, floor ((avail_h - 2 * lg->inner - lg->title_h) / lg->row_h));

      lg->text_max_w = MIN (lg->text_max_w, MAX (0.25 * width, 6 * em));
      lg->cols = (n + per_col - 1) / per_col;
      legend_box_size (lg, em);
      return;
    }
  lg->text_max_w = MIN (lg->text_max_w, text_width_for (lg, 1, across, em));
  lg->cols = (guint) MAX (1.0, floor ((across - 2 * lg->inner + em)
                                      / (lg->sample_w + lg->inner + lg->text_max_w + em)));
  legend_box_size (lg, em);
  while (lg->box.h > 0.4 * height && lg->cols < n
         && text_width_for (lg, lg->cols + 1, across, em) >= 6 * em)
    {
      lg->text_max_w = text_width_for (lg, lg->cols + 1, across, em);
      lg->cols++;
      legend_box_size (lg, em);
    }
}

LegendPlace
ks_plot_legend_reserve (KsPlot          *plot,
                        const TextStyle *ts,
                        double           width,
                        double           height,
                        double          *w,
                        double          *h)
{
  double em = ts->size * TEXT_DPI / 72.0;
  LegendPlace place = LEGEND_RIGHT;
  Legend lg;

  *w = *h = 0;
  if (!legend_measure (plot, ts, em, &lg))
    {
      ks_plot_legend_clear (&lg);
      return LEGEND_INSIDE;
    }
  legend_shape_outside (&lg, LEGEND_RIGHT, em, width, height);
  /* A narrow plot keeps its width for the data. */
  if (width < 40 * em || lg.box.w > 0.4 * width)
    {
      place = LEGEND_BELOW;
      ks_plot_legend_clear (&lg);
      legend_measure (plot, ts, em, &lg);
      legend_shape_outside (&lg, LEGEND_BELOW, em, width, height);
      *h = lg.box.h + round (em * 0.5);
    }
  else
    *w = lg.box.w + round (em * 0.5);
  ks_plot_legend_clear (&lg);
  return place;
}

/* In the upper corner that hides the least data. */
static void
legend_place_inside (Legend       *lg,
                     const Layout *lo)
{
  double margin = LEGEND_MARGIN, area_w, area_h;
  guint per_col;

  area_w = lo->right - lo->left - 2 * margin;
  area_h = lo->bottom - lo->top - 2 * margin;

  /* A long legend wraps into columns rather than running off the plot,
   * and a tall one too, while it stays narrow enough, so that it fits
   * in a corner without hiding the data. */
  per_col = (guint) MAX (1.0, floor ((area_h - 2 * lg->inner - lg->title_h) / lg->row_h));
  lg->cols = (lg->entries->len + per_col - 1) / per_col;
  while (lg->cols < lg->entries->len)
    {
      guint rows = (lg->entries->len + lg->cols - 1) / lg->cols;
      guint cols = lg->cols + 1;
      double wider = 2 * lg->inner + cols * (lg->sample_w + lg->inner + lg->text_max_w)
                     + (cols - 1) * lo->em;

      if (2 * lg->inner + lg->title_h + rows * lg->row_h <= 0.3 * area_h || wider > 0.5 * area_w)
        break;
      lg->cols = cols;
    }
  lg->text_max_w = MIN (lg->text_max_w, MAX (text_width_for (lg, lg->cols, area_w, lo->em), lo->em));
  legend_box_size (lg, lo->em);
  lg->box.y = lo->top + margin;

  lg->corner[0] = lg->box;
  lg->corner[0].x = lo->right - margin - lg->box.w;
  lg->corner[1] = lg->box;
  lg->corner[1].x = lo->left + margin;
  for (int c = 0; c < 2; c++)
    lg->covered[c] = ks_plot_data_index_coverage (lo->data_index, &lg->corner[c]);

  /* Upper right unless upper left hides less of the data. */
  lg->box = lg->corner[lg->covered[1] < lg->covered[0] ? 1 : 0];
}

gboolean
ks_plot_legend_build (KsPlot          *plot,
                      const TextStyle *ts,
                      const Layout    *lo,
                      LegendPlace      place,
                      Legend          *lg)
{
  if (!legend_measure (plot, ts, lo->em, lg))
    return FALSE;
  lg->place = place;
  if (place == LEGEND_INSIDE)
    {
      legend_place_inside (lg, lo);
      return TRUE;
    }
  legend_shape_outside (lg, place, lo->em, lo->width, lo->height);
  if (place == LEGEND_RIGHT)
    {
      lg->box.x = lo->width - lo->pad - lg->box.w;
      lg->box.y = lo->top;
    }
  else
    {
      lg->box.x = CLAMP ((lo->left + lo->right - lg->box.w) / 2, lo->pad,
                         MAX (lo->width - lo->pad - lg->box.w, lo->pad));
      lg->box.y = lo->height - lo->pad - lg->box.h;
    }
  return TRUE;
}

/* The line, marker, bar or swatch an entry stands for. */
static void
draw_sample (cairo_t           *cr,
             KsPlot            *plot,
             const LegendEntry *e,
             double             x,
             double             cy,
             const Legend      *lg,
             const KsPlotTheme *theme)
{
  const KsPlotColor *c = &theme->series[e->index % G_N_ELEMENTS (theme->series)];
  Series *ser;

  switch (e->kind)
    {
    case ENTRY_HIGHLIGHT:
      {
        /* The shape alone: each curve's diamonds are in its colour. */
        KsPlotColor grey = theme->foreground;

        grey.a *= 0.55;
        ks_plot_draw_highlight_marker (cr, x + lg->sample_w / 2, cy, &grey, theme);
      }
      return;
    case ENTRY_BAND:
      cairo_new_path (cr);
      cairo_rectangle (cr, x, cy - HIGHLIGHT_R, lg->sample_w, 2 * HIGHLIGHT_R);
      set_color (cr, ks_plot_band_color (plot, e->index, theme), BAND_ALPHA);
      cairo_fill (cr);
      return;
    case ENTRY_SERIES:
    default:
      break;
    }

  ser = g_ptr_array_index (plot->series, e->index);
  cairo_new_path (cr);
  if (e->group)
    {
      /* Curves of many colours: their dash and a neutral grey. */
      KsPlotColor grey = theme->foreground;

      grey.a *= 0.6;
      ks_plot_set_series_line (cr, ser);
      set_color (cr, &grey, 1.0);
      cairo_move_to (cr, x, cy);
      cairo_line_to (cr, x + lg->sample_w, cy);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      return;
    }
  if (ser->kind == KS_PLOT_SERIES_BARS)
    {
      cairo_rectangle (cr, x + lg->sample_w / 2 - HIGHLIGHT_R, cy - HIGHLIGHT_R,
                       2 * HIGHLIGHT_R, 2 * HIGHLIGHT_R);
      set_color (cr, c, 0.85);
      cairo_fill (cr);
      return;
    }
  if (ser->kind != KS_PLOT_SERIES_POINTS)
    {
      ks_plot_set_series_line (cr, ser);
      set_color (cr, c, 1.0);
      cairo_move_to (cr, x, cy);
      cairo_line_to (cr, x + lg->sample_w, cy);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  if (ks_plot_series_shows_markers (ser))
    ks_plot_draw_marker (cr, x + lg->sample_w / 2, cy, e->index, theme);
}

void
ks_plot_legend_draw (cairo_t           *cr,
                     KsPlot            *plot,
                     const TextStyle   *ts,
                     const Legend      *lg,
                     const Layout      *lo,
                     const KsPlotTheme *theme)
{
  const Rect *b = &lg->box;

  cairo_new_path (cr);
  cairo_rectangle (cr, b->x + 0.5, b->y + 0.5, b->w - 1, b->h - 1);
  set_color (cr, &theme->background, 0.88);
  cairo_fill_preserve (cr);
  cairo_set_line_width (cr, 1.0);
  cairo_set_dash (cr, NULL, 0, 0);
  set_color (cr, &theme->foreground, 0.3);
  cairo_stroke (cr);

  if (lg->title != NULL)
    {
      g_autoptr(PangoLayout) title = ks_plot_text_new (ts, lg->title, SCALE_LEGEND, TRUE);
      double th;

      ks_plot_text_limit_width (title, b->w - 2 * lg->inner);
      ks_plot_text_size (title, NULL, &th);
      set_color (cr, &theme->foreground, 1.0);
      ks_plot_show_text (cr, title, b->x + lg->inner, b->y + lg->inner + (lg->title_h - th) / 2);
    }
  for (guint i = 0; i < lg->entries->len; i++)
    {
      LegendEntry *e = &g_array_index (lg->entries, LegendEntry, i);
      guint col = i / lg->rows, row = i % lg->rows;
      double x = b->x + lg->inner + col * (lg->col_w + lo->em);
      double y = b->y + lg->inner + lg->title_h + row * lg->row_h;
      double cy = y + lg->row_h / 2;
      g_autoptr(PangoLayout) text = NULL;
      double th;

      draw_sample (cr, plot, e, x, cy, lg, theme);

      text = ks_plot_text_new (ts, entry_shown (e), SCALE_LEGEND, FALSE);
      ks_plot_text_limit_width (text, lg->text_max_w);
      ks_plot_text_size (text, NULL, &th);
      set_color (cr, &theme->foreground, 1.0);
      ks_plot_show_text (cr, text, x + lg->sample_w + lg->inner, cy - th / 2);
    }
}

char *
ks_plot_legend_text_at (KsPlot *plot,
                        double  width,
                        double  height,
                        double  px,
                        double  py)
{
  Layout *lo;
  char *text = NULL;

  g_return_val_if_fail (plot != NULL, NULL);

  if (!(width > 0 && height > 0))
    return NULL;
  lo = ks_plot_layout_get (plot, NULL, width, height);
  if (lo->has_legend && px >= lo->lg.box.x && py >= lo->lg.box.y
      && px < lo->lg.box.x + lo->lg.box.w && py < lo->lg.box.y + lo->lg.box.h)
    {
      const Legend *lg = &lo->lg;
      double col = floor ((px - lg->box.x - lg->inner) / (lg->col_w + lo->em));
      double row = floor ((py - lg->box.y - lg->inner - lg->title_h) / lg->row_h);

      if (col >= 0 && row >= 0 && row < lg->rows && col * lg->rows + row < lg->entries->len)
        text = g_strdup (g_array_index (lg->entries, LegendEntry, (guint) (col * lg->rows + row)).text);
    }
  ks_plot_layout_unref (lo);
  return text;
}
