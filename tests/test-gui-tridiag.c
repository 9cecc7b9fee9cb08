/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The tridiagonal page of paper 002 ("your systems") under Xvfb: three
 * systems of 6 unknowns from Matrix Market files solved on PoCL by the
 * default method and by thomas-transposed, each solution saved and held to
 * the host's double Thomas; a matrix with an entry outside the band and a
 * coupling between systems named in the page; Save before any solve
 * refused; "Open the Sample" (data/samples/) filled in and solved.  Screenshots go to $KERNELSCOPE_SCREENSHOT_DIR
 * (tridiag-solve.png, tridiag-solve-bad.png). */
#define G_LOG_DOMAIN "test-gui-tridiag"

#include "test-gui-util.h"
#include "ks-mtx.h"
#include "ks-tridiag.h"
#include "ks-tridiag-solve-page.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define N 6
#define K 3

static KsTridiagSolvePage *
solve_page (void)
{
  return KS_TRIDIAG_SOLVE_PAGE (ks_window_get_page (window, "tridiag-solve"));
}

static gboolean
done (void)
{
  return !ks_window_get_running (window);
}

/* K diagonally dominant systems of N, as coordinate entries, and b. */
static void
write_inputs (const char *matrix,
              const char *rhs,
              const char *extra)
{
  g_autoptr(GString) a = g_string_new ("%%MatrixMarket matrix coordinate real general\n");
  g_autoptr(GString) b = g_string_new ("%%MatrixMarket matrix array real general\n");
  guint entries = 0;
  g_autoptr(GString) body = g_string_new (NULL);

  for (guint s = 0; s < K; s++)
    for (guint i = 0; i < N; i++)
      {
        const guint r = s * N + i + 1;
        g_string_append_printf (body, "%u %u %g\n", r, r, 4.0 + s + 0.25 * i);
        entries++;
        if (i > 0)
          g_string_append_printf (body, "%u %u %g\n", r, r - 1, -1.0 - 0.1 * i), entries++;
        if (i + 1 < N)
          g_string_append_printf (body, "%u %u %g\n", r, r + 1, 0.5 + 0.05 * s), entries++;
      }
  if (extra)
    g_string_append (body, extra), entries++;
  g_string_append_printf (a, "%u %u %u\n%s", K * N, K * N, entries, body->str);
  g_string_append_printf (b, "%u 1\n", K * N);
  for (guint r = 0; r < K * N; r++)
    g_string_append_printf (b, "%g\n", 1.0 + 0.5 * (r % 5));
  g_assert_true (g_file_set_contents (matrix, a->str, -1, NULL));
  g_assert_true (g_file_set_contents (rhs, b->str, -1, NULL));
}

/* The saved x against the host's double Thomas on the same files. */
static void
check_saved (const char *matrix,
             const char *rhs,
             const char *saved)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KsTridiagBatch) batch = ks_tridiag_batch_load (matrix, rhs, K, &error);
  g_autofree double *ref = g_new0 (double, K * N);
  g_autofree double *x = NULL;
  guint rows = 0, cols = 0;

  g_assert_no_error (error);
  g_assert_true (ks_tridiag_host_solve (batch, KS_TRIDIAG_CPU_THOMAS, KS_PRECISION_DOUBLE, FALSE, ref, NULL, &error));
  g_assert_true (ks_mtx_read_dense (saved, K * N, &rows, &cols, &x, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rows, ==, K * N);
  g_assert_cmpuint (cols, ==, 1);
  for (guint i = 0; i < K * N; i++)
    g_assert_cmpfloat (fabs (x[i] - ref[i]), <, 1e-12);
}

