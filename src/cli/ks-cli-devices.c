/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-ogs.h"
#include "ks-bench-probes.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

static char *
format_bytes (guint64 bytes)
{
  if (bytes == 0)
    return g_strdup ("-");
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static void
print_device (guint     index,
              KsDevice *device)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  g_autofree char *local = format_bytes (info->local_mem);
  g_autofree char *global = format_bytes (info->global_mem);
  g_autofree char *alloc = format_bytes (info->max_alloc);
  guint cores = ks_device_get_cores_per_cu (device);
  KsOgsPrediction p;

  g_print ("[%u] %s  (%s)\n", index, info->name, info->id);
  g_print ("    backend %-8s type %-6s vendor %s\n", ks_backend_to_string (info->backend),
           ks_device_type_to_string (info->type), info->vendor);
  g_print ("    platform %s, driver %s\n", info->platform_name, info->driver_version);
  if (info->cc_major >= 0)
    g_print ("    compute capability %d.%d\n", info->cc_major, info->cc_minor);
  g_print ("    compute units %u, cores per unit %s%u (%s)\n", info->compute_units,
           cores ? "" : "unknown ", cores, ks_device_get_cores_source (device));
  if (info->backend != KS_BACKEND_HOST)
    g_print ("    max work-group %" G_GSIZE_FORMAT ", item sizes %" G_GSIZE_FORMAT " x %"
             G_GSIZE_FORMAT " x %" G_GSIZE_FORMAT ", preferred multiple %" G_GSIZE_FORMAT "\n",
             info->max_work_group_size, info->max_work_item_sizes[0], info->max_work_item_sizes[1],
             info->max_work_item_sizes[2], info->preferred_multiple);
  g_print ("    memory: global %s, largest buffer %s, local %s; double precision %s\n",
           global, alloc, local, info->has_fp64 ? "yes" : "no");
  if (info->warp_size || info->memory_bus_bits)
    g_print ("    warp %u, memory bus %u bits, peak bandwidth %.0f GB/s (data sheet: 2 x clock x bus)\n",
             info->warp_size, info->memory_bus_bits, info->peak_bandwidth_gbs);
  if (info->bandwidth_gbs > 0)
    g_print ("    measured bandwidth (triad): %.1f GB/s\n", info->bandwidth_gbs);
  if (info->backend != KS_BACKEND_HOST)
    {
      if (ks_ogs_predict (info->preferred_multiple, cores, info->compute_units,
                          info->max_work_group_size, &p))
        {
          g_autofree char *why = ks_ogs_explain (&p);
          g_print ("    predicted optimal work-group size: %" G_GUINT64_FORMAT "%s\n      (%s)\n",
                   p.usable, p.exceeds_limit ? " (rule exceeds the device limit)" : "", why);
        }
      else
        g_print ("    predicted optimal work-group size: unknown (needs cores per unit and the preferred multiple)\n");
    }
}

static JsonNode *
device_to_json (KsDevice *device)
{
  const KsDeviceInfo *info = ks_device_get_info (device);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  KsOgsPrediction p;
  gboolean have_prediction;

  have_prediction = ks_ogs_predict (info->preferred_multiple, ks_device_get_cores_per_cu (device),
                                    info->compute_units, info->max_work_group_size, &p);
#define STR(k, v) do { json_builder_set_member_name (b, k); json_builder_add_string_value (b, v); } while (0)
#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, v); } while (0)
  json_builder_begin_object (b);
  STR ("id", info->id);
  STR ("name", info->name);
  STR ("backend", ks_backend_to_string (info->backend));
  STR ("type", ks_device_type_to_string (info->type));
  STR ("vendor", info->vendor);
  STR ("platform", info->platform_name);
  STR ("driver_version", info->driver_version);
  STR ("version", info->version);
  INT ("compute_units", info->compute_units);
  INT ("cores_per_cu", ks_device_get_cores_per_cu (device));
  STR ("cores_per_cu_source", ks_device_get_cores_source (device));
  INT ("max_work_group_size", info->max_work_group_size);
  json_builder_set_member_name (b, "max_work_item_sizes");
  json_builder_begin_array (b);
  for (guint d = 0; d < 3; d++)
    json_builder_add_int_value (b, info->max_work_item_sizes[d]);
  json_builder_end_array (b);
  INT ("preferred_multiple", info->preferred_multiple);
  INT ("local_mem", info->local_mem);
  INT ("global_mem", info->global_mem);
  INT ("max_alloc", info->max_alloc);
  if (info->bandwidth_gbs > 0)
    {
      json_builder_set_member_name (b, "bandwidth_gbs");
      json_builder_add_double_value (b, info->bandwidth_gbs);
    }
  if (info->warp_size)
    INT ("warp_size", info->warp_size);
  if (info->memory_bus_bits)
    INT ("memory_bus_bits", info->memory_bus_bits);
  json_builder_set_member_name (b, "fp64");
  json_builder_add_boolean_value (b, info->has_fp64);
  if (info->cc_major >= 0)
    {
      g_autofree char *cc = g_strdup_printf ("%d.%d", info->cc_major, info->cc_minor);
      STR ("compute_capability", cc);
    }
  json_builder_set_member_name (b, "predicted_ogs");
  if (have_prediction)
    json_builder_add_int_value (b, p.ogs);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "predicted_ogs_usable");
  if (have_prediction)
    json_builder_add_int_value (b, p.usable);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
