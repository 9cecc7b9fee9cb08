/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-plot-view.h"

#include <glib/gi18n.h>
#include <math.h>

/* Hover radius for tooltips, in pixels: about a marker and a half. */
#define HIT_RADIUS 8.0
/* A drag shorter than this is a click, not a zoom. */
#define MIN_DRAG 6.0

struct _KsPlotView {
  GtkDrawingArea    parent_instance;

  KsPlot           *plot;
  char             *placeholder;
  KsPlotTooltipFunc tooltip_func;
  gpointer          tooltip_data;
  gboolean          zoomable;
  double            zoom_x0, zoom_x1;   /* NAN = not zoomed */

  gboolean          dragging;
  double            drag_x0, drag_x1;

  /* The keyboard's point: arrows move it, and its tooltip is drawn beside
   * it, so what a hover tells (why a point is prime) is there without a
   * mouse too. */
  gboolean          has_cursor;
  guint             cursor_series, cursor_index;
};

G_DEFINE_TYPE (KsPlotView, ks_plot_view, GTK_TYPE_DRAWING_AREA)

enum { ZOOM_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static KsPlotColor
rgba_to_color (const GdkRGBA *c)
{
  return (KsPlotColor) { c->red, c->green, c->blue, c->alpha };
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
}

void
ks_plot_view_get_theme (KsPlotView  *self,
                        KsPlotTheme *theme)
{
  GtkStyleContext *ctx = gtk_widget_get_style_context (GTK_WIDGET (self));
  GtkStateFlags state = gtk_style_context_get_state (ctx);
  GdkRGBA fg, bg;
  const PangoFontDescription *font = NULL;
  gboolean dark;

  gtk_style_context_get_color (ctx, state, &fg);
  if (!gtk_style_context_lookup_color (ctx, "theme_base_color", &bg))
    bg = (GdkRGBA) { 1, 1, 1, 1 };
  /* The palette comes from the renderer's own light or dark theme, chosen
   * by the background the theme gives us; text and axes take the theme's
   * foreground so they always contrast with it. */
  dark = luminance (&bg) < 0.5;
  *theme = dark ? *ks_plot_theme_dark () : *ks_plot_theme_light ();
  theme->background = rgba_to_color (&bg);
  theme->foreground = rgba_to_color (&fg);
  theme->grid = (KsPlotColor) { fg.red, fg.green, fg.blue, 0.12 };

  gtk_style_context_get (ctx, state, GTK_STYLE_PROPERTY_FONT, &font, NULL);
  if (font != NULL)
    {
      /* The family string lives as long as the widget's style; copy it to a
       * quark so the theme can hold it without owning it. */
      const char *family = pango_font_description_get_family (font);
      int size = pango_font_description_get_size (font);

      if (family != NULL)
        theme->font_family = g_intern_string (family);
      if (size > 0)
        theme->font_size = (double) size / PANGO_SCALE;
      pango_font_description_free ((PangoFontDescription *) font);
    }
}

static void draw_cursor (KsPlotView *self, cairo_t *cr, const KsPlotTheme *theme);

static gboolean
ks_plot_view_draw (GtkWidget *widget,
                   cairo_t   *cr)
{
  KsPlotView *self = KS_PLOT_VIEW (widget);
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  KsPlotTheme theme;

  ks_plot_view_get_theme (self, &theme);
  if (self->plot != NULL)
    ks_plot_render (self->plot, cr, w, h, &theme);
  else
    {
      cairo_set_source_rgba (cr, theme.background.r, theme.background.g, theme.background.b, 1);
      cairo_paint (cr);
    }

  if (!ks_plot_view_has_data (self) && self->placeholder != NULL)
    {
      /* Over the renderer's own "No data": say what to do instead. */
      PangoLayout *layout = gtk_widget_create_pango_layout (widget, self->placeholder);
      int lw, lh;

      pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
      pango_layout_set_width (layout, (int) (w * 0.8) * PANGO_SCALE);
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
      pango_layout_get_pixel_size (layout, &lw, &lh);
      cairo_set_source_rgba (cr, theme.background.r, theme.background.g, theme.background.b, 1);
      cairo_rectangle (cr, (w - lw) / 2 - 12, (h - lh) / 2 - 8, lw + 24, lh + 16);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, theme.foreground.r, theme.foreground.g, theme.foreground.b, 0.7);
      cairo_move_to (cr, (w - lw) / 2, (h - lh) / 2);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }

