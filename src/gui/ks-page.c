/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-page.h"

#include <glib/gi18n.h>

typedef struct {
  GSettings    *settings;
  GApplication *held_app;   /* held from start to the end of the run */
  gboolean      running;
  gboolean      controls_visible;
  gboolean      disposed;   /* its widgets are gone: a job's outcome is not shown */
} KsPagePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (KsPage, ks_page, GTK_TYPE_BOX)

enum { PROGRESS, FINISHED, ERROR, CONTENTS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

enum { PROP_0, PROP_RUNNING, PROP_CONTROLS_VISIBLE, N_PROPS };
static GParamSpec *props[N_PROPS];

static void
ks_page_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, ks_page_get_running (KS_PAGE (object)));
      break;
    case PROP_CONTROLS_VISIBLE:
      g_value_set_boolean (value, ks_page_get_controls_visible (KS_PAGE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_page_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_CONTROLS_VISIBLE:
      ks_page_set_controls_visible (KS_PAGE (object), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_page_dispose (GObject *object)
{
  KsPagePrivate *priv = ks_page_get_instance_private (KS_PAGE (object));

  /* A run in flight keeps its hold on the application: the task ends it
   * (ks_page_end_run) once the worker is off the device. */
  g_clear_object (&priv->settings);
  priv->disposed = TRUE;
  G_OBJECT_CLASS (ks_page_parent_class)->dispose (object);
}

static void
ks_page_finalize (GObject *object)
{
  KsPagePrivate *priv = ks_page_get_instance_private (KS_PAGE (object));

  /* Only the run's task keeps a page alive past its window, so a page that
   * is finalized has no run left: never let a hold outlive it. */
  if (priv->held_app != NULL)
    {
      g_application_release (priv->held_app);
      g_clear_object (&priv->held_app);
    }
  G_OBJECT_CLASS (ks_page_parent_class)->finalize (object);
}

/* --- the mouse wheel over a form ---------------------------------------------------- */

/* Whether the keyboard focus is on widget or inside it (a combo's focus
 * sits on its button or its entry). */
static gboolean
has_focus_within (GtkWidget *widget)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (widget);
  GtkWidget *focus = GTK_IS_WINDOW (toplevel) ? gtk_window_get_focus (GTK_WINDOW (toplevel)) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* Ahead of the spin button's or combo's own handler: unfocused, it keeps
 * its value and the event goes on to its parents, the scrolled form.  A
 * user scrolling down a form past Repetitions changed it from 3 to 1
 * without a sign. */
static gboolean
wheel_scroll_cb (GtkWidget *widget,
                 GdkEvent  *event,
                 gpointer   user_data)
{
  if (has_focus_within (widget))
    return FALSE;
  g_signal_stop_emission_by_name (widget, "scroll-event");
  return FALSE;
}

static void
guard_wheel_cb (GtkWidget *widget,
                gpointer   data)
{
  if ((GTK_IS_SPIN_BUTTON (widget) || GTK_IS_COMBO_BOX (widget))
      && g_object_get_data (G_OBJECT (widget), "ks-wheel-guard") == NULL)
    {
      g_object_set_data (G_OBJECT (widget), "ks-wheel-guard", GINT_TO_POINTER (1));
      g_signal_connect (widget, "scroll-event", G_CALLBACK (wheel_scroll_cb), NULL);
    }
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), guard_wheel_cb, data);
}

void
ks_page_guard_wheel (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  guard_wheel_cb (widget, NULL);
}

/* Each time the page is shown: its forms are built by then, and a field
 * added since is guarded too. */
static void
ks_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (ks_page_parent_class)->map (widget);
  ks_page_guard_wheel (widget);
}

