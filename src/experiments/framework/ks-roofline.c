/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-roofline.c: points of any runs against their devices' measured
 * triad (ks-roofline.h). */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-roofline.h"

#include <glib/gi18n-lib.h>
#include <math.h>

gboolean
ks_roofline_derive (const KsRun      *run,
                    const KsRunPoint *point,
                    double            triad_gbs,
                    double            peak_gops,
                    KsRoofPoint      *out)
{
  KsWork w = { NAN, NAN, NAN };
  double floor_s;

  g_return_val_if_fail (run != NULL && point != NULL && out != NULL, FALSE);

  if (run->desc->work == NULL || point->error != NULL || !run->desc->work (run, point, &w) ||
      !(w.bytes > 0) || !(w.ops > 0) || !(w.seconds > 0) || !isfinite (w.seconds))
    return FALSE;
  out->work = w;
  out->intensity = w.ops / w.bytes;
  out->gbs = w.bytes / w.seconds / 1e9;
  out->gops = w.ops / w.seconds / 1e9;
  out->triad_gbs = triad_gbs > 0 ? triad_gbs : NAN;
  out->peak_gops = peak_gops > 0 ? peak_gops : NAN;
  out->floor_fraction = NAN;
  out->bound = KS_BOUND_UNKNOWN;
  if (!isnan (out->triad_gbs))
    {
      /* The least time the device could take: its bytes at the triad's
       * rate, or its operations at the peak where that is the longer. */
      const double memory_s = w.bytes / (out->triad_gbs * 1e9);
      const double compute_s = isnan (out->peak_gops) ? 0 : w.ops / (out->peak_gops * 1e9);

      floor_s = MAX (memory_s, compute_s);
      out->floor_fraction = floor_s / w.seconds;
      out->bound = compute_s > memory_s ? KS_BOUND_COMPUTE : KS_BOUND_MEMORY;
    }
  return TRUE;
}

/* "52 %", but "0.4 %" rather than "0 %" for a point far below its floor. */
static int
percent_digits (const KsRoofPoint *rp)
{
  return 100 * rp->floor_fraction < 9.95 ? 1 : 0;
}

char *
ks_roofline_bound_text (const KsRoofPoint *rp)
{
  g_return_val_if_fail (rp != NULL, NULL);

  switch (rp->bound)
    {
    case KS_BOUND_MEMORY:
      /* xgettext:no-c-format */
      return g_strdup_printf (_("memory-bound, %.*f %% of triad"), percent_digits (rp), 100 * rp->floor_fraction);
    case KS_BOUND_COMPUTE:
      /* xgettext:no-c-format */
      return g_strdup_printf (_("compute-bound, %.*f %% of peak"), percent_digits (rp), 100 * rp->floor_fraction);
    case KS_BOUND_UNKNOWN:
    default:
      return g_strdup (_("no triad measured on this device: its floor is unknown"));
    }
}

/* --- the model ------------------------------------------------------------------ */

typedef struct {
  KsRun *run;
  char  *label;
} Entry;

struct _KsRoofline {
  GPtrArray  *entries;   /* of Entry */
  GHashTable *triads;    /* "name\nbackend" -> double * GB/s */
  GHashTable *peaks;     /* "name\nbackend" -> double * GOP/s */
  GPtrArray  *tips;      /* of GPtrArray of char * (NULL: a line), by series of the last plot */
};

static void
entry_free (gpointer data)
{
  Entry *e = data;

  ks_run_unref (e->run);
  g_free (e->label);
  g_free (e);
}

static void
free_tips (gpointer data)
{
  if (data != NULL)
    g_ptr_array_unref (data);
}

KsRoofline *
ks_roofline_new (void)
{
  KsRoofline *self = g_new0 (KsRoofline, 1);

  self->entries = g_ptr_array_new_with_free_func (entry_free);
  self->triads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->peaks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->tips = g_ptr_array_new_with_free_func (free_tips);
  return self;
}

void
ks_roofline_free (KsRoofline *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->entries);
  g_hash_table_unref (self->triads);
  g_hash_table_unref (self->peaks);
  g_ptr_array_unref (self->tips);
  g_free (self);
}

static char *
device_key (const char *name,
            const char *backend)
{
  return g_strdup_printf ("%s\n%s", name ? name : "", backend ? backend : "");
}

static void
note (GHashTable *table,
      const char *name,
      const char *backend,
      double      value)
{
  double *v;

  if (!(value > 0) || !isfinite (value))
    return;
  v = g_new (double, 1);
  *v = value;
  g_hash_table_replace (table, device_key (name, backend), v);
}

static double
lookup (GHashTable *table,
        const char *name,
        const char *backend)
{
  g_autofree char *key = device_key (name, backend);
  const double *v = g_hash_table_lookup (table, key);

  return v ? *v : NAN;
}

void
ks_roofline_learn (KsRoofline  *self,
                   const KsRun *run)
{
  g_return_if_fail (self != NULL && run != NULL);

  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunDevice *dev = run->devices->pdata[d];

      /* A device's own probe (set_triad) is not replaced by a run's. */
      if (isnan (ks_roofline_get_triad (self, dev->name, dev->backend)))
        note (self->triads, dev->name, dev->backend, ks_run_device_get_info (dev, "triad_gbs"));
      note (self->peaks, dev->name, dev->backend, ks_run_device_get_info (dev, "peak_gflops"));
    }
}

