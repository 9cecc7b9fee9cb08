/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-exp-heat.c: paper 004's heat problem as an experiment: time per step,
 * CG iterations and the CG's bytes per second against the cell count, per
 * device, over the heat solver (src/solvers/ks-heat.h) and its CG
 * (ks-cg.h).  The triad bandwidth of each device (measured once, unless the
 * device list already did) is the line the bytes per second stand against,
 * as the paper's roofline says they should. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-exp-heat.h"
#include "ks-bench-probes.h"
#include "ks-gif.h"
#include "ks-cg.h"
#include "ks-compute-error.h"
#include "ks-heat.h"
#include "ks-heat-plot.h"
#include "ks-io-file.h"
#include "ks-mesh-gen.h"
#include "ks-msh.h"
#include "ks-run.h"
#include "ks-verdict.h"
#include "ks-solver-error.h"

#include <errno.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* --- parameters ----------------------------------------------------------------- */

enum { SOURCE_GENERATED, SOURCE_FILE };

static const KsChoice source_choices[] = {
  { "generated", N_("generated"), N_("A mesh made here: kind, domain and cell count"), SOURCE_GENERATED },
  { "file", N_("file"), N_("A Gmsh .msh file, or a .geo file meshed by gmsh"), SOURCE_FILE },
  { NULL }
};

static const KsChoice kind_choices[] = {
  { "quad", N_("quadrilaterals"), N_("A regular mesh of quadrilaterals: 9 entries per row"), 0 },
  { "tri", N_("triangles"), N_("The same split along a diagonal: about 13 entries per row"), 1 },
  { "mixed", N_("mixed"), N_("Patches of quadrilaterals and triangles"), 2 },
  { "perturbed", N_("perturbed"), N_("Quadrilaterals with their inner nodes moved at random"), 3 },
  { NULL }
};

static const KsChoice domain_choices[] = {
  { "square", N_("square"), N_("[-1, 1] x [-1, 1]"), 0 },
  { "disc", N_("disc"), N_("The unit disc: a square inside, rings around it"), 1 },
  { NULL }
};

static const KsChoice boundary_choices[] = {
  { "insulated", N_("insulated"), N_("No flux through the boundary: the energy is conserved"),
    KS_HEAT_BOUNDARY_INSULATED },
  { "fixed", N_("fixed temperature"), N_("The boundary held at the initial temperature 0"), KS_HEAT_BOUNDARY_FIXED },
  { NULL }
};

static const KsChoice precision_choices[] = {
  { "double", N_("double (the paper's)"), NULL, KS_PRECISION_DOUBLE },
  { "float", N_("float"), N_("Half the bytes; reaches a relative residual of about 1e-6 at best"), KS_PRECISION_FLOAT },
  { NULL }
};

static const KsChoice variant_choices[] = {
  { "base", N_("base"), N_("The CG as printed: one kernel per operation, 20L + 108 bytes per row"), KS_CG_BASE },
  { "fused", N_("fused"), N_("The paper's modified CG: three passes per iteration, 20L + 84 bytes per row"),
    KS_CG_FUSED },
  { NULL }
};

static const KsChoice offload_choices[] = {
  { "whole", N_("whole step"),
    N_("The assembly, the CG and the step's numbers on the device; the geometry goes up once (the paper's advice)"),
    KS_HEAT_OFFLOAD_WHOLE },
  { "partial", N_("partial"),
    /* xgettext:no-c-format */
    N_("The assembly on the host, the matrix and the vectors copied at every solve (what the paper measured losing up to 22 % at 1 M cells)"),
    KS_HEAT_OFFLOAD_PARTIAL },
  { NULL }
};

/* What --frames writes into its folder. */
static const char *const frame_names[] = { "frame-*.png", "final.png", "series.csv", NULL };

enum {
  P_CELLS, P_SOURCE, P_KIND, P_DOMAIN, P_FILE, P_TRUST_GEO, P_N, P_D0, P_ENERGY, P_TAU, P_STEPS, P_TOL,
  P_BOUNDARY, P_GROUPS, P_PRECISION, P_VARIANT, P_OFFLOAD, P_FRAMES, P_GIF, P_FRAME_EVERY, N_PARAMS
};

