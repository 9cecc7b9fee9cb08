/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Paper 003 on the devices here: the mapped fill and the grid-stride fill
 * of many domains (every point checked against g + 1), the worked
 * example's two-kernel reduction for many v x w (every row against the
 * closed form), the same on the host with one core and with OpenMP, the
 * bad inputs, and both experiments through the engine. */
#define G_LOG_DOMAIN "test-index"

#include "ks-compute-error.h"
#include "ks-device-list.h"
#include "ks-engine.h"
#include "ks-exp-index.h"
#include "ks-registry.h"
#include "ks-run.h"
#include "ks-index-map.h"
#include "ks-index-solver.h"

#include <locale.h>
#include <math.h>
#include <string.h>

static KsDeviceList *devices;

/* Every OpenCL or CUDA device here (PoCL on a CPU machine). */
static GPtrArray *
gpu_devices (void)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    {
      KsDevice *d = ks_device_list_get_device (devices, i);
      if (ks_device_get_backend (d) != KS_BACKEND_HOST)
        g_ptr_array_add (out, d);
    }
  return out;
}

static KsIndexSolver *
solver_or_skip (KsDevice *device, KsPrecision precision)
{
  g_autoptr(GError) error = NULL;
  KsIndexSolver *s = ks_index_solver_new (device, precision, &error);

  if (s == NULL && g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED))
    g_test_message ("%s: %s", ks_device_get_name (device), error->message);
  else
    g_assert_no_error (error);
  return s;
}

/* body on a solver of every precision of every OpenCL or CUDA device. */
static void
for_each_solver (void (*body) (KsIndexSolver *s, KsPrecision p))
{
  g_autoptr(GPtrArray) gpus = gpu_devices ();

  if (gpus->len == 0)
    {
      g_test_skip ("no OpenCL or CUDA device here");
      return;
    }
  for (guint d = 0; d < gpus->len; d++)
    for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
      {
        g_autoptr(KsIndexSolver) s = solver_or_skip (gpus->pdata[d], p);

        if (s)
          body (s, p);
      }
}

/* The calculator's rule behind each one-thread-per-point fill. */
static const KsIndexRule fill_rules[] = {
  [KS_INDEX_FILL_MAPPED] = KS_INDEX_RULE_PAPER,
  [KS_INDEX_FILL_STRIDE] = KS_INDEX_RULE_N,   /* none: a grid-stride loop */
  [KS_INDEX_FILL_TODAY] = KS_INDEX_RULE_TODAY,
  [KS_INDEX_FILL_OCCUPANCY] = KS_INDEX_RULE_OCCUPANCY,
};

/* Every fill of many domains: every point right, and each mapped launch
 * the very grid and block the calculator (kernelscope-cli map) gives.
 * 70000 x 3 needs more than the paper's 65,535 blocks along one grid
 * dimension: the paper folds them into dim3(2, 65535), today's limits
 * launch 70,000 along x. */
