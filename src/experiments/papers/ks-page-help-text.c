/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ks-page-help-text.c: the help written by hand: for each paper, what to
 * look for, in plain words for a teacher (the claims are in
 * ../shared/design/SEEDS.md); and the whole help of each hand-made page,
 * whose controls no description lists.  The pages' texts are markup
 * (<b> for the names of controls): a translation keeps the tags. */
#define G_LOG_DOMAIN "ks-experiments"

#include "ks-page-help.h"
#include "ks-page-help-private.h"
#include "ks-registry.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static const struct {
  const char *paper;
  const char *look;
} papers[] = {
  { "000",
    N_("Look for spikes on the time vs size curve. A spike is a matrix size where N+1 is prime: the driver, "
       "left to pick the work-group, can then only use groups of one work-item. Run the same sizes again "
       "with the local size set to split or explicit, and the spikes should go. On the group-size page, "
       "compare where each curve is lowest (its ring) with the dashed line, the paper's predicted best "
       "group: if they sit close together, the paper's rule works on this device. Where the spikes show "
       "depends on the device: on an NVIDIA GPU only once N+1 passes 1024; on a processor through PoCL "
       "odd against even N+1 matters, not primes.") },
  { "001",
    N_("Each page repeats one measurement of the tutorial and puts the paper's CPU and GPU numbers beside "
       "yours. Compare the shape of the numbers, not their size: the paper's GPU is from 2010. Hello "
       "world: adding short vectors gains nothing on a device, since moving the data costs more than "
       "adding it; the diamonds show where the device beats the host's loop. SIMD: compare the time per "
       "element at each vector width. Built-ins: the built-in functions and the plain expressions should "
       "take the same time. Math functions: the native_ ones are faster and less accurate. Buffers: "
       "reusing buffers, pinned ones most of all, should beat making them in every call. Access "
       "pattern: on a GPU, work-items that read neighbouring bytes (grouped) should beat work-items that "
       "each walk a row of their own (direct).") },
  { "002",
    N_("The speed-up is the time of the sequential CPU version divided by the method's: above 1 the "
       "method is faster. For many systems, look for Thomas's algorithm with local memory and "
       "interleaved coefficients to be the fastest, its lead growing with the number of systems, and "
       "for serial cyclic reduction (SERICR) to lose to the CPU; the bars named “paper” are the paper's "
       "own speed-ups. For one large system the order turns round: parallel cyclic reduction (PARACR) "
       "should overtake Thomas, which cannot share one system between work-items.") },
  { "003",
    N_("The paper gives every point of an index domain a thread of its own, by fixed rules. For its "
       "worked example, 2000 × 3000, the formula as printed never reaches some of the points, while the "
       "launch its own text gives, dim3(2000, 3) blocks of 1024 threads, covers them all. Look at the "
       "idle threads that rounding a side up to a power of two costs, and at whether they cost time "
       "against the launches a programmer would write today.") },
  { "004",
    /* xgettext:no-c-format */
    N_("A step of the heat solver is mostly conjugate gradients, which are held back by memory, not by "
       "arithmetic. So look at the bytes per second: they should climb towards the triad line, this "
       "device's measured memory speed, and stay under it. The fused CG should need about 9 % fewer "
       "bytes per row on quadrilaterals (7 % on triangles), as the paper's Table 1 says, and keeping the "
       "whole time step on the device should beat sending only the CG there. On the hybrid page the "
       "CPU's share helps most near lambda_b, the ratio of the GPU's memory bandwidth to the CPU's, and "
       "never by more than the GPU+CPU bound: with today's GPUs that is a few per cent.") },
  { "bench",
    N_("A benchmark sets the papers' methods against what a user would call instead and against the "
       "memory's limit. Look at the gap, not the times alone: a ratio to the library near 1 means the "
       "method is as good as the library, and a fraction of the triad near 1 means the kernel moves its "
       "bytes as fast as this device's memory allows. A method this device cannot run is listed with "
       "the reason, not left out.") },
};