static const KsParamSpec params[] = {
  [P_CELLS] = { .name = "cells", .label = N_("Cells"), .help = N_("About how many cells the generated mesh has"),
    .type = KS_PARAM_INT, .default_value = "2^10:2^16", .min = 2, .max = KS_MESH_MAX_GENERATED_CELLS,
    .sweepable = TRUE, .cli_range = TRUE, .when = { "source", { "generated" } } },
  [P_SOURCE] = { .name = "source", .label = N_("Mesh"), .help = N_("A generated mesh or a file"),
    .type = KS_PARAM_CHOICE, .choices = source_choices, .default_value = "generated" },
  [P_KIND] = { .name = "kind", .label = N_("Cells' shape"), .help = N_("Quadrilaterals, triangles or both"),
    .type = KS_PARAM_CHOICE, .choices = kind_choices, .default_value = "quad", .sweepable = TRUE,
    .when = { "source", { "generated" } } },
  [P_DOMAIN] = { .name = "domain", .label = N_("Domain"), .help = N_("The square or the disc"),
    .type = KS_PARAM_CHOICE, .choices = domain_choices, .default_value = "square",
    .when = { "source", { "generated" } } },
  [P_FILE] = { .name = "file", .label = N_("Mesh file"),
    .help = N_("A Gmsh mesh (.msh, MSH 2.2 or 4.1, ASCII or binary) or geometry (.geo)"),
    .type = KS_PARAM_FILE, .when = { "source", { "file" } } },
  [P_TRUST_GEO] = { .name = "trust_geo", .label = N_("Trust the .geo file"),
    .help = N_("Let a .geo file run programs and write or read other files while gmsh meshes it "
               "(System, Save, Include...): only for a file you trust; without it such a file is refused"),
    .type = KS_PARAM_BOOL, .default_value = "false", .advanced = TRUE, .when = { "source", { "file" } } },
  [P_N] = { .name = "n", .label = N_("Exponent n"),
    .help = N_("The conductivity D = D0 T^n; 0 is the linear heat equation"),
    .type = KS_PARAM_REAL, .default_value = "0", .min = 0, .max = 10 },
  [P_D0] = { .name = "d0", .label = N_("D0"), .help = N_("The conductivity's factor"),
    .type = KS_PARAM_REAL, .default_value = "1", .min = 1e-12, .max = 1e12, .advanced = TRUE },
  [P_ENERGY] = { .name = "energy", .label = N_("Released energy"),
    .help = N_("The energy released at the origin at t = 0"),
    .type = KS_PARAM_REAL, .default_value = "1", .min = 1e-12, .max = 1e12, .advanced = TRUE },
  [P_TAU] = { .name = "tau", .label = N_("Time step"), .help = N_("The implicit scheme's time step"),
    .type = KS_PARAM_REAL, .default_value = "0.0001", .min = 1e-12, .max = 1e6 },
  [P_STEPS] = { .name = "steps", .label = N_("Steps"),
    .help = N_("Time steps per repetition, from the release each time"),
    .type = KS_PARAM_INT, .default_value = "10", .min = 1, .max = 100000 },
  [P_TOL] = { .name = "tol", .label = N_("CG tolerance"), .help = N_("The CG stops at ||r|| <= tol ||b||"),
    .type = KS_PARAM_REAL, .default_value = "1e-8", .min = 1e-15, .max = 0.5, .advanced = TRUE },
  [P_BOUNDARY] = { .name = "boundary", .label = N_("Boundary"), .help = N_("Insulated or held at a fixed temperature"),
    .type = KS_PARAM_CHOICE, .choices = boundary_choices, .default_value = "insulated", .advanced = TRUE },
  [P_GROUPS] = { .name = "groups", .label = N_("Conditions per group"),
    .help = N_("Boundary conditions by the mesh's physical group, overriding Boundary: "
               "NAME=insulated or NAME=fixed:TEMPERATURE, comma-separated (e.g. hot=fixed:3,cold=fixed:0); "
               "a generated mesh has one group, \"boundary\""),
    .type = KS_PARAM_TEXT, .default_value = "", .advanced = TRUE },
  [P_PRECISION] = { .name = "precision", .label = N_("Precision"),
    .help = N_("The device CG's precision (the host's is double)"),
    .type = KS_PARAM_CHOICE, .choices = precision_choices, .default_value = "double",
    .backends = KS_BACKENDS_GPU },
  [P_VARIANT] = { .name = "variant", .label = N_("CG variant"),
    .help = N_("The CG as printed, or the paper's fused version"),
    .type = KS_PARAM_CHOICE, .choices = variant_choices, .default_value = "base,fused", .sweepable = TRUE,
    .backends = KS_BACKENDS_GPU },
  [P_OFFLOAD] = { .name = "offload", .label = N_("Offload"),
    .help = N_("The whole time step on the device, or only the CG (assembly on the host)"),
    .type = KS_PARAM_CHOICE, .choices = offload_choices, .default_value = "whole", .sweepable = TRUE,
    .backends = KS_BACKENDS_GPU },
  [P_FRAMES] = { .name = "frames", .label = N_("Frames folder"),
    .help = N_("A folder for the temperature as PNG frames (frame-STEP.png every --frame-every steps, "
               "final.png after the last) and the time series (series.csv: per step the time, CG "
               "iterations and residual, energy, hottest cell, time, energy in through the fixed walls so far); empty: none. One run's last "
               "repetition of its last point is what stays"),
    .type = KS_PARAM_TEXT, .default_value = "", .advanced = TRUE,
    .output = KS_OUTPUT_FOLDER, .output_names = frame_names },
  [P_GIF] = { .name = "gif", .label = N_("Animated GIF"),
    .help = N_("A file for the temperature as one animated GIF, a frame every --frame-every steps and the last, "
               "through giflib; empty: none. One run's last repetition of its last point is what stays"),
    .type = KS_PARAM_TEXT, .default_value = "", .advanced = TRUE, .output = KS_OUTPUT_FILE },
  [P_FRAME_EVERY] = { .name = "frame_every", .label = N_("Frame every"), .unit = "steps",
    .help = N_("How many steps apart the frames are"),
    .type = KS_PARAM_INT, .default_value = "10", .min = 1, .max = 1000000, .advanced = TRUE },
};
G_STATIC_ASSERT (G_N_ELEMENTS (params) == N_PARAMS);

/* --- columns -------------------------------------------------------------------- */

enum {
  COL_STEP, COL_ITERS, COL_ITER_US, COL_ASSEMBLE, COL_BANDWIDTH, COL_CELLS, COL_ROW, COL_DRIFT,
  COL_BYTES_ROW, COL_TRIAD_SHARE, COL_INTENSITY, N_COLUMNS
};

