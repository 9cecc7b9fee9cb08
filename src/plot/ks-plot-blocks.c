/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-blocks.c: a grid-of-blocks diagram (paper 003): an index domain
 * of threads launched as blocks (work-groups), the grid of blocks rounded
 * up to cover it, and the threads past the domain's edge, which run but do
 * no work, shaded as idle. */
#define G_LOG_DOMAIN "ks-plot-blocks"

#include "ks-plot-private.h"

#include <glib/gi18n-lib.h>

void
ks_plot_set_blocks (KsPlot *plot,
                    guint   domain_x,
                    guint   domain_y,
                    guint   block_x,
                    guint   block_y)
{
  g_return_if_fail (plot != NULL);
  g_return_if_fail (domain_x > 0 && domain_y > 0 && block_x > 0 && block_y > 0);

  if (plot->blocks == NULL)
    plot->blocks = g_new0 (Blocks, 1);
  *plot->blocks = (Blocks) { domain_x, domain_y, block_x, block_y };
  ks_plot_changed (plot);
}

/* Threads narrower than this are not drawn one by one: blocks only. */
#define MIN_THREAD_PX 4.0
/* Blocks closer than this are drawn as the grid's outline alone. */
#define MIN_BLOCK_PX 4.0

typedef struct {
  guint64 gx, gy;            /* blocks */
  guint64 tx, ty;            /* threads the grid runs */
  double  sx, sy;            /* device units per thread: square in 2D, tall in 1D */
  double  x0, y0;            /* top left of the grid */
} Geometry;

static void
draw_threads (cairo_t           *cr,
              const Blocks      *b,
              const Geometry    *g,
              const KsPlotTheme *theme)
{
  /* Active threads in the first palette colour, idle ones shaded grey. */
  cairo_new_path (cr);
  cairo_rectangle (cr, g->x0, g->y0, b->domain_x * g->sx, b->domain_y * g->sy);
  set_color (cr, &theme->series[0], 0.55);
  cairo_fill (cr);

  cairo_new_path (cr);
  cairo_rectangle (cr, g->x0 + b->domain_x * g->sx, g->y0,
                   (g->tx - b->domain_x) * g->sx, g->ty * g->sy);
  cairo_rectangle (cr, g->x0, g->y0 + b->domain_y * g->sy,
                   b->domain_x * g->sx, (g->ty - b->domain_y) * g->sy);
  set_color (cr, &theme->foreground, 0.18);
  cairo_fill (cr);

  /* One thread each, where there is room to tell them apart. */
  if (g->sx >= MIN_THREAD_PX && g->sy >= MIN_THREAD_PX && g->tx * g->ty <= 65536)
    {
      cairo_new_path (cr);
      for (guint64 i = 1; i < g->tx; i++)
        {
          cairo_move_to (cr, snap (g->x0 + i * g->sx), g->y0);
          cairo_line_to (cr, snap (g->x0 + i * g->sx), g->y0 + g->ty * g->sy);
        }
      for (guint64 j = 1; j < g->ty; j++)
        {
          cairo_move_to (cr, g->x0, snap (g->y0 + j * g->sy));
          cairo_line_to (cr, g->x0 + g->tx * g->sx, snap (g->y0 + j * g->sy));
        }
      cairo_set_line_width (cr, 1.0);
      set_color (cr, &theme->background, 0.8);
      cairo_stroke (cr);
    }

  /* Blocks: the grid's outline, and the lines between blocks along each
   * direction where blocks are far enough apart to tell them apart (2000
   * rows of blocks in 600 pixels would paint the grid solid). */
  cairo_new_path (cr);
  cairo_rectangle (cr, g->x0, g->y0, g->tx * g->sx, g->ty * g->sy);
  if (b->block_x * g->sx >= MIN_BLOCK_PX)
    for (guint64 i = 1; i < g->gx; i++)
      {
        cairo_move_to (cr, g->x0 + i * b->block_x * g->sx, g->y0);
        cairo_line_to (cr, g->x0 + i * b->block_x * g->sx, g->y0 + g->ty * g->sy);
      }
  if (b->block_y * g->sy >= MIN_BLOCK_PX)
    for (guint64 j = 1; j < g->gy; j++)
      {
        cairo_move_to (cr, g->x0, g->y0 + j * b->block_y * g->sy);
        cairo_line_to (cr, g->x0 + g->tx * g->sx, g->y0 + j * b->block_y * g->sy);
      }
  cairo_set_line_width (cr, 1.5);
  set_color (cr, &theme->foreground, 0.9);
  cairo_stroke (cr);

  /* The domain's edge. */
  {
    static const double dash[] = { 5.0, 3.0 };

    cairo_new_path (cr);
    cairo_rectangle (cr, g->x0, g->y0, b->domain_x * g->sx, b->domain_y * g->sy);
    cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
    cairo_set_line_width (cr, 2.0);
    set_color (cr, &theme->highlight, 1.0);
    cairo_stroke (cr);
    cairo_set_dash (cr, NULL, 0, 0);
  }
}

/* The first block's size written along its top (and its left side in 2D),
 * so a reader sees what one block is. */
