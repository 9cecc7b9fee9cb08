/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-gauss-solve-page.h"

#include <glib/gi18n.h>
#include "ks-gauss-blocked.h"
#include "ks-linear-system.h"

struct _KsGaussSolvePage {
  KsPage         parent_instance;

  GtkWidget     *n_spin, *precision_combo, *range_combo, *local_combo, *wg_spin, *launch_combo;
  GtkWidget     *status_label, *residual_label, *wall_label, *launches_label, *groups_label;
  GtkWidget     *results_grid, *host_note;
  GtkWidget     *kernel_bar[KS_GAUSS_N_KERNELS];
  GtkWidget     *kernel_label[KS_GAUSS_N_KERNELS];

  KsGaussResult  result;
  gboolean       has_result;
  gboolean       on_host;   /* the chosen device runs plain loops: no groups */
};

G_DEFINE_TYPE (KsGaussSolvePage, ks_gauss_solve_page, KS_TYPE_PAGE)

typedef struct {
  KsDevice     *device;
  KsPrecision   precision;
  KsGaussParams params;
  guint         n;
  KsGaussResult result;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;
  g_object_unref (job->device);
  g_free (job);
}

static gboolean
solve_work (gpointer       data,
            GCancellable  *cancellable,
            GError       **error)
{
  Job *job = data;
  g_autoptr(KsGaussSolver) solver = NULL;
  g_autoptr(KsLinearSystem) sys = NULL;
  double capture_ms;

  solver = ks_gauss_solver_new (job->device, job->precision, error);
  if (solver == NULL || !ks_gauss_solver_check (solver, job->n, &job->params, error))
    return FALSE;
  sys = ks_linear_system_new_random (job->n, 42, error);
  if (sys == NULL || !ks_gauss_solver_solve (solver, sys, &job->params, cancellable, NULL, &job->result, error))
    return FALSE;
  /* Under a CUDA graph the first solve records it; solve again so the
   * figures shown are of a replay, with the recording cost beside them. */
  if (job->params.launch != KS_LAUNCH_GRAPH)
    return TRUE;
  capture_ms = job->result.capture_ms;
  if (!ks_gauss_solver_solve (solver, sys, &job->params, cancellable, NULL, &job->result, error))
    return FALSE;
  job->result.capture_ms = capture_ms;
  return TRUE;
}

static void
show_result (KsGaussSolvePage *self)
{
  const KsGaussResult *r = &self->result;
  g_autofree char *residual = g_strdup_printf ("%.2e", r->residual);
  g_autofree char *wall = r->launch == KS_LAUNCH_GRAPH
    ? g_strdup_printf (_("%.3f ms as a graph replay (device %.3f ms); recording the graph took %.3f ms once"),
                       r->wall_ms, r->kernels_total_ms, r->capture_ms)
    : g_strdup_printf (_("%.3f ms (kernels %.3f ms)"), r->wall_ms, r->kernels_total_ms);
  g_autofree char *launches = g_strdup_printf ("%u", r->launches);
  g_autofree char *groups = NULL;

  if (r->launch == KS_LAUNCH_BLOCKED)
    groups = g_strdup_printf (_("blocked: %d columns a launch, tiles of 64 × 64"),
                              KS_GAUSS_BLOCK);
  else if (r->fwd_local[0] == 0)
    groups = g_strdup (_("none: the host runs plain loops"));
  else
    {
      guint local = r->fwd_local[0] * MAX (r->fwd_local[1], 1);
      guint n_groups = r->fwd_groups[0] * MAX (r->fwd_groups[1], 1);

      /* TRANSLATORS: "500 groups of 64 × 1 (64 work-items each)" */
      groups = g_strdup_printf (_("%u groups of %u × %u (%u work-items each)"), n_groups,
                                r->fwd_local[0], MAX (r->fwd_local[1], 1), local);
    }
  gtk_label_set_text (GTK_LABEL (self->residual_label), residual);
  gtk_label_set_text (GTK_LABEL (self->wall_label), wall);
  gtk_label_set_text (GTK_LABEL (self->launches_label), launches);
  gtk_label_set_text (GTK_LABEL (self->groups_label), groups);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    {
      double share = r->kernels_total_ms > 0 ? r->kernel_ms[k] / r->kernels_total_ms : 0;
      /* Inside a graph the kernels are not timed one by one. */
      g_autofree char *text = r->launch == KS_LAUNCH_GRAPH
        ? g_strdup (_("not timed in a graph"))
        : r->launch == KS_LAUNCH_BLOCKED
        ? g_strdup (_("not run (blocked)"))
        /* TRANSLATORS: a kernel's time and its share of all kernels' time */
        : g_strdup_printf (_("%.3f ms · %.0f %%"), r->kernel_ms[k], share * 100);

      if (r->launch != KS_LAUNCH_STREAM)
        share = 0;

      gtk_level_bar_set_value (GTK_LEVEL_BAR (self->kernel_bar[k]), share);
      gtk_label_set_text (GTK_LABEL (self->kernel_label[k]), text);
    }
}