const char *
ks_page_help_paper (const char *paper)
{
  for (guint i = 0; paper != NULL && i < G_N_ELEMENTS (papers); i++)
    if (strcmp (papers[i].paper, paper) == 0)
      return _(papers[i].look);
  return NULL;
}

/* "Paper 000: its title", translated, or NULL for an unknown paper. */
static char *
paper_line (const char *paper)
{
  g_autoptr(GPtrArray) groups = ks_registry_list_papers ();

  for (guint g = 0; paper != NULL && g < groups->len; g++)
    {
      const KsPaperGroup *group = groups->pdata[g];

      if (strcmp (group->id, paper) == 0 && group->title != NULL)
        /* TRANSLATORS: under the page's title in F1's help: "Paper 000: Baranov & Vlatskaya (2013): ..." */
        return g_strdup_printf (_("Paper %s: %s"), paper, _(group->title));
    }
  return NULL;
}

/* The hand-made pages (ks-window-pages.c), each with its title as the
 * sidebar shows it; about, controls and shows are markup. */
static const struct {
  const char *name;
  const char *paper;
  const char *title;
  const char *about;
  const char *controls;
  const char *shows;
  const char *look;
} pages[] = {
  { "devices", NULL, N_("Devices"),
    N_("Every device Kernelscope can run on: OpenCL devices of every installed platform (PoCL runs OpenCL "
       "on this computer's processor), CUDA devices, and the host, which runs the same methods in plain C. "
       "The device in the header bar runs every page."),
    N_("• <b>Devices found</b>: select a device to see its numbers.\n"
       "• <b>Cores per compute unit</b>: not every API reports it, so it comes from a table by "
       "architecture; correct it if you know better, and the work-group experiment uses your value.\n"
       "• <b>Use This Device</b>: makes the selected device the one in the header bar.\n"
       "• <b>Measure Memory Bandwidth</b>: runs copy and triad kernels over three large arrays (like "
       "BabelStream) for a second or two and shows the best rate."),
    N_("<b>The paper's optimal work-group size</b>: from the preferred work-group multiple, the cores per "
       "compute unit and the number of compute units, paper 000 predicts the best group: the least "
       "multiple of LCM(preferred multiple, cores per compute unit) that covers every core. The largest "
       "work-group is the most the device allows."),
    N_("Compare the predicted optimum here with the best group size that the page “Gauss: time vs group "
       "size” measures on the same device.") },
  { "roofline", NULL, N_("Roofline"),
    N_("Every point of every run loaded in the window, of any experiment that counts its bytes and "
       "operations (papers 002-004), against the floor of the device it ran on: the bytes over the "
       "device's triad bandwidth. This session's runs, the recorded ones and files you add share one "
       "plot, several devices at once. No profiler is involved, so it works on PoCL and the host too."),
    N_("• <b>Runs on the roofline</b>: tick the runs to draw.\n"
       "• <b>Add Run…</b>: a results file saved with Export Data or “run … --json”.\n"
       "• <b>Run</b>: measures the triad of the device in the header bar (a second or two), for its runs "
       "that recorded none."),
    /* xgettext:no-c-format */
    N_("<b>x</b>: operations per byte (the arithmetic intensity), <b>y</b>: operations per second. Each "
       "dashed line is a device's triad bandwidth times the intensity: no point of that device can sit "
       "above it unless its bytes stayed in a cache. The tooltip of a point names it and says its bound "
       "and how close it came: “memory-bound, 52 % of triad”. A device's peak compute is drawn only where "
       "a run recorded it; otherwise the line says “peak unknown”."),
    N_("Compare how close each method comes to its device's line, and the same method on two devices: "
       "a GPU and a processor through PoCL differ a hundredfold in bandwidth, yet the fraction of the "
       "floor compares them fairly.") },
  { "gauss-solve", "000", N_("Gauss: single solve"),
    N_("Solves one random linear system Ax = b with the paper's four OpenCL kernels and takes the solve "
       "apart: <b>gauss_fwd_pre</b> prepares each elimination step, <b>gauss_fwd</b> updates the rest of "
       "the matrix (the kernel whose work-groups matter), <b>gauss_bwd_prepare</b> and <b>gauss_bwd</b> do "
       "the back substitution."),
    N_("• <b>Matrix size n</b>: the unknowns of the random, diagonally dominant system.\n"
       "• <b>Precision</b>: float is what the paper measured; double needs a device with 64-bit "
       "arithmetic.\n"
       "• <b>Range policy</b>: fixed launches the whole matrix at every step, as the paper did; shrinking "
       "launches only the rows and columns still to be eliminated.\n"
       "• <b>Local size</b>: chosen by the driver (the paper's outliers), explicit with the range padded to "
       "a multiple of the group, or explicit with the remainder launched apart (split).\n"
       "• <b>Work-group size</b>: work-items per group for the explicit and split policies.\n"
       "• <b>Launches</b>: one by one, as in the paper, or recorded once as a CUDA graph and replayed "
       "(CUDA devices only).\n"
       "On the host the range, the local size and the work-group size do not apply: it runs plain C "
       "loops."),
    N_("<b>Residual</b> ‖Ax − b‖ / ‖b‖: small (about 1e-6 in float) means the answer is right. <b>Time of "
       "the whole solve</b> and the number of <b>kernel launches</b>. <b>Work-groups of the update "
       "kernel</b>: the groups the device really ran. <b>Device time of each kernel</b>: a bar for each "
       "of the four kernels, filled to its share of the time; inside a CUDA graph the kernels are not "
       "timed one by one."),
    N_("Solve n = 1029 and then n = 1030 (N+1 = 1031, a prime) with the local size chosen by the driver, "
       "and read the work-groups: on an NVIDIA GPU past 1024 columns a prime N+1 leaves groups of one "
       "work-item and gauss_fwd takes many times longer. Then choose split and solve again.") },
  { "tridiag-solve", "002", N_("Tridiagonal: your systems"),
    N_("Solves your own tridiagonal systems. <b>A</b> is a Matrix Market file of a tridiagonal matrix; a "
       "batch of K systems of equal size is one block-diagonal matrix with no entry joining two systems. "
       "<b>b</b> holds one value per row."),
    N_("• <b>Matrix A</b> and <b>Right-hand side b</b>: the two Matrix Market files.\n"
       "• <b>Systems in A</b>: how many systems of equal size A holds.\n"
       "• <b>Method</b>: by default the fastest for the shape, or one of the paper's methods.\n"
       "• <b>Precision</b>: float or double.\n"
       "• <b>Run</b> (Ctrl+R) solves on the device in the header bar; <b>Save Solution</b> writes x as "
       "a Matrix Market column."),
    N_("The line under the form gives the time and max |Ax − b|. An entry outside the band, a coupling "
       "between two systems or a zero pivot is named there instead."),
    N_("Solve one batch with each method in turn and compare the times: for many small systems Thomas's "
       "algorithm should win, for one large system parallel cyclic reduction.") },
  { "heat-live", "004", N_("Heat: live animation"),
    N_("Paper 004's test problem: energy released at one point spreads as heat. Each time step solves a "
       "sparse symmetric system with conjugate gradients (CG) on the device in the header bar."),
    N_("• <b>Cells' shape</b>, <b>Domain</b> and <b>Cells</b>: the generated mesh (quadrilaterals, "
       "triangles, mixed or perturbed cells on a square or a disc) and about how many cells it has.\n"
       "• <b>Mesh file</b>: a Gmsh mesh or geometry instead; <b>Back to the generated mesh</b> undoes it.\n"
       "• <b>Exponent n</b>: the conductivity D = D0 T^n; 0 is the linear heat equation.\n"
       "• <b>Time step</b>: the implicit scheme's step.\n"
       "• <b>Problem and boundaries</b>: D0, the released energy, the CG tolerance, and each physical "
       "group of the mesh insulated or held at a temperature.\n"
       "• <b>Fixed colour scale</b>: keeps the first frame's colours, so the spot fades as it spreads.\n"
       "• <b>Record…</b>: records the frames shown as an animated GIF and numbered PNG frames.\n"
       "• <b>Split the cells with the CPU</b> and lambda: paper 004's hybrid; the device solves lambda "
       "cells for every cell the host's cores solve, both at once.\n"
       "• <b>Play</b>, <b>Step</b> and <b>Reset</b>: step continuously, one step, back to the release."),
    N_("The cells' colours run from dark blue (cold) to yellow (hot), as the colour bar shows; each frame "
       "spans its own coldest to hottest cell unless the colour scale is fixed. With the split on, a line "
       "marks the border between the device's cells and the CPU's. The plot beside it draws the time of "
       "each step in ms."),
    N_("With n = 0 the spot stays a Gaussian that widens and fades; with n > 0 the heat moves as a wave "
       "with a sharp front (Zeldovich and Raizer). With the split on, move lambda and watch the time per "
       "step: it is least where the device and the CPU finish together.") },
  { "index-map", "003", N_("Index domain onto blocks"),
    N_("Andrianov et al. lay an index domain onto CUDA blocks and threads by fixed rules: 1024 threads per "
       "block, at most 65,535 blocks per grid dimension, a side that fits a block gets the next power of "
       "two of threads, and with no side within 1024 one side is split into blocks of 1024. Today "
       "gridDim.x goes up to 2^31 - 1."),
    N_("• <b>Domain</b>: N, N1xN2 or N1xN2xN3, N1 the slowest index; 2000x3000 is the paper's worked "
       "example.\n"
       "• <b>Drawn</b>: which rule's grid of blocks the picture shows.\n"
       "• <b>Occupancy block</b>: the block the occupancy API suggests for one flat launch; Run asks the "
       "device in the header bar."),
    N_("Each rule gets a few lines: its launch, how many threads it runs and how many of them are idle; "
       "points a launch never reaches are in bold. In the picture the grid of blocks is outlined, the "
       "threads that work are coloured, the idle ones grey, and the dashed line is the domain's edge."),
    N_("For 2000 × 3000, the paper's formulas as printed divide N1 where its text and worked example "
       "divide N2: the printed launch never reaches 1,904,000 points. Try a side just above a power of "
       "two, such as 1025, and see nearly half the threads idle.") },
};

char *
ks_page_help_for_page (const char *name)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *title = NULL;
  g_autofree char *paper = NULL;
  const char *look;
  int p = -1;

  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (pages) && p < 0; i++)
    if (strcmp (pages[i].name, name) == 0)
      p = (int) i;
  if (p < 0)
    return NULL;
  title = g_markup_printf_escaped ("<big><b>%s</b></big>\n", _(pages[p].title));
  g_string_append (out, title);
  if ((paper = paper_line (pages[p].paper)) != NULL)
    ks_page_help_paragraph (out, paper);
  g_string_append_printf (out, "%s%s\n", out->len ? "\n" : "", _(pages[p].about));
  ks_page_help_heading (out, _("What to look for"));
  if ((look = ks_page_help_paper (pages[p].paper)) != NULL)
    ks_page_help_paragraph (out, look);
  ks_page_help_paragraph (out, _(pages[p].look));
  ks_page_help_heading (out, _("Controls"));
  g_string_append_printf (out, "%s\n", _(pages[p].controls));
  ks_page_help_heading (out, _("What the page shows"));
  g_string_append_printf (out, "%s\n", _(pages[p].shows));
  return g_string_free (g_steal_pointer (&out), FALSE);
}
