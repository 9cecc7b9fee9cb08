/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-micro-hello.c: paper 001's "Hello world" (section 4.1), the sum
 * of two short arrays, as the description "micro-hello": one curve per
 * way of timing it (the host loop, the kernel alone, the kernel with its
 * transfers) against the length, and the program's build as a point of
 * its own. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-micro.h"
#include "ks-micro.h"
#include "ks-run.h"
#include "ks-verdict.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/* In KsMicroHelloTiming's order: the derived columns read a point's
 * choice index (ks_run_point_get_number) as its timing. */
static const KsChoice timing_choices[] = {
  { "host", N_("host loop"), N_("The plain C loop on one core of this machine's CPU"), KS_MICRO_HELLO_HOST },
  { "kernel", N_("kernel"), N_("The kernel alone (device events), its inputs already on the device"),
    KS_MICRO_HELLO_KERNEL },
  { "transfers", N_("kernel + transfers"),
    N_("Both uploads, the kernel and the download, as the paper's ArraySumm does them (host clock)"),
    KS_MICRO_HELLO_TRANSFERS },
  { "build", N_("program build"),
    N_("Building the program and creating its kernel, with options no kernel cache has seen"),
    KS_MICRO_HELLO_BUILD },
  { NULL }
};
G_STATIC_ASSERT (KS_MICRO_HELLO_BUILD == 3);

/* timing comes first: its host points are measured before the device's,
 * which the derived columns compare against. */
enum { P_TIMING, P_LENGTH, N_PARAMS };