  if (self->dragging && fabs (self->drag_x1 - self->drag_x0) >= MIN_DRAG)
    {
      double x = MIN (self->drag_x0, self->drag_x1);
      double rw = fabs (self->drag_x1 - self->drag_x0);

      cairo_set_source_rgba (cr, theme.marker.r, theme.marker.g, theme.marker.b, 0.18);
      cairo_rectangle (cr, x, 0, rw, h);
      cairo_fill_preserve (cr);
      cairo_set_source_rgba (cr, theme.marker.r, theme.marker.g, theme.marker.b, 0.7);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }

  draw_cursor (self, cr, &theme);

  /* The keys +, -, 0 and Home act on the plot only while it has the focus;
   * a keyboard user must see when that is. */
  if (gtk_widget_has_visible_focus (widget))
    gtk_render_focus (gtk_widget_get_style_context (widget), cr, 2, 2, w - 4, h - 4);
  return FALSE;
}

static char *
point_markup (KsPlotView *self,
              guint       series,
              guint       index)
{
  char *markup = NULL;

  if (self->tooltip_func != NULL)
    markup = self->tooltip_func (self->plot, series, index, self->tooltip_data);
  if (markup == NULL)
    {
      const KsPlotPoint *p = ks_plot_series_get_point (self->plot, series, index);
      g_autofree char *name = g_markup_escape_text (ks_plot_series_get_name (self->plot, series), -1);

      markup = g_strdup_printf ("<b>%s</b>\n%g → %.3g", name, p->x, p->y);
    }
  return markup;
}

/* Where a point is drawn; FALSE when it is outside the view (zoomed out of
 * it, or not drawable on a log axis). */
static gboolean
point_position (KsPlotView *self,
                guint       series,
                guint       index,
                double     *px,
                double     *py)
{
  double w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  double h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  const KsPlotPoint *p;

  if (self->plot == NULL || series >= ks_plot_get_n_series (self->plot) ||
      index >= ks_plot_series_get_n_points (self->plot, series))
    return FALSE;
  p = ks_plot_series_get_point (self->plot, series, index);
  return ks_plot_data_to_device (self->plot, w, h, p->x, p->y, px, py) &&
         *px >= 0 && *px <= w && *py >= 0 && *py <= h;
}

static gboolean
point_visible (KsPlotView *self,
               guint       series,
               guint       index)
{
  double px, py;
  return point_position (self, series, index, &px, &py);
}

/* The cursor's text goes to the accessible description too, for screen
 * readers, without the markup. */