static void
fill_body (KsIndexSolver *s, KsPrecision p)
{
  static const char *const domains[] = {
    "1", "1000", "1025", "70001", "3x5", "37x1024", "1000x600", "2000x3000", "1500x1025",
    "3x4x5", "7x9x1024", "2x3x33", "70000x3",
  };

  g_assert_cmpuint (ks_index_solver_get_occupancy_block (s), >=, 1);
  g_assert_nonnull (ks_index_solver_get_occupancy_source (s));
  for (guint i = 0; i < G_N_ELEMENTS (domains); i++)
    for (KsIndexFill f = KS_INDEX_FILL_MAPPED; f < KS_INDEX_FILL_N; f++)
      {
        g_autoptr(GError) error = NULL;
        KsIndexDomain dom;
        g_auto(KsIndexMapping) m = { 0 };
        KsIndexFillResult r;

        g_assert_true (ks_index_domain_parse (domains[i], &dom, NULL));
        if (f != KS_INDEX_FILL_STRIDE)
          ks_index_map (&dom, fill_rules[f], ks_index_solver_get_occupancy_block (s), &m);
        ks_index_solver_fill (s, &dom, f, &r, &error);
        /* Blocks of up to 1024 threads: a kernel whose registers allow
         * fewer on this device (NVIDIA's OpenCL gives the double fill 256
         * on an H200) is refused with the limit named, as a sweep records
         * it.  The occupancy block is within the kernel's limit. */
        if ((f == KS_INDEX_FILL_MAPPED || f == KS_INDEX_FILL_TODAY) &&
            g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE) &&
            strstr (error->message, "the largest it can run is"))
          {
            g_assert_cmpuint (MAX (m.block[0], 1) * MAX (m.block[1], 1) * MAX (m.block[2], 1), >, 64);
            g_test_message ("%s: %s", domains[i], error->message);
            continue;
          }
        g_assert_no_error (error);
        g_assert_cmpfloat (r.max_error, ==, 0.0);
        g_assert_cmpfloat (r.kernel_ms, >=, 0.0);
        if (f != KS_INDEX_FILL_STRIDE)
          {
            g_assert_true (m.mapped);
            g_assert_cmpuint (r.threads, ==, m.threads);
            g_assert_cmpuint (r.idle, ==, m.idle);
            g_assert_cmpuint (r.block, ==, m.block[0]);
            g_assert_cmpuint (r.grid_dims, ==, m.grid_dims);
            for (guint d = 0; d < m.grid_dims; d++)
              g_assert_cmpuint (r.grid[d], ==, m.grid[d]);
          }
        if (strcmp (domains[i], "70000x3") == 0 && f == KS_INDEX_FILL_MAPPED)
          g_assert_true (r.grid_dims == 2 && r.grid[0] == 2 && r.grid[1] == 65535);
        if (strcmp (domains[i], "70000x3") == 0 && f == KS_INDEX_FILL_TODAY)
          g_assert_true (r.grid_dims == 1 && r.grid[0] == 70000 && r.block == 32);
        if (f == KS_INDEX_FILL_OCCUPANCY)
          g_assert_cmpuint (r.block, ==, ks_index_solver_get_occupancy_block (s));
      }
}

static void
test_fill (void)
{
  for_each_solver (fill_body);
}

/* A domain the paper gives no launch for, or whose threads lie along N1,
 * is refused as a group-size error (an experiment refuses that point); the
 * stride loop takes it. */