static const KsParamSpec params[] = {
  [P_TIMING] = { .name = "timing", .short_name = 't', .label = N_("Timing"),
    .help = N_("What is timed: host (the C loop), kernel, transfers (upload + kernel + download), build "
               "(the program); a list such as host,transfers"),
    .type = KS_PARAM_CHOICE, .choices = timing_choices, .default_value = "host,kernel,transfers,build",
    .sweepable = TRUE },
  [P_LENGTH] = { .name = "length", .short_name = 's', .cli_range = TRUE, .label = N_("Length"), .unit = "shorts",
    .help = N_("Elements of each array, e.g. 2^8:2^24 (every power of two) or 1000,100000"),
    .type = KS_PARAM_INT, .default_value = "2^8:2^24", .min = 1, .max = 1u << 28, .sweepable = TRUE,
    .when = { "timing", { "host", "kernel", "transfers" } } },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

enum {
  COL_TIME, COL_UPLOAD, COL_KERNEL, COL_DOWNLOAD, COL_FIRST_LAUNCH, COL_REPEATS, COL_WRONG,
  COL_NS_PER_ELEMENT, COL_SPEEDUP, COL_FASTER, N_COLUMNS
};

/* The host loop's time at this point's length on its device: the point's
 * own (a point is derived before it joins the run), else the first measured
 * host point of the run with the same length. */
static double
host_time (const KsRun      *run,
           const KsRunPoint *point)
{
  double n = ks_run_point_get_number (run, point, "length");

  if (ks_run_point_get_number (run, point, "timing") == KS_MICRO_HELLO_HOST)
    return point->values[COL_TIME];
  for (guint i = 0; !isnan (n) && i < run->points->len; i++)
    {
      const KsRunPoint *q = run->points->pdata[i];

      if (q->device == point->device && q->error == NULL &&
          ks_run_point_get_number (run, q, "timing") == KS_MICRO_HELLO_HOST &&
          ks_run_point_get_number (run, q, "length") == n)
        return q->values[COL_TIME];
    }
  return NAN;
}

static double
derive_ns_per_element (const KsRun        *run,
                       const KsRunPoint   *point,
                       const KsColumnSpec *column)
{
  return point->values[COL_TIME] * 1e6 / ks_run_point_get_number (run, point, "length");
}

static double
derive_speedup (const KsRun        *run,
                const KsRunPoint   *point,
                const KsColumnSpec *column)
{
  return host_time (run, point) / point->values[COL_TIME];
}

static double
derive_faster (const KsRun        *run,
               const KsRunPoint   *point,
               const KsColumnSpec *column)
{
  double host = host_time (run, point);

  if (isnan (host) || ks_run_point_get_number (run, point, "timing") == KS_MICRO_HELLO_HOST)
    return NAN;
  return point->values[COL_TIME] < host;
}

static const KsColumnSpec columns[] = {
  [COL_TIME] = { "time_ms", N_("time"), "ms",
                 N_("What the timing measures: the host loop, the kernel, the round trip with transfers, or the "
                    "build (median of the repetitions; min and max beside it)"),
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_UPLOAD] = { "upload_ms", N_("upload"), "ms", N_("transfers: both uploads, device events, median"),
                   KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_KERNEL] = { "kernel_ms", N_("kernel"), "ms",
                   N_("kernel and transfers: the kernel's own time (device events), median"),
                   KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_DOWNLOAD] = { "download_ms", N_("download"), "ms", N_("transfers: the download, device events, median"),
                     KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_FIRST_LAUNCH] = { "first_launch_ms", N_("first launch"), "ms",
                         N_("build: the new kernel's first launch and wait, host clock (PoCL compiles the "
                            "work-group function only here)"), KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_REPEATS] = { "host_repeats", N_("loop repeats"), NULL,
                    N_("host: how often the loop ran in the timed stretch (at least 0.2 ms), its time divided"),
                    KS_COLUMN_INT, KS_REDUCE_LAST, .hidden = TRUE },
  [COL_WRONG] = { "wrong", N_("wrong elements"), NULL,
                  N_("Elements that differ from the host's sum, the worst repetition (0 unless something is broken)"),
                  KS_COLUMN_INT, KS_REDUCE_MAX },
  [COL_NS_PER_ELEMENT] = { "ns_per_element", N_("per element"), "ns", N_("time / length"),
                           KS_COLUMN_REAL, .derive = derive_ns_per_element },
  [COL_SPEEDUP] = { "speedup", N_("vs host loop"), "x",
                    N_("The host loop's time at this length / this time: above 1 the device wins"),
                    KS_COLUMN_REAL, .derive = derive_speedup },
  [COL_FASTER] = { "faster_than_host", N_("faster than host"), NULL,
                   N_("This timing beats the host loop measured at the same length in the same run"),
                   KS_COLUMN_BOOL, .derive = derive_faster },
};
G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

/* --- measuring ------------------------------------------------------------------ */

static gpointer
hello_set_up (const KsExperimentDesc *desc,
              KsDevice               *device,
              const KsConfig         *base,
              GCancellable           *cancellable,
              GError                **error)
{
  return ks_micro_hello_new (device, error);
}

static gboolean
hello_prepare (gpointer        state,
               const KsConfig *point,
               GCancellable   *cancellable,
               GError        **error)
{
  gint64 n = ks_config_int (point, P_LENGTH);

  /* The build points have no length: they launch over whatever is there. */
  if (n > 0 && !ks_micro_hello_set_length (state, (guint64) n, error))
    return ks_exp_micro_refuse_point (error);
  return TRUE;
}

static gboolean
hello_measure (gpointer        state,
               const KsConfig *point,
               double         *values,
               GCancellable   *cancellable,
               GError        **error)
{
  const KsMicroHelloTiming timing = ks_config_choice (point, P_TIMING);
  KsMicroHelloResult r;

  if (!ks_micro_hello_run (state, timing, &r, error))
    return FALSE;
  values[COL_TIME] = r.ms;
  values[COL_WRONG] = r.wrong;
  switch (timing)
    {
    case KS_MICRO_HELLO_HOST:
      values[COL_REPEATS] = r.host_repeats;
      break;
    case KS_MICRO_HELLO_TRANSFERS:
      values[COL_UPLOAD] = r.upload_ms;
      values[COL_DOWNLOAD] = r.download_ms;
      G_GNUC_FALLTHROUGH;
    case KS_MICRO_HELLO_KERNEL:
      values[COL_KERNEL] = r.kernel_ms;
      break;
    case KS_MICRO_HELLO_BUILD:
      values[COL_FIRST_LAUNCH] = r.first_launch_ms;
      break;
    }
  return TRUE;
}

static void
hello_describe_device (gpointer        state,
                       const KsConfig *base,
                       KsRunDevice    *out)
{
  ks_exp_micro_describe_timer (ks_micro_hello_get_device (state), out);
}

static void
hello_tear_down (gpointer state)
{
  ks_micro_hello_free (state);
}

/* --- words ------------------------------------------------------------------------ */

/* The shortest length from which a timing beats the host loop at every
 * longer length measured; 0 where it never does. */
static double
crossover (const KsRun       *run,
           guint              device,
           KsMicroHelloTiming timing)
{
  double from = 0;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      double faster = p->values[COL_FASTER];

      if (p->device != device || p->error || ks_run_point_get_number (run, p, "timing") != timing ||
          isnan (faster))
        continue;
      if (!faster)
        from = 0;
      else if (from == 0)
        from = ks_run_point_get_number (run, p, "length");
    }
  return from;
}

