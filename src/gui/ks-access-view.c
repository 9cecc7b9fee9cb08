/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-access-view.c: "Inside the kernel" (ks-access-view.h): the access
 * model of the variant the form names, one step drawn at a time through
 * the picture the CLI's "access --plot" draws (ks-access-plot.h). */
#define G_LOG_DOMAIN "ks-gui-access"

#include "ks-access-view.h"
#include "ks-access-plot.h"
#include "ks-page.h"
#include "ks-plot-view.h"

#include <glib/gi18n.h>
#include <math.h>

/* A step every PLAY_MS while playing: slow enough to read the count. */
#define PLAY_MS 600
/* The most accesses modelled on the main thread: about 100 MB and a
 * second.  A Thomas system of 65,535 rows would be 40 million. */
#define MOST_ACCESSES (G_GUINT64_CONSTANT (4) << 20)

struct _KsAccessView
{
  GtkBox     parent_instance;
  GtkWidget *variant_combo, *play_button, *play_image, *step_scale, *position_label;
  GtkWidget *count_label, *time_label, *plot_view;
  GtkAdjustment *step_adj;

  const KsExperimentDesc *desc;
  GHashTable    *values;      /* the form's, or NULL: the defaults */
  KsRun         *run;         /* the page's newest, or NULL */
  guint          warp, line;
  GPtrArray     *wheres;      /* per variant of the hook: the run's points it stands for */
  guint          variant;
  KsAccessPoint  point;
  KsAccessModel  model;
  gboolean       modelled;    /* model holds the variant's; else why says why not */
  char          *why;
  guint          play_id;
  gboolean       filling;     /* the combo being refilled: its "changed" is not the user's */
  gboolean       stale;       /* the form changed while hidden: rebuild when shown */
};

G_DEFINE_FINAL_TYPE (KsAccessView, ks_access_view, GTK_TYPE_BOX)

static gboolean
walks_warps (KsAccessView *self)
{
  return self->modelled && self->model.steps <= 1;
}

static guint
n_positions (KsAccessView *self)
{
  if (!self->modelled)
    return 1;
  if (walks_warps (self))
    return (guint) MAX ((self->model.local[0] + self->warp - 1) / self->warp, 1);
  return MAX (self->model.steps, 1);
}

char *
ks_access_view_format_count (guint    position,
                             gboolean warps,
                             guint    lines,
                             double   ideal,
                             guint    line)
{
  g_autofree char *where = warps
    /* TRANSLATORS: the kernel has no loop: the slider walks the group's warps */
    ? g_strdup_printf (_("Warp %u"), position)
    /* TRANSLATORS: the step is an iteration of the kernel's loop, shown for the group's first warp */
    : g_strdup_printf (_("Warp 0, step %u"), position);

  if (lines == 0)
    return g_strdup_printf (_("%s: no access (every item of the warp is idle here)"), where);
  /* TRANSLATORS: %s is "Warp 0, step 3"; then the cache lines one warp's
   * accesses touch, their size in bytes, and the least lines the bytes it
   * uses could take */
  return g_strdup_printf (_("%s: %u cache lines (transactions) of %u bytes; ideal %.3g, %.1f× that"), where,
                          lines, line, ideal, ideal > 0 ? lines / ideal : 0.0);
}

/* --- the measured time ------------------------------------------------------- */

static void
update_time (KsAccessView *self)
{
  const int col = ks_experiment_desc_find_column (self->desc, "time_ms");
  const char *where = self->variant < self->wheres->len ? self->wheres->pdata[self->variant] : NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; self->run && where && col >= 0 && i < self->run->points->len && !text; i++)
    {
      const KsRunPoint *p = self->run->points->pdata[i];
      const KsRunDevice *d;

      if (p->error != NULL || isnan (p->values[col]) || !ks_run_point_matches (self->run, p, where))
        continue;
      d = p->device < self->run->devices->len ? self->run->devices->pdata[p->device] : NULL;
      /* TRANSLATORS: the page's measured time of the point the picture shows, then the device */
      text = g_strdup_printf (_("Measured at this point: %.3g ms on %s"), p->values[col], d ? d->name : "?");
    }
  if (text == NULL)
    text = g_strdup (_("Not measured yet: Run measures this point's time, which the count explains"));
  gtk_label_set_text (GTK_LABEL (self->time_label), text);
}

/* --- one step ------------------------------------------------------------------ */