static void
test_fill_refused (void)
{
  g_autoptr(GPtrArray) gpus = gpu_devices ();
  g_autoptr(KsIndexSolver) s = NULL;
  static const char *const domains[] = { "3x3000", "4x5x2000" };

  if (gpus->len == 0 || !(s = solver_or_skip (gpus->pdata[0], KS_PRECISION_FLOAT)))
    {
      g_test_skip ("no OpenCL or CUDA device here");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (domains); i++)
    {
      g_autoptr(GError) error = NULL;
      KsIndexDomain dom;
      KsIndexFillResult r;

      g_assert_true (ks_index_domain_parse (domains[i], &dom, NULL));
      g_assert_false (ks_index_solver_fill (s, &dom, KS_INDEX_FILL_MAPPED, &r, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
      g_test_message ("%s: %s", domains[i], error->message);
      g_assert_true (ks_index_solver_fill (s, &dom, KS_INDEX_FILL_STRIDE, &r, NULL));
      g_assert_cmpfloat (r.max_error, ==, 0.0);
      /* The flat launch takes any domain. */
      g_assert_true (ks_index_solver_fill (s, &dom, KS_INDEX_FILL_OCCUPANCY, &r, NULL));
      g_assert_cmpfloat (r.max_error, ==, 0.0);
      g_clear_error (&error);
      /* Today's limits: N3 past a block goes to the grid's z and runs;
       * N1 taking the threads still has no kernel layout. */
      if (dom.dims == 3)
        {
          /* (Blocks of 1024: a device whose kernel allows fewer refuses
           * them, naming its limit, as in fill_body.) */
          if (!ks_index_solver_fill (s, &dom, KS_INDEX_FILL_TODAY, &r, &error))
            {
              g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
              g_assert_nonnull (strstr (error->message, "the largest it can run is"));
              continue;
            }
          g_assert_cmpuint (r.grid_dims, ==, 3);
          g_assert_cmpfloat (r.max_error, ==, 0.0);
        }
      else
        {
          g_assert_false (ks_index_solver_fill (s, &dom, KS_INDEX_FILL_TODAY, &r, &error));
          g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_WORK_GROUP_SIZE);
          g_assert_nonnull (strstr (error->message, "N1 gets the threads"));
        }
    }
  /* Past the device's memory: refused before anything is allocated. */
  {
    g_autoptr(GError) error = NULL;
    KsIndexDomain dom;
    KsIndexFillResult r;

    g_assert_true (ks_index_domain_parse ("100000x100000x1000", &dom, NULL));
    g_assert_false (ks_index_solver_fill (s, &dom, KS_INDEX_FILL_STRIDE, &r, &error));
    g_assert_error (error, KS_INDEX_MAP_ERROR, KS_INDEX_MAP_ERROR_MEMORY);
  }
}

static const guint64 shapes[][2] = {
  { 1, 1 }, { 1, 3000 }, { 3, 1023 }, { 5, 1024 }, { 4, 1025 }, { 17, 2048 }, { 2, 5000 }, { 9, 3001 },
  { 200, 300 }, { 2000, 3000 },
};

static void
reduce_body (KsIndexSolver *s, KsPrecision p)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autoptr(GError) error = NULL;
      KsIndexReduceResult r;

      g_assert_true (ks_index_solver_reduce (s, shapes[i][0], shapes[i][1], &r, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (r.max_rel_error, <, p == KS_PRECISION_DOUBLE ? 1e-12 : 1e-5);
      g_assert_cmpuint (r.blocks_per_row, ==, (shapes[i][1] + r.threads1 - 1) / r.threads1);
      g_assert_cmpuint (r.threads2, >=, MIN (r.blocks_per_row, r.threads1));
      if (shapes[i][1] == 3000 && r.threads1 == 1024)
        {
          /* The paper's example: three partial sums a row, a group of 4 to finish them. */
          g_assert_cmpuint (r.blocks_per_row, ==, 3);
          g_assert_cmpuint (r.threads2, ==, 4);
        }
    }
}

static void
test_reduce (void)
{
  for_each_solver (reduce_body);
}

/* The tuned pair on every shape (rows of w a multiple of the vector and
 * not, one chunk and several), by the device's own segment sum and by the
 * local-memory tree, each row against the closed form. */
static void
tuned_body (KsIndexSolver *s, KsPrecision p)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (guint tree = 0; tree <= 1; tree++)
      {
        g_autoptr(GError) error = NULL;
        KsIndexReduceResult r;

        g_assert_true (ks_index_solver_reduce_tuned (s, shapes[i][0], shapes[i][1], tree, &r, &error));
        g_assert_no_error (error);
        g_assert_cmpfloat (r.max_rel_error, <, p == KS_PRECISION_DOUBLE ? 1e-12 : 1e-5);
        g_assert_cmpuint (r.blocks_per_row, >=, 1);
        g_assert_cmpuint (r.blocks_per_row, <=, shapes[i][1]);
        g_assert_cmpuint (r.threads1 % 32, ==, 0);
        g_assert_cmpint (r.tree, !=, KS_INDEX_TREE_NONE);
        g_assert_true (!tree || r.tree == KS_INDEX_TREE_LOCAL);
        g_assert_cmpfloat (r.kernel1_ms, >=, 0);
        if (i == 0 && !tree)
          g_test_message ("tuned segment sum: %s", r.tree == KS_INDEX_TREE_SHUFFLE ? "warp shuffles"
                                                   : r.tree == KS_INDEX_TREE_SUBGROUP ? "sub-groups" : "local tree");
      }
}

static void
test_tuned (void)
{
  for_each_solver (tuned_body);
}