static void
test_solve (void)
{
  KsTridiagSolvePage *page = solve_page ();
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL);
  g_autofree char *matrix = g_build_filename (tmpdir, "A.mtx", NULL);
  g_autofree char *rhs = g_build_filename (tmpdir, "b.mtx", NULL);
  g_autofree char *saved = g_build_filename (tmpdir, "x.mtx", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (page);
  ks_window_show_page (window, "tridiag-solve");
  /* Nothing solved yet: nothing to save. */
  g_assert_false (ks_tridiag_solve_page_save_solution (page, saved, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  if (d == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  g_assert_true (ks_window_set_device_id (window, ks_device_get_id (d)));
  write_inputs (matrix, rhs, NULL);

  /* The default for 3 systems, then a method named. */
  ks_tridiag_solve_page_set_input (page, matrix, rhs, K, NULL);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (200);
  g_test_message ("%s", ks_tridiag_solve_page_get_status (page));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
  /* Three systems are a small batch: thomas-split (ks_tridiag_default_method). */
  g_assert_nonnull (strstr (ks_tridiag_solve_page_get_status (page), "3 systems of 6 unknowns by thomas-split"));
  g_assert_cmpfloat (ks_tridiag_solve_page_get_residual (page), <, 1e-12);
  g_assert_true (ks_tridiag_solve_page_save_solution (page, saved, &error));
  g_assert_no_error (error);
  check_saved (matrix, rhs, saved);
  screenshot ("tridiag-solve.png");

  ks_tridiag_solve_page_set_input (page, matrix, rhs, K, "thomas-transposed");
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (100);
  g_assert_nonnull (strstr (ks_tridiag_solve_page_get_status (page), "by thomas-transposed"));
  g_assert_true (ks_tridiag_solve_page_save_solution (page, saved, &error));
  check_saved (matrix, rhs, saved);
}

static void
test_bad_files (void)
{
  KsTridiagSolvePage *page = solve_page ();
  g_autofree char *matrix = g_build_filename (tmpdir, "bad.mtx", NULL);
  g_autofree char *rhs = g_build_filename (tmpdir, "bad-b.mtx", NULL);
  const char *status;

  if (ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL) == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) on this machine");
      return;
    }
  ks_window_show_page (window, "tridiag-solve");
  /* Row 2, column 9: outside the band. */
  write_inputs (matrix, rhs, "2 9 1.5\n");
  ks_tridiag_solve_page_set_input (page, matrix, rhs, K, NULL);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (200);
  status = ks_tridiag_solve_page_get_status (page);
  g_test_message ("%s", status);
  g_assert_nonnull (strstr (status, "The solve failed"));
  g_assert_nonnull (strstr (status, "(2, 9)"));
  g_assert_cmpstr (ks_window_get_error_text (window), !=, "");
  /* The good solve before is not offered as this one's. */
  {
    g_autofree char *saved = g_build_filename (tmpdir, "x-bad.mtx", NULL);
    g_autoptr(GError) error = NULL;
    g_assert_false (ks_tridiag_solve_page_save_solution (page, saved, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_false (g_file_test (saved, G_FILE_TEST_EXISTS));
  }
  screenshot ("tridiag-solve-bad.png");

  /* Row 7 (system 1) coupled to row 6 (system 0), in a band: a coupling
   * the block-diagonal batch must not have. */
  write_inputs (matrix, rhs, "7 6 -1\n");
  ks_tridiag_solve_page_set_input (page, matrix, rhs, K, NULL);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (100);
  g_test_message ("%s", ks_tridiag_solve_page_get_status (page));
  g_assert_nonnull (strstr (ks_tridiag_solve_page_get_status (page), "(7, 6)"));
  /* In words the window's form fits: no "--systems". */
  g_assert_null (strstr (ks_tridiag_solve_page_get_status (page), "--"));

  /* No files: Run says what is missing. */
  ks_tridiag_solve_page_set_input (page, NULL, NULL, 1, NULL);
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 60));
  spin (100);
  g_assert_nonnull (strstr (ks_tridiag_solve_page_get_status (page), "Matrix Market"));
}

static void
find_button_cb (GtkWidget *widget,
                gpointer   data)
{
  GtkWidget **found = data;

  if (*found != NULL)
    return;
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), _("_Open the Sample")) == 0)
    *found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_button_cb, data);
}

/* "Open the Sample" fills A, b and the system count with the batch in
 * data/samples/, and Run solves it: a first look needs no files. */
static void
test_sample (void)
{
  KsTridiagSolvePage *page = solve_page ();
  KsDevice *d = ks_device_list_find_backend (ks_application_get_device_list (app), KS_BACKEND_OPENCL);
  GtkWidget *button = NULL;

  ks_window_show_page (window, "tridiag-solve");
  ks_tridiag_solve_page_set_input (page, NULL, NULL, 1, NULL);
  find_button_cb (GTK_WIDGET (page), &button);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_get_sensitive (button));
  /* Alt and a letter reaches it, a letter no other control takes. */
  {
    g_autoptr(GHashTable) keys = g_hash_table_new (NULL, NULL);
    g_autoptr(GString) clashes = g_string_new (NULL);

    collect_mnemonics (GTK_WIDGET (window), keys, clashes);
    g_assert_cmpstr (clashes->str, ==, "");
    g_assert_true (g_hash_table_contains (keys, GUINT_TO_POINTER (GDK_KEY_o)));
  }
  gtk_button_clicked (GTK_BUTTON (button));
  spin (100);
  g_test_message ("%s", ks_tridiag_solve_page_get_status (page));
  g_assert_nonnull (strstr (ks_tridiag_solve_page_get_status (page), "4 systems"));
  if (d == NULL)
    {
      g_test_skip ("no OpenCL device (PoCL) to solve the sample on");
      return;
    }
  g_assert_true (ks_window_set_device_id (window, ks_device_get_id (d)));
  press_key (GDK_KEY_r, GDK_CONTROL_MASK);
  g_assert_true (wait_for (done, 120));
  spin (100);
  g_test_message ("%s", ks_tridiag_solve_page_get_status (page));
  g_assert_cmpstr (ks_window_get_error_text (window), ==, "");
  g_assert_nonnull (strstr (ks_tridiag_solve_page_get_status (page), "4 systems of 8 unknowns"));
  g_assert_cmpfloat (ks_tridiag_solve_page_get_residual (page), <, 1e-12);
  screenshot ("tridiag-solve-sample.png");
}

int
main (int argc, char **argv)
{
  int status;

  if (!ks_test_gui_init (&argc, &argv))
    return 0;
  g_test_add_func ("/gui-tridiag/solve", test_solve);
  g_test_add_func ("/gui-tridiag/bad-files", test_bad_files);
  g_test_add_func ("/gui-tridiag/sample", test_sample);
  status = g_test_run ();
  ks_test_gui_shutdown ();
  return status;
}