#undef STR
#undef INT
  return json_builder_get_root (b);
}

/* Each device's triad bandwidth, measured on demand and never cached:
 * clocks, load and drivers change it.  A device that fails is said and
 * skipped. */
static void
measure_bandwidths (KsDeviceList *list)
{
  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      KsDevice *device = ks_device_list_get_device (list, i);
      g_autoptr(GError) error = NULL;
      KsBandwidth bw;

      if (ks_device_get_backend (device) != KS_BACKEND_HOST &&
          !ks_bench_bandwidth (device, 0, 10, &bw, &error))
        g_printerr ("kernelscope-cli: bandwidth of %s: %s\n", ks_device_get_id (device), error->message);
    }
}

/* -d with --cores-per-cu: the device whose cores per unit to override.
 * -d is checked even alone: an unknown device is never ignored.
 * KS_CLI_OK or KS_CLI_USAGE. */
static int
override_cores (KsDeviceList *list,
                const char   *device_query,
                guint         cores)
{
  g_autoptr(GError) error = NULL;

  if (cores == 0 && device_query == NULL)
    return KS_CLI_OK;
  if (ks_cli_pick_device (list, device_query, cores, TRUE, &error) == NULL)
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (cores == 0)
    {
      g_printerr ("kernelscope-cli: -d names the device whose cores per unit --cores-per-cu sets; "
                  "give --cores-per-cu too (every device is listed anyway)\n");
      return KS_CLI_USAGE;
    }
  return KS_CLI_OK;
}

static void
print_list_json (KsDeviceList *list)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    json_builder_add_value (b, device_to_json (ks_device_list_get_device (list, i)));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (const char * const *n = ks_device_list_get_notes (list); *n; n++)
    json_builder_add_string_value (b, *n);
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

static void
print_list_text (KsDeviceList *list)
{
  for (guint i = 0; i < ks_device_list_get_n_devices (list); i++)
    {
      print_device (i, ks_device_list_get_device (list, i));
      g_print ("\n");
    }
  for (const char * const *n = ks_device_list_get_notes (list); *n; n++)
    g_print ("note: %s\n", *n);
}

int
ks_cli_devices (int    argc,
                char **argv)
{
  gboolean json = FALSE, bandwidth = FALSE;
  guint cores = 0;
  g_autofree char *cores_text = NULL;
  g_autofree char *device_query = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print the list as JSON on stdout", NULL },
    { "bandwidth", 'b', 0, G_OPTION_ARG_NONE, &bandwidth,
      "Measure each device's memory bandwidth first (triad kernel, about a second per device)", NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device_query,
      "With --cores-per-cu: the device whose cores per unit to override", "ID" },
    { "cores-per-cu", 0, 0, G_OPTION_ARG_STRING, &cores_text,
      "Override the cores per compute unit (OpenCL does not report it) to see the predicted optimum", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- list the compute devices");
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Lists every OpenCL device (through the ICD loader), every CUDA device when built with CUDA,\n"
    "and the host CPU backend, with the inputs of the paper's optimal work-group rule:\n"
    "the preferred work-group multiple (read from a built kernel), the compute units and the\n"
    "cores per unit (from a table by architecture; --cores-per-cu overrides it).");
  if (!g_option_context_parse (context, &argc, &argv, &error) ||
      !ks_cli_parse_cores_per_cu (cores_text, &cores, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);

  list = ks_device_list_new ();
  if (bandwidth)
    measure_bandwidths (list);
  if ((status = override_cores (list, device_query, cores)) != KS_CLI_OK)
    return status;
  if (json)
    print_list_json (list);
  else
    print_list_text (list);
  return KS_CLI_OK;
}