static void
show_position (KsAccessView *self)
{
  const guint pos = (guint) gtk_adjustment_get_value (self->step_adj);
  const guint step = walks_warps (self) ? 0 : pos, w = walks_warps (self) ? pos : 0;
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *count = NULL, *place = NULL;
  double ideal = 0;
  guint lines;

  if (!self->modelled)
    {
      gtk_label_set_text (GTK_LABEL (self->count_label), self->why ? self->why : "");
      gtk_label_set_text (GTK_LABEL (self->position_label), "");
      ks_plot_view_set_plot (KS_PLOT_VIEW (self->plot_view), NULL);
      return;
    }
  lines = ks_access_step_lines (&self->model, self->warp, w, step, self->line, &ideal);
  count = ks_access_view_format_count (pos, walks_warps (self), lines, ideal, self->line);
  gtk_label_set_text (GTK_LABEL (self->count_label), count);
  /* Counted from 0 as the count's line and the CLI's --step are: "3 / 509",
   * step 3 of 509. */
  place = g_strdup_printf ("%u / %u", pos, n_positions (self));
  gtk_label_set_text (GTK_LABEL (self->position_label), place);
  if (!ks_access_plot_step (plot, &self->model, &self->point, self->warp, w, step, self->line, &error))
    {
      gtk_label_set_text (GTK_LABEL (self->count_label), error->message);
      ks_plot_view_set_plot (KS_PLOT_VIEW (self->plot_view), NULL);
      return;
    }
  ks_plot_view_set_plot (KS_PLOT_VIEW (self->plot_view), plot);
}

static void
step_changed_cb (KsAccessView *self)
{
  show_position (self);
}

/* The accesses point's model holds, from above (the loops of
 * ks-access-kernels.c: a direct item walks its row, half a byte an output
 * of 9 taps and a store; a Thomas item its system down, 6 accesses a row,
 * and up, 3); the others make a few per item of one group (of up to
 * 1024: the index mapping's block is the rule's). */
static guint64
estimate_accesses (const KsAccessPoint *p)
{
  const guint64 items = MAX (p->group, 1);

  switch (p->kernel)
    {
    case KS_ACCESS_MICRO_DIRECT:
      return items * (p->len / 2 + 1) * 12;
    case KS_ACCESS_THOMAS_NATURAL:
    case KS_ACCESS_THOMAS_INTERLEAVED:
      return items * ((guint64) p->n + 1) * 9;
    default:
      return 1024 * 16;
    }
}

/* The variant's model at the form's values, the slider from its start. */
static void
rebuild_model (KsAccessView *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *label = NULL, *where = NULL, *tip = NULL;

  /* Collapsed on its page, the view is hidden: a model of every change
   * of the form would be work nobody sees (up to 4 M accesses). */
  self->stale = !gtk_widget_get_visible (GTK_WIDGET (self));
  if (self->stale)
    return;
  ks_access_model_clear (&self->model);
  g_clear_pointer (&self->why, g_free);
  self->modelled = FALSE;
  if (!self->desc->access (self->values, self->variant, &self->point, &label, &where))
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("the page has no such variant"));
  /* An index domain the form's sides cannot make (ks-exp-index.c's hook
   * leaves it empty, which the model must not be given). */
  else if (self->point.kernel == KS_ACCESS_INDEX_MAPPED && self->point.domain.dims == 0)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                         _("the form's sizes make no launch of this variant"));
  else if (estimate_accesses (&self->point) > MOST_ACCESSES)
    g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                         _("a warp's steps at these sizes are too many to draw here; make the system or the "
                           "row shorter, or use kernelscope-cli access"));
  else
    self->modelled = ks_access_model_build (&self->point, &self->model, &error);
  /* The combo may show it cut short: its tooltip names it whole. */
  tip = g_strdup_printf ("%s\n%s", label ? label : "",
                         _("Which variant of the kernel is drawn: it follows the form, and may be picked here"));
  gtk_widget_set_tooltip_text (self->variant_combo, tip);
  if (!self->modelled)
    self->why = g_strdup_printf (_("This variant cannot be drawn at the form's values: %s"),
                                 error ? error->message : "?");
  /* Nothing left to step through: no play to leave running. */
  if (n_positions (self) <= 1)
    ks_access_view_set_playing (self, FALSE);
  gtk_adjustment_configure (self->step_adj, 0, 0, n_positions (self), 1, 10, 1);
  gtk_widget_set_sensitive (self->step_scale, n_positions (self) > 1);
  gtk_widget_set_sensitive (self->play_button, n_positions (self) > 1);
  gtk_widget_set_tooltip_text (self->step_scale, walks_warps (self)
                               ? _("The kernel has no loop: each place is another warp of the first group")
                               : _("The iteration of the kernel's loop, for the first warp of the first group"));
  show_position (self);
  update_time (self);
}

