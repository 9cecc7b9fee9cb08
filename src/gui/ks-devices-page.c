/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-devices-page.h"

#include <glib/gi18n.h>
#include "ks-ogs.h"
#include "ks-bench-probes.h"

struct _KsDevicesPage {
  KsPage        parent_instance;

  GtkWidget    *device_list;
  GtkWidget    *notes_label;
  GtkWidget    *name_label;
  GtkWidget    *props_grid;
  GtkWidget    *pwgsm_label;
  GtkWidget    *cores_spin;
  GtkWidget    *cores_source_label;
  GtkWidget    *cu_label;
  GtkWidget    *maxwg_label;
  GtkWidget    *ogs_label;
  GtkWidget    *explain_label;
  GtkWidget    *bandwidth_button;
  GtkWidget    *bandwidth_spinner;
  GtkWidget    *use_button;

  KsDeviceList *devices;
  GHashTable   *cores_overrides;   /* device id -> the user's cores per unit */
  KsDevice     *selected;
  guint64       prediction;
  gboolean      updating;
  gboolean      run_active;   /* the window is running an experiment */
};

G_DEFINE_TYPE (KsDevicesPage, ks_devices_page, KS_TYPE_PAGE)

enum { DEVICE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

enum { PROP_0, PROP_MEASURING, N_PROPS };
static GParamSpec *props[N_PROPS];

static void show_device (KsDevicesPage *self,
                         KsDevice      *device);

/* What the user reads; the identifiers ("opencl", "cpu") stay in files. */
static const char *
backend_name (KsBackend backend)
{
  switch (backend)
    {
    case KS_BACKEND_OPENCL: return "OpenCL";
    case KS_BACKEND_CUDA:   return "CUDA";
    default:                return _("host (C + OpenMP)");
    }
}

static const char *
type_name (KsDeviceType type)
{
  switch (type)
    {
    case KS_DEVICE_TYPE_GPU: return _("GPU");
    case KS_DEVICE_TYPE_CPU: return _("CPU");
    default:                 return _("other");
    }
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  KsDevice *device = item;
  const KsDeviceInfo *info = ks_device_get_info (device);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (info->name);
  g_autofree char *sub = g_strdup_printf ("%s · %s · %s", backend_name (info->backend),
                                          type_name (info->type), info->id);
  GtkWidget *subtitle = gtk_label_new (sub);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_style_context_add_class (gtk_widget_get_style_context (name), "device-name");
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (subtitle), "dim-label");
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_container_add (GTK_CONTAINER (box), name);
  gtk_container_add (GTK_CONTAINER (box), subtitle);
  gtk_widget_set_tooltip_text (box, info->name);
  gtk_widget_show_all (box);
  return box;
}

static gboolean
measuring (KsDevicesPage *self)
{
  gboolean active = FALSE;

  g_object_get (self->bandwidth_spinner, "active", &active, NULL);
  return active;
}

static void
update_sensitivity (KsDevicesPage *self)
{
  gboolean host = self->selected == NULL
    || ks_device_get_backend (self->selected) == KS_BACKEND_HOST;

  gtk_widget_set_sensitive (self->bandwidth_button, !host && !measuring (self) && !self->run_active);
  /* The sweeps read the cores per unit while they run. */
  gtk_widget_set_sensitive (self->cores_spin, !self->run_active);
  /* The device of a run cannot change under it; greyed out with the reason
   * rather than a button that silently does nothing. */
  gtk_widget_set_sensitive (self->use_button, !self->run_active);
  gtk_widget_set_tooltip_text (self->use_button, self->run_active
                               ? _("A run is in progress on the device chosen in the header bar; "
                                   "stop it to change the device")
                               : _("Run the experiments on this device (it is chosen in the header bar)"));
}

/* --- cores per compute unit, remembered ------------------------------- */

/* The overrides onto the devices of this machine; those of devices that are
 * not here today are kept for the day they are. */
