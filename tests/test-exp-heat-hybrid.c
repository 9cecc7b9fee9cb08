/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Paper 004's hybrid experiment read back from the H200 runs shipped in
 * data/reference/: its summary states the paper's claim only where the run
 * can test it (a GPU part of its own, on a GPU of its own), and says why
 * not elsewhere. */
#include "ks-exp-heat.h"
#include "ks-run.h"

#include <string.h>

static char *
summary_of (const char *file)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "reference", file, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(KsRun) run = ks_run_load_json (path, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  g_assert_true (run->desc == &ks_exp_heat_hybrid);
  ks_exp_heat_hybrid.summarize (run, out);
  return g_string_free (out, FALSE);
}

/* 16 ranks, one on the GPU: the claim tested, and it fails at 16.8 M cells
 * (lambda_opt 32, 2.7 % below the GPU alone). */
static void
test_mpi_one_gpu_rank (void)
{
  g_autofree char *s = summary_of ("h200-mpi16-heat-hybrid-16m.json");

  g_assert_nonnull (strstr (s, "16777216 cells, 1 GPU(s): lambda_opt 32, relative 0.973"));
  g_assert_nonnull (strstr (s, "the claim does not hold here"));
}

/* Every rank a CPU part: no GPU to compare with, whatever the ratio says. */
static void
test_no_gpu_part (void)
{
  g_autofree char *s = summary_of ("h200-mpi16-cpu-classic.json");

  g_assert_nonnull (strstr (s, "no GPU part (--gpu-ranks 0): not a test of the claim"));
  g_assert_null (strstr (s, "the claim holds"));
}

/* Two GPU ranks on one GPU: the code path ran, the times test nothing. */
static void
test_shared_gpu (void)
{
  g_autofree char *s = summary_of ("h200-mpi16-2gpuranks.json");

  g_assert_nonnull (strstr (s, "GPU ranks share a GPU (--ranks-per-gpu): not a test of the claim"));
  g_assert_null (strstr (s, "the claim holds"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/exp-heat-hybrid/mpi-one-gpu-rank", test_mpi_one_gpu_rank);
  g_test_add_func ("/exp-heat-hybrid/no-gpu-part", test_no_gpu_part);
  g_test_add_func ("/exp-heat-hybrid/shared-gpu", test_shared_gpu);
  return g_test_run ();
}