static void
test_host_reduce (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    for (guint threads = 0; threads <= 1; threads++)
      {
        KsIndexReduceResult r;
        g_autoptr(GError) error = NULL;

        g_assert_true (ks_index_host_reduce (shapes[i][0], shapes[i][1], KS_PRECISION_DOUBLE, threads, &r, &error));
        g_assert_no_error (error);
        g_assert_cmpfloat (r.max_rel_error, <, 1e-12);
        g_assert_true (ks_index_host_reduce (shapes[i][0], shapes[i][1], KS_PRECISION_FLOAT, threads, &r, NULL));
        g_assert_cmpfloat (r.max_rel_error, <, 1e-3);
      }
  /* cuBLAS is for CUDA devices only; refused on the others, saying so. */
  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    {
      KsDevice *d = ks_device_list_get_device (devices, i);
      g_autoptr(GError) error = NULL;
      KsIndexReduceResult r;

      if (ks_device_get_backend (d) == KS_BACKEND_CUDA)
        continue;
      g_assert_false (ks_index_gemv_reduce (d, KS_PRECISION_DOUBLE, 3, 5, &r, &error));
      g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED);
    }
  /* The closed form itself, summed by hand. */
  g_assert_cmpfloat (ks_index_row_sum (0, 3), ==, 6);
  g_assert_cmpfloat (ks_index_row_sum (2, 3), ==, 7 + 8 + 9);

  {
    g_autoptr(GError) error = NULL;
    KsIndexReduceResult r;

    g_assert_false (ks_index_host_reduce (G_GUINT64_CONSTANT (1) << 40, G_GUINT64_CONSTANT (1) << 30,
                                          KS_PRECISION_DOUBLE, 1, &r, &error));
    g_assert_error (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_OUT_OF_MEMORY);
  }
}

/* The library baselines, cuBLAS gemv with a ones vector and CUB's block
 * reduction, on every CUDA device, each row checked; CUB refused on
 * OpenCL, saying so. */
static void
test_libraries (void)
{
  gboolean any = FALSE;

  for (guint d = 0; d < ks_device_list_get_n_devices (devices); d++)
    {
      KsDevice *device = ks_device_list_get_device (devices, d);

      if (ks_device_get_backend (device) == KS_BACKEND_OPENCL)
        {
          g_autoptr(KsIndexSolver) s = solver_or_skip (device, KS_PRECISION_FLOAT);
          g_autoptr(GError) error = NULL;
          KsIndexReduceResult r;

          g_assert_false (s && ks_index_solver_reduce_cub (s, 3, 5, &r, &error));
          g_assert_true (s == NULL || g_error_matches (error, KS_COMPUTE_ERROR, KS_COMPUTE_ERROR_UNSUPPORTED));
        }
      if (ks_device_get_backend (device) != KS_BACKEND_CUDA)
        continue;
      any = TRUE;
      for (KsPrecision p = KS_PRECISION_FLOAT; p <= KS_PRECISION_DOUBLE; p++)
        {
          g_autoptr(KsIndexSolver) s = solver_or_skip (device, p);

          for (guint i = 0; s && i < G_N_ELEMENTS (shapes); i++)
            {
              g_autoptr(GError) error = NULL;
              KsIndexReduceResult r;

              g_assert_true (ks_index_gemv_reduce (device, p, shapes[i][0], shapes[i][1], &r, &error));
              g_assert_no_error (error);
              g_assert_cmpfloat (r.max_rel_error, <, p == KS_PRECISION_DOUBLE ? 1e-12 : 1e-5);
              g_assert_cmpfloat (r.total_ms, >, 0);
              g_assert_true (ks_index_solver_reduce_cub (s, shapes[i][0], shapes[i][1], &r, &error));
              g_assert_no_error (error);
              g_assert_cmpfloat (r.max_rel_error, <, p == KS_PRECISION_DOUBLE ? 1e-12 : 1e-5);
              g_assert_cmpfloat (r.total_ms, >, 0);
            }
        }
    }
  if (!any)
    g_test_skip ("no CUDA device here");
}