/* --- the variants ------------------------------------------------------------- */

/* The hook's variants at the form's values, into the combo; the one shown
 * kept where it still matches the form, else the first that does. */
static void
fill_variants (KsAccessView *self)
{
  GtkComboBoxText *combo = GTK_COMBO_BOX_TEXT (self->variant_combo);
  gboolean keep = FALSE;
  int first = -1;

  self->filling = TRUE;
  gtk_combo_box_text_remove_all (combo);
  g_ptr_array_set_size (self->wheres, 0);
  for (guint v = 0;; v++)
    {
      KsAccessPoint point;
      g_autofree char *label = NULL;
      char *where = NULL;

      if (!self->desc->access (self->values, v, &point, &label, &where))
        break;
      gtk_combo_box_text_append_text (combo, label);
      g_ptr_array_add (self->wheres, where);
      if (ks_experiment_desc_values_match (self->desc, self->values, where))
        {
          keep |= v == self->variant;
          first = first < 0 ? (int) v : first;
        }
    }
  if (!keep)
    self->variant = first >= 0 ? (guint) first : MIN (self->variant, MAX (self->wheres->len, 1) - 1);
  gtk_combo_box_set_active (GTK_COMBO_BOX (combo), (int) self->variant);
  self->filling = FALSE;
  rebuild_model (self);
}

static void
variant_changed_cb (KsAccessView *self)
{
  int active = gtk_combo_box_get_active (GTK_COMBO_BOX (self->variant_combo));

  if (self->filling || active < 0 || (guint) active == self->variant)
    return;
  self->variant = (guint) active;
  rebuild_model (self);
}

/* --- playing ------------------------------------------------------------------ */

static gboolean
play_tick (gpointer data)
{
  KsAccessView *self = data;
  const guint pos = (guint) gtk_adjustment_get_value (self->step_adj);

  /* Round again from the first step: a class watches it loop. */
  gtk_adjustment_set_value (self->step_adj, pos + 1 < n_positions (self) ? pos + 1 : 0);
  return G_SOURCE_CONTINUE;
}

static void
play_toggled_cb (KsAccessView *self)
{
  const gboolean on = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->play_button));

  g_clear_handle_id (&self->play_id, g_source_remove);
  if (on)
    self->play_id = g_timeout_add (PLAY_MS, play_tick, self);
  gtk_image_set_from_icon_name (GTK_IMAGE (self->play_image),
                                on ? "media-playback-pause-symbolic" : "media-playback-start-symbolic",
                                GTK_ICON_SIZE_BUTTON);
  gtk_widget_set_tooltip_text (self->play_button, on ? _("Pause") : _("Play: step through the kernel"));
}

gboolean
ks_access_view_get_playing (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), FALSE);
  return self->play_id != 0;
}

void
ks_access_view_set_playing (KsAccessView *self,
                            gboolean      playing)
{
  g_return_if_fail (KS_IS_ACCESS_VIEW (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->play_button), playing);
}

/* --- the page's side ---------------------------------------------------------- */

void
ks_access_view_set_values (KsAccessView *self,
                           GHashTable   *values)
{
  g_return_if_fail (KS_IS_ACCESS_VIEW (self));

  g_clear_pointer (&self->values, g_hash_table_unref);
  self->values = values ? g_hash_table_ref (values) : NULL;
  fill_variants (self);
}

void
ks_access_view_set_device (KsAccessView *self,
                           KsDevice     *device)
{
  const KsDeviceInfo *info = device ? ks_device_get_info (device) : NULL;
  guint warp = info && info->warp_size > 0 ? info->warp_size : 32;
  /* The model counts lines of 32, 64 or 128 bytes, as the CLI's --line. */
  guint line = info && (info->cache_line == 32 || info->cache_line == 64) ? info->cache_line : 128;

  g_return_if_fail (KS_IS_ACCESS_VIEW (self));
  if (warp == self->warp && line == self->line)
    return;
  self->warp = warp;
  self->line = line;
  rebuild_model (self);
}

void
ks_access_view_set_run (KsAccessView *self,
                        KsRun        *run)
{
  g_return_if_fail (KS_IS_ACCESS_VIEW (self));

  if (run)
    ks_run_ref (run);
  g_clear_pointer (&self->run, ks_run_unref);
  self->run = run;
  update_time (self);
}