static void
cursor_changed (KsPlotView *self)
{
  g_autofree char *markup = NULL;
  g_autofree char *text = NULL;

  if (self->has_cursor && (markup = point_markup (self, self->cursor_series, self->cursor_index)))
    pango_parse_markup (markup, -1, 0, NULL, &text, NULL, NULL);
  atk_object_set_description (gtk_widget_get_accessible (GTK_WIDGET (self)), text ? text : "");
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Left / Right: the previous or next visible point of the cursor's curve;
 * the first press starts on the newest curve (the last with points). */
static gboolean
cursor_step (KsPlotView *self,
             int         dir)
{
  guint n_series = self->plot ? ks_plot_get_n_series (self->plot) : 0;

  if (!self->has_cursor)
    {
      for (guint s = n_series; s-- > 0;)
        {
          guint n = ks_plot_series_get_n_points (self->plot, s);

          for (guint k = 0; k < n; k++)
            {
              guint i = dir > 0 ? k : n - 1 - k;
              if (point_visible (self, s, i))
                {
                  self->has_cursor = TRUE;
                  self->cursor_series = s;
                  self->cursor_index = i;
                  cursor_changed (self);
                  return TRUE;
                }
            }
        }
      return FALSE;
    }
  for (gint64 i = (gint64) self->cursor_index + dir;
       i >= 0 && i < ks_plot_series_get_n_points (self->plot, self->cursor_series); i += dir)
    if (point_visible (self, self->cursor_series, (guint) i))
      {
        self->cursor_index = (guint) i;
        cursor_changed (self);
        return TRUE;
      }
  gtk_widget_error_bell (GTK_WIDGET (self));
  return TRUE;
}

typedef struct {
  double distance;
  guint  index;
} Candidate;

static int
candidate_cmp (gconstpointer a,
               gconstpointer b)
{
  const Candidate *x = a, *y = b;
  return (x->distance > y->distance) - (x->distance < y->distance);
}

/* Up / Down: the next curve that has a visible point, at the point nearest
 * the cursor's x. */
static gboolean
cursor_switch (KsPlotView *self,
               int         dir)
{
  gint64 n_series = ks_plot_get_n_series (self->plot);
  double x0 = ks_plot_series_get_point (self->plot, self->cursor_series, self->cursor_index)->x;

  for (gint64 s = (gint64) self->cursor_series + dir; s >= 0 && s < n_series; s += dir)
    {
      guint n = ks_plot_series_get_n_points (self->plot, (guint) s);
      g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (Candidate), n);

      /* Nearest first, and only as many visibility checks (each lays the
       * plot out again, text and all) as it takes to find one in view:
       * usually one, where checking every point of a 900-point curve took
       * that many layouts per key press. */
      for (guint i = 0; i < n; i++)
        {
          Candidate c = { fabs (ks_plot_series_get_point (self->plot, (guint) s, i)->x - x0), i };
          g_array_append_val (order, c);
        }
      g_array_sort (order, candidate_cmp);
      for (guint k = 0; k < order->len; k++)
        {
          guint i = g_array_index (order, Candidate, k).index;

          if (point_visible (self, (guint) s, i))
            {
              self->cursor_series = (guint) s;
              self->cursor_index = i;
              cursor_changed (self);
              return TRUE;
            }
        }
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
  return TRUE;
}

static void
draw_cursor (KsPlotView        *self,
             cairo_t           *cr,
             const KsPlotTheme *theme)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  g_autofree char *markup = NULL;
  PangoLayout *layout;
  double px, py, bx, by;
  int lw, lh;
  const double pad = 6;

  if (!self->has_cursor || !gtk_widget_is_focus (widget) ||
      !point_position (self, self->cursor_series, self->cursor_index, &px, &py))
    return;
  cairo_set_source_rgba (cr, theme->foreground.r, theme->foreground.g, theme->foreground.b, 0.9);
  cairo_set_line_width (cr, 2);
  cairo_new_path (cr);   /* no line from wherever the renderer left off */
  cairo_arc (cr, px, py, 8, 0, 2 * G_PI);
  cairo_stroke (cr);

  markup = point_markup (self, self->cursor_series, self->cursor_index);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_markup (layout, markup, -1);
  pango_layout_set_width (layout, (int) (MIN (w * 0.6, 420)) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  pango_layout_get_pixel_size (layout, &lw, &lh);
  /* Above and to the right of the point, flipped where that leaves the view. */
  bx = px + 14;
  by = py - 14 - lh - 2 * pad;
  if (bx + lw + 2 * pad > w)
    bx = px - 14 - lw - 2 * pad;
  if (by < 0)
    by = py + 14;
  bx = CLAMP (bx, 0, MAX (0, w - lw - 2 * pad));
  by = CLAMP (by, 0, MAX (0, h - lh - 2 * pad));
  cairo_set_source_rgba (cr, theme->background.r, theme->background.g, theme->background.b, 0.95);
  cairo_rectangle (cr, bx, by, lw + 2 * pad, lh + 2 * pad);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, theme->foreground.r, theme->foreground.g, theme->foreground.b, 0.5);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, theme->foreground.r, theme->foreground.g, theme->foreground.b, 1);
  cairo_move_to (cr, bx + pad, by + pad);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