static void
apply_cores_overrides (KsDevicesPage *self)
{
  guint n = self->devices ? ks_device_list_get_n_devices (self->devices) : 0;

  for (guint i = 0; i < n; i++)
    {
      KsDevice *d = ks_device_list_get_device (self->devices, i);
      gpointer value = g_hash_table_lookup (self->cores_overrides, ks_device_get_id (d));

      ks_device_set_cores_per_cu (d, GPOINTER_TO_UINT (value));
    }
  if (self->selected != NULL)
    show_device (self, self->selected);
}

static void
read_cores_setting (KsDevicesPage *self)
{
  GSettings *settings = ks_page_get_settings (KS_PAGE (self));
  g_autoptr(GVariant) dict = NULL;
  GVariantIter iter;
  const char *id;
  guint32 cores;

  if (settings == NULL)
    return;
  g_hash_table_remove_all (self->cores_overrides);
  dict = g_settings_get_value (settings, "cores-per-cu");
  g_variant_iter_init (&iter, dict);
  while (g_variant_iter_next (&iter, "{&su}", &id, &cores))
    if (cores > 0)
      g_hash_table_insert (self->cores_overrides, g_strdup (id), GUINT_TO_POINTER (cores));
}

static void
write_cores_setting (KsDevicesPage *self)
{
  GSettings *settings = ks_page_get_settings (KS_PAGE (self));
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{su}"));
  g_autoptr(GList) ids = NULL;

  if (settings == NULL)
    return;
  ids = g_list_sort (g_hash_table_get_keys (self->cores_overrides), (GCompareFunc) g_strcmp0);
  for (GList *l = ids; l; l = l->next)
    g_variant_builder_add (&builder, "{su}", (const char *) l->data,
                           GPOINTER_TO_UINT (g_hash_table_lookup (self->cores_overrides, l->data)));
  g_settings_set_value (settings, "cores-per-cu", g_variant_builder_end (&builder));
}

static void
ks_devices_page_bind_settings (KsPage *page)
{
  KsDevicesPage *self = KS_DEVICES_PAGE (page);

  read_cores_setting (self);
  apply_cores_overrides (self);
}

static gboolean
ks_devices_page_save_state (KsPage        *page,
                            KsSessionPage *state,
                            GError       **error)
{
  KsDevicesPage *self = KS_DEVICES_PAGE (page);
  GHashTableIter iter;
  gpointer id, cores;

  g_hash_table_iter_init (&iter, self->cores_overrides);
  while (g_hash_table_iter_next (&iter, &id, &cores))
    if (!ks_session_page_set_cores (state, id, GPOINTER_TO_UINT (cores), error))
      return FALSE;
  /* None is saved too: such a session clears the overrides. */
  if (state->cores_per_cu == NULL)
    ks_session_page_keep_cores (state);
  return TRUE;
}

/* A session's overrides replace the ones in use; a session from before
 * they were saved has none and changes nothing. */
static void
ks_devices_page_load_state (KsPage              *page,
                            const KsSessionPage *state)
{
  KsDevicesPage *self = KS_DEVICES_PAGE (page);
  GHashTableIter iter;
  gpointer id, cores;

  if (state->cores_per_cu == NULL)
    return;
  g_hash_table_remove_all (self->cores_overrides);
  g_hash_table_iter_init (&iter, state->cores_per_cu);
  while (g_hash_table_iter_next (&iter, &id, &cores))
    g_hash_table_insert (self->cores_overrides, g_strdup (id), cores);
  apply_cores_overrides (self);
  write_cores_setting (self);
}