/* The paper's Table 1 at the measured entries per row. */
static double
derive_bytes_row (const KsRun *run, const KsRunPoint *point, const KsColumnSpec *column)
{
  GVariant *v = ks_run_point_get_param (run, point, "variant");
  GVariant *p = ks_run_point_get_param (run, point, "precision");
  KsCgVariant variant = KS_CG_BASE;
  KsPrecision precision = KS_PRECISION_DOUBLE;

  if (v != NULL)
    ks_cg_variant_from_string (g_variant_get_string (v, NULL), &variant);
  if (p != NULL)
    ks_precision_from_string (g_variant_get_string (p, NULL), &precision);
  return ks_cg_bytes_per_row (variant, precision, point->values[COL_ROW]);
}

/* Fig. 3: Table 1's 2L + 9 operations per row over its bytes per row;
 * 0.1 as L grows (the figure's asymptote). */
static double
derive_intensity (const KsRun *run, const KsRunPoint *point, const KsColumnSpec *column)
{
  const double l = point->values[COL_ROW];

  return (2 * l + 9) / derive_bytes_row (run, point, column);
}

/* The roofline's count for one CG iteration over the whole mesh: Table
 * 1's bytes and 2L + 9 operations per row, a row per cell. */
static gboolean
heat_work (const KsRun      *run,
           const KsRunPoint *point,
           KsWork           *out)
{
  const double rows = point->values[COL_CELLS];

  out->bytes = rows * derive_bytes_row (run, point, NULL);
  out->ops = rows * (2 * point->values[COL_ROW] + 9);
  out->seconds = point->values[COL_ITER_US] * 1e-6;
  return TRUE;
}

static double
derive_triad_share (const KsRun *run, const KsRunPoint *point, const KsColumnSpec *column)
{
  const double triad = ks_run_device_get_info (run->devices->pdata[point->device], "triad_gbs");

  return triad > 0 ? 100.0 * point->values[COL_BANDWIDTH] / triad : NAN;
}

static const KsColumnSpec columns[] = {
  [COL_STEP] = { "step_ms", N_("time per step"), "ms",
                 N_("One implicit time step: the assembly (on the device, or on the host with its uploads), the CG solves, the step's numbers"),
                 KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_ITERS] = { "iterations", N_("CG iterations per step"), NULL,
                  N_("Summed over the step's nonlinear iterations, averaged over the steps"),
                  KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_ITER_US] = { "iteration_us", N_("time per CG iteration"), "us",
                    N_("The CG iterations' wall time (no transfers: the vectors stay on the device) over their count"),
                    KS_COLUMN_REAL, KS_REDUCE_MEDIAN_RANGE },
  [COL_ASSEMBLE] = { "assemble_ms", N_("assembly per step"), "ms",
                     N_("The matrix and right-hand side: on the host, or the device's kernels (whole offload)"),
                     KS_COLUMN_REAL, KS_REDUCE_MEDIAN, .hidden = TRUE },
  [COL_BANDWIDTH] = { "bandwidth_gbs", N_("CG bytes per second"), "GB/s",
                      N_("The bytes the paper's Table 1 counts for the iterations, over their wall time"),
                      KS_COLUMN_REAL, KS_REDUCE_MEDIAN },
  [COL_CELLS] = { "mesh_cells", N_("cells"), NULL, N_("The cells the mesh has (a generated one: about the count asked)"),
                  KS_COLUMN_INT, KS_REDUCE_LAST },
  [COL_ROW] = { "row_entries", N_("entries per row"), NULL, N_("The matrix's mean non-zeros per row (the paper's L)"),
                KS_COLUMN_REAL, KS_REDUCE_LAST },
  [COL_DRIFT] = { "energy_drift", N_("energy drift"), NULL,
                  N_("|E - E0 - inflow| / E0 after the steps: the energy balance, round-off and the CG tolerance"),
                  KS_COLUMN_REAL, KS_REDUCE_MAX, .hidden = TRUE },
  [COL_BYTES_ROW] = { "bytes_per_row", N_("bytes per row and iteration"), "B",
                      N_("Paper 004's Table 1 at the measured entries per row: 20L + 108 (base), 20L + 84 (fused)"),
                      KS_COLUMN_REAL, .derive = derive_bytes_row },
  [COL_TRIAD_SHARE] = { "triad_share", N_("share of the triad bandwidth"), "%",
                        N_("CG bytes per second over the device's STREAM triad bandwidth"),
                        KS_COLUMN_REAL, .derive = derive_triad_share },
  [COL_INTENSITY] = { "intensity", N_("arithmetic intensity"), "flop/B",
                      N_("Paper 004's Fig. 3: Table 1's 2L + 9 operations per row over its bytes per row, at the "
                         "measured L; 0.1 as L grows"),
                      KS_COLUMN_REAL, .derive = derive_intensity },
};

G_STATIC_ASSERT (G_N_ELEMENTS (columns) == N_COLUMNS);

/* x is the cells the mesh has, standing for --cells: a mesh read from a
 * file (no --cells, recorded as null) is drawn too, at its own count. */
static const KsFigureSpec figures[] = {
  { .id = "step-vs-cells", .title = N_("Heat: time per step vs cells"), .x = "mesh_cells", .x_param = "cells",
    .y = "step_ms", .series_by = "variant", .log_x = TRUE, .log_y = TRUE },
  { .id = "iterations-vs-cells", .title = N_("Heat: CG iterations per step vs cells"), .x = "mesh_cells",
    .x_param = "cells", .y = "iterations", .series_by = "kind", .log_x = TRUE },
  { .id = "bandwidth-vs-cells", .title = N_("Heat: CG bytes per second vs cells"), .x = "mesh_cells",
    .x_param = "cells", .y = "bandwidth_gbs", .series_by = "variant", .log_x = TRUE,
    .hline_info = "triad_gbs", .hline_label = N_("triad %g GB/s") },
  { .id = "offload-vs-cells", .title = N_("Heat: whole step on the device vs partial offload"),
    .x = "mesh_cells", .x_param = "cells", .y = "step_ms", .series_by = "offload", .log_x = TRUE, .log_y = TRUE },
  { .id = "bytes-per-row", .title = N_("Heat: CG bytes per row (paper's Table 1)"), .x = "kind",
    .y = "bytes_per_row", .series_by = "variant", .categorical_x = TRUE, .show_paper = TRUE },
  { .id = "intensity", .title = N_("Heat: CG arithmetic intensity (paper's Fig. 3)"), .x = "kind",
    .y = "intensity", .series_by = "variant", .categorical_x = TRUE, .show_paper = TRUE,
    .hline_info = "intensity_limit", .hline_label = N_("L to infinity: %g") },
};

