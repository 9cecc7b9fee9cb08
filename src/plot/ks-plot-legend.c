/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-legend.c: the legend: its entries, the corner that hides the
 * least data, and its drawing. */
#define G_LOG_DOMAIN "ks-plot-legend"

#include "ks-plot-private.h"

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
  switch (e->kind)
    {
    case ENTRY_HIGHLIGHT:
      return plot->highlight_legend;
    case ENTRY_BAND:
      return g_array_index (plot->bands, Band, e->index).label;
    case ENTRY_SERIES:
    default:
      return ((Series *) g_ptr_array_index (plot->series, e->index))->name;
    }
}

#define LEGEND_MARGIN 8.0

gboolean
ks_plot_legend_build (KsPlot          *plot,
                      const TextStyle *ts,
                      const Layout    *lo,
                      Legend          *lg)
{
  double text_h = 0, text_w = 0, margin = LEGEND_MARGIN, area_w, area_h;
  guint per_col;

  memset (lg, 0, sizeof *lg);
  lg->entries = g_array_new (FALSE, FALSE, sizeof (LegendEntry));

  for (guint s = 0; s < plot->series->len; s++)
    {
      Series *ser = g_ptr_array_index (plot->series, s);
      LegendEntry e = { ENTRY_SERIES, s };

      if (nonempty (ser->name) && ser->points->len > 0)
        g_array_append_val (lg->entries, e);
    }
  if (nonempty (plot->highlight_legend) && plot_has_highlight (plot))
    {
      LegendEntry e = { ENTRY_HIGHLIGHT, 0 };
      g_array_append_val (lg->entries, e);
    }
  for (guint i = 0; i < plot->bands->len; i++)
    {
      LegendEntry e = { ENTRY_BAND, i };

      if (nonempty (g_array_index (plot->bands, Band, i).label))
        g_array_append_val (lg->entries, e);
    }
  if (lg->entries->len == 0)
    return FALSE;

  for (guint i = 0; i < lg->entries->len; i++)
    {
      double w, h;

      ks_plot_text_measure (ts, legend_entry_text (plot, &g_array_index (lg->entries, LegendEntry, i)),
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
    lg->covered[c] = ks_plot_data_index_coverage (lo->data_index, &lg->corner[c]);

  /* Upper right unless upper left hides less of the data. */
  lg->box = lg->corner[lg->covered[1] < lg->covered[0] ? 1 : 0];
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
      ks_plot_draw_highlight_marker (cr, x + lg->sample_w / 2, cy, theme);
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
  if (ser->kind == KS_PLOT_SERIES_BARS)
    {
      cairo_rectangle (cr, x + lg->sample_w / 2 - HIGHLIGHT_R, cy - HIGHLIGHT_R,
                       2 * HIGHLIGHT_R, 2 * HIGHLIGHT_R);
      set_color (cr, c, 0.85);
      cairo_fill (cr);
      return;
    }
  ks_plot_set_series_line (cr, ser);
  set_color (cr, c, 1.0);
  cairo_move_to (cr, x, cy);
  cairo_line_to (cr, x + lg->sample_w, cy);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
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

  for (guint i = 0; i < lg->entries->len; i++)
    {
      LegendEntry *e = &g_array_index (lg->entries, LegendEntry, i);
      guint col = i / lg->rows, row = i % lg->rows;
      double x = b->x + lg->inner + col * (lg->col_w + lo->em);
      double y = b->y + lg->inner + row * lg->row_h;
      double cy = y + lg->row_h / 2;
      g_autoptr(PangoLayout) text = NULL;
      double th;

      draw_sample (cr, plot, e, x, cy, lg, theme);

      text = ks_plot_text_new (ts, legend_entry_text (plot, e), SCALE_LEGEND, FALSE);
      ks_plot_text_limit_width (text, lg->text_max_w);
      ks_plot_text_size (text, NULL, &th);
      set_color (cr, &theme->foreground, 1.0);
      ks_plot_show_text (cr, text, x + lg->sample_w + lg->inner, cy - th / 2);
    }
}
