/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-heat-page-private.h: what the heat page's files share: the page
 * itself, the problem the form asks for (Setup) and the frames the worker
 * hands the window (Frame).  ks-heat-page.c is the main thread's side
 * (the form, the view), ks-heat-page-record.c its recording,
 * ks-heat-page-split.c what it shows of the hybrid's split, and
 * ks-heat-page-worker.c the worker's side (the solver, its device, the
 * hybrid's split). */
#pragma once

#include "ks-heat-page.h"

#include "ks-clip.h"
#include "ks-heat.h"
#include "ks-hybrid-cg.h"

G_BEGIN_DECLS

/* One boundary group's condition as the form says it. */
typedef struct {
  KsHeatBoundary kind;
  double         t;
} GroupSetting;

typedef struct {
  char       *spec;
  double      n;
  double      tau;
  double      d0;
  double      energy;
  double      tol;
  GHashTable *groups;   /* name -> GroupSetting, a copy */
  KsDevice   *device;   /* NULL: the host */
  gboolean    hybrid;   /* paper 004's split with the host's cores */
  double      lambda;
  GCancellable *cancellable;  /* cancelled when a newer problem or the window's closing makes it moot (gmsh) */
} Setup;

typedef struct {
  KsMesh          *mesh;        /* set when the problem is new */
  gboolean         restart;     /* a new problem or a reset: the time series starts again */
  double          *t;
  KsHeatStepStats  st;
  double           color_max;
  double           e0;          /* the energy balance: at the start, */
  double           inflow;      /* and in through the fixed walls since */
  char            *where;       /* the device that ran it */
  guint            n_cells;
  gboolean         repeat;      /* the last step again (a new split), not a new one */
  gboolean         parts_changed;
  guint32         *parts;       /* with parts_changed: each cell's part, NULL: no split */
  guint64          cells[KS_HYBRID_N_PARTS];
  char            *balance;     /* lambda_b and its arithmetic, once measured */
  double           lambda_b;    /* with balance: its figure (NAN: not measured) */
  /* The split's lambda that gave the least time per CG iteration so far
   * on this mesh and device, and that time (NAN: none measured yet). */
  double           best_lambda;
  double           best_iter_s;
  char            *notes;       /* with mesh: what reading it changed, or NULL */
  double           t_min, t_max;  /* of t */
} Frame;

struct _KsHeatPage {
  KsPage       parent_instance;

  GtkWidget   *kind_combo;
  GtkWidget   *domain_combo;
  GtkWidget   *cells_spin;
  GtkWidget   *file_button;
  GtkWidget   *n_spin;
  GtkWidget   *tau_spin;
  GtkWidget   *d0_spin;
  GtkWidget   *energy_spin;
  GtkWidget   *tol_combo;
  GtkWidget   *groups_grid;
  GtkWidget   *play_button;
  GtkWidget   *record_button;
  GtkWidget   *fixed_scale_check;
  GtkWidget   *hybrid_check;
  GtkWidget   *lambda_scale;
  GtkWidget   *lambda_label;
  GtkWidget   *balance_label;
  GtkWidget   *status_label;
  GtkWidget   *edges_check;
  GtkWidget   *legend_label;   /* the split: which part is which, and what each costs */
  GtkWidget   *note_label;     /* what reading the mesh changed */
  GtkWidget   *message_bar;    /* where a recording went */
  GtkWidget   *message_label;
  GtkWidget   *open_folder_button;
  KsPlotView  *mesh_view;
  KsPlotView  *time_view;

  KsPlot      *mesh_plot;
  KsPlot      *time_plot;
  guint        time_series;
  KsDevice    *device;
  char        *file;          /* the mesh file chosen, or NULL: generated */
  GArray      *history;       /* KsHeatStepStats of the steps shown */
  KsMesh      *mesh;          /* the mesh shown */
  GHashTable  *group_settings;  /* group name -> GroupSetting, kept across meshes */
  GPtrArray   *group_rows;    /* the group names the rows of groups_grid show */
  double       color_max;     /* the first frame's hottest cell */
  double       shown_min, shown_max;   /* the frame shown's coldest and hottest cell */
  double       lambda_b;      /* the balance measured (NAN: not yet) */
  double       best_lambda;   /* the measured best on the slider (NAN: none) */
  double       best_iter_s;
  double       build_s;       /* the one-off setup left out of the time plot (0: none) */
  guint64      shown_cells[KS_HYBRID_N_PARTS];   /* the split drawn; zeros: none */
  guint        tick_id;
  gboolean     started;

  /* Recording the frames shown: a video or an animated GIF and numbered
   * PNGs in a folder beside it, written on the clip's own thread. */
  gboolean     recording;
  KsClip      *clip;
  char        *record_path;   /* the video's or GIF's */
  gboolean     record_movie;  /* FALSE: the PNG frames alone (no giflib, no GStreamer) */
  char        *record_dir;
  char        *clip_folder;   /* the last clip's, for Open Folder */
  double       record_min, record_max;   /* the clip's colour scale */
  guint        recorded;
  guint        last_recorded;  /* the step of the last frame kept: a step is kept once */
  GtkFileChooserNative *record_chooser;

  /* Shared with the worker. */
  GMutex       lock;
  GCond        cond;
  GThread     *worker;
  Setup       *want_setup;
  GCancellable *loading;      /* the last setup's: stops its gmsh */
  gboolean     want_reset;
  double       want_lambda;   /* NAN: no change */
  int          want_hybrid;   /* -1: no change; 0 off, 1 on at want_hybrid_lambda, from the state now */
  double       want_hybrid_lambda;
  gboolean     lockstep;      /* recording: a step waits until the last one is drawn */
  gboolean     playing;
  guint        steps_wanted;
  gboolean     quit;
  Frame       *frame;
  GArray      *new_steps;     /* every step's numbers since the last tick, drawn or not */
  GError      *error;
};

/* The response of the message bar's Open Folder button. */
#define KS_HEAT_PAGE_RESPONSE_OPEN_FOLDER 1

/* ks-heat-page.c */
void     ks_heat_page_apply_scale        (KsHeatPage *self);
void     ks_heat_page_set_tick           (KsHeatPage *self,
                                          gboolean    recording);
/* ks-heat-page-record.c */
void     ks_heat_page_record_frame       (KsHeatPage *self,
                                          guint       step);
void     ks_heat_page_record_toggled_cb  (KsHeatPage *self);
void     ks_heat_page_message_response_cb (KsHeatPage *self,
                                          int         response);
gboolean ks_heat_page_end_recording      (KsHeatPage *self,
                                          gboolean    at_reset,
                                          GError    **error);
/* ks-heat-page-split.c */
void     ks_heat_page_show_split         (KsHeatPage  *self,
                                          const Frame *f);
void     ks_heat_page_show_notes         (KsHeatPage  *self,
                                          const char  *notes);
void     ks_heat_page_hybrid_toggled_cb  (KsHeatPage *self);

/* The worker thread's body; data is the page. */
gpointer ks_heat_page_worker_main (gpointer data);
void     ks_heat_page_setup_free  (Setup   *s);
void     ks_heat_page_frame_free  (Frame   *f);

G_END_DECLS