gboolean
ks_roofline_add_run (KsRoofline *self,
                     KsRun      *run,
                     const char *label)
{
  Entry *e;

  g_return_val_if_fail (self != NULL && run != NULL, FALSE);

  ks_roofline_learn (self, run);
  if (run->desc->work == NULL)
    return FALSE;
  e = g_new0 (Entry, 1);
  e->run = ks_run_ref (run);
  e->label = g_strdup (label);
  g_ptr_array_add (self->entries, e);
  return TRUE;
}

void
ks_roofline_set_triad (KsRoofline *self,
                       const char *name,
                       const char *backend,
                       double      gbs)
{
  g_return_if_fail (self != NULL);
  note (self->triads, name, backend, gbs);
}

double
ks_roofline_get_triad (KsRoofline *self,
                       const char *name,
                       const char *backend)
{
  g_return_val_if_fail (self != NULL, NAN);
  return lookup (self->triads, name, backend);
}

/* The device's triad for a point of run: the run's own, else the table's. */
static double
triad_of (KsRoofline        *self,
          const KsRunDevice *dev)
{
  const double own = ks_run_device_get_info (dev, "triad_gbs");

  return own > 0 ? own : lookup (self->triads, dev->name, dev->backend);
}

static double
peak_of (KsRoofline        *self,
         const KsRunDevice *dev)
{
  const double own = ks_run_device_get_info (dev, "peak_gflops");

  return own > 0 ? own : lookup (self->peaks, dev->name, dev->backend);
}

GPtrArray *
ks_roofline_missing_triads (KsRoofline *self)
{
  GPtrArray *out = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->entries->len; i++)
    {
      const KsRun *run = ((Entry *) self->entries->pdata[i])->run;

      for (guint d = 0; d < run->devices->len; d++)
        {
          const KsRunDevice *dev = run->devices->pdata[d];
          char *key = device_key (dev->name, dev->backend);

          if (isnan (triad_of (self, dev)) && !g_hash_table_contains (seen, key))
            g_ptr_array_add (out, (gpointer) dev);
          g_hash_table_add (seen, key);
        }
    }
  return out;
}

guint
ks_roofline_count_points (KsRoofline *self)
{
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->entries->len; i++)
    {
      const KsRun *run = ((Entry *) self->entries->pdata[i])->run;

      for (guint p = 0; p < run->points->len; p++)
        {
          KsRoofPoint rp;
          n += ks_roofline_derive (run, run->points->pdata[p], NAN, NAN, &rp);
        }
    }
  return n;
}

char *
ks_roofline_point_text (KsRoofline *self,
                        guint       series,
                        guint       index)
{
  GPtrArray *tips;

  g_return_val_if_fail (self != NULL, NULL);

  if (series >= self->tips->len || (tips = self->tips->pdata[series]) == NULL || index >= tips->len)
    return NULL;
  return g_strdup (tips->pdata[index]);
}

/* --- the plot ---------------------------------------------------------------------- */

static char *
device_label (const KsRunDevice *dev)
{
  return g_strdup_printf ("%s (%s)", dev->name, ks_run_device_get_backend_label (dev));
}

/* "Tridiagonal: many systems: Method = Thomas, Unknowns = 1023": the
 * experiment and the point's values of the run's swept parameters. */
static char *
point_name (const KsRun      *run,
            const KsRunPoint *point)
{
  GString *s = g_string_new (_(run->desc->title));
  const char *sep = ": ";

  for (guint a = 0; run->axes != NULL && run->axes[a] != NULL; a++)
    {
      GVariant *v = ks_run_point_get_param (run, point, run->axes[a]);
      g_autofree char *text = v ? ks_param_value_to_string (v) : NULL;
      g_autofree char *pair = text ? ks_experiment_desc_pair_label (run->desc, run->axes[a], text) : NULL;

      if (pair == NULL)
        continue;
      g_string_append (s, sep);
      g_string_append (s, pair);
      sep = ", ";
    }
  return g_string_free (s, FALSE);
}

/* "4308 GB/s", "3.1 GB/s": the digits a rate needs. */
static int
rate_digits (double v)
{
  return v < 10 ? 1 : 0;
}

static char *
point_tip (const KsRun       *run,
           const KsRunPoint  *point,
           const char        *label,
           const KsRoofPoint *rp)
{
  g_autofree char *name = point_name (run, point);
  g_autofree char *device = device_label (run->devices->pdata[point->device]);
  g_autofree char *bound = ks_roofline_bound_text (rp);
  g_autofree char *triad = isnan (rp->triad_gbs) ? g_strdup ("")
                           : g_strdup_printf (_(" (triad %.*f GB/s)"), rate_digits (rp->triad_gbs), rp->triad_gbs);

  return g_strdup_printf (_("%s\n%s%s%s\n%.3g operations per byte, %.4g GB/s, %.4g Gop/s\n%s%s"), name, device,
                          label ? ", " : "", label ? label : "", rp->intensity, rp->gbs, rp->gops, bound, triad);
}

