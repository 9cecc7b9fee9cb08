/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-draw.c: drawing helpers (markers, clipped segments, boxed text)
 * and the frame: axes, ticks, grid, title, axis labels and caption. */
#define G_LOG_DOMAIN "ks-plot-draw"

#include "ks-plot-private.h"

#include <string.h>

/* Liang–Barsky: clips the segment to the rectangle; FALSE if nothing is
 * left.  Keeps far-away points of a zoomed plot out of cairo's fixed-point
 * range, where they would wrap around. */
gboolean
ks_plot_clip_segment (const Rect *r,
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

gboolean
ks_plot_series_shows_markers (Series *ser)
{
  return ser->kind == KS_PLOT_SERIES_POINTS || ser->points->len <= MAX_MARKED;
}

/* Series beyond the palette's length repeat its colours with hollow
 * markers, so the ninth curve is still told apart from the first. */
void
ks_plot_draw_marker (cairo_t           *cr,
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

/* A thin background rim keeps a diamond apart from the line under it.
 * Where diamonds crowd, all rims go first (ks_plot_draw_highlight_rim) and
 * then all fills, or each rim would cut into its neighbours' fill: 18,000
 * highlighted primes on one curve came out as a white smear. */
void
ks_plot_draw_highlight_rim (cairo_t           *cr,
                            double             x,
                            double             y,
                            const KsPlotTheme *theme)
{
  cairo_new_path (cr);
  path_diamond (cr, x, y, HIGHLIGHT_R);
  cairo_set_line_width (cr, 1.0);
  set_color (cr, &theme->background, 0.9);
  cairo_stroke (cr);
}

/* In the colour of its curve: one red for every curve hid which curve a
 * highlighted point belongs to; the diamond is what sets it apart. */
void
ks_plot_draw_highlight_fill (cairo_t           *cr,
                             double             x,
                             double             y,
                             const KsPlotColor *c)
{
  cairo_new_path (cr);
  path_diamond (cr, x, y, HIGHLIGHT_R - 0.5);
  set_color (cr, c, 1.0);
  cairo_fill (cr);
}

void
ks_plot_draw_highlight_marker (cairo_t           *cr,
                               double             x,
                               double             y,
                               const KsPlotColor *c,
                               const KsPlotTheme *theme)
{
  ks_plot_draw_highlight_rim (cr, x, y, theme);
  ks_plot_draw_highlight_fill (cr, x, y, c);
}

void
ks_plot_set_series_line (cairo_t *cr,
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

/* Set on the cairo_t of ks_plot_get_drawn_texts(): every text drawn is
 * added to the GPtrArray it holds. */
const cairo_user_data_key_t ks_plot_drawn_texts_key;

void
ks_plot_show_text (cairo_t     *cr,
                   PangoLayout *layout,
                   double       x,
                   double       y)
{
  GPtrArray *drawn = cairo_get_user_data (cr, &ks_plot_drawn_texts_key);

  if (drawn != NULL)
    g_ptr_array_add (drawn, g_strdup (pango_layout_get_text (layout)));
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

/* A label on a translucent patch of background, readable over curves. */
void
ks_plot_show_boxed_text (cairo_t           *cr,
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
  ks_plot_show_text (cr, layout, r->x + 2, r->y + 1);
}

/* Tick marks and labels of a vertical axis whose line is at device x
 * edge, pointing away from the plot: left (side -1) or right (+1).  The
 * left y axis, the right one and a mesh's colour bar. */
void
ks_plot_draw_vaxis (cairo_t           *cr,
                    const TextStyle   *ts,
                    const Layout      *lo,
                    const Axis        *ax,
                    GArray            *ticks,
                    double             edge,
                    int                side,
                    const KsPlotTheme *theme)
{
  set_color (cr, &theme->foreground, 0.85);
  cairo_set_line_width (cr, 1.0);
  cairo_new_path (cr);
  for (guint i = 0; i < ticks->len; i++)
    {
      Tick *t = &g_array_index (ticks, Tick, i);
      double y = snap (dev_y_on (lo, ax, t->value));
      double len = t->major ? lo->tick_len : lo->tick_len * 0.6;

      cairo_move_to (cr, edge, y);
      cairo_line_to (cr, edge + side * len, y);
    }
  cairo_stroke (cr);

  set_color (cr, &theme->foreground, 1.0);
  for (guint i = 0; i < ticks->len; i++)
    {
      Tick *t = &g_array_index (ticks, Tick, i);
      g_autoptr(PangoLayout) text = NULL;
      double tw, th, x;

      if (t->label == NULL)
        continue;
      text = ks_plot_text_new (ts, t->label, SCALE_TICK, FALSE);
      ks_plot_text_size (text, &tw, &th);
      x = side < 0 ? edge - lo->tick_len - 4 - tw : edge + lo->tick_len + 4;
      ks_plot_show_text (cr, text, x, dev_y_on (lo, ax, t->value) - th / 2);
    }
}

/* Does a line of the laid-out text start inside a word, or run past
 * max_w (a word wider than that is not broken, nor ellipsized but on the
 * last line)? */
static gboolean
breaks_badly (PangoLayout *layout,
              double       max_w)
{
  const char *text = pango_layout_get_text (layout);

  for (GSList *l = pango_layout_get_lines_readonly (layout); l != NULL; l = l->next)
    {
      PangoLayoutLine *line = l->data;
      int start = line->start_index;
      PangoRectangle logical;

      if (start > 0 && !g_ascii_isspace (text[start - 1]) && text[start - 1] != '-'
          && text[start - 1] != '/')
        return TRUE;
      pango_layout_line_get_extents (line, NULL, &logical);
      if ((double) logical.width / PANGO_SCALE > max_w + 0.5)
        return TRUE;
    }
  return FALSE;
}

PangoLayout *
ks_plot_category_label_new (const TextStyle *ts,
                            const char      *name,
                            double           slot)
{
  PangoLayout *text = ks_plot_text_new (ts, name, SCALE_TICK, FALSE);
  PangoAttrList *attrs = pango_attr_list_new ();

  /* Pango >= 1.44 hyphenates a word it breaks ("Tho-ma..."): never. */
  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  pango_layout_set_attributes (text, attrs);
  pango_attr_list_unref (attrs);
  ks_plot_text_limit_width (text, slot - 4);
  pango_layout_set_wrap (text, PANGO_WRAP_WORD);
  pango_layout_set_height (text, -2);
  pango_layout_set_alignment (text, PANGO_ALIGN_CENTER);
  /* A word wider than the slot would be split or run into the next
   * slot: break at a space instead (where pango would, else the first),
   * and cut each of the two lines short with an ellipsis
   * ("Thoma... / global"), one line to a paragraph. */
  if (breaks_badly (text, slot - 4))
    {
      GSList *second = pango_layout_get_lines_readonly (text)->next;
      const char *at = second != NULL ? name + ((PangoLayoutLine *) second->data)->start_index : NULL;
      g_autofree char *two = NULL;

      if (at == NULL || at == name || at[-1] != ' ')
        at = strchr (name, ' ') != NULL ? strchr (name, ' ') + 1 : NULL;
      if (at != NULL)
        {
          two = g_strdup_printf ("%.*s\n%s", (int) (at - name), name, at);
          g_strchomp (two);
          pango_layout_set_text (text, two, -1);
        }
      pango_layout_set_height (text, -1);
    }
  return text;
}

void
ks_plot_draw_axes (cairo_t           *cr,
                   const TextStyle   *ts,
                   const Layout      *lo,
                   const KsPlotTheme *theme)
{
  double w = lo->right - lo->left, h = lo->bottom - lo->top;
  double slot = lo->n_categories > 0 ? ks_plot_category_width (lo) : INFINITY;

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
  cairo_stroke (cr);

  set_color (cr, &theme->foreground, 1.0);
  for (guint i = 0; i < lo->xticks->len; i++)
    {
      Tick *t = &g_array_index (lo->xticks, Tick, i);
      g_autoptr(PangoLayout) text = NULL;
      double tw;

      if (t->label == NULL)
        continue;
      if (isfinite (slot))
        {
          text = ks_plot_category_label_new (ts, t->label, slot);
          tw = MAX (slot - 4, 1.0);
        }
      else
        {
          text = ks_plot_text_new (ts, t->label, SCALE_TICK, FALSE);
          ks_plot_text_size (text, &tw, NULL);
        }
      ks_plot_show_text (cr, text, dev_x (lo, t->value) - tw / 2,
                         lo->bottom + 1 + lo->tick_len + 3);
    }

  ks_plot_draw_vaxis (cr, ts, lo, &lo->y, lo->yticks, lo->left - 1, -1, theme);
  if (lo->has_y2)
    ks_plot_draw_vaxis (cr, ts, lo, &lo->y2, lo->y2ticks, lo->right + 1, +1, theme);
}

/* A text centred over the plot area, pushed in where it would clip; where
 * one line of max_w does not hold it, on up to `lines` lines centred in
 * max_w (the width the layout measured it in), ellipsized past them. */
static void
show_centred (cairo_t         *cr,
              const TextStyle *ts,
              const Layout    *lo,
              const char      *str,
              double           scale,
              gboolean         bold,
              double           cx,
              double           max_w,
              int              lines,
              double           y)
{
  g_autoptr(PangoLayout) text = ks_plot_text_new (ts, str, scale, bold);
  double w = 0;

  ks_plot_text_size (text, &w, NULL);
  if (w > max_w)
    {
      ks_plot_text_wrap (text, max_w, lines);
      pango_layout_set_alignment (text, PANGO_ALIGN_CENTER);
      w = max_w;
    }
  ks_plot_show_text (cr, text, CLAMP (cx - w / 2, lo->pad, lo->width - lo->pad - w), y);
}

/* An axis label turned to read upwards, centred on the plot area's height,
 * with its top (left edge) or bottom (right edge) at device x. */
void
ks_plot_show_vertical_label (cairo_t         *cr,
                             const TextStyle *ts,
                             const Layout    *lo,
                             const char      *str,
                             double           x,
                             gboolean         right)
{
  g_autoptr(PangoLayout) text = ks_plot_text_new (ts, str, SCALE_AXIS, FALSE);
  double w, h, cy = (lo->top + lo->bottom) / 2;

  ks_plot_text_limit_width (text, lo->height - 2 * lo->pad);
  ks_plot_text_size (text, &w, &h);
  cairo_save (cr);
  cairo_translate (cr, right ? x - h : x, CLAMP (cy + w / 2, lo->pad + w, lo->height - lo->pad));
  cairo_rotate (cr, -G_PI / 2);
  pango_cairo_update_layout (cr, text);
  ks_plot_show_text (cr, text, 0, 0);
  cairo_restore (cr);
  pango_cairo_update_context (cr, ts->ctx);
}

void
ks_plot_draw_frame_text (cairo_t           *cr,
                         KsPlot            *plot,
                         const TextStyle   *ts,
                         const Layout      *lo,
                         const KsPlotTheme *theme)
{
  double cx = (lo->left + lo->right) / 2;
  double max_w = lo->width - 2 * lo->pad;

  set_color (cr, &theme->foreground, 1.0);

  if (nonempty (plot->title))
    show_centred (cr, ts, lo, plot->title, SCALE_TITLE, TRUE, cx, lo->title_w, 2, lo->title_y);
  if (nonempty (plot->x_label) && !lo->blocks)
    show_centred (cr, ts, lo, plot->x_label, SCALE_AXIS, FALSE, cx, max_w, 1, lo->xlabel_y);

  if (nonempty (plot->y_label) && !lo->blocks)
    ks_plot_show_vertical_label (cr, ts, lo, plot->y_label, lo->pad, FALSE);
  if (lo->has_y2 && nonempty (plot->y2_label))
    ks_plot_show_vertical_label (cr, ts, lo, plot->y2_label,
                                 lo->colorbar.w > 0 ? lo->colorbar.x - lo->em : lo->width - lo->pad,
                                 TRUE);

  if (nonempty (plot->caption))
    {
      g_autoptr(PangoLayout) text = ks_plot_text_new (ts, plot->caption, SCALE_CAPTION, FALSE);
      double w;

      ks_plot_text_limit_width (text, max_w);
      ks_plot_text_size (text, &w, NULL);
      set_color (cr, &theme->foreground, 0.6);
      ks_plot_show_text (cr, text, MAX (lo->width - lo->pad - w, lo->pad), lo->caption_y);
    }
}