static void
add_prop (KsDevicesPage *self,
          int            row,
          const char    *name,
          const char    *value)
{
  GtkWidget *k = gtk_label_new (name);
  GtkWidget *v = gtk_label_new (value ? value : "—");

  /* Names wrap too: "Наибольшие размеры рабочих элементов" on one line
   * widened the page past a 1024-pixel projector. */
  gtk_label_set_xalign (GTK_LABEL (k), 0);
  gtk_label_set_line_wrap (GTK_LABEL (k), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (k), 28);
  gtk_style_context_add_class (gtk_widget_get_style_context (k), "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_label_set_line_wrap (GTK_LABEL (v), TRUE);
  gtk_grid_attach (GTK_GRID (self->props_grid), k, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (self->props_grid), v, 1, row, 1, 1);
  gtk_widget_show (k);
  gtk_widget_show (v);
}

static void
update_prediction (KsDevicesPage *self)
{
  const KsDeviceInfo *info;
  KsOgsPrediction p;

  if (self->selected == NULL)
    return;
  info = ks_device_get_info (self->selected);
  /* Through the getters: a worker may be writing the multiple or the
   * bandwidth of this very device right now. */
  if (ks_ogs_predict (ks_device_get_preferred_multiple (self->selected),
                      ks_device_get_cores_per_cu (self->selected),
                      info->compute_units, info->max_work_group_size, &p))
    {
      g_autofree char *explain = ks_ogs_explain (&p);
      g_autofree char *value = p.exceeds_limit
        ? g_strdup_printf (_("%lu (above the device limit; %lu usable)"),
                           (unsigned long) p.ogs, (unsigned long) p.usable)
        : g_strdup_printf ("%" G_GUINT64_FORMAT, p.ogs);

      self->prediction = p.ogs;
      gtk_label_set_text (GTK_LABEL (self->ogs_label), value);
      gtk_label_set_text (GTK_LABEL (self->explain_label), explain);
    }
  else
    {
      self->prediction = 0;
      gtk_label_set_text (GTK_LABEL (self->ogs_label), _("unknown"));
      gtk_label_set_text (GTK_LABEL (self->explain_label),
                          _("The rule needs the preferred work-group multiple, which only an "
                            "OpenCL or CUDA device reports. The host runs the method without work-groups."));
    }
}

static void
show_device (KsDevicesPage *self,
             KsDevice      *device)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  g_autofree char *cu = g_strdup_printf ("%u", info->compute_units);
  g_autofree char *maxwg = g_strdup_printf ("%" G_GSIZE_FORMAT, info->max_work_group_size);
  g_autofree char *items = g_strdup_printf ("%" G_GSIZE_FORMAT " × %" G_GSIZE_FORMAT " × %" G_GSIZE_FORMAT,
                                            info->max_work_item_sizes[0], info->max_work_item_sizes[1],
                                            info->max_work_item_sizes[2]);
  g_autofree char *global = g_format_size_full (info->global_mem, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *alloc = g_format_size_full (info->max_alloc, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *local = g_format_size_full (info->local_mem, G_FORMAT_SIZE_IEC_UNITS);
  gsize multiple = ks_device_get_preferred_multiple (device);
  double bandwidth = ks_device_get_bandwidth (device);
  g_autofree char *pwgsm = multiple
    ? g_strdup_printf ("%" G_GSIZE_FORMAT, multiple) : g_strdup (_("unknown"));
  g_autofree char *cc = info->cc_major >= 0 ? g_strdup_printf ("%d.%d", info->cc_major, info->cc_minor) : NULL;
  g_autofree char *bw = bandwidth > 0
    ? g_strdup_printf (_("%.0f GB/s (triad, measured here)"), bandwidth)
    : g_strdup (_("not measured yet"));
  g_autofree char *peak = info->peak_bandwidth_gbs > 0
    ? g_strdup_printf (_("%.0f GB/s (data sheet)"), info->peak_bandwidth_gbs) : NULL;
  g_autofree char *warp = info->warp_size > 0 ? g_strdup_printf ("%u", info->warp_size) : NULL;
  g_autofree char *bus = info->memory_bus_bits > 0
    ? g_strdup_printf (_("%u bits"), info->memory_bus_bits) : NULL;
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->props_grid));
  int row = 0;

  g_set_object (&self->selected, device);
  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);

  gtk_label_set_text (GTK_LABEL (self->name_label), info->name);
  add_prop (self, row++, _("Backend"), backend_name (info->backend));
  add_prop (self, row++, _("Type"), type_name (info->type));
  add_prop (self, row++, _("Identifier"), info->id);
  add_prop (self, row++, _("Vendor"), info->vendor);
  add_prop (self, row++, _("Platform"), info->platform_name);
  add_prop (self, row++, _("Version"), info->version);
  add_prop (self, row++, _("Driver"), info->driver_version);
  if (cc != NULL)
    add_prop (self, row++, _("Compute capability"), cc);
  add_prop (self, row++, _("Compute units"), cu);
  add_prop (self, row++, _("Largest work-group"), maxwg);
  add_prop (self, row++, _("Largest work-item sizes"), items);
  add_prop (self, row++, _("Global memory"), global);
  add_prop (self, row++, _("Largest buffer"), alloc);
  add_prop (self, row++, _("Local memory"), local);
  add_prop (self, row++, _("Double precision"), info->has_fp64 ? _("yes") : _("no"));
  if (warp != NULL)
    add_prop (self, row++, _("Warp size"), warp);
  if (bus != NULL)
    add_prop (self, row++, _("Memory bus"), bus);
  if (peak != NULL)
    add_prop (self, row++, _("Peak bandwidth"), peak);
  if (info->backend != KS_BACKEND_HOST)
    add_prop (self, row++, _("Memory bandwidth"), bw);
  update_sensitivity (self);

  self->updating = TRUE;
  gtk_label_set_text (GTK_LABEL (self->pwgsm_label), pwgsm);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->cores_spin), ks_device_get_cores_per_cu (device));
  gtk_label_set_text (GTK_LABEL (self->cores_source_label), _(ks_device_get_cores_source (device)));
  gtk_label_set_text (GTK_LABEL (self->cu_label), cu);
  gtk_label_set_text (GTK_LABEL (self->maxwg_label), maxwg);
  self->updating = FALSE;
  update_prediction (self);
}