static const KsPaperValue paper_values[] = {
  { "kind=quad variant=base", "bytes_per_row", 288, "B", N_("Table 1"),
    N_("20L + 108 at L = 9 (quadrilaterals), double values, 32-bit indices") },
  { "kind=quad variant=fused", "bytes_per_row", 264, "B", N_("Table 1"),
    /* xgettext:no-c-format */
    N_("20L + 84 at L = 9: 9 % less traffic than the base version") },
  { "kind=tri variant=base", "bytes_per_row", 368, "B", N_("Table 1"),
    N_("20L + 108 at L = 13 (triangles)") },
  { "kind=tri variant=fused", "bytes_per_row", 344, "B", N_("Table 1"),
    /* xgettext:no-c-format */
    N_("20L + 84 at L = 13: 7 % less traffic") },
  { "kind=quad variant=base", "intensity", 27.0 / 288, "flop/B", N_("Fig. 3"), N_("(2L + 9) / (20L + 108) at L = 9") },
  { "kind=quad variant=fused", "intensity", 27.0 / 264, "flop/B", N_("Fig. 3"), N_("(2L + 9) / (20L + 84) at L = 9") },
  { "kind=tri variant=base", "intensity", 35.0 / 368, "flop/B", N_("Fig. 3"), N_("(2L + 9) / (20L + 108) at L = 13") },
  { "kind=tri variant=fused", "intensity", 35.0 / 344, "flop/B", N_("Fig. 3"), N_("(2L + 9) / (20L + 84) at L = 13") },
};

/* --- boundary conditions per group ---------------------------------------------------- */

/* "hot=fixed:3,cold=insulated" applied to heat (NULL: only checked). */
static gboolean
apply_groups (const char *text, KsHeat *heat, GError **error)
{
  g_auto(GStrv) items = NULL;

  if (text == NULL || *text == '\0')
    return TRUE;
  items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_auto(GStrv) kv = g_strsplit (g_strstrip (items[i]), "=", 2);
      KsHeatBoundary kind = KS_HEAT_BOUNDARY_INSULATED;
      double t = 0;
      char *end = NULL;
      const char *value = kv[0] != NULL ? kv[1] : NULL;

      if (value != NULL && g_str_has_prefix (value, "fixed:"))
        {
          kind = KS_HEAT_BOUNDARY_FIXED;
          t = g_ascii_strtod (value + 6, &end);
        }
      if (value == NULL || *kv[0] == '\0' ||
          (kind == KS_HEAT_BOUNDARY_INSULATED && !g_str_equal (value, "insulated")) ||
          (kind == KS_HEAT_BOUNDARY_FIXED && (end == value + 6 || *end != '\0' || !isfinite (t) || t < 0)))
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--groups: \"%s\" is not NAME=insulated or NAME=fixed:TEMPERATURE (a number >= 0)"), items[i]);
          return FALSE;
        }
      if (heat != NULL && !ks_heat_set_group_boundary (heat, kv[0], kind, t, error))
        return FALSE;
    }
  return TRUE;
}

/* --- measuring ------------------------------------------------------------------ */

typedef struct {
  KsDevice   *device;
  KsCgDevice *cg[2][2];   /* [precision][variant], built on first use */
  KsHeat     *heat;
  KsMesh     *mesh;
  KsPlot     *frame_plot;  /* the point's mesh, when frames or a GIF are written */
  /* The point's frames and GIF, written aside until every repetition of
   * the point succeeded (heat_commit): a point that fails or is stopped
   * halfway replaces none of the user's files. */
  KsIoStage  *frames_stage;
  KsIoStage  *gif_stage;
  char       *mesh_key;   /* what mesh is built */
  gboolean    said_notes; /* its notes (the release point moved) shown */
  double      triad_gbs;
} HeatState;

/* What the last point wrote aside and did not put into place, dropped. */
static void
drop_stages (HeatState *s)
{
  g_clear_pointer (&s->frames_stage, ks_io_stage_free);
  g_clear_pointer (&s->gif_stage, ks_io_stage_free);
}

static void
heat_tear_down (gpointer state)
{
  HeatState *s = state;

  drop_stages (s);
  g_clear_pointer (&s->heat, ks_heat_free);
  g_clear_pointer (&s->frame_plot, ks_plot_unref);
  for (guint p = 0; p < 2; p++)
    for (guint v = 0; v < 2; v++)
      g_clear_pointer (&s->cg[p][v], ks_cg_device_free);
  g_clear_pointer (&s->mesh, ks_mesh_unref);
  g_free (s->mesh_key);
  g_clear_object (&s->device);
  g_free (s);
}