typedef struct {
  KsRoofline *self;
  KsPlot     *plot;
  GHashTable *series;    /* "id\ndevice key\nlabel" -> series + 1 */
  GHashTable *seen;      /* the device keys in devices */
  GPtrArray  *devices;   /* of const KsRunDevice * with a triad, of the runs drawn, first met first */
  double      x_min, x_max;
} Builder;

static guint
series_for (Builder          *b,
            const Entry      *e,
            const KsRunPoint *point)
{
  const KsRunDevice *dev = e->run->devices->pdata[point->device];
  g_autofree char *key = g_strdup_printf ("%s\n%s\n%s\n%s", e->run->desc->id, dev->name, dev->backend,
                                          e->label ? e->label : "");
  gpointer found = g_hash_table_lookup (b->series, key);
  g_autofree char *device = NULL, *name = NULL;
  guint s;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  device = device_label (dev);
  name = e->label ? g_strdup_printf (_("%s, %s, %s"), _(e->run->desc->title), device, e->label)
                  : g_strdup_printf (_("%s, %s"), _(e->run->desc->title), device);
  s = ks_plot_add_series (b->plot, name);
  ks_plot_series_set_kind (b->plot, s, KS_PLOT_SERIES_POINTS);
  g_ptr_array_add (b->self->tips, g_ptr_array_new_with_free_func (g_free));
  g_hash_table_insert (b->series, g_steal_pointer (&key), GUINT_TO_POINTER (s + 1));
  return s;
}

static void
add_points (Builder     *b,
            const Entry *e)
{
  const KsRun *run = e->run;

  for (guint p = 0; p < run->points->len; p++)
    {
      const KsRunPoint *point = run->points->pdata[p];
      const KsRunDevice *dev = run->devices->pdata[point->device];
      KsRoofPoint rp;
      guint s;

      if (!ks_roofline_derive (run, point, triad_of (b->self, dev), peak_of (b->self, dev), &rp))
        continue;
      s = series_for (b, e, point);
      ks_plot_add_point (b->plot, s, rp.intensity, rp.gops);
      g_ptr_array_add (b->self->tips->pdata[s], point_tip (run, point, e->label, &rp));
      b->x_min = MIN (b->x_min, rp.intensity);
      b->x_max = MAX (b->x_max, rp.intensity);
      if (!isnan (rp.triad_gbs) && g_hash_table_add (b->seen, device_key (dev->name, dev->backend)))
        g_ptr_array_add (b->devices, (gpointer) dev);
    }
}

/* Each device's roof across the points' intensities (four times beyond
 * on either side): the triad's line, and the peak's where known. */
static void
add_roofs (Builder *b)
{
  const double x0 = b->x_min / 4, x1 = b->x_max * 4;

  for (guint i = 0; i < b->devices->len; i++)
    {
      const KsRunDevice *dev = b->devices->pdata[i];
      const double triad = triad_of (b->self, dev), peak = peak_of (b->self, dev);
      g_autofree char *device = device_label (dev);
      g_autofree char *name = isnan (peak)
        ? g_strdup_printf (_("%s: triad %.*f GB/s, peak unknown"), device, rate_digits (triad), triad)
        : g_strdup_printf (_("%s: triad %.*f GB/s, peak %.0f Gop/s"), device, rate_digits (triad), triad, peak);
      guint s = ks_plot_add_series (b->plot, name);

      ks_plot_series_set_dashed (b->plot, s, TRUE);
      g_ptr_array_add (b->self->tips, NULL);
      ks_plot_add_point (b->plot, s, x0, isnan (peak) ? triad * x0 : MIN (triad * x0, peak));
      if (!isnan (peak) && peak / triad > x0 && peak / triad < x1)
        ks_plot_add_point (b->plot, s, peak / triad, peak);
      ks_plot_add_point (b->plot, s, x1, isnan (peak) ? triad * x1 : MIN (triad * x1, peak));
    }
}

KsPlot *
ks_roofline_plot_new (KsRoofline *self)
{
  Builder b = { self, ks_plot_new (), NULL, NULL, NULL, INFINITY, -INFINITY };

  g_return_val_if_fail (self != NULL, NULL);

  g_ptr_array_set_size (self->tips, 0);
  b.series = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.devices = g_ptr_array_new ();
  ks_plot_set_title (b.plot, _("Roofline: points against each device's triad"));
  ks_plot_set_axis_labels (b.plot, _("arithmetic intensity, operations per byte"),
                           _("operations per second, Gop/s"));
  ks_plot_set_log_x (b.plot, TRUE);
  ks_plot_set_log_y (b.plot, TRUE);
  for (guint i = 0; i < self->entries->len; i++)
    add_points (&b, self->entries->pdata[i]);
  if (b.x_max > 0)
    add_roofs (&b);
  g_hash_table_unref (b.series);
  g_hash_table_unref (b.seen);
  g_ptr_array_unref (b.devices);
  return b.plot;
}
