/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-compute"

#include "ks-cores-table.h"

#include <glib/gi18n-lib.h>

#include <string.h>

/* FP32 cores per streaming multiprocessor by compute capability, from the
 * throughput table of NVIDIA's CUDA C++ Programming Guide.  The paper's
 * GT 555M is 2.1 (48 per SM); the H100/H200 are 9.0 (128 per SM). */
static const struct {
  int   major;
  int   minor;   /* -1: any minor */
  guint cores;
} nvidia_cc_table[] = {
  { 1, -1,   8 },
  { 2,  0,  32 },
  { 2,  1,  48 },
  { 3, -1, 192 },
  { 5, -1, 128 },
  { 6,  0,  64 },
  { 6, -1, 128 },
  { 7, -1,  64 },
  { 8,  0,  64 },
  { 8, -1, 128 },
  { 9, -1, 128 },
  { 10, -1, 128 },
  { 11, -1, 128 },
  { 12, -1, 128 },
};

guint
ks_cores_per_sm_for_compute_capability (int major,
                                        int minor)
{
  /* Exact minor first, then the "any minor" row of the same major. */
  for (guint i = 0; i < G_N_ELEMENTS (nvidia_cc_table); i++)
    if (nvidia_cc_table[i].major == major && nvidia_cc_table[i].minor == minor)
      return nvidia_cc_table[i].cores;
  for (guint i = 0; i < G_N_ELEMENTS (nvidia_cc_table); i++)
    if (nvidia_cc_table[i].major == major && nvidia_cc_table[i].minor == -1)
      return nvidia_cc_table[i].cores;
  return 0;
}

static gboolean
contains_ci (const char *haystack,
             const char *needle)
{
  g_autofree char *h = NULL;
  g_autofree char *n = NULL;

  if (haystack == NULL)
    return FALSE;
  h = g_ascii_strdown (haystack, -1);
  n = g_ascii_strdown (needle, -1);
  return strstr (h, n) != NULL;
}

guint
ks_cores_per_cu_lookup (const char  *vendor,
                        const char  *name,
                        gboolean     is_cpu,
                        gboolean     is_gpu,
                        int          cc_major,
                        int          cc_minor,
                        const char **out_source)
{
  const char *source = N_("unknown: set it by hand");
  guint cores = 0;

  if (cc_major > 0)
    {
      cores = ks_cores_per_sm_for_compute_capability (cc_major, cc_minor);
      source = cores ? N_("NVIDIA compute capability table") : N_("unknown NVIDIA compute capability");
    }
  else if (is_cpu)
    {
      /* A CPU OpenCL driver (PoCL, Intel) reports one compute unit per
       * hardware thread; each runs one work-item at a time per SIMD lane
       * group, so one "core" per unit is the honest count. */
      cores = 1;
      source = N_("CPU: one core per compute unit");
    }
  else if (is_gpu && (contains_ci (vendor, "advanced micro devices") || contains_ci (vendor, "amd")))
    {
      /* GCN and RDNA compute units have 64 stream processors. */
      cores = 64;
      source = N_("AMD GCN/RDNA: 64 stream processors per CU");
    }
  else if (is_gpu && contains_ci (vendor, "intel"))
    {
      /* Gen9..Xe execution units: 8 FP32 lanes each. */
      cores = 8;
      source = N_("Intel GPU: 8 lanes per execution unit");
    }
  else if (is_gpu && contains_ci (vendor, "nvidia"))
    {
      source = N_("NVIDIA without compute capability query: set it by hand");
    }

  if (out_source)
    *out_source = source;
  return cores;
}