static void
draw_block_dims (cairo_t           *cr,
                 const TextStyle   *ts,
                 const Blocks      *b,
                 const Geometry    *g,
                 gboolean           two_d,
                 const KsPlotTheme *theme)
{
  g_autofree char *wx = g_strdup_printf ("%u", b->block_x);
  g_autoptr(PangoLayout) text = ks_plot_text_new (ts, wx, SCALE_POINT, FALSE);
  double tw, th, bw = b->block_x * g->sx, bh = b->block_y * g->sy;

  ks_plot_text_size (text, &tw, &th);
  set_color (cr, &theme->foreground, 1.0);
  cairo_set_line_width (cr, 1.0);
  cairo_new_path (cr);
  cairo_move_to (cr, g->x0, g->y0 - 4);
  cairo_line_to (cr, g->x0 + bw, g->y0 - 4);
  cairo_stroke (cr);
  ks_plot_show_text (cr, text, g->x0 + (bw - tw) / 2, g->y0 - 6 - th);

  if (two_d)
    {
      g_autofree char *wy = g_strdup_printf ("%u", b->block_y);
      g_autoptr(PangoLayout) ty = ks_plot_text_new (ts, wy, SCALE_POINT, FALSE);

      ks_plot_text_size (ty, &tw, &th);
      cairo_new_path (cr);
      cairo_move_to (cr, g->x0 - 4, g->y0);
      cairo_line_to (cr, g->x0 - 4, g->y0 + bh);
      cairo_stroke (cr);
      ks_plot_show_text (cr, ty, g->x0 - 6 - tw, g->y0 + (bh - th) / 2);
    }
}

void
ks_plot_draw_blocks (cairo_t           *cr,
                     KsPlot            *plot,
                     const TextStyle   *ts,
                     const Layout      *lo,
                     const KsPlotTheme *theme)
{
  const Blocks *b = plot->blocks;
  gboolean two_d = b->domain_y > 1 || b->block_y > 1;
  g_autofree char *line1 = NULL, *line2 = NULL;
  g_autoptr(PangoLayout) t1 = NULL, t2 = NULL;
  guint64 active = (guint64) b->domain_x * b->domain_y, total;
  double w1, h1, w2, h2, avail_w, avail_h, room;
  Geometry g;

  g.gx = (b->domain_x + (guint64) b->block_x - 1) / b->block_x;
  g.gy = (b->domain_y + (guint64) b->block_y - 1) / b->block_y;
  g.tx = g.gx * b->block_x;
  g.ty = g.gy * b->block_y;
  total = g.tx * g.ty;

  /* %llu rather than G_GUINT64_FORMAT, which xgettext cannot see through. */
  if (two_d)
    {
      line1 = g_strdup_printf (_("Grid of %llu × %llu blocks of %u × %u threads"),
                               (unsigned long long) g.gx, (unsigned long long) g.gy,
                               b->block_x, b->block_y);
      line2 = g_strdup_printf (_("Domain %u × %u: %llu of %llu threads idle (%.1f%%)"),
                               b->domain_x, b->domain_y, (unsigned long long) (total - active),
                               (unsigned long long) total, 100.0 * (total - active) / total);
    }
  else
    {
      line1 = g_strdup_printf (_("Grid of %llu blocks of %u threads"),
                               (unsigned long long) g.gx, b->block_x);
      line2 = g_strdup_printf (_("Domain of %u: %llu of %llu threads idle (%.1f%%)"),
                               b->domain_x, (unsigned long long) (total - active),
                               (unsigned long long) total, 100.0 * (total - active) / total);
    }
  t1 = ks_plot_text_new (ts, line1, SCALE_AXIS, FALSE);
  t2 = ks_plot_text_new (ts, line2, SCALE_AXIS, FALSE);
  ks_plot_text_limit_width (t1, lo->right - lo->left);
  ks_plot_text_limit_width (t2, lo->right - lo->left);
  ks_plot_text_size (t1, &w1, &h1);
  ks_plot_text_size (t2, &w2, &h2);

  /* Room for the block's size above and left of the grid, and for the two
   * lines below it. */
  room = lo->em * 2;
  avail_w = lo->right - lo->left - room;
  avail_h = lo->bottom - lo->top - room - h1 - h2 - 2 * lo->gap;
  if (!two_d)
    avail_h = MIN (avail_h, lo->em * 4);
  /* Square threads in 2D; in 1D the row keeps a readable height. */
  g.sx = two_d ? MIN (avail_w / g.tx, avail_h / g.ty) : avail_w / g.tx;
  g.sy = two_d ? g.sx : avail_h;
  if (!(g.sx > 0 && g.sy > 0))
    return;
  g.x0 = round (lo->left + room + (avail_w - g.tx * g.sx) / 2);
  g.y0 = round (lo->top + room + (avail_h - g.ty * g.sy) / 2);

  draw_threads (cr, b, &g, theme);
  draw_block_dims (cr, ts, b, &g, two_d, theme);

  set_color (cr, &theme->foreground, 1.0);
  ks_plot_show_text (cr, t1, MIN (g.x0, lo->right - w1), g.y0 + g.ty * g.sy + lo->gap * 2);
  ks_plot_show_text (cr, t2, MIN (g.x0, lo->right - w2), g.y0 + g.ty * g.sy + lo->gap * 2 + h1);
}