static gboolean
heat_check (const KsExperimentDesc *desc, KsDevice *device, const KsConfig *base, GError **error)
{
  const KsPrecision precision = ks_config_choice (base, P_PRECISION);
  const double tol = ks_config_real (base, P_TOL);
  const char *frames = ks_config_text (base, P_FRAMES);
  const char *gif = ks_config_text (base, P_GIF);

  if (frames != NULL && *frames != '\0' && g_mkdir_with_parents (frames, 0755) != 0)
    {
      const int err = errno;
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("The frames folder %s cannot be made: %s"), frames, g_strerror (err));
      return FALSE;
    }

  if (!apply_groups (ks_config_text (base, P_GROUPS), NULL, error))
    return FALSE;
  if (gif != NULL && *gif != '\0')
    {
      g_autofree char *dir = g_path_get_dirname (gif);
      if (!ks_gif_available (error))
        return FALSE;
      if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                       _("--gif %s: the folder %s does not exist"), gif, dir);
          return FALSE;
        }
    }
  if (precision == KS_PRECISION_FLOAT && tol < 1e-6)
    {
      g_set_error (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_INVALID,
                   _("A float CG cannot reach a relative residual of %g (about 1e-6 at best): "
                     "give --tol 1e-5 or more, or --precision double"), tol);
      return FALSE;
    }
  if (precision == KS_PRECISION_DOUBLE && ks_device_get_backend (device) != KS_BACKEND_HOST &&
      !ks_device_get_info (device)->has_fp64)
    {
      g_set_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED,
                   _("%s has no double precision (cl_khr_fp64); choose float"), ks_device_get_name (device));
      return FALSE;
    }
  return TRUE;
}

static gpointer
heat_set_up (const KsExperimentDesc *desc, KsDevice *device, const KsConfig *base,
             GCancellable *cancellable, GError **error)
{
  HeatState *s = g_new0 (HeatState, 1);

  s->device = g_object_ref (device);
  s->triad_gbs = ks_device_get_bandwidth (device);
  /* The line the CG's bytes per second stand against: measured here once
   * unless the device list has it (the host has no triad kernel here). */
  if (!(s->triad_gbs > 0) && ks_device_get_backend (device) != KS_BACKEND_HOST)
    {
      KsBandwidth bw = { 0 };
      g_autoptr(GError) local = NULL;
      if (ks_bench_bandwidth (device, 0, 5, &bw, &local))
        s->triad_gbs = bw.triad_gbs;
      else
        g_debug ("no triad bandwidth for %s: %s", ks_device_get_name (device), local->message);
    }
  return s;
}

static void
heat_describe_device (gpointer state, const KsConfig *base, KsRunDevice *out)
{
  HeatState *s = state;

  if (s->triad_gbs > 0)
    ks_run_device_set_info (out, "triad_gbs", s->triad_gbs);
  /* Fig. 3's asymptote: 2L / 20L with double values (4 + 8 + 8 bytes per
   * entry); float values make it 2L / 12L. */
  ks_run_device_set_info (out, "intensity_limit",
                          ks_config_choice (base, P_PRECISION) == KS_PRECISION_FLOAT ? 2.0 / 12 : 0.1);
}

/* With --source file the file named, whatever its name looks like (a file
 * "quad:64" is that file, not a generated mesh); a .geo is meshed, its
 * programs and file statements run only if trusted. */
static KsMesh *
load_mesh (const char *key, gboolean file, gboolean trust_geo, GCancellable *cancellable, GError **error)
{
  if (file && g_str_has_suffix (key, ".geo"))
    return ks_msh_mesh_geo (key, trust_geo, cancellable, error);
  if (file)
    return ks_msh_read_file (key, 0, error);
  return ks_mesh_new_from_spec (key, cancellable, error);
}

/* The point's mesh (kept while the next point wants the same) and problem. */
static gboolean
heat_prepare (gpointer state, const KsConfig *point, GCancellable *cancellable, GError **error)
{
  HeatState *s = state;
  const gboolean file = ks_config_choice (point, P_SOURCE) == SOURCE_FILE;
  g_autofree char *key = file ? g_strdup (ks_config_text (point, P_FILE))
                              : g_strdup_printf ("%s-%s:%" G_GINT64_FORMAT, ks_config_text (point, P_KIND),
                                                 ks_config_text (point, P_DOMAIN),
                                                 ks_config_int (point, P_CELLS));
  KsHeatParams p;
  KsPrecision precision = KS_PRECISION_DOUBLE;
  KsCgVariant variant = KS_CG_FUSED;
  KsHeatOffload offload = KS_HEAT_OFFLOAD_WHOLE;
  const char *text;

  drop_stages (s);
  g_clear_pointer (&s->heat, ks_heat_free);
  g_clear_pointer (&s->frame_plot, ks_plot_unref);
  if (g_strcmp0 (key, s->mesh_key) != 0)
    {
      g_clear_pointer (&s->mesh, ks_mesh_unref);
      g_clear_pointer (&s->mesh_key, g_free);
      if (!(s->mesh = load_mesh (key, file, file && ks_config_bool (point, P_TRUST_GEO), cancellable, error)))
        return FALSE;
      s->mesh_key = g_steal_pointer (&key);
      s->said_notes = FALSE;
      /* Cells turned on reading: said once per mesh (the description says how many). */
      if (s->mesh->n_reoriented > 0)
        g_message ("%s", s->mesh->description);
    }
  ks_heat_params_init (&p);
  p.n = ks_config_real (point, P_N);
  p.d0 = ks_config_real (point, P_D0);
  p.energy = ks_config_real (point, P_ENERGY);
  p.tau = ks_config_real (point, P_TAU);
  p.cg_tol = ks_config_real (point, P_TOL);
  p.boundary = ks_config_choice (point, P_BOUNDARY);
  if (!(s->heat = ks_heat_new (s->mesh, &p, error)) ||
      !apply_groups (ks_config_text (point, P_GROUPS), s->heat, error))
    return FALSE;
  /* The release moved off the origin: said once per mesh, not per point. */
  if (ks_heat_get_note (s->heat) != NULL && !s->said_notes)
    g_message ("%s", ks_heat_get_note (s->heat));
  s->said_notes = TRUE;
  text = ks_config_text (point, P_FRAMES);
  if ((text != NULL && *text != '\0') ||
      ((text = ks_config_text (point, P_GIF)) != NULL && *text != '\0'))
    {
      s->frame_plot = ks_plot_new ();
      if (!ks_heat_plot_set_mesh (s->frame_plot, s->mesh, error))
        return FALSE;
    }
  if (ks_device_get_backend (s->device) == KS_BACKEND_HOST)
    return TRUE;
  if (ks_config_value (point, P_PRECISION) != NULL)
    precision = ks_config_choice (point, P_PRECISION);
  if (ks_config_value (point, P_VARIANT) != NULL)
    variant = ks_config_choice (point, P_VARIANT);
  if (s->cg[precision][variant] == NULL &&
      !(s->cg[precision][variant] = ks_cg_device_new (s->device, precision, variant, error)))
    return FALSE;
  ks_heat_set_cg (s->heat, s->cg[precision][variant]);
  if (ks_config_value (point, P_OFFLOAD) != NULL)
    offload = ks_config_choice (point, P_OFFLOAD);
  ks_heat_set_offload (s->heat, offload);
  return TRUE;
}

