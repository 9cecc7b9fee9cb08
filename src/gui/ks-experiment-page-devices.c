/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-experiment-page-devices.c: the generic page's other devices.  Every
 * paper compares a CPU column with a GPU column, so one run may measure on
 * several devices, one after the other (the engine takes several, as the
 * CLI's repeated -d does): the header bar's device first, then the ones
 * ticked under "Also run on", each a series of the same figure. */
#define G_LOG_DOMAIN "ks-gui-experiment"

#include "ks-experiment-page-private.h"

#include <glib/gi18n.h>

#include "ks-application.h"

static KsDeviceList *
device_list (void)
{
  GApplication *app = g_application_get_default ();
  return KS_IS_APPLICATION (app) ? ks_application_get_device_list (KS_APPLICATION (app)) : NULL;
}

static gboolean
runs_here (const KsExperimentDesc *desc,
           KsDevice               *device)
{
  return desc->backends == KS_BACKENDS_ALL || (desc->backends & (1u << ks_device_get_backend (device)));
}

static void
device_toggled_cb (GtkToggleButton  *check,
                   KsExperimentPage *self)
{
  const char *id = g_object_get_data (G_OBJECT (check), "device-id");

  if (gtk_toggle_button_get_active (check))
    g_hash_table_add (self->also_on, g_strdup (id));
  else
    g_hash_table_remove (self->also_on, id);
  ks_experiment_page_save_settings (self);
}

/* One check button per device but the header bar's; a device the
 * experiment cannot run on is greyed out, saying why. */
void
ks_experiment_page_fill_devices (KsExperimentPage *self)
{
  KsDeviceList *list = device_list ();
  GList *children = gtk_container_get_children (GTK_CONTAINER (self->also_box));
  guint shown = 0;

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  for (guint i = 0; list != NULL && i < ks_device_list_get_n_devices (list); i++)
    {
      KsDevice *d = ks_device_list_get_device (list, i);
      const KsDeviceInfo *info = ks_device_get_info (d);
      g_autofree char *label = NULL;
      GtkWidget *check;

      if (d == self->device)
        continue;
      /* TRANSLATORS: a device and its API, e.g. "NVIDIA H200 (cuda)" */
      label = g_strdup_printf (_("%s (%s)"), info->name, ks_backend_to_string (info->backend));
      check = gtk_check_button_new_with_label (label);
      g_object_set_data_full (G_OBJECT (check), "device-id", g_strdup (info->id), g_free);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (check), g_hash_table_contains (self->also_on, info->id));
      gtk_label_set_ellipsize (GTK_LABEL (gtk_bin_get_child (GTK_BIN (check))), PANGO_ELLIPSIZE_END);
      if (!runs_here (self->desc, d))
        {
          g_autofree char *where = ks_param_form_describe_backends (self->desc->backends);
          g_autofree char *why = g_strdup_printf (_("This experiment runs only on %s."), where);

          gtk_widget_set_sensitive (check, FALSE);
          gtk_widget_set_tooltip_text (check, why);
        }
      else
        gtk_widget_set_tooltip_text (check, info->id);
      g_signal_connect (check, "toggled", G_CALLBACK (device_toggled_cb), self);
      gtk_container_add (GTK_CONTAINER (self->also_box), check);
      gtk_widget_show (check);
      shown++;
    }
  /* One device on the machine: nothing to tick. */
  gtk_widget_set_visible (self->also_expander, shown > 0);
}

/* The devices the run measures on after the header bar's, in the device
 * list's order: ticked, not the header bar's, and able to run it. */
GPtrArray *
ks_experiment_page_get_also_devices (KsExperimentPage *self)
{
  KsDeviceList *list = device_list ();
  GPtrArray *devices = g_ptr_array_new ();

  for (guint i = 0; list != NULL && i < ks_device_list_get_n_devices (list); i++)
    {
      KsDevice *d = ks_device_list_get_device (list, i);

      if (d != self->device && g_hash_table_contains (self->also_on, ks_device_get_id (d))
          && runs_here (self->desc, d))
        g_ptr_array_add (devices, d);
    }
  return devices;
}

void
ks_experiment_page_set_also_on (KsExperimentPage  *self,
                                const char * const *ids)
{
  g_return_if_fail (KS_IS_EXPERIMENT_PAGE (self));

  g_hash_table_remove_all (self->also_on);
  for (guint i = 0; ids != NULL && ids[i] != NULL; i++)
    if (*ids[i] != '\0')
      g_hash_table_add (self->also_on, g_strdup (ids[i]));
  ks_experiment_page_fill_devices (self);
  ks_experiment_page_save_settings (self);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

char *
ks_experiment_page_get_also_on_text (KsExperimentPage *self)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  g_autofree gpointer *keys = (gpointer *) g_hash_table_get_keys_as_array (self->also_on, NULL);

  for (guint i = 0; keys[i] != NULL; i++)
    g_ptr_array_add (ids, keys[i]);
  g_ptr_array_sort (ids, compare_strings);
  g_ptr_array_add (ids, NULL);
  return g_strjoinv (",", (char **) ids->pdata);
}