static double
build_time (const KsRun *run,
            guint        device)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];

      if (p->device == device && !p->error && ks_run_point_get_number (run, p, "timing") == KS_MICRO_HELLO_BUILD)
        return p->values[COL_TIME];
    }
  return NAN;
}

/* OpenCL against CUDA on the kernel, with and without its transfers: not
 * the host loop, nor the build (NVRTC against the OpenCL compiler). */
static gboolean
times_kernel (const KsRun      *run,
              const KsRunPoint *point)
{
  double timing = ks_run_point_get_number (run, point, "timing");

  return timing == KS_MICRO_HELLO_KERNEL || timing == KS_MICRO_HELLO_TRANSFERS;
}

static void
hello_summarize (const KsRun *run,
                 GString     *out)
{
  for (guint d = 0; d < run->devices->len; d++)
    {
      const KsRunDevice *dev = run->devices->pdata[d];
      const KsMicroHelloTiming timings[] = { KS_MICRO_HELLO_KERNEL, KS_MICRO_HELLO_TRANSFERS };
      double build = build_time (run, d);

      g_string_append_printf (out, "%s:\n", dev->name ? dev->name : dev->id);
      for (guint t = 0; t < G_N_ELEMENTS (timings); t++)
        {
          double from = crossover (run, d, timings[t]);
          const char *what = _(timing_choices[timings[t]].label);

          if (from > 0)
            /* TRANSLATORS: "kernel + transfers beats the host loop from length 65536 on" */
            g_string_append_printf (out, _("  %s beats the host loop from length %.0f on\n"), what, from);
          else
            g_string_append_printf (out, _("  %s never beats the host loop at the lengths measured\n"), what);
        }
      if (!isnan (build))
        g_string_append_printf (out, _("  building the program took %.1f ms\n"), build);
    }
  ks_exp_micro_summarize_backends (run, "time_ms", times_kernel, out);
}

/* Section 4.1: with its transfers the device is no faster than the host
 * loop, at the longest length both were measured. */
