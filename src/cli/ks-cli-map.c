/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli map: paper 003's calculator.  A domain in, its launches
 * out under every rule (ks-index-map.h), the idle threads counted, where the
 * paper's text and formulas part said so; with -d the device's occupancy
 * suggestion and memory check, with --plot the grid of blocks drawn. */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-index-map.h"
#include "ks-index-map-device.h"

#include <json-glib/json-glib.h>

typedef struct {
  KsIndexDomain     domain;
  KsIndexMapping    maps[KS_INDEX_RULE_N];
  KsIndexSuggestion suggestion;
  KsDevice         *device;   /* borrowed from the list */
} MapResult;

static void
map_result_clear (MapResult *r)
{
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    ks_index_mapping_clear (&r->maps[i]);
  ks_index_suggestion_clear (&r->suggestion);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MapResult, map_result_clear)

static double
percent (guint64 part,
         guint64 whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

static gboolean
text_and_formulas_differ (const MapResult *r)
{
  return !ks_index_mapping_same_launch (&r->maps[KS_INDEX_RULE_PAPER], &r->maps[KS_INDEX_RULE_PAPER_PRINTED]);
}

static void
print_text (const MapResult *r)
{
  g_autofree char *dom = ks_index_domain_to_string (&r->domain);

  g_print ("Domain D(%s): %" G_GUINT64_FORMAT " points\n\n", dom, ks_index_domain_points (&r->domain));
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    {
      const KsIndexMapping *m = &r->maps[i];

      g_print ("%-9s %s\n", ks_index_rule_to_string (i), ks_index_rule_label (i));
      if (!m->mapped)
        {
          g_print ("          no launch: %s\n\n", m->why);
          continue;
        }
      g_print ("          %s\n", m->launch);
      g_print ("          %" G_GUINT64_FORMAT " threads, %" G_GUINT64_FORMAT " idle (%.2f %%)",
               m->threads, m->idle, percent (m->idle, m->threads));
      if (m->uncovered)
        g_print (", %" G_GUINT64_FORMAT " points NOT REACHED (%.1f %%)", m->uncovered,
                 percent (m->uncovered, m->points));
      g_print ("\n          %s\n\n", m->why);
    }
  if (r->suggestion.source)
    g_print ("Occupancy block %" G_GUINT64_FORMAT " on %s: %s\n", r->suggestion.block,
             ks_device_get_name (r->device), r->suggestion.source);
  if (text_and_formulas_differ (r))
    g_print ("The paper's text and its formulas disagree for this domain: the text (and its worked\n"
             "example, dim3(2000, 3) for 2000 x 3000) gives %s, the formulas as printed %s.\n",
             r->maps[KS_INDEX_RULE_PAPER].mapped ? r->maps[KS_INDEX_RULE_PAPER].launch : "no launch",
             r->maps[KS_INDEX_RULE_PAPER_PRINTED].mapped ? r->maps[KS_INDEX_RULE_PAPER_PRINTED].launch
                                                         : "no launch");
}

static void
add_dims (JsonBuilder   *b,
          const char    *name,
          guint          dims,
          const guint64 *v)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint d = 0; d < dims; d++)
    json_builder_add_int_value (b, (gint64) v[d]);
  json_builder_end_array (b);
}

