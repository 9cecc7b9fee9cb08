/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page-split.c: what the heat page shows of paper 004's hybrid
 * split (see ks-heat-page.h): the CPU part's cells hatched over the
 * temperature, a legend saying which part is which, each part's time a
 * CG iteration and the sums' and halo's share of it, lambda against
 * lambda_b and the measured best, both marked on the slider; switching the
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

/* "N cells, T ms a CG iteration" of one kind of part, and where its CG
 * time went: its own work (KsHeatStepStats.part_busy_s), waiting at the
 * sums, waiting at the halo exchange (part_sums_s, part_halo_s: together
 * the whole, so the three shares add up). */
static char *
part_text (const Frame *f, KsHybridPart part)
{
  const double busy = f->st.part_busy_s[part], halo = f->st.part_halo_s[part], sums = f->st.part_sums_s[part];
  const double all = busy + halo + sums;

  if (f->st.step == 0 || f->st.cg_iterations == 0 || !(f->st.part_iterate_s[part] > 0) || !(all > 0))
    return g_strdup_printf (ngettext ("%llu cell", "%llu cells", f->cells[part]),
                            (unsigned long long) f->cells[part]);
  return g_strdup_printf (ngettext ("%llu cell, %.3f ms a CG iteration: its own work %.0f %%, "
                                    "waiting at the sums %.0f %%, at the halo %.0f %%",
                                    "%llu cells, %.3f ms a CG iteration: its own work %.0f %%, "
                                    "waiting at the sums %.0f %%, at the halo %.0f %%", f->cells[part]),
                          (unsigned long long) f->cells[part], 1e3 * f->st.part_iterate_s[part] / f->st.cg_iterations,
                          100 * busy / all, 100 * sums / all, 100 * halo / all);
}

/* lambda now against lambda_b and the best measured on this mesh. */
static char *
lambda_text (KsHeatPage *self)
{
  const double lambda = exp2 (gtk_range_get_value (GTK_RANGE (self->lambda_scale)));
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_printf (text, _("lambda %.2f"), lambda);
  if (self->lambda_b > 0)
    g_string_append_printf (text, _(", lambda_b %.2f"), self->lambda_b);
  if (self->best_lambda > 0)
    g_string_append_printf (text, _(", the measured best %.2f (%.3f ms a CG iteration)"), self->best_lambda,
                            1e3 * self->best_iter_s);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
show_legend (KsHeatPage *self, const Frame *f)
{
  g_autofree char *cpu = NULL, *gpu = NULL, *lambdas = NULL, *text = NULL;

  if (self->shown_cells[KS_HYBRID_GPU] + self->shown_cells[KS_HYBRID_CPU] == 0)
    {
      gtk_widget_hide (self->legend_label);
      return;
    }
  cpu = part_text (f, KS_HYBRID_CPU);
  gpu = part_text (f, KS_HYBRID_GPU);
  lambdas = lambda_text (self);
  text = g_strdup_printf (_("Hatched: the CPU part, %s.\nPlain: the device part, %s.\n%s."), cpu, gpu, lambdas);
  gtk_label_set_text (GTK_LABEL (self->legend_label), text);
  gtk_widget_show (self->legend_label);
}

/* lambda_b under the slider, the measured best above it. */
static void
show_marks (KsHeatPage *self)
{
  GtkScale *scale = GTK_SCALE (self->lambda_scale);
  GtkAdjustment *adj = gtk_range_get_adjustment (GTK_RANGE (scale));
  const double lo = gtk_adjustment_get_lower (adj), hi = gtk_adjustment_get_upper (adj);
  g_autofree char *best = g_markup_printf_escaped ("%s", _("measured best"));

  gtk_scale_clear_marks (scale);
  if (self->lambda_b > 0)
    gtk_scale_add_mark (scale, CLAMP (log2 (self->lambda_b), lo, hi), GTK_POS_BOTTOM, "λ<sub>b</sub>");
  if (self->best_lambda > 0)
    gtk_scale_add_mark (scale, CLAMP (log2 (self->best_lambda), lo, hi), GTK_POS_TOP, best);
}

void
ks_heat_page_show_split (KsHeatPage *self, const Frame *f)
{
  gboolean marks = FALSE;

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
      marks = TRUE;
    }
  /* NAN (none yet, or another mesh) or a lower time at another lambda. */
  if (!(f->best_lambda == self->best_lambda || (isnan (f->best_lambda) && isnan (self->best_lambda))))
    {
      self->best_lambda = f->best_lambda;
      marks = TRUE;
    }
  self->best_iter_s = f->best_iter_s;
  if (marks)
    show_marks (self);
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

double
ks_heat_page_get_best_lambda (KsHeatPage *self, double *iter_s)
{
  g_return_val_if_fail (KS_IS_HEAT_PAGE (self), NAN);
  if (iter_s != NULL)
    *iter_s = self->best_iter_s;
  return self->best_lambda;
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