/* The temperature now into the frame plot, titled with the step and time,
 * then as name in the frames' stage (PNG; stage NULL: none) and into gif
 * (may be NULL). */
static gboolean
write_frame (HeatState *s, KsIoStage *stage, const char *name, KsGifWriter *gif, GError **error)
{
  g_autofree char *title = g_strdup_printf (_("Heat: step %u, t = %.5g"), ks_heat_get_step (s->heat),
                                            ks_heat_get_time (s->heat));

  /* T comes back from the device only for a frame. */
  if (!ks_heat_sync (s->heat, error))
    return FALSE;
  ks_plot_set_title (s->frame_plot, title);
  ks_plot_set_mesh_values (s->frame_plot, ks_heat_get_temperature (s->heat));
  if (stage != NULL && !ks_plot_export (s->frame_plot, ks_io_stage_path (stage, name), 800, 640, NULL, error))
    return FALSE;
  return gif == NULL || ks_gif_writer_add_plot (gif, s->frame_plot, error);
}

/* The point's stages, made at its first repetition (heat_check made the
 * frames' folder), and this repetition's GIF writer into its stage (*gif
 * left NULL: no GIF). */
static gboolean
open_outputs (HeatState *s, const KsConfig *point, KsGifWriter **gif, GError **error)
{
  const char *frames = ks_config_text (point, P_FRAMES);
  const char *path = ks_config_text (point, P_GIF);
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  if (frames != NULL && *frames != '\0' && s->frames_stage == NULL &&
      !(s->frames_stage = ks_io_stage_new (frames, error)))
    return FALSE;
  if (path == NULL || *path == '\0')
    return TRUE;
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  if (s->gif_stage == NULL && !(s->gif_stage = ks_io_stage_new (dir, error)))
    return FALSE;
  /* 10 frames a second; the first shows the release. */
  return (*gif = ks_gif_writer_new (ks_io_stage_path (s->gif_stage, base), 800, 640, 10, error)) != NULL;
}

/* Every repetition of the point succeeded: its frames and GIF into place. */
static gboolean
heat_commit (gpointer state, const KsConfig *point, GError **error)
{
  HeatState *s = state;
  gboolean ok = (s->frames_stage == NULL || ks_io_stage_commit (s->frames_stage, error)) &&
                (s->gif_stage == NULL || ks_io_stage_commit (s->gif_stage, error));

  drop_stages (s);
  return ok;
}

