/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-page.h: one experiment page of the window.
 *
 * The window knows pages only through this class: it asks the visible page
 * to run on the chosen device, listens to "progress" and "finished", asks
 * for the plot and the results to export, and for the page's state when a
 * session is saved or opened.  A new experiment is a KsPage subclass with
 * its own template, plus one line in the window's page table. */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include "ks-device.h"
#include "ks-plot-view.h"
#include "ks-session.h"

G_BEGIN_DECLS

#define KS_TYPE_PAGE (ks_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (KsPage, ks_page, KS, PAGE, GtkBox)

struct _KsPageClass {
  GtkBoxClass parent_class;

  /* Starts a run in the background; "finished" follows exactly once when
   * this returns TRUE, unless the page is destroyed meanwhile: then the
   * page calls ks_page_end_run() when the run's task completes.  NULL: the
   * page has nothing to run. */
  gboolean         (*start)          (KsPage        *self,
                                      KsDevice      *device,
                                      GCancellable  *cancellable,
                                      GError       **error);
  KsPlotView      *(*get_plot_view)  (KsPage        *self);
  /* Session (ks-session.h): put the page's parameters and runs into its
   * part of the session, which checks them (a field the session could not
   * read back is an error naming it); and apply a part that the session's
   * reader has checked whole, so applying cannot fail. */
  gboolean         (*save_state)     (KsPage              *self,
                                      KsSessionPage       *state,
                                      GError             **error);
  void             (*load_state)     (KsPage              *self,
                                      const KsSessionPage *state);
  /* The device in the header bar changed. */
  void             (*device_changed) (KsPage        *self,
                                      KsDevice      *device);
  /* The window has handed the page its GSettings: bind the form to it. */
  void             (*bind_settings)  (KsPage        *self);
  /* The data export: is there anything to write, and write it as format
   * ("csv" or "json") to path.  NULL: the page has no data to export. */
  gboolean         (*has_data)       (KsPage        *self);
  gboolean         (*write_data)     (KsPage        *self,
                                      const char    *path,
                                      const char    *format,
                                      GError       **error);
};

gboolean         ks_page_start          (KsPage        *self,
                                         KsDevice      *device,
                                         GCancellable  *cancellable,
                                         GError       **error);
gboolean         ks_page_can_run        (KsPage        *self);
gboolean         ks_page_get_running    (KsPage        *self);
gboolean         ks_page_get_controls_visible (KsPage   *self);
void             ks_page_set_controls_visible (KsPage   *self,
                                               gboolean  visible);
KsPlotView      *ks_page_get_plot_view  (KsPage        *self);
/* What Export Data writes: TRUE when the page has results to write. */
gboolean         ks_page_has_data       (KsPage        *self);
/* Writes them as format "csv" or "json" (atomically). */
gboolean         ks_page_write_data     (KsPage        *self,
                                         const char    *path,
                                         const char    *format,
                                         GError       **error);
gboolean         ks_page_save_state     (KsPage              *self,
                                         KsSessionPage       *state,
                                         GError             **error);
void             ks_page_load_state     (KsPage              *self,
                                         const KsSessionPage *state);
void             ks_page_device_changed (KsPage        *self,
                                         KsDevice      *device);
GSettings       *ks_page_get_settings   (KsPage        *self);
void             ks_page_set_settings   (KsPage        *self,
                                         GSettings     *settings);

/* For subclasses.  work is the fraction of the run's expected time done
 * (points are not equally costly: a size sweep's last point is the dearest). */
void             ks_page_emit_progress  (KsPage        *self,
                                         guint          done,
                                         guint          total,
                                         double         work);
/* A failure outside a run (a file that cannot be read, say); the window
 * shows it in its error bar. */
void             ks_page_emit_error     (KsPage        *self,
                                         const char    *title,
                                         const GError  *error);
/* error NULL: success; a cancelled run passes G_IO_ERROR_CANCELLED.
 * Ends the run (ks_page_end_run) before it emits "finished". */
void             ks_page_emit_finished  (KsPage        *self,
                                         const GError  *error);
/* The run's task has completed on a page that was destroyed meanwhile (its
 * window closed mid-run): nothing is left to show, but the application,
 * held from ks_page_start() so the process outlives the window while a
 * worker thread is still on the device, is released. */
void             ks_page_end_run        (KsPage        *self);
/* What the page shows changed (a run added, removed, hidden, a point
 * measured): "contents-changed" lets the window update Export and Copy. */
void             ks_page_emit_contents_changed (KsPage *self);
/* Commits text typed into the page's spin buttons that is not yet their
 * value (GTK takes it only on Enter or focus-out): a run started with
 * Ctrl+R, or a session saved, reads what the user sees. */
void             ks_page_commit_edits   (KsPage        *self);

/* A page's run as one job on a worker thread (the single-solve pages):
 * work runs there with the job and the run's cancellable, FALSE with an
 * error on failure; then, back on the main thread and only if the page
 * still lives, done shows the outcome (error NULL on success), and the
 * page emits "finished".  A page destroyed meanwhile (its window closed
 * mid-run) only ends the run (ks_page_end_run).  job is freed by
 * job_free once the task is done. */
typedef gboolean (*KsPageWorkFunc) (gpointer       job,
                                    GCancellable  *cancellable,
                                    GError       **error);
typedef void     (*KsPageDoneFunc) (KsPage        *self,
                                    gpointer       job,
                                    const GError  *error);
void             ks_page_run_job        (KsPage         *self,
                                         gpointer        job,
                                         GDestroyNotify  job_free,
                                         KsPageWorkFunc  work,
                                         KsPageDoneFunc  done,
                                         GCancellable   *cancellable);

/* A row of a page's "Runs in the plot" list: a check button showing the
 * run in the plot, labelled (ellipsized, whole in the tooltip), and a
 * remove button (insensitive unless removable).  run is set on both as
 * "run"; toggled (GtkToggleButton *, user_data) and removed (GtkButton *,
 * user_data) are connected. */
GtkWidget       *ks_page_new_run_row    (const char    *label,
                                         gboolean       visible,
                                         gboolean       removable,
                                         GCallback      toggled,
                                         GCallback      removed,
                                         gpointer       run,
                                         gpointer       user_data);

/* Lets combo's text shrink with an ellipsis: its longest choice ("explicit,
 * split remainder" in Russian) no longer sets the form's width, which must
 * leave the plot room on a 1024-pixel projector. */
void             ks_page_ellipsize_combo (GtkComboBox  *combo);

/* The mouse wheel changes a spin button or combo under widget only while
 * it has the keyboard focus; otherwise it scrolls the form around it.
 * Every page does this for its own widgets each time it is mapped. */
void             ks_page_guard_wheel    (GtkWidget     *widget);

/* Shared helpers for the forms of the pages. */
void             ks_page_bind_spin      (KsPage        *self,
                                         const char    *key,
                                         GtkSpinButton *spin);
void             ks_page_bind_combo     (KsPage        *self,
                                         const char    *key,
                                         GtkComboBox   *combo);

G_END_DECLS
