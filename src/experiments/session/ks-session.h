/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-session.h: a saved session of the window, as data.
 *
 * A session is the window's state in one file: the device, the visible
 * page, and each page's part: an experiment page's form (its parameters as
 * the CLI takes them), repetitions, figure and runs; a hand-made page's
 * fields.  Reading it needs no window: every part is checked here, so the
 * GUI applies a session that is already known to be whole, and a fuzzer
 * can feed the reader anything.  Every bad input is a KS_SESSION_ERROR
 * naming what is wrong (a page no one knows, a value of the wrong type or
 * out of its range, a run of another experiment, a newer format).
 *
 * Sessions the Gauss pages saved before the generic page (their fields
 * under "params", their runs in format 1 under "results") are upgraded
 * through the description's upgrade_values and the format-1 reader.  Members this
 * version does not know are skipped (older runs had a "label"). */
#pragma once

#include <gio/gio.h>

#include "ks-experiment-desc.h"
#include "ks-run.h"

G_BEGIN_DECLS

#define KS_SESSION_FORMAT  "kernelscope-session"
#define KS_SESSION_VERSION 1
/* The plot's lower x limit an experiment page keeps ("hide wg = 1"). */
#define KS_SESSION_MAX_MIN_X 1000000000

#define KS_SESSION_ERROR (ks_session_error_quark ())
GQuark ks_session_error_quark (void);

typedef enum {
  KS_SESSION_ERROR_READ,         /* missing, unreadable, not a regular file, too large */
  KS_SESSION_ERROR_DAMAGED,      /* not well-formed JSON, or nested past any session */
  KS_SESSION_ERROR_NOT_SESSION,  /* JSON, but not a Kernelscope session */
  KS_SESSION_ERROR_VERSION,      /* a session format this version does not read */
  KS_SESSION_ERROR_INVALID,      /* a session with a part that is wrong (the message names it) */
} KsSessionError;

typedef struct {
  KsRun   *run;
  gboolean recorded;   /* a recorded run added to the page, not measured there */
  gboolean visible;    /* drawn in the plot */
} KsSessionRun;

typedef struct {
  char                   *id;      /* the page: an experiment's id, or a hand-made page's */
  const KsExperimentDesc *desc;    /* an experiment page's description; NULL: hand-made */
  /* name -> text as the CLI takes it ("1,32:1024:32"), only those the file
   * has: the description's parameters, or the hand-made page's fields. */
  GHashTable             *values;
  /* Experiment pages (a file without them: 1, 3 and 0). */
  guint                   warmup, reps, min_x;
  char                   *also_on;  /* the other devices' ids, comma-separated; NULL: not saved */
  char                   *figure;   /* a figure's id or ""; NULL: not saved */
  GPtrArray              *runs;     /* of KsSessionRun, oldest first; NULL: not saved */
  /* The Devices page: device id -> cores per compute unit (1..1024), as
   * GUINT_TO_POINTER; NULL: not saved. */
  GHashTable             *cores_per_cu;
} KsSessionPage;

typedef struct {
  char      *saved;    /* when, ISO 8601; NULL: not said */
  char      *device;   /* the device's id; NULL or "": not said */
  char      *page;     /* the visible page's id; NULL: not said */
  GPtrArray *pages;    /* of KsSessionPage, in the file's order */
} KsSession;

KsSession     *ks_session_new            (void);
void           ks_session_free           (KsSession   *self);

/* A page of the window that no description makes: its id, the paper
 * whose group it opens in the sidebar (NULL: above the groups), its title
 * (N_()) and the fields a session saves of it.  The window lists its
 * pages and a session reads them from this one table. */
typedef struct {
  const char        *id;
  const char        *paper;
  const char        *title;
  const KsParamSpec *fields;
  guint              n_fields;
} KsHandMadePage;

/* The hand-made pages in the sidebar's order within each group. */
const KsHandMadePage *ks_session_hand_made_pages (guint *n_pages);

/* Is id a page a session may hold (a registered experiment, or one of the
 * window's hand-made pages)?  Its title, translated, for messages. */
gboolean       ks_session_page_id_known  (const char  *id);
char          *ks_session_page_title     (const char  *id);

/* A new page of id (KS_SESSION_ERROR_INVALID when no one knows it or the
 * session has it already), with nothing saved yet. */
KsSessionPage *ks_session_add_page       (KsSession   *self,
                                          const char  *id,
                                          GError     **error);
KsSessionPage *ks_session_find_page      (const KsSession *self,
                                          const char  *id);

/* Checks text against the parameter or field name of the page, as the
 * reader would, and keeps it: a session never says what it cannot read
 * back.  "" is taken where the form leaves a field empty (the device's
 * default, a text, a file not chosen yet). */
gboolean       ks_session_page_set_value (KsSessionPage *page,
                                          const char  *name,
                                          const char  *text,
                                          GError     **error);
/* warmup <= KS_MAX_WARMUP, 1 <= reps <= KS_MAX_REPS, min_x <= KS_SESSION_MAX_MIN_X. */
gboolean       ks_session_page_set_repetitions (KsSessionPage *page,
                                                guint        warmup,
                                                guint        reps,
                                                guint        min_x,
                                                GError     **error);
/* The page's runs are part of the session, even none: opening it
 * replaces the page's runs (an experiment page only). */
void           ks_session_page_keep_runs (KsSessionPage *page);
/* A run of the page's own experiment (refused otherwise); the page keeps a reference. */
gboolean       ks_session_page_add_run   (KsSessionPage *page,
                                          KsRun       *run,
                                          gboolean     recorded,
                                          gboolean     visible,
                                          GError     **error);
/* The Devices page's cores per compute unit are part of the session, even
 * none (opening it then clears the page's). */
void           ks_session_page_keep_cores (KsSessionPage *page);
/* The Devices page's cores per compute unit of one device (1..1024). */
gboolean       ks_session_page_set_cores (KsSessionPage *page,
                                          const char  *device_id,
                                          guint        cores,
                                          GError     **error);

/* The reader: a session from text, or from a file through ks-json-guard
 * (no FIFO, no device, nothing over KS_JSON_MAX_FILE_BYTES, no nesting
 * deeper than KS_JSON_MAX_DEPTH).  The file's errors name it. */
KsSession     *ks_session_from_json      (const char  *data,
                                          gssize       length,
                                          GError     **error);
KsSession     *ks_session_load           (const char  *path,
                                          GError     **error);
/* The writer: what ks_session_from_json reads back to the same session. */
char          *ks_session_to_json        (const KsSession *self);
/* Atomically replaces path (ks_io_write_file: never a link, a device or a read-only file). */
gboolean       ks_session_save           (const KsSession *self,
                                          const char  *path,
                                          GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsSession, ks_session_free)

G_END_DECLS