static void
row_selected_cb (KsDevicesPage *self,
                 GtkListBoxRow *row)
{
  if (row != NULL && self->devices != NULL)
    show_device (self, ks_device_list_get_device (self->devices, gtk_list_box_row_get_index (row)));
}

static void
row_activated_cb (KsDevicesPage *self,
                  GtkListBoxRow *row)
{
  row_selected_cb (self, row);
}

static void
use_clicked_cb (KsDevicesPage *self)
{
  if (self->selected != NULL)
    g_signal_emit (self, signals[DEVICE_ACTIVATED], 0, self->selected);
}

static void
bandwidth_thread (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  KsBandwidth bw;
  GError *error = NULL;

  /* Stores the triad figure in the device's info, where the page reads it. */
  if (ks_bench_bandwidth (task_data, 0, 5, &bw, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
bandwidth_done_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  KsDevicesPage *self = KS_DEVICES_PAGE (source);
  KsDevice *device = g_task_get_task_data (G_TASK (result));
  g_autoptr(GApplication) app = user_data;
  g_autoptr(GError) error = NULL;

  /* The probe is off the device: a process whose window closed meanwhile
   * may exit now. */
  if (app != NULL)
    g_application_release (app);
  if (self->bandwidth_spinner == NULL)   /* the window closed meanwhile */
    return;
  gtk_spinner_stop (GTK_SPINNER (self->bandwidth_spinner));
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MEASURING]);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    ks_page_emit_error (KS_PAGE (self), _("Could not measure the bandwidth"), error);
  if (device == self->selected)
    show_device (self, device);
  update_sensitivity (self);
}

static void
bandwidth_clicked_cb (KsDevicesPage *self)
{
  g_autoptr(GTask) task = NULL;
  GApplication *app = g_application_get_default ();

  if (self->selected == NULL || self->run_active || measuring (self))
    return;
  gtk_spinner_start (GTK_SPINNER (self->bandwidth_spinner));
  update_sensitivity (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MEASURING]);
  /* Like a run, the probe keeps the process alive until it is off the
   * device, even if the window closes first. */
  if (app != NULL)
    g_application_hold (app);
  task = g_task_new (self, NULL, bandwidth_done_cb, app ? g_object_ref (app) : NULL);
  g_task_set_task_data (task, g_object_ref (self->selected), g_object_unref);
  g_task_run_in_thread (task, bandwidth_thread);
}

static void
cores_changed_cb (KsDevicesPage *self)
{
  if (self->updating || self->selected == NULL)
    return;
  /* The override lives on the device, so the sweeps' predicted optimum
   * (recorded with their results) uses it too; and in the settings, so
   * the next start remembers it. */
  ks_device_set_cores_per_cu (self->selected,
                              gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->cores_spin)));
  g_hash_table_insert (self->cores_overrides, g_strdup (ks_device_get_id (self->selected)),
                       GUINT_TO_POINTER (ks_device_get_cores_per_cu (self->selected)));
  write_cores_setting (self);
  gtk_label_set_text (GTK_LABEL (self->cores_source_label), _(ks_device_get_cores_source (self->selected)));
  update_prediction (self);
}

