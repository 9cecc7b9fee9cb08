/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-gui"

#include "ks-tridiag-solve-page.h"

#include <glib/gi18n.h>
#include <math.h>

#include "ks-gui-paths.h"
#include "ks-mtx.h"
#include "ks-tridiag.h"

struct _KsTridiagSolvePage {
  KsPage      parent_instance;

  GtkWidget  *matrix_button, *rhs_button, *systems_spin, *method_combo, *precision_combo;
  GtkWidget  *status_label, *save_button, *sample_button;

  /* The last solve that worked: its solution and what it was of. */
  double     *x;
  guint       rows;
  double      residual;
  char       *status;
};

G_DEFINE_TYPE (KsTridiagSolvePage, ks_tridiag_solve_page, KS_TYPE_PAGE)

/* The worker's input and output. */
typedef struct {
  KsDevice        *device;
  char            *matrix, *rhs;
  guint            systems;
  gboolean         default_method;
  KsTridiagMethod  method;
  KsPrecision      precision;
  /* Out. */
  double          *x;
  guint            n, rows;
  double           ms, residual;
  char            *warning;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_object_unref (job->device);
  g_free (job->matrix);
  g_free (job->rhs);
  g_free (job->x);
  g_free (job->warning);
  g_free (job);
}

static gboolean
solve_work (gpointer       data,
            GCancellable  *cancellable,
            GError       **error)
{
  Job *job = data;
  g_autoptr(KsTridiagBatch) batch = NULL;
  guint sys = 0, row = 0;

  if (!(batch = ks_tridiag_batch_load (job->matrix, job->rhs, job->systems, error)))
    return FALSE;
  if (job->default_method)
    job->method = ks_tridiag_default_method (job->device, job->precision, batch->n, batch->systems);
  if (!ks_tridiag_method_pivots (job->method) && !ks_tridiag_batch_is_dominant (batch, &sys, &row))
    job->warning = g_strdup_printf (_("The matrix is not diagonally dominant (system %u, row %u: |b| < |a| + |c|); "
                                      "%s does not pivot and may be unstable there: the residual says how it went."),
                                    sys, row, ks_tridiag_method_to_string (job->method));
  job->n = batch->n;
  job->rows = batch->n * batch->systems;
  job->x = g_new0 (double, job->rows);
  if (!ks_tridiag_solve (job->device, batch, job->method, job->precision, TRUE, job->x, &job->ms, error))
    return FALSE;
  job->residual = ks_tridiag_batch_residual (batch, job->x, 0);
  return TRUE;
}

static void
set_status (KsTridiagSolvePage *self,
            char               *text)
{
  g_free (self->status);
  self->status = text;
  gtk_label_set_text (GTK_LABEL (self->status_label), text);
}

static void
solve_done (KsPage       *page,
            gpointer      data,
            const GError *error)
{
  KsTridiagSolvePage *self = KS_TRIDIAG_SOLVE_PAGE (page);
  Job *job = data;

  if (error == NULL)
    {
      g_free (self->x);
      self->x = g_steal_pointer (&job->x);
      self->rows = job->rows;
      self->residual = job->residual;
      /* TRANSLATORS: "40 systems of 4095 unknowns by thomas-coalesced on
       * pthread-haswell (float): 1.25 ms, max |Ax - b| = 3.1e-07" */
      set_status (self, g_strdup_printf (_("%u systems of %u unknowns by %s on %s (%s): %.4g ms, max |Ax - b| = "
                                           "%.3g%s%s"),
                                         job->rows / job->n, job->n, ks_tridiag_method_to_string (job->method),
                                         ks_tridiag_method_is_host (job->method) ? _("the host")
                                                                                 : ks_device_get_name (job->device),
                                         ks_precision_to_string (job->precision), job->ms, job->residual,
                                         job->warning ? "\n" : "", job->warning ? job->warning : ""));
      gtk_widget_set_sensitive (self->save_button, TRUE);
      ks_page_emit_progress (KS_PAGE (self), 1, 1, 1.0);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    set_status (self, g_strdup (_("Stopped before the solve finished.")));
  else
    /* In the page, where the form is: what was wrong, in the files' or
     * the solver's words (the window's error bar says it too). */
    set_status (self, g_strdup_printf (_("The solve failed: %s"), error->message));
}

static gboolean
ks_tridiag_solve_page_start (KsPage        *page,
                             KsDevice      *device,
                             GCancellable  *cancellable,
                             GError       **error)
{
  KsTridiagSolvePage *self = KS_TRIDIAG_SOLVE_PAGE (page);
  g_autofree char *matrix = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (self->matrix_button));
  g_autofree char *rhs = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (self->rhs_button));
  const char *method = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->method_combo));
  Job *job;

  if (matrix == NULL || rhs == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Choose the matrix A and the right-hand side b (Matrix Market files) first"));
      set_status (self, g_strdup ((*error)->message));
      return FALSE;
    }
  job = g_new0 (Job, 1);
  job->device = g_object_ref (device);
  job->matrix = g_steal_pointer (&matrix);
  job->rhs = g_steal_pointer (&rhs);
  job->systems = (guint) gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->systems_spin));
  job->default_method = method == NULL || !ks_tridiag_method_from_string (method, &job->method);
  ks_precision_from_string (gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->precision_combo)), &job->precision);

  /* The last solution is of the last files: gone once another solve
   * starts, so Save never writes one that does not answer the form. */
  g_clear_pointer (&self->x, g_free);
  gtk_widget_set_sensitive (self->save_button, FALSE);
  set_status (self, g_strdup (_("Solving…")));
  ks_page_run_job (page, job, job_free, solve_work, solve_done, cancellable);
  return TRUE;
}

