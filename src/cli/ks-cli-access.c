/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernelscope-cli access: which addresses one warp of a kernel of papers
 * 001-003 touches in a step, the cache lines (transactions) that costs
 * against the ideal, and with --plot the picture (ks-access.h). */
#define G_LOG_DOMAIN "ks-cli"

#include "ks-cli.h"
#include "ks-cli-access.h"
#include "ks-access.h"
#include "ks-types.h"

#include <string.h>

static const char *const schemes[] = {
  "direct-functions", "direct-padding", "direct-clamping",
  "grouped-functions", "grouped-padding", "grouped-clamping", NULL,
};

static void
access_options_clear (AccessOptions *o)
{
  g_free (o->scheme);
  g_free (o->method);
  g_free (o->layout);
  g_free (o->domain);
  g_free (o->rule);
  g_free (o->precision);
  g_free (o->plot);
  g_free (o->device_query);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AccessOptions, access_options_clear)

static int
usage_error (const char *format,
             ...) G_GNUC_PRINTF (1, 2);

static int
usage_error (const char *format,
             ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("kernelscope-cli: %s\n", text);
  return KS_CLI_USAGE;
}

/* A negative count, or an option that belongs to another experiment, is
 * refused, not ignored. */
static int
refuse_foreign (const AccessOptions *o,
                const char          *experiment)
{
  const struct { const char *name; gboolean given; const char *owner; } opts[] = {
    { "--scheme", o->scheme != NULL, "micro-access" },
    { "--height", o->height != KS_CLI_ACCESS_UNSET, "micro-access" },
    { "--width", o->width != KS_CLI_ACCESS_UNSET, "micro-access" },
    { "--method", o->method != NULL, "tridiag-batch" },
    { "--layout", o->layout != NULL, "tridiag-batch" },
    { "--level", o->level != KS_CLI_ACCESS_UNSET, "tridiag-batch" },
    { "--n", o->n != KS_CLI_ACCESS_UNSET, "tridiag-batch" },
    { "--systems", o->systems != KS_CLI_ACCESS_UNSET, "tridiag-batch" },
    { "--domain", o->domain != NULL, "index-fill" },
    { "--rule", o->rule != NULL, "index-fill" },
  };

  const struct { const char *name; int value; } counts[] = {
    { "--height", o->height }, { "--width", o->width }, { "--level", o->level }, { "--n", o->n },
    { "--systems", o->systems }, { "--step", o->step }, { "--warp-index", o->warp_index },
  };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (counts[i].value < 0 && counts[i].value != KS_CLI_ACCESS_UNSET)
      return usage_error ("%s takes a count, 0 or more, not %d", counts[i].name, counts[i].value);
  for (guint i = 0; i < G_N_ELEMENTS (opts); i++)
    if (opts[i].given && strcmp (opts[i].owner, experiment) != 0)
      return usage_error ("%s is an option of access %s, not of access %s", opts[i].name, opts[i].owner,
                          experiment);
  return KS_CLI_OK;
}

static int
point_micro (const AccessOptions *o,
             KsAccessPoint       *p)
{
  const char *scheme = o->scheme ? o->scheme : "direct-functions";
  guint k;

  for (k = 0; schemes[k]; k++)
    if (strcmp (scheme, schemes[k]) == 0)
      break;
  if (!schemes[k])
    return usage_error ("--scheme %s is none of direct-functions, direct-padding, direct-clamping, "
                        "grouped-functions, grouped-padding, grouped-clamping", scheme);
  p->kernel = k < 3 ? KS_ACCESS_MICRO_DIRECT : KS_ACCESS_MICRO_GROUPED;
  p->edges = k % 3;
  p->rows = o->height != KS_CLI_ACCESS_UNSET ? (guint) o->height : 1080;
  p->len = o->width != KS_CLI_ACCESS_UNSET ? (guint) o->width : 1920;
  return KS_CLI_OK;
}