static void
solve_done (KsPage       *page,
            gpointer      data,
            const GError *error)
{
  KsGaussSolvePage *self = KS_GAUSS_SOLVE_PAGE (page);
  Job *job = data;

  gtk_widget_set_sensitive (self->results_grid, TRUE);
  if (error == NULL)
    {
      g_autofree char *status = g_strdup_printf (_("n = %u on %s"), job->n,
                                                 ks_device_get_name (job->device));
      self->result = job->result;
      self->has_result = TRUE;
      gtk_label_set_text (GTK_LABEL (self->status_label), status);
      show_result (self);
      /* Only a finished solve counts as a measured point: a stopped one
       * must not be reported as kept. */
      ks_page_emit_progress (page, 1, 1, 1.0);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    gtk_label_set_text (GTK_LABEL (self->status_label),
                        _("The solve failed; the message above says why. The figures below are from the last solve that worked."));
  else
    gtk_label_set_text (GTK_LABEL (self->status_label),
                        self->has_result
                        ? _("Stopped. The figures below are from the last solve that finished.")
                        : _("Stopped before the solve finished."));
}

static gboolean
ks_gauss_solve_page_start (KsPage        *page,
                           KsDevice      *device,
                           GCancellable  *cancellable,
                           GError       **error)
{
  KsGaussSolvePage *self = KS_GAUSS_SOLVE_PAGE (page);
  Job *job = g_new0 (Job, 1);

  job->device = g_object_ref (device);
  job->n = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->n_spin));
  ks_precision_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->precision_combo)),
                            &job->precision);
  ks_range_policy_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->range_combo)),
                               &job->params.range);
  ks_local_policy_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->local_combo)),
                               &job->params.local);
  job->params.wg = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->wg_spin));
  ks_launch_mode_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->launch_combo)),
                              &job->params.launch);

  gtk_label_set_text (GTK_LABEL (self->status_label), _("Solving…"));
  /* The figures of the previous solve stay readable but dimmed, so they
   * are not taken for this solve's. */
  gtk_widget_set_sensitive (self->results_grid, FALSE);
  ks_page_run_job (page, job, job_free, solve_work, solve_done, cancellable);
  return TRUE;
}

static void
form_changed_cb (KsGaussSolvePage *self)
{
  gboolean driver = g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->local_combo)),
                               "driver") == 0;

  /* The host solver is plain loops: ranges and groups mean nothing there,
   * so the fields are greyed out with a line that says why. */
  gtk_widget_set_sensitive (self->range_combo, !self->on_host);
  gtk_widget_set_sensitive (self->local_combo, !self->on_host);
  gtk_widget_set_sensitive (self->wg_spin, !self->on_host && !driver);
  gtk_widget_set_visible (self->host_note, self->on_host);
}

static void
ks_gauss_solve_page_bind_settings (KsPage *page)
{
  KsGaussSolvePage *self = KS_GAUSS_SOLVE_PAGE (page);

  ks_page_bind_spin (page, "solve-n", GTK_SPIN_BUTTON (self->n_spin));
  ks_page_bind_spin (page, "solve-wg", GTK_SPIN_BUTTON (self->wg_spin));
  ks_page_bind_combo (page, "solve-precision", GTK_COMBO_BOX (self->precision_combo));
  ks_page_bind_combo (page, "solve-range", GTK_COMBO_BOX (self->range_combo));
  ks_page_bind_combo (page, "solve-local", GTK_COMBO_BOX (self->local_combo));
  ks_page_bind_combo (page, "solve-launch", GTK_COMBO_BOX (self->launch_combo));
}

