/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page-split.c: what the heat page shows of paper 004's hybrid
 * split (see ks-heat-page.h): the CPU part's cells hatched over the
 * temperature, a legend saying which part is which and what each part's
 * own work costs a step, lambda_b marked on the slider; switching the
 * split on or off between two steps, the heat going on; and the notes
 * the mesh reader and the solver give about the mesh. */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-heat-page-private.h"

#include <glib/gi18n.h>
#include <math.h>

/* The check box: the split made or dropped by the worker between two
 * steps, from the temperature now (it is the same field whatever the
 * split), so the step, the play state and the time series stay. */
void
ks_heat_page_hybrid_toggled_cb (KsHeatPage *self)
{
  const gboolean on = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->hybrid_check));
  const double lambda = exp2 (gtk_range_get_value (GTK_RANGE (self->lambda_scale)));

  if (!self->started)
    return;
  g_mutex_lock (&self->lock);
  /* A problem still to be built takes the split with it. */
  if (self->want_setup != NULL)
    {
      self->want_setup->hybrid = on;
      self->want_setup->lambda = lambda;
    }
  self->want_hybrid = on;
  self->want_hybrid_lambda = lambda;
  self->want_lambda = NAN;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* "N cells, T ms a step" of one kind of part: its own work in the CG
 * (KsHeatStepStats.part_busy_s) where the step measured it. */
static char *
part_text (const Frame *f, KsHybridPart part)
{
  const double s = f->st.part_busy_s[part];

  if (f->st.step == 0 || !(s > 0))
    return g_strdup_printf (ngettext ("%llu cell", "%llu cells", f->cells[part]),
                            (unsigned long long) f->cells[part]);
  return g_strdup_printf (ngettext ("%llu cell, %.2f ms a step", "%llu cells, %.2f ms a step", f->cells[part]),
                          (unsigned long long) f->cells[part], 1e3 * s);
}

static void
show_legend (KsHeatPage *self, const Frame *f)
{
  g_autofree char *cpu = NULL, *gpu = NULL, *text = NULL;

  if (self->shown_cells[KS_HYBRID_GPU] + self->shown_cells[KS_HYBRID_CPU] == 0)
    {
      gtk_widget_hide (self->legend_label);
      return;
    }
  cpu = part_text (f, KS_HYBRID_CPU);
  gpu = part_text (f, KS_HYBRID_GPU);
  text = g_strdup_printf (_("Hatched: the CPU part, %s.  Plain: the device part, %s.  "
                            "(Each part's own work in the CG; beyond it each waits for the other at the sums "
                            "and the halo exchange.)"), cpu, gpu);
  gtk_label_set_text (GTK_LABEL (self->legend_label), text);
  gtk_widget_show (self->legend_label);
}

void
ks_heat_page_show_split (KsHeatPage *self, const Frame *f)
{
  if (f->parts_changed && self->mesh != NULL && f->n_cells == self->mesh->n_cells)
    {
      ks_plot_set_mesh_parts (self->mesh_plot, f->parts);
      ks_plot_set_mesh_hatched_part (self->mesh_plot, f->parts != NULL ? KS_HYBRID_CPU : G_MAXUINT32);
      for (guint k = 0; k < KS_HYBRID_N_PARTS; k++)
        self->shown_cells[k] = f->parts != NULL ? f->cells[k] : 0;
    }
  if (f->balance != NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->balance_label), f->balance);
      self->lambda_b = f->lambda_b;
      gtk_scale_clear_marks (GTK_SCALE (self->lambda_scale));
      if (f->lambda_b > 0)
        gtk_scale_add_mark (GTK_SCALE (self->lambda_scale), log2 (f->lambda_b), GTK_POS_BOTTOM, "λ<sub>b</sub>");
    }
  if (self->mesh != NULL)
    show_legend (self, f);
}

void
ks_heat_page_show_notes (KsHeatPage *self, const char *notes)
{
  gtk_label_set_text (GTK_LABEL (self->note_label), notes != NULL ? notes : "");
  gtk_widget_set_visible (self->note_label, notes != NULL);
}

gboolean
ks_heat_page_get_split (KsHeatPage *self, guint64 *device_cells, guint64 *cpu_cells)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), FALSE);
  if (device_cells)
    *device_cells = self->shown_cells[KS_HYBRID_GPU];
  if (cpu_cells)
    *cpu_cells = self->shown_cells[KS_HYBRID_CPU];
  return self->shown_cells[KS_HYBRID_GPU] + self->shown_cells[KS_HYBRID_CPU] > 0;
}

double
ks_heat_page_get_lambda_b (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), NAN);
  return self->lambda_b;
}

const char *
ks_heat_page_get_legend (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), NULL);
  return gtk_widget_get_visible (self->legend_label) ? gtk_label_get_text (GTK_LABEL (self->legend_label)) : NULL;
}

const char *
ks_heat_page_get_notes (KsHeatPage *self)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), NULL);
  return gtk_widget_get_visible (self->note_label) ? gtk_label_get_text (GTK_LABEL (self->note_label)) : NULL;
}
