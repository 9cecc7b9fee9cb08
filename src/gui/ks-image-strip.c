/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-image-strip.c: the pictures of a run's last point beside its plot. */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-image-strip.h"
#include "ks-image.h"

#include <glib/gi18n.h>

struct _KsImageStrip
{
  GtkBox     parent_instance;
  GtkWidget *caption, *placeholder;
  GPtrArray *images;     /* of KsImage, or NULL */
  GPtrArray *widgets;    /* the label and area of each picture, to remove them again */
};

G_DEFINE_FINAL_TYPE (KsImageStrip, ks_image_strip, GTK_TYPE_BOX)

/* The picture fitted into the area, proportions kept, centred; pixels are
 * kept sharp when the picture is enlarged (a test's 48 x 20 image), smoothed
 * when it is reduced. */
static gboolean
draw_picture (GtkWidget *area,
              cairo_t   *cr,
              gpointer   user_data)
{
  cairo_surface_t *surface = g_object_get_data (G_OBJECT (area), "ks-surface");
  const double w = gtk_widget_get_allocated_width (area), h = gtk_widget_get_allocated_height (area);
  double sw, sh, scale;

  if (surface == NULL || cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    return FALSE;
  sw = cairo_image_surface_get_width (surface);
  sh = cairo_image_surface_get_height (surface);
  scale = MIN (w / sw, h / sh);
  cairo_translate (cr, (w - sw * scale) / 2, (h - sh * scale) / 2);
  cairo_scale (cr, scale, scale);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), scale >= 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  return FALSE;
}

static void
add_picture (KsImageStrip  *self,
             const KsImage *image)
{
  GtkWidget *label = gtk_label_new (image->label);
  GtkWidget *area = gtk_drawing_area_new ();
  g_autofree char *tip = NULL;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_size_request (area, 160, 90);
  gtk_widget_set_vexpand (area, TRUE);
  g_object_set_data_full (G_OBJECT (area), "ks-surface", ks_image_to_surface (image),
                          (GDestroyNotify) cairo_surface_destroy);
  g_signal_connect (area, "draw", G_CALLBACK (draw_picture), NULL);
  /* TRANSLATORS: a picture's tooltip: its label, then its size in pixels */
  tip = g_strdup_printf (_("%s: %u x %u pixels"), image->label, image->full_width, image->full_height);
  gtk_widget_set_tooltip_text (area, tip);
  gtk_container_add (GTK_CONTAINER (self), label);
  gtk_container_add (GTK_CONTAINER (self), area);
  gtk_widget_show (label);
  gtk_widget_show (area);
  g_ptr_array_add (self->widgets, label);
  g_ptr_array_add (self->widgets, area);
}

void
ks_image_strip_set_images (KsImageStrip *self,
                           GPtrArray    *images,
                           const char   *caption)
{
  g_return_if_fail (KS_IS_IMAGE_STRIP (self));

  for (guint i = 0; i < self->widgets->len; i++)
    gtk_widget_destroy (self->widgets->pdata[i]);
  g_ptr_array_set_size (self->widgets, 0);
  g_clear_pointer (&self->images, g_ptr_array_unref);
  if (images)
    self->images = g_ptr_array_ref (images);
  gtk_label_set_text (GTK_LABEL (self->caption), caption ? caption : "");
  gtk_widget_set_visible (self->caption, caption != NULL && images != NULL);
  gtk_widget_set_visible (self->placeholder, images == NULL || images->len == 0);
  for (guint i = 0; images && i < images->len; i++)
    add_picture (self, images->pdata[i]);
}

guint
ks_image_strip_get_n_images (KsImageStrip *self)
{
  g_return_val_if_fail (KS_IS_IMAGE_STRIP (self), 0);

  return self->images ? self->images->len : 0;
}

static void
ks_image_strip_finalize (GObject *object)
{
  KsImageStrip *self = KS_IMAGE_STRIP (object);

  g_clear_pointer (&self->images, g_ptr_array_unref);
  g_ptr_array_unref (self->widgets);
  G_OBJECT_CLASS (ks_image_strip_parent_class)->finalize (object);
}

static void
ks_image_strip_class_init (KsImageStripClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ks_image_strip_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "ks-image-strip");
}

static void
ks_image_strip_init (KsImageStrip *self)
{
  /* Not owning references: the box holds them, and they are destroyed
   * when replaced or with the box. */
  self->widgets = g_ptr_array_new ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  g_object_set (self, "margin", 6, NULL);
  /* As narrow as one picture (160): beside the plot and the form it must
   * leave the window room to fit a 1024-pixel projector in Russian too. */
  gtk_widget_set_size_request (GTK_WIDGET (self), 160, -1);
  self->caption = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->caption), 0);
  gtk_label_set_line_wrap (GTK_LABEL (self->caption), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->caption), "dim-label");
  self->placeholder = gtk_label_new (_("The pictures of the last point measured appear here"));
  gtk_label_set_line_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->placeholder), 24);
  gtk_widget_set_vexpand (self->placeholder, TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->placeholder), "dim-label");
  gtk_container_add (GTK_CONTAINER (self), self->caption);
  gtk_container_add (GTK_CONTAINER (self), self->placeholder);
  gtk_widget_show (self->placeholder);
}
