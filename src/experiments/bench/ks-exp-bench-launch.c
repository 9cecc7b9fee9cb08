/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-bench-launch.c: "bench-launch": what one kernel launch of the
 * Gauss method's sequence (fixed range, ~4n launches) costs, launched one
 * by one in a stream and replayed from a CUDA graph, a method each. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-bench.h"
#include "ks-bench-probes.h"
#include "ks-run.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

enum { METHOD_STREAM, METHOD_GRAPH };

static const KsChoice method_choices[] = {
  { "stream", N_("launched one by one"),
    N_("The launches enqueued one by one, as the paper's program does; timed without events (the wall "
       "time) and, apart, with them (the kernels' own time)"), METHOD_STREAM },
  { "graph", N_("CUDA graph"),
    N_("The same sequence recorded once into a CUDA graph and replayed with one call (CUDA only)"), METHOD_GRAPH },
  { NULL }
};

enum { P_N, P_METHOD, N_PARAMS };

static const KsParamSpec params[] = {
  [P_N] = { .name = "n", .cli_name = "sizes", .short_name = 's', .label = N_("Unknowns"),
    .help = N_("The size of the system whose elimination is launched (~4n launches)"),
    .type = KS_PARAM_INT, .default_value = "100,1000,4000", .min = 2, .max = 100000, .sweepable = TRUE },
  [P_METHOD] = { .name = "method", .label = N_("Launched"), .type = KS_PARAM_CHOICE, .choices = method_choices,
    .default_value = "stream,graph", .sweepable = TRUE,
    .help = N_("stream, graph, or both: graph is refused, with the reason, on a device that is not CUDA") },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

enum { COL_LAUNCHES, COL_WALL, COL_KERNELS, COL_CAPTURE, COL_RESIDUAL, COL_PER_LAUNCH, COL_GAIN, N_COLUMNS };

static double
derive_per_launch (const KsRun        *run,
                   const KsRunPoint   *point,
                   const KsColumnSpec *column)
{
  return point->values[COL_WALL] * 1000.0 / point->values[COL_LAUNCHES];
}

/* The stream's wall time over this point's, at the same n on the same
 * device: what replaying a graph gains (1 for the stream itself). */
static double
derive_gain (const KsRun        *run,
             const KsRunPoint   *point,
             const KsColumnSpec *column)
{
  const double n = ks_run_point_get_number (run, point, "n");

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];

      if (q->device == point->device && q->error == NULL && ks_run_point_get_number (run, q, "n") == n &&
          ks_run_point_get_number (run, q, "method") == 0)
        return q->values[COL_WALL] / point->values[COL_WALL];
    }
  return NAN;
}

static const KsColumnSpec columns[] = {
  [COL_LAUNCHES] = { "launches", N_("launches"), NULL, N_("Kernel launches of one solve"),
                     KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_WALL] = { "wall_ms", N_("wall"), "ms",
                 N_("The launches of one solve, host clock, no events: median, min and max beside it"),
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_KERNELS] = { "kernels_ms", N_("kernels"), "ms",
                    N_("The same launches' device time (events), median; stream only. On CUDA the events "
                       "cost ~1-2 us a launch themselves, so at small n this can exceed the wall time"),
                    KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_CAPTURE] = { "capture_ms", N_("capture"), "ms",
                    N_("Recording and instantiating the graph, once (not in the wall time); graph only"),
                    KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_RESIDUAL] = { "residual", N_("residual"), NULL, N_("||Ax - b|| / ||b||, the worst repetition: both "
                     "ways must solve the system"), KS_COLUMN_REAL, KS_REDUCE_MAX },
  [COL_PER_LAUNCH] = { "us_per_launch", N_("per launch"), "us",
                       N_("wall / launches: what a launch costs where the kernels are trivial (small n)"),
                       KS_COLUMN_REAL, .derive = derive_per_launch },
  [COL_GAIN] = { "gain", N_("gain"), NULL,
                 N_("The stream's wall time at this n on this device / this one's"),
                 KS_COLUMN_REAL, .derive = derive_gain },
};
G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

static gboolean
launch_prepare (gpointer        state,
                const KsConfig *point,
                GCancellable   *cancellable,
                GError        **error)
{
  KsDevice *device = state;

  if (ks_config_choice (point, P_METHOD) == METHOD_GRAPH &&
      ks_device_get_backend (device) != KS_BACKEND_CUDA)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED,
                   _("CUDA graphs need a CUDA device; %s is %s"), ks_device_get_id (device),
                   ks_backend_to_string (ks_device_get_backend (device)));
      return FALSE;
    }
  return TRUE;
}

/* One repetition: the probe's own warm-up solve, then one timed each way
 * (the graph's after the stream's, on the same buffers). */
static gboolean
launch_measure (gpointer        state,
                const KsConfig *point,
                double         *values,
                GCancellable   *cancellable,
                GError        **error)
{
  const gboolean graph = ks_config_choice (point, P_METHOD) == METHOD_GRAPH;
  KsLaunchOverhead o;

  if (!ks_bench_launch_overhead (state, KS_PRECISION_FLOAT, (guint) ks_config_int (point, P_N), 1, &o,
                                 error))
    return ks_exp_bench_refuse_point (error);
  values[COL_LAUNCHES] = o.launches;
  values[COL_WALL] = graph ? o.graph_ms : o.stream_ms;
  if (graph)
    values[COL_CAPTURE] = o.capture_ms;
  else
    values[COL_KERNELS] = o.kernels_ms;
  values[COL_RESIDUAL] = graph ? o.graph_residual : o.stream_residual;
  return TRUE;
}

static const KsFigureSpec figures[] = {
  { .id = "time", .title = N_("Launches of one solve: time by method and size"), .x = "n", .y = "wall_ms",
    .series_by = "method", .log_x = TRUE, .log_y = TRUE },
  { .id = "per-launch", .title = N_("What one launch costs"), .x = "n", .y = "us_per_launch",
    .series_by = "method", .log_x = TRUE },
};

const KsExperimentDesc ks_exp_bench_launch = {
  .id = "bench-launch",
  .title = N_("Kernel launches and CUDA graphs"),
  KS_EXP_BENCH_GROUP,
  .summary = N_("What one kernel launch of the Gauss sequence costs, and the gain of CUDA graphs"),
  .claim = N_("The Gauss method's launch sequence (fixed range, ~4n launches) runs with a fresh matrix each "
              "time and only the launches are timed: once with device events (the kernels' own time), once "
              "without (the wall time). The wall time / launches is the cost of one launch where the kernels "
              "are trivial (small n). On CUDA the same sequence is also recorded once into a CUDA graph and "
              "replayed: its gain is the stream's wall time over the graph's. On a device that is not CUDA "
              "the graph is refused, saying why."),
  .example = "--sizes 100,1000,4000 --plot launch.png",
  .backends = KS_BACKENDS_GPU,
  .size_param = "n",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .set_up = ks_exp_bench_device_set_up,
  .prepare = launch_prepare,
  .measure_one_rep = launch_measure,
  .tear_down = g_object_unref,
};