gboolean
ks_plot_view_get_cursor (KsPlotView *self,
                         guint      *series,
                         guint      *index)
{
  g_return_val_if_fail (KS_IS_PLOT_VIEW (self), FALSE);
  if (series)
    *series = self->cursor_series;
  if (index)
    *index = self->cursor_index;
  return self->has_cursor;
}

char *
ks_plot_view_get_cursor_text (KsPlotView *self)
{
  g_return_val_if_fail (KS_IS_PLOT_VIEW (self), NULL);
  return self->has_cursor ? point_markup (self, self->cursor_series, self->cursor_index) : NULL;
}

char *
ks_plot_view_tooltip_at (KsPlotView *self,
                         double      x,
                         double      y)
{
  double w = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  double h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  guint series, index;
  char *markup = NULL;

  if (self->plot == NULL)
    return NULL;
  if (!ks_plot_hit_test (self->plot, w, h, x, y, HIT_RADIUS, &series, &index))
    {
      /* Over the legend: the whole of an entry it cut short. */
      g_autofree char *entry = ks_plot_legend_text_at (self->plot, w, h, x, y);

      return entry != NULL ? g_markup_escape_text (entry, -1) : NULL;
    }
  markup = point_markup (self, series, index);
  return markup;
}

static gboolean
ks_plot_view_query_tooltip (GtkWidget  *widget,
                            int         x,
                            int         y,
                            gboolean    keyboard,
                            GtkTooltip *tooltip)
{
  g_autofree char *markup = NULL;

  if (keyboard)
    return FALSE;
  markup = ks_plot_view_tooltip_at (KS_PLOT_VIEW (widget), x, y);
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static gboolean
ks_plot_view_button_press (GtkWidget      *widget,
                           GdkEventButton *event)
{
  KsPlotView *self = KS_PLOT_VIEW (widget);

  gtk_widget_grab_focus (widget);
  if (!self->zoomable || self->plot == NULL || event->button != GDK_BUTTON_PRIMARY)
    return FALSE;
  if (event->type == GDK_2BUTTON_PRESS)
    {
      /* Double-click: everything again. */
      ks_plot_view_reset_zoom (self);
      return TRUE;
    }
  self->dragging = TRUE;
  self->drag_x0 = self->drag_x1 = event->x;
  return TRUE;
}

static gboolean
ks_plot_view_motion (GtkWidget      *widget,
                     GdkEventMotion *event)
{
  KsPlotView *self = KS_PLOT_VIEW (widget);

  if (!self->dragging)
    return FALSE;
  self->drag_x1 = event->x;
  gtk_widget_queue_draw (widget);
  return TRUE;
}

static gboolean
ks_plot_view_button_release (GtkWidget      *widget,
                             GdkEventButton *event)
{
  KsPlotView *self = KS_PLOT_VIEW (widget);
  double w = gtk_widget_get_allocated_width (widget);
  double h = gtk_widget_get_allocated_height (widget);
  double x0, x1, y;

  if (!self->dragging)
    return FALSE;
  self->dragging = FALSE;
  gtk_widget_queue_draw (widget);
  if (fabs (event->x - self->drag_x0) < MIN_DRAG)
    return TRUE;

  /* The ends may lie beyond the plot area; clamp them into it by probing
   * inwards, so a sloppy drag to the edge still zooms. */
  {
    double a = MIN (self->drag_x0, event->x), b = MAX (self->drag_x0, event->x);
    double py = h / 2;

    while (a < b && !ks_plot_device_to_data (self->plot, w, h, a, py, &x0, &y))
      a += 1;
    while (b > a && !ks_plot_device_to_data (self->plot, w, h, b, py, &x1, &y))
      b -= 1;
    if (b - a < MIN_DRAG)
      return TRUE;
  }
  ks_plot_view_zoom (self, x0, x1);
  return TRUE;
}

static gboolean
ks_plot_view_key_press (GtkWidget   *widget,
                        GdkEventKey *event)
{
  KsPlotView *self = KS_PLOT_VIEW (widget);

  /* Keyboard users zoom with + and - around the middle of the view. */
  if (self->zoomable && self->plot != NULL
      && (event->keyval == GDK_KEY_plus || event->keyval == GDK_KEY_KP_Add
          || event->keyval == GDK_KEY_equal || event->keyval == GDK_KEY_minus
          || event->keyval == GDK_KEY_KP_Subtract))
    {
      double w = gtk_widget_get_allocated_width (widget);
      double h = gtk_widget_get_allocated_height (widget);
      double a = 0, b = w, x0, x1, y, mid, half;
      gboolean in = event->keyval != GDK_KEY_minus && event->keyval != GDK_KEY_KP_Subtract;

      while (a < b && !ks_plot_device_to_data (self->plot, w, h, a, h / 2, &x0, &y))
        a += 1;
      while (b > a && !ks_plot_device_to_data (self->plot, w, h, b, h / 2, &x1, &y))
        b -= 1;
      if (b - a < MIN_DRAG)
        return TRUE;
      mid = (x0 + x1) / 2;
      half = (x1 - x0) / 2 * (in ? 0.5 : 2.0);
      ks_plot_view_zoom (self, mid - half, mid + half);
      return TRUE;
    }
  /* The arrows walk the points (Left / Right) and the curves (Up / Down). */
  switch (event->keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left:
      if (self->plot != NULL && (event->state & gtk_accelerator_get_default_mod_mask ()) == 0)
        return cursor_step (self, -1);
      break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right:
      if (self->plot != NULL && (event->state & gtk_accelerator_get_default_mod_mask ()) == 0)
        return cursor_step (self, +1);
      break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
      if (self->plot != NULL && self->has_cursor && (event->state & gtk_accelerator_get_default_mod_mask ()) == 0)
        return cursor_switch (self, event->keyval == GDK_KEY_Up || event->keyval == GDK_KEY_KP_Up ? +1 : -1);
      break;
    default:
      break;
    }
  /* Keyboard users reset the zoom with 0 or Home, as in image viewers. */
  if ((event->keyval == GDK_KEY_0 || event->keyval == GDK_KEY_Home) && ks_plot_view_get_zoomed (self))
    {
      ks_plot_view_reset_zoom (self);
      return TRUE;
    }
  return GTK_WIDGET_CLASS (ks_plot_view_parent_class)->key_press_event (widget, event);
}

static void
ks_plot_view_style_updated (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ks_plot_view_parent_class)->style_updated (widget);
  gtk_widget_queue_draw (widget);
}