static KsVerdict *
hello_judge (const KsRun *run,
             guint        device)
{
  const guint host = 1u << KS_MICRO_HELLO_HOST, transfers = 1u << KS_MICRO_HELLO_TRANSFERS;
  const KsRunPoint *t = NULL, *h = NULL;
  const double length = ks_exp_micro_pair (run, device, "timing", transfers, host, "length", COL_TIME, &t, &h);
  const double from = crossover (run, device, KS_MICRO_HELLO_TRANSFERS);
  const double kernel_from = crossover (run, device, KS_MICRO_HELLO_KERNEL);
  double ratio;
  KsVerdict *v;

  if (isnan (length))
    return ks_exp_micro_untested (_("This run has no host loop and kernel with transfers of the same length "
                                    "to compare."),
                                  _("Time the host loop, the kernel and the transfers"),
                                  "timing", "host,kernel,transfers");
  ratio = t->values[COL_TIME] / h->values[COL_TIME];
  /* Beating the loop at the longest length by less than the noise is
   * no win (an H200 through OpenCL: 0.95x at 2^24 shorts). */
  if (from > 0 && !ks_exp_micro_clearly_below (t, h, COL_TIME, 0.05))
    v = ks_verdict_new (KS_VERDICT_HOLDS,
                        _("On this device the kernel with its transfers beats the host loop only within the "
                          "noise (at %.0f shorts it takes %.2fx the loop's time): the paper's claim holds "
                          "here."), length, ratio);
  else if (from > 0)
    v = ks_verdict_new (KS_VERDICT_FAILS,
                        _("On this device the kernel with its transfers beats the host loop from length %.0f "
                          "on (at %.0f shorts it takes %.2fx the loop's time): the paper's claim does not "
                          "hold here."), from, length, ratio);
  else
    v = ks_verdict_new (KS_VERDICT_HOLDS,
                        _("On this device the kernel with its transfers never beats the host loop (at %.0f "
                          "shorts it takes %.2fx the loop's time): the paper's claim holds here."),
                        length, ratio);
  if (kernel_from > 0)
    ks_verdict_append (v, _("The kernel alone beats the loop from length %.0f on: the transfers cost "
                            "more than the additions."), kernel_from);
  if (ks_run_device_is_cpu (run, device))
    ks_verdict_append (v, _("A CPU stands in for a GPU here: its transfers are copies within the same "
                            "memory, not over a bus."));
  return v;
}

static const KsFigureSpec figures[] = {
  { .id = "time-vs-length", .title = N_("Vector addition: time vs length"),
    .x = "length", .y = "time_ms", .series_by = "timing", .log2_x = TRUE, .log_y = TRUE,
    .highlight = "faster_than_host", .highlight_legend = N_("faster than the host loop") },
};

static const KsPaperValue paper_values[] = {
  { "timing=build", "time_ms", 100, "ms", N_("section 3.2.2.1"),
    N_("The text: building the program and creating the kernel take \"up to several hundred milliseconds\"; "
       "do them once. An order of magnitude, not a measurement") },
};

const KsExperimentDesc ks_exp_micro_hello = {
  .id = "micro-hello",
  .title = N_("Hello world: vector addition"),
  KS_EXP_MICRO_PAPER,
  .summary = N_("The sum of two short arrays vs the host loop, with and without transfers; the build's cost"),
  .claim = N_("The paper's first program adds two arrays of shorts, one element per work-item, and says "
              "that such trivial work gains nothing on a GPU: each element costs one addition and two "
              "transfers over the bus (section 4.1).\n\n"
              "Three curves per device: the plain C loop on one host core, measured in the same run; the "
              "kernel alone, its inputs already on the device; and the kernel with both uploads and the "
              "download, as the paper's ArraySumm does them. Highlighted points beat the host loop. The "
              "kernel alone wins from some length on; with its transfers a discrete GPU seldom wins, since "
              "the bus moves 6 bytes per element in the time the CPU adds many of them.\n\n"
              "The build point times building the program with options no kernel cache has seen: the "
              "paper's \"up to several hundred milliseconds\", to be paid once. PoCL compiles the "
              "work-group function only at the first launch (shown beside it).\n\n"
              "Kernel and transfer times are device events: NVIDIA's OpenCL counts them in whole "
              "microseconds, so the shortest kernels read as 0 or 1 us there. The host loop is repeated "
              "until it lasts 0.2 ms and divided."),
  .example = "--length 2^10:2^24 --timing host,transfers --plot hello.png",
  .backends = KS_BACKENDS_GPU,
  .size_param = "length",
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .paper_values = paper_values, .n_paper_values = G_N_ELEMENTS (paper_values),
  .set_up = hello_set_up,
  .prepare = hello_prepare,
  .measure_one_rep = hello_measure,
  .describe_device = hello_describe_device,
  .tear_down = hello_tear_down,
  .summarize = hello_summarize,
  .judge = hello_judge,
};