gboolean
ks_tridiag_solve_page_save_solution (KsTridiagSolvePage *self,
                                     const char         *path,
                                     GError            **error)
{
  g_return_val_if_fail (KS_IS_TRIDIAG_SOLVE_PAGE (self) && path != NULL, FALSE);

  if (self->x == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no solution to save: run a solve first"));
      return FALSE;
    }
  return ks_mtx_write_dense (path, self->rows, 1, self->x, "solution x of Kernelscope's tridiagonal solve", error);
}

static void
save_response_cb (GtkNativeDialog    *dialog,
                  int                 response,
                  KsTridiagSolvePage *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;

      if (!ks_tridiag_solve_page_save_solution (self, path, &error))
        {
          set_status (self, g_strdup_printf (_("The solution was not saved: %s"), error->message));
          ks_page_emit_error (KS_PAGE (self), _("The solution was not saved"), error);
        }
    }
  g_object_unref (dialog);
}

static void
save_clicked_cb (KsTridiagSolvePage *self)
{
  GtkWidget *toplevel = gtk_widget_get_toplevel (GTK_WIDGET (self));
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (_("Save Solution"),
                                                              GTK_IS_WINDOW (toplevel) ? GTK_WINDOW (toplevel) : NULL,
                                                              GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));

  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "x.mtx");
  g_signal_connect (dialog, "response", G_CALLBACK (save_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
ks_tridiag_solve_page_set_input (KsTridiagSolvePage *self,
                                 const char         *matrix,
                                 const char         *rhs,
                                 guint               systems,
                                 const char         *method)
{
  g_return_if_fail (KS_IS_TRIDIAG_SOLVE_PAGE (self));

  if (matrix)
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (self->matrix_button), matrix);
  else
    gtk_file_chooser_unselect_all (GTK_FILE_CHOOSER (self->matrix_button));
  if (rhs)
    gtk_file_chooser_set_filename (GTK_FILE_CHOOSER (self->rhs_button), rhs);
  else
    gtk_file_chooser_unselect_all (GTK_FILE_CHOOSER (self->rhs_button));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->systems_spin), systems);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->method_combo), method ? method : "auto");
}

const char *
ks_tridiag_solve_page_get_status (KsTridiagSolvePage *self)
{
  g_return_val_if_fail (KS_IS_TRIDIAG_SOLVE_PAGE (self), NULL);
  return self->status ? self->status : "";
}

double
ks_tridiag_solve_page_get_residual (KsTridiagSolvePage *self)
{
  g_return_val_if_fail (KS_IS_TRIDIAG_SOLVE_PAGE (self), NAN);
  return self->x ? self->residual : NAN;
}

/* The sample batch shipped in data/samples/: its A, b and system count. */
#define SAMPLE_MATRIX  "tridiag-A.mtx"
#define SAMPLE_RHS     "tridiag-b.mtx"
#define SAMPLE_SYSTEMS 4

gboolean
ks_tridiag_solve_page_open_sample (KsTridiagSolvePage *self)
{
  g_autofree char *matrix = NULL;
  g_autofree char *rhs = NULL;

  g_return_val_if_fail (KS_IS_TRIDIAG_SOLVE_PAGE (self), FALSE);
  matrix = ks_gui_sample_path (SAMPLE_MATRIX);
  rhs = ks_gui_sample_path (SAMPLE_RHS);
  if (matrix == NULL || rhs == NULL)
    return FALSE;
  ks_tridiag_solve_page_set_input (self, matrix, rhs, SAMPLE_SYSTEMS, NULL);
  set_status (self, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The sample batch: %u system. Run solves it.",
                                                  "The sample batch: %u systems. Run solves them.", SAMPLE_SYSTEMS),
                                     SAMPLE_SYSTEMS));
  return TRUE;
}