static void
ks_plot_view_finalize (GObject *object)
{
  KsPlotView *self = KS_PLOT_VIEW (object);

  g_clear_pointer (&self->plot, ks_plot_unref);
  g_free (self->placeholder);
  G_OBJECT_CLASS (ks_plot_view_parent_class)->finalize (object);
}

static void
ks_plot_view_class_init (KsPlotViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = ks_plot_view_finalize;
  widget_class->draw = ks_plot_view_draw;
  widget_class->query_tooltip = ks_plot_view_query_tooltip;
  widget_class->button_press_event = ks_plot_view_button_press;
  widget_class->button_release_event = ks_plot_view_button_release;
  widget_class->motion_notify_event = ks_plot_view_motion;
  widget_class->key_press_event = ks_plot_view_key_press;
  widget_class->style_updated = ks_plot_view_style_updated;

  signals[ZOOM_CHANGED] = g_signal_new ("zoom-changed", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "plotview");
  gtk_widget_class_set_accessible_role (widget_class, ATK_ROLE_IMAGE);
}

static void
ks_plot_view_init (KsPlotView *self)
{
  self->zoom_x0 = self->zoom_x1 = NAN;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                         | GDK_BUTTON1_MOTION_MASK | GDK_KEY_PRESS_MASK);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 220);
}

