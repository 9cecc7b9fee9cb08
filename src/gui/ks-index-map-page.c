/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-index-map-page.h"

#include <glib/gi18n.h>
#include "ks-index-map.h"
#include "ks-index-map-device.h"

struct _KsIndexMapPage {
  KsPage      parent_instance;

  GtkWidget  *domain_entry, *rule_combo, *block_spin;
  GtkWidget  *error_label, *device_label, *mappings_box, *disagree_label, *plot_view;
  GtkWidget  *mapping_label[KS_INDEX_RULE_N];
};

G_DEFINE_TYPE (KsIndexMapPage, ks_index_map_page, KS_TYPE_PAGE)

/* ---- the calculator ------------------------------------------------------- */

static char *
mapping_markup (const KsIndexMapping *m)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *title = g_markup_printf_escaped ("<b>%s</b>\n", ks_index_rule_label (m->rule));

  g_string_append (s, title);
  if (!m->mapped)
    {
      g_autofree char *why = g_markup_printf_escaped (_("No launch: %s"), m->why);
      g_string_append (s, why);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  {
    g_autofree char *launch = g_markup_printf_escaped ("<tt>%s</tt>\n", m->launch);
    /* TRANSLATORS: "6144000 threads, 144000 idle (2.34 %)" */
    g_autofree char *counts = g_markup_printf_escaped (_("%llu threads, %llu idle (%.2f %%)"),
                                                       (unsigned long long) m->threads,
                                                       (unsigned long long) m->idle,
                                                       m->threads ? 100.0 * m->idle / m->threads : 0.0);
    g_autofree char *why = g_markup_printf_escaped ("\n<small>%s</small>", m->why);

    g_string_append (s, launch);
    g_string_append (s, counts);
    if (m->uncovered)
      {
        g_autofree char *miss = g_markup_printf_escaped (_(", <b>%llu points never reached (%.1f %%)</b>"),
                                                         (unsigned long long) m->uncovered,
                                                         100.0 * m->uncovered / m->points);
        g_string_append (s, miss);
      }
    g_string_append (s, why);
  }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
show_plot (KsIndexMapPage       *self,
           const KsIndexDomain  *domain,
           const KsIndexMapping *m)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  guint dx, dy, bx, by;

  if (domain != NULL && ks_index_mapping_diagram (domain, m, &dx, &dy, &bx, &by))
    {
      g_autofree char *dom = ks_index_domain_to_string (domain);
      g_autofree char *title = g_strdup_printf ("D(%s) %s", dom, m->launch);

      ks_plot_set_title (plot, title);
      ks_plot_set_blocks (plot, dx, dy, bx, by);
      ks_plot_view_set_placeholder (KS_PLOT_VIEW (self->plot_view), NULL);
    }
  else
    ks_plot_view_set_placeholder (KS_PLOT_VIEW (self->plot_view),
                                  domain == NULL ? _("Type a domain such as 2000x3000")
                                  : !m->mapped ? _("This rule gives no launch for the domain")
                                  : m->uncovered ? _("This launch leaves points unreached: the picture would cover them")
                                  : _("Too large to draw: a side passes 2^32 - 1"));
  ks_plot_view_set_plot (KS_PLOT_VIEW (self->plot_view), plot);
}

static void
form_changed_cb (KsIndexMapPage *self)
{
  g_autoptr(GError) error = NULL;
  KsIndexDomain domain;
  KsIndexMapping maps[KS_INDEX_RULE_N];
  guint64 block = (guint64) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->block_spin));
  int drawn = gtk_combo_box_get_active (GTK_COMBO_BOX (self->rule_combo));

  if (!ks_index_domain_parse (gtk_entry_get_text (GTK_ENTRY (self->domain_entry)), &domain, &error))
    {
      gtk_label_set_text (GTK_LABEL (self->error_label), error->message);
      gtk_widget_show (self->error_label);
      gtk_widget_set_sensitive (self->mappings_box, FALSE);
      gtk_widget_hide (self->disagree_label);
      show_plot (self, NULL, NULL);
      return;
    }
  gtk_widget_hide (self->error_label);
  gtk_widget_set_sensitive (self->mappings_box, TRUE);
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    {
      g_autofree char *markup = NULL;

      ks_index_map (&domain, i, block, &maps[i]);
      markup = mapping_markup (&maps[i]);
      gtk_label_set_markup (GTK_LABEL (self->mapping_label[i]), markup);
    }
  if (!ks_index_mapping_same_launch (&maps[KS_INDEX_RULE_PAPER], &maps[KS_INDEX_RULE_PAPER_PRINTED]))
    {
      g_autofree char *text = g_strdup_printf (_("The paper's text and its formulas disagree for this domain: "
                                                 "the text (and its worked example, dim3(2000, 3) for 2000 × 3000) "
                                                 "gives %s, the formulas as printed %s."),
                                               maps[KS_INDEX_RULE_PAPER].mapped ? maps[KS_INDEX_RULE_PAPER].launch
                                               : _("no launch"),
                                               maps[KS_INDEX_RULE_PAPER_PRINTED].mapped
                                               ? maps[KS_INDEX_RULE_PAPER_PRINTED].launch : _("no launch"));
      gtk_label_set_text (GTK_LABEL (self->disagree_label), text);
      gtk_widget_show (self->disagree_label);
    }
  else
    gtk_widget_hide (self->disagree_label);
  show_plot (self, &domain, &maps[CLAMP (drawn, 0, KS_INDEX_RULE_N - 1)]);
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    ks_index_mapping_clear (&maps[i]);
}

/* ---- Run: ask the device ---------------------------------------------------- */