const KsAccessPoint *
ks_access_view_get_point (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), NULL);
  return self->modelled ? &self->point : NULL;
}

guint
ks_access_view_get_warp (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), 0);
  return self->warp;
}

guint
ks_access_view_get_line (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), 0);
  return self->line;
}

guint
ks_access_view_get_position (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), 0);
  return (guint) gtk_adjustment_get_value (self->step_adj);
}

guint
ks_access_view_get_n_positions (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), 0);
  return n_positions (self);
}

gboolean
ks_access_view_walks_warps (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), FALSE);
  return walks_warps (self);
}

void
ks_access_view_set_position (KsAccessView *self,
                             guint         position)
{
  g_return_if_fail (KS_IS_ACCESS_VIEW (self));
  gtk_adjustment_set_value (self->step_adj, position);
}

guint
ks_access_view_get_variant (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), 0);
  return self->variant;
}

void
ks_access_view_set_variant (KsAccessView *self,
                            guint         variant)
{
  g_return_if_fail (KS_IS_ACCESS_VIEW (self));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->variant_combo), (int) variant);
}

const char *
ks_access_view_get_count_text (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->count_label));
}

const char *
ks_access_view_get_time_text (KsAccessView *self)
{
  g_return_val_if_fail (KS_IS_ACCESS_VIEW (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->time_label));
}

/* --- the widget ---------------------------------------------------------------- */

static void
visible_changed_cb (KsAccessView *self,
                    GParamSpec   *pspec,
                    gpointer      data)
{
  if (self->stale && gtk_widget_get_visible (GTK_WIDGET (self)))
    rebuild_model (self);
}

/* Playing only while it can be seen: the timeout holds no reference, so
 * it must end before the view does. */
static void
ks_access_view_unmap (GtkWidget *widget)
{
  ks_access_view_set_playing (KS_ACCESS_VIEW (widget), FALSE);
  GTK_WIDGET_CLASS (ks_access_view_parent_class)->unmap (widget);
}

static void
ks_access_view_dispose (GObject *object)
{
  KsAccessView *self = KS_ACCESS_VIEW (object);

  g_clear_handle_id (&self->play_id, g_source_remove);
  g_clear_pointer (&self->values, g_hash_table_unref);
  g_clear_pointer (&self->run, ks_run_unref);
  G_OBJECT_CLASS (ks_access_view_parent_class)->dispose (object);
}

static void
ks_access_view_finalize (GObject *object)
{
  KsAccessView *self = KS_ACCESS_VIEW (object);

  ks_access_model_clear (&self->model);
  g_free (self->why);
  g_ptr_array_unref (self->wheres);
  G_OBJECT_CLASS (ks_access_view_parent_class)->finalize (object);
}

static void
ks_access_view_class_init (KsAccessViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ks_access_view_dispose;
  object_class->finalize = ks_access_view_finalize;
  widget_class->unmap = ks_access_view_unmap;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/kernelscope/Kernelscope/ui/ks-access-view.ui");
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, variant_combo);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, play_button);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, play_image);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, step_scale);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, step_adj);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, position_label);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, count_label);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, time_label);
  gtk_widget_class_bind_template_child (widget_class, KsAccessView, plot_view);
  gtk_widget_class_bind_template_callback (widget_class, variant_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, play_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, step_changed_cb);
}

static void
ks_access_view_init (KsAccessView *self)
{
  g_type_ensure (KS_TYPE_PLOT_VIEW);
  gtk_widget_init_template (GTK_WIDGET (self));
  /* A long variant ("PARACR, уровень 3, чередующееся размещение") must
   * leave the slider its room in a 1024-pixel window. */
  ks_page_ellipsize_combo (GTK_COMBO_BOX (self->variant_combo));
  self->wheres = g_ptr_array_new_with_free_func (g_free);
  self->warp = 32;
  self->line = 128;
  g_signal_connect (self, "notify::visible", G_CALLBACK (visible_changed_cb), NULL);
}

GtkWidget *
ks_access_view_new (const KsExperimentDesc *desc)
{
  KsAccessView *self;

  g_return_val_if_fail (desc != NULL && desc->access != NULL, NULL);
  self = g_object_new (KS_TYPE_ACCESS_VIEW, NULL);
  self->desc = desc;
  fill_variants (self);
  return GTK_WIDGET (self);
}