static void
print_json (const MapResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

#define INT(k, v) do { json_builder_set_member_name (b, k); json_builder_add_int_value (b, (gint64) (v)); } while (0)
#define STR(k, v) do { json_builder_set_member_name (b, k); json_builder_add_string_value (b, v); } while (0)
  json_builder_begin_object (b);
  add_dims (b, "domain", r->domain.dims, r->domain.n);
  INT ("points", ks_index_domain_points (&r->domain));
  json_builder_set_member_name (b, "text_and_formulas_differ");
  json_builder_add_boolean_value (b, text_and_formulas_differ (r));
  if (r->device)
    STR ("device", ks_device_get_id (r->device));
  if (r->suggestion.source)
    {
      INT ("occupancy_block", r->suggestion.block);
      STR ("occupancy_source", r->suggestion.source);
    }
  json_builder_set_member_name (b, "mappings");
  json_builder_begin_array (b);
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    {
      const KsIndexMapping *m = &r->maps[i];

      json_builder_begin_object (b);
      STR ("rule", ks_index_rule_to_string (i));
      json_builder_set_member_name (b, "mapped");
      json_builder_add_boolean_value (b, m->mapped);
      if (m->mapped)
        {
          STR ("launch", m->launch);
          add_dims (b, "grid", m->grid_dims, m->grid);
          add_dims (b, "block", m->block_dims, m->block);
          INT ("threads", m->threads);
          INT ("idle", m->idle);
          INT ("uncovered", m->uncovered);
        }
      STR ("why", m->why);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
#undef INT
#undef STR
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  g_print ("%s\n", text);
}

static gboolean
write_plot (const MapResult *r,
            KsIndexRule      rule,
            const char      *path,
            GError         **error)
{
  g_autoptr(KsPlot) plot = ks_plot_new ();
  g_autofree char *dom = ks_index_domain_to_string (&r->domain);
  g_autofree char *title = NULL;
  const KsIndexMapping *m = &r->maps[rule];
  guint dx, dy, bx, by;

  if (!ks_cli_check_output (path, NULL, error))
    return FALSE;
  if (!ks_index_mapping_diagram (&r->domain, m, &dx, &dy, &bx, &by))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "the %s rule's launch for D(%s) cannot be drawn: %s", ks_index_rule_to_string (rule), dom,
                   !m->mapped ? m->why : m->uncovered ? "it leaves points unreached" : "a side passes 2^32 - 1");
      return FALSE;
    }
  title = g_strdup_printf ("D(%s) %s: %s", dom, m->launch, ks_index_rule_label (rule));
  ks_plot_set_title (plot, title);
  ks_plot_set_blocks (plot, dx, dy, bx, by);
  return ks_plot_export (plot, path, 900, 600, NULL, error);
}

/* The command line: as given, then as checked. */
typedef struct {
  char        *device_query, *plot, *rule_name, *precision_name, *block_text;
  gboolean     json;
  guint64      block;   /* 0: none given (a string, so that "--block 0" is told from no --block) */
  KsIndexRule  rule;
  KsPrecision  precision;
} MapOptions;

static void
map_options_clear (MapOptions *o)
{
  g_free (o->device_query);
  g_free (o->plot);
  g_free (o->rule_name);
  g_free (o->precision_name);
  g_free (o->block_text);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MapOptions, map_options_clear)

/* Fills o from the command line, leaving the DOMAIN in *argv; KS_CLI_OK
 * or the status to exit with. */