static GtkWidget *
new_sample_button (KsTridiagSolvePage *self)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Open the Sample"));
  g_autofree char *matrix = ks_gui_sample_path (SAMPLE_MATRIX);

  gtk_widget_set_halign (button, GTK_ALIGN_START);
  /* A first look needs no files of one's own: a small batch that solves. */
  gtk_widget_set_tooltip_text (button, matrix != NULL
                               ? _("Fills A and b with a sample batch of small diagonally dominant systems")
                               : _("The sample files are not installed"));
  gtk_widget_set_sensitive (button, matrix != NULL);
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (ks_tridiag_solve_page_open_sample), self);
  return button;
}

static GtkWidget *
mtx_chooser (const char *title)
{
  GtkWidget *button = gtk_file_chooser_button_new (title, GTK_FILE_CHOOSER_ACTION_OPEN);
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Matrix Market files (*.mtx)"));
  gtk_file_filter_add_pattern (filter, "*.mtx");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (button), filter);
  gtk_widget_set_hexpand (button, TRUE);
  return button;
}

static void
add_row (GtkGrid    *grid,
         guint       row,
         const char *label,
         GtkWidget  *widget)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_label_set_xalign (GTK_LABEL (l), 1.0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), widget);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 1, 1);
}

static void
ks_tridiag_solve_page_finalize (GObject *object)
{
  KsTridiagSolvePage *self = KS_TRIDIAG_SOLVE_PAGE (object);

  g_free (self->x);
  g_free (self->status);
  G_OBJECT_CLASS (ks_tridiag_solve_page_parent_class)->finalize (object);
}

static void
ks_tridiag_solve_page_dispose (GObject *object)
{
  KsTridiagSolvePage *self = KS_TRIDIAG_SOLVE_PAGE (object);

  /* solve_done_cb, after the window closed, finds it NULL. */
  self->status_label = NULL;
  G_OBJECT_CLASS (ks_tridiag_solve_page_parent_class)->dispose (object);
}

static void
ks_tridiag_solve_page_class_init (KsTridiagSolvePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  KsPageClass *page_class = KS_PAGE_CLASS (klass);

  object_class->dispose = ks_tridiag_solve_page_dispose;
  object_class->finalize = ks_tridiag_solve_page_finalize;
  page_class->start = ks_tridiag_solve_page_start;
}

static void
ks_tridiag_solve_page_init (KsTridiagSolvePage *self)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  GtkWidget *title = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", _("Your tridiagonal systems"));

  self->residual = NAN;
  gtk_container_set_border_width (GTK_CONTAINER (self), 12);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 12);
  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0);
  gtk_box_pack_start (GTK_BOX (self), title, FALSE, FALSE, 0);

  gtk_grid_set_row_spacing (grid, 6);
  gtk_grid_set_column_spacing (grid, 12);
  self->matrix_button = mtx_chooser (_("Matrix A"));
  self->rhs_button = mtx_chooser (_("Right-hand side b"));
  self->systems_spin = gtk_spin_button_new_with_range (1, 1 << 24, 1);
  self->method_combo = gtk_combo_box_text_new ();
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->method_combo), "auto",
                             _("the fastest for the shape"));
  for (KsTridiagMethod m = 0; m < KS_TRIDIAG_N_METHODS; m++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->method_combo), ks_tridiag_method_to_string (m),
                               ks_tridiag_method_to_string (m));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->method_combo), "auto");
  self->precision_combo = gtk_combo_box_text_new ();
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->precision_combo), "double", _("double"));
  gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->precision_combo), "float", _("float"));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->precision_combo), "double");
  add_row (grid, 0, _("_Matrix A:"), self->matrix_button);
  add_row (grid, 1, _("Right-hand side _b:"), self->rhs_button);
  add_row (grid, 2, _("S_ystems in A:"), self->systems_spin);
  add_row (grid, 3, _("M_ethod:"), self->method_combo);
  add_row (grid, 4, _("_Precision:"), self->precision_combo);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (grid), FALSE, FALSE, 0);
  self->sample_button = new_sample_button (self);
  gtk_box_pack_start (GTK_BOX (self), self->sample_button, FALSE, FALSE, 0);

  self->status_label = gtk_label_new (_("Choose A and b, or open the sample, then Run."));
  gtk_label_set_xalign (GTK_LABEL (self->status_label), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (self->status_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->status_label), TRUE);
  gtk_box_pack_start (GTK_BOX (self), self->status_label, FALSE, FALSE, 0);

  self->save_button = gtk_button_new_with_mnemonic (_("_Save Solution…"));
  gtk_widget_set_halign (self->save_button, GTK_ALIGN_START);
  gtk_widget_set_sensitive (self->save_button, FALSE);
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (save_clicked_cb), self);
  gtk_box_pack_start (GTK_BOX (self), self->save_button, FALSE, FALSE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
}