static void
ks_page_class_init (KsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GTK_WIDGET_CLASS (klass)->map = ks_page_map;

  object_class->get_property = ks_page_get_property;
  object_class->set_property = ks_page_set_property;
  object_class->dispose = ks_page_dispose;
  object_class->finalize = ks_page_finalize;

  props[PROP_RUNNING] = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* FALSE while the window presents (F9): a page with a plot hides its form
   * so the plot can take the whole width of a projector. */
  props[PROP_CONTROLS_VISIBLE] = g_param_spec_boolean ("controls-visible", NULL, NULL, TRUE,
                                                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                       G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  /* done, total, fraction of the expected work */
  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                    G_TYPE_UINT, G_TYPE_UINT, G_TYPE_DOUBLE);
  /* The error, or NULL on success. */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                    G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* A title and the error. */
  signals[ERROR] = g_signal_new ("error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                 G_TYPE_STRING, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
  /* The plot or the results changed: Export and Copy follow. */
  signals[CONTENTS_CHANGED] = g_signal_new ("contents-changed", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
}

static void
ks_page_init (KsPage *self)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);

  priv->controls_visible = TRUE;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
}

gboolean
ks_page_get_controls_visible (KsPage *self)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  return priv->controls_visible;
}

void
ks_page_set_controls_visible (KsPage   *self,
                              gboolean  visible)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);

  visible = !!visible;
  if (priv->controls_visible == visible)
    return;
  priv->controls_visible = visible;
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_CONTROLS_VISIBLE]);
}

gboolean
ks_page_start (KsPage        *self,
               KsDevice      *device,
               GCancellable  *cancellable,
               GError       **error)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);

  GtkWidget *toplevel;
  GApplication *app = NULL;

  g_return_val_if_fail (KS_IS_PAGE (self), FALSE);
  g_return_val_if_fail (!priv->running, FALSE);
  if (klass->start == NULL)
    return FALSE;
  ks_page_commit_edits (self);
  if (!klass->start (self, device, cancellable, error))
    return FALSE;
  priv->running = TRUE;
  /* The process must outlive a window closed mid-run until the worker has
   * left the device; the hold ends with the run's task, window or not. */
  toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  if (GTK_IS_WINDOW (toplevel) && gtk_window_get_application (GTK_WINDOW (toplevel)) != NULL)
    app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (toplevel)));
  else
    app = g_application_get_default ();
  if (app != NULL)
    {
      priv->held_app = g_object_ref (app);
      g_application_hold (app);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNNING]);
  return TRUE;
}

/* --- a run as one job on a worker ------------------------------------------ */

typedef struct {
  gpointer       job;
  GDestroyNotify job_free;
  KsPageWorkFunc work;
  KsPageDoneFunc done;
} PageJob;

static void
page_job_free (gpointer data)
{
  PageJob *pj = data;

  if (pj->job_free != NULL)
    pj->job_free (pj->job);
  g_free (pj);
}

static void
page_job_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  PageJob *pj = task_data;
  GError *error = NULL;

  if (pj->work (pj->job, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
page_job_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  KsPage *self = KS_PAGE (source);
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  PageJob *pj = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* The window closed mid-run: GTK has cleared the template children
   * and nothing is left to show the outcome in. */
  if (priv->disposed)
    {
      ks_page_end_run (self);
      return;
    }
  g_task_propagate_boolean (G_TASK (result), &error);
  pj->done (self, pj->job, error);
  ks_page_emit_finished (self, error);
}

void
ks_page_run_job (KsPage         *self,
                 gpointer        job,
                 GDestroyNotify  job_free,
                 KsPageWorkFunc  work,
                 KsPageDoneFunc  done,
                 GCancellable   *cancellable)
{
  g_autoptr(GTask) task = NULL;
  PageJob *pj;

  g_return_if_fail (KS_IS_PAGE (self));
  g_return_if_fail (work != NULL && done != NULL);

  pj = g_new0 (PageJob, 1);
  *pj = (PageJob) { job, job_free, work, done };
  task = g_task_new (self, cancellable, page_job_done, NULL);
  g_task_set_task_data (task, pj, page_job_free);
  g_task_run_in_thread (task, page_job_thread);
}

void
ks_page_end_run (KsPage *self)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  g_autoptr(GApplication) app = g_steal_pointer (&priv->held_app);

  g_return_if_fail (KS_IS_PAGE (self));
  if (app != NULL)
    g_application_release (app);
  if (priv->running)
    {
      priv->running = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), props[PROP_RUNNING]);
    }
}