static gboolean
heat_measure (gpointer state, const KsConfig *point, double *values, GCancellable *cancellable, GError **error)
{
  HeatState *s = state;
  const guint steps = (guint) ks_config_int (point, P_STEPS);
  const guint every = (guint) ks_config_int (point, P_FRAME_EVERY);
  KsIoStage *frames;
  g_autoptr(KsGifWriter) gif = NULL;
  KsGifWriter *last;
  g_autoptr(GString) series = g_string_new ("step,time,cg_iterations,cg_residual,energy,t_max,step_ms,inflow\n");
  double step_s = 0, iterate_s = 0, assemble_s = 0, bytes = 0, iterations = 0, e0;
  KsHeatStepStats st = { 0 };
  g_autoptr(GError) local = NULL;

  if (!open_outputs (s, point, &gif, error))
    return FALSE;
  frames = s->frames_stage;
  ks_heat_reset (s->heat);
  e0 = ks_heat_total_energy (s->heat);
  if (gif != NULL && !write_frame (s, NULL, NULL, gif, error))
    return FALSE;
  for (guint k = 0; k < steps; k++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!ks_heat_step (s->heat, &st, &local))
        {
          /* A step that does not converge says something about this point
           * (too large a time step for this mesh), not about the device:
           * the sweep goes on. */
          if (g_error_matches (local, KS_SOLVER_ERROR, KS_SOLVER_ERROR_NOT_CONVERGED) ||
              g_error_matches (local, KS_SOLVER_ERROR, KS_SOLVER_ERROR_BREAKDOWN))
            g_set_error_literal (error, KS_EXPERIMENT_ERROR, KS_EXPERIMENT_ERROR_REFUSED, local->message);
          else
            g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (frames != NULL || gif != NULL)
        {
          char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE], c[G_ASCII_DTOSTR_BUF_SIZE];
          char d[G_ASCII_DTOSTR_BUF_SIZE], e[G_ASCII_DTOSTR_BUF_SIZE], f[G_ASCII_DTOSTR_BUF_SIZE];
          g_string_append_printf (series, "%u,%s,%u,%s,%s,%s,%s,%s\n", st.step,
                                  g_ascii_dtostr (a, sizeof a, st.time), st.cg_iterations,
                                  g_ascii_dtostr (b, sizeof b, st.cg_residual), g_ascii_dtostr (c, sizeof c, st.energy),
                                  g_ascii_dtostr (d, sizeof d, st.t_max), g_ascii_dtostr (e, sizeof e, 1e3 * st.step_s),
                                  g_ascii_dtostr (f, sizeof f, ks_heat_get_inflow (s->heat)));
          if (st.step % every == 0)
            {
              g_autofree char *name = g_strdup_printf ("frame-%06u.png", st.step);
              if (!write_frame (s, frames, name, gif, error))
                return FALSE;
            }
        }
      step_s += st.step_s;
      iterate_s += st.iterate_s;
      assemble_s += st.assemble_s;
      bytes += st.cg_bytes;
      iterations += st.cg_iterations;
    }
  /* The last step: final.png, and the GIF's last frame unless a numbered one was it. */
  last = steps % every != 0 ? gif : NULL;
  if ((frames != NULL || last != NULL) && !write_frame (s, frames, "final.png", last, error))
    return FALSE;
  if (frames != NULL && !ks_io_write_file (ks_io_stage_path (frames, "series.csv"), series->str, series->len, error))
    return FALSE;
  if (gif != NULL && !ks_gif_writer_finish (gif, error))
    return FALSE;
  values[COL_STEP] = 1e3 * step_s / steps;
  values[COL_ITERS] = iterations / steps;
  values[COL_ITER_US] = iterations > 0 ? 1e6 * iterate_s / iterations : NAN;
  values[COL_ASSEMBLE] = 1e3 * assemble_s / steps;
  values[COL_BANDWIDTH] = iterate_s > 0 ? bytes / iterate_s / 1e9 : NAN;
  values[COL_CELLS] = s->mesh->n_cells;
  values[COL_ROW] = (double) (s->mesh->stencil_offsets[s->mesh->n_cells] + s->mesh->n_cells) / s->mesh->n_cells;
  values[COL_DRIFT] = fabs (st.energy - e0 - ks_heat_get_inflow (s->heat)) / e0;
  return TRUE;
}

/* The point measured like a in every parameter but name, where name is
 * other; NULL if the run has none. */
static const KsRunPoint *
partner (const KsRun *run, const KsRunPoint *a, const char *name, const char *other)
{
  for (guint j = 0; j < run->points->len; j++)
    {
      const KsRunPoint *b = run->points->pdata[j];
      gboolean same = b->error == NULL && b->device == a->device;

      for (guint k = 0; same && k < run->desc->n_params; k++)
        {
          GVariant *va = a->params[k], *vb = b->params[k];
          if (g_str_equal (run->desc->params[k].name, name))
            same = vb != NULL && g_str_equal (g_variant_get_string (vb, NULL), other);
          else
            same = (va == NULL) == (vb == NULL) && (va == NULL || g_variant_equal (va, vb));
        }
      if (same)
        return b;
    }
  return NULL;
}

static gboolean
point_is (const KsRun *run, const KsRunPoint *p, const char *name, const char *value)
{
  GVariant *v = ks_run_point_get_param (run, p, name);

  return p->error == NULL && v != NULL && g_str_equal (g_variant_get_string (v, NULL), value);
}

static void
heat_summarize (const KsRun *run, GString *out)
{
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *f = run->points->pdata[i];
      const char *device = ((KsRunDevice *) run->devices->pdata[f->device])->name;
      const KsRunPoint *b;

      /* The fused CG against the base one at each point both measured. */
      if (point_is (run, f, "variant", "fused") && (b = partner (run, f, "variant", "base")) != NULL)
        g_string_append_printf (out,
                                _("%s, %.0f cells: fused %.2f us per CG iteration, base %.2f: %+.1f %% "
                                  "(the paper predicts %.1f %% from the bytes alone)\n"),
                                device, ks_run_point_get_number (run, f, "mesh_cells"),
                                f->values[COL_ITER_US], b->values[COL_ITER_US],
                                100.0 * (b->values[COL_ITER_US] / f->values[COL_ITER_US] - 1),
                                100.0 * (b->values[COL_BYTES_ROW] / f->values[COL_BYTES_ROW] - 1));
      /* The partial offload against the whole step on the device. */
      if (point_is (run, f, "offload", "whole") && (b = partner (run, f, "offload", "partial")) != NULL)
        g_string_append_printf (out,
                                _("%s, %.0f cells: whole step on the device %.3g ms, partial offload %.3g ms "
                                  "(assembly %.3g ms on the host): the partial offload loses %.1f %% "
                                  "(the paper: up to 22 %% at 1 M cells, 41 %% at 78 M)\n"),
                                device, ks_run_point_get_number (run, f, "mesh_cells"),
                                f->values[COL_STEP], b->values[COL_STEP], b->values[COL_ASSEMBLE],
                                100.0 * (1 - f->values[COL_STEP] / b->values[COL_STEP]));
    }
}

/* Table 1: the fused CG moves 20L + 84 bytes per row against the base
 * one's 20L + 108 (9 % less on quadrilaterals, 7 % on triangles), and a
 * memory-bound CG is faster by as much.  Fused against base at the
 * largest mesh both ran, beyond the repetitions' spread. */
