/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-run-json-private.h: what the results reader (ks-run-json.c) and its
 * fast reader of the points (ks-run-json-points.c) share.
 *
 * json-glib builds a node, a hash table and a signal emission for every
 * member of every point: a run of 150,000 points took seconds and a
 * gigabyte to read.  The points array, flat objects of numbers, strings and
 * literals, is read by a small strict scanner instead; the rest of the file
 * still goes through json-glib.  Both readers fill the same values, and one
 * set of checks (ks_run_json_point_from_values) turns them into a point, so
 * a damaged point gets the same message whichever read it. */
#pragma once

#include "ks-run.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum {
  KS_JSON_ABSENT,   /* no such member */
  KS_JSON_NULL,
  KS_JSON_BOOL,
  KS_JSON_INT,
  KS_JSON_DOUBLE,
  KS_JSON_STRING,
  KS_JSON_OTHER,    /* an object or an array */
} KsJsonKind;

typedef struct {
  KsJsonKind  kind;
  gboolean    b;
  gint64      i;
  double      d;
  const char *s;    /* borrowed: lives as long as the tree or the scanner's point */
} KsJsonValue;

/* The members a point of a run is read from, in the order they are
 * checked: "device", "reps", "error", each parameter, then each column with
 * its "_min" and "_max". */
enum { KS_RUN_SLOT_DEVICE, KS_RUN_SLOT_REPS, KS_RUN_SLOT_ERROR, KS_RUN_SLOT_PARAMS };

typedef struct {
  guint       n;        /* KS_RUN_SLOT_PARAMS + n_params + 3 * n_columns */
  char      **names;    /* the member each slot reads */
  gsize      *lengths;  /* strlen of each name */
  GHashTable *index;    /* name -> slot + 1 */
  gboolean    duplicates; /* two slots read one member: only the tree reads such a point */
  guint       n_params;
  /* One per parameter: the value the last point had, shared by the next
   * point with the same value (a sweep repeats all but one parameter). */
  struct KsRunJsonLast {
    GVariant   *variant;   /* NULL: none yet */
    KsJsonValue value;     /* as read; value.s is text */
    char       *text;
  } *last;
} KsRunJsonSlots;

KsRunJsonSlots *ks_run_json_slots_new  (const KsExperimentDesc *desc);
void            ks_run_json_slots_free (KsRunJsonSlots         *slots);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KsRunJsonSlots, ks_run_json_slots_free)

/* The first slot of column c. */
static inline guint
ks_run_json_column_slot (const KsRunJsonSlots *slots,
                         guint                 c)
{
  return KS_RUN_SLOT_PARAMS + slots->n_params + 3 * c;
}

/* A KS_RUN_ERROR_PARSE error; FALSE. */
gboolean ks_run_json_fail              (GError     **error,
                                        const char  *format,
                                        ...) G_GNUC_PRINTF (2, 3);
/* A number, or one of the strings ("nan", "inf", "-inf") a number JSON
 * cannot spell is written as; NAN for null or absent. */
gboolean ks_run_json_value_number      (const KsJsonValue *v,
                                        const char        *name,
                                        double            *out,
                                        GError           **error);

/* A member of a tree (NULL: absent) as a value. */
void     ks_run_json_value_from_node   (JsonNode          *node,
                                        KsJsonValue       *v);
/* A format-1 file's tree (ks-run-json-format1.c) as a run of desc. */
KsRun   *ks_run_json_read_format1      (const KsExperimentDesc *desc,
                                        JsonObject             *root,
                                        GError                **error);

/* Checks values (one per slot) and fills p. */
gboolean ks_run_json_point_from_values (KsRun             *run,
                                        KsRunJsonSlots    *slots,
                                        const KsJsonValue *values,
                                        KsRunPoint        *p,
                                        GError           **error);

/* Where the value of the top-level object's member name lies in data:
 * [*start, *end).  FALSE where there is none or data is not plainly an
 * object (the caller then reads it all with json-glib, which says what is
 * wrong).  The span of a last member is guessed from the end of data:
 * the scanner that reads it refuses a wrong guess (and a second member
 * of that name inside it). */
gboolean ks_run_json_find_member       (const char  *data,
                                        gsize        length,
                                        const char  *name,
                                        gsize       *start,
                                        gsize       *end);

/* Called with each object's values (one per slot); FALSE stops the scan. */
typedef gboolean (*KsJsonValuesFunc) (KsRunJsonSlots    *slots,
                                      const KsJsonValue *values,
                                      gpointer           data);

/* Scans text[0..length), an array of flat objects, passing each object's values to func.  FALSE on anything the
 * scanner does not take or func refuses. */
gboolean ks_json_scan_objects          (const char      *text,
                                        gsize            length,
                                        KsRunJsonSlots  *slots,
                                        KsJsonValuesFunc func,
                                        gpointer         data);

/* Reads the points array text[0..length) into run; written[c] says
 * whether any point has column c.  FALSE on anything that is not a clean
 * array of flat objects or a point the checks refuse: the caller then
 * reads the whole file with json-glib, for the message. */
gboolean ks_run_json_scan_points       (KsRun          *run,
                                        KsRunJsonSlots *slots,
                                        const char     *text,
                                        gsize           length,
                                        gboolean       *written);

G_END_DECLS