static int
parse_options (MapOptions   *o,
               int          *argc,
               char       ***argv)
{
  GOptionEntry entries[] = {
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device_query,
      "Ask this device for the occupancy block and check that the domain's values fit its memory", "DEVICE" },
    { "block", 0, 0, G_OPTION_ARG_STRING, &o->block_text,
      "The block size for the occupancy rule when no device is asked (1 to 1024)", "N" },
    { "precision", 0, 0, G_OPTION_ARG_STRING, &o->precision_name,
      "float or double (default, the paper's DOUBLE): the size of one value for the memory check", "P" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print JSON instead of text", NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &o->plot, "Draw the grid of blocks (PNG, SVG or PDF)", "FILE" },
    { "rule", 0, 0, G_OPTION_ARG_STRING, &o->rule_name,
      "The rule --plot draws: paper (default), printed, today, occupancy", "RULE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;

  context = g_option_context_new ("DOMAIN - lay an index domain onto blocks and threads (paper 003)");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "DOMAIN is N, N1xN2 or N1xN2xN3 (e.g. 2000x3000), N1 the slowest index.  Each rule's launch is\n"
    "printed with the threads it runs, the idle ones, and any points it leaves unreached:\n"
    "  paper      Andrianov et al.'s rules as the text and the worked example say (1024 threads\n"
    "             per block, 65535 blocks per grid dimension, a power of two of threads)\n"
    "  printed    the same as the paper's formulas print them (N2 threads; (N1 + 1023) / 1024\n"
    "             where the worked example shows N2 is meant)\n"
    "  today      the paper's layout with gridDim.x up to 2^31 - 1 and threads in whole warps\n"
    "  occupancy  one flat launch in blocks of the size the occupancy API suggests (-d DEVICE:\n"
    "             CUDA's; OpenCL has none, the kernel's limit in preferred multiples is used)\n"
    "Example: kernelscope-cli map 2000x3000 -d cuda --plot grid.png");
  if (!g_option_context_parse (context, argc, argv, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  return KS_CLI_OK;
}

/* Checks o's values into its block, rule and precision, and that one
 * DOMAIN is left of argc; KS_CLI_OK or KS_CLI_USAGE. */
static int
check_options (MapOptions *o,
               int         argc)
{
  if (argc != 2)
    {
      g_printerr ("kernelscope-cli: map takes one DOMAIN, e.g. kernelscope-cli map 2000x3000\n");
      return KS_CLI_USAGE;
    }
  if (o->block_text && !g_ascii_string_to_unsigned (o->block_text, 10, 1, KS_INDEX_PAPER_THREADS, &o->block, NULL))
    {
      g_printerr ("kernelscope-cli: --block is the threads of one block, a whole number from 1 to %u, not \"%s\"\n",
                  (guint) KS_INDEX_PAPER_THREADS, o->block_text);
      return KS_CLI_USAGE;
    }
  if (o->block > 0 && o->device_query)
    {
      g_printerr ("kernelscope-cli: give -d (the device suggests the block) or --block, not both\n");
      return KS_CLI_USAGE;
    }
  if (o->rule_name)
    {
      for (o->rule = 0; o->rule < KS_INDEX_RULE_N; o->rule++)
        if (g_strcmp0 (o->rule_name, ks_index_rule_to_string (o->rule)) == 0)
          break;
      if (o->rule == KS_INDEX_RULE_N)
        {
          g_printerr ("kernelscope-cli: --rule %s is none of paper, printed, today, occupancy\n", o->rule_name);
          return KS_CLI_USAGE;
        }
    }
  if (o->precision_name && !ks_precision_from_string (o->precision_name, &o->precision))
    {
      g_printerr ("kernelscope-cli: --precision %s is neither float nor double\n", o->precision_name);
      return KS_CLI_USAGE;
    }
  return KS_CLI_OK;
}

/* -d: the device named, whether the domain's values fit its memory, and
 * its occupancy block into r; KS_CLI_OK or the status to exit with. */
static int
ask_device (MapResult        *r,
            KsDeviceList     *list,
            const MapOptions *o)
{
  g_autoptr(GError) error = NULL;

  if (!(r->device = ks_cli_pick_device (list, o->device_query, 0, o->json, &error)))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (!ks_index_domain_check_device (&r->domain, r->device, o->precision, &error) ||
      !ks_index_suggest_block (r->device, o->precision, &r->suggestion, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  return KS_CLI_OK;
}

int
ks_cli_map (int    argc,
            char **argv)
{
  g_auto(MapOptions) o = { .rule = KS_INDEX_RULE_PAPER, .precision = KS_PRECISION_DOUBLE };
  g_autoptr(GError) error = NULL;
  g_autoptr(KsDeviceList) list = NULL;
  g_auto(MapResult) r = { 0 };
  guint64 block;
  int status;

  if ((status = parse_options (&o, &argc, &argv)) != KS_CLI_OK || (status = check_options (&o, argc)) != KS_CLI_OK)
    return status;
  if (!ks_index_domain_parse (argv[1], &r.domain, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);

  block = o.block;
  if (o.device_query)
    {
      list = ks_device_list_new ();
      if ((status = ask_device (&r, list, &o)) != KS_CLI_OK)
        return status;
      block = r.suggestion.block;
    }
  for (guint i = 0; i < KS_INDEX_RULE_N; i++)
    ks_index_map (&r.domain, i, block, &r.maps[i]);

  if (o.plot && !write_plot (&r, o.rule, o.plot, &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  if (o.json)
    print_json (&r);
  else
    print_text (&r);
  return KS_CLI_OK;
}