static int
point_tridiag (const AccessOptions *o,
               KsAccessPoint       *p)
{
  const char *method = o->method ? o->method : "thomas", *layout = o->layout ? o->layout : "natural";
  gboolean interleaved;

  if (strcmp (method, "thomas") != 0 && strcmp (method, "thomas-staged") != 0 && strcmp (method, "paracr") != 0)
    return usage_error ("--method %s is none of thomas, thomas-staged, paracr", method);
  if (strcmp (layout, "natural") != 0 && strcmp (layout, "interleaved") != 0)
    return usage_error ("--layout %s is neither natural nor interleaved", layout);
  if (o->level != KS_CLI_ACCESS_UNSET && strcmp (method, "paracr") != 0)
    return usage_error ("--level is PARACR's (--method paracr): Thomas has no levels");
  interleaved = strcmp (layout, "interleaved") == 0;
  if (strcmp (method, "thomas") == 0)
    p->kernel = interleaved ? KS_ACCESS_THOMAS_INTERLEAVED : KS_ACCESS_THOMAS_NATURAL;
  else if (strcmp (method, "thomas-staged") == 0)
    p->kernel = interleaved ? KS_ACCESS_THOMAS_STAGED_INTERLEAVED : KS_ACCESS_THOMAS_STAGED_NATURAL;
  else
    p->kernel = interleaved ? KS_ACCESS_PARACR_INTERLEAVED : KS_ACCESS_PARACR_NATURAL;
  p->n = o->n != KS_CLI_ACCESS_UNSET ? (guint) o->n : 4095;
  p->systems = o->systems != KS_CLI_ACCESS_UNSET ? (guint) o->systems : 5000;
  p->level = o->level != KS_CLI_ACCESS_UNSET ? (guint) o->level : 0;
  return KS_CLI_OK;
}