void
ks_plot_view_set_plot (KsPlotView *self,
                       KsPlot     *plot)
{
  g_return_if_fail (KS_IS_PLOT_VIEW (self));

  if (plot != NULL)
    ks_plot_ref (plot);
  g_clear_pointer (&self->plot, ks_plot_unref);
  self->plot = plot;
  if (plot != NULL)
    ks_plot_set_x_range (plot, self->zoom_x0, self->zoom_x1);
  /* A live run redraws into a new plot at every point: the cursor stays
   * where it was while that point still exists. */
  if (self->has_cursor && (plot == NULL || self->cursor_series >= ks_plot_get_n_series (plot) ||
                           self->cursor_index >= ks_plot_series_get_n_points (plot, self->cursor_series)))
    self->has_cursor = FALSE;
  /* The accessible name says what the picture shows. */
  if (plot != NULL && ks_plot_get_title (plot) != NULL)
    atk_object_set_name (gtk_widget_get_accessible (GTK_WIDGET (self)), ks_plot_get_title (plot));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

KsPlot *
ks_plot_view_get_plot (KsPlotView *self)
{
  g_return_val_if_fail (KS_IS_PLOT_VIEW (self), NULL);
  return self->plot;
}

void
ks_plot_view_set_tooltip_func (KsPlotView        *self,
                               KsPlotTooltipFunc  func,
                               gpointer           user_data)
{
  self->tooltip_func = func;
  self->tooltip_data = user_data;
}

void
ks_plot_view_set_placeholder (KsPlotView *self,
                              const char *text)
{
  g_free (self->placeholder);
  self->placeholder = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ks_plot_view_set_zoomable (KsPlotView *self,
                           gboolean    zoomable)
{
  self->zoomable = zoomable;
}

gboolean
ks_plot_view_get_zoomed (KsPlotView *self)
{
  return !isnan (self->zoom_x0);
}

void
ks_plot_view_zoom (KsPlotView *self,
                   double      x0,
                   double      x1)
{
  self->zoom_x0 = MIN (x0, x1);
  self->zoom_x1 = MAX (x0, x1);
  if (self->plot != NULL)
    ks_plot_set_x_range (self->plot, self->zoom_x0, self->zoom_x1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[ZOOM_CHANGED], 0);
}

void
ks_plot_view_reset_zoom (KsPlotView *self)
{
  ks_plot_view_zoom (self, NAN, NAN);
}

gboolean
ks_plot_view_has_data (KsPlotView *self)
{
  /* A block diagram or a mesh has no series points and is data all the same
   * (the index-map page's and the heat page's Export Plot). */
  return self->plot != NULL && ks_plot_has_data (self->plot);
}

static void
export_size (KsPlotView *self,
             double     *w,
             double     *h)
{
  *w = MAX (800, gtk_widget_get_allocated_width (GTK_WIDGET (self)));
  *h = MAX (500, gtk_widget_get_allocated_height (GTK_WIDGET (self)));
}

gboolean
ks_plot_view_export (KsPlotView *self,
                     const char *path,
                     GError    **error)
{
  double w, h;

  g_return_val_if_fail (KS_IS_PLOT_VIEW (self), FALSE);

  if (!ks_plot_view_has_data (self))
    {
      g_set_error (error, KS_PLOT_ERROR, KS_PLOT_ERROR_EMPTY,
                   _("There is nothing to export yet: run the experiment first."));
      return FALSE;
    }
  export_size (self, &w, &h);
  return ks_plot_export (self->plot, path, w, h, NULL, error);
}

GdkPixbuf *
ks_plot_view_render_pixbuf (KsPlotView *self)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  GdkPixbuf *pixbuf;
  double w, h;

  if (!ks_plot_view_has_data (self))
    return NULL;
  export_size (self, &w, &h);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) w, (int) h);
  cr = cairo_create (surface);
  ks_plot_render (self->plot, cr, w, h, NULL);
  cairo_destroy (cr);
  pixbuf = gdk_pixbuf_get_from_surface (surface, 0, 0, (int) w, (int) h);
  cairo_surface_destroy (surface);
  return pixbuf;
}
