/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-plot-text.c: Pango text measured the same on every surface. */
#define G_LOG_DOMAIN "ks-plot-text"

#include "ks-plot-private.h"

PangoContext *
ks_plot_text_context_new (cairo_t *cr)
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

PangoLayout *
ks_plot_text_new (const TextStyle *ts,
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

void
ks_plot_text_size (PangoLayout *layout,
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

void
ks_plot_text_measure (const TextStyle *ts,
                      const char      *text,
                      double           scale,
                      gboolean         bold,
                      double          *w,
                      double          *h)
{
  g_autoptr(PangoLayout) layout = ks_plot_text_new (ts, text, scale, bold);

  ks_plot_text_size (layout, w, h);
}

/* Breaks text wider than max_w device units between words, onto at most
 * `lines` lines, the last ellipsized where even they do not hold it: a
 * Russian title is a third longer than its English and a projector's
 * window narrow. */
void
ks_plot_text_wrap (PangoLayout *layout,
                   double       max_w,
                   int          lines)
{
  pango_layout_set_width (layout, (int) floor (MAX (max_w, 1.0) * PANGO_SCALE));
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_height (layout, -lines);
}

/* Keeps a single line from running past max_w device units. */
void
ks_plot_text_limit_width (PangoLayout *layout,
                          double       max_w)
{
  pango_layout_set_width (layout, (int) floor (MAX (max_w, 1.0) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
}