static void
commit_spin (GtkWidget *widget,
             gpointer   data)
{
  if (GTK_IS_SPIN_BUTTON (widget))
    gtk_spin_button_update (GTK_SPIN_BUTTON (widget));
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), commit_spin, data);
}

void
ks_page_commit_edits (KsPage *self)
{
  g_return_if_fail (KS_IS_PAGE (self));
  gtk_container_forall (GTK_CONTAINER (self), commit_spin, NULL);
}

void
ks_page_emit_contents_changed (KsPage *self)
{
  g_signal_emit (self, signals[CONTENTS_CHANGED], 0);
}

gboolean
ks_page_can_run (KsPage *self)
{
  return KS_PAGE_GET_CLASS (self)->start != NULL;
}

gboolean
ks_page_get_running (KsPage *self)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  return priv->running;
}

KsPlotView *
ks_page_get_plot_view (KsPage *self)
{
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);
  return klass->get_plot_view ? klass->get_plot_view (self) : NULL;
}

gboolean
ks_page_has_data (KsPage *self)
{
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);

  g_return_val_if_fail (KS_IS_PAGE (self), FALSE);
  return klass->has_data != NULL && klass->has_data (self);
}

gboolean
ks_page_write_data (KsPage      *self,
                    const char  *path,
                    const char  *format,
                    GError     **error)
{
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);

  g_return_val_if_fail (KS_IS_PAGE (self), FALSE);
  g_return_val_if_fail (path != NULL && format != NULL, FALSE);

  if (klass->write_data != NULL)
    return klass->write_data (self, path, format, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("There are no results on this page yet: run the experiment first."));
  return FALSE;
}

gboolean
ks_page_save_state (KsPage        *self,
                    KsSessionPage *state,
                    GError       **error)
{
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);

  g_return_val_if_fail (KS_IS_PAGE (self), FALSE);
  g_return_val_if_fail (state != NULL, FALSE);

  ks_page_commit_edits (self);
  return klass->save_state ? klass->save_state (self, state, error) : TRUE;
}

void
ks_page_load_state (KsPage              *self,
                    const KsSessionPage *state)
{
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);

  g_return_if_fail (KS_IS_PAGE (self));
  g_return_if_fail (state != NULL);

  if (klass->load_state)
    klass->load_state (self, state);
}

void
ks_page_device_changed (KsPage   *self,
                        KsDevice *device)
{
  KsPageClass *klass = KS_PAGE_GET_CLASS (self);
  if (klass->device_changed)
    klass->device_changed (self, device);
}

GSettings *
ks_page_get_settings (KsPage *self)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  return priv->settings;
}

void
ks_page_set_settings (KsPage    *self,
                      GSettings *settings)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);
  g_set_object (&priv->settings, settings);
  if (settings != NULL && KS_PAGE_GET_CLASS (self)->bind_settings != NULL)
    KS_PAGE_GET_CLASS (self)->bind_settings (self);
}

void
ks_page_emit_error (KsPage       *self,
                    const char   *title,
                    const GError *error)
{
  g_signal_emit (self, signals[ERROR], 0, title, error);
}

void
ks_page_emit_progress (KsPage *self,
                       guint   done,
                       guint   total,
                       double  work)
{
  g_signal_emit (self, signals[PROGRESS], 0, done, total, work);
}

void
ks_page_emit_finished (KsPage       *self,
                       const GError *error)
{
  ks_page_end_run (self);
  g_signal_emit (self, signals[FINISHED], 0, error);
}

