/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-results-scan.c: a format-1 file's points read by the scanner of
 * ks-run-json-points.c (see ks-run-json-private.h for why), each checked
 * as ks-results.c's parse_point checks it.  A point it does not take is
 * not an error here: ks_results_from_json then reads the whole file with
 * json-glib, whose checks say what is wrong. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-results.h"
#include "ks-run-json-private.h"

#include <math.h>
#include <string.h>

enum {
  F1_N, F1_PRIME, F1_LOCAL, F1_WG, F1_REPS, F1_MEDIAN, F1_MIN, F1_MAX, F1_KERNELS, F1_RESIDUAL,
  F1_KERNEL0, F1_LAUNCHES = F1_KERNEL0 + KS_GAUSS_N_KERNELS, F1_LOCAL0, F1_LOCAL1, F1_GROUPS0, F1_GROUPS1,
  F1_CAPTURE, F1_ERROR, F1_N_SLOTS
};

static KsRunJsonSlots *
point_slots (void)
{
  const char *names[F1_N_SLOTS] = {
    [F1_N] = "n", [F1_PRIME] = "n_plus_1_prime", [F1_LOCAL] = "local", [F1_WG] = "wg", [F1_REPS] = "reps",
    [F1_MEDIAN] = "median_ms", [F1_MIN] = "min_ms", [F1_MAX] = "max_ms", [F1_KERNELS] = "kernels_ms",
    [F1_RESIDUAL] = "residual", [F1_LAUNCHES] = "launches", [F1_LOCAL0] = "fwd_local/0",
    [F1_LOCAL1] = "fwd_local/1", [F1_GROUPS0] = "fwd_groups/0", [F1_GROUPS1] = "fwd_groups/1",
    [F1_CAPTURE] = "capture_ms", [F1_ERROR] = "error",
  };
  char *kernels[KS_GAUSS_N_KERNELS];
  KsRunJsonSlots *slots;

  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    names[F1_KERNEL0 + k] = kernels[k] = g_strconcat ("kernel_ms/", ks_gauss_kernel_name (k), NULL);
  slots = ks_json_slots_new_names (names, F1_N_SLOTS);
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    g_free (kernels[k]);
  return slots;
}

/* What get_double takes, or FALSE. */
static gboolean
value_double (const KsJsonValue *v,
              double            *out)
{
  char *end = NULL;

  switch (v->kind)
    {
    case KS_JSON_NULL:
      return *out = NAN, TRUE;
    case KS_JSON_INT:
      return *out = (double) v->i, TRUE;
    case KS_JSON_DOUBLE:
      return *out = v->d, TRUE;
    case KS_JSON_STRING:
      *out = strcmp (v->s, "inf") == 0 ? INFINITY : strcmp (v->s, "-inf") == 0 ? -INFINITY
                                                                              : g_ascii_strtod (v->s, &end);
      return end == NULL || (end != v->s && *end == '\0' && isfinite (*out));
    default:
      return FALSE;
    }
}

static gboolean
value_int (const KsJsonValue *v,
           gint64             min,
           guint             *out)
{
  if (v->kind != KS_JSON_INT || v->i < min || v->i > G_MAXINT)
    return FALSE;
  *out = (guint) v->i;
  return TRUE;
}

/* A point as parse_point reads it, for a point it takes; FALSE for any
 * other (the tree then says why). */
static gboolean
add_scanned_point (KsRunJsonSlots    *slots,
                   const KsJsonValue *v,
                   gpointer           data)
{
  KsResults *results = data;
  KsPoint p = { 0 };
  guint *uints[] = { &p.fwd_local[0], &p.fwd_local[1], &p.fwd_groups[0], &p.fwd_groups[1] };
  double *doubles[] = { &p.median_ms, &p.min_ms, &p.max_ms, &p.kernels_ms, &p.residual };

  if (!value_int (&v[F1_N], 1, &p.n) || v[F1_PRIME].kind != KS_JSON_BOOL || v[F1_LOCAL].kind != KS_JSON_STRING ||
      !ks_local_policy_from_string (v[F1_LOCAL].s, &p.local) || !value_int (&v[F1_WG], 0, &p.wg) ||
      !value_int (&v[F1_REPS], 0, &p.reps) || !value_int (&v[F1_LAUNCHES], 0, &p.launches))
    return FALSE;
  p.n1_prime = v[F1_PRIME].b;
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    if (!value_double (&v[F1_MEDIAN + i], doubles[i]))
      return FALSE;
  for (guint k = 0; k < KS_GAUSS_N_KERNELS; k++)
    if (!value_double (&v[F1_KERNEL0 + k], &p.kernel_ms[k]))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (uints); i++)
    if (!value_int (&v[F1_LOCAL0 + i], 0, uints[i]))
      return FALSE;
  if (v[F1_CAPTURE].kind != KS_JSON_ABSENT && !value_double (&v[F1_CAPTURE], &p.capture_ms))
    return FALSE;
  if (v[F1_ERROR].kind != KS_JSON_ABSENT && v[F1_ERROR].kind != KS_JSON_NULL && v[F1_ERROR].kind != KS_JSON_STRING)
    return FALSE;
  p.error = v[F1_ERROR].kind == KS_JSON_STRING ? (char *) v[F1_ERROR].s : NULL;
  if (p.error == NULL && !(p.median_ms >= 0.0))
    return FALSE;
  ks_results_add_point (results, &p);
  return TRUE;
}

gboolean
ks_results_scan_points (KsResults  *results,
                        const char *text,
                        gsize       length)
{
  g_autoptr(KsRunJsonSlots) slots = point_slots ();

  g_return_val_if_fail (results != NULL && text != NULL, FALSE);
  return !slots->duplicates && ks_json_scan_objects (text, length, slots, add_scanned_point, results);
}
