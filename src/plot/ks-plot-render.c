/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-render.c: ks_plot_render(), which draws the whole plot in order. */
#define G_LOG_DOMAIN "ks-plot-render"

#include "ks-plot-private.h"

#include <glib/gi18n-lib.h>

/* Back to front: grid and axes, the mesh, bands, reference lines, bars and
 * curves; then the labels, each clear of those placed before it (reference
 * lines', bar values, highlighted and best points', annotations); the
 * legend on top. */
static void
draw_chart (cairo_t           *cr,
            KsPlot            *plot,
            const TextStyle   *ts,
            const Layout      *lo,
            const KsPlotTheme *theme)
{
  Rect area = { lo->left, lo->top, lo->right - lo->left, lo->bottom - lo->top };
  KsPlotObstacles *taken = ks_plot_obstacles_new (&area);

  ks_plot_draw_axes (cr, ts, lo, theme);
  if (lo->has_legend)
    ks_plot_obstacles_add (taken, &lo->lg.box);

  cairo_save (cr);
  cairo_new_path (cr);
  cairo_rectangle (cr, area.x, area.y, area.w, area.h);
  cairo_clip (cr);

  if (plot->mesh != NULL)
    ks_plot_draw_mesh (cr, plot, lo, theme);
  ks_plot_draw_bands (cr, plot, lo, theme);
  ks_plot_draw_ref_lines (cr, plot, lo, theme);
  ks_plot_draw_bars (cr, plot, lo, theme);
  ks_plot_draw_series (cr, plot, lo, lo->dps, theme);
  ks_plot_draw_ref_labels (cr, plot, ts, lo, &area, taken, theme);
  ks_plot_draw_bar_values (cr, plot, ts, lo, taken, theme);
  ks_plot_draw_specials (cr, plot, ts, lo, &area, taken, theme);
  ks_plot_draw_annotations (cr, plot, ts, lo, &area, taken, theme);
  if (!lo->has_data)
    {
      g_autoptr(PangoLayout) text = ks_plot_text_new (ts, _("No data"), SCALE_AXIS, FALSE);
      double w, h;

      ks_plot_text_size (text, &w, &h);
      set_color (cr, &theme->foreground, 0.5);
      ks_plot_show_text (cr, text, area.x + (area.w - w) / 2, area.y + (area.h - h) / 2);
    }
  cairo_restore (cr);
  ks_plot_obstacles_free (taken);

  /* Outside the clip: a legend may stand beside the plot area. */
  if (lo->has_legend)
    ks_plot_legend_draw (cr, plot, ts, &lo->lg, lo, theme);

  if (lo->colorbar.w > 0)
    ks_plot_draw_colorbar (cr, plot, ts, lo, theme);
}

void
ks_plot_render (KsPlot            *plot,
                cairo_t           *cr,
                double             width,
                double             height,
                const KsPlotTheme *theme)
{
  TextStyle ts;
  Layout *lo;

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
  ts.ctx = ks_plot_text_context_new (cr);
  lo = ks_plot_layout_get (plot, &ts, width, height);

  cairo_new_path (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  set_color (cr, &theme->background, 1.0);
  cairo_fill (cr);

  if (lo->blocks)
    ks_plot_draw_blocks (cr, plot, &ts, lo, theme);
  else
    draw_chart (cr, plot, &ts, lo, theme);

  ks_plot_draw_frame_text (cr, plot, &ts, lo, theme);

  ks_plot_layout_unref (lo);
  g_object_unref (ts.ctx);
  cairo_restore (cr);
}

GStrv
ks_plot_get_drawn_texts (KsPlot *plot,
                         double  width,
                         double  height)
{
  g_autoptr(GPtrArray) drawn = g_ptr_array_new_with_free_func (g_free);
  cairo_surface_t *surface;
  cairo_t *cr;

  g_return_val_if_fail (plot != NULL, NULL);

  surface = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cr = cairo_create (surface);
  cairo_set_user_data (cr, &ks_plot_drawn_texts_key, drawn, NULL);
  ks_plot_render (plot, cr, width, height, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_ptr_array_add (drawn, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&drawn), FALSE);
}