static gboolean
ks_gauss_solve_page_save_state (KsPage        *page,
                                KsSessionPage *state,
                                GError       **error)
{
  KsGaussSolvePage *self = KS_GAUSS_SOLVE_PAGE (page);
  g_autofree char *n = g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->n_spin)));
  g_autofree char *wg = g_strdup_printf ("%d", gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->wg_spin)));

  return ks_session_page_set_value (state, "n", n, error)
    && ks_session_page_set_value (state, "wg", wg, error)
    && ks_session_page_set_value (state, "precision",
                                  gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->precision_combo)), error)
    && ks_session_page_set_value (state, "range",
                                  gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->range_combo)), error)
    && ks_session_page_set_value (state, "local",
                                  gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->local_combo)), error)
    && ks_session_page_set_value (state, "launch",
                                  gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->launch_combo)), error);
}

/* The fields the session has (checked by its reader); the others go back
 * to the page's defaults. */
static void
ks_gauss_solve_page_load_state (KsPage              *page,
                                const KsSessionPage *state)
{
  KsGaussSolvePage *self = KS_GAUSS_SOLVE_PAGE (page);
  const char *ids[] = { "precision", "range", "local", "launch" };
  GtkWidget *combos[] = { self->precision_combo, self->range_combo, self->local_combo,
                          self->launch_combo };
  const char *n = g_hash_table_lookup (state->values, "n");
  const char *wg = g_hash_table_lookup (state->values, "wg");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->n_spin), n ? g_ascii_strtod (n, NULL) : 500);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->wg_spin), wg ? g_ascii_strtod (wg, NULL) : 64);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const char *v = g_hash_table_lookup (state->values, ids[i]);
      if (v != NULL)
        gtk_combo_box_set_active_id (GTK_COMBO_BOX (combos[i]), v);
    }
}

static void
ks_gauss_solve_page_device_changed (KsPage   *page,
                                    KsDevice *device)
{
  KsGaussSolvePage *self = KS_GAUSS_SOLVE_PAGE (page);
  gboolean cuda = ks_device_get_backend (device) == KS_BACKEND_CUDA;

  self->on_host = ks_device_get_backend (device) == KS_BACKEND_HOST;
  /* Graphs are a CUDA feature, the blocked kernels any OpenCL or CUDA
   * device's; the host runs the paper's loops only. */
  if ((!cuda && g_strcmp0 (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->launch_combo)), "graph") == 0) ||
      self->on_host)
    gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->launch_combo), "stream");
  gtk_widget_set_sensitive (self->launch_combo, !self->on_host);
  form_changed_cb (self);
}

static void
ks_gauss_solve_page_class_init (KsGaussSolvePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  page_class->start = ks_gauss_solve_page_start;
  page_class->bind_settings = ks_gauss_solve_page_bind_settings;
  page_class->save_state = ks_gauss_solve_page_save_state;
  page_class->load_state = ks_gauss_solve_page_load_state;
  page_class->device_changed = ks_gauss_solve_page_device_changed;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/kernelscope/Kernelscope/ui/ks-gauss-solve-page.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, KsGaussSolvePage, name)
  BIND (n_spin); BIND (precision_combo); BIND (range_combo); BIND (local_combo); BIND (wg_spin);
  BIND (launch_combo);
  BIND (status_label); BIND (residual_label); BIND (wall_label); BIND (launches_label);
  BIND (groups_label); BIND (results_grid); BIND (host_note);
#undef BIND
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_bar0", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_bar[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_bar1", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_bar[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_bar2", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_bar[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_bar3", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_bar[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_label0", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_label[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_label1", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_label[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_label2", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_label[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "kernel_label3", FALSE,
                                             G_STRUCT_OFFSET (KsGaussSolvePage, kernel_label[3]));
  gtk_widget_class_bind_template_callback (widget_class, form_changed_cb);
}

static void
ks_gauss_solve_page_init (KsGaussSolvePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->precision_combo), "float");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->range_combo), "fixed");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->local_combo), "driver");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->launch_combo), "stream");
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    gtk_level_bar_set_value (GTK_LEVEL_BAR (self->kernel_bar[k]), 0);
}

const KsGaussResult *
ks_gauss_solve_page_get_result (KsGaussSolvePage *self)
{
  return self->has_result ? &self->result : NULL;
}

void
ks_gauss_solve_page_set_size (KsGaussSolvePage *self,
                              guint             n)
{
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->n_spin), n);
}