typedef struct {
  KsDevice          *device;
  KsIndexDomain      domain;
  KsIndexSuggestion  suggestion;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_object_unref (job->device);
  ks_index_suggestion_clear (&job->suggestion);
  g_free (job);
}

static gboolean
ask_work (gpointer       data,
          GCancellable  *cancellable,
          GError       **error)
{
  Job *job = data;

  return ks_index_domain_check_device (&job->domain, job->device, KS_PRECISION_DOUBLE, error) &&
         ks_index_suggest_block (job->device, KS_PRECISION_DOUBLE, &job->suggestion, error);
}

static void
ask_done (KsPage       *page,
          gpointer      data,
          const GError *error)
{
  KsIndexMapPage *self = KS_INDEX_MAP_PAGE (page);
  Job *job = data;

  if (error == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Occupancy block %llu on %s: %s."),
                                               (unsigned long long) job->suggestion.block,
                                               ks_device_get_name (job->device), job->suggestion.source);

      gtk_label_set_text (GTK_LABEL (self->device_label), text);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->block_spin), (double) job->suggestion.block);
      ks_page_emit_progress (page, 1, 1, 1.0);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->device_label), error->message);
}

static gboolean
ks_index_map_page_start (KsPage        *page,
                         KsDevice      *device,
                         GCancellable  *cancellable,
                         GError       **error)
{
  KsIndexMapPage *self = KS_INDEX_MAP_PAGE (page);
  Job *job = g_new0 (Job, 1);

  if (!ks_index_domain_parse (gtk_entry_get_text (GTK_ENTRY (self->domain_entry)), &job->domain, error))
    {
      g_free (job);
      return FALSE;
    }
  job->device = g_object_ref (device);
  gtk_label_set_text (GTK_LABEL (self->device_label), _("Asking the device…"));
  ks_page_run_job (page, job, job_free, ask_work, ask_done, cancellable);
  return TRUE;
}

/* ---- the page --------------------------------------------------------------- */

static KsPlotView *
ks_index_map_page_get_plot_view (KsPage *page)
{
  return KS_PLOT_VIEW (KS_INDEX_MAP_PAGE (page)->plot_view);
}

static gboolean
ks_index_map_page_save_state (KsPage        *page,
                              KsSessionPage *state,
                              GError       **error)
{
  KsIndexMapPage *self = KS_INDEX_MAP_PAGE (page);
  g_autofree char *block = g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->block_spin)));

  return ks_session_page_set_value (state, "domain", gtk_entry_get_text (GTK_ENTRY (self->domain_entry)), error)
    && ks_session_page_set_value (state, "rule", gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->rule_combo)),
                                  error)
    && ks_session_page_set_value (state, "block", block, error);
}

/* The fields the session has (checked by its reader); the others go back
 * to the page's defaults. */
static void
ks_index_map_page_load_state (KsPage              *page,
                              const KsSessionPage *state)
{
  KsIndexMapPage *self = KS_INDEX_MAP_PAGE (page);
  const char *domain = g_hash_table_lookup (state->values, "domain");
  const char *rule = g_hash_table_lookup (state->values, "rule");
  const char *block = g_hash_table_lookup (state->values, "block");

  gtk_entry_set_text (GTK_ENTRY (self->domain_entry), domain ? domain : "2000x3000");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rule_combo), rule ? rule : "paper");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->block_spin), block ? g_ascii_strtod (block, NULL) : 0);
}

static void
ks_index_map_page_class_init (KsIndexMapPageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  page_class->start = ks_index_map_page_start;
  page_class->get_plot_view = ks_index_map_page_get_plot_view;
  page_class->save_state = ks_index_map_page_save_state;
  page_class->load_state = ks_index_map_page_load_state;

  g_type_ensure (KS_TYPE_PLOT_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/kernelscope/Kernelscope/ui/ks-index-map-page.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, KsIndexMapPage, name)
  BIND (domain_entry); BIND (rule_combo); BIND (block_spin);
  BIND (error_label); BIND (device_label); BIND (mappings_box); BIND (disagree_label); BIND (plot_view);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
}

static void
ks_index_map_page_init (KsIndexMapPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    {
      self->mapping_label[i] = gtk_label_new (NULL);
      gtk_label_set_line_wrap (GTK_LABEL (self->mapping_label[i]), TRUE);
      gtk_label_set_selectable (GTK_LABEL (self->mapping_label[i]), TRUE);
      gtk_label_set_xalign (GTK_LABEL (self->mapping_label[i]), 0);
      gtk_label_set_max_width_chars (GTK_LABEL (self->mapping_label[i]), 50);
      gtk_widget_show (self->mapping_label[i]);
      gtk_container_add (GTK_CONTAINER (self->mappings_box), self->mapping_label[i]);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->rule_combo), ks_index_rule_to_string (i),
                                 ks_index_rule_label (i));
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->rule_combo), "paper");
  /* The Russian labels must not widen the window past a 1024-pixel projector. */
  ks_page_ellipsize_combo (GTK_COMBO_BOX (self->rule_combo));
  form_changed_cb (self);
}

void
ks_index_map_page_set_domain (KsIndexMapPage *self,
                              const char     *domain)
{
  g_return_if_fail (KS_IS_INDEX_MAP_PAGE (self));
  g_return_if_fail (domain != NULL);

  gtk_entry_set_text (GTK_ENTRY (self->domain_entry), domain);
}

const char *
ks_index_map_page_get_mapping_text (KsIndexMapPage *self,
                                    guint           rule)
{
  g_return_val_if_fail (KS_IS_INDEX_MAP_PAGE (self), NULL);
  g_return_val_if_fail (rule < KS_INDEX_RULE_N, NULL);

  return gtk_label_get_text (GTK_LABEL (self->mapping_label[rule]));
}