static KsVerdict *
heat_judge (const KsRun *run, guint device)
{
  const KsRunPoint *f = NULL, *b = NULL;
  const gboolean cpu = ks_run_device_is_cpu (run, device);
  double cells, gain, predicted;
  KsVerdict *v;

  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i], *q;

      if (p->device == device && point_is (run, p, "variant", "fused") &&
          (q = partner (run, p, "variant", "base")) != NULL &&
          (f == NULL || p->values[COL_CELLS] > f->values[COL_CELLS]))
        f = p, b = q;
    }
  if (f == NULL)
    {
      if (g_strcmp0 (((KsRunDevice *) run->devices->pdata[device])->backend, "host") == 0)
        return ks_verdict_new (KS_VERDICT_UNTESTED,
                               _("The host runs one CG; the fused CG runs on an OpenCL or CUDA device."));
      v = ks_verdict_new (KS_VERDICT_UNTESTED, _("This run has no base and fused CG on the same mesh to compare."));
      /* On a CPU, meshes it runs both on within the lesson's 20 s. */
      if (cpu)
        ks_verdict_suggest (v, _("Compare the base and the fused CG"), "variant", "base,fused",
                            "cells", "2^12:2^14", NULL);
      else
        ks_verdict_suggest (v, _("Compare the base and the fused CG"), "variant", "base,fused", NULL);
      return v;
    }
  cells = f->values[COL_CELLS];
  gain = 100.0 * (b->values[COL_ITER_US] / f->values[COL_ITER_US] - 1);
  predicted = 100.0 * (b->values[COL_BYTES_ROW] / f->values[COL_BYTES_ROW] - 1);
  /* Beyond the spread: the fused CG's slowest repetition under the base
   * one's fastest, or the other way round. */
  if (f->hi[COL_ITER_US] < b->lo[COL_ITER_US] || b->hi[COL_ITER_US] < f->lo[COL_ITER_US] ||
      isnan (f->hi[COL_ITER_US]) || isnan (b->lo[COL_ITER_US]))
    v = ks_verdict_new (gain > 0 ? KS_VERDICT_HOLDS : KS_VERDICT_FAILS,
                        gain > 0
                          ? _("At %.0f cells on this device a fused CG iteration takes %.1f us against %.1f us "
                              "for the base one, %+.1f %% (the bytes alone predict %+.1f %%): the paper's claim "
                              "holds here.")
                          : _("At %.0f cells on this device a fused CG iteration takes %.1f us against %.1f us "
                              "for the base one, %+.1f %% (the bytes alone predict %+.1f %%): the paper's claim "
                              "does not hold here."),
                        cells, f->values[COL_ITER_US], b->values[COL_ITER_US], gain, predicted);
  else
    v = ks_verdict_new (KS_VERDICT_UNTESTED,
                        _("At %.0f cells on this device a fused CG iteration takes %.1f us against %.1f us for "
                          "the base one, %+.1f %% (the bytes alone predict %+.1f %%), within the repetitions' "
                          "spread: this run cannot tell them apart."),
                        cells, f->values[COL_ITER_US], b->values[COL_ITER_US], gain, predicted);
  if (cpu)
    ks_verdict_append (v, _("A CPU stands in for a GPU here: its caches may hold part of the vectors."));
  if (cells < 1e6)
    {
      ks_verdict_append (v, _("This run's mesh (%.0f cells) is far smaller than the paper's 1 M to 78 M."), cells);
      if (!cpu)
        ks_verdict_suggest (v, _("Use a mesh of 4 M cells"), "cells", "2^22", "variant", "base,fused", NULL);
    }
  return v;
}

const KsExperimentDesc ks_exp_heat = {
  .id = "heat",
  .title = N_("Heat: time per step vs cells"),
  .paper = "004",
  .paper_title = N_("Anisov, Vaziev & Ushakov (2020): 2D heat equation, CG on CPU+GPU"),
  .summary = N_("Implicit heat diffusion on a triangle/quadrilateral mesh: time per step, CG iterations, bytes per second"),
  /* xgettext:no-c-format */
  .claim = N_("The implicit heat scheme spends 80-95 % of its time in the conjugate gradients, which are "
              "memory-bound: their speed is their bytes per row (Table 1: 20L + 108, or 20L + 84 fused, "
              "9 % less at L = 9) times the memory bandwidth.  Look at the bytes per second against the "
              "triad line, and at the fused version against the base one.  The whole step belongs on "
              "the device: assembling on the host and copying the matrix each step (the partial offload) "
              "lost the paper up to 22 % of its speed at 1 M cells and 41 % at 78 M; compare the two "
              "with --offload whole,partial."),
  .example = "--cells 2^12:2^16 --variant base,fused --offload whole,partial --steps 5 --plot heat.png",
  .size_param = "cells", .size_exponent = 1.5,   /* CG's iterations grow as the square root */
  .params = params, .n_params = G_N_ELEMENTS (params),
  .columns = columns, .n_columns = N_COLUMNS,
  .figures = figures, .n_figures = G_N_ELEMENTS (figures),
  .paper_values = paper_values, .n_paper_values = G_N_ELEMENTS (paper_values),
  .check = heat_check,
  .set_up = heat_set_up,
  .prepare = heat_prepare,
  .measure_one_rep = heat_measure,
  .describe_device = heat_describe_device,
  .tear_down = heat_tear_down,
  .summarize = heat_summarize,
  .judge = heat_judge,
  .work = heat_work,
  .commit = heat_commit,
};