static void
ks_devices_page_device_changed (KsPage   *page,
                                KsDevice *device)
{
  KsDevicesPage *self = KS_DEVICES_PAGE (page);
  guint n = self->devices ? ks_device_list_get_n_devices (self->devices) : 0;

  for (guint i = 0; i < n; i++)
    if (ks_device_list_get_device (self->devices, i) == device)
      gtk_list_box_select_row (GTK_LIST_BOX (self->device_list),
                               gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->device_list), i));
}

static void
ks_devices_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_MEASURING:
      g_value_set_boolean (value, ks_devices_page_get_measuring (KS_DEVICES_PAGE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ks_devices_page_dispose (GObject *object)
{
  KsDevicesPage *self = KS_DEVICES_PAGE (object);

  g_clear_object (&self->selected);
  g_clear_object (&self->devices);
  g_clear_pointer (&self->cores_overrides, g_hash_table_unref);
  G_OBJECT_CLASS (ks_devices_page_parent_class)->dispose (object);
}

static void
ks_devices_page_class_init (KsDevicesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  object_class->dispose = ks_devices_page_dispose;
  object_class->get_property = ks_devices_page_get_property;

  props[PROP_MEASURING] = g_param_spec_boolean ("measuring", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
  page_class->device_changed = ks_devices_page_device_changed;
  page_class->bind_settings = ks_devices_page_bind_settings;
  page_class->save_state = ks_devices_page_save_state;
  page_class->load_state = ks_devices_page_load_state;

  signals[DEVICE_ACTIVATED] = g_signal_new ("device-activated", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 1, KS_TYPE_DEVICE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/kernelscope/Kernelscope/ui/ks-devices-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, device_list);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, notes_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, name_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, props_grid);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, pwgsm_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, cores_spin);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, cores_source_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, cu_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, maxwg_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, ogs_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, explain_label);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, bandwidth_button);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, bandwidth_spinner);
  gtk_widget_class_bind_template_child (widget_class, KsDevicesPage, use_button);
  gtk_widget_class_bind_template_callback (widget_class, bandwidth_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, use_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cores_changed_cb);
}

static void
ks_devices_page_init (KsDevicesPage *self)
{
  self->cores_overrides = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
  update_sensitivity (self);
}

void
ks_devices_page_set_device_list (KsDevicesPage *self,
                                 KsDeviceList  *devices)
{
  const char * const *notes;
  g_autoptr(GString) text = g_string_new (NULL);

  g_set_object (&self->devices, devices);
  /* The cores per unit the user set last time, on today's devices. */
  apply_cores_overrides (self);
  gtk_list_box_bind_model (GTK_LIST_BOX (self->device_list), G_LIST_MODEL (devices),
                           create_row, self, NULL);
  /* What each backend found or why it found nothing ("no CUDA driver"). */
  notes = ks_device_list_get_notes (devices);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    g_string_append_printf (text, "%s%s", i ? "\n" : "", notes[i]);
  gtk_label_set_text (GTK_LABEL (self->notes_label), text->str);
  gtk_widget_set_visible (self->notes_label, text->len > 0);
}

KsDevice *
ks_devices_page_get_selected (KsDevicesPage *self)
{
  return self->selected;
}

guint64
ks_devices_page_get_prediction (KsDevicesPage *self)
{
  return self->prediction;
}

void
ks_devices_page_measure_bandwidth (KsDevicesPage *self)
{
  bandwidth_clicked_cb (self);
}

gboolean
ks_devices_page_get_measuring (KsDevicesPage *self)
{
  return self->bandwidth_spinner != NULL && measuring (self);
}

void
ks_devices_page_set_run_active (KsDevicesPage *self,
                                gboolean       active)
{
  if (self->bandwidth_spinner == NULL)
    return;
  self->run_active = active;
  update_sensitivity (self);
}