/* name=value pairs through the engine on device, one warm-up, two reps. */
static KsRun *
run_engine (const KsExperimentDesc *desc,
            KsDevice               *device,
            const char * const     *settings)
{
  g_autoptr(KsEngine) engine = ks_engine_new (desc);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; settings[i]; i += 2)
    {
      g_assert_true (ks_engine_set (engine, settings[i], settings[i + 1], &error));
      g_assert_no_error (error);
    }
  g_assert_true (ks_engine_set_repetitions (engine, 1, 2, &error));
  ks_engine_add_device (engine, device);
  if (!ks_engine_run (engine, NULL, &error))
    g_error ("%s on %s: %s", desc->id, ks_device_get_name (device), error->message);
  return ks_run_ref (ks_engine_get_run (engine));
}

/* index-fill on the first device: three shapes, both methods; n3 = 7 does
 * not divide w = 30, so the 3D points are refused and the sweep goes on. */
static void
test_experiment_fill (void)
{
  g_autoptr(GPtrArray) gpus = gpu_devices ();
  const char *settings[] = { "v", "20", "w", "30", "n3", "3", "precision", "float", NULL };
  const char *refuse[] = { "v", "20", "w", "30", "n3", "7", "shape", "2d,3d", "precision", "float", NULL };
  g_autoptr(KsRun) run = NULL;
  g_autoptr(KsRun) refused = NULL;

  g_assert_true (ks_registry_lookup ("index-fill") == &ks_exp_index_fill);
  if (gpus->len == 0)
    {
      g_test_skip ("no OpenCL or CUDA device here");
      return;
    }
  run = run_engine (&ks_exp_index_fill, gpus->pdata[0], settings);
  g_assert_cmpuint (run->points->len, ==, 12);
  for (guint i = 0; i < run->points->len; i++)
    {
      const KsRunPoint *p = run->points->pdata[i];
      const char *method = g_variant_get_string (ks_run_point_get_param (run, p, "method"), NULL);
      const char *shape = g_variant_get_string (ks_run_point_get_param (run, p, "shape"), NULL);

      /* The paper's blocks of 1024 (mapped, and today's limits, which
       * keep them) may exceed what the kernel's registers allow on a
       * device (NVIDIA's OpenCL on the H200: 256): that point is refused,
       * the limit named, and the sweep goes on.  The occupancy and stride
       * launches ask the device for their block, so they always run. */
      if (p->error && (g_strcmp0 (method, "mapped") == 0 || g_strcmp0 (method, "today") == 0) &&
          strstr (p->error, "the largest it can run is"))
        {
          g_test_message ("%s %s: %s", shape, method, p->error);
          continue;
        }
      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (run->desc, "time_ms")], >, 0);
      /* D(20, 10, 3): blocks of 4 threads for 3 points, a quarter idle;
       * under today's limits a warp of 32 for 3 points. */
      if (g_strcmp0 (method, "mapped") == 0 && g_strcmp0 (shape, "3d") == 0)
        g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (run->desc, "idle_pct")], ==, 25.0);
      if (g_strcmp0 (method, "today") == 0 && g_strcmp0 (shape, "3d") == 0)
        g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (run->desc, "idle_pct")], ==, 100.0 * 29 / 32);
      /* The flat launch: the device's suggested block, recorded with the device. */
      if (g_strcmp0 (method, "occupancy") == 0)
        g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (run->desc, "block")], ==,
                           ks_run_device_get_info (run->devices->pdata[0], "occupancy_block"));
    }
  {
    g_autoptr(GString) summary = g_string_new (NULL);

    run->desc->summarize (run, summary);
    g_test_message ("%s", summary->str);
    g_assert_nonnull (strstr (summary->str, "occupancy block"));
    g_assert_nonnull (strstr (summary->str, "the mapped time"));
  }
  refused = run_engine (&ks_exp_index_fill, gpus->pdata[0], refuse);
  g_assert_cmpuint (refused->points->len, ==, 8);
  for (guint i = 0; i < refused->points->len; i++)
    {
      const KsRunPoint *p = refused->points->pdata[i];
      gboolean is_3d = g_strcmp0 (g_variant_get_string (ks_run_point_get_param (refused, p, "shape"), NULL),
                                  "3d") == 0;

      g_assert_true ((p->error != NULL) == is_3d);
      g_assert_true (!is_3d || strstr (p->error, "does not divide") != NULL);
    }
}