static int
point_index (const AccessOptions *o,
             KsAccessPoint       *p)
{
  g_autoptr(GError) error = NULL;
  const char *rule = o->rule ? o->rule : "paper";

  p->kernel = KS_ACCESS_INDEX_MAPPED;
  if (!ks_index_domain_parse (o->domain ? o->domain : "2000x3000", &p->domain, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  for (p->rule = 0; p->rule < KS_INDEX_RULE_N; p->rule++)
    if (strcmp (rule, ks_index_rule_to_string (p->rule)) == 0)
      break;
  if (p->rule == KS_INDEX_RULE_N)
    return usage_error ("--rule %s is none of paper, printed, today, occupancy", rule);
  return KS_CLI_OK;
}

/* The point the options name, checked; KS_CLI_OK or KS_CLI_USAGE. */
static int
make_point (const AccessOptions *o,
            const char          *experiment,
            KsAccessPoint       *p)
{
  KsPrecision precision = KS_PRECISION_FLOAT;
  int status;

  memset (p, 0, sizeof *p);
  p->groups = 1;
  if (o->group_size < 1 || o->group_size > 1024)
    return usage_error ("--group-size is the work-items of one group, from 1 to 1024, not %d", o->group_size);
  if (o->warp < 1 || o->warp > 1024)
    return usage_error ("--warp is the items that run one instruction together, from 1 to 1024, not %d", o->warp);
  if (o->line != 32 && o->line != 64 && o->line != 128)
    return usage_error ("--line is a cache line of 32, 64 or 128 bytes, not %d", o->line);
  if (o->precision && !ks_precision_from_string (o->precision, &precision))
    return usage_error ("--precision %s is neither float nor double", o->precision);
  p->group = (guint) o->group_size;
  p->elem = precision == KS_PRECISION_DOUBLE ? 8 : 4;
  if ((status = refuse_foreign (o, experiment)) != KS_CLI_OK)
    return status;
  if (strcmp (experiment, "micro-access") == 0)
    return point_micro (o, p);
  if (strcmp (experiment, "tridiag-batch") == 0)
    return point_tridiag (o, p);
  if (strcmp (experiment, "index-fill") == 0)
    return point_index (o, p);
  return usage_error ("access draws micro-access (001), tridiag-batch (002) or index-fill (003), not \"%s\"",
                      experiment);
}

static void
print_step (const KsAccessModel *m,
            const AccessOptions *o,
            guint                step)
{
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (KsAccessCount));
  guint lines = 0;
  double ideal = 0;

  ks_access_count_step (m, (guint) o->warp, (guint) o->warp_index, step, (guint) o->line, counts);
  g_print ("Step %u of %u, warp %d (%u items), %d-byte lines:\n", step, m->steps, o->warp_index,
           (guint) MIN ((guint64) o->warp, m->local[0]), o->line);
  if (counts->len == 0)
    g_print ("  no access: every item of this warp is idle here\n");
  else
    g_print ("  %-6s %6s %13s %8s\n", "access", "items", "transactions", "ideal");
  for (guint i = 0; i < counts->len; i++)
    {
      const KsAccessCount *c = &g_array_index (counts, KsAccessCount, i);

      g_print ("  %-6u %6u %13u %8.3g\n", i, c->items, c->lines, c->ideal);
      lines += c->lines;
      ideal += c->ideal;
    }
  if (counts->len > 0)
    g_print ("  step   %6s %13u %8.3g  (%.1fx the ideal)\n", "", lines, ideal, ideal > 0 ? lines / ideal : 0.0);
}

static void
print_model (const KsAccessModel *m,
             const AccessOptions *o,
             const char          *experiment,
             const char          *variant)
{
  const guint64 item_steps = ks_access_item_steps (m);
  guint idle = 0, warps = 0;
  guint64 lines;
  double ideal;

  for (guint i = 0; i < m->n_items; i++)
    idle += m->idle[i];
  warps = (guint) ((m->local[0] + o->warp - 1) / o->warp);
  g_print ("access %s, %s: groups of %" G_GUINT64_FORMAT " items over %" G_GUINT64_FORMAT, experiment, variant,
           m->local[0], m->global[0]);
  for (guint d = 1; d < m->dims; d++)
    g_print (" x %" G_GUINT64_FORMAT, m->global[d]);
  g_print ("; the first group modelled: %u items, %u idle, %u warps\n\n", m->n_items, idle, warps);
  print_step (m, o, (guint) o->step);
  ks_access_count_total (m, (guint) o->warp, (guint) o->line, &lines, &ideal);
  g_print ("\nEvery step of the group's %u warps: %" G_GUINT64_FORMAT " transactions, ideal %.6g (%.2fx)\n",
           warps, lines, ideal, ideal > 0 ? lines / ideal : 0.0);
  g_print ("Per item and step: %.4g transactions\n", item_steps ? (double) lines / item_steps : 0.0);
}

int
ks_cli_access (int    argc,
               char **argv)
{
  g_auto(AccessOptions) o = { .group_size = 64, .line = KS_CLI_ACCESS_UNSET, .warp = KS_CLI_ACCESS_UNSET,
                              .height = KS_CLI_ACCESS_UNSET, .width = KS_CLI_ACCESS_UNSET,
                              .n = KS_CLI_ACCESS_UNSET, .systems = KS_CLI_ACCESS_UNSET,
                              .level = KS_CLI_ACCESS_UNSET };
  g_auto(KsAccessModel) m = { 0 };
  g_autoptr(GError) error = NULL;
  KsAccessPoint p;
  int status;

  if ((status = ks_cli_access_parse (&o, &argc, &argv)) != KS_CLI_OK)
    return status;
  if (argc != 2)
    return usage_error ("access takes one EXPERIMENT (micro-access, tridiag-batch or index-fill), "
                        "e.g. kernelscope-cli access micro-access --scheme grouped-padding");
  if ((status = ks_cli_access_device (&o)) != KS_CLI_OK || (status = make_point (&o, argv[1], &p)) != KS_CLI_OK)
    return status;
  if (o.plot && !ks_cli_check_output (o.plot, NULL, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (!ks_access_model_build (&p, &m, &error))
    return ks_cli_fail (KS_CLI_USAGE, error);
  if (o.step < 0 || (guint) o.step >= MAX (m.steps, 1))
    return usage_error ("--step %d is past the kernel's steps: 0 to %u here", o.step, MAX (m.steps, 1) - 1);
  if (o.warp_index < 0 || (guint) o.warp_index >= (m.local[0] + o.warp - 1) / o.warp)
    return usage_error ("--warp-index %d is past the group's warps: 0 to %u here", o.warp_index,
                        (guint) ((m.local[0] + o.warp - 1) / o.warp) - 1);
  print_model (&m, &o, argv[1], ks_access_kernel_to_string (p.kernel));
  if (o.plot && !ks_cli_access_plot (&m, &p, &o, argv[1], &error))
    return ks_cli_fail (KS_CLI_FAILED, error);
  return KS_CLI_OK;
}