GtkWidget *
ks_page_new_run_row (const char *label,
                     gboolean    visible,
                     gboolean    removable,
                     GCallback   toggled,
                     GCallback   removed,
                     gpointer    run,
                     gpointer    user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *check = gtk_check_button_new_with_label (label);
  GtkWidget *remove = gtk_button_new_from_icon_name ("edit-delete-symbolic", GTK_ICON_SIZE_BUTTON);
  /* The label is ellipsized in the narrow list; the tooltip has it whole. */
  g_autofree char *tip = g_strdup_printf ("%s\n%s", label, _("Show this run in the plot"));
  g_autofree char *name = g_strdup_printf (_("Remove %s"), label);

  g_return_val_if_fail (label != NULL, NULL);

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check), visible);
  gtk_widget_set_tooltip_text (check, tip);
  gtk_label_set_ellipsize (GTK_LABEL (gtk_bin_get_child (GTK_BIN (check))), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (check, TRUE);
  g_object_set_data (G_OBJECT (check), "run", run);
  g_signal_connect (check, "toggled", toggled, user_data);
  gtk_button_set_relief (GTK_BUTTON (remove), GTK_RELIEF_NONE);
  gtk_widget_set_tooltip_text (remove, _("Remove this run"));
  atk_object_set_name (gtk_widget_get_accessible (remove), name);
  gtk_widget_set_sensitive (remove, removable);
  g_object_set_data (G_OBJECT (remove), "run", run);
  g_signal_connect (remove, "clicked", removed, user_data);
  gtk_container_add (GTK_CONTAINER (box), check);
  gtk_container_add (GTK_CONTAINER (box), remove);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_show_all (box);
  return box;
}

void
ks_page_ellipsize_combo (GtkComboBox *combo)
{
  g_autoptr(GList) cells = NULL;

  g_return_if_fail (GTK_IS_COMBO_BOX (combo));
  cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (combo));
  for (GList *l = cells; l != NULL; l = l->next)
    if (GTK_IS_CELL_RENDERER_TEXT (l->data))
      /* Twenty characters stay whole ("explicit, split remainder" nearly
       * does): a pane gets its child's minimum, not its natural width. */
      g_object_set (l->data, "ellipsize", PANGO_ELLIPSIZE_END, "width-chars", 20, NULL);
}

/* GSettings stores counts as unsigned integers; spin buttons hold doubles. */
static gboolean
uint_to_double (GValue   *value,
                GVariant *variant,
                gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_uint32 (variant));
  return TRUE;
}

static GVariant *
double_to_uint (const GValue       *value,
                const GVariantType *type,
                gpointer            user_data)
{
  return g_variant_new_uint32 ((guint32) CLAMP (g_value_get_double (value), 0, G_MAXUINT32));
}

/* The page decides which fields are sensitive (a custom list only with the
 * custom preset, a group size only with an explicit policy, nothing during
 * a run); G_SETTINGS_BIND_DEFAULT would also tie "sensitive" to the key's
 * writability and switch such fields back on when it binds. */
#define BIND_FLAGS (G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_NO_SENSITIVITY)

void
ks_page_bind_spin (KsPage        *self,
                   const char    *key,
                   GtkSpinButton *spin)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);

  if (priv->settings == NULL)
    return;
  g_settings_bind_with_mapping (priv->settings, key, gtk_spin_button_get_adjustment (spin),
                                "value", BIND_FLAGS,
                                uint_to_double, double_to_uint, NULL, NULL);
}

void
ks_page_bind_combo (KsPage      *self,
                    const char  *key,
                    GtkComboBox *combo)
{
  KsPagePrivate *priv = ks_page_get_instance_private (self);

  if (priv->settings != NULL)
    g_settings_bind (priv->settings, key, combo, "active-id", BIND_FLAGS);
}