/* index-reduce on the host (one core and OpenMP) and on the first device. */
static void
test_experiment_reduce (void)
{
  g_autoptr(GPtrArray) gpus = gpu_devices ();
  g_autoptr(KsDevice) host = NULL;
  const char *settings[] = { "v", "30", "w", "100,2500", NULL };
  g_autoptr(KsRun) on_host = NULL;

  for (guint i = 0; i < ks_device_list_get_n_devices (devices); i++)
    if (ks_device_get_backend (ks_device_list_get_device (devices, i)) == KS_BACKEND_HOST)
      host = g_object_ref (ks_device_list_get_device (devices, i));
  g_assert_nonnull (host);
  on_host = run_engine (&ks_exp_index_reduce, host, settings);
  g_assert_cmpuint (on_host->points->len, ==, 4);
  for (guint i = 0; i < on_host->points->len; i++)
    {
      const KsRunPoint *p = on_host->points->pdata[i];

      g_assert_null (p->error);
      g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (on_host->desc, "rel_error")], <, 1e-12);
      g_assert_true (isnan (p->values[ks_experiment_desc_find_column (on_host->desc, "kernel1_ms")]));
    }
  if (gpus->len > 0)
    {
      KsDevice *gpu = gpus->pdata[0];
      const gboolean cuda = ks_device_get_backend (gpu) == KS_BACKEND_CUDA;
      g_autoptr(KsRun) on_gpu = run_engine (&ks_exp_index_reduce, gpu, settings);
      const KsExperimentDesc *desc = on_gpu->desc;

      /* Every method the device has: CUB and gemv on CUDA only. */
      g_assert_cmpuint (on_gpu->points->len, ==, cuda ? 8 : 4);
      for (guint i = 0; i < on_gpu->points->len; i++)
        {
          const KsRunPoint *p = on_gpu->points->pdata[i];
          const double method = ks_run_point_get_number (on_gpu, p, "method");
          const double w = ks_run_point_get_number (on_gpu, p, "w");

          g_assert_null (p->error);
          g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (desc, "rel_error")], <, 1e-12);
          if (method == 0 && w == 2500)
            g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (desc, "blocks_per_row")], ==,
                               ceil (2500.0 / p->values[ks_experiment_desc_find_column (desc, "threads1")]));
          if (method <= 1)
            g_assert_cmpfloat (p->values[ks_experiment_desc_find_column (desc, "kernel1_ms")], >, 0);
        }
      /* CUB asked for on OpenCL: that point refused, saying why; the rest run. */
      if (!cuda)
        {
          const char *with_cub[] = { "v", "3", "w", "50", "method", "cub,tuned", NULL };
          g_autoptr(KsRun) refused = run_engine (&ks_exp_index_reduce, gpu, with_cub);

          g_assert_cmpuint (refused->points->len, ==, 2);
          for (guint i = 0; i < 2; i++)
            {
              const KsRunPoint *p = refused->points->pdata[i];
              const gboolean is_cub = ks_run_point_get_number (refused, p, "method") == 2;

              g_assert_true ((p->error != NULL) == is_cub);
              g_assert_true (!is_cub || strstr (p->error, "CUDA devices only") != NULL);
            }
        }
    }
}

int
main (int argc, char **argv)
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  devices = ks_device_list_new ();
  g_test_add_func ("/index/fill", test_fill);
  g_test_add_func ("/index/fill-refused", test_fill_refused);
  g_test_add_func ("/index/reduce", test_reduce);
  g_test_add_func ("/index/tuned", test_tuned);
  g_test_add_func ("/index/host-reduce", test_host_reduce);
  g_test_add_func ("/index/libraries", test_libraries);
  g_test_add_func ("/index/experiment-fill", test_experiment_fill);
  g_test_add_func ("/index/experiment-reduce", test_experiment_reduce);
  status = g_test_run ();
  g_object_unref (devices);
  return status;
}
